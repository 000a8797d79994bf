/* CUDA implementation of slice_sums: one thread a site (kernels/meson.h); a thread block adds its
 * sites' sums into shared bins, one per sum and block-local time slice (its sites lie in one or two
 * slices), and then adds the bins it filled into the worker's accumulator. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/meson.h"

struct slice_fields { const void *p[QF_MESON_COLUMNS]; };

template <int W>
static __global__ void slice_sums_kernel(slice_fields f, int64_t n, qf_slice_args a, double *acc)
{
    extern __shared__ double bins[]; /* [sum][block-local slice] */
    const int ns = qf_slice_nsums((qf_slice_quantity)W), nt = a.ext[3];
    a.what = (qf_slice_quantity)W;
    for (int i = threadIdx.x; i < ns * nt; i += blockDim.x) bins[i] = 0.0;
    __syncthreads();
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) {
        int x[QF_NDIM];
        double v[2];
        qf_block_site_coords(s, a.ext, x);
        qf_slice_site(&a, f.p, s, v);
        for (int k = 0; k < ns; k++) atomicAdd(&bins[k * nt + x[3]], v[k]);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < ns * nt; i += blockDim.x)
        if (bins[i] != 0.0) atomicAdd(&acc[(i / nt) * a.T + (a.t0 + i % nt) % a.T], bins[i]);
}

extern "C" void qf_slice_sums_cuda(void *buffers[], void *cl_arg)
{
    const qf_slice_args *a = (const qf_slice_args *)cl_arg;
    int nf = qf_slice_nfields(a->what);
    slice_fields f;
    for (int k = 0; k < nf; k++) f.p[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[k]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    if (n <= 0) return;
    size_t shared = (size_t)qf_slice_nsums(a->what) * (size_t)a->ext[3] * sizeof(double);
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[nf]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    if (a->what == QF_SLICE_MESON)
        slice_sums_kernel<QF_SLICE_MESON><<<qf_cuda_blocks(n), QF_CUDA_THREADS, shared, stream>>>(f, n, *a, acc);
    else
        slice_sums_kernel<QF_SLICE_NORM2><<<qf_cuda_blocks(n), QF_CUDA_THREADS, shared, stream>>>(f, n, *a, acc);
    QF_CUDA_CHECK_LAUNCH();
}
