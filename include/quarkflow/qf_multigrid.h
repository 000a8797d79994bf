/* Adaptive multigrid (seed 003): the transfer operators between a fine and a coarse level, the Galerkin
 * coarse operator, and the multigrid preconditioner with its setup. Every step is a task graph over
 * blocks; the coarse operators are qf_linops (so every solver runs on them) and the multigrid cycle is
 * a qf_precond (flexible GCR takes it; qf_solve's kind QF_SOLVER_MG does so).
 *
 * A transfer groups the fine lattice into aggregates of agg[0] x .. x agg[3] sites (inside the fine
 * blocks), one coarse site each, and holds N near-null vectors V_k of the fine operator, orthonormal on
 * every aggregate and chirality. P e = sum_k V_k e_k maps a coarse field (2 chiral spins x N colours)
 * to a fine one, R = P^dagger back; P^dagger P = 1 and P keeps chirality, so the coarse operator
 * D_c = R D P is gamma_5-hermitian with the coarse gamma_5 = diag(1, -1) over chirality. */
#ifndef QF_MULTIGRID_H
#define QF_MULTIGRID_H

#include "qf_blas.h"
#include "qf_linop.h"
#include "qf_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A transfer from fine fields of shape fine_shape (Wilson, or coarse of an earlier level) on lattice
 * fine (which must outlive it) with nvec vectors and aggregates agg, in precision prec. Its coarse
 * lattice is qf_lattice_coarsen's (one_block: one block a process). The vectors start at zero: set them
 * with qf_transfer_set_vectors. */
int qf_transfer_create(qf_transfer **T, const qf_lattice *fine, const qf_field_shape *fine_shape, const int agg[QF_NDIM],
                       int nvec, qf_precision prec, int one_block);
void qf_transfer_destroy(qf_transfer *T);
/* Takes the nvec fields v[k] (the fine shape, lattice and precision) as the near-null vectors and
 * orthonormalises them on every aggregate and chirality (block Gram-Schmidt, as tasks); fails when a
 * vector lies in the span of the others on some aggregate (too few distinct vectors). */
int qf_transfer_set_vectors(qf_transfer *T, qf_field *const *v);
/* coarse = R fine from all sites (parity -1) or from the even ones alone (parity 0: R of fine with its
 * odd sites taken as zero, the residual of an even-odd Schur system); fine = P coarse on all sites
 * (parity -1) or on the even ones alone (parity 0: the odd sites keep their values), as an even-odd
 * smoother that reads only them needs it. */
int qf_transfer_restrict(const qf_transfer *T, qf_field *coarse, const qf_field *fine, int parity);
int qf_transfer_prolong(const qf_transfer *T, qf_field *fine, const qf_field *coarse, int parity);

const qf_lattice *qf_transfer_coarse_lattice(const qf_transfer *T);
const qf_lattice *qf_transfer_fine_lattice(const qf_transfer *T);
qf_field_shape qf_transfer_coarse_shape(const qf_transfer *T);
qf_field_shape qf_transfer_fine_shape(const qf_transfer *T);
int qf_transfer_nvec(const qf_transfer *T);
qf_precision qf_transfer_precision(const qf_transfer *T);
/* The precision in which restriction and prolongation (task graphs and one-task coarse solves) read
 * the vectors: QF_HALF keeps a 16-bit copy of them (one scale a vector and fine site, as QUDA's
 * half-precision null space), made now from the vectors as they are; the transfer's own precision
 * drops it. The transfer must be in single precision for half; qf_transfer_set_vectors drops the copy
 * (call this again after it). The coarse operator's build reads the single-precision vectors. */
int qf_transfer_set_vector_precision(qf_transfer *T, qf_precision vprec);
/* The precision restriction and prolongation read the vectors in. */
qf_precision qf_transfer_vector_precision(const qf_transfer *T);
/* The vectors as stored (a QF_FIELD_TRANSFER field), for tests and I/O. */
const qf_field *qf_transfer_vectors(const qf_transfer *T);

/* The Galerkin coarse operator R A P of a full-lattice operator A that can build it (the Wilson-clover
 * operator, a coarse operator), built directly from A's links and local term and the transfer's
 * vectors, in the transfer's precision; with its even-odd form (asymmetric Schur complement, the
 * inverse of the local term computed in double) and its twin in the other precision. The caller owns
 * *Ac; A and T must outlive the build only. */
int qf_linop_coarsen(qf_linop *A, const qf_transfer *T, qf_linop **Ac);

