/* CUDA implementation of plaquette_matrix: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/clover_leaf.h"

struct face_ptrs { const void *p[QF_NDIM]; };

static __global__ void plaquette_matrix_kernel(const void *block, face_ptrs faces, double *pm, int64_t n,
                                               qf_plaquette_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_plaquette_matrix_site(block, faces.p, pm, s, a.ext, a.prec);
}

extern "C" void qf_plaquette_matrix_cuda(void *buffers[], void *cl_arg)
{
    const qf_plaquette_args *a = (const qf_plaquette_args *)cl_arg;
    face_ptrs faces;
    for (int mu = 0; mu < QF_NDIM; mu++) faces.p[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[1 + mu]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    plaquette_matrix_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), faces, (double *)STARPU_VECTOR_GET_PTR(buffers[1 + QF_NDIM]),
        n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
