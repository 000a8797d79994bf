/* Conjugate gradients on the normal equations, in the two forms of Saad's book:
 *   CGNR  A^dagger A x = A^dagger b: the residual A^dagger (b - A x), the step along p;
 *   CGNE  A A^dagger y = b, x = A^dagger y: the residual b - A x itself, the step along A^dagger p.
 * Both need u = A p (CGNR) or u = A^dagger p (CGNE) and q = the other factor applied to u, with
 * <p, q> = |u|^2. Every step is a task graph; alpha = |r|^2 / |u|^2 and beta = |r_new|^2 / |r|^2
 * are scalar tasks, so the host waits only at the residual checks, where mixed-precision solves
 * also make their reliable updates. */
#include "krylov.h"

static int cg(qf_krylov *k, qf_field *x, const qf_field *b, double target, qf_residual_form form)
{
    const char *name = qf_solver_name(k->p->kind);
    enum { R, P, U, Q, NF };
    qf_field *f[NF] = {0};
    qf_scalar *rr = NULL, *rr_new = NULL, *uu = NULL, *alpha = NULL, *beta = NULL;
    qf_reliable rel = {0};
    int rc = QF_SUCCESS, parity = k->parity;
    for (int i = 0; i < NF && !rc; i++) rc = qf_krylov_field(k, &f[i]);
    rc = rc || qf_scalar_create(&rr) || qf_scalar_create(&rr_new) || qf_scalar_create(&uu) ||
         qf_scalar_create(&alpha) || qf_scalar_create(&beta);
    double norm = 0.0;
    rc = rc || qf_reliable_start(&rel, k, x, b, form, f[R], &norm) || qf_blas_copy(f[P], f[R], parity) ||
         qf_blas_norm2(rr, f[R], parity);
    int first_dagger = form == QF_RESIDUAL_NORMAL ? 0 : 1;
    qf_field *step = form == QF_RESIDUAL_NORMAL ? f[P] : f[U];
    while (!rc && norm > target && k->iterations < k->p->max_iter) {
        rc = qf_krylov_apply(k, first_dagger, f[U], f[P]) || qf_krylov_apply(k, !first_dagger, f[Q], f[U]) ||
             qf_blas_norm2(uu, f[U], parity) || qf_scalar_div(alpha, rr, uu) ||
             qf_blas_cg_update(rel.xs, f[R], alpha, step, f[Q], rr_new, parity) || qf_scalar_div(beta, rr_new, rr) ||
             qf_blas_cxpay(f[R], beta, 1.0, f[P], parity);
        qf_scalar *t = rr;
        rr = rr_new;
        rr_new = t;
        qf_krylov_next_iteration(k);
        if (rc || !qf_krylov_check_due(k)) continue;
        rc = qf_krylov_check(k, rr, name, &norm);
        /* the recomputed residual replaces the iterated one; p keeps its direction */
        if (!rc && norm > target && qf_reliable_due(&rel, norm))
            rc = qf_reliable_update(&rel, f[R], &norm) || qf_blas_norm2(rr, f[R], parity);
    }
    rc = qf_reliable_finish(&rel, rc) || rc;
    qf_scalar *s[] = {rr, rr_new, uu, alpha, beta};
    for (int i = 0; i < 5; i++)
        if (s[i]) qf_scalar_destroy(s[i]);
    for (int i = 0; i < NF; i++) qf_krylov_release(k, f[i]);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cgnr(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    return cg(k, x, b, target, QF_RESIDUAL_NORMAL);
}

int qf_cgne(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    return cg(k, x, b, target, QF_RESIDUAL_SYSTEM);
}
