/* CUDA implementation of field_point: the block cleared on the worker's stream, then the source's
 * real stored by one thread (kernels/meson.h). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/meson.h"

static __global__ void field_point_kernel(void *block, qf_field_point_args a) { qf_field_point_store(&a, block); }

extern "C" void qf_field_point_cuda(void *buffers[], void *cl_arg)
{
    const qf_field_point_args *a = (const qf_field_point_args *)cl_arg;
    void *block = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cudaError_t status = cudaMemsetAsync(
        block, 0, (size_t)STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]), stream);
    if (status != cudaSuccess) STARPU_CUDA_REPORT_ERROR(status);
    if (a->site < 0) return;
    field_point_kernel<<<1, 1, 0, stream>>>(block, *a);
    QF_CUDA_CHECK_LAUNCH();
}
