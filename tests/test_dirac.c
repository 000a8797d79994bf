/* The Wilson-clover operator as task graphs (include/quarkflow/qf_dirac.h) against the independent
 * reference of dirac_reference.c (global loops, double precision), and against identities.
 *
 * Ring 1, for five lattices (4^4, 4 4 4 8, 8 4 4 4, 16 4 4 4; 4 4 6 6 on one block only) and two or three block grids each (one
 * block, blocks of extent 2 in some or all directions, blocks spanning the lattice in some directions), every
 * boundary condition (periodic, antiperiodic in t via qf_dirac_default_params, complex phases in
 * three directions; all three on each lattice's first grid, the complex phases on the others),
 * csw 0 and 1.2 (kappa 0.12), both Schur forms and both precisions: the six ops,
 * prepare and reconstruct, each compared with the reference on random SU(3) links (our own and
 * qf_gauge_start's hot start, exported so that both sides use the same links) and random sources.
 * Relative error |out - ref| / |ref| <= 1e-13 in double, 1e-6 in single (the single-precision run
 * imports the same double fields and is judged against the double reference). The output field is
 * filled with a random field first: full ops must overwrite it, even-odd ops and prepare must leave
 * its odd sites bit for bit as they were; even-odd ops and reconstruct (x_even) get inputs whose odd
 * sites are random, which must not matter.
 *
 * Ring 2 on the task graphs alone: <v, M w> = <M^dagger v, w>, M^dagger = g5 M g5, the same for Mhat
 * (both forms), M^dagger M and Mhat^dagger Mhat as products, the Schur identities (b = M x gives
 * prepare(b)_e = Mhat x_e and reconstruct(x_e, b) = x), and gauge covariance under a random SU(3)
 * Omega(x) with complex boundary phases and clover. Also the reference's F against
 * qf_gauge_field_strength; gauge-field inputs (destroyed right after qf_dirac_create, 3-deep faces,
 * single precision for a double operator); a strong clover term (half the csw at which A(x) stops
 * being positive definite somewhere) against the reference, and that csw itself refused; and
 * refused input (precision, lattice, block grid, kind, aliasing).
 *
 * The scheduler comes from STARPU_SCHED; with QF_TEST_REQUIRE_CUDA set the run is skipped (77)
 * without a CUDA worker. */
#include "check.h"
#include "test_start.h"
#include "dirac_reference.h"
#include "quarkflow.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TOL_DOUBLE 1e-13
#define TOL_SINGLE 1e-6
#define MAX_FAIL_PRINTS 40

static int fail_prints;

/* Counts a check; prints a failure (the first MAX_FAIL_PRINTS in full). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void report(int ok, const char *fmt, ...)
{
    if (ok) {
        qf_checks_passed++;
        return;
    }
    qf_checks_failed++;
    if (fail_prints++ >= MAX_FAIL_PRINTS) {
        if (fail_prints == MAX_FAIL_PRINTS + 1) printf("(further failures counted, not printed)\n");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

typedef struct {
    const char *name;
    double phase[4][2];
} bc_t;

enum { NBC = 3 };
static bc_t bcs[NBC];

static void init_bcs(void)
{
    qf_dirac_params def = qf_dirac_default_params(0.12);
    bc_t periodic = {"periodic", {{1, 0}, {1, 0}, {1, 0}, {1, 0}}};
    bc_t anti = {"antiperiodic-t", {{0}}};
    memcpy(anti.phase, def.phase, sizeof anti.phase); /* the default: periodic in space, antiperiodic in t */
    bc_t cplx = {"complex(x e^0.3i, z e^-1.1i, t e^2.5i)",
                 {{cos(0.3), sin(0.3)}, {1, 0}, {cos(-1.1), sin(-1.1)}, {cos(2.5), sin(2.5)}}};
    bcs[0] = periodic;
    bcs[1] = anti;
    bcs[2] = cplx;
    CHECK(def.kappa == 0.12 && def.csw == 0 && def.prec == QF_DOUBLE && def.phase[0][0] == 1 && def.phase[1][0] == 1 &&
              def.phase[2][0] == 1 && def.phase[3][0] == -1 && def.phase[0][1] == 0 && def.phase[1][1] == 0 &&
              def.phase[2][1] == 0 && def.phase[3][1] == 0,
          "qf_dirac_default_params: kappa 0.12, csw 0, double, periodic in space, antiperiodic in t");
}

static const char *form_name(int form) { return form == QF_SCHUR_SYMMETRIC ? "symmetric" : "asymmetric"; }

static size_t sp_bytes(const int L[4]) { return (size_t)ref_volume(L) * REF_SPINOR_REALS * sizeof(double); }
static double *sp_alloc(const int L[4]) { return calloc(1, sp_bytes(L)); }

/* a copy of a rounded to single precision */
static void round_single(const int L[4], const double *a, double *out)
{
    for (int64_t k = 0; k < ref_volume(L) * REF_SPINOR_REALS; k++) out[k] = (double)(float)a[k];
}

