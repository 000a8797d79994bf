/* Gauge-link compression (qf_recon, QUDA's reconstruct-12 and -8):
 *   - the kernels' rebuilding (kernels/su3_kind.h) of random SU(3) matrices packed by qf_su3_pack gives
 *     them back to rounding, and a U(3) matrix that is not in SU(3) is not given back (what the
 *     compression assumes, and why the apps refuse fields far from SU(3));
 *   - the records qf_gauge_compress writes are the packed links, in double and single, on a grid of
 *     several blocks;
 *   - the Dirac operator on compressed links (M, Mhat, Mhat^dagger, prepare) against the independent
 *     reference of dirac_reference.c on several block grids, with the boundary phases (antiperiodic t,
 *     complex phases) on the hops that cross the lattice boundary, with and without clover, to 1e-14
 *     (double) and 1e-6 (single);
 *   - mixed-precision BiCGStab with double whole links and compressed single-precision iterations
 *     reaching a true residual of 1e-10;
 *   - unknown reconstructions refused with a message.
 * The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "dirac_reference.h"
#include "quarkflow.h"
#include "spinor.h" /* the scalar kind's qf_link_load, as the CUDA kernels run it */
#include "test_start.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const qf_recon recons[2] = {QF_RECON_12, QF_RECON_8};

/* Largest entry difference between a and b. */
static double su3_diff(const qf_su3 *a, const qf_su3 *b)
{
    double d = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d = fmax(d, fmax(fabs(a->e[i][j].re - b->e[i][j].re), fabs(a->e[i][j].im - b->e[i][j].im)));
    return d;
}

/* u rebuilt from its packed reals the way the Dirac kernels do (qf_link_load of the scalar kind). */
static qf_su3 rebuilt(const qf_su3 *u, qf_recon r)
{
    double rec[QF_LINKS_REALS] = {0};
    qf_su3_pack(u, r, rec + 2 * qf_recon_link_reals(r)); /* as link mu = 2 of a site's record */
    qf_index site = 0;
    return qf_link_load(rec, QF_DOUBLE, r, site, 2);
}

static void test_matrices(void)
{
    ref_rng g = {2026};
    double worst[2] = {0.0, 0.0};
    for (int n = 0; n < 2000; n++) {
        double m[18];
        ref_random_su3(&g, m);
        qf_su3 u = qf_su3_load(m, QF_DOUBLE, 0);
        for (int k = 0; k < 2; k++) {
            qf_su3 v = rebuilt(&u, recons[k]);
            worst[k] = fmax(worst[k], su3_diff(&u, &v));
        }
    }
    CHECK(worst[0] < 1e-15, "reconstruct-12 of 2000 random SU(3) matrices: largest entry error %.2e (< 1e-15)",
          worst[0]);
    CHECK(worst[1] < 1e-12, "reconstruct-8 of 2000 random SU(3) matrices: largest entry error %.2e (< 1e-12)",
          worst[1]);
    /* e^{0.3 i} U is unitary with det e^{0.9 i}: neither compression can give it back */
    double m[18];
    ref_random_su3(&g, m);
    qf_su3 u = qf_su3_load(m, QF_DOUBLE, 0);
    qf_complex z = qf_cmake(cos(0.3), sin(0.3));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) u.e[i][j] = qf_cmul(z, u.e[i][j]);
    for (int k = 0; k < 2; k++) {
        qf_su3 v = rebuilt(&u, recons[k]);
        CHECK(su3_diff(&u, &v) > 0.1,
              "reconstruct-%s of a U(3) matrix with det e^0.9i is off (by %.2f): the "
              "compression holds for SU(3) only",
              qf_recon_name(recons[k]), su3_diff(&u, &v));
    }
}

typedef struct {
    int L[4];
    int64_t V;
    double *links, *in, *got, *want, *fill;
} problem;

