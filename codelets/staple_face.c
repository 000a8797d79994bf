/* Codelet staple_face: the lower staples that a block's neighbours in +nu need for the links behind
 * their face, computed where the links live and sent as faces (one per nu != mu). */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/heatbath.h"

#if QF_HAVE_CUDA
void qf_staple_face_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_update_args *a;
    const void *block, *fwd[QF_NDIM];
    double *face;
    int nu;
} face_job;

static void face_part(void *arg, int64_t first, int64_t end)
{
    const face_job *j = arg;
    for (int64_t f = first; f < end; f++)
        qf_lower_staple_face_site(j->block, j->fwd, j->face, f, j->a->ext, j->a->mu, j->nu, j->a->prec);
}

static void staple_face_cpu(void *buffers[], void *cl_arg)
{
    const qf_update_args *a = cl_arg;
    face_job j = {.a = a, .block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0])};
    j.fwd[a->mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++) {
        if (nu == a->mu) continue;
        j.face = (double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
        j.nu = nu;
        qf_cpu_team_range(a->team, STARPU_VECTOR_GET_NX(buffers[2 + k]), face_part, &j);
        k++;
    }
}

static struct starpu_perfmodel staple_face_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_staple_face"};

struct starpu_codelet qf_cl_staple_face = {
    .name = "staple_face",
    .cpu_funcs = {staple_face_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_staple_face_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 5,
    .modes = {STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W},
    .model = &staple_face_model,
};

int qf_staple_face_reals(void) { return QF_SU3_REALS; }

int qf_insert_staple_face(const qf_field *u, int b, const qf_face_set *lower, const qf_update_stage *st)
{
    const qf_lattice *lat = u->lat;
    int origin[QF_NDIM];
    qf_lattice_block_origin(lat, b, origin);
    qf_update_args a = qf_update_args_make(lat->block, origin, lat->global, st->mu, st->parity, st->overrelax, st->beta,
                                           st->seed, st->sweep, u->prec);
    a.team = qf_cpu_team_shares(lat);
    starpu_data_handle_t out[QF_NDIM - 1];
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++)
        if (nu != st->mu) out[k++] = qf_face_set_handle(lower, b, nu, 1);
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_staple_face, STARPU_R, qf_field_block(u, b), STARPU_R,
                                   qf_field_face(u, qf_block_neighbour(b, lat->blocks, st->mu, +1), st->mu, 0),
                                   STARPU_W, out[0], STARPU_W, out[1], STARPU_W, out[2], QF_ARGS(a), 0);
    return qf_task_check(ret, "staple_face");
}
