/* The pion and rho correlators of a point-source propagator as the propagator command computes them:
 * 12 solves with the task graphs (point sources by qf_field_point, qf_solve, even-odd BiCGStab,
 * clover; the contraction by qf_meson_correlators where the columns live) against 12 solves of the
 * independent reference operator (dirac_reference.c) by conjugate gradients on the normal equations
 * in plain loops, contracted with the full 4x4 gamma matrices, on 4^4 and 4^3 x 8 random gauge
 * fields; the correlators must agree to 1e-10 relative. Also: point sources and time-slice norms
 * (qf_field_slice_norm2) against the host's, in both full precisions, the pion as the columns' slice
 * norms, the correlators from another source time, and what the functions refuse. */
#include "check.h"
#include "test_start.h"
#include "dirac_reference.h"
#include "quarkflow.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* x = M^-1 b by CG on M^dagger M x = M^dagger b with the reference operator, to |r| < 1e-15 |c|. */
static void reference_solve(const ref_dirac *r, double *x, const double *b)
{
    int64_t n = r->V * REF_SPINOR_REALS;
    double *c = calloc((size_t)n, sizeof *c), *res = calloc((size_t)n, sizeof *res), *p = calloc((size_t)n, sizeof *p),
           *q = calloc((size_t)n, sizeof *q);
    ref_dirac_apply(r, REF_MDAG, REF_ASYMMETRIC, c, b);
    memset(x, 0, (size_t)n * sizeof *x);
    memcpy(res, c, (size_t)n * sizeof *res);
    memcpy(p, c, (size_t)n * sizeof *p);
    double rr = ref_norm2(r->L, res, -1), cc = rr;
    for (int it = 0; it < 5000 && rr > 1e-30 * cc; it++) {
        ref_dirac_apply(r, REF_MDAGM, REF_ASYMMETRIC, q, p);
        double alpha = rr / creal(ref_dot(r->L, p, q, -1));
        for (int64_t i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            res[i] -= alpha * q[i];
        }
        double rr_new = ref_norm2(r->L, res, -1);
        for (int64_t i = 0; i < n; i++) p[i] = res[i] + rr_new / rr * p[i];
        rr = rr_new;
    }
    free(c);
    free(res);
    free(p);
    free(q);
}

/* Adds sum_x |S|^2 and (1/3) sum_k Re Tr[g_k S g_k g5 S^+ g5] at each time to pion and rho, S[s c][s0 c0]
 * from the 12 columns col[3 s0 + c0], the gammas as full matrices (a Kronecker product with colour). */
static void reference_contract(const int L[4], double *const col[12], double *pion, double *rho)
{
    for (int64_t i = 0; i < ref_volume(L); i++) {
        int x[4];
        ref_coords(i, L, x);
        double complex S[12][12];
        for (int k = 0; k < 12; k++)
            for (int r = 0; r < 12; r++) {
                S[r][k] = col[k][i * REF_SPINOR_REALS + 2 * r] + I * col[k][i * REF_SPINOR_REALS + 2 * r + 1];
                pion[x[3]] += creal(S[r][k] * conj(S[r][k]));
            }
        double v = 0.0;
        for (int mu = 0; mu < 3; mu++) {
            double complex gg5[4][4] = {{0}}; /* g_mu g5 */
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    for (int e = 0; e < 4; e++) gg5[a][b] += ref_gamma[mu][a][e] * ref_gamma5[e][b];
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    for (int c = 0; c < 3; c++)
                        for (int c2 = 0; c2 < 3; c2++) {
                            /* (g S g g5)[a c][b c2] (S^+ g5)[b c2][a c] */
                            double complex m = 0.0, h = 0.0;
                            for (int a2 = 0; a2 < 4; a2++)
                                for (int b2 = 0; b2 < 4; b2++)
                                    m += ref_gamma[mu][a][a2] * S[3 * a2 + c][3 * b2 + c2] * gg5[b2][b];
                            for (int a2 = 0; a2 < 4; a2++) h += conj(S[3 * a2 + c][3 * b + c2]) * ref_gamma5[a2][a];
                            v += creal(m * h);
                        }
        }
        rho[x[3]] += v / 3.0;
    }
}