static void test_records(const problem *pb, const qf_lattice *lat, qf_field *u)
{
    for (int pi = 0; pi < 2; pi++)
        for (int k = 0; k < 2; k++) {
            qf_precision prec = pi ? QF_SINGLE : QF_DOUBLE;
            qf_field_shape s;
            qf_field *c = NULL;
            int n = qf_recon_link_reals(recons[k]);
            double *got = malloc((size_t)pb->V * 4 * n * sizeof *got);
            int rc = qf_field_shape_compressed_gauge(&s, recons[k]) || qf_field_create_shaped(&c, lat, &s, prec, 0) ||
                     qf_gauge_compress(c, u) || qf_field_export(c, got);
            CHECK(rc == 0, "compress to %s in %s: %s", qf_recon_name(recons[k]), qf_precision_name(prec),
                  rc ? qf_last_error() : "ok");
            /* reconstruct-8's phases come from the atan2 of the device that ran the task: a last-place
             * difference from the host's is allowed (for a phase up to pi: 4.4e-16 in double, 2.4e-7
             * once rounded to single); the other reals are copies */
            double tol = recons[k] == QF_RECON_8 ? (pi ? 2.5e-7 : 1e-15) : 0.0, worst = 0.0;
            for (int64_t i = 0; !rc && i < pb->V * 4; i++) {
                qf_su3 m = qf_su3_load(pb->links, QF_DOUBLE, (size_t)i);
                double v[18];
                qf_su3_pack(&m, recons[k], v);
                for (int j = 0; j < n; j++) {
                    double want = pi ? (double)(float)v[j] : v[j];
                    worst = fmax(worst, fabs(got[i * n + j] - want));
                }
            }
            CHECK(!rc && worst <= tol,
                  "qf_gauge_compress to %s in %s: the records are the packed links rounded to "
                  "the precision (largest difference %.2e, allowed %.1e)",
                  qf_recon_name(recons[k]), qf_precision_name(prec), worst, tol);
            CHECK(qf_field_shape_recon(&s) == recons[k], "qf_field_shape_recon gives %s back",
                  qf_recon_name(recons[k]));
            if (c) qf_field_destroy(c);
            free(got);
        }
}

static void apply(qf_dirac *d, qf_dirac_op op, qf_field *out, const qf_field *in, const problem *pb, double *res)
{
    int rc = qf_field_import(out, pb->fill) || qf_dirac_apply(d, op, out, in) || qf_field_export(out, res);
    if (rc) CHECK(0, "apply %s: %s", qf_dirac_op_name(op), qf_last_error());
}

