/* CUDA implementation of mg_build: one thread per (aggregate, target matrix, chirality, group of up to
 * QF_MG_BUILD_ROWS rows, column) of the block's partial coarse operator, each summing its entries over
 * the aggregate's fine sites and terms (qf_mg_build_rows: a term applied to the column's vector once
 * for the group's rows, where one thread an entry applied it once a row, 2 N times in all) and writing
 * them once; the face pointers are passed by value. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg.h"

typedef struct { const void *vface[QF_NDIRS], *gface[QF_NDIM]; } build_faces;

template <int P, int L>
static __global__ void mg_build_kernel(const void *v, const void *links, const void *clover,
                                       const __grid_constant__ build_faces f, double *partial, int64_t n,
                                       qf_mg_build_args a)
{
    a.g.prec = (qf_precision)P;
    a.link_prec = (qf_precision)L;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    /* t = (((ai * NMAT + m) * 2 + chi) * chunks + chunk) * 2N + c: neighbouring threads share the rows */
    int nv = a.g.nvec, n2 = 2 * nv, chunks = (nv + QF_MG_BUILD_ROWS - 1) / QF_MG_BUILD_ROWS, c = (int)(t % n2);
    int64_t q = t / n2;
    int chunk = (int)(q % chunks);
    q /= chunks;
    int chi = (int)(q % 2);
    q /= 2;
    int m = (int)(q % QF_MG_NMAT);
    int64_t ai = q / QF_MG_NMAT;
    int k0 = chunk * QF_MG_BUILD_ROWS, nk = nv - k0 < QF_MG_BUILD_ROWS ? nv - k0 : QF_MG_BUILD_ROWS;
    qf_complex acc[QF_MG_BUILD_ROWS];
    qf_mg_build_rows(&a, v, links, clover, f.vface, f.gface, ai, m, chi, k0, nk, c, acc);
    for (int k = 0; k < nk; k++) {
        size_t o = qf_mg_partial_offset(nv, ai, m, chi * nv + k0 + k, c);
        partial[o] = acc[k].re;
        partial[o + 1] = acc[k].im;
    }
}

extern "C" void qf_mg_build_cuda(void *buffers[], void *cl_arg)
{
    const qf_mg_build_args *a = (const qf_mg_build_args *)cl_arg;
    /* the buffers in the order of mg_build.c's buffers_of */
    int k = 0;
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    const void *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    const void *clover = a->has_clover ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    build_faces f;
    for (int d = 0; d < QF_NDIRS; d++) f.vface[d] = (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    for (int mu = 0; mu < QF_NDIM; mu++)
        f.gface[mu] = a->source == QF_MG_SOURCE_WILSON ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    double *partial = (double *)STARPU_VECTOR_GET_PTR(buffers[k]);
    int apb[QF_NDIM];
    qf_mg_apb(&a->g, apb);
    int chunks = (a->g.nvec + QF_MG_BUILD_ROWS - 1) / QF_MG_BUILD_ROWS;
    int64_t n = qf_volume(apb) * QF_MG_NMAT * 2 * chunks * 2 * a->g.nvec; /* threads */
    if (n <= 0) return;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    QF_WITH_PRECISION(a->g.prec, P, QF_WITH_PRECISION(a->link_prec, L, mg_build_kernel<P, L><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(v, links, clover, f, partial, n, *a)));
    QF_CUDA_CHECK_LAUNCH();
}
