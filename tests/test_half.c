/* Half precision (QUDA's 16-bit fixed point with a norm a site, qf_defs.h and kernels/reals.h):
 *   - a record keeps each real to half a step of its norm / 32767, the norm being the record's
 *     largest magnitude; zero records stay zero, NaN and infinity load as NaN; the record sizes;
 *   - fields: import and export, conversions from and to double and single, on several blocks;
 *   - BLAS on half fields (updates, the fused CG, BiCGStab and direction updates, reductions, several
 *     fields against one) against
 *     the same operations in double on the host, from the half-rounded inputs;
 *   - the Dirac operator in half (whole and compressed links, with and without clover, several block
 *     grids, antiperiodic and complex boundary phases) against the independent reference to 1e-3;
 *   - mixed-precision solves, double/half and single/half (BiCGStab, CGNR, GCR), reaching the
 *     requested true residual;
 *   - what keeps no half fields refuses them with a message, and so do the faces of a half field of
 *     several records a site.
 * The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "dirac_reference.h"
#include "quarkflow.h"
#include "reals.h"
#include "test_start.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_records(void)
{
    CHECK(qf_record_bytes(QF_HALF, 24) == 56 && qf_record_bytes(QF_HALF, 12) == 32 &&
              qf_record_bytes(QF_HALF, 72) == 152 && qf_record_bytes(QF_SINGLE, 24) == 96,
          "record bytes: half spinor 56, half spinor face 32, half links 152, single spinor 96 (got %zu %zu %zu %zu)",
          qf_record_bytes(QF_HALF, 24), qf_record_bytes(QF_HALF, 12), qf_record_bytes(QF_HALF, 72),
          qf_record_bytes(QF_SINGLE, 24));
    static unsigned char buf[2 * QF_HALF_TILE * 56]; /* two tiles of spinor records */
    ref_rng g = {11};
    for (int l = QF_HALF_ROWS; l <= QF_HALF_TILES; l++) {
        const char *name = l == QF_HALF_TILES ? "tiles" : "rows";
        double worst = 0.0;
        for (int n = 0; n < 1000; n++) {
            double v[24], w[24], m = 0.0;
            double scale = pow(10.0, (double)(n % 13) - 6.0); /* 1e-6 .. 1e6 */
            for (int k = 0; k < 24; k++) v[k] = scale * (2.0 * ref_rng_uniform(&g) - 1.0), m = fmax(m, fabs(v[k]));
            qf_half_record_store(buf, 1, 24, v, (qf_half_layout)l);
            qf_half_record_load(buf, 1, 24, 0, w, 24, (qf_half_layout)l);
            for (int k = 0; k < 24; k++) worst = fmax(worst, fabs(w[k] - v[k]) / m);
        }
        CHECK(worst <= 0.5 / QF_HALF_MAX * 1.001,
              "%s: 1000 records of 24 reals from 1e-6 to 1e6: each real within half a step of norm / 32767 "
              "(largest error %.3e of the norm, bound %.3e)",
              name, worst, 0.5 / QF_HALF_MAX);
        double z[24] = {0}, w[24];
        qf_half_record_store(buf, 0, 24, z, (qf_half_layout)l);
        qf_half_record_load(buf, 0, 24, 6, w, 4, (qf_half_layout)l);
        CHECK(w[0] == 0.0 && w[3] == 0.0, "%s: a zero record loads as zeros", name);
        z[5] = NAN;
        qf_half_record_store(buf, 0, 24, z, (qf_half_layout)l);
        qf_half_record_load(buf, 0, 24, 0, w, 24, (qf_half_layout)l);
        CHECK(isnan(w[0]) && isnan(w[23]), "%s: a record with a NaN loads as NaN everywhere (%g %g)", name, w[0], w[23]);
        z[5] = INFINITY;
        qf_half_record_store(buf, 0, 24, z, (qf_half_layout)l);
        qf_half_record_load(buf, 0, 24, 0, w, 24, (qf_half_layout)l);
        CHECK(isnan(w[0]), "%s: a record with an infinity loads as NaN (%g)", name, w[0]);
    }
    /* tiles: each record of two tiles keeps its own values (no byte shared with another record), the
     * whole two tiles in the bytes of 64 records, component k of record i where qf_defs.h says */
    double all[2 * QF_HALF_TILE][24];
    memset(buf, 0xff, sizeof buf);
    for (int i = 0; i < 2 * QF_HALF_TILE; i++) {
        for (int k = 0; k < 24; k++) all[i][k] = (double)(i + 1) * (k + 1) / (24.0 * 2 * QF_HALF_TILE);
        qf_half_record_store(buf, (size_t)i, 24, all[i], QF_HALF_TILES);
    }
    int kept = 1, placed = 1;
    for (int i = 0; i < 2 * QF_HALF_TILE; i++) {
        double w[24];
        qf_half_record_load(buf, (size_t)i, 24, 0, w, 24, QF_HALF_TILES);
        for (int k = 0; k < 24; k++) kept &= fabs(w[k] - all[i][k]) <= all[i][23] * 0.5 / QF_HALF_MAX * 1.001;
        for (int k = 0; k < 24; k++) {
            size_t at = (size_t)(i / QF_HALF_TILE) * QF_HALF_TILE * 56 + ((size_t)(k / 4) * QF_HALF_TILE + i % QF_HALF_TILE) * 8 + k % 4 * 2;
            placed &= (const unsigned char *)qf_half_component_ptr(buf, (size_t)i, 24, k, QF_HALF_TILES) == buf + at;
        }
        placed &= (const unsigned char *)qf_half_norm_at(buf, (size_t)i, 24, QF_HALF_TILES) ==
                  buf + (size_t)(i / QF_HALF_TILE) * QF_HALF_TILE * 56 + 6 * QF_HALF_TILE * 8 + (size_t)(i % QF_HALF_TILE) * 4;
    }
    CHECK(kept && placed, "tiles: 64 spinor records stored side by side in two tiles read back each its own (%s), "
                          "component k of record i at chunk k / 4 of its tile, lane i %% %d, the norms after (%s)",
          kept ? "yes" : "no", QF_HALF_TILE, placed ? "yes" : "no");
    CHECK(qf_records_count(QF_HALF, QF_HALF_TILES, 33) == 64 && qf_records_count(QF_HALF, QF_HALF_ROWS, 33) == 33 &&
              qf_records_count(QF_SINGLE, QF_HALF_TILES, 33) == 33 && qf_records_bytes(QF_HALF, QF_HALF_TILES, 24, 33) == 64 * 56,
          "33 records take two tiles in half (64 x 56 bytes of spinors), 33 records in rows or in single");
}

