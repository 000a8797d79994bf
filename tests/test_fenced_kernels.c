/* CPU kernels called directly, in every version of the CPU kernels that this build and CPU run, on
 * buffers with an inaccessible page right after their end (and, in a second pass, right before their
 * start), so that a read or write outside a field faults at once:
 *   - multigrid: restriction, prolongation and the coarse operator's whole-site step, against the
 *     one-entry forms in kernels/mg.h;
 *   - Wilson-clover: the gather, interior and exterior of each hop of Mhat on one block
 *     (qf_direct.h), against the same calls on unfenced copies, bit for bit, also on half records.
 * GCC 12 once vectorised the prolongation over four "chiralities" and read past the coarse field's
 * last site: a read that changes no result, and that only a fault at the field's end reveals (the
 * runtime's own allocations fault there once in dozens of runs). */
#define _DEFAULT_SOURCE
#include "check.h"
#include "codelets.h" /* QF_MG_MAX_FINE_BLOCKS */
#include "mg_coarse_run.h"
#include "quarkflow/qf_direct.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A buffer between two PROT_NONE pages, flush against the one after it (at_end) or the one before. */
typedef struct {
    char *map;
    size_t maplen;
    void *p;
} guarded;

static void *guarded_alloc(guarded *g, size_t bytes, int at_end)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (bytes + page - 1) / page;
    g->maplen = (pages + 2) * page;
    g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    if (mprotect(g->map, page, PROT_NONE) || mprotect(g->map + (pages + 1) * page, page, PROT_NONE)) {
        perror("mprotect");
        exit(1);
    }
    g->p = at_end ? g->map + (pages + 1) * page - bytes : g->map + page;
    return g->p;
}

static void guarded_free(guarded *g) { munmap(g->map, g->maplen); }

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0 - 0.5;
}

static void *random_reals(guarded *g, size_t n, qf_precision prec, int at_end)
{
    void *p = guarded_alloc(g, n * qf_real_size(prec), at_end);
    for (size_t i = 0; i < n; i++) qf_real_set(p, prec, i, uniform());
    return p;
}

/* Half records of uniform floats' bits: components of any value, finite norms. */
static void *random_half_records(guarded *g, size_t bytes, int at_end)
{
    float *p = guarded_alloc(g, bytes, at_end);
    for (size_t i = 0; i < bytes / sizeof *p; i++) p[i] = (float)uniform();
    return p;
}

static double tolerance(qf_precision prec) { return prec == QF_DOUBLE ? 1e-12 : 1e-5; }

/* |a - b| / |b| over n complex numbers held as (re, im) reals in prec (a) and doubles (b). */
static double rel_diff(const void *a, qf_precision prec, const double *b, size_t n)
{
    double d = 0.0, s = 0.0;
    for (size_t i = 0; i < 2 * n; i++) {
        double x = qf_real_get(a, prec, i) - b[i];
        d += x * x;
        s += b[i] * b[i];
    }
    return sqrt(d / (s > 0.0 ? s : 1.0));
}

typedef struct {
    const char *name;
    int fext[QF_NDIM], agg[QF_NDIM], ratio[QF_NDIM];
    int nsite, nvec;
} transfer_case;

/* Restriction of the fine blocks of one coarse block, and prolongation of each (out = P e, then
 * out += P e), against qf_mg_restrict_entry and qf_mg_prolong_entry. */
