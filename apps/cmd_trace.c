/* quarkflow trace: `trace summary`, `gaps`, `gantt` and `states` on a trace folder (or its files); the reading
 * of traces is the command line's support (support/trace.c), which every command's --trace uses. */
#include "app.h"
#include "commands.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char help[] =
    "usage: quarkflow trace summary TASKS_REC|DIR [--window NAME]\n"
    "       quarkflow trace gaps TASKS_REC|DIR [--window NAME] [--top N]\n"
    "       quarkflow trace gantt DIR [--from MS] [--to MS] [--out FILE.svg]\n"
    "       quarkflow trace states PAJE_TRACE|DIR [--from MS] [--to MS] [--top N]\n"
    "\n"
    "Summarises the tasks.rec that starpu_fxt_tool writes from an FxT trace (quarkflow --trace DIR\n"
    "writes it into DIR): tasks, total and mean time per task name (stage, operator, precision), tasks,\n"
    "busy time and idle share per worker over the traced span, the critical path through the task\n"
    "dependencies, and the transfers and MPI messages of the paje.trace beside it with the share of\n"
    "their time hidden behind running tasks. --window NAME starts the span at the first task of that name,\n"
    "codelet or stage (e.g. qf_wilson_gather, or c_cycle for a multigrid solve's first coarse task).\n"
    "\n"
    "gaps says where each worker waited: its idle time before each kind of task (from the latest end of\n"
    "its earlier tasks), and the --top N (default 20) largest gaps with the tasks on either side and the\n"
    "waiting task's submission time (a task submitted long before it started waited inside the runtime,\n"
    "for its data or an allocation; one submitted just before it, for the host).\n"
    "\n"
    "gantt draws the tasks of each worker between --from and --to ms (default 0 and 20) after the start\n"
    "of the recorded window, one colour per codelet, with gnuplot into --out (default DIR/gantt.svg);\n"
    "DIR/gantt.dat and DIR/gantt.gp stay beside it for other pictures.\n"
    "\n"
    "states reads the paje.trace and says what the runtime's threads and memory managers did between\n"
    "--from and --to ms of the trace (the times ViTE shows; default all of it): the --top N (default 20)\n"
    "largest times a container spent in one state (Executing, FetchingInput, DriverCopyAsync, ...), the\n"
    "N longest state intervals, and the transfers between memory nodes and MPI messages by kind (F fetch,\n"
    "PF prefetch, IF idle fetch, MPIL) and ends, with bytes and rates. A worker in FetchingInput while a\n"
    "memory manager copies in idle time is waiting for that copy.\n";

int qf_cmd_trace(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    int gantt = argc >= 2 && !strcmp(argv[1], "gantt"), states = argc >= 2 && !strcmp(argv[1], "states"),
        gaps = argc >= 2 && !strcmp(argv[1], "gaps");
    if (argc < 3 || (strcmp(argv[1], "summary") && !gantt && !states && !gaps))
        return qf_app_usage_error("trace", "give 'summary', 'gaps', 'gantt' or 'states' and a trace folder (or its file)");
    const char *window = NULL, *in = NULL, *out = NULL;
    double from = 0.0, to = states ? INFINITY : 20.0;
    int top = 20;
    for (int i = 2; i < argc; i++) {
        int rc = 0;
        if (!gantt && !states && !strcmp(argv[i], "--window")) {
            if (i + 1 >= argc) return qf_app_usage_error("trace", "--window needs a codelet name");
            window = argv[++i];
        } else if ((gantt || states) && !strcmp(argv[i], "--from")) {
            rc = qf_app_double("trace", argc, argv, &i, &from);
        } else if ((gantt || states) && !strcmp(argv[i], "--to")) {
            rc = qf_app_double("trace", argc, argv, &i, &to);
        } else if ((states || gaps) && !strcmp(argv[i], "--top")) {
            rc = qf_app_int("trace", argc, argv, &i, &top);
            if (!rc && top < 1) return qf_app_usage_error("trace", "--top %d: give at least 1", top);
        } else if (gantt && !strcmp(argv[i], "--out")) {
            if (i + 1 >= argc) return qf_app_usage_error("trace", "--out needs a file name");
            out = argv[++i];
        } else if (argv[i][0] == '-') {
            return qf_app_usage_error("trace", "unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return qf_app_usage_error("trace", "unexpected argument '%s'", argv[i]);
        }
        if (rc) return rc;
    }
    if (!in) return qf_app_usage_error("trace", "give a tasks.rec or its folder");
    if (gantt) {
        if (!(to > from)) return qf_app_usage_error("trace", "--from %g --to %g: give an interval", from, to);
        if (out && qf_app_check_output("--out", out)) return qf_app_error();
        char picture[PATH_MAX + 16];
        snprintf(picture, sizeof picture, "%s/gantt.svg", in);
        return qf_app_trace_gantt(in, from, to, out ? out : picture) ? qf_app_error() : 0;
    }
    char path[PATH_MAX + 16];
    struct stat st;
    int dir = stat(in, &st) == 0 && S_ISDIR(st.st_mode);
    if (states) {
        if (!(to > from)) return qf_app_usage_error("trace", "--from %g --to %g: give an interval", from, to);
        snprintf(path, sizeof path, dir ? "%s/paje.trace" : "%s", in);
        return qf_app_trace_states(path, from, to, top, stdout) ? qf_app_error() : 0;
    }
    snprintf(path, sizeof path, dir ? "%s/tasks.rec" : "%s", in);
    if (gaps) return qf_app_trace_gaps(path, window, top, stdout) ? qf_app_error() : 0;
    return qf_app_trace_summary(path, window, stdout) ? qf_app_error() : 0;
}
