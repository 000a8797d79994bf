/* BLAS-1 and scalars as task graphs (include/quarkflow/qf_blas.h), against plain loops in double
 * complex arithmetic over the global lexicographic arrays (no blocks, no StarPU); a single-precision
 * field is represented in the reference by its float-rounded values, and every value the reference
 * stores into a single field is rounded the same way.
 *
 * On a 4x4x4x8 lattice (or QF_TEST_BLAS_DIMS, where fewer grids are tested), for several block grids, Wilson, staggered and coarse (8 colours) fields,
 * double and single precision and parities -1, 0, 1: copy, axpby (also b = 0, which does not read y), caxpy, cxpay,
 * xpcw, cxpay with a ratio of scalars, axpby and caxpy with x == y, norm2, dot and dot(x, x), 11 fields against one
 * (multi_dot, also with y among the x_k; multi_caxpy with and without ratios), the fused CG and BiCGStab updates (also
 * with aliased inputs) and BiCGStab's direction update (also with beta 0, which must leave p = r); the other parity stays bit for bit what it was; reductions are in double (a single
 * field's norm is the double-loop norm of its float values to 1e-12) and overwrite their result. A
 * chain of scalar operations and updates ending in a norm is submitted while the runtime is paused,
 * so that a call that waited would never return (a watchdog fails the test), and read with one get;
 * a CG-like iteration is compared with the same iteration in plain loops; BiCGStab's calls as chains
 * (qf_chain_begin) give the unchained calls' fields and scalars (to the last bit in the one task
 * a chain is on a lattice of one block on CPU workers), and a chain never reorders what is submitted
 * or read inside it; wrong inputs are refused with messages. The scheduler comes from STARPU_SCHED, so ctest runs this under several policies. */
#include "check.h"
#include "test_start.h"
#include "random_gauge.h"
#include "quarkflow.h"

#include <complex.h>
#include <math.h>
#include <signal.h>
#include <starpu.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef double complex cplx;

static int L[4] = {4, 4, 4, 8}; /* or QF_TEST_BLAS_DIMS */
enum { NR_MAX = 32 }; /* the widest shape tested: coarse, 8 colours */
static int64_t V;
static double *X0, *Y0, *Z0, *W0, *U0, *tmp; /* random global arrays, NR_MAX reals a site */

/* Largest relative errors seen, printed at the end: [0] double, [1] single. */
static double worst_update[2], worst_reduce[2], worst_fused[2], worst_cg[2];

static int site_parity(int64_t i)
{
    int s = 0;
    for (int mu = 0; mu < 4; mu++) {
        s += (int)(i % L[mu]);
        i /= L[mu];
    }
    return s & 1;
}

static int in_parity(int64_t i, int parity) { return parity < 0 || site_parity(i) == parity; }
static double rounded(double v, qf_precision p) { return p == QF_SINGLE ? (double)(float)v : v; }
static cplx rounded_c(cplx v, qf_precision p) { return rounded(creal(v), p) + I * rounded(cimag(v), p); }
/* complex element e (site * nr / 2 + k) of a global array, as a field of precision p holds it */
static cplx ld(const double *a, int64_t e, qf_precision p)
{
    return rounded(a[2 * e], p) + I * rounded(a[2 * e + 1], p);
}

/* The fields of one (block grid, kind, precision) and what the checks need to know about them. */
typedef struct {
    char tag[96];
    const qf_lattice *lat;
    qf_field_shape shape;
    qf_precision prec;
    int nr;               /* reals a site */
    int pi;               /* 0 double, 1 single */
    qf_field *x, *y, *z, *w, *v;
    qf_scalar *c, *r, *r2;
} ctx;

static int load(ctx *c, qf_field *f, const double *a)
{
    int rc = qf_field_import(f, a);
    CHECK(rc == 0, "%s: import: %s", c->tag, qf_last_error());
    return rc;
}

/* ---- updates ---- */

enum { T_COPY, T_AXPBY, T_AXPBY0, T_CAXPY, T_CXPAY, T_MUL, T_CONJ_MUL, T_XPCW, T_CXPAY_RATIO, T_AXPBYPCW, T_AXPBYPCW0,
       T_AXPBY_ALIAS, T_CAXPY_ALIAS, T_MUL_ALIAS, T_NUPD };
static const char *const upd_name[T_NUPD] = {"copy", "axpby", "axpby b=0", "caxpy", "cxpay", "mul", "conj_mul",
                                             "xpcw", "cxpay_ratio", "axpbypcw", "axpbypcw b=0", "axpby x=y",
                                             "caxpy x=y", "mul x=y"};

static void check_update(ctx *c, int t, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, %s, parity %d", c->tag, upd_name[t], parity);
    const double a = 0.75, b = -1.25, cw = -0.6;
    const cplx sc = 0.3 - 0.7 * I, sd = -1.1 + 0.4 * I; /* sd: cxpay_ratio's denominator */
    const double s = t == T_CXPAY || t == T_XPCW || t == T_CXPAY_RATIO ? -1.0 : 1.0;
    if (load(c, c->x, X0) || load(c, c->y, Y0) || load(c, c->w, W0)) return;
    int rc = qf_scalar_set(c->c, creal(sc), cimag(sc)) || qf_scalar_set(c->r2, creal(sd), cimag(sd));
    switch (t) {
    case T_COPY: rc = rc || qf_blas_copy(c->y, c->x, parity); break;
    case T_AXPBY: rc = rc || qf_blas_axpby(a, c->x, b, c->y, parity); break;
    case T_AXPBY0: rc = rc || qf_blas_axpby(a, c->x, 0.0, c->y, parity); break;
    case T_CAXPY: rc = rc || qf_blas_caxpy(c->c, s, c->x, c->y, parity); break;
    case T_CXPAY: rc = rc || qf_blas_cxpay(c->x, c->c, s, c->y, parity); break;
    case T_MUL: rc = rc || qf_blas_mul(c->y, c->w, c->x, parity); break;
    case T_CONJ_MUL: rc = rc || qf_blas_conj_mul(c->y, c->w, c->x, parity); break;
    case T_XPCW: rc = rc || qf_blas_xpcw(c->y, c->x, c->c, s, c->w, parity); break;
    case T_AXPBYPCW: rc = rc || qf_blas_axpbypcw(a, c->x, b, c->y, cw, c->w, parity); break;
    case T_AXPBYPCW0: rc = rc || qf_blas_axpbypcw(a, c->x, 0.0, c->y, cw, c->w, parity); break;
    case T_CXPAY_RATIO: rc = rc || qf_blas_cxpay_ratio(c->x, c->c, c->r2, s, c->y, parity); break;
    case T_MUL_ALIAS: rc = rc || qf_blas_mul(c->y, c->w, c->y, parity); break;
    case T_AXPBY_ALIAS: rc = rc || qf_blas_axpby(a, c->y, b, c->y, parity); break;
    default: rc = rc || qf_blas_caxpy(c->c, s, c->y, c->y, parity); break;
    }
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    if (rc || qf_field_export(c->y, tmp)) return;
    int half = c->nr / 2;
    double err = 0, scale = 0;
    int64_t changed = 0;
    for (int64_t i = 0; i < V; i++)
        for (int k = 0; k < half; k++) {
            int64_t e = i * half + k;
            if (!in_parity(i, parity)) {
                changed += tmp[2 * e] != rounded(Y0[2 * e], c->prec) || tmp[2 * e + 1] != rounded(Y0[2 * e + 1], c->prec);
                continue;
            }
            cplx x = ld(X0, e, c->prec), y = ld(Y0, e, c->prec), w = ld(W0, e, c->prec), want;
            if (t == T_AXPBY_ALIAS || t == T_CAXPY_ALIAS || t == T_MUL_ALIAS) x = y;
            switch (t) {
            case T_COPY: want = x; break;
            case T_AXPBY: case T_AXPBY_ALIAS: want = a * x + b * y; break;
            case T_AXPBY0: want = a * x; break;
            case T_CAXPY: case T_CAXPY_ALIAS: want = y + s * sc * x; break;
            case T_MUL: case T_MUL_ALIAS: want = w * x; break;
            case T_CONJ_MUL: want = conj(w) * x; break;
            case T_XPCW: want = x + s * sc * w; break;
            case T_AXPBYPCW: want = a * x + b * y + cw * w; break;
            case T_AXPBYPCW0: want = a * x + cw * w; break;
            case T_CXPAY_RATIO: want = x + s * (sc / sd) * y; break;
            default: want = x + s * sc * y; break;
            }
            err = fmax(err, cabs(ld(tmp, e, QF_DOUBLE) - want));
            scale = fmax(scale, cabs(want));
        }
    err /= scale;
    worst_update[c->pi] = fmax(worst_update[c->pi], err);
    CHECK(err < (c->prec == QF_DOUBLE ? 1e-15 : 1e-7), "%s: matches the loops (rel err %.2e)", tag, err);
    CHECK(changed == 0, "%s: the other parity is untouched (%lld elements changed)", tag, (long long)changed);
}

/* ---- conversions of one parity ---- */

/* x converted on one parity into another precision equals the whole conversion there, and the other
 * parity keeps what the field held (bit for bit: the same kernels round each record alike). */
static void check_convert(ctx *c, int parity)
{
    static const qf_precision to[] = {QF_DOUBLE, QF_SINGLE, QF_HALF};
    int64_t n = V * c->nr;
    double *before = malloc((size_t)n * sizeof(double)), *want = malloc((size_t)n * sizeof(double));
    for (unsigned k = 0; k < sizeof to / sizeof to[0] && before && want; k++) {
        if (to[k] == c->prec || (to[k] == QF_HALF && c->shape.kind != QF_FIELD_WILSON)) continue;
        char tag[160];
        snprintf(tag, sizeof tag, "%s, convert to %s, parity %d", c->tag, qf_precision_name(to[k]), parity);
        qf_field *whole = NULL, *part = NULL;
        int rc = qf_field_create_shaped(&whole, c->lat, &c->shape, to[k], 0) ||
                 qf_field_create_shaped(&part, c->lat, &c->shape, to[k], 0) || load(c, c->x, X0) ||
                 load(c, c->y, Y0) || qf_field_convert(whole, c->x) || qf_field_export(whole, want) ||
                 qf_field_convert(part, c->y) || qf_field_export(part, before) ||
                 qf_field_convert_parity(part, c->x, parity) || qf_field_export(part, tmp);
        CHECK(rc == 0, "%s: %s", tag, qf_last_error());
        int64_t wrong = 0;
        for (int64_t i = 0; i < V && !rc; i++)
            for (int r = 0; r < c->nr; r++) {
                int64_t e = i * c->nr + r;
                wrong += tmp[e] != (in_parity(i, parity) ? want[e] : before[e]);
            }
        CHECK(!rc && wrong == 0, "%s: the parity's reals are the whole conversion's, the other's kept (%lld differ)",
              tag, (long long)wrong);
        if (whole) qf_field_destroy(whole);
        if (part) qf_field_destroy(part);
    }
    free(before);
    free(want);
}

/* A fresh scratch field (StarPU allocates its blocks lazily) written on one parity, by a conversion
 * and by a BLAS update: the other parity reads as zeros, as on a field created zeroed, where StarPU
 * used to abort on the read of a block nothing had written. */
