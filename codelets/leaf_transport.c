/* Codelet leaf_transport: the sender half of a clover-leaf transport pass. For the sites y of the
 * block's side-1 face in each direction rho of the pass it computes U_rho(y)^dagger M(y) U_rho(y) for
 * the planes transported across rho, so that the +rho neighbour needs no gauge links of this block. */
#include "codelets.h"
#include "kernels/clover_leaf.h"

#if QF_HAVE_CUDA
void qf_leaf_transport_cuda(void *buffers[], void *cl_arg);
#endif

static void leaf_transport_cpu(void *buffers[], void *cl_arg)
{
    const qf_leaf_args *a = cl_arg;
    const void *block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const double *m = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]);
    for (int k = 0; k < QF_LEAF_FACE_DIRS; k++) {
        double *face = (double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
        int64_t n = STARPU_VECTOR_GET_NX(buffers[2 + k]);
        for (int64_t f = 0; f < n; f++) qf_leaf_face_site(block, m, face, f, a->ext, a->face_dir[k], a->dir, a->prec);
    }
}

static struct starpu_perfmodel leaf_transport_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_leaf_transport"};

struct starpu_codelet qf_cl_leaf_transport = {
    .name = "leaf_transport",
    .cpu_funcs = {leaf_transport_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_leaf_transport_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2 + QF_LEAF_FACE_DIRS,
    .modes = {STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W},
    .model = &leaf_transport_model,
};

int qf_insert_leaf_transport(const qf_field *u, int b, int pass, starpu_data_handle_t m, const qf_face_set *t)
{
    qf_leaf_args a = qf_leaf_args_make(u->lat->block, pass, u->prec, QF_DOUBLE);
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_leaf_transport, STARPU_R, qf_field_block(u, b), STARPU_R, m,
                                   STARPU_W, qf_face_set_handle(t, b, a.face_dir[0], 1), STARPU_W,
                                   qf_face_set_handle(t, b, a.face_dir[1], 1), STARPU_W,
                                   qf_face_set_handle(t, b, a.face_dir[2], 1), QF_ARGS(a), 0);
    return qf_task_check(ret, "leaf_transport");
}
