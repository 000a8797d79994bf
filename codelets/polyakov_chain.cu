/* CUDA implementation of polyakov_chain: one thread per spatial site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/polyakov.h"

static __global__ void polyakov_chain_kernel(double *acc, const double *next, int64_t n)
{
    int64_t sp = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (sp < n) qf_polyakov_chain_site(acc, next, sp);
}

extern "C" void qf_polyakov_chain_cuda(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    polyakov_chain_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (double *)STARPU_VECTOR_GET_PTR(buffers[0]), (const double *)STARPU_VECTOR_GET_PTR(buffers[1]), n);
    QF_CUDA_CHECK_LAUNCH();
}
