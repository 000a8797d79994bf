/* The Polyakov loop and the clover-leaf field strength as task graphs, against an independent
 * reference (plain global loops over the lexicographic array, double precision, periodic, no blocks,
 * no StarPU; F from dirac_reference.c) on two non-hypercubic lattices, for several block grids (blocks of extent 2 and blocks
 * spanning the whole lattice in some directions) and both precisions; and against identities: F is
 * anti-hermitian, a cold field gives F = 0 and a Polyakov loop of 1, and a random gauge transformation
 * leaves the Polyakov loop unchanged and rotates F(x) -> g(x) F(x) g(x)^dagger. Wrong kinds and
 * lattices are refused with a message. The scheduler comes from STARPU_SCHED, so ctest runs this under
 * several policies. */
#include "check.h"
#include "test_start.h"
#include "random_gauge.h"
#include "dirac_reference.h"
#include "quarkflow.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference: 3x3 complex matrices in C99 complex arithmetic ---- */

static ref_mat3 m_unit(void)
{
    ref_mat3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.e[i][j] = i == j;
    return m;
}

/* Global lexicographic index of x + step * mu (periodic). */
static int64_t site_shift(const int L[4], const int x[4], int mu, int step)
{
    int y[4] = {x[0], x[1], x[2], x[3]};
    y[mu] = (y[mu] + step + L[mu]) % L[mu];
    return y[0] + (int64_t)L[0] * (y[1] + (int64_t)L[1] * (y[2] + (int64_t)L[2] * y[3]));
}

static void coords(int64_t i, const int L[4], int x[4])
{
    for (int mu = 0; mu < 4; mu++) {
        x[mu] = (int)(i % L[mu]);
        i /= L[mu];
    }
}

static int64_t volume(const int L[4]) { return (int64_t)L[0] * L[1] * L[2] * L[3]; }


/* Average over spatial sites of (1/3) Tr U_t(x, 0) U_t(x, 1) ... U_t(x, T - 1). */
static double complex ref_polyakov(const int L[4], const double *links)
{
    double complex sum = 0;
    int64_t v3 = (int64_t)L[0] * L[1] * L[2];
    for (int64_t xs = 0; xs < v3; xs++) {
        ref_mat3 m = m_unit();
        for (int t = 0; t < L[3]; t++) m = ref_m_mul(m, ref_m_link(links, xs + v3 * t, 3));
        sum += (m.e[0][0] + m.e[1][1] + m.e[2][2]) / 3.0;
    }
    return sum / (double)v3;
}

/* max |a - b| / max |b| over n reals (the scale of F is that of its largest entries). */
static double rel_diff(const double *a, const double *b, int64_t n)
{
    double d = 0, s = 0;
    for (int64_t k = 0; k < n; k++) {
        d = fmax(d, fabs(a[k] - b[k]));
        s = fmax(s, fabs(b[k]));
    }
    return s > 0 ? d / s : d;
}

/* max |F + F^dagger| / max |F| over every site and plane. */
static double antihermiticity(const double *f, int64_t nmat)
{
    double d = 0, s = 0;
    for (int64_t k = 0; k < nmat; k++) {
        ref_mat3 m = ref_m_load(f + 18 * k), md = ref_m_dag(m);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                d = fmax(d, cabs(m.e[a][b] + md.e[a][b]));
                s = fmax(s, cabs(m.e[a][b]));
            }
    }
    return s > 0 ? d / s : d;
}

static double complex graph_polyakov(const qf_field *u)
{
    double re = NAN, im = NAN;
    CHECK(qf_gauge_polyakov(u, &re, &im) == 0, "Polyakov loop: %s", qf_last_error());
    return re + I * im;
}

/* F into a new field of precision fprec, exported to f. */
static void graph_field_strength(const qf_field *u, qf_precision fprec, double *f)
{
    qf_field *fm;
    if (qf_field_create(&fm, qf_field_lattice(u), QF_FIELD_FIELD_STRENGTH, fprec, 0)) {
        CHECK(0, "create field strength: %s", qf_last_error());
        return;
    }
    CHECK(qf_gauge_field_strength(u, fm) == 0, "field strength: %s", qf_last_error());
    CHECK(qf_field_export(fm, f) == 0, "export field strength: %s", qf_last_error());
    qf_field_destroy(fm);
}

