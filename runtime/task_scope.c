/* Placement scopes (qf_runtime.h): a thread's current scope restricts where the tasks it inserts may
 * run and counts, per worker type, where they did run. The restriction travels with each task as
 * StarPU's starpu_task::where (STARPU_EXECUTE_WHERE, QF_TASK_INSERT in mpi_data.h), so that every
 * scheduling policy honours it; the count is taken in the task's completion callback, which StarPU
 * runs on the worker that executed the task. */
#include "quarkflow/qf_runtime.h"
#include "mpi_data.h"

#include <starpu.h>
#include <string.h>

static _Thread_local qf_task_scope *current;

static const char *const names[] = {[QF_PLACE_AUTO] = "auto", [QF_PLACE_CPU] = "cpu", [QF_PLACE_GPU] = "gpu"};

const char *qf_placement_name(qf_placement p) { return p >= QF_PLACE_AUTO && p <= QF_PLACE_GPU ? names[p] : "?"; }

int qf_placement_parse(const char *s, qf_placement *p)
{
    for (int k = QF_PLACE_AUTO; k <= QF_PLACE_GPU; k++)
        if (!strcmp(s, names[k])) {
            *p = (qf_placement)k;
            return 0;
        }
    return -1;
}

int qf_placement_check(qf_placement p, const char *what)
{
    if (p == QF_PLACE_CPU && qf_runtime_ncpu_workers() == 0)
        return qf_fail("%s is placed on CPUs, but no CPU worker runs: give CPU workers (--ncpu) or place it on gpu or auto",
                       what);
    if (p == QF_PLACE_GPU && qf_runtime_ncuda_workers() == 0)
        return qf_fail("%s is placed on GPUs, but no CUDA worker runs: give CUDA workers (--ncuda) or place it on cpu or "
                       "auto",
                       what);
    return QF_SUCCESS;
}

qf_task_scope *qf_task_scope_enter(qf_task_scope *s)
{
    qf_task_scope *previous = current;
    current = s;
    return previous;
}

void qf_task_scope_leave(qf_task_scope *previous) { current = previous; }

qf_task_scope *qf_task_scope_current(void) { return current; }

unsigned long long qf_task_scope_where(const struct starpu_codelet *cl)
{
    unsigned long long has = (cl->cpu_funcs[0] ? STARPU_CPU : 0) | (cl->cuda_funcs[0] ? STARPU_CUDA : 0);
    unsigned long long wanted = current->where == QF_PLACE_CPU ? STARPU_CPU
                                : current->where == QF_PLACE_GPU ? STARPU_CUDA
                                                                 : has;
    /* a codelet with no implementation of the wanted kind runs where it can */
    return (has & wanted) ? has & wanted : has;
}

void qf_task_scope_count(void *arg)
{
    qf_task_scope *s = arg;
    int kind = starpu_worker_get_type(starpu_worker_get_id()) == STARPU_CUDA_WORKER ? QF_WORKER_CUDA : QF_WORKER_CPU;
    __atomic_fetch_add(&s->ran[kind], 1, __ATOMIC_RELAXED);
}
