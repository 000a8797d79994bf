/* CUDA implementation of face_copy: one thread per face site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/face.h"

static __global__ void face_copy_kernel(const void *block, void *face, int64_t n, qf_face_copy_args a)
{
    int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (f < n) qf_face_copy_site(block, face, f, a.ext, a.mu, a.side, a.depth, a.site_reals, a.prec);
}

extern "C" void qf_face_copy_cuda(void *buffers[], void *cl_arg)
{
    const qf_face_copy_args *a = (const qf_face_copy_args *)cl_arg;
    int64_t n = qf_face_volume(a->ext, a->mu, a->depth); /* the buffer may hold whole tiles of half records */
    face_copy_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]), n, *a);
    QF_CUDA_CHECK_LAUNCH();
}