typedef struct {
    int L[4];
    int64_t v;
    double *links, *links_single, *gauged, *g; /* random U, U rounded to float, g U g^dagger, g(x) */
    double complex poly, poly_single;           /* reference Polyakov loops of links and links_single */
    double *f;                                   /* reference F of links */
    double *out, *out2;                          /* graph results */
} problem;

static void problem_init(problem *pb, const int L[4], uint64_t seed)
{
    memcpy(pb->L, L, sizeof pb->L);
    int64_t v = pb->v = volume(L);
    pb->links = malloc((size_t)v * 72 * sizeof(double));
    pb->links_single = malloc((size_t)v * 72 * sizeof(double));
    pb->gauged = malloc((size_t)v * 72 * sizeof(double));
    pb->g = malloc((size_t)v * 18 * sizeof(double));
    pb->f = malloc((size_t)v * 108 * sizeof(double));
    pb->out = malloc((size_t)v * 108 * sizeof(double));
    pb->out2 = malloc((size_t)v * 108 * sizeof(double));
    for (int64_t m = 0; m < v * 4; m++) qf_test_random_su3(&seed, pb->links + 18 * m);
    for (int64_t k = 0; k < v * 72; k++) pb->links_single[k] = (double)(float)pb->links[k];
    for (int64_t i = 0; i < v; i++) qf_test_random_su3(&seed, pb->g + 18 * i);
    /* U_mu(x) -> g(x) U_mu(x) g(x + mu)^dagger */
    for (int64_t i = 0; i < v; i++) {
        int x[4];
        coords(i, L, x);
        for (int mu = 0; mu < 4; mu++) {
            ref_mat3 u = ref_m_mul(ref_m_mul(ref_m_load(pb->g + 18 * i), ref_m_link(pb->links, i, mu)),
                           ref_m_dag(ref_m_load(pb->g + 18 * site_shift(L, x, mu, +1))));
            ref_m_store(pb->gauged + (i * 4 + mu) * 18, &u);
        }
    }
    pb->poly = ref_polyakov(L, pb->links);
    pb->poly_single = ref_polyakov(L, pb->links_single);
    ref_field_strength(L, pb->links, pb->f);
    printf("lattice %d %d %d %d: reference Polyakov loop %.16f %+.16fi, Im F_01(0)[0][0] = %.16f\n", L[0], L[1],
           L[2], L[3], creal(pb->poly), cimag(pb->poly), pb->f[1]);
}

static void problem_free(problem *pb)
{
    free(pb->links);
    free(pb->links_single);
    free(pb->gauged);
    free(pb->g);
    free(pb->f);
    free(pb->out);
    free(pb->out2);
}

static double poly_err(double complex got, double complex want) { return cabs(got - want) / cabs(want); }

/* Largest errors seen, printed at the end: [0] double links, [1] single links, [2] gauge covariance. */
static double worst_poly[3], worst_f[3];

