/* CUDA implementation of blas_bicgstab_p: a grid-stride loop over the elements, beta worked out by every
 * thread from the scalars on the device. */
#include "codelets.h"
#include "blas_launch.h"
#include "kernels/blas_units.h"

struct bicgstab_p_ptrs {
    void *p;
    const void *r, *v;
    const double *rho_new, *rho, *alpha, *omega, *alpha_d, *omega_d; /* the divisors NULL where not given */
};

template <int P> static __global__ void blas_bicgstab_p_kernel(bicgstab_p_ptrs f, qf_blas_args a)
{
    qf_complex alpha = qf_scalar_ratio(f.alpha, f.alpha_d), omega = qf_scalar_ratio(f.omega, f.omega_d);
    qf_complex beta = qf_bicgstab_beta(f.rho_new, f.rho, alpha, omega);
    QF_BLAS_CUDA_FOR_UNITS(a, P, u, qf_blas_bicgstab_p_unit(f.p, f.r, f.v, beta, omega, u, (qf_precision)P));
}

extern "C" void qf_blas_bicgstab_p_cuda(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = (const qf_blas_args *)cl_arg;
    if (a->n <= 0) return;
    bicgstab_p_ptrs f;
    f.p = qf_blas_field_ptr(buffers, a, QF_BP_P);
    f.r = qf_blas_field_ptr(buffers, a, QF_BP_R);
    f.v = qf_blas_field_ptr(buffers, a, QF_BP_V);
    f.rho_new = qf_blas_scalar_ptr(buffers, a, QF_BP_RHO_NEW);
    f.rho = qf_blas_scalar_ptr(buffers, a, QF_BP_RHO);
    f.alpha = qf_blas_scalar_ptr(buffers, a, QF_BP_ALPHA);
    f.omega = qf_blas_scalar_ptr(buffers, a, QF_BP_OMEGA);
    f.alpha_d = qf_blas_scalar_ptr(buffers, a, QF_BP_ALPHA_D);
    f.omega_d = qf_blas_scalar_ptr(buffers, a, QF_BP_OMEGA_D);
    unsigned blocks = qf_blas_cuda_blocks(a->n, QF_BLAS_UPDATE_BLOCKS);
    QF_WITH_ANY_PRECISION(a->prec, P,
                      blas_bicgstab_p_kernel<P><<<blocks, QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(f, *a));
    QF_CUDA_CHECK_LAUNCH();
}
