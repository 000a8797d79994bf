/* The CPU team (cpu_team.h): threads made on first use, asleep on a condition variable between runs;
 * a run publishes (fn, arg, n) under a new generation number and waits until the n - 1 helpers have
 * finished. Runs are serialised, so that two workers' solves never mix their parts. */
#define _GNU_SOURCE
#include "cpu_team.h"

#include <pthread.h>
#include <sched.h>
#include <starpu.h>
#include <stdlib.h>
#include <unistd.h>

static struct {
    pthread_mutex_t lock, run;
    pthread_cond_t go, done;
    int nthreads;       /* helpers made so far: k = 1 .. nthreads */
    unsigned generation;
    qf_cpu_team_fn fn;
    void *arg;
    int n, pending;
} team = {.lock = PTHREAD_MUTEX_INITIALIZER,
           .run = PTHREAD_MUTEX_INITIALIZER,
           .go = PTHREAD_COND_INITIALIZER,
           .done = PTHREAD_COND_INITIALIZER};

int qf_cpu_team_size(void)
{
    const char *e = getenv("QF_CPU_TEAM");
    int n = e && *e ? atoi(e) : (int)starpu_cpu_worker_get_count();
    return n < 1 ? 1 : n > QF_CPU_TEAM_MAX ? QF_CPU_TEAM_MAX : n;
}

static void *helper(void *p)
{
    int k = (int)(intptr_t)p;
    /* made by a worker bound to one core: free to run on every core instead */
    cpu_set_t all;
    CPU_ZERO(&all);
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < ncores && c < CPU_SETSIZE; c++) CPU_SET(c, &all);
    pthread_setaffinity_np(pthread_self(), sizeof all, &all);
    pthread_mutex_lock(&team.lock);
    unsigned seen = team.generation - 1; /* made by the run of this generation: take part in it */
    for (;;) {
        while (team.generation == seen) pthread_cond_wait(&team.go, &team.lock);
        seen = team.generation;
        if (k >= team.n) continue;
        qf_cpu_team_fn fn = team.fn;
        void *arg = team.arg;
        int n = team.n;
        pthread_mutex_unlock(&team.lock);
        fn(arg, k, n);
        pthread_mutex_lock(&team.lock);
        if (--team.pending == 0) pthread_cond_signal(&team.done);
    }
    return NULL;
}

void qf_cpu_team_run(qf_cpu_team_fn fn, void *arg)
{
    int n = qf_cpu_team_size();
    pthread_mutex_lock(&team.run);
    pthread_mutex_lock(&team.lock);
    while (team.nthreads < n - 1) { /* a helper that cannot be made leaves its share to fewer threads */
        pthread_t t;
        if (pthread_create(&t, NULL, helper, (void *)(intptr_t)(team.nthreads + 1))) break;
        pthread_detach(t);
        team.nthreads++;
    }
    if (n > team.nthreads + 1) n = team.nthreads + 1;
    team.fn = fn;
    team.arg = arg;
    team.n = n;
    team.pending = n - 1;
    team.generation++;
    pthread_cond_broadcast(&team.go);
    pthread_mutex_unlock(&team.lock);
    fn(arg, 0, n);
    pthread_mutex_lock(&team.lock);
    while (team.pending > 0) pthread_cond_wait(&team.done, &team.lock);
    pthread_mutex_unlock(&team.lock);
    pthread_mutex_unlock(&team.run);
}

int qf_cpu_team_shares(const qf_lattice *lat)
{
    return lat && lat->nlocal_blocks == 1 && starpu_cuda_worker_get_count() == 0;
}

typedef struct {
    qf_cpu_range_fn fn;
    void *arg;
    int64_t count;
} range_job;

static void range_part(void *arg, int k, int n)
{
    const range_job *j = arg;
    int64_t first, end;
    qf_cpu_team_share(j->count, k, n, &first, &end);
    if (first < end) j->fn(j->arg, first, end);
}

void qf_cpu_team_range(int share, int64_t count, qf_cpu_range_fn fn, void *arg)
{
    if (!share) {
        fn(arg, 0, count);
        return;
    }
    range_job j = {fn, arg, count};
    qf_cpu_team_run(range_part, &j);
}
