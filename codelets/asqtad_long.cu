/* CUDA implementation of asqtad_long: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

struct uface_ptrs {
    const void *p[QF_NDIM];
};

static __global__ void asqtad_long_kernel(const void *v, uface_ptrs uface, void *links, int64_t n, qf_asqtad_long_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_asqtad_long_site(&a, v, uface.p, links, s);
}

extern "C" void qf_asqtad_long_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_long_args *a = (const qf_asqtad_long_args *)cl_arg;
    uface_ptrs f;
    for (int mu = 0; mu < QF_NDIM; mu++) f.p[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + mu]);
    int64_t n = qf_volume(a->ext);
    asqtad_long_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), f, (void *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
