/* CUDA implementation of blas_cg_update: the coefficient (a, or a / d) worked out by every thread from
 * the scalars on the device, a grid-stride loop over the elements, the new |r|^2 summed
 * per thread, reduced per thread block in shared memory and added with one atomic per thread block
 * into the worker's accumulator (the task's STARPU_REDUX buffer). */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

template <int P>
static __global__ void blas_cg_update_kernel(void *x, void *r, const double *sa, const double *sd, const void *p,
                                             const void *q, qf_blas_args a, double *rr)
{
    qf_complex c = qf_blas_update_coefficient(1.0, sa, sd);
    double sum[1] = {0.0};
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, sum[0] += qf_blas_cg_unit(x, r, c, p, q, u, (qf_precision)P));
    qf_blas_block_add<1>(sum, rr);
}

extern "C" void qf_blas_cg_update_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    double *rr = qf_blas_scalar_ptr(buffers, a, QF_CG_RR);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    qf_blas_result_clear(a, rr, stream);
    if (a->n <= 0) return;
    void *x = qf_blas_field_ptr(buffers, a, QF_CG_X);
    void *r = qf_blas_field_ptr(buffers, a, QF_CG_R);
    const void *p = qf_blas_field_ptr(buffers, a, QF_CG_P);
    const void *q = qf_blas_field_ptr(buffers, a, QF_CG_Q);
    const double *sa = qf_blas_scalar_ptr(buffers, a, QF_CG_A), *sd = qf_blas_scalar_ptr(buffers, a, QF_CG_D);
    QF_WITH_ANY_PRECISION(a->prec, P, {
        unsigned blocks = qf_blas_reduce_blocks<blas_cg_update_kernel<P>>(a->n);
        blas_cg_update_kernel<P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(x, r, sa, sd, p, q, *a, rr);
    });
    QF_CUDA_CHECK_LAUNCH();
}
