/* Placement scopes (qf_runtime.h): a thread's current scope restricts where the tasks it inserts may
 * run and counts, per worker type, where they did run. The restriction travels with each task as
 * StarPU's starpu_task::where (STARPU_EXECUTE_WHERE, QF_TASK_INSERT in mpi_data.h), so that every
 * scheduling policy honours it; the count is taken in the task's completion callback, which StarPU
 * runs on the worker that executed the task. */
#include "quarkflow/qf_runtime.h"
#include "mpi_data.h"

#include <math.h>
#include <starpu.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local qf_task_scope *current;

static const char *const names[] = {[QF_PLACE_AUTO] = "auto", [QF_PLACE_CPU] = "cpu", [QF_PLACE_GPU] = "gpu"};

const char *qf_placement_name(qf_placement p) { return p >= QF_PLACE_AUTO && p <= QF_PLACE_GPU ? names[p] : "?"; }

int qf_placement_parse(const char *s, qf_placement *p)
{
    for (int k = QF_PLACE_AUTO; k <= QF_PLACE_GPU; k++)
        if (!strcmp(s, names[k])) {
            *p = (qf_placement)k;
            return 0;
        }
    return -1;
}

int qf_placement_check(qf_placement p, const char *what)
{
    if (p == QF_PLACE_CPU && qf_runtime_ncpu_workers() == 0)
        return qf_fail("%s is placed on CPUs, but no CPU worker runs: give CPU workers (--ncpu) or place it on gpu or auto",
                       what);
    if (p == QF_PLACE_GPU && qf_runtime_ncuda_workers() == 0)
        return qf_fail("%s is placed on GPUs, but no CUDA worker runs: give CUDA workers (--ncuda) or place it on cpu or "
                       "auto",
                       what);
    return QF_SUCCESS;
}

/* A chain (qf_chain_begin) is inserted when it ends, under the scope current then: what it holds is
 * submitted before the scope changes, so that its tasks run where their own scope places them and count
 * there (a K-cycle's coarse calls joined a chain that the fine level submitted). */
qf_task_scope *qf_task_scope_enter(qf_task_scope *s)
{
    qf_task_release_held();
    qf_task_scope *previous = current;
    current = s;
    return previous;
}

void qf_task_scope_leave(qf_task_scope *previous)
{
    qf_task_release_held();
    current = previous;
}

qf_task_scope *qf_task_scope_current(void) { return current; }

/* The worker types cl has an implementation for. */
static unsigned long long implemented(const struct starpu_codelet *cl)
{
    return (cl->cpu_funcs[0] ? STARPU_CPU : 0) | (cl->cuda_funcs[0] ? STARPU_CUDA : 0);
}

unsigned long long qf_task_scope_where(const struct starpu_codelet *cl)
{
    unsigned long long has = implemented(cl);
    unsigned long long wanted = current->where == QF_PLACE_CPU ? STARPU_CPU
                                : current->where == QF_PLACE_GPU ? STARPU_CUDA
                                                                 : has;
    /* a codelet with no implementation of the wanted kind runs where it can */
    return (has & wanted) ? has & wanted : has;
}

unsigned long long qf_task_latency_where(const struct starpu_codelet *cl)
{
    if (current && current->where != QF_PLACE_AUTO) return qf_task_scope_where(cl);
    unsigned long long has = implemented(cl);
    return has & STARPU_CUDA && starpu_cuda_worker_get_count() > 0 ? STARPU_CUDA : has;
}

void qf_task_scope_count(void *arg)
{
    qf_task_scope *s = arg;
    int kind = starpu_worker_get_type(starpu_worker_get_id()) == STARPU_CUDA_WORKER ? QF_WORKER_CUDA : QF_WORKER_CPU;
    __atomic_fetch_add(&s->ran[kind], 1, __ATOMIC_RELAXED);
}

/* Home GPUs. A process that drives several GPUs keeps each block's tasks on one of them (the local
 * blocks split in contiguous runs, t slowest) or on its CPU workers: left to itself, dmdas put both
 * blocks of a 32^3 x 64 solve on the first of two H100s and sent BLAS tasks to the second, moving
 * blocks across the bus every iteration (15.7 s against 1.07 s on one GPU; bench/RESULTS.md). The
 * mask is StarPU's starpu_task::workerids: bit w lets worker w run the task. */
static struct {
    int ndevices;
    unsigned words;
    uint32_t *mask; /* ndevices masks of `words` words */
} homes;

