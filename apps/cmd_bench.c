/* quarkflow bench: benchmark drivers (bench/). Each reports its flop and byte counts, the ceiling of
 * the machine measured in the same run and the ratios (DESIGN.md, "Performance method"); the
 * figures are recorded in bench/RESULTS.md with the command and the machine. */
#include "app.h"
#include "commands.h"
#include "qf_bench.h"

#include <string.h>

static const char help[] =
    "usage: quarkflow bench dslash [options]   the even-odd Wilson-clover operator (Mhat): task graph,\n"
    "                                          the same kernels without StarPU, and the memory-bandwidth\n"
    "                                          ceiling (STREAM triad / device-to-device copy), with ratios;\n"
    "                                          --action asqtad: the asqtad D against the same ceiling\n"
    "       quarkflow bench kernels [options]  the CPU hopping kernels (gather, interior, exterior) one call\n"
    "                                          at a time on one thread without StarPU, in the cache and out\n"
    "                                          of it, against a single-thread read ceiling\n"
    "       quarkflow bench solver [options]   CGNR and BiCGStab (or others) in double and mixed precision on\n"
    "                                          the even-odd clover operator: iterations, time to solution,\n"
    "                                          GFLOPS, the workers' idle share, the overhead against the\n"
    "                                          directly called kernels\n"
    "       quarkflow bench sched [options]    one solve under a list of StarPU scheduling policies: time,\n"
    "                                          tasks and idle share per worker type, bytes moved, models\n"
    "       quarkflow bench mg [options]       the multigrid solver against mixed-precision BiCGStab over a\n"
    "                                          kappa scan: setup, iterations and time, per-level figures\n"
    "       quarkflow bench staggered [options]  the asqtad link smearing, and a multi-mass solve by\n"
    "                                          multi-shift CG against the masses solved one by one\n"
    "       quarkflow bench tasks [options]    what the runtime costs a task on each worker type: chains of\n"
    "                                          tasks that only wait, against the same kernel called directly\n"
    "\n"
    "Run 'quarkflow bench NAME --help' for a benchmark's options. Results: bench/RESULTS.md.\n\n";

int qf_cmd_bench(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(help, argc < 2 ? stderr : stdout);
        fputs(qf_app_global_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "dslash")) return qf_bench_dslash(argc - 1, argv + 1);
    if (!strcmp(argv[1], "kernels")) return qf_bench_kernels(argc - 1, argv + 1);
    if (!strcmp(argv[1], "solver")) return qf_bench_solver(argc - 1, argv + 1);
    if (!strcmp(argv[1], "sched")) return qf_bench_sched(argc - 1, argv + 1);
    if (!strcmp(argv[1], "mg")) return qf_bench_mg(argc - 1, argv + 1);
    if (!strcmp(argv[1], "staggered")) return qf_bench_staggered(argc - 1, argv + 1);
    if (!strcmp(argv[1], "tasks")) return qf_bench_tasks(argc - 1, argv + 1);
    return qf_app_usage_error("bench", "unknown benchmark '%s' (dslash, kernels, solver, sched, mg, staggered, tasks)",
                              argv[1]);
}
