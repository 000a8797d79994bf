/* Codelet domain_layout: a block's records (links, clover term) copied into the domain layout of the
 * Schwarz smoother (kernels/sap.h), once per operator. Buffers: R block field, W domain-layout copy. */
#include "codelets.h"
#include "kernels/sap.h"

#if QF_HAVE_CUDA
void qf_domain_layout_cuda(void *buffers[], void *cl_arg);
#endif

static void domain_layout_cpu(void *buffers[], void *cl_arg)
{
    const qf_domain_layout_args *a = cl_arg;
    const void *block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *dom = (void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    QF_WITH_PRECISION(a->prec, P, {
        for (int64_t k = 0, n = qf_volume(a->g.ext); k < n; k++)
            qf_domain_layout_record(&a->g, block, dom, k, a->rec, P);
    });
}

static struct starpu_perfmodel domain_layout_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_domain_layout"};

struct starpu_codelet qf_cl_domain_layout = {
    .name = "domain_layout",
    .cpu_funcs = {domain_layout_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_domain_layout_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &domain_layout_model,
};

int qf_insert_domain_layout(qf_field *dst, int b, const qf_field *src, const int dom[QF_NDIM])
{
    const qf_lattice *lat = src->lat;
    qf_domain_layout_args a = {.rec = src->shape.site_reals, .prec = src->prec};
    memcpy(a.g.ext, lat->block, sizeof a.g.ext);
    memcpy(a.g.dom, dom, sizeof a.g.dom);
    qf_lattice_block_origin(lat, b, a.g.origin);
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_domain_layout, STARPU_R, qf_field_block(src, b), STARPU_W,
                                   qf_field_block(dst, b), STARPU_NAME, "domain_layout", QF_ARGS(a), 0);
    return qf_task_check(ret, "domain_layout");
}
