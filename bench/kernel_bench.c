/* quarkflow bench kernels: the CPU Wilson hopping kernels (gather, interior, exterior) timed one call
 * at a time on one thread, without StarPU, in the last-level cache and out of it. Figures quoted for
 * kernel changes ("one 16x8x8x8 block, 32 sets of fields out of cache: interior 75-95 ns a site")
 * come from here, so that anyone can rerun them on the same build; bench dslash times the same
 * kernels inside a whole operator, on every core, where the cache and the runtime blur one kernel's
 * cost.
 *
 *   fields      one block's buffers in the fields' layout (qf_lattice.h; their sizes from
 *               qf_direct_block_sizes) for the second hop of Mhat, filled with uniform random reals; a "set" is
 *               one of each. Cycling over sets whose total is several times the LLC makes every call
 *               fetch its data from memory, as in an operator whose fields do not fit in the cache.
 *   kernels     the launchers the codelets call, one call at a time through the library's direct
 *               module (include/quarkflow/qf_direct.h, qf_direct_block_call), so that the version
 *               timed is the one the codelets run (AVX-512, AVX2 or baseline: qf_cpu_kernels(), which
 *               QF_CPU_KERNELS sets).
 *   ceiling     a single-thread read of a buffer of 4 x the LLC, best of 5: the kernels run on one
 *               thread, so a many-thread STREAM figure would not bound them.
 *
 * No runtime is started: nothing else runs on the cores this thread uses (a StarPU built with
 * non-blocking drivers would poll on them). */
#include "app.h"
#include "qf_bench.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: quarkflow bench kernels [options]\n"
    "\n"
    "Times the CPU Wilson hopping kernels (gather, interior, exterior) one call at a time on one\n"
    "thread, without StarPU: the launchers that the codelets call, through the library's direct\n"
    "module (include/quarkflow/qf_direct.h; they run the AVX-512, AVX2 or baseline version that\n"
    "QF_CPU_KERNELS names or the CPU allows), on one block's fields filled with uniform random\n"
    "numbers. Each kernel is timed on one set of fields (in the last-level cache when the set fits)\n"
    "and cycling over N sets (out of it), in ns per output\n"
    "site: the block's even half (V/2 sites) for all three, so that their sum is one hop's cost a\n"
    "site. Out of cache the interior's and the whole hop's GB/s by QUDA's byte rule are compared with\n"
    "a single-thread read ceiling measured in the same run (a sum over a buffer of 4 x the LLC, best\n"
    "of 5).\n"
    "\n"
    "The hop is Mhat's second (QF_OP_MHAT, asymmetric): out_e = A_ee x_e - kappa^2 D_eo t_o, kappa\n"
    "0.12, clover on x, boundary phases periodic in space and antiperiodic in t, on a one-block\n"
    "lattice (every face hop crosses the boundary; the block is its own neighbour). The gather writes\n"
    "the faces of the odd source t_o.\n"
    "\n"
    "Options:\n"
    "  --block X Y Z T     block extents, each even and at least 2 (default 16 8 8 8)\n"
    "  --prec P            precision of the fields: single (default), double or half\n"
    "  --sets N            sets of fields cycled out of cache, 1 to 256 (default: the fewest whose\n"
    "                      total is at least 4 x the last-level cache, at most 256)\n"
    "  --seconds S         time of each measurement, in 5 rounds (default 0.5)\n"
    "\n"
    "No StarPU runtime is started: the global options --ncpu, --ncuda, --sched and --trace do not\n"
    "apply. Results: bench/RESULTS.md.\n\n";

enum { MAX_SETS = 256 };

typedef struct {
    int block[QF_NDIM];
    qf_precision prec;
    int sets; /* 0: the default */
    double seconds;
} kernel_opts;

static double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

/* ---- the last-level cache ---- */

/* "32768K" and the like, as sysfs writes cache sizes */
static long parse_size(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v <= 0) return 0;
    if (*end == 'K') v <<= 10;
    else if (*end == 'M') v <<= 20;
    else if (*end == 'G') v <<= 30;
    return v;
}

/* The kernel's view first: glibc's sysconf counts the L3 of the whole package on some CPUs (320 MiB
 * on the 2-core Zen 4 VM, whose core sees one 32 MiB L3), which would ask for ten times the sets. */
