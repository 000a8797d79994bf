/* Codelet blas_bicgstab_update: the fused final update of BiCGStab on one block, x = x + a p + w s,
 * r = s - w t, and |r|^2 of the new r (as stored) added in double into a STARPU_REDUX scalar, in one
 * pass, over the elements of one parity or of the whole block (kernels/blas.h); a and w are each the
 * ratio of two scalars where its divisor is given (alpha = rho / <r0, v>, omega = <t, s> / |t|^2
 * worked out in the task instead of by scalar tasks of their own).
 * STARPU_VARIABLE_NBUFFERS: x, r, a, p, w, s, t, rr, then the divisors of a and w where given (10 at
 * most), each distinct one once. */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "kernels/blas_units.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_bicgstab_update_cuda(void *buffers[], void *cl_arg);
#endif

static inline QF_HD_INLINE double bicgstab_loop(qf_precision prec, const qf_blas_args *a, void *x, void *r,
                                                qf_complex c, const void *p, qf_complex w, const void *s,
                                                const void *t)
{
    double lane[QF_BLAS_LANES] = {0};
    int64_t first = qf_blas_first_unit(a, prec);
    QF_BLAS_FOR_LANES(first, first + qf_blas_nunits(a, prec), u, j,
                      lane[j] += qf_blas_bicgstab_unit(x, r, c, p, w, s, t, u, prec));
    return qf_blas_lanes_sum(lane);
}

static inline QF_HD_INLINE void bicgstab_run(qf_precision prec, const qf_blas_args *a, void *x, void *r, qf_complex c,
                                             const void *p, qf_complex w, const void *s, const void *t, double *norm)
{
    QF_WITH_ANY_PRECISION(prec, P, *norm = bicgstab_loop(P, a, x, r, c, p, w, s, t));
}
QF_CPU_VERSIONS(bicgstab_run, bicgstab_run,
                (qf_precision prec, const qf_blas_args *a, void *x, void *r, qf_complex c, const void *p, qf_complex w,
                 const void *s, const void *t, double *norm),
                (prec, a, x, r, c, p, w, s, t, norm))

typedef struct {
    void *x, *r;
    const void *p, *s, *t;
    qf_complex c, w;
    double norm[QF_BLAS_TEAM_CHUNKS];
} bicgstab_ctx;

static void bicgstab_part(void *ctx, const qf_blas_args *part, int chunk)
{
    bicgstab_ctx *b = ctx;
    QF_CPU_CALL(bicgstab_run, (part->prec, part, b->x, b->r, b->c, b->p, b->w, b->s, b->t, &b->norm[chunk]));
}

static void blas_bicgstab_update_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    void *x = qf_blas_field_ptr(buffers, a, QF_BICG_X);
    void *r = qf_blas_field_ptr(buffers, a, QF_BICG_R);
    const void *p = qf_blas_field_ptr(buffers, a, QF_BICG_P);
    const void *s = qf_blas_field_ptr(buffers, a, QF_BICG_S);
    const void *t = qf_blas_field_ptr(buffers, a, QF_BICG_T);
    double *rr = qf_blas_scalar_ptr(buffers, a, QF_BICG_RR);
    qf_complex c = qf_scalar_ratio(qf_blas_scalar_ptr(buffers, a, QF_BICG_A), qf_blas_scalar_ptr(buffers, a, QF_BICG_AD));
    qf_complex w = qf_scalar_ratio(qf_blas_scalar_ptr(buffers, a, QF_BICG_W), qf_blas_scalar_ptr(buffers, a, QF_BICG_WD));
    bicgstab_ctx b = {.x = x, .r = r, .p = p, .s = s, .t = t, .c = c, .w = w};
    qf_blas_team_run(a, bicgstab_part, &b);
    qf_blas_result(a, rr, qf_blas_chunks_sum(a, b.norm, 1, 0), 0.0);
}

static struct starpu_perfmodel blas_bicgstab_update_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_bicgstab_update", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_bicgstab_update = {
    .name = "blas_bicgstab_update",
    .cpu_funcs = {blas_bicgstab_update_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_bicgstab_update_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_bicgstab_update_model,
};

int qf_insert_blas_bicgstab_update(const qf_blas_range *r, const qf_blas_bicgstab_operands *o)
{
    qf_blas_args args = {.op = 0};
    struct starpu_data_descr ops[10];
    ops[QF_BICG_X] = o->x;
    ops[QF_BICG_R] = o->r;
    ops[QF_BICG_A] = o->a;
    ops[QF_BICG_P] = o->p;
    ops[QF_BICG_W] = o->w;
    ops[QF_BICG_S] = o->s;
    ops[QF_BICG_T] = o->t;
    ops[QF_BICG_RR] = o->rr;
    ops[QF_BICG_AD] = o->ad;
    ops[QF_BICG_WD] = o->wd;
    return qf_blas_insert(&qf_cl_blas_bicgstab_update, &args, r, ops, 10);
}
