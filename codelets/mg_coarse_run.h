/* What the multigrid codelets share beyond the site kernels: the geometry of a transfer's vectors,
 * which every transfer and build task carries (mg_pack.c), and the coarse operator's whole-site step
 * (mg_coarse_interior's kernel: out = finish(a, x, b, H in) on a->parity's sites) as a call on memory
 * the caller holds, for mg_coarse_interior itself and for the one-task coarse solve (mg_coarse_solve),
 * on a CPU core or on a CUDA stream; restriction and prolongation likewise, for the one-task solve's
 * cycle. */
#ifndef QF_MG_COARSE_RUN_H
#define QF_MG_COARSE_RUN_H

#include "quarkflow/qf_field.h"
#include "kernels/mg.h"
#include "kernels/coarse_gcr.h"

#include <starpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The aggregation of v (a QF_FIELD_TRANSFER field of nvec vectors on the fine lattice, aggregates of
 * extents agg), in v's precision (single fields for half vectors). */
qf_mg_geom qf_mg_transfer_geom(const qf_field *v, const int agg[QF_NDIM], int nvec);

void qf_coarse_interior_run_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                const void *xinv);
/* The same for the output sites first .. end - 1 of a->parity (qf_parity_site's numbering) only. */
void qf_coarse_interior_range_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                  const void *xinv, int64_t first, int64_t end);
/* The same, the sites shared among the CPU team (cpu_team.h): every output site is one thread's, so
 * the result is the same for every team size. */
void qf_coarse_interior_team_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                 const void *xinv);
/* coarse = R fine, the coarse block's sites shared among the CPU team where a->team; fine = P coarse
 * (or += with a->add), its sites shared among the team. */
void qf_mg_restrict_run_cpu(const qf_mg_restrict_args *a, const void *const *fine, const void *const *v, void *coarse);
void qf_mg_prolong_run_cpu(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine);
#if QF_HAVE_CUDA && defined(__CUDACC__)
void qf_coarse_interior_run_cuda(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                 const void *xinv, cudaStream_t stream);
void qf_mg_restrict_run_cuda(const qf_mg_restrict_args *a, const void *const *fine, const void *const *v, void *coarse,
                             cudaStream_t stream);
void qf_mg_prolong_run_cuda(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine,
                            cudaStream_t stream);
#endif

/* The one-task solve's operators and transfers from the codelet's buffers (kernels/coarse_gcr.h). */
static inline void qf_coarse_task_operands(qf_coarse_task *t, void *buffers[])
{
    const qf_coarse_solve_args *a = t->a;
    for (int i = 0; i < a->nlevels; i++) {
        t->lev[i].links = (const void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_links_buffer(i)]);
        t->lev[i].xinv = (const void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_xinv_buffer(i)]);
        if (i < a->nlevels - 1) t->lev[i].v = (const void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_v_buffer(a, i)]);
    }
    if (a->dense)
        t->lev[a->nlevels - 1].dense = (const void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_dense_buffer(a)]);
}

#ifdef __cplusplus
}
#endif
#endif
