/* CUDA implementation of scalar_op: one thread, so that a graph running on the GPU combines its
 * scalars there instead of sending them through the host. */
#include "codelets.h"
#include "cuda_launch.h"
#include "blas_launch.h"

static __global__ void scalar_op_kernel(qf_scalar_op_args a, double *out, const double *x, const double *y)
{
    qf_scalar_op_apply(&a, out, x, y);
}

extern "C" void qf_scalar_op_cuda(void *buffers[], void *cl_arg)
{
    const qf_scalar_op_args *a = (const qf_scalar_op_args *)cl_arg;
    scalar_op_kernel<<<1, 1, 0, starpu_cuda_get_local_stream()>>>(*a, qf_scalar_op_ptr(buffers, a, QF_SOP_OUT),
                                                                  qf_scalar_op_ptr(buffers, a, QF_SOP_A),
                                                                  qf_scalar_op_ptr(buffers, a, QF_SOP_B));
    QF_CUDA_CHECK_LAUNCH();
}
