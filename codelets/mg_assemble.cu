/* CUDA implementation of mg_assemble: one thread per real copies the partials into the links (and the
 * local term X into the scratch buffer), a thread block per coarse site inverts its X there
 * (qf_invert_block: qf_mg_invert's Gauss-Jordan, the same bits; singular sites added into the
 * accumulator with atomic adds), one thread per real stores X^-1. A thread a site ran each (2N)^3
 * elimination serially: 140 ms a level of a 32^4 setup on an H200 (bench/RESULTS.md). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/invert_block.cuh"
#include "kernels/mg.h"

typedef struct { const double *p[QF_MG_MAX_FINE_BLOCKS]; } assemble_partials;

/* links from the partials, and X into the scratch matrix of its site */
template <int P>
static __global__ void mg_assemble_copy_kernel(const __grid_constant__ assemble_partials part, void *links,
                                               qf_complex *work, int64_t n, qf_mg_geom g, qf_mg_assemble_args a)
{
    a.prec = (qf_precision)P;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int nv = a.nvec, n2 = 2 * nv, j;
    size_t mreals = (size_t)2 * n2 * n2, per = (size_t)QF_MG_NMAT * mreals, i = (size_t)(t % per);
    int64_t s = t / per;
    int64_t ai = qf_mg_coarse_site_source(&g, a.cext, a.ratio, s, &j);
    double x = part.p[j][qf_mg_partial_offset(nv, ai, 0, 0, 0) + i];
    qf_real_set(links, a.prec, qf_coarse_matrix_offset(s, 0, nv) + i, x);
    if (i >= (size_t)QF_MG_LOCAL * mreals) {
        size_t l = i - (size_t)QF_MG_LOCAL * mreals;
        qf_complex *m = work + (size_t)s * 2 * n2 * n2;
        if (l & 1) m[l / 2].im = x;
        else m[l / 2].re = x;
    }
}

/* Site blockIdx.x's X inverted into its inverse's place (kernels/invert_block.cuh). */
static __global__ void mg_assemble_invert_kernel(qf_complex *work, int n2, double *bad)
{
    qf_complex *m = work + (size_t)blockIdx.x * 2 * n2 * n2;
    if (qf_invert_block(m, m + (size_t)n2 * n2, n2) && threadIdx.x == 0) atomicAdd(bad, 1.0);
}

template <int P>
static __global__ void mg_assemble_store_kernel(const qf_complex *work, void *xinv, int64_t n, int n2)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    size_t mreals = (size_t)2 * n2 * n2, i = (size_t)(t % mreals);
    int64_t s = t / mreals;
    qf_complex e = work[(size_t)s * 2 * n2 * n2 + (size_t)n2 * n2 + i / 2];
    qf_real_set(xinv, (qf_precision)P, (size_t)s * mreals + i, (i & 1) ? e.im : e.re);
}

extern "C" void qf_mg_assemble_cuda(void *buffers[], void *cl_arg)
{
    const qf_mg_assemble_args *a = (const qf_mg_assemble_args *)cl_arg;
    int nf = a->nfine, n2 = 2 * a->nvec;
    STARPU_ASSERT_MSG(nf <= QF_MG_MAX_FINE_BLOCKS, "mg_assemble: too many fine blocks");
    assemble_partials part;
    for (int j = 0; j < QF_MG_MAX_FINE_BLOCKS; j++) part.p[j] = j < nf ? (const double *)STARPU_VECTOR_GET_PTR(buffers[j]) : NULL;
    void *links = (void *)STARPU_VECTOR_GET_PTR(buffers[nf]);
    void *xinv = (void *)STARPU_VECTOR_GET_PTR(buffers[nf + 1]);
    qf_complex *work = (qf_complex *)STARPU_VECTOR_GET_PTR(buffers[nf + 2]);
    double *bad = (double *)STARPU_VARIABLE_GET_PTR(buffers[nf + 3]);
    qf_mg_geom g = {};
    g.nvec = a->nvec;
    for (int mu = 0; mu < QF_NDIM; mu++) g.fext[mu] = a->apb[mu], g.agg[mu] = 1; /* aggregates as sites */
    int64_t ns = qf_volume(a->cext);
    if (ns <= 0) return;
    int64_t ncopy = ns * QF_MG_NMAT * 2 * n2 * n2, nstore = ns * 2 * n2 * n2;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    QF_WITH_PRECISION(a->prec, P, mg_assemble_copy_kernel<P><<<qf_cuda_blocks(ncopy), QF_CUDA_THREADS, 0, stream>>>(part, links, work, ncopy, g, *a));
    QF_CUDA_CHECK_LAUNCH();
    mg_assemble_invert_kernel<<<(unsigned)ns, (unsigned)((2 * n2 + 31) / 32 * 32), 0, stream>>>(work, n2, bad);
    QF_CUDA_CHECK_LAUNCH();
    QF_WITH_PRECISION(a->prec, P, mg_assemble_store_kernel<P><<<qf_cuda_blocks(nstore), QF_CUDA_THREADS, 0, stream>>>(work, xinv, nstore, n2));
    QF_CUDA_CHECK_LAUNCH();
}
