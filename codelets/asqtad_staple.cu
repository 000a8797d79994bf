/* CUDA implementation of asqtad_staple: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

static __global__ void asqtad_staple_kernel(const void *w, const void *v, const void *uface, const void *wface,
                                            const void *tface, void *links, void *keep, int64_t n,
                                            qf_asqtad_staple_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_asqtad_staple_site(&a, w, v, uface, wface, tface, links, keep, s);
}

extern "C" void qf_asqtad_staple_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_staple_args *a = (const qf_asqtad_staple_args *)cl_arg;
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int k = 5;
    const void *w = a->w_is_v ? v : (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    void *keep = a->keep ? (void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
    int64_t n = qf_volume(a->ext);
    asqtad_staple_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        w, v, (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (const void *)STARPU_VECTOR_GET_PTR(buffers[2]),
        (const void *)STARPU_VECTOR_GET_PTR(buffers[3]), (void *)STARPU_VECTOR_GET_PTR(buffers[4]), keep, n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
