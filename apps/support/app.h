/* The quarkflow command line's support: what the commands (apps/) and the benchmark drivers (bench/)
 * share, from the global options and option parsing to the problem setup, the solver options, traces
 * and plots. It calls neither the commands nor the drivers, and talks to the public API (quarkflow.h)
 * only. */
#ifndef QF_APP_H
#define QF_APP_H

#include "quarkflow.h"

#include <stdio.h>

/* Options every command accepts, parsed and removed from argv before the subcommand sees it. */
typedef struct {
    qf_runtime_options runtime;
    int verbose;
    int grid[4]; /* --grid: the process grid; 0 0 0 0: chosen from the number of processes */
} qf_app_globals;

extern qf_app_globals qf_app;

/* Prints "quarkflow: error: <qf_last_error()>" and returns the exit status 1. */
int qf_app_error(void);
/* Prints the reader's doubt about a gauge file it read (qf_gauge_info.warning), if any, as
 * "quarkflow: warning: PATH: ..." on stderr, once (rank 0). */
void qf_app_gauge_warning(const char *path, const qf_gauge_info *g);
/* The gauge field of the file at path into u, whose lattice is the file's replicated tile[mu] times
 * along each direction (all 1: the file's own lattice); a periodic field stays a solution of its
 * action, so that a small field stands for a larger lattice (issue 19's 8^4 DDalphaAMG field tiled to
 * 16^4). Tiling goes through one process's memory: with several processes it fails with a message.
 * g describes the file. */
int qf_app_gauge_load_tiled(qf_field *u, const char *path, qf_gauge_format format, const int tile[4],
                            qf_gauge_info *g);
/* Before the runtime starts: with a gauge file, dims = its extents (its header read; --dim's check, if
 * given, checked against them) times tile; without one, dims unchanged, and a tile asking for
 * replication a usage error. 0 or an exit code. */
int qf_app_gauge_dims(const char *command, const char *path, qf_gauge_format format, const int check[4],
                      const int tile[4], int dims[4]);
/* Whether a --tile asks for any replication. */
static inline int qf_app_tiled(const int tile[4]) { return tile[0] * tile[1] * tile[2] * tile[3] > 1; }
#define QF_APP_TILE_HELP                                                                                     \
    "  --tile NX NY NZ NT  replicate the gauge file's field NX x NY x NZ x NT times (a periodic field stays\n" \
    "                      one; one process)\n"
/* Prints a usage error for the command and returns exit status 2. */
int qf_app_usage_error(const char *command, const char *fmt, ...);

/* The process's rank from the MPI launcher's environment (OpenMPI, PMI, PMIx, Slurm), 0 without one:
 * known before MPI starts, for the commands that never start it. */
int qf_app_launcher_rank(void);

/* Whether this process writes the output files: rank 0 (all processes hold the gathered results). */
static inline int qf_app_writes_files(void) { return qf_runtime_rank() == 0; }

/* Fails, naming the command, when more than one process runs: the benchmarks compare the task graph
 * with kernels called directly on one process's memory (or restart StarPU per policy). */
static inline int qf_app_single_process(const char *command)
{
    if (qf_runtime_nprocs() == 1) return QF_SUCCESS;
    return qf_fail("%s measures one process (%d are running): run it without mpirun; the task graphs themselves run "
                   "on many processes (solve, propagator, apply, gauge)",
                   command, qf_runtime_nprocs());
}

/* Fails, naming option and the fix, when the output file path cannot be written: its folder missing or
 * not writable, path a folder or a write-protected file. Commands call it before their computation,
 * which would otherwise run to the end and then lose its result. Leaves nothing behind (a probe file
 * in the folder is created and removed at once). */
int qf_app_check_output(const char *option, const char *path);

/* Starts the runtime with the global options (and prints the machine with --verbose). */
int qf_app_start(int *argc, char ***argv);
void qf_app_stop(void);

/* Option parsing helpers: each consumes its values and advances *i; they return 0 or an exit status. */
int qf_app_int(const char *command, int argc, char **argv, int *i, int *out);
int qf_app_dims(const char *command, int argc, char **argv, int *i, int out[4]);
int qf_app_double(const char *command, int argc, char **argv, int *i, double *out);
int qf_app_u64(const char *command, int argc, char **argv, int *i, uint64_t *out);

/* Fills a global lexicographic Wilson field (24 doubles a site) with unit-variance complex Gaussian
 * numbers from a generator keyed by seed: the same field for every block grid and machine. */
