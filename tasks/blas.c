/* BLAS-1 on lattice fields as task graphs (include/quarkflow/qf_blas.h): one task per block, each
 * over the elements of one parity or of the whole block, coefficients read from scalar handles:
 *
 *   blas_update(b)            R: x(b), c            W or RW: y(b)
 *   blas_reduce(b)            R: x(b), y(b)         REDUX: r (and r2)   (after a sum_zero task W: r)
 *   blas_multi(b)             R: x_k(b), y(b)       REDUX: r_k          (dot: up to QF_BLAS_MULTI_MAX x_k)
 *                             R: x_k(b), a_k, d_k   RW: y(b)            (caxpy)
 *   blas_shift(b)             R: r(b)               RW: x_k(b), p_k(b)  (up to QF_BLAS_MULTI_MAX shifts)
 *   blas_cg_update(b)         R: a, p(b), q(b)      RW: x(b), r(b)              REDUX: rr
 *   blas_bicgstab_update(b)   R: a, p(b), w, s(b), t(b) (and ad, wd)   RW: x(b)   W or RW: r(b)   REDUX: rr
 *   blas_bicgstab_p(b)        R: r(b), v(b), rho_new, rho, alpha, omega (and alpha_d, omega_d)   RW: p(b)
 *
 * (on a lattice of one block the reduced scalar is W instead, and no sum_zero task precedes)
 *
 * Between qf_chain_begin and qf_chain_end (qf_blas.h) the tasks of a one-block lattice join the
 * inserting thread's chain instead (codelets/chain.c, through qf_blas_insert).
 *
 * Nothing here waits. A field or scalar that is several operands of one call is one buffer of each
 * task, with the union of the operands' modes (R and W give RW) and the argument block's operand table
 * pointing at it (codelets.h); the kernels load every operand of an element before they store. */
#include "scalar.h"
#include "tasks.h"
#include "kernels/blas.h" /* QF_BLAS_MAX_OPERANDS, the operand table of blas_multi */
#include "kernels/face.h" /* qf_parity_site, qf_parity_nsites */

#include <math.h>

_Static_assert(QF_BLAS_MULTI_MAX == QF_BLAS_MULTI_FIELDS, "blas_multi's fields a task are qf_blas.h's");

/* ---- checks at the boundary ---- */

int qf_check_parity(const char *fn, int parity)
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

/* ---- the operands of a call, resolved per block ---- */

/* A field (its block), a scalar, or a reduction's result (the block's partial sum, qf_block_sum); an
 * operand the operation does not use has neither. The codelets' insert helpers make each distinct
 * handle of a task one buffer (codelets.h). */
typedef struct {
    const qf_field *field;
    const qf_scalar *scalar;
    enum starpu_data_access_mode mode;
    int is_sum;
    qf_block_sum sum;
} operand;

static operand field_operand(const qf_field *f, enum starpu_data_access_mode mode)
{
    return (operand){.field = f, .mode = mode};
}

static operand scalar_operand(const qf_scalar *s, enum starpu_data_access_mode mode)
{
    return (operand){.scalar = s, .mode = mode};
}

/* The scalar a reduction writes: with one block, the task's alone (W, assigned: one task a
 * reduction); with several, a sum over the blocks (tasks.h: STARPU_REDUX, through per-process partial
 * sums on several processes). */
static int result_operand(operand *o, qf_blas_range *range, qf_scalar *r, const qf_lattice *lat)
{
    *o = (operand){.scalar = r, .is_sum = 1};
    if (qf_block_sum_begin(&o->sum, qf_scalar_handle(r), 2 * sizeof(double), lat, 1)) return QF_ERROR;
    range->assign = o->sum.assign;
    return QF_SUCCESS;
}

static struct starpu_data_descr operand_at(const operand *o, int b)
{
    if (o->is_sum) return qf_block_sum_descr(&o->sum, b);
    if (o->field) return (struct starpu_data_descr){qf_field_block(o->field, b), o->mode};
    return (struct starpu_data_descr){o->scalar ? qf_scalar_handle(o->scalar) : NULL, o->mode};
}

