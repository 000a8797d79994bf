/* The StarPU-MPI side of data and tasks (mpi_data.h): owners and tags of handles, host reads on every
 * process, sums of host arrays over processes, and the argument blocks of inserted tasks. With one
 * process (or without MPI) each is plain StarPU or nothing. */
#include "mpi_data.h"
#include "quarkflow/qf_runtime.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#if QF_HAVE_MPI
static starpu_mpi_tag_t next_tag;
static void *pending_args; /* the argument block of the task being inserted, until StarPU-MPI takes it */

static void args_taken(struct starpu_task *task)
{
    (void)task;
    pending_args = NULL;
}

void qf_mpi_data_start(void)
{
    next_tag = 0;
    starpu_mpi_pre_submit_hook_register(args_taken);
}
#endif

void qf_data_set_owner(starpu_data_handle_t h, int owner)
{
#if QF_HAVE_MPI
    if (qf_runtime_mpi_active()) starpu_mpi_data_register(h, ++next_tag, owner);
#else
    (void)h;
    (void)owner;
#endif
}

int qf_data_is_mine(starpu_data_handle_t h)
{
#if QF_HAVE_MPI
    if (qf_runtime_mpi_active()) return starpu_mpi_data_get_rank(h) == qf_runtime_rank();
#else
    (void)h;
#endif
    return 1;
}

void qf_data_share(starpu_data_handle_t h)
{
#if QF_HAVE_MPI
    if (qf_runtime_mpi_active()) starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, h);
#else
    (void)h;
#endif
}

int qf_runtime_sum_doubles(double *v, int64_t n)
{
#if QF_HAVE_MPI
    if (!qf_runtime_mpi_active()) return QF_SUCCESS;
    for (int64_t done = 0; done < n;) {
        int chunk = (int)(n - done < (1 << 28) ? n - done : (1 << 28));
        if (MPI_Allreduce(MPI_IN_PLACE, v + done, chunk, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
            return qf_fail("MPI_Allreduce of %lld doubles failed", (long long)n);
        done += chunk;
    }
#else
    (void)v;
    (void)n;
#endif
    return QF_SUCCESS;
}

int qf_runtime_max_double(double *v)
{
#if QF_HAVE_MPI
    if (qf_runtime_mpi_active() && MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return qf_fail("MPI_Allreduce of one double (maximum) failed");
#else
    (void)v;
#endif
    return QF_SUCCESS;
}

int qf_runtime_allgather(const void *mine, void *all, size_t bytes)
{
#if QF_HAVE_MPI
    if (qf_runtime_mpi_active()) {
        if (bytes > (size_t)INT_MAX ||
            MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS)
            return qf_fail("MPI_Allgather of %zu bytes a process failed", bytes);
        return QF_SUCCESS;
    }
#endif
    memcpy(all, mine, bytes);
    return QF_SUCCESS;
}

void *qf_task_args_copy(const void *a, size_t n)
{
    void *p = malloc(n);
    if (p) memcpy(p, a, n);
#if QF_HAVE_MPI
    pending_args = p;
#endif
    return p;
}

static _Thread_local void (*held_flush)(void);

void qf_task_hold(void (*flush)(void)) { held_flush = flush; }

void qf_task_release_held(void)
{
    void (*flush)(void) = held_flush;
    held_flush = NULL; /* the flush inserts through the same macro */
    if (flush) flush();
}

/* StarPU-MPI swallows a task that no worker can run (it prints a line and returns 0): refuse it here,
 * as starpu_task_insert would. */
int qf_mpi_insert_begin(const struct starpu_codelet *cl)
{
#if QF_HAVE_MPI
    pending_args = NULL;
#endif
    int cpu = cl->cpu_funcs[0] && starpu_cpu_worker_get_count() > 0;
    int cuda = cl->cuda_funcs[0] && starpu_cuda_worker_get_count() > 0;
    return cpu || cuda ? 0 : -ENODEV;
}

/* A task that runs here was handed to args_taken (StarPU frees its arguments); one that runs elsewhere
 * leaves its copy to be freed here. */
int qf_mpi_insert_end(int ret)
{
#if QF_HAVE_MPI
    free(pending_args);
    pending_args = NULL;
#endif
    return ret;
}

int qf_task_check(int ret, const char *what)
{
    if (ret == -ENODEV)
        return qf_fail("no StarPU worker can run %s tasks: enable CPU workers (STARPU_NCPU / --ncpu) or a device that "
                       "has an implementation",
                       what);
    if (ret) return qf_fail("submitting a %s task failed (StarPU error %d: %s)", what, ret, strerror(-ret));
    return QF_SUCCESS;
}
