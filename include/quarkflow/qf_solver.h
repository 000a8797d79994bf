/* Krylov solvers for M x = b with the Wilson-clover operator, written against the task-graph
 * operators (qf_dirac.h) and BLAS (qf_blas.h): an iteration is submitted without the host waiting;
 * the host reads the residual norm only every check_every iterations. The true residual
 * |b - M x| / |b| is recomputed at the end and reported.
 *
 *   CGNR      conjugate gradients on the normal equations M^dagger M x = M^dagger b;
 *   BiCGStab  stabilised bi-conjugate gradients on M itself.
 *
 * With even_odd set, the solver works on the Schur system Mhat x_e = bhat_e on the even sites
 * (qf_dirac_prepare) and reconstructs the odd sites (qf_dirac_reconstruct). */
#ifndef QF_SOLVER_H
#define QF_SOLVER_H

#include "qf_dirac.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { QF_SOLVER_CGNR = 0, QF_SOLVER_BICGSTAB } qf_solver_kind;

typedef struct {
    qf_solver_kind kind;
    double tol;        /* on the true relative residual |b - M x| / |b| */
    int max_iter;
    int check_every;   /* the host reads the iterated residual every this many iterations */
    int even_odd;      /* 1: solve the even-odd Schur system and reconstruct */
    int verbose;       /* print the iterated residual at each check */
} qf_solver_params;

/* BiCGStab, tol 1e-10, 1000 iterations, a check every 10, even-odd, quiet. */
qf_solver_params qf_solver_default_params(void);
const char *qf_solver_name(qf_solver_kind k);
/* Parses cgnr or bicgstab. */
int qf_solver_parse(const char *s, qf_solver_kind *k);

typedef struct {
    int iterations;
    int converged;        /* the true residual reached tol */
    double residual;      /* true relative residual |b - M x| / |b| at the end */
    double seconds;
    double flops;         /* of the operator applications (QUDA's counts) */
} qf_solver_result;

/* Solves M x = b for the operator d; x is the initial guess on entry (zero it for none). Fails with a
 * message naming the cause on a breakdown (a zero denominator, NaN or Inf in the residual) and when
 * max_iter iterations do not reach tol (result then holds the best residual reached and x the last
 * iterate). */
int qf_solve(qf_dirac *d, qf_field *x, const qf_field *b, const qf_solver_params *p, qf_solver_result *res);

#ifdef __cplusplus
}
#endif
#endif
