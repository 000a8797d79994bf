/* CUDA implementation of meson: one thread a sink site (kernels/meson.h); a thread block adds its
 * sites' terms into shared bins, one per block-local time slice (its sites lie in one or two slices),
 * and then adds the bins it filled into the worker's accumulator. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/meson.h"

struct meson_columns { const void *p[QF_MESON_COLUMNS]; };

static __global__ void meson_kernel(meson_columns col, int64_t n, qf_meson_args a, double *acc)
{
    extern __shared__ double bins[]; /* pion then rho, a block-local slice each */
    int nt = a.ext[3];
    for (int i = threadIdx.x; i < 2 * nt; i += blockDim.x) bins[i] = 0.0;
    __syncthreads();
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) {
        int x[QF_NDIM];
        double pion, rho;
        qf_block_site_coords(s, a.ext, x);
        qf_meson_site(col.p, a.prec, s, &pion, &rho);
        atomicAdd(&bins[x[3]], pion);
        atomicAdd(&bins[nt + x[3]], rho);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * nt; i += blockDim.x)
        if (bins[i] != 0.0) {
            int t = (a.t0 + i % nt) % a.T;
            atomicAdd(&acc[(i / nt) * a.T + t], bins[i]);
        }
}

extern "C" void qf_meson_cuda(void *buffers[], void *cl_arg)
{
    const qf_meson_args *a = (const qf_meson_args *)cl_arg;
    meson_columns col;
    for (int k = 0; k < QF_MESON_COLUMNS; k++) col.p[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[k]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    if (n <= 0) return;
    size_t shared = 2 * (size_t)a->ext[3] * sizeof(double);
    meson_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, shared, starpu_cuda_get_local_stream()>>>(
        col, n, *a, (double *)STARPU_VARIABLE_GET_PTR(buffers[QF_MESON_COLUMNS]));
    QF_CUDA_CHECK_LAUNCH();
}