/* The precision in which a coarse operator Ac (from qf_linop_coarsen, in single precision) applies its
 * links and the inverse of its local term: QF_HALF keeps a 16-bit copy of them (one scale each matrix
 * row), which every later application, Schur form and one-task solve reads (about half the bytes a
 * site: the coarse operator's applications are bound by reading the links); QF_SINGLE, the operator's
 * own precision, drops it. The single-precision links stay, for the next level's build. The vectors
 * stay in single precision. */
int qf_coarse_op_set_link_precision(qf_linop *Ac, qf_precision link_prec);
/* The precision its applications read the links in (the operator's own for anything but a coarse
 * operator with half links). */
qf_precision qf_coarse_op_link_precision(const qf_linop *Ac);

/* The coarsest level's solve in one task: a coarse operator Ac (from qf_linop_coarsen) whose lattice is
 * one block on one process (qf_coarse_one_task_possible) solved for b to |bhat - Ahat x_e| <= tol |bhat|
 * on its even-odd Schur system, in at most max_iter iterations of GCR(nkrylov) (nkrylov up to
 * QF_COARSE_ONE_TASK_MAX_NKRYLOV), then x_o reconstructed, all inside one task on a CPU core or a GPU:
 * on a coarse grid of a few thousand sites every Krylov step as a task would cost more in overhead than
 * in work. Reaching max_iter is no error. The iterations run and the task's seconds are added to
 * stats's real and imaginary parts, inside the task graph (read them with qf_scalar_get when wanted). */
#define QF_COARSE_ONE_TASK_MAX_NKRYLOV 64
int qf_coarse_one_task_possible(const qf_linop *Ac);
int qf_coarse_solve_one_task(qf_linop *Ac, qf_field *x, const qf_field *b, double tol, int max_iter, int nkrylov,
                             qf_scalar *stats);

/* The same for coarse levels ops[0 .. nlevels-1] (the last the coarsest, each one-task possible, of one
 * precision; T[i] the transfer from level i to i + 1): A x = b on ops[0] to |b - A x| <= tol |b| by
 * flexible GCR(nkrylov) preconditioned by the K-cycle below it as qf_mg_precond's (restriction, the next
 * level's solve, prolongation, smoother_steps MR steps on the Schur system), the coarsest solved as
 * above, every solve to tol in at most max_iter iterations; all in one task. stats[i] gathers level
 * i's GCR iterations and seconds (the time of its solves, the levels below included). One level is
 * qf_coarse_solve_one_task. */
typedef struct {
    double tol;
    int max_iter, nkrylov, smoother_steps;
} qf_coarse_task_params;
int qf_coarse_levels_solve_one_task(int nlevels, qf_linop *const *ops, const qf_transfer *const *T, qf_field *x,
                                    const qf_field *b, const qf_coarse_task_params *p, qf_scalar *const *stats);

/* The coarsest level's Schur complement Ahat inverted as a dense matrix (codelet mg_schur_invert): a
 * coarse operator Ac that is one-task possible gets Ahat^-1 (n x n complex numbers in its precision,
 * n = qf_coarse_op_schur_dim: half its sites x 2N), assembled from its links and X^-1 and inverted in
 * double; the one-task solves whose coarsest level is Ac then apply it, x_e = Ahat^-1 bhat_e, in place
 * of their GCR iterations (an application counts as one iteration), exact to the inverse's rounding.
 * The inversion costs O(n^3): on a GPU cuBLAS's ZGEMM (about 0.1 s at n = 6144), on a CPU core
 * Gauss-Jordan (seconds at n = 1024); an application reads the n^2 numbers once. *residual (may be
 * NULL), set whenever the inversion ran: |Ahat Ahat^-1 v - v| / |v| for a test vector v, in double,
 * or infinite where Ahat is singular to the inversion's precision. Fails, keeping no inverse, when
 * n > QF_COARSE_DENSE_MAX_DIM or Ahat is singular. */
#define QF_COARSE_DENSE_MAX_DIM 16384
int64_t qf_coarse_op_schur_dim(const qf_linop *Ac);
int qf_coarse_op_invert_schur(qf_linop *Ac, double *residual);
int qf_coarse_op_has_schur_inverse(const qf_linop *Ac);
void qf_coarse_op_drop_schur_inverse(qf_linop *Ac);

/* ---- the multigrid preconditioner ---- */

