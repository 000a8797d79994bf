/* Codelet polyakov_chain: multiplies a column's running product of time links by the next block's
 * product along t, site by site (acc = acc next). */
#include "codelets.h"
#include "kernels/polyakov.h"

#if QF_HAVE_CUDA
void qf_polyakov_chain_cuda(void *buffers[], void *cl_arg);
#endif

static void polyakov_chain_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    double *acc = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const double *next = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    for (int64_t sp = 0; sp < n; sp++) qf_polyakov_chain_site(acc, next, sp);
}

static struct starpu_perfmodel polyakov_chain_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_polyakov_chain"};

struct starpu_codelet qf_cl_polyakov_chain = {
    .name = "polyakov_chain",
    .cpu_funcs = {polyakov_chain_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_polyakov_chain_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_RW, STARPU_R},
    .model = &polyakov_chain_model,
};

int qf_insert_polyakov_chain(starpu_data_handle_t acc, starpu_data_handle_t next)
{
    return qf_task_check(QF_TASK_INSERT(&qf_cl_polyakov_chain, STARPU_RW, acc, STARPU_R, next, 0), "polyakov_chain");
}
