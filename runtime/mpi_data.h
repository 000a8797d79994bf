/* The StarPU-MPI side of data and tasks, for runtime/ and tasks/ (not public). With one process (or a
 * build without MPI) everything here is plain StarPU; with several, every process registers the same
 * handles in the same order, each with its owner and a tag (the n-th handle gets tag n on every
 * process), and inserts the same tasks through starpu_mpi_task_insert, which runs a task where the
 * data it writes lives and sends the data it reads there. */
#ifndef QF_MPI_DATA_H
#define QF_MPI_DATA_H

#include "quarkflow/qf_config.h"
#include "quarkflow/qf_lattice.h"
#include "quarkflow/qf_runtime.h"

#include <starpu.h>
#if QF_HAVE_MPI
#include <starpu_mpi.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when StarPU-MPI runs (more than one process; runtime.c). */
int qf_runtime_mpi_active(void);

/* Whether an operator on a lattice of one block runs each hop as one fused task (tasks/stencil.h)
 * rather than a gather, an interior and an exterior: QF_STENCIL_FUSE=auto (the default) or always,
 * since a lone GPU pays StarPU's latency between dependent tasks and every fused stage's CPU function
 * shares the block's sites among the CPU team itself (codelets/cpu_team.h); never gives the three
 * stages back for comparison. Read when the runtime starts (runtime.c). */
int qf_runtime_fuse_blocks(void);
/* Whether the two hops of an even-odd Wilson operator on a lattice of several blocks in one process,
 * an application of which moves bytes bytes, run as one task a block (wilson_pair, tasks/dirac.c),
 * which reads the links once from memory instead of twice, and in one pass over the odd sites where
 * pass says its CPU function runs them so: QF_STENCIL_FUSE=auto as qf_runtime_default_pair_hops says
 * for this machine's last-level cache (bench/RESULTS.md); always; or never. */
int qf_runtime_pair_hops(int64_t bytes, int pass);
/* Whether a hop on lat runs as one task a block that reads its neighbours' blocks directly (tasks/
 * stencil.h's direct stage, and the direct kernels of bench dslash alike) instead of gathers, interiors
 * and exteriors: never on one block or several processes; else QF_STENCIL_DIRECT=auto (the default: as
 * qf_runtime_default_direct_hops says for the workers started), always (CPU-only codelets: the hops
 * then run on the CPU workers) or never, read when the runtime starts. */
int qf_runtime_direct_hops(const qf_lattice *lat);

#if QF_HAVE_MPI
/* Called by the runtime once StarPU-MPI has started: tags from 1 again, the insertion hook. */
void qf_mpi_data_start(void);
#endif

/* Declares the process that owns h (several processes: starpu_mpi_data_register with the next tag;
 * one: nothing). A handle must be registered on every process, with memory only on its owner. */
void qf_data_set_owner(starpu_data_handle_t h, int owner);

/* Whether this process owns h (one process: always). */
int qf_data_is_mine(starpu_data_handle_t h);

/* Pruning: every process builds the same graph, but inserts only the tasks it has a part in (it runs
 * the task, owns data the task reads, or holds a cached copy of data the task writes, which
 * StarPU-MPI must then invalidate); for the others starpu_mpi_task_insert would do nothing. The
 * block loops skip them before building their arguments. A block task that touches only its block's
 * data, its own faces and its neighbours' faces concerns only the processes near the block
 * (qf_lattice_block_is_near): the Dirac operator, halo copies, plaquette, heatbath, field strength
 * and clover tasks; the Dirac interior tasks concern the block's owner only; a BLAS task concerns
 * the processes owning one of its data (rank 0 owns the scalars). The Polyakov loop's chains along t
 * read far blocks and are not pruned. */

/* Makes the owner's current value of h readable on every process (a detached broadcast inside the
 * task graph: a later starpu_data_acquire waits for it). */
void qf_data_share(starpu_data_handle_t h);

/* The argument block of the task being inserted (tasks.h, QF_ARGS), and the bookkeeping that frees
 * it when StarPU-MPI decides that another process runs the task. */
void *qf_task_args_copy(const void *a, size_t n);
/* The codelets read their argument block directly as cl_arg, so tasks carry a heap copy that StarPU
 * frees after the task (STARPU_CL_ARGS); STARPU_VALUE would pack it for starpu_codelet_unpack_args.
 * QF_TASK_INSERT also frees the copy of a task that another process runs. */
#define QF_ARGS(a) STARPU_CL_ARGS, qf_task_args_copy(&(a), sizeof(a)), sizeof(a)
/* Checks starpu_task_insert's return value and turns it into a qf error naming the codelet. */
int qf_task_check(int ret, const char *what);
int qf_mpi_insert_begin(const struct starpu_codelet *cl);
int qf_mpi_insert_end(int ret);

