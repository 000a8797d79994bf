/* Codelet asqtad_staple: one staple step of the asqtad link smearing on one block
 * (kernels/staggered.h): S = S_nu[W] for links in direction mu, added to the fat link F_mu with its path
 * coefficient, and kept as the next step's W when asked. Buffers: R phased links, R U face of the
 * mu-forward neighbour, R face (nu, 0) of the nu-forward neighbour, R face (nu, 1) of the nu-backward
 * one, RW asqtad links, [R W], [W S]. */
#include "codelets.h"
#include "asqtad_staple_args.h"
#include "cpu_team.h"

#if QF_HAVE_CUDA
void qf_asqtad_staple_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_asqtad_staple_args *a;
    const void *w, *v, *uface, *fwd, *bwd;
    void *links, *keep;
} staple_job;

static void staple_part(void *arg, int64_t first, int64_t end)
{
    const staple_job *j = arg;
    for (int64_t s = first; s < end; s++)
        qf_asqtad_staple_site(j->a, j->w, j->v, j->uface, j->fwd, j->bwd, j->links, j->keep, s);
}

static void asqtad_staple_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_staple_args *a = cl_arg;
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int k = 5;
    const void *w = a->w_is_v ? v : (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    staple_job j = {a,
                    w,
                    v,
                    (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                    (const void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                    (const void *)STARPU_VECTOR_GET_PTR(buffers[3]),
                    (void *)STARPU_VECTOR_GET_PTR(buffers[4]),
                    a->keep ? (void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL};
    qf_cpu_team_range(a->team, qf_volume(a->ext), staple_part, &j);
}

static struct starpu_perfmodel asqtad_staple_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_staple"};

struct starpu_codelet qf_cl_asqtad_staple = {
    .name = "asqtad_staple",
    .cpu_funcs = {asqtad_staple_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_staple_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &asqtad_staple_model,
};

int qf_insert_asqtad_staple(const qf_field *v, const qf_field *w, const qf_face_set *faces, qf_field *links,
                            qf_field *keep, int b, int mu, int nu, double coef)
{
    const qf_lattice *lat = v->lat;
    qf_asqtad_staple_args args = qf_asqtad_staple_args_make(v, w, mu, nu, coef, keep != NULL), *a = &args;
    args.team = qf_cpu_team_shares(lat);
    struct starpu_data_descr d[7] = {
        {qf_field_block(v, b), STARPU_R},
        {qf_field_face(v, qf_block_neighbour(b, lat->blocks, a->mu, +1), a->mu, 0), STARPU_R},
        {qf_face_set_handle(faces, qf_block_neighbour(b, lat->blocks, a->nu, +1), a->nu, 0), STARPU_R},
        {qf_face_set_handle(faces, qf_block_neighbour(b, lat->blocks, a->nu, -1), a->nu, 1), STARPU_R},
        {qf_field_block(links, b), STARPU_RW}};
    int n = 5;
    if (!a->w_is_v) d[n++] = (struct starpu_data_descr){qf_field_block(w, b), STARPU_R};
    if (a->keep) d[n++] = (struct starpu_data_descr){qf_field_block(keep, b), STARPU_W};
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_asqtad_staple, STARPU_DATA_MODE_ARRAY, d, n, QF_ARGS(*a), 0);
    return qf_task_check(ret, "asqtad_staple");
}
