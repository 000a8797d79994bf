/* Codelet asqtad_phases: the first step of the asqtad link smearing on one block (kernels/staggered.h):
 * the links times the staggered and boundary phases, and the fat links' start, one_link times them.
 * Buffers: R gauge, W phased links (double), W asqtad links (double). */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_phases_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_phases_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_phase_args *a = cl_arg;
    const void *u = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *v = (void *)STARPU_VECTOR_GET_PTR(buffers[1]), *links = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    for (int64_t s = 0, n = qf_volume(a->ext); s < n; s++) qf_asqtad_phases_site(a, u, v, links, s);
}

static struct starpu_perfmodel asqtad_phases_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_phases"};

struct starpu_codelet qf_cl_asqtad_phases = {
    .name = "asqtad_phases",
    .cpu_funcs = {asqtad_phases_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_phases_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_W, STARPU_W},
    .model = &asqtad_phases_model,
};

int qf_insert_asqtad_phases(const qf_field *u, qf_field *v, qf_field *links, int b, const double phase[QF_NDIM][2],
                            double one_link)
{
    const qf_lattice *lat = u->lat;
    qf_asqtad_phase_args a = {.one_link = one_link, .prec = u->prec};
    memcpy(a.ext, lat->block, sizeof a.ext);
    memcpy(a.global, lat->global, sizeof a.global);
    memcpy(a.phase, phase, sizeof a.phase);
    qf_lattice_block_origin(lat, b, a.origin);
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_phases, STARPU_R, qf_field_block(u, b), STARPU_W,
                                   qf_field_block(v, b), STARPU_W, qf_field_block(links, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "asqtad_phases");
}
