/* Codelet wilson_block: the three stages of one hop on a block that is its own neighbour in every
 * direction (the whole lattice in one block: a one-GPU run), in one task: the gather of its eight
 * faces, the interior, and the exterior that reads the faces back, as the launchers of wilson_gather,
 * wilson_interior and wilson_exterior run them in turn (the CUDA ones on the task's stream). One task
 * where there were three: StarPU's latency between dependent tasks (5-15 us each on a GPU) was most of
 * a 16^4 Mhat. Buffers (STARPU_VARIABLE_NBUFFERS): R input spinor, R gauge, W out (RW for one parity),
 * W the block's eight faces in the gather's order (mu, side 0 then 1), then R x if has_x, R clover if
 * clover_on. */
#include "codelets.h"
#include "wilson_launch.h"

enum { FIXED = 3 + QF_WILSON_NFACES };

typedef struct {
    const void *in, *gauge, *x, *clover;
    void *out;
    void *face[QF_WILSON_NFACES];      /* as the gather writes them */
    const void *nbr[QF_WILSON_NFACES]; /* as the exterior reads them: the -mu side-1 face, then +mu side 0 */
} block_buffers;

static void pointers(void *buffers[], const qf_wilson_block_args *a, block_buffers *p)
{
    p->in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    p->gauge = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    p->out = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    for (int k = 0; k < QF_WILSON_NFACES; k++) p->face[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[3 + k]);
    /* the block is its own -mu and +mu neighbour */
    for (int mu = 0; mu < QF_NDIM; mu++) {
        p->nbr[2 * mu] = p->face[2 * mu + 1];
        p->nbr[2 * mu + 1] = p->face[2 * mu];
    }
    int k = FIXED;
    p->x = a->a.has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    p->clover = a->a.clover_on != QF_CLOVER_NONE ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
}

#if QF_HAVE_CUDA
static void wilson_block_cuda(void *buffers[], void *cl_arg)
{
    const qf_wilson_block_args *a = (const qf_wilson_block_args *)cl_arg;
    block_buffers p;
    pointers(buffers, a, &p);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    qf_wilson_gather_run_cuda(&a->g, p.in, p.gauge, p.face, stream);
    qf_wilson_interior_run_cuda(&a->a, p.out, p.in, p.gauge, p.x, p.clover, stream);
    qf_wilson_exterior_run_cuda(&a->a, p.out, p.gauge, p.x, p.clover, p.nbr, stream);
}
#endif

static void wilson_block_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_block_args *a = (const qf_wilson_block_args *)cl_arg;
    block_buffers p;
    pointers(buffers, a, &p);
    qf_wilson_gather_run(&a->g, p.in, p.gauge, p.face);
    qf_wilson_interior_run(&a->a, p.out, p.in, p.gauge, p.x, p.clover);
    qf_wilson_exterior_run(&a->a, p.out, p.gauge, p.x, p.clover, p.nbr);
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
