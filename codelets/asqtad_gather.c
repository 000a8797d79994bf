/* Codelet asqtad_gather: the asqtad operator's faces of one block (kernels/staggered.h), the 1-deep fat
 * set and the 3-deep Naik set, for the stencil graph (tasks/stencil.h); the stage binder of the operator's
 * codelets (gather, interior, exterior, and the interior with wrap as the fused stage). Buffers: R in, R asqtad links, W faces (set k, mu, side), k = 0..1, mu = 0..3, side 0
 * then 1. */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_gather_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_gather_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_gather_args *a = cl_arg;
    void *faces[QF_ASQTAD_FACE_SETS * QF_NDIRS];
    for (int k = 0; k < QF_ASQTAD_FACE_SETS * QF_NDIRS; k++) faces[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    QF_WITH_PRECISION(a->prec, P, {
        qf_asqtad_gather_args b = *a;
        b.prec = P;
        for (int64_t t = 0, n = qf_asqtad_gather_total(b.ext); t < n; t++) qf_asqtad_gather_site(&b, in, links, faces, t);
    });
}

static struct starpu_perfmodel asqtad_gather_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_gather"};

struct starpu_codelet qf_cl_asqtad_gather = {
    .name = "asqtad_gather",
    .cpu_funcs = {asqtad_gather_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_gather_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &asqtad_gather_model,
};

int qf_asqtad_stages(const qf_lattice *lat, const qf_asqtad_hop *h, const char *const names[4], qf_codelet_stage st[4])
{
    /* the gather packs the sites the hops read: the other parity */
    qf_asqtad_gather_args g = {.parity = h->parity < 0 ? -1 : 1 - h->parity, .prec = h->prec};
    qf_asqtad_args a = {.parity = h->parity, .a = h->a, .b = h->b, .has_x = h->has_x, .prec = h->prec};
    memcpy(g.ext, lat->block, sizeof g.ext);
    memcpy(a.ext, lat->block, sizeof a.ext);
    qf_asqtad_args wrap = a;
    wrap.wrap = 1;
    memset(st, 0, 4 * sizeof *st); /* so that a failed bind frees only what was bound */
    if (qf_codelet_stage_bind(&st[0], &qf_cl_asqtad_gather, &g, sizeof g, -1, names[0]) ||
        qf_codelet_stage_bind(&st[1], &qf_cl_asqtad_interior, &a, sizeof a, -1, names[1]) ||
        qf_codelet_stage_bind(&st[2], &qf_cl_asqtad_exterior, &a, sizeof a, -1, names[2]) ||
        qf_codelet_stage_bind(&st[3], &qf_cl_asqtad_interior, &wrap, sizeof wrap, -1, names[3])) {
        qf_codelet_stages_free(st, 4);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}
