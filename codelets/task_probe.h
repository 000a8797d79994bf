/* The kernels of task_probe (task_probe.c, task_probe.cu) on raw pointers: the codelet calls them on its
 * buffer, and the direct module (qf_direct_probe) calls them without the runtime. Each waits wait_ns
 * nanoseconds, then adds one to *count, which must hold expect before (expect < 0: any value; otherwise
 * a count found different becomes NaN, so that a task run out of turn shows in the final count). */
#ifndef QF_TASK_PROBE_H
#define QF_TASK_PROBE_H

#include "quarkflow/qf_defs.h"

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int64_t wait_ns;
    double expect;
} qf_task_probe_args;

/* The count after the wait, on CPUs and GPUs alike. */
static inline QF_HD void qf_task_probe_count(double *count, double expect)
{
    *count = expect < 0.0 || *count == expect ? *count + 1.0 : NAN;
}

void qf_task_probe_run_cpu(double *count, int64_t wait_ns, double expect);
#if QF_HAVE_CUDA
#include <cuda_runtime.h>
/* One warp on stream, returning without waiting; count is device memory. */
void qf_task_probe_run_cuda(double *count, int64_t wait_ns, double expect, cudaStream_t stream);
#endif

#ifdef __cplusplus
}
#endif

#endif
