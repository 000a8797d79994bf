/* Codelet slice_sums: a block's part of time-slice sums of a site quantity (kernels/meson.h: the
 * meson correlators' terms of a Wilson propagator's 12 columns, or |f|^2 of one field), added into a
 * STARPU_REDUX accumulator of nsums T doubles. Buffers: R the fields' blocks, REDUX the accumulator. */
#include "codelets.h"
#include "kernels/meson.h"

#if QF_HAVE_CUDA
void qf_slice_sums_cuda(void *buffers[], void *cl_arg);
#endif

static void slice_sums_cpu(void *buffers[], void *cl_arg)
{
    const qf_slice_args *a = cl_arg;
    int nf = qf_slice_nfields(a->what), ns = qf_slice_nsums(a->what);
    const void *f[QF_MESON_COLUMNS];
    for (int k = 0; k < nf; k++) f[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[k]);
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[nf]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    for (int64_t s = 0; s < n; s++) {
        int x[QF_NDIM];
        double v[2];
        qf_block_site_coords(s, a->ext, x);
        qf_slice_site(a, f, s, v);
        int t = (a->t0 + x[3]) % a->T;
        for (int k = 0; k < ns; k++) acc[k * a->T + t] += v[k];
    }
}

static struct starpu_perfmodel slice_sums_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_slice_sums"};

struct starpu_codelet qf_cl_slice_sums = {
    .name = "slice_sums",
    .cpu_funcs = {slice_sums_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_slice_sums_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the fields R, the sum REDUX */
    .model = &slice_sums_model,
};

int qf_insert_slice_sums(const qf_field *const *f, int what, int b, int t_source, struct starpu_data_descr sum)
{
    const qf_lattice *lat = f[0]->lat;
    qf_slice_args a = {.T = lat->global[3], .site_reals = f[0]->shape.site_reals, .what = (qf_slice_quantity)what,
                       .prec = f[0]->prec};
    int origin[QF_NDIM], nf = qf_slice_nfields(a.what);
    memcpy(a.ext, lat->block, sizeof a.ext);
    qf_lattice_block_origin(lat, b, origin);
    a.t0 = ((origin[3] - t_source) % a.T + a.T) % a.T;
    struct starpu_data_descr d[QF_MESON_COLUMNS + 1];
    for (int k = 0; k < nf; k++) d[k] = (struct starpu_data_descr){qf_field_block(f[k], b), STARPU_R};
    d[nf] = sum;
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_slice_sums, STARPU_DATA_MODE_ARRAY, d, nf + 1, QF_ARGS(a), 0);
    return qf_task_check(ret, "slice_sums");
}
