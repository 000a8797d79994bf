/* CUDA implementation of wilson_sap: one thread block a domain (blocks of the other colour return at
 * once), one thread a site; the MR step's sums are block reductions, so a domain's steps run in one
 * kernel. The block is rounded up to whole warps; the extra threads only join the reductions. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/sap.h"

#define WARPS (QF_SAP_MAX_DOMAIN_SITES / 32)

/* d summed over the thread block, in every thread. */
static __device__ void block_sum3(double d[3], double (*part)[WARPS])
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = (blockDim.x + 31) >> 5;
    for (int i = 0; i < 3; i++) {
        for (int o = 16; o > 0; o >>= 1) d[i] += __shfl_down_sync(0xffffffffu, d[i], o);
        if (lane == 0) part[i][warp] = d[i];
    }
    __syncthreads();
    for (int i = 0; i < 3; i++) {
        d[i] = 0.0;
        for (int w = 0; w < nwarps; w++) d[i] += part[i][w];
    }
}

template <int P>
static __global__ void __launch_bounds__(QF_SAP_MAX_DOMAIN_SITES)
    wilson_sap_kernel(const void *links, const void *clover, const void *r, void *x, void *rho, void *q, void *e,
                      qf_sap_args a)
{
    __shared__ double part[3][WARPS];
    a.op.prec = (qf_precision)P;
    a.op.recon = QF_RECON_18; /* the domain layout holds whole links (tasks/schwarz.c) */
    int64_t j = blockIdx.x, vd = qf_volume(a.g.dom), s = threadIdx.x;
    if (qf_domain_colour(&a.g, j) != a.colour) return; /* the whole thread block */
    int site = s < vd;
    void *rj = (void *)qf_domain_records(rho, j, vd, QF_SPINOR_REALS, (qf_precision)P);
    void *qj = (void *)qf_domain_records(q, j, vd, QF_SPINOR_REALS, (qf_precision)P);
    void *ej = (void *)qf_domain_records(e, j, vd, QF_SPINOR_REALS, (qf_precision)P);
    const void *uj = qf_domain_records(links, j, vd, QF_LINKS_REALS, (qf_precision)P);
    const void *cj = clover ? qf_domain_records(clover, j, vd, QF_CLOVER_REALS, (qf_precision)P) : NULL;
    int64_t bs = site ? qf_domain_block_site(&a.g, j, s) : 0;
    if (site) qf_sap_site_begin(rj, ej, s, r, bs, (qf_precision)P);
    for (int k = 0; k < a.mr_steps; k++) {
        __syncthreads(); /* rho complete before the domain operator reads neighbours */
        double d[3] = {0.0, 0.0, 0.0};
        if (site) {
            qf_wilson_interior_site(qj, rj, uj, rj, cj, NULL, s, &a.op);
            qf_sap_site_dots(qj, rj, s, (qf_precision)P, d);
        }
        block_sum3(d, part); /* its barrier also ends every read of rho before the update writes it */
        if (site) qf_sap_site_update(ej, rj, qj, s, (qf_precision)P, d);
    }
    if (site) qf_sap_site_add(x, bs, ej, s, (qf_precision)P);
}

extern "C" void qf_wilson_sap_cuda(void *buffers[], void *cl_arg)
{
    const qf_sap_args *a = (const qf_sap_args *)cl_arg;
    const void *clover = a->op.clover_on != QF_CLOVER_NONE ? (const void *)STARPU_VECTOR_GET_PTR(buffers[6]) : NULL;
    unsigned threads = (unsigned)((qf_volume(a->g.dom) + 31) / 32 * 32);
    unsigned blocks = (unsigned)qf_domain_count(&a->g);
    QF_WITH_PRECISION(a->op.prec, P,
                      wilson_sap_kernel<P><<<blocks, threads, 0, starpu_cuda_get_local_stream()>>>(
                          (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), clover,
                          (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                          (void *)STARPU_VECTOR_GET_PTR(buffers[3]), (void *)STARPU_VECTOR_GET_PTR(buffers[4]),
                          (void *)STARPU_VECTOR_GET_PTR(buffers[5]), *a));
    QF_CUDA_CHECK_LAUNCH();
}