static void homes_start(const int *cuda, int ncuda, const int *cpu, int ncpu)
{
    if (ncuda < 2) return;
    unsigned words = (starpu_worker_get_count() + 31) / 32;
    uint32_t *mask = calloc((size_t)ncuda * words, sizeof *mask);
    if (!mask) return; /* no homes: the scheduler places every task */
    for (int k = 0; k < ncuda; k++) {
        uint32_t *m = mask + (size_t)k * words;
        m[cuda[k] / 32] |= 1u << (cuda[k] % 32);
        for (int c = 0; c < ncpu; c++) m[cpu[c] / 32] |= 1u << (cpu[c] % 32);
    }
    homes.ndevices = ncuda;
    homes.words = words;
    homes.mask = mask;
}


/* The position of block b among its process's blocks, lexicographic with x fastest. */
static int local_index(const qf_lattice *lat, int b)
{
    int index = 0, stride = 1;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        index += (b % lat->blocks[mu]) % lat->local_blocks[mu] * stride;
        stride *= lat->local_blocks[mu];
        b /= lat->blocks[mu];
    }
    return index;
}

/* No homes (0 words): one GPU or none, one block a process, another process's block, or no block
 * (lat NULL: tasks on scalars). StarPU reads the mask only where the words are not 0. */
static int has_home(const qf_lattice *lat) { return homes.ndevices > 1 && lat && lat->nlocal_blocks > 1; }

unsigned qf_block_home_words(const qf_lattice *lat, int b)
{
    return has_home(lat) && qf_lattice_block_is_local(lat, b) ? homes.words : 0;
}

uint32_t *qf_block_home_mask(const qf_lattice *lat, int b)
{
    if (!has_home(lat)) return NULL;
    int k = (int)((long)local_index(lat, b) * homes.ndevices / lat->nlocal_blocks);
    return homes.mask + (size_t)k * homes.words;
}

/* The exploration guard. Under the dm* policies a task whose performance model has no figure yet for a
 * worker type is sent to that type to calibrate it, whatever it costs there: the first 32^4 solve on a
 * fresh H100 node ran 2642 GPU-sized tasks on CPU cores, 80 s against 0.28 s on the GPU alone
 * (bench/RESULTS.md). A task that may run on both CPU and CUDA workers, whose model has no CPU figure
 * for its size, runs on the CUDA workers when its data exceed QF_EXPLORE_MAX_BYTES or when one of its
 * buffers is not valid on the host (it lives on a GPU, or has no value yet): its prologue
 * (QF_TASK_INSERT), which StarPU calls as the task becomes ready, narrows its where. Timing a small
 * task on a CPU core costs microseconds, but moving its data there and back put PCIe round trips into
 * every iteration of a small lattice's first solve (12^4: 8x the GPU alone's time), and a new field
 * first written on a core stayed there for its next readers (1.6-1.8x). Tasks whose data all sit on
 * the host are still explored on the CPUs, and so are large ones whose CPU figures exist (measured on
 * a CPU-only run, or placed there by a scope). */
#define QF_EXPLORE_MAX_BYTES (4u << 20)

static struct starpu_perfmodel_arch *explore_cpu_arch; /* NULL: the guard is off */


void qf_task_explore_guard(void *arg)
{
    (void)arg;
    struct starpu_task *task = starpu_task_get_current();
    if (!explore_cpu_arch || !task || !task->cl || !task->cl->model || (task->where & (STARPU_CPU | STARPU_CUDA)) !=
                                                                          (STARPU_CPU | STARPU_CUDA))
        return;
    size_t bytes = 0;
    int away = 0; /* a buffer not valid on the host, which timing the task on a CPU core would move there */
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); i++) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        bytes += starpu_data_get_size(h);
        int allocated, valid, requested;
        starpu_data_query_status(h, STARPU_MAIN_RAM, &allocated, &valid, &requested);
        away |= !valid;
    }
    if ((bytes > QF_EXPLORE_MAX_BYTES || away) && isnan(starpu_task_expected_length(task, explore_cpu_arch, 0)))
        task->where = STARPU_CUDA;
}

/* The home GPUs and the exploration guard, from the workers the runtime started. */
void qf_placement_start(void)
{
    qf_placement_stop();
    int cuda[STARPU_NMAXWORKERS], cpu[STARPU_NMAXWORKERS];
    int ncuda = starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, cuda, STARPU_NMAXWORKERS);
    int ncpu = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, cpu, STARPU_NMAXWORKERS);
    homes_start(cuda, ncuda, cpu, ncpu);
    explore_cpu_arch = ncuda > 0 && ncpu > 0 ? starpu_worker_get_perf_archtype(cpu[0], 0) : NULL;
}

void qf_placement_stop(void)
{
    free(homes.mask);
    memset(&homes, 0, sizeof homes);
    explore_cpu_arch = NULL;
}
