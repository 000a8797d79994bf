/* BiCGStab (van der Vorst) on A x = b. The coefficients alpha = rho / <r0, v>, omega = <t, s> / |t|^2
 * and beta = (rho_new / rho) (alpha / omega) are worked out inside the tasks that use them, from the
 * reductions' scalars, so the host waits only at the residual checks and no task does scalar
 * arithmetic alone: an iteration is eight tasks (two Mhat, three reductions, three fused updates;
 * fifteen before the fused s and p, ten before the ratios), each of which costs the runtime 10-20 us
 * whatever its size (bench/RESULTS.md, "What the runtime costs a task"), and one where the lattice is
 * one block whose operator joins chains (a one-GPU run): each iteration is a chain (qf_chain_begin). A
 * breakdown (a vanishing denominator) shows at the checks as NaN or Inf. The steps form
 * one sequence (qf_defs.h): the first that fails stops the rest. Mixed-precision solves make their
 * reliable updates at the checks and restart rho from the recomputed residual. */
#include "krylov.h"

int qf_bicgstab(qf_krylov *k, qf_field *x, const qf_field *b, double target)
{
    enum { R, R0, P, V, S, T, NF };
    enum { RR, RHO, RHO_NEW, R0V, TS, TT, NS };
    qf_field *f[NF] = {0};
    qf_scalar *c[NS] = {0};
    qf_reliable rel = {0};
    int parity = k->parity;
    double norm = 0.0;
    int rho_stale = 0; /* rho is of the residual that a reliable update replaced */
    qf_sequence_begin();
    /* the temporaries and scalars set up in one chain (one task on one GPU), up to the residual's read */
    qf_chain_begin();
    for (int i = 0; i < NF; i++) qf_krylov_field(k, &f[i]);
    for (int i = 0; i < NS; i++) qf_scalar_create(&c[i]);
    /* r = b - A x, r0 = p = r, rho = <r0, r> */
    qf_reliable_start(&rel, k, x, b, QF_RESIDUAL_SYSTEM, f[R], NULL, &norm);
    qf_blas_copy(f[R0], f[R], parity);
    qf_blas_copy(f[P], f[R], parity);
    qf_blas_dot(c[RHO], f[R0], f[R], parity);
    qf_chain_end();
    while (!qf_sequence_failed() && norm > target && k->iterations < k->p->max_iter) {
        /* v = A p, alpha = rho / <r0, v>, s = r - alpha v */
        qf_chain_begin();
        if (rho_stale) qf_blas_dot(c[RHO], f[R0], f[R], parity);
        rho_stale = 0;
        qf_krylov_apply(k, 0, f[V], f[P]);
        qf_blas_dot(c[R0V], f[R0], f[V], parity);
        qf_blas_xpcw_ratio(f[S], f[R], c[RHO], c[R0V], -1.0, f[V], parity);
        /* t = A s, omega = <t, s> / |t|^2, x += alpha p + omega s, r = s - omega t */
        qf_krylov_apply(k, 0, f[T], f[S]);
        qf_blas_dot_norm2(c[TS], c[TT], f[T], f[S], parity);
        qf_blas_bicgstab_update_ratio(rel.xs, f[R], c[RHO], c[R0V], f[P], c[TS], c[TT], f[S], f[T], c[RR], parity);
        /* p = r + beta (p - omega v), beta = (rho_new / rho) (alpha / omega) */
        qf_blas_dot(c[RHO_NEW], f[R0], f[R], parity);
        qf_blas_bicgstab_p_ratio(f[P], f[R], f[V], c[RHO_NEW], c[RHO], c[RHO], c[R0V], c[TS], c[TT], parity);
        qf_chain_end();
        qf_scalar *t = c[RHO];
        c[RHO] = c[RHO_NEW];
        c[RHO_NEW] = t;
        qf_krylov_next_iteration(k);
        if (!qf_krylov_check_due(k)) continue;
        qf_krylov_check(k, c[RR], "BiCGStab", &norm);
        if (!qf_sequence_failed() && norm > target && qf_reliable_due(&rel, norm)) {
            qf_reliable_update(&rel, f[R], NULL, &norm);
            rho_stale = 1; /* recomputed in the next iteration's chain */
        }
    }
    int rc = qf_sequence_end();
    rc = qf_reliable_finish(&rel, rc) || rc;
    for (int i = 0; i < NS; i++)
        if (c[i]) qf_scalar_destroy(c[i]);
    for (int i = 0; i < NF; i++) qf_krylov_release(k, f[i]);
    return rc ? QF_ERROR : QF_SUCCESS;
}
