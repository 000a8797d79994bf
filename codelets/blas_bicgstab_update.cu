/* CUDA implementation of blas_bicgstab_update: a grid-stride loop over the elements, the new |r|^2
 * summed per thread, reduced per thread block in shared memory and added with one atomic per thread
 * block into the worker's accumulator (the task's STARPU_REDUX buffer). */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

struct bicgstab_ptrs {
    void *x, *r;
    const void *p, *s, *t;
    const double *a, *ad, *w, *wd; /* the divisors NULL where not given */
};

template <int P>
static __global__ void blas_bicgstab_update_kernel(bicgstab_ptrs f, qf_blas_args a, double *rr)
{
    qf_complex c = qf_scalar_ratio(f.a, f.ad), w = qf_scalar_ratio(f.w, f.wd);
    double sum[1] = {0.0};
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, sum[0] += qf_blas_bicgstab_unit(f.x, f.r, c, f.p, w, f.s, f.t, u, (qf_precision)P));
    qf_blas_block_add<1>(sum, rr);
}

extern "C" void qf_blas_bicgstab_update_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    double *rr = qf_blas_scalar_ptr(buffers, a, QF_BICG_RR);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    qf_blas_result_clear(a, rr, stream);
    if (a->n <= 0) return;
    bicgstab_ptrs f;
    f.x = qf_blas_field_ptr(buffers, a, QF_BICG_X);
    f.r = qf_blas_field_ptr(buffers, a, QF_BICG_R);
    f.p = qf_blas_field_ptr(buffers, a, QF_BICG_P);
    f.s = qf_blas_field_ptr(buffers, a, QF_BICG_S);
    f.t = qf_blas_field_ptr(buffers, a, QF_BICG_T);
    f.a = qf_blas_scalar_ptr(buffers, a, QF_BICG_A);
    f.w = qf_blas_scalar_ptr(buffers, a, QF_BICG_W);
    f.ad = qf_blas_scalar_ptr(buffers, a, QF_BICG_AD);
    f.wd = qf_blas_scalar_ptr(buffers, a, QF_BICG_WD);
    QF_WITH_ANY_PRECISION(a->prec, P, {
        unsigned blocks = qf_blas_reduce_blocks<blas_bicgstab_update_kernel<P>>(a->n);
        blas_bicgstab_update_kernel<P><<<blocks, QF_CUDA_THREADS, 0, stream>>>(f, *a, rr);
    });
    QF_CUDA_CHECK_LAUNCH();
}
