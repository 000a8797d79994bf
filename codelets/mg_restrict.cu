/* CUDA implementation of mg_restrict: one thread per (coarse site, row r = chi N + k), each summing its
 * aggregate's fine sites; the fine blocks' and their vectors' pointers are passed by value. */
#include "codelets.h"
#include "cuda_launch.h"
#include "mg_coarse_run.h"

typedef struct { const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS]; } restrict_ptrs;

template <int P, int PV>
static __global__ void mg_restrict_kernel(const __grid_constant__ restrict_ptrs p, void *coarse, int64_t n,
                                          qf_mg_restrict_args a)
{
    a.g.prec = (qf_precision)P;
    a.g.vprec = (qf_precision)PV;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int n2 = 2 * a.g.nvec, r = (int)(t % n2);
    int64_t s = t / n2;
    qf_complex e = qf_mg_restrict_entry(&a, p.fine, p.v, s, r);
    size_t o = qf_coarse_site_offset(s, a.g.nvec) + 2 * (size_t)r;
    qf_real_set(coarse, a.g.prec, o, e.re);
    qf_real_set(coarse, a.g.prec, o + 1, e.im);
}

extern "C" void qf_mg_restrict_run_cuda(const qf_mg_restrict_args *a, const void *const *fine, const void *const *v,
                                        void *coarse, cudaStream_t stream)
{
    STARPU_ASSERT_MSG(a->nfine <= QF_MG_MAX_FINE_BLOCKS, "mg_restrict: too many fine blocks");
    restrict_ptrs p;
    for (int j = 0; j < QF_MG_MAX_FINE_BLOCKS; j++) {
        p.fine[j] = j < a->nfine ? fine[j] : NULL;
        p.v[j] = j < a->nfine ? v[j] : NULL;
    }
    int64_t n = qf_volume(a->cext) * 2 * a->g.nvec;
    if (n <= 0) return;
    QF_WITH_FIELD_AND_STORED_PRECISION(a->g.prec, a->g.vprec, P, PV,
                                mg_restrict_kernel<P, PV><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(p, coarse, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" void qf_mg_restrict_cuda(void *buffers[], void *cl_arg)
{
    const qf_mg_restrict_args *a = (const qf_mg_restrict_args *)cl_arg;
    STARPU_ASSERT_MSG(a->nfine <= QF_MG_MAX_FINE_BLOCKS, "mg_restrict: too many fine blocks");
    const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS];
    for (int j = 0; j < a->nfine; j++) {
        fine[j] = (const void *)STARPU_VECTOR_GET_PTR(buffers[j]);
        v[j] = (const void *)STARPU_VECTOR_GET_PTR(buffers[a->nfine + j]);
    }
    qf_mg_restrict_run_cuda(a, fine, v, (void *)STARPU_VECTOR_GET_PTR(buffers[2 * a->nfine]),
                            starpu_cuda_get_local_stream());
}
