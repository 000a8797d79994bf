/* Codelet blas_bicgstab_p: BiCGStab's new search direction on one block, p = r + beta (p - omega v)
 * with beta = (rho_new / rho) (alpha / omega) worked out in the task from the scalars (as the scalar
 * tasks it replaces did; alpha and omega each the ratio of two scalars where its divisor is given),
 * over the elements of one parity or of the whole block (kernels/blas.h): one task and one pass where
 * two updates and three scalar tasks were.
 * STARPU_VARIABLE_NBUFFERS: p, r, v, rho_new, rho, alpha, omega, then the divisors of alpha and omega
 * where given, each distinct one once. */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "kernels/blas_units.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_bicgstab_p_cuda(void *buffers[], void *cl_arg);
#endif

static inline QF_HD_INLINE void bicgstab_p_loop(qf_precision prec, const qf_blas_args *a, void *p, const void *r,
                                                const void *v, qf_complex beta, qf_complex omega)
{
    for (int64_t u = qf_blas_first_unit(a, prec), end = u + qf_blas_nunits(a, prec); u < end; u++)
        qf_blas_bicgstab_p_unit(p, r, v, beta, omega, u, prec);
}

static inline QF_HD_INLINE void bicgstab_p_run(qf_precision prec, const qf_blas_args *a, void *p, const void *r,
                                               const void *v, qf_complex beta, qf_complex omega)
{
    QF_WITH_ANY_PRECISION(prec, P, bicgstab_p_loop(P, a, p, r, v, beta, omega));
}
QF_CPU_VERSIONS(bicgstab_p_run, bicgstab_p_run,
                (qf_precision prec, const qf_blas_args *a, void *p, const void *r, const void *v, qf_complex beta,
                 qf_complex omega),
                (prec, a, p, r, v, beta, omega))

typedef struct {
    void *p;
    const void *r, *v;
    qf_complex beta, omega;
} bicgstab_p_ctx;

static void bicgstab_p_part(void *ctx, const qf_blas_args *part, int chunk)
{
    const bicgstab_p_ctx *c = ctx;
    (void)chunk;
    QF_CPU_CALL(bicgstab_p_run, (part->prec, part, c->p, c->r, c->v, c->beta, c->omega));
}

static void blas_bicgstab_p_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    void *p = qf_blas_field_ptr(buffers, a, QF_BP_P);
    const void *r = qf_blas_field_ptr(buffers, a, QF_BP_R);
    const void *v = qf_blas_field_ptr(buffers, a, QF_BP_V);
    qf_complex alpha = qf_scalar_ratio(qf_blas_scalar_ptr(buffers, a, QF_BP_ALPHA),
                                       qf_blas_scalar_ptr(buffers, a, QF_BP_ALPHA_D));
    qf_complex omega = qf_scalar_ratio(qf_blas_scalar_ptr(buffers, a, QF_BP_OMEGA),
                                       qf_blas_scalar_ptr(buffers, a, QF_BP_OMEGA_D));
    qf_complex beta = qf_bicgstab_beta(qf_blas_scalar_ptr(buffers, a, QF_BP_RHO_NEW),
                                       qf_blas_scalar_ptr(buffers, a, QF_BP_RHO), alpha, omega);
    bicgstab_p_ctx c = {p, r, v, beta, omega};
    qf_blas_team_run(a, bicgstab_p_part, &c);
}

static struct starpu_perfmodel blas_bicgstab_p_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_bicgstab_p", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_bicgstab_p = {
    .name = "blas_bicgstab_p",
    .cpu_funcs = {blas_bicgstab_p_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_bicgstab_p_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_bicgstab_p_model,
};

int qf_insert_blas_bicgstab_p(const qf_blas_range *r, const qf_blas_bicgstab_p_operands *o)
{
    qf_blas_args args = {.op = 0};
    struct starpu_data_descr ops[9];
    ops[QF_BP_P] = o->p;
    ops[QF_BP_R] = o->r;
    ops[QF_BP_V] = o->v;
    ops[QF_BP_RHO_NEW] = o->rho_new;
    ops[QF_BP_RHO] = o->rho;
    ops[QF_BP_ALPHA] = o->alpha;
    ops[QF_BP_OMEGA] = o->omega;
    ops[QF_BP_ALPHA_D] = o->alpha_d;
    ops[QF_BP_OMEGA_D] = o->omega_d;
    return qf_blas_insert(&qf_cl_blas_bicgstab_p, &args, r, ops, 9);
}