void qf_app_random_spinor(double *psi, int64_t volume, uint64_t seed);
/* The same field's numbers for this process's part only (qf_field_import_local's order). */
void qf_app_random_spinor_local(double *psi, const qf_lattice *lat, uint64_t seed);
/* The same for staggered colour vectors (6 doubles a site: the first 6 of the Wilson field's 24). */
void qf_app_random_colour_vector(double *v, int64_t volume, uint64_t seed);
void qf_app_random_colour_vector_local(double *v, const qf_lattice *lat, uint64_t seed);

/* Dirac-operator options shared by apply and bench (operator_problem.c): --op NAME, --schur asym|sym,
 * --bc X Y Z T (periodic, antiperiodic or theta for exp(i pi theta)); and the operator's summary. */
int qf_app_op_parse(const char *s, qf_dirac_op *op);
int qf_app_schur(const char *command, int argc, char **argv, int *i, qf_schur_form *form);
int qf_app_bc(const char *command, int argc, char **argv, int *i, double phase[4][2]);
void qf_app_print_operator(const qf_dirac_params *p, qf_schur_form form);
/* The line "boundary      x periodic, ..." of the phases (qf_app_bc's). */
void qf_app_print_boundary(const double phase[4][2]);
/* The operator options of apply, solve, propagator and bench (--kappa, --csw, --prec, --bc, --recon,
 * --recon-sloppy, and --schur when form is not NULL) at argv[*i], validated: 0, or a usage error's exit code, or
 * QF_APP_NOT_AN_OPERATOR_OPTION when argv[*i] is none of them. */
#define QF_APP_NOT_AN_OPERATOR_OPTION (-1)
int qf_app_dirac_option(const char *command, int argc, char **argv, int *i, qf_dirac_params *p, qf_schur_form *form);

/* Quark actions (support/staggered.c): Wilson-clover (the default) or improved staggered, asqtad in
 * MILC's conventions (qf_staggered.h), chosen by --action, with the asqtad options --mass, --masses
 * and --u0; solve and propagator parse them, and refuse the options of the other action. */
typedef enum { QF_APP_WILSON = 0, QF_APP_ASQTAD } qf_app_action;
typedef struct {
    qf_app_action action;
    int nmass;      /* masses given: 1 for --mass, the list's length for --masses, 0 for none */
    int mass_list;  /* given as --masses (a multi-mass solve) */
    double mass[QF_MULTISHIFT_MAX];
    double u0;      /* tadpole factor of the smearing (default 1) */
    int u0_given, solver_given;
    const char *fat_file, *long_file; /* --fat, --long: links read instead of smeared */
    const char *wilson_option; /* the first Wilson-only option given (--kappa, --csw, --recon, --mg-* ...) */
} qf_app_quarks;
/* wilson or asqtad: 0, or -1 for another name. */
int qf_app_action_parse(const char *s, qf_app_action *a);
/* The Wilson action, no mass, u0 1. */
void qf_app_quarks_defaults(qf_app_quarks *q);
/* --action, --mass, --masses and --u0 at argv[*i], validated: 0, a usage error's exit code, or
 * QF_APP_NOT_A_QUARK_OPTION for any other option (Wilson-only options and --solver are noted on the
 * way, for qf_app_quarks_check, and left to the other parsers). */
#define QF_APP_NOT_A_QUARK_OPTION (-3)
int qf_app_quark_option(const char *command, int argc, char **argv, int *i, qf_app_quarks *q);
/* After all options: the refusal of the other action's options, the asqtad action's mass, and, with
 * sp, its solver (CG on the even-odd system unless --solver says otherwise; CG with --full, multigrid
 * and half precision refused; --masses only as the multi-shift CG on the even-odd system): 0 or a
 * usage error's exit code. */
int qf_app_quarks_check(const char *command, qf_app_quarks *q, qf_solver_params *sp);
/* Which action argv names with --action (the default when none): for options whose shape depends on
 * it (--point), parsed before --action may have been seen. */
qf_app_action qf_app_action_named(int argc, char **argv);
/* The asqtad operator of mass q->mass[0] in prec on gauge's lattice: the fat and Naik links smeared
 * (u0 q->u0, the boundary phases phase) or read (--fat, --long) and the operator built on them, the
 * links freed; prints the
 * line "links ..." with the smearing's time and, when --u0 was not given, a note (plaquette: the
 * field's, Re Tr / 3, for the suggestion of its fourth root; NaN: none). */