#define QF_MG_MAX_LEVELS 4
#define QF_MG_DENSE_AUTO (-1)
#define QF_MG_DENSE_GPU 8192
#define QF_MG_DENSE_CPU 1024
/* The most near-null vectors a level takes (the coarse kernels' per-site arrays). */
#define QF_MG_MAX_NVEC 64
enum { QF_MG_SMOOTHER_MR = 0, QF_MG_SMOOTHER_SAP };

/* qf_mg_params.levels: as many levels as the lattice coarsens into, up to QF_MG_AUTO_MAX_LEVELS
 * (qf_mg_levels_for) */
#define QF_MG_LEVELS_AUTO 0
#define QF_MG_AUTO_MAX_LEVELS 3

typedef struct {
    int levels;                           /* 2 to QF_MG_MAX_LEVELS, or QF_MG_LEVELS_AUTO */
    int nvec[QF_MG_MAX_LEVELS];           /* near-null vectors of level l (the transfer from l to l + 1) */
    int block[QF_MG_MAX_LEVELS][QF_NDIM]; /* aggregate of level l's sites */
    int setup_iter;                       /* inverse-iteration rounds per vector */
    int setup_krylov;                     /* BiCGStab iterations of each round */
    int setup_refine;                     /* refinement cycles through the hierarchy after it is built */
    int refine_iter;                      /* iterations of hierarchy-preconditioned GCR per vector and cycle */
    int smoother_steps;                   /* MR post-smoothing steps on each level but the coarsest */
    int smoother;                         /* level 0's smoother: QF_MG_SMOOTHER_MR (smoother_steps even-odd
                                           * MR steps) or QF_MG_SMOOTHER_SAP (qf_precond_sap: sap_cycles
                                           * Schwarz cycles on domains sap_block, sap_mr MR steps a domain);
                                           * coarser levels always MR */
    int sap_block[QF_NDIM];
    int sap_cycles, sap_mr;
    double coarse_tol;                    /* relative tolerance of the coarse-grid solves */
    int coarse_max_iter;                  /* iterations of the coarse-grid GCR */
    int coarse_nkrylov;                   /* its search directions between restarts (1 to
                                           * QF_COARSE_ONE_TASK_MAX_NKRYLOV) */
    int coarse_dense;                     /* the coarsest level's Schur complement inverted densely
                                           * (qf_coarse_op_invert_schur) where its solves run in one task and
                                           * its dimension is at most this; 0: never; QF_MG_DENSE_AUTO
                                           * (default): QF_MG_DENSE_GPU where the process has a CUDA worker and
                                           * the level is not placed on the CPUs, else QF_MG_DENSE_CPU */
    int coarse_one_task;                  /* 3 (default): every coarse lattice made one block a process, each
                                           * coarse solve one task with the levels below it inside
                                           * (qf_coarse_levels_solve_one_task) where they are placed
                                           * alike; 2: the coarsest lattice made one block, its solves
                                           * one task each; 1: one task a coarsest solve where its
                                           * lattice is one block anyway; 0: task graphs */
    qf_precision prec;                    /* of the hierarchy (the outer solve may be in double) */
    qf_precision smoother_prec;           /* QF_HALF: level 0's MR smoother on its operator's half twin
                                           * (QUDA's half-precision smoother); any other: in prec */
    qf_precision coarse_link_prec;        /* QF_HALF: every coarse operator applies 16-bit copies of its links and
                                           * X^-1 (qf_coarse_op_set_link_precision; prec single); any other:
                                           * in prec */
    qf_precision null_prec;               /* QF_HALF: restriction and prolongation read 16-bit copies of the
                                           * near-null vectors (qf_transfer_set_vector_precision; prec
                                           * single); any other: in prec */
    qf_placement location[QF_MG_MAX_LEVELS]; /* where level l's tasks run: level 0's cycle work (and the
                                              * outer solve), level l >= 1's coarse solves, each level's
                                              * share of the setup (qf_runtime.h's placement scopes).
                                              * Auto: the scheduler places each task; on a node with CPU
                                              * and CUDA workers the coarse levels (l >= 1) placed auto
                                              * are placed whole instead: on the GPU for the setup, then
                                              * on the CPUs from the level on where timed K-cycles say
                                              * so (qf_mg_stats.measured) */
    uint64_t seed;                        /* of the random start vectors */
    int verbose;                          /* 1: report the setup's steps */
} qf_mg_params;

/* Levels QF_MG_LEVELS_AUTO, 24 vectors, aggregates 4^4, 3 rounds of 24 BiCGStab iterations, no refinement cycle (4 iterations each
 * when asked for), 5 even-odd MR smoothing steps, coarse tolerance 0.25 in at most 100 iterations of GCR(64) (every
 * coarse lattice one block a process, each coarse solve one task with the levels below), single precision (the
 * coarse links and near-null vectors too), the scheduler's placement (auto). */
