/* CUDA implementation of staple_face: one thread per face site, one launch per face. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/heatbath.h"

static __global__ void staple_face_kernel(const void *block, const void *fwd_mu, double *face, int64_t n, int nu,
                                          qf_update_args a)
{
    int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const void *fwd[QF_NDIM] = {NULL, NULL, NULL, NULL};
    fwd[a.mu] = fwd_mu;
    if (f < n) qf_lower_staple_face_site(block, fwd, face, f, a.ext, a.mu, nu, a.prec);
}

extern "C" void qf_staple_face_cuda(void *buffers[], void *cl_arg)
{
    const qf_update_args *a = (const qf_update_args *)cl_arg;
    for (int k = 0, nu = 0; nu < QF_NDIM; nu++) {
        if (nu == a->mu) continue;
        int64_t n = STARPU_VECTOR_GET_NX(buffers[2 + k]);
        staple_face_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
            (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
            (double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]), n, nu, *a);
        QF_CUDA_CHECK_LAUNCH();
        k++;
    }
}
