/* Traces (app.h): the post-processing of --trace DIR (starpu_fxt_tool turns the FxT records into
 * paje.trace for ViTE, dag.dot and tasks.rec, then a summary is written beside them), the summary of
 * a tasks.rec that `quarkflow trace summary` prints: time per task name and per worker, each worker's
 * idle share of the traced span, the critical path through the task dependencies with the tasks'
 * durations (a lower bound on the span with unlimited workers), and from the paje.trace beside it the
 * share of the communication (transfers between memory nodes, MPI messages) hidden behind
 * computation; each worker's waits (`quarkflow trace gaps`); the Gantt chart of `quarkflow trace
 * gantt`; and from the paje.trace the runtime's
 * states and transfers of `quarkflow trace states`. Support of the command line, since
 * every command's --trace ends here (qf_app_stop). A trace may come from anywhere: its numbers are
 * bounds-checked and its names never reach a gnuplot script unsanitised. */
#include "app.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    long job;
    char name[64];   /* the task's name (tasks/: "interior:D_eo:double", "dot") */
    char model[64];  /* its codelet's performance model, one per codelet ("qf_wilson_interior") */
    int worker, rank;    /* worker: a row over all processes' workers (worker_rows); wid: StarPU's id */
    int wid;
    double start, end;   /* ms */
    double submit;       /* ms; -1 where the record has none */
    long *deps;
    int ndeps;
} trace_task;

typedef struct {
    trace_task *t;
    int n, cap;
} trace_tasks;

static void tasks_free(trace_tasks *ts)
{
    for (int i = 0; i < ts->n; i++) free(ts->t[i].deps);
    free(ts->t);
}

/* Bounds on the numbers of a trace, far beyond any real run, so that a damaged or hostile file is
 * refused with a message instead of overflowing an index or allocating gigabytes: StarPU numbers at
 * most STARPU_NMAXWORKERS workers a process (80 unless configured otherwise), job ids pack the rank
 * above 40 bits (job_id), a summary has a row per worker of every process, 1e12 ms are 30 years and
 * 1e18 bytes an exabyte. */
#define TRACE_MAX_WORKER 4095L
#define TRACE_MAX_RANK ((1L << 20) - 1)
#define TRACE_MAX_JOB ((1L << 40) - 1)
#define TRACE_MAX_ROWS (1 << 20)
#define TRACE_MAX_MS 1e12
#define TRACE_MAX_BYTES 1e18

/* Where a number of a trace file was read: its errors name the file, the line and the field. */
typedef struct {
    const char *path;
    long line;
} trace_place;

static int trace_damaged(const trace_place *at, const char *field, const char *text, const char *range)
{
    return qf_fail("%s:%ld: %s '%.40s' is not %s: the file is damaged or not written by starpu_fxt_tool (convert the "
                   "trace's prof_file_* again with starpu_fxt_tool)",
                   at->path, at->line, field, text, range);
}

/* The whole of text (blanks around it allowed) as an integer in [min, max]: 0, or 1 for anything else. */
static int parse_long(const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(text, &end, 10);
    while (end != text && isspace((unsigned char)*end)) end++;
    if (end == text || *end || errno || x < min || x > max) return 1;
    *out = x;
    return 0;
}

static int trace_long(const trace_place *at, const char *field, const char *text, long min, long max, long *out)
{
    char range[64];
    snprintf(range, sizeof range, "a whole number from %ld to %ld", min, max);
    return parse_long(text, min, max, out) ? trace_damaged(at, field, text, range) : QF_SUCCESS;
}

/* The whole of text as a finite number in [0, max]: NaN, infinities and negative times or sizes
 * would make every sum of a summary meaningless. */
static int trace_double(const trace_place *at, const char *field, const char *text, double max, double *out)
{
    char *end, range[64];
    double x = strtod(text, &end);
    while (end != text && isspace((unsigned char)*end)) end++;
    if (end == text || *end || !isfinite(x) || x < 0.0 || x > max) {
        snprintf(range, sizeof range, "a number from 0 to %g", max);
        return trace_damaged(at, field, text, range);
    }
    *out = x;
    return QF_SUCCESS;
}

/* The rank of a name "R_REST" that StarPU built with MPI writes (0 for a name without '_'), and
 * REST: 0, or 1 when R is not a rank. */
static int rank_prefix(const char *text, long *rank, const char **rest)
{
    const char *u = strchr(text, '_');
    char prefix[32];
    *rank = 0;
    *rest = u ? u + 1 : text;
    if (!u) return 0;
    snprintf(prefix, sizeof prefix, "%.*s", (int)(u - text < 31 ? u - text : 31), text);
    return parse_long(prefix, 0, TRACE_MAX_RANK, rank);
}

/* A job id of tasks.rec: "N", or "R_N" from a StarPU built with MPI (rank R); dependencies never
 * cross processes, so the pair makes one key. */
static int job_id(const trace_place *at, const char *field, const char *text, long *out)
{
    const char *rest;
    long r, n;
    if (rank_prefix(text, &r, &rest) || parse_long(rest, 0, TRACE_MAX_JOB, &n)) {
        char what[96];
        snprintf(what, sizeof what, "a job id N or R_N (rank R from 0 to %ld, N from 0 to %ld)", TRACE_MAX_RANK, TRACE_MAX_JOB);
        return trace_damaged(at, field, text, what);
    }
    *out = (r << 40) + n;
    return QF_SUCCESS;
}

/* Every process numbers its workers from 0: rows number them over the processes, rank by rank. */
static int worker_rows(const char *path, trace_tasks *ts)
{
    int maxrank = 0;
    for (int i = 0; i < ts->n; i++) maxrank = ts->t[i].rank > maxrank ? ts->t[i].rank : maxrank;
    int *first = calloc((size_t)maxrank + 2, sizeof *first);
    if (!first) return qf_fail("out of host memory numbering the workers of %s", path);
    for (int i = 0; i < ts->n; i++)
        if (ts->t[i].wid + 1 > first[ts->t[i].rank + 1]) first[ts->t[i].rank + 1] = ts->t[i].wid + 1;
    for (int r = 1; r <= maxrank + 1; r++) {
        first[r] += first[r - 1];
        if (first[r] > TRACE_MAX_ROWS) {
            free(first);
            return qf_fail("%s: the workers of ranks 0 to %d make more than %d rows: the file is damaged or not "
                           "written by starpu_fxt_tool",
                           path, r - 1, TRACE_MAX_ROWS);
        }
    }
    for (int i = 0; i < ts->n; i++) ts->t[i].worker = first[ts->t[i].rank] + ts->t[i].wid;
    free(first);
    return QF_SUCCESS;
}

