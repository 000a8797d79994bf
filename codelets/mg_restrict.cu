/* CUDA implementation of mg_restrict: a thread block a coarse site. Its threads hold the products
 * (vector k, components i .. i + G - 1) of the aggregate's fine sites, q = k nsite / G + i / G, Q of
 * them a thread, so that at each fine site the block reads the site's N vector records (contiguous:
 * V[x][k][i]) once and coalesced, G components a load (qf_mg_transfer_grain: with one, half vectors
 * ran at 0.70 of the copy bandwidth against single's 0.93, twice the load instructions for their
 * bytes), the fine field's components from the cache; the sums over a chirality's components are then
 * made through shared memory. As a thread a coarse entry (r = chi N + k, looping over its
 * aggregate) a warp's loads lay a record apart (96 bytes in single), and the restriction read the
 * 32^4 level's vectors at about 0.67 of the copy bandwidth (bench/RESULTS.md). The fine blocks' and
 * their vectors' pointers are passed by value. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg_transfer.cuh"
#include "mg_coarse_run.h"

typedef struct { const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS]; } restrict_ptrs;

#define RESTRICT_MAX_THREADS 1024
/* products a thread holds: N nsite <= QF_MG_MAX_NVEC x 2 QF_MG_MAX_NVEC over at most 1024 threads */
#define RESTRICT_MAX_Q (2 * QF_MG_MAX_NVEC * QF_MG_MAX_NVEC / RESTRICT_MAX_THREADS)

/* shared memory: the chunk's fine sites, the threads' products, the coarse site's 2 N sums (double) */
static size_t restrict_shared_bytes(int threads, int nvec, size_t cplx_bytes)
{
    return (size_t)threads * (sizeof(int64_t) + cplx_bytes) + (size_t)4 * nvec * sizeof(double);
}

/* E: the even sites alone (even_only), a kernel of its own, so that the loop over all sites keeps no
 * branch (with one, the whole-block restriction ran 16% slower on the H200) */
template <int P, int PV, int Q, int G, bool E>
static __global__ void mg_restrict_kernel(const __grid_constant__ restrict_ptrs p, void *coarse,
                                          const __grid_constant__ qf_mg_restrict_args a)
{
    using T = qf_mg_real<P>;
    extern __shared__ double restrict_shared[];
    const int nb = blockDim.x, tid = threadIdx.x, n = a.g.nvec, nsite = a.g.nsite, ng = nsite / G, h = ng / 2,
              products = n * ng;
    int64_t *site = (int64_t *)restrict_shared;
    qf_mg_cplx<T> *part = (qf_mg_cplx<T> *)(site + nb);
    double *sums = (double *)(part + nb);
    const int64_t s = blockIdx.x;
    int j;
    const int64_t ai = qf_mg_coarse_site_source(&a.g, a.cext, a.ratio, s, &j);
    const void *fine = p.fine[j], *v = p.v[j];

    qf_mg_cplx<T> acc[Q];
    int kq[Q], iq[Q];
    QF_UNROLL
    for (int m = 0; m < Q; m++) {
        const int q = tid + m * nb < products ? tid + m * nb : 0; /* a spare thread sums product 0, never stored */
        acc[m] = {0, 0};
        kq[m] = q / ng;
        iq[m] = q % ng * G;
    }
    for (int r = tid; r < 4 * n; r += nb) sums[r] = 0.0;

    const int64_t nagg = qf_volume(a.g.agg), half = qf_volume(a.g.fext) / 2;
    for (int64_t t0 = 0; t0 < nagg; t0 += nb) {
        __syncthreads(); /* the chunk before is read */
        if (t0 + tid < nagg) {
            int x[QF_NDIM];
            qf_mg_aggregate_site(&a.g, ai, t0 + tid, x);
            const int64_t fs = qf_block_site_index(x, a.g.fext);
            site[tid] = E && fs >= half ? -1 : fs; /* odd sites (the second half) skipped */
        }
        __syncthreads();
        const int len = (int)(nagg - t0 < nb ? nagg - t0 : nb);
#pragma unroll 4
        for (int u = 0; u < len; u++) {
            const int64_t fs = site[u];
            if constexpr (E) {
                if (fs < 0) continue;
            }
            QF_UNROLL
            for (int m = 0; m < Q; m++) {
                if constexpr (G == 2) {
                    qf_mg_cplx<T> v0, v1, x0, x1;
                    qf_mg_load_cplx2<T, PV>(v, (size_t)fs * n + kq[m], nsite, iq[m], v0, v1);
                    qf_mg_load_cplx2<T, P>(fine, (size_t)fs, nsite, iq[m], x0, x1);
                    qf_mg_conj_madd(acc[m], v0, x0);
                    qf_mg_conj_madd(acc[m], v1, x1);
                } else {
                    qf_mg_conj_madd(acc[m], qf_mg_load_cplx<T, PV>(v, (size_t)fs * n + kq[m], nsite, iq[m]),
                                    qf_mg_load_cplx<T, P>(fine, (size_t)fs, nsite, iq[m]));
                }
            }
        }
    }

    /* entry r = chi N + k sums the products k nsite / G + chi h .. + h - 1, a share of nb at a time */
    QF_UNROLL
    for (int m = 0; m < Q; m++) {
        __syncthreads();
        part[tid] = acc[m];
        __syncthreads();
        const int lo = m * nb, hi = lo + nb < products ? lo + nb : products;
        for (int r = tid; r < 2 * n; r += nb) {
            const int first = (r % n) * ng + (r / n) * h, b = first > lo ? first : lo,
                      e = first + h < hi ? first + h : hi;
            double re = 0.0, im = 0.0;
            for (int q = b; q < e; q++) {
                re += (double)part[q - lo].re;
                im += (double)part[q - lo].im;
            }
            sums[2 * r] += re;
            sums[2 * r + 1] += im;
        }
    }
    __syncthreads();
    const size_t o = qf_coarse_site_offset(s, n);
    for (int r = tid; r < 4 * n; r += nb) qf_real_set(coarse, (qf_precision)P, o + r, sums[r]);
}

