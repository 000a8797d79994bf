/* CUDA implementation of gauge_start: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/gauge_start.h"

static __global__ void gauge_start_kernel(void *block, int64_t n, qf_gauge_start_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_gauge_start_site(block, s, &a);
}

extern "C" void qf_gauge_start_cuda(void *buffers[], void *cl_arg)
{
    const qf_gauge_start_args *a = (const qf_gauge_start_args *)cl_arg;
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    gauge_start_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (void *)STARPU_VECTOR_GET_PTR(buffers[0]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