static void check_fresh_scratch(const qf_lattice *lat)
{
    for (int parity = 0; parity < 2; parity++) {
        qf_field *d = NULL, *s = NULL, *t = NULL;
        int rc = qf_field_create(&d, lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
                 qf_field_create_scratch(&s, lat, QF_FIELD_WILSON, QF_SINGLE) ||
                 qf_field_create_scratch(&t, lat, QF_FIELD_WILSON, QF_DOUBLE) || qf_field_import(d, X0) ||
                 qf_field_convert_parity(s, d, parity) || qf_blas_copy(t, d, parity);
        CHECK(rc == 0, "fresh scratch fields, parity %d: %s", parity, qf_last_error());
        for (int k = 0; k < 2 && !rc; k++) {
            qf_precision p = k ? QF_DOUBLE : QF_SINGLE;
            rc = qf_field_export(k ? t : s, tmp);
            int64_t wrong = 0;
            for (int64_t i = 0; i < V && !rc; i++)
                for (int r = 0; r < 24; r++)
                    wrong += tmp[i * 24 + r] != (in_parity(i, parity) ? rounded(X0[i * 24 + r], p) : 0.0);
            CHECK(!rc && wrong == 0, "a fresh scratch %s field written on parity %d by %s: that parity's values, zeros "
                  "on the other (%lld differ)", qf_precision_name(p), parity, k ? "qf_blas_copy" : "qf_field_convert_parity",
                  (long long)wrong);
        }
        if (d) qf_field_destroy(d);
        if (s) qf_field_destroy(s);
        if (t) qf_field_destroy(t);
    }
}

/* ---- reductions ---- */

static cplx ref_dot(const double *x, const double *y, int nr, int parity, qf_precision p)
{
    cplx s = 0;
    for (int64_t i = 0; i < V; i++)
        if (in_parity(i, parity))
            for (int k = 0; k < nr / 2; k++) s += conj(ld(x, i * (nr / 2) + k, p)) * ld(y, i * (nr / 2) + k, p);
    return s;
}

static cplx get(const qf_scalar *s)
{
    double re = NAN, im = NAN;
    int rc = qf_scalar_get(s, &re, &im);
    CHECK(rc == 0, "qf_scalar_get: %s", qf_last_error());
    return re + I * im;
}

static void check_reduce(ctx *c, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, parity %d", c->tag, parity);
    if (load(c, c->x, X0) || load(c, c->y, Y0)) return;
    cplx nx = ref_dot(X0, X0, c->nr, parity, c->prec), ny = ref_dot(Y0, Y0, c->nr, parity, c->prec);
    cplx dxy = ref_dot(X0, Y0, c->nr, parity, c->prec);
    double scale = sqrt(creal(nx) * creal(ny));

    /* a value in r beforehand, and the same norm twice: each reduction overwrites r */
    qf_scalar_set(c->r, 100.0, 5.0);
    CHECK(qf_blas_norm2(c->r, c->x, parity) == 0, "%s: norm2: %s", tag, qf_last_error());
    cplx g = get(c->r);
    double e1 = cabs(g - nx) / creal(nx);
    CHECK(qf_blas_norm2(c->r, c->x, parity) == 0, "%s: norm2: %s", tag, qf_last_error());
    cplx g2 = get(c->r);
    double e2 = cabs(g2 - nx) / creal(nx);
    CHECK(e1 < 1e-12 && e2 < 1e-12 && cimag(g) == 0.0,
          "%s: norm2 overwrites r and is the double-loop norm of the stored values (%.17g vs %.17g, rel err %.2e "
          "%.2e)",
          tag, creal(g), creal(nx), e1, e2);

    CHECK(qf_blas_dot(c->r, c->x, c->y, parity) == 0, "%s: dot: %s", tag, qf_last_error());
    double e3 = cabs(get(c->r) - dxy) / scale;
    CHECK(e3 < 1e-12, "%s: dot = sum conj(x) y (rel err %.2e)", tag, e3);
    CHECK(qf_blas_dot(c->r, c->y, c->y, parity) == 0, "%s: dot(y, y): %s", tag, qf_last_error());
    cplx gyy = get(c->r);
    double e4 = cabs(gyy - ny) / creal(ny);
    CHECK(e4 < 1e-12 && cimag(gyy) == 0.0, "%s: dot(y, y) = |y|^2 (rel err %.2e, im %.1e)", tag, e4, cimag(gyy));
    /* dot and norm in one pass: the same values as the two reductions */
    CHECK(qf_blas_dot_norm2(c->r, c->r2, c->x, c->y, parity) == 0, "%s: dot_norm2: %s", tag, qf_last_error());
    double e5 = cabs(get(c->r) - dxy) / scale;
    cplx gn = get(c->r2);
    double e6 = cabs(gn - nx) / creal(nx);
    CHECK(e5 < 1e-12 && e6 < 1e-12 && cimag(gn) == 0.0, "%s: dot_norm2 = <x, y> and |x|^2 (rel err %.2e %.2e)", tag,
          e5, e6);
    double worst = fmax(fmax(fmax(e1, e2), fmax(e3, e4)), fmax(e5, e6));
    worst_reduce[c->pi] = fmax(worst_reduce[c->pi], worst);
}

/* ---- the CPU team's chunks (codelets/blas_team.h): on a lattice of one block without CUDA workers a
 * large task's chunks are shared among the team, and its sums are the same to the last bit whatever
 * the team's size ---- */
static void check_team_sizes(ctx *c, int parity)
{
    static const char *const sizes[] = {"1", "2", "3", "7"};
    cplx first[3] = {0};
    const char *saved = getenv("QF_CPU_TEAM");
    char *keep = saved ? strdup(saved) : NULL;
    if (load(c, c->x, X0) || load(c, c->y, Y0)) return;
    for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        setenv("QF_CPU_TEAM", sizes[k], 1);
        int rc = qf_blas_dot_norm2(c->r, c->r2, c->x, c->y, parity);
        cplx d = get(c->r), n = get(c->r2);
        rc = rc || qf_blas_norm2(c->r, c->y, parity);
        cplx m = get(c->r);
        CHECK(rc == 0, "%s, parity %d: reductions with a team of %s: %s", c->tag, parity, sizes[k], qf_last_error());
        if (k == 0) first[0] = d, first[1] = n, first[2] = m;
        else
            CHECK(d == first[0] && n == first[1] && m == first[2],
                  "%s, parity %d: a team of %s threads sums <x, y>, |x|^2, |y|^2 = (%.17g %.17g) %.17g %.17g, one "
                  "thread (%.17g %.17g) %.17g %.17g",
                  c->tag, parity, sizes[k], creal(d), cimag(d), creal(n), creal(m), creal(first[0]), cimag(first[0]),
                  creal(first[1]), creal(first[2]));
    }
    if (keep) setenv("QF_CPU_TEAM", keep, 1);
    else unsetenv("QF_CPU_TEAM");
    free(keep);
}

/* ---- several fields against one: NMULTI x_k (more than one task's QF_BLAS_MULTI_MAX), x_k a mix of
 * the random arrays, the last one y itself ---- */

enum { NMULTI = 11 };
static double multi_coef(int k, int part) { return part ? 0.2 * k - 0.9 : 1.0 - 0.15 * k; }

static void multi_array(int k, int nr, double *out)
{
    for (int64_t i = 0; i < V * nr; i++) out[i] = X0[i] + (0.3 * k - 1.0) * Z0[i] + (k % 3 == 1 ? W0[i] : -0.5 * U0[i]);
}

static void check_multi(ctx *c, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, multi, parity %d", c->tag, parity);
    qf_field *xf[NMULTI] = {0};
    qf_scalar *r[NMULTI] = {0}, *a[NMULTI] = {0}, *d[NMULTI] = {0};
    double *arr[NMULTI] = {0};
    int rc = 0;
    for (int k = 0; k < NMULTI && !rc; k++) {
        rc = qf_scalar_create(&r[k]) || qf_scalar_create(&a[k]) || qf_scalar_create(&d[k]) ||
             qf_scalar_set(a[k], multi_coef(k, 0), multi_coef(k, 1)) || qf_scalar_set(d[k], 0.5 + 0.1 * k, -0.3);
        if (k == NMULTI - 1) break; /* x_last is y */
        arr[k] = malloc((size_t)V * c->nr * sizeof(double));
        multi_array(k, c->nr, arr[k]);
        rc = rc || qf_field_create_shaped(&xf[k], c->lat, &c->shape, c->prec, 0) || load(c, xf[k], arr[k]);
    }
    xf[NMULTI - 1] = c->y;
    arr[NMULTI - 1] = Y0;
    CHECK(rc == 0, "%s: set-up: %s", tag, qf_last_error());
    if (!rc && load(c, c->y, Y0)) rc = 1;
    const qf_field *const *x = (const qf_field *const *)xf;
    /* r_k = <x_k, y>: 11 fields, two tasks a block */
    double worst = 0.0;
    if (!rc) {
        rc = qf_blas_multi_dot(r, x, NMULTI, c->y, parity);
        CHECK(rc == 0, "%s: multi_dot: %s", tag, qf_last_error());
        for (int k = 0; k < NMULTI && !rc; k++) {
            cplx want = ref_dot(arr[k], Y0, c->nr, parity, c->prec);
            double scale = sqrt(creal(ref_dot(arr[k], arr[k], c->nr, parity, c->prec)) *
                                creal(ref_dot(Y0, Y0, c->nr, parity, c->prec)));
            double e = cabs(get(r[k]) - want) / scale;
            worst = fmax(worst, e);
            CHECK(e < 1e-12, "%s: multi_dot r[%d] = <x_%d, y> (rel err %.2e)", tag, k, k, e);
        }
    }
    /* y = y - sum_k (a_k / d_k) x_k, and with d NULL y = y + 2 sum_k a_k x_k, the x_k but y (10: two tasks a
     * block) */
    for (int with_d = 0; with_d < 2 && !rc; with_d++) {
        const double s = with_d ? -1.0 : 2.0;
        rc = load(c, c->y, Y0) ||
             qf_blas_multi_caxpy((const qf_scalar *const *)a, with_d ? (const qf_scalar *const *)d : NULL, s, x,
                                 NMULTI - 1, c->y, parity) ||
             qf_field_export(c->y, tmp);
        CHECK(rc == 0, "%s: multi_caxpy: %s", tag, qf_last_error());
        if (rc) break;
        double err = 0.0, scale = 0.0, kept = 0.0;
        for (int64_t i = 0; i < V; i++)
            for (int e = 0; e < c->nr / 2; e++) {
                int64_t el = i * (c->nr / 2) + e;
                cplx y0 = ld(Y0, el, c->prec), want = y0;
                if (in_parity(i, parity)) {
                    for (int k = 0; k < NMULTI - 1; k++) {
                        cplx ck = multi_coef(k, 0) + I * multi_coef(k, 1);
                        if (with_d) ck /= 0.5 + 0.1 * k - 0.3 * I;
                        want += s * ck * ld(arr[k], el, c->prec);
                    }
                    want = rounded_c(want, c->prec);
                }
                cplx got = tmp[2 * el] + I * tmp[2 * el + 1];
                if (!in_parity(i, parity)) kept = fmax(kept, cabs(got - y0));
                err = fmax(err, cabs(got - want));
                scale = fmax(scale, cabs(want));
            }
        double e = err / scale;
        worst = fmax(worst, e);
        CHECK(e < (c->pi ? 1e-6 : 1e-13) && kept == 0.0,
              "%s: multi_caxpy %s = the sum in double, rounded once (rel err %.2e), the other parity kept (%g)", tag,
              with_d ? "with ratios" : "with coefficients", e, kept);
    }
    worst_fused[c->pi] = fmax(worst_fused[c->pi], worst);
    for (int k = 0; k < NMULTI; k++) {
        if (k < NMULTI - 1) {
            if (xf[k]) qf_field_destroy(xf[k]);
            free(arr[k]);
        }
        if (r[k]) qf_scalar_destroy(r[k]);
        if (a[k]) qf_scalar_destroy(a[k]);
        if (d[k]) qf_scalar_destroy(d[k]);
    }
}

