/* Codelet leaf_sum: the receiver half of a clover-leaf transport pass. At every site x of the block,
 * out = M(x) + U_rho(x - rho)^dagger M(x - rho) U_rho(x - rho) per plane, the transported matrix taken
 * from the block or from the -rho neighbour's transport face; the last pass stores
 * F = (Q - Q^dagger) / 8 in the field-strength field's precision. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/clover_leaf.h"

#if QF_HAVE_CUDA
void qf_leaf_sum_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_leaf_args *a;
    const void *block;
    const double *m, *faces[QF_NDIM];
    void *out;
} sum_job;

static void sum_part(void *arg, int64_t first, int64_t end)
{
    const sum_job *j = arg;
    const qf_leaf_args *a = j->a;
    for (int64_t s = first; s < end; s++)
        qf_leaf_sum_site(j->block, j->m, j->faces, j->out, s, a->ext, a->dir, a->finish, a->prec, a->out_prec);
}

static void leaf_sum_cpu(void *buffers[], void *cl_arg)
{
    const qf_leaf_args *a = cl_arg;
    sum_job j = {.a = a,
                 .block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                 .m = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]),
                 .out = (void *)STARPU_VECTOR_GET_PTR(buffers[2 + QF_LEAF_FACE_DIRS])};
    for (int k = 0; k < QF_LEAF_FACE_DIRS; k++) j.faces[a->face_dir[k]] = (const double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    qf_cpu_team_range(a->team, STARPU_VECTOR_GET_NX(buffers[0]), sum_part, &j);
}

static struct starpu_perfmodel leaf_sum_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_leaf_sum"};

struct starpu_codelet qf_cl_leaf_sum = {
    .name = "leaf_sum",
    .cpu_funcs = {leaf_sum_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_leaf_sum_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 3 + QF_LEAF_FACE_DIRS,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W},
    .model = &leaf_sum_model,
};

int qf_insert_leaf_sum(const qf_field *u, int b, int pass, starpu_data_handle_t m, const qf_face_set *t,
                       starpu_data_handle_t out, qf_field *fmunu)
{
    const qf_lattice *lat = u->lat;
    qf_leaf_args a = qf_leaf_args_make(lat->block, pass, u->prec, fmunu ? fmunu->prec : QF_DOUBLE);
    a.team = qf_cpu_team_shares(lat);
    starpu_data_handle_t in[QF_LEAF_FACE_DIRS];
    for (int k = 0; k < QF_LEAF_FACE_DIRS; k++) {
        int rho = a.face_dir[k];
        in[k] = qf_face_set_handle(t, qf_block_neighbour(b, lat->blocks, rho, -1), rho, 1);
    }
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_leaf_sum, STARPU_R, qf_field_block(u, b), STARPU_R, m, STARPU_R,
                                   in[0], STARPU_R, in[1], STARPU_R, in[2], STARPU_W,
                                   fmunu ? qf_field_block(fmunu, b) : out, QF_ARGS(a), 0);
    return qf_task_check(ret, "leaf_sum");
}
