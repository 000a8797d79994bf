/* Codelet wilson_pair: both hops of an even-odd operator (Mhat, tasks/dirac.c) on one block of a lattice
 * of several, in one task, where the stencil graph runs six (a gather, an interior and an exterior a
 * hop). Each hop reads the whole gauge field: run one after the other over a block, they read it from
 * memory twice, which cost 1.11-1.15x in double precision on 16 cores where the fields exceed the cache
 * (bench/RESULTS.md). Here the CPU codelet walks the block slice by slice in time: t on the odd sites of
 * slice s (interior, then the hops through the faces of in), then the second hop on the even sites of
 * slice s - 1, whose sources (t on slices s - 2 .. s) and links the first hop has just used, so that
 * they come from the cache. What the second hop takes through the block's faces stays with the
 * stencil's exterior task (tasks/dirac.c), which reads the faces of t this task gathers at its end. The
 * CUDA codelet runs the same four kernels one after the other on the task's stream. Buffers and
 * arguments: qf_wilson_pair_args (wilson_launch.h). */
#include "codelets.h"
#include "wilson_launch.h"

typedef struct {
    const void *in, *gauge, *in_face[QF_WILSON_NFACES], *x[2], *clover[2];
    void *out, *tmp, *tmp_face[QF_WILSON_NFACES];
} pair_buffers;

static const void *optional(void *buffers[], int k)
{
    return k >= 0 ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
}

static void pointers(void *buffers[], const qf_wilson_pair_args *p, pair_buffers *b)
{
    STARPU_ASSERT_MSG(p->hop[0].parity == 1 && p->hop[1].parity == 0 && qf_wilson_has_faces(&p->hop[0]),
                      "wilson_pair: the hops of an even-odd operator on a block with faces");
    b->in = (const void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_PAIR_IN]);
    b->gauge = (const void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_PAIR_LINKS]);
    b->out = (void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_PAIR_OUT]);
    b->tmp = (void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_PAIR_TMP]);
    for (int k = 0; k < QF_WILSON_NFACES; k++) {
        b->in_face[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_PAIR_IN_FACES + k]);
        b->tmp_face[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_PAIR_TMP_FACES + k]);
    }
    for (int h = 0; h < 2; h++) {
        b->x[h] = optional(buffers, p->x[h]);
        b->clover[h] = optional(buffers, p->clover[h]);
    }
}

#if QF_HAVE_CUDA
static void wilson_pair_cuda(void *buffers[], void *cl_arg)
{
    const qf_wilson_pair_args *p = (const qf_wilson_pair_args *)cl_arg;
    pair_buffers b;
    pointers(buffers, p, &b);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    qf_wilson_interior_run_cuda(&p->hop[0], b.tmp, b.in, b.gauge, b.x[0], b.clover[0], stream);
    qf_wilson_exterior_run_cuda(&p->hop[0], b.tmp, b.gauge, b.x[0], b.clover[0], b.in_face, stream);
    qf_wilson_gather_run_cuda(&p->gather, b.tmp, b.gauge, b.tmp_face, stream);
    qf_wilson_interior_run_cuda(&p->hop[1], b.out, b.tmp, b.gauge, b.x[1], b.clover[1], stream);
}
#endif

/* The second hop on the even sites of slice s. */
static void second_hop(const qf_wilson_pair_args *p, const pair_buffers *b, int s)
{
    qf_wilson_interior_run_slices(&p->hop[1], s, s + 1, b->out, b->tmp, b->gauge, b->x[1], b->clover[1]);
}

static void wilson_pair_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_pair_args *p = (const qf_wilson_pair_args *)cl_arg;
    const qf_wilson_args *first = &p->hop[0];
    pair_buffers b;
    pointers(buffers, p, &b);
    if (p->x[0] < 0 && p->x[1] == QF_WILSON_PAIR_IN &&
        qf_wilson_eo_pass_block_run(first, &p->hop[1], b.out, b.in, b.gauge, b.clover[0], b.clover[1], b.in_face,
                                    b.tmp_face))
        return;
    /* where the block wraps in time, slice 0's second hop reads t on the last slice: it goes last */
    const int nt = first->ext[3], wraps_t = first->wrap >> 3 & 1;
    for (int s = 0; s < nt; s++) {
        qf_wilson_interior_run_slices(first, s, s + 1, b.tmp, b.in, b.gauge, b.x[0], b.clover[0]);
        qf_wilson_exterior_run_slices(first, s, s + 1, b.tmp, b.gauge, b.x[0], b.clover[0], b.in_face);
        if (s >= 1 && !(wraps_t && s == 1)) second_hop(p, &b, s - 1);
    }
    second_hop(p, &b, nt - 1);
    if (wraps_t) second_hop(p, &b, 0);
    qf_wilson_gather_run(&p->gather, b.tmp, b.gauge, b.tmp_face);
}

static struct starpu_perfmodel wilson_pair_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_pair"};

struct starpu_codelet qf_cl_wilson_pair = {
    .name = "wilson_pair",
    .cpu_funcs = {wilson_pair_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {wilson_pair_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &wilson_pair_model,
};
