/* Start-up and shut-down of the runtime (StarPU, and MPI when quarkflow is built with it). StarPU's
 * own environment variables (STARPU_SCHED, STARPU_NCPU, STARPU_NCUDA, ...) keep working; options set
 * here override them. FxT tracing is off unless asked for (STARPU_FXT_TRACE=1 or trace_dir). */
#ifndef QF_RUNTIME_H
#define QF_RUNTIME_H

#include "qf_defs.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *sched; /* scheduling policy; NULL: STARPU_SCHED, else dmdas with CUDA workers and eager
                        * without */
    int ncpu;          /* CPU workers; -1: STARPU_NCPU or all cores (with CUDA workers: all cores but one
                        * per CUDA worker and one for the thread that submits the tasks; without them,
                        * all but that thread's from 16 cores on) */
    int ncuda;         /* CUDA workers; -1: STARPU_NCUDA or all devices */
    const char *trace_dir; /* record an FxT trace into this folder; NULL: no trace */
    int trace_window;      /* with trace_dir: record only between qf_runtime_trace_begin and _end (the
                            * interesting part of a run), not from start-up */
    double watchdog_s;     /* > 0: when no task finishes for this long while tasks are pending, print
                            * what was pending and what ran, and end the process (status 1) instead of
                            * hanging; 0: no watchdog (StarPU's STARPU_WATCHDOG_TIMEOUT still works) */
} qf_runtime_options;

/* Defaults: everything from the environment. */
qf_runtime_options qf_runtime_default_options(void);

/* Starts MPI (MPI_THREAD_SERIALIZED, when built with it) and StarPU. argc/argv may be NULL. Fails,
 * naming the cause, on a scheduling policy (sched or STARPU_SCHED) that StarPU does not have, more
 * CPU workers than the machine has cores, and more CUDA workers than it has devices. */
int qf_runtime_init(const qf_runtime_options *opt, int *argc, char ***argv);
/* Stops StarPU; it may be started again (another policy, say). MPI, when quarkflow started it, is
 * finalized at exit. */
void qf_runtime_shutdown(void);
int qf_runtime_rank(void);
int qf_runtime_nprocs(void);
/* Waits for every process to reach it (MPI_Barrier; one process: returns). Works after
 * qf_runtime_shutdown too, for what follows the end of all processes' tasks. */
void qf_runtime_barrier(void);
/* Sums v element by element over all processes, in place, on every process (MPI_Allreduce; one
 * process: nothing): per-process partial results, such as correlators over each part, made whole. */
int qf_runtime_sum_doubles(double *v, int64_t n);
/* The largest *v of all processes, in place, on every process (MPI_Allreduce; one process: nothing):
 * a decision every process must take alike, such as a timed loop's count from its probe's time. */
int qf_runtime_max_double(double *v);
/* Every process's `bytes` bytes at all + rank * bytes, on every process (MPI_Allgather; one
 * process: a copy). */
int qf_runtime_allgather(const void *mine, void *all, size_t bytes);

/* The CPU workers qf_runtime_init starts on a machine of ncores cores with ncuda CUDA workers when
 * neither --ncpu nor STARPU_NCPU says: one core is left to the thread that submits the tasks with
 * CUDA workers, and without them from 16 cores on (at least 1 worker); -1 where StarPU's own default,
 * a worker on every core, stays. */
int qf_runtime_default_ncpu(long ncores, int ncuda);

/* Whether QF_STENCIL_FUSE=auto runs both hops of an even-odd Wilson operator as one task a block
 * (wilson_pair) on one process with ncuda CUDA workers, an application moving bytes bytes, where the
 * last-level cache holds cache_bytes (<= 0: unknown, taken as 32 MiB), and pass says whether the pair's
 * CPU function runs the hops in one pass over the odd sites (whole links, double or single): only
 * without CUDA workers, and there where it runs the pass or the bytes exceed the cache, where reading
 * the links once from memory pays (bench/RESULTS.md). */
