/* Codelet asqtad_interior: the asqtad operator's hops inside one block (kernels/staggered.h); sites
 * without a face hop are finished, the others keep their partial hop sum for asqtad_exterior. With wrap
 * (a block that is the whole lattice of one process) it is the stencil's fused stage: every hop wraps
 * around inside the block, so the task needs no faces and finishes every site, where the three stages
 * would pay StarPU's latency between dependent tasks twice on a lone GPU and move the faces.
 * Buffers: R in, R asqtad links, W|RW out, [R x]. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_interior_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_asqtad_args *a;
    const void *in, *links, *x;
    void *out;
} interior_job;

/* Sites [first, end); each output site is computed from its neighbours alone, so the parts give the
 * bits of one thread. */
static void interior_part(void *arg, int64_t first, int64_t end)
{
    const interior_job *j = arg;
    QF_WITH_PRECISION(j->a->prec, P, {
        qf_asqtad_args b = *j->a;
        b.prec = P;
        for (int64_t i = first; i < end; i++) qf_asqtad_interior_site(&b, j->in, j->links, j->out, j->x, i);
    });
}

/* The fused hop of a one-block lattice (wrap) is all of the block's work: the CPU team shares it
 * (cpu_team.h); the interior of one block of several runs beside the other blocks' on one core. */
static void asqtad_interior_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_args *a = cl_arg;
    interior_job j = {.a = a,
                      .in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                      .links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                      .out = (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                      .x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[3]) : NULL};
    qf_cpu_team_range(a->wrap, qf_parity_nsites(a->ext, a->parity), interior_part, &j);
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
