/* The coarsest multigrid level's solve inside one task (codelet mg_coarse_solve): GCR on the coarse
 * operator's even-odd Schur system, written once against a small backend of field operations that the
 * CPU codelet implements with loops and the CUDA codelet with kernels on its stream. In a task graph
 * every step of a Krylov iteration on a coarse grid of a few thousand sites is a task whose overhead
 * (tens of microseconds, more where the host waits for a reduction) exceeds its kernel many times:
 * here the whole solve is one task, the host reading back only the reductions.
 *
 * The algorithm: x_o and the Schur system as the task-graph coarse operator defines them
 * (tasks/coarse_op.c): bhat_e = b_e - H_eo X_oo^-1 b_o, Ahat = X_ee - H_eo X_oo^-1 H_oe, then
 * x_o = X_oo^-1 (b_o - H_oe x_e). GCR(nkrylov) with explicit updates of x and r: z_j = Ahat p_j is
 * orthogonalised against the earlier z_i by classical Gram-Schmidt (one batch of inner products, one
 * batch of updates), and p_j alongside, so that a loss of orthogonality slows convergence but never
 * spoils x = sum alpha_j p_j. |r|^2 follows from |r|^2 - |<z_j, r>|^2 / |z_j|^2; the true residual is
 * recomputed at each restart and before the solve ends. Host code (no device qualifiers): the
 * backend's calls do the work. */
#ifndef QF_COARSE_GCR_H
#define QF_COARSE_GCR_H

#include "mg.h"

#include <math.h>
#include <string.h>

/* Most search directions the one-task solve keeps (the batches' argument arrays). */
#define QF_COARSE_GCR_MAX_NKRYLOV QF_COARSE_ONE_TASK_MAX_NKRYLOV

/* mg_coarse_solve — A x = b to |bhat - Ahat x_e| <= tol |bhat| on the Schur system (at most max_iter
 * iterations, GCR(nkrylov)), on a coarse lattice of one block (wrap: its hops re-enter on the other
 * side). Buffers: R links, R X^-1, R b, W x, SCRATCH work (qf_coarse_gcr_fields fields, then
 * 2 QF_COARSE_GCR_MAX_NKRYLOV doubles), RW stats of 2 doubles: the iterations and the seconds of the
 * solve, added to. */
typedef struct {
    int ext[QF_NDIM];
    int nvec;
    qf_precision prec;
    double tol;
    int max_iter, nkrylov;
} qf_coarse_solve_args;

/* Fields of the scratch buffer: bhat, r, the odd intermediate, A x, and p_k, z_k for each direction. */
static inline int qf_coarse_gcr_fields(int nkrylov) { return 4 + 2 * nkrylov; }

/* A range of complex numbers of every field: [first, first + n). */
typedef struct {
    void *ctx;
    /* out = finish(a, x, b, H in) on a->parity's sites (kernels/mg.h; a->wrap set), with the
     * operator's links and X^-1 that the backend holds */
    void (*hop)(void *ctx, const qf_coarse_args *a, const void *in, void *out, const void *x);
    /* out[2 k] + i out[2 k + 1] = <x[k], y[k]> = sum conj(x[k]) y[k], k < m, summed in double */
    void (*dots)(void *ctx, int m, const void *const *x, const void *const *y, int64_t first, int64_t n, double *out);
    /* y += sum_k c[k] x[k], c[k] = c[2 k] + i c[2 k + 1], k < m */
    void (*axpys)(void *ctx, int m, const double *c, const void *const *x, void *y, int64_t first, int64_t n);
    void (*copy)(void *ctx, void *dst, const void *src, int64_t first, int64_t n);
    void (*zero)(void *ctx, void *dst, int64_t first, int64_t n);
} qf_coarse_gcr_backend;

typedef struct {
    const qf_coarse_gcr_backend *be;
    qf_coarse_args base; /* ext, nvec, prec, wrap */
    void *t;             /* the odd intermediate */
    int64_t first, n;    /* the even sites' complex numbers */
} qf_coarse_gcr_ctx;

static inline void *qf_coarse_gcr_field(void *work, int k, size_t bytes) { return (char *)work + (size_t)k * bytes; }

static inline void qf_coarse_gcr_hop(const qf_coarse_gcr_ctx *g, int parity, double a, double b, const void *x,
                                     int local_on, int inverse, const void *in, void *out)
{
    qf_coarse_args h = g->base;
    h.parity = parity;
    h.a = a;
    h.b = b;
    h.has_x = x != NULL;
    h.local_on = local_on;
    h.local_inverse = inverse;
    g->be->hop(g->be->ctx, &h, in, out, x);
}

/* out_e = Ahat in_e = X_ee in_e - H_eo X_oo^-1 H_oe in_e */
static inline void qf_coarse_gcr_schur(const qf_coarse_gcr_ctx *g, const void *in, void *out)
{
    qf_coarse_gcr_hop(g, 1, 0.0, 1.0, NULL, QF_CLOVER_HOPS, 1, in, g->t);
    qf_coarse_gcr_hop(g, 0, 1.0, -1.0, in, QF_CLOVER_X, 0, g->t, out);
}

static inline double qf_coarse_gcr_norm2(const qf_coarse_gcr_ctx *g, const void *f)
{
    double d[2];
    g->be->dots(g->be->ctx, 1, &f, &f, g->first, g->n, d);
    return d[0];
}

