/* CUDA implementation of convert: one thread per real, or per record where half precision is involved. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/convert.h"

static __global__ void convert_kernel(const void *src, void *dst, qf_convert_args a)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < qf_convert_count(&a)) qf_convert_item(src, dst, &a, qf_convert_first(&a) + i);
}

extern "C" void qf_convert_cuda(void *buffers[], void *cl_arg)
{
    const qf_convert_args *a = (const qf_convert_args *)cl_arg;
    convert_kernel<<<qf_cuda_blocks(qf_convert_count(a)), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]), *a);
    QF_CUDA_CHECK_LAUNCH();
}
