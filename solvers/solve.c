/* qf_solve: the driver around the Krylov methods. It sets up the system (the full operator, or the
 * even-odd Schur operator with the prepared source) and the operator's twin in the sloppy precision
 * for mixed-precision iterations, runs the method, recomputes the true residual
 * of the system and restarts from the current solution with a tighter iterated target while the
 * true residual misses the tolerance (the iterated residual drifts from the true one, and CGNR's
 * iterated residual is that of the normal equations), then reconstructs the odd sites and reports
 * the true residual |b - M x| / |b| of the full system. */
#include "krylov.h"
#include "quarkflow/qf_multigrid.h"
#include "quarkflow/qf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef int (*method_fn)(qf_krylov *k, qf_field *x, const qf_field *b, double target);

static const struct {
    const char *name, *option;
    method_fn run;
} methods[] = {
    [QF_SOLVER_CGNR] = {"CGNR", "cgnr", qf_cgnr},         [QF_SOLVER_BICGSTAB] = {"BiCGStab", "bicgstab", qf_bicgstab},
    [QF_SOLVER_CGNE] = {"CGNE", "cgne", qf_cgne},         [QF_SOLVER_GCR] = {"GCR", "gcr", qf_gcr},
    [QF_SOLVER_MR] = {"MR", "mr", qf_mr},         [QF_SOLVER_MG] = {"MG-GCR", "mg", qf_gcr},
    [QF_SOLVER_CG] = {"CG", "cg", qf_cg},
};
enum { NMETHODS = sizeof methods / sizeof methods[0] };

static int known(qf_solver_kind k) { return (int)k >= 0 && (int)k < NMETHODS; }

const char *qf_solver_name(qf_solver_kind k) { return known(k) ? methods[k].name : "?"; }

int qf_solver_parse(const char *s, qf_solver_kind *k)
{
    for (int i = 0; i < NMETHODS; i++)
        if (!strcmp(s, methods[i].option)) {
            *k = (qf_solver_kind)i;
            return QF_SUCCESS;
        }
    return qf_fail("unknown solver '%s': use cg, cgnr, cgne, bicgstab, gcr, mr or mg", s);
}

qf_solver_params qf_solver_default_params(void)
{
    qf_solver_params p = {.kind = QF_SOLVER_BICGSTAB, .tol = 1e-10, .max_iter = QF_SOLVER_DEFAULT_MAX_ITER,
                          .check_every = 0, .even_odd = 1, .verbose = 0, .sloppy = QF_DOUBLE, .delta = 0.0,
                          .gcr_nkrylov = 16, .gcr_inner_mr = 0, .gcr_sap_block = {4, 4, 4, 4}, .gcr_sap_mr = 4};
    return p;
}

double qf_solver_delta(const qf_solver_params *p)
{
    /* 8^4 DDalphaAMG field at m0 -0.33, one CPU worker: 30 outer iterations and 9 updates with 0.1,
     * 27 and 4 with 1e-3 (bench/RESULTS.md) */
    return p->delta > 0.0 ? p->delta : p->kind == QF_SOLVER_MG ? 1e-3 : 0.1;
}

int qf_solver_check_every(const qf_solver_params *p)
{
    if (p->check_every > 0) return p->check_every;
    /* next to a K-cycle the host's wait for one norm costs nothing, and a solve that reads every
     * iteration stops where it converges instead of up to 9 K-cycles later (bench/RESULTS.md) */
    int every = p->kind == QF_SOLVER_MG ? 1 : 10;
    return every < p->max_iter ? every : p->max_iter;
}

/* |b - A x| on A's sites, into r; counts A's flops. One chain up to the norm's read (one task on one
 * GPU where A joins chains), with the tasks the caller's open chain holds. */
static int residual(qf_krylov *k, qf_linop *A, qf_field *r, const qf_field *x, const qf_field *b, double *norm)
{
    int parity = qf_linop_get_domain(A)->parity;
    k->flops += qf_linop_flops(A, 0);
    qf_chain_begin();
    int rc = qf_linop_apply(A, r, x) || qf_blas_axpby(1.0, b, -1.0, r, parity) || qf_krylov_norm(r, parity, norm);
    return qf_chain_end() || rc ? QF_ERROR : QF_SUCCESS;
}

