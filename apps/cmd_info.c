/* quarkflow info: what was built and what the machine offers to StarPU. */
#include "app.h"
#include "commands.h"

#include <string.h>

static const char help[] =
    "usage: quarkflow info [options]\n"
    "\n"
    "Prints the build configuration (StarPU version, CUDA, MPI, FxT) and the machine as StarPU\n"
    "sees it: workers, memory nodes and the hwloc topology, and how many codelets' performance models\n"
    "are calibrated on this machine (StarPU's sampling directory under STARPU_HOME).\n\n";

int qf_cmd_info(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    if (argc > 1) return qf_app_usage_error("info", "unknown option '%s'", argv[1]);
    qf_runtime_print_build(stdout);
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    if (!qf_app.verbose) qf_runtime_print_machine(stdout);
    int total = 0;
    char names[512];
    int missing = qf_runtime_models_missing(&total, names, sizeof names);
    printf("Performance models: %d of %d codelets calibrated on this machine%s%s%s\n", total - missing, total,
           missing ? " (not yet: " : "", missing ? names : "", missing ? ")" : "");
    qf_app_stop();
    return 0;
}
