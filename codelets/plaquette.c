/* Codelet plaquette: sums of Re Tr over the spatial and temporal plaquettes and the links of one
 * block, added into a STARPU_REDUX accumulator. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/gauge_obs.h"

#if QF_HAVE_CUDA
void qf_plaquette_cuda(void *buffers[], void *cl_arg);
#endif

/* With the team the sites go in PLAQUETTE_CHUNKS chunks, each summed apart and the chunks added in
 * order, so that the sums do not depend on the team's size; without it, one chunk. */
#define PLAQUETTE_CHUNKS 64

typedef struct {
    const qf_plaquette_args *a;
    const void *block, *faces[QF_NDIM];
    int64_t n;
    int nchunks;
    double sums[PLAQUETTE_CHUNKS][QF_GAUGE_SUMS];
} sums_job;

static void sums_part(void *arg, int64_t c0, int64_t c1)
{
    sums_job *j = arg;
    for (int64_t c = c0; c < c1; c++)
        for (int64_t s = j->n * c / j->nchunks, end = j->n * (c + 1) / j->nchunks; s < end; s++)
            qf_gauge_site_sums(j->block, j->faces, s, j->a->ext, j->a->prec, j->sums[c]);
}

static void plaquette_cpu(void *buffers[], void *cl_arg)
{
    const qf_plaquette_args *a = cl_arg;
    sums_job j = {.a = a,
                  .block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                  .n = STARPU_VECTOR_GET_NX(buffers[0]),
                  .nchunks = a->team ? PLAQUETTE_CHUNKS : 1};
    for (int mu = 0; mu < QF_NDIM; mu++) j.faces[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + mu]);
    qf_cpu_team_range(a->team, j.nchunks, sums_part, &j);
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[1 + QF_NDIM]);
    for (int i = 0; i < QF_GAUGE_SUMS; i++) {
        double s = 0.0;
        for (int c = 0; c < j.nchunks; c++) s += j.sums[c][i];
        acc[i] += s;
    }
}

static struct starpu_perfmodel plaquette_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_plaquette"};

struct starpu_codelet qf_cl_plaquette = {
    .name = "plaquette",
    .cpu_funcs = {plaquette_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_plaquette_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2 + QF_NDIM,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_REDUX},
    .model = &plaquette_model,
};

int qf_insert_plaquette(const qf_field *u, int b, struct starpu_data_descr sum)
{
    const qf_lattice *lat = u->lat;
    qf_plaquette_args a = {.prec = u->prec, .team = qf_cpu_team_shares(lat)};
    memcpy(a.ext, lat->block, sizeof a.ext);
    starpu_data_handle_t fwd[QF_NDIM];
    for (int mu = 0; mu < QF_NDIM; mu++) fwd[mu] = qf_field_face(u, qf_block_neighbour(b, lat->blocks, mu, +1), mu, 0);
    int ret =
        QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_plaquette, STARPU_R, qf_field_block(u, b), STARPU_R, fwd[0], STARPU_R,
                             fwd[1], STARPU_R, fwd[2], STARPU_R, fwd[3], sum.mode, sum.handle, QF_ARGS(a), 0);
    return qf_task_check(ret, "plaquette");
}
