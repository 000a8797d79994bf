/* quarkflow bench dslash: the even-odd Wilson-clover operator Mhat (QF_OP_MHAT) as a task graph,
 * the same kernels called directly without the runtime, and the machine's memory-bandwidth ceiling
 * measured in the same run (DESIGN.md, "Performance method").
 *
 *   task graph  N back-to-back qf_dirac_apply calls, input and output swapped after each so that
 *               they chain, one qf_runtime_wait_all at the end; wall time / N, and the best of 5
 *               rounds of N / 5 (qf_timing: the ratios take the best, as the ceiling does).
 *   chained     the same, --chain applications a chain (qf_chain_begin; 2 by default, a BiCGStab
 *               iteration's two; a solver's run chain between two residual checks holds nine
 *               iterations' 18): one task for them where the lattice is one block in one process (a
 *               one-GPU run), the same tasks as the task graph's elsewhere.
 *   direct      the same kernels on plain buffers that hold the task graph's own data, in the
 *               sequence of hops the library runs for Mhat, without StarPU (the library's direct/
 *               layer, include/quarkflow/qf_direct.h: one thread per StarPU CPU worker on its core,
 *               with the runtime paused, or one CUDA stream).
 *   direct waited  on one GPU, the same with each application launched only once the host has seen
 *               the last one end: the most a graph of one task an application can keep under a
 *               runtime that starts a dependent task when it sees its predecessor end (StarPU 1.3).
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
 * pass through them), and correctness is checked before.
 *
 * --action asqtad times the asqtad D (qf_asqtad_dslash, all sites) as a task graph against the same
 * ceiling; it has no direct kernels. */
#include "app.h"
#include "dslash_bench.h"
#include "qf_bench.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow bench dslash [options]\n"
    "\n"
    "Benchmarks the even-odd Wilson-clover operator Mhat (QF_OP_MHAT) on a weak-field gauge field and\n"
    "a random source: the task graph (qf_dirac_apply), the same kernels called directly without\n"
    "StarPU, and the memory-bandwidth ceiling of the machine measured in the same run (STREAM triad\n"
    "on CPUs, device-to-device copy on the GPU), with the ratios. With CUDA workers the GPU path is\n"
    "benchmarked (pass --ncpu 0 --ncuda 1 for a GPU-only task graph), the CPU path otherwise. With\n"
    "several GPUs (--ncuda N, one block each) or several processes (mpirun, one GPU or core slice each)\n"
    "the graph is compared with the ceiling of all of them; several processes run no direct kernels.\n"
    "On one GPU the lattice is one block and Mhat one task; QF_STENCIL_FUSE=never in the environment\n"
    "times the graph of a gather, an interior and an exterior task a hop instead. On one GPU the direct\n"
    "kernels are also timed each launched once the host has seen the last end ('direct waited'): the\n"
    "most that one task an application can keep under a runtime that starts a task when it sees its\n"
    "predecessor end.\n"
    "\n"
    "Options:\n"
    "  --dim X Y Z T       lattice extents (default 16 16 16 16)\n"
    "  --prec P            precision of the operator and its fields: double, single (default) or half\n"
    "  --recon 18|12|8     reals kept a gauge link (QUDA's reconstruct; default 18: whole links)\n"
    QF_APP_BLOCKS_HELP
    "  --kappa K           hopping parameter (default 0.12)\n"
    "  --csw C             clover coefficient (default 1.0; 0: plain Wilson)\n"
    "  --schur asym|sym    even-odd form (default asym)\n"
    "  --chain N           applications a chain in the chained timing (default 2: a BiCGStab iteration's\n"
    "                      two; 18: the nine iterations a solver chains between two residual checks at\n"
    "                      the default cadence; a chain holds at most 80 tasks, and longer ones split)\n"
    "  --bc X Y Z T        boundary phases as for quarkflow apply (default periodic in space, antiperiodic in t)\n"
    "  --iters N           timed applications (default: enough for about 2 s, for each of the task\n"
    "                      graph and the direct kernels)\n"
    "  --warmup W          untimed applications before each timing (default 2)\n"
    "  --seed S            seed of the gauge field and the source (default 1)\n"
    "\n"
    "  --action A          wilson (default: the operator above) or asqtad: the improved staggered D on all\n"
    "                      sites (qf_asqtad_dslash, MILC's conventions) as a task graph, on fat and Naik\n"
    "                      links smeared from the weak field, in --prec double or single (default single),\n"
    "                      against the same ceiling (no direct kernels; --kappa, --csw, --recon and\n"
    "                      --schur belong to the Wilson action)\n"
    "  --u0 U              asqtad: tadpole factor of the smearing (default 1)\n"
    "\n"
    "Counts: flops by qf_dirac_flops (QUDA's: 1320 a site for the dslash, 504 for the clover term,\n"
    "48 for x + b y); bytes by QUDA's rule, listed in the output. Asqtad: 1146 flops a site (QUDA's);\n"
    "bytes by QUDA's rule without link compression: per output site 16 links of 18 reals, 16 input\n"
    "vectors of 6 reals and the output vector's 6 reals, 390 reals of 8 bytes (double) or 4 (single).\n"
    "Results: bench/RESULTS.md.\n\n";

