/* Codelet mg_prolong: P of the multigrid transfer, one fine block from its coarse block and its
 * near-null vectors, out = P e on all sites or on the even ones alone (kernels/mg.h). The fine sites are
 * shared among the CPU team inside the one-task coarse solve (mg_coarse_solve), a serial step of its
 * cycle, and where the fine lattice is one block on CPUs alone (qf_cpu_team_shares), whose one task
 * would otherwise hold the K-cycle on one core.
 * Buffers: R coarse, R V, W (RW: even sites alone) fine. */
#include "codelets.h"
#include "cpu_team.h"
#include "cpu_versions.h"
#include "mg_coarse_run.h"

#include <string.h>

#if QF_HAVE_CUDA
void qf_mg_prolong_cuda(void *buffers[], void *cl_arg);
#endif

/* The fine block's sites [first, end) one at a time in a->g.prec and a->g.vprec made constants
 * (QF_WITH_FIELD_AND_STORED_PRECISION): a single-precision Wilson level in float
 * (qf_mg_prolong_wilson_f), any other in double. */
static inline QF_HD_INLINE void prolong_block(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *out,
                                              int64_t first, int64_t end)
{
    if (qf_mg_wilson_float(&a->g)) {
        float vf[QF_MG_MAX_NVEC * QF_SPINOR_REALS], f[QF_SPINOR_REALS];
        for (int64_t fs = first; fs < end; fs++) {
            float *o = (float *)out + (size_t)fs * QF_SPINOR_REALS;
            qf_mg_prolong_wilson_f((const float *)coarse + qf_mg_prolong_coarse_offset(a, fs),
                                   qf_mg_wilson_records_f(&a->g, v, fs, vf), a->g.nvec, f);
            memcpy(o, f, sizeof f);
        }
        return;
    }
    double e[4 * QF_MG_MAX_NVEC];
    int len = 2 * a->g.nsite;
    for (int64_t fs = first; fs < end; fs++) {
        qf_mg_prolong_site(a, coarse, v, fs, e);
        size_t o = (size_t)fs * len;
        for (int l = 0; l < len; l++)
            qf_real_set(out, a->g.prec, o + l, e[l]);
    }
}

static inline QF_HD_INLINE void prolong_run(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *out,
                                            int64_t first, int64_t end)
{
    QF_WITH_FIELD_AND_STORED_PRECISION(a->g.prec, a->g.vprec, P, PV, {
        qf_mg_prolong_args b = *a;
        b.g.prec = P;
        b.g.vprec = PV;
        prolong_block(&b, coarse, v, out, first, end);
    });
}
QF_CPU_VERSIONS(prolong_run, prolong_run,
                (const qf_mg_prolong_args *a, const void *coarse, const void *v, void *out, int64_t first, int64_t end),
                (a, coarse, v, out, first, end))

typedef struct {
    const qf_mg_prolong_args *a;
    const void *coarse, *v;
    void *fine;
} prolong_share;

static void prolong_part(void *p, int64_t first, int64_t end)
{
    const prolong_share *s = p;
    QF_CPU_CALL(prolong_run, (s->a, s->coarse, s->v, s->fine, first, end));
}

static void prolong_shared(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine, int share)
{
    prolong_share s = {a, coarse, v, fine};
    qf_cpu_team_range(share, qf_mg_prolong_sites(a), prolong_part, &s);
}

void qf_mg_prolong_run_cpu(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine)
{
    prolong_shared(a, coarse, v, fine, 1);
}

static void mg_prolong_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_prolong_args *a = cl_arg;
    prolong_shared(a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                   (void *)STARPU_VECTOR_GET_PTR(buffers[2]), a->team);
}

/* The even sites alone are half the work on the same buffers. */
static uint32_t mg_prolong_footprint(struct starpu_task *task)
{
    const qf_mg_prolong_args *a = task->cl_arg;
    return starpu_hash_crc32c_be((uint32_t)a->even_only, starpu_task_data_footprint(task));
}

static struct starpu_perfmodel mg_prolong_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_mg_prolong", .footprint = mg_prolong_footprint};

struct starpu_codelet qf_cl_mg_prolong = {
    .name = "mg_prolong",
    .cpu_funcs = {mg_prolong_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_prolong_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_prolong_model,
};

int qf_insert_mg_prolong(qf_field *fine, int b, const qf_field *coarse, const qf_field *v, const int agg[QF_NDIM],
                         int nvec, int even_only)
{
    qf_mg_prolong_args a = {
        .g = qf_mg_transfer_geom(v, agg, nvec), .team = qf_cpu_team_shares(fine->lat), .even_only = even_only != 0};
    memcpy(a.cext, coarse->lat->block, sizeof a.cext);
    int c = qf_lattice_coarse_block_of(coarse->lat, v->lat, b, a.pos);
    int ret = QF_TASK_INSERT_BLOCK(fine->lat, b, &qf_cl_mg_prolong, STARPU_R, qf_field_block(coarse, c), STARPU_R,
                                   qf_field_block(v, b), even_only ? STARPU_RW : STARPU_W, qf_field_block(fine, b),
                                   STARPU_NAME, "prolong", QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_prolong");
}
