/* The Galerkin coarse operator of multigrid as a qf_linop (include/quarkflow/qf_multigrid.h): its build
 * from a fine operator and a transfer, and its applications, all task graphs. The build:
 *
 *   face_copy          the vectors' faces (both sides), and the gauge field's side-1 faces (Wilson)
 *   mg_build(b)        R: V(b), links(b), [A(b)], V faces of b's neighbours, [gauge faces]  W: partial(b)
 *   mg_assemble(c)     R: partial(b) for the fine blocks b of c  W: links(c), X^-1(c)  REDUX: singular sites
 *
 * An application is the stencil graph (tasks/stencil.h) with the coarse codelets, the local term fused
 * into the finishing step as the Wilson operator's clover term: D_c = X + H (H the hops), its
 * asymmetric Schur complement X_ee - H_eo X_oo^-1 H_oe with the source preparation
 * b_e - H_eo X_oo^-1 b_o and the reconstruction x_o = X_oo^-1 (b_o - H_oe x_e). The dagger of each is
 * g5 (.) g5. A coarse operator coarsens again (the next level) through the same build. On a lattice of
 * one block and one process the Schur complement may also be inverted as a dense matrix
 * (mg_schur_invert), which the one-task solves then apply in place of iterating. */
#include "mg_tasks.h"
#include "stencil.h"
#include "scalar.h"

typedef struct coarse_op coarse_op;
struct coarse_op {
    const qf_lattice *lat;
    int nvec;
    qf_precision prec;
    qf_field *links, *xinv;          /* 9 matrices a site; the local term's inverse */
    qf_field *links_half, *xinv_half; /* their 16-bit copies, which the applications read where set
                                       * (qf_coarse_op_set_link_precision) */
    qf_face_set faces_full, faces_half;
    qf_field *tmp;                   /* the odd intermediate of the Schur complement */
    qf_linop *twin;                  /* owned: the operator in the other precision */
    starpu_data_handle_t schur_inverse; /* the Schur complement's dense inverse, or NULL */
    int parity;                      /* of the linop made on it: -1 full, 0 Schur */
    coarse_op *owner;                /* the full operator whose fields a Schur form uses (NULL: itself) */
};

static const char *const stage_names[2][4] = {
    {"c_gather:double", "c_interior:double", "c_exterior:double", "c_block:double"},
    {"c_gather:single", "c_interior:single", "c_exterior:single", "c_block:single"}};

typedef struct {
    int parity, dagger;
    double a, b;
    const qf_field *x;
    int local_on, local_inverse;
} coarse_hop;

/* The links and X^-1 the applications read. */
static const qf_field *applied_links(const coarse_op *op) { return op->links_half ? op->links_half : op->links; }
static const qf_field *applied_xinv(const coarse_op *op) { return op->xinv_half ? op->xinv_half : op->xinv; }

/* out = finish(a, x, b, H in) on the sites of h->parity. */
static int hop(coarse_op *op, qf_field *out, const qf_field *in, const coarse_hop *h)
{
    qf_coarse_hop c = {.parity = h->parity, .dagger = h->dagger, .a = h->a, .b = h->b, .has_x = h->x != NULL,
                       .local_on = h->local_on, .local_inverse = h->local_inverse, .nvec = op->nvec, .prec = op->prec,
                       .link_prec = qf_field_precision(applied_links(op))};
    qf_stencil s = {.in = in,
                    .out = out,
                    .all_sites = h->parity < 0,
                    .links = applied_links(op),
                    .gather_without_links = 1,
                    .extra = {h->x, h->local_on != QF_CLOVER_NONE && h->local_inverse ? applied_xinv(op) : NULL},
                    .nfaces = 1,
                    .faces = {h->parity < 0 ? &op->faces_full : &op->faces_half}};
    if (qf_coarse_stages(op->lat, &c, stage_names[op->prec == QF_SINGLE], s.stage)) return QF_ERROR;
    int rc = qf_stencil_apply(&s);
    qf_codelet_stages_free(s.stage, QF_STENCIL_NSTAGES);
    return rc;
}

/* ---- the linop ---- */

static int full_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    coarse_hop h = {.parity = -1, .dagger = dagger, .a = 1.0, .b = 1.0, .x = in, .local_on = QF_CLOVER_X};
    return hop(ctx, out, in, &h);
}

