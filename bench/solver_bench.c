/* quarkflow bench solver: time to solution, iterations and sustained GFLOPS of the Krylov solvers on
 * the even-odd Wilson-clover operator, in uniform and mixed precision, with the workers' idle share
 * of each solve (qf_runtime_stats) and the runtime's overhead against the kernels called directly.
 *
 *   Mhat      for each precision the iterations run in, one application of the even-odd operator
 *             timed as a task graph and as the same kernels called directly (bench dslash's plan,
 *             include/quarkflow/qf_direct.h), after checking that both give the same result;
 *   solves    for each configuration (solver x sloppy precision), a first solve of M x = b from
 *             x = 0 to the tolerance, which allocates the solver's temporaries (the operator keeps
 *             them for the next solve; a 32^4 GPU allocation has cost over 100 ms), then the same
 *             solve again, timed with the workers' statistics: the steady state of a propagator;
 *   overhead  time to solution / (operator applications x direct Mhat time in the iterations'
 *             precision): what the runtime, the BLAS tasks and the residual checks add to the bare
 *             operator kernels (1 would be a solve that costs only its operator applications).
 *
 * The problem is bench dslash's weak field (eps 0.1), at kappa 0.125 and c_sw 1.0 by default: a
 * light but massive quark on that field (BiCGStab takes about 100 iterations to 1e-10 on 16^4). */
#include "app.h"
#include "dslash_bench.h"
#include "qf_bench.h"

#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_ITER 2000 /* for the parser and the help text alike */

static const char help[] =
    "usage: quarkflow bench solver [options]\n"
    "\n"
    "Solves M x = b for the even-odd Wilson-clover operator on a weak-field gauge field (eps 0.1) and a\n"
    "random source with each configuration of solver and sloppy precision, and prints a table: solver,\n"
    "precision, iterations, high-precision updates, true residual, time to solution, sustained GFLOPS\n"
    "(operator flops by QUDA's counts / time), operator applications per iteration, the overhead\n"
    "against the directly called kernels, and the idle share of the CPU and CUDA workers over the\n"
    "solve. Each configuration is solved four times: the first solve allocates the solver's temporaries\n"
    "(column 'first s'), the second has been seen to pay once more ('second s'), the third is the one\n"
    "measured, the fourth runs under StarPU's profiling for the idle shares ('profiled s'). Before the\n"
    "solves, Mhat is timed as a task graph and as the same kernels without StarPU (as bench dslash\n"
    "does) in each precision the iterations use.\n"
    "\n"
    "Options:\n"
    "  --dim X Y Z T       lattice extents (default 16 16 16 16, or 32 32 32 32 with a CUDA worker)\n"
    QF_APP_BLOCKS_HELP
    "  --solver LIST       solvers, comma-separated: cgnr, cgne, bicgstab, gcr, mr (default cgnr,bicgstab)\n"
    "  --sloppy LIST       precisions of the iterations, comma-separated: double, single, half (default\n"
    "                      double,single; a precision below the operator's is mixed precision)\n"
    "  --kappa K           hopping parameter (default 0.125)\n"
    "  --csw C             clover coefficient (default 1.0)\n"
    "  --prec double|single  precision of the operator and of the solution (default double)\n"
    "  --recon 18|12|8     reals kept a gauge link: whole links, two rows, or QUDA's 8 (default 18);\n"
    "                      the kernels rebuild the rest, which needs SU(3) links\n"
    "  --recon-sloppy R    the same for the operator's copies in a solver's sloppy precision (default:\n"
    "                      as --recon)\n"
    "  --schur asym|sym    even-odd form (default asym)\n"
    "  --bc X Y Z T        boundary phases as for quarkflow apply (default periodic in space, antiperiodic in t)\n"
    "  --tol T             true relative residual to reach (default 1e-10, or " QF_APP_STR(QF_SOLVER_MIN_TOL_SINGLE)
    " with --prec single;\n"
    "                      at least " QF_APP_STR(QF_SOLVER_MIN_TOL_DOUBLE) " in double)\n"
    "  --max-iter N        iteration limit of each solve (default " QF_APP_STR(BENCH_MAX_ITER) ")\n"
    "  --check-every K     the host reads the residual every K iterations, at most --max-iter (default 10)\n"
    "  --delta D, --nkrylov N, --inner-mr N   as for quarkflow solve\n"
    "  --iters N           timed Mhat applications (default: enough for about 0.5 s each way)\n"
    "  --warmup W          untimed Mhat applications before each timing (default 2)\n"
    "  --seed S            seed of the gauge field and the source (default 1)\n"
    "\n"
    "The global option --verbose also prints the workers' table of every solve. Results: bench/RESULTS.md.\n\n";

enum { MAX_LIST = 8 };