/* Where got and want differ most (over the sites of parity): appended to buf. */
static void describe_worst(char *buf, size_t n, const int L[4], const int block[4], const double *got,
                           const double *want, int parity, double tol)
{
    int64_t V = ref_volume(L), worst_site = -1, nbad = 0, on_lat[4] = {0}, on_blk[4] = {0};
    int worst_k = 0;
    double worst = -1, scale = 0;
    for (int64_t i = 0; i < V; i++) {
        if (parity >= 0 && ref_parity_of(i, L) != parity) continue;
        for (int k = 0; k < REF_SPINOR_REALS; k++) scale = fmax(scale, fabs(want[REF_SPINOR_REALS * i + k]));
    }
    for (int64_t i = 0; i < V; i++) {
        if (parity >= 0 && ref_parity_of(i, L) != parity) continue;
        int bad = 0;
        for (int k = 0; k < REF_SPINOR_REALS; k++) {
            double d = fabs(got[REF_SPINOR_REALS * i + k] - want[REF_SPINOR_REALS * i + k]);
            if (d > tol * scale) bad = 1;
            if (d > worst) {
                worst = d;
                worst_site = i;
                worst_k = k;
            }
        }
        nbad += bad;
        if (bad) {
            int x[4];
            ref_coords(i, L, x);
            for (int mu = 0; mu < 4; mu++) {
                on_lat[mu] += x[mu] == 0 || x[mu] == L[mu] - 1;
                on_blk[mu] += x[mu] % block[mu] == 0 || x[mu] % block[mu] == block[mu] - 1;
            }
        }
    }
    if (worst_site < 0) return;
    int x[4];
    ref_coords(worst_site, L, x);
    int s = worst_k / 6, c = (worst_k % 6) / 2;
    const double *g = got + REF_SPINOR_REALS * worst_site + 6 * s + 2 * c;
    const double *w = want + REF_SPINOR_REALS * worst_site + 6 * s + 2 * c;
    size_t len = strlen(buf);
    snprintf(buf + len, n - len,
             "; %lld of %lld sites off; worst at x = (%d %d %d %d) (in-block %d %d %d %d, parity %d) spin %d colour %d: "
             "got (%.10g, %.10g) want (%.10g, %.10g)",
             (long long)nbad, (long long)(parity >= 0 ? V / 2 : V), x[0], x[1], x[2], x[3], x[0] % block[0],
             x[1] % block[1], x[2] % block[2], x[3] % block[3], (x[0] + x[1] + x[2] + x[3]) % 2, s, c, g[0], g[1],
             w[0], w[1]);
    len = strlen(buf);
    snprintf(buf + len, n - len,
             "; of the sites off, on the lattice boundary in x y z t: %lld %lld %lld %lld, on a block face: %lld %lld "
             "%lld %lld",
             (long long)on_lat[0], (long long)on_lat[1], (long long)on_lat[2], (long long)on_lat[3], (long long)on_blk[0],
             (long long)on_blk[1], (long long)on_blk[2], (long long)on_blk[3]);
}

/* Compares got with want: on the sites of parity within tol (relative); with keep != NULL the sites
 * of the other parity must equal keep exactly. Returns the relative error. */
static double compare(const char *cfg, const char *what, const int L[4], const int block[4], const double *got,
                      const double *want, int parity, const double *keep, double tol)
{
    double e = ref_rel_diff(L, got, want, parity);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s: %s: relative error %.3e (tolerance %.0e)", cfg, what, e, tol);
    int ok = e <= tol;
    if (!ok) describe_worst(buf, sizeof buf, L, block, got, want, parity, tol);
    report(ok, "%s", buf);
    if (keep) {
        double k = ref_rel_diff(L, got, keep, 1 - parity);
        snprintf(buf, sizeof buf, "%s: %s: odd sites of the output must keep their values (changed by %.3e relative)",
                 cfg, what, k);
        if (k != 0) describe_worst(buf, sizeof buf, L, block, got, keep, 1 - parity, 0);
        report(k == 0, "%s", buf);
    }
    return e;
}

/* ---- task-graph helpers ---- */

static qf_field *wilson(const qf_lattice *lat, qf_precision prec, const double *init)
{
    qf_field *f = NULL;
    if (qf_field_create(&f, lat, QF_FIELD_WILSON, prec, 0)) {
        report(0, "create Wilson field: %s", qf_last_error());
        return NULL;
    }
    if (init && qf_field_import(f, init)) report(0, "import Wilson field: %s", qf_last_error());
    return f;
}

static void import(qf_field *f, const double *a)
{
    if (qf_field_import(f, a)) report(0, "import: %s", qf_last_error());
}

static void export(const qf_field *f, double *a)
{
    if (qf_field_export(f, a)) report(0, "export: %s", qf_last_error());
}

static qf_dirac *make_dirac(const char *cfg, const qf_field *u, double kappa, double csw, const bc_t *bc,
                            qf_precision prec, int form)
{
    qf_dirac_params p = qf_dirac_default_params(kappa);
    p.csw = csw;
    p.prec = prec;
    memcpy(p.phase, bc->phase, sizeof p.phase);
    qf_dirac *d = NULL;
    if (qf_dirac_create(&d, u, &p, (qf_schur_form)form)) {
        report(0, "%s: qf_dirac_create: %s", cfg, qf_last_error());
        return NULL;
    }
    const qf_lattice *dl = qf_dirac_lattice(d), *ul = qf_field_lattice(u);
    report(dl && !memcmp(dl->global, ul->global, sizeof dl->global) && !memcmp(dl->blocks, ul->blocks, sizeof dl->blocks),
           "%s: qf_dirac_lattice is the gauge field's lattice", cfg);
    const qf_dirac_params *g = qf_dirac_get_params(d);
    report(g && g->kappa == kappa && g->csw == csw && g->prec == prec && !memcmp(g->phase, bc->phase, sizeof g->phase),
           "%s: qf_dirac_get_params returns the parameters", cfg);
    return d;
}

/* ---- one lattice: links, sources and the reference results ---- */

typedef struct {
    int L[4];
    int64_t V;
    const char *links_from;
    double *links;
    double *in, *b, *xe, *fill, *fill_single; /* random sources and the output's previous contents */
    double *ref_op[2][REF_NOPS], *ref_prep[2], *ref_recon;
    double *got;
} problem;

