/* CUDA implementation of wilson_sap: one thread block a domain (blocks of the other colour return at
 * once), one thread a pair of sites, s and half + s (one of each parity, since the domain layout keeps
 * the even sites first), so that every thread runs the hops of either parity; the MR step's sums are
 * block reductions, so a domain's solve runs in one kernel. The block is rounded up to whole warps;
 * the extra threads only join the reductions. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/sap.h"

#define THREADS (QF_SAP_MAX_DOMAIN_SITES / 2)
#define WARPS (THREADS / 32)

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
static __global__ void __launch_bounds__(THREADS)
    wilson_sap_kernel(const void *links, const void *clover, const void *clover_inv, const void *r, void *x,
                      void *rho, void *q, void *e, qf_sap_args a)
{
    __shared__ double part[3][WARPS];
    const qf_precision prec = (qf_precision)P;
    a.op.prec = prec;
    a.op.recon = QF_RECON_18; /* the domain layout holds whole links (tasks/schwarz.c) */
    int64_t j = blockIdx.x, vd = qf_volume(a.g.dom), half = vd / 2, s = threadIdx.x;
    if (qf_domain_colour(&a.g, j) != a.colour) return; /* the whole thread block */
    qf_wilson_args hop[4];
    for (int k = 0; k < 4; k++) hop[k] = qf_sap_hop(&a, k);
    int pair = s < half;
    void *rj = (void *)qf_domain_records(rho, j, vd, QF_SPINOR_REALS, prec);
    void *qj = (void *)qf_domain_records(q, j, vd, QF_SPINOR_REALS, prec);
    void *ej = (void *)qf_domain_records(e, j, vd, QF_SPINOR_REALS, prec);
    const void *uj = qf_domain_records(links, j, vd, QF_LINKS_REALS, prec);
    const void *cj = clover ? qf_domain_records(clover, j, vd, QF_CLOVER_REALS, prec) : NULL;
    const void *ij = clover ? qf_domain_records(clover_inv, j, vd, QF_CLOVER_REALS, prec) : NULL;
    int64_t bs[2] = {0, 0};
    if (pair) {
        for (int p = 0; p < 2; p++) {
            bs[p] = qf_domain_block_site(&a.g, j, p * half + s);
            qf_sap_site_begin(rj, ej, p * half + s, half, r, bs[p], prec);
        }
        if (clover) qf_clover_axpby_site(rj, 0.0, rj, 1.0, ij, rj, half + s, 1, prec);
    }
    __syncthreads();
    if (pair) qf_wilson_interior_site(rj, rj, uj, rj, NULL, NULL, s, &hop[QF_SAP_PREPARE]);
    for (int k = 0; k < a.mr_steps; k++) {
        __syncthreads(); /* rho_e complete before the hops read neighbours */
        if (pair) qf_wilson_interior_site(qj, rj, uj, NULL, ij, NULL, s, &hop[QF_SAP_ODD]);
        __syncthreads();
        double d[3] = {0.0, 0.0, 0.0};
        if (pair) {
            qf_wilson_interior_site(qj, qj, uj, rj, cj, NULL, s, &hop[QF_SAP_EVEN]);
            for (int c = 0; c < QF_SAP_UNITS; c++) qf_sap_unit_dots(qj, rj, s * QF_SAP_UNITS + c, prec, d);
        }
        block_sum3(d, part); /* its barrier also ends every read of rho before the update writes it */
        double alpha[2];
        qf_sap_alpha(d, alpha);
        if (pair)
            for (int c = 0; c < QF_SAP_UNITS; c++) qf_sap_unit_update(ej, rj, qj, s * QF_SAP_UNITS + c, prec, alpha);
    }
    __syncthreads();
    if (pair) qf_wilson_interior_site(ej, ej, uj, rj, ij, NULL, s, &hop[QF_SAP_RECONSTRUCT]);
    __syncthreads();
    if (pair)
        for (int p = 0; p < 2; p++) qf_sap_site_add(x, bs[p], ej, p * half + s, prec);
}

extern "C" void qf_wilson_sap_cuda(void *buffers[], void *cl_arg)
{
    const qf_sap_args *a = (const qf_sap_args *)cl_arg;
    int has_clover = a->op.clover_on != QF_CLOVER_NONE;
    const void *clover = has_clover ? (const void *)STARPU_VECTOR_GET_PTR(buffers[6]) : NULL;
    const void *clover_inv = has_clover ? (const void *)STARPU_VECTOR_GET_PTR(buffers[7]) : NULL;
    unsigned threads = (unsigned)((qf_volume(a->g.dom) / 2 + 31) / 32 * 32);
    unsigned blocks = (unsigned)qf_domain_count(&a->g);
    QF_WITH_PRECISION(a->op.prec, P,
                      wilson_sap_kernel<P><<<blocks, threads, 0, starpu_cuda_get_local_stream()>>>(
                          (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), clover, clover_inv,
                          (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                          (void *)STARPU_VECTOR_GET_PTR(buffers[3]), (void *)STARPU_VECTOR_GET_PTR(buffers[4]),
                          (void *)STARPU_VECTOR_GET_PTR(buffers[5]), *a));
    QF_CUDA_CHECK_LAUNCH();
}
