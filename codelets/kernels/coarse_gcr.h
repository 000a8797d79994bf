/* The coarse multigrid levels' solves inside one task (codelet mg_coarse_solve): written once against a
 * small backend of field operations that the CPU codelet implements with loops and the CUDA codelet
 * with kernels on its stream. In a task graph every step of a Krylov iteration on a coarse grid of a
 * few thousand sites is a task whose overhead (tens of microseconds, more where the host waits for a
 * reduction) exceeds its kernel many times: here a whole solve is one task, the host reading back only
 * the reductions. The task holds levels c .. c + n - 1 of the hierarchy (solvers/mg.c), each a lattice
 * of one block:
 *
 *   the coarsest level (the last): GCR on the coarse operator's even-odd Schur system as the task-graph
 *     coarse operator defines it (tasks/coarse_op.c): bhat_e = b_e - H_eo X_oo^-1 b_o,
 *     Ahat = X_ee - H_eo X_oo^-1 H_oe, then x_o = X_oo^-1 (b_o - H_oe x_e) or, where the task has
 *     Ahat's dense inverse (mg_schur_invert, kernels/coarse_dense.h), x_e = Ahat^-1 bhat_e at once;
 *   a level above it: flexible GCR on the full operator A = X + H preconditioned by the K-cycle of the
 *     levels below, as solvers/mg.c's cycle_apply: r_c = R r, e_c = the next level's solve,
 *     z = P e_c, z += S (r - A z), S smoother_steps MR steps on the Schur system from zero.
 *
 * GCR(nkrylov) with explicit updates of x and r: z_j = A p_j (p_j = K r, or r; after a cycle with
 * smoothing, A p_j comes from the cycle's residuals, one operator application less an iteration) is
 * orthogonalised
 * against the earlier z_i by classical Gram-Schmidt (one batch of inner products, one batch of
 * updates), and p_j alongside, so that a loss of orthogonality slows convergence but never spoils
 * x = sum alpha_j p_j. |r|^2 follows from |r|^2 - |<z_j, r>|^2 / |z_j|^2; the true residual is
 * recomputed at each restart and before a solve to a tolerance below QF_COARSE_CONFIRM_TOL ends (a
 * K-cycle's solves to about 0.25 trust the estimate, whose rounding cannot misjudge such a target: the
 * confirming operator application took a seventh of the 2-core VM's level-1 solves). Every solve
 * starts from x = 0 and ends at |r| <= tol |b| or after max_iter iterations, which is no error. Host
 * code (no device qualifiers): the backend's calls do the work.
 *
 * The iterations' scalars (inner products, coefficients, |r|^2) stay where the backend computes: a
 * level's block of doubles in the work buffer's tail (qf_coarse_gcr_scalars forms the coefficients
 * there), and the host reads |r|^2 only every read_every iterations on the coarsest level (after each
 * one above it, whose iterations are whole cycles). On a GPU the host had waited for
 * two batches of inner products an iteration, and the coarsest solve's iterations (two hops on 4^4
 * sites) took 166-185 us on an H100 where their arithmetic is worth about 16 (bench/RESULTS.md); now
 * they queue on the stream back to back. A breakdown makes every later coefficient zero, so that x
 * keeps its last good iterate until the host sees it. */
#ifndef QF_COARSE_GCR_H
#define QF_COARSE_GCR_H

#include "mg.h"

#include <math.h>
#include <string.h>

#define QF_COARSE_CONFIRM_TOL 1e-2

/* Most search directions a solve keeps (the batches' argument arrays). */
#define QF_COARSE_GCR_MAX_NKRYLOV QF_COARSE_ONE_TASK_MAX_NKRYLOV
/* Most levels one task holds: every coarse level. */
#define QF_COARSE_TASK_MAX_LEVELS (QF_MG_MAX_LEVELS - 1)

