/* The asqtad operator as task graphs and as a qf_linop (include/quarkflow/qf_staggered.h). Every
 * application is a sequence of hops out = a x + b D in on the output sites of one parity or all, each the
 * stencil graph (tasks/stencil.h) with the asqtad codelets and two face sets (1 deep for the fat hop, 3
 * deep for the Naik hop):
 *
 *   M x          = 2m x + D x                              one hop on all sites (M^dag: b = -1)
 *   Mhat x_e     = 2m x_e - D_eo (D_oe x_e) / 2m           an odd hop into tmp, an even hop
 *   prepare      = b_e - D_eo b_o / 2m                     one even hop
 *   reconstruct  x_o = (b_o - D_oe x_e) / 2m               one odd hop
 *
 * Mhat is the Schur complement M_ee - M_eo M_oo^-1 M_oe itself, MILC's 4m^2 - D_eo D_oe divided by 2m,
 * so that the residual of the even-odd system is that of the full one (the odd sites' is zero by the
 * reconstruction), and it is hermitian (D^dag = -D), which CG needs. Twins in the other precision
 * convert the links. */
#include "tasks.h"
#include "stencil.h"
#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_staggered.h"

#include <stdlib.h>

/* QUDA's asqtad dslash count a site: 16 matrix-vector products (66) and 15 vector sums (6); a x + b h
 * adds 12 (a site's 6 reals, scaled and added), as for the Wilson operator's xpay. */
#define ASQTAD_DSLASH_FLOPS 1146.0
#define AXPBY_FLOPS 12.0
/* the fat hop's faces (1 deep) and the Naik hop's (3 deep) */
enum { FACE_SETS = 2 };

struct qf_asqtad {
    const qf_lattice *lat;
    qf_asqtad_params p;
    qf_field *links;                         /* F and L in p.prec, in the operator layout (kernels/staggered.h) */
    qf_face_set faces[FACE_SETS]; /* 1 and 3 deep, whole colour vectors */
    qf_field *tmp;                           /* the odd intermediate of Mhat */
    qf_asqtad *twin;                         /* owned: the operator in the other precision */
    qf_linop *twin_linop;
    qf_linop *kept_parity[2];                /* owned: the parity operators asked of this one as a twin */
};

static const char *const stage_names[2][4] = {
    {"ks_gather:double", "ks_interior:double", "ks_exterior:double", "ks_block:double"},
    {"ks_gather:single", "ks_interior:single", "ks_exterior:single", "ks_block:single"}};

/* out = a x + b D in on the sites of parity (x NULL: out = b D in). */
static int hop(qf_asqtad *op, qf_field *out, const qf_field *in, int parity, double a, double b, const qf_field *x)
{
    qf_asqtad_hop h = {.parity = parity, .a = a, .b = b, .has_x = x != NULL, .prec = op->p.prec};
    qf_stencil s = {.in = in,
                    .out = out,
                    .all_sites = parity < 0,
                    .links = op->links,
                    .extra = {x, NULL},
                    .nfaces = FACE_SETS,
                    .faces = {&op->faces[0], &op->faces[1]}};
    if (qf_asqtad_stages(op->lat, &h, stage_names[op->p.prec == QF_SINGLE], s.stage)) return QF_ERROR;
    int rc = qf_stencil_apply(&s);
    qf_codelet_stages_free(s.stage, QF_STENCIL_NSTAGES);
    return rc;
}

static int check_operand(const qf_asqtad *op, const qf_field *f, const char *what)
{
    if (!f) return qf_fail("asqtad operator: the %s is NULL", what);
    if (qf_field_get_shape(f)->kind != QF_FIELD_STAGGERED || qf_field_precision(f) != op->p.prec ||
        !qf_lattice_same(qf_field_lattice(f), op->lat))
        return qf_fail("asqtad operator: the %s is a %s field in %s precision; give a staggered field of the operator's "
                       "lattice in %s precision",
                       what, qf_field_kind_name(qf_field_get_shape(f)->kind), qf_precision_name(qf_field_precision(f)),
                       qf_precision_name(op->p.prec));
    return QF_SUCCESS;
}

int qf_asqtad_dslash(qf_asqtad *op, qf_field *out, const qf_field *in)
{
    if (!op) return qf_fail("qf_asqtad_dslash: no operator");
    if (check_operand(op, out, "output") || check_operand(op, in, "input")) return QF_ERROR;
    if (out == in) return qf_fail("qf_asqtad_dslash: the output and the input are one field; give two");
    return hop(op, out, in, -1, 0.0, 1.0, NULL);
}

double qf_asqtad_dslash_flops(const qf_lattice *lat) { return ASQTAD_DSLASH_FLOPS * (double)lat->global_volume; }

int qf_asqtad_apply_m(qf_asqtad *op, double mass, int dagger, qf_field *out, const qf_field *in)
{
    if (!op) return qf_fail("qf_asqtad_apply_m: no operator");
    if (check_operand(op, out, "output") || check_operand(op, in, "input")) return QF_ERROR;
    if (out == in) return qf_fail("qf_asqtad_apply_m: the output and the input are one field; give two");
    return hop(op, out, in, -1, 2.0 * mass, dagger ? -1.0 : 1.0, in);
}