static long llc_bytes(char *source, size_t len)
{
    long best = 0;
    int best_level = 0;
    for (int k = 0; k < 16; k++) {
        char path[128], buf[64];
        int level = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", k);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fscanf(f, "%d", &level) != 1) level = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", k);
        if (!(f = fopen(path, "r"))) continue;
        int instruction = fgets(buf, sizeof buf, f) && !strncmp(buf, "Instruction", 11);
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", k);
        if (instruction || level <= best_level || !(f = fopen(path, "r"))) continue;
        long size = fgets(buf, sizeof buf, f) ? parse_size(buf) : 0;
        fclose(f);
        if (size > 0) {
            best = size;
            best_level = level;
        }
    }
    long sc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (best > 0) {
        if (sc > 0 && sc != best)
            snprintf(source, len, "sysfs, cpu0's level-%d cache; sysconf(_SC_LEVEL3_CACHE_SIZE) says %.0f MiB",
                     best_level, mib((double)sc));
        else
            snprintf(source, len, "sysfs, cpu0's level-%d cache", best_level);
        return best;
    }
    if (sc > 0) {
        snprintf(source, len, "sysconf(_SC_LEVEL3_CACHE_SIZE)");
        return sc;
    }
    snprintf(source, len, "assumed: neither sysfs nor sysconf gives it");
    return 32L << 20;
}

/* ---- fields ---- */

/* one set: in, out, x, gauge, clover and the faces the gather writes (and the exterior reads, the
 * block being its own neighbour) */
typedef qf_direct_block_fields field_set;

typedef struct {
    int64_t volume;
    size_t spinor, gauge, clover, face[QF_DIRECT_NFACES], total;
} set_sizes;

static void sizes_of(const kernel_opts *o, const qf_direct_block *kb, set_sizes *z)
{
    qf_direct_block_bytes b;
    qf_direct_block_sizes(kb, &b);
    z->volume = qf_volume(o->block);
    z->spinor = b.spinor;
    z->gauge = b.gauge;
    z->clover = b.clover;
    z->total = 3 * z->spinor + z->gauge + z->clover;
    for (int k = 0; k < QF_DIRECT_NFACES; k++) {
        z->face[k] = b.face[k];
        z->total += z->face[k];
    }
}

/* Uniform reals in [-0.5, 0.5] from a 64-bit LCG (Knuth's MMIX constants), reproducible per buffer.
 * Zeros would let the kernels run on numbers that never change; random ones keep the sums honest. Half
 * records take the floats' bits: components of any value, finite norms. */
static void *random_buffer(size_t bytes, qf_precision prec, uint64_t seed)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64)) return NULL;
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    if (prec == QF_DOUBLE) {
        double *d = p;
        for (size_t i = 0; i < bytes / sizeof *d; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            d[i] = (double)(s >> 11) * 0x1p-53 - 0.5;
        }
    } else {
        float *f = p;
        for (size_t i = 0; i < bytes / sizeof *f; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            f[i] = (float)(s >> 40) * 0x1p-24f - 0.5f;
        }
    }
    return p;
}

static void set_free(field_set *s)
{
    free(s->in);
    free(s->out);
    free(s->gauge);
    free(s->x);
    free(s->clover);
    for (int k = 0; k < QF_DIRECT_NFACES; k++) free(s->face[k]);
    memset(s, 0, sizeof *s);
}

static int set_create(field_set *s, const set_sizes *z, qf_precision prec, int index)
{
    memset(s, 0, sizeof *s);
    uint64_t seed = (uint64_t)index * 16;
    s->in = random_buffer(z->spinor, prec, seed + 1);
    s->out = random_buffer(z->spinor, prec, seed + 2);
    s->gauge = random_buffer(z->gauge, prec, seed + 3);
    s->x = random_buffer(z->spinor, prec, seed + 4);
    s->clover = random_buffer(z->clover, prec, seed + 5);
    int ok = s->in && s->out && s->gauge && s->x && s->clover;
    for (int k = 0; k < QF_DIRECT_NFACES; k++)
        ok = (s->face[k] = random_buffer(z->face[k], prec, seed + 6 + (uint64_t)k)) && ok;
    if (ok) return QF_SUCCESS;
    set_free(s);
    return qf_fail("out of host memory for set %d of the fields (%.1f MiB a set)", index + 1, mib((double)z->total));
}