double qf_solver_min_tol(qf_precision op_prec)
{
    return op_prec == QF_DOUBLE ? QF_SOLVER_MIN_TOL_DOUBLE : QF_SOLVER_MIN_TOL_SINGLE;
}

static int check_params(const qf_solver_params *p, qf_precision op_prec)
{
    if (!known(p->kind)) return qf_fail("unknown solver %d", (int)p->kind);
    if (op_prec == QF_HALF)
        return qf_fail("a solve in half precision: the operator and fields of a solve are in double or single; give half "
                       "as the sloppy precision of a mixed-precision solve (sloppy, --sloppy half)");
    if (!(p->tol >= qf_solver_min_tol(op_prec) && p->tol < 1.0))
        return qf_fail("solver tolerance %g: it is the relative residual |b - M x| / |b|, between %g (the least the "
                       "rounding of a %s-precision operator allows) and 1 (e.g. 1e-10)",
                       p->tol, qf_solver_min_tol(op_prec), qf_precision_name(op_prec));
    if (p->max_iter < 1) return qf_fail("solver max_iter %d: give at least one iteration", p->max_iter);
    if (p->check_every < 0)
        return qf_fail("solver check_every %d: check at least every iteration (or give 0, the method's cadence)",
                       p->check_every);
    if (qf_precision_check(p->sloppy, "sloppy")) return QF_ERROR;
    if (!(p->delta >= 0.0 && p->delta < 1.0))
        return qf_fail("solver delta %g: the fall of the iterated residual between high-precision updates is between 0 "
                       "and 1 (e.g. 0.1; 0 for the method's own)",
                       p->delta);
    if (p->kind == QF_SOLVER_MG && !p->mg)
        return qf_fail("the multigrid solver needs the hierarchy built for the operator (qf_mg_setup, params.mg)");
    if ((p->kind == QF_SOLVER_GCR || p->kind == QF_SOLVER_MG) && (p->gcr_nkrylov < 1 || p->gcr_nkrylov > QF_GCR_MAX_NKRYLOV))
        return qf_fail("GCR with %d search directions: keep between 1 and %d", p->gcr_nkrylov, QF_GCR_MAX_NKRYLOV);
    if (p->gcr_inner_mr < 0) return qf_fail("GCR preconditioner with %d MR steps: give 0 or more", p->gcr_inner_mr);
    if (p->gcr_sap_cycles < 0) return qf_fail("GCR preconditioner of %d Schwarz cycles: give 0 or more", p->gcr_sap_cycles);
    if (p->gcr_sap_cycles > 0 && p->kind == QF_SOLVER_GCR && p->even_odd)
        return qf_fail("the Schwarz preconditioner acts on the full lattice, not on the even-odd Schur system: solve "
                       "the full system (even_odd 0, --full)");
    return QF_SUCCESS;
}

/* One run of the method from x towards the iterated target. Iterating far past convergence between
 * two residual reads (a long check_every) lets the residual underflow to 0, most often in single
 * precision, and 0 / 0 then breaks the coefficients: such a breakdown is told from a real one by
 * running again from the solution the run started from, reading the residual every iteration, which
 * stops as soon as the target is reached. After a real breakdown x is that solution again, not NaN. */
static int run_method(qf_krylov *k, qf_field *x, const qf_field *b, double target, qf_field *start)
{
    k->breakdown = 0;
    int rc = qf_blas_copy(start, x, k->parity) || methods[k->p->kind].run(k, x, b, target);
    rc = qf_krylov_end_run(k) || rc;
    if (!rc || !k->breakdown) return rc;
    const qf_solver_params *p = k->p;
    qf_solver_params every = *p;
    every.check_every = 1;
    k->p = &every;
    k->breakdown = 0;
    if (p->check_every > 1) rc = qf_blas_copy(x, start, k->parity) || methods[p->kind].run(k, x, b, target);
    rc = qf_krylov_end_run(k) || rc;
    k->p = p;
    if (rc && k->breakdown) qf_blas_copy(x, start, k->parity);
    return rc;
}

/* Runs the method until the system's true residual reaches target (absolute) or the iterations run
 * out; *best is the smallest true residual seen. */