int qf_app_asqtad_create(qf_asqtad **op, const qf_field *gauge, const qf_app_quarks *q, const double phase[4][2],
                         qf_precision prec, double plaquette);
/* The fat and Naik links alone (qf_asqtad_links with u0, phase and the smearing algorithm), timed to the
 * end of their tasks. */
int qf_app_asqtad_links(const qf_field *gauge, double u0, const double phase[4][2], qf_asqtad_smearing smearing,
                        qf_field **links, double *seconds);
/* The note printed when --u0 was not given (stderr, rank 0). */
void qf_app_u0_note(int u0_given, double plaquette);
/* "operator      asqtad ..." and the boundary line; even_odd: the system solved is Mhat. */
void qf_app_print_asqtad(const qf_app_quarks *q, const double phase[4][2], qf_precision prec, int even_odd);
/* The masses as "0.1" or "0.1, 0.2, 0.4". */
void qf_app_format_masses(const qf_app_quarks *q, char *out, size_t size);

/* The problem apply and solve share (operator_problem.c): the gauge field (a file, or a generated
 * start field), the operator, the source and the output file. */
typedef struct {
    const char *gauge_file, *source, *out;
    qf_gauge_format format;
    int dims[4], blocks[4], point[6]; /* asqtad: point[4] 0, point[5] the colour */
    int tile[4];                      /* --tile: the gauge file's field replicated (1 1 1 1: not) */
    qf_gauge_start_kind start;
    uint64_t seed;
    double eps;
    qf_dirac_params p; /* asqtad: prec and phase only */
    qf_schur_form form;
    int out_bits;
    qf_app_quarks q;   /* the action (Wilson unless the command parses qf_app_quark_option) */
} qf_app_problem;
/* Weak start field (eps 0.1, seed 1) on 8^4, kappa 0.12, asymmetric Schur form, point source at the
 * origin, 64-bit output. */
void qf_app_problem_defaults(qf_app_problem *pr);
/* The gauge, operator, source and output options (and the gauge file) at argv[*i], validated: 0, a
 * usage error's exit code, or QF_APP_NOT_A_PROBLEM_OPTION for another option. */
#define QF_APP_NOT_A_PROBLEM_OPTION (-2)
int qf_app_problem_option(const char *command, int argc, char **argv, int *i, qf_app_problem *pr);
/* Before the runtime starts: checks the output file, reads the gauge file's header (or prints the
 * generated field's line) and checks the point source against the lattice, whose extents go to dims;
 * 0 or an exit code. */
int qf_app_problem_prepare(const char *command, const qf_app_problem *pr, int dims[4]);
/* The file --out writes for mass k of --masses (FILE.m<mass>), or --out itself for one mass. */
void qf_app_problem_out(const qf_app_problem *pr, int k, char *path, size_t size);
/* On the running processes: the lattice, the gauge field (read or generated), the operator built on
 * it, this process's part of the source (src) and the operator's input (the source) and output
 * fields; res has room for this process's part of a result. */
typedef struct {
    qf_lattice lat;
    qf_dirac *d;      /* the Wilson-clover operator, or */
    qf_asqtad *ks;    /* the asqtad one (of the first mass) */
    qf_field *in, *out;
    double *src, *res;
    int site_reals;   /* of src, res and the fields: 24 (Wilson) or 6 (staggered) */
    double build_seconds; /* of the operator */
} qf_app_setup;
/* sp: the solver the blocks are for (qf_app_lattice; NULL: none). */
int qf_app_setup_create(qf_app_setup *s, const qf_app_problem *pr, const int dims[4], const qf_solver_params *sp);
void qf_app_setup_destroy(qf_app_setup *s);
/* The setup's operator as a qf_linop (the caller destroys it before the setup). */
int qf_app_setup_linop(qf_app_setup *s, qf_linop **M);
/* The operator's lines: qf_app_print_operator's, or the asqtad ones. */
void qf_app_print_problem_operator(const qf_app_problem *pr, int even_odd);
/* |v|^2 of a field of site_reals reals a site in parts (this process's sites), summed over the
 * processes; even_only: the even sites only. */
double qf_app_norm2(const double *v, const qf_lattice *lat, int site_reals, int even_only);
/* --out: every process writes its part of the field (the solution or result: what) to path (a
 * Dirac-fermion or, for the asqtad action, a colour-vector file). */
int qf_app_write_result(const qf_app_problem *pr, const char *path, const qf_field *out, const char *what);

