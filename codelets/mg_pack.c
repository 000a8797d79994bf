/* Codelet mg_pack: the near-null vectors of one fine block, N fields, into the prolongator's storage
 * V[x][k][i] (kernels/mg.h). Buffers: R field[k] (k < N), W V. */
#include "codelets.h"
#include "cpu_team.h"
#include "mg_coarse_run.h"

#if QF_HAVE_CUDA
void qf_mg_pack_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_mg_geom *g;
    void *const *buffers;
} pack_job;

static void pack_part(void *arg, int64_t first, int64_t end)
{
    const pack_job *j = arg;
    const qf_mg_geom *g = j->g;
    void *v = (void *)STARPU_VECTOR_GET_PTR(j->buffers[g->nvec]);
    for (int k = 0; k < g->nvec; k++) {
        const void *f = (const void *)STARPU_VECTOR_GET_PTR(j->buffers[k]);
        for (int64_t fs = first; fs < end; fs++)
            for (int i = 0; i < 2 * g->nsite; i++)
                qf_real_set(v, g->prec, qf_mg_v_offset(g, fs, k, 0) + i,
                            qf_real_get(f, g->prec, (size_t)2 * g->nsite * fs + i));
    }
}

static void mg_pack_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_orth_args *a = cl_arg;
    pack_job j = {&a->g, buffers};
    qf_cpu_team_range(a->team, qf_volume(a->g.fext), pack_part, &j);
}

static struct starpu_perfmodel mg_pack_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_pack"};

struct starpu_codelet qf_cl_mg_pack = {
    .name = "mg_pack",
    .cpu_funcs = {mg_pack_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_pack_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_pack_model,
};

qf_mg_geom qf_mg_transfer_geom(const qf_field *v, const int agg[QF_NDIM], int nvec)
{
    /* half vectors (qf_transfer_set_vector_precision) serve single-precision fields */
    qf_mg_geom g = {.nsite = v->shape.site_reals / (2 * nvec),
                    .nvec = nvec,
                    .prec = v->prec == QF_HALF ? QF_SINGLE : v->prec,
                    .vprec = v->prec};
    for (int mu = 0; mu < QF_NDIM; mu++) {
        g.fext[mu] = v->lat->block[mu];
        g.agg[mu] = agg[mu];
    }
    return g;
}

int qf_insert_mg_pack(qf_field *v, int b, const int agg[QF_NDIM], int nvec, qf_field *const *vec)
{
    qf_mg_orth_args a = {.g = qf_mg_transfer_geom(v, agg, nvec)};
    a.team = qf_cpu_team_shares(v->lat) && v->lat->block_volume * v->shape.site_reals >= QF_CPU_TEAM_MIN_REALS;
    struct starpu_data_descr d[QF_COARSE_MAX_COLOURS + 1]; /* v's shape holds at most that many vectors */
    for (int k = 0; k < nvec; k++) d[k] = (struct starpu_data_descr){qf_field_block(vec[k], b), STARPU_R};
    d[nvec] = (struct starpu_data_descr){qf_field_block(v, b), STARPU_W};
    int ret = QF_TASK_INSERT_BLOCK(v->lat, b, &qf_cl_mg_pack, STARPU_DATA_MODE_ARRAY, d, nvec + 1, QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_pack");
}