/* ---- the linop ---- */

static int full_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    qf_asqtad *op = ctx;
    return hop(op, out, in, -1, 2.0 * op->p.mass, dagger ? -1.0 : 1.0, in);
}

static int schur_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    (void)dagger; /* hermitian */
    qf_asqtad *op = ctx;
    double m2 = 2.0 * op->p.mass;
    return hop(op, op->tmp, in, 1, 0.0, 1.0, NULL) || hop(op, out, op->tmp, 0, m2, -1.0 / m2, in) ? QF_ERROR : QF_SUCCESS;
}

static double full_flops(const void *ctx, int dagger)
{
    (void)dagger;
    const qf_asqtad *op = ctx;
    return (ASQTAD_DSLASH_FLOPS + AXPBY_FLOPS) * (double)op->lat->global_volume;
}

static double schur_flops(const void *ctx, int dagger)
{
    (void)dagger; /* two half-lattice hops, the second with a x */
    const qf_asqtad *op = ctx;
    return (2.0 * ASQTAD_DSLASH_FLOPS + AXPBY_FLOPS) * 0.5 * (double)op->lat->global_volume;
}

static int full_prepare(void *ctx, qf_field *bhat, const qf_field *b)
{
    qf_asqtad *op = ctx;
    return hop(op, bhat, b, 0, 1.0, -0.5 / op->p.mass, b);
}

static int full_reconstruct(void *ctx, qf_field *x, const qf_field *x_even, const qf_field *b)
{
    qf_asqtad *op = ctx;
    if (x == x_even || x == b) return qf_fail("asqtad reconstruct: the solution must be a field of its own");
    double s = 0.5 / op->p.mass;
    /* the whole field first, as the Wilson reconstruction: the odd hop writes one parity of x */
    return qf_blas_copy(x, x_even, -1) || hop(op, x, x_even, 1, s, -s, b) ? QF_ERROR : QF_SUCCESS;
}

/* the linops have no destroy: qf_asqtad_destroy frees the operator they act with */
static const qf_linop_ops schur_ops = {.name = "Mhat_ks", .apply = schur_apply, .flops = schur_flops, .hermitian = 1};

static int make_linop(qf_asqtad *op, const qf_linop_ops *ops, int parity, qf_linop **A)
{
    qf_linop_domain dom = {.lat = op->lat, .shape = qf_field_kind_shape(QF_FIELD_STAGGERED), .prec = op->p.prec,
                           .parity = parity};
    return qf_linop_create(A, ops, op, &dom);
}

static int full_schur(void *ctx, qf_linop **schur) { return make_linop(ctx, &schur_ops, 0, schur); }
static int full_in_precision(void *ctx, qf_precision prec, qf_linop **twin);

static const qf_linop_ops full_ops = {.name = "M_ks",
                                      .apply = full_apply,
                                      .flops = full_flops,
                                      .in_precision = full_in_precision,
                                      .schur = full_schur,
                                      .prepare = full_prepare,
                                      .reconstruct = full_reconstruct};

int qf_asqtad_linop(qf_asqtad *op, qf_linop **A)
{
    if (!op || !A) return qf_fail("qf_asqtad_linop: the operator or the place for the linop is NULL");
    return make_linop(op, &full_ops, -1, A);
}

static int create(qf_asqtad **out, const qf_field *links, int from_operator, const qf_asqtad_params *p);

static int full_in_precision(void *ctx, qf_precision prec, qf_linop **twin)
{
    qf_asqtad *op = ctx; /* qf_linop_in_precision asks only for the other precision */
    if (qf_precision_check_full(prec, "asqtad operator")) return QF_ERROR;
    if (!op->twin) {
        qf_asqtad_params p = op->p;
        p.prec = prec;
        if (create(&op->twin, op->links, 1, &p) || qf_asqtad_linop(op->twin, &op->twin_linop)) return QF_ERROR;
    }
    *twin = op->twin_linop;
    return QF_SUCCESS;
}

/* ---- -D_pq D_qp on the sites of parity p ---- */

typedef struct {
    qf_asqtad *op;
    int parity;
} parity_ctx;

static int parity_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    (void)dagger; /* hermitian */
    const parity_ctx *c = ctx;
    return hop(c->op, c->op->tmp, in, 1 - c->parity, 0.0, 1.0, NULL) || hop(c->op, out, c->op->tmp, c->parity, 0.0, -1.0, NULL)
               ? QF_ERROR
               : QF_SUCCESS;
}

static double parity_flops(const void *ctx, int dagger)
{
    (void)dagger;
    return ASQTAD_DSLASH_FLOPS * (double)((const parity_ctx *)ctx)->op->lat->global_volume;
}

static int parity_in_precision(void *ctx, qf_precision prec, qf_linop **twin);
static void parity_destroy(void *ctx) { free(ctx); }