/* ---- the kernels ---- */

enum { K_GATHER = QF_DIRECT_GATHER, K_INTERIOR = QF_DIRECT_INTERIOR, K_EXTERIOR = QF_DIRECT_EXTERIOR, K_N = QF_DIRECT_NKERNELS };
static const char *const kernel_names[K_N] = {"gather", "interior", "exterior"};

typedef struct {
    const qf_direct_block *kb; /* Mhat's second hop, as bench dslash (and tasks/dirac.c) runs it */
    field_set *sets;
    int64_t out_sites;
} bench_ctx;

static void call(const bench_ctx *c, int k, const field_set *s) { qf_direct_block_call(c->kb, (qf_direct_kernel)k, s); }

/* Set 0 through the whole hop once: the even half must come out rewritten and finite, the odd half
 * untouched (the kernels write one parity). Otherwise the timings would be of some other work. */
static int check(const bench_ctx *c, const set_sizes *z, double *norm)
{
    const field_set *s = &c->sets[0];
    unsigned char *before = malloc(z->spinor);
    if (!before) return qf_fail("out of host memory for the check");
    memcpy(before, s->out, z->spinor);
    for (int k = 0; k < K_N; k++) call(c, k, s);
    int changed = 0, odd_kept = 1;
    double sum = 0.0;
    for (int64_t i = 0; i < z->volume; i++) { /* the even sites first */
        double v[24], w[24];
        qf_direct_block_spinor(c->kb, s->out, i, v);
        qf_direct_block_spinor(c->kb, before, i, w);
        int same = !memcmp(v, w, sizeof v);
        if (i >= z->volume / 2) {
            odd_kept = odd_kept && same;
            continue;
        }
        changed = changed || !same;
        for (int k = 0; k < 24; k++) sum += v[k] * v[k];
    }
    free(before);
    *norm = sum;
    if (!isfinite(sum))
        return qf_fail("one gather + interior + exterior on set 0 gave non-finite output (|out_e|^2 = %g) from inputs in "
                       "[-0.5, 0.5]: the kernels or their arguments are broken",
                       sum);
    if (!changed) return qf_fail("one gather + interior + exterior on set 0 left the output's even half unchanged");
    if (!odd_kept) return qf_fail("one gather + interior + exterior on set 0 wrote odd output sites (parity 0 asked)");
    return QF_SUCCESS;
}

/* k calls of one kernel, cycling over the sets from where the last run stopped */
typedef struct {
    const bench_ctx *c;
    int k, nsets, next;
} kernel_run;

static int run_kernel(void *ctx, long n, double *seconds)
{
    kernel_run *r = ctx;
    double t0 = qf_timing_now();
    for (long i = 0; i < n; i++) {
        call(r->c, r->k, &r->c->sets[r->next]);
        r->next = (r->next + 1) % r->nsets;
    }
    *seconds = qf_timing_now() - t0;
    return QF_SUCCESS;
}

/* Kernel k cycling over sets 0..nsets-1 for about target_s, by bench dslash's rule (warm-up, then
 * rounds; the best round's time a call). */
static void measure(const bench_ctx *c, int k, int nsets, double target_s, qf_timing *t)
{
    kernel_run r = {c, k, nsets, 0};
    qf_timing_run(run_kernel, &r, nsets, 0, target_s, t);
}

/* ns an output site: mean over all rounds, and the best round's */
static double ns_mean(const qf_timing *t, int64_t sites) { return t->seconds / (double)t->n / (double)sites * 1e9; }
static double ns_best(const qf_timing *t, int64_t sites) { return t->best / (double)sites * 1e9; }

/* ---- the ceiling: one thread reading ---- */

typedef double read_vec __attribute__((vector_size(32)));

/* Sum over `bytes` of doubles with four vector accumulators, so that the loop waits on memory and
 * not on the adds' latency; best of 5. The sum is checked, so the loop cannot be dropped. */
