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

/* out first, then a and b unless they are a handle already listed; out is RW when it is an input too. */
static int insert(qf_scalar_op_args args, starpu_data_handle_t out, starpu_data_handle_t a, starpu_data_handle_t b)
{
    const starpu_data_handle_t ops[3] = {out, a, b};
    struct starpu_data_descr d[3];
    int n = 0;
    for (int k = 0; k < 3; k++) {
        args.buf[k] = -1;
        if (!ops[k]) continue;
        for (int j = 0; j < k; j++)
            if (ops[j] == ops[k]) args.buf[k] = args.buf[j];
        if (args.buf[k] >= 0) {
            if (args.buf[k] == 0) d[0].mode = STARPU_RW;
            continue;
        }
        args.buf[k] = n;
        d[n].handle = ops[k];
        d[n].mode = k == QF_SOP_OUT ? STARPU_W : STARPU_R;
        n++;
    }
    /* in an open chain it runs where the chain's block does (codelets/chain.c), otherwise as a latency task */
    return qf_chain_insert(&qf_cl_scalar_op, NULL, 0, d, n, "scalar_op", &args, sizeof args, (uint32_t)args.op);
}

int qf_insert_scalar_set(starpu_data_handle_t out, double re, double im)
{
    return insert((qf_scalar_op_args){.op = QF_SCALAR_SET, .re = re, .im = im}, out, NULL, NULL);
}
int qf_insert_scalar_mul(starpu_data_handle_t out, starpu_data_handle_t a, starpu_data_handle_t b)
{
    return insert((qf_scalar_op_args){.op = QF_SCALAR_MUL}, out, a, b);
}
int qf_insert_scalar_div(starpu_data_handle_t out, starpu_data_handle_t a, starpu_data_handle_t b)
{
    return insert((qf_scalar_op_args){.op = QF_SCALAR_DIV}, out, a, b);
}
int qf_insert_scalar_scale(starpu_data_handle_t out, double s, starpu_data_handle_t a)
{
    return insert((qf_scalar_op_args){.op = QF_SCALAR_SCALE, .s = s}, out, a, NULL);
}