/* A solve's scalars (doubles, complex numbers as re, im): the inner products <z_i, z_j> (i < j) and the
 * coefficients -<z_i, z_j> / |z_i|^2 that orthogonalise z_j, each |z_i|^2, the step's |z_j|^2 and
 * <z_j, r>, alpha and -alpha, |r|^2, and 0 or 1 + the iteration that broke down. */
enum {
    QF_GCR_S_DOTS = 0,
    QF_GCR_S_COEF = QF_GCR_S_DOTS + 2 * QF_COARSE_GCR_MAX_NKRYLOV,
    QF_GCR_S_ZZ = QF_GCR_S_COEF + 2 * QF_COARSE_GCR_MAX_NKRYLOV,
    QF_GCR_S_ZR = QF_GCR_S_ZZ + QF_COARSE_GCR_MAX_NKRYLOV,
    QF_GCR_S_ALPHA = QF_GCR_S_ZR + 4,
    QF_GCR_S_RR = QF_GCR_S_ALPHA + 4,
    QF_GCR_S_BROKEN = QF_GCR_S_RR + 2, /* right after |r|^2: one read takes both */
    QF_GCR_S_COUNT = QF_GCR_S_BROKEN + 2
};
/* Doubles of the work buffer's tail: a GCR block and a smoother block a level, then the backend's
 * reduction space: a GPU's inner products sum QF_COARSE_DOT_BLOCKS partial sums of each product in a
 * fixed order (the last thread block to finish adds them; the double after them holds the count of
 * finished blocks), so that a batch of inner products is one launch and its result the same in every
 * run. */
#define QF_COARSE_DOT_BLOCKS 128
#define QF_COARSE_TASK_SCALARS (2 * QF_COARSE_TASK_MAX_LEVELS * QF_GCR_S_COUNT)
#define QF_COARSE_TASK_DOT_PARTIALS (2 * QF_COARSE_DOT_BLOCKS * QF_COARSE_GCR_MAX_NKRYLOV)
#define QF_COARSE_TASK_TAIL (QF_COARSE_TASK_SCALARS + QF_COARSE_TASK_DOT_PARTIALS + 1)

typedef enum { QF_GCR_NONE = -1, QF_GCR_RESET, QF_GCR_COEF, QF_GCR_ALPHA } qf_gcr_scalar_op;

/* One step on a solve's scalars s: RESET clears the breakdown; COEF forms the j coefficients of step
 * j; ALPHA takes |z_j|^2 and <z_j, r> into alpha and -alpha, keeps |z_j|^2 and lowers |r|^2 by
 * |<z_j, r>|^2 / |z_j|^2, or, where |z_j|^2 is not positive or a number is not finite, records the
 * breakdown of iteration it. After a breakdown every coefficient is zero. */
static inline QF_HD void qf_coarse_gcr_scalars(double *s, int op, int j, int it)
{
    if (op == QF_GCR_RESET) {
        s[QF_GCR_S_BROKEN] = 0.0;
        return;
    }
    int broken = s[QF_GCR_S_BROKEN] != 0.0;
    if (op == QF_GCR_COEF) {
        for (int k = 0; k < j; k++) {
            double zz = s[QF_GCR_S_ZZ + k];
            s[QF_GCR_S_COEF + 2 * k] = broken ? 0.0 : -s[QF_GCR_S_DOTS + 2 * k] / zz;
            s[QF_GCR_S_COEF + 2 * k + 1] = broken ? 0.0 : -s[QF_GCR_S_DOTS + 2 * k + 1] / zz;
        }
        return;
    }
    double d0 = s[QF_GCR_S_ZR], re = s[QF_GCR_S_ZR + 2], im = s[QF_GCR_S_ZR + 3];
    if (broken || !(d0 > 0.0) || !isfinite(d0) || !isfinite(re) || !isfinite(im)) {
        if (!broken) s[QF_GCR_S_BROKEN] = 1.0 + it;
        for (int k = 0; k < 4; k++) s[QF_GCR_S_ALPHA + k] = 0.0;
        return;
    }
    s[QF_GCR_S_ZZ + j] = d0;
    s[QF_GCR_S_ALPHA] = re / d0;
    s[QF_GCR_S_ALPHA + 1] = im / d0;
    s[QF_GCR_S_ALPHA + 2] = -re / d0;
    s[QF_GCR_S_ALPHA + 3] = -im / d0;
    s[QF_GCR_S_RR] -= (re * re + im * im) / d0;
}

