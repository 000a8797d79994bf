/* quarkflow info: what was built and what the machine offers to StarPU. */
#include "app.h"

#include <string.h>

static const char help[] =
    "usage: quarkflow info [options]\n"
    "\n"
    "Prints the build configuration (StarPU version, CUDA, MPI, FxT) and the machine as StarPU\n"
    "sees it: workers, memory nodes and the hwloc topology.\n\n";

int qf_cmd_info(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(help, stdout);
            fputs(qf_app_global_help, stdout);
            return 0;
        }
        return qf_app_usage_error("info", "unknown option '%s'", argv[i]);
    }
    qf_runtime_print_build(stdout);
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    if (!qf_app.verbose) qf_runtime_print_machine(stdout);
    qf_app_stop();
    return 0;
}