/* The array a of n elements of elem bytes (capacity *cap, doubled as needed) with room for one more:
 * the tasks and the links of a trace; NULL, a message set and a unchanged, when memory or the count
 * runs out. */
static void *grow(void *a, int n, int *cap, size_t elem, const char *path, const char *what)
{
    if (n < *cap) return a;
    if (*cap > INT_MAX / 2) {
        qf_fail("%s holds more than %d %s: summarise a shorter trace", path, *cap, what);
        return NULL;
    }
    int more = *cap ? 2 * *cap : 1024;
    void *p = realloc(a, (size_t)more * elem);
    if (!p) qf_fail("out of host memory reading %s", path);
    else *cap = more;
    return p;
}

/* Appends task to ts. */
static int push_task(const char *path, trace_tasks *ts, const trace_task *task)
{
    trace_task *t = grow(ts->t, ts->n, &ts->cap, sizeof *t, path, "tasks");
    if (!t) return QF_ERROR;
    ts->t = t;
    ts->t[ts->n++] = *task;
    return QF_SUCCESS;
}

/* Reads the executed tasks of a tasks.rec (records of "Key: value" lines, blank-line separated),
 * every number checked against the bounds above. */
static int tasks_read(const char *path, trace_tasks *ts)
{
    FILE *f = fopen(path, "r");
    if (!f) return qf_fail("cannot read %s: give the tasks.rec that starpu_fxt_tool wrote (or its folder)", path);
    memset(ts, 0, sizeof *ts);
    trace_task cur = {.job = -1, .worker = -1, .start = -1, .end = -1, .submit = -1};
    const trace_task fresh = cur;
    trace_place at = {path, 0}, end_at = at;
    char *line = NULL;
    size_t size = 0;
    int rc = QF_SUCCESS, more = 1;
    while (more && !rc) {
        more = getline(&line, &size, f) >= 0;
        at.line++;
        if (!more || line[0] == '\n') {
            if (cur.worker >= 0 && cur.start >= 0 && cur.end >= 0) { /* executed: keep */
                if (cur.end < cur.start)
                    rc = qf_fail("%s:%ld: EndTime %.6f ms is before the task's StartTime %.6f ms: the file is damaged or "
                                 "not written by starpu_fxt_tool",
                                 path, end_at.line, cur.end, cur.start);
                else rc = push_task(path, ts, &cur);
                if (!rc) cur.deps = NULL; /* ts owns them */
            }
            free(cur.deps);
            cur = fresh;
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        char *v = strstr(line, ": ");
        if (!v) continue;
        *v = 0;
        v += 2;
        long x = 0;
        if (!strcmp(line, "Name")) {
            snprintf(cur.name, sizeof cur.name, "%s", v);
        } else if (!strcmp(line, "Model")) {
            snprintf(cur.model, sizeof cur.model, "%s", v);
        } else if (!strcmp(line, "MPIRank")) {
            rc = trace_long(&at, line, v, -1, TRACE_MAX_RANK, &x);
            cur.rank = x < 0 ? 0 : (int)x; /* -1: a run without MPI */
        } else if (!strcmp(line, "JobId")) {
            rc = job_id(&at, line, v, &cur.job);
        } else if (!strcmp(line, "WorkerId")) {
            rc = trace_long(&at, line, v, 0, TRACE_MAX_WORKER, &x);
            cur.worker = cur.wid = (int)x;
        } else if (!strcmp(line, "StartTime")) {
            rc = trace_double(&at, line, v, TRACE_MAX_MS, &cur.start);
        } else if (!strcmp(line, "SubmitTime")) {
            rc = trace_double(&at, line, v, TRACE_MAX_MS, &cur.submit);
        } else if (!strcmp(line, "EndTime")) {
            rc = trace_double(&at, line, v, TRACE_MAX_MS, &cur.end);
            end_at = at;
        } else if (!strcmp(line, "DependsOn")) {
            for (char *tok = strtok(v, " "); tok && !rc; tok = strtok(NULL, " ")) {
                long *d = cur.ndeps < INT_MAX ? realloc(cur.deps, (size_t)(cur.ndeps + 1) * sizeof *d) : NULL;
                if (!d) rc = qf_fail("out of host memory reading %s", path);
                else if (!(rc = job_id(&at, line, tok, &d[cur.ndeps]))) cur.ndeps++;
                if (d) cur.deps = d;
            }
        }
    }
    free(cur.deps);
    free(line);
    fclose(f);
    if (!rc && ts->n == 0)
        rc = qf_fail("%s holds no executed task: was the trace recorded (--trace DIR, STARPU_FXT_TRACE=1)?", path);
    if (!rc) rc = worker_rows(path, ts);
    if (rc) tasks_free(ts);
    return rc;
}

static int by_start(const void *a, const void *b)
{
    double x = ((const trace_task *)a)->start, y = ((const trace_task *)b)->start;
    return (x > y) - (x < y);
}

static int by_job(const void *a, const void *b)
{
    long x = ((const trace_task *)a)->job, y = ((const trace_task *)b)->job;
    return (x > y) - (x < y);
}

/* Longest path through the dependencies, weighting each task by its duration: tasks depend only on
 * tasks submitted before them (smaller job ids), so one pass in job order suffices. */
static double critical_path(trace_task *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, by_job);
    double *finish = calloc((size_t)n, sizeof *finish), best = 0.0;
    if (!finish) return -1.0;
    for (int i = 0; i < n; i++) {
        double ready = 0.0;
        for (int k = 0; k < t[i].ndeps; k++) {
            trace_task key = {.job = t[i].deps[k]};
            trace_task *d = bsearch(&key, t, (size_t)i, sizeof *t, by_job);
            if (d && finish[d - t] > ready) ready = finish[d - t];
        }
        finish[i] = ready + (t[i].end - t[i].start);
        if (finish[i] > best) best = finish[i];
    }
    free(finish);
    return best;
}

typedef struct {
    const char *name;
    long n;
    double total;
} name_sum;

/* Adds ms to name's sum among the *n of names (a new entry where it has none). */
static void name_sum_add(name_sum *names, int *n, const char *name, double ms)
{
    int k = 0;
    while (k < *n && strcmp(names[k].name, name)) k++;
    if (k == *n) names[(*n)++] = (name_sum){name, 0, 0.0};
    names[k].n++;
    names[k].total += ms;
}

/* The entry of the largest total not yet taken, marked taken (its count negated: print -n), or -1. */
static int name_sum_take_largest(name_sum *names, int n)
{
    int k = -1;
    for (int j = 0; j < n; j++)
        if (names[j].n > 0 && (k < 0 || names[j].total > names[k].total)) k = j;
    if (k >= 0) names[k].n = -names[k].n;
    return k;
}

