/* CUDA implementation of blas_multi: a grid-stride loop over the units (complex elements, or half
 * records in half precision: kernels/blas.h) of the parity (or of the block), the kernel specialised on the operation,
 * the number of fields and the precision, so that the x_k's sums and coefficients stay in registers.
 * multi_dot sums in double per thread, then per thread block in shared memory, and adds each block's
 * sums into the results with one atomic add each (the worker's STARPU_REDUX copies, or the task's own
 * scalars, cleared first); multi_caxpy reads its coefficients (or divides them out of two scalars) on
 * the device. */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

typedef struct {
    double *r[QF_BLAS_MULTI_MAX];       /* multi_dot's results */
    const double *a[QF_BLAS_MULTI_MAX]; /* multi_caxpy's coefficients, over d where given */
    const double *d[QF_BLAS_MULTI_MAX];
} multi_scalars;

template <int NV, int P>
static __global__ void multi_dot_kernel(qf_blas_multi_fields x, const void *y, multi_scalars s, qf_blas_args a)
{
    double dot[NV][2] = {};
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, qf_blas_multi_dot_unit(NV, &x, y, u, (qf_precision)P, dot));
    double flat[2 * NV];
    QF_UNROLL
    for (int k = 0; k < 2 * NV; k++) flat[k] = dot[k / 2][k % 2];
    qf_blas_block_add_at<2 * NV>(flat, [&s](int k) { return s.r[k / 2] + k % 2; });
}

template <int NV, int P>
static __global__ void multi_caxpy_kernel(qf_blas_multi_fields x, void *y, multi_scalars s, qf_blas_args a)
{
    qf_complex c[NV];
    QF_UNROLL
    for (int k = 0; k < NV; k++) c[k] = qf_blas_update_coefficient(a.s, s.a[k], s.d[k]);
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, qf_blas_multi_caxpy_unit(NV, y, &x, c, u, (qf_precision)P));
}

template <int NV>
static void launch(const qf_blas_args *a, const qf_blas_multi_fields &x, void *y, const multi_scalars &s,
                   cudaStream_t stream)
{
    QF_WITH_ANY_PRECISION(a->prec, P, {
        if (a->op == QF_BLAS_MULTI_DOT) {
            unsigned blocks = qf_blas_reduce_blocks<multi_dot_kernel<NV, P>>(a->n);
            multi_dot_kernel<NV, P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, s, *a);
        } else {
            unsigned blocks = qf_blas_cuda_blocks(a->n, QF_BLAS_UPDATE_BLOCKS);
            multi_caxpy_kernel<NV, P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, y, s, *a);
        }
    });
}

extern "C" void qf_blas_multi_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    qf_blas_multi_fields x = {};
    multi_scalars s = {};
    for (int k = 0; k < a->nvec; k++) {
        x.x[k] = qf_blas_field_ptr(buffers, a, QF_MULTI_X + k);
        if (a->op == QF_BLAS_MULTI_DOT) {
            s.r[k] = qf_blas_scalar_ptr(buffers, a, QF_MULTI_A + k);
            qf_blas_result_clear(a, s.r[k], stream);
        } else {
            s.a[k] = qf_blas_scalar_ptr(buffers, a, QF_MULTI_A + k);
            s.d[k] = qf_blas_scalar_ptr(buffers, a, QF_MULTI_D + k);
        }
    }
    if (a->n <= 0) return;
    void *y = qf_blas_field_ptr(buffers, a, QF_MULTI_Y);
    switch (a->nvec) {
    case 1: launch<1>(a, x, y, s, stream); break;
    case 2: launch<2>(a, x, y, s, stream); break;
    case 3: launch<3>(a, x, y, s, stream); break;
    case 4: launch<4>(a, x, y, s, stream); break;
    case 5: launch<5>(a, x, y, s, stream); break;
    case 6: launch<6>(a, x, y, s, stream); break;
    case 7: launch<7>(a, x, y, s, stream); break;
    default: launch<8>(a, x, y, s, stream); break;
    }
    QF_CUDA_CHECK_LAUNCH();
}