/* ---- fused updates: CG (q = p when alias) and BiCGStab (s = r, t = x when alias) ---- */

static void check_fused(ctx *c, int bicg, int alias, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, %s%s, parity %d", c->tag, bicg ? "bicgstab_update" : "cg_update",
             alias ? " (aliased inputs)" : "", parity);
    const cplx av = 0.4 + 0.2 * I, wv = -0.3 + 0.5 * I;
    /* x = X0, r = Y0, p = Z0, q or s = W0, t = U0 */
    if (load(c, c->x, X0) || load(c, c->y, Y0) || load(c, c->z, Z0) || load(c, c->w, W0) || load(c, c->v, U0))
        return;
    qf_scalar *a = c->c, *w, *rr = c->r;
    if (qf_scalar_create(&w)) {
        CHECK(0, "%s: scalar: %s", tag, qf_last_error());
        return;
    }
    qf_scalar_set(a, creal(av), cimag(av));
    qf_scalar_set(w, creal(wv), cimag(wv));
    int rc;
    if (!bicg)
        rc = qf_blas_cg_update(c->x, c->y, a, c->z, alias ? c->z : c->w, rr, parity);
    else
        rc = qf_blas_bicgstab_update(c->x, c->y, a, c->z, w, alias ? c->y : c->w, alias ? c->x : c->v, rr, parity);
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    qf_scalar_destroy(w);
    if (rc) return;
    cplx g = get(rr);
    double *xo = malloc((size_t)V * NR_MAX * sizeof(double));
    if (qf_field_export(c->x, xo) || qf_field_export(c->y, tmp)) {
        free(xo);
        return;
    }
    int half = c->nr / 2;
    double ex = 0, er = 0, sx = 0, sr = 0;
    cplx rr_ref = 0;
    int64_t changed = 0;
    for (int64_t i = 0; i < V; i++)
        for (int k = 0; k < half; k++) {
            int64_t e = i * half + k;
            if (!in_parity(i, parity)) {
                for (int h = 0; h < 2; h++)
                    changed += xo[2 * e + h] != rounded(X0[2 * e + h], c->prec) ||
                               tmp[2 * e + h] != rounded(Y0[2 * e + h], c->prec);
                continue;
            }
            cplx x = ld(X0, e, c->prec), r = ld(Y0, e, c->prec), p = ld(Z0, e, c->prec), q = ld(W0, e, c->prec);
            cplx xn, rn;
            if (!bicg) {
                if (alias) q = p;
                xn = x + av * p;
                rn = r - av * q;
            } else {
                cplx s = alias ? r : q, t = alias ? x : ld(U0, e, c->prec);
                xn = x + av * p + wv * s;
                rn = s - wv * t;
            }
            rn = rounded_c(rn, c->prec);
            cplx stored = ld(tmp, e, QF_DOUBLE);
            rr_ref += creal(conj(stored) * stored);
            ex = fmax(ex, cabs(ld(xo, e, QF_DOUBLE) - xn));
            er = fmax(er, cabs(ld(tmp, e, QF_DOUBLE) - rn));
            sx = fmax(sx, cabs(xn));
            sr = fmax(sr, cabs(rn));
        }
    free(xo);
    double tol = c->prec == QF_DOUBLE ? 1e-15 : 1e-7;
    double err = fmax(ex / sx, er / sr), erd = cabs(g - rr_ref) / creal(rr_ref);
    worst_fused[c->pi] = fmax(worst_fused[c->pi], fmax(err, erd));
    CHECK(ex / sx < tol && er / sr < tol, "%s: x and r match the loops (rel err %.2e %.2e)", tag, ex / sx, er / sr);
    CHECK(erd < 1e-12 && cimag(g) == 0.0, "%s: rr = |r|^2 of r as stored (rel err %.2e)", tag, erd);
    CHECK(changed == 0, "%s: the other parity is untouched (%lld reals changed)", tag, (long long)changed);
}

/* ---- BiCGStab's new direction: p = r + beta (p - omega v), beta = (rho_new / rho) (alpha / omega)
 * worked out in the task; rho_new = 0 gives beta = 0 exactly (zeros absorb), so p = r ---- */

static void check_bicgstab_p(ctx *c, int parity, int zero_rho_new)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, bicgstab_p%s, parity %d", c->tag, zero_rho_new ? " (rho_new 0)" : "", parity);
    const cplx rho_new = zero_rho_new ? 0.0 : 0.9 - 0.4 * I, rho = -0.6 + 0.8 * I, alpha = 0.35 + 0.15 * I,
               omega = 0.7 - 0.25 * I;
    /* p = Z0, r = X0, v = W0 */
    if (load(c, c->z, Z0) || load(c, c->x, X0) || load(c, c->w, W0)) return;
    qf_scalar *s[4] = {NULL, NULL, NULL, NULL};
    const cplx val[4] = {rho_new, rho, alpha, omega};
    int rc = 0;
    for (int k = 0; k < 4; k++) rc = rc || qf_scalar_create(&s[k]) || qf_scalar_set(s[k], creal(val[k]), cimag(val[k]));
    rc = rc || qf_blas_bicgstab_p(c->z, c->x, c->w, s[0], s[1], s[2], s[3], parity) || qf_field_export(c->z, tmp);
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    for (int k = 0; k < 4; k++)
        if (s[k]) qf_scalar_destroy(s[k]);
    if (rc) return;
    cplx beta = (rho_new / rho) * (alpha / omega);
    int half = c->nr / 2;
    double err = 0, scale = 0;
    int64_t changed = 0, not_r = 0;
    for (int64_t i = 0; i < V; i++)
        for (int k = 0; k < half; k++) {
            int64_t e = i * half + k;
            if (!in_parity(i, parity)) {
                changed += tmp[2 * e] != rounded(Z0[2 * e], c->prec) || tmp[2 * e + 1] != rounded(Z0[2 * e + 1], c->prec);
                continue;
            }
            cplx p = ld(Z0, e, c->prec), r = ld(X0, e, c->prec), v = ld(W0, e, c->prec);
            cplx want = r + beta * (p - omega * v), got = ld(tmp, e, QF_DOUBLE);
            err = fmax(err, cabs(got - want));
            scale = fmax(scale, cabs(want));
            not_r += got != r;
        }
    err /= scale;
    CHECK(err < (c->prec == QF_DOUBLE ? 1e-15 : 1e-7), "%s: matches the loops (rel err %.2e)", tag, err);
    CHECK(!zero_rho_new || not_r == 0, "%s: beta 0 leaves p = r exactly (%lld elements differ)", tag, (long long)not_r);
    CHECK(changed == 0, "%s: the other parity is untouched (%lld elements changed)", tag, (long long)changed);
}

/* ---- BiCGStab's steps with the ratios worked out in the tasks (qf_blas_*_ratio) against the scalar
 * divisions and the plain forms: the same fields and |r|^2 to the last bit ---- */

/* update, new direction and xpcw on the ctx's fields from the same inputs; *out: x, r, p, s and rr */
static int bicgstab_steps(ctx *c, int ratio, int parity, qf_scalar *const sc[6], double *out)
{
    enum { AN, AD, WN, WD, RHO_NEW, RR };
    qf_scalar *alpha = NULL, *omega = NULL;
    int rc = load(c, c->x, X0) || load(c, c->y, Y0) || load(c, c->z, Z0) || load(c, c->w, W0) || load(c, c->v, U0);
    if (!rc && ratio) {
        rc = qf_blas_bicgstab_update_ratio(c->x, c->y, sc[AN], sc[AD], c->z, sc[WN], sc[WD], c->w, c->v, sc[RR], parity) ||
             qf_blas_bicgstab_p_ratio(c->z, c->y, c->v, sc[RHO_NEW], sc[AN], sc[AN], sc[AD], sc[WN], sc[WD], parity) ||
             qf_blas_xpcw_ratio(c->w, c->y, sc[AN], sc[AD], -1.0, c->v, parity);
    } else if (!rc) {
        rc = qf_scalar_create(&alpha) || qf_scalar_create(&omega) || qf_scalar_div(alpha, sc[AN], sc[AD]) ||
             qf_scalar_div(omega, sc[WN], sc[WD]) ||
             qf_blas_bicgstab_update(c->x, c->y, alpha, c->z, omega, c->w, c->v, sc[RR], parity) ||
             qf_blas_bicgstab_p(c->z, c->y, c->v, sc[RHO_NEW], sc[AN], alpha, omega, parity) ||
             qf_blas_xpcw(c->w, c->y, alpha, -1.0, c->v, parity);
    }
    size_t n = (size_t)V * (size_t)c->nr;
    rc = rc || qf_field_export(c->x, out) || qf_field_export(c->y, out + n) || qf_field_export(c->z, out + 2 * n) ||
         qf_field_export(c->w, out + 3 * n);
    if (!rc) {
        cplx g = get(sc[RR]);
        out[4 * n] = creal(g);
        out[4 * n + 1] = cimag(g);
    }
    if (alpha) qf_scalar_destroy(alpha);
    if (omega) qf_scalar_destroy(omega);
    return rc;
}

static void check_bicgstab_ratio(ctx *c, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, bicgstab ratios, parity %d", c->tag, parity);
    const cplx val[6] = {0.9 - 0.4 * I, -0.6 + 0.8 * I, 0.35 + 0.15 * I, 0.7 - 0.25 * I, 0.2 + 0.1 * I, 0.0};
    qf_scalar *sc[6] = {NULL};
    size_t n = 4 * (size_t)V * (size_t)c->nr + 2;
    double *plain = malloc(n * sizeof(double)), *ratio = malloc(n * sizeof(double));
    int rc = !plain || !ratio;
    for (int k = 0; k < 6; k++) rc = rc || qf_scalar_create(&sc[k]) || qf_scalar_set(sc[k], creal(val[k]), cimag(val[k]));
    rc = rc || bicgstab_steps(c, 0, parity, sc, plain) || bicgstab_steps(c, 1, parity, sc, ratio);
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    if (!rc) {
        /* the fields to the last bit where one kind of worker runs both; with CPU and CUDA workers a task
         * may run on a core and its twin on the GPU, whose kernels contract other products into fused
         * multiply-adds: then to rounding, 64 units of the precision against the inputs' scale of 1
         * (the terms of x + a p + w s cancel). |r|^2 to rounding, as a sum over several blocks adds their
         * partial sums in whichever order the workers finish */
        int mixed = qf_runtime_ncuda_workers() > 0 && qf_runtime_ncpu_workers() > 0;
        double tol = mixed ? 64.0 * (c->prec == QF_SINGLE ? 0x1p-24 : 0x1p-53) : 0.0, worst = 0.0;
        size_t differ = 0;
        for (size_t k = 0; k + 2 < n; k++) {
            double d = fabs(plain[k] - ratio[k]) / fmax(fabs(plain[k]), 1.0);
            worst = fmax(worst, d);
            differ += mixed ? d > tol : memcmp(&plain[k], &ratio[k], sizeof(double)) != 0;
        }
        double rr_err = fabs(plain[n - 2] - ratio[n - 2]) / plain[n - 2];
        CHECK(differ == 0, "%s: x, r, p and s equal the scalar divisions' %s (%zu reals differ, by up to %.1e)", tag,
              mixed ? "to rounding" : "to the last bit", differ, worst);
        CHECK(rr_err < 1e-13 && ratio[n - 1] == 0.0, "%s: |r|^2 equals theirs (rel err %.1e)", tag, rr_err);
    }
    for (int k = 0; k < 6; k++)
        if (sc[k]) qf_scalar_destroy(sc[k]);
    free(plain);
    free(ratio);
}

