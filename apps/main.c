/* quarkflow: the command-line entry point. Parses the options common to all subcommands and
 * dispatches. */
#include "app.h"
#include "commands.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: quarkflow [options] COMMAND [command options]\n"
    "\n"
    "Lattice QCD solvers as StarPU task graphs on CPUs and GPUs.\n"
    "\n"
    "Commands:\n"
    "  info       machine, build and StarPU configuration\n"
    "  gauge      gauge fields: load and verify, convert between formats, measure\n"
    "  links      asqtad fat and Naik links of a gauge file (MILC's smearing), checked and written\n"
    "  apply      apply the Wilson-clover Dirac operator to a source, write the result\n"
    "  solve      solve M x = b (BiCGStab, GCR, CGNR, CGNE, MR, MG; CG and multi-mass for asqtad quarks,\n"
    "             --action asqtad; mixed precision) as task graphs\n"
    "  propagator point-source propagator and meson correlators (Wilson-clover: 12 solves; asqtad: 3 a\n"
    "             mass, the Goldstone pion): the main job\n"
    "  bench      benchmarks: bench dslash (the even-odd operator, or the asqtad D), bench kernels (its\n"
    "             CPU kernels alone), bench solver (the Krylov solvers), bench sched (scheduling policies)\n"
    "  trace      summary of a trace's tasks.rec: time per codelet and worker, idle, critical path\n"
    "\n"
    "Run 'quarkflow COMMAND --help' for a command's options.\n";

/* Removes the global options from argv (they may appear before or after the command). */
static int parse_globals(int *argc, char **argv)
{
    qf_app.runtime = qf_runtime_default_options();
    qf_app.runtime.watchdog_s = 300.0; /* quarkflow's tasks take milliseconds: five minutes is a hang */
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--sched")) {
            if (i + 1 >= *argc) return qf_app_usage_error("", "--sched needs a policy name");
            qf_app.runtime.sched = argv[++i];
        } else if (!strcmp(a, "--ncpu")) {
            rc = qf_app_int("", *argc, argv, &i, &qf_app.runtime.ncpu);
        } else if (!strcmp(a, "--ncuda")) {
            rc = qf_app_int("", *argc, argv, &i, &qf_app.runtime.ncuda);
        } else if (!strcmp(a, "--trace")) {
            if (i + 1 >= *argc) return qf_app_usage_error("", "--trace needs a folder");
            qf_app.runtime.trace_dir = argv[++i];
        } else if (!strcmp(a, "--watchdog")) {
            rc = qf_app_double("", *argc, argv, &i, &qf_app.runtime.watchdog_s);
            if (!rc && !(qf_app.runtime.watchdog_s >= 0.0))
                return qf_app_usage_error("", "--watchdog %g: give seconds, or 0 for no watchdog", qf_app.runtime.watchdog_s);
        } else if (!strcmp(a, "--grid")) {
            rc = qf_app_dims("", *argc, argv, &i, qf_app.grid);
        } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            qf_app.verbose = 1;
        } else {
            argv[out++] = argv[i];
        }
        if (rc) return rc;
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

int main(int argc, char **argv)
{
    if (qf_app_launcher_rank() != 0 && !freopen("/dev/null", "w", stdout)) return 1;
    int rc = parse_globals(&argc, argv);
    if (rc) return rc;
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        fputs("\n", argc < 2 ? stderr : stdout);
        fputs(qf_app_global_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("quarkflow %s\n", QF_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "info")) return qf_cmd_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "gauge")) return qf_cmd_gauge(argc - 1, argv + 1);
    if (!strcmp(argv[1], "links")) return qf_cmd_links(argc - 1, argv + 1);
    if (!strcmp(argv[1], "apply")) return qf_cmd_apply(argc - 1, argv + 1);
    if (!strcmp(argv[1], "solve")) return qf_cmd_solve(argc - 1, argv + 1);
    if (!strcmp(argv[1], "propagator")) return qf_cmd_propagator(argc - 1, argv + 1);
    if (!strcmp(argv[1], "bench")) return qf_cmd_bench(argc - 1, argv + 1);
    if (!strcmp(argv[1], "trace")) return qf_cmd_trace(argc - 1, argv + 1);
    fprintf(stderr, "quarkflow: unknown command '%s'\n\n%s", argv[1], usage);
    return 2;
}
