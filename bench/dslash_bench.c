/* quarkflow bench dslash: the even-odd Wilson-clover operator Mhat (QF_OP_MHAT) as a task graph,
 * the same kernels called directly without the runtime, and the machine's memory-bandwidth ceiling
 * measured in the same run (DESIGN.md, "Performance method").
 *
 *   task graph  N back-to-back qf_dirac_apply calls, input and output swapped after each so that
 *               they chain, one qf_runtime_wait_all at the end; wall time / N, and the best of 5
 *               rounds of N / 5 (qf_bench_timing: the ratios take the best, as the ceiling does).
 *   direct      the launchers of codelets/wilson_launch.h on plain buffers that hold the task graph's
 *               own data (exported from its fields), in the sequence of hops tasks/dirac.c submits
 *               for Mhat: per hop, the gather and the interior of every block, then the exterior of
 *               every block. CPUs: one pthread per StarPU CPU worker, bound to that worker's core,
 *               blocks dealt round-robin, a barrier between the two phases; the runtime is paused
 *               meanwhile, since idle StarPU workers poll on their cores. GPU: cudaMalloc'ed buffers, the CUDA launchers on one
 *               stream, timed with CUDA events (dslash_bench_cuda.cu).
 *   ceiling     CPUs: a STREAM triad a[i] = b[i] + s c[i] on arrays far larger than the caches, with
 *               as many threads, best of several; bytes counted as STREAM does (3 x 8 a element).
 *               GPU: a device-to-device cudaMemcpy, counting the bytes read and written.
 *
 * Before anything is timed the direct result is compared with the task graph's (relative difference
 * at most 1e-5 in single, 1e-12 in double precision); a disagreement is an error.
 *
 * The chained applications grow the field by the operator's norm (at most about 2) each time, so
 * long runs overflow to inf and then NaN. That does not change the timing: IEEE inf/NaN arithmetic
 * runs at full speed on CPUs and GPUs (only subnormal numbers are slow, and growing values never
 * pass through them), and correctness is checked before. */
#include "app.h"
#include "dslash_bench.h"


#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* qf_clover_build: the clover field and its inverse, built as qf_dirac_create builds them */
#include "quarkflow/qf_clover.h"

static const char help[] =
    "usage: quarkflow bench dslash [options]\n"
    "\n"
    "Benchmarks the even-odd Wilson-clover operator Mhat (QF_OP_MHAT) on a weak-field gauge field and\n"
    "a random source: the task graph (qf_dirac_apply), the same kernels called directly without\n"
    "StarPU, and the memory-bandwidth ceiling of the machine measured in the same run (STREAM triad\n"
    "on CPUs, device-to-device copy on the GPU), with the ratios. With CUDA workers the GPU path is\n"
    "benchmarked (pass --ncpu 0 --ncuda 1 for a GPU-only task graph), the CPU path otherwise.\n"
    "\n"
    "Options:\n"
    "  --dim X Y Z T       lattice extents (default 16 16 16 16)\n"
    "  --prec double|single  precision of the operator and its fields (default single)\n"
    "  --blocks BX BY BZ BT  block grid of the task graph (default: several blocks per worker)\n"
    "  --kappa K           hopping parameter (default 0.12)\n"
    "  --csw C             clover coefficient (default 1.0; 0: plain Wilson)\n"
    "  --schur asym|sym    even-odd form (default asym)\n"
    "  --bc X Y Z T        boundary phases as for quarkflow apply (default periodic in space, antiperiodic in t)\n"
    "  --iters N           timed applications (default: enough for about 2 s, for each of the task\n"
    "                      graph and the direct kernels)\n"
    "  --warmup W          untimed applications before each timing (default 2)\n"
    "  --seed S            seed of the gauge field and the source (default 1)\n"
    "\n"
    "Counts: flops by qf_dirac_flops (QUDA's: 1320 a site for the dslash, 504 for the clover term,\n"
    "48 for x + b y); bytes by QUDA's rule, listed in the output. Results: bench/RESULTS.md.\n\n";

typedef struct {
    int dims[4], blocks[4];
    qf_dirac_params p;
    qf_schur_form form;
    long iters;
    int warmup;
    uint64_t seed;
} bench_opts;

static const double target_seconds = 2.0;

double qf_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- per-block buffers in the fields' layout ---- */

static int64_t global_index(const qf_lattice *lat, const int origin[QF_NDIM], int64_t s)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, lat->block, x);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] += origin[mu];
    return qf_lex_index(x, lat->global);
}

