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
    const char *sched; /* scheduling policy; NULL: STARPU_SCHED or StarPU's default */
    int ncpu;          /* CPU workers; -1: STARPU_NCPU or all cores */
    int ncuda;         /* CUDA workers; -1: STARPU_NCUDA or all devices */
    const char *trace_dir; /* record an FxT trace into this folder; NULL: no trace */
} qf_runtime_options;

/* Defaults: everything from the environment. */
qf_runtime_options qf_runtime_default_options(void);

/* Starts MPI (MPI_THREAD_SERIALIZED, when built with it) and StarPU. argc/argv may be NULL. */
int qf_runtime_init(const qf_runtime_options *opt, int *argc, char ***argv);
void qf_runtime_shutdown(void);
int qf_runtime_rank(void);
int qf_runtime_nprocs(void);

/* Number of CPU and CUDA workers StarPU started. */
int qf_runtime_ncpu_workers(void);
int qf_runtime_ncuda_workers(void);
const char *qf_runtime_sched_name(void);

/* Prints workers, memory nodes and the hwloc topology as StarPU sees them. */
void qf_runtime_print_machine(FILE *out);
/* Prints the build configuration: version, StarPU, CUDA, MPI, FxT. */
void qf_runtime_print_build(FILE *out);

/* Wall-clock seconds from an arbitrary origin (StarPU's clock). */
double qf_wtime(void);

/* Waits for every submitted task. */
void qf_runtime_wait_all(void);

/* Stops the workers from polling for tasks (StarPU's workers otherwise spin on their cores while
 * idle), so that the host can use every core itself, for example to time kernels without the
 * runtime; tasks submitted meanwhile wait for qf_runtime_resume. Call after qf_runtime_wait_all. */
void qf_runtime_pause(void);
void qf_runtime_resume(void);

/* For code that runs beside the runtime on the same cores (benchmarks of the kernels without it):
 * the core of CPU worker k (-1 when StarPU binds nothing), binding the calling thread to a core, and
 * the CUDA device of the first CUDA worker (-1 when there is none). */
int qf_runtime_cpu_worker_core(int k);
void qf_runtime_bind_thread(int core, const char *name);
int qf_runtime_cuda_device(void);

#ifdef __cplusplus
}
#endif
#endif
