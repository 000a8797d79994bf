/* Codelet asqtad_long: the Naik links L_mu = naik U_mu(x) U_mu(x+mu) U_mu(x+2mu) of one block of phased
 * links (kernels/staggered.h), written into the asqtad links' last four slots. Buffers: R phased links,
 * R U faces (2 deep) of the mu-forward neighbours, mu = 0..3, RW asqtad links. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_long_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_asqtad_long_args *a;
    const void *v, *uface[QF_NDIM];
    void *links;
} long_job;

static void long_part(void *arg, int64_t first, int64_t end)
{
    const long_job *j = arg;
    for (int64_t s = first; s < end; s++) qf_asqtad_long_site(j->a, j->v, j->uface, j->links, s);
}

static void asqtad_long_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_long_args *a = cl_arg;
    long_job j = {.a = a,
                  .v = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                  .links = (void *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM])};
    for (int mu = 0; mu < QF_NDIM; mu++) j.uface[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + mu]);
    qf_cpu_team_range(a->team, qf_volume(a->ext), long_part, &j);
}

static struct starpu_perfmodel asqtad_long_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_long"};

struct starpu_codelet qf_cl_asqtad_long = {
    .name = "asqtad_long",
    .cpu_funcs = {asqtad_long_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_long_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2 + QF_NDIM,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_RW},
    .model = &asqtad_long_model,
};

int qf_insert_asqtad_long(const qf_field *v, qf_field *links, double naik, int b)
{
    const qf_lattice *lat = v->lat;
    qf_asqtad_long_args a = {.u_depth = qf_field_face_depth(v), .naik = naik, .team = qf_cpu_team_shares(lat)};
    memcpy(a.ext, lat->block, sizeof a.ext);
    starpu_data_handle_t f[QF_NDIM];
    for (int mu = 0; mu < QF_NDIM; mu++) f[mu] = qf_field_face(v, qf_block_neighbour(b, lat->blocks, mu, +1), mu, 0);
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_long, STARPU_R, qf_field_block(v, b), STARPU_R, f[0], STARPU_R,
                                   f[1], STARPU_R, f[2], STARPU_R, f[3], STARPU_RW, qf_field_block(links, b), QF_ARGS(a),
                                   0);
    return qf_task_check(ret, "asqtad_long");
}
