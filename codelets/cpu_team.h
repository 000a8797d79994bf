/* A team of threads for a CPU codelet that runs one long task over several cores: the coarsest
 * multigrid solve (mg_coarse_solve), a serial step of the K-cycle during which the other CPU workers
 * have nothing to run. StarPU 1.3 gives parallel tasks only to the pheft and peager policies, so the
 * task spreads its own loops: qf_cpu_team_run(fn, arg) runs fn(arg, k, n) for k = 0 .. n-1, k = 0 on
 * the calling worker and the others on the team's threads, and returns when all have. The threads
 * sleep between runs and may run on any core (not on the calling worker's binding); n is
 * qf_cpu_team_size(): QF_CPU_TEAM (1 to 64) or the number of CPU workers. */
#ifndef QF_CPU_TEAM_H
#define QF_CPU_TEAM_H

#include <stdint.h>

#define QF_CPU_TEAM_MAX 64

typedef void (*qf_cpu_team_fn)(void *arg, int k, int n);

int qf_cpu_team_size(void);
void qf_cpu_team_run(qf_cpu_team_fn fn, void *arg);

/* Part k of n of the range [0, count): [*first, *end). */
static inline void qf_cpu_team_share(int64_t count, int k, int n, int64_t *first, int64_t *end)
{
    *first = count * k / n;
    *end = count * (k + 1) / n;
}

#endif
