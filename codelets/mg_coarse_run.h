/* What the multigrid codelets share beyond the site kernels: the geometry of a transfer's vectors,
 * which every transfer and build task carries (mg_pack.c), and the coarse operator's whole-site step
 * (mg_coarse_interior's kernel: out = finish(a, x, b, H in) on a->parity's sites) as a call on memory
 * the caller holds, for mg_coarse_interior itself and for the one-task coarse solve (mg_coarse_solve),
 * on a CPU core or on a CUDA stream. */
#ifndef QF_MG_COARSE_RUN_H
#define QF_MG_COARSE_RUN_H

#include "quarkflow/qf_field.h"
#include "kernels/mg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The aggregation of v (a QF_FIELD_TRANSFER field of nvec vectors on the fine lattice, aggregates of
 * extents agg), in v's precision. */
qf_mg_geom qf_mg_transfer_geom(const qf_field *v, const int agg[QF_NDIM], int nvec);

void qf_coarse_interior_run_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                const void *xinv);
/* The same for the output sites first .. end - 1 of a->parity (qf_parity_site's numbering) only. */
void qf_coarse_interior_range_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                  const void *xinv, int64_t first, int64_t end);
#if QF_HAVE_CUDA && defined(__CUDACC__)
void qf_coarse_interior_run_cuda(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                 const void *xinv, cudaStream_t stream);
#endif

#ifdef __cplusplus
}
#endif
#endif
