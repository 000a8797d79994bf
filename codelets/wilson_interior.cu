/* CUDA implementation of wilson_interior: one thread per output site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "wilson_launch.h"

/* CAPPED: at most 128 registers (a few spilled), four blocks a multiprocessor. In half precision the
 * kernel is latency-bound (ncu: 162 registers, three blocks, 48% of the DRAM peak), and where its
 * grid exceeds what the GPU holds at once, four blocks hide more of the latency than three despite
 * the spills: the 32^4 recon-12 Mhat's direct kernels 318 -> 311.5 us, 24^4 112.6 -> 108.7 us on an
 * H200. Smaller grids fit whole and only pay the spills (16^4: 25.5 -> 26.9 us); single and double
 * capped ran slower (bench/RESULTS.md). */
template <int P, int R, bool CAPPED>
static __global__ void __launch_bounds__(QF_CUDA_THREADS, CAPPED ? 4 : 0)
    wilson_interior_kernel(void *out, const void *in, const void *gauge, const void *x, const void *clover, int64_t n,
                           qf_wilson_args a)
{
    a.prec = (qf_precision)P;
    a.recon = (qf_recon)R;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_wilson_interior_site(out, in, gauge, x, clover, NULL, i, &a);
}

template <int P, int R>
static void wilson_interior_launch(void *out, const void *in, const void *gauge, const void *x, const void *clover,
                                   int64_t n, const qf_wilson_args *a, cudaStream_t stream)
{
    unsigned blocks = qf_cuda_blocks(n);
    if constexpr (P == QF_HALF) {
        if (blocks > qf_cuda_resident_blocks<wilson_interior_kernel<P, R, false>>()) {
            wilson_interior_kernel<P, R, true><<<blocks, QF_CUDA_THREADS, 0, stream>>>(out, in, gauge, x, clover, n, *a);
            return;
        }
    }
    wilson_interior_kernel<P, R, false><<<blocks, QF_CUDA_THREADS, 0, stream>>>(out, in, gauge, x, clover, n, *a);
}

extern "C" void qf_wilson_interior_run_cuda(const qf_wilson_args *a, void *out, const void *in, const void *gauge,
                                            const void *x, const void *clover, cudaStream_t stream)
{
    int64_t n = qf_parity_nsites(a->ext, a->parity);
    QF_WITH_ANY_PRECISION(a->prec, P, QF_WITH_RECON(a->recon, R, wilson_interior_launch<P, R>(out, in, gauge, x, clover, n, a, stream)));
    QF_CUDA_CHECK_LAUNCH();
}
