/* BLAS-1 on lattice fields as task graphs (include/quarkflow/qf_blas.h): one task per block, each
 * over the elements of one parity or of the whole block, coefficients read from scalar handles:
 *
 *   blas_update(b)            R: x(b), c            W or RW: y(b)
 *   blas_reduce(b)            R: x(b), y(b)         REDUX: r (and r2)   (after a sum_zero task W: r)
 *   blas_cg_update(b)         R: a, p(b), q(b)      RW: x(b), r(b)              REDUX: rr
 *   blas_bicgstab_update(b)   R: a, p(b), w, s(b), t(b)   RW: x(b)   W or RW: r(b)   REDUX: rr
 *
 * (on a lattice of one block the reduced scalar is W instead, and no sum_zero task precedes)
 *
 * Nothing here waits. A field or scalar that is several operands of one call is one buffer of each
 * task, with the union of the operands' modes (R and W give RW) and the argument block's operand table
 * pointing at it (kernels/blas.h); the kernels load every operand of an element before they store. */
#include "scalar.h"
#include "tasks.h"
#include "kernels/blas.h"

#include <math.h>

/* ---- checks at the boundary ---- */

static int check_parity(const char *fn, int parity)
{
    if (parity >= -1 && parity <= 1) return QF_SUCCESS;
    return qf_fail("%s: parity %d: use 0 (even sites), 1 (odd sites) or -1 (all sites)", fn, parity);
}

static int check_real(const char *fn, const char *name, double v)
{
    if (isfinite(v)) return QF_SUCCESS;
    return qf_fail("%s: the coefficient %s = %g is not a finite number", fn, name, v);
}

/* The fields of one call: none NULL, and all of the first one's shape, precision and lattice. */
static int check_fields(const char *fn, int n, const qf_field *const f[], const char *const name[])
{
    if (qf_sequence_failed()) return QF_ERROR; /* every operation starts here */
    for (int k = 0; k < n; k++)
        if (!f[k]) return qf_fail("%s: the field %s is NULL", fn, name[k]);
    for (int k = 1; k < n; k++) {
        if (!qf_field_shape_same_sites(&f[k]->shape, &f[0]->shape))
            return qf_fail("%s: %s is a %s field (%d reals a site) but %s a %s field (%d): the fields of one operation "
                           "must be of one kind",
                           fn, name[k], qf_field_kind_name(f[k]->shape.kind), f[k]->shape.site_reals, name[0],
                           qf_field_kind_name(f[0]->shape.kind), f[0]->shape.site_reals);
        if (f[k]->prec != f[0]->prec)
            return qf_fail("%s: %s is in %s precision but %s in %s: the fields of one operation must have one "
                           "precision (convert with qf_field_convert)",
                           fn, name[k], qf_precision_name(f[k]->prec), name[0], qf_precision_name(f[0]->prec));
        const qf_lattice *l = f[k]->lat, *l0 = f[0]->lat;
        if (!qf_lattice_same(l, l0))
            return qf_fail("%s: %s's lattice (%d %d %d %d, blocks %d %d %d %d) differs from %s's (%d %d %d %d, "
                           "blocks %d %d %d %d): the fields of one operation must be on one lattice",
                           fn, name[k], l->global[0], l->global[1], l->global[2], l->global[3], l->blocks[0],
                           l->blocks[1], l->blocks[2], l->blocks[3], name[0], l0->global[0], l0->global[1],
                           l0->global[2], l0->global[3], l0->blocks[0], l0->blocks[1], l0->blocks[2], l0->blocks[3]);
    }
    return QF_SUCCESS;
}

static int check_scalars(const char *fn, int n, const qf_scalar *const s[], const char *const name[])
{
    for (int k = 0; k < n; k++)
        if (!s[k]) return qf_fail("%s: the scalar %s is NULL", fn, name[k]);
    return QF_SUCCESS;
}

/* ---- the buffers of a task: each distinct field or scalar once ---- */

typedef struct {
    int n;
    const void *obj[QF_BLAS_MAX_OPERANDS];            /* the qf_field or qf_scalar of each buffer */
    const qf_field *field[QF_BLAS_MAX_OPERANDS];      /* NULL for a scalar buffer */
    starpu_data_handle_t scalar[QF_BLAS_MAX_OPERANDS];
    enum starpu_data_access_mode mode[QF_BLAS_MAX_OPERANDS];
    qf_block_sum sum[QF_BLAS_MAX_OPERANDS]; /* the reduction of a result scalar's buffer */
    int is_sum[QF_BLAS_MAX_OPERANDS];
} buffer_plan;