/* ---- chains: BiCGStab's calls between two operator applications as one task on a lattice of one
 * block, tasks of their own on the others; the same fields and scalars either way ---- */

enum { CH_RHO, CH_R0V, CH_TS, CH_TT, CH_RR, CH_RHO_NEW, CH_NS };

/* The calls of a BiCGStab iteration after v = A p and after t = A s (the inputs loaded from the random
 * arrays, chained or not); *out: x, r, p and s, then the scalars; the tasks of chain and blas_reduce
 * that ran in *chains and *reduces. */
static int bicgstab_calls(ctx *c, qf_field *r0, qf_field *t, int chained, int parity, qf_scalar *const sc[CH_NS],
                          double *out, long *chains, long *reduces)
{
    qf_field *x = c->x, *r = c->y, *p = c->z, *v = c->w, *s = c->v;
    int rc = load(c, x, X0) || load(c, r, Y0) || load(c, p, Z0) || load(c, v, W0) || load(c, r0, U0) ||
             load(c, t, X0) || load(c, s, Y0) || qf_scalar_set(sc[CH_RHO], 0.8, -0.3);
    qf_runtime_stats *st = NULL;
    rc = rc || qf_runtime_stats_begin();
    if (!rc && chained) rc = qf_chain_begin();
    rc = rc || qf_blas_dot(sc[CH_R0V], r0, v, parity) || qf_blas_xpcw_ratio(s, r, sc[CH_RHO], sc[CH_R0V], -1.0, v, parity);
    if (!rc && chained) rc = qf_chain_end() || qf_chain_begin();
    rc = rc || qf_blas_dot_norm2(sc[CH_TS], sc[CH_TT], t, s, parity) ||
         qf_blas_bicgstab_update_ratio(x, r, sc[CH_RHO], sc[CH_R0V], p, sc[CH_TS], sc[CH_TT], s, t, sc[CH_RR], parity) ||
         qf_blas_dot(sc[CH_RHO_NEW], r0, r, parity) ||
         qf_blas_bicgstab_p_ratio(p, r, v, sc[CH_RHO_NEW], sc[CH_RHO], sc[CH_RHO], sc[CH_R0V], sc[CH_TS], sc[CH_TT], parity);
    if (!rc && chained) rc = qf_chain_end();
    rc = qf_runtime_stats_end(&st) || rc;
    *chains = rc ? -1 : qf_runtime_stats_tasks(st, "chain");
    *reduces = rc ? -1 : qf_runtime_stats_tasks(st, "blas_reduce");
    qf_runtime_stats_free(st);
    size_t n = (size_t)V * (size_t)c->nr;
    rc = rc || qf_field_export(x, out) || qf_field_export(r, out + n) || qf_field_export(p, out + 2 * n) ||
         qf_field_export(s, out + 3 * n);
    for (int k = 0; k < CH_NS && !rc; k++) {
        cplx g = get(sc[k]);
        out[4 * n + 2 * k] = creal(g);
        out[4 * n + 2 * k + 1] = cimag(g);
    }
    return rc;
}

static void check_chain(ctx *c, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, chained BiCGStab calls, parity %d", c->tag, parity);
    qf_field *r0 = NULL, *t = NULL;
    qf_scalar *sc[CH_NS] = {NULL};
    size_t n = 4 * (size_t)V * (size_t)c->nr + 2 * CH_NS;
    double *alone = malloc(n * sizeof(double)), *chained = malloc(n * sizeof(double));
    long chains[2], reduces[2];
    int rc = !alone || !chained || qf_field_create_shaped(&r0, c->lat, &c->shape, c->prec, 0) ||
             qf_field_create_shaped(&t, c->lat, &c->shape, c->prec, 0);
    for (int k = 0; k < CH_NS; k++) rc = rc || qf_scalar_create(&sc[k]);
    rc = rc || bicgstab_calls(c, r0, t, 0, parity, sc, alone, &chains[0], &reduces[0]) ||
         bicgstab_calls(c, r0, t, 1, parity, sc, chained, &chains[1], &reduces[1]);
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    if (!rc) {
        int one_block = c->lat->nblocks == 1;
        /* the same bits where the same CPU kernels run in the same order (one block, CPU workers only);
         * to rounding where a GPU's thread blocks or several blocks' partial sums add in whichever order
         * they finish, in either run */
        int same_bits = one_block && qf_runtime_ncuda_workers() == 0;
        size_t differ = 0;
        double worst = 0.0, scale = 0.0;
        for (size_t k = 0; k < n; k++) {
            differ += memcmp(&alone[k], &chained[k], sizeof(double)) != 0;
            worst = fmax(worst, fabs(alone[k] - chained[k]));
            scale = fmax(scale, fabs(alone[k]));
        }
        CHECK(same_bits ? differ == 0 : worst <= (c->prec == QF_DOUBLE ? 1e-12 : 1e-5) * scale,
              "%s: the fields and scalars of the chained calls equal the calls' own tasks' (%zu reals differ, by "
              "%.1e of %.1e at most)",
              tag, differ, worst, scale);
        CHECK(chains[0] == 0 && chains[1] == (one_block ? 2 : 0) && reduces[1] == (one_block ? 0 : reduces[0]),
              "%s: %ld and %ld chain tasks, %ld and %ld reductions without and with the chains (one block: 2 chains "
              "and no reduction of its own; several: no chain)",
              tag, chains[0], chains[1], reduces[0], reduces[1]);
    }
    for (int k = 0; k < CH_NS; k++)
        if (sc[k]) qf_scalar_destroy(sc[k]);
    if (r0) qf_field_destroy(r0);
    if (t) qf_field_destroy(t);
    free(alone);
    free(chained);
}

/* A chain groups and never reorders: what else is submitted or read inside it finds the chain's calls
 * before it done; chains nest, the outermost end submitting what the inner ones held. */
static void check_chain_order(ctx *c)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, a chain's order", c->tag);
    qf_scalar *a = NULL, *b = NULL, *q = NULL;
    qf_runtime_stats *st = NULL;
    int rc = load(c, c->x, X0) || qf_scalar_create(&a) || qf_scalar_create(&b) || qf_scalar_create(&q) ||
             qf_runtime_stats_begin() || qf_chain_begin();
    /* a = |x|^2, q = a / a as a scalar task (in the chain where the lattice is one block), read inside it */
    rc = rc || qf_blas_norm2(a, c->x, -1) || qf_scalar_div(q, a, a);
    cplx g = rc ? 0.0 : get(a);
    /* then y = 2x, a = |y|^2 in a nested chain, b = |x|^2 in the outer one: one task on one block */
    rc = rc || qf_chain_begin() || qf_blas_axpby(2.0, c->x, 0.0, c->y, -1) || qf_blas_norm2(a, c->y, -1) ||
         qf_chain_end() || qf_blas_norm2(b, c->x, -1);
    rc = qf_chain_end() || rc;
    rc = qf_runtime_stats_end(&st) || rc;
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    if (!rc) {
        cplx ref = ref_dot(X0, X0, c->nr, -1, c->prec), ga = get(a), gb = get(b), gq = get(q);
        double tol = 1e-12 * creal(ref);
        CHECK(cabs(g - ref) < tol && cabs(ga - 4.0 * ref) < 4.0 * tol && cabs(gb - ref) < tol && gq == 1.0,
              "%s: |x|^2 read inside the chain %.15g (%.15g), |2x|^2 and |x|^2 after the nested one %.15g %.15g, a "
              "scalar task between them a / a = %g %g",
              tag, creal(g), creal(ref), creal(ga), creal(gb), creal(gq), cimag(gq));
        /* with CUDA workers in one process a read is a data_publish task, which joins the open chain */
        int published = qf_runtime_ncuda_workers() > 0 && qf_runtime_nprocs() == 1;
        long chains = qf_runtime_stats_tasks(st, "chain"), expect = c->lat->nblocks == 1 ? 2 : published;
        CHECK(chains == expect, "%s: %ld chain tasks (on one block the read ends the first part, the norm with the "
              "scalar task, and the nested chain and the rest are the second; several blocks: none, or the scalar "
              "task with the read's copy to the host where reads are published), %ld expected",
              tag, chains, expect);
    }
    qf_runtime_stats_free(st);
    CHECK(qf_chain_end() == QF_ERROR && strstr(qf_last_error(), "without qf_chain_begin"),
          "%s: an end without a chain refused: %s", tag, qf_last_error());
    if (a) qf_scalar_destroy(a);
    if (b) qf_scalar_destroy(b);
    if (q) qf_scalar_destroy(q);
}

/* Multi-shift CG's updates in one pass (qf_blas_shift_update) against each shift's two axpbys: ten shifts,
 * two tasks a block (QF_BLAS_MULTI_FIELDS a task); the other parity untouched by both; refusals. */
