/* Codelet polyakov_line: for every spatial site of a block, the ordered product of its time links
 * over the block's t extent, into the block's line buffer. */
#include "codelets.h"
#include "kernels/polyakov.h"

#if QF_HAVE_CUDA
void qf_polyakov_line_cuda(void *buffers[], void *cl_arg);
#endif

static void polyakov_line_cpu(void *buffers[], void *cl_arg)
{
    const qf_polyakov_args *a = cl_arg;
    const void *block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double *line = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[1]);
    for (int64_t sp = 0; sp < n; sp++) qf_polyakov_line_site(block, line, sp, a->ext, a->prec);
}

static struct starpu_perfmodel polyakov_line_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_polyakov_line"};

struct starpu_codelet qf_cl_polyakov_line = {
    .name = "polyakov_line",
    .cpu_funcs = {polyakov_line_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_polyakov_line_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &polyakov_line_model,
};

size_t qf_polyakov_line_site_bytes(void) { return QF_SU3_REALS * sizeof(double); }

int qf_insert_polyakov_line(const qf_field *u, int b, starpu_data_handle_t line)
{
    qf_polyakov_args a = {.prec = u->prec};
    memcpy(a.ext, u->lat->block, sizeof a.ext);
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_polyakov_line, STARPU_R, qf_field_block(u, b), STARPU_W, line,
                                   QF_ARGS(a), 0);
    return qf_task_check(ret, "polyakov_line");
}