/* The recording windows of a run that used qf_runtime_trace_begin / _end: the start_profiling and
 * stop_profiling events of the trace.rec beside the tasks.rec, in ms; none without them. */
#define MAX_WINDOWS 4096
static int recording_windows(const char *tasks_rec, double win[][2], int *nwin)
{
    *nwin = 0;
    size_t len = strlen(tasks_rec);
    if (len < strlen("tasks.rec") || strcmp(tasks_rec + len - strlen("tasks.rec"), "tasks.rec")) return QF_SUCCESS;
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%.*strace.rec", (int)(len - strlen("tasks.rec")), tasks_rec);
    FILE *f = fopen(path, "r");
    if (!f) return QF_SUCCESS;
    trace_place at = {path, 0};
    char *line = NULL;
    size_t size = 0;
    int n = 0, pending = 0, rc = QF_SUCCESS; /* pending 1: the next S: line starts a window, 2: ends one */
    while (!rc && getline(&line, &size, f) >= 0) {
        at.line++;
        if (!strcmp(line, "N: start_profiling\n")) pending = 1;
        else if (!strcmp(line, "N: stop_profiling\n")) pending = 2;
        else if (pending && !strncmp(line, "S: ", 3)) {
            double t;
            line[strcspn(line, "\n")] = 0;
            rc = trace_double(&at, pending == 1 ? "S (start_profiling)" : "S (stop_profiling)", line + 3, TRACE_MAX_MS, &t);
            if (rc) break;
            if (pending == 1 && n < MAX_WINDOWS) {
                win[n][0] = t, win[n][1] = -1.0;
            } else if (pending == 2 && n < MAX_WINDOWS && win[n][1] < 0.0 && win[n][0] >= 0.0) {
                if (t < win[n][0])
                    rc = qf_fail("%s:%ld: stop_profiling at %.6f ms comes before its start_profiling at %.6f ms: the file "
                                 "is damaged or not written by starpu_fxt_tool",
                                 path, at.line, t, win[n][0]);
                else win[n++][1] = t;
            }
            pending = 0;
        }
    }
    free(line);
    fclose(f);
    *nwin = n;
    return rc;
}

static int in_windows(const trace_task *t, double win[][2], int n)
{
    for (int k = 0; k < n; k++)
        if (t->start >= win[k][0] && t->end <= win[k][1]) return 1;
    return 0;
}

/* ---- communication hidden behind computation ---- */

typedef struct {
    char key[96];  /* container and link key of paje.trace, which pair a link's start and end */
    char kind[8];  /* F fetch, PF prefetch, IF idle fetch (StarPU's link types), MPIL an MPI message */
    char node[32]; /* the container it leaves (a start) or reaches (an end): a memory manager, an MPI one */
    double time;   /* ms */
    int rank;      /* the process that waits for the data */
    int mpi;
    double bytes;
} link_event;

typedef struct {
    link_event *e;
    int n, cap;
} link_events;

static int by_key(const void *a, const void *b) { return strcmp(((const link_event *)a)->key, ((const link_event *)b)->key); }

static int push_link(const char *paje, link_events *l, const link_event *e)
{
    link_event *p = grow(l->e, l->n, &l->cap, sizeof *p, paje, "links");
    if (!p) return QF_ERROR;
    l->e = p;
    l->e[l->n++] = *e;
    return QF_SUCCESS;
}

/* The rank in a paje container name: "1_mpict", "1_p" under MPI; none ("p") in one process. */
static int container_rank(const trace_place *at, const char *c, int *rank)
{
    const char *rest;
    long r;
    if (rank_prefix(c, &r, &rest)) {
        char what[80];
        snprintf(what, sizeof what, "a container NAME, or R_NAME of rank R from 0 to %ld", TRACE_MAX_RANK);
        return trace_damaged(at, "container", c, what);
    }
    *rank = (int)r;
    return QF_SUCCESS;
}

/* A paje.trace line's fields, split at blanks (starpu_fxt_tool mixes tabs and spaces); a field in
 * double quotes (a state's name, a colour) is one field, without its quotes. Returns the count. */
static int paje_fields(char *line, char *field[], int max)
{
    int n = 0;
    char *c = line;
    while (n < max) {
        while (*c && isspace((unsigned char)*c)) c++;
        if (!*c) break;
        int quoted = *c == '"';
        field[n++] = c += quoted;
        while (*c && (quoted ? *c != '"' : !isspace((unsigned char)*c))) c++;
        if (!*c) break;
        *c++ = '\0';
    }
    return n;
}

/* Reads paje's lines, each split into its fields, into visit (ctx; 0 to go on); comments and the event
 * definitions skipped. *found: whether the file opened (a missing one is no error here). */
#define PAJE_MAX_FIELDS 16
typedef int (*paje_visit)(void *ctx, const trace_place *at, char **field, int nf);
static int paje_read(const char *paje, paje_visit visit, void *ctx, int *found)
{
    FILE *f = fopen(paje, "r");
    *found = f != NULL;
    if (!f) return QF_SUCCESS;
    trace_place at = {paje, 0};
    char *line = NULL, *field[PAJE_MAX_FIELDS];
    size_t size = 0;
    int rc = QF_SUCCESS;
    while (!rc && getline(&line, &size, f) >= 0) {
        at.line++;
        if (line[0] == '%' || line[0] == '#') continue;
        int nf = paje_fields(line, field, PAJE_MAX_FIELDS);
        if (nf) rc = visit(ctx, &at, field, nf);
    }
    free(line);
    fclose(f);
    return rc;
}

typedef struct {
    link_events *starts, *ends;
} link_reader;

/* The data links of a paje.trace: start (18, or 23 for MPI messages) and end (19) events of the
 * transfers between memory nodes (types F, PF, IF: fetch, prefetch, idle fetch) and of MPI messages
 * (MPIL); work-stealing links (WSL) are not data. */
static int visit_link(void *ctx, const trace_place *at, char **field, int nf)
{
    const link_reader *l = ctx;
    int start = !strcmp(field[0], "18") || !strcmp(field[0], "23"), end = !strcmp(field[0], "19");
    if (!(start || end) || nf < 7 || !strcmp(field[2], "WSL")) return QF_SUCCESS;
    link_event e = {.mpi = !strcmp(field[2], "MPIL")};
    int rc = trace_double(at, "time", field[1], TRACE_MAX_MS, &e.time) ||
             trace_double(at, "size", field[4], TRACE_MAX_BYTES, &e.bytes) ||
             container_rank(at, e.mpi ? field[5] : field[3], &e.rank);
    if (rc) return QF_ERROR;
    snprintf(e.key, sizeof e.key, "%s/%s", field[3], field[6]);
    snprintf(e.kind, sizeof e.kind, "%s", field[2]);
    snprintf(e.node, sizeof e.node, "%s", field[5]);
    return push_link(at->path, end ? l->ends : l->starts, &e);
}