static void problem_init(problem *pb, const int L[4], int hot_start, uint64_t seed)
{
    memset(pb, 0, sizeof *pb);
    memcpy(pb->L, L, sizeof pb->L);
    pb->V = ref_volume(L);
    pb->links = malloc((size_t)pb->V * REF_GAUGE_REALS * sizeof(double));
    ref_rng rng = {seed};
    if (hot_start) {
        /* the project's hot start, exported, so that both sides use identical links */
        pb->links_from = "qf_gauge_start hot";
        qf_lattice lat;
        const int one[4] = {1, 1, 1, 1};
        qf_field *u = NULL;
        if (qf_lattice_init(&lat, L, NULL, one, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
            qf_gauge_start(u, QF_START_HOT, seed, 0.0) || qf_field_export(u, pb->links)) {
            report(0, "hot start on %d %d %d %d: %s", L[0], L[1], L[2], L[3], qf_last_error());
            ref_random_links(&rng, L, pb->links);
        }
        if (u) qf_field_destroy(u);
    } else {
        pb->links_from = "test's random SU(3)";
        ref_random_links(&rng, L, pb->links);
    }
    pb->in = sp_alloc(L);
    pb->b = sp_alloc(L);
    pb->xe = sp_alloc(L);
    pb->fill = sp_alloc(L);
    pb->fill_single = sp_alloc(L);
    pb->got = sp_alloc(L);
    ref_random_spinor(&rng, L, pb->in);
    ref_random_spinor(&rng, L, pb->b);
    ref_random_spinor(&rng, L, pb->xe);
    ref_random_spinor(&rng, L, pb->fill);
    round_single(L, pb->fill, pb->fill_single);
    for (int f = 0; f < 2; f++) {
        for (int op = 0; op < REF_NOPS; op++) pb->ref_op[f][op] = sp_alloc(L);
        pb->ref_prep[f] = sp_alloc(L);
    }
    pb->ref_recon = sp_alloc(L);
}

static void problem_free(problem *pb)
{
    free(pb->links);
    free(pb->in);
    free(pb->b);
    free(pb->xe);
    free(pb->fill);
    free(pb->fill_single);
    free(pb->got);
    for (int f = 0; f < 2; f++) {
        for (int op = 0; op < REF_NOPS; op++) free(pb->ref_op[f][op]);
        free(pb->ref_prep[f]);
    }
    free(pb->ref_recon);
}

/* reference results of every op for one (boundary condition, csw) */
static int problem_reference(problem *pb, const bc_t *bc, double kappa, double csw)
{
    ref_dirac r;
    if (ref_dirac_init(&r, pb->L, pb->links, kappa, csw, bc->phase)) {
        report(0, "reference operator on %d %d %d %d, csw %g: A singular", pb->L[0], pb->L[1], pb->L[2], pb->L[3], csw);
        ref_dirac_free(&r);
        return -1;
    }
    for (int f = 0; f < 2; f++) {
        for (int op = 0; op < REF_NOPS; op++) {
            memcpy(pb->ref_op[f][op], pb->fill, sp_bytes(pb->L));
            ref_dirac_apply(&r, (ref_op)op, (ref_form)f, pb->ref_op[f][op], pb->in);
        }
        memcpy(pb->ref_prep[f], pb->fill, sp_bytes(pb->L));
        ref_dirac_prepare(&r, (ref_form)f, pb->ref_prep[f], pb->b);
    }
    ref_dirac_reconstruct(&r, pb->ref_recon, pb->xe, pb->b);
    ref_dirac_free(&r);
    return 0;
}

/* ---- ring 1: every op against the reference on one block grid ---- */

static double worst_err[2];

static void test_grid(problem *pb, const int grid[4], const bc_t *bc, double kappa, double csw)
{
    const int *L = pb->L;
    qf_lattice lat;
    if (qf_lattice_init(&lat, L, NULL, grid, 0, 1, 1)) {
        report(0, "lattice %d %d %d %d blocks %d %d %d %d: %s", L[0], L[1], L[2], L[3], grid[0], grid[1], grid[2],
               grid[3], qf_last_error());
        return;
    }
    qf_field *u = NULL;
    if (qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0)) {
        report(0, "create gauge field: %s", qf_last_error());
        return;
    }
    import(u, pb->links);
    double group_worst[2] = {0, 0};
    int group_failed = qf_checks_failed, napplied = 0;
    for (int pi = 0; pi < 2; pi++) {
        qf_precision prec = pi ? QF_SINGLE : QF_DOUBLE;
        double tol = pi ? TOL_SINGLE : TOL_DOUBLE;
        const double *keep = pi ? pb->fill_single : pb->fill;
        qf_field *in = wilson(&lat, prec, pb->in), *b = wilson(&lat, prec, pb->b), *xe = wilson(&lat, prec, pb->xe),
                 *out = wilson(&lat, prec, NULL);
        if (!in || !b || !xe || !out) return;
        for (int form = 0; form < 2; form++) {
            char cfg[400];
            snprintf(cfg, sizeof cfg, "lattice %d %d %d %d, blocks %d %d %d %d (extents %d %d %d %d), BC %s, %s, csw %g, "
                     "kappa %g, %s form, links from %s",
                     L[0], L[1], L[2], L[3], grid[0], grid[1], grid[2], grid[3], lat.block[0], lat.block[1],
                     lat.block[2], lat.block[3], bc->name, qf_precision_name(prec), csw, kappa, form_name(form),
                     pb->links_from);
            qf_dirac *d = make_dirac(cfg, u, kappa, csw, bc, prec, form);
            if (!d) continue;
            for (int op = 0; op < REF_NOPS; op++) {
                int eo = ref_op_is_eo((ref_op)op);
                char what[64];
                snprintf(what, sizeof what, "op %s", qf_dirac_op_name((qf_dirac_op)op));
                import(out, pb->fill);
                if (qf_dirac_apply(d, (qf_dirac_op)op, out, in)) {
                    report(0, "%s: %s: qf_dirac_apply failed: %s", cfg, what, qf_last_error());
                    continue;
                }
                export(out, pb->got);
                double e = compare(cfg, what, L, lat.block, pb->got, pb->ref_op[form][op], eo ? 0 : -1,
                                   eo ? keep : NULL, tol);
                group_worst[pi] = fmax(group_worst[pi], e);
                napplied++;
            }
            import(out, pb->fill);
            if (qf_dirac_prepare(d, out, b)) {
                report(0, "%s: qf_dirac_prepare failed: %s", cfg, qf_last_error());
            } else {
                export(out, pb->got);
                group_worst[pi] = fmax(group_worst[pi], compare(cfg, "prepare", L, lat.block, pb->got,
                                                                pb->ref_prep[form], 0, keep, tol));
                napplied++;
            }
            import(out, pb->fill);
            if (qf_dirac_reconstruct(d, out, xe, b)) {
                report(0, "%s: qf_dirac_reconstruct failed: %s", cfg, qf_last_error());
            } else {
                export(out, pb->got);
                group_worst[pi] = fmax(group_worst[pi], compare(cfg, "reconstruct (x_even with random odd sites)", L,
                                                                lat.block, pb->got, pb->ref_recon, -1, NULL, tol));
                napplied++;
            }
            qf_dirac_destroy(d);
        }
        qf_field_destroy(in);
        qf_field_destroy(b);
        qf_field_destroy(xe);
        qf_field_destroy(out);
    }
    qf_field_destroy(u);
    for (int pi = 0; pi < 2; pi++) worst_err[pi] = fmax(worst_err[pi], group_worst[pi]);
    printf("%s lattice %d %d %d %d blocks %d %d %d %d, BC %s, csw %g: %d applications (6 ops + prepare + reconstruct "
           "x 2 forms x 2 precisions), worst relative error double %.1e single %.1e\n",
           qf_checks_failed == group_failed ? "ok  " : "FAIL", L[0], L[1], L[2], L[3], grid[0], grid[1], grid[2],
           grid[3], bc->name, csw, napplied, group_worst[0], group_worst[1]);
    fflush(stdout);
}