template <int P, int PV, int Q, int G>
static void launch(const restrict_ptrs &p, void *coarse, const qf_mg_restrict_args *a, int threads, cudaStream_t stream)
{
    size_t shared = restrict_shared_bytes(threads, a->g.nvec, sizeof(qf_mg_cplx<qf_mg_real<P>>));
    const unsigned blocks = (unsigned)qf_volume(a->cext);
    if (a->even_only) mg_restrict_kernel<P, PV, Q, G, true><<<blocks, threads, shared, stream>>>(p, coarse, *a);
    else mg_restrict_kernel<P, PV, Q, G, false><<<blocks, threads, shared, stream>>>(p, coarse, *a);
}

template <int P, int PV, int G>
static void launch_q(const restrict_ptrs &p, void *coarse, const qf_mg_restrict_args *a, cudaStream_t stream)
{
    const int products = a->g.nvec * a->g.nsite / G;
    int q = 1;
    while (q < RESTRICT_MAX_Q && (products + q - 1) / q > RESTRICT_MAX_THREADS) q *= 2;
    const int threads = ((products + q - 1) / q + 31) / 32 * 32;
    switch (q) {
    case 1: launch<P, PV, 1, G>(p, coarse, a, threads, stream); break;
    case 2: launch<P, PV, 2, G>(p, coarse, a, threads, stream); break;
    case 4: launch<P, PV, 4, G>(p, coarse, a, threads, stream); break;
    default: launch<P, PV, RESTRICT_MAX_Q, G>(p, coarse, a, threads, stream); break;
    }
}

static_assert(RESTRICT_MAX_Q == 8, "launch_q's cases");

extern "C" void qf_mg_restrict_run_cuda(const qf_mg_restrict_args *a, const void *const *fine, const void *const *v,
                                        void *coarse, cudaStream_t stream)
{
    STARPU_ASSERT_MSG(a->nfine <= QF_MG_MAX_FINE_BLOCKS, "mg_restrict: too many fine blocks");
    STARPU_ASSERT_MSG(a->g.nvec <= QF_MG_MAX_NVEC && a->g.nsite <= 2 * QF_MG_MAX_NVEC, "mg_restrict: too many vectors");
    restrict_ptrs p;
    for (int j = 0; j < QF_MG_MAX_FINE_BLOCKS; j++) {
        p.fine[j] = j < a->nfine ? fine[j] : NULL;
        p.v[j] = j < a->nfine ? v[j] : NULL;
    }
    if (qf_volume(a->cext) <= 0) return;
    if (qf_mg_transfer_grain(a->g.nsite) == 2)
        QF_WITH_FIELD_AND_STORED_PRECISION(a->g.prec, a->g.vprec, P, PV, launch_q<P, PV, 2>(p, coarse, a, stream));
    else
        QF_WITH_FIELD_AND_STORED_PRECISION(a->g.prec, a->g.vprec, P, PV, launch_q<P, PV, 1>(p, coarse, a, stream));
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
