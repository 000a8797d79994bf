/* Codelet wilson_block: hops on a block that is its own neighbour in every direction (the whole lattice
 * in one block: a one-GPU run), in one task: for each hop of a short program, the gather of the
 * block's eight faces, the interior, and the exterior that reads the faces back, as the launchers of
 * wilson_gather, wilson_interior and wilson_exterior run them in turn (the CUDA ones on the task's
 * stream). One task where there were three a hop: StarPU's latency between dependent tasks (15-20 us
 * each on a GPU) was a third of a 16^4 Mhat. tasks/stencil.c inserts it for one hop (buffers: R in, R
 * links, W|RW out, W the eight faces, then R x if has_x, R clover if clover_on), tasks/dirac.c for the
 * two hops of an even-odd Mhat; each hop names its fields by buffer index (qf_wilson_block_args). */
#include "codelets.h"
#include "wilson_launch.h"

static const void *optional(void *buffers[], int k)
{
    return k >= 0 ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
}

/* The pointers of hop h: its faces as the gather writes them and as the exterior reads them (the
 * block is its own -mu and +mu neighbour: the -mu side-1 face, then the +mu side-0 face). */
typedef struct {
    const void *src, *gauge, *x, *clover;
    void *dst;
    void *face[QF_WILSON_NFACES];
    const void *nbr[QF_WILSON_NFACES];
} hop_buffers;

static void pointers(void *buffers[], const qf_wilson_block_hop *h, hop_buffers *p)
{
    p->src = optional(buffers, h->src);
    p->gauge = optional(buffers, QF_WILSON_BLOCK_LINKS);
    p->dst = (void *)STARPU_VECTOR_GET_PTR(buffers[h->dst]);
    p->x = optional(buffers, h->x);
    p->clover = optional(buffers, h->clover);
    for (int k = 0; k < QF_WILSON_NFACES; k++)
        p->face[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[QF_WILSON_BLOCK_FACES + k]);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        p->nbr[2 * mu] = p->face[2 * mu + 1];
        p->nbr[2 * mu + 1] = p->face[2 * mu];
    }
}

#if QF_HAVE_CUDA
static void wilson_block_cuda(void *buffers[], void *cl_arg)
{
    const qf_wilson_block_args *a = (const qf_wilson_block_args *)cl_arg;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    for (int k = 0; k < a->nhops; k++) {
        const qf_wilson_block_hop *h = &a->hop[k];
        hop_buffers p;
        pointers(buffers, h, &p);
        qf_wilson_gather_run_cuda(&h->g, p.src, p.gauge, p.face, stream);
        qf_wilson_interior_run_cuda(&h->a, p.dst, p.src, p.gauge, p.x, p.clover, stream);
        qf_wilson_exterior_run_cuda(&h->a, p.dst, p.gauge, p.x, p.clover, p.nbr, stream);
    }
}
#endif

static void wilson_block_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_block_args *a = (const qf_wilson_block_args *)cl_arg;
    for (int k = 0; k < a->nhops; k++) {
        const qf_wilson_block_hop *h = &a->hop[k];
        hop_buffers p;
        pointers(buffers, h, &p);
        qf_wilson_gather_run(&h->g, p.src, p.gauge, p.face);
        qf_wilson_interior_run(&h->a, p.dst, p.src, p.gauge, p.x, p.clover);
        qf_wilson_exterior_run(&h->a, p.dst, p.gauge, p.x, p.clover, p.nbr);
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
