/* Codelet meson: a block's part of a point-source propagator's pion and rho correlators, its sink
 * sites' terms (kernels/meson.h) summed a time slice at a time into a STARPU_REDUX accumulator of 2 T
 * doubles. Buffers: R the 12 columns' blocks, REDUX the accumulator. */
#include "codelets.h"
#include "kernels/meson.h"

#if QF_HAVE_CUDA
void qf_meson_cuda(void *buffers[], void *cl_arg);
#endif

static void meson_cpu(void *buffers[], void *cl_arg)
{
    const qf_meson_args *a = cl_arg;
    const void *col[QF_MESON_COLUMNS];
    for (int k = 0; k < QF_MESON_COLUMNS; k++) col[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[k]);
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[QF_MESON_COLUMNS]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    for (int64_t s = 0; s < n; s++) {
        int x[QF_NDIM];
        double pion, rho;
        qf_block_site_coords(s, a->ext, x);
        qf_meson_site(col, a->prec, s, &pion, &rho);
        int t = (a->t0 + x[3]) % a->T;
        acc[t] += pion;
        acc[a->T + t] += rho;
    }
}

static struct starpu_perfmodel meson_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_meson"};

struct starpu_codelet qf_cl_meson = {
    .name = "meson",
    .cpu_funcs = {meson_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_meson_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* 12 columns R, the sum REDUX */
    .model = &meson_model,
};

int qf_insert_meson(qf_field *const col[QF_MESON_COLUMNS], int b, int t_source, struct starpu_data_descr sum)
{
    const qf_lattice *lat = col[0]->lat;
    qf_meson_args a = {.T = lat->global[3], .prec = col[0]->prec};
    int origin[QF_NDIM];
    memcpy(a.ext, lat->block, sizeof a.ext);
    qf_lattice_block_origin(lat, b, origin);
    a.t0 = ((origin[3] - t_source) % a.T + a.T) % a.T;
    struct starpu_data_descr d[QF_MESON_COLUMNS + 1];
    for (int k = 0; k < QF_MESON_COLUMNS; k++) d[k] = (struct starpu_data_descr){qf_field_block(col[k], b), STARPU_R};
    d[QF_MESON_COLUMNS] = sum;
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_meson, STARPU_DATA_MODE_ARRAY, d, QF_MESON_COLUMNS + 1, QF_ARGS(a), 0);
    return qf_task_check(ret, "meson");
}
