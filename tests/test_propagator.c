/* The pion correlator C(t) = sum_x |S(x, 0)|^2 of a point-source propagator: 12 solves with the task
 * graphs (qf_solve, even-odd BiCGStab, clover) against 12 solves of the independent reference operator
 * (dirac_reference.c) by conjugate gradients on the normal equations in plain loops, on 4^4 and
 * 4^3 x 8 random gauge fields; the correlators must agree to 1e-10 relative. */
#include "check.h"
#include "test_start.h"
#include "dirac_reference.h"
#include "quarkflow.h"

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

static void pion(const int L[4], const double *psi, double *c)
{
    for (int64_t i = 0; i < ref_volume(L); i++) {
        int x[4];
        ref_coords(i, L, x);
        for (int k = 0; k < REF_SPINOR_REALS; k++) c[x[3]] += psi[i * REF_SPINOR_REALS + k] * psi[i * REF_SPINOR_REALS + k];
    }
}

static void test_lattice(const int L[4], const int blocks[4], uint64_t seed)
{
    int64_t V = ref_volume(L), n = V * REF_SPINOR_REALS;
    double *links = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double)), *src = calloc((size_t)n, sizeof(double));
    double *x = malloc((size_t)n * sizeof(double)), *xr = malloc((size_t)n * sizeof(double));
    double c_graph[16] = {0}, c_ref[16] = {0};
    ref_rng g = {seed};
    ref_random_links(&g, L, links);
    qf_lattice lat;
    qf_field *u = NULL, *b = NULL, *sol = NULL;
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    qf_dirac_params dp = qf_dirac_default_params(0.115);
    dp.csw = 1.0;
    if (qf_lattice_init(&lat, L, NULL, blocks, 0, 1, 2) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_import(u, links) || qf_dirac_create(&d, u, &dp, QF_SCHUR_ASYMMETRIC) ||
        qf_dirac_linop(d, &M) || qf_field_create(&b, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
        qf_field_create(&sol, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0)) {
        CHECK(0, "setup: %s", qf_last_error());
        return;
    }
    ref_dirac r;
    ref_dirac_init(&r, L, links, dp.kappa, dp.csw, dp.phase);
    qf_solver_params sp = qf_solver_default_params();
    sp.tol = 1e-13;
    int iterations = 0;
    for (int k = 0; k < 12; k++) {
        memset(src, 0, (size_t)n * sizeof *src);
        src[2 * k] = 1.0; /* origin, spin k / 3, colour k % 3 */
        qf_solver_result res;
        int rc = qf_field_import(b, src) || qf_blas_axpby(0.0, NULL, 0.0, sol, -1) || qf_solve(M, sol, b, &sp, &res) ||
                 qf_field_export(sol, x);
        CHECK(rc == QF_SUCCESS, "column %d: %s", k, qf_last_error());
        iterations += res.iterations;
        reference_solve(&r, xr, src);
        pion(L, x, c_graph);
        pion(L, xr, c_ref);
    }
    double worst = 0.0;
    for (int t = 0; t < L[3]; t++) worst = fmax(worst, fabs(c_graph[t] - c_ref[t]) / fabs(c_ref[t]));
    CHECK(worst <= 1e-10, "lattice %d %d %d %d: pion correlators differ by %.3e relative (C(0) %.15e vs %.15e)", L[0],
          L[1], L[2], L[3], worst, c_graph[0], c_ref[0]);
    printf("ok   lattice %d %d %d %d, blocks %d %d %d %d: 12 solves, %d iterations; pion C(t) agrees with the reference "
           "solve to %.1e (C(1) = %.12e)\n",
           L[0], L[1], L[2], L[3], blocks[0], blocks[1], blocks[2], blocks[3], iterations, worst, c_ref[1]);
    ref_dirac_free(&r);
    qf_field_destroy(sol);
    qf_field_destroy(b);
    qf_linop_destroy(M);
    qf_dirac_destroy(d);
    qf_field_destroy(u);
    free(links);
    free(src);
    free(x);
    free(xr);
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
