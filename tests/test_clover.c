/* The clover term as task graphs (include/quarkflow/qf_clover.h), against an independent brute-force reference: per
 * site the 12x12 complex matrix A = 1 + i kappa c_sw sum_{mu<nu} sigma_munu (x) F_munu, with the gamma
 * matrices of DESIGN.md written out here, sigma_munu = (i/2)[g_mu, g_nu] formed by matrix products,
 * F_munu from qf_gauge_field_strength's exported field, index 3 spin + colour; plain loops in C99
 * complex double arithmetic over the global lexicographic array, no blocks, no StarPU.
 *
 * On a hot (Haar-random) 4^4 gauge field, for several block grids and both precisions: the chiral
 * off-diagonal blocks of the reference vanish; the stored A (decoded from the layout documented in
 * codelets/kernels/clover.h) matches the reference; A A^-1 = 1; clover_apply with parity 0, 1 and -1
 * gives a x + b C y on the sites of that parity (C = A against the reference product, C = A^-1 by
 * A (out - a x) / b = y) and leaves the other parity untouched, also with a = 0 and no x and in place.
 * A kappa c_sw too large for the field, and wrong kinds, precisions, lattices and parities, are
 * refused with a message. The scheduler comes from STARPU_SCHED, so ctest runs this under several
 * policies. */
#include "check.h"
#include "test_start.h"
#include "random_gauge.h"
#include "quarkflow.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef double complex cplx;

/* ---- the reference ---- */

static cplx gam[4][4][4];   /* g1..g4 = directions x, y, z, t */
static cplx sig[6][4][4];   /* sigma_munu, planes 01 02 03 12 13 23 */

static void mat4_mul(cplx a[4][4], cplx b[4][4], cplx c[4][4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            c[i][j] = 0;
            for (int k = 0; k < 4; k++) c[i][j] += a[i][k] * b[k][j];
        }
}

/* The gamma matrices of DESIGN.md; checks that they are hermitian, obey {g_mu, g_nu} = 2 delta_munu and
 * give g5 = g1 g2 g3 g4 = diag(1, 1, -1, -1); forms sigma_munu. */
static void ref_init(void)
{
    static const cplx g1[4][4] = {{0, 0, 0, I}, {0, 0, I, 0}, {0, -I, 0, 0}, {-I, 0, 0, 0}};
    static const cplx g2[4][4] = {{0, 0, 0, -1}, {0, 0, 1, 0}, {0, 1, 0, 0}, {-1, 0, 0, 0}};
    static const cplx g3[4][4] = {{0, 0, I, 0}, {0, 0, 0, -I}, {-I, 0, 0, 0}, {0, I, 0, 0}};
    static const cplx g4[4][4] = {{0, 0, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}};
    memcpy(gam[0], g1, sizeof g1);
    memcpy(gam[1], g2, sizeof g2);
    memcpy(gam[2], g3, sizeof g3);
    memcpy(gam[3], g4, sizeof g4);
    double dev = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int nu = 0; nu < 4; nu++) {
            cplx ab[4][4], ba[4][4];
            mat4_mul(gam[mu], gam[nu], ab);
            mat4_mul(gam[nu], gam[mu], ba);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    dev = fmax(dev, cabs(ab[i][j] + ba[i][j] - (mu == nu && i == j ? 2.0 : 0.0)));
                    if (mu == nu) dev = fmax(dev, cabs(gam[mu][i][j] - conj(gam[mu][j][i])));
                }
        }
    cplx t1[4][4], t2[4][4], g5[4][4];
    mat4_mul(gam[0], gam[1], t1);
    mat4_mul(t1, gam[2], t2);
    mat4_mul(t2, gam[3], g5);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) dev = fmax(dev, cabs(g5[i][j] - (i == j ? (i < 2 ? 1.0 : -1.0) : 0.0)));
    CHECK(dev == 0.0, "test's gamma matrices: hermitian, Clifford algebra, g5 = diag(1,1,-1,-1) (dev %.1e)", dev);
    int p = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int nu = mu + 1; nu < 4; nu++, p++) {
            cplx ab[4][4], ba[4][4];
            mat4_mul(gam[mu], gam[nu], ab);
            mat4_mul(gam[nu], gam[mu], ba);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) sig[p][i][j] = 0.5 * I * (ab[i][j] - ba[i][j]);
        }
}