/* The solver options of solve, propagator and bench solver at argv[*i] (support/solver_options.c),
 * each validated alone: 0, a usage error's exit code, or QF_APP_NOT_A_SOLVER_OPTION.
 * QF_APP_SOLVER_HELP(MAX_ITER) is their help text for a command whose iteration limit is the macro
 * MAX_ITER (the one its parser sets, so that the help cannot name another). */
#define QF_APP_NOT_A_SOLVER_OPTION (-1)
int qf_app_solver_option(const char *command, int argc, char **argv, int *i, qf_solver_params *sp);
/* The commands' start: qf_solver_default_params with the tolerance left open, for qf_app_solver_check
 * to choose when no option gives it (the residual checks keep the method's cadence,
 * qf_solver_check_every, unless --check-every gives one). */
qf_solver_params qf_app_solver_defaults(void);
/* After all options: the defaults left open, and the checks that join several options (--tol
 * against the operator's precision op_prec, --check-every against --max-iter): 0 or a usage error's
 * exit code. */
int qf_app_solver_check(const char *command, qf_solver_params *sp, qf_precision op_prec);
/* "double", "single" or "double/single" (mixed) for a solve with an operator of precision op_prec;
 * and the one-line summary of the solver's settings. */
const char *qf_app_solver_precision(const qf_solver_params *sp, qf_precision op_prec);
/* What sp's solver needs to tile the blocks, direction by direction, for qf_app_lattice's default
 * grid: the multigrid aggregates (--mg-block) and SAP smoother's domains, GCR-SAP's domains; 1 where
 * nothing does. */
void qf_app_solver_block_multiple(const qf_solver_params *sp, int multiple[4]);
void qf_app_print_solver(const qf_solver_params *sp, qf_precision op_prec, const qf_lattice *lat);
/* --solver mg: the hierarchy for M (the --mg-* options, in single precision under a double operator)
 * into sp->mg, reported; the per-level statistics of the solves since the last report; the hierarchy
 * freed. Nothing for other solvers. */