/* Every check on one block grid. */
static void test_grid(problem *pb, const int bg[4])
{
    const int *L = pb->L;
    int64_t v = pb->v;
    qf_lattice lat;
    if (qf_lattice_init(&lat, L, NULL, bg, 0, 1, 1)) {
        CHECK(0, "lattice %d %d %d %d blocks %d %d %d %d: %s", L[0], L[1], L[2], L[3], bg[0], bg[1], bg[2], bg[3],
              qf_last_error());
        return;
    }
    char tag[96];
    snprintf(tag, sizeof tag, "lattice %d %d %d %d, blocks %d %d %d %d", L[0], L[1], L[2], L[3], bg[0], bg[1], bg[2],
             bg[3]);
    for (int prec_i = 0; prec_i < 2; prec_i++) {
        qf_precision prec = prec_i ? QF_SINGLE : QF_DOUBLE;
        const char *pn = qf_precision_name(prec);
        qf_field *u;
        if (qf_field_create(&u, &lat, QF_FIELD_GAUGE, prec, 0)) {
            CHECK(0, "create gauge field: %s", qf_last_error());
            continue;
        }
        qf_field_import(u, pb->links);

        /* against the reference of the exact links: 1e-13 in double, ~1e-5 for single-precision links */
        double tol = prec == QF_DOUBLE ? 1e-13 : 1e-5;
        double complex p = graph_polyakov(u);
        double e = poly_err(p, pb->poly);
        worst_poly[prec_i] = fmax(worst_poly[prec_i], e);
        CHECK(e < tol, "%s %s: Polyakov loop %.16f %+.16fi vs %.16f %+.16fi (rel err %.2e)", tag, pn, creal(p), cimag(p),
              creal(pb->poly), cimag(pb->poly), e);
        graph_field_strength(u, QF_DOUBLE, pb->out);
        e = rel_diff(pb->out, pb->f, v * 108);
        worst_f[prec_i] = fmax(worst_f[prec_i], e);
        CHECK(e < tol, "%s %s links: F_munu at every site and component (rel err %.2e)", tag, pn, e);
        double ah = antihermiticity(pb->out, v * 6);
        CHECK(ah < 1e-15, "%s %s: F is anti-hermitian (%.1e)", tag, pn, ah);
        if (prec == QF_SINGLE) {
            /* products in double: the single-precision links themselves give the reference to 1e-13. (Not
             * so for F: its transports use U^dagger U = 1, which rounded links obey only to ~1e-7.) */
            e = poly_err(p, pb->poly_single);
            CHECK(e < 1e-13, "%s: Polyakov loop of single links computed in double (rel err %.2e)", tag, e);
        }
        /* F stored in single precision */
        graph_field_strength(u, QF_SINGLE, pb->out);
        e = rel_diff(pb->out, pb->f, v * 108);
        CHECK(e < (prec == QF_DOUBLE ? 1e-6 : 1e-5), "%s %s links: F_munu stored in single precision (rel err %.2e)", tag,
              pn, e);
        ah = antihermiticity(pb->out, v * 6);
        CHECK(ah < 1e-15, "%s %s: single-precision F is anti-hermitian (%.1e)", tag, pn, ah);

        /* gauge covariance: P unchanged, F(x) -> g(x) F(x) g(x)^dagger (graph against graph) */
        if (prec == QF_DOUBLE) {
            graph_field_strength(u, QF_DOUBLE, pb->out);
            qf_field_import(u, pb->gauged);
            double complex pg = graph_polyakov(u);
            e = poly_err(pg, p);
            worst_poly[2] = fmax(worst_poly[2], e);
            CHECK(e < 1e-13, "%s: Polyakov loop gauge invariant (%.16f %+.16fi vs %.16f %+.16fi, rel %.2e)", tag,
                  creal(pg), cimag(pg), creal(p), cimag(p), e);
            graph_field_strength(u, QF_DOUBLE, pb->out2);
            for (int64_t i = 0; i < v; i++) {
                ref_mat3 g = ref_m_load(pb->g + 18 * i);
                for (int k = 0; k < 6; k++)
                    {
                        ref_mat3 f = ref_m_mul(ref_m_mul(g, ref_m_load(pb->out + (i * 6 + k) * 18)), ref_m_dag(g));
                        ref_m_store(pb->out + (i * 6 + k) * 18, &f);
                    }
            }
            e = rel_diff(pb->out2, pb->out, v * 108);
            worst_f[2] = fmax(worst_f[2], e);
            CHECK(e < 1e-13, "%s: F(x) -> g(x) F(x) g(x)^dagger under a gauge transformation (rel err %.2e)", tag, e);
        }

        /* cold field: F = 0 exactly, Polyakov loop 1 */
        CHECK(qf_gauge_start(u, QF_START_COLD, 1, 0.0) == 0, "cold start: %s", qf_last_error());
        p = graph_polyakov(u);
        CHECK(creal(p) == 1.0 && cimag(p) == 0.0, "%s %s: cold Polyakov loop %.17f %+.17fi", tag, pn, creal(p), cimag(p));
        graph_field_strength(u, prec, pb->out);
        double fmax_abs = 0;
        for (int64_t k = 0; k < v * 108; k++) fmax_abs = fmax(fmax_abs, fabs(pb->out[k]));
        CHECK(fmax_abs == 0.0, "%s %s: cold field gives F = 0 (max |F| %.1e)", tag, pn, fmax_abs);
        qf_field_destroy(u);
    }
}

