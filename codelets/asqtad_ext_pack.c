/* Codelet asqtad_ext_pack: one round mu of the extended-volume smearing's halo exchange
 * (kernels/staggered.h): a block's first and last QF_ASQTAD_HALO layers in direction mu, across the extended extents of the other directions (its halos of the earlier rounds included), into its two slabs of the round. Buffers: R extended links, W slab (mu, 0), W slab (mu, 1). */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_ext_pack_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_ext_pack_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_slab_args *a = cl_arg;
    void *e = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    for (int side = 0; side < 2; side++) {
        void *slab = (void *)STARPU_VECTOR_GET_PTR(buffers[1 + side]);
        for (int64_t f = 0, n = qf_asqtad_slab_volume(a->ext, a->mu); f < n; f++)
            qf_asqtad_slab_copy(a->ext, a->mu, side, 0, e, slab, f);
    }
}

static struct starpu_perfmodel asqtad_ext_pack_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_ext_pack"};

struct starpu_codelet qf_cl_asqtad_ext_pack = {
    .name = "asqtad_ext_pack",
    .cpu_funcs = {asqtad_ext_pack_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_ext_pack_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_W, STARPU_W},
    .model = &asqtad_ext_pack_model,
};

int qf_insert_asqtad_ext_pack(const qf_lattice *lat, starpu_data_handle_t e, starpu_data_handle_t slab0,
                              starpu_data_handle_t slab1, int b, int mu)
{
    qf_asqtad_slab_args a = {.mu = mu};
    memcpy(a.ext, lat->block, sizeof a.ext);
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_ext_pack, STARPU_R, e, STARPU_W, slab0, STARPU_W, slab1, QF_ARGS(a), 0);
    return qf_task_check(ret, "asqtad_ext_pack");
}
