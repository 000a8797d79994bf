/* CUDA implementation of mg_coarse_interior, in one of two schedules by N (the launcher chooses):
 * - N >= QF_COARSE_WARP_MIN_NVEC: a thread block an output site, one warp a hop direction
 *   (kernels/mg_coarse_warp.cuh), so that the site's 8 in-block hops are summed side by side; the lanes
 *   stride over a matrix's columns so that the loads of each row are coalesced; on lattices of fewer
 *   sites than 2 a multiprocessor, 2 or 4 warps a direction, each a share of the rows;
 * - smaller N: a thread block holds a few output sites, one thread per row r of a site (threadIdx.x =
 *   r < 2 N, threadIdx.y = the site): each thread sums its row of the in-block hops into shared memory,
 *   then, once the site's hop sum is complete, stores its row.
 * Either stores the finished site (or its partial hop sum, for a site with a face hop). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg_coarse_warp.cuh"
#include "mg_coarse_run.h"

/* thread per row: the rows of a thread block, 2 N rows a site, as many whole sites as fit */
#define COARSE_BLOCK_ROWS (2 * QF_MG_MAX_NVEC)
/* warps: 4 blocks (32 warps) an SM, which caps a thread at 64 registers */
#define COARSE_INTERIOR_WARPS QF_NDIRS
#define COARSE_INTERIOR_MIN_BLOCKS 4

template <int P>
static __global__ void __launch_bounds__(COARSE_BLOCK_ROWS)
mg_coarse_interior_rows_kernel(const void *in, const void *links, void *out, const void *x, const void *xinv,
                               int64_t ns, qf_coarse_args a)
{
    __shared__ qf_complex hs[COARSE_BLOCK_ROWS];
    a.prec = (qf_precision)P;
    int n2 = 2 * a.nvec, r = threadIdx.x, xs[QF_NDIM];
    qf_complex *h = hs + threadIdx.y * n2;
    int64_t i = (int64_t)blockIdx.x * blockDim.y + threadIdx.y, s = 0;
    int valid = i < ns;
    if (valid) {
        s = qf_parity_site(a.ext, a.parity, i);
        qf_block_site_coords(s, a.ext, xs);
        h[r] = a.b != 0.0 ? qf_coarse_hops_row(&a, in, links, NULL, xs, s, r) : qf_cmake(0.0, 0.0);
    }
    __syncthreads(); /* the site's whole hop sum, before any row is finished */
    if (!valid) return;
    int partial = qf_coarse_partial(&a, xs);
    qf_complex v = partial ? h[r] : qf_coarse_finish_row(&a, h, links, x, xinv, s, r);
    size_t o = qf_coarse_site_offset(s, a.nvec) + 2 * (size_t)r;
    qf_real_set(out, a.prec, o, v.re);
    qf_real_set(out, a.prec, o + 1, v.im);
}

/* R row parts a direction: R times the warps a block, as many fewer blocks an SM (the same 64 registers) */
template <int P, int PL, int R, int C>
static __global__ void __launch_bounds__(COARSE_INTERIOR_WARPS * R * QF_COARSE_WARP_LANES, COARSE_INTERIOR_MIN_BLOCKS / R)
mg_coarse_interior_warp_kernel(const void *in, const void *links, void *out, const void *x, const void *xinv,
                               const __grid_constant__ qf_coarse_args a)
{
    int xs[QF_NDIM];
    int64_t s = qf_parity_site(a.ext, a.parity, blockIdx.x);
    qf_block_site_coords(s, a.ext, xs);
    qf_coarse_warp_site<P, PL, COARSE_INTERIOR_WARPS, R, C>(&a, in, links, NULL, x, xinv, NULL, !qf_coarse_partial(&a, xs),
                                                     xs, s, out);
}

/* Row parts for ns output sites: a block a site fills the SMs only from COARSE_INTERIOR_MIN_BLOCKS
 * sites an SM; the coarsest lattices (a 4^4 lattice has 128 sites a parity, an H100 132 SMs) get 2 or 4
 * times the warps a site instead. QF_COARSE_ROW_PARTS=1|2|4 forces one choice everywhere (to measure
 * the rule). Both are read once (a device's SM count per device). */
