/* The CPU team (cpu_team.h): threads made on first use, asleep on a condition variable between runs;
 * a run publishes (fn, arg, n) and the cores of the helpers under a new generation number and waits
 * until the n - 1 helpers have finished. Runs are serialised, so that two workers' solves never mix
 * their parts. */
#define _GNU_SOURCE
#include "cpu_team.h"

#include <pthread.h>
#include <sched.h>
#include <starpu.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static struct {
    pthread_mutex_t lock, run;
    pthread_cond_t go, done;
    int nthreads; /* helpers made so far: k = 1 .. nthreads */
    unsigned generation;
    qf_cpu_team_fn fn;
    void *arg;
    int n, pending;
    int core[QF_CPU_TEAM_MAX]; /* the OS index of the core helper k runs on in this run; -1: any core */
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

static void bind_to(int core)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (core >= 0 && core < CPU_SETSIZE)
        CPU_SET(core, &set);
    else
        for (long c = 0, n = sysconf(_SC_NPROCESSORS_ONLN); c < n && c < CPU_SETSIZE; c++) CPU_SET(c, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* The helpers' cores for a run of n called from the current worker: helper k on the core of the k-th
 * other CPU worker, whose thread sleeps while the caller runs the task (one block a process) or runs
 * tasks of its own beside the team (the coarsest multigrid solve). Left to the system, the helpers
 * woke up to twice as late on the H200 node (bench/RESULTS.md, "A team bound to the workers' cores");
 * helpers beyond the workers run anywhere. */
static void place_helpers(int n)
{
    int ids[STARPU_NMAXWORKERS], nw = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids, STARPU_NMAXWORKERS);
    int me = starpu_worker_get_id();
    for (int k = 1, i = 0; k < n; k++) {
        while (i < nw && ids[i] == me) i++;
        int bind = i < nw ? starpu_worker_get_bindid(ids[i++]) : -1;
        team.core[k] = bind >= 0 ? starpu_get_pu_os_index((unsigned)bind) : -1;
    }
}

static void *helper(void *p)
{
    int k = (int)(intptr_t)p, bound = -2;
    pthread_mutex_lock(&team.lock);
    unsigned seen = team.generation - 1; /* made by the run of this generation: take part in it */
    for (;;) {
        while (team.generation == seen) pthread_cond_wait(&team.go, &team.lock);
        seen = team.generation;
        if (k >= team.n) continue;
        qf_cpu_team_fn fn = team.fn;
        void *arg = team.arg;
        int n = team.n, core = team.core[k];
        pthread_mutex_unlock(&team.lock);
        if (core != bound) bind_to(bound = core);
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
    place_helpers(n);
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
    atomic_int next; /* the next chunk to take */
} range_job;

static void range_part(void *arg, int k, int n)
{
    (void)k;
    range_job *j = arg;
    int chunks = QF_CPU_TEAM_CHUNKS * n;
    for (int c; (c = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed)) < chunks;) {
        int64_t first = j->count * c / chunks, end = j->count * (c + 1) / chunks;
        if (first < end) j->fn(j->arg, first, end);
    }
}

void qf_cpu_team_range(int share, int64_t count, qf_cpu_range_fn fn, void *arg)
{
    if (!share) {
        fn(arg, 0, count);
        return;
    }
    range_job j = {fn, arg, count, 0};
    qf_cpu_team_run(range_part, &j);
}
