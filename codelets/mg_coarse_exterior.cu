/* CUDA implementation of mg_coarse_exterior: on a site with a face hop, the face hops are added to the
 * interior's partial hop sum and the finished site stored, in one of two schedules by N (the launcher
 * chooses):
 * - N >= QF_COARSE_WARP_MIN_NVEC: a thread block an output site (kernels/mg_coarse_warp.cuh), the lanes
 *   striding over a matrix's columns so that the loads of each row are coalesced. A face site has at
 *   most one face hop in each dimension (two where the block is one site thick), so 4 warps, warp mu
 *   taking both hops of dimension mu: with one a direction most of a block's warps would idle;
 * - smaller N: a thread block holds a few output sites, one thread per row r of a site (threadIdx.x =
 *   r < 2 N, threadIdx.y = the site): each thread adds its row of the face hops to the interior's
 *   partial row in shared memory, then, once the site's hop sum is complete, stores its finished row. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg_coarse_warp.cuh"

/* thread per row: the rows of a thread block, 2 N rows a site, as many whole sites as fit */
#define COARSE_BLOCK_ROWS (2 * QF_MG_MAX_NVEC)
/* warps: 6 blocks (24 warps) an SM, which caps a thread at 80 registers */
#define COARSE_EXTERIOR_WARPS QF_NDIM
#define COARSE_EXTERIOR_MIN_BLOCKS 6

typedef struct { const void *p[QF_NDIRS]; } coarse_faces;

template <int P>
static __global__ void __launch_bounds__(COARSE_BLOCK_ROWS)
mg_coarse_exterior_rows_kernel(void *out, const void *links, const __grid_constant__ coarse_faces faces, const void *x,
                               const void *xinv, int64_t ns, qf_coarse_args a)
{
    __shared__ qf_complex hs[COARSE_BLOCK_ROWS];
    a.prec = (qf_precision)P;
    int n2 = 2 * a.nvec, r = threadIdx.x, xs[QF_NDIM];
    qf_complex *h = hs + threadIdx.y * n2;
    int64_t i = (int64_t)blockIdx.x * blockDim.y + threadIdx.y, s = 0;
    int active = 0;
    size_t o = 0;
    if (i < ns) {
        s = qf_parity_site(a.ext, a.parity, i);
        qf_block_site_coords(s, a.ext, xs);
        active = qf_on_face(xs, a.ext);
    }
    if (active) {
        o = qf_coarse_site_offset(s, a.nvec) + 2 * (size_t)r;
        h[r] = qf_cadd(qf_cmake(qf_real_get(out, a.prec, o), qf_real_get(out, a.prec, o + 1)),
                       qf_coarse_hops_row(&a, NULL, links, faces.p, xs, s, r));
    }
    __syncthreads(); /* every row of the site read and summed before any row of out is overwritten */
    if (!active) return;
    qf_complex v = qf_coarse_finish_row(&a, h, links, x, xinv, s, r);
    qf_real_set(out, a.prec, o, v.re);
    qf_real_set(out, a.prec, o + 1, v.im);
}

template <int P, int PL, int C>
static __global__ void __launch_bounds__(COARSE_EXTERIOR_WARPS * QF_COARSE_WARP_LANES, COARSE_EXTERIOR_MIN_BLOCKS)
mg_coarse_exterior_warp_kernel(void *out, const void *links, const __grid_constant__ coarse_faces faces, const void *x,
                               const void *xinv, const __grid_constant__ qf_coarse_args a)
{
    int xs[QF_NDIM];
    int64_t s = qf_parity_site(a.ext, a.parity, blockIdx.x);
    qf_block_site_coords(s, a.ext, xs);
    if (!qf_on_face(xs, a.ext)) return; /* the whole block: the interior finished the site */
    qf_coarse_warp_site<P, PL, COARSE_EXTERIOR_WARPS, 1, C>(&a, NULL, links, faces.p, x, xinv, out, 1, xs, s, out);
}

extern "C" void qf_mg_coarse_exterior_cuda(void *buffers[], void *cl_arg)
{
    const qf_coarse_args *a = (const qf_coarse_args *)cl_arg;
    if (a->b == 0.0) return; /* the interior finished every site */
    STARPU_ASSERT_MSG(a->nvec >= 1 && a->nvec <= QF_MG_MAX_NVEC, "mg_coarse_exterior: nvec out of range");
    coarse_faces faces;
    for (int d = 0; d < QF_NDIRS; d++) faces.p[d] = (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + d]);
    int k = 2 + QF_NDIRS;
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    const void *xinv = a->local_on != QF_CLOVER_NONE && a->local_inverse ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    int64_t ns = qf_parity_nsites(a->ext, a->parity);
    if (ns <= 0) return;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    /* H100 8^4 single (bench/RESULTS.md; timed on branch wip/coarse-warp-per-site): with the interior,
     * warps 559 us vs rows 987 at N = 24; N < 16: see there */
    if (a->nvec >= QF_COARSE_WARP_MIN_NVEC) {
        dim3 threads(QF_COARSE_WARP_LANES, COARSE_EXTERIOR_WARPS);
        if (qf_coarse_warp_cols(a->nvec) == 2)
            QF_WITH_FIELD_AND_STORED_PRECISION(a->prec, a->link_prec, P, PL, mg_coarse_exterior_warp_kernel<P, PL, 2><<<(unsigned)ns, threads, 0, stream>>>(
                                                    out, links, faces, x, xinv, *a));
        else
            QF_WITH_FIELD_AND_STORED_PRECISION(a->prec, a->link_prec, P, PL, mg_coarse_exterior_warp_kernel<P, PL, QF_COARSE_WARP_COLS><<<(unsigned)ns, threads, 0, stream>>>(
                                                    out, links, faces, x, xinv, *a));
    } else {
        int n2 = 2 * a->nvec, spb = COARSE_BLOCK_ROWS / n2;
        dim3 threads(n2, spb);
        unsigned blocks = (unsigned)((ns + spb - 1) / spb);
        QF_WITH_PRECISION(a->prec, P, mg_coarse_exterior_rows_kernel<P><<<blocks, threads, 0, stream>>>(
                                          out, links, faces, x, xinv, ns, *a));
    }
    QF_CUDA_CHECK_LAUNCH();
}
