/* Codelet asqtad_block: one asqtad hop on a block that is the whole lattice of one process
 * (kernels/staggered.h, wrap): every hop wraps around inside the block, so the task needs no faces and
 * finishes every site at once, where the stencil's three stages would pay StarPU's latency between
 * dependent tasks twice and move the faces. tasks/stencil.c inserts it as the fused stage. Buffers: R in,
 * R asqtad links, W|RW out, W the sixteen faces (unused), [R x]. */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_block_cuda(void *buffers[], void *cl_arg);
#endif

#define BLOCK_X (3 + QF_ASQTAD_FACE_SETS * QF_NDIRS)

static void asqtad_block_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_args *a = cl_arg;
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[BLOCK_X]) : NULL;
    QF_WITH_PRECISION(a->prec, P, {
        qf_asqtad_args b = *a;
        b.prec = P;
        for (int64_t i = 0, n = qf_parity_nsites(b.ext, b.parity); i < n; i++) qf_asqtad_interior_site(&b, in, links, out, x, i);
    });
}

static struct starpu_perfmodel asqtad_block_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_block"};

struct starpu_codelet qf_cl_asqtad_block = {
    .name = "asqtad_block",
    .cpu_funcs = {asqtad_block_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_block_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &asqtad_block_model,
};