/* The element range of a parity (or of the whole block) of f's blocks, as complex numbers; the task
 * name is the call's (fn without its qf_blas_ prefix: "axpby", "dot", "cg_update"), which traces show. */
static qf_blas_range range_of(const qf_field *f, int parity, const char *fn)
{
    int64_t per_site = f->shape.site_reals / 2;
    return (qf_blas_range){.first = qf_parity_site(f->lat->block, parity, 0) * per_site,
                           .n = qf_parity_nsites(f->lat->block, parity) * per_site,
                           .prec = f->prec,
                           .site_reals = f->shape.site_reals,
                           .name = fn + strlen("qf_blas_"),
                           .lat = f->lat};
}

/* One task a block of lat: insert(range, the operands of block b, ctx), then the reductions' ends; at
 * most QF_BLAS_MAX_OPERANDS operands (blas_multi's). */
typedef int (*block_insert)(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx);

static int submit_blocks(const qf_lattice *lat, const qf_blas_range *range, operand *ops, int n, block_insert insert,
                         const void *ctx)
{
    for (int b = 0; b < lat->nblocks; b++) {
        struct starpu_data_descr d[QF_BLAS_MAX_OPERANDS];
        int mine = 0;
        for (int k = 0; k < n; k++) {
            d[k] = operand_at(&ops[k], b);
            mine |= d[k].handle && qf_data_is_mine(d[k].handle);
        }
        if (!mine) continue; /* pruned: its blocks and partial sums are never cached elsewhere (runtime/mpi_data.h) */
        qf_blas_range on_block = *range;
        on_block.block = b;
        if (insert(&on_block, d, ctx)) return QF_ERROR;
    }
    for (int k = 0; k < n; k++)
        if (ops[k].is_sum && qf_block_sum_end(&ops[k].sum)) return QF_ERROR;
    return QF_SUCCESS;
}

/* ---- chains (codelets/chain.c) ---- */

int qf_chain_begin(void) { return qf_chain_open(); }
int qf_chain_end(void) { return qf_chain_close(); }

/* ---- reductions ---- */

enum { REDUCE_NORM2, REDUCE_DOT, REDUCE_DOT_NORM2 };

static int insert_reduce(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    qf_blas_reduce_operands o = {.x = d[0], .y = d[1], .r = d[2], .r2 = d[3]};
    switch (*(const int *)ctx) {
    case REDUCE_NORM2: return qf_insert_blas_norm2(r, &o);
    case REDUCE_DOT: return qf_insert_blas_dot(r, &o);
    default: return qf_insert_blas_dot_norm2(r, &o);
    }
}

static int reduce(const char *fn, int op, qf_scalar *r, qf_scalar *r2, const qf_field *x, const qf_field *y,
                  int parity)
{
    const qf_field *f[2] = {x, y};
    const char *const fname[2] = {"x", "y"};
    const qf_scalar *s[2] = {r, r2};
    const char *const sname[2] = {op == REDUCE_DOT_NORM2 ? "dot" : "r", "norm"};
    if (check_scalars(fn, op == REDUCE_DOT_NORM2 ? 2 : 1, s, sname) || check_fields(fn, op == REDUCE_NORM2 ? 1 : 2, f, fname) ||
        qf_check_parity(fn, parity))
        return QF_ERROR;
    if (r == r2) return qf_fail("%s: dot and norm are one scalar: give two", fn);
    if (op == REDUCE_DOT && x == y) op = REDUCE_NORM2; /* <x, x> = |x|^2, with x read once and im exactly 0 */
    qf_blas_range range = range_of(x, parity, fn);
    operand ops[4] = {field_operand(x, STARPU_R), op != REDUCE_NORM2 ? field_operand(y, STARPU_R) : (operand){0}};
    if (result_operand(&ops[2], &range, r, x->lat) ||
        (op == REDUCE_DOT_NORM2 && result_operand(&ops[3], &range, r2, x->lat)))
        return QF_ERROR;
    return submit_blocks(x->lat, &range, ops, 4, insert_reduce, &op);
}

int qf_blas_norm2(qf_scalar *r, const qf_field *x, int parity)
{
    return reduce("qf_blas_norm2", REDUCE_NORM2, r, NULL, x, NULL, parity);
}