static void plan_init(buffer_plan *pl, qf_blas_args *args)
{
    pl->n = 0;
    memset(pl->is_sum, 0, sizeof pl->is_sum);
    for (int k = 0; k < QF_BLAS_MAX_OPERANDS; k++) args->buf[k] = -1;
}

static void plan_add(buffer_plan *pl, qf_blas_args *args, int operand, const void *obj, const qf_field *field,
                     starpu_data_handle_t scalar, enum starpu_data_access_mode mode)
{
    for (int j = 0; j < pl->n; j++)
        if (pl->obj[j] == obj) {
            /* R and W give RW; the builders refuse a REDUX operand that is another operand too */
            pl->mode[j] = (enum starpu_data_access_mode)(pl->mode[j] | mode);
            args->buf[operand] = j;
            return;
        }
    int j = pl->n++;
    pl->obj[j] = obj;
    pl->field[j] = field;
    pl->scalar[j] = scalar;
    pl->mode[j] = mode;
    args->buf[operand] = j;
}

static void plan_field(buffer_plan *pl, qf_blas_args *args, int operand, const qf_field *f,
                       enum starpu_data_access_mode mode)
{
    plan_add(pl, args, operand, f, f, NULL, mode);
}

static void plan_scalar(buffer_plan *pl, qf_blas_args *args, int operand, const qf_scalar *s,
                        enum starpu_data_access_mode mode)
{
    plan_add(pl, args, operand, s, NULL, qf_scalar_handle(s), mode);
}

/* The scalar a reduction writes: with one block, the task's alone (W, assigned: one task a
 * reduction); with several, a sum over the blocks (tasks.h: STARPU_REDUX, through per-process partial
 * sums on several processes). */
static int result_scalar(buffer_plan *pl, qf_blas_args *args, int operand, qf_scalar *r, const qf_lattice *lat)
{
    qf_block_sum sum;
    if (qf_block_sum_begin(&sum, qf_scalar_handle(r), 2 * sizeof(double), lat, 1)) return QF_ERROR;
    args->assign = sum.assign;
    plan_scalar(pl, args, operand, r, sum.assign ? STARPU_W : STARPU_REDUX);
    int k = args->buf[operand];
    pl->sum[k] = sum;
    pl->is_sum[k] = 1;
    return QF_SUCCESS;
}

/* The element range of a parity (or of the whole block) of f's blocks, as complex numbers. */
static void set_range(qf_blas_args *args, const qf_field *f, int parity)
{
    int64_t v = f->lat->block_volume, per_site = f->shape.site_reals / 2;
    args->prec = f->prec;
    args->first = parity < 0 ? 0 : parity * (v / 2) * per_site;
    args->n = (parity < 0 ? v : v / 2) * per_site;
}

/* One task of codelet cl per block of f's lattice, named after the call (fn without its qf_blas_
 * prefix: "axpby", "dot", "cg_update"), which is what traces show. */
static int submit_blocks(struct starpu_codelet *cl, buffer_plan *pl, const qf_blas_args *args,
                         const qf_lattice *lat, const char *fn)
{
    const char *name = fn + strlen("qf_blas_");
    for (int b = 0; b < lat->nblocks; b++) {
        struct starpu_data_descr d[QF_BLAS_MAX_OPERANDS];
        int mine = 0;
        for (int k = 0; k < pl->n; k++) {
            d[k].handle = pl->field[k] ? qf_field_block(pl->field[k], b) : pl->scalar[k];
            d[k].mode = pl->mode[k];
            if (pl->is_sum[k]) d[k].handle = qf_block_sum_operand(&pl->sum[k], b, &d[k].mode);
            mine |= qf_data_is_mine(d[k].handle);
        }
        if (!mine) continue; /* pruned: its blocks and partial sums are never cached elsewhere (runtime/mpi_data.h) */
        int ret = QF_TASK_INSERT(cl, STARPU_DATA_MODE_ARRAY, d, pl->n, STARPU_NAME, name, QF_ARGS(*args), 0);
        if (qf_task_check(ret, cl->name)) return QF_ERROR;
    }
    for (int k = 0; k < pl->n; k++)
        if (pl->is_sum[k] && qf_block_sum_end(&pl->sum[k])) return QF_ERROR;
    return QF_SUCCESS;
}

/* ---- reductions ---- */

