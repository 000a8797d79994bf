/* CUDA implementation of field_zero: the block's bytes cleared on the worker's stream. */
#include "codelets.h"
#include "cuda_launch.h"

extern "C" void qf_field_zero_cuda(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    cudaError_t status = cudaMemsetAsync((void *)STARPU_VECTOR_GET_PTR(buffers[0]), 0,
                                         (size_t)STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]),
                                         starpu_cuda_get_local_stream());
    if (status != cudaSuccess) STARPU_CUDA_REPORT_ERROR(status);
}
