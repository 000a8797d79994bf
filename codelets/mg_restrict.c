/* Codelet mg_restrict: R = P^dagger of the multigrid transfer, one coarse block from the fine blocks it
 * holds and their near-null vectors (kernels/mg.h; on the CPU a coarse site's rows together). Buffers: R fine[j], R V[j] (j < nfine), W coarse. */
#include "codelets.h"
#include "mg_coarse_run.h"

#include <string.h>

#if QF_HAVE_CUDA
void qf_mg_restrict_cuda(void *buffers[], void *cl_arg);
#endif

static void mg_restrict_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_restrict_args *a = cl_arg;
    const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS];
    for (int j = 0; j < a->nfine; j++) {
        fine[j] = (const void *)STARPU_VECTOR_GET_PTR(buffers[j]);
        v[j] = (const void *)STARPU_VECTOR_GET_PTR(buffers[a->nfine + j]);
    }
    void *coarse = (void *)STARPU_VECTOR_GET_PTR(buffers[2 * a->nfine]);
    int n2 = 2 * a->g.nvec;
    qf_complex acc[2 * QF_MG_MAX_NVEC];
    QF_WITH_PRECISION(a->g.prec, P, {
        qf_mg_restrict_args b = *a;
        b.g.prec = P;
        for (int64_t s = 0, ns = qf_volume(b.cext); s < ns; s++) {
            qf_mg_restrict_site(&b, fine, v, s, acc);
            size_t o = qf_coarse_site_offset(s, b.g.nvec);
            for (int r = 0; r < n2; r++) {
                qf_real_set(coarse, P, o + 2 * (size_t)r, acc[r].re);
                qf_real_set(coarse, P, o + 2 * (size_t)r + 1, acc[r].im);
            }
        }
    });
}

static struct starpu_perfmodel mg_restrict_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_restrict"};

struct starpu_codelet qf_cl_mg_restrict = {
    .name = "mg_restrict",
    .cpu_funcs = {mg_restrict_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_restrict_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_restrict_model,
};

int qf_insert_mg_restrict(qf_field *coarse, int c, const qf_field *fine, const qf_field *v, const int agg[QF_NDIM],
                          int nvec)
{
    const qf_lattice *cl = coarse->lat;
    qf_mg_restrict_args a = {.g = qf_mg_transfer_geom(v, agg, nvec)};
    qf_lattice_coarse_ratio(cl, v->lat, a.ratio);
    a.nfine = (int)qf_volume(a.ratio);
    memcpy(a.cext, cl->block, sizeof a.cext);
    int members[QF_MG_MAX_FINE_BLOCKS];
    struct starpu_data_descr d[2 * QF_MG_MAX_FINE_BLOCKS + 1];
    qf_lattice_coarse_members(cl, v->lat, c, members);
    for (int j = 0; j < a.nfine; j++) {
        d[j] = (struct starpu_data_descr){qf_field_block(fine, members[j]), STARPU_R};
        d[a.nfine + j] = (struct starpu_data_descr){qf_field_block(v, members[j]), STARPU_R};
    }
    d[2 * a.nfine] = (struct starpu_data_descr){qf_field_block(coarse, c), STARPU_W};
    int ret = QF_TASK_INSERT(&qf_cl_mg_restrict, STARPU_DATA_MODE_ARRAY, d, 2 * a.nfine + 1, STARPU_NAME, "restrict",
                             QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_restrict");
}