/* The reference's F against the project's task graph (tested against its own reference in
 * test_observables): the clover terms of both sides come from the same F. */
static void test_field_strength(problem *pb)
{
    const int one[4] = {1, 1, 1, 1};
    qf_lattice lat;
    qf_field *u = NULL, *f = NULL;
    double *fr = malloc((size_t)pb->V * 108 * sizeof(double)), *fg = malloc((size_t)pb->V * 108 * sizeof(double));
    if (qf_lattice_init(&lat, pb->L, NULL, one, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
        qf_field_create(&f, &lat, QF_FIELD_FIELD_STRENGTH, QF_DOUBLE, 0) || qf_field_import(u, pb->links) ||
        qf_gauge_field_strength(u, f) || qf_field_export(f, fg)) {
        report(0, "field strength as a task graph: %s", qf_last_error());
    } else {
        ref_field_strength(pb->L, pb->links, fr);
        double d = 0, s = 0;
        for (int64_t k = 0; k < pb->V * 108; k++) {
            d = fmax(d, fabs(fr[k] - fg[k]));
            s = fmax(s, fabs(fr[k]));
        }
        report(d <= 1e-13 * s, "lattice %d %d %d %d: reference F_munu = qf_gauge_field_strength (max diff %.1e, max |F| %.2f)",
               pb->L[0], pb->L[1], pb->L[2], pb->L[3], d, s);
    }
    if (u) qf_field_destroy(u);
    if (f) qf_field_destroy(f);
    free(fr);
    free(fg);
}

/* ---- ring 2: identities on the task graphs alone ---- */

static void apply_export(qf_dirac *d, qf_dirac_op op, qf_field *out, const qf_field *in, double *res, const char *cfg)
{
    if (qf_dirac_apply(d, op, out, in)) report(0, "%s: apply %s: %s", cfg, qf_dirac_op_name(op), qf_last_error());
    export(out, res);
}

static void test_identities(const problem *pb, const int grid[4], const bc_t *bc, double kappa, double csw,
                            qf_precision prec)
{
    const int *L = pb->L;
    int64_t V = pb->V;
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-6;
    qf_lattice lat;
    qf_lattice_init(&lat, L, NULL, grid, 0, 1, 1);
    ref_rng rng = {99991};
    double *v = sp_alloc(L), *w = sp_alloc(L), *a = sp_alloc(L), *b = sp_alloc(L), *c = sp_alloc(L), *dd = sp_alloc(L);
    double *omega = malloc((size_t)V * 18 * sizeof(double)), *lg = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double));
    ref_random_spinor(&rng, L, v);
    ref_random_spinor(&rng, L, w);
    ref_random_gauge_transform(&rng, L, omega);
    ref_gauge_transform_links(L, omega, pb->links, lg);
    if (prec == QF_SINGLE) { /* exact inputs for the inner products */
        round_single(L, v, v);
        round_single(L, w, w);
    }
    qf_field *u = NULL, *ug = NULL;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    qf_field_create(&ug, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    import(u, pb->links);
    import(ug, lg);
    qf_field *fv = wilson(&lat, prec, v), *fw = wilson(&lat, prec, w), *fo = wilson(&lat, prec, NULL),
             *ft = wilson(&lat, prec, NULL);
    int failed_before = qf_checks_failed;
    double worst = 0;
    for (int form = 0; form < 2; form++) {
        char cfg[300];
        snprintf(cfg, sizeof cfg, "identities: lattice %d %d %d %d, blocks %d %d %d %d, BC %s, %s, csw %g, %s form", L[0],
                 L[1], L[2], L[3], grid[0], grid[1], grid[2], grid[3], bc->name, qf_precision_name(prec), csw,
                 form_name(form));
        qf_dirac *d = make_dirac(cfg, u, kappa, csw, bc, prec, form), *dg = make_dirac(cfg, ug, kappa, csw, bc, prec, form);
        if (!d || !dg) continue;
        /* <v, op w> = <op^dagger v, w>, and the products */
        static const qf_dirac_op ops[2][3] = {{QF_OP_M, QF_OP_MDAG, QF_OP_MDAGM},
                                              {QF_OP_MHAT, QF_OP_MHAT_DAG, QF_OP_MHAT_DAGMHAT}};
        for (int k = 0; k < 2; k++) {
            int par = k ? 0 : -1;
            apply_export(d, ops[k][0], fo, fw, a, cfg); /* op w */
            apply_export(d, ops[k][1], fo, fv, b, cfg); /* op^dag v */
            double complex l = ref_dot(L, v, a, par), r = ref_dot(L, b, w, par);
            double e = cabs(l - r) / sqrt(ref_norm2(L, v, par) * ref_norm2(L, a, par));
            worst = fmax(worst, e);
            report(e <= tol, "%s: <v, %s w> = <%s v, w> (relative %.2e)", cfg, qf_dirac_op_name(ops[k][0]),
                   qf_dirac_op_name(ops[k][1]), e);
            /* op^dag op w = op^dag (op w), applied as two graph calls */
            import(ft, a);
            apply_export(d, ops[k][1], fo, ft, c, cfg);
            apply_export(d, ops[k][2], fo, fw, dd, cfg);
            e = ref_rel_diff(L, dd, c, par);
            worst = fmax(worst, e);
            report(e <= tol, "%s: %s w = %s (%s w) (relative %.2e)", cfg, qf_dirac_op_name(ops[k][2]),
                   qf_dirac_op_name(ops[k][1]), qf_dirac_op_name(ops[k][0]), e);
            /* g5 M g5 = M^dagger; for Mhat only in the asymmetric form (or without clover) */
            if (k == 0 || form == QF_SCHUR_ASYMMETRIC || csw == 0) {
                ref_apply_gamma5(L, c, w);
                import(ft, c);
                apply_export(d, ops[k][0], fo, ft, c, cfg);
                ref_apply_gamma5(L, c, c);
                apply_export(d, ops[k][1], fo, fw, dd, cfg);
                e = ref_rel_diff(L, c, dd, par);
                worst = fmax(worst, e);
                report(e <= tol, "%s: g5 %s g5 w = %s w (relative %.2e)", cfg, qf_dirac_op_name(ops[k][0]),
                       qf_dirac_op_name(ops[k][1]), e);
            }
        }
        /* Schur: b = M w; prepare(b)_e = Mhat w_e; reconstruct(w_e, b) = w */
        apply_export(d, QF_OP_M, fo, fw, a, cfg);
        import(ft, a); /* ft = b */
        if (qf_dirac_prepare(d, fo, ft)) report(0, "%s: prepare: %s", cfg, qf_last_error());
        export(fo, b);
        apply_export(d, QF_OP_MHAT, fo, fw, c, cfg);
        double e = ref_rel_diff(L, b, c, 0);
        worst = fmax(worst, e);
        report(e <= tol, "%s: prepare(M x)_e = Mhat x_e (relative %.2e)", cfg, e);
        if (qf_dirac_reconstruct(d, fo, fw, ft)) report(0, "%s: reconstruct: %s", cfg, qf_last_error());
        export(fo, c);
        e = ref_rel_diff(L, c, w, -1);
        worst = fmax(worst, e);
        report(e <= tol * 10, "%s: reconstruct(x_e, M x) = x (relative %.2e)", cfg, e);
        /* gauge covariance: op[U^Omega] (Omega w) = Omega (op[U] w) */
        ref_gauge_transform_spinor(L, omega, w, c);
        qf_field *fwg = wilson(&lat, prec, c);
        for (int op = 0; op <= REF_NOPS; op++) { /* REF_NOPS: prepare */
            int par = op < REF_NOPS && !ref_op_is_eo((ref_op)op) ? -1 : 0;
            const char *name = op == REF_NOPS ? "prepare" : qf_dirac_op_name((qf_dirac_op)op);
            if (op == REF_NOPS) {
                if (qf_dirac_prepare(d, fo, fw) != 0) report(0, "%s: prepare: %s", cfg, qf_last_error());
                export(fo, a);
                if (qf_dirac_prepare(dg, fo, fwg) != 0) report(0, "%s: prepare: %s", cfg, qf_last_error());
                export(fo, b);
            } else {
                apply_export(d, (qf_dirac_op)op, fo, fw, a, cfg);
                apply_export(dg, (qf_dirac_op)op, fo, fwg, b, cfg);
            }
            ref_gauge_transform_spinor(L, omega, a, c);
            e = ref_rel_diff(L, b, c, par);
            worst = fmax(worst, e);
            report(e <= tol * 10, "%s: gauge covariance of %s (relative %.2e)", cfg, name, e);
        }
        qf_field_destroy(fwg);
        qf_dirac_destroy(d);
        qf_dirac_destroy(dg);
    }
    printf("%s identities (adjoints, products, g5-hermiticity, Schur, gauge covariance) lattice %d %d %d %d blocks %d %d "
           "%d %d, BC %s, %s, csw %g, both forms: worst relative %.1e\n",
           qf_checks_failed == failed_before ? "ok  " : "FAIL", L[0], L[1], L[2], L[3], grid[0], grid[1], grid[2],
           grid[3], bc->name, qf_precision_name(prec), csw, worst);
    qf_field_destroy(fv);
    qf_field_destroy(fw);
    qf_field_destroy(fo);
    qf_field_destroy(ft);
    qf_field_destroy(u);
    qf_field_destroy(ug);
    free(v);
    free(w);
    free(a);
    free(b);
    free(c);
    free(dd);
    free(omega);
    free(lg);
}

