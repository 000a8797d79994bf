/* Codelet mg_prolong: P of the multigrid transfer, one fine block from its coarse block and its
 * near-null vectors, out = P e or out += P e (kernels/mg.h). Buffers: R coarse, R V, W|RW fine. */
#include "codelets.h"
#include "mg_coarse_run.h"

#include <string.h>

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

int qf_insert_mg_prolong(qf_field *fine, int b, const qf_field *coarse, const qf_field *v, const int agg[QF_NDIM],
                         int nvec, int add)
{
    qf_mg_prolong_args a = {.g = qf_mg_transfer_geom(v, agg, nvec), .add = add != 0};
    memcpy(a.cext, coarse->lat->block, sizeof a.cext);
    int c = qf_lattice_coarse_block_of(coarse->lat, v->lat, b, a.pos);
    int ret = QF_TASK_INSERT(&qf_cl_mg_prolong, STARPU_R, qf_field_block(coarse, c), STARPU_R, qf_field_block(v, b),
                             add ? STARPU_RW : STARPU_W, qf_field_block(fine, b), STARPU_NAME, "prolong", QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_prolong");
}