/* mg_coarse_solve — x = A^-1 b on the task's first level, to tol (relative; on the Schur system where
 * that level is the coarsest), on lattices of one block (wrap: their hops re-enter on the other side).
 * Buffers: R links[i], R X^-1[i] (i < nlevels), R V[i] (the transfer from level i to i + 1,
 * i < nlevels - 1), R b, W x, SCRATCH work (qf_coarse_task_work_doubles: the levels' fields, then
 * QF_COARSE_TASK_TAIL doubles), RW stats[i] (i < nlevels) of 2 doubles each: level i's GCR
 * iterations and the seconds of its solves (the first level's: the task's), added to, [R the coarsest
 * level's Schur inverse: n^2 complex numbers in prec, row-major, with dense]. An application of the
 * inverse counts as one iteration. */
typedef struct {
    int nlevels;
    int ext[QF_COARSE_TASK_MAX_LEVELS][QF_NDIM];
    int nvec[QF_COARSE_TASK_MAX_LEVELS];                 /* the colours of each level's fields */
    qf_precision link_prec[QF_COARSE_TASK_MAX_LEVELS];   /* of each level's links and X^-1 (prec or half) */
    qf_mg_restrict_args restrict_args[QF_COARSE_TASK_MAX_LEVELS - 1]; /* level i to i + 1 */
    qf_mg_prolong_args prolong_args[QF_COARSE_TASK_MAX_LEVELS - 1];
    qf_precision prec;                                   /* of the fields */
    double tol;
    int max_iter, nkrylov, smoother_steps;
    int dense;                                           /* 1: the coarsest level's Schur inverse is given */
} qf_coarse_solve_args;

/* Buffer indices of the codelet's handles. */
static inline int qf_coarse_task_links_buffer(int i) { return 2 * i; }
static inline int qf_coarse_task_xinv_buffer(int i) { return 2 * i + 1; }
static inline int qf_coarse_task_v_buffer(const qf_coarse_solve_args *a, int i) { return 2 * a->nlevels + i; }
static inline int qf_coarse_task_b_buffer(const qf_coarse_solve_args *a) { return 3 * a->nlevels - 1; }
static inline int qf_coarse_task_x_buffer(const qf_coarse_solve_args *a) { return 3 * a->nlevels; }
static inline int qf_coarse_task_work_buffer(const qf_coarse_solve_args *a) { return 3 * a->nlevels + 1; }
static inline int qf_coarse_task_stats_buffer(const qf_coarse_solve_args *a, int i) { return 3 * a->nlevels + 2 + i; }
static inline int qf_coarse_task_dense_buffer(const qf_coarse_solve_args *a) { return 4 * a->nlevels + 2; }
static inline int qf_coarse_task_nbuffers(const qf_coarse_solve_args *a) { return 4 * a->nlevels + 2 + a->dense; }

