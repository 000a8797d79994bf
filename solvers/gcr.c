/* Restarted, flexible GCR with the implicit solution update, as Algorithm 1 of the GCR-DD paper:
 * the search directions p_j = K r (K: the solve's preconditioner, or the identity) and z_j = A p_j
 * (from K itself where it knows A p_j from its own residual: MR steps, the multigrid K-cycle)
 * orthogonalised against the earlier z_i (beta_ij = <z_i, z_j> / |z_i|^2), the residual r -= alpha_j
 * z_j with alpha_j = <z_j, r> / |z_j|^2 (|z_j|^2 and <z_j, r> in one pass), all as tasks in the
 * iterations' precision. The orthogonalisation is classical Gram-Schmidt within blocks of
 * QF_BLAS_MULTI_FIELDS (one multi task's) earlier directions and modified across them, as QUDA's
 * pipelined GCR: one multi_dot and one multi_caxpy a block, each a single pass over z_j, where
 * modified Gram-Schmidt made two tasks and passes a direction. The space keeps the inner products,
 * not the ratios: each update divides in its own task (qf_blas_multi_caxpy, qf_blas_caxpy_ratio). At
 * a restart (gcr_nkrylov directions, or the residual fallen by delta in mixed precision, or the target
 * reached) a task solves the triangular system chi_i + sum_{l > i} beta_il chi_l = alpha_i, dividing row i by
 * |z_i|^2 as it goes (qf_scalar_trisolve's divisors), sum chi_l p_l is added to the solution and the
 * residual recomputed in the solve's precision. The steps form one sequence (qf_defs.h): the first
 * that fails stops the rest. */
#include "krylov.h"

#include <stdlib.h>

typedef struct {
    int n;                   /* directions kept */
    qf_field **p, **z;       /* n each */
    qf_scalar **beta;        /* n x n, <z_i, z_l> at beta[i * n + l] for i < l (beta_il times |z_i|^2) */
    qf_scalar **zz, **alpha; /* n each: |z_j|^2, and <z_j, r> (alpha_j |z_j|^2; chi_j after the update) */
    qf_scalar *status;       /* of the back substitution */
} gcr_space;

static void space_free(const qf_krylov *k, gcr_space *s)
{
    for (int i = 0; i < s->n; i++) {
        if (s->p) qf_krylov_release(k, s->p[i]);
        if (s->z) qf_krylov_release(k, s->z[i]);
        if (s->zz && s->zz[i]) qf_scalar_destroy(s->zz[i]);
        if (s->alpha && s->alpha[i]) qf_scalar_destroy(s->alpha[i]);
        for (int l = 0; s->beta && l < s->n; l++)
            if (s->beta[i * s->n + l]) qf_scalar_destroy(s->beta[i * s->n + l]);
    }
    if (s->status) qf_scalar_destroy(s->status);
    free(s->p);
    free(s->z);
    free(s->beta);
    free(s->zz);
    free(s->alpha);
}

/* The space's arrays; the fields and scalars of direction j come with its first use (space_direction),
 * so that a solve that needs few directions (a coarse multigrid solve with 64 allowed) creates few. */
static int space_create(qf_krylov *k, gcr_space *s)
{
    int n = s->n = k->p->gcr_nkrylov;
    s->p = calloc(n, sizeof *s->p);
    s->z = calloc(n, sizeof *s->z);
    s->beta = calloc((size_t)n * n, sizeof *s->beta);
    s->zz = calloc(n, sizeof *s->zz);
    s->alpha = calloc(n, sizeof *s->alpha);
    if (!s->p || !s->z || !s->beta || !s->zz || !s->alpha)
        return qf_fail("GCR: out of host memory for %d search directions", n);
    return qf_scalar_create(&s->status);
}

static int space_direction(qf_krylov *k, gcr_space *s, int j)
{
    if (s->p[j]) return QF_SUCCESS;
    int n = s->n, rc = qf_krylov_field(k, &s->p[j]) || qf_krylov_field(k, &s->z[j]) || qf_scalar_create(&s->zz[j]) ||
                       qf_scalar_create(&s->alpha[j]);
    for (int i = 0; i < j && !rc; i++) rc = qf_scalar_create(&s->beta[i * n + j]);
    return rc;
}

/* Direction j: p_j = K r, z_j = A p_j orthogonalised, r -= alpha_j z_j (steps of the solve's
 * sequence). */