int qf_app_mg_prepare(qf_linop *M, qf_solver_params *sp);
void qf_app_mg_report(qf_solver_params *sp);
void qf_app_mg_release(qf_solver_params *sp);
#define QF_APP_STR_(x) #x
#define QF_APP_STR(x) QF_APP_STR_(x) /* a numeric macro as a string literal, for help texts */
#define QF_APP_SOLVER_HELP(max_iter)                                                                                  \
    "  --solver S          bicgstab (default; cg with --action asqtad), gcr, cgnr (CG on M^dagger M x =\n"      \
    "                      M^dagger b), cgne (CG on M M^dagger y = b, x = M^dagger y), cg (CG on a hermitian\n"  \
    "                      system: the asqtad action's even-odd one), mr (minimal residual) or mg (flexible\n"  \
    "                      GCR preconditioned by an adaptive-multigrid K-cycle, the hierarchy in single\n"      \
    "                      precision, built once per operator; full lattice)\n"                                 \
    "  --tol T             true relative residual |b - M x| / |b| to reach, at least "                           \
    QF_APP_STR(QF_SOLVER_MIN_TOL_DOUBLE) " with a double-\n"                                                           \
    "                      precision operator and " QF_APP_STR(QF_SOLVER_MIN_TOL_SINGLE)                            \
    " with a single one (their rounding allows no less;\n"                                                             \
    "                      default 1e-10, or " QF_APP_STR(QF_SOLVER_MIN_TOL_SINGLE) " in single)\n"                   \
    "  --max-iter N        iteration limit (default " QF_APP_STR(max_iter) ")\n"                                     \
    "  --check-every K     the host reads the residual every K iterations, at most --max-iter (default 10;\n"         \
    "                      1 for --solver mg, whose iterations are whole K-cycles)\n"                                 \
    "  --sloppy P          precision of the iterations: double (default), single or half (16-bit, QUDA's);\n"   \
    "                      below the operator's it is mixed precision (reliable updates; GCR restarts)\n"       \
    "  --delta D           the residual's fall that triggers a high-precision update (default 0.1; 1e-3\n"      \
    "                      for --solver mg)\n"                                                               \
    "  --nkrylov N         GCR: search directions between restarts (default 16)\n"                                \
    "  --inner-mr N        GCR: MR steps of the preconditioner (default 0: none)\n"                               \
    "  --sap N             GCR: N Schwarz cycles as the preconditioner (GCR-SAP; with --full), default 0\n"      \
    "  --sap-block X Y Z T GCR-SAP's domains (default 4 4 4 4)    --sap-mr N  its MR steps a domain (default 4)\n" \
    "  --mg-levels N|auto  multigrid levels, 2 to 4; auto (default): as many as the lattice coarsens into with\n" \
    "                      even extents, up to 3 (3 from 16^4 with the default aggregates, 2 on 8^4)\n"        \
    "  --mg-nvec N[,N..]   near-null vectors of each level but the coarsest (default 24; the last repeats)\n"  \
    "  --mg-block X Y Z T  aggregate of fine sites a coarse site stands for (default 4 4 4 4; 2^4 below)\n"    \
    "  --mg-setup-iter N   inverse-iteration rounds per vector in the setup (default 3)\n"                    \
    "  --mg-setup-krylov N BiCGStab iterations of each round (default 24)\n"                                   \
    "  --mg-setup-refine N refinement cycles through the built hierarchy: each vector improved by GCR\n"     \
    "                      preconditioned by its level's K-cycle, then the level rebuilt (default 0)\n"     \
    "  --mg-refine-iter N  GCR iterations per vector and refinement cycle (default 4)\n"                   \
    "  --mg-smoother-steps N  even-odd MR post-smoothing steps on every level but the coarsest (default 5)\n" \
    "  --mg-smoother mr|sap  the finest level's smoother: even-odd MR steps (default) or the Schwarz\n"     \
    "                      alternating procedure (even-odd MR on domains with Dirichlet boundaries, no\n" \
    "                      messages)\n"                                                                    \
    "  --mg-prec single|double  the hierarchy's precision, and the outer GCR's iterations (default: single\n" \
    "                      under a double operator, the operator's own under a single one)\n"              \
    "  --mg-smoother-prec half|hierarchy  the finest level's MR smoother on a half-precision twin of its\n"  \
    "                      operator (QUDA's half smoother), or in the hierarchy's precision (default)\n"      \
    "  --mg-link-prec half|hierarchy  the coarse operators' links and X^-1 applied from 16-bit copies (a\n"  \
    "                      scale a matrix row; single hierarchy), or in the hierarchy's precision (default)\n" \
    "  --mg-null-prec half|hierarchy  restriction and prolongation from 16-bit copies of the near-null\n"   \
    "                      vectors (a scale a vector and site; single hierarchy), or as the hierarchy (default)\n" \
    "  --mg-sap-block X Y Z T  Schwarz domains (default 4 4 4 4; even, dividing the blocks, at most 256 sites)\n" \
    "  --mg-sap-cycles N   Schwarz cycles, each both colours of domains (default 4)\n"                       \
    "  --mg-sap-mr N       even-odd MR steps on each domain a cycle (default 4)\n"                          \
    "  --mg-coarse-tol T   relative residual of the coarse-grid GCR solves (default 0.25)\n"                   \
    "  --mg-coarse-max-iter N  iteration limit of each coarse-grid solve (default 100)\n"                   \
    "  --mg-coarse-nkrylov N  GCR search directions of the coarse-grid solves (default 64, at most 64)\n"   \
    "  --mg-coarse-one-task 3|2|1|0  3 (default): every coarse lattice made one block a process, each\n"  \
    "                      coarse solve one task with the levels below inside (where they are placed\n"   \
    "                      alike); 2: the coarsest lattice made one block, its solves one task each, the\n" \
    "                      levels above as task graphs; 1: one task only where the coarsest is one block\n" \
    "                      anyway; 0: the coarse solves as task graphs over blocks\n"                     \
    "  --mg-coarse-dense N|auto  the coarsest level's even-odd Schur complement inverted densely in the setup\n" \
    "                      and applied in place of its GCR where its dimension is at most N (0: never;\n"   \
    "                      default auto: 8192 where a GPU may run it, else 1024; needs one-task solves)\n"  \
    "  --mg-location P[,P..]  where each level's tasks run, from the finest: cpu, gpu or auto (default auto:\n" \
    "                      the scheduler decides; on CPU+GPU nodes the setup times the coarse levels on\n"   \
    "                      each and keeps the faster; the last repeats), e.g. gpu,cpu for coarse grids on CPUs\n"

