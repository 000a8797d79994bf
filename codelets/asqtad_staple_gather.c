/* Codelet asqtad_staple_gather: the faces one staple step of the asqtad link smearing sends in its
 * staple direction nu (kernels/staggered.h): W of the block's first layer (side 0, for the backward
 * neighbour's upper staples) and T = U_nu^dag W U_nu(+mu) of its last layer (side 1, the forward
 * neighbour's lower staples). Buffers: R phased links, R U face of the mu-forward neighbour, W face
 * (nu, 0), W face (nu, 1), [R W]. */
#include "codelets.h"
#include "asqtad_staple_args.h"
#include "cpu_team.h"

#if QF_HAVE_CUDA
void qf_asqtad_staple_gather_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_asqtad_staple_args *a;
    const void *w, *v, *uface;
    void *f0, *f1;
} gather_job;

static void gather_part(void *arg, int64_t first, int64_t end)
{
    const gather_job *j = arg;
    for (int64_t f = first; f < end; f++) qf_asqtad_staple_gather_site(j->a, j->w, j->v, j->uface, j->f0, j->f1, f);
}

static void asqtad_staple_gather_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_staple_args *a = cl_arg;
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    gather_job j = {a,
                    a->w_is_v ? v : (const void *)STARPU_VECTOR_GET_PTR(buffers[4]),
                    v,
                    (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                    (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                    (void *)STARPU_VECTOR_GET_PTR(buffers[3])};
    qf_cpu_team_range(a->team, 2 * qf_face_volume(a->ext, a->nu, 1), gather_part, &j);
}

static struct starpu_perfmodel asqtad_staple_gather_model = {.type = STARPU_HISTORY_BASED,
                                                            .symbol = "qf_asqtad_staple_gather"};

struct starpu_codelet qf_cl_asqtad_staple_gather = {
    .name = "asqtad_staple_gather",
    .cpu_funcs = {asqtad_staple_gather_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_staple_gather_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &asqtad_staple_gather_model,
};

qf_asqtad_staple_args qf_asqtad_staple_args_make(const qf_field *v, const qf_field *w, int mu, int nu, double coef,
                                                 int keep)
{
    qf_asqtad_staple_args a = {.mu = mu, .nu = nu, .w_stride = w ? 1 : QF_NDIM, .w_slot = w ? 0 : mu,
                               .u_depth = qf_field_face_depth(v), .coef = coef, .keep = keep, .w_is_v = !w};
    memcpy(a.ext, v->lat->block, sizeof a.ext);
    return a;
}

int qf_insert_asqtad_staple_gather(const qf_field *v, const qf_field *w, const qf_face_set *faces, int b, int mu, int nu)
{
    const qf_lattice *lat = v->lat;
    qf_asqtad_staple_args args = qf_asqtad_staple_args_make(v, w, mu, nu, 0.0, 0), *a = &args;
    args.team = qf_cpu_team_shares(lat);
    struct starpu_data_descr d[5] = {
        {qf_field_block(v, b), STARPU_R},
        {qf_field_face(v, qf_block_neighbour(b, lat->blocks, a->mu, +1), a->mu, 0), STARPU_R},
        {qf_face_set_handle(faces, b, a->nu, 0), STARPU_W},
        {qf_face_set_handle(faces, b, a->nu, 1), STARPU_W},
        {a->w_is_v ? NULL : qf_field_block(w, b), STARPU_R}};
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_staple_gather, STARPU_DATA_MODE_ARRAY, d, a->w_is_v ? 4 : 5,
                                   QF_ARGS(*a), 0);
    return qf_task_check(ret, "asqtad_staple_gather");
}
