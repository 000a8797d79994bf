/* CUDA implementation of blas_update: a grid-stride loop over the units (complex elements, or half records in
 * half precision: kernels/blas.h) of the parity (or of the block), the kernel specialised on the operation and the precision; the scalar coefficient is
 * read (or divided out of two) on the device from its buffers. */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

template <int OP, int P>
static __global__ void blas_update_kernel(void *y, const void *x, const void *w, const double *sc, const double *sd,
                                          qf_blas_args a)
{
    qf_complex c = qf_blas_update_factor(&a, sc, sd);
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, qf_blas_update_unit(OP, y, x, w, a.a, a.b, c, u, (qf_precision)P));
}

template <int OP>
static void launch(const qf_blas_args *a, void *y, const void *x, const void *w, const double *sc, const double *sd,
                   cudaStream_t stream)
{
    unsigned blocks = qf_blas_cuda_blocks(a->n, QF_BLAS_UPDATE_BLOCKS);
    QF_WITH_ANY_PRECISION(a->prec, P, blas_update_kernel<OP, P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(y, x, w, sc, sd, *a));
}

extern "C" void qf_blas_update_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    if (a->n <= 0) return;
    void *y = qf_blas_field_ptr(buffers, a, QF_UPD_Y);
    const void *x = qf_blas_field_ptr(buffers, a, QF_UPD_X);
    const void *w = qf_blas_field_ptr(buffers, a, QF_UPD_W);
    const double *sc = qf_blas_scalar_ptr(buffers, a, QF_UPD_A);
    const double *sd = qf_blas_scalar_ptr(buffers, a, QF_UPD_D);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    switch (a->op) {
    case QF_BLAS_COPY: launch<QF_BLAS_COPY>(a, y, x, w, sc, sd, stream); break;
    case QF_BLAS_AXPBY: launch<QF_BLAS_AXPBY>(a, y, x, w, sc, sd, stream); break;
    case QF_BLAS_CAXPY: launch<QF_BLAS_CAXPY>(a, y, x, w, sc, sd, stream); break;
    case QF_BLAS_MUL: launch<QF_BLAS_MUL>(a, y, x, w, sc, sd, stream); break;
    case QF_BLAS_CONJ_MUL: launch<QF_BLAS_CONJ_MUL>(a, y, x, w, sc, sd, stream); break;
    case QF_BLAS_XPCW: launch<QF_BLAS_XPCW>(a, y, x, w, sc, sd, stream); break;
    case QF_BLAS_AXPBYPCW: launch<QF_BLAS_AXPBYPCW>(a, y, x, w, sc, sd, stream); break;
    default: launch<QF_BLAS_CXPAY>(a, y, x, w, sc, sd, stream); break;
    }
    QF_CUDA_CHECK_LAUNCH();
}