/* A range of complex numbers of every field: [first, first + n). */
typedef struct {
    void *ctx;
    /* out = finish(a, x, b, H in) on a->parity's sites (kernels/mg.h; a->wrap set), with the operator
     * of links and X^-1 */
    void (*hop)(void *ctx, const qf_coarse_args *a, const void *links, const void *xinv, const void *in, void *out,
                const void *x);
    /* d[2 k] + i d[2 k + 1] = <x[k], y[k]> = sum conj(x[k]) y[k], k < m, summed in double, into scalars
     * d in the backend's memory (the work buffer's tail), then, where op is not QF_GCR_NONE,
     * qf_coarse_gcr_scalars(s, op, j, it) on the solve's scalars s, which reads them (on a GPU the
     * same launch: every batch of inner products is followed by the step that uses it) */
    void (*dots)(void *ctx, int m, const void *const *x, const void *const *y, int64_t first, int64_t n, double *d,
                 double *s, int op, int j, int it);
    /* y += sum_k c[k] x[k], c[k] = c[2 k] + i c[2 k + 1], k < m, c in the host's memory (axpys); and
     * both y1 += sum_k c1[k] x1[k] and y2 += sum_k c2[k] x2[k], c1 and c2 in the backend's scalars
     * (axpys2_at: the GCR's and MR's updates come in pairs, one pass over the four fields' rows) */
    void (*axpys)(void *ctx, int m, const double *c, const void *const *x, void *y, int64_t first, int64_t n);
    void (*axpys2_at)(void *ctx, int m, const double *c1, const void *const *x1, void *y1, const double *c2,
                      const void *const *x2, void *y2, int64_t first, int64_t n);
    /* qf_coarse_gcr_scalars(s, op, j, it) on the backend's scalars */
    void (*scalars)(void *ctx, double *s, int op, int j, int it);
    /* out[0 .. n) = s[0 .. n) once the work queued before it is done */
    void (*read)(void *ctx, const double *s, int n, double *out);
    void (*copy)(void *ctx, void *dst, const void *src, int64_t first, int64_t n);
    void (*zero)(void *ctx, void *dst, int64_t first, int64_t n);
    /* coarse = R fine and fine = P coarse (or += with a->add), one block each (kernels/mg.h) */
    void (*restrict_to)(void *ctx, const qf_mg_restrict_args *a, const void *fine, const void *v, void *coarse);
    void (*prolong)(void *ctx, const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine);
    /* out = M in on the first n complex numbers, M the n x n matrix inv (row-major, in the fields'
     * precision): the coarsest level's Schur inverse */
    void (*dense_apply)(void *ctx, const void *inv, int64_t n, const void *in, void *out);
    double (*seconds)(void *ctx); /* a clock */
    int read_every;               /* coarsest GCR iterations between the host's reads of |r|^2 */
} qf_coarse_gcr_backend;

/* Fields a level keeps in the work buffer, after a lower level's source and solution: the residual,
 * A x, the Schur complement's odd intermediate, the Schur source (coarsest) or the smoother's two
 * (residual, A r), and p_k, z_k. */
enum { QF_COARSE_LEVEL_IO = 2, QF_COARSE_LEVEL_COMMON = 3, QF_COARSE_LEVEL_CYCLE = 2 };
static inline int qf_coarse_level_fields(int top, int coarsest, int nkrylov)
{
    return (top ? 0 : QF_COARSE_LEVEL_IO) + QF_COARSE_LEVEL_COMMON + (coarsest ? 1 : QF_COARSE_LEVEL_CYCLE) + 2 * nkrylov;
}
static inline size_t qf_coarse_level_field_bytes(const int ext[QF_NDIM], int nvec, qf_precision prec)
{
    return (size_t)qf_volume(ext) * 4 * nvec * qf_real_size(prec);
}
/* The work buffer's bytes of the levels' fields. */
static inline size_t qf_coarse_task_work_bytes(const qf_coarse_solve_args *a)
{
    size_t bytes = 0;
    for (int i = 0; i < a->nlevels; i++)
        bytes += qf_coarse_level_fields(i == 0, i == a->nlevels - 1, a->nkrylov) *
                 qf_coarse_level_field_bytes(a->ext[i], a->nvec[i], a->prec);
    return bytes;
}
/* Where the scalars start (in doubles, after the fields), and the whole buffer's doubles. */
static inline size_t qf_coarse_task_scalars_at(const qf_coarse_solve_args *a)
{
    return (qf_coarse_task_work_bytes(a) + sizeof(double) - 1) / sizeof(double);
}
static inline size_t qf_coarse_task_work_doubles(const qf_coarse_solve_args *a)
{
    return qf_coarse_task_scalars_at(a) + QF_COARSE_TASK_TAIL;
}
/* The reduction space in the work buffer: QF_COARSE_TASK_DOT_PARTIALS doubles, then the block count. */
static inline double *qf_coarse_task_dot_partials(const qf_coarse_solve_args *a, void *work)
{
    return (double *)work + qf_coarse_task_scalars_at(a) + QF_COARSE_TASK_SCALARS;
}

