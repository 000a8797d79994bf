/* Conjugate gradients on the normal equations A^dagger A x = A^dagger b (CGNR). Every step is a task
 * graph; the coefficients alpha = |r|^2 / <p, A^dagger A p> and beta = |r_new|^2 / |r|^2 are scalar
 * tasks, so the host waits only at the residual checks. */
#include "krylov.h"

#include <stdlib.h>

int qf_cgnr(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    enum { C, R, P, Q, NF };
    qf_field *f[NF] = {0};
    qf_scalar *rr = NULL, *rr_new = NULL, *pq = NULL, *alpha = NULL, *beta = NULL;
    int rc = QF_SUCCESS, parity = k->parity;
    for (int i = 0; i < NF && !rc; i++) rc = qf_krylov_field(k, &f[i]);
    rc = rc || qf_scalar_create(&rr) || qf_scalar_create(&rr_new) || qf_scalar_create(&pq) ||
         qf_scalar_create(&alpha) || qf_scalar_create(&beta);
    /* c = A^dagger b, r = c - A^dagger A x, p = r */
    rc = rc || qf_krylov_apply(k, k->op_dag, f[C], b) || qf_krylov_apply(k, k->op_normal, f[Q], x) ||
         qf_blas_copy(f[R], f[C], parity) || qf_blas_axpby(-1.0, f[Q], 1.0, f[R], parity) ||
         qf_blas_copy(f[P], f[R], parity) || qf_blas_norm2(rr, f[R], parity);
    double norm = 0.0;
    rc = rc || qf_krylov_check(k, rr, "CGNR", &norm);
    while (!rc && norm > target && k->iterations < k->p->max_iter) {
        rc = qf_krylov_apply(k, k->op_normal, f[Q], f[P]) || qf_blas_dot(pq, f[P], f[Q], parity) ||
             qf_scalar_div(alpha, rr, pq) || qf_blas_cg_update(x, f[R], alpha, f[P], f[Q], rr_new, parity) ||
             qf_scalar_div(beta, rr_new, rr) || qf_blas_cxpay(f[R], beta, 1.0, f[P], parity);
        qf_scalar *t = rr;
        rr = rr_new;
        rr_new = t;
        k->iterations++;
        if (!rc && (k->iterations % k->p->check_every == 0 || k->iterations == k->p->max_iter))
            rc = qf_krylov_check(k, rr, "CGNR", &norm);
    }
    qf_scalar *s[] = {rr, rr_new, pq, alpha, beta};
    for (int i = 0; i < 5; i++)
        if (s[i]) qf_scalar_destroy(s[i]);
    for (int i = 0; i < NF; i++)
        if (f[i]) qf_field_destroy(f[i]);
    return rc ? QF_ERROR : QF_SUCCESS;
}
