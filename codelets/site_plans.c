/* The plans of the CPU Wilson loops (site_plans.h): a list that only grows, read without a lock (an
 * entry is complete before it is published) and added to under one. It is never freed: a kernel may
 * still run on another thread while the process exits (a watchdog's or an error's exit), and the
 * list stays reachable, so leak checkers do not count it. */
#include "site_plans.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct plan_entry {
    struct plan_entry *next;
    qf_sites_key key;
    int lanes; /* the batch kind: 8 (f8) or 4 (d4) */
    int64_t n;
    void *batches;
} plan_entry;

static plan_entry *plans;
static pthread_mutex_t plans_lock = PTHREAD_MUTEX_INITIALIZER;

static const plan_entry *find(const qf_sites_key *key, int lanes)
{
    for (const plan_entry *e = __atomic_load_n(&plans, __ATOMIC_ACQUIRE); e; e = e->next)
        if (e->lanes == lanes && !memcmp(&e->key, key, sizeof *key)) return e;
    return NULL;
}

typedef int64_t (*fill_fn)(void *plan, int64_t max, const qf_sites_key *key);

static const void *plan_of(const qf_sites_key *key, int lanes, size_t batch_bytes, fill_fn fill, int64_t *n)
{
    const plan_entry *found = find(key, lanes);
    if (!found) {
        pthread_mutex_lock(&plans_lock);
        if (!(found = find(key, lanes))) {
            plan_entry *e = calloc(1, sizeof *e);
            int64_t count = fill(NULL, 0, key);
            if (e) e->batches = malloc(count > 0 ? (size_t)count * batch_bytes : 1);
            if (!e || !e->batches) {
                fprintf(stderr, "quarkflow: out of host memory for the site geometry of a CPU Wilson kernel (%lld "
                                "batches of %zu bytes): give the process more memory or use fewer, larger blocks\n",
                        (long long)count, batch_bytes);
                abort();
            }
            e->key = *key;
            e->lanes = lanes;
            e->n = fill(e->batches, count, key);
            e->next = plans;
            __atomic_store_n(&plans, e, __ATOMIC_RELEASE);
            found = e;
        }
        pthread_mutex_unlock(&plans_lock);
    }
    *n = found->n;
    return found->batches;
}

static int64_t fill_f8(void *plan, int64_t max, const qf_sites_key *key) { return qf_sites_plan_fill_f8(plan, max, key); }
static int64_t fill_d4(void *plan, int64_t max, const qf_sites_key *key) { return qf_sites_plan_fill_d4(plan, max, key); }

qf_sites_plan qf_sites_plan_of(const qf_sites_key *key, qf_precision prec)
{
    qf_sites_plan p = {0};
    if (prec == QF_SINGLE || prec == QF_HALF) p.f8 = plan_of(key, 8, sizeof(qf_sites_f8), fill_f8, &p.n);
    else p.d4 = plan_of(key, 4, sizeof(qf_sites_d4), fill_d4, &p.n);
    return p;
}