typedef struct {
    int dims[4], blocks[4];
    qf_dirac_params p;
    qf_schur_form form;
    qf_solver_params sp;
    qf_solver_kind solver[MAX_LIST];
    qf_precision sloppy[MAX_LIST];
    int nsolver, nsloppy;
    long iters;
    int warmup;
    uint64_t seed;
} bench_opts;

static const double target_seconds = 0.5;

/* A comma-separated list of solvers or precisions at argv[*i + 1]. */
static int parse_list(const char *cmd, int argc, char **argv, int *i, int solvers, bench_opts *o)
{
    const char *a = argv[*i];
    if (*i + 1 >= argc || !argv[*i + 1][0])
        return qf_app_usage_error(cmd, "%s needs a comma-separated list (%s)", a,
                                  solvers ? "cgnr, cgne, bicgstab, gcr, mr" : "double, single");
    char list[256];
    snprintf(list, sizeof list, "%s", argv[++*i]);
    int n = 0;
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (n == MAX_LIST) return qf_app_usage_error(cmd, "%s: at most %d entries", a, MAX_LIST);
        if (solvers ? qf_solver_parse(item, &o->solver[n]) : qf_precision_parse(item, &o->sloppy[n]))
            return qf_app_usage_error(cmd, "%s: '%s' is not one of %s", a, item,
                                      solvers ? "cgnr, cgne, bicgstab, gcr, mr" : "double, single");
        n++;
    }
    if (!n) return qf_app_usage_error(cmd, "%s: the list '%s' is empty", a, argv[*i]);
    *(solvers ? &o->nsolver : &o->nsloppy) = n;
    return 0;
}

static int parse(int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->p = qf_dirac_default_params(0.125);
    o->p.csw = 1.0;
    o->form = QF_SCHUR_ASYMMETRIC;
    o->sp = qf_app_solver_defaults();
    o->sp.max_iter = BENCH_MAX_ITER;
    o->solver[0] = QF_SOLVER_CGNR;
    o->solver[1] = QF_SOLVER_BICGSTAB;
    o->nsolver = 2;
    o->sloppy[0] = QF_DOUBLE;
    o->sloppy[1] = QF_SINGLE;
    o->nsloppy = 2;
    o->warmup = 2;
    o->seed = 1;
    const char *cmd = "bench solver";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if (!strcmp(a, "--solver") || !strcmp(a, "--sloppy")) {
            rc = parse_list(cmd, argc, argv, &i, !strcmp(a, "--solver"), o);
        } else if ((op_rc = qf_app_solver_option(cmd, argc, argv, &i, &o->sp)) != QF_APP_NOT_A_SOLVER_OPTION) {
            rc = op_rc;
        } else if ((op_rc = qf_app_dirac_option(cmd, argc, argv, &i, &o->p, &o->form)) != QF_APP_NOT_AN_OPERATOR_OPTION) {
            rc = op_rc;
        } else if (!strcmp(a, "--dim")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        } else if ((op_rc = qf_bench_timing_option(cmd, argc, argv, &i, &o->iters, &o->warmup, &o->seed)) !=
                   QF_BENCH_NOT_A_TIMING_OPTION) {
            rc = op_rc;
        } else {
            return qf_app_usage_error(cmd, "%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument", a);
        }
        if (rc) return rc;
    }
    return qf_app_solver_check(cmd, &o->sp, o->p.prec);
}

/* The precision the iterations of a solve with sloppy precision s run in. */
static qf_precision iteration_prec(qf_precision s, qf_precision op) { return s > op ? s : op; /* counts down */ }

/* Mhat in precision prec (the operator d's twin): the task graph's and the direct kernels' time of
 * one application, after checking that they agree; *t_direct is the direct kernels' seconds. */
