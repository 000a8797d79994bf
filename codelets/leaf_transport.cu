/* CUDA implementation of leaf_transport: one thread per face site, one launch per face. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/clover_leaf.h"

static __global__ void leaf_transport_kernel(const void *block, const double *m, double *face, int64_t n, int rho,
                                             qf_leaf_args a)
{
    int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (f < n) qf_leaf_face_site(block, m, face, f, a.ext, rho, a.dir, a.prec);
}

extern "C" void qf_leaf_transport_cuda(void *buffers[], void *cl_arg)
{
    const qf_leaf_args *a = (const qf_leaf_args *)cl_arg;
    for (int k = 0; k < QF_LEAF_FACE_DIRS; k++) {
        int64_t n = STARPU_VECTOR_GET_NX(buffers[2 + k]);
        leaf_transport_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
            (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const double *)STARPU_VECTOR_GET_PTR(buffers[1]),
            (double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]), n, a->face_dir[k], *a);
        QF_CUDA_CHECK_LAUNCH();
    }
}