static int reduce(const char *fn, int op, qf_scalar *r, qf_scalar *r2, const qf_field *x, const qf_field *y,
                  int parity)
{
    const qf_field *f[2] = {x, y};
    const char *const fname[2] = {"x", "y"};
    const qf_scalar *s[2] = {r, r2};
    const char *const sname[2] = {op == QF_BLAS_DOT_NORM2 ? "dot" : "r", "norm"};
    if (check_scalars(fn, op == QF_BLAS_DOT_NORM2 ? 2 : 1, s, sname) || check_fields(fn, op == QF_BLAS_NORM2 ? 1 : 2, f, fname) ||
        check_parity(fn, parity))
        return QF_ERROR;
    if (r == r2) return qf_fail("%s: dot and norm are one scalar: give two", fn);
    if (op == QF_BLAS_DOT && x == y) op = QF_BLAS_NORM2; /* <x, x> = |x|^2, with x read once and im exactly 0 */
    qf_blas_args args = {.op = op};
    buffer_plan pl;
    plan_init(&pl, &args);
    set_range(&args, x, parity);
    plan_field(&pl, &args, QF_RED_X, x, STARPU_R);
    if (op != QF_BLAS_NORM2) plan_field(&pl, &args, QF_RED_Y, y, STARPU_R);
    if (result_scalar(&pl, &args, QF_RED_R, r, x->lat) ||
        (op == QF_BLAS_DOT_NORM2 && result_scalar(&pl, &args, QF_RED_R2, r2, x->lat)))
        return QF_ERROR;
    return submit_blocks(&qf_cl_blas_reduce, &pl, &args, x->lat, fn);
}

int qf_blas_norm2(qf_scalar *r, const qf_field *x, int parity)
{
    return reduce("qf_blas_norm2", QF_BLAS_NORM2, r, NULL, x, NULL, parity);
}

int qf_blas_dot(qf_scalar *r, const qf_field *x, const qf_field *y, int parity)
{
    return reduce("qf_blas_dot", QF_BLAS_DOT, r, NULL, x, y, parity);
}

int qf_blas_dot_norm2(qf_scalar *dot, qf_scalar *norm, const qf_field *x, const qf_field *y, int parity)
{
    return reduce("qf_blas_dot_norm2", QF_BLAS_DOT_NORM2, dot, norm, x, y, parity);
}

/* ---- updates ---- */

/* y = op(x, y) with real constants a, b, the scalar c times s, or the field w. y is written without
 * being read (W) when the operation does not read it and covers the whole block. */
static int update(const char *fn, int op, qf_field *y, const qf_field *x, const qf_field *w, double a, double b,
                  const qf_scalar *c, double s, int parity)
{
    int uses_w = op == QF_BLAS_MUL || op == QF_BLAS_CONJ_MUL;
    const qf_field *f[3] = {y, x, w};
    const char *const fname[3] = {"y", "x", "w"};
    int uses_scalar = op == QF_BLAS_CAXPY || op == QF_BLAS_CXPAY;
    int reads_x = op != QF_BLAS_AXPBY || a != 0.0;
    const qf_scalar *sc[1] = {c};
    const char *const sname[1] = {"a"};
    if (check_fields(fn, uses_w ? 3 : reads_x ? 2 : 1, f, fname) || (uses_scalar && check_scalars(fn, 1, sc, sname)) ||
        check_parity(fn, parity))
        return QF_ERROR;
    if (op == QF_BLAS_AXPBY && (check_real(fn, "a", a) || check_real(fn, "b", b))) return QF_ERROR;
    if (uses_scalar && check_real(fn, "s", s)) return QF_ERROR;
    int reads_y = op == QF_BLAS_CAXPY || op == QF_BLAS_CXPAY || (op == QF_BLAS_AXPBY && b != 0.0);
    qf_blas_args args = {.op = op, .a = a, .b = b, .s = s};
    buffer_plan pl;
    plan_init(&pl, &args);
    set_range(&args, y, parity);
    plan_field(&pl, &args, QF_UPD_Y, y, reads_y || parity >= 0 ? STARPU_RW : STARPU_W);
    if (reads_x) plan_field(&pl, &args, QF_UPD_X, x, STARPU_R);
    if (uses_w) plan_field(&pl, &args, QF_UPD_W, w, STARPU_R);
    if (uses_scalar) plan_scalar(&pl, &args, QF_UPD_A, c, STARPU_R);
    return submit_blocks(&qf_cl_blas_update, &pl, &args, y->lat, fn);
}

int qf_blas_copy(qf_field *y, const qf_field *x, int parity)
{
    return update("qf_blas_copy", QF_BLAS_COPY, y, x, NULL, 0.0, 0.0, NULL, 0.0, parity);
}

int qf_blas_axpby(double a, const qf_field *x, double b, qf_field *y, int parity)
{
    return update("qf_blas_axpby", QF_BLAS_AXPBY, y, x, NULL, a, b, NULL, 0.0, parity);
}

