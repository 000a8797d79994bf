/* Codelet field_gaussian: every real of one block a standard normal number, drawn from Philox keyed by
 * the seed, the stream and the global site (kernels/random.h), so that a field is the same for every
 * block grid and worker. Buffers: W block. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/random.h"

#if QF_HAVE_CUDA
void qf_field_gaussian_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_field_gaussian_args *a;
    void *f;
} gaussian_job;

static void gaussian_part(void *arg, int64_t first, int64_t end)
{
    const gaussian_job *j = arg;
    for (int64_t s = first; s < end; s++) qf_field_gaussian_site(j->a, j->f, s);
}

static void field_gaussian_cpu(void *buffers[], void *cl_arg)
{
    const qf_field_gaussian_args *a = cl_arg;
    gaussian_job j = {a, (void *)STARPU_VECTOR_GET_PTR(buffers[0])};
    qf_cpu_team_range(a->team, qf_volume(a->ext), gaussian_part, &j);
}

static struct starpu_perfmodel field_gaussian_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_field_gaussian"};

struct starpu_codelet qf_cl_field_gaussian = {
    .name = "field_gaussian",
    .cpu_funcs = {field_gaussian_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_field_gaussian_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 1,
    .modes = {STARPU_W},
    .model = &field_gaussian_model,
};

int qf_insert_field_gaussian(qf_field *f, int b, uint64_t seed, int stream)
{
    const qf_lattice *lat = f->lat;
    qf_field_gaussian_args a = {.site_reals = f->shape.site_reals, .seed = seed, .stream = stream, .prec = f->prec,
                                .team = qf_cpu_team_shares(lat) &&
                                        lat->block_volume * f->shape.site_reals >= QF_CPU_TEAM_MIN_REALS};
    memcpy(a.ext, lat->block, sizeof a.ext);
    memcpy(a.global, lat->global, sizeof a.global);
    qf_lattice_block_origin(lat, b, a.origin);
    int ret = QF_TASK_INSERT_BLOCK(f->lat, b, &qf_cl_field_gaussian, STARPU_W, qf_field_block(f, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "field_gaussian");
}
