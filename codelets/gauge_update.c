/* Codelet gauge_update: heatbath or overrelaxation of the links U_mu of one parity in one block,
 * from the block, its forward neighbours' faces and the lower-staple faces behind it. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/heatbath.h"

#if QF_HAVE_CUDA
void qf_gauge_update_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_update_args *a;
    void *block;
    const void *fwd[QF_NDIM];
    const double *lower[QF_NDIM];
    int64_t first; /* the parity's first site */
} update_job;

/* a site's update reads only the other parity's links and its own draws, so parts need no order */
static void update_part(void *arg, int64_t first, int64_t end)
{
    const update_job *j = arg;
    for (int64_t s = j->first + first; s < j->first + end; s++) qf_update_site(j->block, j->fwd, j->lower, s, j->a);
}

static void gauge_update_cpu(void *buffers[], void *cl_arg)
{
    const qf_update_args *a = cl_arg;
    update_job j = {.a = a, .block = (void *)STARPU_VECTOR_GET_PTR(buffers[0])};
    for (int nu = 0; nu < QF_NDIM; nu++) j.fwd[nu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + nu]);
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++)
        if (nu != a->mu) j.lower[nu] = (const double *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM + k++]);
    int64_t half = STARPU_VECTOR_GET_NX(buffers[0]) / 2;
    j.first = a->parity * half;
    qf_cpu_team_range(a->team, half, update_part, &j);
}

static struct starpu_perfmodel gauge_update_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_gauge_update"};

struct starpu_codelet qf_cl_gauge_update = {
    .name = "gauge_update",
    .cpu_funcs = {gauge_update_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_gauge_update_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 8,
    .modes = {STARPU_RW, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R},
    .model = &gauge_update_model,
};

int qf_insert_gauge_update(qf_field *u, int b, const qf_face_set *lower, const qf_update_stage *st)
{
    const qf_lattice *lat = u->lat;
    int origin[QF_NDIM];
    qf_lattice_block_origin(lat, b, origin);
    qf_update_args a = qf_update_args_make(lat->block, origin, lat->global, st->mu, st->parity, st->overrelax, st->beta,
                                           st->seed, st->sweep, u->prec);
    a.team = qf_cpu_team_shares(lat);
    starpu_data_handle_t fwd[QF_NDIM], low[QF_NDIM - 1];
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++) {
        fwd[nu] = qf_field_face(u, qf_block_neighbour(b, lat->blocks, nu, +1), nu, 0);
        if (nu != st->mu) low[k++] = qf_face_set_handle(lower, qf_block_neighbour(b, lat->blocks, nu, -1), nu, 1);
    }
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_gauge_update, STARPU_RW, qf_field_block(u, b), STARPU_R, fwd[0],
                                   STARPU_R, fwd[1], STARPU_R, fwd[2], STARPU_R, fwd[3], STARPU_R, low[0], STARPU_R,
                                   low[1], STARPU_R, low[2], QF_ARGS(a), 0);
    return qf_task_check(ret, "gauge_update");
}
