/* The Wilson-clover operator as a qf_linop (include/quarkflow/qf_linop.h): the full-lattice M with
 * M^dagger, and its even-odd form, the Schur complement Mhat (asymmetric or symmetric, as the operator
 * was built) with Mhat^dagger and the source preparation and reconstruction of qf_dirac.h. Twins in
 * another precision are the linops of qf_dirac_in_precision's twin, made on request and kept here. */
#include "mg_tasks.h"

#include <stdlib.h>

typedef struct {
    qf_dirac *d;
    qf_dirac_op op, op_dagger;
    qf_linop *twin[3]; /* owned: the same operator in another precision, by qf_precision */
} dirac_linop;

static int wilson_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    const dirac_linop *w = ctx;
    return qf_dirac_apply(w->d, dagger ? w->op_dagger : w->op, out, in);
}

static double wilson_flops(const void *ctx, int dagger)
{
    const dirac_linop *w = ctx;
    return qf_dirac_flops(w->d, dagger ? w->op_dagger : w->op);
}

static void wilson_destroy(void *ctx)
{
    dirac_linop *w = ctx;
    for (int k = 0; k < 3; k++) qf_linop_destroy(w->twin[k]);
    free(w);
}

static int make(qf_linop **A, const qf_linop_ops *ops, qf_dirac *d, qf_dirac_op op, qf_dirac_op op_dagger, int parity)
{
    dirac_linop *w = calloc(1, sizeof *w);
    if (!w) return qf_fail("out of host memory creating the Dirac operator's linop");
    *w = (dirac_linop){.d = d, .op = op, .op_dagger = op_dagger};
    qf_linop_domain dom = {.lat = qf_dirac_lattice(d), .shape = qf_field_kind_shape(QF_FIELD_WILSON), .prec = qf_dirac_get_params(d)->prec,
                           .parity = parity};
    if (qf_linop_create(A, ops, w, &dom)) {
        free(w);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

static const qf_linop_ops schur_ops = {
    .name = "Mhat", .apply = wilson_apply, .flops = wilson_flops, .destroy = wilson_destroy};

static int full_in_precision(void *ctx, qf_precision prec, qf_linop **twin)
{
    dirac_linop *w = ctx;
    qf_dirac *dt;
    if ((unsigned)prec > QF_HALF) return qf_precision_check(prec, "operator");
    if (!w->twin[prec] && (qf_dirac_in_precision(w->d, prec, &dt) || qf_dirac_linop(dt, &w->twin[prec])))
        return QF_ERROR;
    *twin = w->twin[prec];
    return QF_SUCCESS;
}

static int full_schur(void *ctx, qf_linop **schur)
{
    const dirac_linop *w = ctx;
    return make(schur, &schur_ops, w->d, QF_OP_MHAT, QF_OP_MHAT_DAG, 0);
}

static int full_prepare(void *ctx, qf_field *bhat, const qf_field *b)
{
    return qf_dirac_prepare(((const dirac_linop *)ctx)->d, bhat, b);
}

static int full_reconstruct(void *ctx, qf_field *x, const qf_field *x_even, const qf_field *b)
{
    return qf_dirac_reconstruct(((const dirac_linop *)ctx)->d, x, x_even, b);
}

static int full_schur_image(void *ctx, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w)
{
    return qf_dirac_schur_image(((const dirac_linop *)ctx)->d, az, b, bhat, w);
}

static int full_prepare_defect(void *ctx, qf_field *bhat, const qf_field *r, const qf_field *z)
{
    return qf_dirac_prepare_defect(((const dirac_linop *)ctx)->d, bhat, r, z);
}

static int full_coarsen(void *ctx, const qf_transfer *T, qf_linop **coarse)
{
    const dirac_linop *w = ctx;
    const qf_dirac_params *p = qf_dirac_get_params(w->d);
    qf_coarse_source src = {.wilson = 1, .kappa = p->kappa};
    memcpy(src.phase, p->phase, sizeof src.phase);
    qf_dirac_fields(w->d, &src.links, &src.clover);
    return qf_coarse_op_build(T, &src, coarse);
}

static int full_domains(void *ctx, const int dom[QF_NDIM], int mr_steps, qf_domains **D)
{
    return qf_dirac_domains(((const dirac_linop *)ctx)->d, dom, mr_steps, D);
}

static const qf_linop_ops full_ops = {.name = "M",
                                      .apply = wilson_apply,
                                      .flops = wilson_flops,
                                      .in_precision = full_in_precision,
                                      .schur = full_schur,
                                      .prepare = full_prepare,
                                      .reconstruct = full_reconstruct,
                                      .schur_image = full_schur_image,
                                      .prepare_defect = full_prepare_defect,
                                      .coarsen = full_coarsen,
                                      .domains = full_domains,
                                      .destroy = wilson_destroy};

int qf_dirac_linop(qf_dirac *d, qf_linop **A)
{
    *A = NULL;
    return make(A, &full_ops, d, QF_OP_M, QF_OP_MDAG, -1);
}