int qf_runtime_default_pair_hops(int64_t bytes, long cache_bytes, int ncuda, int pass);

/* Whether QF_STENCIL_DIRECT=auto runs each hop of a block as one task that reads its neighbour blocks
 * (wilson_direct) with ncpu CPU and ncuda CUDA workers: only without CUDA workers (a GPU would fetch
 * the neighbours' whole blocks) and with at most QF_DIRECT_MAX_CPU_WORKERS CPU workers, where it was
 * measured faster (2 workers of the development VM: the 16^4 Mhat 1.25x, the multigrid solve 1.2x;
 * 4 workers of an H200 node's Xeon: a tie; 8 and 15 workers there: 1.2-1.3x slower than the stencil,
 * whose gathers read each block's own data where the direct hop reads its neighbours' from the other
 * cores' caches; bench/RESULTS.md). */
#define QF_DIRECT_MAX_CPU_WORKERS 4
int qf_runtime_default_direct_hops(int ncpu, int ncuda);

/* Number of CPU and CUDA workers StarPU started. */
int qf_runtime_ncpu_workers(void);
int qf_runtime_ncuda_workers(void);
const char *qf_runtime_sched_name(void);
/* Whether StarPU has the scheduling policy named policy; fails listing the policies it has. Needs no
 * started runtime. */
int qf_runtime_check_sched(const char *policy);

/* How many codelets' history-based performance models have no calibration on this machine yet (no
 * file in StarPU's sampling directory, STARPU_HOME), of *total with a model; their names, comma-
 * separated, into names (size bytes, truncated). A model-based scheduler calibrates them during the
 * first runs by placing tasks on every worker type. */
int qf_runtime_models_missing(int *total, char *names, size_t size);

/* Prints workers, memory nodes and the hwloc topology as StarPU sees them. */
void qf_runtime_print_machine(FILE *out);
/* Prints the build configuration: version, StarPU, CUDA, MPI, FxT. */
void qf_runtime_print_build(FILE *out);

/* With a trace folder and trace_window set, FxT records between these calls only (a solve, say);
 * otherwise they do nothing. */
void qf_runtime_trace_begin(void);
void qf_runtime_trace_end(void);
/* With a trace folder, a named event in the trace at this moment of the host (ViTE shows it; the
 * solvers mark each iteration's submission); otherwise nothing. */
void qf_runtime_trace_event(const char *what);
/* After qf_runtime_shutdown of a run with a trace folder: turns dir's FxT records into paje.trace
 * (ViTE), dag.dot and tasks.rec with StarPU's starpu_fxt_tool (beside the program, in StarPU's bin
 * folder, or on PATH); fails with a message naming what is missing or failed. */
int qf_runtime_trace_convert(const char *dir);
/* The colour (0xRRGGBB) that traces give the tasks of the quarkflow codelet whose performance model
 * is model ("qf_wilson_interior"): 1 and *rgb, or 0 for a model quarkflow does not have. */
int qf_trace_colour(const char *model, unsigned *rgb);

/* Runs the program argv[0] with the arguments argv[1..] (argv ends with NULL) and waits for it,
 * without a shell, so that no file name in argv is ever read as a command: argv[0] is an absolute
 * path, or a bare name looked up on PATH. It runs in the folder dir (NULL: the current one) with its
 * standard output and error in the file log (created or emptied; a relative log is the caller's,
 * not dir's). QF_PROGRAM_OK: it exited with status 0; QF_PROGRAM_NOT_FOUND: there is no such program
 * (the caller says how to install it); QF_PROGRAM_FAILED: it failed or could not start, and
 * qf_last_error() names why (its exit status or signal and the log, or what could not be opened). */
typedef enum { QF_PROGRAM_OK = 0, QF_PROGRAM_NOT_FOUND, QF_PROGRAM_FAILED } qf_program_status;
qf_program_status qf_run_program(const char *const argv[], const char *dir, const char *log);