static void check_transfer(const transfer_case *tc, qf_precision prec, int at_end, const char *cfg)
{
    qf_mg_geom g = {.nsite = tc->nsite, .nvec = tc->nvec, .prec = prec, .vprec = prec};
    memcpy(g.fext, tc->fext, sizeof g.fext);
    memcpy(g.agg, tc->agg, sizeof g.agg);
    qf_mg_restrict_args ra = {.g = g, .nfine = (int)qf_volume(tc->ratio)};
    memcpy(ra.ratio, tc->ratio, sizeof ra.ratio);
    for (int mu = 0; mu < QF_NDIM; mu++) ra.cext[mu] = tc->ratio[mu] * tc->fext[mu] / tc->agg[mu];
    const int64_t fvol = qf_volume(g.fext), cvol = qf_volume(ra.cext);
    const size_t fine_n = (size_t)fvol * g.nsite, v_n = fine_n * g.nvec, coarse_n = (size_t)cvol * 2 * g.nvec;

    guarded gf[QF_MG_MAX_FINE_BLOCKS], gv[QF_MG_MAX_FINE_BLOCKS], gc, go;
    const void *fine[QF_MG_MAX_FINE_BLOCKS], *v[QF_MG_MAX_FINE_BLOCKS];
    for (int j = 0; j < ra.nfine; j++) {
        fine[j] = random_reals(&gf[j], 2 * fine_n, prec, at_end);
        v[j] = random_reals(&gv[j], 2 * v_n, prec, at_end);
    }
    void *coarse = guarded_alloc(&gc, 2 * coarse_n * qf_real_size(prec), at_end);
    double *want = malloc(2 * (coarse_n > fine_n ? coarse_n : fine_n) * sizeof *want);
    if (!want) exit(1);

    for (int team = 0; team <= 1; team++) {
        ra.team = team;
        memset(coarse, 0, 2 * coarse_n * qf_real_size(prec));
        qf_mg_restrict_run_cpu(&ra, fine, v, coarse);
        for (int64_t s = 0; s < cvol; s++)
            for (int r = 0; r < 2 * g.nvec; r++) {
                qf_complex e = qf_mg_restrict_entry(&ra, fine, v, s, r);
                want[2 * ((size_t)s * 2 * g.nvec + r)] = e.re;
                want[2 * ((size_t)s * 2 * g.nvec + r) + 1] = e.im;
            }
        double d = rel_diff(coarse, prec, want, coarse_n);
        CHECK(d < tolerance(prec), "%s, restriction%s: relative difference %.2e from the entries", cfg,
              team ? " shared among the team" : "", d);
    }

    for (size_t i = 0; i < 2 * coarse_n; i++) qf_real_set(coarse, prec, i, uniform());
    void *out = guarded_alloc(&go, 2 * fine_n * qf_real_size(prec), at_end);
    for (int j = 0; j < ra.nfine; j++) {
        qf_mg_prolong_args pa = {.g = g};
        memcpy(pa.cext, ra.cext, sizeof pa.cext);
        qf_lex_coords(j, tc->ratio, pa.pos);
        for (int64_t fs = 0; fs < fvol; fs++)
            for (int i = 0; i < g.nsite; i++) {
                qf_complex e = qf_mg_prolong_entry(&pa, coarse, v[j], fs, i);
                want[2 * ((size_t)fs * g.nsite + i)] = e.re;
                want[2 * ((size_t)fs * g.nsite + i) + 1] = e.im;
            }
        qf_mg_prolong_run_cpu(&pa, coarse, v[j], out);
        double d = rel_diff(out, prec, want, fine_n);
        CHECK(d < tolerance(prec), "%s, prolongation of fine block %d: relative difference %.2e from the entries",
              cfg, j, d);
        /* the even sites alone (the first half of the block): the odd ones keep a marker */
        pa.even_only = 1;
        for (size_t i = 0; i < 2 * fine_n; i++) qf_real_set(out, prec, i, 7.0);
        qf_mg_prolong_run_cpu(&pa, coarse, v[j], out);
        d = rel_diff(out, prec, want, fine_n / 2); /* fine_n / 2 complex numbers, fine_n reals */
        int kept = 1;
        for (size_t i = fine_n; i < 2 * fine_n; i++) kept = kept && qf_real_get(out, prec, i) == 7.0;
        CHECK(d < tolerance(prec) && kept,
              "%s, prolongation of fine block %d's even sites: relative difference %.2e, odd sites %s", cfg, j, d,
              kept ? "kept" : "overwritten");
    }

    free(want);
    guarded_free(&go);
    guarded_free(&gc);
    for (int j = 0; j < ra.nfine; j++) {
        guarded_free(&gf[j]);
        guarded_free(&gv[j]);
    }
}

/* out = a x + b H in on every site of a one-block lattice whose hops wrap (the one-task coarse solve's
 * operator), against the matrices multiplied out here. */
