/* Codelet leaf_sum: the receiver half of a clover-leaf transport pass. At every site x of the block,
 * out = M(x) + U_rho(x - rho)^dagger M(x - rho) U_rho(x - rho) per plane, the transported matrix taken
 * from the block or from the -rho neighbour's transport face; the last pass stores
 * F = (Q - Q^dagger) / 8 in the field-strength field's precision. */
#include "codelets.h"
#include "kernels/clover_leaf.h"

#if QF_HAVE_CUDA
void qf_leaf_sum_cuda(void *buffers[], void *cl_arg);
#endif

static void leaf_sum_cpu(void *buffers[], void *cl_arg)
{
    const qf_leaf_args *a = cl_arg;
    const void *block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const double *m = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]);
    const double *faces[QF_NDIM] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < QF_LEAF_FACE_DIRS; k++) faces[a->face_dir[k]] = (const double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[2 + QF_LEAF_FACE_DIRS]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    for (int64_t s = 0; s < n; s++)
        qf_leaf_sum_site(block, m, faces, out, s, a->ext, a->dir, a->finish, a->prec, a->out_prec);
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