qf_mg_params qf_mg_default_params(void);
/* The levels of p's hierarchy on the fine lattice lat: p->levels, or for QF_MG_LEVELS_AUTO one level more
 * for each coarsening by the levels' aggregates (p->block) that leaves even local extents (the coarse
 * lattices as the setup makes them), up to QF_MG_AUTO_MAX_LEVELS and at least 2: 3 on 16^4 and larger
 * lattices with the default aggregates (16^4: 4^4, then 2^4 sites), 2 on 8^4. qf_mg_setup resolves it
 * so; the stats report the result. */
int qf_mg_levels_for(const qf_lattice *lat, const qf_mg_params *p);

typedef struct qf_mg qf_mg;

/* Builds the hierarchy for the full-lattice operator A (which must outlive it): near-null vectors by
 * inverse iteration from Gaussian random vectors, the transfers and the coarse operators, level by
 * level, all as task graphs. Then setup_refine cycles through the built hierarchy: on each level
 * from the finest, every vector is replaced by refine_iter iterations of GCR on A_l preconditioned
 * by the level's own K-cycle (inverse iteration with the hierarchy as solver, as DDalphaAMG's
 * setup iterations), and the level's transfer and the coarse operator below are rebuilt. */
int qf_mg_setup(qf_mg **mg, qf_linop *A, const qf_mg_params *p);
void qf_mg_destroy(qf_mg *mg);
/* The K-cycle as a preconditioner of A in the hierarchy's precision (owned by mg). */
qf_precond *qf_mg_precond(qf_mg *mg);
/* The finest K-cycle as a preconditioner of the finest operator's even-odd Schur system (z_e = Khat r_e,
 * with its image Ahat z_e), which qf_solve's MG solver iterates on (even_odd, the default); NULL where
 * level 0 has no even-odd smoother (then the full system is iterated). */
qf_precond *qf_mg_precond_schur(qf_mg *mg);
/* Whether a hierarchy built with p has that preconditioner, for an operator that prepares a defect's
 * source (qf_linop_prepare_defect, as the Wilson-clover operator does): level 0 smoothed by even-odd MR
 * steps in the hierarchy's precision (not the Schwarz smoother, not none, not in half). */
int qf_mg_params_schur_outer(const qf_mg_params *p);
/* The operator of level l (0: A in the hierarchy's precision) and the transfer from l to l + 1. */
qf_linop *qf_mg_level_op(qf_mg *mg, int l);
const qf_transfer *qf_mg_level_transfer(qf_mg *mg, int l);

/* Statistics since the setup (or the last reset): setup seconds, and per level the coarse-solve
 * iterations (level l >= 1: of the solves on that level), the seconds spent on it (level 0: the host's
 * time inside the cycles; a level solved by task graphs: the host's time in its solves, which wait
 * for their residuals; a one-task level: the tasks' own time) and the number of cycles (level 0) or
 * solves that visited it. Waits for the one-task solves' figures. */
typedef struct {
    double setup_seconds;
    int levels;
    long iterations[QF_MG_MAX_LEVELS];
    long visits[QF_MG_MAX_LEVELS];
    double seconds[QF_MG_MAX_LEVELS];
    qf_placement location[QF_MG_MAX_LEVELS]; /* where level l's tasks were placed (auto resolved) */
    int measured[QF_MG_MAX_LEVELS];       /* 1: level l was placed auto and its placement chosen by timing */
    long ran[QF_MG_MAX_LEVELS][2];        /* level l's tasks that ran on each worker type [qf_worker_kind] */
    int one_task[QF_MG_MAX_LEVELS];       /* 1: level l's solves ran inside one-task solves (its seconds
                                           * are then the tasks' own, the levels below included) */
    int64_t dense_dim;                    /* the coarsest level's Schur inverse: its dimension (0: none, the
                                           * level iterates), its check residual and seconds to build */
    double dense_residual, dense_seconds;
} qf_mg_stats;
void qf_mg_get_stats(const qf_mg *mg, qf_mg_stats *s);
void qf_mg_reset_stats(qf_mg *mg);
/* Level l's placement scope (qf_solve enters level 0's around an MG solve). */
qf_task_scope *qf_mg_level_scope(qf_mg *mg, int l);

#ifdef __cplusplus
}
#endif
#endif