/* ---- gauge-field inputs: precision, face depth, lifetime ---- */

/* One operator built from gauge field u (then destroyed when destroy_gauge), all ops against the
 * reference r, in double precision. */
static void check_ops_against(const char *cfg, problem *pb, const qf_lattice *lat, qf_field *u, int destroy_gauge,
                              const bc_t *bc, double kappa, double csw, int form, const ref_dirac *r, double tol)
{
    qf_dirac *d = make_dirac(cfg, u, kappa, csw, bc, QF_DOUBLE, form);
    if (destroy_gauge) qf_field_destroy(u);
    if (!d) return;
    qf_field *in = wilson(lat, QF_DOUBLE, pb->in), *out = wilson(lat, QF_DOUBLE, NULL);
    double *want = sp_alloc(pb->L), worst = 0;
    for (int op = 0; op < REF_NOPS; op++) {
        int eo = ref_op_is_eo((ref_op)op);
        char what[64];
        snprintf(what, sizeof what, "op %s", qf_dirac_op_name((qf_dirac_op)op));
        memcpy(want, pb->fill, sp_bytes(pb->L));
        ref_dirac_apply(r, (ref_op)op, (ref_form)form, want, pb->in);
        import(out, pb->fill);
        if (qf_dirac_apply(d, (qf_dirac_op)op, out, in)) {
            report(0, "%s: %s: %s", cfg, what, qf_last_error());
            continue;
        }
        export(out, pb->got);
        worst = fmax(worst, compare(cfg, what, pb->L, lat->block, pb->got, want, eo ? 0 : -1, eo ? pb->fill : NULL, tol));
    }
    printf("%s %s: 6 ops, worst relative error %.1e\n", worst <= tol ? "ok  " : "FAIL", cfg, worst);
    free(want);
    qf_field_destroy(in);
    qf_field_destroy(out);
    qf_dirac_destroy(d);
}

