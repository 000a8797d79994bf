/* CUDA implementation of wilson_interior: one thread per output site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "wilson_launch.h"
#include "kernels/half_float_kind.h"

/* Half fields in float arithmetic (kernels/half_float_kind.h): 96 registers a thread, where the double
 * kind's 162 had left the half hop latency-bound (ncu: three blocks a multiprocessor, 39% of the DRAM
 * peak) and a cap at 128 registers had bought back 2-3.5% with spills (bench/RESULTS.md). */
template <int P, int R>
static __global__ void wilson_interior_kernel(void *out, const void *in, const void *gauge, const void *x,
                                              const void *clover, int64_t n, qf_wilson_args a)
{
    a.prec = (qf_precision)P;
    a.recon = (qf_recon)R;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    QF_THREAD_SITE_CALL(P, qf_wilson_interior_site, out, in, gauge, x, clover, NULL, i, &a);
}

extern "C" void qf_wilson_interior_run_cuda(const qf_wilson_args *a, void *out, const void *in, const void *gauge,
                                            const void *x, const void *clover, cudaStream_t stream)
{
    int64_t n = qf_parity_nsites(a->ext, a->parity);
    QF_WITH_ANY_PRECISION(a->prec, P, QF_WITH_RECON(a->recon, R, wilson_interior_kernel<P, R><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(out, in, gauge, x, clover, n, *a)));
    QF_CUDA_CHECK_LAUNCH();
}
