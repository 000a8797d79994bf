/* Codelet gauge_update: heatbath or overrelaxation of the links U_mu of one parity in one block,
 * from the block, its forward neighbours' faces and the lower-staple faces behind it. */
#include "codelets.h"
#include "kernels/heatbath.h"

#if QF_HAVE_CUDA
void qf_gauge_update_cuda(void *buffers[], void *cl_arg);
#endif

static void gauge_update_cpu(void *buffers[], void *cl_arg)
{
    const qf_update_args *a = cl_arg;
    void *block = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *fwd[QF_NDIM];
    const double *lower[QF_NDIM] = {NULL, NULL, NULL, NULL};
    for (int nu = 0; nu < QF_NDIM; nu++) fwd[nu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + nu]);
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++)
        if (nu != a->mu) lower[nu] = (const double *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM + k++]);
    int64_t half = STARPU_VECTOR_GET_NX(buffers[0]) / 2;
    for (int64_t s = a->parity * half; s < (a->parity + 1) * half; s++) qf_update_site(block, fwd, lower, s, a);
}

static struct starpu_perfmodel gauge_update_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_gauge_update"};

struct starpu_codelet qf_cl_gauge_update = {
    .name = "gauge_update",
    .cpu_funcs = {gauge_update_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_gauge_update_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 8,
    .modes = {STARPU_RW, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R},
    .model = &gauge_update_model,
};