static void test_operator(problem *pb, const int grid[4], const double phase[4][2], const char *bc, double csw,
                          int check_records)
{
    qf_lattice lat;
    qf_field *u = NULL;
    if (qf_lattice_init(&lat, pb->L, NULL, grid, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_import(u, pb->links)) {
        CHECK(0, "lattice and links: %s", qf_last_error());
        return;
    }
    if (check_records) test_records(pb, &lat, u);
    const double kappa = 0.124;
    ref_dirac r;
    if (ref_dirac_init(&r, pb->L, pb->links, kappa, csw, phase)) {
        CHECK(0, "reference operator");
        return;
    }
    static const qf_dirac_op ops[3] = {QF_OP_M, QF_OP_MHAT, QF_OP_MHAT_DAG};
    for (int pi = 0; pi < 2; pi++) {
        qf_precision prec = pi ? QF_SINGLE : QF_DOUBLE;
        double tol = pi ? 1e-6 : 1e-14;
        qf_field *in = NULL, *out = NULL;
        if (qf_field_create(&in, &lat, QF_FIELD_WILSON, prec, 0) ||
            qf_field_create(&out, &lat, QF_FIELD_WILSON, prec, 0) || qf_field_import(in, pb->in)) {
            CHECK(0, "fields: %s", qf_last_error());
            return;
        }
        for (int k = 0; k < 2; k++) {
            qf_dirac_params p = qf_dirac_default_params(kappa);
            p.csw = csw;
            p.prec = prec;
            p.recon = recons[k];
            memcpy(p.phase, phase, sizeof p.phase);
            qf_dirac *d = NULL;
            if (qf_dirac_create(&d, u, &p, QF_SCHUR_ASYMMETRIC)) {
                CHECK(0, "qf_dirac_create with recon %s: %s", qf_recon_name(recons[k]), qf_last_error());
                continue;
            }
            double worst = 0.0;
            for (int o = 0; o < 3; o++) {
                int eo = o > 0;
                memcpy(pb->want, pb->fill, (size_t)pb->V * REF_SPINOR_REALS * sizeof(double));
                ref_dirac_apply(&r, (ref_op)ops[o], REF_ASYMMETRIC, pb->want, pb->in);
                apply(d, ops[o], out, in, pb, pb->got);
                double e = ref_rel_diff(pb->L, pb->got, pb->want, eo ? 0 : -1);
                worst = fmax(worst, e);
                CHECK(e <= tol,
                      "lattice %d %d %d %d blocks %d %d %d %d, %s, csw %g, %s, recon %s: %s against the "
                      "reference: relative error %.2e (tolerance %.0e)",
                      pb->L[0], pb->L[1], pb->L[2], pb->L[3], grid[0], grid[1], grid[2], grid[3], bc, csw,
                      qf_precision_name(prec), qf_recon_name(recons[k]), qf_dirac_op_name(ops[o]), e, tol);
            }
            printf("blocks %d %d %d %d, %s, csw %g, %s, recon %s: worst relative error %.2e\n", grid[0], grid[1],
                   grid[2], grid[3], bc, csw, qf_precision_name(prec), qf_recon_name(recons[k]), worst);
            qf_dirac_destroy(d);
        }
        qf_field_destroy(in);
        qf_field_destroy(out);
    }
    ref_dirac_free(&r);
    qf_field_destroy(u);
}

/* Double whole links, single-precision iterations on compressed links. */
static void test_mixed_solve(problem *pb)
{
    const int grid[4] = {1, 2, 1, 2};
    qf_lattice lat;
    qf_field *u = NULL, *x = NULL, *b = NULL;
    if (qf_lattice_init(&lat, pb->L, NULL, grid, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_import(u, pb->links) || qf_field_create(&x, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
        qf_field_create(&b, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_field_import(b, pb->in)) {
        CHECK(0, "solve set-up: %s", qf_last_error());
        return;
    }
    for (int k = 0; k < 2; k++) {
        qf_dirac_params p = qf_dirac_default_params(0.12);
        p.csw = 1.0;
        p.recon_sloppy = recons[k];
        qf_dirac *d = NULL;
        qf_linop *M = NULL;
        qf_solver_params sp = qf_solver_default_params();
        sp.sloppy = QF_SINGLE;
        qf_solver_result res;
        int rc = qf_dirac_create(&d, u, &p, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
                 qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &sp, &res);
        CHECK(rc == 0 && res.converged && res.residual <= 1e-10,
              "mixed BiCGStab, double whole links / single recon %s: %s, %d iterations, true residual %.2e",
              qf_recon_name(recons[k]), rc ? qf_last_error() : "converged", rc ? 0 : res.iterations,
              rc ? 0.0 : res.residual);
        if (M) qf_linop_destroy(M);
        if (d) qf_dirac_destroy(d);
    }
    qf_field_destroy(x);
    qf_field_destroy(b);
    qf_field_destroy(u);
}

static void test_errors(void)
{
    qf_recon r;
    CHECK(qf_recon_parse("16", &r) == QF_ERROR && strstr(qf_last_error(), "18 (whole links), 12"),
          "qf_recon_parse refuses 16, naming the choices: %s", qf_last_error());
    CHECK(qf_recon_parse("8", &r) == QF_SUCCESS && r == QF_RECON_8, "qf_recon_parse reads 8");
    qf_field_shape s;
    CHECK(qf_field_shape_compressed_gauge(&s, QF_RECON_18) == QF_ERROR, "whole links are no compressed shape: %s",
          qf_last_error());
    const int L[4] = {4, 4, 4, 4}, one[4] = {1, 1, 1, 1};
    qf_lattice lat;
    qf_field *u = NULL, *w = NULL;
    if (qf_lattice_init(&lat, L, NULL, one, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_create(&w, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0)) {
        CHECK(0, "error set-up: %s", qf_last_error());
        return;
    }
    qf_dirac_params p = qf_dirac_default_params(0.12);
    p.recon = (qf_recon)5;
    qf_dirac *d = NULL;
    CHECK(qf_dirac_create(&d, u, &p, QF_SCHUR_ASYMMETRIC) == QF_ERROR && strstr(qf_last_error(), "QF_RECON_12"),
          "an unknown reconstruction is refused: %s", qf_last_error());
    CHECK(qf_gauge_compress(w, u) == QF_ERROR && strstr(qf_last_error(), "compressed gauge"),
          "compressing into a Wilson field is refused: %s", qf_last_error());
    qf_field_destroy(u);
    qf_field_destroy(w);
}

int main(void)
{
    int rc = qf_test_start();
    if (rc >= 0) return rc;
    test_matrices();
    problem pb = {.L = {4, 4, 4, 8}};
    pb.V = ref_volume(pb.L);
    size_t n = (size_t)pb.V * REF_SPINOR_REALS;
    pb.links = malloc((size_t)pb.V * REF_GAUGE_REALS * sizeof(double));
    pb.in = malloc(n * sizeof(double));
    pb.got = malloc(n * sizeof(double));
    pb.want = malloc(n * sizeof(double));
    pb.fill = malloc(n * sizeof(double));
    ref_rng g = {7};
    ref_random_links(&g, pb.L, pb.links);
    ref_random_spinor(&g, pb.L, pb.in);
    ref_random_spinor(&g, pb.L, pb.fill);
    const double anti[4][2] = {{1, 0}, {1, 0}, {1, 0}, {-1, 0}};
    const double cplx[4][2] = {{cos(0.3), sin(0.3)}, {1, 0}, {cos(-1.1), sin(-1.1)}, {cos(2.5), sin(2.5)}};
    const int grids[3][4] = {{1, 1, 1, 1}, {2, 1, 2, 2}, {1, 2, 1, 4}};
    for (int gi = 0; gi < 3; gi++) {
        test_operator(&pb, grids[gi], anti, "antiperiodic t", gi == 1 ? 1.3 : 0.0, gi == 1);
        test_operator(&pb, grids[gi], cplx, "complex phases", gi == 2 ? 1.3 : 0.0, 0);
    }
    test_mixed_solve(&pb);
    test_errors();
    free(pb.links), free(pb.in), free(pb.got), free(pb.want), free(pb.fill);
    qf_runtime_shutdown();
    return qf_check_summary();
}