typedef struct {
    int dims[4], blocks[4];
    qf_dirac_params p;
    qf_schur_form form;
    long iters;
    int warmup;
    int chain; /* applications a chain in the chained timing */
    uint64_t seed;
    qf_app_action action;
    double u0;
    int u0_given;
    const char *wilson_option; /* the first Wilson-only option given, refused with --action asqtad */
} bench_opts;

static const double target_seconds = 2.0;

/* ---- the task graph ---- */

typedef struct {
    qf_dirac *d;
    qf_field **f;
    int chain; /* applications a chain (qf_chain_begin), 0: none */
} graph_ctx;

/* The end of a timed graph: its tasks done, the slowest process's time on every process, so that all
 * take qf_timing_run's probe and count decisions alike (each its own: one process stopped probing while
 * another sent it the next application's faces, and both waited for ever) */
static int graph_seconds(double t0, double *seconds)
{
    qf_runtime_wait_all();
    *seconds = qf_timing_now() - t0;
    return qf_runtime_max_double(seconds);
}

static int graph_run(void *ctx, long n, double *seconds)
{
    graph_ctx *g = ctx;
    qf_runtime_wait_all();
    double t0 = qf_timing_now();
    long step = g->chain > 0 ? g->chain : 1;
    for (long k = 0; k < n; k += step) {
        long end = k + step < n ? k + step : n;
        int rc = g->chain ? qf_chain_begin() : QF_SUCCESS;
        for (long j = k; j < end && !rc; j++) rc = qf_dirac_apply(g->d, QF_OP_MHAT, g->f[(j + 1) & 1], g->f[j & 1]);
        if ((g->chain && qf_chain_end()) || rc) return QF_ERROR;
    }
    return graph_seconds(t0, seconds);
}

int qf_bench_graph_time(qf_dirac *d, qf_field *f[2], int warmup, long n, double target_s, qf_timing *t)
{
    graph_ctx g = {d, f, 0};
    return qf_timing_run(graph_run, &g, warmup, n, target_s, t);
}

/* ---- the ceiling ---- */

int qf_bench_ceiling(int gpu, int device, int ncpu, double *gbps)
{
    size_t bytes = 0;
    if (qf_direct_ceiling(gpu, device, ncpu, gbps, &bytes)) return QF_ERROR;
    if (!gpu)
        printf("ceiling       STREAM triad a = b + s c, 3 arrays of %zu MiB, %d threads, best of 10: %.2f GB/s "
               "(3 x 8 bytes an element)\n",
               bytes >> 20, ncpu, *gbps);
    else
        printf("ceiling       cudaMemcpy device to device, %zu MiB, best of 10: %.2f GB/s (bytes read + written)\n",
               bytes >> 20, *gbps);
    return QF_SUCCESS;
}

/* ---- bench dslash ---- */

/* The clover field the fused finish of hop k reads: 0 A, 1 A^-1, -1 none. */
static int hop_clover(const qf_dirac_hop *h, int n, int k)
{
    return k >= n || h[k].clover_on == QF_CLOVER_NONE ? -1 : h[k].clover_inverse;
}