static int solve_system(qf_krylov *k, qf_field *x, const qf_field *b, qf_field *r, double target, double *best)
{
    double iterated_target = target, norm = 0.0;
    int runs = 0;
    qf_field *start = NULL; /* the solution each run starts from */
    qf_chain_begin();
    int rc = qf_krylov_field_hi(k, &start) || residual(k, k->A, r, x, b, &norm);
    rc = qf_chain_end() || rc;
    *best = norm;
    while (!rc && norm > target) {
        if (k->iterations >= k->p->max_iter || k->stalled) { /* stalled: only under accept_max_iter */
            if (k->p->accept_max_iter) break;
            rc = qf_fail("%s did not converge in %d iterations: the best true residual reached is %.3e of the "
                         "requested %.3e (relative); raise max_iter, loosen the tolerance or %s",
                         qf_solver_name(k->p->kind), k->iterations, *best / (target / k->p->tol), k->p->tol,
                         k->p->kind == QF_SOLVER_MG       ? "strengthen the multigrid setup (more setup iterations "
                                                            "or near-null vectors, another level)"
                         : k->p->kind == QF_SOLVER_BICGSTAB ? "use GCR"
                                                            : "use BiCGStab");
            break;
        }
        if (runs++ > 0) k->updates++; /* a restart from the corrected solution */
        /* the run starts from this residual (x is start again after a breakdown's retry) */
        k->start_residual = r;
        k->start_norm = norm;
        rc = run_method(k, x, b, iterated_target, start);
        k->start_residual = NULL;
        rc = rc || residual(k, k->A, r, x, b, &norm);
        if (!rc && norm < *best) *best = norm;
        /* the iterated residual has drifted from the true one: restart with a target tightened by the gap */
        if (!rc && norm > target) iterated_target *= fmax(0.5 * target / norm, 1e-3);
    }
    qf_krylov_release(k, start);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* GCR's preconditioner: the caller's, or gcr_inner_mr MR steps on the iterations' system (*own: made
 * here, to destroy after the solve). */
static int preconditioner(qf_krylov *k, qf_precond **own)
{
    *own = NULL;
    const qf_solver_params *p = k->p;
    if (p->kind == QF_SOLVER_MG) {
        /* the K-cycle's image is of its finest operator (or of that one's Schur complement), which is
         * the iterations' where the hierarchy was built for this operator */
        qf_linop *finest = qf_mg_level_op(p->mg, 0), *finest_schur = NULL;
        if (k->parity == 0) {
            k->K = qf_mg_precond_schur(p->mg);
            k->K_image = !qf_linop_schur(finest, &finest_schur) && finest_schur == k->As;
        } else {
            k->K = qf_mg_precond(p->mg);
            k->K_image = qf_precond_has_image(k->K) && finest == k->As;
        }
        return QF_SUCCESS;
    }
    if (p->kind != QF_SOLVER_GCR) return QF_SUCCESS;
    if (p->precond) {
        k->K = p->precond;
        return QF_SUCCESS;
    }
    if (p->gcr_sap_cycles > 0) {
        if (qf_precond_sap(own, k->As, p->gcr_sap_block, p->gcr_sap_cycles, p->gcr_sap_mr)) return QF_ERROR;
    } else if (p->gcr_inner_mr > 0) {
        if (qf_precond_mr(own, k->As, p->gcr_inner_mr)) return QF_ERROR;
        k->K_image = 1; /* MR steps on As itself */
    }
    k->K = *own;
    return QF_SUCCESS;
}