int qf_blas_dot(qf_scalar *r, const qf_field *x, const qf_field *y, int parity)
{
    return reduce("qf_blas_dot", REDUCE_DOT, r, NULL, x, y, parity);
}

int qf_blas_dot_norm2(qf_scalar *dot, qf_scalar *norm, const qf_field *x, const qf_field *y, int parity)
{
    return reduce("qf_blas_dot_norm2", REDUCE_DOT_NORM2, dot, norm, x, y, parity);
}

/* ---- several fields against one: blocks of classical Gram-Schmidt ---- */

typedef struct {
    int op, nvec;
    double s;
} multi_call;

static int insert_multi(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    const multi_call *c = ctx;
    if (c->op == QF_BLAS_MULTI_DOT) return qf_insert_blas_multi_dot(r, c->nvec, d);
    return qf_insert_blas_multi_caxpy(r, c->nvec, d, c->s);
}

/* y and every x[k] checked as the operands of one operation, and the parity */
static int check_multi(const char *fn, const qf_field *const x[], int n, const qf_field *y, int parity)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (n < 0) return qf_fail("%s: n = %d fields: give 0 or more", fn, n);
    if (n > 0 && !x) return qf_fail("%s: the array of fields x is NULL", fn);
    const qf_field *only_y[1] = {y};
    const char *const yname[1] = {"y"};
    if (check_fields(fn, 1, only_y, yname) || qf_check_parity(fn, parity)) return QF_ERROR;
    for (int k = 0; k < n; k++) {
        char name[24];
        snprintf(name, sizeof name, "x[%d]", k);
        const qf_field *f[2] = {y, x[k]};
        const char *const fname[2] = {"y", name};
        if (check_fields(fn, 2, f, fname)) return QF_ERROR;
    }
    return QF_SUCCESS;
}

static int check_scalar_array(const char *fn, const char *name, const qf_scalar *const s[], int n)
{
    if (n > 0 && !s) return qf_fail("%s: the array of scalars %s is NULL", fn, name);
    for (int k = 0; k < n; k++)
        if (!s[k]) return qf_fail("%s: the scalar %s[%d] is NULL", fn, name, k);
    return QF_SUCCESS;
}

/* The tasks of one call, QF_BLAS_MULTI_MAX x_k a task: the results r (multi_dot) or the coefficients a
 * over d (multi_caxpy, d NULL: none) of x[k0 ..] in the places of the operand table (kernels/blas.h). */
static int submit_multi(const char *fn, const multi_call *call, qf_scalar *const r[], const qf_scalar *const a[],
                        const qf_scalar *const d[], const qf_field *const x[], int n, const qf_field *y, int parity)
{
    qf_blas_range range = range_of(y, parity, fn);
    for (int k0 = 0; k0 < n; k0 += QF_BLAS_MULTI_MAX) {
        multi_call c = *call;
        c.nvec = n - k0 < QF_BLAS_MULTI_MAX ? n - k0 : QF_BLAS_MULTI_MAX;
        operand ops[QF_BLAS_MAX_OPERANDS] = {
            [QF_MULTI_Y] = field_operand(y, c.op == QF_BLAS_MULTI_DOT ? STARPU_R : STARPU_RW)};
        for (int k = 0; k < c.nvec; k++) {
            ops[QF_MULTI_X + k] = field_operand(x[k0 + k], STARPU_R);
            if (r && result_operand(&ops[QF_MULTI_A + k], &range, r[k0 + k], y->lat)) return QF_ERROR;
            if (a) ops[QF_MULTI_A + k] = scalar_operand(a[k0 + k], STARPU_R);
            if (d) ops[QF_MULTI_D + k] = scalar_operand(d[k0 + k], STARPU_R);
        }
        if (submit_blocks(y->lat, &range, ops, QF_BLAS_MAX_OPERANDS, insert_multi, &c)) return QF_ERROR;
    }
    return QF_SUCCESS;
}

