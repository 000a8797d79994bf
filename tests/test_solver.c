/* The Krylov solvers (qf_solver.h) on the Wilson-clover operator: every solver, with and without
 * even-odd preconditioning, both Schur forms, clover and plain Wilson, in double precision to 1e-12,
 * the true residual |b - M x| / |b| recomputed independently with the reference operator
 * (dirac_reference.c) on the exported solution; mixed precision (single iterations, double
 * updates) to 1e-12; a single-precision operator to its precision; the same solve on two block
 * grids; a zero source; GCR's reductions a block and iteration (its Gram-Schmidt in blocks); non-convergence
 * and bad parameters reported with messages. The scheduler comes from
 * STARPU_SCHED; with QF_TEST_REQUIRE_CUDA the run is skipped (77) without a CUDA worker. */
#include "check.h"
#include "test_start.h"
#include "dirac_reference.h"
#include "quarkflow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int L[4], blocks[4];
    double *links, *b, *x;
    qf_lattice lat;
    qf_field *u;
} problem;

static void problem_init(problem *pb, const int L[4], const int blocks[4], uint64_t seed)
{
    memcpy(pb->L, L, sizeof pb->L);
    memcpy(pb->blocks, blocks, sizeof pb->blocks);
    int64_t V = ref_volume(L);
    pb->links = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double));
    pb->b = malloc((size_t)V * REF_SPINOR_REALS * sizeof(double));
    pb->x = malloc((size_t)V * REF_SPINOR_REALS * sizeof(double));
    ref_rng g = {seed};
    ref_random_links(&g, L, pb->links);
    ref_random_spinor(&g, L, pb->b);
    CHECK(qf_lattice_init(&pb->lat, L, NULL, blocks, 0, 1, 2) == QF_SUCCESS, "lattice: %s", qf_last_error());
    CHECK(qf_field_create(&pb->u, &pb->lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) == QF_SUCCESS, "gauge: %s", qf_last_error());
    qf_field_import(pb->u, pb->links);
}

static void problem_free(problem *pb)
{
    qf_field_destroy(pb->u);
    free(pb->links);
    free(pb->b);
    free(pb->x);
}

/* A solver configuration: kind, even-odd, tolerance, and the iterations' precision. */
static qf_solver_params solver(qf_solver_kind kind, int even_odd, double tol, qf_precision sloppy)
{
    qf_solver_params p = qf_solver_default_params();
    p.kind = kind;
    p.even_odd = even_odd;
    p.tol = tol;
    p.sloppy = sloppy;
    p.max_iter = 4000;
    p.gcr_nkrylov = 8;
    return p;
}

/* Solves with the given settings and checks the solution with the reference operator; returns the
 * iterations and leaves the solution in pb->x. */