static int read_ceiling(size_t bytes, double *gbps)
{
    size_t n = bytes / sizeof(read_vec) / 4 * 4;
    void *p = NULL;
    if (posix_memalign(&p, 64, n * sizeof(read_vec)))
        return qf_fail("out of host memory for the read ceiling's %.0f MiB", mib((double)bytes));
    read_vec *v = p;
    for (size_t i = 0; i < n; i++) v[i] = (read_vec){1.0, 1.0, 1.0, 1.0};
    double best = INFINITY, total = 0.0;
    for (int r = 0; r < 5; r++) {
        read_vec a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
        double t0 = qf_timing_now();
        for (size_t i = 0; i < n; i += 4) {
            a0 += v[i];
            a1 += v[i + 1];
            a2 += v[i + 2];
            a3 += v[i + 3];
        }
        double dt = qf_timing_now() - t0;
        read_vec a = a0 + a1 + a2 + a3;
        total = a[0] + a[1] + a[2] + a[3];
        if (dt < best) best = dt;
    }
    free(v);
    if (total != 4.0 * (double)n) return qf_fail("the read ceiling summed %g instead of %g", total, 4.0 * (double)n);
    *gbps = (double)(n * sizeof(read_vec)) / best * 1e-9;
    return QF_SUCCESS;
}

/* ---- bench kernels ---- */

static void print_kernel(const char *label, int k, const char *sets, const qf_timing *t, int64_t sites,
                         double bytes)
{
    printf("%-13s %-9s %s: %.1f ns a site, best round %.1f (%ld calls in %.2f s)", label, kernel_names[k], sets,
           ns_mean(t, sites), ns_best(t, sites), t->n, t->seconds);
    if (bytes > 0) printf(", %.2f GB/s, best round %.2f", bytes / ns_mean(t, sites), bytes / ns_best(t, sites));
    printf("\n");
}

static void print_hop(const char *label, const qf_timing t[K_N], int64_t sites, double bytes)
{
    double mean = 0.0, best = 0.0;
    for (int k = 0; k < K_N; k++) {
        mean += ns_mean(&t[k], sites);
        best += ns_best(&t[k], sites);
    }
    printf("%-13s %-9s gather + interior + exterior: %.1f ns a site, best rounds %.1f", label, "hop", mean, best);
    if (bytes > 0) printf(", %.2f GB/s, best rounds %.2f", bytes / mean, bytes / best);
    printf("\n");
}

