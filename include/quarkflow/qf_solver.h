/* Krylov solvers for M x = b with any linear operator (qf_linop.h; the Wilson-clover operator through
 * qf_dirac_linop), written against the operator and BLAS (qf_blas.h) interfaces: an iteration is
 * submitted without the host waiting;
 * the host reads the residual norm only every check_every iterations. The true residual
 * |b - M x| / |b| is recomputed at the end and reported.
 *
 *   CG        conjugate gradients on a hermitian positive-definite system (the asqtad operator's even-odd
 *             system, qf_staggered.h; qf_linop_is_hermitian);
 *   CGNR      conjugate gradients on the normal equations M^dagger M x = M^dagger b;
 *   CGNE      conjugate gradients on M M^dagger y = b, x = M^dagger y;
 *   BiCGStab  stabilised bi-conjugate gradients on M itself;
 *   GCR       generalised conjugate residuals with gcr_nkrylov vectors between restarts, optionally
 *             preconditioned (flexible GCR): by precond, by gcr_sap_cycles Schwarz cycles (GCR-SAP,
 *             on the full lattice), or by gcr_inner_mr minimal-residual steps;
 *   MR        minimal residual iteration (converges when the hermitian part of M is definite);
 *   MG        flexible GCR on the full lattice preconditioned by a multigrid K-cycle (mg, from
 *             qf_mg_setup on M), the iterations in the hierarchy's precision (qf_multigrid.h).
 *
 * Mixed precision: with sloppy below the operator's precision, the iterations run on a copy of the
 * operator in the sloppy precision and the high precision only corrects them. CG (CGNR, CGNE) and
 * BiCGStab use reliable updates (the QUDA papers): when the iterated residual has fallen by delta
 * below its maximum since the last update, the solution is accumulated in high precision and the
 * residual recomputed there. GCR restarts in high precision (Algorithm 1 of the GCR-DD paper) when
 * it has used gcr_nkrylov vectors or its iterated residual has fallen by delta; MR does likewise
 * every delta. Uniform precision: sloppy equal to (or above) the operator's. The sloppy precision may
 * be half (QUDA's 16-bit fields, qf_defs.h) below a double or single operator: double/half and
 * single/half; the operator and the fields of a solve itself are in double or single.
 *
 * With even_odd set, the solver works on the operator's Schur system Mhat x_e = bhat_e on the even
 * sites (qf_linop_schur, qf_linop_prepare) and reconstructs the odd sites (qf_linop_reconstruct);
 * without, on the operator's own sites. */
#ifndef QF_SOLVER_H
#define QF_SOLVER_H

#include "qf_linop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    QF_SOLVER_CGNR = 0,
    QF_SOLVER_BICGSTAB,
    QF_SOLVER_CGNE,
    QF_SOLVER_GCR,
    QF_SOLVER_MR,
    QF_SOLVER_MG,
    QF_SOLVER_CG
} qf_solver_kind;

typedef struct qf_mg qf_mg; /* qf_multigrid.h */

typedef struct {
    qf_solver_kind kind;
    double tol;        /* on the true relative residual |b - M x| / |b| */
    int max_iter;
    int check_every;   /* the host reads the iterated residual every this many iterations; 0: the
                        * method's own cadence (qf_solver_check_every) */
    int even_odd;      /* 1: solve the even-odd Schur system and reconstruct */
    int verbose;       /* print the iterated residual at each check */
    qf_precision sloppy; /* precision of the iterations (the lower of this and the operator's) */
    double delta;        /* reliable-update / high-precision restart threshold, in (0, 1); 0: the
                          * method's own (qf_solver_delta) */
    int gcr_nkrylov;     /* GCR: search directions kept between restarts */
    int gcr_inner_mr;    /* GCR: MR steps of the preconditioner, 0 for none (when precond is NULL) */
    int gcr_sap_cycles;  /* GCR: Schwarz cycles of the preconditioner (qf_precond_sap on the full lattice,
                          * even_odd 0: GCR-SAP), 0 for none (when precond is NULL) */
    int gcr_sap_block[QF_NDIM]; /* its domains */
    int gcr_sap_mr;      /* its MR steps on each domain a cycle */
    qf_precond *precond; /* GCR: the preconditioner, acting on the system's sites in the iterations'
                          * precision (the Schur system with even_odd); NULL: gcr_sap_cycles' or
                          * gcr_inner_mr's */
    qf_mg *mg;           /* MG: the hierarchy built for M (qf_mg_setup) */
    int accept_max_iter; /* 1: reaching max_iter ends the solve without an error (the inner solves of a
                          * preconditioner); the result says whether tol was met */
} qf_solver_params;