static void print_rate(const char *label, const qf_timing *t, double flops, double bytes)
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
    if (qf_app_lattice(&lat, dims, o->blocks, 1, NULL)) return QF_ERROR;
    int ncpu = qf_runtime_ncpu_workers(), ncuda = qf_runtime_ncuda_workers();
    int gpu, device;
    if (qf_direct_path(&gpu, &device)) return QF_ERROR;

    printf("bench dslash  Mhat (QF_OP_MHAT, even-odd Wilson%s), weak-field gauge (eps 0.1), random source, seed %llu\n",
           o->p.csw != 0.0 ? "-clover" : "", (unsigned long long)o->seed);
    printf("lattice       %d %d %d %d, %s precision, blocks %d x %d x %d x %d of %d x %d x %d x %d sites\n", dims[0],
           dims[1], dims[2], dims[3], qf_precision_name(o->p.prec), lat.blocks[0], lat.blocks[1], lat.blocks[2],
           lat.blocks[3], lat.block[0], lat.block[1], lat.block[2], lat.block[3]);
    qf_app_print_operator(&o->p, o->form);
    /* Several processes: each has its part of the graph, and the direct kernels (one process's blocks
     * with the neighbours' faces they would need missing) are not run; the ceiling is one device's or
     * one process's, times their number (the processes measure theirs at the same time). */
    int nprocs = qf_runtime_nprocs(), one_proc = nprocs == 1;
    int ndevices = nprocs * (gpu ? ncuda : 1);
    char direct_where[96];
    if (!one_proc)
        snprintf(direct_where, sizeof direct_where, "direct kernels not run (%d processes)", nprocs);
    else if (gpu)
        snprintf(direct_where, sizeof direct_where, "direct kernels on CUDA device %d, one stream%s", device,
                 ncuda > 1 ? ", every block" : "");
    else
        snprintf(direct_where, sizeof direct_where, "direct kernels on %d threads, one per CPU worker", ncpu);
    char each[48] = "";
    if (!one_proc) snprintf(each, sizeof each, " in each of %d processes", nprocs);
    if (gpu)
        printf("path          GPU: task graph on %d CUDA + %d CPU workers%s (scheduler %s)%s; %s\n", ncuda, ncpu, each,
               qf_runtime_sched_name(), ncpu ? " -- pass --ncpu 0 for a GPU-only graph" : "", direct_where);
    else
        printf("path          CPU: task graph on %d CPU workers%s (scheduler %s)%s; %s\n", ncpu, each,
               qf_runtime_sched_name(), ncuda ? " (CUDA workers present but no GPU usable)" : "", direct_where);

    int64_t vol = lat.global_volume;
    qf_field *u = NULL, *f[2] = {NULL, NULL};
    qf_dirac *d = NULL;
    qf_direct *dk = NULL;
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
    if (one_proc) rc = rc || qf_direct_create(&dk, &lat, &o->p, o->form, u, f[0], gpu, device);
    if (u) qf_field_destroy(u);
    u = NULL;

    double flops = rc ? 0.0 : qf_dirac_flops(d, QF_OP_MHAT), bytes = qf_direct_mhat_bytes(&o->p, o->form, vol);
    if (!rc) {
        int nh = 0;
        qf_dirac_hop h[QF_DIRAC_MAX_HOPS];
        qf_dirac_schur_hops(&o->p, o->form, h, &nh);
        double link = qf_direct_link_bytes(o->p.recon, o->p.prec), spinor = (double)qf_record_bytes(o->p.prec, 24);
        printf("counts        %.4g flops an application (qf_dirac_flops: %.0f a site)\n", flops, flops / (double)vol);
        printf("              %.4g bytes an application (%s precision), per output site of each of the 2 half-lattice\n"
               "              hops: dslash 8 x (%g a link (%d reals, reconstruct %s) + %g a spinor) = %g bytes, + the\n"
               "              output written, + the clover site (%zu bytes) where the fused finish reads it (hop 1: %s;\n"
               "              hop 2: %s), + x read (hop 2); faces and the interior's partial sums of face sites not\n"
               "              counted (QUDA's rule)\n",
               bytes, qf_precision_name(o->p.prec), link, qf_recon_link_reals(o->p.recon), qf_recon_name(o->p.recon), spinor,
               8 * (link + spinor), qf_record_bytes(o->p.prec, 72), hop_clover(h, nh, 0) >= 0 ? "A^-1" : "none",
               hop_clover(h, nh, 1) == 0 ? "A" : hop_clover(h, nh, 1) == 1 ? "A^-1" : "none");
    }

    double diff = 0.0;
    if (dk) {
        rc = rc || qf_direct_check(dk, ref, &diff);
        if (!rc)
            printf("check         direct kernels agree with the task graph: relative difference %.2e (tolerance %.0e)\n",
                   diff, qf_direct_check_tolerance(o->p.prec));
    }

    qf_timing graph = {0}, chained = {0}, direct = {0}, waited = {0};
    const int one_gpu = dk && gpu && ndevices == 1;
    double ceiling = 0.0;
    rc = rc || qf_bench_graph_time(d, f, o->warmup, o->iters, target_seconds, &graph);
    if (!rc) print_rate("task graph", &graph, flops, bytes);
    graph_ctx chains = {d, f, o->chain};
    char chained_label[32];
    snprintf(chained_label, sizeof chained_label, "chained by %d", o->chain);
    rc = rc || qf_timing_run(graph_run, &chains, o->warmup, o->iters, target_seconds, &chained);
    if (!rc) print_rate(chained_label, &chained, flops, bytes);
    fflush(stdout);
    if (dk) {
        rc = rc || qf_direct_time(dk, o->warmup, 0, o->iters, target_seconds, &direct);
        if (!rc) print_rate(ncuda > 1 && gpu ? "direct 1 GPU" : "direct", &direct, flops, bytes);
    }
    if (one_gpu) {
        rc = rc || qf_direct_time(dk, o->warmup, 1, o->iters, target_seconds, &waited);
        if (!rc) print_rate("direct waited", &waited, flops, bytes);
    }

    rc = rc || qf_bench_ceiling(gpu, device, ncpu, &ceiling);
    if (!rc && ndevices > 1)
        printf("ceiling       x %d %s: %.2f GB/s\n", ndevices, gpu ? "GPUs" : "processes", ceiling * ndevices);
    if (!rc) {
        /* best against best (qf_timing), the means' ratios after them; the graph against every device's
         * ceiling, the direct kernels (one device) against one's */
        double bw_graph = bytes / graph.best * 1e-9;
        double mean_graph = bytes / (graph.seconds / (double)graph.n) * 1e-9;
        printf("ratio         task graph / ceiling  %.3f  (bandwidth, best rounds; means %.3f)\n",
               bw_graph / (ceiling * ndevices), mean_graph / (ceiling * ndevices));
        if (dk) {
            double bw_direct = bytes / direct.best * 1e-9;
            double mean_direct = bytes / (direct.seconds / (double)direct.n) * 1e-9;
            printf("ratio         direct / ceiling      %.3f  (bandwidth, best rounds; means %.3f)\n", bw_direct / ceiling,
                   mean_direct / ceiling);
            printf("ratio         task graph / direct   %.3f  (time direct / time task graph: %s; means %.3f)\n",
                   bw_graph / bw_direct,
                   ncuda > 1 && gpu ? "the speed-up of the GPUs' graph over one GPU's kernels" : "what the runtime keeps",
                   mean_graph / mean_direct);
            printf("ratio         chained / direct      %.3f  (%d applications a chain; means %.3f)\n",
                   direct.best / chained.best, o->chain,
                   (direct.seconds / (double)direct.n) / (chained.seconds / (double)chained.n));
        }
        if (one_gpu) {
            printf("ratio         waited / direct       %.3f  (the most that one task an application can keep: "
                   "each launched once the host has seen the last end)\n",
                   direct.best / waited.best);
            printf("ratio         task graph / waited   %.3f  (what the runtime keeps beside that wait; means %.3f)\n",
                   waited.best / graph.best, (waited.seconds / (double)waited.n) / (graph.seconds / (double)graph.n));
        }
    }

    qf_direct_destroy(dk);
    if (d) qf_dirac_destroy(d);
    for (int k = 0; k < 2; k++)
        if (f[k]) qf_field_destroy(f[k]);
    free(src);
    free(ref);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* ---- bench dslash --action asqtad ---- */

