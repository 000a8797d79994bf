/* Codelet mg_restrict: R = P^dagger of the multigrid transfer, one coarse block from the fine blocks it
 * holds and their near-null vectors (kernels/mg.h; on the CPU a row of aggregates of a fine block at a
 * time, its sites in storage order). Where the coarse lattice is one block (the merged coarsest level)
 * the task is a serial step of the K-cycle, the other CPU workers waiting for its result, so its
 * rows are shared among the CPU team (cpu_team.h) in chunks; each coarse site is one thread's, so the
 * result does not depend on the team. (By aggregate layers a 16^4 block of 4^4 aggregates had four
 * units, so four threads of a team of 15.)
 * Buffers: R fine[j], R V[j] (j < nfine), W coarse. */
#include "codelets.h"
#include "cpu_team.h"
#include "cpu_versions.h"
#include "mg_coarse_run.h"

#include <stdlib.h>
#include <string.h>

#if QF_HAVE_CUDA
void qf_mg_restrict_cuda(void *buffers[], void *cl_arg);
#endif

/* Units first .. end - 1 of the coarse block (a unit: one row of aggregates of one fine block,
 * qf_mg_restrict_row) in a->g.prec and a->g.vprec made constants (QF_WITH_FIELD_AND_STORED_PRECISION). */
static inline QF_HD_INLINE void restrict_run(const qf_mg_restrict_args *a, const void *const *fine,
                                             const void *const *v, void *coarse, double *acc, int64_t first,
                                             int64_t end)
{
    QF_WITH_FIELD_AND_STORED_PRECISION(a->g.prec, a->g.vprec, P, PV, {
        qf_mg_restrict_args b = *a;
        b.g.prec = P;
        b.g.vprec = PV;
        const int64_t rows = qf_mg_restrict_rows(&b.g);
        for (int64_t u = first; u < end; u++)
            qf_mg_restrict_row(&b, fine[u / rows], v[u / rows], (int)(u / rows), u % rows, acc, coarse);
    });
}
QF_CPU_VERSIONS(restrict_run, restrict_run, (const qf_mg_restrict_args *a, const void *const *fine,
                                             const void *const *v, void *coarse, double *acc, int64_t first,
                                             int64_t end),
                (a, fine, v, coarse, acc, first, end))

typedef struct {
    const qf_mg_restrict_args *a;
    const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS];
    void *coarse;
} restrict_share;

/* A chunk of rows: each coarse site lies in one row, summed there in one fixed order, so the result
 * depends neither on the team nor on which thread took which chunk. */
static void restrict_rows(void *p, int64_t first, int64_t end)
{
    const restrict_share *r = p;
    int apb[QF_NDIM];
    qf_mg_apb(&r->a->g, apb);
    /* the lane sums of a row's coarse sites (kernels/mg.h): tens of kB, so not on the stack */
    double *acc = malloc(sizeof(double) * (size_t)apb[0] * qf_mg_restrict_acc_doubles(&r->a->g));
    STARPU_ASSERT_MSG(acc, "mg_restrict: out of host memory");
    QF_CPU_CALL(restrict_run, (r->a, r->fine, r->v, r->coarse, acc, first, end));
    free(acc);
}

void qf_mg_restrict_run_cpu(const qf_mg_restrict_args *a, const void *const *fine, const void *const *v, void *coarse)
{
    restrict_share r = {.a = a, .coarse = coarse};
    for (int j = 0; j < a->nfine; j++) {
        r.fine[j] = fine[j];
        r.v[j] = v[j];
    }
    qf_cpu_team_range(a->team, a->nfine * qf_mg_restrict_rows(&a->g), restrict_rows, &r);
}

static void mg_restrict_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_restrict_args *a = cl_arg;
    const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS];
    for (int j = 0; j < a->nfine; j++) {
        fine[j] = (const void *)STARPU_VECTOR_GET_PTR(buffers[j]);
        v[j] = (const void *)STARPU_VECTOR_GET_PTR(buffers[a->nfine + j]);
    }
    qf_mg_restrict_run_cpu(a, fine, v, (void *)STARPU_VECTOR_GET_PTR(buffers[2 * a->nfine]));
}

/* The even sites alone are half the work on the same buffers. */
static uint32_t mg_restrict_footprint(struct starpu_task *task)
{
    const qf_mg_restrict_args *a = task->cl_arg;
    return starpu_hash_crc32c_be((uint32_t)a->even_only, starpu_task_data_footprint(task));
}

static struct starpu_perfmodel mg_restrict_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_mg_restrict", .footprint = mg_restrict_footprint};

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
                          int nvec, int even_only)
{
    const qf_lattice *cl = coarse->lat;
    qf_mg_restrict_args a = {.g = qf_mg_transfer_geom(v, agg, nvec), .even_only = even_only != 0};
    qf_lattice_coarse_ratio(cl, v->lat, a.ratio);
    a.nfine = (int)qf_volume(a.ratio);
    a.team = cl->nlocal_blocks == 1;
    memcpy(a.cext, cl->block, sizeof a.cext);
    int members[QF_MG_MAX_FINE_BLOCKS];
    struct starpu_data_descr d[2 * QF_MG_MAX_FINE_BLOCKS + 1];
    qf_lattice_coarse_members(cl, v->lat, c, members);
    for (int j = 0; j < a.nfine; j++) {
        d[j] = (struct starpu_data_descr){qf_field_block(fine, members[j]), STARPU_R};
        d[a.nfine + j] = (struct starpu_data_descr){qf_field_block(v, members[j]), STARPU_R};
    }
    d[2 * a.nfine] = (struct starpu_data_descr){qf_field_block(coarse, c), STARPU_W};
    int ret = QF_TASK_INSERT_BLOCK(coarse->lat, c, &qf_cl_mg_restrict, STARPU_DATA_MODE_ARRAY, d, 2 * a.nfine + 1,
                                   STARPU_NAME, "restrict", QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_restrict");
}
