/* CUDA implementation of clover_build: one thread per site; a site whose clover term is not positive
 * definite adds 1 to the worker's accumulator with an atomic add (rare: the build then fails). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/clover.h"

static __global__ void clover_build_kernel(const void *f, void *clover, void *clover_inv, int64_t n,
                                           qf_clover_build_args a, double *acc)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n && qf_clover_build_store_site(f, a.f_prec, clover, clover_inv, a.prec, s, a.kappa_csw))
        atomicAdd(acc, 1.0);
}

extern "C" void qf_clover_build_cuda(void *buffers[], void *cl_arg)
{
    const qf_clover_build_args *a = (const qf_clover_build_args *)cl_arg;
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    clover_build_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]),
        (void *)STARPU_VECTOR_GET_PTR(buffers[2]), n, *a, (double *)STARPU_VARIABLE_GET_PTR(buffers[3]));
    QF_CUDA_CHECK_LAUNCH();
}