static void check_shift_update(const qf_lattice *lat, qf_precision prec, int parity)
{
    enum { NS = 10 };
    char tag[96];
    snprintf(tag, sizeof tag, "shift updates, %d blocks, %s, parity %d", lat->nblocks, qf_precision_name(prec), parity);
    qf_field *r = NULL, *x[NS] = {NULL}, *p[NS] = {NULL}, *xr[NS] = {NULL}, *pr[NS] = {NULL};
    double a[NS], z[NS], b[NS];
    int rc = qf_field_create(&r, lat, QF_FIELD_WILSON, prec, 0) || qf_field_gaussian(r, 5, 0);
    for (int k = 0; k < NS && !rc; k++) {
        a[k] = 0.3 + 0.1 * k, z[k] = 1.0 / (1.0 + k), b[k] = -0.7 + 0.05 * k;
        rc = qf_field_create(&x[k], lat, QF_FIELD_WILSON, prec, 0) || qf_field_create(&p[k], lat, QF_FIELD_WILSON, prec, 0) ||
             qf_field_create(&xr[k], lat, QF_FIELD_WILSON, prec, 0) || qf_field_create(&pr[k], lat, QF_FIELD_WILSON, prec, 0) ||
             qf_field_gaussian(x[k], 5, 1 + 2 * k) || qf_field_gaussian(p[k], 5, 2 + 2 * k) || qf_blas_copy(xr[k], x[k], -1) ||
             qf_blas_copy(pr[k], p[k], -1);
    }
    rc = rc || qf_blas_shift_update(NS, x, p, a, z, b, r, parity);
    for (int k = 0; k < NS && !rc; k++)
        rc = qf_blas_axpby(a[k], pr[k], 1.0, xr[k], parity) || qf_blas_axpby(z[k], r, b[k], pr[k], parity);
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());
    size_t n = (size_t)lat->global_volume * 24;
    double *ref = malloc(n * sizeof *ref), worst = 0.0;
    for (int k = 0; k < NS && !rc && ref; k++)
        for (int f = 0; f < 2 && !rc; f++) {
            rc = qf_field_export(f ? p[k] : x[k], tmp) || qf_field_export(f ? pr[k] : xr[k], ref);
            for (size_t i = 0; i < n && !rc; i++) worst = fmax(worst, fabs(tmp[i] - ref[i]) / (1.0 + fabs(ref[i])));
        }
    double tol = prec == QF_DOUBLE ? 1e-15 : 2e-7;
    CHECK(!rc && ref && worst <= tol, "%s: x and p of %d shifts in one pass differ from two axpbys a shift by %.1e (at most "
          "%.0e)", tag, NS, worst, tol);
    free(ref);
    if (!rc && parity == 0) {
        qf_field *h = NULL;
        int bad = qf_field_create(&h, lat, QF_FIELD_WILSON, QF_HALF, 0) == 0 &&
                  qf_blas_shift_update(1, &h, &p[0], a, z, b, h, 0) == QF_ERROR &&
                  strstr(qf_last_error(), "half-precision fields");
        CHECK(bad, "%s: half-precision fields refused: %s", tag, qf_last_error());
        if (h) qf_field_destroy(h);
        CHECK(qf_blas_shift_update(1, &x[0], &x[0], a, z, b, r, 0) == QF_ERROR && strstr(qf_last_error(), "three different fields"),
              "%s: a shift whose x is its p refused: %s", tag, qf_last_error());
        qf_field *shared[2] = {x[0], x[0]}, *ps[2] = {p[0], p[1]};
        CHECK(qf_blas_shift_update(2, shared, ps, a, z, b, r, 0) == QF_ERROR && strstr(qf_last_error(), "share a field"),
              "%s: two shifts sharing x refused: %s", tag, qf_last_error());
    }
    for (int k = 0; k < NS; k++) {
        qf_field *all[4] = {x[k], p[k], xr[k], pr[k]};
        for (int j = 0; j < 4; j++)
            if (all[j]) qf_field_destroy(all[j]);
    }
    if (r) qf_field_destroy(r);
}

/* A chain's calls run where the scope they were made in places them: a scope change submits what the
 * chain holds, so that each scope counts its own part (one chain task each) and the outer scope none. */
