/* quarkflow solve: one solve of M x = b (qf_solver.h) for the Wilson-clover operator or, with --action
 * asqtad, the improved staggered one (qf_staggered.h; --masses: many masses by multi-shift CG), its
 * iterations task graphs, on a gauge file or a generated start field, with a point, random or file
 * source; the solution goes to a SciDAC/USQCD Dirac-fermion (colour-vector) file. */
#include "app.h"
#include "commands.h"

#include <string.h>

static const char help[] =
    "usage: quarkflow solve [GAUGE_FILE] [options]\n"
    "\n"
    "Solves M x = b for the Wilson-clover operator (or the asqtad one: below) with a Krylov solver whose\n"
    "iterations are task graphs (the host reads the residual only every --check-every iterations),\n"
    "prints the iterated residual as it goes, then the iterations, the true residual |b - M x| / |b|,\n"
    "the time and the GFLOPS of the operator applications, and the workers' statistics over the solve\n"
    "(rank 0's workers): per worker the tasks, the busy time (running codelets), the idle share and the\n"
    "tasks of each codelet kind, from StarPU's profiling, which is on during the solve only. --out\n"
    "writes the solution x.\n"
    "\n"
    "Solver:\n" QF_APP_SOLVER_HELP(QF_SOLVER_DEFAULT_MAX_ITER)
    "  --full              solve on the full lattice instead of the even-odd Schur system\n"
    "\n"
    "The gauge field, operator, source and output options are those of quarkflow apply (see\n"
    "'quarkflow apply --help'), except --op.\n"
    "\n"
    "Improved staggered (asqtad) quarks, MILC's conventions: M = 2m + D on fat and Naik links smeared from\n"
    "the gauge field (with the staggered phases and --bc), even-odd system 2m - D_eo D_oe / 2m:\n" QF_APP_ASQTAD_HELP
    "  --point X Y Z T C   with --action asqtad: the point source's site and colour\n"
    "  --source FILE       with --action asqtad: a SciDAC colour vector (MILC's ksvector files)\n"
    "  --out FILE          with --action asqtad: the solution as a SciDAC colour vector; with --masses one\n"
    "                      file per mass, FILE.m<mass> (e.g. x.m0.01)\n"
    "The asqtad action solves by CG on the even-odd system (--solver cg, the default there), or with\n"
    "--solver bicgstab|gcr (also on the full lattice, --full); --sloppy single runs mixed precision.\n"
    "--kappa, --csw, --recon, --schur and the multigrid and Schwarz options belong to the Wilson-clover\n"
    "action and are refused with it.\n\n";

static int parse(int argc, char **argv, qf_app_problem *o, qf_solver_params *sp)
{
    qf_app_problem_defaults(o);
    *sp = qf_app_solver_defaults();
    sp->verbose = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = qf_app_quark_option("solve", argc, argv, &i, &o->q);
        if (rc == QF_APP_NOT_A_QUARK_OPTION) rc = qf_app_solver_option("solve", argc, argv, &i, sp);
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
    int rc = qf_app_quarks_check("solve", &o->q, sp);
    return rc ? rc : qf_app_solver_check("solve", sp, o->p.prec);
}

/* --masses: every mass at once (qf_asqtad_multimass), each mass's result and solution. */
static int run_masses(const qf_app_problem *o, qf_solver_params *sp, qf_app_setup *s)
{
    int n = o->q.nmass;
    qf_field *x[QF_MULTISHIFT_MAX] = {NULL};
    qf_solver_result res[QF_MULTISHIFT_MAX];
    qf_runtime_stats *stats = NULL;
    int rc = QF_SUCCESS;
    for (int k = 0; k < n && !rc; k++) rc = qf_field_create(&x[k], &s->lat, QF_FIELD_STAGGERED, o->p.prec, 0);
    rc = rc || qf_runtime_stats_begin();
    if (!rc) {
        qf_runtime_trace_begin();
        rc = qf_asqtad_multimass(s->ks, n, o->q.mass, x, s->in, sp, res);
        qf_runtime_trace_end();
        rc = qf_runtime_stats_end(&stats) || rc;
    }
    if (!rc) /* seconds and flops are the whole solve's, every mass's iterations its own */
        printf("solved        %d masses by multi-shift CG on the even and odd sites, %.3f s, %.2f GFLOPS\n", n,
               res[0].seconds, res[0].flops / res[0].seconds * 1e-9);
    for (int k = 0; k < n && !rc; k++) {
        rc = qf_field_export_local(x[k], s->res);
        if (!rc)
            printf("mass %-8g %d iterations, %d high-precision updates, true residual |b - M x| / |b| = %.3e, |x|^2 "
                   "%.15e\n",
                   o->q.mass[k], res[k].iterations, res[k].updates, res[k].residual,
                   qf_app_norm2(s->res, &s->lat, s->site_reals, 0));
    }
    if (!rc && qf_runtime_rank() == 0) qf_runtime_stats_print(stats, stdout);
    qf_runtime_stats_free(stats);
    for (int k = 0; k < n && !rc && o->out; k++) {
        char path[4096], what[64];
        qf_app_problem_out(o, k, path, sizeof path);
        snprintf(what, sizeof what, "the solution of mass %g", o->q.mass[k]);
        rc = qf_app_write_result(o, path, x[k], what);
    }
    for (int k = 0; k < n; k++)
        if (x[k]) qf_field_destroy(x[k]);
    return rc;
}

static int run(const qf_app_problem *o, qf_solver_params *sp, const int dims[4])
{
    qf_app_setup s;
    if (qf_app_setup_create(&s, o, dims, sp)) return QF_ERROR;
    qf_runtime_wait_all();
    qf_app_print_problem_operator(o, sp->even_odd);
    if (o->q.mass_list)
        printf("solver        multi-shift CG on -D_eo D_oe + 4m^2 and -D_oe D_eo + 4m^2, x = M^dag y (MILC's multi-mass "
               "inverter), %s, tolerance %.1e, at most %d iterations, residual read every %d\n",
               qf_app_solver_precision(sp, o->p.prec), sp->tol, sp->max_iter, qf_solver_check_every(sp));
    else
        qf_app_print_solver(sp, o->p.prec, &s.lat);
    fflush(stdout);
    if (o->q.mass_list) {
        int rc = run_masses(o, sp, &s);
        qf_app_setup_destroy(&s);
        return rc ? QF_ERROR : QF_SUCCESS;
    }
    qf_linop *M = NULL;
    qf_solver_result sr;
    qf_runtime_stats *stats = NULL;
    int rc = qf_blas_axpby(0.0, NULL, 0.0, s.out, -1) || qf_runtime_stats_begin();
    if (!rc) {
        /* the interval ends also after a failed solve, so that profiling is off again */
        qf_runtime_trace_begin();
        rc = qf_app_setup_linop(&s, &M) || qf_app_mg_prepare(M, sp) || qf_solve(M, s.out, s.in, sp, &sr);
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
        printf("|x|^2         %.15e\n", qf_app_norm2(s.res, &s.lat, s.site_reals, 0));
        if (o->out) rc = qf_app_write_result(o, o->out, s.out, "the solution");
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
