/* CUDA implementation of mg_prolong: one thread per (fine site, component i) of the sites written
 * (qf_mg_prolong_sites), each summing over the N vectors in the fields' arithmetic
 * (kernels/mg_transfer.cuh). A warp's threads read a few sites' runs of nsite components of vector k at
 * once, so that over the loop on k each site's vector records are read whole. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg_transfer.cuh"
#include "mg_coarse_run.h"

template <int P, int PV>
static __global__ void mg_prolong_kernel(const void *coarse, const void *v, void *out, int64_t n,
                                         const __grid_constant__ qf_mg_prolong_args a)
{
    using T = qf_mg_real<P>;
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const int nsite = a.g.nsite, nv = a.g.nvec, i = (int)(t % nsite);
    const int64_t fs = t / nsite;
    int x[QF_NDIM], c[QF_NDIM];
    qf_block_site_coords(fs, a.g.fext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) c[mu] = (a.pos[mu] * a.g.fext[mu] + x[mu]) / a.g.agg[mu];
    const size_t cs = (size_t)qf_block_site_index(c, a.cext);
    const int e0 = i / (nsite / 2) * nv; /* the coarse site's entries of component i's chirality */
    qf_mg_cplx<T> acc = {0, 0};
#pragma unroll 4
    for (int k = 0; k < nv; k++)
        qf_mg_madd(acc, qf_mg_load_cplx<T, PV>(v, (size_t)fs * nv + k, nsite, i),
                   qf_mg_load_cplx<T, P>(coarse, cs, 2 * nv, e0 + k));
    const size_t o = (size_t)2 * t;
    qf_real_set(out, (qf_precision)P, o, acc.re);
    qf_real_set(out, (qf_precision)P, o + 1, acc.im);
}

extern "C" void qf_mg_prolong_run_cuda(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine,
                                       cudaStream_t stream)
{
    int64_t n = qf_mg_prolong_sites(a) * a->g.nsite;
    if (n <= 0) return;
    QF_WITH_FIELD_AND_STORED_PRECISION(a->g.prec, a->g.vprec, P, PV,
                                mg_prolong_kernel<P, PV><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(coarse, v, fine, n, *a));
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" void qf_mg_prolong_cuda(void *buffers[], void *cl_arg)
{
    qf_mg_prolong_run_cuda((const qf_mg_prolong_args *)cl_arg, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                           (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                           starpu_cuda_get_local_stream());
}