static void check_chain_scopes(const qf_lattice *one)
{
    static qf_task_scope first = {.where = QF_PLACE_AUTO}, second = {.where = QF_PLACE_AUTO};
    qf_field *x = NULL, *y = NULL;
    int rc = qf_field_create(&x, one, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_create(&y, one, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
             qf_field_import(x, X0) || qf_field_import(y, Y0) || qf_chain_begin();
    qf_task_scope *outer = qf_task_scope_enter(&first);
    rc = rc || qf_blas_axpby(1.0, x, 1.0, y, -1) || qf_blas_axpby(1.0, x, 1.0, y, -1);
    qf_task_scope_leave(outer);
    outer = qf_task_scope_enter(&second);
    rc = rc || qf_blas_axpby(1.0, x, 1.0, y, -1) || qf_blas_axpby(1.0, x, 1.0, y, -1);
    qf_task_scope_leave(outer);
    rc = qf_chain_end() || rc;
    rc = rc || qf_field_export(y, tmp);
    qf_runtime_wait_all();
    CHECK(rc == 0, "a chain across two scopes: %s", qf_last_error());
    long ran[2] = {first.ran[QF_WORKER_CPU] + first.ran[QF_WORKER_CUDA], second.ran[QF_WORKER_CPU] + second.ran[QF_WORKER_CUDA]};
    CHECK(!rc && ran[0] == 1 && ran[1] == 1, "a chain across two scopes: %ld and %ld tasks counted in them (one each: "
          "the chain's part of each)", ran[0], ran[1]);
    int64_t wrong = 0;
    for (int64_t k = 0; !rc && k < V * 24; k++) wrong += fabs(tmp[k] - (Y0[k] + 4.0 * X0[k])) > 1e-12 * (1.0 + fabs(Y0[k]));
    CHECK(!rc && wrong == 0, "a chain across two scopes: y = y + 4 x (%lld reals differ)", (long long)wrong);
    if (x) qf_field_destroy(x);
    if (y) qf_field_destroy(y);
}

/* Scalar tasks in an open chain: alone they are one task (a chain of scalar tasks, placed as a scalar
 * task is); before a one-block lattice's call they join its chain, which runs them first (one chain
 * task, the scalars set there read by the call); a call on several blocks ends such a chain. */
static void check_chain_scalars(const qf_lattice *one, const qf_lattice *several)
{
    qf_scalar *a = NULL, *b = NULL, *q = NULL;
    qf_field *x = NULL, *y = NULL, *z = NULL;
    qf_runtime_stats *st = NULL;
    int rc = qf_scalar_create(&a) || qf_scalar_create(&b) || qf_scalar_create(&q) ||
             qf_field_create(&x, one, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_create(&y, one, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
             qf_field_create(&z, several, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_import(x, X0) ||
             qf_field_import(y, Y0) || qf_field_import(z, Z0) || qf_runtime_stats_begin();
    /* a = 3, b = a a, q = b / a: three scalar tasks, one chain task */
    rc = rc || qf_chain_begin() || qf_scalar_set(a, 3.0, 0.0) || qf_scalar_mul(b, a, a) || qf_scalar_div(q, b, a) ||
         qf_chain_end();
    cplx gq = rc ? 0.0 : get(q);
    /* q = 2, then y = y + q x on one block: one chain task; then b = 5, z = z + b z on several blocks:
     * the scalar task alone, then the blocks' own tasks */
    rc = rc || qf_chain_begin() || qf_scalar_set(q, 2.0, 0.0) || qf_blas_caxpy(q, 1.0, x, y, -1) || qf_chain_end();
    rc = rc || qf_chain_begin() || qf_scalar_set(b, 5.0, 0.0) || qf_blas_caxpy(b, 1.0, z, z, -1) || qf_chain_end();
    rc = rc || qf_field_export(y, tmp);
    rc = qf_runtime_stats_end(&st) || rc;
    CHECK(rc == 0, "scalar tasks in chains: %s", qf_last_error());
    if (!rc) {
        long chains = qf_runtime_stats_tasks(st, "chain"), ops = qf_runtime_stats_tasks(st, "scalar_op");
        CHECK(gq == 3.0 && chains == 2 && ops == 1,
              "scalar tasks in chains: (a a) / a = %g %g for a = 3; %ld chain tasks (2: the scalars alone, and the set "
              "with the one-block update) and %ld scalar_op tasks (1: before the update on several blocks)",
              creal(gq), cimag(gq), chains, ops);
        int64_t wrong = 0;
        for (int64_t k = 0; k < V * 24; k++) wrong += fabs(tmp[k] - (Y0[k] + 2.0 * X0[k])) > 1e-12 * (1.0 + fabs(Y0[k]));
        CHECK(wrong == 0, "scalar tasks in chains: y = y + q x with q set in the chain (%lld reals differ)", (long long)wrong);
        rc = qf_field_export(z, tmp);
        wrong = 0;
        for (int64_t k = 0; !rc && k < V * 24; k++) wrong += fabs(tmp[k] - 6.0 * Z0[k]) > 1e-12 * (1.0 + fabs(Z0[k]));
        CHECK(!rc && wrong == 0, "scalar tasks in chains: z = z + 5 z on several blocks (%lld reals differ)", (long long)wrong);
    }
    qf_runtime_stats_free(st);
    if (a) qf_scalar_destroy(a);
    if (b) qf_scalar_destroy(b);
    if (q) qf_scalar_destroy(q);
    if (x) qf_field_destroy(x);
    if (y) qf_field_destroy(y);
    if (z) qf_field_destroy(z);
}

/* A chain ends where a call cannot join it: here one chained call on a one-block lattice, then a call
 * on a lattice of several blocks (an update: a reduction's zeroing task would end the chain first); the
 * first must run once (y = y + x), not again when the second is inserted. */
static void check_chain_switch(const qf_lattice *one, const qf_lattice *several)
{
    qf_field *x = NULL, *y = NULL, *z = NULL;
    int rc = qf_field_create(&x, one, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_create(&y, one, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
             qf_field_create(&z, several, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_import(x, X0) ||
             qf_field_import(y, Y0) || qf_field_import(z, Z0);
    rc = rc || qf_chain_begin() || qf_blas_axpby(1.0, x, 1.0, y, -1) || qf_blas_axpby(0.5, z, 0.0, z, -1) ||
         qf_chain_end();
    rc = rc || qf_field_export(y, tmp);
    CHECK(rc == 0, "a chain ended by another lattice's call: %s", qf_last_error());
    int64_t wrong = 0;
    for (int64_t k = 0; !rc && k < V * 24; k++) wrong += tmp[k] != Y0[k] + X0[k];
    CHECK(!rc && wrong == 0, "a chain ended by another lattice's call: y = y + x once (%lld reals differ)", (long long)wrong);
    if (x) qf_field_destroy(x);
    if (y) qf_field_destroy(y);
    if (z) qf_field_destroy(z);
}

/* ---- scalars: a chain submitted while the runtime is paused, read with gets at the end ---- */

static void watchdog(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: a qf_blas/qf_scalar call waited for the runtime while it was paused\n";
    ssize_t n = write(1, msg, sizeof msg - 1);
    (void)n;
    _exit(1);
}

static void check_scalar_chain(ctx *c)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, scalar chain", c->tag);
    if (load(c, c->x, X0) || load(c, c->y, Y0) || load(c, c->z, Z0)) return;
    qf_scalar *a, *b, *alpha, *n, *m, *k, *u;
    if (qf_scalar_create(&a) || qf_scalar_create(&b) || qf_scalar_create(&alpha) || qf_scalar_create(&n) ||
        qf_scalar_create(&m) || qf_scalar_create(&k) || qf_scalar_create(&u)) {
        CHECK(0, "%s: scalars: %s", tag, qf_last_error());
        return;
    }
    qf_runtime_wait_all();
    qf_runtime_pause();
    signal(SIGALRM, watchdog);
    alarm(60);
    int before = starpu_task_nsubmitted();
    int rc = qf_blas_dot(a, c->x, c->y, -1);          /* a = <x, y> */
    rc = rc || qf_blas_norm2(b, c->z, -1);            /* b = |z|^2 */
    rc = rc || qf_scalar_div(alpha, a, b);            /* alpha = a / b */
    rc = rc || qf_blas_caxpy(alpha, -1.0, c->x, c->y, -1); /* y = y - alpha x */
    rc = rc || qf_blas_norm2(n, c->y, -1);            /* n = |y|^2 */
    rc = rc || qf_scalar_mul(m, alpha, a);            /* m = alpha a */
    rc = rc || qf_scalar_scale(m, -2.0, m);           /* m = -2 m (out = input) */
    rc = rc || qf_scalar_mul(k, alpha, alpha);        /* k = alpha^2 (a = b) */
    rc = rc || qf_scalar_div(k, k, n);                /* k = k / n (out = a) */
    rc = rc || qf_scalar_set(u, 1.5, -2.5);
    rc = rc || qf_scalar_mul(u, m, u);                /* u = m u (out = b) */
    rc = rc || qf_scalar_div(alpha, alpha, alpha);    /* alpha = 1 (all three one scalar) */
    int pending = starpu_task_nsubmitted() - before;
    alarm(0);
    CHECK(rc == 0, "%s: submitting: %s", tag, qf_last_error());
    int nblocks = qf_field_lattice(c->x)->nblocks;
    /* 3 field operations, 7 scalar tasks, and with several blocks a zeroing before each of the 3
     * reductions (one block: the reduction writes its scalar itself) */
    int expected = 3 * nblocks + (nblocks > 1 ? 3 : 0) + 1 + 7;
    CHECK(pending >= expected, "%s: all %d tasks pending while the runtime is paused (%d)", tag, expected, pending);
    qf_runtime_resume();

    cplx ra = ref_dot(X0, Y0, c->nr, -1, c->prec), rb = ref_dot(Z0, Z0, c->nr, -1, c->prec);
    cplx ralpha = ra / rb;
    /* y - alpha x, as the field stores it */
    double *yn = malloc((size_t)V * NR_MAX * sizeof(double));
    for (int64_t e = 0; e < V * c->nr / 2; e++) {
        cplx v = rounded_c(ld(Y0, e, c->prec) - ralpha * ld(X0, e, c->prec), c->prec);
        yn[2 * e] = creal(v);
        yn[2 * e + 1] = cimag(v);
    }
    cplx rn = ref_dot(yn, yn, c->nr, -1, QF_DOUBLE);
    cplx rm = -2.0 * ralpha * ra, rk = ralpha * ralpha / rn, ru = rm * (1.5 - 2.5 * I);
    cplx gn = get(n); /* the first wait */
    double tol = c->prec == QF_DOUBLE ? 1e-12 : 1e-6;
    double en = cabs(gn - rn) / creal(rn);
    CHECK(en < tol, "%s: n = |y - (<x,y>/|z|^2) x|^2 with one wait (%.15g vs %.15g, rel err %.2e)", tag, creal(gn),
          creal(rn), en);
    cplx gm = get(m), gk = get(k), gu = get(u), gal = get(alpha);
    double em = cabs(gm - rm) / cabs(rm), ek = cabs(gk - rk) / cabs(rk), eu = cabs(gu - ru) / cabs(ru);
    CHECK(em < 1e-12 && ek < tol && eu < 1e-12 && cabs(gal - 1.0) < 1e-15,
          "%s: mul, scale, div and aliased operands (rel errs %.2e %.2e %.2e, alpha/alpha - 1 = %.1e)", tag, em, ek,
          eu, cabs(gal - 1.0));
    free(yn);

    /* a / 0 is NaN, for the solvers to detect */
    qf_scalar_set(b, 0.0, 0.0);
    qf_scalar_div(alpha, a, b);
    cplx gz = get(alpha);
    CHECK(isnan(creal(gz)) && isnan(cimag(gz)), "%s: a / 0 is NaN (%g %g)", tag, creal(gz), cimag(gz));
    /* 0 / 0 and 0 / b are 0: the coefficient of a vanished residual */
    qf_scalar_set(a, 0.0, 0.0);
    qf_scalar_div(alpha, a, b);
    cplx g00 = get(alpha);
    qf_scalar_set(b, 2.0, -1.0);
    qf_scalar_div(alpha, a, b);
    cplx g0b = get(alpha);
    CHECK(g00 == 0.0 && g0b == 0.0, "%s: 0 / 0 and 0 / b are 0 (%g %g, %g %g)", tag, creal(g00), cimag(g00),
          creal(g0b), cimag(g0b));
    qf_scalar_set(b, NAN, INFINITY);
    qf_scalar_mul(alpha, a, b);
    cplx g0n = get(alpha);
    qf_scalar_mul(alpha, b, a);
    cplx gn0 = get(alpha);
    CHECK(g0n == 0.0 && gn0 == 0.0, "%s: 0 * (NaN, Inf) and (NaN, Inf) * 0 are 0 (%g %g, %g %g)", tag, creal(g0n),
          cimag(g0n), creal(gn0), cimag(gn0));
    qf_scalar_destroy(a);
    qf_scalar_destroy(b);
    qf_scalar_destroy(alpha);
    qf_scalar_destroy(n);
    qf_scalar_destroy(m);
    qf_scalar_destroy(k);
    qf_scalar_destroy(u);
}

/* ---- back substitution as one task, against the same loop on the host ---- */

static void check_trisolve(void)
{
    enum { M = 7, LD = 9 };
    qf_scalar *c[M], *u[M * LD] = {0}, *status;
    cplx cv[M], uv[M * LD], x[M];
    uint64_t seed = 4242;
    int rc = qf_scalar_create(&status);
    for (int i = 0; i < M && !rc; i++) {
        cv[i] = qf_test_gauss(&seed) + I * qf_test_gauss(&seed);
        rc = qf_scalar_create(&c[i]) || qf_scalar_set(c[i], creal(cv[i]), cimag(cv[i]));
        for (int l = i + 1; l < M && !rc; l++) {
            uv[i * LD + l] = 0.3 * (qf_test_gauss(&seed) + I * qf_test_gauss(&seed));
            rc = qf_scalar_create(&u[i * LD + l]) ||
                 qf_scalar_set(u[i * LD + l], creal(uv[i * LD + l]), cimag(uv[i * LD + l]));
        }
    }
    CHECK(rc == 0, "trisolve operands: %s", qf_last_error());
    if (rc) return;
    for (int i = M - 1; i >= 0; i--) {
        x[i] = cv[i];
        for (int l = i + 1; l < M; l++) x[i] -= uv[i * LD + l] * x[l];
    }
    rc = qf_scalar_trisolve(M, c, u, LD, NULL, status);
    double worst = 0.0;
    for (int i = 0; i < M && !rc; i++) worst = fmax(worst, cabs(get(c[i]) - x[i]) / cabs(x[i]));
    CHECK(rc == 0 && worst < 1e-15 && get(status) == 0.0, "trisolve of order %d (rel err %.1e, status %g): %s", M,
          worst, creal(get(status)), rc ? qf_last_error() : "");

    /* row divisors: x_i = c_i / d_i - sum (u_il / d_i) x_l (GCR's coefficients as dot products and
     * norms); the solution c of the first solve is the new right-hand side */
    qf_scalar *dv[M];
    cplx dvv[M];
    for (int i = 0; i < M && !rc; i++) {
        cv[i] = get(c[i]);
        dvv[i] = 0.5 + i + I * 0.25 * i;
        rc = qf_scalar_create(&dv[i]) || qf_scalar_set(dv[i], creal(dvv[i]), cimag(dvv[i]));
    }
    for (int i = M - 1; i >= 0; i--) {
        x[i] = cv[i] / dvv[i];
        for (int l = i + 1; l < M; l++) x[i] -= uv[i * LD + l] / dvv[i] * x[l];
    }
    rc = rc || qf_scalar_trisolve(M, c, u, LD, dv, status);
    worst = 0.0;
    for (int i = 0; i < M && !rc; i++) worst = fmax(worst, cabs(get(c[i]) - x[i]) / cabs(x[i]));
    CHECK(rc == 0 && worst < 1e-14 && get(status) == 0.0, "trisolve of order %d with row divisors (rel err %.1e): %s",
          M, worst, rc ? qf_last_error() : "");
    CHECK(qf_scalar_trisolve(M, c, u, LD, c, status) == QF_ERROR && strstr(qf_last_error(), "also another operand"),
          "trisolve dividing by a scalar it writes refused: %s", qf_last_error());
    for (int i = 0; i < M; i++) qf_scalar_destroy(dv[i]);

    /* a NaN coefficient: every unknown 0 and status names the first unknown hit, counting down */
    qf_scalar_set(c[3], NAN, 0.0);
    rc = qf_scalar_trisolve(5, c, u, LD, NULL, status);
    int zero = 1;
    for (int i = 0; i < M; i++) zero = zero && (i >= 5 || get(c[i]) == 0.0);
    CHECK(rc == 0 && zero && get(status) == 4.0, "trisolve with NaN in c_3: unknowns zeroed, status 4 (%g)",
          creal(get(status)));

    CHECK(qf_scalar_trisolve(0, c, u, LD, NULL, status) == QF_ERROR && strstr(qf_last_error(), "order 0"),
          "trisolve of order 0 refused: %s", qf_last_error());
    CHECK(qf_scalar_trisolve(M, c, u, M - 1, NULL, status) == QF_ERROR, "trisolve with a row stride below m refused: %s",
          qf_last_error());
    CHECK(qf_scalar_trisolve(M, c, u, LD, NULL, c[2]) == QF_ERROR && strstr(qf_last_error(), "also another operand"),
          "trisolve writing a scalar twice refused: %s", qf_last_error());
    for (int i = 0; i < M; i++) qf_scalar_destroy(c[i]);
    for (int k = 0; k < M * LD; k++) qf_scalar_destroy(u[k]);
    qf_scalar_destroy(status);
}

/* ---- a CG-like iteration against the same iteration in loops ---- */

static void check_cg(ctx *c, int parity)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s, CG-like iteration, parity %d", c->tag, parity);
    int half = c->nr / 2;
    int64_t ne = V * half;
    qf_precision pr = c->prec;
    /* x = X0, r = Y0, p = Z0 (overwritten by the copy on the parity), q = W0, u = U0; "A p" is
     * 1.5 p + 0.25 u (not proportional to p, so that the residual does not vanish in one step) */
    qf_field *x = c->x, *r = c->y, *p = c->z, *q = c->w, *u = c->v;
    if (load(c, x, X0) || load(c, r, Y0) || load(c, p, Z0) || load(c, q, W0) || load(c, u, U0)) return;
    qf_scalar *rr, *rrn, *pq, *alpha, *beta;
    if (qf_scalar_create(&rr) || qf_scalar_create(&rrn) || qf_scalar_create(&pq) || qf_scalar_create(&alpha) ||
        qf_scalar_create(&beta)) {
        CHECK(0, "%s: scalars: %s", tag, qf_last_error());
        return;
    }
    enum { ITERS = 4 };
    int rc = qf_blas_copy(p, r, parity) || qf_blas_norm2(rr, r, parity);
    for (int it = 0; it < ITERS && !rc; it++) {
        rc = qf_blas_axpby(1.5, p, 0.0, q, parity) || qf_blas_axpby(0.25, u, 1.0, q, parity) ||
             qf_blas_dot(pq, p, q, parity) || qf_scalar_div(alpha, rr, pq) ||
             (it % 2 ? qf_blas_cg_update_ratio(x, r, rr, pq, p, q, rrn, parity) /* alpha in the task */
                     : qf_blas_cg_update(x, r, alpha, p, q, rrn, parity)) ||
             qf_scalar_div(beta, rrn, rr) ||
             qf_blas_cxpay(r, beta, 1.0, p, parity);
        qf_scalar *t = rr;
        rr = rrn;
        rrn = t;
    }
    /* and a BiCGStab update with s = q, t = p, w = beta */
    rc = rc || qf_blas_bicgstab_update(x, r, alpha, p, beta, q, p, rrn, parity);
    CHECK(rc == 0, "%s: %s", tag, qf_last_error());

    cplx *X = malloc((size_t)ne * sizeof(cplx)), *R = malloc((size_t)ne * sizeof(cplx));
    cplx *P = malloc((size_t)ne * sizeof(cplx)), *Q = malloc((size_t)ne * sizeof(cplx));
    for (int64_t e = 0; e < ne; e++) {
        X[e] = ld(X0, e, pr);
        R[e] = ld(Y0, e, pr);
        P[e] = ld(Z0, e, pr);
        Q[e] = ld(W0, e, pr);
    }
#define ON_PARITY for (int64_t e = 0; e < ne; e++) if (in_parity(e / half, parity))
    cplx rrv = 0, rrnv = 0, alv = 0, bev = 0;
    ON_PARITY P[e] = R[e];
    ON_PARITY rrv += conj(R[e]) * R[e];
    for (int it = 0; it < ITERS; it++) {
        ON_PARITY Q[e] = rounded_c(1.5 * P[e], pr);
        ON_PARITY Q[e] = rounded_c(0.25 * ld(U0, e, pr) + Q[e], pr);
        cplx pqv = 0;
        ON_PARITY pqv += conj(P[e]) * Q[e];
        alv = rrv / pqv;
        rrnv = 0;
        ON_PARITY {
            X[e] = rounded_c(X[e] + alv * P[e], pr);
            R[e] = rounded_c(R[e] - alv * Q[e], pr);
            rrnv += conj(R[e]) * R[e];
        }
        bev = rrnv / rrv;
        ON_PARITY P[e] = rounded_c(R[e] + bev * P[e], pr);
        rrv = rrnv;
    }
    rrnv = 0;
    ON_PARITY {
        X[e] = rounded_c(X[e] + alv * P[e] + bev * Q[e], pr);
        R[e] = rounded_c(Q[e] - bev * P[e], pr);
        rrnv += conj(R[e]) * R[e];
    }
#undef ON_PARITY
    cplx g_rr = get(rr), g_rrn = get(rrn);
    double tol = pr == QF_DOUBLE ? 1e-12 : 1e-5;
    double e_rr = cabs(g_rr - rrv) / creal(rrv), e_rrn = cabs(g_rrn - rrnv) / creal(rrnv);
    double ef = 0;
    const qf_field *fs[3] = {x, r, p};
    cplx *refs[3] = {X, R, P};
    for (int f = 0; f < 3; f++) {
        if (qf_field_export(fs[f], tmp)) break;
        double err = 0, scale = 0;
        for (int64_t e = 0; e < ne; e++) {
            err = fmax(err, cabs(ld(tmp, e, QF_DOUBLE) - refs[f][e]));
            scale = fmax(scale, cabs(refs[f][e]));
        }
        ef = fmax(ef, err / scale);
    }
    worst_cg[c->pi] = fmax(worst_cg[c->pi], fmax(ef, fmax(e_rr, e_rrn)));
    CHECK(e_rr < tol && e_rrn < tol && ef < tol,
          "%s: residual norms and x, r, p match the loops (rel err |r|^2 %.2e, final %.2e, fields %.2e)", tag, e_rr,
          e_rrn, ef);
    free(X);
    free(R);
    free(P);
    free(Q);
    qf_scalar_destroy(rr);
    qf_scalar_destroy(rrn);
    qf_scalar_destroy(pq);
    qf_scalar_destroy(alpha);
    qf_scalar_destroy(beta);
}

/* ---- every check on one block grid, shape and precision ---- */

static void test_case(const qf_lattice *lat, const qf_field_shape *shape, qf_precision prec, int full)
{
    ctx c = {.lat = lat, .shape = *shape, .prec = prec, .nr = shape->site_reals, .pi = prec == QF_SINGLE};
    snprintf(c.tag, sizeof c.tag, "blocks %d %d %d %d, %s (%d reals a site), %s", lat->blocks[0], lat->blocks[1],
             lat->blocks[2], lat->blocks[3], qf_field_kind_name(shape->kind), shape->site_reals, qf_precision_name(prec));
    int rc = qf_field_create_shaped(&c.x, lat, shape, prec, 0) || qf_field_create_shaped(&c.y, lat, shape, prec, 0) ||
             qf_field_create_shaped(&c.z, lat, shape, prec, 0) || qf_field_create_shaped(&c.w, lat, shape, prec, 0) ||
             qf_field_create_shaped(&c.v, lat, shape, prec, 0) || qf_scalar_create(&c.c) || qf_scalar_create(&c.r) ||
             qf_scalar_create(&c.r2);
    CHECK(rc == 0, "%s: create: %s", c.tag, qf_last_error());
    if (rc) return;
    for (int parity = -1; parity <= 1; parity++) {
        for (int t = 0; t < T_NUPD; t++) check_update(&c, t, parity);
        check_convert(&c, parity);
        check_reduce(&c, parity);
        check_multi(&c, parity);
        for (int alias = 0; alias < 2; alias++) {
            check_fused(&c, 0, alias, parity);
            check_fused(&c, 1, alias, parity);
            check_bicgstab_p(&c, parity, alias);
        }
        check_bicgstab_ratio(&c, parity);
        check_chain(&c, parity);
        /* (the team runs without CUDA workers only; the GPUs' sums vary in their last bits from run to run) */
        if (lat->nblocks == 1 && qf_runtime_ncuda_workers() == 0) check_team_sizes(&c, parity);
        if (full) check_cg(&c, parity);
    }
    if (full) check_scalar_chain(&c);
    check_chain_order(&c);
    qf_field_destroy(c.x);
    qf_field_destroy(c.y);
    qf_field_destroy(c.z);
    qf_field_destroy(c.w);
    qf_field_destroy(c.v);
    qf_scalar_destroy(c.c);
    qf_scalar_destroy(c.r);
    qf_scalar_destroy(c.r2);
}

/* ---- refusals ---- */

static void test_errors(const qf_lattice *lat, const qf_lattice *other)
{
    qf_field *w, *w2, *ws, *st, *wo;
    qf_scalar *s, *s2;
    if (qf_field_create(&w, lat, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_create(&w2, lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
        qf_field_create(&ws, lat, QF_FIELD_WILSON, QF_SINGLE, 0) || qf_field_create(&st, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 1) ||
        qf_field_create(&wo, other, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_scalar_create(&s) || qf_scalar_create(&s2)) {
        CHECK(0, "errors: create: %s", qf_last_error());
        return;
    }
#define REFUSED(call, text, what)                                                                                  \
    CHECK((call) == QF_ERROR && strstr(qf_last_error(), text), what " refused: %s", qf_last_error())
    REFUSED(qf_blas_axpby(1.0, ws, 1.0, w, -1), "precision", "axpby of a single x into a double y");
    REFUSED(qf_blas_dot(s, w, ws, 0), "precision", "dot of double and single fields");
    REFUSED(qf_blas_copy(w, st, -1), "kind", "copy of a staggered field into a Wilson field");
    qf_field_shape coarse;
    qf_field *c6 = NULL, *c8 = NULL;
    CHECK(qf_field_shape_coarse(&coarse, 6) == 0 && qf_field_create_shaped(&c6, lat, &coarse, QF_DOUBLE, 0) == 0 &&
              qf_field_shape_coarse(&coarse, 8) == 0 && qf_field_create_shaped(&c8, lat, &coarse, QF_DOUBLE, 0) == 0,
          "coarse fields: %s", qf_last_error());
    REFUSED(qf_blas_dot(s, c6, w, -1), "kind", "dot of a coarse field (24 reals a site) and a Wilson field (24)");
    REFUSED(qf_blas_axpby(1.0, c6, 1.0, c8, -1), "of one kind", "axpby of coarse fields of 6 and 8 colours");
    qf_field_destroy(c6);
    qf_field_destroy(c8);
    REFUSED(qf_blas_caxpy(s, 1.0, wo, w, -1), "lattice", "caxpy of a field on another block grid");
    REFUSED(qf_blas_cg_update(w, w2, s, w, wo, s2, -1), "lattice", "cg_update with q on another block grid");
    REFUSED(qf_blas_norm2(s, w, 2), "parity 2", "parity 2");
    REFUSED(qf_field_convert_parity(ws, w, 2), "parity 2", "a conversion of parity 2");
    REFUSED(qf_blas_dot_norm2(s, s, w, w2, -1), "one scalar", "dot_norm2 into one scalar");
    REFUSED(qf_blas_dot_norm2(s, NULL, w, w2, -1), "scalar norm is NULL", "dot_norm2 without a norm scalar");
    REFUSED(qf_blas_cxpay(w, s, 1.0, w2, -2), "parity -2", "parity -2");
    REFUSED(qf_blas_norm2(NULL, w, -1), "scalar r is NULL", "a NULL result");
    REFUSED(qf_blas_norm2(s, NULL, -1), "field x is NULL", "a NULL field");
    REFUSED(qf_blas_caxpy(NULL, 1.0, w, w2, -1), "scalar a is NULL", "a NULL coefficient");
    REFUSED(qf_blas_axpby(NAN, w, 1.0, w2, -1), "not a finite number", "a NaN coefficient");
    REFUSED(qf_blas_cg_update(w, w, s, w2, w2, s2, 0), "distinct", "cg_update with x == r");
    REFUSED(qf_blas_cg_update(w, w2, s, w2, w2, s, 0), "distinct", "cg_update with rr == a");
    REFUSED(qf_blas_cg_update_ratio(w, w2, s, s2, w2, w2, s2, 0), "distinct", "cg_update_ratio with rr == d");
    REFUSED(qf_blas_bicgstab_update(w, w2, s, w, s2, w, w, s2, 0), "rr and w", "bicgstab_update with rr == w");
    REFUSED(qf_blas_bicgstab_p(w, w2, w, NULL, s, s, s2, 0), "scalar rho_new is NULL", "bicgstab_p without rho_new");
    REFUSED(qf_blas_cxpay_ratio(w, s, NULL, 1.0, w2, 0), "scalar d is NULL", "cxpay_ratio without a denominator");
    {
        qf_scalar *rs[2] = {s, s};
        const qf_field *xs[2] = {w, ws};
        const qf_field *xw[2] = {w, w2};
        const qf_scalar *as[2] = {s, NULL};
        REFUSED(qf_blas_multi_dot(rs, xw, 2, w, -1), "one scalar", "multi_dot into one scalar twice");
        rs[1] = s2;
        REFUSED(qf_blas_multi_dot(rs, xs, 2, w, -1), "x[1] is in single precision", "multi_dot of a single x[1]");
        REFUSED(qf_blas_multi_dot(rs, NULL, 2, w, -1), "array of fields x is NULL", "multi_dot without fields");
        REFUSED(qf_blas_multi_dot(rs, xw, -1, w, -1), "n = -1", "multi_dot of -1 fields");
        REFUSED(qf_blas_multi_caxpy(as, NULL, 1.0, xw, 2, w2, -1), "scalar a[1] is NULL", "multi_caxpy without a[1]");
        REFUSED(qf_blas_multi_caxpy(as, NULL, 1.0, xw, 1, w, -1), "y is x[0]", "multi_caxpy with y among the x");
        REFUSED(qf_blas_multi_caxpy(as, NULL, NAN, xw, 1, w2, -1), "not a finite number", "multi_caxpy with s NaN");
        REFUSED(qf_blas_multi_caxpy(as, NULL, 1.0, xw, 1, w2, 3), "parity 3", "multi_caxpy of parity 3");
        CHECK(qf_blas_multi_dot(NULL, NULL, 0, w, -1) == 0 && qf_blas_multi_caxpy(NULL, NULL, 1.0, NULL, 0, w, -1) == 0,
              "multi_dot and multi_caxpy of no fields submit nothing: %s", qf_last_error());
    }
    REFUSED(qf_scalar_mul(s, NULL, s2), "NULL", "scalar mul of NULL");
    REFUSED(qf_scalar_set(NULL, 1.0, 0.0), "NULL", "setting a NULL scalar");
    REFUSED(qf_scalar_get(NULL, NULL, NULL), "NULL", "getting a NULL scalar");
#undef REFUSED

    /* a sequence: after its first failure nothing more is submitted, the first message stands, and
     * the end reports it; a nested sequence ends into its outer one; outside, calls work again */
    qf_scalar_set(s, 7.0, 0.0);
    qf_sequence_begin();
    int first = qf_blas_norm2(s, w, 2);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", qf_last_error());
    qf_sequence_begin();
    int skipped = qf_blas_norm2(s, w, -1) == QF_ERROR && qf_scalar_set(s, 1.0, 0.0) == QF_ERROR &&
                  qf_field_convert(ws, w) == QF_ERROR;
    int inner = qf_sequence_end();
    int still = qf_sequence_failed();
    int outer = qf_sequence_end();
    double v = 0.0;
    CHECK(first == QF_ERROR && skipped && inner == QF_ERROR && still && outer == QF_ERROR && !qf_sequence_failed() &&
              !strcmp(qf_last_error(), msg) && qf_scalar_get(s, &v, NULL) == 0 && v == 7.0,
          "a failed sequence submits nothing more and keeps its first message (%s; the scalar still %g)", msg, v);
    qf_sequence_begin();
    int ok = qf_scalar_set(s, 3.0, 0.0) == 0 && qf_sequence_end() == QF_SUCCESS && qf_scalar_get(s, &v, NULL) == 0;
    CHECK(ok && v == 3.0, "a sequence without failure runs its calls and ends in success (%g)", v);

    /* after the refusals, the same fields and scalars still work */
    double *ones = malloc((size_t)V * 24 * sizeof(double));
    for (int64_t k = 0; k < V * 24; k++) ones[k] = 1.0;
    CHECK(qf_field_import(w, ones) == 0 && qf_blas_norm2(s, w, 1) == 0, "norm after refused calls: %s",
          qf_last_error());
    free(ones);
    cplx g = get(s);
    CHECK(creal(g) == V / 2 * 24, "norm after refused calls is %g (want %lld)", creal(g), (long long)(V / 2 * 24));
    qf_field_destroy(w);
    qf_field_destroy(w2);
    qf_field_destroy(ws);
    qf_field_destroy(st);
    qf_field_destroy(wo);
    qf_scalar_destroy(s);

    /* a scratch field (never written, no host copy) set to zero by axpby(0, NULL, 0, y), then a round trip */
    {
        static const int one[4] = {1, 1, 2, 2};
        qf_lattice lz;
        qf_field *z = NULL;
        CHECK(qf_lattice_init(&lz, L, NULL, one, 0, 1, 2) == 0 &&
                  qf_field_create_scratch(&z, &lz, QF_FIELD_WILSON, QF_SINGLE) == 0,
              "scratch field: %s", qf_last_error());
        CHECK(qf_blas_axpby(0.0, NULL, 0.0, z, -1) == 0, "zeroing a scratch field: %s", qf_last_error());
        qf_field_export(z, tmp);
        double m = 0.0;
        for (int64_t k = 0; k < V * 24; k++) m = fmax(m, fabs(tmp[k]));
        CHECK(m == 0.0, "a zeroed scratch field holds %g", m);
        qf_field_import(z, X0);
        qf_field_export(z, tmp);
        m = 0.0;
        for (int64_t k = 0; k < V * 24; k++) m = fmax(m, fabs(tmp[k] - (double)(float)X0[k]));
        CHECK(m == 0.0, "scratch field round trip differs by %g", m);
        CHECK(qf_blas_axpby(1.0, NULL, 0.0, z, -1) == QF_ERROR && strstr(qf_last_error(), "NULL"),
              "axpby with a != 0 and no x: %s", qf_last_error());
        qf_field_destroy(z);
    }
    qf_scalar_destroy(s2);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;
    /* a larger lattice (ctest's test_blas_team: 8 8 8 16) gives tasks that the CPU team shares */
    const char *dims = getenv("QF_TEST_BLAS_DIMS");
    if (dims && sscanf(dims, "%d %d %d %d", &L[0], &L[1], &L[2], &L[3]) != 4) {
        CHECK(0, "QF_TEST_BLAS_DIMS='%s': give four extents", dims);
        return qf_check_summary();
    }
    V = (int64_t)L[0] * L[1] * L[2] * L[3];
    size_t n = (size_t)V * NR_MAX;
    X0 = malloc(n * sizeof(double));
    Y0 = malloc(n * sizeof(double));
    Z0 = malloc(n * sizeof(double));
    W0 = malloc(n * sizeof(double));
    U0 = malloc(n * sizeof(double));
    tmp = malloc(n * sizeof(double));
    uint64_t seed = 777;
    for (size_t k = 0; k < n; k++) {
        X0[k] = qf_test_gauss(&seed);
        Y0[k] = qf_test_gauss(&seed);
        Z0[k] = qf_test_gauss(&seed);
        W0[k] = qf_test_gauss(&seed);
        U0[k] = qf_test_gauss(&seed);
    }

    /* a fresh scalar is 0; set and get */
    qf_scalar *s;
    CHECK(qf_scalar_create(&s) == 0, "scalar: %s", qf_last_error());
    cplx g0 = get(s);
    qf_scalar_set(s, 1.25, -3.5);
    cplx g1 = get(s);
    CHECK(g0 == 0 && g1 == 1.25 - 3.5 * I, "a new scalar is 0 (%g %g), set then get gives (1.25, -3.5): (%g %g)",
          creal(g0), cimag(g0), creal(g1), cimag(g1));
    qf_scalar_destroy(s);

    /* scalar arithmetic runs where a solver's scalars live: with CUDA workers on them (a CPU core would
     * put a PCIe round trip of the scalar on the solve's critical path), unless a scope places it */
    {
        enum { OPS = 20 };
        qf_scalar *a, *b, *c;
        int rc = qf_scalar_create(&a) || qf_scalar_create(&b) || qf_scalar_create(&c) || qf_scalar_set(a, 3.0, -1.0) ||
                 qf_scalar_set(b, 0.5, 2.0) || qf_scalar_set(c, 3.0, -1.0);
        qf_runtime_stats *st = NULL;
        rc = rc || qf_runtime_stats_begin();
        for (int k = 0; k < OPS / 2 && !rc; k++) rc = qf_scalar_div(c, c, b) || qf_scalar_mul(c, c, b);
        rc = qf_runtime_stats_end(&st) || rc;
        long on_cpu = rc ? -1 : qf_runtime_stats_kind_tasks(st, QF_WORKER_CPU);
        long on_cuda = rc ? -1 : qf_runtime_stats_kind_tasks(st, QF_WORKER_CUDA);
        int gpus = qf_runtime_ncuda_workers() > 0;
        CHECK(!rc && on_cpu + on_cuda == OPS && (gpus ? on_cpu == 0 : on_cuda == 0),
              "%d scalar operations ran %ld on CPU and %ld on CUDA workers (%s): %s", OPS, on_cpu, on_cuda,
              gpus ? "all on CUDA expected" : "no CUDA worker", rc ? qf_last_error() : "");
        qf_runtime_stats_free(st);
        if (qf_runtime_ncpu_workers() > 0) { /* a CPU scope keeps them on the CPU workers */
            static qf_task_scope cpu_scope = {.where = QF_PLACE_CPU};
            qf_task_scope *previous = qf_task_scope_enter(&cpu_scope);
            for (int k = 0; k < OPS / 2 && !rc; k++) rc = qf_scalar_div(c, c, b) || qf_scalar_mul(c, c, b);
            qf_task_scope_leave(previous);
            qf_runtime_wait_all();
            CHECK(!rc && cpu_scope.ran[QF_WORKER_CPU] == OPS && cpu_scope.ran[QF_WORKER_CUDA] == 0,
                  "under a CPU scope %d scalar operations ran %ld on CPU and %ld on CUDA workers", OPS,
                  cpu_scope.ran[QF_WORKER_CPU], cpu_scope.ran[QF_WORKER_CUDA]);
        }
        cplx v = get(c);
        CHECK(cabs(v - (3.0 - 1.0 * I)) < 1e-12, "(c / b) b, %d times: (%g %g), not (3, -1)", OPS, creal(v), cimag(v));
        qf_scalar_destroy(a);
        qf_scalar_destroy(b);
        qf_scalar_destroy(c);
    }

    /* destroyed while its reduction is pending, never read: goes without waiting and without harm */
    {
        qf_lattice lat1;
        const int one[4] = {1, 1, 1, 1};
        qf_field *f;
        qf_scalar *t;
        int rc = qf_lattice_init(&lat1, L, NULL, one, 0, 1, 1) ||
                 qf_field_create(&f, &lat1, QF_FIELD_WILSON, QF_DOUBLE, 0);
        rc = rc || qf_field_import(f, X0) || qf_scalar_create(&t) || qf_blas_norm2(t, f, -1);
        CHECK(rc == 0, "norm into a scalar destroyed unread: %s", qf_last_error());
        if (!rc) qf_scalar_destroy(t);
        qf_runtime_wait_all();
        if (!rc) qf_field_destroy(f);
    }

    static const int grids[][4] = {{1, 1, 1, 1}, {2, 1, 1, 2}, {2, 2, 2, 2}, {1, 2, 1, 4}};
    enum { NSHAPES = 3 };
    qf_field_shape shapes[NSHAPES] = {qf_field_kind_shape(QF_FIELD_WILSON), qf_field_kind_shape(QF_FIELD_STAGGERED)};
    CHECK(qf_field_shape_coarse(&shapes[2], NR_MAX / 4) == 0, "coarse shape: %s", qf_last_error());
    qf_lattice lats[4];
    for (unsigned g = 0; g < 4; g++) {
        if (qf_lattice_init(&lats[g], L, NULL, grids[g], 0, 1, 1)) {
            CHECK(0, "lattice: %s", qf_last_error());
            return qf_check_summary();
        }
        /* the larger lattice: the one-block grid, whose tasks the team shares, and one of several blocks */
        if (dims && g >= 2) continue;
        for (int k = 0; k < NSHAPES; k++)
            for (int pi = 0; pi < 2; pi++)
                /* the iteration and the scalar chain on two grids, every operation on all four */
                test_case(&lats[g], &shapes[k], pi ? QF_SINGLE : QF_DOUBLE, g == 0 || g == 2);
    }
    test_errors(&lats[1], &lats[2]);
    check_chain_switch(&lats[0], &lats[1]);
    check_chain_scalars(&lats[0], &lats[1]);
    check_chain_scopes(&lats[0]);
    for (int g = 0; g < 2; g++)
        for (int pi = -1; pi <= 0; pi++) {
            check_shift_update(&lats[g], QF_DOUBLE, pi);
            check_shift_update(&lats[g], QF_SINGLE, pi);
        }
    check_fresh_scratch(&lats[2]);
    check_trisolve();
    printf("largest relative errors (double, single): updates %.1e %.1e; reductions %.1e %.1e; fused updates "
           "%.1e %.1e; CG-like iteration %.1e %.1e\n",
           worst_update[0], worst_update[1], worst_reduce[0], worst_reduce[1], worst_fused[0], worst_fused[1],
           worst_cg[0], worst_cg[1]);
    free(X0);
    free(Y0);
    free(Z0);
    free(W0);
    free(U0);
    free(tmp);
    qf_runtime_shutdown();
    return qf_check_summary();
}
