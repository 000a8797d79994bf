/* quarkflow solve: one solve of M x = b (qf_solver.h) for the Wilson-clover operator, its iterations
 * task graphs, on a gauge file or a generated start field, with a point, random or file source; the
 * solution goes to a SciDAC/USQCD Dirac-fermion file. */
#include "app.h"
#include "commands.h"

#include <string.h>

static const char help[] =
    "usage: quarkflow solve [GAUGE_FILE] [options]\n"
    "\n"
    "Solves M x = b for the Wilson-clover operator with a Krylov solver whose iterations are task graphs\n"
    "(the host reads the residual only every --check-every iterations), prints the iterated residual\n"
    "as it goes, then the iterations, the true residual |b - M x| / |b|, the time and the GFLOPS of the\n"
    "operator applications, and the workers' statistics over the solve (rank 0's workers): per worker\n"
    "the tasks, the busy time (running codelets), the idle share and the tasks of each codelet kind,\n"
    "from StarPU's profiling, which is on during the solve only. --out writes the solution x.\n"
    "\n"
    "Solver:\n" QF_APP_SOLVER_HELP(QF_SOLVER_DEFAULT_MAX_ITER)
    "  --full              solve on the full lattice instead of the even-odd Schur system\n"
    "\n"
    "The gauge field, operator, source and output options are those of quarkflow apply (see\n"
    "'quarkflow apply --help'), except --op.\n\n";

static int parse(int argc, char **argv, qf_app_problem *o, qf_solver_params *sp)
{
    qf_app_problem_defaults(o);
    *sp = qf_app_solver_defaults();
    sp->verbose = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = qf_app_solver_option("solve", argc, argv, &i, sp);
        if (rc == QF_APP_NOT_A_SOLVER_OPTION) {
            if (!strcmp(a, "--full")) {
                sp->even_odd = 0;
                continue;
            }
            if (!strcmp(a, "--op")) return qf_app_usage_error("solve", "--op belongs to quarkflow apply: solve always solves M x = b");
            rc = qf_app_problem_option("solve", argc, argv, &i, o);
            if (rc == QF_APP_NOT_A_PROBLEM_OPTION) return qf_app_usage_error("solve", "unknown option '%s'", a);
        }
        if (rc) return rc;
    }
    return qf_app_solver_check("solve", sp, o->p.prec);
}

static int run(const qf_app_problem *o, qf_solver_params *sp, const int dims[4])
{
    qf_app_setup s;
    if (qf_app_setup_create(&s, o, dims)) return QF_ERROR;
    qf_runtime_wait_all();
    qf_app_print_operator(&o->p, o->form);
    qf_app_print_solver(sp, o->p.prec);
    fflush(stdout);
    qf_linop *M = NULL;
    qf_solver_result sr;
    qf_runtime_stats *stats = NULL;
    int rc = qf_blas_axpby(0.0, NULL, 0.0, s.out, -1) || qf_runtime_stats_begin();
    if (!rc) {
        /* the interval ends also after a failed solve, so that profiling is off again */
        qf_runtime_trace_begin();
        rc = qf_dirac_linop(s.d, &M) || qf_app_mg_prepare(M, sp) || qf_solve(M, s.out, s.in, sp, &sr);
        qf_runtime_trace_end();
        rc = qf_runtime_stats_end(&stats) || rc;
    }
    if (!rc) {
        printf("solved        %d iterations, %d high-precision updates, true residual |b - M x| / |b| = %.3e, "
               "%.3f s, %.2f GFLOPS\n",
               sr.iterations, sr.updates, sr.residual, sr.seconds, sr.flops / sr.seconds * 1e-9);
        qf_app_mg_report(sp);
        if (qf_runtime_rank() == 0) qf_runtime_stats_print(stats, stdout);
    }
    qf_runtime_stats_free(stats);
    rc = rc || qf_field_export_local(s.out, s.res);
    if (!rc) {
        printf("|x|^2         %.15e\n", qf_app_norm2(s.res, &s.lat, 0));
        if (o->out) rc = qf_app_write_result(o, s.out, "the solution");
    }
    qf_app_mg_release(sp);
    qf_linop_destroy(M);
    qf_app_setup_destroy(&s);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cmd_solve(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    qf_app_problem o;
    qf_solver_params sp;
    int dims[4];
    int rc = parse(argc, argv, &o, &sp);
    if (rc || (rc = qf_app_problem_prepare("solve", &o, dims))) return rc;
    qf_app.runtime.trace_window = 1; /* a solve's trace holds the solve only */
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = run(&o, &sp, dims);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
