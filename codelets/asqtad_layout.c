/* Codelet asqtad_layout: one block of asqtad links into the operator's own layout and precision
 * (kernels/staggered.h: qf_asqtad_op_link), from a links field or from another operator's copy.
 * Buffers: R links, W the operator's links. */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_layout_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_layout_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_layout_args *a = cl_arg;
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    for (int64_t s = 0, n = qf_volume(a->ext); s < n; s++) qf_asqtad_layout_site(a, in, out, s);
}

static struct starpu_perfmodel asqtad_layout_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_layout"};

struct starpu_codelet qf_cl_asqtad_layout = {
    .name = "asqtad_layout",
    .cpu_funcs = {asqtad_layout_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_layout_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &asqtad_layout_model,
};

int qf_insert_asqtad_layout(const qf_field *links, int from_operator, qf_field *out, int b)
{
    qf_asqtad_layout_args a = {.src_op = from_operator, .src = links->prec, .dst = out->prec};
    memcpy(a.ext, links->lat->block, sizeof a.ext);
    int ret = QF_TASK_INSERT_BLOCK(links->lat, b, &qf_cl_asqtad_layout, STARPU_R, qf_field_block(links, b), STARPU_W,
                                   qf_field_block(out, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "asqtad_layout");
}
