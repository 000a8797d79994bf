/* CUDA implementation of task_probe: one warp that waits on the GPU's global timer (nanoseconds), then
 * counts; launched on the worker's stream, or on the direct module's stream without the runtime. */
#include "codelets.h"
#include "task_probe.h"
#include "cuda_launch.h"

static __global__ void task_probe_kernel(double *count, int64_t wait_ns, double expect)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    if (wait_ns > 0) do {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        } while ((int64_t)(t - t0) < wait_ns);
    if (threadIdx.x == 0) qf_task_probe_count(count, expect);
}

extern "C" void qf_task_probe_run_cuda(double *count, int64_t wait_ns, double expect, cudaStream_t stream)
{
    task_probe_kernel<<<1, 32, 0, stream>>>(count, wait_ns, expect);
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" void qf_task_probe_cuda(void *buffers[], void *cl_arg)
{
    const qf_task_probe_args *a = (const qf_task_probe_args *)cl_arg;
    qf_task_probe_run_cuda((double *)STARPU_VARIABLE_GET_PTR(buffers[0]), a->wait_ns, a->expect,
                           starpu_cuda_get_local_stream());
}
