/* Codelet blas_cg_update: the fused update of conjugate gradients on one block, x = x + c p,
 * r = r - c q, and |r|^2 of the new r (as stored) added in double into a STARPU_REDUX scalar, in one
 * pass, over the elements of one parity or of the whole block (kernels/blas.h); c is the scalar a,
 * or a / d worked out in the task (CG's alpha = |r|^2 / <p, A p>, MR's step) when d is given.
 * STARPU_VARIABLE_NBUFFERS: x, r, a, p, q, rr, d, each distinct one once (the table in the arguments). */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "kernels/blas_units.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_cg_update_cuda(void *buffers[], void *cl_arg);
#endif

static inline QF_HD_INLINE double cg_loop(qf_precision prec, const qf_blas_args *a, void *x, void *r, qf_complex c,
                                          const void *p, const void *q)
{
    double lane[QF_BLAS_LANES] = {0};
    int64_t first = qf_blas_first_unit(a, prec);
    QF_BLAS_FOR_LANES(first, first + qf_blas_nunits(a, prec), u, j, lane[j] += qf_blas_cg_unit(x, r, c, p, q, u, prec));
    return qf_blas_lanes_sum(lane);
}

static inline QF_HD_INLINE void cg_run(qf_precision prec, const qf_blas_args *a, void *x, void *r, qf_complex c,
                                       const void *p, const void *q, double *norm)
{
    QF_WITH_ANY_PRECISION(prec, P, *norm = cg_loop(P, a, x, r, c, p, q));
}
QF_CPU_VERSIONS(cg_run, cg_run,
                (qf_precision prec, const qf_blas_args *a, void *x, void *r, qf_complex c, const void *p,
                 const void *q, double *norm),
                (prec, a, x, r, c, p, q, norm))

typedef struct {
    void *x, *r;
    const void *p, *q;
    qf_complex c;
    double norm[QF_BLAS_TEAM_CHUNKS];
} cg_ctx;

static void cg_part(void *ctx, const qf_blas_args *part, int chunk)
{
    cg_ctx *g = ctx;
    QF_CPU_CALL(cg_run, (part->prec, part, g->x, g->r, g->c, g->p, g->q, &g->norm[chunk]));
}

static void blas_cg_update_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    void *x = qf_blas_field_ptr(buffers, a, QF_CG_X);
    void *r = qf_blas_field_ptr(buffers, a, QF_CG_R);
    const void *p = qf_blas_field_ptr(buffers, a, QF_CG_P);
    const void *q = qf_blas_field_ptr(buffers, a, QF_CG_Q);
    double *rr = qf_blas_scalar_ptr(buffers, a, QF_CG_RR);
    qf_complex c = qf_blas_update_coefficient(1.0, qf_blas_scalar_ptr(buffers, a, QF_CG_A),
                                              qf_blas_scalar_ptr(buffers, a, QF_CG_D));
    cg_ctx g = {.x = x, .r = r, .p = p, .q = q, .c = c};
    qf_blas_team_run(a, cg_part, &g);
    qf_blas_result(a, rr, qf_blas_chunks_sum(a, g.norm, 1, 0), 0.0);
}

static struct starpu_perfmodel blas_cg_update_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_cg_update", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_cg_update = {
    .name = "blas_cg_update",
    .cpu_funcs = {blas_cg_update_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_cg_update_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_cg_update_model,
};

int qf_insert_blas_cg_update(const qf_blas_range *r, const qf_blas_cg_operands *o)
{
    qf_blas_args args = {.op = 0};
    struct starpu_data_descr ops[7];
    ops[QF_CG_X] = o->x;
    ops[QF_CG_R] = o->r;
    ops[QF_CG_A] = o->a;
    ops[QF_CG_P] = o->p;
    ops[QF_CG_Q] = o->q;
    ops[QF_CG_RR] = o->rr;
    ops[QF_CG_D] = o->d;
    return qf_blas_insert(&qf_cl_blas_cg_update, &args, r, ops, 7);
}
