/* Codelet face_copy: packs whole sites of one block face into a face buffer (used for gauge faces,
 * whose neighbours need the links themselves). */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/face.h"

#if QF_HAVE_CUDA
void qf_face_copy_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_face_copy_args *a;
    const void *block;
    void *face;
} copy_job;

static void copy_part(void *arg, int64_t first, int64_t end)
{
    const copy_job *j = arg;
    const qf_face_copy_args *a = j->a;
    for (int64_t f = first; f < end; f++)
        qf_face_copy_site(j->block, j->face, f, a->ext, a->mu, a->side, a->depth, a->site_reals, a->prec);
}

static void face_copy_cpu(void *buffers[], void *cl_arg)
{
    const qf_face_copy_args *a = cl_arg;
    copy_job j = {a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1])};
    /* the buffer may hold whole tiles of half records */
    qf_cpu_team_range(a->team, qf_face_volume(a->ext, a->mu, a->depth), copy_part, &j);
}

static struct starpu_perfmodel face_copy_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_face_copy"};

struct starpu_codelet qf_cl_face_copy = {
    .name = "face_copy",
    .cpu_funcs = {face_copy_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_face_copy_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &face_copy_model,
};

int qf_insert_face_copy(const qf_field *f, int b, int mu, int side)
{
    qf_face_copy_args a = {.mu = mu, .side = side, .depth = f->shape.face_depth, .site_reals = f->shape.site_reals,
                           .prec = f->prec};
    memcpy(a.ext, f->lat->block, sizeof a.ext);
    /* half records share their norms in tiles: those stay whole on one thread */
    a.team = qf_cpu_team_shares(f->lat) && f->prec != QF_HALF &&
             qf_face_volume(a.ext, mu, a.depth) * a.site_reals >= QF_CPU_TEAM_MIN_REALS;
    int ret = QF_TASK_INSERT_BLOCK(f->lat, b, &qf_cl_face_copy, STARPU_R, qf_field_block(f, b), STARPU_W,
                                   qf_field_face(f, b, mu, side), QF_ARGS(a), 0);
    return qf_task_check(ret, "face_copy");
}