/* The smallest tol qf_solve accepts, by the precision of the operator: the true residual is computed
 * in that precision, whose rounding keeps |b - M x| / |b| near 1e-15 in double and 2e-7 in single
 * at best (8^4 Wilson-clover, kappa up to 0.1355). A smaller tol cannot be met: the iterations then
 * run on until the iterated residual underflows into a NaN and the solution is lost. */
#define QF_SOLVER_MIN_TOL_DOUBLE 1e-14
#define QF_SOLVER_MIN_TOL_SINGLE 1e-6
double qf_solver_min_tol(qf_precision op_prec);

/* Multigrid's outer residual falls by orders of magnitude in tens of K-cycles, even near the critical
 * mass; QF_MG_STALL_KCYCLES of them without halving it mean a coarse space that misses some of the
 * operator's lowest modes, which more iterations do not mend: qf_solve stops there and fails naming
 * the fix (with accept_max_iter it ends as if out of iterations, the result not converged). */
#define QF_MG_STALL_KCYCLES 30

#define QF_SOLVER_DEFAULT_MAX_ITER 1000
/* BiCGStab, tol 1e-10, QF_SOLVER_DEFAULT_MAX_ITER iterations, the method's check cadence and delta,
 * even-odd, quiet, uniform double precision, GCR with 16 vectors and no preconditioner. */
qf_solver_params qf_solver_default_params(void);
/* How often p's solve reads the residual: check_every, or where it is 0 the method's cadence, every
 * iteration for mg (an iteration is a whole K-cycle) and every 10 for the others, at most max_iter. */
int qf_solver_check_every(const qf_solver_params *p);
/* The fall of the iterated residual that triggers a high-precision update (a restart of GCR): delta,
 * or where it is 0 the method's, 1e-3 for mg (which reads its residual every K-cycle, so that 0.1
 * restarted its GCR every one or two of them) and 0.1 for the others. */
double qf_solver_delta(const qf_solver_params *p);
const char *qf_solver_name(qf_solver_kind k);
/* Parses cg, cgnr, cgne, bicgstab, gcr, mr or mg. */
int qf_solver_parse(const char *s, qf_solver_kind *k);

typedef struct {
    int iterations;       /* Krylov iterations (an inner MR step of GCR's preconditioner counts as none) */
    int updates;          /* high-precision corrections: reliable updates or restarts */
    int converged;        /* the true residual reached tol */
    double residual;      /* true relative residual |b - M x| / |b| at the end */
    double seconds;
    double flops;         /* of the operator applications (QUDA's counts) */
} qf_solver_result;

/* Solves M x = b for the operator M; x is the initial guess on entry (zero it for none). Fails with a
 * message naming the cause on a breakdown (a zero denominator, NaN or Inf in the residual) and when
 * max_iter iterations do not reach tol (result then holds the best residual reached and x the last
 * iterate). */
int qf_solve(qf_linop *M, qf_field *x, const qf_field *b, const qf_solver_params *p, qf_solver_result *res);

/* Multi-shift CG (seed 000, section 8): solves (A + sigma_i) x_i = b for the n shifts sigma_i >= 0 at
 * once, in the one Krylov space of A, which must be hermitian positive semi-definite
 * (qf_linop_is_hermitian; A + sigma_i definite), on A's sites. A shift stops iterating once its own
 * iterated residual reaches tol[i] |b| (its solution and direction are then left alone); the
 * iterations run in p->sloppy (mixed precision: the Krylov vectors in the sloppy twin, the solutions
 * accumulated in A's precision at every residual check). Then each shift whose true residual misses
 * tol[i] is refined by CG on its own system A + sigma_i in A's precision, from its multi-shift
 * solution. res[i]: shift i's iterations (its share of the common ones, plus its refinement's),
 * true residual and whether it converged; seconds and flops cover the whole solve. x[i] are n
 * distinct fields of A's domain, written before (their sites of A's parity are overwritten, the others
 * kept); n from 1 to
 * QF_MULTISHIFT_MAX. Uses p->max_iter, check_every, sloppy, verbose; p->kind and even_odd are
 * ignored. */
#define QF_MULTISHIFT_MAX 32
int qf_multishift_cg(qf_linop *A, int n, const double *shifts, const double *tol, qf_field *const *x, const qf_field *b,
                     const qf_solver_params *p, qf_solver_result *res);

#ifdef __cplusplus
}
#endif
#endif
