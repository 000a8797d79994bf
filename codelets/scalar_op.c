/* Codelet scalar_op: arithmetic on qf_scalar variables (2 doubles, re and im) as a task, so that
 * solver coefficients are computed where the scalars live, without the host reading them:
 * out = (re, im), out = a b, out = a / b, out = s a (kernels/blas.h). STARPU_VARIABLE_NBUFFERS: out,
 * then a and b unless they are out or each other (the table in the arguments); out is W when no input
 * is out, RW otherwise. */
#include "codelets.h"
#include "blas_launch.h"

#if QF_HAVE_CUDA
void qf_scalar_op_cuda(void *buffers[], void *cl_arg);
#endif

static void scalar_op_cpu(void *buffers[], void *cl_arg)
{
    const qf_scalar_op_args *a = cl_arg;
    qf_scalar_op_apply(a, qf_scalar_op_ptr(buffers, a, QF_SOP_OUT), qf_scalar_op_ptr(buffers, a, QF_SOP_A),
                       qf_scalar_op_ptr(buffers, a, QF_SOP_B));
}

static struct starpu_perfmodel scalar_op_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_scalar_op"};

struct starpu_codelet qf_cl_scalar_op = {
    .name = "scalar_op",
    .cpu_funcs = {scalar_op_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_scalar_op_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &scalar_op_model,
};
