/* The Wilson-clover operator as task graphs (include/quarkflow/qf_dirac.h). Every application is
 * built from one primitive, hop(): the stencil graph of tasks/stencil.h (a gather of each block's
 * eight spin-projected faces, an interior and an exterior task) with the Wilson codelets, the
 * site-local parts of the operator (x, the clover term or its inverse, the coefficients) fused into
 * the finishing step. */
#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_dirac.h"
#include "quarkflow/qf_observables.h"
#include "quarkflow/qf_clover.h"
#include "quarkflow/qf_gauge.h"
#include "mg_tasks.h"
#include "stencil.h"
#include "wilson_launch.h"

#include <math.h>

struct qf_dirac {
    qf_dirac_params p;
    qf_schur_form form;
    const qf_lattice *lat;
    qf_field *gauge;            /* in the operator's precision */
    qf_field *links;            /* what the hops read: gauge, or gauge compressed (p.recon) */
    qf_field *clover, *clover_inv;  /* NULL for plain Wilson */
    qf_face_set faces_full;     /* full faces for the full-lattice operator */
    qf_face_set faces_half;     /* faces of one parity for the even-odd operators */
    qf_face_set faces_pair;     /* the odd intermediate's faces where both hops run as one task (wilson_pair) */
    qf_field *tmp[3];           /* temporaries: [0] odd intermediate, [1] even pre-step, [2] products */
    int block_pass;             /* the Schur hops are a pair the CPU pass runs on each block of several
                                 * (block_pass_fits), as wilson_pair's CPU function */
    qf_dirac *twin[3];          /* owned: this operator in another precision, by qf_precision (qf_dirac_in_precision) */
};

/* Task names, which traces show (ViTE, tasks.rec, the summary): the stage, the hopping term it
 * belongs to and the precision, e.g. "interior:D_eo^dag:single" (D_eo maps odd sites to even ones, D
 * is the full lattice's; "block": the three stages fused; "direct": a hop reading the neighbour
 * blocks); no blanks, which would split the name in paje.trace. */
#define PREC_NAMES(name) {name ":double", name ":single", name ":half"} /* by qf_precision */
#define HOP_NAMES(stage, term) {PREC_NAMES(stage ":" term), PREC_NAMES(stage ":" term "^dag")}
#define STAGE_NAMES(stage) {HOP_NAMES(stage, "D"), HOP_NAMES(stage, "D_eo"), HOP_NAMES(stage, "D_oe")}
static const char *const task_names[QF_STENCIL_NSTAGES][3][2][3] = {
    STAGE_NAMES("gather"), STAGE_NAMES("interior"), STAGE_NAMES("exterior"), STAGE_NAMES("block"),
    STAGE_NAMES("direct")};
static const char *task_name(int stage, int parity, int dagger, qf_precision prec)
{
    return task_names[stage][parity + 1][dagger != 0][prec];
}

qf_dirac_params qf_dirac_default_params(double kappa)
{
    qf_dirac_params p;
    memset(&p, 0, sizeof p);
    p.kappa = kappa;
    for (int mu = 0; mu < QF_NDIM; mu++) p.phase[mu][0] = mu == 3 ? -1.0 : 1.0;
    p.prec = QF_DOUBLE;
    return p;
}

static const char *const op_names[] = {"M", "Mdag", "MdagM", "Mhat", "Mhat_dag", "Mhat_dag_Mhat"};
const char *qf_dirac_op_name(qf_dirac_op op) { return op >= QF_OP_M && op <= QF_OP_MHAT_DAGMHAT ? op_names[op] : "?"; }
const qf_dirac_params *qf_dirac_get_params(const qf_dirac *d) { return &d->p; }
const qf_lattice *qf_dirac_lattice(const qf_dirac *d) { return d->lat; }

void qf_dirac_fields(const qf_dirac *d, const qf_field **gauge, const qf_field **clover)
{
    *gauge = d->gauge;
    *clover = d->clover;
}

const qf_field *qf_dirac_clover_inverse(const qf_dirac *d) { return d->clover_inv; }

/* ---- the primitive ---- */

typedef struct {
    int parity;        /* output parity, -1: all sites */
    int dagger;
    double a, b;       /* out = a x + b hops (clover as clover_on says) */
    const qf_field *x; /* NULL when a == 0 */
    int clover_on;
    const qf_field *clover;
} hop_spec;

/* The stencil graph of out = finish(a, x, b, D in) on the sites of s->parity, its faces in faces; its
 * stages bound (free them with qf_codelet_stages_free). */
