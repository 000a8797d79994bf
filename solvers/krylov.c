/* The pieces every Krylov method uses: temporaries in either precision, operator applications that
 * count flops, the host's residual checks, and reliable updates (the high-precision corrections of
 * mixed-precision iterations, after the QUDA papers). */
#include "krylov.h"
#include "quarkflow/qf_runtime.h"

#include <math.h>
#include <stdio.h>

static int zero_field(qf_linop *A, qf_field **f)
{
    *f = NULL;
    if (qf_linop_field_take(A, f)) return QF_ERROR;
    /* a Krylov vector must not carry garbage on the parity the system does not use */
    return qf_blas_axpby(0.0, NULL, 0.0, *f, -1);
}

int qf_krylov_norm(const qf_field *f, int parity, double *norm)
{
    qf_scalar *s;
    qf_chain_begin(); /* with the tasks before it, where the caller's chain is open */
    if (qf_scalar_create(&s)) {
        qf_chain_end();
        return QF_ERROR;
    }
    double re = 0.0, im;
    int rc = qf_blas_norm2(s, f, parity) || qf_scalar_get(s, &re, &im); /* the read inside: the chain's last part */
    rc = qf_chain_end() || rc;
    qf_scalar_destroy(s);
    *norm = sqrt(re);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_krylov_field(const qf_krylov *k, qf_field **f) { return zero_field(k->As, f); }
int qf_krylov_field_hi(const qf_krylov *k, qf_field **f) { return zero_field(k->A, f); }

/* The system in f's precision */
static qf_linop *system_of(const qf_krylov *k, const qf_field *f)
{
    return qf_field_precision(f) == qf_linop_get_domain(k->A)->prec ? k->A : k->As;
}

void qf_krylov_release(const qf_krylov *k, qf_field *f)
{
    if (f) qf_linop_field_give_back(system_of(k, f), f);
}

int qf_krylov_apply(qf_krylov *k, int dagger, qf_field *out, const qf_field *in)
{
    qf_linop *A = system_of(k, out);
    k->flops += qf_linop_flops(A, dagger);
    return dagger ? qf_linop_apply_dagger(A, out, in) : qf_linop_apply(A, out, in);
}

/* Multigrid's stall watch (QF_MG_STALL_KCYCLES) on the residual norm just read. */
static int stall_check(qf_krylov *k, double norm)
{
    if (k->stall_mark == 0.0 || norm < 0.5 * k->stall_mark) {
        k->stall_mark = norm;
        k->stall_since = k->iterations;
    } else if (k->iterations - k->stall_since >= QF_MG_STALL_KCYCLES) {
        k->stalled = 1;
        if (k->p->accept_max_iter) return QF_SUCCESS;
        return qf_fail("multigrid stalled at %.3e of |b|: the residual has not halved in the %d K-cycles since "
                       "iteration %d, so the coarse levels miss some of the operator's lowest modes; rebuild the "
                       "hierarchy with more setup iterations or near-null vectors, or another level (--mg-setup-iter, "
                       "--mg-setup-krylov, --mg-nvec, --mg-levels; qf_mg_params)",
                       k->bnorm > 0.0 ? norm / k->bnorm : norm, k->iterations - k->stall_since, k->stall_since);
    }
    return QF_SUCCESS;
}

int qf_krylov_check(qf_krylov *k, const qf_scalar *rr, const char *solver, double *norm)
{
    double re, im;
    /* read before the run's chain ends, so that on a GPU the value's copy to the host is its last kernel */
    int rc = qf_scalar_get(rr, &re, &im);
    if (qf_krylov_end_run(k) || rc) return QF_ERROR;
    if (!isfinite(re) || re < 0.0) {
        k->breakdown = 1;
        return qf_fail("%s broke down after %d iterations: the iterated residual norm^2 is %g (a vanishing "
                       "denominator, or NaN or Inf in the fields); check the operator's parameters, or try another "
                       "solver",
                       solver, k->iterations, re);
    }
    *norm = sqrt(re);
    if (k->p->verbose && qf_runtime_rank() == 0) {
        /* the norm itself says little where |b| is large (a random source: about the square root of the
         * field's size); its ratio to |b| is what the tolerance bounds */
        if (k->bnorm > 0.0)
            printf("  %-9s iteration %5d   iterated residual %.3e, %.3e of |b|\n", solver, k->iterations, *norm,
                   *norm / k->bnorm);
        else
            printf("  %-9s iteration %5d   iterated residual %.3e\n", solver, k->iterations, *norm);
        fflush(stdout);
    }
    return k->p->kind == QF_SOLVER_MG ? stall_check(k, *norm) : QF_SUCCESS;
}

void qf_krylov_next_iteration(qf_krylov *k)
{
    k->iterations++;
    char what[64];
    snprintf(what, sizeof what, "%s iteration %d", qf_solver_name(k->p->kind), k->iterations);
    qf_runtime_trace_event(what);
    /* the first iteration after a check is a chain of its own, so that the GPU has work while the host
     * records the rest (bench/RESULTS.md, "Chains across iterations") */
    int every = k->p->check_every;
    if (!k->run_chained && every > 2 && k->iterations % every == 1 && !qf_krylov_check_due(k)) {
        qf_chain_begin();
        k->run_chained = 1;
    }
}

int qf_krylov_end_run(qf_krylov *k)
{
    if (!k->run_chained) return QF_SUCCESS;
    k->run_chained = 0;
    return qf_chain_end();
}

int qf_krylov_check_due(const qf_krylov *k)
{
    return k->iterations % k->p->check_every == 0 || k->iterations >= k->p->max_iter;
}

static int mixed(const qf_reliable *rel) { return rel->xs != rel->x; }

/* rs = the residual of x (in x's precision, then rounded to rs's), *norm = |rs|, and |rs|^2 in rs_norm2
 * unless it is NULL; from the system's residual known where it is given (and its norm, where that is
 * the residual's form, so that nothing is read). */
static int residual(qf_reliable *rel, const qf_field *known, double known_norm, qf_field *rs, qf_scalar *rs_norm2,
                    double *norm)
{
    qf_krylov *k = rel->k;
    int parity = k->parity, normal = rel->form == QF_RESIDUAL_NORMAL, read = !known || normal;
    const qf_field *ax = known, *r;
    qf_scalar *rr = rs_norm2, *own = NULL;
    double re = known_norm * known_norm, im;
    qf_chain_begin(); /* one task on one GPU (qf_blas.h) */
    int rc = !rr && read && qf_scalar_create(&own) ? QF_ERROR : QF_SUCCESS;
    if (own) rr = own;
    if (!known) {
        ax = rel->hi[0];
        rc = rc || qf_krylov_apply(k, 0, rel->hi[0], rel->x) || qf_blas_axpby(1.0, rel->b, -1.0, rel->hi[0], parity);
    }
    r = ax;
    if (normal) {
        rc = rc || qf_krylov_apply(k, 1, rel->hi[1], ax);
        r = rel->hi[1];
    }
    rc = rc || (mixed(rel) ? qf_field_convert_parity(rs, r, parity) : qf_blas_copy(rs, r, parity)) ||
         (rr && (qf_blas_norm2(rr, rs, parity) || (read && qf_scalar_get(rr, &re, &im))));
    rc = qf_chain_end() || rc;
    if (own) qf_scalar_destroy(own);
    if (!rc && !isfinite(re)) {
        k->breakdown = 1;
        rc = qf_fail("%s: the residual of the solution after %d iterations is NaN or Inf: the iterations diverged or "
                     "broke down; check the operator's parameters, or try another solver",
                     qf_solver_name(k->p->kind), k->iterations);
    }
    rel->rmax = *norm = sqrt(re);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_reliable_start(qf_reliable *rel, qf_krylov *k, qf_field *x, const qf_field *b, qf_residual_form form,
                      qf_field *rs, qf_scalar *rs_norm2, double *norm)
{
    *rel = (qf_reliable){.k = k, .x = x, .b = b, .form = form, .xs = x};
    qf_chain_begin(); /* the temporaries with the residual: one task on one GPU */
    int rc = qf_krylov_field_hi(k, &rel->hi[0]) || qf_krylov_field_hi(k, &rel->hi[1]);
    if (!rc && qf_field_precision(rs) != qf_field_precision(x)) rc = qf_krylov_field(k, &rel->xs);
    rc = rc || residual(rel, k->start_residual, k->start_norm, rs, rs_norm2, norm);
    return qf_chain_end() || rc ? QF_ERROR : QF_SUCCESS;
}

int qf_reliable_due(qf_reliable *rel, double norm)
{
    if (norm > rel->rmax) rel->rmax = norm;
    return mixed(rel) && norm < rel->k->p->delta * rel->rmax;
}

/* x += xs, xs = 0 */
static int fold(qf_reliable *rel)
{
    int parity = rel->k->parity;
    qf_chain_begin(); /* one task on one GPU (qf_blas.h) */
    int rc = qf_field_convert_parity(rel->hi[0], rel->xs, parity) || qf_blas_axpby(1.0, rel->hi[0], 1.0, rel->x, parity) ||
             qf_blas_axpby(0.0, NULL, 0.0, rel->xs, parity);
    return qf_chain_end() || rc ? QF_ERROR : QF_SUCCESS;
}

int qf_reliable_update(qf_reliable *rel, qf_field *rs, qf_scalar *rs_norm2, double *norm)
{
    rel->k->updates++;
    qf_chain_begin(); /* the fold and the residual: one task on one GPU */
    int rc = (mixed(rel) && fold(rel)) || residual(rel, NULL, 0.0, rs, rs_norm2, norm);
    return qf_chain_end() || rc ? QF_ERROR : QF_SUCCESS;
}

int qf_reliable_finish(qf_reliable *rel, int failed)
{
    int rc = !failed && mixed(rel) && rel->xs && fold(rel);
    if (mixed(rel)) qf_krylov_release(rel->k, rel->xs);
    for (int i = 0; i < 2; i++) qf_krylov_release(rel->k, rel->hi[i]);
    *rel = (qf_reliable){0};
    return rc ? QF_ERROR : QF_SUCCESS;
}
