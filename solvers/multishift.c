/* Multi-shift CG (qf_solver.h; seed 000, section 8, after Jegerlehner): the solutions of
 * (A + sigma_s) x_s = b for every shift from the one Krylov space of the smallest shift's system, the
 * base. The base runs plain CG (x_b += alpha p_b, r -= alpha q, p_b = r + beta p_b); a shift's residual
 * is zeta_s r, so it needs only its own direction p_s and solution, updated with
 *
 *   zeta_s' = zeta_s zeta_s^old alpha^old / (alpha beta^old (zeta_s^old - zeta_s) + zeta_s^old alpha^old (1 + (sigma_s - sigma_b) alpha))
 *   x_s += alpha zeta_s' / zeta_s p_s,   p_s = zeta_s' r + beta (zeta_s' / zeta_s)^2 p_s.
 *
 * The recurrences need alpha and beta on the host, so every iteration reads <p, A p> and |r|^2, both
 * after one wait (the base's update works alpha out in its task, as CG does; QUDA's multi-shift solver
 * waits once an iteration too). The shifts' updates are one pass over r (qf_blas_shift_update: r read
 * once, not once a shift, and one launch a block where two a shift each cost a GPU a launch), and on a
 * lattice of one block what is submitted between two reads is one task (a chain, qf_blas.h): the
 * shifts' updates, p_b's, the next q and the base's update, where each was a task of its own, 15-17 us
 * of a GPU's time apiece (bench/RESULTS.md, "Chains"). A shift stops once zeta_s |r| reaches its
 * tolerance. The iterations run in the sloppy precision; each solution then goes to A's precision, and a
 * shift whose true residual misses its tolerance is refined by CG on its own system from there. */
#include "krylov.h"
#include "quarkflow/qf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- A + sigma as an operator, for the refinement's CG ---- */

typedef struct shifted shifted;
struct shifted {
    qf_linop *A;
    double sigma;
    qf_linop *twin; /* owned: the same shift of A's twin */
};

static int shifted_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    (void)dagger; /* hermitian */
    const shifted *s = ctx;
    return qf_linop_apply(s->A, out, in) || qf_blas_axpby(s->sigma, in, 1.0, out, qf_linop_get_domain(s->A)->parity)
               ? QF_ERROR
               : QF_SUCCESS;
}

static double shifted_flops(const void *ctx, int dagger)
{
    (void)dagger;
    return qf_linop_flops(((const shifted *)ctx)->A, 0);
}

static void shifted_destroy(void *ctx)
{
    shifted *s = ctx;
    qf_linop_destroy(s->twin);
    free(s);
}

static int shifted_create(qf_linop *A, double sigma, qf_linop **out);

static int shifted_in_precision(void *ctx, qf_precision prec, qf_linop **twin)
{
    shifted *s = ctx;
    qf_linop *At;
    if (!s->twin && (qf_linop_in_precision(s->A, prec, &At) || shifted_create(At, s->sigma, &s->twin))) return QF_ERROR;
    *twin = s->twin;
    return QF_SUCCESS;
}

static const qf_linop_ops shifted_ops = {.name = "A + sigma",
                                         .apply = shifted_apply,
                                         .flops = shifted_flops,
                                         .in_precision = shifted_in_precision,
                                         .destroy = shifted_destroy,
                                         .hermitian = 1};

