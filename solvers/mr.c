/* Minimal residual iteration on A x = b: x += a r, r -= a A r with a = <A r, r> / |A r|^2, the step
 * that minimises the new residual along r. It converges when the hermitian part of A is definite
 * (as for Wilson-clover at small enough kappa) and is the cheap smoother that GCR's preconditioner
 * uses (qf_mr_steps). */
#include "krylov.h"

/* One MR step on the pair (x, r) with the temporary q: q = A r, num = <q, r>, qq = |q|^2, then
 * x += a r and r -= a q in one pass with rr = |r|^2. */
static int mr_step(qf_krylov *k, qf_field *x, qf_field *r, qf_field *q, qf_scalar *c[4])
{
    int parity = k->parity;
    return qf_krylov_apply(k, k->op, q, r) || qf_blas_dot(c[0], q, r, parity) || qf_blas_norm2(c[1], q, parity) ||
                   qf_scalar_div(c[2], c[0], c[1]) || qf_blas_cg_update(x, r, c[2], r, q, c[3], parity)
               ? QF_ERROR
               : QF_SUCCESS;
}

static int scalars(qf_scalar *c[4], int create)
{
    int rc = QF_SUCCESS;
    for (int i = 0; i < 4; i++) {
        if (create) rc = rc || qf_scalar_create(&c[i]);
        else if (c[i]) qf_scalar_destroy(c[i]);
    }
    return rc;
}

int qf_mr_steps(qf_krylov *k, qf_field *z, const qf_field *r, qf_field *e, qf_field *q, int n)
{
    qf_scalar *c[4] = {0};
    int rc = scalars(c, 1) || qf_blas_axpby(0.0, NULL, 0.0, z, k->parity) || qf_blas_copy(e, r, k->parity);
    for (int i = 0; i < n && !rc; i++) rc = mr_step(k, z, e, q, c);
    scalars(c, 0);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_mr(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    qf_field *r = NULL, *q = NULL;
    qf_scalar *c[4] = {0};
    qf_reliable rel = {0};
    double norm = 0.0;
    int rc = qf_krylov_field(k, &r) || qf_krylov_field(k, &q) || scalars(c, 1) ||
             qf_reliable_start(&rel, k, x, b, QF_RESIDUAL_SYSTEM, r, &norm);
    while (!rc && norm > target && k->iterations < k->p->max_iter) {
        rc = mr_step(k, rel.xs, r, q, c);
        qf_krylov_next_iteration(k);
        if (rc || !qf_krylov_check_due(k)) continue;
        rc = qf_krylov_check(k, c[3], "MR", &norm);
        if (!rc && norm > target && qf_reliable_due(&rel, norm)) rc = qf_reliable_update(&rel, r, &norm);
    }
    rc = qf_reliable_finish(&rel, rc) || rc;
    scalars(c, 0);
    qf_krylov_release(k, r);
    qf_krylov_release(k, q);
    return rc ? QF_ERROR : QF_SUCCESS;
}
