/* CUDA implementation of asqtad_ext_fill: one thread per site. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

struct ext4 {
    int e[QF_NDIM];
};

static __global__ void asqtad_ext_fill_kernel(const void *v, void *e, int64_t n, ext4 ext)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_asqtad_ext_fill_site(ext.e, v, e, s);
}

extern "C" void qf_asqtad_ext_fill_cuda(void *buffers[], void *cl_arg)
{
    ext4 ext;
    memcpy(ext.e, cl_arg, sizeof ext.e);
    int64_t n = qf_volume(ext.e);
    asqtad_ext_fill_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, starpu_cuda_get_local_stream()>>>(
        (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]), n, ext);
    QF_CUDA_CHECK_LAUNCH();
}
