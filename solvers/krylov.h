/* What the Krylov solvers share: the system they iterate on (the full operator or the even-odd
 * Schur operator on the even sites) in the solve's precision and in the sloppy precision of the
 * iterations, their temporaries, the cadence of residual checks, and the high-precision corrections
 * of mixed-precision iterations (reliable updates). Internal to solvers/. */
#ifndef QF_KRYLOV_H
#define QF_KRYLOV_H

#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_solver.h"

#define QF_GCR_MAX_NKRYLOV 128

typedef struct {
    qf_linop *A;             /* the system in the solve's precision */
    qf_linop *As;            /* the system the iterations use: A, or its sloppy twin */
    qf_precond *K;           /* GCR's preconditioner, in the iterations' precision (NULL: none) */
    int K_image;             /* 1: K's image A K r is of the iterations' operator As (qf_precond_apply_image) */
    const qf_solver_params *p;
    int parity;              /* sites of the system: its domain's parity (0 for even-odd) */
    double flops;            /* of the operator applications so far (QUDA's counts) */
    int iterations;          /* Krylov iterations so far, over restarts */
    int updates;             /* high-precision corrections so far */
    int breakdown;           /* the last failure was NaN or Inf in the iterations (set by the checks) */
    double bnorm;            /* |b| of the solve (0: unknown), so that progress lines read as the tolerance */
    double stall_mark;       /* multigrid: the residual the next must halve (0: none yet) */
    int stall_since;         /* and the iteration it was read at */
    int stalled;             /* stopped for want of progress, where reaching max_iter is no error */
    int run_chained;         /* the iterations since the first after the last check form one chain */
    const qf_field *start_residual; /* b - A x of the x and b a run starts from, in A's precision (NULL:
                                     * unknown), and its norm: the run's first residual, not recomputed */
    double start_norm;
} qf_krylov;

/* Temporary fields of the system's shape, zero, from the operator's pool: in the iterations'
 * precision, or in the solve's. */
int qf_krylov_field(const qf_krylov *k, qf_field **f);
int qf_krylov_field_hi(const qf_krylov *k, qf_field **f);
/* Gives a temporary back to its operator's pool (qf_linop_field_take) for the next solve; NULL is
 * ignored. */
void qf_krylov_release(const qf_krylov *k, qf_field *f);
/* |f| on the sites of parity (-1: all), waiting for it. */
int qf_krylov_norm(const qf_field *f, int parity, double *norm);
/* out = A in (dagger 0) or A^dagger in (dagger 1) with the system in out's precision, counting its
 * flops. */
int qf_krylov_apply(qf_krylov *k, int dagger, qf_field *out, const qf_field *in);
/* Reads the iterated residual norm^2 rr (the host's only wait in an iteration) and returns its
 * square root, or fails on NaN or Inf: a breakdown (k->breakdown set); a multigrid solve also stops
 * when stalled (QF_MG_STALL_KCYCLES): failing, or k->stalled under accept_max_iter. */
int qf_krylov_check(qf_krylov *k, const qf_scalar *rr, const char *solver, double *norm);
/* Counts an iteration and marks its submission in a trace. After the first iteration since a residual
 * check it opens a chain (qf_blas.h) that the next check ends (or qf_krylov_end_run): the host waits
 * for nothing in between, so on one GPU the iterations up to the check go as a few tasks instead of
 * one each, while the first runs. */
void qf_krylov_next_iteration(qf_krylov *k);
/* Ends the chain of the iterations since the last check, where one is open; the end of every run. */
int qf_krylov_end_run(qf_krylov *k);
/* Whether the iterations so far call for a residual check. */
int qf_krylov_check_due(const qf_krylov *k);

/* The residual a method iterates on: b - A x, or A^dagger (b - A x) for CG on the normal equations. */
typedef enum { QF_RESIDUAL_SYSTEM = 0, QF_RESIDUAL_NORMAL } qf_residual_form;

/* A method's iterations update xs and the residual rs in the sloppy precision; xs is a correction
 * to the solution x, folded into x (and the residual recomputed from it in x's precision) by
 * qf_reliable_update. In uniform precision xs is x itself and an update only recomputes rs. */
typedef struct {
    qf_krylov *k;
    qf_field *x;             /* the solution, in the solve's precision */
    const qf_field *b;
    qf_residual_form form;
    qf_field *xs;            /* the correction the iterations build (x when uniform) */
    qf_field *hi[2];         /* temporaries in the solve's precision */
    double rmax;             /* largest iterated residual since the last update */
} qf_reliable;

/* Sets up the correction (zero) and computes the residual of x into rs, *norm = |rs|, and |rs|^2 into
 * rs_norm2 unless it is NULL (a method that iterates on that scalar: CG); from k->start_residual where
 * it is given and the form is the system's. */
int qf_reliable_start(qf_reliable *rel, qf_krylov *k, qf_field *x, const qf_field *b, qf_residual_form form,
                      qf_field *rs, qf_scalar *rs_norm2, double *norm);
/* Whether an iteration with residual norm calls for an update: mixed precision, and norm fell by
 * delta below the largest residual since the last update (which it tracks). */
int qf_reliable_due(qf_reliable *rel, double norm);
/* x += xs, xs = 0, rs, *norm and (unless NULL) rs_norm2 recomputed from x; counts an update. */
int qf_reliable_update(qf_reliable *rel, qf_field *rs, qf_scalar *rs_norm2, double *norm);
/* x += xs and frees the temporaries; call also after a failure (then it only frees). */
int qf_reliable_finish(qf_reliable *rel, int failed);

/* One run of a method from the current x towards |iterated residual| <= target, for at most
 * max_iter - k->iterations iterations; x is updated in place. */
int qf_cg(qf_krylov *k, qf_field *x, const qf_field *b, double target);
int qf_cgnr(qf_krylov *k, qf_field *x, const qf_field *b, double target);
int qf_cgne(qf_krylov *k, qf_field *x, const qf_field *b, double target);
int qf_bicgstab(qf_krylov *k, qf_field *x, const qf_field *b, double target);
int qf_gcr(qf_krylov *k, qf_field *x, const qf_field *b, double target);
int qf_mr(qf_krylov *k, qf_field *x, const qf_field *b, double target);

#endif