/* The version of the CPU Dirac kernels that runs (runtime/cpu_kernels.c). An x86-64 build with
 * QF_CPU_DISPATCH holds three, for AVX-512 (x86-64-v4), AVX2 + FMA (x86-64-v3) and the baseline;
 * the best the CPU runs is used unless the environment variable QF_CPU_KERNELS names one (avx512,
 * avx2, baseline, or auto). qf_runtime_init selects it and fails, naming the cause, when the CPU or
 * the build lacks the version asked for; qf_cpu_kernels_select does the same for programs that call
 * the kernels without the runtime. */
typedef enum { QF_CPU_KERNELS_BASELINE = 0, QF_CPU_KERNELS_AVX2, QF_CPU_KERNELS_AVX512 } qf_cpu_kernels_level;
int qf_cpu_kernels_select(void);
qf_cpu_kernels_level qf_cpu_kernels(void);
/* "avx512", "avx2", "baseline"; and the target it was compiled for ("x86-64-v4: AVX-512"). */
const char *qf_cpu_kernels_name(qf_cpu_kernels_level l);
const char *qf_cpu_kernels_target(qf_cpu_kernels_level l);

/* Wall-clock seconds from an arbitrary origin (StarPU's clock). */
double qf_wtime(void);

/* Waits for every submitted task. */
void qf_runtime_wait_all(void);

/* Stops the workers from taking tasks (a StarPU built with non-blocking drivers would also have them
 * spin on their cores while idle), so that the host can use every core itself, for example to time kernels without the
 * runtime; tasks submitted meanwhile wait for qf_runtime_resume. Call after qf_runtime_wait_all. */
void qf_runtime_pause(void);
void qf_runtime_resume(void);

/* For code that runs beside the runtime on the same cores (benchmarks of the kernels without it):
 * the core of CPU worker k (-1 when StarPU binds nothing), binding the calling thread to a core, and
 * the CUDA device of the first CUDA worker (-1 when there is none). */
int qf_runtime_cpu_worker_core(int k);
void qf_runtime_bind_thread(int core, const char *name);
int qf_runtime_cuda_device(void);

/* ---- Per-worker statistics of an interval (runtime/stats.c) ----
 * Between qf_runtime_stats_begin and qf_runtime_stats_end StarPU's profiling is on, and the end
 * collects for every worker of this process: the tasks it executed, its busy time (running codelets;
 * for CUDA workers with asynchronous codelets, from the launch of a kernel to the driver's seeing it
 * finish), its idle time (the rest of the interval: waiting for work, scheduling, data transfers it
 * waits for; StarPU 1.3 reports no separate overhead), and its tasks of each quarkflow codelet.
 * Profiling costs every task a record and time stamps, so it is on only inside begin/end: the end
 * restores the status that the begin found (on only where STARPU_PROFILING=1 asked for it). Both
 * calls wait for every submitted task, so that the interval holds exactly the tasks submitted
 * between them. One interval at a time. */
typedef struct qf_runtime_stats qf_runtime_stats;
typedef enum { QF_WORKER_CPU = 0, QF_WORKER_CUDA } qf_worker_kind;

/* ---- Placement scopes (runtime/task_scope.c) ----
 * A placement says where tasks may run: on CPU workers, on CUDA workers, or wherever the scheduler
 * puts them (auto). While a scope is the current one of a thread, the tasks that thread inserts run
 * only where its placement allows (a codelet without an implementation there runs where it can), and
 * the scope counts the tasks that ran on each worker type (ran[qf_worker_kind], updated as tasks
 * complete: read it after waiting for them). Scopes nest: enter returns the scope it replaces, which
 * leave makes current again. A scope must outlive every task inserted under it (static or heap
 * storage, not a local of a function that returns before its tasks complete): each task's completion
 * callback counts into it. The multigrid solver gives each level a scope (--mg-location). */
