/* CUDA implementation of field_point: the source's real stored by one thread on the worker's stream
 * (kernels/meson.h). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/meson.h"

static __global__ void field_point_kernel(void *block, qf_field_point_args a) { qf_field_point_store(&a, block); }

extern "C" void qf_field_point_cuda(void *buffers[], void *cl_arg)
{
    field_point_kernel<<<1, 1, 0, starpu_cuda_get_local_stream()>>>((void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                                                      *(const qf_field_point_args *)cl_arg);
    QF_CUDA_CHECK_LAUNCH();
}