/* r = bhat - Ahat x_e (ax: room for Ahat x_e); returns |r|^2. */
static inline double qf_coarse_gcr_residual(const qf_coarse_gcr_ctx *g, const void *bhat, const void *x, void *ax,
                                            void *r)
{
    const double minus_one[2] = {-1.0, 0.0};
    const void *axc = ax;
    qf_coarse_gcr_schur(g, x, ax);
    g->be->copy(g->be->ctx, r, bhat, g->first, g->n);
    g->be->axpys(g->be->ctx, 1, minus_one, &axc, r, g->first, g->n);
    return qf_coarse_gcr_norm2(g, r);
}

/* Solves; *iterations and *rel (|bhat - Ahat x_e| / |bhat|) report it. Returns 1 on a breakdown (a
 * direction whose image vanished or turned NaN: x then holds the last good iterate), else 0. */
static inline int qf_coarse_gcr_solve(const qf_coarse_gcr_backend *be, const qf_coarse_solve_args *p, const void *b,
                                      void *x, void *work, int *iterations, double *rel)
{
    int nk = p->nkrylov, n2 = 2 * p->nvec, breakdown = 0;
    int64_t vol = qf_volume(p->ext);
    size_t bytes = (size_t)vol * n2 * 2 * qf_real_size(p->prec);
    qf_coarse_gcr_ctx g;
    memset(&g, 0, sizeof g);
    g.be = be;
    memcpy(g.base.ext, p->ext, sizeof g.base.ext);
    g.base.nvec = p->nvec;
    g.base.prec = p->prec;
    g.base.wrap = 1;
    g.first = 0;
    g.n = vol / 2 * n2;
    void *bhat = qf_coarse_gcr_field(work, 0, bytes), *r = qf_coarse_gcr_field(work, 1, bytes),
         *ax = qf_coarse_gcr_field(work, 3, bytes);
    g.t = qf_coarse_gcr_field(work, 2, bytes);
    void *pk[QF_COARSE_GCR_MAX_NKRYLOV], *zk[QF_COARSE_GCR_MAX_NKRYLOV];
    for (int k = 0; k < nk; k++) {
        pk[k] = qf_coarse_gcr_field(work, 4 + k, bytes);
        zk[k] = qf_coarse_gcr_field(work, 4 + nk + k, bytes);
    }
    double zz[QF_COARSE_GCR_MAX_NKRYLOV];

    /* bhat_e = b_e - H_eo X_oo^-1 b_o; x_e = 0 */
    qf_coarse_gcr_hop(&g, 1, 1.0, 0.0, b, QF_CLOVER_ALL, 1, b, g.t);
    qf_coarse_gcr_hop(&g, 0, 1.0, -1.0, b, QF_CLOVER_NONE, 0, g.t, bhat);
    be->zero(be->ctx, x, 0, vol * n2);
    be->copy(be->ctx, r, bhat, g.first, g.n);
    double bb = qf_coarse_gcr_norm2(&g, r), rr = bb, target = p->tol * p->tol * bb;
    int it = 0, j = 0;
    while (bb > 0.0 && rr > target && it < p->max_iter) {
        const void *zj = zk[j], *pj = pk[j], *rc = r;
        be->copy(be->ctx, pk[j], r, g.first, g.n);
        qf_coarse_gcr_schur(&g, pk[j], zk[j]);
        if (j > 0) { /* z_j -= sum beta_i z_i, p_j likewise, beta_i = <z_i, z_j> / |z_i|^2 */
            const void *zi[QF_COARSE_GCR_MAX_NKRYLOV], *pi[QF_COARSE_GCR_MAX_NKRYLOV], *zjs[QF_COARSE_GCR_MAX_NKRYLOV];
            double c[2 * QF_COARSE_GCR_MAX_NKRYLOV];
            for (int i = 0; i < j; i++) {
                zi[i] = zk[i];
                pi[i] = pk[i];
                zjs[i] = zj;
            }
            be->dots(be->ctx, j, zi, zjs, g.first, g.n, c);
            for (int i = 0; i < j; i++) {
                c[2 * i] = -c[2 * i] / zz[i];
                c[2 * i + 1] = -c[2 * i + 1] / zz[i];
            }
            be->axpys(be->ctx, j, c, zi, zk[j], g.first, g.n);
            be->axpys(be->ctx, j, c, pi, pk[j], g.first, g.n);
        }
        /* alpha = <z_j, r> / |z_j|^2; x += alpha p_j, r -= alpha z_j */
        const void *xs[2] = {zj, zj}, *ys[2] = {zj, rc};
        double d[4];
        be->dots(be->ctx, 2, xs, ys, g.first, g.n, d);
        if (!(d[0] > 0.0) || !isfinite(d[0]) || !isfinite(d[2]) || !isfinite(d[3])) {
            breakdown = 1;
            break;
        }
        zz[j] = d[0];
        double alpha[2] = {d[2] / d[0], d[3] / d[0]}, minus_alpha[2] = {-alpha[0], -alpha[1]};
        be->axpys(be->ctx, 1, alpha, &pj, x, g.first, g.n);
        be->axpys(be->ctx, 1, minus_alpha, &zj, r, g.first, g.n);
        rr -= (d[2] * d[2] + d[3] * d[3]) / d[0];
        it++;
        j++;
        if (j == nk || rr <= target || it >= p->max_iter) { /* restart from the true residual */
            rr = qf_coarse_gcr_residual(&g, bhat, x, ax, r);
            j = 0;
        }
    }
    /* x_o = X_oo^-1 (b_o - H_oe x_e) */
    qf_coarse_gcr_hop(&g, 1, 1.0, -1.0, b, QF_CLOVER_ALL, 1, x, x);
    *iterations = it;
    *rel = bb > 0.0 ? sqrt(fmax(rr, 0.0) / bb) : 0.0;
    return breakdown;
}

#endif
