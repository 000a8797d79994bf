/* The solvers through the operator interface (qf_linop.h) on an operator that is not Wilson: a
 * diagonal operator A = diag(d) on coarse multigrid fields of 2 colours (a shape made at run time, 8
 * reals a site), d random with a spread
 * of complex values in the right half-plane, written with the public API only (qf_linop_ops and the
 * element-wise BLAS products), with an even-odd form (A_ee, bhat_e = b_e, x_o = d_o^-1 b_o) and a
 * twin in single precision. Every solver, full and even-odd, uniform and mixed precision, must give
 * x = b / d element by element, which the test computes on the host; GCR also with a caller's
 * preconditioner (the exact inverse: one iteration) and the MR one; CG on the derived normal
 * operator A^dagger A; and the interface's refusals. The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "test_start.h"
#include "quarkflow.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const int L[4] = {8, 4, 4, 8}, B[4] = {2, 1, 1, 2};
enum { NCOLOUR = 2, NR = 4 * NCOLOUR }; /* reals a coarse site: 2 chiral spins x NCOLOUR */
static qf_field_shape SHAPE;

typedef struct {
    qf_field *d, *dinv; /* the diagonal and its inverse, in the operator's precision */
    qf_linop *twin;     /* owned: the operator in the other precision */
    int parity;
} diagonal;

static int diag_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    const diagonal *g = ctx;
    return dagger ? qf_blas_conj_mul(out, g->d, in, g->parity) : qf_blas_mul(out, g->d, in, g->parity);
}

static double diag_flops(const void *ctx, int dagger)
{
    (void)dagger;
    const diagonal *g = ctx;
    const qf_lattice *lat = qf_field_lattice(g->d);
    return 6.0 * NR / 2 * (double)lat->global_volume / (g->parity < 0 ? 1 : 2);
}

static void diag_free(void *ctx)
{
    diagonal *g = ctx;
    qf_linop_destroy(g->twin);
    if (g->d) qf_field_destroy(g->d);
    if (g->dinv) qf_field_destroy(g->dinv);
    free(g);
}

static int diag_make(qf_linop **A, const qf_linop_ops *ops, const qf_field *d, const qf_field *dinv, qf_precision prec,
                     int parity);

static int diag_in_precision(void *ctx, qf_precision prec, qf_linop **twin);
static int diag_schur(void *ctx, qf_linop **schur);
static int diag_prepare(void *ctx, qf_field *bhat, const qf_field *b)
{
    (void)ctx;
    return qf_blas_copy(bhat, b, 0);
}
static int diag_reconstruct(void *ctx, qf_field *x, const qf_field *x_even, const qf_field *b)
{
    const diagonal *g = ctx;
    return qf_blas_copy(x, x_even, 0) || qf_blas_mul(x, g->dinv, b, 1);
}

static const qf_linop_ops full_ops = {.name = "diagonal",
                                      .apply = diag_apply,
                                      .flops = diag_flops,
                                      .in_precision = diag_in_precision,
                                      .schur = diag_schur,
                                      .prepare = diag_prepare,
                                      .reconstruct = diag_reconstruct,
                                      .destroy = diag_free};
static const qf_linop_ops schur_ops = {
    .name = "diagonal_ee", .apply = diag_apply, .flops = diag_flops, .destroy = diag_free};

