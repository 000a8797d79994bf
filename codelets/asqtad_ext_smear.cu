/* CUDA implementation of asqtad_ext_smear: one launch per staple step (one thread per site of its
 * region), in MILC's order on the worker's stream, then one for the Naik links. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/staggered.h"

static __global__ void ext_staple_kernel(qf_asqtad_ext_step st, int own, const void *e, const void *w, void *keep,
                                         void *links, int64_t n)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) qf_asqtad_ext_staple_site(&st, own, e, w, keep, links, t);
}

static __global__ void ext_long_kernel(qf_asqtad_ext_args a, const void *e, void *links, int64_t n)
{
    int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) qf_asqtad_ext_long_site(a.ext, a.naik, e, links, s);
}

typedef struct {
    const qf_asqtad_ext_args *a;
    const void *e;
    void *s[2], *links;
    cudaStream_t stream;
} smear_cuda;

static void step_cuda(const smear_cuda *c, int mu, int nu, double coef, int own, int w_from, int keep)
{
    qf_asqtad_ext_step st = {{0}, mu, nu, w_from ? 1 : QF_NDIM, w_from ? 0 : mu, coef};
    memcpy(st.ext, c->a->ext, sizeof st.ext);
    int lo[QF_NDIM], R[QF_NDIM];
    qf_asqtad_ext_region(st.ext, own, lo, R);
    int64_t n = qf_volume(R);
    ext_staple_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, c->stream>>>(
        st, own, c->e, w_from ? c->s[w_from - 1] : c->e, keep ? c->s[keep - 1] : NULL, c->links, n);
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" void qf_asqtad_ext_smear_cuda(void *buffers[], void *cl_arg)
{
    const qf_asqtad_ext_args *a = (const qf_asqtad_ext_args *)cl_arg;
    smear_cuda c = {a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                    {(void *)STARPU_VECTOR_GET_PTR(buffers[2]), (void *)STARPU_VECTOR_GET_PTR(buffers[3])},
                    (void *)STARPU_VECTOR_GET_PTR(buffers[1]), starpu_cuda_get_local_stream()};
#define STEP(mu, nu, coef, own, w_from, keep) step_cuda(&c, mu, nu, coef, own, w_from, keep)
    QF_ASQTAD_EXT_STEPS(a, STEP);
#undef STEP
    int64_t n = qf_volume(a->ext);
    ext_long_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, c.stream>>>(*a, c.e, c.links, n);
    QF_CUDA_CHECK_LAUNCH();
}