typedef enum { QF_PLACE_AUTO = 0, QF_PLACE_CPU, QF_PLACE_GPU } qf_placement;
const char *qf_placement_name(qf_placement p);
/* Parses auto, cpu or gpu: 0, or -1 for anything else. */
int qf_placement_parse(const char *s, qf_placement *p);
/* Fails with a message naming what (e.g. "multigrid level 1") when no worker of the placement's type
 * runs. */
int qf_placement_check(qf_placement p, const char *what);
typedef struct {
    qf_placement where;
    long ran[2]; /* [qf_worker_kind] */
} qf_task_scope;
qf_task_scope *qf_task_scope_enter(qf_task_scope *s);
void qf_task_scope_leave(qf_task_scope *previous);
qf_task_scope *qf_task_scope_current(void);

/* ---- What the runtime costs a task (tasks/probe.c; quarkflow bench tasks) ----
 * ntasks tasks whose kernel only waits wait_us microseconds (a CPU core spinning on its clock, one
 * GPU warp on the GPU's timer, on the worker's stream), on the workers of one type: chained, every
 * task reading and writing one buffer, so that each starts only after the last has ended (as a
 * solver's operator applications do); or independent, each its own buffer of 64 taken in turn.
 * Each task also reads nbuffers - 1 more buffers (1 to 16 in all: a Dirac task has 5-7), which the
 * runtime tracks. Runs up to 100 tasks first (untimed), then the ntasks: *r holds the seconds of the
 * submission loop and of the whole run, from submission to the last task's end. Fails if a task ran
 * elsewhere, out of its turn on its buffer, or not at all. One process only; every other task must
 * be finished. The same kernel without the runtime: qf_direct_probe (qf_direct.h). */
typedef struct {
    qf_worker_kind kind;
    int chained;
    int nbuffers;
    long ntasks;
    double wait_us;
} qf_task_probe;
typedef struct {
    double submit_s, total_s;
} qf_task_probe_result;
int qf_runtime_probe_tasks(const qf_task_probe *p, qf_task_probe_result *r);

int qf_runtime_stats_begin(void);
/* Ends the interval; *s (free with qf_runtime_stats_free) holds its statistics. */
int qf_runtime_stats_end(qf_runtime_stats **s);
void qf_runtime_stats_free(qf_runtime_stats *s);
/* A table: a row per worker (kind and number, tasks, busy seconds, idle percentage, and its tasks of
 * every codelet kind that ran in the interval, in columns headed by short labels), a total line per
 * worker kind present and, with several kinds, one for all workers. */
void qf_runtime_stats_print(const qf_runtime_stats *s, FILE *out);
/* Idle time over the interval's time, summed over the workers of a kind (the GPU idle fraction of a
 * solve for QF_WORKER_CUDA); -1 when there is no worker of that kind. */
double qf_runtime_stats_idle_fraction(const qf_runtime_stats *s, qf_worker_kind kind);
/* Tasks over all workers of the codelet named codelet (struct starpu_codelet's name, for example
 * "wilson_gather"), or every task of the interval when codelet is NULL; -1 for a name that is no
 * quarkflow codelet's. */
long qf_runtime_stats_tasks(const qf_runtime_stats *s, const char *codelet);
/* Length of the interval in seconds. */
double qf_runtime_stats_seconds(const qf_runtime_stats *s);
/* Bytes StarPU moved between memory nodes (host and GPUs) in the interval, all buses. */
double qf_runtime_stats_bytes_moved(const qf_runtime_stats *s);
/* Tasks that the workers of a kind executed in the interval. */
long qf_runtime_stats_kind_tasks(const qf_runtime_stats *s, qf_worker_kind kind);
/* Performance-model entries (a codelet's kernel size on a kind of worker) that StarPU was still
 * calibrating during the interval (it records samples only until an entry has
 * STARPU_CALIBRATE_MINIMUM, 10): 0 when the dm* schedulers planned every task with calibrated
 * models. */
int qf_runtime_stats_calibrating(const qf_runtime_stats *s);

#ifdef __cplusplus
}
#endif
#endif
