/* CUDA implementation of leaf_sum: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/clover_leaf.h"

struct leaf_face_ptrs { const double *p[QF_NDIM]; };

static __global__ void leaf_sum_kernel(const void *block, const double *m, leaf_face_ptrs faces, void *out,
                                       int64_t n, qf_leaf_args a)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_leaf_sum_site(block, m, faces.p, out, s, a.ext, a.dir, a.finish, a.prec, a.out_prec);
}

extern "C" void qf_leaf_sum_cuda(void *buffers[], void *cl_arg)
{
    const qf_leaf_args *a = (const qf_leaf_args *)cl_arg;
    leaf_face_ptrs faces = {{NULL, NULL, NULL, NULL}};
    for (int k = 0; k < QF_LEAF_FACE_DIRS; k++) faces.p[a->face_dir[k]] = (const double *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    leaf_sum_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const double *)STARPU_VECTOR_GET_PTR(buffers[1]), faces,
        (void *)STARPU_VECTOR_GET_PTR(buffers[2 + QF_LEAF_FACE_DIRS]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
