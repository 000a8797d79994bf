/* What the Krylov solvers share: the system they iterate on (the full operator or the even-odd
 * Schur operator on the even sites), its temporaries, and the cadence of residual checks. Internal
 * to solvers/. */
#ifndef QF_KRYLOV_H
#define QF_KRYLOV_H

#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_solver.h"

typedef struct {
    qf_dirac *d;
    const qf_solver_params *p;
    int parity;              /* sites of the system: 0 (even-odd) or -1 (full lattice) */
    qf_dirac_op op, op_dag, op_normal;
    double flops;            /* of the operator applications so far (QUDA's counts) */
    int iterations;          /* Krylov iterations so far, over restarts */
} qf_krylov;

/* A temporary colour-spinor field on the operator's lattice and precision. */
int qf_krylov_field(const qf_krylov *k, qf_field **f);
/* out = op in, counting its flops. */
int qf_krylov_apply(qf_krylov *k, qf_dirac_op op, qf_field *out, const qf_field *in);
/* Reads the iterated residual norm^2 rr (the host's only wait in an iteration) and returns its
 * square root, or fails on NaN or Inf: a breakdown. */
int qf_krylov_check(qf_krylov *k, const qf_scalar *rr, const char *solver, double *norm);

/* One run of the method from the current x towards |iterated residual| <= target, for at most
 * max_iter - k->iterations iterations; x is updated in place. */
int qf_cgnr(qf_krylov *k, qf_field *x, const qf_field *b, double target);
int qf_bicgstab(qf_krylov *k, qf_field *x, const qf_field *b, double target);

#endif
