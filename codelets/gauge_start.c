/* Codelet gauge_start: fills one block of a gauge field with a cold, weak or hot start. */
#include "codelets.h"
#include "kernels/gauge_start.h"

#if QF_HAVE_CUDA
void qf_gauge_start_cuda(void *buffers[], void *cl_arg);
#endif

static void gauge_start_cpu(void *buffers[], void *cl_arg)
{
    const qf_gauge_start_args *a = cl_arg;
    void *block = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    for (int64_t s = 0; s < n; s++) qf_gauge_start_site(block, s, a);
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
    qf_gauge_start_args a = {.seed = seed, .kind = kind, .eps = eps, .prec = u->prec};
    memcpy(a.ext, lat->block, sizeof a.ext);
    memcpy(a.global, lat->global, sizeof a.global);
    qf_lattice_block_origin(lat, b, a.origin);
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_gauge_start, STARPU_W, qf_field_block(u, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "gauge_start");
}
