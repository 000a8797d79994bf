/* CUDA implementation of mg_orthonormalize: one thread per (aggregate, chirality), each running the
 * Gram-Schmidt of its disjoint part of V; the vanished-vector counts are added into the worker's REDUX
 * accumulator with atomic adds. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg.h"

template <int P>
static __global__ void mg_orthonormalize_kernel(void *v, int64_t n, qf_mg_geom g, double *bad)
{
    g.prec = (qf_precision)P;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n && qf_mg_orthonormalize_aggregate(&g, v, t / 2, (int)(t % 2))) atomicAdd(bad, 1.0);
}

extern "C" void qf_mg_orthonormalize_cuda(void *buffers[], void *cl_arg)
{
    const qf_mg_orth_args *a = (const qf_mg_orth_args *)cl_arg;
    int apb[QF_NDIM];
    qf_mg_apb(&a->g, apb);
    int64_t n = 2 * qf_volume(apb);
    if (n <= 0) return;
    void *v = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double *bad = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
    QF_WITH_PRECISION(a->g.prec, P, mg_orthonormalize_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(v, n, a->g, bad));
    QF_CUDA_CHECK_LAUNCH();
}
