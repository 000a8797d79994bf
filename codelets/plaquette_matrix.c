/* Codelet plaquette_matrix: the plaquette matrices P(x) of the six planes at every site of a block
 * (double precision), the first step of the clover field strength. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/clover_leaf.h"

#if QF_HAVE_CUDA
void qf_plaquette_matrix_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_plaquette_args *a;
    const void *block, *faces[QF_NDIM];
    double *pm;
} matrix_job;

static void matrix_part(void *arg, int64_t first, int64_t end)
{
    const matrix_job *j = arg;
    for (int64_t s = first; s < end; s++) qf_plaquette_matrix_site(j->block, j->faces, j->pm, s, j->a->ext, j->a->prec);
}

static void plaquette_matrix_cpu(void *buffers[], void *cl_arg)
{
    const qf_plaquette_args *a = cl_arg;
    matrix_job j = {.a = a, .block = (const void *)STARPU_VECTOR_GET_PTR(buffers[0])};
    for (int mu = 0; mu < QF_NDIM; mu++) j.faces[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + mu]);
    j.pm = (double *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM]);
    qf_cpu_team_range(a->team, STARPU_VECTOR_GET_NX(buffers[0]), matrix_part, &j);
}

static struct starpu_perfmodel plaquette_matrix_model = {.type = STARPU_HISTORY_BASED,
                                                         .symbol = "qf_plaquette_matrix"};

struct starpu_codelet qf_cl_plaquette_matrix = {
    .name = "plaquette_matrix",
    .cpu_funcs = {plaquette_matrix_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_plaquette_matrix_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2 + QF_NDIM,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W},
    .model = &plaquette_matrix_model,
};

int qf_leaf_site_reals(void) { return QF_NPLANES * QF_SU3_REALS; }
int qf_leaf_face_reals(void) { return QF_LEAF_FACE_SLOTS * QF_SU3_REALS; }

int qf_insert_plaquette_matrix(const qf_field *u, int b, starpu_data_handle_t p)
{
    const qf_lattice *lat = u->lat;
    qf_plaquette_args a = {.prec = u->prec, .team = qf_cpu_team_shares(lat)};
    memcpy(a.ext, lat->block, sizeof a.ext);
    starpu_data_handle_t fwd[QF_NDIM];
    for (int mu = 0; mu < QF_NDIM; mu++) fwd[mu] = qf_field_face(u, qf_block_neighbour(b, lat->blocks, mu, +1), mu, 0);
    int ret = QF_TASK_INSERT_BLOCK(u->lat, b, &qf_cl_plaquette_matrix, STARPU_R, qf_field_block(u, b), STARPU_R, fwd[0],
                                   STARPU_R, fwd[1], STARPU_R, fwd[2], STARPU_R, fwd[3], STARPU_W, p, QF_ARGS(a), 0);
    return qf_task_check(ret, "plaquette_matrix");
}
