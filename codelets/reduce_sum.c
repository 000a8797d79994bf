/* Codelets sum_zero and sum_add: the init and reduction operations of double-array accumulators
 * (STARPU_REDUX), so that reductions combine per-worker partial sums wherever those live. */
#include "codelets.h"
#include "kernels/sum.h"

#if QF_HAVE_CUDA
void qf_sum_zero_cuda(void *buffers[], void *cl_arg);
void qf_sum_add_cuda(void *buffers[], void *cl_arg);
#endif

static void sum_zero_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[0]);
    int n = (int)(STARPU_VARIABLE_GET_ELEMSIZE(buffers[0]) / sizeof(double));
    for (int i = 0; i < n; i++) qf_sum_zero(acc, i);
}

static void sum_add_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[0]);
    const double *other = (const double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
    int n = (int)(STARPU_VARIABLE_GET_ELEMSIZE(buffers[0]) / sizeof(double));
    for (int i = 0; i < n; i++) qf_sum_add(acc, other, i);
}

static struct starpu_perfmodel sum_zero_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_sum_zero"};
static struct starpu_perfmodel sum_add_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_sum_add"};

struct starpu_codelet qf_cl_sum_zero = {
    .name = "sum_zero",
    .cpu_funcs = {sum_zero_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_sum_zero_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 1,
    .modes = {STARPU_W},
    .model = &sum_zero_model,
};

struct starpu_codelet qf_cl_sum_add = {
    .name = "sum_add",
    .cpu_funcs = {sum_add_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_sum_add_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_RW, STARPU_R},
    .model = &sum_add_model,
};

void qf_set_sum_reduction(starpu_data_handle_t h) { starpu_data_set_reduction_methods(h, &qf_cl_sum_add, &qf_cl_sum_zero); }

int qf_insert_sum_zero(starpu_data_handle_t h) { return qf_task_check(QF_TASK_INSERT(&qf_cl_sum_zero, STARPU_W, h, 0), "sum_zero"); }

int qf_insert_sum_add(starpu_data_handle_t target, starpu_data_handle_t term)
{
    return qf_task_check(QF_TASK_INSERT(&qf_cl_sum_add, STARPU_RW, target, STARPU_R, term, 0), "sum_add");
}
