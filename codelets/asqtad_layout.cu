/* CUDA implementation of asqtad_layout: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

static __global__ void asqtad_layout_kernel(const void *in, void *out, int64_t n, qf_asqtad_layout_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_asqtad_layout_site(&a, in, out, s);
}

extern "C" void qf_asqtad_layout_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_layout_args *a = (const qf_asqtad_layout_args *)cl_arg;
    int64_t n = qf_volume(a->ext);
    asqtad_layout_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
