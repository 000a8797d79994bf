/* Codelet blas_reduce: adds |x|^2 (norm2) or <x, y> = sum conj(x) y (dot) over the elements of one
 * parity or of the whole block, in double whatever the fields' precision, into a STARPU_REDUX scalar
 * (2 doubles, re and im). STARPU_VARIABLE_NBUFFERS: x, then y unless it is x (or norm2), then r. */
#include "codelets.h"
#include "blas_launch.h"

#if QF_HAVE_CUDA
void qf_blas_reduce_cuda(void *buffers[], void *cl_arg);
#endif

static inline QF_HD_INLINE qf_complex reduce_loop(int op, qf_precision prec, const qf_blas_args *a, const void *x,
                                                  const void *y)
{
    double re = 0.0, im = 0.0;
    for (int64_t i = a->first; i < a->first + a->n; i++) {
        qf_complex v = qf_blas_reduce_elem(op, x, y, i, prec);
        re += v.re;
        im += v.im;
    }
    return qf_cmake(re, im);
}

static void blas_reduce_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    const void *x = qf_blas_field_ptr(buffers, a, QF_RED_X);
    const void *y = qf_blas_field_ptr(buffers, a, QF_RED_Y);
    double *r = qf_blas_scalar_ptr(buffers, a, QF_RED_R);
    qf_complex sum;
    if (a->op == QF_BLAS_NORM2)
        sum = a->prec == QF_DOUBLE ? reduce_loop(QF_BLAS_NORM2, QF_DOUBLE, a, x, x)
                                   : reduce_loop(QF_BLAS_NORM2, QF_SINGLE, a, x, x);
    else
        sum = a->prec == QF_DOUBLE ? reduce_loop(QF_BLAS_DOT, QF_DOUBLE, a, x, y)
                                   : reduce_loop(QF_BLAS_DOT, QF_SINGLE, a, x, y);
    r[0] += sum.re;
    r[1] += sum.im;
}

static struct starpu_perfmodel blas_reduce_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_reduce", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_reduce = {
    .name = "blas_reduce",
    .cpu_funcs = {blas_reduce_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_reduce_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_reduce_model,
};