typedef struct {
    const void *links, *xinv, *v;     /* v: the transfer to the next level */
    const void *dense;                /* the coarsest level's Schur inverse, or NULL */
    qf_coarse_args base;              /* ext, nvec, prec, link_prec, wrap */
    int64_t all, even;                /* complex numbers of a field, and of its even sites */
    void *b, *x;                      /* source and solution (a lower level's: in the work buffer) */
    void *r, *ax, *t, *bhat, *mr_r, *mr_q;
    void *p[QF_COARSE_GCR_MAX_NKRYLOV], *z[QF_COARSE_GCR_MAX_NKRYLOV];
    double *gcr_s, *mr_s;             /* the GCR's and the smoother's scalars, in the backend's memory */
    long iterations;
    double seconds;
} qf_coarse_level;

typedef struct {
    const qf_coarse_gcr_backend *be;
    const qf_coarse_solve_args *a;
    qf_coarse_level lev[QF_COARSE_TASK_MAX_LEVELS];
} qf_coarse_task;

/* Lays the levels' fields out in work; links, X^-1 and V are the caller's to set. */
static inline void qf_coarse_task_init(qf_coarse_task *t, const qf_coarse_gcr_backend *be, const qf_coarse_solve_args *a,
                                       const void *b, void *x, void *work)
{
    memset(t, 0, sizeof *t);
    t->be = be;
    t->a = a;
    char *w = (char *)work;
    for (int i = 0; i < a->nlevels; i++) {
        qf_coarse_level *L = &t->lev[i];
        size_t bytes = qf_coarse_level_field_bytes(a->ext[i], a->nvec[i], a->prec);
        memcpy(L->base.ext, a->ext[i], sizeof L->base.ext);
        L->base.nvec = a->nvec[i];
        L->base.prec = a->prec;
        L->base.link_prec = a->link_prec[i];
        L->base.wrap = 1;
        L->all = qf_volume(a->ext[i]) * 2 * a->nvec[i];
        L->even = L->all / 2;
        int coarsest = i == a->nlevels - 1;
        void **own[] = {&L->b, &L->x, &L->r, &L->ax, &L->t, coarsest ? &L->bhat : &L->mr_r, &L->mr_q};
        int first = i == 0 ? 2 : 0, n = coarsest ? 6 : 7;
        for (int k = first; k < n; k++, w += bytes) *own[k] = w;
        for (int k = 0; k < a->nkrylov; k++, w += bytes) L->p[k] = w;
        for (int k = 0; k < a->nkrylov; k++, w += bytes) L->z[k] = w;
    }
    double *scalars = (double *)work + qf_coarse_task_scalars_at(a);
    for (int i = 0; i < a->nlevels; i++) {
        t->lev[i].gcr_s = scalars + 2 * i * QF_GCR_S_COUNT;
        t->lev[i].mr_s = t->lev[i].gcr_s + QF_GCR_S_COUNT;
    }
    t->lev[0].b = (void *)b;
    t->lev[0].x = x;
}

static inline void qf_coarse_task_hop(const qf_coarse_task *t, const qf_coarse_level *L, int parity, double a, double b,
                                      const void *x, int local_on, int inverse, const void *in, void *out)
{
    qf_coarse_args h = L->base;
    h.parity = parity;
    h.a = a;
    h.b = b;
    h.has_x = x != NULL;
    h.local_on = local_on;
    h.local_inverse = inverse;
    t->be->hop(t->be->ctx, &h, L->links, L->xinv, in, out, x);
}