int qf_solve(qf_linop *A, qf_field *x, const qf_field *b, const qf_solver_params *p, qf_solver_result *res)
{
    memset(res, 0, sizeof *res);
    if (!A) return qf_fail("qf_solve: no operator");
    if (check_params(p, qf_linop_get_domain(A)->prec)) return QF_ERROR;
    qf_solver_params cadenced = *p; /* the method's cadence and delta in place of 0, for every reader below */
    cadenced.check_every = qf_solver_check_every(p);
    cadenced.delta = qf_solver_delta(p);
    p = &cadenced;
    if (x == b) return qf_fail("qf_solve: the solution and the source are the same field; pass a separate solution field");
    /* the system: A's Schur complement on the even sites, or A itself on its own sites */
    qf_linop *sys = A;
    /* multigrid iterates in the hierarchy's precision, on the Schur system where its K-cycle has a form
     * for it (qf_mg_precond_schur), else on the full system */
    int even_odd = p->even_odd && (p->kind != QF_SOLVER_MG || qf_mg_precond_schur(p->mg));
    qf_precision sloppy = p->kind == QF_SOLVER_MG ? qf_linop_get_domain(qf_mg_level_op(p->mg, 0))->prec : p->sloppy;
    if (even_odd && qf_linop_schur(A, &sys)) return QF_ERROR;
    if (p->kind == QF_SOLVER_CG && !qf_linop_is_hermitian(sys))
        return qf_fail("CG needs a hermitian positive-definite system, and %s is not one: use cgnr (CG on the normal "
                       "equations), bicgstab or gcr",
                       qf_linop_name(sys));
    qf_krylov k = {.A = sys, .p = p, .parity = qf_linop_get_domain(sys)->parity};
    double t0 = qf_wtime();
    qf_precision prec = qf_linop_get_domain(A)->prec;
    qf_precond *own_precond = NULL;
    /* the iterations run in the sloppy precision where it is the lower (qf_precision counts down) */
    if (qf_linop_in_precision(sys, sloppy > prec ? sloppy : prec, &k.As) ||
        preconditioner(&k, &own_precond))
        return QF_ERROR;

    /* a multigrid solve's outer iterations run where its finest level is placed */
    qf_task_scope *outer = qf_task_scope_enter(p->kind == QF_SOLVER_MG ? qf_mg_level_scope(p->mg, 0) : qf_task_scope_current());
    int parity = qf_linop_get_domain(A)->parity;
    qf_field *r = NULL, *bs = NULL, *xs = NULL;
    double bnorm = 0.0, best = 0.0;
    qf_chain_begin(); /* the set-up's tasks in a chain up to the norm's read (one task on one GPU) */
    int rc = qf_krylov_field_hi(&k, &r) || qf_krylov_norm(b, parity, &bnorm);
    rc = qf_chain_end() || rc;
    k.bnorm = bnorm;
    if (!rc && bnorm == 0.0) { /* M x = 0: x = 0 */
        rc = qf_blas_axpby(0.0, NULL, 0.0, x, parity);
        res->converged = 1;
    } else if (!rc) {
        double target = p->tol * bnorm;
        if (even_odd) { /* Ahat x_e = bhat_e, from the even sites of x */
            qf_chain_begin(); /* the system's source and start */
            rc = qf_krylov_field_hi(&k, &bs) || qf_krylov_field_hi(&k, &xs) || qf_linop_prepare(A, bs, b) ||
                 qf_blas_copy(xs, x, 0);
            rc = qf_chain_end() || rc || solve_system(&k, xs, bs, r, target, &best) || qf_linop_reconstruct(A, x, xs, b);
        } else {
            rc = solve_system(&k, x, b, r, target, &best);
        }
        /* the true residual of the full system, as reported; with the symmetric Schur form the system's
         * residual is A_ee^-1 times the even part of the full one, hence the margin */
        double rn = 0.0;
        if (!rc) rc = residual(&k, A, r, x, b, &rn);
        res->residual = (rc ? best : rn) / bnorm;
        res->converged = !rc && res->residual <= 1.5 * p->tol;
        if (!rc && !res->converged && !p->accept_max_iter)
            rc = qf_fail("%s: the true residual |b - M x| / |b| = %.3e misses the tolerance %.3e after %d iterations "
                         "(precision of the operator: %s); loosen the tolerance or solve in double precision",
                         qf_solver_name(p->kind), res->residual, p->tol, k.iterations, qf_precision_name(prec));
    }
    qf_task_scope_leave(outer);
    res->iterations = k.iterations;
    res->updates = k.updates;
    res->seconds = qf_wtime() - t0;
    res->flops = k.flops;
    qf_krylov_release(&k, r);
    qf_krylov_release(&k, bs);
    qf_krylov_release(&k, xs);
    qf_precond_destroy(own_precond);
    return rc ? QF_ERROR : QF_SUCCESS;
}
