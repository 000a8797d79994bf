/* Codelet mg_orthonormalize: block Gram-Schmidt of the near-null vectors on every aggregate and
 * chirality of one fine block (kernels/mg.h), counting the aggregates where a vector vanished.
 * Buffers: RW V, REDUX (or W) accumulator of 1 double. */
#include "codelets.h"
#include "cpu_team.h"
#include "mg_coarse_run.h"

#if QF_HAVE_CUDA
void qf_mg_orthonormalize_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_mg_orth_args *a;
    void *v;
    int64_t bad; /* a count: the parts' order does not matter */
} orth_job;

/* the aggregates [a0, a1): each touches only its own sites' vectors */
static void orth_part(void *arg, int64_t a0, int64_t a1)
{
    orth_job *j = arg;
    int64_t bad = 0;
    QF_WITH_PRECISION(j->a->g.prec, P, {
        qf_mg_geom g = j->a->g;
        g.prec = P;
        for (int64_t ai = a0; ai < a1; ai++)
            for (int chi = 0; chi < 2; chi++) bad += qf_mg_orthonormalize_aggregate(&g, j->v, ai, chi);
    });
    __atomic_fetch_add(&j->bad, bad, __ATOMIC_RELAXED);
}

static void mg_orthonormalize_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_orth_args *a = cl_arg;
    orth_job j = {a, (void *)STARPU_VECTOR_GET_PTR(buffers[0]), 0};
    int apb[QF_NDIM];
    qf_mg_apb(&a->g, apb);
    qf_cpu_team_range(a->team, qf_volume(apb), orth_part, &j);
    *(double *)STARPU_VARIABLE_GET_PTR(buffers[1]) += (double)j.bad;
}

static struct starpu_perfmodel mg_orthonormalize_model = {.type = STARPU_HISTORY_BASED,
                                                          .symbol = "qf_mg_orthonormalize"};

struct starpu_codelet qf_cl_mg_orthonormalize = {
    .name = "mg_orthonormalize",
    .cpu_funcs = {mg_orthonormalize_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_orthonormalize_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_RW, STARPU_REDUX},
    .model = &mg_orthonormalize_model,
};

int qf_insert_mg_orthonormalize(qf_field *v, int b, const int agg[QF_NDIM], int nvec,
                                struct starpu_data_descr vanished)
{
    qf_mg_orth_args a = {.g = qf_mg_transfer_geom(v, agg, nvec), .team = qf_cpu_team_shares(v->lat)};
    int ret = QF_TASK_INSERT_BLOCK(v->lat, b, &qf_cl_mg_orthonormalize, STARPU_RW, qf_field_block(v, b), vanished.mode,
                                   vanished.handle, QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_orthonormalize");
}
