/* CUDA implementation of mg_orthonormalize: the Gram-Schmidt of kernels/mg.h (modified, twice) with a
 * thread block per (aggregate, chirality), its threads sharing the part's entries and each inner
 * product a block reduction in a fixed order; the entries' offsets in V are found once, into shared
 * memory. One thread per part ran each Gram-Schmidt serially: 424 ms a level of a 32^4 setup on an
 * H200 (8192 parts of 1536 entries and 24 vectors; bench/RESULTS.md). Parts too large for the
 * shared offsets fall back to that schedule. The vanished-vector counts are added into the worker's
 * REDUX accumulator with atomic adds. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg.h"

#define ORTH_THREADS 128
#define ORTH_MAX_ENTRIES 4096 /* the shared offsets: 32 KB */

template <int P>
static __global__ void mg_orthonormalize_kernel(void *v, int64_t n, qf_mg_geom g, double *bad)
{
    g.prec = (qf_precision)P;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n && qf_mg_orthonormalize_aggregate(&g, v, t / 2, (int)(t % 2))) atomicAdd(bad, 1.0);
}

/* sum over the block of (re, im), the same in every thread; red: 2 x (ORTH_THREADS / 32) doubles */
static __device__ qf_complex block_sum(double re, double im, double *red)
{
    for (int o = 16; o > 0; o /= 2) {
        re += __shfl_down_sync(0xffffffffu, re, o);
        im += __shfl_down_sync(0xffffffffu, im, o);
    }
    int warp = threadIdx.x / 32, nw = blockDim.x / 32;
    __syncthreads(); /* the previous sum's readers are done with red */
    if (threadIdx.x % 32 == 0) {
        red[warp] = re;
        red[nw + warp] = im;
    }
    __syncthreads();
    qf_complex s = qf_cmake(0.0, 0.0);
    for (int w = 0; w < nw; w++) s = qf_cadd(s, qf_cmake(red[w], red[nw + w]));
    return s;
}

template <int P>
static __device__ __forceinline__ qf_complex entry(const void *v, size_t o)
{
    return qf_cmake(qf_real_get(v, (qf_precision)P, o), qf_real_get(v, (qf_precision)P, o + 1));
}

/* <v_j, v_k> over the part, its entries at off[e] + j (k) * stride */
template <int P>
static __device__ qf_complex part_dot(const void *v, const size_t *off, int ne, size_t sj, size_t sk, double *red)
{
    double re = 0.0, im = 0.0;
    for (int e = threadIdx.x; e < ne; e += blockDim.x) {
        qf_complex a = entry<P>(v, off[e] + sj), b = entry<P>(v, off[e] + sk);
        re += a.re * b.re + a.im * b.im;
        im += a.re * b.im - a.im * b.re;
    }
    return block_sum(re, im, red);
}

/* v_k = a v_k + c v_j over the part (j's stride sj, none where sj is SIZE_MAX): each thread its own entries */
template <int P>
static __device__ void part_update(void *v, const size_t *off, int ne, size_t sk, double a, qf_complex c, size_t sj)
{
    for (int e = threadIdx.x; e < ne; e += blockDim.x) {
        qf_complex r = qf_cscale(a, entry<P>(v, off[e] + sk));
        if (sj != SIZE_MAX) r = qf_cmadd(r, c, entry<P>(v, off[e] + sj));
        qf_real_set(v, (qf_precision)P, off[e] + sk, r.re);
        qf_real_set(v, (qf_precision)P, off[e] + sk + 1, r.im);
    }
}

/* qf_mg_orthonormalize_aggregate's steps for part blockIdx.x = 2 ai + chi */
template <int P>
static __global__ void __launch_bounds__(ORTH_THREADS) mg_orthonormalize_part_kernel(void *v, qf_mg_geom g, double *bad)
{
    __shared__ size_t off[ORTH_MAX_ENTRIES];
    __shared__ double red[2 * ORTH_THREADS / 32];
    g.prec = (qf_precision)P;
    int64_t ai = blockIdx.x / 2;
    int chi = (int)(blockIdx.x % 2), h = g.nsite / 2, ne = (int)qf_volume(g.agg) * h, x[QF_NDIM];
    for (int e = threadIdx.x; e < ne; e += blockDim.x) {
        qf_mg_aggregate_site(&g, ai, e / h, x);
        off[e] = qf_mg_v_offset(&g, qf_block_site_index(x, g.fext), 0, chi * h + e % h);
    }
    __syncthreads();
    size_t stride = 2 * (size_t)g.nsite; /* from vector k to k + 1 */
    int vanished_any = 0;
    for (int k = 0; k < g.nvec; k++) {
        size_t sk = k * stride;
        double n0 = part_dot<P>(v, off, ne, sk, sk, red).re;
        for (int pass = 0; pass < 2; pass++)
            for (int j = 0; j < k; j++) {
                qf_complex c = part_dot<P>(v, off, ne, j * stride, sk, red);
                part_update<P>(v, off, ne, sk, 1.0, qf_cscale(-1.0, c), j * stride);
            }
        double n2 = part_dot<P>(v, off, ne, sk, sk, red).re;
        int vanished = !(n2 > 1e-20 * n0) || !(n2 > 0.0) || !isfinite(n2);
        vanished_any |= vanished;
        part_update<P>(v, off, ne, sk, vanished ? 0.0 : 1.0 / sqrt(n2), qf_cmake(0.0, 0.0), SIZE_MAX);
    }
    if (threadIdx.x == 0 && vanished_any) atomicAdd(bad, 1.0);
}

extern "C" void qf_mg_orthonormalize_cuda(void *buffers[], void *cl_arg)
{
    const qf_mg_orth_args *a = (const qf_mg_orth_args *)cl_arg;
    int apb[QF_NDIM];
    qf_mg_apb(&a->g, apb);
    int64_t n = 2 * qf_volume(apb);
    if (n <= 0) return;
    void *v = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double *bad = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    if (qf_volume(a->g.agg) * (a->g.nsite / 2) <= ORTH_MAX_ENTRIES)
        QF_WITH_PRECISION(a->g.prec, P,
                          mg_orthonormalize_part_kernel<P><<<(unsigned)n, ORTH_THREADS, 0, stream>>>(v, a->g, bad));
    else
        QF_WITH_PRECISION(a->g.prec, P,
                          mg_orthonormalize_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(v, n, a->g, bad));
    QF_CUDA_CHECK_LAUNCH();
}
