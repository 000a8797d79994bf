/* CUDA implementation of wilson_interior: one thread per output site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "wilson_launch.h"

template <int P, int R>
static __global__ void wilson_interior_kernel(void *out, const void *in, const void *gauge, const void *x,
                                              const void *clover, int64_t n, qf_wilson_args a)
{
    a.prec = (qf_precision)P;
    a.recon = (qf_recon)R;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_wilson_interior_site(out, in, gauge, x, clover, i, &a);
}

extern "C" void qf_wilson_interior_run_cuda(const qf_wilson_args *a, void *out, const void *in, const void *gauge,
                                            const void *x, const void *clover, cudaStream_t stream)
{
    int64_t n = qf_parity_nsites(a->ext, a->parity);
    QF_WITH_ANY_PRECISION(a->prec, P, QF_WITH_RECON(a->recon, R, wilson_interior_kernel<P, R><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(out, in, gauge, x, clover, n, *a)));
    QF_CUDA_CHECK_LAUNCH();
}