typedef struct {
    int L[4];
    int64_t V;
    double *links, *a, *b, *c, *got, *want;
} problem;

/* x rounded to half as a field keeps it, site by site */
static void half_round(const problem *pb, double *x)
{
    unsigned char rec[56];
    for (int64_t s = 0; s < pb->V; s++) {
        qf_half_record_store(rec, 0, 24, x + s * 24, QF_HALF_ROWS);
        qf_half_record_load(rec, 0, 24, 0, x + s * 24, 24, QF_HALF_ROWS);
    }
}

/* largest |got - want| of a site over the largest |want| of that site, the half's measure */
static double site_rel_diff(const problem *pb, const double *got, const double *want, int parity)
{
    double worst = 0.0;
    for (int64_t s = 0; s < pb->V; s++) {
        if (parity >= 0 && ref_parity_of(s, pb->L) != parity) continue;
        double m = 0.0, d = 0.0;
        for (int k = 0; k < 24; k++) m = fmax(m, fabs(want[s * 24 + k])), d = fmax(d, fabs(got[s * 24 + k] - want[s * 24 + k]));
        if (m > 0.0) worst = fmax(worst, d / m);
    }
    return worst;
}

static void test_fields(problem *pb, const int grid[4])
{
    qf_lattice lat;
    qf_field *h = NULL, *d = NULL, *s = NULL;
    size_t n = (size_t)pb->V * 24;
    int rc = qf_lattice_init(&lat, pb->L, NULL, grid, 0, 1, 1) ||
             qf_field_create(&h, &lat, QF_FIELD_WILSON, QF_HALF, 0) ||
             qf_field_create(&d, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
             qf_field_create(&s, &lat, QF_FIELD_WILSON, QF_SINGLE, 0) || qf_field_import(h, pb->a) ||
             qf_field_export(h, pb->got);
    memcpy(pb->want, pb->a, n * sizeof(double));
    half_round(pb, pb->want);
    CHECK(!rc && memcmp(pb->got, pb->want, n * sizeof(double)) == 0,
          "blocks %d %d %d %d: a half field's export is its import rounded site by site: %s", grid[0], grid[1],
          grid[2], grid[3], rc ? qf_last_error() : "ok");
    rc = rc || qf_field_import(d, pb->a) || qf_field_convert(h, d) || qf_field_export(h, pb->got);
    CHECK(!rc && memcmp(pb->got, pb->want, n * sizeof(double)) == 0, "double -> half conversion rounds as import does");
    rc = rc || qf_field_convert(s, h) || qf_field_export(s, pb->got);
    double e = 0.0;
    for (size_t i = 0; i < n; i++) e = fmax(e, fabs(pb->got[i] - pb->want[i]) / (fabs(pb->want[i]) + 1e-30));
    CHECK(!rc && e < 1e-6, "half -> single keeps the half values (%.2e)", e);
    if (h) qf_field_destroy(h);
    if (d) qf_field_destroy(d);
    if (s) qf_field_destroy(s);
}

static double complex host_dot(const double *x, const double *y, size_t n)
{
    double complex r = 0.0;
    for (size_t i = 0; i < n; i += 2) r += conj(x[i] + I * x[i + 1]) * (y[i] + I * y[i + 1]);
    return r;
}

static void test_blas(problem *pb, const int grid[4])
{
    qf_lattice lat;
    qf_field *x = NULL, *y = NULL, *w = NULL, *r = NULL;
    qf_scalar *sa = NULL, *sb = NULL, *sd = NULL;
    size_t n = (size_t)pb->V * 24;
    int rc = qf_lattice_init(&lat, pb->L, NULL, grid, 0, 1, 1) ||
             qf_field_create(&x, &lat, QF_FIELD_WILSON, QF_HALF, 0) || qf_field_create(&y, &lat, QF_FIELD_WILSON, QF_HALF, 0) ||
             qf_field_create(&w, &lat, QF_FIELD_WILSON, QF_HALF, 0) || qf_field_create(&r, &lat, QF_FIELD_WILSON, QF_HALF, 0) ||
             qf_scalar_create(&sa) || qf_scalar_create(&sb) || qf_scalar_create(&sd) || qf_scalar_set(sa, 0.3, -0.7) ||
             qf_field_import(x, pb->a) || qf_field_import(y, pb->b) || qf_field_import(w, pb->c);
    if (rc) {
        CHECK(0, "BLAS set-up: %s", qf_last_error());
        return;
    }
    double *xa = malloc(n * sizeof *xa), *ya = malloc(n * sizeof *ya), *wa = malloc(n * sizeof *wa);
    memcpy(xa, pb->a, n * sizeof *xa), half_round(pb, xa);
    memcpy(ya, pb->b, n * sizeof *ya), half_round(pb, ya);
    memcpy(wa, pb->c, n * sizeof *wa), half_round(pb, wa);
    const double complex a = 0.3 - 0.7 * I;
    /* y = x + 2 a y on the odd sites, the even ones kept */
    rc = qf_blas_cxpay(x, sa, 2.0, y, 1) || qf_field_export(y, pb->got);
    memcpy(pb->want, ya, n * sizeof(double));
    for (int64_t s = 0; s < pb->V; s++) {
        if (ref_parity_of(s, pb->L) != 1) continue;
        for (int k = 0; k < 24; k += 2) {
            double complex v = xa[s * 24 + k] + I * xa[s * 24 + k + 1] + 2.0 * a * (ya[s * 24 + k] + I * ya[s * 24 + k + 1]);
            pb->want[s * 24 + k] = creal(v), pb->want[s * 24 + k + 1] = cimag(v);
        }
    }
    double e = site_rel_diff(pb, pb->got, pb->want, -1);
    CHECK(!rc && e < 2e-5, "blocks %d %d %d %d: half cxpay on the odd sites, the even kept: %.2e of each site's largest (< 2e-5): %s",
          grid[0], grid[1], grid[2], grid[3], e, rc ? qf_last_error() : "ok");
    /* dot and norm over what y now holds */
    memcpy(ya, pb->got, n * sizeof *ya);
    double dre, dim, nre, nim;
    rc = rc || qf_blas_dot_norm2(sb, sd, w, y, -1) || qf_scalar_get(sb, &dre, &dim) || qf_scalar_get(sd, &nre, &nim);
    double complex want = host_dot(wa, ya, n);
    double wn = creal(host_dot(wa, wa, n));
    /* the GPU computes a unit in float (6e-8 of each value), the CPU in double; both add the units in
     * double: sums within 1e-6 */
    CHECK(!rc && cabs(dre + I * dim - want) <= 1e-6 * cabs(want) && fabs(nre - wn) <= 1e-6 * wn,
          "half <w, y> and |w|^2 are the sums of the stored values: (%.8g, %.8g) "
          "against (%.8g, %.8g), %.8g against %.8g",
          dre, dim, creal(want), cimag(want), nre, wn);
    /* the fused CG update: x += a w, r = y - a x_old... as qf_blas_cg_update: x = x + a p, r = r - a q */
    rc = rc || qf_blas_copy(r, y, -1) || qf_blas_cg_update(x, r, sa, w, y, sb, -1) || qf_field_export(r, pb->got) ||
         qf_scalar_get(sb, &nre, &nim);
    memcpy(pb->want, ya, n * sizeof(double));
    for (size_t i = 0; i < n; i += 2) {
        double complex v = ya[i] + I * ya[i + 1] - a * (ya[i] + I * ya[i + 1]);
        pb->want[i] = creal(v), pb->want[i + 1] = cimag(v);
    }
    e = site_rel_diff(pb, pb->got, pb->want, -1);
    double rn = creal(host_dot(pb->got, pb->got, n));
    CHECK(!rc && e < 2e-5 && fabs(nre - rn) <= 1e-3 * rn,
          "half cg_update: r within %.2e of each site's largest (< 2e-5), |r|^2 %.6g against the stored %.6g", e, nre,
          rn);
    /* several fields against one: <x, y> and <w, y> in one pass, then y += a x - (a / b) w */
    double *x2 = malloc(n * sizeof *x2), *y2 = malloc(n * sizeof *y2), *w2 = malloc(n * sizeof *w2);
    rc = rc || qf_field_export(x, x2) || qf_field_export(y, y2) || qf_field_export(w, w2) || qf_scalar_set(sb, -1.1, 0.4);
    {
        qf_scalar *dots[2] = {sd, sb}, *coef[2] = {sa, sa}, *den[2] = {NULL, sb};
        const qf_field *xs[2] = {x, w};
        double d0[2], d1[2];
        rc = rc || qf_blas_multi_dot(dots, xs, 2, y, -1) || qf_scalar_get(sd, &d0[0], &d0[1]) ||
             qf_scalar_get(sb, &d1[0], &d1[1]);
        double complex want0 = host_dot(x2, y2, n), want1 = host_dot(w2, y2, n);
        CHECK(!rc && cabs(d0[0] + I * d0[1] - want0) <= 1e-6 * cabs(want0) &&
                  cabs(d1[0] + I * d1[1] - want1) <= 1e-6 * cabs(want1),
              "half multi_dot: <x, y> (%.8g, %.8g) against %.8g, %.8g; <w, y> (%.8g, %.8g) against %.8g, %.8g: %s",
              d0[0], d0[1], creal(want0), cimag(want0), d1[0], d1[1], creal(want1), cimag(want1),
              rc ? qf_last_error() : "ok");
        /* d[0] = 1: the coefficients a and a / b, b = (-1.1, 0.4) */
        qf_scalar *one = NULL;
        rc = rc || qf_scalar_create(&one) || qf_scalar_set(one, 1.0, 0.0) || qf_scalar_set(sb, -1.1, 0.4);
        den[0] = one;
        rc = rc || qf_blas_multi_caxpy((const qf_scalar *const *)coef, (const qf_scalar *const *)den, 1.0, xs, 2, y, 0) ||
             qf_field_export(y, pb->got);
        const double complex c1 = a / (-1.1 + 0.4 * I);
        memcpy(pb->want, y2, n * sizeof(double));
        for (int64_t s = 0; s < pb->V; s++) {
            if (ref_parity_of(s, pb->L) != 0) continue;
            for (int k = 0; k < 24; k += 2) {
                size_t i = (size_t)(s * 24 + k);
                double complex v = y2[i] + I * y2[i + 1] + a * (x2[i] + I * x2[i + 1]) + c1 * (w2[i] + I * w2[i + 1]);
                pb->want[i] = creal(v), pb->want[i + 1] = cimag(v);
            }
        }
        e = site_rel_diff(pb, pb->got, pb->want, -1);
        CHECK(!rc && e < 2e-5, "half multi_caxpy on the even sites, the odd kept: %.2e of each site's largest (< 2e-5): %s",
              e, rc ? qf_last_error() : "ok");
        if (one) qf_scalar_destroy(one);
    }
    free(x2), free(y2), free(w2);
    qf_field_destroy(x), qf_field_destroy(y), qf_field_destroy(w), qf_field_destroy(r);
    qf_scalar_destroy(sa), qf_scalar_destroy(sb), qf_scalar_destroy(sd);
    free(xa), free(ya), free(wa);
}

static void test_operator(problem *pb, const int grid[4], const double phase[4][2], const char *bc, double csw)
{
    qf_lattice lat;
    qf_field *u = NULL, *in = NULL, *out = NULL;
    if (qf_lattice_init(&lat, pb->L, NULL, grid, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_import(u, pb->links) || qf_field_create(&in, &lat, QF_FIELD_WILSON, QF_HALF, 0) ||
        qf_field_create(&out, &lat, QF_FIELD_WILSON, QF_HALF, 0) || qf_field_import(in, pb->a)) {
        CHECK(0, "operator set-up: %s", qf_last_error());
        return;
    }
    const double kappa = 0.124;
    ref_dirac r;
    if (ref_dirac_init(&r, pb->L, pb->links, kappa, csw, phase)) {
        CHECK(0, "reference operator");
        return;
    }
    double *in_h = malloc((size_t)pb->V * 24 * sizeof *in_h);
    memcpy(in_h, pb->a, (size_t)pb->V * 24 * sizeof *in_h);
    half_round(pb, in_h); /* the operator's input as the half field holds it */
    static const qf_dirac_op ops[3] = {QF_OP_M, QF_OP_MHAT, QF_OP_MHAT_DAG};
    static const qf_recon recons[3] = {QF_RECON_18, QF_RECON_12, QF_RECON_8};
    for (int k = 0; k < 3; k++) {
        qf_dirac_params p = qf_dirac_default_params(kappa);
        p.csw = csw;
        p.prec = QF_HALF;
        p.recon = recons[k];
        memcpy(p.phase, phase, sizeof p.phase);
        qf_dirac *d = NULL;
        if (qf_dirac_create(&d, u, &p, QF_SCHUR_ASYMMETRIC)) {
            CHECK(0, "qf_dirac_create in half, recon %s: %s", qf_recon_name(recons[k]), qf_last_error());
            continue;
        }
        double worst = 0.0;
        for (int o = 0; o < 3; o++) {
            int eo = o > 0;
            memset(pb->want, 0, (size_t)pb->V * 24 * sizeof(double));
            ref_dirac_apply(&r, (ref_op)ops[o], REF_ASYMMETRIC, pb->want, in_h);
            int rc = qf_field_import(out, pb->b) || qf_dirac_apply(d, ops[o], out, in) || qf_field_export(out, pb->got);
            double e = rc ? 1.0 : ref_rel_diff(pb->L, pb->got, pb->want, eo ? 0 : -1);
            CHECK(!rc && e <= 1e-3,
                  "blocks %d %d %d %d, %s, csw %g, half, recon %s: %s against the reference: relative error %.2e "
                  "(tolerance 1e-3)%s%s",
                  grid[0], grid[1], grid[2], grid[3], bc, csw, qf_recon_name(recons[k]), qf_dirac_op_name(ops[o]), e,
                  rc ? ": " : "", rc ? qf_last_error() : "");
            worst = fmax(worst, e);
        }
        printf("blocks %d %d %d %d, %s, csw %g, half, recon %s: worst relative error %.2e\n", grid[0], grid[1], grid[2],
               grid[3], bc, csw, qf_recon_name(recons[k]), worst);
        qf_dirac_destroy(d);
    }
    free(in_h);
    ref_dirac_free(&r);
    qf_field_destroy(u), qf_field_destroy(in), qf_field_destroy(out);
}

static void test_solves(problem *pb)
{
    const int grid[4] = {1, 2, 1, 2};
    qf_lattice lat;
    qf_field *u = NULL;
    if (qf_lattice_init(&lat, pb->L, NULL, grid, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_import(u, pb->links)) {
        CHECK(0, "solve set-up: %s", qf_last_error());
        return;
    }
    static const struct {
        qf_precision prec;
        qf_solver_kind kind;
        qf_recon recon_sloppy;
        double tol;
    } runs[] = {{QF_DOUBLE, QF_SOLVER_BICGSTAB, QF_RECON_12, 1e-10},
                {QF_DOUBLE, QF_SOLVER_CGNR, QF_RECON_18, 1e-10},
                {QF_DOUBLE, QF_SOLVER_GCR, QF_RECON_12, 1e-10},
                {QF_SINGLE, QF_SOLVER_BICGSTAB, QF_RECON_12, 1e-6}};
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        qf_dirac_params p = qf_dirac_default_params(0.12);
        p.csw = 1.0;
        p.prec = runs[k].prec;
        p.recon_sloppy = runs[k].recon_sloppy;
        qf_dirac *d = NULL;
        qf_linop *M = NULL;
        qf_field *x = NULL, *b = NULL;
        qf_solver_params sp = qf_solver_default_params();
        sp.kind = runs[k].kind;
        sp.tol = runs[k].tol;
        sp.sloppy = QF_HALF;
        sp.max_iter = 2000;
        qf_solver_result res;
        int rc = qf_dirac_create(&d, u, &p, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
                 qf_field_create(&x, &lat, QF_FIELD_WILSON, p.prec, 0) ||
                 qf_field_create(&b, &lat, QF_FIELD_WILSON, p.prec, 0) || qf_field_import(b, pb->a) ||
                 qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &sp, &res);
        CHECK(rc == 0 && res.converged && res.residual <= 1.5 * runs[k].tol,
              "%s/half %s (sloppy links recon %s): %s, %d iterations, %d high-precision updates, true residual %.2e "
              "(tolerance %.0e)",
              qf_precision_name(p.prec), qf_solver_name(sp.kind), qf_recon_name(runs[k].recon_sloppy),
              rc ? qf_last_error() : "converged", rc ? 0 : res.iterations, rc ? 0 : res.updates,
              rc ? 0.0 : res.residual, runs[k].tol);
        if (!rc)
            printf("%s/half %s: %d iterations, %d updates, true residual %.2e\n", qf_precision_name(p.prec),
                   qf_solver_name(sp.kind), res.iterations, res.updates, res.residual);
        if (M) qf_linop_destroy(M);
        if (d) qf_dirac_destroy(d);
        if (x) qf_field_destroy(x);
        if (b) qf_field_destroy(b);
    }
    qf_field_destroy(u);
}

static void test_errors(void)
{
    const int L[4] = {4, 4, 4, 4}, one[4] = {1, 1, 1, 1};
    qf_lattice lat;
    qf_field *u = NULL, *h = NULL, *c = NULL, *x = NULL;
    qf_field_shape s;
    if (qf_lattice_init(&lat, L, NULL, one, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_HALF, 0) ||
        qf_field_create(&h, &lat, QF_FIELD_WILSON, QF_HALF, 0) || qf_field_create(&x, &lat, QF_FIELD_WILSON, QF_HALF, 0)) {
        CHECK(0, "error set-up: %s", qf_last_error());
        return;
    }
    qf_precision p;
    CHECK(qf_precision_parse("half", &p) == QF_SUCCESS && p == QF_HALF, "qf_precision_parse reads half");
    CHECK(qf_field_shape_coarse(&s, 8) == 0 && qf_field_create_shaped(&c, &lat, &s, QF_HALF, 0) == QF_ERROR &&
              strstr(qf_last_error(), "half"),
          "a coarse field in half is refused: %s", qf_last_error());
    qf_field *t = NULL;
    CHECK(qf_field_shape_transfer(&s, 24, 2) == 0 &&
              qf_field_create_shaped(&t, &lat, &s, QF_HALF, QF_FIELD_WITH_FACES) == QF_ERROR &&
              strstr(qf_last_error(), "several records"),
          "faces of a half transfer field (a record a vector) are refused: %s", qf_last_error());
    qf_field *odd = NULL;
    s = qf_field_kind_shape(QF_FIELD_WILSON);
    s.site_reals = s.face_reals = 6; /* a record a site, of 6 reals: not whole chunks of a tile */
    CHECK(qf_field_create_shaped(&odd, &lat, &s, QF_HALF, 0) == QF_ERROR && strstr(qf_last_error(), "multiple of 4"),
          "a half field in tiles whose records are not whole chunks of 4 reals is refused: %s", qf_last_error());
    if (odd) qf_field_destroy(odd);
    CHECK(qf_field_gaussian(h, 1, 0) == QF_ERROR && strstr(qf_last_error(), "convert"),
          "Gaussian noise into a half field is refused: %s", qf_last_error());
    qf_gauge_observables obs;
    CHECK(qf_gauge_measure(u, &obs) == QF_ERROR && strstr(qf_last_error(), "half"),
          "measuring a half gauge field is refused: %s", qf_last_error());
    qf_dirac_params dp = qf_dirac_default_params(0.12);
    qf_dirac *d = NULL;
    CHECK(qf_dirac_create(&d, u, &dp, QF_SCHUR_ASYMMETRIC) == QF_ERROR && strstr(qf_last_error(), "double or single"),
          "an operator from half links is refused: %s", qf_last_error());
    qf_field *ud = NULL;
    qf_linop *M = NULL;
    dp.prec = QF_HALF;
    qf_solver_params sp = qf_solver_default_params();
    qf_solver_result res;
    int rc = qf_field_create(&ud, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(ud, QF_START_COLD, 1, 0.0) ||
             qf_dirac_create(&d, ud, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M);
    CHECK(rc == 0 && qf_solve(M, x, h, &sp, &res) == QF_ERROR && strstr(qf_last_error(), "sloppy"),
          "a solve in half is refused, pointing to --sloppy half: %s", qf_last_error());
    if (M) qf_linop_destroy(M);
    if (d) qf_dirac_destroy(d);
    qf_field_destroy(ud), qf_field_destroy(u), qf_field_destroy(h), qf_field_destroy(x);
}

int main(void)
{
    int rc = qf_test_start();
    if (rc >= 0) return rc;
    test_records();
    problem pb = {.L = {4, 4, 4, 8}};
    pb.V = ref_volume(pb.L);
    size_t n = (size_t)pb.V * REF_SPINOR_REALS;
    pb.links = malloc((size_t)pb.V * REF_GAUGE_REALS * sizeof(double));
    pb.a = malloc(n * sizeof(double)), pb.b = malloc(n * sizeof(double)), pb.c = malloc(n * sizeof(double));
    pb.got = malloc(n * sizeof(double)), pb.want = malloc(n * sizeof(double));
    ref_rng g = {7};
    ref_random_links(&g, pb.L, pb.links);
    ref_random_spinor(&g, pb.L, pb.a);
    ref_random_spinor(&g, pb.L, pb.b);
    ref_random_spinor(&g, pb.L, pb.c);
    const double anti[4][2] = {{1, 0}, {1, 0}, {1, 0}, {-1, 0}};
    const double cplx[4][2] = {{cos(0.3), sin(0.3)}, {1, 0}, {cos(-1.1), sin(-1.1)}, {cos(2.5), sin(2.5)}};
    const int grids[2][4] = {{1, 1, 1, 1}, {2, 1, 2, 2}};
    for (int gi = 0; gi < 2; gi++) {
        test_fields(&pb, grids[gi]);
        test_blas(&pb, grids[gi]);
        test_operator(&pb, grids[gi], anti, "antiperiodic t", gi == 1 ? 1.3 : 0.0);
    }
    test_operator(&pb, grids[1], cplx, "complex phases", 0.0);
    /* blocks of 2^4 sites: a parity is 8 records, one CPU BLAS unit, in a tile holding 32 */
    const int smallest[4] = {2, 2, 2, 4};
    test_fields(&pb, smallest);
    test_blas(&pb, smallest);
    test_solves(&pb);
    test_errors();
    free(pb.links), free(pb.a), free(pb.b), free(pb.c), free(pb.got), free(pb.want);
    qf_runtime_shutdown();
    return qf_check_summary();
}