/* global lexicographic doubles <-> per-block buffers of `reals` numbers a site in precision prec */
static void pack(const qf_bench_plan *p, const qf_lattice *lat, const double *global, int reals, void **blocks, int to_blocks)
{
    for (int b = 0; b < p->nblocks; b++)
        for (int64_t s = 0; s < lat->block_volume; s++) {
            double *g = (double *)global + global_index(lat, p->block_origin[b], s) * reals;
            for (int k = 0; k < reals; k++) {
                size_t i = (size_t)s * (size_t)reals + (size_t)k;
                if (p->prec == QF_DOUBLE) {
                    if (to_blocks) ((double *)blocks[b])[i] = g[k];
                    else g[k] = ((double *)blocks[b])[i];
                } else {
                    if (to_blocks) ((float *)blocks[b])[i] = (float)g[k];
                    else g[k] = ((float *)blocks[b])[i];
                }
            }
        }
}

static void **alloc_blocks(int n, size_t bytes)
{
    void **v = calloc((size_t)n, sizeof *v);
    if (!v) return NULL;
    for (int b = 0; b < n; b++)
        if (posix_memalign(&v[b], 64, bytes ? bytes : 64)) {
            for (int k = 0; k < b; k++) free(v[k]);
            free(v);
            return NULL;
        } else {
            memset(v[b], 0, bytes);
        }
    return v;
}

static void free_blocks(void **v, int n)
{
    if (!v) return;
    for (int b = 0; b < n; b++) free(v[b]);
    free(v);
}

static void plan_free(qf_bench_plan *p)
{
    for (int k = 0; k < QF_BENCH_NSPINORS; k++) free_blocks(p->spinor[k], p->nblocks);
    free_blocks(p->gauge, p->nblocks);
    for (int k = 0; k < 2; k++) free_blocks(p->clover[k], p->nblocks);
    free(p->block_origin);
    free(p->neighbour);
    memset(p, 0, sizeof *p);
}

/* The hops of one Mhat application (dagger 0) as the library runs them (qf_dirac_schur_hops), with
 * the kernels' arguments tasks/dirac.c gives them. */
void qf_bench_plan_hops(qf_bench_plan *p, const qf_lattice *lat, const qf_dirac_params *dp, qf_schur_form form)
{
    qf_dirac_hop h[QF_DIRAC_MAX_HOPS];
    qf_dirac_schur_hops(dp, form, h, &p->nhops);
    for (int k = 0; k < p->nhops; k++) {
        qf_bench_hop *hp = &p->hop[k];
        memset(hp, 0, sizeof *hp);
        hp->src = h[k].src, hp->dst = h[k].dst, hp->x = h[k].x;
        hp->clover = h[k].clover_on == QF_CLOVER_NONE ? -1 : h[k].clover_inverse;
        hp->g.parity = 1 - h[k].parity;
        hp->g.dagger = 0;
        hp->g.prec = dp->prec;
        memcpy(hp->g.ext, lat->block, sizeof hp->g.ext);
        qf_wilson_args *a = &hp->a;
        *a = (qf_wilson_args){.parity = h[k].parity, .dagger = 0, .a = h[k].a, .b = h[k].b,
                              .has_x = h[k].x != QF_HOP_NONE, .clover_on = h[k].clover_on, .prec = dp->prec};
        memcpy(a->ext, lat->block, sizeof a->ext);
        memcpy(a->global, lat->global, sizeof a->global);
        memcpy(a->phase, dp->phase, sizeof a->phase);
    }
}

/* Bytes one Mhat application moves by QUDA's rule, per output site of each hop: the dslash reads
 * 8 x (18 gauge + 24 spinor) reals (no gauge compression; 1344 bytes in single precision), plus
 * the clover field (72 reals) where the fused finishing step reads it, the x spinor (24 reals) where
 * it is read, and the output spinor written (24 reals). Faces, the partial sums that the interior
 * stores for face sites and the exterior reads back, and write-allocate traffic are not counted. */
double qf_bench_hop_reals(const qf_bench_hop *h)
{
    return 8.0 * (18 + 24) + (h->clover >= 0 ? 72.0 : 0.0) + (h->x >= 0 ? 24.0 : 0.0) + 24.0;
}

static double plan_bytes(const qf_bench_plan *p, const qf_lattice *lat)
{
    double reals = 0.0;
    for (int h = 0; h < p->nhops; h++) reals += qf_bench_hop_reals(&p->hop[h]) * (double)lat->global_volume / 2;
    return reals * (double)qf_real_size(p->prec);
}

