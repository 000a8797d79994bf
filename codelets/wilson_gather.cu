/* CUDA implementation of wilson_gather: one thread per face entry, all eight faces in one launch. */
#include "codelets.h"
#include "cuda_launch.h"
#include "wilson_launch.h"
#include "kernels/half_float_kind.h"

typedef struct { void *p[QF_WILSON_NFACES]; } face_ptrs;

template <int P, int R>
static __global__ void wilson_gather_kernel(const void *spinor, const void *gauge, face_ptrs face, int64_t n,
                                            qf_wilson_gather_args a)
{
    a.prec = (qf_precision)P;
    a.recon = (qf_recon)R;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    QF_THREAD_SITE_CALL(P, qf_wilson_gather_site, spinor, gauge, face.p, t, &a);
}

extern "C" void qf_wilson_gather_run_cuda(const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                                          void *const face[QF_WILSON_NFACES], cudaStream_t stream)
{
    face_ptrs f;
    for (int k = 0; k < QF_WILSON_NFACES; k++) f.p[k] = face[k];
    int64_t n = qf_wilson_gather_total(a);
    QF_WITH_ANY_PRECISION(a->prec, P, QF_WITH_RECON(a->recon, R, wilson_gather_kernel<P, R><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(spinor, gauge, f, n, *a)));
    QF_CUDA_CHECK_LAUNCH();
}