static int kernels(const kernel_opts *o)
{
    qf_dirac_params dp = qf_dirac_default_params(0.12);
    dp.prec = o->prec;
    dp.csw = 1.0; /* bench dslash's default: the second hop applies A_ee to x */
    qf_direct_block *kb = NULL;
    if (qf_direct_block_create(&kb, o->block, &dp, QF_SCHUR_ASYMMETRIC, 1)) return QF_ERROR;
    char llc_source[160];
    long llc = llc_bytes(llc_source, sizeof llc_source);
    set_sizes z;
    sizes_of(o, kb, &z);
    int nsets = o->sets, capped = 0;
    if (nsets <= 0) {
        double want = ceil(4.0 * (double)llc / (double)z.total);
        nsets = want < 1.0 ? 1 : want > MAX_SETS ? MAX_SETS : (int)want;
        capped = want > MAX_SETS;
    }
    double all = (double)z.total * nsets;
    bench_ctx c = {.kb = kb, .out_sites = qf_volume(o->block) / 2};
    const int64_t sites = c.out_sites;
    const double bytes = qf_direct_hop_bytes(qf_direct_block_hop(kb), QF_RECON_18, o->prec);

    printf("bench kernels CPU Wilson hopping kernels by their launchers (codelets/wilson_launch.h), one call at a time "
           "on one thread, no StarPU\n");
    printf("block         %d %d %d %d: %lld sites, %lld output sites (the even half), %s precision\n", o->block[0],
           o->block[1], o->block[2], o->block[3], (long long)z.volume, (long long)sites, qf_precision_name(o->prec));
    printf("hop           Mhat's second: out_e = A_ee x_e - kappa^2 D_eo t_o (a 1, b %g, clover on x), the gather "
           "projecting the odd t_o; one-block lattice (global = block): every face hop crosses the boundary, phases "
           "periodic in space, antiperiodic in t\n",
           qf_direct_block_hop(kb)->b);
    qf_cpu_kernels_level cpu = qf_cpu_kernels();
    printf("cpu kernels   %s (%s; QF_CPU_KERNELS=avx512|avx2|baseline|auto picks another)\n", qf_cpu_kernels_name(cpu),
           qf_cpu_kernels_target(cpu));
    printf("llc           %.1f MiB (%s)\n", mib((double)llc), llc_source);
    printf("set           %.2f MiB: in, out, x %.2f MiB each, gauge %.2f, clover %.2f, 8 faces %.3f; uniform random "
           "reals in [-0.5, 0.5]\n",
           mib((double)z.total), mib((double)z.spinor), mib((double)z.gauge), mib((double)z.clover),
           mib((double)(z.total - 3 * z.spinor - z.gauge - z.clover)));
    const char *why = o->sets > 0 ? "--sets"
                      : capped    ? "default, capped at 256 sets: less than 4 x the LLC"
                                  : "default: the fewest with at least 4 x the LLC";
    printf("sets          %d, %.1f MiB = %.2f x the LLC (%s)\n", nsets, mib(all), all / (double)llc, why);
    printf("counts        ns per output site (%lld a call) for every kernel, so that the three add up to the hop; "
           "GB/s of the interior and the hop by QUDA's rule as bench dslash counts a hop: 8 x (18 gauge + 24 spinor) "
           "+ 24 x + 72 clover + 24 output reals = %.0f bytes an output site%s; none for the gather and the "
           "exterior alone, which touch face sites only\n",
           (long long)sites, bytes, o->prec == QF_HALF ? " (in half, a record's 16-bit reals and its norm)" : "");
    fflush(stdout);

    field_set *sets = calloc((size_t)nsets, sizeof *sets);
    int rc = sets ? QF_SUCCESS : qf_fail("out of host memory for %d sets", nsets);
    int made = 0; /* a set that fails frees itself */
    while (!rc && made < nsets)
        if (!(rc = set_create(&sets[made], &z, o->prec, made))) made++;
    c.sets = sets;

    double norm = 0.0;
    rc = rc || check(&c, &z, &norm);
    if (!rc)
        printf("check         one gather + interior + exterior on set 0: even half rewritten and finite (|out_e|^2 = "
               "%.4g), odd half kept\n",
               norm);
    fflush(stdout);

    qf_timing in[K_N] = {{0}}, out[K_N] = {{0}};
    if (!rc) {
        char what[96];
        const char *label = (double)z.total <= (double)llc ? "in cache" : "one set";
        snprintf(what, sizeof what, "1 set (%.2f MiB%s)", mib((double)z.total),
                 (double)z.total <= (double)llc ? "" : ", larger than the LLC");
        for (int k = 0; k < K_N; k++) {
            measure(&c, k, 1, o->seconds, &in[k]);
            print_kernel(label, k, what, &in[k], sites, 0.0);
            fflush(stdout);
        }
        print_hop(label, in, sites, 0.0);
        snprintf(what, sizeof what, "%d sets (%.1f MiB, %.2f x the LLC)", nsets, mib(all), all / (double)llc);
        label = all > (double)llc ? "out of cache" : "many sets";
        for (int k = 0; k < K_N; k++) {
            measure(&c, k, nsets, o->seconds, &out[k]);
            print_kernel(label, k, what, &out[k], sites, k == K_INTERIOR ? bytes : 0.0);
            fflush(stdout);
        }
        print_hop(label, out, sites, bytes);
        if (all < 4.0 * (double)llc)
            printf("note          the sets hold %.2f x the LLC, less than 4 x: the cache holds part or all of them, so the "
                   "figures of %d sets are not out of cache\n",
                   all / (double)llc, nsets);
    }
    for (int s = 0; s < made; s++) set_free(&sets[s]);
    free(sets);
    qf_direct_block_destroy(kb);

    /* after the sets are freed, so that the run never holds both */
    double ceiling = 0.0;
    size_t ceiling_bytes = (size_t)4 * (size_t)llc;
    rc = rc || read_ceiling(ceiling_bytes, &ceiling);
    if (!rc) {
        printf("ceiling       read: sum over %.0f MiB of doubles (4 x the LLC), 1 thread, best of 5: %.2f GB/s\n",
               mib((double)ceiling_bytes), ceiling);
        double hop_mean = 0.0, hop_best = 0.0, in_mean = 0.0;
        for (int k = 0; k < K_N; k++) {
            hop_mean += ns_mean(&out[k], sites);
            hop_best += ns_best(&out[k], sites);
            in_mean += ns_mean(&in[k], sites);
        }
        printf("ratio         interior out of cache / ceiling  %.3f  (bandwidth by QUDA's rule, best round; mean %.3f)\n",
               bytes / ns_best(&out[K_INTERIOR], sites) / ceiling, bytes / ns_mean(&out[K_INTERIOR], sites) / ceiling);
        printf("ratio         hop out of cache / ceiling       %.3f  (bandwidth by QUDA's rule, best rounds; mean %.3f)\n",
               bytes / hop_best / ceiling, bytes / hop_mean / ceiling);
        printf("ratio         out of cache / in cache          gather %.2f, interior %.2f, exterior %.2f, hop %.2f "
               "(time a site, means)\n",
               ns_mean(&out[K_GATHER], sites) / ns_mean(&in[K_GATHER], sites),
               ns_mean(&out[K_INTERIOR], sites) / ns_mean(&in[K_INTERIOR], sites),
               ns_mean(&out[K_EXTERIOR], sites) / ns_mean(&in[K_EXTERIOR], sites), hop_mean / in_mean);
        printf("              QUDA's rule counts each neighbour spinor once a hop (8 x 24 reals a site); the kernels "
               "load each from memory about once, so the ratios to the ceiling can pass 1\n");
    }
    return rc;
}