static int schur_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    coarse_op *op = ((coarse_op *)ctx)->owner;
    coarse_hop odd = {.parity = 1, .dagger = dagger, .a = 0.0, .b = 1.0, .local_on = QF_CLOVER_HOPS, .local_inverse = 1};
    coarse_hop even = {.parity = 0, .dagger = dagger, .a = 1.0, .b = -1.0, .x = in, .local_on = QF_CLOVER_X};
    return hop(op, op->tmp, in, &odd) || hop(op, out, op->tmp, &even) ? QF_ERROR : QF_SUCCESS;
}

/* Matrices applied a site, 8 (2N)^2 flops each (a complex multiply-add is 8). */
static double matrices_flops(const coarse_op *op, double matrices_per_site)
{
    double n2 = 2.0 * op->nvec;
    return matrices_per_site * 8.0 * n2 * n2 * (double)op->lat->global_volume;
}
static double full_flops(const void *ctx, int dagger)
{
    (void)dagger;
    return matrices_flops(ctx, qf_coarse_link_matrices());
}
static double schur_flops(const void *ctx, int dagger)
{
    (void)dagger; /* two half-lattice hops with the local term each */
    return matrices_flops(((const coarse_op *)ctx)->owner, qf_coarse_link_matrices());
}

static int full_prepare(void *ctx, qf_field *bhat, const qf_field *b)
{
    coarse_op *op = ctx;
    coarse_hop odd = {.parity = 1, .a = 1.0, .b = 0.0, .x = b, .local_on = QF_CLOVER_ALL, .local_inverse = 1};
    coarse_hop even = {.parity = 0, .a = 1.0, .b = -1.0, .x = b, .local_on = QF_CLOVER_NONE};
    return hop(op, op->tmp, b, &odd) || hop(op, bhat, op->tmp, &even) ? QF_ERROR : QF_SUCCESS;
}

static int full_reconstruct(void *ctx, qf_field *x, const qf_field *x_even, const qf_field *b)
{
    coarse_op *op = ctx;
    if (x == x_even || x == b) return qf_fail("coarse reconstruct: the solution must be a field of its own");
    coarse_hop odd = {.parity = 1, .a = 1.0, .b = -1.0, .x = b, .local_on = QF_CLOVER_ALL, .local_inverse = 1};
    /* the whole field, as the Wilson reconstruction: a copy of the even sites alone would leave x's odd
     * sites to be read and written back unset, which StarPU refuses for a field no task has written */
    return qf_blas_copy(x, x_even, -1) || hop(op, x, x_even, &odd) ? QF_ERROR : QF_SUCCESS;
}

/* prepare(r - A z) whatever z_o: u_o = X_oo^-1 (r_o - H_oe z_e), the z_o that zeroes the odd defect,
 * then r_e - X_ee z_e - H_eo u_o (two hops where prepare(r) and Ahat z_e take four) */
static int full_prepare_defect(void *ctx, qf_field *bhat, const qf_field *r, const qf_field *z)
{
    coarse_op *op = ctx;
    coarse_hop odd = {.parity = 1, .a = 1.0, .b = -1.0, .x = r, .local_on = QF_CLOVER_ALL, .local_inverse = 1};
    coarse_hop even = {.parity = 0, .a = -1.0, .b = -1.0, .x = z, .local_on = QF_CLOVER_X};
    return hop(op, op->tmp, z, &odd) || hop(op, bhat, op->tmp, &even) || qf_blas_axpby(1.0, r, 1.0, bhat, 0)
               ? QF_ERROR
               : QF_SUCCESS;
}

/* the coarse Schur form is the asymmetric one (schur_apply) */
static int full_schur_image(void *ctx, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w)
{
    (void)ctx;
    return qf_linop_schur_image_asymmetric(az, b, bhat, w);
}

static void drop_half_links(coarse_op *op)
{
    if (op->links_half) qf_field_destroy(op->links_half);
    if (op->xinv_half) qf_field_destroy(op->xinv_half);
    op->links_half = op->xinv_half = NULL;
}

static void op_free(coarse_op *op)
{
    if (!op) return;
    qf_linop_destroy(op->twin);
    if (op->schur_inverse) starpu_data_unregister_submit(op->schur_inverse);
    drop_half_links(op);
    if (op->links) qf_field_destroy(op->links);
    if (op->xinv) qf_field_destroy(op->xinv);
    if (op->tmp) qf_field_destroy(op->tmp);
    qf_face_set_destroy(&op->faces_full);
    qf_face_set_destroy(&op->faces_half);
    free(op);
}
static void full_destroy(void *ctx) { op_free(ctx); }
static void schur_destroy(void *ctx) { free(ctx); }