static void check_coarse_hop(const int ext[QF_NDIM], int nvec, qf_precision prec, int dagger, int at_end,
                             const char *cfg)
{
    const int64_t vol = qf_volume(ext);
    const int n2 = 2 * nvec;
    const size_t site_n = (size_t)vol * n2, links_n = (size_t)vol * QF_MG_NMAT * n2 * n2;
    guarded gin, gx, gl, go;
    const void *in = random_reals(&gin, 2 * site_n, prec, at_end), *x = random_reals(&gx, 2 * site_n, prec, at_end);
    const void *links = random_reals(&gl, 2 * links_n, prec, at_end);
    void *out = guarded_alloc(&go, 2 * site_n * qf_real_size(prec), at_end);
    qf_coarse_args a = {.parity = -1, .dagger = dagger, .a = 0.75, .b = -1.25, .has_x = 1,
                        .local_on = QF_CLOVER_NONE, .nvec = nvec, .wrap = 1, .prec = prec, .link_prec = prec};
    memcpy(a.ext, ext, sizeof a.ext);
    qf_coarse_interior_run_cpu(&a, in, links, out, x, NULL);

    double *want = malloc(2 * site_n * sizeof *want);
    if (!want) exit(1);
    for (int64_t s = 0; s < vol; s++) {
        int c[QF_NDIM];
        qf_block_site_coords(s, ext, c);
        for (int r = 0; r < n2; r++) {
            size_t o = qf_coarse_site_offset(s, nvec) + 2 * (size_t)r;
            double re = a.a * qf_real_get(x, prec, o), im = a.a * qf_real_get(x, prec, o + 1);
            for (int d = 0; d < QF_NDIRS; d++) {
                int y[QF_NDIM], mu = d / 2;
                memcpy(y, c, sizeof y);
                y[mu] = (y[mu] + (d & 1 ? 1 : ext[mu] - 1)) % ext[mu];
                int64_t ys = qf_block_site_index(y, ext);
                /* the dagger is g5 Y g5: entries linking the two chiralities change sign */
                for (int col = 0; col < n2; col++) {
                    size_t mo = qf_coarse_matrix_offset(s, d, nvec) + 2 * ((size_t)r * n2 + col);
                    size_t io = qf_coarse_site_offset(ys, nvec) + 2 * (size_t)col;
                    double sign = dagger && (r < nvec) != (col < nvec) ? -1.0 : 1.0;
                    double mr = sign * qf_real_get(links, prec, mo), mi = sign * qf_real_get(links, prec, mo + 1);
                    double vr = qf_real_get(in, prec, io), vi = qf_real_get(in, prec, io + 1);
                    re += a.b * (mr * vr - mi * vi);
                    im += a.b * (mr * vi + mi * vr);
                }
            }
            want[o] = re;
            want[o + 1] = im;
        }
    }
    double d = rel_diff(out, prec, want, site_n);
    CHECK(d < tolerance(prec), "%s, coarse operator%s: relative difference %.2e from the matrices", cfg,
          dagger ? " (dagger)" : "", d);
    free(want);
    guarded_free(&go);
    guarded_free(&gl);
    guarded_free(&gx);
    guarded_free(&gin);
}

/* A buffer of n bytes of uniform reals in prec, fenced and as a plain copy. */
static void fenced_pair(guarded *g, void **fenced, void **plain, size_t bytes, qf_precision prec, int at_end)
{
    *fenced = prec == QF_HALF ? random_half_records(g, bytes, at_end)
                              : random_reals(g, bytes / qf_real_size(prec), prec, at_end);
    *plain = malloc(bytes);
    if (!*plain) exit(1);
    memcpy(*plain, *fenced, bytes);
}

