/* Minimal residual iteration on A x = b: x += a r, r -= a A r with a = <A r, r> / |A r|^2, the step
 * that minimises the new residual along r. It converges when the hermitian part of A is definite
 * (as for Wilson-clover at small enough kappa) and is the cheap smoother that GCR's preconditioner
 * uses (qf_precond_mr). */
#include "krylov.h"

#include <stdlib.h>

enum { NUM, QQ, RR, NS }; /* the step's scalars */

/* One MR step on the pair (x, r) of A's sites with the temporary q, a step of the caller's sequence:
 * q = A r, <q, r> and |q|^2 in one pass, then x += a r and r -= a q with a = <q, r> / |q|^2 worked
 * out in the same pass that sums rr = |r|^2; *flops grows by A's. */
static void mr_step(qf_linop *A, qf_field *x, qf_field *r, qf_field *q, qf_scalar *c[NS], double *flops)
{
    int parity = qf_linop_get_domain(A)->parity;
    *flops += qf_linop_flops(A, 0);
    qf_chain_begin(); /* the step as one task where it can be (qf_blas.h) */
    qf_linop_apply(A, q, r);
    qf_blas_dot_norm2(c[NUM], c[QQ], q, r, parity);
    qf_blas_cg_update_ratio(x, r, c[NUM], c[QQ], r, q, c[RR], parity);
    qf_chain_end();
}

static void scalars_destroy(qf_scalar *c[NS])
{
    for (int i = 0; i < NS; i++)
        if (c[i]) qf_scalar_destroy(c[i]);
}

/* ---- the preconditioner: z = n MR steps on A z = r from z = 0 ---- */

typedef struct {
    qf_linop *A;
    int steps;
    qf_field *t[2]; /* the steps' residual e and q = A e, from A's pool at the first application */
} mr_precond;

/* z = the steps from zero; with az, also A z = r - e from the steps' residual e (no application of A,
 * the rounding of the iterated residual aside) */
static int mr_precond_run(mr_precond *m, qf_field *z, qf_field *az, const qf_field *r, double *flops)
{
    int parity = qf_linop_get_domain(m->A)->parity;
    qf_scalar *c[NS] = {0};
    qf_sequence_begin();
    /* the operator's tasks also read the parity it leaves alone: it must hold numbers */
    for (int k = 0; k < 2; k++)
        if (!m->t[k] && !qf_linop_field_take(m->A, &m->t[k])) qf_blas_axpby(0.0, NULL, 0.0, m->t[k], -1);
    for (int i = 0; i < NS; i++) qf_scalar_create(&c[i]);
    qf_blas_axpby(0.0, NULL, 0.0, z, parity);
    qf_blas_copy(m->t[0], r, parity);
    for (int i = 0; i < m->steps && !qf_sequence_failed(); i++) mr_step(m->A, z, m->t[0], m->t[1], c, flops);
    if (az) {
        qf_blas_axpbypcw(1.0, r, 0.0, az, -1.0, m->t[0], parity);
    }
    scalars_destroy(c);
    return qf_sequence_end();
}

static int mr_precond_apply(void *ctx, qf_field *z, const qf_field *r, double *flops)
{
    return mr_precond_run(ctx, z, NULL, r, flops);
}

static int mr_precond_apply_image(void *ctx, qf_field *z, qf_field *az, const qf_field *r, double *flops)
{
    return mr_precond_run(ctx, z, az, r, flops);
}

static void mr_precond_destroy(void *ctx)
{
    mr_precond *m = ctx;
    for (int k = 0; k < 2; k++) qf_linop_field_give_back(m->A, m->t[k]);
    free(m);
}

static const qf_precond_ops mr_precond_ops = {
    .name = "MR", .apply = mr_precond_apply, .apply_image = mr_precond_apply_image, .destroy = mr_precond_destroy};

int qf_precond_mr(qf_precond **K, qf_linop *A, int steps)
{
    *K = NULL;
    if (!A || steps < 1) return qf_fail("an MR preconditioner needs an operator and at least one step (%d given)", steps);
    mr_precond *m = malloc(sizeof *m);
    if (!m) return qf_fail("out of host memory creating an MR preconditioner");
    *m = (mr_precond){.A = A, .steps = steps};
    if (qf_precond_create(K, &mr_precond_ops, m)) {
        free(m);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* ---- the solver ---- */

int qf_mr(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    qf_field *r = NULL, *q = NULL;
    qf_scalar *c[NS] = {0};
    qf_reliable rel = {0};
    double norm = 0.0;
    qf_sequence_begin();
    qf_chain_begin(); /* the set-up in one chain (one task on one GPU), up to the residual's read */
    qf_krylov_field(k, &r);
    qf_krylov_field(k, &q);
    for (int i = 0; i < NS; i++) qf_scalar_create(&c[i]);
    qf_reliable_start(&rel, k, x, b, QF_RESIDUAL_SYSTEM, r, NULL, &norm);
    qf_chain_end();
    while (!qf_sequence_failed() && norm > target && k->iterations < k->p->max_iter) {
        mr_step(k->As, rel.xs, r, q, c, &k->flops);
        qf_krylov_next_iteration(k);
        if (!qf_krylov_check_due(k)) continue;
        qf_krylov_check(k, c[RR], "MR", &norm);
        if (!qf_sequence_failed() && norm > target && qf_reliable_due(&rel, norm)) qf_reliable_update(&rel, r, NULL, &norm);
    }
    int rc = qf_sequence_end();
    rc = qf_reliable_finish(&rel, rc) || rc;
    scalars_destroy(c);
    qf_krylov_release(k, r);
    qf_krylov_release(k, q);
    return rc ? QF_ERROR : QF_SUCCESS;
}
