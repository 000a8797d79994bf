/* CUDA implementation of clover_apply: one thread per site of the parity (or of the block), the
 * kernel specialised on the precision. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/clover.h"

template <int P>
static __global__ void clover_apply_kernel(const void *clover, const void *x, const void *y, void *out, int64_t n,
                                           qf_clover_apply_args a)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_clover_axpby_site(out, a.a, x, a.b, clover, y, qf_clover_site(a.ext, a.parity, i), 1, (qf_precision)P);
}

extern "C" void qf_clover_apply_cuda(void *buffers[], void *cl_arg)
{
    const qf_clover_apply_args *a = (const qf_clover_apply_args *)cl_arg;
    const void *clover = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *x = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    const void *y = (const void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[3]);
    int64_t n = qf_clover_nsites(a->ext, a->parity);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    QF_WITH_ANY_PRECISION(a->prec, P, clover_apply_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(clover, x, y, out, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