static void direction(qf_krylov *k, gcr_space *s, int j, qf_field *r)
{
    int parity = k->parity, n = s->n;
    if (space_direction(k, s, j)) return;
    qf_chain_begin(); /* the direction as few tasks as can be (qf_blas.h) */
    if (k->K && k->K_image) { /* z_j = A p_j from the preconditioner's own residual */
        qf_precond_apply_image(k->K, s->p[j], s->z[j], r, &k->flops);
    } else {
        if (k->K) qf_precond_apply(k->K, s->p[j], r, &k->flops);
        else qf_blas_copy(s->p[j], r, parity);
        qf_krylov_apply(k, 0, s->z[j], s->p[j]);
    }
    /* z_j -= sum_i (<z_i, z_j> / |z_i|^2) z_i, a block of z_i at a time */
    qf_scalar *col[QF_BLAS_MULTI_FIELDS];
    for (int i0 = 0; i0 < j; i0 += QF_BLAS_MULTI_FIELDS) {
        int m = j - i0 < QF_BLAS_MULTI_FIELDS ? j - i0 : QF_BLAS_MULTI_FIELDS;
        for (int i = 0; i < m; i++) col[i] = s->beta[(i0 + i) * n + j];
        qf_blas_multi_dot(col, (const qf_field *const *)s->z + i0, m, s->z[j], parity);
        qf_blas_multi_caxpy((const qf_scalar *const *)col, (const qf_scalar *const *)s->zz + i0, -1.0,
                            (const qf_field *const *)s->z + i0, m, s->z[j], parity);
    }
    /* r -= (<z_j, r> / |z_j|^2) z_j */
    qf_blas_dot_norm2(s->alpha[j], s->zz[j], s->z[j], r, parity);
    qf_blas_caxpy_ratio(s->alpha[j], s->zz[j], -1.0, s->z[j], r, parity);
    qf_chain_end();
}

/* xs += sum_{l < m} chi_l p_l (one pass over xs for every 8 p_l), chi from back substitution as one
 * task (in place of alpha); the host reads only its status, once the restart's residual has been
 * waited for anyway. */
static void implicit_update(gcr_space *s, int m, qf_field *xs, int parity)
{
    qf_scalar_trisolve(m, s->alpha, s->beta, s->n, s->zz, s->status);
    qf_blas_multi_caxpy((const qf_scalar *const *)s->alpha, NULL, 1.0, (const qf_field *const *)s->p, m, xs, parity);
}

static void check_update(qf_krylov *k, const gcr_space *s)
{
    double bad;
    if (qf_scalar_get(s->status, &bad, NULL)) return;
    k->breakdown = bad != 0.0;
    if (bad != 0.0)
        qf_fail("GCR broke down: a search direction vanished (|A p| = 0) or NaN or Inf entered the fields; "
                "check the operator's parameters, or try another solver");
}

int qf_gcr(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    gcr_space s = {0};
    qf_field *r = NULL;
    qf_scalar *rr = NULL;
    qf_reliable rel = {0};
    double norm = 0.0;
    qf_sequence_begin();
    qf_chain_begin(); /* the set-up in one chain (one task on one GPU), up to the residual's read */
    space_create(k, &s);
    qf_krylov_field(k, &r);
    qf_scalar_create(&rr);
    qf_reliable_start(&rel, k, x, b, QF_RESIDUAL_SYSTEM, r, NULL, &norm);
    qf_chain_end();
    int j = 0;
    while (!qf_sequence_failed() && !k->stalled && norm > target && k->iterations < k->p->max_iter) {
        direction(k, &s, j++, r);
        qf_krylov_next_iteration(k);
        int full = j == s.n;
        if (!(full || qf_krylov_check_due(k))) continue;
        qf_blas_norm2(rr, r, k->parity);
        qf_krylov_check(k, rr, "GCR", &norm);
        if (!qf_sequence_failed() &&
            (full || norm <= target || k->iterations >= k->p->max_iter || k->stalled || qf_reliable_due(&rel, norm))) {
            /* restart: the solution from the directions so far, the residual recomputed */
            implicit_update(&s, j, rel.xs, k->parity);
            qf_reliable_update(&rel, r, NULL, &norm);
            check_update(k, &s);
            j = 0;
        }
    }
    int rc = qf_sequence_end();
    rc = qf_reliable_finish(&rel, rc) || rc;
    if (rr) qf_scalar_destroy(rr);
    qf_krylov_release(k, r);
    space_free(k, &s);
    return rc ? QF_ERROR : QF_SUCCESS;
}
