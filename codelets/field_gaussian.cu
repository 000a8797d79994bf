/* CUDA implementation of field_gaussian: one thread per site, drawing the site's reals from Philox keyed
 * by the seed, the stream and the global site (kernels/random.h). It gives the CPU's bits only when
 * compiled with --fmad=false (as gauge_start.cu: QF_DETERMINISTIC_CUDA_SOURCES in CMakeLists.txt), so that
 * the deterministic log, sincos and Box-Muller arithmetic of kernels/qf_math.h is not contracted to FMAs. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/random.h"

template <int P>
static __global__ void field_gaussian_kernel(void *f, int64_t n, qf_field_gaussian_args a)
{
    a.prec = (qf_precision)P;
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_field_gaussian_site(&a, f, s);
}

extern "C" void qf_field_gaussian_cuda(void *buffers[], void *cl_arg)
{
    const qf_field_gaussian_args *a = (const qf_field_gaussian_args *)cl_arg;
    int64_t n = qf_volume(a->ext);
    if (n <= 0) return;
    void *f = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    QF_WITH_PRECISION(a->prec, P, field_gaussian_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(f, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}