/* The data links of paje (visit_link); *found: whether there is a paje.trace (none is no error: the
 * summary says communication was not measured). */
static int read_links(const char *paje, link_events *starts, link_events *ends, int *found)
{
    link_reader l = {starts, ends};
    return paje_read(paje, visit_link, &l, found);
}

/* Length of [s, e) covered by the sorted disjoint intervals iv[0..n). */
static double covered(const double (*iv)[2], int n, double s, double e)
{
    int lo = 0, hi = n; /* first interval ending after s */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (iv[mid][1] <= s) lo = mid + 1;
        else hi = mid;
    }
    double c = 0.0;
    for (int k = lo; k < n && iv[k][0] < e; k++) {
        double a = iv[k][0] > s ? iv[k][0] : s, b = iv[k][1] < e ? iv[k][1] : e;
        if (b > a) c += b - a;
    }
    return c;
}

static int by_interval(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return (x > y) - (x < y);
}

/* Prints the transfers and messages of the paje.trace (starts, ends) that end inside the recorded
 * windows, and the share of their time during which some worker of the receiving process ran a
 * task: communication hidden behind computation (QUDA's overlap of halo exchange and interior). */
static void communication_summary(link_events starts, link_events ends, int found, const trace_task *t, int n,
                                  double win[][2], int nwin, FILE *out)
{
    int maxrank = 0;
    for (int i = 0; i < n; i++) maxrank = t[i].rank > maxrank ? t[i].rank : maxrank;
    double (*busy)[2] = malloc((size_t)(n > 0 ? n : 1) * sizeof *busy);
    int *first = calloc((size_t)maxrank + 2, sizeof *first);
    if (!busy || !first || !found) {
        fprintf(out, "communication not measured: %s\n", found ? "out of memory" : "no paje.trace beside the tasks.rec");
        free(busy), free(first);
        return;
    }
    /* each rank's busy time as sorted disjoint intervals: busy[first[r] .. first[r + 1]) */
    int m = 0;
    for (int r = 0; r <= maxrank; r++) {
        first[r] = m;
        int k0 = m;
        for (int i = 0; i < n; i++)
            if (t[i].rank == r) busy[m][0] = t[i].start, busy[m++][1] = t[i].end;
        qsort(busy + k0, (size_t)(m - k0), sizeof *busy, by_interval);
        int kept = k0;
        for (int k = k0; k < m; k++) {
            if (kept > k0 && busy[k][0] <= busy[kept - 1][1]) {
                if (busy[k][1] > busy[kept - 1][1]) busy[kept - 1][1] = busy[k][1];
            } else {
                busy[kept][0] = busy[k][0], busy[kept++][1] = busy[k][1];
            }
        }
        m = kept;
    }
    first[maxrank + 1] = m;
    qsort(starts.e, (size_t)starts.n, sizeof *starts.e, by_key);
    qsort(ends.e, (size_t)ends.n, sizeof *ends.e, by_key);
    double total[2] = {0, 0}, hidden[2] = {0, 0}, bytes[2] = {0, 0};
    long count[2] = {0, 0};
    for (int i = 0, j = 0; i < starts.n && j < ends.n;) {
        int c = strcmp(starts.e[i].key, ends.e[j].key);
        if (c) {
            if (c < 0) i++;
            else j++;
            continue;
        }
        const link_event *s = &starts.e[i++], *e = &ends.e[j++];
        double a = s->time, b = e->time;
        int inside = !nwin;
        for (int k = 0; k < nwin && !inside; k++) inside = b > win[k][0] && b <= win[k][1];
        if (!inside || b < a) continue;
        int r = e->rank <= maxrank ? e->rank : maxrank, kind = s->mpi;
        total[kind] += b - a;
        hidden[kind] += covered((const double (*)[2])(busy + first[r]), first[r + 1] - first[r], a, b);
        bytes[kind] += s->bytes;
        count[kind]++;
    }
    static const char *const what[2] = {"transfers between memory nodes", "MPI messages"};
    if (!count[0] && !count[1])
        fprintf(out, "communication none recorded (one memory node and one process: faces stay in place)\n");
    for (int kind = 0; kind < 2; kind++)
        if (count[kind])
            fprintf(out, "communication %ld %s, %.1f MB, %.3f ms in flight: %.1f%% hidden behind running tasks, %.3f ms exposed\n",
                    count[kind], what[kind], bytes[kind] / 1e6, total[kind],
                    total[kind] > 0 ? 100.0 * hidden[kind] / total[kind] : 100.0, total[kind] - hidden[kind]);
    free(busy), free(first);
}

/* The index of the first task (ts sorted by start) of the window: named window, of codelet window, or
 * of stage window (the name's part before ':', as "c_cycle" of "c_cycle:single"); 0 without a window;
 * -1 with the message set when there is none. */
static int window_start(const trace_tasks *ts, const char *window, const char *tasks_rec)
{
    if (!window) return 0;
    size_t len = strlen(window);
    for (int i = 0; i < ts->n; i++) {
        const trace_task *t = &ts->t[i];
        if (!strcmp(t->name, window) || !strcmp(t->model, window) || (!strncmp(t->name, window, len) && t->name[len] == ':'))
            return i;
    }
    qf_fail("%s has no task named %s, of codelet %s or of stage %s to start the window at", tasks_rec, window, window,
            window);
    return -1;
}

/* The executed tasks of tasks_rec in start order (ts, to free), and the index of the window's first. */
static int tasks_in_window(const char *tasks_rec, const char *window, trace_tasks *ts, int *first)
{
    if (tasks_read(tasks_rec, ts)) return QF_ERROR;
    qsort(ts->t, (size_t)ts->n, sizeof *ts->t, by_start);
    if ((*first = window_start(ts, window, tasks_rec)) >= 0) return QF_SUCCESS;
    tasks_free(ts);
    return QF_ERROR;
}