/* out = A in = X in + H in on every site */
static inline void qf_coarse_task_full(const qf_coarse_task *t, const qf_coarse_level *L, const void *in, void *out)
{
    qf_coarse_task_hop(t, L, -1, 1.0, 1.0, in, QF_CLOVER_X, 0, in, out);
}

/* out_e = Ahat in_e = X_ee in_e - H_eo X_oo^-1 H_oe in_e */
static inline void qf_coarse_task_schur(const qf_coarse_task *t, const qf_coarse_level *L, const void *in, void *out)
{
    qf_coarse_task_hop(t, L, 1, 0.0, 1.0, NULL, QF_CLOVER_HOPS, 1, in, L->t);
    qf_coarse_task_hop(t, L, 0, 1.0, -1.0, in, QF_CLOVER_X, 0, L->t, out);
}

/* bhat_e = b_e - H_eo X_oo^-1 b_o */
static inline void qf_coarse_task_prepare(const qf_coarse_task *t, const qf_coarse_level *L, const void *b, void *bhat)
{
    qf_coarse_task_hop(t, L, 1, 1.0, 0.0, b, QF_CLOVER_ALL, 1, b, L->t);
    qf_coarse_task_hop(t, L, 0, 1.0, -1.0, b, QF_CLOVER_NONE, 0, L->t, bhat);
}

/* x_o = X_oo^-1 (b_o - H_oe x_e) */
static inline void qf_coarse_task_reconstruct(const qf_coarse_task *t, const qf_coarse_level *L, const void *b, void *x)
{
    qf_coarse_task_hop(t, L, 1, 1.0, -1.0, b, QF_CLOVER_ALL, 1, x, x);
}

/* |f|^2 into the solve's scalars s (the |r|^2 the GCR follows), read back */
static inline double qf_coarse_task_norm2(const qf_coarse_task *t, const void *f, int64_t n, double *s)
{
    double d;
    t->be->dots(t->be->ctx, 1, &f, &f, 0, n, s + QF_GCR_S_RR, s, QF_GCR_NONE, 0, 0);
    t->be->read(t->be->ctx, s + QF_GCR_S_RR, 1, &d);
    return d;
}

/* out = A in on the level's system: the Schur complement on the coarsest level, else the full operator */
static inline void qf_coarse_task_system(const qf_coarse_task *t, int i, const void *in, void *out)
{
    const qf_coarse_level *L = &t->lev[i];
    if (i == t->a->nlevels - 1) qf_coarse_task_schur(t, L, in, out);
    else qf_coarse_task_full(t, L, in, out);
}

/* r = b - A x on the level's system; returns |r|^2, which the GCR's scalars follow from there. */
static inline double qf_coarse_task_residual(const qf_coarse_task *t, int i, const void *b, const void *x, int64_t n)
{
    const qf_coarse_level *L = &t->lev[i];
    const double minus_one[2] = {-1.0, 0.0};
    const void *axc = L->ax;
    qf_coarse_task_system(t, i, x, L->ax);
    t->be->copy(t->be->ctx, L->r, b, 0, n);
    t->be->axpys(t->be->ctx, 1, minus_one, &axc, L->r, 0, n);
    return qf_coarse_task_norm2(t, L->r, n, L->gcr_s);
}

static inline int qf_coarse_task_solve(qf_coarse_task *t, int i);

/* The post-smoothing of a coarse correction c in place (solvers/mg.c's eo_smoother_correct): z = c in
 * (its even sites read), c + S (r - A c) out: smoother_steps MR steps on the Schur system from x_e = c_e,
 * whose residual starts as prepare(r - A c) = r_e - X_ee c_e - H_eo u_o with u_o = X_oo^-1 (r_o - H_oe
 * c_e), the c_o that zeroes the odd defect (two hops where prepare(r) - Ahat c_e takes four), the odd
 * sites reconstructed from r. The Schur residual w stays in L->mr_r: A z = r - w on the even sites and r
 * on the odd. */
