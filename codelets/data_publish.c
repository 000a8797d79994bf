/* Codelet data_publish: copies a small variable handle (a scalar, a reduction's few doubles) into a
 * slot of page-locked host memory and then stamps the slot with a sequence number, so that the host
 * reads a value as soon as the task that made it has run: it waits on the stamp, not on StarPU
 * (starpu_data_acquire: the task's end seen by its worker, a copy to the host through a data request,
 * the waiting thread woken), which cost a 16^4 solve on one GPU 120-135 us a read (bench/RESULTS.md,
 * "What a residual read costs"). In a chain the copy is the chain's last kernel. Only where CUDA
 * workers run and no MPI is active (qf_data_read_doubles); elsewhere the reads acquire. Buffers: R the
 * handle. */
#include "codelets.h"
#include "kernels/blas.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#if QF_HAVE_CUDA
void qf_data_publish_cuda(void *buffers[], void *cl_arg);
qf_publish_slot *qf_publish_slot_alloc(void);
void qf_publish_slot_free(qf_publish_slot *slot);
#endif

static void data_publish_cpu(void *buffers[], void *cl_arg)
{
    qf_publish_store(cl_arg, (const double *)STARPU_VARIABLE_GET_PTR(buffers[0]));
}

static struct starpu_perfmodel data_publish_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_data_publish"};

struct starpu_codelet qf_cl_data_publish = {
    .name = "data_publish",
    .cpu_funcs = {data_publish_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_data_publish_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 1,
    .modes = {STARPU_R},
    .model = &data_publish_model,
};

/* The slot, one for the process: reads are the submitting thread's and rare (a solve's residual checks). */
static struct {
    pthread_mutex_t lock;
    qf_publish_slot *slot;
    uint64_t seq;
} publish = {.lock = PTHREAD_MUTEX_INITIALIZER};

void qf_data_publish_start(void)
{
#if QF_HAVE_CUDA
    if (!publish.slot && starpu_cuda_worker_get_count() > 0) publish.slot = qf_publish_slot_alloc();
#endif
}

void qf_data_publish_stop(void)
{
#if QF_HAVE_CUDA
    if (publish.slot) qf_publish_slot_free(publish.slot);
#endif
    publish.slot = NULL;
}

int qf_data_publish_read(starpu_data_handle_t h, double *values, int n)
{
    if (!publish.slot || n > QF_PUBLISH_MAX || qf_runtime_mpi_active()) return 0;
    pthread_mutex_lock(&publish.lock);
    qf_publish_args a = {.slot = publish.slot, .seq = ++publish.seq, .n = n};
    struct starpu_data_descr d = {h, STARPU_R};
    int rc = qf_chain_insert(&qf_cl_data_publish, NULL, 0, &d, 1, "publish", &a, sizeof a, (uint32_t)n);
    qf_task_release_held();
    /* the stamp comes after the values (a release store, or a system-wide fence on the GPU) */
    for (unsigned spin = 0; !rc && __atomic_load_n(&publish.slot->seq, __ATOMIC_ACQUIRE) != a.seq; spin++)
        if (spin % 256 == 255) sched_yield();
    if (!rc) memcpy(values, (const void *)publish.slot->values, (size_t)n * sizeof(double));
    pthread_mutex_unlock(&publish.lock);
    return rc ? -1 : 1;
}
