/* CUDA implementation of gauge_update: one thread per site of the stage's parity. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/heatbath.h"

struct update_ptrs {
    const void *fwd[QF_NDIM];
    const double *lower[QF_NDIM];
};

static __global__ void gauge_update_kernel(void *block, update_ptrs p, int64_t half, qf_update_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < half) qf_update_site(block, p.fwd, p.lower, a.parity * half + s, &a);
}

extern "C" void qf_gauge_update_cuda(void *buffers[], void *cl_arg)
{
    const qf_update_args *a = (const qf_update_args *)cl_arg;
    update_ptrs p;
    for (int nu = 0; nu < QF_NDIM; nu++) {
        p.fwd[nu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + nu]);
        p.lower[nu] = NULL;
    }
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++)
        if (nu != a->mu) p.lower[nu] = (const double *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM + k++]);
    int64_t half = STARPU_VECTOR_GET_NX(buffers[0]) / 2;
    gauge_update_kernel<<<qf_cuda_blocks(half), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (void *)STARPU_VECTOR_GET_PTR(buffers[0]), p, half, *a);
    QF_CUDA_CHECK_LAUNCH();
}
