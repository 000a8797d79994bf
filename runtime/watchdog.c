/* The stall watchdog: StarPU's own (it notices when no task has finished for STARPU_WATCHDOG_TIMEOUT
 * while tasks are pending) with a hook that says what was pending and what ran, names the likely
 * causes and the fixes, and ends the process with a failure status instead of letting it hang. */
#include "watchdog.h"
#include "quarkflow/qf_runtime.h"
#include "codelet_table.h"

#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static double stall_seconds;

/* Called by StarPU's watchdog thread with its submission lock held: reads counters only. */
static void stalled(void *arg)
{
    (void)arg;
    fprintf(stderr,
            "quarkflow: error: the task graph stalled: no task finished for %g s while %d tasks are pending (%d ready to "
            "run, the rest waiting for their data or for the tasks before them); scheduler %s, %d CPU + %d CUDA "
            "workers\n",
            stall_seconds, starpu_task_nsubmitted(), starpu_task_nready(), qf_runtime_sched_name(),
            qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
    fprintf(stderr, "  tasks started so far, by codelet:");
    int nw = (int)starpu_worker_get_count(), any = 0;
    for (int c = 0; c < qf_codelet_count(); c++) {
        unsigned long n = 0;
        for (int w = 0; w < nw; w++) n += qf_codelet_at(c)->cl->per_worker_stats[w];
        if (n) fprintf(stderr, " %s %lu", qf_codelet_at(c)->cl->name, n);
        any |= n != 0;
    }
    if (!any) fprintf(stderr, " none of quarkflow's");
    fprintf(stderr, "\n  if a task legitimately runs longer, raise --watchdog SECONDS (0 turns the watchdog off); otherwise "
                    "run with another scheduler (--sched dmda or eager) and report the stall with this output\n");
    fflush(stderr);
    _exit(EXIT_FAILURE);
}

void qf_watchdog_configure(double seconds)
{
    stall_seconds = 0.0;
    if (seconds <= 0.0) return;
    char us[32];
    snprintf(us, sizeof us, "%.0f", seconds * 1e6);
    setenv("STARPU_WATCHDOG_TIMEOUT", us, 1);
    stall_seconds = seconds;
}

void qf_watchdog_install(void)
{
    if (stall_seconds > 0.0) starpu_task_watchdog_set_hook(stalled, NULL);
}

void qf_watchdog_release(void)
{
    /* StarPU 1.3 joins its watchdog thread in starpu_shutdown only while the variable is set, and that
     * thread looks whether StarPU still runs once a second: the join made every run end up to a second
     * late (a 0.5 s solve took 1.45 s). Unset, the thread is left to end at its next look. */
    if (stall_seconds > 0.0) unsetenv("STARPU_WATCHDOG_TIMEOUT");
}