static int time_mhat(const bench_opts *o, const qf_lattice *lat, qf_dirac *d, const qf_field *u, const double *src,
                     qf_precision prec, int gpu, int device, double *t_direct)
{
    qf_dirac *dp = NULL;
    qf_field *f[2] = {NULL, NULL};
    qf_direct *dk = NULL;
    int64_t vol = lat->global_volume;
    double *ref = malloc((size_t)vol * 24 * sizeof *ref), diff = 0.0, t_graph = 0.0;
    int rc = !ref ? qf_fail("out of host memory for a colour-spinor field") : QF_SUCCESS;
    rc = rc || qf_dirac_in_precision(d, prec, &dp) || qf_field_create(&f[0], lat, QF_FIELD_WILSON, prec, 0) ||
         qf_field_create(&f[1], lat, QF_FIELD_WILSON, prec, 0) || qf_field_import(f[0], src) ||
         qf_dirac_apply(dp, QF_OP_MHAT, f[1], f[0]) || qf_field_export(f[1], ref) ||
         qf_direct_create(&dk, lat, qf_dirac_get_params(dp), o->form, u, f[0], gpu, device) || qf_direct_check(dk, ref, &diff);
    if (!rc) {
        printf("progress      Mhat %s: the direct kernels agree with the task graph (relative difference %.1e); timing\n",
               qf_precision_name(prec), diff);
        fflush(stdout);
    }
    /* means: a solve's time to solution is a mean over its applications too */
    qf_timing t;
    rc = rc || qf_bench_graph_time(dp, f, o->warmup, o->iters, target_seconds, &t);
    if (!rc) t_graph = t.seconds / (double)t.n;
    rc = rc || qf_direct_time(dk, o->warmup, 0, o->iters, target_seconds, &t);
    if (!rc) {
        *t_direct = t.seconds / (double)t.n;
        double flops = qf_dirac_flops(dp, QF_OP_MHAT);
        printf("Mhat          %s: task graph %.1f us, direct kernels %.1f us an application (%.2f / %.2f GFLOPS); "
               "graph / direct %.3f\n",
               qf_precision_name(prec), t_graph * 1e6, *t_direct * 1e6, flops / t_graph * 1e-9, flops / *t_direct * 1e-9,
               t_graph / *t_direct);
    }
    qf_direct_destroy(dk);
    for (int k = 0; k < 2; k++)
        if (f[k]) qf_field_destroy(f[k]);
    free(ref);
    return rc;
}

typedef struct {
    qf_solver_params sp;
    qf_solver_result r;
    double first_seconds;    /* of the first solve, which allocates the temporaries */
    double second_seconds;   /* of the second, which has paid once more (below) */
    double profiled_seconds; /* of the third, under StarPU's profiling, which gives the idle shares */
    double idle_cpu, idle_cuda, apps_per_iter, overhead;
} row;

static void print_idle(double f)
{
    if (f < 0) printf(" %9s", "-");
    else printf(" %8.1f%%", 100.0 * f);
}

