/* CUDA implementation of asqtad_ext_slabs: one thread per slab entry, both sides in one launch. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

static __global__ void asqtad_ext_slabs_kernel(void *e, void *slab0, void *slab1, int64_t n, qf_asqtad_slab_args a)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= 2 * n) return;
    int side = t >= n;
    qf_asqtad_slab_copy(a.ext, a.mu, side, a.unpack, e, side ? slab1 : slab0, t - side * n);
}

extern "C" void qf_asqtad_ext_slabs_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_slab_args *a = (const qf_asqtad_slab_args *)cl_arg;
    int64_t n = qf_asqtad_slab_volume(a->ext, a->mu);
    asqtad_ext_slabs_kernel<<<qf_cuda_blocks(2 * n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]),
        (void *)STARPU_VECTOR_GET_PTR(buffers[2]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