/* qf_field_point against the host's point source, at a site inside another block than the origin's. */
static void check_point_source(const qf_lattice *lat, qf_precision prec)
{
    int64_t n = lat->global_volume * REF_SPINOR_REALS;
    double *got = malloc((size_t)n * sizeof *got);
    qf_field *f = NULL;
    const int site[4] = {1, 2, 3, lat->global[3] - 1};
    int rc = qf_field_create_scratch(&f, lat, QF_FIELD_WILSON, prec) || qf_field_gaussian(f, 5, 0) ||
             qf_field_point(f, site, 17) || qf_field_export(f, got);
    CHECK(rc == QF_SUCCESS, "point source: %s", qf_last_error());
    int64_t at = (site[0] + lat->global[0] * (site[1] + lat->global[1] * (site[2] + (int64_t)lat->global[2] * site[3]))) *
                     REF_SPINOR_REALS + 17;
    int64_t wrong = 0;
    for (int64_t i = 0; i < n && !rc; i++) wrong += got[i] != (i == at ? 1.0 : 0.0);
    CHECK(wrong == 0, "point source in %s: %lld reals differ from the host's", prec == QF_DOUBLE ? "double" : "single",
          (long long)wrong);
    const int outside[4] = {0, 0, lat->global[2], 0};
    CHECK(qf_field_point(f, outside, 0) == QF_ERROR && strstr(qf_last_error(), "outside the lattice"),
          "a site outside the lattice: %s", qf_last_error());
    CHECK(qf_field_point(f, site, 24) == QF_ERROR && strstr(qf_last_error(), "reals 0 .. 23"), "real 24: %s",
          qf_last_error());
    qf_field_destroy(f);
    free(got);
}

/* qf_field_slice_norm2 of a Gaussian staggered field against the host's sums of its exported reals,
 * from source time 1. */
static void check_slice_norm2(const qf_lattice *lat, qf_precision prec)
{
    int T = lat->global[3];
    int64_t V = lat->global_volume;
    double *v = malloc((size_t)V * 6 * sizeof *v), got[16], want[16] = {0};
    qf_field *f = NULL;
    int rc = qf_field_create_scratch(&f, lat, QF_FIELD_STAGGERED, prec) || qf_field_gaussian(f, 9, 1) ||
             qf_field_export(f, v) || qf_field_slice_norm2(f, 1, got);
    CHECK(rc == QF_SUCCESS, "slice norms: %s", qf_last_error());
    for (int64_t i = 0; i < V && !rc; i++) {
        int t = (int)(i / (V / T));
        for (int k = 0; k < 6; k++) want[(t - 1 + T) % T] += v[6 * i + k] * v[6 * i + k];
    }
    double worst = 0.0;
    for (int t = 0; t < T && !rc; t++) worst = fmax(worst, fabs(got[t] - want[t]) / want[t]);
    CHECK(!rc && worst <= 1e-13, "slice norms in %s: %.2e relative from the host's", prec == QF_DOUBLE ? "double" : "single",
          worst);
    qf_field_destroy(f);
    free(v);
}

