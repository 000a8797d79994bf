/* CUDA implementation of gauge_compress: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/convert.h"

static __global__ void gauge_compress_kernel(const void *src, void *dst, qf_gauge_compress_args a)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.nsites) qf_gauge_compress_site(src, dst, &a, i);
}

extern "C" void qf_gauge_compress_cuda(void *buffers[], void *cl_arg)
{
    const qf_gauge_compress_args *a = (const qf_gauge_compress_args *)cl_arg;
    gauge_compress_kernel<<<qf_cuda_blocks(a->nsites), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]), *a);
    QF_CUDA_CHECK_LAUNCH();
}
