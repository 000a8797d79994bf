/* Codelet asqtad_ext_slabs: one round mu of the extended-volume smearing's halo exchange
 * (kernels/staggered.h) on one block, either way: pack, a block's first and last QF_ASQTAD_HALO layers in
 * direction mu, across the extended extents of the other directions (its halos of the earlier rounds
 * included), into its two slabs of the round; or unpack, the mu-forward neighbour's side-0 slab and the
 * mu-backward neighbour's side-1 slab into the block's forward and backward halo. Buffers: the extended
 * links (R to pack, RW to unpack), the two slabs (W to pack, R to unpack). */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_ext_slabs_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_ext_slabs_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_slab_args *a = cl_arg;
    void *e = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    for (int side = 0; side < 2; side++) {
        void *slab = (void *)STARPU_VECTOR_GET_PTR(buffers[1 + side]);
        for (int64_t f = 0, n = qf_asqtad_slab_volume(a->ext, a->mu); f < n; f++)
            qf_asqtad_slab_copy(a->ext, a->mu, side, a->unpack, e, slab, f);
    }
}

static struct starpu_perfmodel asqtad_ext_slabs_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_ext_slabs"};

struct starpu_codelet qf_cl_asqtad_ext_slabs = {
    .name = "asqtad_ext_slabs",
    .cpu_funcs = {asqtad_ext_slabs_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_ext_slabs_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the modes are the direction's */
    .model = &asqtad_ext_slabs_model,
};

int qf_insert_asqtad_ext_slabs(const qf_lattice *lat, starpu_data_handle_t e, starpu_data_handle_t slab0,
                               starpu_data_handle_t slab1, int b, int mu, int unpack)
{
    qf_asqtad_slab_args a = {.mu = mu, .unpack = unpack};
    memcpy(a.ext, lat->block, sizeof a.ext);
    struct starpu_data_descr d[3] = {{e, unpack ? STARPU_RW : STARPU_R},
                                     {slab0, unpack ? STARPU_R : STARPU_W},
                                     {slab1, unpack ? STARPU_R : STARPU_W}};
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_ext_slabs, STARPU_DATA_MODE_ARRAY, d, 3, QF_ARGS(a), 0);
    return qf_task_check(ret, "asqtad_ext_slabs");
}