static int hop_stencil(qf_dirac *d, qf_field *out, const qf_field *in, const hop_spec *s, const qf_face_set *faces,
                       qf_stencil *st)
{
    qf_wilson_hop h = {.parity = s->parity, .dagger = s->dagger, .a = s->a, .b = s->b, .has_x = s->x != NULL,
                       .clover_on = s->clover_on, .prec = d->p.prec, .recon = d->p.recon};
    memcpy(h.phase, d->p.phase, sizeof h.phase);
    const char *names[QF_STENCIL_NSTAGES];
    for (int k = 0; k < QF_STENCIL_NSTAGES; k++) names[k] = task_name(k, s->parity, s->dagger, d->p.prec);
    *st = (qf_stencil){.in = in,
                       .out = out,
                       .all_sites = s->parity < 0,
                       .links = d->links,
                       .extra = {s->x, s->clover_on ? s->clover : NULL},
                       .nfaces = 1,
                       .faces = {faces},
                       .direct_reads_links = 1};
    return qf_wilson_stages(d->lat, &h, names, st->stage);
}

/* out = finish(a, x, b, D in) on the sites of s->parity; reads in on the other parity. */
static int hop(qf_dirac *d, qf_field *out, const qf_field *in, const hop_spec *s)
{
    qf_stencil st;
    if (hop_stencil(d, out, in, s, s->parity < 0 ? &d->faces_full : &d->faces_half, &st)) return QF_ERROR;
    int rc = qf_stencil_apply(&st);
    qf_codelet_stages_free(st.stage, QF_STENCIL_NSTAGES);
    return rc;
}

/* ---- operators ---- */

static int has_clover(const qf_dirac *d) { return d->clover != NULL; }

/* out = M in or M^dagger in on the full lattice: A in - kappa D in. */
static int apply_full(qf_dirac *d, qf_field *out, const qf_field *in, int dagger)
{
    hop_spec s = {.parity = -1, .dagger = dagger, .a = 1.0, .b = -d->p.kappa, .x = in,
                  .clover_on = has_clover(d) ? QF_CLOVER_X : QF_CLOVER_NONE, .clover = d->clover};
    return hop(d, out, in, &s);
}

void qf_dirac_schur_hops(const qf_dirac_params *p, qf_schur_form form, qf_dirac_hop h[QF_DIRAC_MAX_HOPS], int *n)
{
    int clover = p->csw != 0.0;
    /* t_o = [A_oo^-1] D_oe in_e */
    h[0] = (qf_dirac_hop){.src = QF_HOP_IN, .dst = QF_HOP_TMP, .x = QF_HOP_NONE, .parity = 1, .a = 0.0, .b = 1.0,
                          .clover_on = clover ? QF_CLOVER_HOPS : QF_CLOVER_NONE, .clover_inverse = 1};
    /* out_e = in_e - kappa^2 D_eo t_o; asymmetric: A_ee in_e - ...; symmetric: in_e - kappa^2 A_ee^-1 D_eo t_o */
    h[1] = (qf_dirac_hop){.src = QF_HOP_TMP, .dst = QF_HOP_OUT, .x = QF_HOP_IN, .parity = 0, .a = 1.0,
                          .b = -p->kappa * p->kappa, .clover_on = QF_CLOVER_NONE};
    if (clover && form == QF_SCHUR_ASYMMETRIC) h[1].clover_on = QF_CLOVER_X;
    if (clover && form == QF_SCHUR_SYMMETRIC) h[1].clover_on = QF_CLOVER_HOPS, h[1].clover_inverse = 1;
    *n = 2;
}

/* The hops h[0 .. n-1] of one application on a one-block lattice as one task (wilson_block, whose hops
 * wrap around the block and need no faces), or a part of the open chain's (codelets/chain.c). Buffers:
 * in, the links, out, the temporary, then the clover fields the hops read. */
