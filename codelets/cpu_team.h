/* A team of threads for a CPU codelet that runs one long task over several cores: the coarsest
 * multigrid solve (mg_coarse_solve), a serial step of the K-cycle during which the other CPU workers
 * have nothing to run, and every task of a lattice of one block a process on CPUs alone
 * (qf_cpu_team_shares), which is then all of the process's work. StarPU 1.3 gives parallel tasks only
 * to the pheft and peager policies, so the task spreads its own loops: qf_cpu_team_run(fn, arg) runs fn(arg, k, n) for k = 0 .. n-1, k = 0 on
 * the calling worker and the others on the team's threads, and returns when all have. The threads
 * sleep between runs; each runs on the core of another CPU worker; n is qf_cpu_team_size(): QF_CPU_TEAM
 * (1 to 64) or the number of CPU workers. */
#ifndef QF_CPU_TEAM_H
#define QF_CPU_TEAM_H

#include "quarkflow/qf_lattice.h"

#include <stdint.h>

#define QF_CPU_TEAM_MAX 64

typedef void (*qf_cpu_team_fn)(void *arg, int k, int n);

int qf_cpu_team_size(void);
void qf_cpu_team_run(qf_cpu_team_fn fn, void *arg);

/* Whether a task on one of lat's blocks is all of its process's CPU work while it runs, so that it
 * should share its loops among the team: one block a process and no CUDA workers (with them the team's
 * threads would take the cores of the GPU worker threads). Decided at insert, kept in the task's
 * arguments. */
int qf_cpu_team_shares(const qf_lattice *lat);

/* Reals below which a streaming task (a copy, an update) stays on its worker: a team run costs a few
 * microseconds to wake the threads, a part of a smaller task too little to pay for it. */
#define QF_CPU_TEAM_MIN_REALS (1 << 15)

/* A codelet's loop over the units [first, end) of its task: sites, aggregates, records. */
typedef void (*qf_cpu_range_fn)(void *arg, int64_t first, int64_t end);

/* Chunks a team thread of qf_cpu_team_range takes on average: the threads take the next chunk as they
 * finish one, so that a thread slowed down (a core shared with the system, a late wake-up) holds the
 * others up by one chunk at most instead of a whole part. */
#define QF_CPU_TEAM_CHUNKS 16

/* fn over [0, count): in contiguous chunks taken in turn by the team's threads where share, else in one
 * call on the worker. Each unit's results must be written by its chunk alone; a sum over units goes in
 * fixed chunks added in order (plaquette.c), so that it depends neither on the team's size nor on
 * which thread ran what. */
void qf_cpu_team_range(int share, int64_t count, qf_cpu_range_fn fn, void *arg);

#endif
