/* CUDA implementation of mg_coarse_exterior: a thread block holds a few output sites, one thread per
 * row r of a site (threadIdx.x = r < 2 N, threadIdx.y = the site): on the sites with a face hop each
 * thread adds its row of the face hops to the interior's partial row in shared memory, then, once the
 * site's hop sum is complete, stores its finished row. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg.h"

/* the rows of a thread block: 2 N rows a site, as many whole sites as fit */
#define COARSE_BLOCK_ROWS (2 * QF_MG_MAX_NVEC)

typedef struct { const void *p[QF_NDIRS]; } coarse_faces;

template <int P>
static __global__ void __launch_bounds__(COARSE_BLOCK_ROWS)
mg_coarse_exterior_kernel(void *out, const void *links, const __grid_constant__ coarse_faces faces, const void *x,
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
    int n2 = 2 * a->nvec, spb = COARSE_BLOCK_ROWS / n2;
    dim3 threads(n2, spb);
    unsigned blocks = (unsigned)((ns + spb - 1) / spb);
    QF_WITH_PRECISION(a->prec, P, mg_coarse_exterior_kernel<P><<<blocks, threads, 0, starpu_cuda_get_local_stream()>>>(out, links, faces, x, xinv, ns, *a));
    QF_CUDA_CHECK_LAUNCH();
}
