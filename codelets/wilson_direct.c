/* Codelet wilson_direct: one hop out = finish(a, x, b, D in) on a block of several in one process, as
 * one task that reads the hops across the block's faces from the neighbour blocks' own fields
 * (qf_wilson_args.remote, kernels/wilson.h) instead of faces that gathers wrote: every output site
 * is finished by the interior kernel, as on a block that wraps. A face hop then costs what an
 * interior hop costs, where the gather, the exterior and their face records made it several times
 * that, and a hop is one task a block instead of three. CPU only: the neighbours' blocks are read
 * where they lie, in the memory all CPU workers share (tasks/stencil.h's direct stage, which inserts
 * it; qf_runtime_direct_hops). Buffers: R in, R links, W|RW out, R in of the +mu and -mu neighbours
 * (mu = 0..3, +mu first), R links of the -mu neighbours (mu = 0..3), then R x if has_x, R clover if
 * clover_on. */
#include "codelets.h"
#include "wilson_launch.h"

enum { DIRECT_IN, DIRECT_LINKS, DIRECT_OUT, DIRECT_NBR_IN, DIRECT_NBR_LINKS = DIRECT_NBR_IN + QF_WILSON_NFACES,
       DIRECT_FIXED = DIRECT_NBR_LINKS + QF_NDIM };

static void wilson_direct_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_args *a = (const qf_wilson_args *)cl_arg;
    qf_wilson_nbrs nbrs;
    for (int k = 0; k < QF_WILSON_NFACES; k++) nbrs.in[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[DIRECT_NBR_IN + k]);
    for (int mu = 0; mu < QF_NDIM; mu++)
        nbrs.gauge[mu] = (const void *)STARPU_VECTOR_GET_PTR(buffers[DIRECT_NBR_LINKS + mu]);
    int k = DIRECT_FIXED;
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    const void *clover = a->clover_on != QF_CLOVER_NONE ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
    qf_wilson_hops_run(a, (void *)STARPU_VECTOR_GET_PTR(buffers[DIRECT_OUT]),
                       (const void *)STARPU_VECTOR_GET_PTR(buffers[DIRECT_IN]),
                       (const void *)STARPU_VECTOR_GET_PTR(buffers[DIRECT_LINKS]), x, clover, &nbrs);
}

static struct starpu_perfmodel wilson_direct_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_direct"};

struct starpu_codelet qf_cl_wilson_direct = {
    .name = "wilson_direct",
    .cpu_funcs = {wilson_direct_cpu},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &wilson_direct_model,
};