static void test_lattice(const int L[4], const int blocks[4], uint64_t seed)
{
    int64_t V = ref_volume(L), n = V * REF_SPINOR_REALS;
    double *links = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double)), *src = calloc((size_t)n, sizeof(double));
    double *xr[12];
    double pion[16] = {0}, rho[16] = {0}, pion_ref[16] = {0}, rho_ref[16] = {0}, pion2[16], rho2[16];
    ref_rng g = {seed};
    ref_random_links(&g, L, links);
    qf_lattice lat;
    qf_field *u = NULL, *b = NULL, *col[12] = {NULL};
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    qf_dirac_params dp = qf_dirac_default_params(0.115);
    dp.csw = 1.0;
    int rc = qf_lattice_init(&lat, L, NULL, blocks, 0, 1, 2) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
             qf_field_import(u, links) || qf_dirac_create(&d, u, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
             qf_field_create_scratch(&b, &lat, QF_FIELD_WILSON, QF_DOUBLE);
    for (int k = 0; k < 12 && !rc; k++) rc = qf_field_create_scratch(&col[k], &lat, QF_FIELD_WILSON, QF_DOUBLE);
    static const int origin[4] = {0, 0, 0, 0};
    if (rc) {
        CHECK(0, "setup: %s", qf_last_error());
        return;
    }
    check_point_source(&lat, QF_DOUBLE);
    check_point_source(&lat, QF_SINGLE);
    check_slice_norm2(&lat, QF_DOUBLE);
    check_slice_norm2(&lat, QF_SINGLE);
    qf_field *h = NULL;
    CHECK(qf_field_create_scratch(&h, &lat, QF_FIELD_WILSON, QF_HALF) == QF_SUCCESS &&
              qf_field_point(h, origin, 0) == QF_ERROR && strstr(qf_last_error(), "field precision half"),
          "a half-precision point source: %s", qf_last_error());
    double c[16];
    CHECK(h && qf_field_slice_norm2(h, 0, c) == QF_ERROR && strstr(qf_last_error(), "field precision half"),
          "the slice norms of a half-precision field: %s", qf_last_error());
    qf_field_destroy(h);
    ref_dirac r;
    ref_dirac_init(&r, L, links, dp.kappa, dp.csw, dp.phase);
    qf_solver_params sp = qf_solver_default_params();
    sp.tol = 1e-13;
    int iterations = 0;
    for (int k = 0; k < 12; k++) {
        qf_solver_result res;
        rc = qf_field_point(b, origin, 2 * k) || qf_blas_axpby(0.0, NULL, 0.0, col[k], -1) ||
             qf_solve(M, col[k], b, &sp, &res);
        CHECK(rc == QF_SUCCESS, "column %d: %s", k, qf_last_error());
        iterations += res.iterations;
        memset(src, 0, (size_t)n * sizeof *src);
        src[2 * k] = 1.0; /* origin, spin k / 3, colour k % 3 */
        xr[k] = malloc((size_t)n * sizeof *xr[k]);
        reference_solve(&r, xr[k], src);
    }
    reference_contract(L, xr, pion_ref, rho_ref);
    rc = qf_meson_correlators(col, 0, pion, rho);
    CHECK(rc == QF_SUCCESS, "qf_meson_correlators: %s", qf_last_error());
    double worst = 0.0;
    for (int t = 0; t < L[3]; t++)
        worst = fmax(worst, fmax(fabs(pion[t] - pion_ref[t]) / fabs(pion_ref[t]), fabs(rho[t] - rho_ref[t]) / fabs(rho_ref[t])));
    CHECK(worst <= 1e-10, "lattice %d %d %d %d: correlators differ by %.3e relative (pion C(0) %.15e vs %.15e, rho %.15e vs %.15e)",
          L[0], L[1], L[2], L[3], worst, pion[0], pion_ref[0], rho[0], rho_ref[0]);
    /* the pion is the columns' time-slice norms summed */
    double pion_norms[16] = {0}, slice[16];
    for (int k = 0; k < 12 && !rc; k++) {
        rc = qf_field_slice_norm2(col[k], 0, slice);
        for (int t = 0; t < L[3]; t++) pion_norms[t] += slice[t];
    }
    double worst_norms = 0.0;
    for (int t = 0; t < L[3]; t++) worst_norms = fmax(worst_norms, fabs(pion_norms[t] - pion[t]) / pion[t]);
    CHECK(rc == QF_SUCCESS && worst_norms <= 1e-13, "the columns' slice norms against the pion: %.2e relative (%s)",
          worst_norms, rc ? qf_last_error() : "values");
    /* the same columns taken as a source at time 2: the correlators two slices on */
    rc = qf_meson_correlators(col, 2, pion2, rho2);
    int shifted = rc == QF_SUCCESS;
    for (int t = 0; t < L[3]; t++) /* the same sums, perhaps added in another order */
        shifted = shifted && fabs(pion2[t] - pion[(t + 2) % L[3]]) <= 1e-13 * pion[(t + 2) % L[3]] &&
                  fabs(rho2[t] - rho[(t + 2) % L[3]]) <= 1e-13 * fabs(rho[(t + 2) % L[3]]);
    CHECK(shifted, "lattice %d %d %d %d: the correlators from source time 2 are not those from 0 two slices on (%s)", L[0],
          L[1], L[2], L[3], rc ? qf_last_error() : "values");
    printf("ok   lattice %d %d %d %d, blocks %d %d %d %d: 12 solves, %d iterations; pion and rho C(t) agree with the "
           "reference solves to %.1e (pion C(1) = %.12e, rho C(1) = %.12e)\n",
           L[0], L[1], L[2], L[3], blocks[0], blocks[1], blocks[2], blocks[3], iterations, worst, pion_ref[1], rho_ref[1]);
    qf_field *swapped = col[5];
    col[5] = u;
    CHECK(qf_meson_correlators(col, 0, pion2, rho2) == QF_ERROR && strstr(qf_last_error(), "not a Wilson colour-spinor"),
          "a gauge field as a column: %s", qf_last_error());
    col[5] = swapped;
    CHECK(qf_meson_correlators(col, L[3], pion2, rho2) == QF_ERROR && strstr(qf_last_error(), "outside the lattice"),
          "source time T: %s", qf_last_error());
    ref_dirac_free(&r);
    for (int k = 0; k < 12; k++) {
        qf_field_destroy(col[k]);
        free(xr[k]);
    }
    qf_field_destroy(b);
    qf_linop_destroy(M);
    qf_dirac_destroy(d);
    qf_field_destroy(u);
    free(links);
    free(src);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;
    static const int L1[4] = {4, 4, 4, 4}, B1[4] = {1, 1, 2, 2}, L2[4] = {4, 4, 4, 8}, B2[4] = {2, 1, 1, 2};
    test_lattice(L1, B1, 21);
    test_lattice(L2, B2, 22);
    qf_runtime_shutdown();
    return qf_check_summary();
}
