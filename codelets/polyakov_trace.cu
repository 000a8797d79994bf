/* CUDA implementation of polyakov_trace: one thread per spatial site, a shared-memory reduction per
 * thread block, and one atomic add per thread block and component into the worker's accumulator. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/polyakov.h"

static __global__ void polyakov_trace_kernel(const double *line, int64_t n, double *acc)
{
    __shared__ double partial[2][QF_CUDA_THREADS];
    int64_t sp = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    qf_complex t = qf_cmake(0.0, 0.0);
    if (sp < n) t = qf_polyakov_trace_site(line, sp);
    partial[0][threadIdx.x] = t.re;
    partial[1][threadIdx.x] = t.im;
    __syncthreads();
    for (int stride = QF_CUDA_THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            for (int i = 0; i < 2; i++) partial[i][threadIdx.x] += partial[i][threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < 2) atomicAdd(&acc[threadIdx.x], partial[threadIdx.x][0]);
}

extern "C" void qf_polyakov_trace_cuda(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    polyakov_trace_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const double *)STARPU_VECTOR_GET_PTR(buffers[0]), n, (double *)STARPU_VARIABLE_GET_PTR(buffers[1]));
    QF_CUDA_CHECK_LAUNCH();
}
