/* CUDA implementation of domain_layout: one thread per record. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/sap.h"

template <int P>
static __global__ void domain_layout_kernel(const void *block, void *dom, int64_t n, qf_domain_layout_args a)
{
    int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) qf_domain_layout_record(&a.g, block, dom, k, a.rec, (qf_precision)P);
}

extern "C" void qf_domain_layout_cuda(void *buffers[], void *cl_arg)
{
    const qf_domain_layout_args *a = (const qf_domain_layout_args *)cl_arg;
    int64_t n = qf_volume(a->g.ext);
    QF_WITH_PRECISION(
        a->prec, P,
        domain_layout_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
            (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]), n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