static int run_hops_fused(qf_dirac *d, const qf_dirac_hop *h, int n, int dagger, qf_field *out, const qf_field *in)
{
    static const char *const names[2][3] = {PREC_NAMES("block:Mhat"), PREC_NAMES("block:Mhat^dag")};
    enum { IN = 0, OUT = 2, TMP = 3, FIRST_CLOVER };
    struct starpu_data_descr buf[FIRST_CLOVER + 2];
    int nbuf = 0;
    buf[nbuf++] = (struct starpu_data_descr){qf_field_block(in, 0), STARPU_R};
    buf[nbuf++] = (struct starpu_data_descr){qf_field_block(d->links, 0), STARPU_R};
    buf[nbuf++] = (struct starpu_data_descr){qf_field_block(out, 0), STARPU_RW};
    buf[nbuf++] = (struct starpu_data_descr){qf_field_block(d->tmp[0], 0), STARPU_RW};
    int clover_at[2] = {-1, -1}; /* buffer of A, of A^-1 */
    qf_wilson_block_args args = {.nhops = n};
    const int field_at[3] = {IN, OUT, TMP}; /* QF_HOP_IN, QF_HOP_OUT, QF_HOP_TMP */
    for (int k = 0; k < n; k++) {
        qf_wilson_hop w = qf_wilson_hop_of(&h[k], &d->p, dagger);
        qf_wilson_block_hop *b = &args.hop[k];
        qf_wilson_gather_args g; /* no faces to gather: the block wraps */
        qf_wilson_hop_args(d->lat, &w, &g, &b->a);
        b->src = field_at[h[k].src];
        b->dst = field_at[h[k].dst];
        b->x = h[k].x == QF_HOP_NONE ? -1 : field_at[h[k].x];
        b->clover = -1;
        if (h[k].clover_on != QF_CLOVER_NONE) {
            int inv = h[k].clover_inverse != 0;
            if (clover_at[inv] < 0) {
                clover_at[inv] = nbuf;
                buf[nbuf++] = (struct starpu_data_descr){qf_field_block(inv ? d->clover_inv : d->clover, 0), STARPU_R};
            }
            b->clover = clover_at[inv];
        }
    }
    return qf_chain_insert(&qf_cl_wilson_block, d->lat, 0, buf, nbuf, names[dagger != 0][d->p.prec], &args, sizeof args,
                           (uint32_t)n);
}

/* The bytes one even-odd application reads and writes, each field once: the links, a clover block a
 * site, and in, the intermediate and out on half the sites each. */
static int64_t schur_bytes(const qf_dirac *d)
{
    qf_field_shape spinor = qf_field_kind_shape(QF_FIELD_WILSON);
    size_t site = qf_field_shape_site_bytes(&d->links->shape, d->p.prec) +
                  3 * qf_field_shape_site_bytes(&spinor, d->p.prec) / 2;
    if (d->clover) site += qf_field_shape_site_bytes(&d->clover->shape, d->p.prec);
    return d->lat->local_volume * (int64_t)site;
}

/* Whether the two hops of an even-odd application run as one task a block (wilson_pair): on a lattice
 * of several blocks in one process, where qf_runtime_pair_hops says so for the application's bytes and
 * whether the pair's CPU function runs them in one pass over the odd sites. Across processes the stencil
 * keeps its interiors apart from the faces, so that the messages overlap them. */
static int pairs_hops(const qf_dirac *d, const qf_dirac_hop *h, int n)
{
    return n == 2 && h[0].src == QF_HOP_IN && h[0].dst == QF_HOP_TMP && h[1].src == QF_HOP_TMP &&
           h[1].dst == QF_HOP_OUT && d->lat->nblocks > 1 && d->lat->nprocs == 1 &&
           qf_runtime_pair_hops(schur_bytes(d), d->block_pass);
}

/* Hop h of an application in a run_hops program, reading x (NULL: none). */
static hop_spec spec_of(const qf_dirac *d, const qf_dirac_hop *h, int dagger, const qf_field *x)
{
    return (hop_spec){.parity = h->parity, .dagger = dagger, .a = h->a, .b = h->b, .x = x, .clover_on = h->clover_on,
                      .clover = h->clover_on == QF_CLOVER_NONE ? NULL : h->clover_inverse ? d->clover_inv : d->clover};
}

/* The two hops h[0], h[1] of one even-odd application: the first hop's stencil gathers (in's faces),
 * a wilson_pair task a block (both hops inside the block, slice by slice, and the gather of t's faces
 * into faces_pair), and the second hop's stencil exteriors. Three tasks a block where the stencil
 * makes six. */