int qf_app_trace_summary(const char *tasks_rec, const char *window, FILE *out)
{
    trace_tasks ts;
    int first;
    if (tasks_in_window(tasks_rec, window, &ts, &first)) return QF_ERROR;
    trace_task *t = ts.t + first;
    int n = ts.n - first, maxw = 0;
    /* the recorded windows only, where the run marked them (StarPU 1.3 still records some events outside) */
    static double win[MAX_WINDOWS][2];
    int nwin = 0, kept = 0;
    if (!window && recording_windows(tasks_rec, win, &nwin)) {
        tasks_free(&ts);
        return QF_ERROR;
    }
    for (int i = 0; i < n; i++)
        if (!nwin || in_windows(&t[i], win, nwin)) t[kept++] = t[i];
        else free(t[i].deps), t[i].deps = NULL;
    ts.n = first + kept; /* what tasks_free sees */
    n = kept;
    if (n == 0) {
        tasks_free(&ts);
        return qf_fail("%s: no task inside the recorded windows", tasks_rec);
    }
    /* the paje.trace beside it, read before anything is printed: a damaged one stops the summary */
    char paje[PATH_MAX + 16];
    size_t dir = strlen(tasks_rec) >= strlen("tasks.rec") ? strlen(tasks_rec) - strlen("tasks.rec") : 0;
    snprintf(paje, sizeof paje, "%.*spaje.trace", (int)dir, tasks_rec);
    link_events starts = {0}, ends = {0};
    int have_paje;
    if (read_links(paje, &starts, &ends, &have_paje)) {
        free(starts.e), free(ends.e), tasks_free(&ts);
        return QF_ERROR;
    }
    double t0 = t[0].start, t1 = t0, span = 0.0;
    for (int i = 0; i < n; i++) {
        if (t[i].end > t1) t1 = t[i].end;
        if (t[i].worker > maxw) maxw = t[i].worker;
    }
    for (int k = 0; k < nwin; k++) span += win[k][1] - win[k][0];
    if (!nwin) span = t1 - t0;
    name_sum *names = calloc((size_t)n, sizeof *names);
    double *busy = calloc((size_t)maxw + 1, sizeof *busy);
    long *count = calloc((size_t)maxw + 1, sizeof *count);
    if (!names || !busy || !count) {
        free(names), free(busy), free(count), free(starts.e), free(ends.e), tasks_free(&ts);
        return qf_fail("out of host memory summarising %s", tasks_rec);
    }
    int nnames = 0;
    for (int i = 0; i < n; i++) {
        double d = t[i].end - t[i].start;
        busy[t[i].worker] += d;
        count[t[i].worker]++;
        name_sum_add(names, &nnames, t[i].name, d);
    }
    if (nwin) fprintf(out, "span          %.3f ms in %d recorded window%s (qf_runtime_trace_begin / _end), %d tasks\n", span, nwin, nwin > 1 ? "s" : "", n);
    else fprintf(out, "span          %.3f ms from the %s, %d tasks\n", span, window ? "window's first task" : "first task", n);
    fprintf(out, "%-34s %8s %11s %10s\n", "task", "tasks", "total ms", "mean us");
    for (int k; (k = name_sum_take_largest(names, nnames)) >= 0;)
        fprintf(out, "%-34s %8ld %11.3f %10.1f\n", names[k].name, -names[k].n, names[k].total,
                1e3 * names[k].total / -names[k].n);
    int *rank_of = calloc((size_t)maxw + 1, sizeof *rank_of), *wid_of = calloc((size_t)maxw + 1, sizeof *wid_of);
    int several = 0;
    for (int i = 0; rank_of && wid_of && i < n; i++) {
        rank_of[t[i].worker] = t[i].rank;
        wid_of[t[i].worker] = t[i].wid;
        several |= t[i].rank > 0;
    }
    fprintf(out, "%6s %8s %11s %8s\n", "worker", "tasks", "busy ms", "idle %");
    for (int w = 0; w <= maxw; w++) {
        if (!count[w]) continue;
        char label[32];
        if (several && rank_of && wid_of) snprintf(label, sizeof label, "%d:%d", rank_of[w], wid_of[w]);
        else snprintf(label, sizeof label, "%d", w);
        fprintf(out, "%6s %8ld %11.3f %8.1f\n", label, count[w], busy[w], span > 0 ? 100.0 * (1.0 - busy[w] / span) : 0.0);
    }
    free(rank_of);
    free(wid_of);
    double cp = critical_path(t, n);
    if (cp >= 0.0)
        fprintf(out, "critical path %.3f ms through the dependencies (%.0f%% of the span): the span with unlimited workers\n",
                cp, span > 0 ? 100.0 * cp / span : 0.0);
    communication_summary(starts, ends, have_paje, t, n, win, nwin, out);
    fprintf(out, "note          an asynchronous CUDA task lasts from its launch to the driver's seeing it end, so it\n"
                 "              may include the tasks queued before it on the GPU\n");
    free(names), free(busy), free(count), free(starts.e), free(ends.e), tasks_free(&ts);
    return QF_SUCCESS;
}

/* ---- where each worker waited: trace gaps ---- */

typedef struct {
    double ms;
    const trace_task *before, *after; /* the task the worker waited for, and the one it ran before */
} trace_gap;

static int by_gap(const void *a, const void *b)
{
    double x = ((const trace_gap *)a)->ms, y = ((const trace_gap *)b)->ms;
    return (x < y) - (x > y); /* largest first */
}

int qf_app_trace_gaps(const char *tasks_rec, const char *window, int top, FILE *out)
{
    trace_tasks ts;
    int first;
    if (tasks_in_window(tasks_rec, window, &ts, &first)) return QF_ERROR;
    const trace_task *t = ts.t + first;
    int n = ts.n - first, maxw = 0;
    for (int i = 0; i < n; i++) maxw = t[i].worker > maxw ? t[i].worker : maxw;
    trace_gap *gaps = malloc((size_t)n * sizeof *gaps);
    name_sum *names = calloc((size_t)n, sizeof *names);
    if (!gaps || !names) {
        free(gaps), free(names), tasks_free(&ts);
        return qf_fail("out of host memory reading the gaps of %s", tasks_rec);
    }
    fprintf(out, "gaps          each worker's idle time before each task, from the latest end of its earlier tasks (from\n"
                 "              the %s on); a task submitted long before it started waited inside the\n"
                 "              runtime (for its data, an allocation), one submitted just before it, for the host\n",
            window ? "window's first task" : "first task");
    for (int w = 0; w <= maxw; w++) {
        int ntasks = 0, ngaps = 0, nnames = 0;
        const trace_task *last = NULL, *first_task = NULL;
        double last_end = 0.0, idle = 0.0;
        for (int i = 0; i < n; i++) {
            if (t[i].worker != w) continue;
            if (!first_task) first_task = &t[i];
            ntasks++;
            if (last && t[i].start > last_end) {
                double ms = t[i].start - last_end;
                gaps[ngaps++] = (trace_gap){ms, &t[i], last};
                idle += ms;
                name_sum_add(names, &nnames, t[i].name, ms);
            }
            if (!last || t[i].end > last_end) last = &t[i], last_end = t[i].end;
        }
        if (!ntasks) continue;
        fprintf(out, "worker %d (rank %d, StarPU's worker %d): %d tasks over %.3f ms, idle %.3f ms before them\n", w,
                first_task->rank, first_task->wid, ntasks, last_end - first_task->start, idle);
        fprintf(out, "  %-34s %10s %6s\n", "idle before", "ms", "gaps");
        for (int done = 0, k; done < top && (k = name_sum_take_largest(names, nnames)) >= 0; done++)
            fprintf(out, "  %-34s %10.3f %6ld\n", names[k].name, names[k].total, -names[k].n);
        qsort(gaps, (size_t)ngaps, sizeof *gaps, by_gap);
        fprintf(out, "  largest gaps: ms, after -> before, start ms (submitted ms)\n");
        for (int g = 0; g < ngaps && g < top; g++) {
            char submitted[32] = "-";
            if (gaps[g].before->submit >= 0.0) snprintf(submitted, sizeof submitted, "%.3f", gaps[g].before->submit);
            fprintf(out, "  %10.3f  %s -> %s  at %.3f (%s)\n", gaps[g].ms, gaps[g].after->name, gaps[g].before->name,
                    gaps[g].before->start, submitted);
        }
    }
    free(gaps), free(names), tasks_free(&ts);
    return QF_SUCCESS;
}