static void test_gauge_inputs(problem *pb, const int grid[4])
{
    const int *L = pb->L;
    const double kappa = 0.12, csw = 1.2;
    const bc_t *bc = &bcs[2];
    qf_lattice lat;
    qf_lattice_init(&lat, L, NULL, grid, 0, 1, 1);
    char cfg[300];
    ref_dirac r;
    /* a gauge field that is destroyed right after qf_dirac_create */
    qf_field *u = NULL;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    import(u, pb->links);
    ref_dirac_init(&r, L, pb->links, kappa, csw, bc->phase);
    snprintf(cfg, sizeof cfg, "lattice %d %d %d %d, blocks %d %d %d %d, BC %s, double, csw %g, symmetric form, gauge "
             "field destroyed after qf_dirac_create", L[0], L[1], L[2], L[3], grid[0], grid[1], grid[2], grid[3],
             bc->name, csw);
    check_ops_against(cfg, pb, &lat, u, 1, bc, kappa, csw, QF_SCHUR_SYMMETRIC, &r, TOL_DOUBLE);
    /* a gauge field with 3-deep faces (blocks of extent >= 3: one block) */
    const int one[4] = {1, 1, 1, 1};
    qf_lattice lat1;
    qf_lattice_init(&lat1, L, NULL, one, 0, 1, 1);
    if (qf_field_create(&u, &lat1, QF_FIELD_GAUGE, QF_DOUBLE, 3) == 0) {
        import(u, pb->links);
        snprintf(cfg, sizeof cfg, "lattice %d %d %d %d, blocks 1 1 1 1, BC %s, double, csw %g, asymmetric form, "
                 "gauge field with 3-deep faces", L[0], L[1], L[2], L[3], bc->name, csw);
        check_ops_against(cfg, pb, &lat1, u, 0, bc, kappa, csw, QF_SCHUR_ASYMMETRIC, &r, TOL_DOUBLE);
        qf_field_destroy(u);
    } else {
        report(0, "create a gauge field with 3-deep faces: %s", qf_last_error());
    }
    ref_dirac_free(&r);
    /* a single-precision gauge field for a double-precision operator, against the reference on the
     * rounded links: the hops exactly (csw 0); with clover to 1e-6, since F is then computed from links
     * that are unitary to single precision only (qf_gauge_field_strength's transports assume
     * U^dagger U = 1; test_observables checks F of single links to 1e-5) */
    double *rounded = malloc((size_t)pb->V * REF_GAUGE_REALS * sizeof(double));
    for (int64_t k = 0; k < pb->V * REF_GAUGE_REALS; k++) rounded[k] = (double)(float)pb->links[k];
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_SINGLE, 0);
    import(u, pb->links);
    for (int ci = 0; ci < 2; ci++) {
        double c = ci ? csw : 0.0;
        ref_dirac_init(&r, L, rounded, kappa, c, bc->phase);
        snprintf(cfg, sizeof cfg, "lattice %d %d %d %d, blocks %d %d %d %d, BC %s, double operator, csw %g, symmetric "
                 "form, single-precision gauge field (reference on the rounded links)", L[0], L[1], L[2], L[3], grid[0],
                 grid[1], grid[2], grid[3], bc->name, c);
        check_ops_against(cfg, pb, &lat, u, 0, bc, kappa, c, QF_SCHUR_SYMMETRIC, &r, ci ? TOL_SINGLE : TOL_DOUBLE);
        ref_dirac_free(&r);
    }
    qf_field_destroy(u);
    free(rounded);
}

/* ---- strong clover: near the csw where A stops being positive definite ---- */

/* 1 when the hermitian 12x12 a is positive definite (plain Cholesky, pivots > 0) */
static int positive_definite(double complex a[12][12])
{
    double complex l[12][12] = {{0}};
    for (int j = 0; j < 12; j++) {
        double d = creal(a[j][j]);
        for (int k = 0; k < j; k++) d -= creal(l[j][k] * conj(l[j][k]));
        if (!(d > 0)) return 0;
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < 12; i++) {
            double complex s = a[i][j];
            for (int k = 0; k < j; k++) s -= l[i][k] * conj(l[j][k]);
            l[i][j] = s / l[j][j];
        }
    }
    return 1;
}

static int all_positive_definite(const int L[4], const double *f, double kappa_csw)
{
    double complex a[12][12];
    for (int64_t i = 0; i < ref_volume(L); i++) {
        ref_clover_site(f + 108 * i, kappa_csw, a);
        if (!positive_definite(a)) return 0;
    }
    return 1;
}

