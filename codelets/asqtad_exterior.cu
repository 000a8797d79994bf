/* CUDA implementation of asqtad_exterior: one thread per output site (those without a face hop return at
 * once). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

struct asqtad_faces {
    const void *p[QF_ASQTAD_FACE_SETS * QF_NDIRS];
};

template <int P>
static __global__ void asqtad_exterior_kernel(const void *links, asqtad_faces faces, void *out, const void *x, int64_t n,
                                              qf_asqtad_args a)
{
    a.prec = (qf_precision)P;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_asqtad_exterior_site(&a, links, faces.p, out, x, i);
}

extern "C" void qf_asqtad_exterior_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_args *a = (const qf_asqtad_args *)cl_arg;
    asqtad_faces f;
    for (int k = 0; k < QF_ASQTAD_FACE_SETS * QF_NDIRS; k++) f.p[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + QF_ASQTAD_FACE_SETS * QF_NDIRS]) : NULL;
    int64_t n = qf_parity_nsites(a->ext, a->parity);
    QF_WITH_PRECISION(a->prec, P, asqtad_exterior_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0,
                                                              starpu_cuda_get_local_stream()>>>(
                                      (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), f,
                                      (void *)STARPU_VECTOR_GET_PTR(buffers[0]), x, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
