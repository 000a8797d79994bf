/* Conjugate gradients on a hermitian positive-definite A (CG: the asqtad even-odd system), and on the
 * normal equations in the two forms of Saad's book:
 *   CGNR  A^dagger A x = A^dagger b: the residual A^dagger (b - A x), the step along p;
 *   CGNE  A A^dagger y = b, x = A^dagger y: the residual b - A x itself, the step along A^dagger p.
 * CG needs q = A p and <p, q>; the normal forms u = A p (CGNR) or u = A^dagger p (CGNE) and q = the
 * other factor applied to u, with <p, q> = |u|^2. Every step is a task graph; alpha = |r|^2 / <p, q>
 * is worked out inside the update
 * of x and r, and beta = |r_new|^2 / |r|^2 inside the update of p, so the host waits only at the
 * residual checks, where mixed-precision solves also make their reliable updates. The steps form one sequence (qf_defs.h). */
#include "krylov.h"

typedef enum { CG_HERMITIAN, CG_NORMAL_R, CG_NORMAL_E } cg_form;

static int cg(qf_krylov *k, qf_field *x, const qf_field *b, double target, cg_form cf)
{
    qf_residual_form form = cf == CG_NORMAL_R ? QF_RESIDUAL_NORMAL : QF_RESIDUAL_SYSTEM;
    const char *name = qf_solver_name(k->p->kind);
    enum { R, P, U, Q, NF };
    enum { RR, RR_NEW, PQ, NS };
    qf_field *f[NF] = {0};
    qf_scalar *c[NS] = {0};
    qf_reliable rel = {0};
    int parity = k->parity;
    double norm = 0.0;
    qf_sequence_begin();
    /* the temporaries and scalars set up in one chain (one task on one GPU), up to the residual's read */
    qf_chain_begin();
    for (int i = 0; i < NF; i++) qf_krylov_field(k, &f[i]);
    for (int i = 0; i < NS; i++) qf_scalar_create(&c[i]);
    /* r = the residual and |r|^2, p = r */
    qf_reliable_start(&rel, k, x, b, form, f[R], c[RR], &norm);
    qf_blas_copy(f[P], f[R], parity);
    qf_chain_end();
    int first_dagger = cf == CG_NORMAL_E;
    qf_field *step = cf == CG_NORMAL_E ? f[U] : f[P];
    while (!qf_sequence_failed() && norm > target && k->iterations < k->p->max_iter) {
        qf_chain_begin(); /* the iteration as one task where it can be (qf_blas.h) */
        if (cf == CG_HERMITIAN) { /* q = A p, alpha = |r|^2 / <p, q> */
            qf_krylov_apply(k, 0, f[Q], f[P]);
            qf_blas_dot(c[PQ], f[P], f[Q], parity);
        } else { /* u = A p (CGNR) or A^dagger p (CGNE), q = the other factor on u, alpha = |r|^2 / |u|^2 */
            qf_krylov_apply(k, first_dagger, f[U], f[P]);
            qf_krylov_apply(k, !first_dagger, f[Q], f[U]);
            qf_blas_norm2(c[PQ], f[U], parity);
        }
        /* x += alpha (p or u), r -= alpha q, beta = |r_new|^2 / |r|^2, p = r + beta p */
        qf_blas_cg_update_ratio(rel.xs, f[R], c[RR], c[PQ], step, f[Q], c[RR_NEW], parity);
        qf_blas_cxpay_ratio(f[R], c[RR_NEW], c[RR], 1.0, f[P], parity);
        qf_chain_end();
        qf_scalar *t = c[RR];
        c[RR] = c[RR_NEW];
        c[RR_NEW] = t;
        qf_krylov_next_iteration(k);
        if (!qf_krylov_check_due(k)) continue;
        qf_krylov_check(k, c[RR], name, &norm);
        /* the recomputed residual and its |r|^2 replace the iterated ones; p keeps its direction */
        if (!qf_sequence_failed() && norm > target && qf_reliable_due(&rel, norm))
            qf_reliable_update(&rel, f[R], c[RR], &norm);
    }
    int rc = qf_sequence_end();
    rc = qf_reliable_finish(&rel, rc) || rc;
    for (int i = 0; i < NS; i++)
        if (c[i]) qf_scalar_destroy(c[i]);
    for (int i = 0; i < NF; i++) qf_krylov_release(k, f[i]);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cg(qf_krylov *k, qf_field *x, const qf_field *b, double target) { return cg(k, x, b, target, CG_HERMITIAN); }
int qf_cgnr(qf_krylov *k, qf_field *x, const qf_field *b, double target) { return cg(k, x, b, target, CG_NORMAL_R); }
int qf_cgne(qf_krylov *k, qf_field *x, const qf_field *b, double target) { return cg(k, x, b, target, CG_NORMAL_E); }