/* A(x) as a 12x12 matrix, index 3 spin + colour, from the site's 108 reals of F. */
static void ref_clover(const double *f, double kc, cplx a[12][12])
{
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            int si = i / 3, ci = i % 3, sj = j / 3, cj = j % 3;
            cplx s = i == j;
            for (int p = 0; p < 6; p++) {
                const double *fp = f + p * 18 + 6 * ci + 2 * cj;
                s += I * kc * sig[p][si][sj] * (fp[0] + I * fp[1]);
            }
            a[i][j] = s;
        }
}

/* One stored 36-real chiral block as a full 6x6 matrix: 6 real diagonal entries, then the strictly
 * lower entries row by row, (re, im) each; the upper ones are their conjugates. */
static void decode_block(const double *b, cplx m[6][6])
{
    for (int i = 0; i < 6; i++) m[i][i] = b[i];
    int k = 6;
    for (int i = 1; i < 6; i++)
        for (int j = 0; j < i; j++, k += 2) {
            m[i][j] = b[k] + I * b[k + 1];
            m[j][i] = conj(m[i][j]);
        }
}

/* ---- the problem: a hot field, its F, random spinors ---- */

enum { NS = 24 };
static const int L[4] = {4, 4, 4, 4};
static int64_t V;
static double *links, *fref, *fref_single; /* F from the graph in double, and stored in single */
static double *xs, *ys, *os;                /* random spinors: x, y, the initial out */
static double *tmp, *cl, *cl_inv;

static int site_parity(int64_t i)
{
    int x[4];
    for (int mu = 0; mu < 4; mu++) {
        x[mu] = (int)(i % L[mu]);
        i /= L[mu];
    }
    return (x[0] + x[1] + x[2] + x[3]) & 1;
}

static double rounded(double v, qf_precision p) { return p == QF_SINGLE ? (double)(float)v : v; }

static void spinor_site(const double *f, int64_t i, qf_precision p, cplx v[12])
{
    for (int k = 0; k < 12; k++) v[k] = rounded(f[i * NS + 2 * k], p) + I * rounded(f[i * NS + 2 * k + 1], p);
}

/* Largest errors seen, printed at the end: [0] double, [1] single. */
static double worst_a[2], worst_inv[2], worst_apply[2], worst_apply_inv[2], worst_offdiag;

/* The checks on the exported A and A^-1 (cl, cl_inv) built with kc from the F array f. */
static void check_build(const char *tag, const double *f, double kc, qf_precision prec, double tol_a)
{
    int pi = prec == QF_SINGLE;
    double ea = 0, einv = 0, off = 0, scale = 0;
    for (int64_t i = 0; i < V; i++) {
        cplx a[12][12];
        ref_clover(f + i * 108, kc, a);
        for (int r = 0; r < 12; r++)
            for (int c = 0; c < 12; c++) {
                scale = fmax(scale, cabs(a[r][c]));
                if (r / 6 != c / 6) off = fmax(off, cabs(a[r][c]));
            }
        for (int blk = 0; blk < 2; blk++) {
            cplx m[6][6], inv[6][6];
            decode_block(cl + i * 72 + 36 * blk, m);
            decode_block(cl_inv + i * 72 + 36 * blk, inv);
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++) {
                    ea = fmax(ea, cabs(m[r][c] - a[6 * blk + r][6 * blk + c]));
                    /* (reference A) (stored A^-1) = 1 */
                    cplx s = 0;
                    for (int k = 0; k < 6; k++) s += a[6 * blk + r][6 * blk + k] * inv[k][c];
                    einv = fmax(einv, cabs(s - (r == c)));
                }
        }
    }
    worst_offdiag = fmax(worst_offdiag, off);
    worst_a[pi] = fmax(worst_a[pi], ea / scale);
    worst_inv[pi] = fmax(worst_inv[pi], einv);
    CHECK(off < 1e-15 * scale, "%s: reference A has vanishing chiral off-diagonal blocks (max %.1e)", tag, off);
    CHECK(ea < tol_a * scale, "%s: stored A matches the brute-force 12x12 A (max err %.2e, max |A| %.2f)", tag, ea,
          scale);
    double tol_inv = prec == QF_DOUBLE ? 1e-12 : 1e-5;
    CHECK(einv < tol_inv, "%s: A A^-1 = 1 (max err %.2e)", tag, einv);
}

