/* Per-worker statistics of an interval (qf_runtime.h): StarPU's worker profiling (tasks, executing
 * time, total time) switched on for the interval only, and the tasks of each quarkflow codelet per
 * worker from the counters StarPU keeps in every codelet (per_worker_stats, counted whether profiling
 * is on or not, so the interval's counts are differences against a snapshot taken at the begin).
 * The codelets come from their one table (runtime/codelet_table.h, which codelets/registry.c fills):
 * the runtime reads their counters only, it submits nothing. */
#include "quarkflow/qf_runtime.h"
#include "codelet_table.h"

#include <starpu.h>
#include <starpu_profiling.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
    int kind;             /* qf_worker_kind, or -1 for a worker of another type */
    char name[32];        /* "CPU 3", "CUDA 0" */
    long tasks;
    double total, busy;   /* seconds */
} worker_stats;

struct qf_runtime_stats {
    int nworkers, ncodelets;
    double seconds;
    double bytes_moved;   /* over every bus between memory nodes */
    int calibrating;      /* performance-model entries StarPU was still calibrating */
    worker_stats *w;      /* [nworkers] */
    unsigned long *count; /* [worker * ncodelets + codelet]: tasks of the interval */
};

/* A history entry of a performance model (one kernel size on one kind of worker) and its samples. */
typedef struct {
    const struct starpu_perfmodel_history_entry *entry;
    unsigned nsample;
} model_sample;

static struct {
    int active, prev_status;
    double t0;            /* seconds, StarPU's clock */
    int nworkers;
    unsigned long *base;  /* per_worker_stats at the begin, laid out as qf_runtime_stats.count */
    model_sample *samples; /* the history entries at the begin */
    int nsamples;
} interval;

/* Calls fn on every history entry of the codelets' history-based models for every worker's arch. */
static void each_history_entry(void (*fn)(const struct starpu_perfmodel_history_entry *, void *), void *arg)
{
    int nw = (int)starpu_worker_get_count();
    for (int c = 0; c < qf_codelet_count(); c++) {
        struct starpu_perfmodel *m = qf_codelet_at(c)->cl->model;
        if (!m || m->type != STARPU_HISTORY_BASED || !m->is_loaded || !m->state) continue; /* not used yet */
        for (int w = 0; w < nw; w++) {
            struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
            struct starpu_perfmodel_per_arch *pa = arch ? starpu_perfmodel_get_model_per_arch(m, arch, 0) : NULL;
            for (struct starpu_perfmodel_history_list *l = pa ? pa->list : NULL; l; l = l->next)
                if (l->entry) fn(l->entry, arg);
        }
    }
}

static void snapshot_entry(const struct starpu_perfmodel_history_entry *e, void *arg)
{
    int *cap = arg;
    for (int k = 0; k < interval.nsamples; k++)
        if (interval.samples[k].entry == e) return; /* an arch shared by several workers */
    if (interval.nsamples == *cap) {
        int n = *cap ? 2 * *cap : 256;
        model_sample *p = realloc(interval.samples, (size_t)n * sizeof *p);
        if (!p) return; /* fewer entries watched: the count below can only be lower */
        interval.samples = p;
        *cap = n;
    }
    interval.samples[interval.nsamples++] = (model_sample){e, e->nsample};
}

/* An entry that appeared, or gained samples while it had fewer than StarPU's calibration minimum,
 * was being calibrated while the interval's tasks were scheduled (the dm* policies keep adding
 * samples to calibrated entries too, so gaining samples alone says nothing). */
static void count_calibrating(const struct starpu_perfmodel_history_entry *e, void *arg)
{
    int *n = arg;
    const char *env = getenv("STARPU_CALIBRATE_MINIMUM");
    unsigned minimum = env ? (unsigned)atoi(env) : 10;
    for (int k = 0; k < interval.nsamples; k++)
        if (interval.samples[k].entry == e) {
            *n += e->nsample > interval.samples[k].nsample && interval.samples[k].nsample < minimum;
            return;
        }
    (*n)++;
}

static double seconds_of(const struct timespec *t) { return (double)t->tv_sec + 1e-9 * (double)t->tv_nsec; }