static int plan_create(qf_bench_plan *p, const qf_lattice *lat, const qf_dirac_params *dp, qf_schur_form form,
                       const qf_field *gauge, const qf_field *in)
{
    memset(p, 0, sizeof *p);
    p->nblocks = lat->nblocks;
    memcpy(p->blocks, lat->blocks, sizeof p->blocks);
    p->prec = dp->prec;
    qf_bench_plan_hops(p, lat, dp, form);
    int nb = p->nblocks;
    p->block_origin = calloc((size_t)nb, sizeof *p->block_origin);
    p->neighbour = calloc((size_t)nb, sizeof *p->neighbour);
    if (!p->block_origin || !p->neighbour) return qf_fail("out of host memory for the benchmark's plan");
    for (int b = 0; b < nb; b++) {
        qf_lattice_block_origin(lat, b, p->block_origin[b]);
        for (int mu = 0; mu < QF_NDIM; mu++) {
            /* exterior slot 2 mu: the -mu neighbour's side-1 face; 2 mu + 1: the +mu neighbour's side 0 */
            p->neighbour[b][2 * mu] = qf_block_neighbour(b, lat->blocks, mu, -1) * QF_WILSON_NFACES + 2 * mu + 1;
            p->neighbour[b][2 * mu + 1] = qf_block_neighbour(b, lat->blocks, mu, +1) * QF_WILSON_NFACES + 2 * mu;
        }
    }
    size_t rs = qf_real_size(p->prec);
    p->spinor_bytes = (size_t)lat->block_volume * 24 * rs;
    p->gauge_bytes = (size_t)lat->block_volume * 72 * rs;
    p->clover_bytes = (size_t)lat->block_volume * 72 * rs;
    for (int mu = 0; mu < QF_NDIM; mu++)
        p->face_bytes[mu] = (size_t)qf_parity_face_sites(lat->block, mu, 0) * QF_HALF_SPINOR_REALS * rs;
    for (int k = 0; k < QF_BENCH_NSPINORS; k++)
        if (!(p->spinor[k] = alloc_blocks(nb, p->spinor_bytes))) return qf_fail("out of host memory for the direct buffers");
    if (!(p->gauge = alloc_blocks(nb, p->gauge_bytes))) return qf_fail("out of host memory for the direct buffers");

    /* the task graph's data, exported: the gauge field in the operator's precision (as qf_dirac_create
     * converts it), the clover field and its inverse (built as qf_dirac_create builds them), the source */
    int64_t vol = lat->global_volume;
    double *g = malloc((size_t)vol * 72 * sizeof *g);
    qf_field *gp = NULL, *fmunu = NULL, *cl[2] = {NULL, NULL};
    int rc = !g ? qf_fail("out of host memory exporting the gauge field") : QF_SUCCESS;
    rc = rc || qf_field_create(&gp, lat, QF_FIELD_GAUGE, p->prec, 1) || qf_field_convert(gp, gauge) ||
         qf_field_export(gp, g);
    if (!rc) pack(p, lat, g, 72, p->gauge, 1);
    if (!rc && dp->csw != 0.0) {
        for (int k = 0; k < 2 && !rc; k++)
            if (!(p->clover[k] = alloc_blocks(nb, p->clover_bytes))) rc = qf_fail("out of host memory for the clover buffers");
        rc = rc || qf_field_create(&fmunu, lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0) ||
             qf_field_create(&cl[0], lat, QF_FIELD_CLOVER, p->prec, 0) ||
             qf_field_create(&cl[1], lat, QF_FIELD_CLOVER, p->prec, 0) || qf_gauge_field_strength(gauge, fmunu) ||
             qf_clover_build(fmunu, dp->kappa * dp->csw, cl[0], cl[1]);
        for (int k = 0; k < 2 && !rc; k++) {
            rc = qf_field_export(cl[k], g);
            if (!rc) pack(p, lat, g, 72, p->clover[k], 1);
        }
    }
    rc = rc || qf_field_export(in, g);
    if (!rc) pack(p, lat, g, 24, p->spinor[QF_BENCH_IN], 1);
    if (gp) qf_field_destroy(gp);
    if (fmunu) qf_field_destroy(fmunu);
    for (int k = 0; k < 2; k++)
        if (cl[k]) qf_field_destroy(cl[k]);
    free(g);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* ---- the direct kernels on CPUs ---- */

typedef struct {
    void *c;
    int tid;
} thread_arg;

/* The cores of StarPU's CPU workers, in worker order: direct thread k runs on worker k's core, so
 * that both sides use the same cores (nothing is bound when StarPU binds nothing, as with
 * STARPU_WORKERS_NOBIND=1). */
static void bind_to_worker_core(int tid) { qf_runtime_bind_thread(qf_runtime_cpu_worker_core(tid), "quarkflow bench thread"); }

typedef struct {
    qf_bench_plan *p;
    void **face;          /* [block * 8 + k] */
    int nthreads;
    long iters;
    pthread_barrier_t barrier;
    double seconds;
} cpu_direct;

/* buffer of spinor `id` of block b in application number `it` (input and output swap each time) */
static void *spinor_of(const qf_bench_plan *p, int id, int b, long it)
{
    if ((it & 1) && id != QF_BENCH_TMP) id = id == QF_BENCH_IN ? QF_BENCH_OUT : QF_BENCH_IN;
    return p->spinor[id][b];
}

static void *cpu_direct_thread(void *arg_)
{
    thread_arg *arg = arg_;
    cpu_direct *c = arg->c;
    qf_bench_plan *p = c->p;
    int tid = arg->tid, nt = c->nthreads;
    bind_to_worker_core(tid);
    pthread_barrier_wait(&c->barrier);
    double t0 = qf_bench_now();
    for (long it = 0; it < c->iters; it++)
        for (int h = 0; h < p->nhops; h++) {
            const qf_bench_hop *hp = &p->hop[h];
            qf_wilson_args a = hp->a;
            for (int b = tid; b < p->nblocks; b += nt) {
                const void *src = spinor_of(p, hp->src, b, it);
                const void *x = hp->x >= 0 ? spinor_of(p, hp->x, b, it) : NULL;
                const void *cl = hp->clover >= 0 ? p->clover[hp->clover][b] : NULL;
                qf_wilson_gather_run(&hp->g, src, p->gauge[b], c->face + (size_t)b * QF_WILSON_NFACES);
                memcpy(a.origin, p->block_origin[b], sizeof a.origin);
                qf_wilson_interior_run(&a, spinor_of(p, hp->dst, b, it), src, p->gauge[b], x, cl);
            }
            pthread_barrier_wait(&c->barrier);
            for (int b = tid; b < p->nblocks; b += nt) {
                const void *nbr[QF_WILSON_NFACES];
                for (int k = 0; k < QF_WILSON_NFACES; k++) nbr[k] = c->face[p->neighbour[b][k]];
                const void *x = hp->x >= 0 ? spinor_of(p, hp->x, b, it) : NULL;
                const void *cl = hp->clover >= 0 ? p->clover[hp->clover][b] : NULL;
                memcpy(a.origin, p->block_origin[b], sizeof a.origin);
                qf_wilson_exterior_run(&a, spinor_of(p, hp->dst, b, it), p->gauge[b], x, cl, nbr);
            }
            pthread_barrier_wait(&c->barrier);
        }
    if (tid == 0) c->seconds = qf_bench_now() - t0;
    return NULL;
}

/* Runs `fn` on n threads (thread k gets {c, k}) and joins them. */
static int run_threads(int n, void *(*fn)(void *), void *c)
{
    pthread_t *th = calloc((size_t)n, sizeof *th);
    thread_arg *args = calloc((size_t)n, sizeof *args);
    if (!th || !args) {
        free(th);
        free(args);
        return qf_fail("out of host memory starting %d threads", n);
    }
    int started = 0, rc = QF_SUCCESS;
    for (int k = 0; k < n; k++) {
        args[k].c = c;
        args[k].tid = k;
        if (pthread_create(&th[k], NULL, fn, &args[k])) {
            rc = qf_fail("could not start thread %d of %d", k + 1, n);
            break;
        }
        started++;
    }
    for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
    free(th);
    free(args);
    return rc;
}

static int cpu_direct_run(void *c_, long iters, double *seconds)
{
    cpu_direct *c = c_;
    c->iters = iters;
    if (pthread_barrier_init(&c->barrier, NULL, (unsigned)c->nthreads)) return qf_fail("pthread_barrier_init failed");
    int rc = run_threads(c->nthreads, cpu_direct_thread, c);
    pthread_barrier_destroy(&c->barrier);
    *seconds = c->seconds;
    return rc;
}

/* ---- STREAM triad ---- */

typedef struct {
    double *a, *b, *c;
    size_t n;
    int nthreads, reps;
    pthread_barrier_t barrier;
    double best;
} triad;

static void *triad_thread(void *arg_)
{
    thread_arg *arg = arg_;
    triad *t = arg->c;
    bind_to_worker_core(arg->tid);
    size_t lo = t->n * (size_t)arg->tid / (size_t)t->nthreads, hi = t->n * (size_t)(arg->tid + 1) / (size_t)t->nthreads;
    double *a = t->a, *b = t->b, *c = t->c;
    for (size_t i = lo; i < hi; i++) { /* first touch by the thread that uses the pages */
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
    const double s = 3.0;
    for (int r = 0; r < t->reps; r++) {
        pthread_barrier_wait(&t->barrier);
        double t0 = qf_bench_now();
        for (size_t i = lo; i < hi; i++) a[i] = b[i] + s * c[i];
        pthread_barrier_wait(&t->barrier);
        double dt = qf_bench_now() - t0;
        if (arg->tid == 0 && (r == 0 || dt < t->best)) t->best = dt;
    }
    return NULL;
}

static int stream_triad(int nthreads, double *gbps, size_t *array_bytes)
{
    /* 256 MiB an array (far beyond any L3 a few cores see), less on small machines */
    size_t n = (size_t)1 << 25;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) {
        double phys = (double)pages * (double)page;
        while (n > ((size_t)1 << 22) && 3.0 * 8.0 * (double)n > phys / 8) n /= 2;
    }
    triad t = {.n = n, .nthreads = nthreads, .reps = 10};
    t.a = malloc(n * sizeof(double));
    t.b = malloc(n * sizeof(double));
    t.c = malloc(n * sizeof(double));
    int rc = QF_SUCCESS;
    if (!t.a || !t.b || !t.c) rc = qf_fail("out of host memory for the STREAM arrays (3 x %zu MiB)", n * 8 >> 20);
    if (!rc && pthread_barrier_init(&t.barrier, NULL, (unsigned)nthreads)) rc = qf_fail("pthread_barrier_init failed");
    if (!rc) {
        rc = run_threads(nthreads, triad_thread, &t);
        pthread_barrier_destroy(&t.barrier);
    }
    /* a use of the result, so that the loop cannot be dropped */
    if (!rc && t.a[n / 2] != 1.0 + 3.0 * 2.0) rc = qf_fail("STREAM triad computed %g instead of 7", t.a[n / 2]);
    free(t.a);
    free(t.b);
    free(t.c);
    *gbps = rc ? 0.0 : 3.0 * 8.0 * (double)n / t.best * 1e-9;
    *array_bytes = n * sizeof(double);
    return rc;
}

int qf_bench_ceiling(int gpu, int device, int ncpu, double *gbps)
{
    qf_runtime_wait_all();
    qf_runtime_pause();
    size_t bytes = 0;
    int rc = QF_SUCCESS;
    if (!gpu) {
        rc = stream_triad(ncpu, gbps, &bytes);
        if (!rc)
            printf("ceiling       STREAM triad a = b + s c, 3 arrays of %zu MiB, %d threads, best of 10: %.2f GB/s "
                   "(3 x 8 bytes an element)\n",
                   bytes >> 20, ncpu, *gbps);
    }
#if QF_HAVE_CUDA
    else {
        char err[512] = "";
        bytes = (size_t)1 << 30;
        if (qf_bench_cuda_copy_bandwidth(device, bytes, gbps, err, sizeof err)) rc = qf_fail("device-to-device copy: %s", err);
        if (!rc)
            printf("ceiling       cudaMemcpy device to device, %zu MiB, best of 10: %.2f GB/s (bytes read + written)\n",
                   bytes >> 20, *gbps);
    }
#else
    (void)device;
#endif
    qf_runtime_resume();
    return rc;
}

/* ---- timing ---- */

/* warmup untimed runs, then n timed ones in QF_BENCH_ROUNDS rounds (one if n is smaller); n <= 0: as
 * many as last about target_s seconds, found by doubling a probe run until it lasts 0.1 s (the
 * probes warm up too). */
enum { QF_BENCH_ROUNDS = 5 };

int qf_bench_timed(qf_bench_run run, void *ctx, int warmup, long n, double target_s, qf_bench_timing *out)
{
    double t = 0.0;
    if (warmup > 0 && run(ctx, warmup, &t)) return QF_ERROR;
    if (n <= 0) {
        long probe = 1;
        for (;;) {
            if (run(ctx, probe, &t)) return QF_ERROR;
            if (t >= 0.1 || probe >= (1L << 24)) break;
            probe *= 2;
        }
        double per = t / (double)probe;
        n = per > 0 ? (long)ceil(target_s / per) : probe;
        if (n < 1) n = 1;
    }
    out->rounds = n >= QF_BENCH_ROUNDS ? QF_BENCH_ROUNDS : 1;
    out->n = 0;
    out->seconds = 0.0;
    out->best = INFINITY;
    for (int r = 0; r < out->rounds; r++) {
        long k = n / out->rounds + (r < n % out->rounds);
        if (run(ctx, k, &t)) return QF_ERROR;
        out->n += k;
        out->seconds += t;
        if (t / (double)k < out->best) out->best = t / (double)k;
    }
    return QF_SUCCESS;
}

/* ---- the task graph ---- */

typedef struct {
    qf_dirac *d;
    qf_field **f;
} graph_ctx;

static int graph_run(void *ctx, long n, double *seconds)
{
    graph_ctx *g = ctx;
    qf_runtime_wait_all();
    double t0 = qf_bench_now();
    for (long k = 0; k < n; k++)
        if (qf_dirac_apply(g->d, QF_OP_MHAT, g->f[(k + 1) & 1], g->f[k & 1])) return QF_ERROR;
    qf_runtime_wait_all();
    *seconds = qf_bench_now() - t0;
    return QF_SUCCESS;
}

int qf_bench_graph_time(qf_dirac *d, qf_field *f[2], int warmup, long n, double target_s, qf_bench_timing *t)
{
    graph_ctx g = {d, f};
    return qf_bench_timed(graph_run, &g, warmup, n, target_s, t);
}

/* ---- the direct kernels of one Mhat application ---- */

static double rel_diff(const double *a, const double *ref, int64_t n)
{
    double d = 0.0, r = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double e = a[i] - ref[i];
        d += e * e;
        r += ref[i] * ref[i];
    }
    return r > 0 ? sqrt(d / r) : sqrt(d);
}