static int solve_and_check(problem *pb, qf_solver_params p, qf_schur_form form, double csw, qf_precision prec)
{
    char cfg[240];
    double tol = p.tol;
    snprintf(cfg, sizeof cfg, "%s%s%s, %s, %s form, csw %g, %s%s, lattice %d %d %d %d blocks %d %d %d %d",
             qf_solver_name(p.kind), p.kind == QF_SOLVER_GCR && p.gcr_inner_mr ? "+MR" : "",
             p.kind == QF_SOLVER_GCR ? "(8)" : "", p.even_odd ? "even-odd" : "full", form ? "symmetric" : "asymmetric",
             csw, qf_precision_name(prec), p.sloppy != prec && prec == QF_DOUBLE ? "/single" : "", pb->L[0], pb->L[1],
             pb->L[2], pb->L[3], pb->blocks[0], pb->blocks[1], pb->blocks[2], pb->blocks[3]);
    qf_dirac_params dp = qf_dirac_default_params(0.11);
    dp.csw = csw;
    dp.prec = prec;
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    qf_field *b = NULL, *x = NULL;
    if (qf_dirac_create(&d, pb->u, &dp, form) || qf_dirac_linop(d, &M) || qf_field_create(&b, &pb->lat, QF_FIELD_WILSON, prec, 0) ||
        qf_field_create(&x, &pb->lat, QF_FIELD_WILSON, prec, 0)) {
        CHECK(0, "%s: setup: %s", cfg, qf_last_error());
        return -1;
    }
    qf_field_import(b, pb->b);
    qf_solver_result res;
    int rc = qf_solve(M, x, b, &p, &res);
    CHECK(rc == QF_SUCCESS && res.converged, "%s: %s", cfg, rc ? qf_last_error() : "not converged");
    qf_field_export(x, pb->x);

    /* the true residual, independently: |b - M_ref x| / |b| with the field's own rounded source */
    ref_dirac r;
    ref_dirac_init(&r, pb->L, pb->links, dp.kappa, csw, dp.phase);
    int64_t n = ref_volume(pb->L) * REF_SPINOR_REALS;
    double *mx = malloc((size_t)n * sizeof(double)), *bs = malloc((size_t)n * sizeof(double));
    qf_field_export(b, bs);
    ref_dirac_apply(&r, REF_M, REF_ASYMMETRIC, mx, pb->x);
    double rel = ref_rel_diff(pb->L, mx, bs, -1);
    /* single precision: the solution is stored in single, so its residual is bounded by its rounding */
    double bound = prec == QF_DOUBLE ? 1.5 * tol : 1e-5;
    CHECK(rel <= bound, "%s: independent true residual %.3e > %.1e (solver reported %.3e after %d iterations)", cfg, rel,
          bound, res.residual, res.iterations);
    CHECK(prec != QF_DOUBLE || fabs(rel - res.residual) <= 1e-3 * rel + 1e-15,
          "%s: reported residual %.6e differs from the independent one %.6e", cfg, res.residual, rel);
    CHECK(p.sloppy == prec || prec == QF_SINGLE || res.updates > 0, "%s: a mixed-precision solve made no update", cfg);
    if (rc == QF_SUCCESS && p.kind == QF_SOLVER_BICGSTAB && p.even_odd) {
        /* a run starts from the true residual just computed, without applying the operator again: two
         * applications an iteration, one an update, the first and the last true residual, and the full
         * operator's for the reported residual */
        double mhat = qf_dirac_flops(d, QF_OP_MHAT), want = (2.0 * res.iterations + 2 + res.updates) * mhat + qf_dirac_flops(d, QF_OP_M);
        CHECK(fabs(res.flops - want) <= 1e-9 * want,
              "%s: the operator applications come to %.3f Mhat, not the %.0f of %d iterations and %d updates", cfg,
              (res.flops - qf_dirac_flops(d, QF_OP_M)) / mhat, want / mhat - qf_dirac_flops(d, QF_OP_M) / mhat,
              res.iterations, res.updates);
    }
    printf("ok   %-108s %4d iterations, %2d updates, true residual %.2e\n", cfg, res.iterations, res.updates, rel);
    free(mx);
    free(bs);
    ref_dirac_free(&r);
    qf_field_destroy(b);
    qf_field_destroy(x);
    qf_linop_destroy(M);
    qf_dirac_destroy(d);
    return res.iterations;
}

/* solve_and_check under the runtime's statistics: the statistics (NULL where the solve or the statistics
 * failed, checked here) and the iterations. */