static const qf_linop_ops parity_ops = {.name = "-D_pq D_qp",
                                        .apply = parity_apply,
                                        .flops = parity_flops,
                                        .in_precision = parity_in_precision,
                                        .destroy = parity_destroy,
                                        .hermitian = 1};

int qf_asqtad_parity_linop(qf_asqtad *op, int parity, qf_linop **A)
{
    if (!op || !A) return qf_fail("qf_asqtad_parity_linop: the operator or the place for the linop is NULL");
    if (parity != 0 && parity != 1) return qf_fail("qf_asqtad_parity_linop: parity %d: give 0 (even) or 1 (odd)", parity);
    parity_ctx *c = malloc(sizeof *c);
    if (!c) return qf_fail("out of host memory creating an asqtad parity operator");
    *c = (parity_ctx){op, parity};
    qf_linop_domain dom = {.lat = op->lat, .shape = qf_field_kind_shape(QF_FIELD_STAGGERED), .prec = op->p.prec,
                           .parity = parity};
    if (qf_linop_create(A, &parity_ops, c, &dom)) {
        free(c);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

static int parity_in_precision(void *ctx, qf_precision prec, qf_linop **twin)
{
    const parity_ctx *c = ctx;
    qf_linop *full;
    if (full_in_precision(c->op, prec, &full)) return QF_ERROR;
    qf_asqtad *t = c->op->twin;
    if (!t->kept_parity[c->parity] && qf_asqtad_parity_linop(t, c->parity, &t->kept_parity[c->parity])) return QF_ERROR;
    *twin = t->kept_parity[c->parity];
    return QF_SUCCESS;
}

/* ---- creation ---- */

const qf_asqtad_params *qf_asqtad_get_params(const qf_asqtad *op) { return &op->p; }

static int check_create(const qf_field *links, const qf_asqtad_params *p)
{
    if (!links || !p) return qf_fail("qf_asqtad_create: the links or the parameters are NULL");
    const qf_field_shape *s = qf_field_get_shape(links);
    if (s->kind != QF_FIELD_ASQTAD_LINKS)
        return qf_fail("qf_asqtad_create: the operator reads asqtad links (qf_asqtad_links), not a %s field",
                       qf_field_kind_name(s->kind));
    if (qf_precision_check_full(p->prec, "asqtad operator")) return QF_ERROR;
    if (!(p->mass > 0.0))
        return qf_fail("asqtad mass %g: the even-odd system 4m^2 - D_eo D_oe needs m > 0 (MILC's M = 2m + D)", p->mass);
    const qf_lattice *lat = qf_field_lattice(links);
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (lat->block[mu] < 4)
            return qf_fail("the asqtad operator's Naik hop needs blocks of at least 4 sites in every direction, but "
                           "blocks are %d in direction %d: use fewer blocks (--blocks)",
                           lat->block[mu], mu);
    return QF_SUCCESS;
}

void qf_asqtad_destroy(qf_asqtad *op)
{
    if (!op) return;
    for (int p = 0; p < 2; p++) qf_linop_destroy(op->kept_parity[p]);
    qf_linop_destroy(op->twin_linop);
    qf_asqtad_destroy(op->twin);
    if (op->links) qf_field_destroy(op->links);
    if (op->tmp) qf_field_destroy(op->tmp);
    for (int k = 0; k < FACE_SETS; k++) qf_face_set_destroy(&op->faces[k]);
    free(op);
}

/* The operator on links in the record layout, or on another operator's copy (from_operator). */
static int create(qf_asqtad **out, const qf_field *links, int from_operator, const qf_asqtad_params *p)
{
    qf_asqtad *op = calloc(1, sizeof *op);
    if (!op) return qf_fail("out of host memory creating the asqtad operator");
    op->lat = qf_field_lattice(links);
    op->p = *p;
    int rc = qf_field_create_scratch(&op->links, op->lat, QF_FIELD_ASQTAD_LINKS, p->prec);
    for (int b = 0; b < op->lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_local(op->lat, b)) rc = qf_insert_asqtad_layout(links, from_operator, op->links, b);
    rc = rc || qf_field_create_scratch(&op->tmp, op->lat, QF_FIELD_STAGGERED, p->prec) ||
             qf_blas_axpby(0.0, NULL, 0.0, op->tmp, -1);
    for (int k = 0; k < FACE_SETS && !rc; k++)
        rc = qf_face_set_create(&op->faces[k], op->lat, 6, 2 * k + 1, p->prec);
    if (rc) {
        qf_asqtad_destroy(op);
        return QF_ERROR;
    }
    *out = op;
    return QF_SUCCESS;
}

int qf_asqtad_create(qf_asqtad **out, const qf_field *links, const qf_asqtad_params *p)
{
    if (!out) return qf_fail("qf_asqtad_create: the place for the operator is NULL");
    *out = NULL;
    return check_create(links, p) || create(out, links, 0, p) ? QF_ERROR : QF_SUCCESS;
}