int qf_bench_direct_path(int *gpu, int *device)
{
    *gpu = 0;
    *device = 0;
#if QF_HAVE_CUDA
    if (qf_runtime_ncuda_workers() > 0) {
        *device = qf_runtime_cuda_device();
        if (*device < 0) *device = 0;
        *gpu = qf_bench_cuda_devices() > 0;
    }
#endif
    if (!*gpu && qf_runtime_ncpu_workers() < 1)
        return qf_fail("no CPU worker and no usable CUDA worker: give --ncpu N (or a GPU with --ncuda 1)");
    return QF_SUCCESS;
}

int qf_bench_direct_create(qf_bench_direct *dk, const qf_lattice *lat, const qf_dirac_params *p, qf_schur_form form,
                           const qf_field *gauge, const qf_field *in, int gpu, int device)
{
    memset(dk, 0, sizeof *dk);
    dk->lat = *lat;
    dk->gpu = gpu;
    dk->device = device;
    dk->nthreads = qf_runtime_ncpu_workers();
    if (plan_create(&dk->plan, lat, p, form, gauge, in)) return QF_ERROR;
    dk->bytes = plan_bytes(&dk->plan, lat);
    if (gpu) return QF_SUCCESS;
    int nf = dk->plan.nblocks * QF_WILSON_NFACES;
    if (!(dk->faces = calloc((size_t)nf, sizeof *dk->faces))) return qf_fail("out of host memory for the face buffers");
    for (int k = 0; k < nf; k++) {
        size_t fb = dk->plan.face_bytes[(k % QF_WILSON_NFACES) / 2];
        if (posix_memalign(&dk->faces[k], 64, fb ? fb : 64)) {
            dk->faces[k] = NULL;
            return qf_fail("out of host memory for the face buffers");
        }
        memset(dk->faces[k], 0, fb);
    }
    return QF_SUCCESS;
}

