/* qf_direct_probe (qf_direct.h): the task probe's kernel called without the runtime, the baseline that
 * quarkflow bench tasks sets the runtime's cost a task against. */
#include "direct_plan.h"
#include "task_probe.h"

#include "quarkflow/qf_runtime.h"

#include <stdio.h>

int qf_direct_probe(qf_worker_kind kind, int wait_each, long n, double wait_us, double *seconds)
{
    if (!seconds) return qf_fail("qf_direct_probe: NULL argument");
    if (n < 1) return qf_fail("qf_direct_probe: %ld calls; give at least 1", n);
    if (!(wait_us >= 0.0 && wait_us <= 1e6)) return qf_fail("qf_direct_probe: a kernel of %g us; give 0 to 1e6", wait_us);
    int64_t wait_ns = (int64_t)(wait_us * 1e3 + 0.5);
    qf_runtime_wait_all();
    qf_runtime_pause();
    int rc = QF_SUCCESS;
    if (kind == QF_WORKER_CUDA) {
#if QF_HAVE_CUDA
        int device = qf_runtime_cuda_device();
        char err[512] = "";
        if (device < 0)
            rc = qf_fail("the task probe's kernel on a GPU: no CUDA worker runs (--ncuda, STARPU_NCUDA)");
        else if (qf_direct_cuda_probe(device, wait_each, n, wait_ns, seconds, err, sizeof err))
            rc = qf_fail("the task probe's kernel on CUDA device %d: %s", device, err);
#else
        rc = qf_fail("the task probe's kernel on a GPU in a build without CUDA");
#endif
    } else {
        (void)wait_each; /* a CPU core's calls each end before the next anyway */
        double count = 0.0;
        double t0 = qf_timing_now();
        for (long i = 0; i < n; i++) qf_task_probe_run_cpu(&count, wait_ns, (double)i);
        *seconds = qf_timing_now() - t0;
        if (count != (double)n) rc = qf_fail("the task probe's kernel counted %.0f calls of %ld", count, n);
    }
    qf_runtime_resume();
    return rc;
}
