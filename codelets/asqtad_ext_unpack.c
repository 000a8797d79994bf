/* Codelet asqtad_ext_unpack: one round mu of the extended-volume smearing's halo exchange
 * (kernels/staggered.h): the mu-forward neighbour's side-0 slab and the mu-backward neighbour's side-1 slab into a block's forward and backward halo in direction mu. Buffers: RW extended links, R slab (b + mu, mu, 0), R slab (b - mu, mu, 1). */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_ext_unpack_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_ext_unpack_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_slab_args *a = cl_arg;
    void *e = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    for (int side = 0; side < 2; side++) {
        void *slab = (void *)STARPU_VECTOR_GET_PTR(buffers[1 + side]);
        for (int64_t f = 0, n = qf_asqtad_slab_volume(a->ext, a->mu); f < n; f++)
            qf_asqtad_slab_copy(a->ext, a->mu, side, 1, e, slab, f);
    }
}

static struct starpu_perfmodel asqtad_ext_unpack_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_ext_unpack"};

struct starpu_codelet qf_cl_asqtad_ext_unpack = {
    .name = "asqtad_ext_unpack",
    .cpu_funcs = {asqtad_ext_unpack_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_ext_unpack_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 3,
    .modes = {STARPU_RW, STARPU_R, STARPU_R},
    .model = &asqtad_ext_unpack_model,
};

int qf_insert_asqtad_ext_unpack(const qf_lattice *lat, starpu_data_handle_t e, starpu_data_handle_t from_forward,
                                starpu_data_handle_t from_backward, int b, int mu)
{
    qf_asqtad_slab_args a = {.mu = mu};
    memcpy(a.ext, lat->block, sizeof a.ext);
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_ext_unpack, STARPU_RW, e, STARPU_R, from_forward, STARPU_R,
                                   from_backward, QF_ARGS(a), 0);
    return qf_task_check(ret, "asqtad_ext_unpack");
}