static int parse(int argc, char **argv, kernel_opts *o)
{
    static const int default_block[QF_NDIM] = {16, 8, 8, 8};
    memset(o, 0, sizeof *o);
    memcpy(o->block, default_block, sizeof o->block);
    o->prec = QF_SINGLE;
    o->seconds = 0.5;
    const char *cmd = "bench kernels";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--block")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->block);
            if (!rc) {
                for (int mu = 0; mu < QF_NDIM; mu++)
                    if (o->block[mu] < 2 || o->block[mu] % 2)
                        return qf_app_usage_error(cmd,
                                                  "--block %d %d %d %d: extent %d (%c) is %s; every extent must be even and "
                                                  "at least 2 (the kernels store the two parities of a block in halves)",
                                                  o->block[0], o->block[1], o->block[2], o->block[3], o->block[mu],
                                                  "xyzt"[mu], o->block[mu] % 2 ? "odd" : "less than 2");
                double v = (double)o->block[0] * o->block[1] * o->block[2] * o->block[3];
                if (v > (double)(1 << 24))
                    return qf_app_usage_error(cmd, "--block %d %d %d %d: %.0f sites, at most 2^24 (16777216) in a block",
                                              o->block[0], o->block[1], o->block[2], o->block[3], v);
            }
        } else if (!strcmp(a, "--prec")) {
            if (i + 1 >= argc || qf_precision_parse(argv[i + 1], &o->prec))
                return qf_app_usage_error(cmd, "--prec needs single, double or half");
            i++;
        } else if (!strcmp(a, "--sets")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->sets);
            if (!rc && (o->sets < 1 || o->sets > MAX_SETS))
                return qf_app_usage_error(cmd, "--sets %d: 1 to %d", o->sets, MAX_SETS);
        } else if (!strcmp(a, "--seconds")) {
            rc = qf_app_double(cmd, argc, argv, &i, &o->seconds);
            if (!rc && !(o->seconds > 0.0 && o->seconds <= 3600.0))
                return qf_app_usage_error(cmd, "--seconds %g: more than 0, at most 3600", o->seconds);
        } else {
            return qf_app_usage_error(cmd, "%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument", a);
        }
        if (rc) return rc;
    }
    return 0;
}

int qf_bench_kernels(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    kernel_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    /* no runtime, hence no MPI: under mpirun rank 0 measures, once, as gauge convert converts */
    if (qf_app_launcher_rank() != 0) return 0;
    if (qf_cpu_kernels_select()) return qf_app_error(); /* the runtime, which would, is not started */
    return kernels(&o) ? qf_app_error() : 0;
}