int qf_runtime_stats_begin(void)
{
    if (interval.active)
        return qf_fail("qf_runtime_stats_begin: an interval is already open; end it with qf_runtime_stats_end first");
    int nw = (int)starpu_worker_get_count(), nc = qf_codelet_count();
    interval.base = malloc((size_t)nw * (size_t)nc * sizeof *interval.base);
    if (!interval.base) return qf_fail("out of host memory for the task counters of %d workers", nw);
    /* the interval holds the tasks submitted from here on, and none that were already running */
    qf_runtime_wait_all();
    interval.nworkers = nw;
    int cap = 0;
    interval.nsamples = 0;
    each_history_entry(snapshot_entry, &cap);
    for (int w = 0; w < nw; w++)
        for (int c = 0; c < nc; c++) interval.base[w * nc + c] = qf_codelet_at(c)->cl->per_worker_stats[w];
    /* enabling resets every worker's profiling counters: the interval starts now for all of them */
    interval.prev_status = starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    interval.t0 = starpu_timing_now() * 1e-6;
    interval.active = 1;
    return QF_SUCCESS;
}

int qf_runtime_stats_end(qf_runtime_stats **out)
{
    *out = NULL;
    if (!interval.active) return qf_fail("qf_runtime_stats_end without qf_runtime_stats_begin");
    qf_runtime_wait_all();
    int nw = interval.nworkers, nc = qf_codelet_count();
    qf_runtime_stats *s = calloc(1, sizeof *s);
    int rc = QF_SUCCESS;
    if (s) {
        s->nworkers = nw;
        s->ncodelets = nc;
        s->w = calloc((size_t)nw, sizeof *s->w);
        s->count = calloc((size_t)nw * (size_t)nc, sizeof *s->count);
    }
    if (!s || !s->w || !s->count) {
        rc = qf_fail("out of host memory for the statistics of %d workers", nw);
    } else {
        s->seconds = starpu_timing_now() * 1e-6 - interval.t0;
        int ncpu = 0;
        for (int w = 0; w < nw; w++) {
            worker_stats *ws = &s->w[w];
            struct starpu_profiling_worker_info info;
            starpu_profiling_worker_get_info(w, &info);
            ws->tasks = info.executed_tasks;
            ws->total = seconds_of(&info.total_time);
            ws->busy = seconds_of(&info.executing_time);
            enum starpu_worker_archtype type = starpu_worker_get_type(w);
            ws->kind = type == STARPU_CPU_WORKER ? QF_WORKER_CPU : type == STARPU_CUDA_WORKER ? QF_WORKER_CUDA : -1;
            if (ws->kind == QF_WORKER_CPU) snprintf(ws->name, sizeof ws->name, "CPU %d", ncpu++);
            else if (ws->kind == QF_WORKER_CUDA) snprintf(ws->name, sizeof ws->name, "CUDA %d", starpu_worker_get_devid(w));
            else snprintf(ws->name, sizeof ws->name, "worker %d", w);
            for (int c = 0; c < nc; c++)
                s->count[w * nc + c] = qf_codelet_at(c)->cl->per_worker_stats[w] - interval.base[w * nc + c];
        }
        each_history_entry(count_calibrating, &s->calibrating);
        /* StarPU counts transfers while profiling is on, from the begin (which reset the counters) */
        for (int bus = 0; bus < starpu_bus_get_count(); bus++) {
            struct starpu_profiling_bus_info info;
            if (starpu_bus_get_profiling_info(bus, &info) == 0) s->bytes_moved += (double)info.transferred_bytes;
        }
    }
    starpu_profiling_status_set(interval.prev_status);
    free(interval.base);
    interval.base = NULL;
    free(interval.samples);
    interval.samples = NULL;
    interval.active = 0;
    if (rc) {
        qf_runtime_stats_free(s);
        return rc;
    }
    *out = s;
    return QF_SUCCESS;
}

void qf_runtime_stats_free(qf_runtime_stats *s)
{
    if (!s) return;
    free(s->w);
    free(s->count);
    free(s);
}

double qf_runtime_stats_seconds(const qf_runtime_stats *s) { return s->seconds; }
double qf_runtime_stats_bytes_moved(const qf_runtime_stats *s) { return s->bytes_moved; }
int qf_runtime_stats_calibrating(const qf_runtime_stats *s) { return s->calibrating; }