static int shifted_create(qf_linop *A, double sigma, qf_linop **out)
{
    shifted *s = calloc(1, sizeof *s);
    if (!s) return qf_fail("out of host memory creating a shifted operator");
    *s = (shifted){.A = A, .sigma = sigma};
    if (qf_linop_create(out, &shifted_ops, s, qf_linop_get_domain(A))) {
        free(s);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* ---- the solver ---- */

static int check(qf_linop *A, int n, const double *shifts, const double *tol, qf_field *const *x, const qf_field *b,
                 const qf_solver_params *p)
{
    if (!A || !shifts || !tol || !x || !b || !p) return qf_fail("qf_multishift_cg: an argument is NULL");
    if (!qf_linop_is_hermitian(A))
        return qf_fail("multi-shift CG needs a hermitian positive semi-definite operator, and %s is not one",
                       qf_linop_name(A));
    if (n < 1 || n > QF_MULTISHIFT_MAX)
        return qf_fail("multi-shift CG with %d shifts: give 1 to %d", n, QF_MULTISHIFT_MAX);
    qf_precision prec = qf_linop_get_domain(A)->prec;
    for (int s = 0; s < n; s++) {
        if (!(shifts[s] >= 0.0 && shifts[s] < 1e300))
            return qf_fail("multi-shift CG: shift %d is %g; shifts are finite and not negative", s, shifts[s]);
        if (!(tol[s] >= qf_solver_min_tol(prec) && tol[s] < 1.0))
            return qf_fail("multi-shift CG: tolerance %g of shift %d: give one in [%g, 1) for a %s-precision operator",
                           tol[s], s, qf_solver_min_tol(prec), qf_precision_name(prec));
        if (!x[s] || x[s] == b) return qf_fail("multi-shift CG: the solution of shift %d is NULL or the source", s);
        for (int t = 0; t < s; t++)
            if (x[t] == x[s]) return qf_fail("multi-shift CG: shifts %d and %d share a solution field", t, s);
    }
    if (p->max_iter < 1 || p->check_every < 0)
        return qf_fail("multi-shift CG: max_iter %d must be at least 1 and check_every %d at least 0 (0: every 10)",
                       p->max_iter, p->check_every);
    return qf_precision_check_full(p->sloppy, "multi-shift CG's iterations");
}

typedef struct {
    qf_linop *A, *As;  /* the operator, and its twin the iterations use */
    int n, base, parity;
    const double *shift, *tol;
    double bnorm;
    qf_field *r, *q, *p[QF_MULTISHIFT_MAX], *xs[QF_MULTISHIFT_MAX];
    double zeta[QF_MULTISHIFT_MAX], zeta_old[QF_MULTISHIFT_MAX];
    int active[QF_MULTISHIFT_MAX], iterations[QF_MULTISHIFT_MAX];
    double flops;
} multishift;

static double read_re(const qf_scalar *s)
{
    double re = NAN, im;
    return qf_scalar_get(s, &re, &im) ? NAN : re;
}

/* The shared iterations from x_s = 0; fails on a breakdown or when max_iter runs out with a shift still
 * active (the caller then refines every shift). */
static int iterate(multishift *m, const qf_solver_params *p)
{
    int par = m->parity, b = m->base, any = 1, k = 0;
    double alpha_old = 1.0, beta_old = 1.0;
    qf_scalar *pq = NULL, *rr_s[2] = {NULL, NULL}; /* |r|^2 before and after an iteration, in turn */
    int rc = qf_scalar_create(&pq) || qf_scalar_create(&rr_s[0]) || qf_scalar_create(&rr_s[1]) ||
             qf_blas_norm2(rr_s[0], m->r, par);
    double rr = rc ? NAN : read_re(rr_s[0]);
    int chained = !rc && qf_chain_begin() == QF_SUCCESS; /* each read below submits what it holds */
    for (; !rc && any && k < p->max_iter; k++) {
        qf_scalar *rr_old = rr_s[k & 1], *rr_next = rr_s[(k + 1) & 1];
        /* q = (A + sigma_b) p_b; x_b += alpha p_b (while the base is active), r -= alpha q and |r|^2 in one
         * pass, alpha = |r|^2 / <p_b, q> worked out in the task, so that the host reads <p_b, q> and the
         * new |r|^2 after one wait */
        m->flops += qf_linop_flops(m->As, 0);
        rc = qf_linop_apply(m->As, m->q, m->p[b]) || qf_blas_axpby(m->shift[b], m->p[b], 1.0, m->q, par) ||
             qf_blas_dot(pq, m->p[b], m->q, par);
        if (!rc)
            rc = m->active[b] ? qf_blas_cg_update_ratio(m->xs[b], m->r, rr_old, pq, m->p[b], m->q, rr_next, par)
                              : qf_blas_caxpy_ratio(rr_old, pq, -1.0, m->q, m->r, par) || qf_blas_norm2(rr_next, m->r, par);
        double alpha = rc ? NAN : rr / read_re(pq), rr_new = rc ? NAN : read_re(rr_next), beta = rr_new / rr;
        if (!rc && !(isfinite(alpha) && isfinite(beta))) {
            /* the base's solution took that step: the refinement starts it again from zero */
            if (m->active[b]) (void)qf_blas_axpby(0.0, NULL, 0.0, m->xs[b], par);
            rc = qf_fail("multi-shift CG broke down at iteration %d (alpha %g, beta %g): the operator is not positive "
                         "definite on this source, or the iterations lost all precision",
                         k + 1, alpha, beta);
        }
        /* the active shifts' x_s += alpha (zeta_s' / zeta_s) p_s, p_s = zeta_s' r + beta (zeta_s' / zeta_s)^2 p_s,
         * all in one pass over r */
        qf_field *ux[QF_MULTISHIFT_MAX], *up[QF_MULTISHIFT_MAX];
        double ua[QF_MULTISHIFT_MAX], uz[QF_MULTISHIFT_MAX], ub[QF_MULTISHIFT_MAX];
        int nu = 0;
        any = 0;
        for (int s = 0; s < m->n && !rc; s++) {
            if (!m->active[s]) continue;
            double z = m->zeta[s], zo = m->zeta_old[s], zn = 1.0;
            if (s != b) {
                double ds = m->shift[s] - m->shift[b];
                zn = z * zo * alpha_old / (alpha * beta_old * (zo - z) + zo * alpha_old * (1.0 + ds * alpha));
                double ratio = zn / z;
                ux[nu] = m->xs[s], up[nu] = m->p[s];
                ua[nu] = alpha * ratio, uz[nu] = zn, ub[nu] = beta * ratio * ratio;
                nu++;
                m->zeta_old[s] = z;
                m->zeta[s] = zn;
            }
            if (fabs(zn) * sqrt(rr_new) <= m->tol[s] * m->bnorm) {
                m->active[s] = 0;
                m->iterations[s] = k + 1;
            }
            any |= m->active[s];
        }
        rc = rc || qf_blas_shift_update(nu, ux, up, ua, uz, ub, m->r, par) || qf_blas_axpby(1.0, m->r, beta, m->p[b], par);
        alpha_old = alpha;
        beta_old = beta;
        rr = rr_new;
        if (!rc && p->verbose && (k + 1) % qf_solver_check_every(p) == 0 && qf_runtime_rank() == 0) {
            printf("  multi-shift CG iteration %5d  |r| / |b| = %.3e, %d shifts iterating\n", k + 1, sqrt(rr) / m->bnorm,
                   any);
            fflush(stdout);
        }
    }
    if (chained && qf_chain_end()) rc = QF_ERROR;
    for (int s = 0; s < m->n; s++)
        if (m->active[s]) m->iterations[s] = k;
    qf_scalar_destroy(pq);
    qf_scalar_destroy(rr_s[0]);
    qf_scalar_destroy(rr_s[1]);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* |b - (A + sigma) x| on A's sites, in A's precision, through the temporary t. */
static int true_residual(qf_linop *A, double sigma, const qf_field *x, const qf_field *b, qf_field *t, double *norm)
{
    int par = qf_linop_get_domain(A)->parity;
    qf_scalar *s = NULL;
    int rc = qf_scalar_create(&s) || qf_linop_apply(A, t, x) || qf_blas_axpby(sigma, x, 1.0, t, par) ||
             qf_blas_axpby(1.0, b, -1.0, t, par) || qf_blas_norm2(s, t, par);
    *norm = rc ? NAN : sqrt(read_re(s));
    qf_scalar_destroy(s);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* Shift s's solution into x[s] (A's precision, A's sites), its true residual checked and refined by CG
 * when it misses. */
static int finish_shift(multishift *m, int s, qf_field *x, const qf_field *b, const qf_solver_params *p, qf_field *t,
                        qf_solver_result *res)
{
    int par = m->parity;
    int rc = m->xs[s] == x ? QF_SUCCESS : qf_field_convert_parity(t, m->xs[s], par) || qf_blas_copy(x, t, par);
    double norm = NAN;
    m->flops += qf_linop_flops(m->A, 0);
    rc = rc || true_residual(m->A, m->shift[s], x, b, t, &norm);
    res->iterations = m->iterations[s];
    if (!rc && !(norm <= m->tol[s] * m->bnorm)) { /* refinement */
        qf_linop *As = NULL;
        qf_solver_params cg = *p;
        cg.kind = QF_SOLVER_CG;
        cg.even_odd = 0;
        cg.tol = m->tol[s];
        cg.verbose = 0;
        qf_solver_result r;
        rc = shifted_create(m->A, m->shift[s], &As) || qf_solve(As, x, b, &cg, &r);
        qf_linop_destroy(As);
        if (!rc) {
            res->iterations += r.iterations;
            res->updates = r.updates + 1;
            m->flops += r.flops;
            rc = true_residual(m->A, m->shift[s], x, b, t, &norm);
        }
    }
    res->residual = norm / m->bnorm;
    res->converged = !rc && res->residual <= 1.5 * m->tol[s];
    return rc;
}

/* A temporary of A's pool, zero on every site: the iterations write one parity of it, and a block no task
 * has written cannot be read. */
static int take_zero(qf_linop *A, qf_field **f)
{
    return qf_linop_field_take(A, f) || qf_blas_axpby(0.0, NULL, 0.0, *f, -1) ? QF_ERROR : QF_SUCCESS;
}

int qf_multishift_cg(qf_linop *A, int n, const double *shifts, const double *tol, qf_field *const *x, const qf_field *b,
                     const qf_solver_params *p, qf_solver_result *res)
{
    if (res && n > 0 && n <= QF_MULTISHIFT_MAX)
        for (int s = 0; s < n; s++) res[s] = (qf_solver_result){0};
    if (!res) return qf_fail("qf_multishift_cg: the results are NULL");
    if (check(A, n, shifts, tol, x, b, p)) return QF_ERROR;
    double t0 = qf_wtime();
    qf_precision prec = qf_linop_get_domain(A)->prec;
    multishift m = {.A = A, .n = n, .parity = qf_linop_get_domain(A)->parity, .shift = shifts, .tol = tol};
    for (int s = 0; s < n; s++) {
        if (shifts[s] < shifts[m.base]) m.base = s;
        m.zeta[s] = m.zeta_old[s] = 1.0;
        m.active[s] = 1;
    }
    int uniform = p->sloppy <= prec; /* qf_precision counts down: the iterations in A's own precision */
    qf_field *t = NULL;
    int rc = qf_linop_in_precision(A, uniform ? prec : p->sloppy, &m.As) || take_zero(A, &t) ||
             qf_krylov_norm(b, m.parity, &m.bnorm);
    rc = rc || take_zero(m.As, &m.r) || take_zero(m.As, &m.q);
    for (int s = 0; s < n && !rc; s++) {
        rc = take_zero(m.As, &m.p[s]);
        m.xs[s] = uniform ? x[s] : NULL;
        rc = rc || (uniform ? qf_blas_axpby(0.0, NULL, 0.0, m.xs[s], m.parity) : take_zero(m.As, &m.xs[s]));
    }
    if (!rc && m.bnorm == 0.0) { /* (A + sigma) x = 0: x = 0 */
        for (int s = 0; s < n; s++) res[s].converged = 1;
    } else if (!rc) {
        /* r = b in the iterations' precision, every p_s = r */
        rc = (uniform ? qf_blas_copy(m.r, b, m.parity) : qf_field_convert_parity(m.r, b, m.parity));
        for (int s = 0; s < n && !rc; s++) rc = qf_blas_copy(m.p[s], m.r, m.parity);
        int iterated = !rc && iterate(&m, p) == QF_SUCCESS;
        if (!rc && !iterated) {
            /* the shared iterations failed: every shift refined from where it got to */
            if (qf_runtime_rank() == 0) fprintf(stderr, "quarkflow: multi-shift CG: %s; refining every shift\n", qf_last_error());
            for (int s = 0; s < n; s++) m.active[s] = 0;
        }
        for (int s = 0; s < n && !rc; s++) rc = finish_shift(&m, s, x[s], b, p, t, &res[s]);
    }
    for (int s = 0; s < n; s++) {
        qf_linop_field_give_back(m.As, m.p[s]);
        if (!uniform) qf_linop_field_give_back(m.As, m.xs[s]);
    }
    qf_linop_field_give_back(m.As, m.r);
    qf_linop_field_give_back(m.As, m.q);
    qf_linop_field_give_back(A, t);
    double seconds = qf_wtime() - t0;
    for (int s = 0; s < n; s++) {
        res[s].seconds = seconds;
        res[s].flops = m.flops;
    }
    if (!rc)
        for (int s = 0; s < n; s++)
            if (!res[s].converged)
                return qf_fail("multi-shift CG: shift %d (sigma %g) reached a true residual of %.3e, not %.3e, within %d "
                               "iterations: raise max_iter or loosen the tolerance",
                               s, shifts[s], res[s].residual, tol[s], p->max_iter);
    return rc ? QF_ERROR : QF_SUCCESS;
}
