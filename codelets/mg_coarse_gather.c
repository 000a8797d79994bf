/* Codelet mg_coarse_gather: the eight faces of one coarse block, whole coarse sites of the gathered
 * parity (kernels/mg.h), for the coarse operator's stencil (tasks/stencil.h).
 * Buffers: R coarse block, W faces (mu, side), mu = 0..3, side 0 then 1. */
#include "codelets.h"
#include "kernels/mg.h"

#if QF_HAVE_CUDA
void qf_mg_coarse_gather_cuda(void *buffers[], void *cl_arg);
#endif

static void mg_coarse_gather_cpu(void *buffers[], void *cl_arg)
{
    const qf_coarse_gather_args *a = cl_arg;
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *face[QF_NDIRS];
    for (int k = 0; k < QF_NDIRS; k++) face[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[1 + k]);
    QF_WITH_PRECISION(a->prec, P, {
        qf_coarse_gather_args b = *a;
        b.prec = P;
        for (int64_t t = 0, n = qf_coarse_gather_total(&b); t < n; t++) qf_coarse_gather_site(&b, in, face, t);
    });
}

static struct starpu_perfmodel mg_coarse_gather_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_coarse_gather"};

struct starpu_codelet qf_cl_mg_coarse_gather = {
    .name = "mg_coarse_gather",
    .cpu_funcs = {mg_coarse_gather_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_coarse_gather_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_coarse_gather_model,
};
