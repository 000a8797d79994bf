/* Codelet gauge_start: fills one block of a gauge field with a cold, weak or hot start. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/gauge_start.h"

#if QF_HAVE_CUDA
void qf_gauge_start_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_gauge_start_args *a;
    void *block;
} start_job;

static void start_part(void *arg, int64_t first, int64_t end)
{
    const start_job *j = arg;
    for (int64_t s = first; s < end; s++) qf_gauge_start_site(j->block, s, j->a);
}

static void gauge_start_cpu(void *buffers[], void *cl_arg)
{
    const qf_gauge_start_args *a = cl_arg;
    start_job j = {a, (void *)STARPU_VECTOR_GET_PTR(buffers[0])};
    qf_cpu_team_range(a->team, STARPU_VECTOR_GET_NX(buffers[0]), start_part, &j);
}

static struct starpu_perfmodel gauge_start_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_gauge_start"};

struct starpu_codelet qf_cl_gauge_start = {
    .name = "gauge_start",
    .cpu_funcs = {gauge_start_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_gauge_start_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 1,
    .modes = {STARPU_W},
    .model = &gauge_start_model,
};

int qf_insert_gauge_start(qf_field *u, int b, qf_gauge_start_kind kind, uint64_t seed, double eps)
{
    const qf_lattice *lat = u->lat;
    qf_gauge_start_args a = {.seed = seed, .kind = kind, .eps = eps, .prec = u->prec, .team = qf_cpu_team_shares(lat)};
    memcpy(a.ext, lat->block, sizeof a.ext);
    memcpy(a.global, lat->global, sizeof a.global);
    qf_lattice_block_origin(lat, b, a.origin);
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_gauge_start, STARPU_W, qf_field_block(u, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "gauge_start");
}
