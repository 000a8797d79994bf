/* Codelet mg_prolong: P of the multigrid transfer, one fine block from its coarse block and its
 * near-null vectors, out = P e or out += P e (kernels/mg.h). Buffers: R coarse, R V, W|RW fine. */
#include "codelets.h"
#include "kernels/mg.h"

#if QF_HAVE_CUDA
void qf_mg_prolong_cuda(void *buffers[], void *cl_arg);
#endif

static void mg_prolong_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_prolong_args *a = cl_arg;
    const void *coarse = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *v = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    QF_WITH_PRECISION(a->g.prec, P, {
        qf_mg_prolong_args b = *a;
        b.g.prec = P;
        for (int64_t fs = 0, ns = qf_volume(b.g.fext); fs < ns; fs++)
            for (int i = 0; i < b.g.nsite; i++) {
                qf_complex e = qf_mg_prolong_entry(&b, coarse, v, fs, i);
                size_t o = (size_t)2 * ((size_t)fs * b.g.nsite + i);
                if (b.add) e = qf_cadd(e, qf_cmake(qf_real_get(out, P, o), qf_real_get(out, P, o + 1)));
                qf_real_set(out, P, o, e.re);
                qf_real_set(out, P, o + 1, e.im);
            }
    });
}

static struct starpu_perfmodel mg_prolong_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_prolong"};

struct starpu_codelet qf_cl_mg_prolong = {
    .name = "mg_prolong",
    .cpu_funcs = {mg_prolong_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_prolong_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_prolong_model,
};
