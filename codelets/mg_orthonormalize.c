/* Codelet mg_orthonormalize: block Gram-Schmidt of the near-null vectors on every aggregate and
 * chirality of one fine block (kernels/mg.h), counting the aggregates where a vector vanished.
 * Buffers: RW V, REDUX (or W) accumulator of 1 double. */
#include "codelets.h"
#include "mg_coarse_run.h"

#if QF_HAVE_CUDA
void qf_mg_orthonormalize_cuda(void *buffers[], void *cl_arg);
#endif

static void mg_orthonormalize_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_orth_args *a = cl_arg;
    void *v = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double *bad = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
    int apb[QF_NDIM];
    qf_mg_apb(&a->g, apb);
    QF_WITH_PRECISION(a->g.prec, P, {
        qf_mg_geom g = a->g;
        g.prec = P;
        for (int64_t ai = 0, na = qf_volume(apb); ai < na; ai++)
            for (int chi = 0; chi < 2; chi++) *bad += qf_mg_orthonormalize_aggregate(&g, v, ai, chi);
    });
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
    qf_mg_orth_args a = {.g = qf_mg_transfer_geom(v, agg, nvec)};
    int ret = QF_TASK_INSERT_BLOCK(v->lat, b, &qf_cl_mg_orthonormalize, STARPU_RW, qf_field_block(v, b), vanished.mode,
                                   vanished.handle, QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_orthonormalize");
}
