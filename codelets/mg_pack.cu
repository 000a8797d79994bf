/* CUDA implementation of mg_pack: one thread per real of (fine site, vector), the N fields taken 64 at a
 * time (their pointers by value, one launch per chunk), each writing its run of V[x][k][i]. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/mg.h"

#define PACK_CHUNK 64

typedef struct { const void *p[PACK_CHUNK]; } pack_fields;

template <int P>
static __global__ void mg_pack_kernel(const __grid_constant__ pack_fields f, void *v, int k0, int nk, int64_t n,
                                      qf_mg_geom g)
{
    g.prec = (qf_precision)P;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int sr = 2 * g.nsite, i = (int)(t % sr);
    int64_t q = t / sr, fs = q / nk;
    int kk = (int)(q % nk);
    qf_real_set(v, g.prec, qf_mg_v_offset(&g, fs, k0 + kk, 0) + i, qf_real_get(f.p[kk], g.prec, (size_t)sr * fs + i));
}

extern "C" void qf_mg_pack_cuda(void *buffers[], void *cl_arg)
{
    const qf_mg_orth_args *a = (const qf_mg_orth_args *)cl_arg;
    const qf_mg_geom *g = &a->g;
    void *v = (void *)STARPU_VECTOR_GET_PTR(buffers[g->nvec]);
    int64_t ns = qf_volume(g->fext);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    for (int k0 = 0; k0 < g->nvec; k0 += PACK_CHUNK) {
        int nk = g->nvec - k0 < PACK_CHUNK ? g->nvec - k0 : PACK_CHUNK;
        pack_fields f;
        for (int k = 0; k < PACK_CHUNK; k++) f.p[k] = k < nk ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k0 + k]) : NULL;
        int64_t n = ns * nk * 2 * g->nsite;
        if (n <= 0) continue;
        QF_WITH_PRECISION(g->prec, P, mg_pack_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(f, v, k0, nk, n, *g));
        QF_CUDA_CHECK_LAUNCH();
    }
}