int qf_blas_multi_dot(qf_scalar *const r[], const qf_field *const x[], int n, const qf_field *y, int parity)
{
    static const char fn[] = "qf_blas_multi_dot";
    if (check_multi(fn, x, n, y, parity) || check_scalar_array(fn, "r", (const qf_scalar *const *)r, n))
        return QF_ERROR;
    for (int k = 0; k < n; k++)
        for (int l = 0; l < k; l++)
            if (r[l] == r[k]) return qf_fail("%s: r[%d] and r[%d] are one scalar: give each product its own", fn, l, k);
    const multi_call call = {.op = QF_BLAS_MULTI_DOT};
    return submit_multi(fn, &call, r, NULL, NULL, x, n, y, parity);
}

int qf_blas_multi_caxpy(const qf_scalar *const a[], const qf_scalar *const d[], double s, const qf_field *const x[],
                        int n, qf_field *y, int parity)
{
    static const char fn[] = "qf_blas_multi_caxpy";
    if (check_multi(fn, x, n, y, parity) || check_scalar_array(fn, "a", a, n) || (d && check_scalar_array(fn, "d", d, n)) ||
        check_real(fn, "s", s))
        return QF_ERROR;
    for (int k = 0; k < n; k++)
        if (x[k] == y)
            return qf_fail("%s: y is x[%d]: a task of later fields would read y already updated; add that term with "
                           "qf_blas_axpby or qf_blas_caxpy",
                           fn, k);
    const multi_call call = {.op = QF_BLAS_MULTI_CAXPY, .s = s};
    return submit_multi(fn, &call, NULL, a, d, x, n, y, parity);
}

/* ---- multi-shift CG's updates of several shifts in one pass ---- */

typedef struct {
    int nvec;
    const double *a, *z, *b;
} shift_call;

static int insert_shift(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    const shift_call *c = ctx;
    return qf_insert_blas_shift(r, c->nvec, d, c->a, c->z, c->b);
}