static int diag_make(qf_linop **A, const qf_linop_ops *ops, const qf_field *d, const qf_field *dinv, qf_precision prec,
                     int parity)
{
    const qf_lattice *lat = qf_field_lattice(d);
    diagonal *g = calloc(1, sizeof *g);
    g->parity = parity;
    qf_linop_domain dom = {.lat = lat, .shape = SHAPE, .prec = prec, .parity = parity};
    if (qf_field_create_shaped(&g->d, lat, &SHAPE, prec, 0) ||
        qf_field_create_shaped(&g->dinv, lat, &SHAPE, prec, 0) || qf_field_convert(g->d, d) ||
        qf_field_convert(g->dinv, dinv) || qf_linop_create(A, ops, g, &dom)) {
        diag_free(g);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

static int diag_in_precision(void *ctx, qf_precision prec, qf_linop **twin)
{
    diagonal *g = ctx;
    if (!g->twin && diag_make(&g->twin, &full_ops, g->d, g->dinv, prec, g->parity)) return QF_ERROR;
    *twin = g->twin;
    return QF_SUCCESS;
}

static int diag_schur(void *ctx, qf_linop **schur)
{
    const diagonal *g = ctx;
    return diag_make(schur, &schur_ops, g->d, g->dinv, qf_field_precision(g->d), 0);
}

/* ---- a caller's preconditioner: z = d^-1 r exactly ---- */

static int exact_apply(void *ctx, qf_field *z, const qf_field *r, double *flops)
{
    (void)flops; /* no operator applications */
    const diagonal *g = ctx;
    return qf_blas_mul(z, g->dinv, r, g->parity);
}
static const qf_precond_ops exact_ops = {.name = "exact", .apply = exact_apply};

/* ---- the test ---- */

static double *D, *DINV, *Bsrc, *X; /* host arrays, NR reals a site */
static int64_t V;

static double frand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void host_problem(void)
{
    V = (int64_t)L[0] * L[1] * L[2] * L[3];
    size_t n = (size_t)V * NR;
    D = malloc(n * sizeof *D), DINV = malloc(n * sizeof *DINV), Bsrc = malloc(n * sizeof *Bsrc), X = malloc(n * sizeof *X);
    uint64_t s = 7;
    for (size_t e = 0; e < n / 2; e++) {
        /* eigenvalues spread over the right half-plane: Krylov methods need many iterations, MR converges */
        double complex d = (0.2 + 1.8 * frand(&s)) + I * (frand(&s) - 0.5), inv = 1.0 / d;
        D[2 * e] = creal(d), D[2 * e + 1] = cimag(d);
        DINV[2 * e] = creal(inv), DINV[2 * e + 1] = cimag(inv);
        Bsrc[2 * e] = frand(&s) - 0.5, Bsrc[2 * e + 1] = frand(&s) - 0.5;
    }
}

/* |x - b / d| / |b / d| over all sites */
static double solution_error(const double *x)
{
    double err = 0.0, norm = 0.0;
    for (int64_t e = 0; e < V * NR / 2; e++) {
        double complex want = (Bsrc[2 * e] + I * Bsrc[2 * e + 1]) * (DINV[2 * e] + I * DINV[2 * e + 1]);
        err += pow(cabs(x[2 * e] + I * x[2 * e + 1] - want), 2);
        norm += pow(cabs(want), 2);
    }
    return sqrt(err / norm);
}

static qf_solver_params params(qf_solver_kind kind, int even_odd, qf_precision sloppy)
{
    qf_solver_params p = qf_solver_default_params();
    p.kind = kind;
    p.even_odd = even_odd;
    p.sloppy = sloppy;
    p.tol = 1e-11;
    p.max_iter = 3000;
    return p;
}

static void solve_and_check(qf_linop *A, const qf_lattice *lat, qf_solver_params p, const char *what)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s %s%s, %s", qf_solver_name(p.kind), p.even_odd ? "even-odd" : "full",
             p.sloppy == QF_SINGLE ? " double/single" : "", what);
    qf_field *b = NULL, *x = NULL;
    qf_solver_result res = {0};
    int rc = qf_field_create_shaped(&b, lat, &SHAPE, QF_DOUBLE, 0) ||
             qf_field_create_shaped(&x, lat, &SHAPE, QF_DOUBLE, 0) || qf_field_import(b, Bsrc) ||
             qf_solve(A, x, b, &p, &res) || qf_field_export(x, X);
    CHECK(rc == QF_SUCCESS && res.converged, "%s: %s", tag, rc ? qf_last_error() : "not converged");
    double err = rc ? INFINITY : solution_error(X);
    CHECK(err < 1e-9, "%s: x differs from b / d by %.2e", tag, err);
    CHECK(res.residual <= 1.5 * p.tol, "%s: reported residual %.2e", tag, res.residual);
    CHECK(res.flops > 0.0, "%s: no flops counted", tag);
    CHECK(p.sloppy == QF_DOUBLE || res.updates > 0, "%s: a mixed-precision solve made no update", tag);
    printf("ok   %-52s %4d iterations, %2d updates, |x - b/d| / |b/d| %.1e\n", tag, res.iterations, res.updates, err);
    if (b) qf_field_destroy(b);
    if (x) qf_field_destroy(x);
}

