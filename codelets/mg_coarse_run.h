/* The coarse operator's whole-site step (mg_coarse_interior's kernel: out = finish(a, x, b, H in) on
 * a->parity's sites) as a call on memory the caller holds, for mg_coarse_interior itself and for the
 * one-task coarse solve (mg_coarse_solve), on a CPU core or on a CUDA stream. */
#ifndef QF_MG_COARSE_RUN_H
#define QF_MG_COARSE_RUN_H

#include "kernels/mg.h"

#ifdef __cplusplus
extern "C" {
#endif

void qf_coarse_interior_run_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                const void *xinv);
#if QF_HAVE_CUDA && defined(__CUDACC__)
void qf_coarse_interior_run_cuda(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                 const void *xinv, cudaStream_t stream);
#endif

#ifdef __cplusplus
}
#endif
#endif
