/* qf_runtime_probe_tasks (include/quarkflow/qf_runtime.h): runs of task_probe tasks, which compute
 * nothing, placed on one worker type by a scope, so that their time is what the runtime costs a task:
 * submission, dependencies, the scheduler's decision, data bookkeeping, the worker's launch and its
 * noticing the end. Chained tasks all read and write one count, so each waits for the last, as a
 * solver's operator applications wait for each other; independent ones take their own count in turn
 * (one per task in flight), as a propagator's columns would. Every task also reads the same nread
 * buffers, as a Dirac task reads its links and clover fields. */
#include "tasks.h"

#include "quarkflow/qf_runtime.h"

enum { NCOUNTS = 64 };

typedef struct {
    starpu_data_handle_t count[NCOUNTS], read[QF_TASK_PROBE_MAX_BUFFERS];
    double count_value[NCOUNTS], read_value[QF_TASK_PROBE_MAX_BUFFERS];
    int ncounts, nread;
} probe_data;

static void probe_register(probe_data *d)
{
    for (int k = 0; k < d->ncounts; k++) {
        starpu_variable_data_register(&d->count[k], STARPU_MAIN_RAM, (uintptr_t)&d->count_value[k], sizeof(double));
        qf_data_set_owner(d->count[k], 0);
    }
    for (int k = 0; k < d->nread; k++) {
        starpu_variable_data_register(&d->read[k], STARPU_MAIN_RAM, (uintptr_t)&d->read_value[k], sizeof(double));
        qf_data_set_owner(d->read[k], 0);
    }
}

static void probe_unregister(probe_data *d)
{
    for (int k = 0; k < d->ncounts; k++) starpu_data_unregister(d->count[k]);
    for (int k = 0; k < d->nread; k++) starpu_data_unregister(d->read[k]);
}

/* Tasks number 'first' to first + n - 1 of the run, task i on count i % ncounts, where it must find
 * the i / ncounts tasks before it on that count done. */
static int probe_insert(probe_data *d, long first, long n, int64_t wait_ns)
{
    for (long i = first; i < first + n; i++)
        if (qf_insert_task_probe(d->count[i % d->ncounts], d->read, d->nread, wait_ns, (double)(i / d->ncounts)))
            return QF_ERROR;
    return QF_SUCCESS;
}

int qf_runtime_probe_tasks(const qf_task_probe *p, qf_task_probe_result *r)
{
    if (!p || !r) return qf_fail("qf_runtime_probe_tasks: NULL argument");
    memset(r, 0, sizeof *r);
    if (p->ntasks < 1) return qf_fail("task probe: %ld tasks; give at least 1", p->ntasks);
    if (p->nbuffers < 1 || p->nbuffers > QF_TASK_PROBE_MAX_BUFFERS)
        return qf_fail("task probe: %d buffers a task; give 1 to %d", p->nbuffers, QF_TASK_PROBE_MAX_BUFFERS);
    if (!(p->wait_us >= 0.0 && p->wait_us <= 1e6))
        return qf_fail("task probe: a kernel of %g us; give 0 to 1e6", p->wait_us);
    if (qf_runtime_nprocs() > 1)
        return qf_fail("task probe: it times one process's runtime; run it as a single process (without mpirun)");
    qf_placement where = p->kind == QF_WORKER_CUDA ? QF_PLACE_GPU : QF_PLACE_CPU;
    if (qf_placement_check(where, "the task probe")) return QF_ERROR;

    probe_data *d = calloc(1, sizeof *d);
    if (!d) return qf_fail("out of host memory for the task probe");
    d->ncounts = p->chained ? 1 : NCOUNTS;
    d->nread = p->nbuffers - 1;
    probe_register(d);
    static qf_task_scope scope; /* outlives its tasks: each completion counts into it */
    scope = (qf_task_scope){.where = where};
    qf_task_scope *outer = qf_task_scope_enter(&scope);
    int64_t wait_ns = (int64_t)(p->wait_us * 1e3 + 0.5);
    long warmup = p->ntasks < 100 ? p->ntasks : 100; /* the buffers moved to the workers, the model seen */
    int rc = probe_insert(d, 0, warmup, wait_ns);
    qf_runtime_wait_all();
    double t0 = qf_wtime();
    if (!rc) rc = probe_insert(d, warmup, p->ntasks, wait_ns);
    double t1 = qf_wtime();
    qf_runtime_wait_all();
    double t2 = qf_wtime();
    qf_task_scope_leave(outer);
    long ran = scope.ran[QF_WORKER_CPU] + scope.ran[QF_WORKER_CUDA];
    probe_unregister(d);
    double counted = 0.0;
    for (int k = 0; k < d->ncounts; k++) counted += d->count_value[k];
    free(d);
    if (rc) return rc;
    /* every task ran, in its turn on its count, on the workers asked for: otherwise the time is not the
     * one asked for (a task out of turn leaves its count NaN) */
    if (counted != (double)(warmup + p->ntasks) || ran != warmup + p->ntasks || scope.ran[p->kind] != ran)
        return qf_fail("task probe: %ld tasks counted %.0f, %ld ran (%ld on the %s workers); expected %ld", warmup + p->ntasks,
                       counted, ran, scope.ran[p->kind], p->kind == QF_WORKER_CUDA ? "CUDA" : "CPU", warmup + p->ntasks);
    r->submit_s = t1 - t0;
    r->total_s = t2 - t0;
    return QF_SUCCESS;
}
