/* CUDA implementation of mg_coarse_gather: one thread per face entry (a whole coarse site), all eight
 * faces in one launch, their pointers passed by value. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg.h"

typedef struct { void *p[QF_NDIRS]; } coarse_faces;

template <int P>
static __global__ void mg_coarse_gather_kernel(const void *in, const __grid_constant__ coarse_faces face, int64_t n,
                                               qf_coarse_gather_args a)
{
    a.prec = (qf_precision)P;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) qf_coarse_gather_site(&a, in, face.p, t);
}

extern "C" void qf_mg_coarse_gather_cuda(void *buffers[], void *cl_arg)
{
    const qf_coarse_gather_args *a = (const qf_coarse_gather_args *)cl_arg;
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    coarse_faces face;
    for (int k = 0; k < QF_NDIRS; k++) face.p[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[1 + k]);
    int64_t n = qf_coarse_gather_total(a);
    if (n <= 0) return;
    QF_WITH_PRECISION(a->prec, P, mg_coarse_gather_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(in, face, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