void qf_bench_direct_free(qf_bench_direct *dk)
{
    if (dk->faces)
        for (int k = 0; k < dk->plan.nblocks * QF_WILSON_NFACES; k++) free(dk->faces[k]);
    free(dk->faces);
    plan_free(&dk->plan);
    memset(dk, 0, sizeof *dk);
}

/* The direct kernels run with the runtime paused: idle StarPU workers poll on the cores (CPU), and
 * the GPU should run nothing else. `warmup` untimed applications, then n (n <= 0: about target_s
 * seconds); on the GPU the first application is also checked back into the plan's output buffers. */
static int direct_run(qf_bench_direct *dk, int warmup, long n, double target_s, qf_bench_timing *t)
{
    int rc = QF_SUCCESS;
    qf_runtime_wait_all();
    qf_runtime_pause();
    if (!dk->gpu) {
        cpu_direct cd = {.p = &dk->plan, .face = dk->faces, .nthreads = dk->nthreads};
        rc = qf_bench_timed(cpu_direct_run, &cd, warmup, n, target_s, t);
    }
#if QF_HAVE_CUDA
    else {
        char err[512] = "";
        t->n = n > 0 ? n : 0;
        t->rounds = 1;
        if (qf_bench_cuda_direct(&dk->plan, dk->device, warmup, target_s, &t->n, &t->seconds, err, sizeof err))
            rc = qf_fail("direct CUDA kernels: %s", err);
        else
            t->best = t->seconds / (double)t->n;
    }
#endif
    qf_runtime_resume();
    return rc;
}

