/* CUDA implementations of sum_zero and sum_add: one thread per element. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/sum.h"

static __global__ void sum_zero_kernel(double *acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_sum_zero(acc, i);
}

static __global__ void sum_add_kernel(double *acc, const double *other, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_sum_add(acc, other, i);
}

extern "C" void qf_sum_zero_cuda(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    int n = (int)(STARPU_VARIABLE_GET_ELEMSIZE(buffers[0]) / sizeof(double));
    sum_zero_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (double *)STARPU_VARIABLE_GET_PTR(buffers[0]), n);
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" void qf_sum_add_cuda(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    int n = (int)(STARPU_VARIABLE_GET_ELEMSIZE(buffers[0]) / sizeof(double));
    sum_add_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (double *)STARPU_VARIABLE_GET_PTR(buffers[0]), (const double *)STARPU_VARIABLE_GET_PTR(buffers[1]), n);
    QF_CUDA_CHECK_LAUNCH();
}
