/* Codelet task_probe: a task whose kernel only waits, so that a run of them times what the runtime
 * itself costs a task (quarkflow bench tasks, tasks/probe.c). The CPU version spins on the core's
 * monotonic clock; the CUDA version launches one warp that spins on the GPU's global timer, on the
 * worker's stream and asynchronously, as every quarkflow CUDA codelet does. Both add one to the first
 * buffer (a double, RW), so that a chain's count shows that every task ran in turn; the other buffers
 * (R) are there only for the runtime to track, as a Dirac task's links and clover fields are; a task
 * that finds another count than the one its inserter expected (its turn) leaves NaN. The
 * direct module calls the same kernels without the runtime (qf_direct_probe). */
#include "codelets.h"
#include "task_probe.h"

#include <time.h>

#if QF_HAVE_CUDA
void qf_task_probe_cuda(void *buffers[], void *cl_arg);
#endif

void qf_task_probe_run_cpu(double *count, int64_t wait_ns, double expect)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (wait_ns > 0) do {
            clock_gettime(CLOCK_MONOTONIC, &t);
        } while ((int64_t)(t.tv_sec - t0.tv_sec) * 1000000000 + (t.tv_nsec - t0.tv_nsec) < wait_ns);
    qf_task_probe_count(count, expect);
}

static void task_probe_cpu(void *buffers[], void *cl_arg)
{
    const qf_task_probe_args *a = cl_arg;
    qf_task_probe_run_cpu((double *)STARPU_VARIABLE_GET_PTR(buffers[0]), a->wait_ns, a->expect);
}

static struct starpu_perfmodel task_probe_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_task_probe"};

struct starpu_codelet qf_cl_task_probe = {
    .name = "task_probe",
    .cpu_funcs = {task_probe_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_task_probe_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &task_probe_model,
};

int qf_insert_task_probe(starpu_data_handle_t count, const starpu_data_handle_t *read, int nread, int64_t wait_ns,
                         double expect)
{
    struct starpu_data_descr d[QF_TASK_PROBE_MAX_BUFFERS];
    if (nread < 0 || nread + 1 > QF_TASK_PROBE_MAX_BUFFERS)
        return qf_fail("task_probe: %d buffers read; at most %d", nread, QF_TASK_PROBE_MAX_BUFFERS - 1);
    d[0] = (struct starpu_data_descr){.handle = count, .mode = STARPU_RW};
    for (int k = 0; k < nread; k++) d[k + 1] = (struct starpu_data_descr){.handle = read[k], .mode = STARPU_R};
    qf_task_probe_args args = {.wait_ns = wait_ns, .expect = expect};
    int ret = QF_TASK_INSERT(&qf_cl_task_probe, STARPU_DATA_MODE_ARRAY, d, nread + 1, QF_ARGS(args), 0);
    return qf_task_check(ret, "task_probe");
}