static void test_strong_clover(problem *pb)
{
    const int *L = pb->L, one[4] = {1, 1, 1, 1};
    const double kappa = 0.12;
    double *f = malloc((size_t)pb->V * 108 * sizeof(double));
    ref_field_strength(L, pb->links, f);
    /* bisect for the csw at which the smallest eigenvalue of A(x) on some site crosses zero */
    double lo = 0, hi = 1;
    while (all_positive_definite(L, f, kappa * hi) && hi < 1e6) {
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 200 && hi - lo > 4e-16 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (all_positive_definite(L, f, kappa * mid)) lo = mid;
        else hi = mid;
    }
    free(f);
    qf_lattice lat;
    qf_lattice_init(&lat, L, NULL, one, 0, 1, 1);
    qf_field *u = NULL;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    import(u, pb->links);
    /* half way: a strong but well-conditioned clover term, against the reference */
    ref_dirac r;
    char cfg[300];
    double csw_half = 0.5 * lo;
    ref_dirac_init(&r, L, pb->links, kappa, csw_half, bcs[1].phase);
    snprintf(cfg, sizeof cfg, "lattice %d %d %d %d, blocks 1 1 1 1, BC %s, double, strong clover csw %.6g (half the "
             "csw %.6g where A(x) becomes singular), asymmetric form", L[0], L[1], L[2], L[3], bcs[1].name, csw_half, lo);
    check_ops_against(cfg, pb, &lat, u, 0, &bcs[1], kappa, csw_half, QF_SCHUR_ASYMMETRIC, &r, 1e-12);
    ref_dirac_free(&r);
    /* at the singular point: refused with a message */
    qf_dirac_params p = qf_dirac_default_params(kappa);
    p.csw = lo;
    qf_dirac *d = NULL;
    int rc = qf_dirac_create(&d, u, &p, QF_SCHUR_SYMMETRIC);
    const char *msg = qf_last_error();
    report(rc == QF_ERROR && d == NULL && msg && msg[0],
           "lattice %d %d %d %d: csw %.17g makes A(x) numerically singular on some site (smallest eigenvalue ~1e-16): "
           "qf_dirac_create should fail with a message, returned %d", L[0], L[1], L[2], L[3], lo, rc);
    if (rc == QF_ERROR) printf("  refused as expected: csw %.17g (A singular): %s\n", lo, msg);
    if (d) qf_dirac_destroy(d);
    /* beyond it A is indefinite but invertible: the header promises a failure only for a singular A */
    p.csw = 1.5 * lo;
    rc = qf_dirac_create(&d, u, &p, QF_SCHUR_SYMMETRIC);
    printf("  note: csw %.6g (A indefinite on some site, still invertible) is %s%s\n", p.csw,
           rc ? "refused: " : "accepted", rc ? qf_last_error() : "");
    if (d) qf_dirac_destroy(d);
    qf_field_destroy(u);
}

/* ---- refused input ---- */

static void expect_error(int rc, const char *what)
{
    const char *msg = qf_last_error();
    report(rc == QF_ERROR && msg && msg[0], "%s: expected QF_ERROR with a message, got %d (message '%s')", what, rc,
           msg ? msg : "(null)");
    if (rc == QF_ERROR) printf("  refused as expected: %s: %s\n", what, msg ? msg : "(null)");
}