static int full_schur(void *ctx, qf_linop **schur);
static int full_in_precision(void *ctx, qf_precision prec, qf_linop **twin);
static int full_coarsen(void *ctx, const qf_transfer *T, qf_linop **coarse);

static const qf_linop_ops full_ops = {.name = "D_c",
                                      .apply = full_apply,
                                      .flops = full_flops,
                                      .in_precision = full_in_precision,
                                      .schur = full_schur,
                                      .prepare = full_prepare,
                                      .reconstruct = full_reconstruct,
                                      .schur_image = full_schur_image,
                                      .prepare_defect = full_prepare_defect,
                                      .coarsen = full_coarsen,
                                      .destroy = full_destroy};
static const qf_linop_ops schur_ops = {
    .name = "Dhat_c", .apply = schur_apply, .flops = schur_flops, .destroy = schur_destroy};

static int make_linop(coarse_op *op, const qf_linop_ops *ops, int parity, qf_linop **A)
{
    qf_linop_domain dom = {.lat = op->lat, .prec = op->prec, .parity = parity};
    if (qf_field_shape_coarse(&dom.shape, op->nvec)) return QF_ERROR;
    return qf_linop_create(A, ops, op, &dom);
}

static int full_schur(void *ctx, qf_linop **schur)
{
    coarse_op *view = calloc(1, sizeof *view);
    if (!view) return qf_fail("out of host memory creating a coarse Schur operator");
    coarse_op *op = ctx;
    *view = (coarse_op){.lat = op->lat, .nvec = op->nvec, .prec = op->prec, .parity = 0, .owner = op};
    if (make_linop(view, &schur_ops, 0, schur)) {
        free(view);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* ---- the one-task solves (codelet mg_coarse_solve) ---- */

int qf_coarse_one_task_possible(const qf_linop *Ac)
{
    const coarse_op *op = qf_linop_context(Ac, &full_ops);
    return op && op->lat->nblocks == 1 && qf_runtime_nprocs() == 1;
}

static int check_one_task_operand(const coarse_op *op, const qf_field *f, const char *what)
{
    if (!f) return qf_fail("qf_coarse_solve_one_task: the %s is NULL", what);
    const qf_field_shape *s = qf_field_get_shape(f);
    if (qf_field_lattice(f) != op->lat || s->kind != QF_FIELD_COARSE || s->site_reals != 4 * op->nvec ||
        qf_field_precision(f) != op->prec)
        return qf_fail("qf_coarse_solve_one_task: the %s is not a coarse field of the operator's lattice, %d colours "
                       "and %s precision",
                       what, op->nvec, qf_precision_name(op->prec));
    return QF_SUCCESS;
}

int qf_coarse_levels_solve_one_task(int nlevels, qf_linop *const *ops, const qf_transfer *const *T, qf_field *x,
                                    const qf_field *b, const qf_coarse_task_params *p, qf_scalar *const *stats)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (nlevels < 1 || nlevels > QF_MG_MAX_LEVELS - 1)
        return qf_fail("qf_coarse_levels_solve_one_task: %d levels: give 1 to %d", nlevels, QF_MG_MAX_LEVELS - 1);
    if (!p || !(p->tol > 0.0 && p->tol < 1.0) || p->max_iter < 1 || p->nkrylov < 1 ||
        p->nkrylov > QF_COARSE_ONE_TASK_MAX_NKRYLOV || p->smoother_steps < 0)
        return qf_fail("qf_coarse_levels_solve_one_task: tolerance %g, %d iterations, GCR(%d), %d smoothing steps: give "
                       "a tolerance in (0, 1), at least one iteration, 1 to %d directions and 0 or more steps",
                       p ? p->tol : 0.0, p ? p->max_iter : 0, p ? p->nkrylov : 0, p ? p->smoother_steps : 0,
                       QF_COARSE_ONE_TASK_MAX_NKRYLOV);
    const qf_field *links[QF_MG_MAX_LEVELS], *xinv[QF_MG_MAX_LEVELS], *v[QF_MG_MAX_LEVELS];
    int nvec[QF_MG_MAX_LEVELS], agg[QF_MG_MAX_LEVELS][QF_NDIM];
    starpu_data_handle_t st[QF_MG_MAX_LEVELS];
    const coarse_op *top = NULL;
    for (int i = 0; i < nlevels; i++) {
        const coarse_op *op = qf_linop_context(ops[i], &full_ops);
        if (!qf_coarse_one_task_possible(ops[i]))
            return qf_fail("qf_coarse_solve_one_task: %s is no coarse operator on a lattice of one block and one process",
                           ops[i] ? qf_linop_name(ops[i]) : "NULL");
        if (i == 0) top = op;
        else if (op->prec != top->prec)
            return qf_fail("qf_coarse_levels_solve_one_task: the levels' operators differ in precision");
        const coarse_op *next = i < nlevels - 1 ? qf_linop_context(ops[i + 1], &full_ops) : NULL;
        if (i < nlevels - 1 && (!next || !T || !T[i] || T[i]->fine != op->lat || T[i]->prec != op->prec ||
                                !qf_lattice_same(&T[i]->coarse, next->lat)))
            return qf_fail("qf_coarse_levels_solve_one_task: transfer %d does not map level %d's lattice to level %d's",
                           i, i, i + 1);
        if (!stats || !stats[i]) return qf_fail("qf_coarse_levels_solve_one_task: no statistics scalar for level %d", i);
        links[i] = applied_links(op);
        xinv[i] = applied_xinv(op);
        nvec[i] = op->nvec;
        st[i] = qf_scalar_handle(stats[i]);
        if (i < nlevels - 1) {
            v[i] = qf_transfer_applied_vectors(T[i]);
            memcpy(agg[i], T[i]->agg, sizeof agg[i]);
        }
    }
    if (check_one_task_operand(top, x, "solution") || check_one_task_operand(top, b, "source")) return QF_ERROR;
    if (x == b) return qf_fail("qf_coarse_solve_one_task: the solution and the source are one field");
    const coarse_op *coarsest = qf_linop_context(ops[nlevels - 1], &full_ops);
    qf_coarse_solve_params cp = {p->tol, p->max_iter, p->nkrylov, p->smoother_steps, top->prec, coarsest->schur_inverse};
    starpu_data_handle_t work;
    starpu_vector_data_register(&work, -1, 0, (uint32_t)qf_coarse_solve_work_doubles(nlevels, links, nvec, &cp),
                                sizeof(double));
    int rc = qf_insert_mg_coarse_solve(nlevels, links, xinv, nvec, v, (const int(*)[QF_NDIM])agg, b, x, work, st, &cp);
    starpu_data_unregister_submit(work);
    return rc;
}

int qf_coarse_solve_one_task(qf_linop *Ac, qf_field *x, const qf_field *b, double tol, int max_iter, int nkrylov,
                             qf_scalar *stats)
{
    qf_coarse_task_params p = {.tol = tol, .max_iter = max_iter, .nkrylov = nkrylov};
    return qf_coarse_levels_solve_one_task(1, &Ac, NULL, x, b, &p, &stats);
}

int64_t qf_coarse_op_schur_dim(const qf_linop *Ac)
{
    const coarse_op *op = qf_linop_context(Ac, &full_ops);
    return op ? op->lat->global_volume / 2 * 2 * op->nvec : 0;
}

int qf_coarse_op_has_schur_inverse(const qf_linop *Ac)
{
    const coarse_op *op = qf_linop_context(Ac, &full_ops);
    return op && op->schur_inverse;
}

void qf_coarse_op_drop_schur_inverse(qf_linop *Ac)
{
    coarse_op *op = (coarse_op *)qf_linop_context(Ac, &full_ops);
    if (op && op->schur_inverse) {
        starpu_data_unregister_submit(op->schur_inverse);
        op->schur_inverse = NULL;
    }
}

int qf_coarse_op_invert_schur(qf_linop *Ac, double *residual)
{
    if (qf_sequence_failed()) return QF_ERROR;
    coarse_op *op = (coarse_op *)qf_linop_context(Ac, &full_ops);
    if (!op || !qf_coarse_one_task_possible(Ac))
        return qf_fail("qf_coarse_op_invert_schur: %s is no coarse operator on a lattice of one block and one process",
                       Ac ? qf_linop_name(Ac) : "NULL");
    int64_t n = qf_coarse_op_schur_dim(Ac);
    if (n > QF_COARSE_DENSE_MAX_DIM)
        return qf_fail("qf_coarse_op_invert_schur: the Schur complement has dimension %lld, above the %d a dense inverse "
                       "takes: solve that level by GCR (a larger --mg-block below it makes it smaller)",
                       (long long)n, QF_COARSE_DENSE_MAX_DIM);
    qf_coarse_op_drop_schur_inverse(Ac);
    qf_scalar *check;
    if (qf_scalar_create(&check)) return QF_ERROR;
    starpu_data_handle_t inverse;
    starpu_vector_data_register(&inverse, -1, 0, (uint32_t)(n * n), 2 * qf_real_size(op->prec));
    qf_runtime_cublas_init();
    double r = INFINITY, unused;
    int rc = qf_insert_mg_schur_invert(op->links, op->xinv, op->nvec, inverse, op->prec, qf_scalar_handle(check)) ||
             qf_scalar_get(check, &r, &unused);
    qf_scalar_destroy(check);
    if (rc) {
        starpu_data_unregister_submit(inverse);
        return QF_ERROR;
    }
    if (residual) *residual = isfinite(r) ? r : INFINITY;
    if (!isfinite(r)) {
        starpu_data_unregister_submit(inverse);
        return qf_fail("qf_coarse_op_invert_schur: the coarse Schur complement (dimension %lld) is singular: the "
                       "near-null vectors are degenerate; use more setup iterations (--mg-setup-iter) or fewer vectors",
                       (long long)n);
    }
    op->schur_inverse = inverse;
    return QF_SUCCESS;
}

/* An operator on lat with N colours in prec, its fields allocated (contents to come). */
static int op_alloc(coarse_op **out, const qf_lattice *lat, int nvec, qf_precision prec)
{
    *out = NULL;
    if (nvec > QF_MG_MAX_NVEC)
        return qf_fail("a coarse operator of %d colours: the coarse kernels take at most %d near-null vectors", nvec,
                       QF_MG_MAX_NVEC);
    coarse_op *op = calloc(1, sizeof *op);
    if (!op) return qf_fail("out of host memory creating a coarse operator");
    *op = (coarse_op){.lat = lat, .nvec = nvec, .prec = prec, .parity = -1};
    op->owner = op;
    qf_field_shape links, xinv, site;
    int rc = qf_field_shape_coarse_links(&links, nvec, qf_coarse_link_matrices()) || qf_field_shape_coarse_links(&xinv, nvec, 1) ||
             qf_field_shape_coarse(&site, nvec) ||
             qf_field_create_shaped(&op->links, lat, &links, prec, QF_FIELD_SCRATCH) ||
             qf_field_create_shaped(&op->xinv, lat, &xinv, prec, QF_FIELD_SCRATCH) ||
             qf_field_create_shaped(&op->tmp, lat, &site, prec, QF_FIELD_SCRATCH) ||
             qf_blas_axpby(0.0, NULL, 0.0, op->tmp, -1) ||
             qf_face_set_create(&op->faces_full, lat, site.site_reals, 1, prec) ||
             qf_face_set_create_half(&op->faces_half, lat, site.site_reals, prec);
    if (rc) {
        op_free(op);
        return QF_ERROR;
    }
    *out = op;
    return QF_SUCCESS;
}

static int full_in_precision(void *ctx, qf_precision prec, qf_linop **twin)
{
    coarse_op *op = ctx;
    if (!op->twin) {
        coarse_op *t;
        if (op_alloc(&t, op->lat, op->nvec, prec)) return QF_ERROR;
        if (qf_field_convert(t->links, op->links) || qf_field_convert(t->xinv, op->xinv) ||
            make_linop(t, &full_ops, -1, &op->twin)) {
            op_free(t);
            return QF_ERROR;
        }
    }
    *twin = op->twin;
    return QF_SUCCESS;
}

int qf_coarse_op_set_link_precision(qf_linop *Ac, qf_precision link_prec)
{
    coarse_op *op = (coarse_op *)qf_linop_context(Ac, &full_ops);
    if (!op) return qf_fail("qf_coarse_op_set_link_precision: %s is no coarse operator", Ac ? qf_linop_name(Ac) : "NULL");
    if (link_prec == op->prec) {
        drop_half_links(op);
        return QF_SUCCESS;
    }
    if (link_prec != QF_HALF || op->prec != QF_SINGLE)
        return qf_fail("coarse links in %s precision for a coarse operator in %s: give the operator's precision, or half "
                       "for a single-precision operator",
                       qf_precision_name(link_prec), qf_precision_name(op->prec));
    if (op->links_half) return QF_SUCCESS;
    if (qf_field_create_converted(&op->links_half, op->links, QF_HALF) ||
        qf_field_create_converted(&op->xinv_half, op->xinv, QF_HALF)) {
        drop_half_links(op);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

qf_precision qf_coarse_op_link_precision(const qf_linop *Ac)
{
    const coarse_op *op = qf_linop_context(Ac, &full_ops);
    return op ? qf_field_precision(applied_links(op)) : qf_linop_get_domain(Ac)->prec;
}

static int full_coarsen(void *ctx, const qf_transfer *T, qf_linop **coarse)
{
    const coarse_op *op = ctx;
    qf_coarse_source src = {.wilson = 0, .links = op->links};
    return qf_coarse_op_build(T, &src, coarse);
}

/* ---- the build ---- */

/* mg_build on every fine block into partial[b]. */
static int submit_builds(const qf_transfer *T, const qf_coarse_source *src, starpu_data_handle_t *partial)
{
    const qf_lattice *fl = T->fine;
    if (qf_tasks_copy_faces(T->v, 0) || qf_tasks_copy_faces(T->v, 1) ||
        (src->wilson && qf_tasks_copy_faces(src->links, 1)))
        return QF_ERROR;
    /* near, not local: the build reads its neighbours' faces, and StarPU-MPI sends a face only where the
     * owner of the face inserts the task too (runtime/mpi_data.h) */
    for (int b = 0; b < fl->nblocks; b++)
        if (qf_lattice_block_is_near(fl, b) && qf_insert_mg_build(T->v, b, T->agg, T->nvec, src, partial[b]))
            return QF_ERROR;
    return QF_SUCCESS;
}

/* mg_assemble on every coarse block; fails when a local term is singular. */
static int submit_assembly(const qf_transfer *T, coarse_op *op, starpu_data_handle_t *partial)
{
    const qf_lattice *cl = op->lat;
    size_t n2 = 2 * (size_t)op->nvec;
    starpu_data_handle_t scratch;
    starpu_vector_data_register(&scratch, -1, 0, (uint32_t)(cl->block_volume * 2 * n2 * n2), 2 * sizeof(double));
    qf_block_sum sum;
    if (qf_block_sum_begin_host(&sum, 1, cl)) {
        starpu_data_unregister_submit(scratch);
        return QF_ERROR;
    }
    int rc = QF_SUCCESS;
    for (int c = 0; c < cl->nblocks && !rc; c++)
        if (qf_lattice_block_is_local(cl, c))
            rc = qf_insert_mg_assemble(op->links, op->xinv, c, T->fine, T->agg, op->nvec, partial, scratch,
                                       qf_block_sum_descr(&sum, c));
    starpu_data_unregister_submit(scratch);
    double singular = 0.0;
    if (qf_block_sum_read(&sum, &singular, 1) || rc) return QF_ERROR;
    if (singular > 0.0)
        return qf_fail("multigrid: the coarse operator's local term is singular on %.0f of %lld coarse sites: the "
                       "near-null vectors are degenerate there; use more setup iterations (--mg-setup-iter) or fewer "
                       "vectors",
                       singular, (long long)cl->global_volume);
    return QF_SUCCESS;
}

int qf_coarse_op_build(const qf_transfer *T, const qf_coarse_source *src, qf_linop **Ac)
{
    *Ac = NULL;
    const qf_lattice *fl = T->fine;
    coarse_op *op;
    if (op_alloc(&op, &T->coarse, T->nvec, T->prec)) return QF_ERROR;
    size_t partial_doubles = qf_mg_partial_doubles(fl, T->agg, T->nvec);
    starpu_data_handle_t *partial = calloc((size_t)fl->nblocks, sizeof *partial);
    if (!partial) {
        op_free(op);
        return qf_fail("out of host memory building a coarse operator");
    }
    for (int b = 0; b < fl->nblocks; b++) qf_block_handle_register(&partial[b], fl, b, (uint32_t)partial_doubles, sizeof(double));
    int rc = submit_builds(T, src, partial) || submit_assembly(T, op, partial);
    for (int b = 0; b < fl->nblocks; b++) starpu_data_unregister_submit(partial[b]);
    free(partial);
    if (rc || make_linop(op, &full_ops, -1, Ac)) {
        op_free(op);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}