int qf_blas_shift_update(int n, qf_field *const x[], qf_field *const p[], const double a[], const double z[],
                         const double b[], const qf_field *r, int parity)
{
    static const char fn[] = "qf_blas_shift_update";
    const qf_field *only_r[1] = {r};
    const char *const rname[1] = {"r"};
    if (check_fields(fn, 1, only_r, rname) || qf_check_parity(fn, parity)) return QF_ERROR;
    if (n < 0) return qf_fail("%s: n = %d shifts: give 0 or more", fn, n);
    if (n > 0 && (!x || !p || !a || !z || !b)) return qf_fail("%s: an array of fields or coefficients is NULL", fn);
    if (n > 0 && r->prec == QF_HALF)
        return qf_fail("%s: half-precision fields: the shifts' updates run in double or single precision", fn);
    for (int k = 0; k < n; k++) {
        char xn[24], pn[24], an[24], zn[24], bn[24];
        snprintf(xn, sizeof xn, "x[%d]", k), snprintf(pn, sizeof pn, "p[%d]", k);
        snprintf(an, sizeof an, "a[%d]", k), snprintf(zn, sizeof zn, "z[%d]", k), snprintf(bn, sizeof bn, "b[%d]", k);
        const qf_field *f[3] = {r, x[k], p[k]};
        const char *const fname[3] = {"r", xn, pn};
        if (check_fields(fn, 3, f, fname) || check_real(fn, an, a[k]) || check_real(fn, zn, z[k]) || check_real(fn, bn, b[k]))
            return QF_ERROR;
        if (x[k] == r || p[k] == r || x[k] == p[k])
            return qf_fail("%s: shift %d's x, p and r must be three different fields", fn, k);
        for (int l = 0; l < k; l++)
            if (x[l] == x[k] || p[l] == p[k] || x[l] == p[k] || p[l] == x[k])
                return qf_fail("%s: shifts %d and %d share a field: give each shift its own x and p", fn, l, k);
    }
    qf_blas_range range = range_of(r, parity, fn);
    for (int k0 = 0; k0 < n; k0 += QF_BLAS_MULTI_MAX) {
        shift_call c = {.nvec = n - k0 < QF_BLAS_MULTI_MAX ? n - k0 : QF_BLAS_MULTI_MAX, .a = a + k0, .z = z + k0, .b = b + k0};
        operand ops[1 + 2 * QF_BLAS_MULTI_MAX] = {[QF_SHIFT_R] = field_operand(r, STARPU_R)};
        for (int k = 0; k < c.nvec; k++) {
            ops[QF_SHIFT_X + k] = field_operand(x[k0 + k], STARPU_RW);
            ops[QF_SHIFT_P + k] = field_operand(p[k0 + k], STARPU_RW);
        }
        if (submit_blocks(r->lat, &range, ops, 1 + 2 * QF_BLAS_MULTI_MAX, insert_shift, &c)) return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* ---- updates ---- */

enum { UPDATE_COPY, UPDATE_AXPBY, UPDATE_CAXPY, UPDATE_CXPAY, UPDATE_MUL, UPDATE_CONJ_MUL, UPDATE_XPCW, UPDATE_AXPBYPCW };

typedef struct {
    int op;
    double a, b, s;
} update_call;

static int insert_update(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    const update_call *c = ctx;
    qf_blas_update_operands o = {.y = d[0], .x = d[1], .c = d[2], .w = d[3], .d = d[4]};
    switch (c->op) {
    case UPDATE_COPY: return qf_insert_blas_copy(r, &o);
    case UPDATE_AXPBY: return qf_insert_blas_axpby(r, &o, c->a, c->b);
    case UPDATE_CAXPY: return qf_insert_blas_caxpy(r, &o, c->s);
    case UPDATE_CXPAY: return qf_insert_blas_cxpay(r, &o, c->s);
    case UPDATE_MUL: return qf_insert_blas_mul(r, &o);
    case UPDATE_XPCW: return qf_insert_blas_xpcw(r, &o, c->s);
    case UPDATE_AXPBYPCW: return qf_insert_blas_axpbypcw(r, &o, c->a, c->b, c->s);
    default: return qf_insert_blas_conj_mul(r, &o);
    }
}

/* y = op(x, y) with real constants a, b, the scalar c (or c / d, d given) times s, or the field w (times
 * the real s in axpbypcw). y is written without being read (W) when the operation does not read it and
 * covers the whole block. */
static int update(const char *fn, int op, qf_field *y, const qf_field *x, const qf_field *w, double a, double b,
                  const qf_scalar *c, const qf_scalar *d, double s, int parity)
{
    int uses_w = op == UPDATE_MUL || op == UPDATE_CONJ_MUL || op == UPDATE_XPCW || op == UPDATE_AXPBYPCW;
    const qf_field *f[3] = {y, x, w};
    const char *const fname[3] = {"y", "x", "w"};
    int uses_scalar = op == UPDATE_CAXPY || op == UPDATE_CXPAY || op == UPDATE_XPCW;
    int reads_x = op != UPDATE_AXPBY || a != 0.0;
    const qf_scalar *sc[2] = {c, d};
    const char *const sname[2] = {"a", "d"};
    if (check_fields(fn, uses_w ? 3 : reads_x ? 2 : 1, f, fname) ||
        (uses_scalar && check_scalars(fn, d ? 2 : 1, sc, sname)) || qf_check_parity(fn, parity))
        return QF_ERROR;
    if ((op == UPDATE_AXPBY || op == UPDATE_AXPBYPCW) && (check_real(fn, "a", a) || check_real(fn, "b", b)))
        return QF_ERROR;
    if (op == UPDATE_AXPBYPCW && check_real(fn, "c", s)) return QF_ERROR;
    if (uses_scalar && check_real(fn, "s", s)) return QF_ERROR;
    int reads_y = op == UPDATE_CAXPY || op == UPDATE_CXPAY || ((op == UPDATE_AXPBY || op == UPDATE_AXPBYPCW) && b != 0.0);
    update_call call = {.op = op, .a = a, .b = b, .s = s};
    qf_blas_range range = range_of(y, parity, fn);
    operand ops[5] = {field_operand(y, reads_y || parity >= 0 ? STARPU_RW : STARPU_W),
                      reads_x ? field_operand(x, STARPU_R) : (operand){0},
                      uses_scalar ? scalar_operand(c, STARPU_R) : (operand){0},
                      uses_w ? field_operand(w, STARPU_R) : (operand){0},
                      uses_scalar && d ? scalar_operand(d, STARPU_R) : (operand){0}};
    return submit_blocks(y->lat, &range, ops, 5, insert_update, &call);
}

int qf_blas_copy(qf_field *y, const qf_field *x, int parity)
{
    return update("qf_blas_copy", UPDATE_COPY, y, x, NULL, 0.0, 0.0, NULL, NULL, 0.0, parity);
}

int qf_blas_axpby(double a, const qf_field *x, double b, qf_field *y, int parity)
{
    return update("qf_blas_axpby", UPDATE_AXPBY, y, x, NULL, a, b, NULL, NULL, 0.0, parity);
}

int qf_blas_axpbypcw(double a, const qf_field *x, double b, qf_field *y, double c, const qf_field *w, int parity)
{
    return update("qf_blas_axpbypcw", UPDATE_AXPBYPCW, y, x, w, a, b, NULL, NULL, c, parity);
}

int qf_blas_caxpy(const qf_scalar *a, double s, const qf_field *x, qf_field *y, int parity)
{
    return update("qf_blas_caxpy", UPDATE_CAXPY, y, x, NULL, 0.0, 0.0, a, NULL, s, parity);
}

int qf_blas_cxpay(const qf_field *x, const qf_scalar *a, double s, qf_field *y, int parity)
{
    return update("qf_blas_cxpay", UPDATE_CXPAY, y, x, NULL, 0.0, 0.0, a, NULL, s, parity);
}

/* The ratio updates: the op with its coefficient s (a / d), both scalars required. */
static int update_ratio(const char *fn, int op, qf_field *y, const qf_field *x, const qf_field *w, const qf_scalar *a,
                        const qf_scalar *d, double s, int parity)
{
    const qf_scalar *sc[2] = {a, d};
    const char *const sname[2] = {"a", "d"};
    if (qf_sequence_failed() || check_scalars(fn, 2, sc, sname)) return QF_ERROR;
    return update(fn, op, y, x, w, 0.0, 0.0, a, d, s, parity);
}

int qf_blas_cxpay_ratio(const qf_field *x, const qf_scalar *a, const qf_scalar *d, double s, qf_field *y, int parity)
{
    return update_ratio("qf_blas_cxpay_ratio", UPDATE_CXPAY, y, x, NULL, a, d, s, parity);
}

int qf_blas_caxpy_ratio(const qf_scalar *a, const qf_scalar *d, double s, const qf_field *x, qf_field *y, int parity)
{
    return update_ratio("qf_blas_caxpy_ratio", UPDATE_CAXPY, y, x, NULL, a, d, s, parity);
}

int qf_blas_xpcw(qf_field *y, const qf_field *x, const qf_scalar *a, double s, const qf_field *w, int parity)
{
    return update("qf_blas_xpcw", UPDATE_XPCW, y, x, w, 0.0, 0.0, a, NULL, s, parity);
}

int qf_blas_xpcw_ratio(qf_field *y, const qf_field *x, const qf_scalar *a, const qf_scalar *d, double s, const qf_field *w,
                       int parity)
{
    return update_ratio("qf_blas_xpcw_ratio", UPDATE_XPCW, y, x, w, a, d, s, parity);
}

int qf_blas_mul(qf_field *y, const qf_field *w, const qf_field *x, int parity)
{
    return update("qf_blas_mul", UPDATE_MUL, y, x, w, 0.0, 0.0, NULL, NULL, 0.0, parity);
}

int qf_blas_conj_mul(qf_field *y, const qf_field *w, const qf_field *x, int parity)
{
    return update("qf_blas_conj_mul", UPDATE_CONJ_MUL, y, x, w, 0.0, 0.0, NULL, NULL, 0.0, parity);
}

/* ---- fused Krylov updates ---- */

static int insert_cg(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    (void)ctx;
    qf_blas_cg_operands o = {.x = d[0], .r = d[1], .a = d[2], .p = d[3], .q = d[4], .rr = d[5], .d = d[6]};
    return qf_insert_blas_cg_update(r, &o);
}

static int insert_bicgstab(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    (void)ctx;
    qf_blas_bicgstab_operands o = {.x = d[0], .r = d[1], .a = d[2], .p = d[3], .w = d[4], .s = d[5], .t = d[6], .rr = d[7],
                                   .ad = d[8], .wd = d[9]};
    return qf_insert_blas_bicgstab_update(r, &o);
}

/* The CG update with coefficient a, or a / d where d is given (the ratio form). */
static int cg_update(const char *fn, qf_field *x, qf_field *r, const qf_scalar *a, const qf_scalar *d, const qf_field *p,
                     const qf_field *q, qf_scalar *rr, int parity)
{
    const qf_field *f[4] = {x, r, p, q};
    const char *const fname[4] = {"x", "r", "p", "q"};
    const qf_scalar *s[3] = {a, rr, d};
    const char *const sname[3] = {"a", "rr", "d"};
    if (check_fields(fn, 4, f, fname) || check_scalars(fn, d ? 3 : 2, s, sname) || qf_check_parity(fn, parity))
        return QF_ERROR;
    if (x == r) return qf_fail("%s: x and r are one field: the update writes both, so they must be distinct", fn);
    if (rr == a || rr == d)
        return qf_fail("%s: rr and a coefficient are one scalar: the update reads its coefficient while it reduces "
                       "into rr, so they must be distinct",
                       fn);
    qf_blas_range range = range_of(x, parity, fn);
    operand ops[7] = {field_operand(x, STARPU_RW), field_operand(r, STARPU_RW), scalar_operand(a, STARPU_R),
                      field_operand(p, STARPU_R), field_operand(q, STARPU_R)};
    if (result_operand(&ops[5], &range, rr, x->lat)) return QF_ERROR;
    ops[6] = scalar_operand(d, STARPU_R); /* d NULL: no operand */
    return submit_blocks(x->lat, &range, ops, 7, insert_cg, NULL);
}

int qf_blas_cg_update(qf_field *x, qf_field *r, const qf_scalar *a, const qf_field *p, const qf_field *q,
                      qf_scalar *rr, int parity)
{
    return cg_update("qf_blas_cg_update", x, r, a, NULL, p, q, rr, parity);
}

int qf_blas_cg_update_ratio(qf_field *x, qf_field *r, const qf_scalar *a, const qf_scalar *d, const qf_field *p,
                            const qf_field *q, qf_scalar *rr, int parity)
{
    return cg_update("qf_blas_cg_update_ratio", x, r, a, d, p, q, rr, parity);
}

/* The BiCGStab update with a / ad and w / wd (the divisors NULL: a and w), named fn in messages. */
static int bicgstab_update(const char *fn, qf_field *x, qf_field *r, const qf_scalar *a, const qf_scalar *ad,
                           const qf_field *p, const qf_scalar *w, const qf_scalar *wd, const qf_field *s,
                           const qf_field *t, qf_scalar *rr, int parity)
{
    const qf_field *f[5] = {x, r, p, s, t};
    const char *const fname[5] = {"x", "r", "p", "s", "t"};
    const qf_scalar *sc[5] = {a, w, rr, ad, wd};
    const char *const sname[5] = {"a", "w", "rr", "ad", "wd"};
    if (check_fields(fn, 5, f, fname) || check_scalars(fn, ad ? 5 : 3, sc, sname) || qf_check_parity(fn, parity))
        return QF_ERROR;
    if (x == r) return qf_fail("%s: x and r are one field: the update writes both, so they must be distinct", fn);
    for (int k = 0; k < 5; k++)
        if (k != 2 && sc[k] && rr == sc[k])
            return qf_fail("%s: rr and %s are one scalar: the update reads %s while it reduces into rr, so they must be "
                           "distinct",
                           fn, sname[k], sname[k]);
    qf_blas_range range = range_of(x, parity, fn);
    operand ops[10] = {field_operand(x, STARPU_RW),
                      field_operand(r, parity >= 0 ? STARPU_RW : STARPU_W), /* r is written, not read */
                      scalar_operand(a, STARPU_R),
                      field_operand(p, STARPU_R),
                      scalar_operand(w, STARPU_R),
                      field_operand(s, STARPU_R),
                      field_operand(t, STARPU_R),
                      {0},
                      scalar_operand(ad, STARPU_R),
                      scalar_operand(wd, STARPU_R)};
    if (result_operand(&ops[7], &range, rr, x->lat)) return QF_ERROR;
    return submit_blocks(x->lat, &range, ops, 10, insert_bicgstab, NULL);
}

int qf_blas_bicgstab_update(qf_field *x, qf_field *r, const qf_scalar *a, const qf_field *p, const qf_scalar *w,
                            const qf_field *s, const qf_field *t, qf_scalar *rr, int parity)
{
    return bicgstab_update("qf_blas_bicgstab_update", x, r, a, NULL, p, w, NULL, s, t, rr, parity);
}

int qf_blas_bicgstab_update_ratio(qf_field *x, qf_field *r, const qf_scalar *a, const qf_scalar *ad, const qf_field *p,
                                  const qf_scalar *w, const qf_scalar *wd, const qf_field *s, const qf_field *t,
                                  qf_scalar *rr, int parity)
{
    static const char fn[] = "qf_blas_bicgstab_update_ratio";
    if (!ad) return qf_fail("%s: the scalar ad is NULL", fn);
    if (!wd) return qf_fail("%s: the scalar wd is NULL", fn);
    return bicgstab_update(fn, x, r, a, ad, p, w, wd, s, t, rr, parity);
}

static int insert_bicgstab_p(const qf_blas_range *r, const struct starpu_data_descr *d, const void *ctx)
{
    (void)ctx;
    qf_blas_bicgstab_p_operands o = {.p = d[0], .r = d[1], .v = d[2], .rho_new = d[3], .rho = d[4], .alpha = d[5],
                                     .omega = d[6], .alpha_d = d[7], .omega_d = d[8]};
    return qf_insert_blas_bicgstab_p(r, &o);
}

/* The new direction with alpha / alpha_d and omega / omega_d (the divisors NULL: alpha and omega). */
static int bicgstab_p(const char *fn, qf_field *p, const qf_field *r, const qf_field *v, const qf_scalar *rho_new,
                      const qf_scalar *rho, const qf_scalar *alpha, const qf_scalar *alpha_d, const qf_scalar *omega,
                      const qf_scalar *omega_d, int parity)
{
    const qf_field *f[3] = {p, r, v};
    const char *const fname[3] = {"p", "r", "v"};
    const qf_scalar *sc[6] = {rho_new, rho, alpha, omega, alpha_d, omega_d};
    const char *const sname[6] = {"rho_new", "rho", "alpha", "omega", "alpha_d", "omega_d"};
    if (check_fields(fn, 3, f, fname) || check_scalars(fn, alpha_d ? 6 : 4, sc, sname) || qf_check_parity(fn, parity))
        return QF_ERROR;
    qf_blas_range range = range_of(p, parity, fn);
    operand ops[9] = {field_operand(p, STARPU_RW),       field_operand(r, STARPU_R),
                      field_operand(v, STARPU_R),        scalar_operand(rho_new, STARPU_R),
                      scalar_operand(rho, STARPU_R),     scalar_operand(alpha, STARPU_R),
                      scalar_operand(omega, STARPU_R),   scalar_operand(alpha_d, STARPU_R),
                      scalar_operand(omega_d, STARPU_R)};
    return submit_blocks(p->lat, &range, ops, 9, insert_bicgstab_p, NULL);
}

int qf_blas_bicgstab_p(qf_field *p, const qf_field *r, const qf_field *v, const qf_scalar *rho_new,
                       const qf_scalar *rho, const qf_scalar *alpha, const qf_scalar *omega, int parity)
{
    return bicgstab_p("qf_blas_bicgstab_p", p, r, v, rho_new, rho, alpha, NULL, omega, NULL, parity);
}

int qf_blas_bicgstab_p_ratio(qf_field *p, const qf_field *r, const qf_field *v, const qf_scalar *rho_new,
                             const qf_scalar *rho, const qf_scalar *alpha, const qf_scalar *alpha_d,
                             const qf_scalar *omega, const qf_scalar *omega_d, int parity)
{
    static const char fn[] = "qf_blas_bicgstab_p_ratio";
    if (!alpha_d) return qf_fail("%s: the scalar alpha_d is NULL", fn);
    if (!omega_d) return qf_fail("%s: the scalar omega_d is NULL", fn);
    return bicgstab_p(fn, p, r, v, rho_new, rho, alpha, alpha_d, omega, omega_d, parity);
}