/* ---- what the runtime's threads and memory managers did: trace states ---- */

/* Paje's names: containers (7: alias, type, parent, name) and state values (6: alias, state type,
 * name, colour), looked up only to print. */
typedef struct {
    char alias[32], type[16], name[64];
} paje_name;

typedef struct {
    char value[32]; /* the state's alias */
    double ms;      /* inside the window */
} state_time;

/* One container's states of one type: the stack of paje's push and pop (set replaces the top), and
 * the time in each state. */
typedef struct {
    char container[32], type[16];
    struct {
        char value[32];
        double since;
    } *stack;
    int depth, stack_cap;
    state_time *times;
    int ntimes, times_cap;
} state_track;

typedef struct {
    double ms, start;
    int track;
    char value[32];
} state_interval;

typedef struct {
    double from, to;
    int top;
    paje_name *names, *values;
    int nnames, names_cap, nvalues, values_cap;
    state_track *tracks;
    int ntracks, tracks_cap;
    state_interval *longest; /* top, longest first */
    int nlongest;
    link_reader links;
} state_reader;

static int push_name(const char *paje, paje_name **a, int *n, int *cap, const char *alias, const char *type,
                     const char *name)
{
    paje_name *p = grow(*a, *n, cap, sizeof *p, paje, "names");
    if (!p) return QF_ERROR;
    *a = p;
    paje_name *e = &p[(*n)++];
    snprintf(e->alias, sizeof e->alias, "%s", alias);
    snprintf(e->type, sizeof e->type, "%s", type);
    snprintf(e->name, sizeof e->name, "%s", name);
    return QF_SUCCESS;
}

/* The name of alias (of state type type, or a container where type is NULL), or alias itself. */
static const char *paje_lookup(const paje_name *a, int n, const char *alias, const char *type)
{
    for (int i = n - 1; i >= 0; i--)
        if (!strcmp(a[i].alias, alias) && (!type || !strcmp(a[i].type, type))) return a[i].name;
    return alias;
}

static int state_track_of(const char *paje, state_reader *r, const char *container, const char *type)
{
    for (int i = 0; i < r->ntracks; i++)
        if (!strcmp(r->tracks[i].container, container) && !strcmp(r->tracks[i].type, type)) return i;
    state_track *t = grow(r->tracks, r->ntracks, &r->tracks_cap, sizeof *t, paje, "state tracks");
    if (!t) return -1;
    r->tracks = t;
    t = &r->tracks[r->ntracks];
    memset(t, 0, sizeof *t);
    snprintf(t->container, sizeof t->container, "%s", container);
    snprintf(t->type, sizeof t->type, "%s", type);
    return r->ntracks++;
}

/* State value of track k held over [start, end): its share inside the window, and a candidate for
 * the longest intervals. */
static int state_close(const char *paje, state_reader *r, int k, const char *value, double start, double end)
{
    state_track *t = &r->tracks[k];
    double a = start > r->from ? start : r->from, b = end < r->to ? end : r->to;
    if (b <= a) return QF_SUCCESS;
    int i = 0;
    while (i < t->ntimes && strcmp(t->times[i].value, value)) i++;
    if (i == t->ntimes) {
        state_time *p = grow(t->times, t->ntimes, &t->times_cap, sizeof *p, paje, "states");
        if (!p) return QF_ERROR;
        t->times = p;
        memset(&p[i], 0, sizeof p[i]);
        snprintf(p[i].value, sizeof p[i].value, "%s", value);
        t->ntimes++;
    }
    t->times[i].ms += b - a;
    double ms = end - start;
    int at = r->nlongest < r->top ? r->nlongest : r->top - 1;
    if (r->top < 1 || (r->nlongest == r->top && ms <= r->longest[at].ms)) return QF_SUCCESS;
    while (at > 0 && r->longest[at - 1].ms < ms) { /* insertion into the list, longest first */
        r->longest[at] = r->longest[at - 1];
        at--;
    }
    r->longest[at] = (state_interval){.ms = ms, .start = start, .track = k};
    snprintf(r->longest[at].value, sizeof r->longest[at].value, "%s", value);
    if (r->nlongest < r->top) r->nlongest++;
    return QF_SUCCESS;
}

/* Paje's set (10, and 20/21 with a task's details), push (11) and pop (12) of a container's state, the
 * names (6, 7) and the links (visit_link). */
static int visit_state(void *ctx, const trace_place *at, char **field, int nf)
{
    state_reader *r = ctx;
    const char *ev = field[0];
    if (!strcmp(ev, "6") && nf >= 4)
        return push_name(at->path, &r->values, &r->nvalues, &r->values_cap, field[1], field[2], field[3]);
    if (!strcmp(ev, "7") && nf >= 6)
        return push_name(at->path, &r->names, &r->nnames, &r->names_cap, field[2], field[3], field[5]);
    int set = !strcmp(ev, "10") || !strcmp(ev, "20") || !strcmp(ev, "21"), push = !strcmp(ev, "11"),
        pop = !strcmp(ev, "12");
    if (!(set || push || pop)) return visit_link(&r->links, at, field, nf);
    if (nf < (pop ? 4 : 5)) return QF_SUCCESS;
    double time;
    int k = -1;
    if (trace_double(at, "time", field[1], TRACE_MAX_MS, &time) || (k = state_track_of(at->path, r, field[2], field[3])) < 0)
        return QF_ERROR;
    state_track *t = &r->tracks[k];
    if (t->depth > 0) { /* the state on top ends, or pauses under a pushed one */
        if (state_close(at->path, r, k, t->stack[t->depth - 1].value, t->stack[t->depth - 1].since, time))
            return QF_ERROR;
        t = &r->tracks[k];
    }
    if (pop) {
        if (t->depth > 0) t->depth--;
        if (t->depth > 0) t->stack[t->depth - 1].since = time; /* the state below resumes */
        return QF_SUCCESS;
    }
    if (push || t->depth == 0) {
        void *p = grow(t->stack, t->depth, &t->stack_cap, sizeof *t->stack, at->path, "nested states");
        if (!p) return QF_ERROR;
        t->stack = p;
        t->depth++;
    }
    snprintf(t->stack[t->depth - 1].value, sizeof t->stack[t->depth - 1].value, "%s", field[4]);
    t->stack[t->depth - 1].since = time;
    return QF_SUCCESS;
}