/* out = a x + b C y on parity (C = A if inverse is 0, else A^-1) with the graph; checks against the
 * reference. x_null: pass no x (a must be 0); in_place: out is the y field. */
static void check_apply(const char *tag, qf_field *out, qf_field *x, qf_field *y, qf_field *c, qf_precision prec,
                        double kc, double a, double b, int parity, int inverse, int x_null, int in_place)
{
    int pi = prec == QF_SINGLE;
    char t[200];
    snprintf(t, sizeof t, "%s, %s, parity %d, a %g, b %g%s%s", tag, inverse ? "A^-1" : "A", parity, a, b,
             x_null ? ", no x" : "", in_place ? ", in place" : "");
    const double *y_init = in_place ? os : ys;
    if (qf_field_import(out, os) || (!in_place && qf_field_import(y, ys)) || qf_field_import(x, xs)) {
        CHECK(0, "%s: import: %s", t, qf_last_error());
        return;
    }
    int rc = qf_clover_apply(out, a, x_null ? NULL : x, b, c, in_place ? out : y, parity);
    CHECK(rc == 0, "%s: clover_apply: %s", t, qf_last_error());
    if (rc || qf_field_export(out, tmp)) return;
    double err = 0, scale = 0;
    int64_t untouched_bad = 0;
    for (int64_t i = 0; i < V; i++) {
        if (parity >= 0 && site_parity(i) != parity) {
            for (int k = 0; k < NS; k++) untouched_bad += tmp[i * NS + k] != rounded(os[i * NS + k], prec);
            continue;
        }
        cplx am[12][12], xv[12], yv[12], ov[12];
        ref_clover(fref + i * 108, kc, am);
        spinor_site(xs, i, prec, xv);
        spinor_site(y_init, i, prec, yv);
        spinor_site(tmp, i, QF_DOUBLE, ov);
        for (int r = 0; r < 12; r++) {
            if (!inverse) {
                cplx s = 0;
                for (int k = 0; k < 12; k++) s += am[r][k] * yv[k];
                cplx want = a * xv[r] + b * s;
                err = fmax(err, cabs(ov[r] - want));
                scale = fmax(scale, cabs(want));
            } else {
                /* A (out - a x) / b = y */
                cplx s = 0;
                for (int k = 0; k < 12; k++) s += am[r][k] * (ov[k] - a * xv[k]) / b;
                err = fmax(err, cabs(s - yv[r]));
                scale = fmax(scale, cabs(yv[r]));
            }
        }
    }
    err /= scale;
    double *worst = inverse ? worst_apply_inv : worst_apply;
    worst[pi] = fmax(worst[pi], err);
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-5;
    CHECK(err < tol, "%s: matches the brute-force product (rel err %.2e)", t, err);
    CHECK(untouched_bad == 0, "%s: the other parity is untouched (%lld reals changed)", t, (long long)untouched_bad);
}

static const double KC = 0.25;

