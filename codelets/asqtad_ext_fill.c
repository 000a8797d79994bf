/* Codelet asqtad_ext_fill: a block's own sites of its extended links (kernels/staggered.h, the
 * extended-volume smearing) from its phased links. Buffers: R phased links, W extended links. */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_ext_fill_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_ext_fill_cpu(void *buffers[], void *cl_arg)
{
    const int *ext = cl_arg;
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *e = (void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    for (int64_t s = 0, n = qf_volume(ext); s < n; s++) qf_asqtad_ext_fill_site(ext, v, e, s);
}

static struct starpu_perfmodel asqtad_ext_fill_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_ext_fill"};

struct starpu_codelet qf_cl_asqtad_ext_fill = {
    .name = "asqtad_ext_fill",
    .cpu_funcs = {asqtad_ext_fill_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_ext_fill_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &asqtad_ext_fill_model,
};

int qf_insert_asqtad_ext_fill(const qf_field *v, starpu_data_handle_t e, int b)
{
    int ext[QF_NDIM];
    memcpy(ext, v->lat->block, sizeof ext);
    int ret = QF_TASK_INSERT_BLOCK(v->lat, b, &qf_cl_asqtad_ext_fill, STARPU_R, qf_field_block(v, b), STARPU_W, e,
                                   QF_ARGS(ext), 0);
    return qf_task_check(ret, "asqtad_ext_fill");
}