static void state_reader_free(state_reader *r)
{
    for (int i = 0; i < r->ntracks; i++) free(r->tracks[i].stack), free(r->tracks[i].times);
    free(r->tracks), free(r->names), free(r->values), free(r->longest);
    free(r->links.starts->e), free(r->links.ends->e);
}

/* "alias (name)" of a container */
static const char *container_label(const state_reader *r, const char *alias, char *buf, size_t size)
{
    const char *name = paje_lookup(r->names, r->nnames, alias, NULL);
    if (name == alias) snprintf(buf, size, "%s", alias);
    else snprintf(buf, size, "%s (%s)", alias, name);
    return buf;
}

typedef struct {
    char kind[8], from[32], to[32];
    long n;
    double bytes, ms, longest;
} transfer_sum;

int qf_app_trace_states(const char *paje, double from, double to, int top, FILE *out)
{
    link_events starts = {0}, ends = {0};
    state_reader r = {.from = from, .to = to, .top = top, .links = {&starts, &ends}};
    int found = 0;
    r.longest = calloc((size_t)(top > 0 ? top : 1), sizeof *r.longest);
    int rc = r.longest ? paje_read(paje, visit_state, &r, &found) : qf_fail("out of host memory");
    if (!rc && !found) rc = qf_fail("cannot read %s (%s): give a paje.trace, or the folder quarkflow --trace wrote", paje, strerror(errno));
    int any = 0;
    for (int i = 0; !rc && i < r.ntracks; i++) any |= r.tracks[i].ntimes > 0;
    /* the links, paired by key as the summary pairs them, summed by kind and ends */
    transfer_sum *sums = NULL;
    int nsums = 0, sums_cap = 0;
    if (!rc) {
        qsort(starts.e, (size_t)starts.n, sizeof *starts.e, by_key);
        qsort(ends.e, (size_t)ends.n, sizeof *ends.e, by_key);
    }
    for (int i = 0, j = 0; !rc && i < starts.n && j < ends.n;) {
        int c = strcmp(starts.e[i].key, ends.e[j].key);
        if (c) {
            c < 0 ? i++ : j++;
            continue;
        }
        const link_event *s = &starts.e[i++], *e = &ends.e[j++];
        if (!(e->time > from && s->time < to) || e->time < s->time) continue;
        int k = 0;
        while (k < nsums && (strcmp(sums[k].kind, s->kind) || strcmp(sums[k].from, s->node) || strcmp(sums[k].to, e->node)))
            k++;
        if (k == nsums) {
            transfer_sum *p = grow(sums, nsums, &sums_cap, sizeof *p, paje, "kinds of transfer");
            if (!p) {
                rc = QF_ERROR;
                break;
            }
            sums = p;
            memset(&sums[k], 0, sizeof sums[k]);
            snprintf(sums[k].kind, sizeof sums[k].kind, "%s", s->kind);
            snprintf(sums[k].from, sizeof sums[k].from, "%s", s->node);
            snprintf(sums[k].to, sizeof sums[k].to, "%s", e->node);
            nsums++;
        }
        double ms = e->time - s->time;
        sums[k].n++;
        sums[k].bytes += s->bytes;
        sums[k].ms += ms;
        if (ms > sums[k].longest) sums[k].longest = ms;
    }
    if (!rc && !any && !nsums)
        rc = qf_fail("%s: no state held and no transfer between %g and %g ms: check --from and --to against the times "
                     "ViTE shows",
                     paje, from, to);
    if (rc) {
        free(sums);
        state_reader_free(&r);
        return QF_ERROR;
    }
    char label[128], label2[128], span[96];
    if (from <= 0.0 && isinf(to)) snprintf(span, sizeof span, "over the whole trace");
    else snprintf(span, sizeof span, "between %g and %g ms of the trace (the times ViTE shows)", from, to);
    fprintf(out, "states        ms in each state %s, largest first\n", span);
    if (!any) fprintf(out, "  none in the window\n");
    for (int printed = 0; printed < top; printed++) { /* the top entries over all tracks, largest first */
        int bk = -1, bi = -1;
        for (int k = 0; k < r.ntracks; k++)
            for (int i = 0; i < r.tracks[k].ntimes; i++)
                if (r.tracks[k].times[i].ms > 0 && (bk < 0 || r.tracks[k].times[i].ms > r.tracks[bk].times[bi].ms))
                    bk = k, bi = i;
        if (bk < 0) break;
        state_time *st = &r.tracks[bk].times[bi];
        fprintf(out, "  %-32s %-30s %10.1f\n", container_label(&r, r.tracks[bk].container, label, sizeof label),
                paje_lookup(r.values, r.nvalues, st->value, r.tracks[bk].type), st->ms);
        st->ms = -st->ms; /* printed */
    }
    fprintf(out, "longest       state intervals: ms, start ms, container, state\n");
    for (int i = 0; i < r.nlongest; i++) {
        const state_interval *v = &r.longest[i];
        fprintf(out, "  %10.1f %12.1f  %s %s\n", v->ms, v->start,
                container_label(&r, r.tracks[v->track].container, label, sizeof label),
                paje_lookup(r.values, r.nvalues, v->value, r.tracks[v->track].type));
    }
    fprintf(out, "transfers     by kind (F fetch, PF prefetch, IF idle fetch, MPIL MPI message), from -> to: count, MB, "
                 "ms, longest ms, GB/s\n");
    if (!nsums) fprintf(out, "  none in the window\n");
    for (int printed = 0; printed < nsums; printed++) { /* longest total time first */
        int k = -1;
        for (int j = 0; j < nsums; j++)
            if (sums[j].n > 0 && (k < 0 || sums[j].ms > sums[k].ms)) k = j;
        fprintf(out, "  %-4s %s -> %s: %ld transfer%s, %.1f MB, %.1f ms, longest %.1f ms, %.2f GB/s\n", sums[k].kind,
                container_label(&r, sums[k].from, label, sizeof label), container_label(&r, sums[k].to, label2, sizeof label2),
                sums[k].n, sums[k].n > 1 ? "s" : "", sums[k].bytes / 1e6, sums[k].ms, sums[k].longest,
                sums[k].ms > 0 ? sums[k].bytes / (sums[k].ms * 1e6) : 0.0);
        sums[k].n = -sums[k].n; /* printed */
    }
    free(sums);
    state_reader_free(&r);
    return QF_SUCCESS;
}