/* The help text of the asqtad action's options (qf_app_quark_option). */
#define QF_APP_ASQTAD_HELP                                                                                             \
    "  --action A          wilson (default: Wilson-clover, --kappa, --csw) or asqtad (improved staggered)\n"      \
    "  --mass M            asqtad: the quark mass m > 0 (MILC's M = 2m + D); --action asqtad needs it or\n"      \
    "  --masses M1,M2,...  asqtad: several masses at once (up to " QF_APP_STR(QF_MULTISHIFT_MAX) ") by multi-shift CG, MILC's\n" \
    "                      multi-mass inverter: one Krylov space on the even and one on the odd sites\n"         \
    "  --u0 U              asqtad: tadpole factor of the links' smearing, in (0, 1] (default 1: none; MILC\n"   \
    "                      runs give it, usually the fourth root of the plaquette)\n"                          \
    "  --fat F --long L    asqtad: the links read from quarkflow links' files instead of smeared\n"          \
    "  --prec P, --bc X Y Z T  as for the Wilson action: the operator's precision (double or single) and the\n" \
    "                      boundary phases, which the links carry besides the staggered phases\n"

/* Traces (support/trace.c): after a run with --trace DIR, the runtime's conversion of DIR's FxT records
 * (qf_runtime_trace_convert) and DIR/summary.txt; the summary of a tasks.rec (window: the codelet
 * whose first task starts the span, or NULL); and a per-worker Gantt chart of [from, to) ms after the
 * first recorded task, one colour per codelet: DIR/gantt.dat (a block of bars per codelet),
 * DIR/gantt.gp and, through gnuplot, the picture. */
void qf_app_trace_finish(const char *dir);
int qf_app_trace_summary(const char *tasks_rec, const char *window, FILE *out);
int qf_app_trace_gantt(const char *dir, double from, double to, const char *picture);
/* Where each worker of a tasks.rec waited (window as for the summary): per worker its idle time before
 * each task name (from the latest end of its earlier tasks), and the top largest gaps with the tasks on
 * either side and the waiting task's submission time. */
int qf_app_trace_gaps(const char *tasks_rec, const char *window, int top, FILE *out);
/* What the runtime's threads and memory managers did between from and to ms of a paje.trace (the
 * times ViTE shows): the top largest times a container spent in a state (FetchingInput, Executing,
 * DriverCopyAsync ...), the top longest state intervals, and the transfers and MPI messages by kind
 * and ends with their bytes and rates. A worker in FetchingInput while a memory manager copies in idle
 * time waits for that copy. */
int qf_app_trace_states(const char *paje, double from, double to, int top, FILE *out);
/* Plots (support/plot.c). Runs gnuplot on script (without a shell), which must write picture; fails
 * with a message naming the fix when gnuplot is missing or fails. */
int qf_app_gnuplot(const char *script, const char *picture);
/* s as a gnuplot single-quoted string into out: gnuplot substitutes nothing inside one (no `command`,
 * no @macro) and reads '' as a quote, so a file name with quotes stays a name in a script; a control
 * character, which would end the script's line, is refused with a message. */
int qf_app_gnuplot_string(const char *s, char *out, size_t size);
/* PICTURE.dat opened for writing the data of a plot, or NULL with a message. */
FILE *qf_app_plot_data(const char *picture);
/* Writes PICTURE.gp from script, a printf format whose %1$s is PICTURE and %2$s the data file
 * PICTURE.dat (the caller's), both quoted for gnuplot, and runs gnuplot on it (qf_app_gnuplot). */
int qf_app_plot_script(const char *picture, const char *script);

/* Chooses the block grid: the user's, or the default QF_APP_BLOCKS_HELP describes, whose blocks the
 * solver sp's aggregates and domains tile (qf_app_solver_block_multiple; NULL: no solver). */
int qf_app_lattice(qf_lattice *lat, const int dims[4], const int blocks_opt[4], int min_block_extent,
                   const qf_solver_params *sp);
/* The same, with several blocks a CPU worker on CPUs alone in one process too: graphs for the
 * scheduling policies to place (bench sched), and the asqtad smearing (links), whose many small tasks
 * run 1.4-1.7x faster over blocks than on one block's team. */
int qf_app_lattice_spread(qf_lattice *lat, const int dims[4], const int blocks_opt[4], int min_block_extent);
/* --blocks in the commands' help, with its default */
#define QF_APP_BLOCKS_HELP                                                                                    \
    "  --blocks BX BY BZ BT  block grid of the task graph (default: 1 per GPU; on CPUs alone in one process\n" \
    "                      1 up to 32768 sites a worker, whose tasks share the cores, else up to 4 a\n"       \
    "                      worker, none under 8192 sites)\n"

/* The global options' help text. */
extern const char qf_app_global_help[];
/* 1, after printing the command's help and the global options, when argv[first..] holds -h or --help. */
int qf_app_help_requested(int argc, char **argv, int first, const char *help);

#endif
