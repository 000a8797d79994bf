/* Codelet asqtad_interior: the asqtad operator's hops inside one block (kernels/staggered.h); sites
 * without a face hop are finished, the others keep their partial hop sum for asqtad_exterior. With wrap
 * (a block that is the whole lattice of one process) it is the stencil's fused stage: every hop wraps
 * around inside the block, so the task needs no faces and finishes every site, where the three stages
 * would pay StarPU's latency between dependent tasks twice on a lone GPU and move the faces.
 * Buffers: R in, R asqtad links, W|RW out, [R x]. */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_interior_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_interior_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_args *a = cl_arg;
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[3]) : NULL;
    QF_WITH_PRECISION(a->prec, P, {
        qf_asqtad_args b = *a;
        b.prec = P;
        for (int64_t i = 0, n = qf_parity_nsites(b.ext, b.parity); i < n; i++) qf_asqtad_interior_site(&b, in, links, out, x, i);
    });
}

static struct starpu_perfmodel asqtad_interior_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_interior"};

struct starpu_codelet qf_cl_asqtad_interior = {
    .name = "asqtad_interior",
    .cpu_funcs = {asqtad_interior_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_interior_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &asqtad_interior_model,
};