static void test_errors(problem *pb, problem *other)
{
    qf_lattice lat, lat_other, lat_blocks, lat_two;
    const int one[4] = {1, 1, 1, 1}, two[4] = {2, 2, 2, 2}, procs[4] = {1, 1, 1, 2};
    qf_lattice_init(&lat, pb->L, NULL, one, 0, 1, 1);
    qf_lattice_init(&lat_other, other->L, NULL, one, 0, 1, 1);
    qf_lattice_init(&lat_blocks, pb->L, NULL, two, 0, 1, 1);
    CHECK(qf_lattice_init(&lat_two, pb->L, procs, one, 0, 2, 1) == 0, "two-process lattice: %s", qf_last_error());
    qf_field *u, *w, *fm, *fm_other, *fm_blocks, *u_two = NULL, *u_deep;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    qf_field_create(&w, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_field_create(&fm, &lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0);
    qf_field_create(&fm_other, &lat_other, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0);
    qf_field_create(&fm_blocks, &lat_blocks, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0);
    CHECK(qf_field_create(&u_two, &lat_two, QF_FIELD_GAUGE, QF_DOUBLE, 0) == QF_ERROR && !u_two &&
              strstr(qf_last_error(), "split over 2 processes, but 1 are running"),
          "a field on a two-process lattice refused in one process: %s", qf_last_error());
    qf_field_create(&u_deep, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 3);
    qf_field_import(u, pb->links);
    double re = 0, im = 0;

    CHECK(qf_gauge_polyakov(w, &re, &im) == QF_ERROR && strstr(qf_last_error(), "gauge field"),
          "Polyakov loop of a Wilson field refused: %s", qf_last_error());
    CHECK(qf_gauge_polyakov(fm, &re, &im) == QF_ERROR && strstr(qf_last_error(), "field strength"),
          "Polyakov loop of a field-strength field refused: %s", qf_last_error());
    CHECK(qf_gauge_field_strength(w, fm) == QF_ERROR && strstr(qf_last_error(), "wilson"),
          "F of a Wilson field refused: %s", qf_last_error());
    CHECK(qf_gauge_field_strength(u, w) == QF_ERROR && strstr(qf_last_error(), "QF_FIELD_FIELD_STRENGTH"),
          "F into a Wilson field refused: %s", qf_last_error());
    CHECK(qf_gauge_field_strength(u, u) == QF_ERROR && strstr(qf_last_error(), "not a gauge field"),
          "F into a gauge field refused: %s", qf_last_error());
    CHECK(qf_gauge_field_strength(u, fm_other) == QF_ERROR && strstr(qf_last_error(), "lattice"),
          "F into a field on another lattice refused: %s", qf_last_error());
    CHECK(qf_gauge_field_strength(u, fm_blocks) == QF_ERROR && strstr(qf_last_error(), "blocks 2 2 2 2"),
          "F into a field with another block grid refused: %s", qf_last_error());
    CHECK(qf_gauge_field_strength(u_deep, fm) == QF_ERROR && strstr(qf_last_error(), "1-deep"),
          "F of a gauge field with 3-deep faces refused: %s", qf_last_error());
    /* after the refusals, the same fields still work */
    CHECK(qf_gauge_field_strength(u, fm) == 0 && qf_field_export(fm, pb->out) == 0 &&
              rel_diff(pb->out, pb->f, pb->v * 108) < 1e-13,
          "F after refused calls: %s", qf_last_error());
    qf_field_destroy(u);
    qf_field_destroy(w);
    qf_field_destroy(fm);
    qf_field_destroy(fm_other);
    qf_field_destroy(fm_blocks);
    qf_field_destroy(u_deep);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;

    static const int dims_a[4] = {4, 4, 4, 8}, dims_b[4] = {6, 4, 4, 4};
    /* extent-2 blocks, whole-lattice blocks in some directions, and one block */
    static const int grids_a[][4] = {{1, 1, 1, 1}, {2, 1, 1, 1}, {1, 2, 1, 2}, {2, 2, 2, 4}, {1, 1, 2, 4}, {2, 2, 1, 1}};
    static const int grids_b[][4] = {{1, 1, 1, 1}, {3, 1, 1, 1}, {1, 2, 1, 2}, {3, 2, 2, 2}, {1, 1, 1, 2}, {3, 1, 2, 1}};
    problem a, b;
    problem_init(&a, dims_a, 20261201);
    problem_init(&b, dims_b, 777);
    for (unsigned g = 0; g < sizeof grids_a / sizeof grids_a[0]; g++) test_grid(&a, grids_a[g]);
    for (unsigned g = 0; g < sizeof grids_b / sizeof grids_b[0]; g++) test_grid(&b, grids_b[g]);
    test_errors(&a, &b);
    printf("largest relative errors: Polyakov loop %.1e (double links) %.1e (single links) %.1e (gauge "
           "transformation); F %.1e (double) %.1e (single) %.1e (gauge transformation)\n",
           worst_poly[0], worst_poly[1], worst_poly[2], worst_f[0], worst_f[1], worst_f[2]);
    problem_free(&a);
    problem_free(&b);
    qf_runtime_shutdown();
    return qf_check_summary();
}
