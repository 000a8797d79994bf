/* CUDA implementation of asqtad_staple_gather: one thread per face entry. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

static __global__ void asqtad_staple_gather_kernel(const void *w, const void *v, const void *uface, void *f0, void *f1,
                                                   int64_t n, qf_asqtad_staple_args a)
{
    int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (f < n) qf_asqtad_staple_gather_site(&a, w, v, uface, f0, f1, f);
}

extern "C" void qf_asqtad_staple_gather_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_staple_args *a = (const qf_asqtad_staple_args *)cl_arg;
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *w = a->w_is_v ? v : (const void *)STARPU_VECTOR_GET_PTR(buffers[4]);
    int64_t n = 2 * qf_face_volume(a->ext, a->nu, 1);
    asqtad_staple_gather_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        w, v, (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
        (void *)STARPU_VECTOR_GET_PTR(buffers[3]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
