/* CUDA implementation of blas_reduce: a grid-stride loop that sums in double per thread, a
 * shared-memory reduction per thread block, and one atomic add per thread block and component into
 * the worker's accumulator (the task's STARPU_REDUX buffer). */
#include "codelets.h"
#include "blas_launch.h"

template <int OP, int P>
static __global__ void blas_reduce_kernel(const void *x, const void *y, qf_blas_args a, double *r)
{
    double sum[2] = {0.0, 0.0};
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += (int64_t)gridDim.x * blockDim.x) {
        qf_complex v = qf_blas_reduce_elem(OP, x, y, a.first + i, (qf_precision)P);
        sum[0] += v.re;
        sum[1] += v.im;
    }
    qf_blas_block_add<2>(sum, r);
}

extern "C" void qf_blas_reduce_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    if (a->n <= 0) return;
    const void *x = qf_blas_field_ptr(buffers, a, QF_RED_X);
    const void *y = qf_blas_field_ptr(buffers, a, QF_RED_Y);
    double *r = qf_blas_scalar_ptr(buffers, a, QF_RED_R);
    if (!y) y = x;
    unsigned blocks = qf_blas_cuda_blocks(a->n, QF_BLAS_REDUCE_BLOCKS);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    if (a->op == QF_BLAS_NORM2) {
        if (a->prec == QF_DOUBLE)
            blas_reduce_kernel<QF_BLAS_NORM2, QF_DOUBLE><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, *a, r);
        else
            blas_reduce_kernel<QF_BLAS_NORM2, QF_SINGLE><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, *a, r);
    } else {
        if (a->prec == QF_DOUBLE)
            blas_reduce_kernel<QF_BLAS_DOT, QF_DOUBLE><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, *a, r);
        else
            blas_reduce_kernel<QF_BLAS_DOT, QF_SINGLE><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, *a, r);
    }
    QF_CUDA_CHECK_LAUNCH();
}