int qf_bench_direct_check(qf_bench_direct *dk, const double *ref, double *diff)
{
    qf_bench_timing one;
    const qf_lattice *lat = &dk->lat;
    int64_t n = lat->global_volume * 24;
    double *dir = calloc((size_t)n, sizeof *dir);
    if (!dir) return qf_fail("out of host memory for a colour-spinor field");
    int rc = direct_run(dk, 0, 1, 0.0, &one);
    double tol = qf_bench_check_tolerance(dk->plan.prec), refn = 0.0;
    if (!rc) {
        pack(&dk->plan, lat, dir, 24, dk->plan.spinor[QF_BENCH_OUT], 0);
        *diff = rel_diff(dir, ref, n);
        for (int64_t i = 0; i < n; i++) refn += ref[i] * ref[i];
        if (!(refn > 0.0) || !isfinite(refn))
            rc = qf_fail("the task graph's Mhat of the random source has |x|^2 = %g: nothing to compare", refn);
        else if (!(*diff <= tol))
            rc = qf_fail("the direct kernels and the task graph disagree: relative difference %.3e > %.0e. The benchmark "
                         "would time wrong results; this is a bug (in the benchmark's copy of the hop sequence, or in "
                         "the operator), please report it with this command line",
                         *diff, tol);
    }
    free(dir);
    return rc;
}

