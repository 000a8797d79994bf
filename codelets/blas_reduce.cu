/* CUDA implementation of blas_reduce: a grid-stride loop that sums in double per thread, a
 * shared-memory reduction per thread block, and one atomic add per thread block and component into
 * the result (the worker's STARPU_REDUX copy, or the task's own scalar, cleared first). */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

template <int OP, int P>
static __global__ void blas_reduce_kernel(const void *x, const void *y, qf_blas_args a, double *r, double *r2)
{
    double sum[2] = {0.0, 0.0}, norm[1] = {0.0};
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, qf_blas_reduce_unit(OP, x, y, u, (qf_precision)P, sum, norm));
    qf_blas_block_add<2>(sum, r);
    if (OP == QF_BLAS_DOT_NORM2) qf_blas_block_add<1>(norm, r2);
}

template <int OP>
static void launch(const void *x, const void *y, const qf_blas_args *a, double *r, double *r2, cudaStream_t stream)
{
    QF_WITH_ANY_PRECISION(a->prec, P, {
        unsigned blocks = qf_blas_reduce_blocks<blas_reduce_kernel<OP, P>>(a->n);
        blas_reduce_kernel<OP, P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, *a, r, r2);
    });
}

extern "C" void qf_blas_reduce_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    double *r = qf_blas_scalar_ptr(buffers, a, QF_RED_R), *r2 = qf_blas_scalar_ptr(buffers, a, QF_RED_R2);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    qf_blas_result_clear(a, r, stream);
    if (r2) qf_blas_result_clear(a, r2, stream);
    if (a->n <= 0) return;
    const void *x = qf_blas_field_ptr(buffers, a, QF_RED_X);
    const void *y = qf_blas_field_ptr(buffers, a, QF_RED_Y);
    if (!y) y = x;
    if (a->op == QF_BLAS_NORM2) launch<QF_BLAS_NORM2>(x, y, a, r, r2, stream);
    else if (a->op == QF_BLAS_DOT) launch<QF_BLAS_DOT>(x, y, a, r, r2, stream);
    else launch<QF_BLAS_DOT_NORM2>(x, y, a, r, r2, stream);
    QF_CUDA_CHECK_LAUNCH();
}