/* Every hop of Mhat (form, csw) on one block: the three kernels on fenced buffers and on plain copies. */
static void check_wilson(const int block[QF_NDIM], qf_precision prec, qf_schur_form form, int at_end, const char *cfg)
{
    qf_dirac_params p = qf_dirac_default_params(0.12);
    p.prec = prec;
    p.csw = 1.0;
    for (int hop = 0;; hop++) {
        qf_direct_block *kb = NULL;
        if (qf_direct_block_create(&kb, block, &p, form, hop)) break; /* no more hops */
        qf_direct_block_bytes z;
        qf_direct_block_sizes(kb, &z);
        guarded g[5 + QF_DIRECT_NFACES];
        qf_direct_block_fields f, c;
        fenced_pair(&g[0], &f.in, &c.in, z.spinor, prec, at_end);
        fenced_pair(&g[1], &f.out, &c.out, z.spinor, prec, at_end);
        fenced_pair(&g[2], &f.x, &c.x, z.spinor, prec, at_end);
        fenced_pair(&g[3], &f.gauge, &c.gauge, z.gauge, prec, at_end);
        fenced_pair(&g[4], &f.clover, &c.clover, z.clover, prec, at_end);
        for (int k = 0; k < QF_DIRECT_NFACES; k++) fenced_pair(&g[5 + k], &f.face[k], &c.face[k], z.face[k], prec, at_end);
        for (int k = 0; k < QF_DIRECT_NKERNELS; k++) {
            qf_direct_block_call(kb, (qf_direct_kernel)k, &f);
            qf_direct_block_call(kb, (qf_direct_kernel)k, &c);
        }
        int same = !memcmp(f.out, c.out, z.spinor);
        for (int k = 0; k < QF_DIRECT_NFACES; k++) same = same && !memcmp(f.face[k], c.face[k], z.face[k]);
        CHECK(same, "%s, hop %d: the fenced fields came out different from their unfenced copies", cfg, hop);
        for (int k = 0; k < 5 + QF_DIRECT_NFACES; k++) guarded_free(&g[k]);
        void *plain[] = {c.in, c.out, c.x, c.gauge, c.clover};
        for (int k = 0; k < 5; k++) free(plain[k]);
        for (int k = 0; k < QF_DIRECT_NFACES; k++) free(c.face[k]);
        qf_direct_block_destroy(kb);
    }
}

int main(void)
{
    static const transfer_case cases[] = {
        /* Wilson fine level, two fine blocks a coarse block */
        {"Wilson, 4^4 blocks, 2^4 aggregates, N 6", {4, 4, 4, 4}, {2, 2, 2, 2}, {2, 1, 1, 1}, 12, 6},
        /* a coarse fine level of 8 vectors (16 components a site), two fine blocks along t */
        {"coarse N 8 to N 4, 4x4x2x2 blocks", {4, 4, 2, 2}, {2, 2, 2, 2}, {1, 1, 1, 2}, 16, 4},
    };
    static const char *versions[] = {"avx512", "avx2", "baseline"};
    int ran = 0;
    setenv("QF_CPU_TEAM", "3", 1); /* the shared kernels split their sites three ways */
    for (int iv = 0; iv < 3; iv++) {
        setenv("QF_CPU_KERNELS", versions[iv], 1);
        if (qf_cpu_kernels_select()) {
            printf("skipped %s: %s\n", versions[iv], qf_last_error());
            continue;
        }
        ran++;
        for (int at_end = 1; at_end >= 0; at_end--)
            for (int p = 0; p < 3; p++) {
                qf_precision prec = p == 2 ? QF_HALF : p ? QF_SINGLE : QF_DOUBLE;
                char cfg[200];
                for (size_t ic = 0; ic < sizeof cases / sizeof cases[0] && prec != QF_HALF; ic++) {
                    snprintf(cfg, sizeof cfg, "%s, %s, %s, fields %s a guard page", versions[iv], cases[ic].name,
                             qf_precision_name(prec), at_end ? "ending at" : "starting after");
                    check_transfer(&cases[ic], prec, at_end, cfg);
                }
                static const int wilson_block[QF_NDIM] = {4, 6, 4, 8};
                for (int form = 0; form < 2; form++) {
                    snprintf(cfg, sizeof cfg, "%s, Wilson-clover Mhat (%s) on a 4x6x4x8 block, %s, fields %s a guard page",
                             versions[iv], form ? "symmetric" : "asymmetric", qf_precision_name(prec),
                             at_end ? "ending at" : "starting after");
                    check_wilson(wilson_block, prec, form ? QF_SCHUR_SYMMETRIC : QF_SCHUR_ASYMMETRIC, at_end, cfg);
                }
                static const int ext[QF_NDIM] = {2, 2, 4, 2};
                for (int dagger = 0; dagger <= 1 && prec != QF_HALF; dagger++) {
                    snprintf(cfg, sizeof cfg, "%s, 2x2x4x2 one block, N 6, %s, fields %s a guard page", versions[iv],
                             qf_precision_name(prec), at_end ? "ending at" : "starting after");
                    check_coarse_hop(ext, 6, prec, dagger, at_end, cfg);
                }
            }
    }
    CHECK(ran > 0, "no version of the CPU kernels ran");
    return qf_check_summary();
}