static inline void qf_coarse_task_smooth(const qf_coarse_task *t, qf_coarse_level *L, const void *r, void *z)
{
    const qf_coarse_gcr_backend *be = t->be;
    const double one[2] = {1.0, 0.0};
    const void *q = L->mr_q, *rr = L->mr_r, *xs[2] = {q, q}, *ys[2] = {q, rr};
    qf_coarse_task_hop(t, L, 1, 1.0, -1.0, r, QF_CLOVER_ALL, 1, z, L->t);
    qf_coarse_task_hop(t, L, 0, -1.0, -1.0, z, QF_CLOVER_X, 0, L->t, L->mr_r);
    be->axpys(be->ctx, 1, one, &r, L->mr_r, 0, L->even);
    double *ms = L->mr_s; /* a GCR step's alpha with no earlier directions: a = <q, r> / |q|^2 */
    be->scalars(be->ctx, ms, QF_GCR_RESET, 0, 0);
    for (int k = 0; k < t->a->smoother_steps; k++) { /* x += a r, r -= a q; after a breakdown a = 0 */
        qf_coarse_task_schur(t, L, L->mr_r, L->mr_q);
        be->dots(be->ctx, 2, xs, ys, 0, L->even, ms + QF_GCR_S_ZR, ms, QF_GCR_ALPHA, 0, k);
        be->axpys2_at(be->ctx, 1, ms + QF_GCR_S_ALPHA, &rr, z, ms + QF_GCR_S_ALPHA + 2, &q, L->mr_r, 0, L->even);
    }
    qf_coarse_task_reconstruct(t, L, r, z);
}

/* z = K_i r: the next level's solve of R r prolonged, then post-smoothed in place
 * (qf_coarse_task_smooth, which reads the prolongation's even sites alone). With smoothing steps it
 * returns 1: then A z = r - w, w the smoother's Schur residual (L->mr_r) on the even sites and zero on
 * the odd, as solvers/mg.c's K-cycle gives the outer GCR its image. */
static inline int qf_coarse_task_cycle(qf_coarse_task *t, int i, const void *r, void *z)
{
    const qf_coarse_gcr_backend *be = t->be;
    qf_coarse_level *L = &t->lev[i], *C = &t->lev[i + 1];
    be->restrict_to(be->ctx, &t->a->restrict_args[i], r, L->v, C->b);
    qf_coarse_task_solve(t, i + 1); /* a breakdown there leaves its last good iterate, which serves */
    int smooth = t->a->smoother_steps > 0;
    qf_mg_prolong_args pa = t->a->prolong_args[i];
    pa.even_only = smooth;
    be->prolong(be->ctx, &pa, C->x, L->v, z);
    if (smooth) qf_coarse_task_smooth(t, L, r, z);
    return smooth;
}

/* GCR on level i's system A x = b (b: bhat on the coarsest level's even sites) over its first n complex
 * numbers, preconditioned by the cycle where the level has one below. Returns 1 on a breakdown (a
 * direction whose image vanished or turned NaN: x then holds the last good iterate). */