typedef struct {
    qf_asqtad *op;
    qf_field **f;
} asqtad_ctx;

static int asqtad_run(void *ctx, long n, double *seconds)
{
    asqtad_ctx *g = ctx;
    qf_runtime_wait_all();
    double t0 = qf_timing_now();
    for (long k = 0; k < n; k++)
        if (qf_asqtad_dslash(g->op, g->f[(k + 1) & 1], g->f[k & 1])) return QF_ERROR;
    return graph_seconds(t0, seconds);
}

static int asqtad_dslash(const bench_opts *o)
{
    int dims[4] = {16, 16, 16, 16};
    if (o->dims[0]) memcpy(dims, o->dims, sizeof dims);
    qf_lattice lat;
    /* the Naik hop's faces are 3 deep: blocks of at least 4 */
    if (qf_app_lattice(&lat, dims, o->blocks, 4, NULL)) return QF_ERROR;
    int ncpu = qf_runtime_ncpu_workers(), ncuda = qf_runtime_ncuda_workers();
    int gpu, device;
    if (qf_direct_path(&gpu, &device)) return QF_ERROR;
    int nprocs = qf_runtime_nprocs(), ndevices = nprocs * (gpu ? ncuda : 1);
    printf("bench dslash  asqtad D (qf_asqtad_dslash, all sites), weak-field gauge (eps 0.1) smeared with u0 %g, random "
           "source, seed %llu\n",
           o->u0, (unsigned long long)o->seed);
    printf("lattice       %d %d %d %d, %s precision, blocks %d x %d x %d x %d of %d x %d x %d x %d sites\n", dims[0],
           dims[1], dims[2], dims[3], qf_precision_name(o->p.prec), lat.blocks[0], lat.blocks[1], lat.blocks[2],
           lat.blocks[3], lat.block[0], lat.block[1], lat.block[2], lat.block[3]);
    qf_app_print_boundary(o->p.phase);
    char each[48] = "";
    if (nprocs > 1) snprintf(each, sizeof each, " in each of %d processes", nprocs);
    if (gpu)
        printf("path          GPU: task graph on %d CUDA + %d CPU workers%s (scheduler %s); no direct kernels for asqtad\n",
               ncuda, ncpu, each, qf_runtime_sched_name());
    else
        printf("path          CPU: task graph on %d CPU workers%s (scheduler %s); no direct kernels for asqtad\n", ncpu, each,
               qf_runtime_sched_name());

    int64_t vol = lat.global_volume;
    qf_field *u = NULL, *links = NULL, *f[2] = {NULL, NULL};
    qf_asqtad *op = NULL;
    double *src = malloc((size_t)vol * 6 * sizeof *src), smear = 0.0;
    int rc = !src ? qf_fail("out of host memory for a colour-vector field") : QF_SUCCESS;
    rc = rc || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_WEAK, o->seed, 0.1) ||
         qf_app_asqtad_links(u, o->u0, o->p.phase, QF_SMEAR_STANDARD, &links, &smear);
    qf_asqtad_params ap = {.mass = 0.1, .prec = o->p.prec}; /* D does not read the mass */
    rc = rc || qf_asqtad_create(&op, links, &ap) || qf_field_create(&f[0], &lat, QF_FIELD_STAGGERED, o->p.prec, 0) ||
         qf_field_create(&f[1], &lat, QF_FIELD_STAGGERED, o->p.prec, 0);
    if (!rc) {
        qf_app_random_colour_vector(src, vol, o->seed);
        rc = qf_field_import(f[0], src);
    }
    if (u) qf_field_destroy(u);
    if (links) qf_field_destroy(links);

    /* QUDA's counts: 1146 flops a site; per output site 16 links (18 reals), 16 input vectors and the
     * output vector (6 reals each), no link compression */
    size_t real = qf_record_bytes(o->p.prec, 1);
    double flops = qf_asqtad_dslash_flops(&lat), site_bytes = (16.0 * 18 + 16.0 * 6 + 6) * (double)real,
           bytes = site_bytes * (double)vol;
    if (!rc) {
        printf("links         smeared in %.3f s\n", smear);
        printf("counts        %.4g flops an application (qf_asqtad_dslash_flops: %.0f a site, QUDA's count)\n", flops,
               flops / (double)vol);
        printf("              %.4g bytes an application (%s precision), per output site 16 links x 18 reals + 16 input\n"
               "              vectors x 6 reals + the output vector's 6 reals = 390 reals x %zu bytes = %g bytes (QUDA's\n"
               "              rule for asqtad without link compression; faces not counted)\n",
               bytes, qf_precision_name(o->p.prec), real, site_bytes);
    }
    qf_timing graph = {0};
    double ceiling = 0.0;
    asqtad_ctx ctx = {op, f};
    rc = rc || qf_timing_run(asqtad_run, &ctx, o->warmup, o->iters, target_seconds, &graph);
    if (!rc) print_rate("task graph", &graph, flops, bytes);
    fflush(stdout);
    rc = rc || qf_bench_ceiling(gpu, device, ncpu, &ceiling);
    if (!rc && ndevices > 1)
        printf("ceiling       x %d %s: %.2f GB/s\n", ndevices, gpu ? "GPUs" : "processes", ceiling * ndevices);
    if (!rc) {
        double bw = bytes / graph.best * 1e-9, mean = bytes / (graph.seconds / (double)graph.n) * 1e-9;
        printf("ratio         task graph / ceiling  %.3f  (bandwidth, best rounds; means %.3f)\n", bw / (ceiling * ndevices),
               mean / (ceiling * ndevices));
    }
    for (int k = 0; k < 2; k++)
        if (f[k]) qf_field_destroy(f[k]);
    qf_asqtad_destroy(op);
    free(src);
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
    o->chain = 2;
    o->seed = 1;
    o->u0 = 1.0;
    const char *cmd = "bench dslash";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if (!o->wilson_option && (!strcmp(a, "--kappa") || !strcmp(a, "--csw") || !strcmp(a, "--recon") ||
                                  !strcmp(a, "--recon-sloppy") || !strcmp(a, "--schur") || !strcmp(a, "--chain")))
            o->wilson_option = a;
        if (!strcmp(a, "--action")) {
            if (i + 1 >= argc || qf_app_action_parse(argv[i + 1], &o->action))
                return qf_app_usage_error(cmd, "--action '%s': give wilson or asqtad", i + 1 < argc ? argv[i + 1] : "");
            i++;
        } else if (!strcmp(a, "--u0")) {
            rc = qf_app_double(cmd, argc, argv, &i, &o->u0);
            if (!rc && !(o->u0 > 0.0 && o->u0 <= 1.0))
                return qf_app_usage_error(cmd, "--u0 %g: the tadpole factor lies in (0, 1]", o->u0);
            o->u0_given = 1;
        } else if (!strcmp(a, "--dim")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        } else if (!strcmp(a, "--chain")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->chain);
            if (!rc && o->chain < 1) return qf_app_usage_error(cmd, "--chain %d: at least 1 application a chain", o->chain);
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
    if (o->action == QF_APP_WILSON && o->u0_given)
        return qf_app_usage_error(cmd, "--u0 belongs to --action asqtad (the tadpole factor of its smeared links)");
    if (o->action == QF_APP_ASQTAD && o->wilson_option)
        return qf_app_usage_error(cmd, "%s belongs to the Wilson-clover operator, not to --action asqtad", o->wilson_option);
    if (o->action == QF_APP_ASQTAD && o->p.prec == QF_HALF)
        return qf_app_usage_error(cmd, "--prec half: the asqtad operator runs in double or single precision");
    return 0;
}

int qf_bench_dslash(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    bench_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = o.action == QF_APP_ASQTAD ? asqtad_dslash(&o) : dslash(&o);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
