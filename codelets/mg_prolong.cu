/* CUDA implementation of mg_prolong: one thread per (fine site, component i), each summing over the N
 * vectors; out = P e, or out += P e (add). */
#include "codelets.h"
#include "cuda_launch.h"
#include "mg_coarse_run.h"

template <int P, int PV>
static __global__ void mg_prolong_kernel(const void *coarse, const void *v, void *out, int64_t n, qf_mg_prolong_args a)
{
    a.g.prec = (qf_precision)P;
    a.g.vprec = (qf_precision)PV;
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int i = (int)(t % a.g.nsite);
    int64_t fs = t / a.g.nsite;
    qf_complex e = qf_mg_prolong_entry(&a, coarse, v, fs, i);
    size_t o = (size_t)2 * t;
    if (a.add) e = qf_cadd(e, qf_cmake(qf_real_get(out, a.g.prec, o), qf_real_get(out, a.g.prec, o + 1)));
    qf_real_set(out, a.g.prec, o, e.re);
    qf_real_set(out, a.g.prec, o + 1, e.im);
}

extern "C" void qf_mg_prolong_run_cuda(const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine,
                                       cudaStream_t stream)
{
    int64_t n = qf_volume(a->g.fext) * a->g.nsite;
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