int qf_blas_caxpy(const qf_scalar *a, double s, const qf_field *x, qf_field *y, int parity)
{
    return update("qf_blas_caxpy", QF_BLAS_CAXPY, y, x, NULL, 0.0, 0.0, a, s, parity);
}

int qf_blas_cxpay(const qf_field *x, const qf_scalar *a, double s, qf_field *y, int parity)
{
    return update("qf_blas_cxpay", QF_BLAS_CXPAY, y, x, NULL, 0.0, 0.0, a, s, parity);
}

int qf_blas_mul(qf_field *y, const qf_field *w, const qf_field *x, int parity)
{
    return update("qf_blas_mul", QF_BLAS_MUL, y, x, w, 0.0, 0.0, NULL, 0.0, parity);
}

int qf_blas_conj_mul(qf_field *y, const qf_field *w, const qf_field *x, int parity)
{
    return update("qf_blas_conj_mul", QF_BLAS_CONJ_MUL, y, x, w, 0.0, 0.0, NULL, 0.0, parity);
}

/* ---- fused Krylov updates ---- */

int qf_blas_cg_update(qf_field *x, qf_field *r, const qf_scalar *a, const qf_field *p, const qf_field *q,
                      qf_scalar *rr, int parity)
{
    static const char fn[] = "qf_blas_cg_update";
    const qf_field *f[4] = {x, r, p, q};
    const char *const fname[4] = {"x", "r", "p", "q"};
    const qf_scalar *s[2] = {a, rr};
    const char *const sname[2] = {"a", "rr"};
    if (check_fields(fn, 4, f, fname) || check_scalars(fn, 2, s, sname) || check_parity(fn, parity))
        return QF_ERROR;
    if (x == r) return qf_fail("%s: x and r are one field: the update writes both, so they must be distinct", fn);
    if (rr == a)
        return qf_fail("%s: rr and a are one scalar: the update reads a while it reduces into rr, so they must be "
                       "distinct",
                       fn);
    qf_blas_args args = {.op = 0};
    buffer_plan pl;
    plan_init(&pl, &args);
    set_range(&args, x, parity);
    plan_field(&pl, &args, QF_CG_X, x, STARPU_RW);
    plan_field(&pl, &args, QF_CG_R, r, STARPU_RW);
    plan_scalar(&pl, &args, QF_CG_A, a, STARPU_R);
    plan_field(&pl, &args, QF_CG_P, p, STARPU_R);
    plan_field(&pl, &args, QF_CG_Q, q, STARPU_R);
    if (result_scalar(&pl, &args, QF_CG_RR, rr, x->lat)) return QF_ERROR;
    return submit_blocks(&qf_cl_blas_cg_update, &pl, &args, x->lat, fn);
}

int qf_blas_bicgstab_update(qf_field *x, qf_field *r, const qf_scalar *a, const qf_field *p, const qf_scalar *w,
                            const qf_field *s, const qf_field *t, qf_scalar *rr, int parity)
{
    static const char fn[] = "qf_blas_bicgstab_update";
    const qf_field *f[5] = {x, r, p, s, t};
    const char *const fname[5] = {"x", "r", "p", "s", "t"};
    const qf_scalar *sc[3] = {a, w, rr};
    const char *const sname[3] = {"a", "w", "rr"};
    if (check_fields(fn, 5, f, fname) || check_scalars(fn, 3, sc, sname) || check_parity(fn, parity))
        return QF_ERROR;
    if (x == r) return qf_fail("%s: x and r are one field: the update writes both, so they must be distinct", fn);
    if (rr == a || rr == w)
        return qf_fail("%s: rr and %s are one scalar: the update reads %s while it reduces into rr, so they must be "
                       "distinct",
                       fn, rr == a ? "a" : "w", rr == a ? "a" : "w");
    qf_blas_args args = {.op = 0};
    buffer_plan pl;
    plan_init(&pl, &args);
    set_range(&args, x, parity);
    plan_field(&pl, &args, QF_BICG_X, x, STARPU_RW);
    plan_field(&pl, &args, QF_BICG_R, r, parity >= 0 ? STARPU_RW : STARPU_W); /* r is written, not read */
    plan_scalar(&pl, &args, QF_BICG_A, a, STARPU_R);
    plan_field(&pl, &args, QF_BICG_P, p, STARPU_R);
    plan_scalar(&pl, &args, QF_BICG_W, w, STARPU_R);
    plan_field(&pl, &args, QF_BICG_S, s, STARPU_R);
    plan_field(&pl, &args, QF_BICG_T, t, STARPU_R);
    if (result_scalar(&pl, &args, QF_BICG_RR, rr, x->lat)) return QF_ERROR;
    return submit_blocks(&qf_cl_blas_bicgstab_update, &pl, &args, x->lat, fn);
}