int qf_bench_direct_time(qf_bench_direct *dk, int warmup, long n, double target_s, qf_bench_timing *t)
{
    return direct_run(dk, warmup, n, target_s, t);
}

/* ---- bench dslash ---- */

static void print_rate(const char *label, const qf_bench_timing *t, double flops, double bytes)
{
    double per = t->seconds / (double)t->n;
    printf("%-13s %ld applications in %.3f s: %.1f us each, %.2f GFLOPS, %.2f GB/s\n", label, t->n, t->seconds, per * 1e6,
           flops / per * 1e-9, bytes / per * 1e-9);
    if (t->rounds > 1)
        printf("%-13s best of %d rounds: %.1f us each, %.2f GFLOPS, %.2f GB/s\n", "", t->rounds, t->best * 1e6,
               flops / t->best * 1e-9, bytes / t->best * 1e-9);
}

static int dslash(const bench_opts *o)
{
    int dims[4] = {16, 16, 16, 16};
    if (o->dims[0]) memcpy(dims, o->dims, sizeof dims);
    qf_lattice lat;
    if (qf_app_lattice(&lat, dims, o->blocks, 1)) return QF_ERROR;
    int ncpu = qf_runtime_ncpu_workers(), ncuda = qf_runtime_ncuda_workers();
    int gpu, device;
    if (qf_bench_direct_path(&gpu, &device)) return QF_ERROR;

    printf("bench dslash  Mhat (QF_OP_MHAT, even-odd Wilson%s), weak-field gauge (eps 0.1), random source, seed %llu\n",
           o->p.csw != 0.0 ? "-clover" : "", (unsigned long long)o->seed);
    printf("lattice       %d %d %d %d, %s precision, blocks %d x %d x %d x %d of %d x %d x %d x %d sites\n", dims[0],
           dims[1], dims[2], dims[3], qf_precision_name(o->p.prec), lat.blocks[0], lat.blocks[1], lat.blocks[2],
           lat.blocks[3], lat.block[0], lat.block[1], lat.block[2], lat.block[3]);
    qf_app_print_operator(&o->p, o->form);
    if (gpu)
        printf("path          GPU: task graph on %d CUDA + %d CPU workers (scheduler %s)%s; direct kernels on CUDA "
               "device %d, one stream\n",
               ncuda, ncpu, qf_runtime_sched_name(), ncpu ? " -- pass --ncpu 0 --ncuda 1 for a GPU-only graph" : "",
               device);
    else
        printf("path          CPU: task graph on %d CPU workers (scheduler %s)%s; direct kernels on %d threads, one "
               "per CPU worker\n",
               ncpu, qf_runtime_sched_name(), ncuda ? " (CUDA workers present but no GPU usable)" : "", ncpu);

    int64_t vol = lat.global_volume;
    qf_field *u = NULL, *f[2] = {NULL, NULL};
    qf_dirac *d = NULL;
    qf_bench_direct dk;
    memset(&dk, 0, sizeof dk);
    double *src = malloc((size_t)vol * 24 * sizeof *src), *ref = malloc((size_t)vol * 24 * sizeof *ref);
    int rc = !src || !ref ? qf_fail("out of host memory for two colour-spinor fields") : QF_SUCCESS;
    rc = rc || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_WEAK, o->seed, 0.1);
    rc = rc || qf_dirac_create(&d, u, &o->p, o->form);
    rc = rc || qf_field_create(&f[0], &lat, QF_FIELD_WILSON, o->p.prec, 0) ||
         qf_field_create(&f[1], &lat, QF_FIELD_WILSON, o->p.prec, 0);
    if (!rc) {
        qf_app_random_spinor(src, vol, o->seed);
        rc = qf_field_import(f[0], src);
    }
    /* the reference: one application by the task graph */
    rc = rc || qf_dirac_apply(d, QF_OP_MHAT, f[1], f[0]) || qf_field_export(f[1], ref);
    rc = rc || qf_bench_direct_create(&dk, &lat, &o->p, o->form, u, f[0], gpu, device);
    if (u) qf_field_destroy(u);
    u = NULL;

    double flops = rc ? 0.0 : qf_dirac_flops(d, QF_OP_MHAT), bytes = dk.bytes;
    if (!rc) {
        int rs = (int)qf_real_size(o->p.prec);
        printf("counts        %.4g flops an application (qf_dirac_flops: %.0f a site)\n", flops, flops / (double)vol);
        printf("              %.4g bytes an application, %d-byte reals, per output site of each of the 2 half-lattice hops:\n"
               "              dslash 8 x (18 gauge + 24 spinor) = 336 reals (%d bytes), + 24 output write, + 72 clover\n"
               "              where the fused finish reads it (hop 1: %s; hop 2: %s), + 24 x read (hop 2); faces and\n"
               "              the interior's partial sums of face sites not counted (QUDA's rule)\n",
               bytes, rs, 336 * rs, dk.plan.hop[0].clover >= 0 ? "A^-1" : "none",
               dk.plan.hop[1].clover == 0 ? "A" : dk.plan.hop[1].clover == 1 ? "A^-1" : "none");
    }

    double diff = 0.0;
    rc = rc || qf_bench_direct_check(&dk, ref, &diff);
    if (!rc)
        printf("check         direct kernels agree with the task graph: relative difference %.2e (tolerance %.0e)\n",
               diff, qf_bench_check_tolerance(o->p.prec));

    qf_bench_timing graph = {0}, direct = {0};
    double ceiling = 0.0;
    rc = rc || qf_bench_graph_time(d, f, o->warmup, o->iters, target_seconds, &graph);
    if (!rc) print_rate("task graph", &graph, flops, bytes);
    fflush(stdout);
    rc = rc || qf_bench_direct_time(&dk, o->warmup, o->iters, target_seconds, &direct);
    if (!rc) print_rate("direct", &direct, flops, bytes);

    rc = rc || qf_bench_ceiling(gpu, device, ncpu, &ceiling);
    if (!rc) {
        /* best against best (qf_bench_timing), the means' ratios after them */
        double bw_graph = bytes / graph.best * 1e-9, bw_direct = bytes / direct.best * 1e-9;
        double mean_graph = bytes / (graph.seconds / (double)graph.n) * 1e-9;
        double mean_direct = bytes / (direct.seconds / (double)direct.n) * 1e-9;
        printf("ratio         task graph / ceiling  %.3f  (bandwidth, best rounds; means %.3f)\n", bw_graph / ceiling,
               mean_graph / ceiling);
        printf("ratio         direct / ceiling      %.3f  (bandwidth, best rounds; means %.3f)\n", bw_direct / ceiling,
               mean_direct / ceiling);
        printf("ratio         task graph / direct   %.3f  (time direct / time task graph: what the runtime keeps; means "
               "%.3f)\n",
               bw_graph / bw_direct, mean_graph / mean_direct);
    }

    qf_bench_direct_free(&dk);
    if (d) qf_dirac_destroy(d);
    for (int k = 0; k < 2; k++)
        if (f[k]) qf_field_destroy(f[k]);
    free(src);
    free(ref);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_bench_timing_option(const char *cmd, int argc, char **argv, int *i, long *iters, int *warmup, uint64_t *seed)
{
    const char *a = argv[*i];
    int rc;
    if (!strcmp(a, "--iters")) {
        int n = 0;
        rc = qf_app_int(cmd, argc, argv, i, &n);
        if (!rc && n < 1) return qf_app_usage_error(cmd, "--iters %d: at least 1", n);
        *iters = n;
        return rc;
    }
    if (!strcmp(a, "--warmup")) {
        rc = qf_app_int(cmd, argc, argv, i, warmup);
        if (!rc && *warmup < 0) return qf_app_usage_error(cmd, "--warmup %d: 0 or more", *warmup);
        return rc;
    }
    if (!strcmp(a, "--seed")) return qf_app_u64(cmd, argc, argv, i, seed);
    return QF_BENCH_NOT_A_TIMING_OPTION;
}

static int parse(int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->p = qf_dirac_default_params(0.12);
    o->p.csw = 1.0;
    o->p.prec = QF_SINGLE;
    o->form = QF_SCHUR_ASYMMETRIC;
    o->warmup = 2;
    o->seed = 1;
    const char *cmd = "bench dslash";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if (!strcmp(a, "--dim")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        } else if ((op_rc = qf_app_dirac_option(cmd, argc, argv, &i, &o->p, &o->form)) != QF_APP_NOT_AN_OPERATOR_OPTION) {
            rc = op_rc;
        } else if ((op_rc = qf_bench_timing_option(cmd, argc, argv, &i, &o->iters, &o->warmup, &o->seed)) !=
                   QF_BENCH_NOT_A_TIMING_OPTION) {
            rc = op_rc;
        } else {
            return qf_app_usage_error(cmd, "%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument", a);
        }
        if (rc) return rc;
    }
    return 0;
}

int qf_bench_dslash(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    bench_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = qf_app_single_process("bench dslash") || dslash(&o);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