/* cuBLAS handles on every CUDA worker (starpu_cublas_init), made at the first call, for codelets that
 * call cuBLAS (mg_schur_invert); released at qf_runtime_shutdown. Nothing without CUDA workers. */
void qf_runtime_cublas_init(void);

/* Placement scopes (runtime/task_scope.c): where a task of codelet cl may run under the current
 * scope, and the completion callback that counts where it ran. */
unsigned long long qf_task_scope_where(const struct starpu_codelet *cl);
void qf_task_scope_count(void *scope);

/* Tasks that a builder holds back (codelets/chain.c: the tasks of a chain, submitted together as one
 * task) reach StarPU before any task inserted after them and before the host reads or frees
 * data, so that StarPU sees the tasks in the order they were asked for. The inserting thread's builder
 * registers its flush when it starts holding; qf_task_release_held runs it once and forgets it. */
void qf_task_hold(void (*flush)(void));
void qf_task_release_held(void);

#if QF_HAVE_MPI
/* starpu_task_insert's arguments, inserted on one process or all, after the tasks held back. */
#define QF_TASK_INSERT_UNSCOPED(cl, ...)                                                                       \
    (qf_task_release_held(),                                                                                   \
     qf_runtime_mpi_active()                                                                                   \
         ? (qf_mpi_insert_begin(cl) ? -ENODEV                                                                  \
                                    : qf_mpi_insert_end(starpu_mpi_task_insert(MPI_COMM_WORLD, cl, __VA_ARGS__))) \
         : starpu_task_insert(cl, __VA_ARGS__))
#else
#define QF_TASK_INSERT_UNSCOPED(cl, ...) (qf_task_release_held(), starpu_task_insert(cl, __VA_ARGS__))
#endif
/* The exploration guard (runtime/task_scope.c): large tasks are not sent to CPU workers only to
 * calibrate their models there. */
void qf_task_explore_guard(void *unused);
/* The completion callback that counts a task into the inserting thread's current scope. */
#define QF_TASK_SCOPE_COUNT STARPU_CALLBACK, qf_task_scope_count, STARPU_CALLBACK_ARG_NFREE, (void *)qf_task_scope_current()
/* ... placed and counted by the inserting thread's placement scope, when it has one. */
#define QF_TASK_INSERT(cl, ...)                                                                                \
    (qf_task_scope_current()                                                                                   \
         ? QF_TASK_INSERT_UNSCOPED(cl, STARPU_EXECUTE_WHERE, qf_task_scope_where(cl), QF_TASK_SCOPE_COUNT,     \
                                   STARPU_PROLOGUE_CALLBACK, qf_task_explore_guard, __VA_ARGS__)               \
         : QF_TASK_INSERT_UNSCOPED(cl, STARPU_PROLOGUE_CALLBACK, qf_task_explore_guard, __VA_ARGS__))

/* ... for a task whose cost is its latency (scalar arithmetic on a few numbers: scalar_op,
 * scalar_trisolve): where its inputs were made and its output will be read, which on a node with CUDA
 * workers is the GPUs unless the current scope places it (qf_task_latency_where). Left to dmdas, such a
 * task went to whichever worker would finish it first, a CPU core while the GPU's queue was full, and
 * put a PCIe round trip of its scalar on a latency-bound solve's critical path (bench/RESULTS.md). */
unsigned long long qf_task_latency_where(const struct starpu_codelet *cl);
#define QF_TASK_INSERT_LATENCY(cl, ...)                                                                        \
    (qf_task_scope_current()                                                                                   \
         ? QF_TASK_INSERT_UNSCOPED(cl, STARPU_EXECUTE_WHERE, qf_task_latency_where(cl), QF_TASK_SCOPE_COUNT,   \
                                   __VA_ARGS__)                                                                \
         : QF_TASK_INSERT_UNSCOPED(cl, STARPU_EXECUTE_WHERE, qf_task_latency_where(cl), __VA_ARGS__))

/* ... and, when the process drives several GPUs, kept on block b's home GPU or the CPU workers
 * (runtime/task_scope.c): the insert of every task that belongs to one block of lat (lat NULL: none). */
unsigned qf_block_home_words(const qf_lattice *lat, int b);
uint32_t *qf_block_home_mask(const qf_lattice *lat, int b);
/* Sets up (from the workers started) and clears the home GPUs and the exploration guard. */
void qf_placement_start(void);
void qf_placement_stop(void);
#define QF_TASK_INSERT_BLOCK(lat, b, cl, ...)                                                                  \
    QF_TASK_INSERT(cl, STARPU_TASK_WORKERIDS, qf_block_home_words(lat, b), qf_block_home_mask(lat, b), __VA_ARGS__)

#ifdef __cplusplus
}
#endif
#endif