/* Every check on one block grid. */
static void test_grid(const int bg[4])
{
    qf_lattice lat;
    if (qf_lattice_init(&lat, L, NULL, bg, 0, 1, 1)) {
        CHECK(0, "blocks %d %d %d %d: %s", bg[0], bg[1], bg[2], bg[3], qf_last_error());
        return;
    }
    for (int pi = 0; pi < 2; pi++) {
        qf_precision prec = pi ? QF_SINGLE : QF_DOUBLE;
        char tag[96];
        snprintf(tag, sizeof tag, "blocks %d %d %d %d, %s", bg[0], bg[1], bg[2], bg[3], qf_precision_name(prec));
        qf_field *u, *fm, *a, *ainv, *x, *y, *out;
        int rc = qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
                 qf_field_create(&fm, &lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0) ||
                 qf_field_create(&a, &lat, QF_FIELD_CLOVER, prec, 0) ||
                 qf_field_create(&ainv, &lat, QF_FIELD_CLOVER, prec, 0) ||
                 qf_field_create(&x, &lat, QF_FIELD_WILSON, prec, 0) ||
                 qf_field_create(&y, &lat, QF_FIELD_WILSON, prec, 0) ||
                 qf_field_create(&out, &lat, QF_FIELD_WILSON, prec, 0);
        if (rc) {
            CHECK(0, "%s: create fields: %s", tag, qf_last_error());
            return;
        }
        CHECK(qf_field_import(u, links) == 0 && qf_gauge_field_strength(u, fm) == 0, "%s: F: %s", tag,
              qf_last_error());
        rc = qf_clover_build(fm, KC, a, ainv);
        CHECK(rc == 0, "%s: clover build: %s", tag, qf_last_error());
        if (rc == 0 && qf_field_export(a, cl) == 0 && qf_field_export(ainv, cl_inv) == 0)
            check_build(tag, fref, KC, prec, prec == QF_DOUBLE ? 1e-13 : 1e-6);

        for (int parity = -1; parity <= 1; parity++)
            for (int inverse = 0; inverse < 2; inverse++)
                check_apply(tag, out, x, y, inverse ? ainv : a, prec, KC, -0.3, 0.7, parity, inverse, 0, 0);
        check_apply(tag, out, x, y, a, prec, KC, 0.0, 1.0, 0, 0, 1, 0);
        check_apply(tag, out, x, y, ainv, prec, KC, 0.0, 1.0, 1, 1, 1, 1);
        check_apply(tag, out, x, y, a, prec, KC, 2.0, -1.5, -1, 0, 0, 1);

        qf_field_destroy(u);
        qf_field_destroy(fm);
        qf_field_destroy(a);
        qf_field_destroy(ainv);
        qf_field_destroy(x);
        qf_field_destroy(y);
        qf_field_destroy(out);
    }
}

/* A from a single-precision F, and both clover fields in double. */
static void test_single_f(void)
{
    qf_lattice lat;
    const int bg[4] = {2, 1, 2, 1};
    qf_lattice_init(&lat, L, NULL, bg, 0, 1, 1);
    qf_field *u, *fm, *a, *ainv;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    qf_field_create(&fm, &lat, QF_FIELD_FIELD_STRENGTH, QF_SINGLE, 0);
    qf_field_create(&a, &lat, QF_FIELD_CLOVER, QF_DOUBLE, 0);
    qf_field_create(&ainv, &lat, QF_FIELD_CLOVER, QF_DOUBLE, 0);
    qf_field_import(u, links);
    CHECK(qf_gauge_field_strength(u, fm) == 0 && qf_field_export(fm, fref_single) == 0, "single F: %s",
          qf_last_error());
    int rc = qf_clover_build(fm, KC, a, ainv);
    CHECK(rc == 0, "clover build from single F: %s", qf_last_error());
    if (rc == 0 && qf_field_export(a, cl) == 0 && qf_field_export(ainv, cl_inv) == 0) {
        /* against the reference of the single F exactly, and of the double F to single accuracy */
        check_build("single F, double A", fref_single, KC, QF_DOUBLE, 1e-13);
        check_build("single F vs double F", fref, KC, QF_SINGLE, 1e-6);
    }
    qf_field_destroy(u);
    qf_field_destroy(fm);
    qf_field_destroy(a);
    qf_field_destroy(ainv);
}