long qf_runtime_stats_kind_tasks(const qf_runtime_stats *s, qf_worker_kind kind)
{
    long n = 0;
    for (int w = 0; w < s->nworkers; w++)
        if (s->w[w].kind == (int)kind) n += s->w[w].tasks;
    return n;
}

double qf_runtime_stats_idle_fraction(const qf_runtime_stats *s, qf_worker_kind kind)
{
    double total = 0.0, busy = 0.0;
    for (int w = 0; w < s->nworkers; w++)
        if (s->w[w].kind == (int)kind) {
            total += s->w[w].total;
            busy += s->w[w].busy;
        }
    return total > 0.0 ? (total - busy) / total : -1.0;
}

long qf_runtime_stats_tasks(const qf_runtime_stats *s, const char *codelet)
{
    long n = 0;
    if (!codelet) {
        for (int w = 0; w < s->nworkers; w++) n += s->w[w].tasks;
        return n;
    }
    for (int c = 0; c < s->ncodelets; c++)
        if (qf_codelet_at(c)->cl->name && !strcmp(qf_codelet_at(c)->cl->name, codelet)) {
            for (int w = 0; w < s->nworkers; w++) n += (long)s->count[w * s->ncodelets + c];
            return n;
        }
    return -1;
}

/* One row: the workers from first to last of the kind (-2: any), summed. */
static void print_row(const qf_runtime_stats *s, FILE *out, const char *label, int first, int last, int kind,
                      const int *width)
{
    long tasks = 0;
    double total = 0.0, busy = 0.0;
    for (int w = first; w <= last; w++)
        if (kind == -2 || s->w[w].kind == kind) {
            tasks += s->w[w].tasks;
            total += s->w[w].total;
            busy += s->w[w].busy;
        }
    fprintf(out, "  %-9s %9ld %8.3f %7.1f", label, tasks, busy, total > 0.0 ? 100.0 * (total - busy) / total : 0.0);
    for (int c = 0; c < s->ncodelets; c++) {
        if (!width[c]) continue;
        unsigned long n = 0;
        for (int w = first; w <= last; w++)
            if (kind == -2 || s->w[w].kind == kind) n += s->count[w * s->ncodelets + c];
        fprintf(out, " %*lu", width[c], n);
    }
    fputc('\n', out);
}

void qf_runtime_stats_print(const qf_runtime_stats *s, FILE *out)
{
    int nc = s->ncodelets, ncpu = 0, ncuda = 0;
    int *width = calloc((size_t)nc, sizeof *width);
    if (!width) {
        fprintf(out, "workers       (no memory to print the statistics)\n");
        return;
    }
    /* a column for each codelet kind that ran, wide enough for its label and its total */
    for (int c = 0; c < nc; c++) {
        unsigned long total = 0;
        for (int w = 0; w < s->nworkers; w++) total += s->count[w * nc + c];
        if (!total) continue;
        char digits[32];
        int nd = snprintf(digits, sizeof digits, "%lu", total);
        int nl = (int)strlen(qf_codelet_at(c)->label);
        width[c] = nd > nl ? nd : nl;
    }
    for (int w = 0; w < s->nworkers; w++) {
        ncpu += s->w[w].kind == QF_WORKER_CPU;
        ncuda += s->w[w].kind == QF_WORKER_CUDA;
    }
    fprintf(out, "workers       %d CPU + %d CUDA over %.3f s; busy: running codelets, idle: the rest; tasks of "
                 "each codelet kind\n",
            ncpu, ncuda, s->seconds);
    fprintf(out, "  %-9s %9s %8s %7s", "worker", "tasks", "busy s", "idle %");
    for (int c = 0; c < nc; c++)
        if (width[c]) fprintf(out, " %*s", width[c], qf_codelet_at(c)->label);
    fputc('\n', out);
    for (int w = 0; w < s->nworkers; w++) print_row(s, out, s->w[w].name, w, w, -2, width);
    int kinds = (ncpu > 0) + (ncuda > 0) + (ncpu + ncuda < s->nworkers);
    if (kinds > 1) {
        if (ncpu) print_row(s, out, "all CPU", 0, s->nworkers - 1, QF_WORKER_CPU, width);
        if (ncuda) print_row(s, out, "all CUDA", 0, s->nworkers - 1, QF_WORKER_CUDA, width);
    }
    print_row(s, out, "all", 0, s->nworkers - 1, -2, width);
    free(width);
}