static int run_hops_paired(qf_dirac *d, const qf_dirac_hop *h, int dagger, qf_field *out, const qf_field *in)
{
    static const char *const names[2][3] = {PREC_NAMES("pair:Mhat"), PREC_NAMES("pair:Mhat^dag")};
    const qf_lattice *lat = d->lat;
    qf_field *tmp = d->tmp[0];
    const qf_field *x_of[3] = {in, out, tmp}; /* QF_HOP_IN, QF_HOP_OUT, QF_HOP_TMP */
    const int buffer_of[3] = {QF_WILSON_PAIR_IN, QF_WILSON_PAIR_OUT, QF_WILSON_PAIR_TMP};
    qf_field *dst[2] = {tmp, out};
    const qf_field *src[2] = {in, tmp};
    const qf_face_set *faces[2] = {&d->faces_half, &d->faces_pair};
    qf_stencil st[2] = {0};
    qf_wilson_pair_args pair = {.x = {-1, -1}, .clover = {-1, -1}};
    int nbuf = QF_WILSON_PAIR_FIXED; /* the clover fields follow the fixed buffers */
    int rc = QF_SUCCESS;
    for (int k = 0; k < 2; k++) {
        hop_spec spec = spec_of(d, &h[k], dagger, h[k].x == QF_HOP_NONE ? NULL : x_of[h[k].x]);
        rc = hop_stencil(d, dst[k], src[k], &spec, faces[k], &st[k]);
        if (rc) break;
        pair.hop[k] = *(const qf_wilson_args *)st[k].stage[QF_STENCIL_INTERIOR].args;
        if (h[k].x != QF_HOP_NONE) pair.x[k] = buffer_of[h[k].x];
        if (spec.clover) pair.clover[k] = nbuf++;
    }
    if (!rc) {
        pair.gather = *(const qf_wilson_gather_args *)st[1].stage[QF_STENCIL_GATHER].args;
        rc = qf_stencil_gathers(&st[0]);
    }
    for (int b = 0; b < lat->nblocks && !rc; b++) {
        struct starpu_data_descr buf[QF_WILSON_PAIR_FIXED + 2];
        buf[QF_WILSON_PAIR_IN] = (struct starpu_data_descr){qf_field_block(in, b), STARPU_R};
        buf[QF_WILSON_PAIR_LINKS] = (struct starpu_data_descr){qf_field_block(d->links, b), STARPU_R};
        buf[QF_WILSON_PAIR_OUT] = (struct starpu_data_descr){qf_field_block(out, b), STARPU_RW};
        buf[QF_WILSON_PAIR_TMP] = (struct starpu_data_descr){qf_field_block(tmp, b), STARPU_RW};
        qf_stencil_neighbour_faces(faces[0], lat, b, &buf[QF_WILSON_PAIR_IN_FACES]);
        for (int f = 0; f < QF_WILSON_NFACES; f++)
            buf[QF_WILSON_PAIR_TMP_FACES + f] =
                (struct starpu_data_descr){qf_face_set_handle(faces[1], b, f / 2, f % 2), STARPU_W};
        for (int k = 0; k < 2; k++)
            if (pair.clover[k] >= 0)
                buf[pair.clover[k]] = (struct starpu_data_descr){qf_field_block(st[k].extra[1], b), STARPU_R};
        qf_lattice_block_origin(lat, b, pair.hop[0].origin);
        memcpy(pair.hop[1].origin, pair.hop[0].origin, sizeof pair.hop[1].origin);
        rc = qf_task_check(QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_wilson_pair, STARPU_DATA_MODE_ARRAY, buf, nbuf,
                                                STARPU_NAME, names[dagger != 0][d->p.prec], STARPU_CL_ARGS,
                                                qf_task_args_copy(&pair, sizeof pair), sizeof pair, 0),
                           "wilson_pair");
    }
    rc = rc || qf_stencil_exteriors(&st[1]);
    for (int k = 0; k < 2; k++) qf_codelet_stages_free(st[k].stage, QF_STENCIL_NSTAGES);
    return rc;
}

/* Whether the operator's Schur hops are an even-odd pair that wilson_pair's CPU function runs in one
 * pass over the odd sites of each block of several (codelets/wilson_eo_pass.c; on a one-block lattice
 * wilson_block decides for itself); the same for D^dagger, whose hops differ only in their signs. Worked
 * out once, when the operator is built. */
static int block_pass_fits(const qf_dirac *d)
{
    qf_dirac_hop h[QF_DIRAC_MAX_HOPS];
    int n;
    qf_dirac_schur_hops(&d->p, d->form, h, &n);
    if (n != 2 || h[1].src != h[0].dst || h[1].x != h[0].src) return 0;
    qf_wilson_args a[2];
    for (int k = 0; k < 2; k++) {
        qf_wilson_hop w = qf_wilson_hop_of(&h[k], &d->p, 0);
        qf_wilson_gather_args g;
        qf_wilson_hop_args(d->lat, &w, &g, &a[k]);
    }
    return qf_wilson_eo_pass_block_fits(&a[0], &a[1]);
}