static qf_runtime_stats *counted_solve(problem *pb, qf_solver_params p, int *it)
{
    qf_runtime_stats *s = NULL;
    CHECK(qf_runtime_stats_begin() == 0, "stats: %s", qf_last_error());
    *it = solve_and_check(pb, p, QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    CHECK(qf_runtime_stats_end(&s) == 0 && s, "stats: %s", qf_last_error());
    if (s && *it > 0) return s;
    qf_runtime_stats_free(s);
    return NULL;
}

/* GCR's Gram-Schmidt in blocks (solvers/gcr.c): each direction takes one multi_dot, one multi_caxpy
 * and one dot_norm2 a block, so the reductions a block stay under three an iteration (the residual's
 * dot_norm2, the reads of |r|^2, restarts); modified Gram-Schmidt made a dot for every earlier direction
 * as well, 4.5 an iteration on average in GCR(8). Task counts, not times. */
static void check_gcr_tasks(problem *pb)
{
    qf_solver_params p = solver(QF_SOLVER_GCR, 1, 1e-12, QF_DOUBLE);
    p.check_every = 1;
    int it;
    qf_runtime_stats *s = counted_solve(pb, p, &it);
    if (!s) return;
    long nb = pb->lat.nblocks, red = qf_runtime_stats_tasks(s, "blas_reduce"), multi = qf_runtime_stats_tasks(s, "blas_multi");
    CHECK(multi >= nb * (it - it / 8 - 2) && red <= nb * (3 * it + 10),
          "GCR(8) on %ld blocks, %d iterations: %ld blas_multi tasks (at least %ld: a pair a direction after the "
          "first of a restart) and %ld blas_reduce tasks (at most %ld)",
          nb, it, multi, nb * (it - it / 8 - 2), red, nb * (3 * it + 10));
    printf("ok   GCR(8), %d iterations on %ld blocks: %ld blas_multi and %ld blas_reduce tasks\n", it, nb, multi, red);
    qf_runtime_stats_free(s);
}

/* On one block with the operator joining chains (QF_STENCIL_FUSE=always, test_solver_fused; a GPU's
 * default), the iterations between two residual checks after the first are one chain
 * (qf_krylov_next_iteration): a mixed BiCGStab reading its residual every 10 iterations takes a few chain
 * tasks a check, where one reading it every iteration takes one an iteration and the chains of its
 * reliable updates. The set-up's and the updates' tasks are chains too (a dozen in a solve), so the two
 * are compared by chain tasks an iteration. Task counts, not times. */
static void check_run_chains(problem *pb)
{
    const char *fuse = getenv("QF_STENCIL_FUSE");
    if (!fuse || strcmp(fuse, "always")) return;
    double every_iteration = 0.0; /* chain tasks an iteration when the residual is read every iteration */
    for (int every = 1; every <= 10; every += 9) {
        qf_solver_params p = solver(QF_SOLVER_BICGSTAB, 1, 1e-12, QF_SINGLE);
        p.check_every = every;
        int it;
        qf_runtime_stats *s = counted_solve(pb, p, &it);
        if (!s) return;
        long chains = qf_runtime_stats_tasks(s, "chain");
        double rate = it > 0 ? (double)chains / it : 0.0;
        if (every == 1) {
            every_iteration = rate;
            CHECK(chains >= it, "mixed BiCGStab on one block, residual read every iteration: %ld chain tasks for %d "
                  "iterations (expected one an iteration at least)", chains, it);
        } else {
            CHECK(rate <= 0.5 * every_iteration,
                  "mixed BiCGStab on one block, residual read every %d: %ld chain tasks for %d iterations, %.2f an "
                  "iteration (expected at most half the %.2f of reads every iteration)",
                  every, chains, it, rate, every_iteration);
        }
        printf("ok   mixed BiCGStab on one block, residual read every %d: %d iterations in %ld chain tasks\n", every, it,
               chains);
        qf_runtime_stats_free(s);
    }
}

static void test_edge_cases(problem *pb)
{
    qf_dirac_params dp = qf_dirac_default_params(0.11);
    dp.csw = 1.0;
    qf_dirac *d;
    qf_linop *M;
    qf_field *b, *x;
    qf_dirac_create(&d, pb->u, &dp, QF_SCHUR_ASYMMETRIC);
    qf_dirac_linop(d, &M);
    qf_field_create(&b, &pb->lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_field_create(&x, &pb->lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_solver_params p = qf_solver_default_params();
    qf_solver_result res;

    /* zero source: x = 0 at once */
    qf_field_import(x, pb->b);
    CHECK(qf_solve(M, x, b, &p, &res) == QF_SUCCESS && res.converged && res.iterations == 0,
          "zero source: %s", qf_last_error());
    qf_field_export(x, pb->x);
    CHECK(ref_norm2(pb->L, pb->x, -1) == 0.0, "zero source: the solution is not zero");

    /* too few iterations: a clear failure with the best residual */
    qf_field_import(b, pb->b);
    qf_blas_axpby(0.0, NULL, 0.0, x, -1);
    p.max_iter = 3;
    p.check_every = 1;
    CHECK(qf_solve(M, x, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "did not converge") &&
              res.residual > 0.0,
          "non-convergence: %s", qf_last_error());

    /* bad parameters and operands */
    p = qf_solver_default_params();
    p.tol = 0.0;
    CHECK(qf_solve(M, x, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "tolerance"), "tol 0: %s", qf_last_error());
    p.tol = 1e-300; /* below the rounding of the true residual: refused, not iterated into a NaN */
    CHECK(qf_solve(M, x, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "between 1e-14"), "tol 1e-300: %s",
          qf_last_error());
    p = qf_solver_default_params();
    CHECK(qf_solve(M, b, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "same field"), "x == b: %s",
          qf_last_error());
    qf_solver_kind k;
    CHECK(qf_solver_parse("gmres", &k) == QF_ERROR && strstr(qf_last_error(), "gcr"), "parse: %s", qf_last_error());

    /* the residual's cadence: the method's where none is given, never past the iteration limit */
    p = qf_solver_default_params();
    CHECK(qf_solver_check_every(&p) == 10, "BiCGStab's cadence %d, not 10", qf_solver_check_every(&p));
    p.kind = QF_SOLVER_MG;
    CHECK(qf_solver_check_every(&p) == 1, "multigrid's cadence %d, not every K-cycle", qf_solver_check_every(&p));
    p.kind = QF_SOLVER_GCR;
    p.max_iter = 4;
    CHECK(qf_solver_check_every(&p) == 4, "GCR's cadence %d past max_iter 4", qf_solver_check_every(&p));
    p.check_every = 3;
    CHECK(qf_solver_check_every(&p) == 3, "a given cadence 3 became %d", qf_solver_check_every(&p));
    /* and the fall between high-precision updates */
    p = qf_solver_default_params();
    CHECK(qf_solver_delta(&p) == 0.1, "BiCGStab's delta %g, not 0.1", qf_solver_delta(&p));
    p.kind = QF_SOLVER_MG;
    CHECK(qf_solver_delta(&p) == 1e-3, "multigrid's delta %g, not 1e-3", qf_solver_delta(&p));
    p.delta = 0.3;
    CHECK(qf_solver_delta(&p) == 0.3, "a given delta 0.3 became %g", qf_solver_delta(&p));
    p = qf_solver_default_params();
    p.delta = -0.5;
    CHECK(qf_solve(M, x, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "delta -0.5"), "delta -0.5: %s",
          qf_last_error());
    p = qf_solver_default_params();
    p.check_every = -1;
    CHECK(qf_solve(M, x, b, &p, &res) == QF_ERROR && strstr(qf_last_error(), "check_every -1"), "check_every -1: %s",
          qf_last_error());

    qf_field_destroy(b);
    qf_field_destroy(x);
    qf_linop_destroy(M);
    qf_dirac_destroy(d);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;

    static const int L1[4] = {4, 4, 4, 4}, B1[4] = {1, 1, 2, 2};
    static const int L2[4] = {4, 4, 4, 8}, B2[4] = {2, 1, 1, 2};
    problem pb;
    problem_init(&pb, L1, B1, 11);
    /* every method in double, full and even-odd, with and without clover */
    static const qf_solver_kind kinds[] = {QF_SOLVER_CGNR, QF_SOLVER_CGNE, QF_SOLVER_BICGSTAB, QF_SOLVER_GCR,
                                           QF_SOLVER_MR};
    for (int i = 0; i < 5; i++)
        for (int eo = 0; eo < 2; eo++)
            for (int csw = 0; csw < 2; csw++)
                solve_and_check(&pb, solver(kinds[i], eo, 1e-12, QF_DOUBLE), QF_SCHUR_ASYMMETRIC, csw, QF_DOUBLE);
    qf_solver_params gcr_mr = solver(QF_SOLVER_GCR, 1, 1e-12, QF_DOUBLE);
    gcr_mr.gcr_inner_mr = 4;
    solve_and_check(&pb, gcr_mr, QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    for (int i = 0; i < 4; i++)
        solve_and_check(&pb, solver(kinds[i], 1, 1e-12, QF_DOUBLE), QF_SCHUR_SYMMETRIC, 1.0, QF_DOUBLE);
    /* mixed precision: single iterations, double corrections, to 1e-12 */
    for (int i = 0; i < 5; i++)
        solve_and_check(&pb, solver(kinds[i], 1, 1e-12, QF_SINGLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    gcr_mr.sloppy = QF_SINGLE;
    solve_and_check(&pb, gcr_mr, QF_SCHUR_SYMMETRIC, 1.0, QF_DOUBLE);
    solve_and_check(&pb, solver(QF_SOLVER_BICGSTAB, 0, 1e-12, QF_SINGLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    /* a single-precision operator, to its precision */
    solve_and_check(&pb, solver(QF_SOLVER_BICGSTAB, 1, 1e-5, QF_DOUBLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_SINGLE);
    solve_and_check(&pb, solver(QF_SOLVER_GCR, 1, 1e-5, QF_SINGLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_SINGLE);
    test_edge_cases(&pb);
    check_gcr_tasks(&pb);

    /* the same solve on other block grids: iterations within 1, solutions within the tolerance; on one
     * block each iteration is a chain of tasks (one task where the operator joins chains:
     * QF_STENCIL_FUSE=always, test_solver_fused) */
    static const int grids[2][4] = {{2, 2, 1, 1}, {1, 1, 1, 1}};
    static const qf_solver_kind grid_kinds[] = {QF_SOLVER_CGNR, QF_SOLVER_BICGSTAB, QF_SOLVER_GCR, QF_SOLVER_MR};
    for (int g = 0; g < 2; g++) {
        problem pb2;
        problem_init(&pb2, L1, grids[g], 11);
        /* residual checks every iteration, and (CGNR, BiCGStab) at the default cadence, where on one block
         * the iterations between two checks form a chain */
        for (int i = 0; i < 4; i++)
            for (int mixed = 0; mixed < 2; mixed++)
                for (int every = 1; every >= (i < 2 ? 0 : 1); every--) {
                    qf_solver_params p = solver(grid_kinds[i], 1, 1e-12, mixed ? QF_SINGLE : QF_DOUBLE);
                    p.check_every = every;
                    int n1 = solve_and_check(&pb, p, QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
                    int n2 = solve_and_check(&pb2, p, QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
                    double diff = ref_rel_diff(L1, pb.x, pb2.x, -1);
                    CHECK(abs(n1 - n2) <= 1 && diff <= 1e-10,
                          "%s%s, residual read every %d: block grids 1 1 2 2 and %d %d %d %d give %d and %d iterations, "
                          "solutions %.2e apart",
                          qf_solver_name(p.kind), mixed ? " mixed" : "", qf_solver_check_every(&p), grids[g][0],
                          grids[g][1], grids[g][2], grids[g][3], n1, n2, diff);
                }
        if (g == 1) check_run_chains(&pb2);
        problem_free(&pb2);
    }
    problem_free(&pb);

    problem_init(&pb, L2, B2, 12);
    solve_and_check(&pb, solver(QF_SOLVER_BICGSTAB, 1, 1e-12, QF_DOUBLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    solve_and_check(&pb, solver(QF_SOLVER_CGNR, 0, 1e-12, QF_DOUBLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    solve_and_check(&pb, solver(QF_SOLVER_GCR, 1, 1e-12, QF_SINGLE), QF_SCHUR_ASYMMETRIC, 1.0, QF_DOUBLE);
    problem_free(&pb);

    qf_runtime_shutdown();
    return qf_check_summary();
}
