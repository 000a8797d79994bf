/* CUDA implementation of asqtad_gather: one thread per face entry of the sixteen faces. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

struct asqtad_faces {
    void *p[QF_ASQTAD_FACE_SETS * QF_NDIRS];
};

template <int P>
static __global__ void asqtad_gather_kernel(const void *in, const void *links, asqtad_faces faces, int64_t n,
                                            qf_asqtad_gather_args a)
{
    a.prec = (qf_precision)P;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) qf_asqtad_gather_site(&a, in, links, faces.p, t);
}

extern "C" void qf_asqtad_gather_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_gather_args *a = (const qf_asqtad_gather_args *)cl_arg;
    asqtad_faces f;
    for (int k = 0; k < QF_ASQTAD_FACE_SETS * QF_NDIRS; k++) f.p[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    int64_t n = qf_asqtad_gather_total(a->ext);
    QF_WITH_PRECISION(a->prec, P, asqtad_gather_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0,
                                                            starpu_cuda_get_local_stream()>>>(
                                      (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                      (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), f, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