static void test_refusals(qf_linop *A, const qf_lattice *lat)
{
    qf_field *wilson = NULL, *f = NULL, *single = NULL, *wider = NULL;
    qf_field_shape three;
    qf_field_create(&wilson, lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_field_create_shaped(&f, lat, &SHAPE, QF_DOUBLE, 0);
    qf_field_create_shaped(&single, lat, &SHAPE, QF_SINGLE, 0);
    CHECK(qf_field_shape_coarse(&three, NCOLOUR + 1) == 0 && qf_field_create_shaped(&wider, lat, &three, QF_DOUBLE, 0) == 0,
          "a coarse field of %d colours: %s", NCOLOUR + 1, qf_last_error());
    CHECK(qf_linop_apply(A, wilson, f) == QF_ERROR && strstr(qf_last_error(), "coarse fields (8 reals a site)"),
          "a field of another kind is refused: %s", qf_last_error());
    CHECK(qf_linop_apply(A, f, wider) == QF_ERROR && strstr(qf_last_error(), "coarse field (12)"),
          "a coarse field of another number of colours is refused: %s", qf_last_error());
    CHECK(qf_field_shape_coarse(&three, 0) == QF_ERROR && strstr(qf_last_error(), "0 colours"),
          "a coarse shape of 0 colours is refused: %s", qf_last_error());
    CHECK(qf_linop_apply(A, single, f) == QF_ERROR && strstr(qf_last_error(), "precision"),
          "a field of another precision is refused: %s", qf_last_error());
    CHECK(qf_linop_apply(A, f, f) == QF_ERROR && strstr(qf_last_error(), "same field"), "in == out is refused: %s",
          qf_last_error());
    qf_linop *schur = NULL, *schur_schur = NULL;
    CHECK(qf_linop_schur(A, &schur) == QF_SUCCESS && qf_linop_get_domain(schur)->parity == 0, "Schur form: %s",
          qf_last_error());
    CHECK(schur && qf_linop_schur(schur, &schur_schur) == QF_ERROR && strstr(qf_last_error(), "no even-odd form"),
          "the Schur form has no Schur form of its own: %s", qf_last_error());
    qf_solver_params p = params(QF_SOLVER_BICGSTAB, 1, QF_DOUBLE);
    qf_solver_result res;
    CHECK(qf_solve(schur, f, f, &p, &res) == QF_ERROR, "a solve needs distinct fields");
    qf_field *b = NULL;
    qf_field_create_shaped(&b, lat, &SHAPE, QF_DOUBLE, 0);
    qf_field_import(b, Bsrc);
    CHECK(qf_solve(schur, f, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "no even-odd form"),
          "even_odd on an operator without an even-odd form: %s", qf_last_error());
    qf_linop_ops bad = {.name = "half even-odd", .apply = diag_apply, .schur = diag_schur};
    qf_linop *B2 = NULL;
    qf_linop_domain dom = *qf_linop_get_domain(A);
    CHECK(qf_linop_create(&B2, &bad, NULL, &dom) == QF_ERROR && strstr(qf_last_error(), "together"),
          "an incomplete even-odd form is refused: %s", qf_last_error());
    qf_field_destroy(b);
    qf_field_destroy(wilson);
    qf_field_destroy(wider);
    qf_field_destroy(f);
    qf_field_destroy(single);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;
    CHECK(qf_field_shape_coarse(&SHAPE, NCOLOUR) == QF_SUCCESS, "coarse shape: %s", qf_last_error());
    host_problem();
    qf_lattice lat;
    qf_field *d = NULL, *dinv = NULL;
    qf_linop *A = NULL;
    int rc = qf_lattice_init(&lat, L, NULL, B, 0, 1, 2) || qf_field_create_shaped(&d, &lat, &SHAPE, QF_DOUBLE, 0) ||
             qf_field_create_shaped(&dinv, &lat, &SHAPE, QF_DOUBLE, 0) || qf_field_import(d, D) ||
             qf_field_import(dinv, DINV) || diag_make(&A, &full_ops, d, dinv, QF_DOUBLE, -1);
    CHECK(rc == QF_SUCCESS, "setup: %s", qf_last_error());
    if (rc) return qf_check_summary();

    static const qf_solver_kind kinds[] = {QF_SOLVER_CGNR, QF_SOLVER_CGNE, QF_SOLVER_BICGSTAB, QF_SOLVER_GCR,
                                           QF_SOLVER_MR};
    for (int i = 0; i < 5; i++)
        for (int eo = 0; eo < 2; eo++)
            for (int mixed = 0; mixed < 2; mixed++)
                solve_and_check(A, &lat, params(kinds[i], eo, mixed ? QF_SINGLE : QF_DOUBLE), "diagonal");

    /* GCR preconditioned by MR steps, and by the caller's exact inverse (converges at once) */
    qf_solver_params p = params(QF_SOLVER_GCR, 1, QF_SINGLE);
    p.gcr_inner_mr = 3;
    solve_and_check(A, &lat, p, "MR(3) preconditioner");
    /* the caller's K acts on the Schur system's even sites: z_e = d_e^-1 r_e */
    diagonal exact = {.parity = 0};
    qf_precond *K = NULL;
    rc = qf_field_create_shaped(&exact.dinv, &lat, &SHAPE, QF_DOUBLE, 0) || qf_field_import(exact.dinv, DINV) ||
         qf_precond_create(&K, &exact_ops, &exact);
    CHECK(rc == QF_SUCCESS, "preconditioner: %s", qf_last_error());
    if (!rc) {
        p = params(QF_SOLVER_GCR, 1, QF_DOUBLE);
        p.precond = K;
        p.check_every = 1;
        qf_field *b = NULL, *x = NULL;
        qf_solver_result res = {0};
        rc = qf_field_create_shaped(&b, &lat, &SHAPE, QF_DOUBLE, 0) ||
             qf_field_create_shaped(&x, &lat, &SHAPE, QF_DOUBLE, 0) || qf_field_import(b, Bsrc) ||
             qf_solve(A, x, b, &p, &res) || qf_field_export(x, X);
        CHECK(rc == QF_SUCCESS && res.iterations <= 2 && solution_error(X) < 1e-12,
              "GCR with the exact inverse as preconditioner: %d iterations, %s", res.iterations,
              rc ? qf_last_error() : "");
        printf("ok   GCR with the caller's exact preconditioner: %d iteration(s)\n", res.iterations);
        qf_field_destroy(b);
        qf_field_destroy(x);
    }
    qf_precond_destroy(K);
    if (exact.dinv) qf_field_destroy(exact.dinv);

    /* the derived normal operator A^dagger A: hermitian positive definite, CG's home ground */
    qf_linop *N = NULL;
    rc = qf_linop_normal(A, &N);
    CHECK(rc == QF_SUCCESS && qf_linop_flops(N, 0) == 2 * qf_linop_flops(A, 0), "normal operator: %s", qf_last_error());
    if (!rc) {
        /* N x = A^dagger b has the solution b / d */
        qf_field *b = NULL, *adb = NULL, *x = NULL;
        qf_solver_result res = {0};
        p = params(QF_SOLVER_CGNE, 0, QF_SINGLE);
        rc = qf_field_create_shaped(&b, &lat, &SHAPE, QF_DOUBLE, 0) ||
             qf_field_create_shaped(&adb, &lat, &SHAPE, QF_DOUBLE, 0) ||
             qf_field_create_shaped(&x, &lat, &SHAPE, QF_DOUBLE, 0) || qf_field_import(b, Bsrc) ||
             qf_linop_apply_dagger(A, adb, b) || qf_solve(N, x, adb, &p, &res) || qf_field_export(x, X);
        double err = rc ? INFINITY : solution_error(X);
        CHECK(rc == QF_SUCCESS && err < 1e-9, "CGNE on A^dag A, mixed precision (its twin derived from A's): %s, error %.2e",
              rc ? qf_last_error() : "", err);
        printf("ok   CGNE on the normal operator A^dag A, double/single: %d iterations, error %.1e\n", res.iterations, err);
        qf_field_destroy(b);
        qf_field_destroy(adb);
        qf_field_destroy(x);
    }

    test_refusals(A, &lat);
    qf_linop_destroy(A);
    qf_field_destroy(d);
    qf_field_destroy(dinv);
    free(D), free(DINV), free(Bsrc), free(X);
    qf_runtime_shutdown();
    return qf_check_summary();
}