static int coarse_interior_row_parts(int64_t ns)
{
    static int forced = -1, sms[STARPU_MAXCUDADEVS];
    if (forced < 0) {
        const char *e = getenv("QF_COARSE_ROW_PARTS");
        int v = e && *e ? atoi(e) : 0;
        forced = v == 1 || v == 2 || v == 4 ? v : 0;
    }
    if (forced) return forced;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= STARPU_MAXCUDADEVS) return 1;
    if (!sms[dev] && cudaDeviceGetAttribute(&sms[dev], cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) return 1;
    return ns <= sms[dev] ? 4 : ns <= 2 * (int64_t)sms[dev] ? 2 : 1;
}

template <int R>
static void coarse_interior_warp_launch(const qf_coarse_args *a, int64_t ns, const void *in, const void *links,
                                        void *out, const void *x, const void *xinv, cudaStream_t stream)
{
    dim3 threads(QF_COARSE_WARP_LANES, COARSE_INTERIOR_WARPS * R);
    if (qf_coarse_warp_cols(a->nvec) == 2)
        QF_WITH_FIELD_AND_STORED_PRECISION(a->prec, a->link_prec, P, PL, mg_coarse_interior_warp_kernel<P, PL, R, 2><<<(unsigned)ns, threads, 0, stream>>>(
                                                in, links, out, x, xinv, *a));
    else
        QF_WITH_FIELD_AND_STORED_PRECISION(a->prec, a->link_prec, P, PL, mg_coarse_interior_warp_kernel<P, PL, R, QF_COARSE_WARP_COLS><<<(unsigned)ns, threads, 0, stream>>>(
                                                in, links, out, x, xinv, *a));
}

extern "C" void qf_coarse_interior_run_cuda(const qf_coarse_args *a, const void *in, const void *links, void *out,
                                           const void *x, const void *xinv, cudaStream_t stream)
{
    int64_t ns = qf_parity_nsites(a->ext, a->parity);
    if (ns <= 0) return;
    /* H100, 8^4 single (bench/RESULTS.md; timed on branch wip/coarse-warp-per-site): warps 408 us vs
     * rows 807 at N = 24, 1906 vs 5124 at 64, 125 vs 92 at 8 */
    if (a->nvec >= QF_COARSE_WARP_MIN_NVEC) {
        int parts = coarse_interior_row_parts(ns);
        if (parts == 4) coarse_interior_warp_launch<4>(a, ns, in, links, out, x, xinv, stream);
        else if (parts == 2) coarse_interior_warp_launch<2>(a, ns, in, links, out, x, xinv, stream);
        else coarse_interior_warp_launch<1>(a, ns, in, links, out, x, xinv, stream);
    } else {
        int n2 = 2 * a->nvec, spb = COARSE_BLOCK_ROWS / n2;
        dim3 threads(n2, spb);
        unsigned blocks = (unsigned)((ns + spb - 1) / spb);
        QF_WITH_PRECISION(a->prec, P, mg_coarse_interior_rows_kernel<P><<<blocks, threads, 0, stream>>>(
                                          in, links, out, x, xinv, ns, *a));
    }
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" void qf_mg_coarse_interior_cuda(void *buffers[], void *cl_arg)
{
    const qf_coarse_args *a = (const qf_coarse_args *)cl_arg;
    STARPU_ASSERT_MSG(a->nvec >= 1 && a->nvec <= QF_MG_MAX_NVEC, "mg_coarse_interior: nvec out of range");
    int k = 3;
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    const void *xinv = a->local_on != QF_CLOVER_NONE && a->local_inverse ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
    qf_coarse_interior_run_cuda(a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                                (void *)STARPU_VECTOR_GET_PTR(buffers[2]), x, xinv, starpu_cuda_get_local_stream());
}