/* out = the hops h[0 .. n-1] of one application, with D^dagger when dagger. */
static int run_hops(qf_dirac *d, const qf_dirac_hop *h, int n, int dagger, qf_field *out, const qf_field *in)
{
    if (qf_stencil_fuses(d->lat))
        return run_hops_fused(d, h, n, dagger, out, in);
    if (pairs_hops(d, h, n)) return run_hops_paired(d, h, dagger, out, in);
    qf_field *fields[3] = {NULL, out, d->tmp[0]}; /* QF_HOP_IN, QF_HOP_OUT, QF_HOP_TMP; in is read only */
    for (int k = 0; k < n; k++) {
        const qf_field *src = h[k].src == QF_HOP_IN ? in : fields[h[k].src];
        const qf_field *x = h[k].x == QF_HOP_NONE ? NULL : h[k].x == QF_HOP_IN ? in : fields[h[k].x];
        hop_spec s = spec_of(d, &h[k], dagger, x);
        if (hop(d, fields[h[k].dst], src, &s)) return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* out_e = Mhat in_e or Mhat^dagger in_e. */
static int apply_schur(qf_dirac *d, qf_field *out, const qf_field *in, int dagger)
{
    qf_dirac_hop h[QF_DIRAC_MAX_HOPS];
    int n;
    qf_dirac_schur_hops(&d->p, d->form, h, &n);
    if (!(dagger && has_clover(d) && d->form == QF_SCHUR_SYMMETRIC)) return run_hops(d, h, n, dagger, out, in);
    /* 1 - kappa^2 D_eo^dagger A_oo^-1 D_oe^dagger A_ee^-1: A_ee^-1 applied first, then two hops */
    qf_field *pre = d->tmp[1];
    hop_spec first = {.parity = 1, .dagger = 1, .a = 0.0, .b = 1.0, .clover_on = QF_CLOVER_HOPS, .clover = d->clover_inv};
    hop_spec second = {.parity = 0, .dagger = 1, .a = 1.0, .b = -d->p.kappa * d->p.kappa, .x = in};
    return qf_clover_apply(pre, 0.0, in, 1.0, d->clover_inv, in, 0) || hop(d, d->tmp[0], pre, &first) ||
           hop(d, out, d->tmp[0], &second);
}

static int check_operand(const qf_dirac *d, const qf_field *f, const char *role)
{
    if (f->shape.kind != QF_FIELD_WILSON)
        return qf_fail("the Dirac operator's %s must be a %s field, not a %s field", role,
                       qf_field_kind_name(QF_FIELD_WILSON), qf_field_kind_name(f->shape.kind));
    if (f->prec != d->p.prec)
        return qf_fail("the Dirac operator's %s is in %s precision but the operator is in %s: convert it with "
                       "qf_field_convert or build the operator in %s",
                       role, qf_precision_name(f->prec), qf_precision_name(d->p.prec), qf_precision_name(f->prec));
    const qf_lattice *a = f->lat, *b = d->lat;
    if (!qf_lattice_same(a, b))
        return qf_fail("the Dirac operator's %s lives on lattice %d %d %d %d with blocks %d %d %d %d, the operator on "
                       "%d %d %d %d with blocks %d %d %d %d: create the field on the operator's lattice",
                       role, a->global[0], a->global[1], a->global[2], a->global[3], a->blocks[0], a->blocks[1],
                       a->blocks[2], a->blocks[3], b->global[0], b->global[1], b->global[2], b->global[3], b->blocks[0],
                       b->blocks[1], b->blocks[2], b->blocks[3]);
    return QF_SUCCESS;
}

static int check_distinct(const qf_field *out, const qf_field *in, const char *what)
{
    if (out == in)
        return qf_fail("%s: the output and the input are the same field; the operator reads its input while it "
                       "writes its output, so pass a different output field",
                       what);
    return QF_SUCCESS;
}

int qf_dirac_apply(qf_dirac *d, qf_dirac_op op, qf_field *out, const qf_field *in)
{
    if (op < QF_OP_M || op > QF_OP_MHAT_DAGMHAT) return qf_fail("unknown Dirac operator %d", (int)op);
    if (check_operand(d, out, "output") || check_operand(d, in, "input") ||
        check_distinct(out, in, qf_dirac_op_name(op)))
        return QF_ERROR;
    qf_field *prod = d->tmp[2];
    switch (op) {
    case QF_OP_M: return apply_full(d, out, in, 0);
    case QF_OP_MDAG: return apply_full(d, out, in, 1);
    case QF_OP_MDAGM: return apply_full(d, prod, in, 0) || apply_full(d, out, prod, 1) ? QF_ERROR : QF_SUCCESS;
    case QF_OP_MHAT: return apply_schur(d, out, in, 0) ? QF_ERROR : QF_SUCCESS;
    case QF_OP_MHAT_DAG: return apply_schur(d, out, in, 1) ? QF_ERROR : QF_SUCCESS;
    default: return apply_schur(d, prod, in, 0) || apply_schur(d, out, prod, 1) ? QF_ERROR : QF_SUCCESS;
    }
}

int qf_dirac_prepare(qf_dirac *d, qf_field *bhat, const qf_field *b)
{
    if (check_operand(d, bhat, "prepared source") || check_operand(d, b, "source") ||
        check_distinct(bhat, b, "qf_dirac_prepare"))
        return QF_ERROR;
    /* bhat_e = b_e + kappa D_eo u_o, u_o = A_oo^-1 b_o; symmetric: A_ee^-1 of that */
    const qf_field *u = b;
    if (has_clover(d)) {
        if (qf_clover_apply(d->tmp[0], 0.0, b, 1.0, d->clover_inv, b, 1)) return QF_ERROR;
        u = d->tmp[0];
    }
    hop_spec s = {.parity = 0, .a = 1.0, .b = d->p.kappa, .x = b};
    if (has_clover(d) && d->form == QF_SCHUR_SYMMETRIC) {
        s.clover_on = QF_CLOVER_ALL;
        s.clover = d->clover_inv;
    }
    return hop(d, bhat, u, &s);
}

int qf_dirac_prepare_defect(qf_dirac *d, qf_field *bhat, const qf_field *r, const qf_field *z)
{
    if (check_operand(d, bhat, "prepared defect") || check_operand(d, r, "residual") ||
        check_operand(d, z, "correction") || check_distinct(bhat, r, "qf_dirac_prepare_defect") ||
        check_distinct(bhat, z, "qf_dirac_prepare_defect"))
        return QF_ERROR;
    /* z_o := u_o = A_oo^-1 (r_o + kappa D_oe z_e) zeroes the defect's odd sites (reconstruct's hop), so
     * its even sites r_e - A_ee z_e + kappa D_eo u_o are prepare's whole answer, A_ee^-1 of them in the
     * symmetric form. The second hop's finishing step takes one of r and z, a vector pass the other. */
    qf_field *u = d->tmp[0];
    hop_spec odd = {.parity = 1, .a = 1.0, .b = d->p.kappa, .x = r,
                    .clover_on = has_clover(d) ? QF_CLOVER_ALL : QF_CLOVER_NONE, .clover = d->clover_inv};
    int asym_clover = has_clover(d) && d->form == QF_SCHUR_ASYMMETRIC;
    hop_spec even = {.parity = 0, .a = 1.0, .b = d->p.kappa, .x = r};
    if (asym_clover) /* -A_ee z_e + kappa D_eo u_o, then + r_e */
        even = (hop_spec){
            .parity = 0, .a = -1.0, .b = d->p.kappa, .x = z, .clover_on = QF_CLOVER_X, .clover = d->clover};
    else if (has_clover(d)) /* A_ee^-1 (r_e + kappa D_eo u_o), then - z_e */
        even.clover_on = QF_CLOVER_ALL, even.clover = d->clover_inv;
    return hop(d, u, z, &odd) || hop(d, bhat, u, &even) ||
                   qf_blas_axpby(asym_clover ? 1.0 : -1.0, asym_clover ? r : z, 1.0, bhat, 0)
               ? QF_ERROR
               : QF_SUCCESS;
}

int qf_dirac_schur_image(qf_dirac *d, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w)
{
    if (check_operand(d, az, "image") || check_operand(d, b, "source") || check_operand(d, bhat, "prepared source") ||
        check_operand(d, w, "Schur image"))
        return QF_ERROR;
    if (!(has_clover(d) && d->form == QF_SCHUR_SYMMETRIC)) return qf_linop_schur_image_asymmetric(az, b, bhat, w);
    qf_field *diff = d->tmp[1];
    return qf_blas_copy(az, b, -1) || qf_blas_axpbypcw(1.0, w, 0.0, diff, -1.0, bhat, 0) ||
                   qf_clover_apply(az, 1.0, az, 1.0, d->clover, diff, 0)
               ? QF_ERROR
               : QF_SUCCESS;
}

int qf_dirac_reconstruct(qf_dirac *d, qf_field *x, const qf_field *x_even, const qf_field *b)
{
    if (check_operand(d, x, "solution") || check_operand(d, x_even, "even-site solution") ||
        check_operand(d, b, "source") || check_distinct(x, x_even, "qf_dirac_reconstruct") ||
        check_distinct(x, b, "qf_dirac_reconstruct"))
        return QF_ERROR;
    /* x = x_even on every site, then x_o = A_oo^-1 (b_o + kappa D_oe x_e) over the odd half */
    if (qf_field_convert(x, x_even)) return QF_ERROR;
    hop_spec s = {.parity = 1, .a = 1.0, .b = d->p.kappa, .x = b,
                  .clover_on = has_clover(d) ? QF_CLOVER_ALL : QF_CLOVER_NONE, .clover = d->clover_inv};
    return hop(d, x, x_even, &s);
}

/* ---- construction ---- */

static int check_params(const qf_dirac_params *p)
{
    if (!(p->kappa > 0.0) || !isfinite(p->kappa))
        return qf_fail("kappa %g: the hopping parameter must be positive (mass m = 1/(2 kappa) - 4)", p->kappa);
    if (!isfinite(p->csw) || p->csw < 0.0) return qf_fail("c_sw %g: the clover coefficient must be >= 0", p->csw);
    if (qf_precision_check(p->prec, "operator") || qf_recon_check(p->recon, "operator") ||
        qf_recon_check(p->recon_sloppy, "sloppy operator"))
        return QF_ERROR;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        double m = hypot(p->phase[mu][0], p->phase[mu][1]);
        if (!(fabs(m - 1.0) < 1e-12))
            return qf_fail("boundary phase of direction %d is (%g, %g), of modulus %g: a phase must have modulus 1 "
                           "(periodic 1, antiperiodic -1)",
                           mu, p->phase[mu][0], p->phase[mu][1], m);
    }
    return QF_SUCCESS;
}

/* The operator on gauge with parameters p; its clover fields are built from F_munu, or converted
 * from those of like (the same operator in another precision) when like is given. */
static int dirac_build(qf_dirac **out, const qf_field *gauge, const qf_dirac_params *p, qf_schur_form form,
                       const qf_dirac *like)
{
    *out = NULL;
    const qf_lattice *lat = gauge->lat;
    qf_dirac *d = calloc(1, sizeof *d);
    if (!d) return qf_fail("out of host memory creating the Dirac operator");
    d->p = *p;
    d->form = form;
    d->lat = lat;
    d->block_pass = block_pass_fits(d);
    /* the operator's own fields live where its tasks run: no pinned host copies */
    int rc = qf_field_create_scratch(&d->gauge, lat, QF_FIELD_GAUGE, p->prec) || qf_field_convert(d->gauge, gauge);
    d->links = d->gauge;
    if (!rc && p->recon != QF_RECON_18) {
        qf_field_shape s;
        d->links = NULL;
        rc = qf_field_shape_compressed_gauge(&s, p->recon) ||
             qf_field_create_shaped(&d->links, lat, &s, p->prec, QF_FIELD_SCRATCH) || qf_gauge_compress(d->links, gauge);
    }
    /* the temporaries' unused parity is read (RW) by the even-odd steps: give them contents */
    for (int k = 0; k < 3 && !rc; k++)
        rc = qf_field_create_scratch(&d->tmp[k], lat, QF_FIELD_WILSON, p->prec) ||
             qf_blas_axpby(0.0, NULL, 0.0, d->tmp[k], -1);
    int face_reals = qf_field_kind_shape(QF_FIELD_WILSON).face_reals; /* spin-projected half spinors */
    rc = rc || qf_face_set_create(&d->faces_full, lat, face_reals, 1, p->prec);
    rc = rc || qf_face_set_create_half(&d->faces_half, lat, face_reals, p->prec);
    rc = rc || qf_face_set_create_half(&d->faces_pair, lat, face_reals, p->prec);
    if (!rc && p->csw != 0.0 && like) {
        rc = qf_field_create_scratch(&d->clover, lat, QF_FIELD_CLOVER, p->prec) ||
             qf_field_create_scratch(&d->clover_inv, lat, QF_FIELD_CLOVER, p->prec) ||
             qf_field_convert(d->clover, like->clover) || qf_field_convert(d->clover_inv, like->clover_inv);
    } else if (!rc && p->csw != 0.0) {
        /* the field strength from links with faces: the caller's, or the operator's copy (in single where
         * the operator is in half, which the field-strength codelets do not read) */
        qf_field *fmunu = NULL, *links = NULL;
        const qf_field *from = gauge->shape.face_depth == 1 ? gauge : d->gauge;
        if (from->prec == QF_HALF)
            rc = qf_field_create_scratch(&links, lat, QF_FIELD_GAUGE, QF_SINGLE) || qf_field_convert(links, gauge);
        rc = rc || qf_field_create_scratch(&fmunu, lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE) ||
             qf_field_create_scratch(&d->clover, lat, QF_FIELD_CLOVER, p->prec) ||
             qf_field_create_scratch(&d->clover_inv, lat, QF_FIELD_CLOVER, p->prec) ||
             qf_gauge_field_strength(links ? links : from, fmunu) ||
             qf_clover_build(fmunu, p->kappa * p->csw, d->clover, d->clover_inv);
        if (fmunu) qf_field_destroy(fmunu);
        if (links) qf_field_destroy(links);
    }
    if (rc) {
        qf_dirac_destroy(d);
        return QF_ERROR;
    }
    *out = d;
    return QF_SUCCESS;
}

int qf_dirac_create(qf_dirac **out, const qf_field *gauge, const qf_dirac_params *p, qf_schur_form form)
{
    *out = NULL;
    if (gauge->shape.kind != QF_FIELD_GAUGE)
        return qf_fail("the Dirac operator needs a gauge field, not a %s field", qf_field_kind_name(gauge->shape.kind));
    if (gauge->prec == QF_HALF)
        return qf_fail("the Dirac operator's gauge field is in half precision: give the links in double or single (the "
                       "operator keeps its own copy in its precision, half included)");
    if (form != QF_SCHUR_ASYMMETRIC && form != QF_SCHUR_SYMMETRIC) return qf_fail("unknown Schur form %d", (int)form);
    if (check_params(p)) return QF_ERROR;
    return dirac_build(out, gauge, p, form, NULL);
}

int qf_dirac_in_precision(qf_dirac *d, qf_precision prec, qf_dirac **out)
{
    *out = d;
    if (prec == d->p.prec) return QF_SUCCESS;
    if ((unsigned)prec > QF_HALF) return qf_precision_check(prec, "operator");
    if (!d->twin[prec]) {
        /* from the operator's own fields: a double twin of a single operator holds its rounded values */
        qf_dirac_params p = d->p;
        p.prec = prec;
        p.recon = d->p.recon_sloppy;
        p.recon_sloppy = d->p.recon;
        if (dirac_build(&d->twin[prec], d->gauge, &p, d->form, d)) return QF_ERROR;
    }
    *out = d->twin[prec];
    return QF_SUCCESS;
}

void qf_dirac_destroy(qf_dirac *d)
{
    if (!d) return;
    for (int k = 0; k < 3; k++) qf_dirac_destroy(d->twin[k]);
    if (d->links && d->links != d->gauge) qf_field_destroy(d->links);
    if (d->gauge) qf_field_destroy(d->gauge);
    if (d->clover) qf_field_destroy(d->clover);
    if (d->clover_inv) qf_field_destroy(d->clover_inv);
    for (int k = 0; k < 3; k++)
        if (d->tmp[k]) qf_field_destroy(d->tmp[k]);
    qf_face_set_destroy(&d->faces_full);
    qf_face_set_destroy(&d->faces_half);
    qf_face_set_destroy(&d->faces_pair);
    free(d);
}

/* QUDA's counts (DESIGN.md): dslash 1320 a site, clover term 504 (A or A^-1 on a site), x + b y 48.
 * Mhat is two half-lattice dslashes: t = A_oo^-1 D in (1320 + 504), then in + b (A^-1 or A) D t
 * (1320 + 504 + 48); the symmetric dagger applies A_ee^-1 to its input first (504 more). */
double qf_dirac_flops(const qf_dirac *d, qf_dirac_op op)
{
    double v = (double)d->lat->global_volume, h = v / 2;
    double clover = has_clover(d) ? 504.0 : 0.0;
    double full = v * (1320.0 + 48.0 + clover);
    double schur = h * (1320.0 + clover) + h * (1320.0 + 48.0 + clover);
    double pre = has_clover(d) && d->form == QF_SCHUR_SYMMETRIC ? h * clover : 0.0;
    switch (op) {
    case QF_OP_M:
    case QF_OP_MDAG: return full;
    case QF_OP_MDAGM: return 2 * full;
    case QF_OP_MHAT: return schur;
    case QF_OP_MHAT_DAG: return schur + pre;
    default: return 2 * schur + pre;
    }
}
