/* CUDA implementation of blas_shift: a grid-stride loop over the elements of the parity (or of the
 * block), each thread loading r once and updating every shift's x_k and p_k there; the kernel
 * specialised on the number of shifts and the precision, so that the coefficients stay in registers. */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

typedef struct {
    void *x[QF_BLAS_MULTI_MAX], *p[QF_BLAS_MULTI_MAX];
} shift_fields;

template <int NV, int P>
static __global__ void shift_kernel(const void *r, shift_fields f, qf_blas_shift_args s)
{
    QF_BLAS_CUDA_FOR_UNITS(s.base, P, u, {
        qf_complex rv = qf_blas_load(r, (qf_precision)P, u);
        QF_UNROLL
        for (int k = 0; k < NV; k++) qf_blas_shift_elem(rv, f.x[k], f.p[k], s.a[k], s.z[k], s.b[k], u, (qf_precision)P);
    });
}

template <int NV>
static void launch(const qf_blas_shift_args *s, const void *r, const shift_fields &f, cudaStream_t stream)
{
    unsigned blocks = qf_blas_cuda_blocks(s->base.n, QF_BLAS_UPDATE_BLOCKS);
    QF_WITH_PRECISION(s->base.prec, P, shift_kernel<NV, P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(r, f, *s));
}

extern "C" void qf_blas_shift_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_shift_args *s = (const qf_blas_shift_args *)cl_arg;
    if (s->base.n <= 0) return;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    shift_fields f = {};
    for (int k = 0; k < s->base.nvec; k++) {
        f.x[k] = qf_blas_field_ptr(buffers, &s->base, QF_SHIFT_X + k);
        f.p[k] = qf_blas_field_ptr(buffers, &s->base, QF_SHIFT_P + k);
    }
    const void *r = qf_blas_field_ptr(buffers, &s->base, QF_SHIFT_R);
    switch (s->base.nvec) {
    case 1: launch<1>(s, r, f, stream); break;
    case 2: launch<2>(s, r, f, stream); break;
    case 3: launch<3>(s, r, f, stream); break;
    case 4: launch<4>(s, r, f, stream); break;
    case 5: launch<5>(s, r, f, stream); break;
    case 6: launch<6>(s, r, f, stream); break;
    case 7: launch<7>(s, r, f, stream); break;
    default: launch<8>(s, r, f, stream); break;
    }
    QF_CUDA_CHECK_LAUNCH();
}