void qf_app_trace_finish(const char *dir)
{
    char rec[PATH_MAX + 32], sum[PATH_MAX + 32];
    if (qf_runtime_trace_convert(dir)) {
        printf("trace         %s\n", qf_last_error());
        return;
    }
    snprintf(rec, sizeof rec, "%s/tasks.rec", dir);
    snprintf(sum, sizeof sum, "%s/summary.txt", dir);
    FILE *f = fopen(sum, "w");
    int rc = !f || qf_app_trace_summary(rec, NULL, f);
    if (f) fclose(f);
    printf("trace         %s: paje.trace (ViTE), dag.dot, tasks.rec and %s\n", dir,
           rc ? "no summary (quarkflow trace summary tasks.rec says why)" : "summary.txt");
}

/* A codelet's name as the legend shows it. The names come from the trace file, which anyone may
 * write, and go into a double-quoted gnuplot string, where gnuplot runs `commands` and where a '"'
 * would end the string and let the rest run as gnuplot code (system("...")); word() splits the list
 * at blanks besides. So only A-Z, a-z, 0-9 and _.:+- are kept, all that quarkflow's and StarPU's
 * codelet names use, and anything else becomes '_'. */
static void legend_name(const char *name, char *out, size_t size)
{
    size_t k = 0;
    for (; name[k] && k + 1 < size; k++) {
        char c = name[k];
        int kept = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("_.:+-", c);
        out[k] = kept ? c : '_';
    }
    out[k] = 0;
}

/* The trace colour of the codelet whose performance model is model, as ViTE shows it; StarPU's own
 * tasks (reduction merges) get greys. */
static unsigned codelet_colour(const char *model, int k)
{
    static const unsigned greys[] = {0x000000, 0x555555, 0xaaaaaa};
    unsigned rgb;
    return qf_trace_colour(model, &rgb) ? rgb : greys[k % 3];
}

int qf_app_trace_gantt(const char *dir, double from, double to, const char *picture)
{
    char rec[PATH_MAX + 32], dat[PATH_MAX + 32], gp[PATH_MAX + 32];
    snprintf(rec, sizeof rec, "%s/tasks.rec", dir);
    snprintf(dat, sizeof dat, "%s/gantt.dat", dir);
    snprintf(gp, sizeof gp, "%s/gantt.gp", dir);
    trace_tasks ts;
    if (tasks_read(rec, &ts)) return QF_ERROR;
    qsort(ts.t, (size_t)ts.n, sizeof *ts.t, by_start);
    static double win[MAX_WINDOWS][2];
    int nwin;
    if (recording_windows(rec, win, &nwin)) {
        tasks_free(&ts);
        return QF_ERROR;
    }
    double t0 = nwin ? win[0][0] : ts.t[0].start;
    FILE *f = fopen(dat, "w");
    if (!f) {
        tasks_free(&ts);
        return qf_fail("cannot write %s", dat);
    }
    const char *names[64];
    int nnames = 0, maxw = 0, nbars = 0;
    for (int i = 0; i < ts.n; i++) { /* the codelets in the window, in order of first appearance */
        double s = ts.t[i].start - t0, e = ts.t[i].end - t0;
        if (e <= from || s >= to) continue;
        if (!ts.t[i].model[0]) snprintf(ts.t[i].model, sizeof ts.t[i].model, "%s", ts.t[i].name);
        int k = 0;
        while (k < nnames && strcmp(names[k], ts.t[i].model)) k++;
        if (k == nnames && nnames < 64) names[nnames++] = ts.t[i].model;
        if (ts.t[i].worker > maxw) maxw = ts.t[i].worker;
    }
    for (int k = 0; k < nnames; k++) {
        fprintf(f, "# %s\n", names[k]);
        for (int i = 0; i < ts.n; i++) {
            double s = ts.t[i].start - t0, e = ts.t[i].end - t0;
            if (e <= from || s >= to || strcmp(ts.t[i].model, names[k])) continue;
            fprintf(f, "%d %.6f %.6f\n", ts.t[i].worker, s < from ? from : s, e > to ? to : e);
            nbars++;
        }
        fprintf(f, "\n\n");
    }
    fclose(f);
    int rc = QF_SUCCESS;
    if (!nbars) rc = qf_fail("no task of %s runs between %g and %g ms: choose --from / --to inside the trace", rec, from, to);
    char picture_string[2 * PATH_MAX + 80], dat_string[2 * PATH_MAX + 80];
    if (!rc) rc = qf_app_gnuplot_string(picture, picture_string, sizeof picture_string);
    if (!rc) rc = qf_app_gnuplot_string(dat, dat_string, sizeof dat_string);
    FILE *g = rc ? NULL : fopen(gp, "w");
    if (!rc && !g) rc = qf_fail("cannot write %s", gp);
    if (g) {
        fprintf(g, "set terminal svg size 1400,%d dynamic noenhanced font 'sans,11'\nset output %s\n",
                160 + 28 * (maxw + 1), picture_string);
        fprintf(g, "set title 'tasks per worker, %g to %g ms after the %s'\n", from, to,
                nwin ? "start of the recorded window" : "first task");
        fprintf(g, "set xlabel 'ms'\nset ylabel 'worker'\nset yrange [-0.6:%d.6]\nset ytics 1\nset xrange [%g:%g]\n", maxw,
                from, to);
        fprintf(g, "set style fill solid 1.0 noborder\nset key outside right top\nnames = \"");
        for (int k = 0; k < nnames; k++) {
            char legend[sizeof ts.t[0].model];
            legend_name(names[k], legend, sizeof legend);
            fprintf(g, "%s%s", k ? " " : "", legend);
        }
        fprintf(g, "\"\ncolours = \"");
        for (int k = 0; k < nnames; k++) fprintf(g, "%s#%06x", k ? " " : "", codelet_colour(names[k], k));
        fprintf(g, "\"\nplot for [k=0:%d] %s index k using (($2+$3)/2):1:(($3-$2)/2):(0.4) with boxxyerror "
                   "lc rgb word(colours, k+1) title word(names, k+1)\n",
                nnames - 1, dat_string);
        fclose(g);
        rc = qf_app_gnuplot(gp, picture);
    }
    tasks_free(&ts);
    if (!rc) printf("gantt         %s: %d tasks of %d codelets on %d workers (data %s, script %s)\n", picture, nbars, nnames,
                    maxw + 1, dat, gp);
    return rc;
}
