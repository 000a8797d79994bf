/* CUDA implementation of plaquette: one thread per site, a shared-memory reduction per thread
 * block, and one atomic add per thread block and sum into the worker's accumulator. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/gauge_obs.h"

struct face_ptrs { const void *p[QF_NDIM]; };

static __global__ void plaquette_kernel(const void *block, face_ptrs faces, int64_t n, qf_plaquette_args a,
                                        double *acc)
{
    __shared__ double partial[QF_GAUGE_SUMS][QF_CUDA_THREADS];
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    double sums[QF_GAUGE_SUMS] = {0.0, 0.0, 0.0};
    if (s < n) qf_gauge_site_sums(block, faces.p, s, a.ext, a.prec, sums);
    for (int i = 0; i < QF_GAUGE_SUMS; i++) partial[i][threadIdx.x] = sums[i];
    __syncthreads();
    for (int stride = QF_CUDA_THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            for (int i = 0; i < QF_GAUGE_SUMS; i++) partial[i][threadIdx.x] += partial[i][threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < QF_GAUGE_SUMS) atomicAdd(&acc[threadIdx.x], partial[threadIdx.x][0]);
}

extern "C" void qf_plaquette_cuda(void *buffers[], void *cl_arg)
{
    const qf_plaquette_args *a = (const qf_plaquette_args *)cl_arg;
    face_ptrs faces;
    for (int mu = 0; mu < QF_NDIM; mu++) faces.p[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + mu]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    plaquette_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), faces, n, *a,
        (double *)STARPU_VARIABLE_GET_PTR(buffers[1 + QF_NDIM]));
    QF_CUDA_CHECK_LAUNCH();
}
