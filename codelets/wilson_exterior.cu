/* CUDA implementation of wilson_exterior: one thread per output site; sites off the faces return
 * at once. */
#include "codelets.h"
#include "cuda_launch.h"
#include "wilson_launch.h"
#include "kernels/half_float_kind.h"

typedef struct { const void *p[QF_WILSON_NFACES]; } face_ptrs;

template <int P, int R>
static __global__ void wilson_exterior_kernel(void *out, const void *gauge, const void *x, const void *clover,
                                              face_ptrs face, int64_t n, qf_wilson_args a)
{
    a.prec = (qf_precision)P;
    a.recon = (qf_recon)R;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    QF_THREAD_SITE_CALL(P, qf_wilson_exterior_site, out, gauge, x, clover, face.p, i, &a);
}

extern "C" void qf_wilson_exterior_run_cuda(const qf_wilson_args *a, void *out, const void *gauge, const void *x,
                                            const void *clover, const void *const nbr_face[QF_WILSON_NFACES],
                                            cudaStream_t stream)
{
    face_ptrs f;
    for (int k = 0; k < QF_WILSON_NFACES; k++) f.p[k] = nbr_face[k];
    int64_t n = qf_parity_nsites(a->ext, a->parity);
    QF_WITH_ANY_PRECISION(a->prec, P, QF_WITH_RECON(a->recon, R, wilson_exterior_kernel<P, R><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(out, gauge, x, clover, f, n, *a)));
    QF_CUDA_CHECK_LAUNCH();
}
