/* CUDA implementation of asqtad_interior: one thread per output site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

template <int P>
static __global__ void asqtad_interior_kernel(const void *in, const void *links, void *out, const void *x, int64_t n,
                                              qf_asqtad_args a)
{
    a.prec = (qf_precision)P;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) qf_asqtad_interior_site(&a, in, links, out, x, i);
}

extern "C" void qf_asqtad_interior_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_args *a = (const qf_asqtad_args *)cl_arg;
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[3]) : NULL;
    int64_t n = qf_parity_nsites(a->ext, a->parity);
    QF_WITH_PRECISION(a->prec, P, asqtad_interior_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0,
                                                              starpu_cuda_get_local_stream()>>>(
                                      (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                      (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                                      (void *)STARPU_VECTOR_GET_PTR(buffers[2]), x, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
