/* CUDA implementation of polyakov_line: one thread per spatial site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/polyakov.h"

static __global__ void polyakov_line_kernel(const void *block, double *line, int64_t n, qf_polyakov_args a)
{
    int64_t sp = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (sp < n) qf_polyakov_line_site(block, line, sp, a.ext, a.prec);
}

extern "C" void qf_polyakov_line_cuda(void *buffers[], void *cl_arg)
{
    const qf_polyakov_args *a = (const qf_polyakov_args *)cl_arg;
    int64_t n = STARPU_VECTOR_GET_NX(buffers[1]);
    polyakov_line_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (double *)STARPU_VECTOR_GET_PTR(buffers[1]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
