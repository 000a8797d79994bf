/* CUDA implementation of scalar_trisolve: one thread, as scalar_op, so that a GCR running on the GPU
 * keeps its coefficients there; the table of the buffers' device addresses travels to the GPU on the
 * worker's stream. */
#include "codelets.h"
#include "cuda_launch.h"
#include "blas_launch.h"

static __global__ void scalar_trisolve_kernel(int m, double *const *c, const double *const *u, const double *const *d,
                                              double *status)
{
    qf_scalar_trisolve_apply(m, c, u, d, status);
}

extern "C" void qf_scalar_trisolve_cuda(void *buffers[], void *cl_arg)
{
    const qf_scalar_trisolve_args *a = (const qf_scalar_trisolve_args *)cl_arg;
    int m = a->m, nu = m * (m - 1) / 2, nd = a->has_d ? m : 0;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    static_assert(sizeof(double *) == sizeof(const double *), "one table for c, u and d");
    void *table[QF_TRISOLVE_MAX_M * (QF_TRISOLVE_MAX_M + 3) / 2];
    double *status = qf_scalar_trisolve_buffers(buffers, m, a->has_d, (double **)table, (const double **)table + m,
                                                (const double **)table + m + nu);
    void *dev = NULL;
    size_t bytes = (size_t)(m + nu + nd) * sizeof *table;
    cudaError_t st = cudaMallocAsync(&dev, bytes, stream);
    /* from pageable memory the copy has read table when it returns, so table may go out of scope */
    if (st == cudaSuccess) st = cudaMemcpyAsync(dev, table, bytes, cudaMemcpyHostToDevice, stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
    scalar_trisolve_kernel<<<1, 1, 0, stream>>>(m, (double *const *)dev, (const double *const *)dev + m,
                                                a->has_d ? (const double *const *)dev + m + nu : NULL, status);
    QF_CUDA_CHECK_LAUNCH();
    st = cudaFreeAsync(dev, stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
}
