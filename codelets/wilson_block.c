/* Codelet wilson_block: hops on a block that is its own neighbour in every direction (the whole lattice
 * in one block: a one-GPU run), in one task: for each hop of a short program, the interior, which
 * takes every hop itself since the block wraps in every direction (qf_wilson_args.wrap; the boundary
 * phases applied where a hop crosses the lattice's boundary). One task and one kernel where there
 * were three tasks a hop (gather, interior, exterior): StarPU's latency between dependent tasks (15-20
 * us each on a GPU) was a third of a 16^4 Mhat. tasks/stencil.c inserts it for one hop (buffers: R
 * in, R links, W|RW out, then R x if has_x, R clover if clover_on), tasks/dirac.c for the two hops of
 * an even-odd Mhat; each hop names its fields by buffer index (qf_wilson_block_args). */
#include "codelets.h"
#include "cpu_team.h"
#include "wilson_launch.h"

static const void *optional(void *buffers[], int k)
{
    return k >= 0 ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
}

typedef struct {
    const void *src, *gauge, *x, *clover;
    void *dst;
} hop_buffers;

static void pointers(void *buffers[], const qf_wilson_block_hop *h, hop_buffers *p)
{
    STARPU_ASSERT_MSG(!qf_wilson_has_faces(&h->a), "wilson_block on a block that does not wrap in every direction");
    p->src = optional(buffers, h->src);
    p->gauge = optional(buffers, QF_WILSON_BLOCK_LINKS);
    p->dst = (void *)STARPU_VECTOR_GET_PTR(buffers[h->dst]);
    p->x = optional(buffers, h->x);
    p->clover = optional(buffers, h->clover);
}

#if QF_HAVE_CUDA
static void wilson_block_cuda(void *buffers[], void *cl_arg)
{
    const qf_wilson_block_args *a = (const qf_wilson_block_args *)cl_arg;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    for (int k = 0; k < a->nhops; k++) {
        hop_buffers p;
        pointers(buffers, &a->hop[k], &p);
        qf_wilson_interior_run_cuda(&a->hop[k].a, p.dst, p.src, p.gauge, p.x, p.clover, stream);
    }
}
#endif

/* An even-odd application (the second hop reads the first's output and has the first's input as x) in
 * one pass over the odd sites where the pass runs it (wilson_eo_pass.c). */
static int eo_pass(void *buffers[], const qf_wilson_block_args *a)
{
    const qf_wilson_block_hop *h = a->hop;
    if (a->nhops != 2 || h[1].src != h[0].dst || h[1].x != h[0].src) return 0;
    hop_buffers first, second;
    pointers(buffers, &h[0], &first);
    pointers(buffers, &h[1], &second);
    return qf_wilson_eo_pass_run(&h[0].a, &h[1].a, second.dst, first.src, first.gauge, first.clover, second.clover);
}

/* One hop's time slices shared among the CPU team: each output site is computed from its neighbours
 * alone, so the parts need no order and give the bits of one thread. */
typedef struct {
    const qf_wilson_args *a;
    hop_buffers p;
} hop_job;

static void hop_part(void *arg, int k, int n)
{
    const hop_job *j = arg;
    int T = j->a->ext[3], lo = T * k / n, hi = T * (k + 1) / n;
    if (lo < hi) qf_wilson_interior_run_slices(j->a, lo, hi, j->p.dst, j->p.src, j->p.gauge, j->p.x, j->p.clover);
}

/* On CPU workers the task is all of the one block's work, so the team shares it (cpu_team.h): a hop
 * at a time, each hop's slices among the threads. */
static void wilson_block_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_block_args *a = (const qf_wilson_block_args *)cl_arg;
    if (eo_pass(buffers, a)) return;
    for (int k = 0; k < a->nhops; k++) {
        hop_job j = {.a = &a->hop[k].a};
        pointers(buffers, &a->hop[k], &j.p);
        qf_cpu_team_run(hop_part, &j);
    }
}

static struct starpu_perfmodel wilson_block_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_block"};

struct starpu_codelet qf_cl_wilson_block = {
    .name = "wilson_block",
    .cpu_funcs = {wilson_block_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {wilson_block_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &wilson_block_model,
};