static inline int qf_coarse_task_gcr(qf_coarse_task *t, int i, const void *b, void *x, int64_t n)
{
    const qf_coarse_gcr_backend *be = t->be;
    qf_coarse_level *L = &t->lev[i];
    double *s = L->gcr_s;
    int nk = t->a->nkrylov, precondition = i < t->a->nlevels - 1, breakdown = 0;
    /* a level with a cycle reaches its tolerance in one or two costly iterations: read after each */
    int read_every = precondition ? 1 : be->read_every;
    be->zero(be->ctx, x, 0, L->all);
    be->copy(be->ctx, L->r, b, 0, n);
    be->scalars(be->ctx, s, QF_GCR_RESET, 0, 0);
    double bb = qf_coarse_task_norm2(t, L->r, n, s), rr = bb, target = t->a->tol * t->a->tol * bb;
    int it = 0, j = 0;
    while (bb > 0.0 && rr > target && it < t->a->max_iter) {
        const void *zj = L->z[j], *pj = L->p[j], *rc = L->r, *w = L->mr_r;
        if (precondition && qf_coarse_task_cycle(t, i, L->r, L->p[j])) { /* z_j = A p_j = r - w, no operator */
            const double minus_one[2] = {-1.0, 0.0};
            be->copy(be->ctx, L->z[j], L->r, 0, n);
            be->axpys(be->ctx, 1, minus_one, &w, L->z[j], 0, L->even);
        } else {
            if (!precondition) be->copy(be->ctx, L->p[j], L->r, 0, n);
            qf_coarse_task_system(t, i, L->p[j], L->z[j]);
        }
        if (j > 0) { /* z_j -= sum beta_i z_i, p_j likewise, beta_i = <z_i, z_j> / |z_i|^2 */
            const void *zi[QF_COARSE_GCR_MAX_NKRYLOV], *pi[QF_COARSE_GCR_MAX_NKRYLOV], *zjs[QF_COARSE_GCR_MAX_NKRYLOV];
            for (int k = 0; k < j; k++) {
                zi[k] = L->z[k];
                pi[k] = L->p[k];
                zjs[k] = zj;
            }
            be->dots(be->ctx, j, zi, zjs, 0, n, s + QF_GCR_S_DOTS, s, QF_GCR_COEF, j, it);
            be->axpys2_at(be->ctx, j, s + QF_GCR_S_COEF, zi, L->z[j], s + QF_GCR_S_COEF, pi, L->p[j], 0, n);
        }
        /* alpha = <z_j, r> / |z_j|^2; x += alpha p_j, r -= alpha z_j */
        const void *xs[2] = {zj, zj}, *ys[2] = {zj, rc};
        be->dots(be->ctx, 2, xs, ys, 0, n, s + QF_GCR_S_ZR, s, QF_GCR_ALPHA, j, it);
        be->axpys2_at(be->ctx, 1, s + QF_GCR_S_ALPHA, &pj, x, s + QF_GCR_S_ALPHA + 2, &zj, L->r, 0, n);
        it++;
        j++;
        int restart = j == nk || it >= t->a->max_iter;
        if (restart || it % read_every == 0) {
            double st[4]; /* |r|^2, then the breakdown */
            be->read(be->ctx, s + QF_GCR_S_RR, 4, st);
            if (st[2] != 0.0) { /* the iterations after it changed nothing */
                it = (int)st[2] - 1;
                breakdown = 1;
                break;
            }
            rr = st[0];
            restart = restart || rr <= target;
        }
        if (restart && !(rr <= target && t->a->tol >= QF_COARSE_CONFIRM_TOL)) { /* from the true residual */
            rr = qf_coarse_task_residual(t, i, b, x, n);
            j = 0;
        }
    }
    L->iterations += it;
    return breakdown;
}

/* Level i's solve of A x = b (its fields b and x), counted in its figures. */
static inline int qf_coarse_task_solve(qf_coarse_task *t, int i)
{
    qf_coarse_level *L = &t->lev[i];
    double t0 = t->be->seconds(t->be->ctx);
    int breakdown;
    if (i < t->a->nlevels - 1) {
        breakdown = qf_coarse_task_gcr(t, i, L->b, L->x, L->all);
    } else {
        qf_coarse_task_prepare(t, L, L->b, L->bhat);
        if (L->dense) {
            t->be->dense_apply(t->be->ctx, L->dense, L->even, L->bhat, L->x);
            L->iterations++;
            breakdown = 0;
        } else {
            breakdown = qf_coarse_task_gcr(t, i, L->bhat, L->x, L->even);
        }
        qf_coarse_task_reconstruct(t, L, L->b, L->x);
    }
    L->seconds += t->be->seconds(t->be->ctx) - t0;
    return breakdown;
}

#endif