static int solver_bench(const bench_opts *o)
{
    int ncpu = qf_runtime_ncpu_workers(), ncuda = qf_runtime_ncuda_workers();
    int dims[4] = {16, 16, 16, 16}, gpu, device;
    if (ncuda > 0) dims[0] = dims[1] = dims[2] = dims[3] = 32;
    if (o->dims[0]) memcpy(dims, o->dims, sizeof dims);
    qf_lattice lat;
    if (qf_direct_path(&gpu, &device) || qf_app_lattice(&lat, dims, o->blocks, 1, &o->sp)) return QF_ERROR;

    printf("bench solver  even-odd Wilson%s solves of M x = b, random source, seed %llu, to |b - M x| / |b| <= %.1e\n",
           o->p.csw != 0.0 ? "-clover" : "", (unsigned long long)o->seed, o->sp.tol);
    printf("lattice       %d %d %d %d, weak-field gauge (eps 0.1), blocks %d x %d x %d x %d of %d x %d x %d x %d sites\n",
           dims[0], dims[1], dims[2], dims[3], lat.blocks[0], lat.blocks[1], lat.blocks[2], lat.blocks[3], lat.block[0],
           lat.block[1], lat.block[2], lat.block[3]);
    qf_app_print_operator(&o->p, o->form);
    printf("workers       %d CPU + %d CUDA (scheduler %s); direct kernels on %s\n", ncpu, ncuda, qf_runtime_sched_name(),
           gpu ? "the GPU (one stream)" : "one thread per CPU worker");
    fflush(stdout);

    int64_t vol = lat.global_volume;
    int nrows = o->nsolver * o->nsloppy;
    row rows[MAX_LIST * MAX_LIST];
    double t_direct[3] = {0.0, 0.0, 0.0}; /* the direct kernels' seconds an Mhat application, [qf_precision] */
    qf_field *u = NULL, *b = NULL, *x = NULL;
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    double *src = malloc((size_t)vol * 24 * sizeof *src);
    int rc = !src ? qf_fail("out of host memory for a colour-spinor field") : QF_SUCCESS;
    rc = rc || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_WEAK, o->seed, 0.1) ||
         qf_dirac_create(&d, u, &o->p, o->form) || qf_dirac_linop(d, &M);
    if (!rc) qf_app_random_spinor(src, vol, o->seed);

    /* Mhat in each precision some configuration iterates in (this also builds the sloppy twin, so that
     * the solves' times do not include it) */
    for (int prec = QF_DOUBLE; prec <= QF_HALF && !rc; prec++) {
        int needed = 0;
        for (int k = 0; k < o->nsloppy; k++) needed |= iteration_prec(o->sloppy[k], o->p.prec) == (qf_precision)prec;
        if (needed) rc = time_mhat(o, &lat, d, u, src, (qf_precision)prec, gpu, device, &t_direct[prec]);
    }
    if (u) qf_field_destroy(u);
    rc = rc || qf_field_create(&b, &lat, QF_FIELD_WILSON, o->p.prec, 0) ||
         qf_field_create(&x, &lat, QF_FIELD_WILSON, o->p.prec, 0) || qf_field_import(b, src);

    double mhat_flops = rc ? 0.0 : qf_dirac_flops(d, QF_OP_MHAT);
    for (int k = 0; k < nrows && !rc; k++) {
        row *w = &rows[k];
        w->sp = o->sp;
        w->sp.kind = o->solver[k % o->nsolver];
        w->sp.sloppy = o->sloppy[k / o->nsolver];
        w->sp.verbose = qf_app.verbose;
        const char *name = qf_solver_name(w->sp.kind), *prec = qf_app_solver_precision(&w->sp, o->p.prec);
        printf("progress      solve %d/%d: %s, %s\n", k + 1, nrows, name, prec);
        fflush(stdout);
        qf_runtime_stats *stats = NULL;
        qf_solver_result profiled;
        rc = qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &w->sp, &w->r);
        w->first_seconds = w->r.seconds;
        /* the second solve of a process has paid 0.3-0.45 s more than the others at 32^4 on an H200
         * (2026-11-26: three tasks of 77-152 ms at its start, bench/RESULTS.md); the third is measured,
         * without StarPU's profiling; a fourth, profiled one gives the workers' idle shares */
        rc = rc || qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &w->sp, &w->r);
        w->second_seconds = w->r.seconds;
        qf_runtime_trace_begin();
        rc = rc || qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &w->sp, &w->r);
        qf_runtime_trace_end();
        rc = rc || qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_runtime_stats_begin();
        if (rc) break;
        /* the interval ends also after a failed solve, so that profiling is off again */
        rc = qf_solve(M, x, b, &w->sp, &profiled);
        rc = qf_runtime_stats_end(&stats) || rc;
        w->profiled_seconds = profiled.seconds;
        if (rc) {
            qf_fail_context("bench solver, %s in %s", name, prec);
            break;
        }
        w->idle_cpu = qf_runtime_stats_idle_fraction(stats, QF_WORKER_CPU);
        w->idle_cuda = qf_runtime_stats_idle_fraction(stats, QF_WORKER_CUDA);
        double apps = w->r.flops / mhat_flops;
        w->apps_per_iter = w->r.iterations ? apps / w->r.iterations : 0.0;
        w->overhead = w->r.seconds / (apps * t_direct[iteration_prec(w->sp.sloppy, o->p.prec)]);
        printf("progress      solve %d/%d: %s, %s: %d iterations, %.3f s\n", k + 1, nrows, name, prec, w->r.iterations,
               w->r.seconds);
        if (qf_app.verbose) qf_runtime_stats_print(stats, stdout);
        fflush(stdout);
        qf_runtime_stats_free(stats);
    }

    if (!rc) {
        printf("\n%-9s %-13s %6s %7s %9s %8s %8s %8s %8s %7s %8s %10s %9s %9s\n", "solver", "precision", "iters",
               "updates", "residual", "first s", "second s", "time s", "GFLOPS", "Mhat/it", "overhead", "profiled s",
               "CPU idle", "CUDA idle");
        for (int k = 0; k < nrows; k++) {
            const row *w = &rows[k];
            printf("%-9s %-13s %6d %7d %9.2e %8.3f %8.3f %8.3f %8.2f %7.2f %8.2f", qf_solver_name(w->sp.kind),
                   qf_app_solver_precision(&w->sp, o->p.prec), w->r.iterations, w->r.updates, w->r.residual,
                   w->first_seconds, w->second_seconds, w->r.seconds, w->r.flops / w->r.seconds * 1e-9, w->apps_per_iter, w->overhead);
            printf(" %10.3f", w->profiled_seconds);
            print_idle(w->idle_cpu);
            print_idle(w->idle_cuda);
            printf("\n");
        }
        printf("\nfirst s: the first solve, which allocates the temporaries; second s: the second; time s and\n"
               "what follows it: the third. GFLOPS: operator flops (QUDA's counts) / time to solution. Mhat/it: operator applications\n"
               "per iteration (restarts and true residuals included). overhead: time to solution / (applications\n"
               "x the direct kernels' Mhat time in the iterations' precision): what the runtime, the BLAS tasks\n"
               "and the residual checks add to the bare operator. profiled s and idle: a fourth solve under\n"
               "StarPU's profiling, and the workers' idle share of it.\n");
    }
    qf_linop_destroy(M);
    if (d) qf_dirac_destroy(d);
    if (b) qf_field_destroy(b);
    if (x) qf_field_destroy(x);
    free(src);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_bench_solver(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    bench_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    qf_app.runtime.trace_window = 1; /* the trace holds the measured solves */
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = qf_app_single_process("bench solver") || solver_bench(&o);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