static void test_errors(void)
{
    qf_lattice lat, lat_blocks;
    const int one[4] = {1, 1, 1, 1}, two[4] = {2, 2, 2, 2};
    qf_lattice_init(&lat, L, NULL, one, 0, 1, 1);
    qf_lattice_init(&lat_blocks, L, NULL, two, 0, 1, 1);
    qf_field *u, *fm, *a, *ainv, *a_single, *a_blocks, *w, *w2, *w_single, *w_blocks;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    qf_field_create(&fm, &lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0);
    qf_field_create(&a, &lat, QF_FIELD_CLOVER, QF_DOUBLE, 0);
    qf_field_create(&ainv, &lat, QF_FIELD_CLOVER, QF_DOUBLE, 0);
    qf_field_create(&a_single, &lat, QF_FIELD_CLOVER, QF_SINGLE, 0);
    qf_field_create(&a_blocks, &lat_blocks, QF_FIELD_CLOVER, QF_DOUBLE, 0);
    qf_field_create(&w, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_field_create(&w2, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_field_create(&w_single, &lat, QF_FIELD_WILSON, QF_SINGLE, 0);
    qf_field_create(&w_blocks, &lat_blocks, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_field_import(u, links);
    CHECK(qf_gauge_field_strength(u, fm) == 0, "F: %s", qf_last_error());

    /* kappa c_sw too large for a hot field: some chiral block is indefinite */
    CHECK(qf_clover_build(fm, 50.0, a, ainv) == QF_ERROR && strstr(qf_last_error(), "not positive definite") &&
              strstr(qf_last_error(), "too large"),
          "kappa c_sw = 50 on a hot field refused: %s", qf_last_error());
    printf("kappa c_sw = 50: %s\n", qf_last_error());
    CHECK(qf_clover_build(fm, -50.0, a, ainv) == QF_ERROR && strstr(qf_last_error(), "sites"),
          "kappa c_sw = -50 on a hot field refused: %s", qf_last_error());
    CHECK(qf_clover_build(fm, NAN, a, ainv) == QF_ERROR && strstr(qf_last_error(), "finite"),
          "kappa c_sw = NaN refused: %s", qf_last_error());
    CHECK(qf_clover_build(u, KC, a, ainv) == QF_ERROR && strstr(qf_last_error(), "field strength"),
          "clover from a gauge field refused: %s", qf_last_error());
    CHECK(qf_clover_build(fm, KC, w, ainv) == QF_ERROR && strstr(qf_last_error(), "QF_FIELD_CLOVER"),
          "clover into a Wilson field refused: %s", qf_last_error());
    CHECK(qf_clover_build(fm, KC, a, a) == QF_ERROR && strstr(qf_last_error(), "distinct"),
          "A and A^-1 in one field refused: %s", qf_last_error());
    CHECK(qf_clover_build(fm, KC, a, a_single) == QF_ERROR && strstr(qf_last_error(), "same precision"),
          "A and A^-1 in different precisions refused: %s", qf_last_error());
    CHECK(qf_clover_build(fm, KC, a_blocks, ainv) == QF_ERROR && strstr(qf_last_error(), "blocks 2 2 2 2"),
          "A on another block grid refused: %s", qf_last_error());

    CHECK(qf_clover_apply(w, 0.0, NULL, 1.0, a, w2, 2) == QF_ERROR && strstr(qf_last_error(), "parity 2"),
          "parity 2 refused: %s", qf_last_error());
    CHECK(qf_clover_apply(w, 1.0, NULL, 1.0, a, w2, 0) == QF_ERROR && strstr(qf_last_error(), "x field"),
          "a != 0 without x refused: %s", qf_last_error());
    CHECK(qf_clover_apply(w, 0.0, NULL, 1.0, w2, w2, 0) == QF_ERROR && strstr(qf_last_error(), "clover"),
          "a Wilson field as the clover term refused: %s", qf_last_error());
    CHECK(qf_clover_apply(w, 0.0, NULL, 1.0, a, fm, 0) == QF_ERROR && strstr(qf_last_error(), "field strength"),
          "a field-strength input refused: %s", qf_last_error());
    CHECK(qf_clover_apply(w_single, 0.0, NULL, 1.0, a, w2, 0) == QF_ERROR &&
              strstr(qf_last_error(), "precision"),
          "a single output with a double clover field refused: %s", qf_last_error());
    CHECK(qf_clover_apply(w, 1.0, w_blocks, 1.0, a, w2, -1) == QF_ERROR && strstr(qf_last_error(), "lattice"),
          "an x on another block grid refused: %s", qf_last_error());

    /* after the refusals, the same fields still work */
    CHECK(qf_clover_build(fm, KC, a, ainv) == 0, "build after refused calls: %s", qf_last_error());
    if (qf_field_export(a, cl) == 0 && qf_field_export(ainv, cl_inv) == 0)
        check_build("after refused calls", fref, KC, QF_DOUBLE, 1e-13);

    qf_field_destroy(u);
    qf_field_destroy(fm);
    qf_field_destroy(a);
    qf_field_destroy(ainv);
    qf_field_destroy(a_single);
    qf_field_destroy(a_blocks);
    qf_field_destroy(w);
    qf_field_destroy(w2);
    qf_field_destroy(w_single);
    qf_field_destroy(w_blocks);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;
    ref_init();

    V = (int64_t)L[0] * L[1] * L[2] * L[3];
    links = malloc((size_t)V * 72 * sizeof(double));
    fref = malloc((size_t)V * 108 * sizeof(double));
    fref_single = malloc((size_t)V * 108 * sizeof(double));
    xs = malloc((size_t)V * NS * sizeof(double));
    ys = malloc((size_t)V * NS * sizeof(double));
    os = malloc((size_t)V * NS * sizeof(double));
    tmp = malloc((size_t)V * NS * sizeof(double));
    cl = malloc((size_t)V * 72 * sizeof(double));
    cl_inv = malloc((size_t)V * 72 * sizeof(double));
    uint64_t seed = 4242;
    for (int64_t k = 0; k < V * NS; k++) {
        xs[k] = qf_test_gauss(&seed);
        ys[k] = qf_test_gauss(&seed);
        os[k] = qf_test_gauss(&seed);
    }

    /* the hot field and its F, once, on one block; every grid imports the same links */
    qf_lattice lat1;
    const int one[4] = {1, 1, 1, 1};
    qf_lattice_init(&lat1, L, NULL, one, 0, 1, 1);
    qf_field *u, *fm;
    qf_field_create(&u, &lat1, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    qf_field_create(&fm, &lat1, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0);
    CHECK(qf_gauge_start(u, QF_START_HOT, 20261207, 0.0) == 0 && qf_field_export(u, links) == 0 &&
              qf_gauge_field_strength(u, fm) == 0 && qf_field_export(fm, fref) == 0,
          "hot field and F: %s", qf_last_error());
    qf_field_destroy(u);
    qf_field_destroy(fm);
    double fmax_abs = 0;
    for (int64_t k = 0; k < V * 108; k++) fmax_abs = fmax(fmax_abs, fabs(fref[k]));
    printf("hot 4^4 field: max |F| entry %.3f, kappa c_sw %.2f\n", fmax_abs, KC);

    static const int grids[][4] = {{1, 1, 1, 1}, {2, 1, 1, 1}, {1, 2, 1, 2}, {2, 2, 2, 2}, {1, 1, 2, 1}};
    for (unsigned g = 0; g < sizeof grids / sizeof grids[0]; g++) test_grid(grids[g]);
    test_single_f();
    test_errors();
    printf("largest errors: chiral off-diagonal %.1e; A %.1e (double) %.1e (single); A A^-1 - 1 %.1e (double) "
           "%.1e (single); apply A %.1e (double) %.1e (single); apply A^-1 %.1e (double) %.1e (single)\n",
           worst_offdiag, worst_a[0], worst_a[1], worst_inv[0], worst_inv[1], worst_apply[0], worst_apply[1],
           worst_apply_inv[0], worst_apply_inv[1]);
    free(links);
    free(fref);
    free(fref_single);
    free(xs);
    free(ys);
    free(os);
    free(tmp);
    free(cl);
    free(cl_inv);
    qf_runtime_shutdown();
    return qf_check_summary();
}