static void test_errors(problem *pb)
{
    const int *L = pb->L;
    const int one[4] = {1, 1, 1, 1}, two[4] = {2, 2, 1, 1}, other_dims[4] = {4, 4, 4, 8};
    qf_lattice lat, lat_blocks, lat_other;
    qf_lattice_init(&lat, L, NULL, one, 0, 1, 1);
    qf_lattice_init(&lat_blocks, L, NULL, two, 0, 1, 1);
    qf_lattice_init(&lat_other, other_dims, NULL, one, 0, 1, 1);
    qf_field *u = NULL, *stag = NULL, *u_single = NULL;
    qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0);
    qf_field_create(&u_single, &lat, QF_FIELD_GAUGE, QF_SINGLE, 0);
    qf_field_create(&stag, &lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0);
    import(u, pb->links);
    qf_field *in = wilson(&lat, QF_DOUBLE, pb->in), *out = wilson(&lat, QF_DOUBLE, NULL),
             *in_single = wilson(&lat, QF_SINGLE, pb->in), *out_single = wilson(&lat, QF_SINGLE, NULL),
             *in_blocks = wilson(&lat_blocks, QF_DOUBLE, pb->in), *in_other = wilson(&lat_other, QF_DOUBLE, NULL),
             *b = wilson(&lat, QF_DOUBLE, pb->b);
    qf_dirac *d = NULL;
    qf_dirac_params dp = qf_dirac_default_params(0.12);
    expect_error(qf_dirac_create(&d, in, &dp, QF_SCHUR_ASYMMETRIC), "create on a Wilson field");
    if (d) qf_dirac_destroy(d);
    d = make_dirac("errors", u, 0.12, 1.2, &bcs[2], QF_DOUBLE, QF_SCHUR_SYMMETRIC);
    if (!d) return;
    expect_error(qf_dirac_apply(d, QF_OP_M, out, in_single), "apply M: single-precision input, double operator");
    expect_error(qf_dirac_apply(d, QF_OP_M, out_single, in), "apply M: single-precision output, double operator");
    expect_error(qf_dirac_apply(d, QF_OP_MHAT, out_single, in_single), "apply Mhat: single fields, double operator");
    expect_error(qf_dirac_apply(d, QF_OP_M, out, in_other), "apply M: input on lattice 4 4 4 8");
    expect_error(qf_dirac_apply(d, QF_OP_M, in_other, in), "apply M: output on lattice 4 4 4 8");
    expect_error(qf_dirac_apply(d, QF_OP_MDAGM, out, in_blocks), "apply MdagM: input with another block grid");
    expect_error(qf_dirac_apply(d, QF_OP_M, out, u), "apply M: gauge field as input");
    expect_error(qf_dirac_apply(d, QF_OP_M, stag, in), "apply M: staggered field as output");
    for (int op = 0; op < REF_NOPS; op++) {
        char what[80];
        snprintf(what, sizeof what, "apply %s: the same field as input and output", qf_dirac_op_name((qf_dirac_op)op));
        expect_error(qf_dirac_apply(d, (qf_dirac_op)op, in, in), what);
    }
    expect_error(qf_dirac_prepare(d, b, b), "prepare: bhat and b the same field");
    expect_error(qf_dirac_prepare(d, out, in_single), "prepare: single-precision b");
    expect_error(qf_dirac_reconstruct(d, b, in, b), "reconstruct: x and b the same field");
    expect_error(qf_dirac_reconstruct(d, in, in, b), "reconstruct: x and x_even the same field");
    expect_error(qf_dirac_reconstruct(d, out, stag, b), "reconstruct: staggered x_even");
    expect_error(qf_dirac_reconstruct(d, out, in, in_blocks), "reconstruct: b with another block grid");
    /* the operator still works after the refusals, and its inputs are intact */
    if (problem_reference(pb, &bcs[2], 0.12, 1.2) == 0) {
        import(out, pb->fill);
        if (qf_dirac_apply(d, QF_OP_MHAT, out, in)) report(0, "apply after refusals: %s", qf_last_error());
        export(out, pb->got);
        compare("errors: lattice 4 4 4 4, blocks 1 1 1 1, complex BC, double, csw 1.2, symmetric form",
                "Mhat after the refused calls", L, lat.block, pb->got, pb->ref_op[1][REF_MHAT], 0, pb->fill, TOL_DOUBLE);
    }
    printf("flops by qf_dirac_flops (csw 1.2, symmetric): M %.4g, MdagM %.4g, Mhat %.4g, Mhat_dag_Mhat %.4g\n",
           qf_dirac_flops(d, QF_OP_M), qf_dirac_flops(d, QF_OP_MDAGM), qf_dirac_flops(d, QF_OP_MHAT),
           qf_dirac_flops(d, QF_OP_MHAT_DAGMHAT));
    report(qf_dirac_flops(d, QF_OP_M) >= 1320.0 * pb->V && qf_dirac_flops(d, QF_OP_MHAT) >= 1320.0 * pb->V,
           "qf_dirac_flops counts at least the 1320 dslash flops a site");
    for (int op = 0; op < REF_NOPS; op++)
        for (int op2 = 0; op2 < op; op2++)
            report(qf_dirac_op_name((qf_dirac_op)op)[0] &&
                       strcmp(qf_dirac_op_name((qf_dirac_op)op), qf_dirac_op_name((qf_dirac_op)op2)),
                   "qf_dirac_op_name: distinct non-empty names (%s, %s)", qf_dirac_op_name((qf_dirac_op)op),
                   qf_dirac_op_name((qf_dirac_op)op2));
    qf_dirac_destroy(d);
    qf_field_destroy(u);
    qf_field_destroy(u_single);
    qf_field_destroy(stag);
    qf_field_destroy(in);
    qf_field_destroy(out);
    qf_field_destroy(in_single);
    qf_field_destroy(out_single);
    qf_field_destroy(in_blocks);
    qf_field_destroy(in_other);
    qf_field_destroy(b);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;
    double t0 = qf_wtime();
    init_bcs();
    const double kappa = 0.12, csws[2] = {0.0, 1.2};

    static const struct {
        int L[4];
        int hot;
        uint64_t seed;
        int ngrids;
        int grids[3][4];
    } cases[] = {
        {{4, 4, 4, 4}, 0, 20260401, 3, {{1, 1, 1, 1}, {2, 2, 2, 2}, {1, 2, 1, 2}}},
        {{4, 4, 4, 8}, 1, 5150, 3, {{2, 2, 1, 2}, {1, 1, 2, 4}, {1, 1, 1, 1}}},
        {{8, 4, 4, 4}, 0, 8444, 3, {{4, 1, 2, 1}, {1, 1, 1, 1}, {2, 2, 1, 1}}},
        /* rows of 8 sites a parity: the CPU kernels' single-precision batches are whole rows, whose
         * records they address from one pointer (kernels/simd_kind.h, runs) */
        {{16, 4, 4, 4}, 1, 1644, 2, {{1, 1, 1, 1}, {1, 2, 1, 2}}},
        /* two ranges of three in z and in t: the CPU pass's tiles on one block (codelets/wilson_eo_pass.c;
         * test_dirac_fused runs a team of four) */
        {{4, 4, 6, 6}, 0, 4466, 1, {{1, 1, 1, 1}}},
        /* blocks of six slices, open in t (and x), whose middle rows touch no face: the CPU pass on the
         * blocks of a lattice of several (wilson_pair, which test_dirac_fused runs) */
        {{4, 4, 6, 12}, 1, 4612, 2, {{1, 1, 1, 2}, {2, 1, 1, 2}}},
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        problem pb;
        problem_init(&pb, cases[c].L, cases[c].hot, cases[c].seed);
        test_field_strength(&pb);
        for (int bi = 0; bi < NBC; bi++)
            for (int ci = 0; ci < 2; ci++) {
                if (problem_reference(&pb, &bcs[bi], kappa, csws[ci])) continue;
                /* every boundary condition on the first grid; the other grids with the complex phases
                 * (the general case: periodic and antiperiodic are phases 1 and -1) */
                for (int g = 0; g < cases[c].ngrids; g++)
                    if (g == 0 || bi == NBC - 1) test_grid(&pb, cases[c].grids[g], &bcs[bi], kappa, csws[ci]);
            }
        if (c == 1) { /* identities on a grid with extent-2 blocks, complex phases, clover */
            test_identities(&pb, cases[c].grids[0], &bcs[2], kappa, 1.2, QF_DOUBLE);
            test_identities(&pb, cases[c].grids[1], &bcs[1], kappa, 1.2, QF_SINGLE);
            test_identities(&pb, cases[c].grids[1], &bcs[0], kappa, 0.0, QF_DOUBLE);
        }
        if (c == 0) {
            test_gauge_inputs(&pb, cases[c].grids[1]);
            test_strong_clover(&pb);
            test_errors(&pb);
        }
        problem_free(&pb);
    }
    printf("largest relative errors against the reference: double %.1e, single %.1e; %.1f s\n", worst_err[0],
           worst_err[1], qf_wtime() - t0);
    qf_runtime_shutdown();
    return qf_check_summary();
}
