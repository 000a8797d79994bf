/* Improved staggered (asqtad) quarks as task graphs (qf_staggered.h) against the independent reference
 * (staggered_reference.c: the fat links by enumerating every path, D by plain global loops):
 *   - the fat and Naik links of random SU(3) fields to 1e-13 by both smearing algorithms (standard and
 *     extended volume), on several block grids and boundary phases (periodic, MILC's antiperiodic time,
 *     a complex phase in x);
 *   - D anti-hermitian as the task graph computes it; D, M, M^dag and the even-odd Mhat = 2m - D_eo D_oe / 2m in double (1e-13) and single (1e-6);
 *   - solves: CG on the even-odd system in double and mixed double/single, BiCGStab on the full M, to
 *     the requested true residual recomputed by the reference; multi-shift CG: every mass's solution
 *     solves its own system, and equals a single-mass CG solve to the tolerance;
 *   - MILC's sample (DATA_DIR: lat.sample.l8, ksvector.src.sample.l8, u0 0.502, mass 0.1): the CG steps
 *     MILC's check_ks_invert reports, within MILC's own tolerance;
 *   - refusals with a message: CG on a non-hermitian system, a mass of 0, blocks too thin for the Naik
 *     hop, a field of another kind.
 * The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "random_gauge.h"
#include "staggered_reference.h"
#include "quarkflow.h"
#include "test_start.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int L[4], grid[4];
    double phase[4][2];
    double u0;
    const char *name;
} problem;

static int64_t volume(const int L[4]) { return (int64_t)L[0] * L[1] * L[2] * L[3]; }

static double *random_gauge(const int L[4], uint64_t seed)
{
    int64_t n = volume(L) * 4;
    double *u = malloc((size_t)n * 18 * sizeof *u);
    for (int64_t k = 0; k < n; k++) qf_test_random_su3(&seed, u + 18 * k);
    return u;
}

static double *random_vector(const int L[4], uint64_t seed)
{
    int64_t n = volume(L) * REF_COLOUR_REALS;
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t k = 0; k < n; k++) v[k] = qf_test_gauss(&seed);
    return v;
}

/* max |a - b| / max |b| over n reals */
static double rel_diff(const double *a, const double *b, int64_t n)
{
    double d = 0.0, m = 0.0;
    for (int64_t k = 0; k < n; k++) {
        d = fmax(d, fabs(a[k] - b[k]));
        m = fmax(m, fabs(b[k]));
    }
    return m > 0.0 ? d / m : d;
}

static double norm(const double *a, int64_t n)
{
    double s = 0.0;
    for (int64_t k = 0; k < n; k++) s += a[k] * a[k];
    return sqrt(s);
}

/* The reference's fat and long links of a problem's random gauge field. */
typedef struct {
    double *u, *fat, *lng;
} reference_links;

static reference_links reference(const problem *pb, uint64_t seed)
{
    reference_links r = {random_gauge(pb->L, seed), malloc((size_t)volume(pb->L) * 72 * sizeof(double)),
                         malloc((size_t)volume(pb->L) * 72 * sizeof(double))};
    double *v = malloc((size_t)volume(pb->L) * 72 * sizeof *v);
    memcpy(v, r.u, (size_t)volume(pb->L) * 72 * sizeof *v);
    qf_ref_staggered_phases(v, pb->L, pb->phase);
    qf_ref_asqtad_links(v, pb->L, pb->u0, r.fat, r.lng);
    free(v);
    return r;
}

static void reference_free(reference_links *r)
{
    free(r->u);
    free(r->fat);
    free(r->lng);
}

static qf_asqtad_link_params link_params(const problem *pb)
{
    qf_asqtad_link_params p = qf_asqtad_default_link_params(pb->u0);
    memcpy(p.phase, pb->phase, sizeof p.phase);
    return p;
}

/* The asqtad links of the problem's gauge field as tasks by both smearing algorithms, each checked
 * against the reference; returns the standard algorithm's. */
static qf_field *links_checked(const problem *pb, const qf_lattice *lat, const reference_links *r)
{
    qf_field *u = NULL, *kept = NULL;
    int64_t V = volume(pb->L);
    double *got = malloc((size_t)V * 144 * sizeof *got), *fat = malloc((size_t)V * 72 * sizeof *fat),
           *lng = malloc((size_t)V * 72 * sizeof *lng);
    int rc = qf_field_create(&u, lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_field_import(u, r->u);
    for (int alg = QF_SMEAR_STANDARD; alg <= QF_SMEAR_EXTENDED && !rc; alg++) {
        qf_asqtad_link_params lp = link_params(pb);
        lp.algorithm = (qf_asqtad_smearing)alg;
        qf_field *links = NULL;
        int lrc = qf_asqtad_links(u, &lp, &links) || qf_field_export(links, got);
        CHECK(!lrc, "%s: asqtad links built, %s algorithm (%s)", pb->name, qf_asqtad_smearing_name(lp.algorithm),
              lrc ? qf_last_error() : "");
        if (!lrc) {
            for (int64_t s = 0; s < V; s++) {
                memcpy(fat + 72 * s, got + 144 * s, 72 * sizeof *fat);
                memcpy(lng + 72 * s, got + 144 * s + 72, 72 * sizeof *lng);
            }
            double df = rel_diff(fat, r->fat, V * 72), dl = rel_diff(lng, r->lng, V * 72);
            CHECK(df < 1e-13 && dl < 1e-13, "%s, %s algorithm: fat links %.2e, Naik links %.2e from the reference (tolerance 1e-13)",
                  pb->name, qf_asqtad_smearing_name(lp.algorithm), df, dl);
        }
        if (alg == QF_SMEAR_STANDARD) kept = links;
        else if (links) qf_field_destroy(links);
    }
    if (u) qf_field_destroy(u);
    free(got);
    free(fat);
    free(lng);
    return kept;
}

/* The even (parity 0) or odd sites of a global vector, the others zero. */
static void keep_parity(const int L[4], double *v, int parity)
{
    for (int t = 0, s = 0; t < L[3]; t++)
        for (int z = 0; z < L[2]; z++)
            for (int y = 0; y < L[1]; y++)
                for (int x = 0; x < L[0]; x++, s++)
                    if (((x + y + z + t) & 1) != parity) memset(v + REF_COLOUR_REALS * s, 0, REF_COLOUR_REALS * sizeof *v);
}

/* D, M, M^dag and Mhat in prec against the reference. */
static void check_operator(const problem *pb, const qf_lattice *lat, const qf_field *links, const reference_links *r,
                           qf_precision prec)
{
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-6, mass = 0.07;
    const char *pn = qf_precision_name(prec);
    int64_t V = volume(pb->L), n = V * REF_COLOUR_REALS;
    double *psi = random_vector(pb->L, 99), *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got),
           *t = malloc((size_t)n * sizeof *t);
    qf_asqtad *op = NULL;
    qf_linop *M = NULL, *Mhat = NULL;
    qf_field *in = NULL, *out = NULL;
    qf_asqtad_params ap = {.mass = mass, .prec = prec};
    int rc = qf_asqtad_create(&op, links, &ap) || qf_asqtad_linop(op, &M) ||
             qf_field_create(&in, lat, QF_FIELD_STAGGERED, prec, 0) || qf_field_create(&out, lat, QF_FIELD_STAGGERED, prec, 0) ||
             qf_field_import(in, psi);
    CHECK(!rc, "%s %s: operator made (%s)", pb->name, pn, rc ? qf_last_error() : "");
    if (rc) goto done;
    /* D */
    qf_ref_asqtad_dslash(r->fat, r->lng, pb->L, psi, want);
    rc = qf_asqtad_dslash(op, out, in) || qf_field_export(out, got);
    double d = rc ? 1.0 : rel_diff(got, want, n);
    CHECK(!rc && d < tol, "%s %s: D from the reference %.2e (tolerance %.0e) %s", pb->name, pn, d, tol, rc ? qf_last_error() : "");
    /* M and M^dag = 2m - D */
    qf_ref_asqtad_m(r->fat, r->lng, pb->L, mass, psi, want);
    rc = qf_linop_apply(M, out, in) || qf_field_export(out, got);
    d = rc ? 1.0 : rel_diff(got, want, n);
    CHECK(!rc && d < tol, "%s %s: M from the reference %.2e", pb->name, pn, d);
    qf_ref_asqtad_m(r->fat, r->lng, pb->L, -mass, psi, want);
    for (int64_t k = 0; k < n; k++) want[k] = -want[k];
    rc = qf_linop_apply_dagger(M, out, in) || qf_field_export(out, got);
    d = rc ? 1.0 : rel_diff(got, want, n);
    CHECK(!rc && d < tol, "%s %s: M^dag = 2m - D from the reference %.2e", pb->name, pn, d);
    /* Mhat psi_e = 2m psi_e - (D (D psi_e)_o)_e / 2m on the even sites; the odd sites of out keep theirs */
    memcpy(t, psi, (size_t)n * sizeof *t);
    keep_parity(pb->L, t, 0);
    qf_ref_asqtad_dslash(r->fat, r->lng, pb->L, t, want);
    keep_parity(pb->L, want, 1);
    qf_ref_asqtad_dslash(r->fat, r->lng, pb->L, want, got);
    for (int64_t k = 0; k < n; k++) want[k] = 2.0 * mass * t[k] - got[k] / (2.0 * mass);
    keep_parity(pb->L, want, 0);
    rc = qf_linop_schur(M, &Mhat) || qf_blas_axpby(0.0, NULL, 0.0, out, -1) || qf_linop_apply(Mhat, out, in) ||
         qf_field_export(out, got);
    if (!rc) keep_parity(pb->L, got, 0);
    d = rc ? 1.0 : rel_diff(got, want, n);
    CHECK(!rc && d < tol, "%s %s: Mhat = 2m - D_eo D_oe / 2m from the reference %.2e %s", pb->name, pn, d, rc ? qf_last_error() : "");
    CHECK(Mhat && qf_linop_is_hermitian(Mhat) && !qf_linop_is_hermitian(M), "%s: Mhat says it is hermitian, M does not",
          pb->name);
    /* the task graph's D is anti-hermitian: <phi, D psi> = -<D phi, psi>, both dots taken by the BLAS tasks */
    {
        double *phi = random_vector(pb->L, 123);
        qf_field *f = NULL, *df = NULL;
        qf_scalar *a = NULL, *b = NULL;
        double ar = 0, ai = 0, br = 0, bi = 0;
        int arc = qf_field_create(&f, lat, QF_FIELD_STAGGERED, prec, 0) || qf_field_create(&df, lat, QF_FIELD_STAGGERED, prec, 0) ||
                  qf_field_import(f, phi) || qf_scalar_create(&a) || qf_scalar_create(&b) || qf_asqtad_dslash(op, out, in) ||
                  qf_asqtad_dslash(op, df, f) || qf_blas_dot(a, f, out, -1) || qf_blas_dot(b, df, in, -1) ||
                  qf_scalar_get(a, &ar, &ai) || qf_scalar_get(b, &br, &bi);
        double dev = hypot(ar + br, ai + bi) / hypot(ar, ai);
        CHECK(!arc && dev < (prec == QF_DOUBLE ? 1e-13 : 1e-5), "%s %s: <phi, D psi> + <D phi, psi> = %.2e of |<phi, D psi>|",
              pb->name, pn, dev);
        if (f) qf_field_destroy(f);
        if (df) qf_field_destroy(df);
        if (a) qf_scalar_destroy(a);
        if (b) qf_scalar_destroy(b);
        free(phi);
    }
done:
    if (in) qf_field_destroy(in);
    if (out) qf_field_destroy(out);
    qf_linop_destroy(M);
    qf_asqtad_destroy(op);
    free(psi);
    free(want);
    free(got);
    free(t);
}

/* |b - M x| / |b| by the reference */
static double true_residual(const problem *pb, const reference_links *r, double mass, const double *x, const double *b)
{
    int64_t n = volume(pb->L) * REF_COLOUR_REALS;
    double *mx = malloc((size_t)n * sizeof *mx);
    qf_ref_asqtad_m(r->fat, r->lng, pb->L, mass, x, mx);
    for (int64_t k = 0; k < n; k++) mx[k] = b[k] - mx[k];
    double res = norm(mx, n) / norm(b, n);
    free(mx);
    return res;
}

static void check_solves(const problem *pb, const qf_lattice *lat, const qf_field *links, const reference_links *r)
{
    const double mass = 0.2; /* random SU(3) links: 380 CG iterations at m = 0.05, a third of that here */
    int64_t n = volume(pb->L) * REF_COLOUR_REALS;
    double *src = random_vector(pb->L, 7), *sol = malloc((size_t)n * sizeof *sol);
    qf_asqtad *op = NULL;
    qf_linop *M = NULL;
    qf_field *b = NULL, *x = NULL;
    qf_asqtad_params ap = {.mass = mass, .prec = QF_DOUBLE};
    int rc = qf_asqtad_create(&op, links, &ap) || qf_asqtad_linop(op, &M) ||
             qf_field_create(&b, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) ||
             qf_field_create(&x, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) || qf_field_import(b, src);
    CHECK(!rc, "%s: solve set up (%s)", pb->name, rc ? qf_last_error() : "");
    struct {
        qf_solver_kind kind;
        qf_precision sloppy;
        int even_odd;
        double tol;
    } runs[] = {{QF_SOLVER_CG, QF_DOUBLE, 1, 1e-10}, {QF_SOLVER_CG, QF_SINGLE, 1, 1e-10}, {QF_SOLVER_BICGSTAB, QF_DOUBLE, 0, 1e-9}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0] && !rc; i++) {
        qf_solver_params sp = qf_solver_default_params();
        sp.kind = runs[i].kind;
        sp.sloppy = runs[i].sloppy;
        sp.even_odd = runs[i].even_odd;
        sp.tol = runs[i].tol;
        qf_solver_result res;
        int src_rc = qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &sp, &res) || qf_field_export(x, sol);
        double tr = src_rc ? 1.0 : true_residual(pb, r, mass, sol, src);
        CHECK(!src_rc && tr <= 1.5 * runs[i].tol,
              "%s: %s %s/%s %s: true residual by the reference %.2e (tolerance %.0e), %d iterations %s", pb->name,
              qf_solver_name(sp.kind), qf_precision_name(QF_DOUBLE), qf_precision_name(sp.sloppy),
              sp.even_odd ? "even-odd" : "full", tr, runs[i].tol, res.iterations, src_rc ? qf_last_error() : "");
    }
    /* CG on the full M, which is not hermitian: refused */
    qf_solver_params sp = qf_solver_default_params();
    sp.kind = QF_SOLVER_CG;
    sp.even_odd = 0;
    qf_solver_result res;
    int refused = qf_solve(M, x, b, &sp, &res) != QF_SUCCESS && strstr(qf_last_error(), "hermitian");
    CHECK(refused, "CG on the full asqtad M is refused with a message naming hermiticity (%s)", qf_last_error());
    if (x) qf_field_destroy(x);
    if (b) qf_field_destroy(b);
    qf_linop_destroy(M);
    qf_asqtad_destroy(op);
    free(src);
    free(sol);
}

/* Three masses at once (uniform and mixed precision): each solution's true residual by the reference, and
 * its distance from a single-mass CG solve within the bound the residuals give: |x - x'| <= |M^-1|
 * (|r| + |r'|) <= 2 tol |b| / 2m, since M = 2m + D with D anti-hermitian has singular values >= 2m. */
static void check_multimass(const problem *pb, const qf_lattice *lat, const qf_field *links, const reference_links *r)
{
    enum { NM = 3 };
    const double masses[NM] = {0.15, 0.3, 0.6}, tol = 1e-10;
    int64_t n = volume(pb->L) * REF_COLOUR_REALS;
    double *src = random_vector(pb->L, 17), *sol = malloc((size_t)n * sizeof *sol), *one = malloc((size_t)n * sizeof *one);
    qf_asqtad *op = NULL;
    qf_field *b = NULL, *x[NM] = {NULL}, *y = NULL;
    qf_asqtad_params ap = {.mass = masses[0], .prec = QF_DOUBLE};
    int rc = qf_asqtad_create(&op, links, &ap) || qf_field_create(&b, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) ||
             qf_field_create(&y, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) || qf_field_import(b, src);
    for (int i = 0; i < NM && !rc; i++) rc = qf_field_create(&x[i], lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0);
    CHECK(!rc, "%s: multi-mass set up (%s)", pb->name, rc ? qf_last_error() : "");
    for (int mixed = 0; mixed < 2 && !rc; mixed++) {
        qf_solver_params sp = qf_solver_default_params();
        sp.tol = tol;
        sp.sloppy = mixed ? QF_SINGLE : QF_DOUBLE;
        qf_solver_result res[NM];
        qf_runtime_stats *st = NULL;
        int counted = lat->nblocks == 1 && qf_runtime_stats_begin() == 0;
        int mrc = qf_asqtad_multimass(op, NM, masses, x, b, &sp, res);
        CHECK(!mrc, "%s: multi-mass solve (%s) %s", pb->name, mixed ? "double/single" : "double", mrc ? qf_last_error() : "");
        if (counted && qf_runtime_stats_end(&st) == 0 && st && !mrc) {
            /* one block: the shifts' updates between two reads of alpha and beta are one chain task
             * (solvers/multishift.c), where each was a task: 2 (NM - 1) + 1 = 5 updates an iteration, and
             * the base's update with them (alpha worked out in it: one read an iteration); with the
             * operator's hop as one task (QF_STENCIL_FUSE=always, test_staggered_fused; a GPU's default)
             * D^dag D joins the chains too (tasks/stencil.c), its tasks left outside the iterations only */
            const char *fuse = getenv("QF_STENCIL_FUSE");
            int fused = fuse && !strcmp(fuse, "always"), it = res[0].iterations;
            long updates = qf_runtime_stats_tasks(st, "blas_update"), chains = qf_runtime_stats_tasks(st, "chain");
            long hops = qf_runtime_stats_tasks(st, "asqtad_interior"), cg = qf_runtime_stats_tasks(st, "blas_cg_update");
            int fewer = updates < it && cg < it / 4 && chains >= it / 2 && (!fused || hops < it / 4);
            CHECK(fewer,
                  "%s: multi-mass solve (%s) on one block, %d iterations of the lightest mass: %ld blas_update and %ld "
                  "blas_cg_update tasks (fewer than one an iteration and one in four expected), %ld chain tasks and %ld "
                  "asqtad_interior tasks%s",
                  pb->name, mixed ? "double/single" : "double", it, updates, cg, chains, hops,
                  fused ? " (fewer than one in four iterations expected)" : "");
            if (fewer)
                printf("ok   %s: multi-mass (%s), %d iterations: %ld blas_update, %ld blas_cg_update, %ld chain and %ld "
                       "asqtad_interior tasks\n",
                       pb->name, mixed ? "double/single" : "double", it, updates, cg, chains, hops);
        }
        qf_runtime_stats_free(st);
        for (int i = 0; i < NM && !mrc; i++) {
            double tr = qf_field_export(x[i], sol) ? 1.0 : true_residual(pb, r, masses[i], sol, src);
            /* the same mass alone: even-odd CG */
            qf_asqtad *single = NULL;
            qf_linop *M = NULL;
            qf_asqtad_params sap = {.mass = masses[i], .prec = QF_DOUBLE};
            qf_solver_params cg = qf_solver_default_params();
            cg.kind = QF_SOLVER_CG;
            cg.tol = tol;
            qf_solver_result one_res;
            int src_rc = qf_asqtad_create(&single, links, &sap) || qf_asqtad_linop(single, &M) ||
                         qf_blas_axpby(0.0, NULL, 0.0, y, -1) || qf_solve(M, y, b, &cg, &one_res) || qf_field_export(y, one);
            double d = 0.0;
            for (int64_t k = 0; k < n; k++) d += (sol[k] - one[k]) * (sol[k] - one[k]);
            d = sqrt(d) / norm(src, n);
            double bound = 2.0 * 1.5 * tol / (2.0 * masses[i]);
            CHECK(tr <= 1.5 * tol && res[i].converged && !src_rc && d <= bound,
                  "%s: mass %g of 3 (%s): true residual by the reference %.2e (reported %.2e), %d iterations; |x - x_CG| "
                  "/ |b| %.2e, bound %.2e %s",
                  pb->name, masses[i], mixed ? "double/single" : "double", tr, res[i].residual, res[i].iterations, d, bound,
                  src_rc ? qf_last_error() : "");
            qf_linop_destroy(M);
            qf_asqtad_destroy(single);
        }
        /* the lightest mass needs the most iterations: the heavier ones stop earlier */
        CHECK(!mrc && res[0].iterations >= res[1].iterations && res[1].iterations >= res[2].iterations,
              "%s: iterations fall with the mass (%d %d %d)", pb->name, res[0].iterations, res[1].iterations,
              res[2].iterations);
    }
    double bad[2] = {0.1, 0.0};
    qf_solver_params sp = qf_solver_default_params();
    qf_solver_result res2[2];
    CHECK(!rc && qf_asqtad_multimass(op, 2, bad, x, b, &sp, res2) && strstr(qf_last_error(), "above 0"),
          "a mass of 0 in a multi-mass solve is refused (%s)", qf_last_error());
    for (int i = 0; i < NM; i++)
        if (x[i]) qf_field_destroy(x[i]);
    if (b) qf_field_destroy(b);
    if (y) qf_field_destroy(y);
    qf_asqtad_destroy(op);
    free(src);
    free(sol);
    free(one);
}

/* MILC's own sample (ks_imp_utilities/test, check_ks_invert, "invert MdaggerM"): lat.sample.l8 with u0
 * 0.502, the source ksvector.src.sample.l8 and mass 0.1; MILC solves (4m^2 - D_pq D_qp) y = src_p on each
 * parity by CG to |r| / |src_p| <= 1e-9, reports "iters= 61" on each (its count includes residual
 * evaluations; its test accepts +-10) and "frac. error = 8.997865e-10" for |r| / |src| over both. The
 * source's |src|^2 is 6.903551e6 (even 3.398941e6, odd 3.504609e6). */
static void check_milc_sample(const char *data_dir)
{
    char gauge_path[4096], src_path[4096];
    snprintf(gauge_path, sizeof gauge_path, "%s/lat.sample.l8", data_dir);
    snprintf(src_path, sizeof src_path, "%s/ksvector.src.sample.l8", data_dir);
    double *links = NULL, *src = NULL;
    qf_gauge_info info;
    int dims[4], bits = 0;
    if (qf_gauge_read(gauge_path, QF_GAUGE_AUTO, NULL, &links, &info) || qf_colour_vector_read(src_path, NULL, dims, &src, &bits)) {
        CHECK(0, "MILC sample files: %s", qf_last_error());
        free(links);
        return;
    }
    int L[4] = {8, 8, 8, 8}, grid[4] = {1, 1, 1, 2};
    int64_t V = volume(L);
    double n2[2] = {0.0, 0.0};
    for (int t = 0, s = 0; t < 8; t++)
        for (int z = 0; z < 8; z++)
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++, s++)
                    for (int k = 0; k < REF_COLOUR_REALS; k++) n2[(x + y + z + t) & 1] += src[REF_COLOUR_REALS * s + k] * src[REF_COLOUR_REALS * s + k];
    CHECK(fabs(n2[0] / 3.398941e6 - 1.0) < 1e-6 && fabs(n2[1] / 3.504609e6 - 1.0) < 1e-6,
          "MILC sample source: |src_e|^2 %.6e (3.398941e6), |src_o|^2 %.6e (3.504609e6)", n2[0], n2[1]);
    qf_lattice lat;
    qf_field *u = NULL, *l = NULL, *b = NULL, *y = NULL;
    qf_asqtad *op = NULL;
    qf_linop *A[2] = {NULL, NULL};
    qf_asqtad_link_params lp = qf_asqtad_default_link_params(0.502);
    qf_asqtad_params ap = {.mass = 0.1, .prec = QF_DOUBLE};
    int rc = qf_lattice_init(&lat, L, NULL, grid, 0, 1, 4) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
             qf_field_import(u, links) || qf_asqtad_links(u, &lp, &l) || qf_asqtad_create(&op, l, &ap) ||
             qf_asqtad_parity_linop(op, 0, &A[0]) || qf_asqtad_parity_linop(op, 1, &A[1]) ||
             qf_field_create(&b, &lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) ||
             qf_field_create(&y, &lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) || qf_field_import(b, src);
    CHECK(!rc, "MILC sample: set up (%s)", rc ? qf_last_error() : "");
    double r2 = 0.0; /* |r|^2 of both parities */
    for (int par = 0; par < 2 && !rc; par++) {
        qf_solver_params sp = qf_solver_default_params();
        sp.check_every = 1; /* the iterations counted one by one, as MILC counts them */
        double shift = 4.0 * 0.1 * 0.1, tol = 1e-9;
        qf_solver_result res;
        int src_rc = qf_multishift_cg(A[par], 1, &shift, &tol, &y, b, &sp, &res);
        CHECK(!src_rc && res.converged && abs(res.iterations - 61) <= 10,
              "MILC sample, %s sites: (4m^2 - D D) y = src to 1e-9 in %d CG steps (MILC: iters= 61, its tolerance "
              "+-10), true residual %.2e %s",
              par ? "odd" : "even", res.iterations, res.residual, src_rc ? qf_last_error() : "");
        printf("MILC sample lat.sample.l8, u0 0.502, mass 0.1, %s sites: %d CG steps (MILC iters= 61), residual %.3e\n",
               par ? "odd" : "even", res.iterations, res.residual);
        r2 += res.residual * res.residual * n2[par];
    }
    /* the same CG steps on the same operator end at the same residual: MILC's reunitarisation of the float
     * links (deviations up to 4e-8) is all that may differ */
    double frac = sqrt(r2 / (n2[0] + n2[1]));
    CHECK(!rc && fabs(frac / 8.997865e-10 - 1.0) < 1e-5, "MILC sample: |r| / |src| over both parities %.6e (MILC 8.997865e-10)",
          frac);
    printf("MILC sample: |r| / |src| over both parities %.6e (MILC's frac. error 8.997865e-10)\n", frac);
    (void)V;
    qf_linop_destroy(A[0]);
    qf_linop_destroy(A[1]);
    qf_asqtad_destroy(op);
    if (u) qf_field_destroy(u);
    if (l) qf_field_destroy(l);
    if (b) qf_field_destroy(b);
    if (y) qf_field_destroy(y);
    free(links);
    free(src);
}

static void check_refusals(const qf_lattice *lat, const qf_field *links)
{
    qf_asqtad *op = NULL;
    qf_asqtad_params ap = {.mass = 0.0, .prec = QF_DOUBLE};
    CHECK(qf_asqtad_create(&op, links, &ap) && strstr(qf_last_error(), "m > 0"), "mass 0 refused (%s)", qf_last_error());
    ap.mass = 0.1;
    ap.prec = QF_HALF;
    CHECK(qf_asqtad_create(&op, links, &ap) && strstr(qf_last_error(), "half"), "half precision refused (%s)", qf_last_error());
    qf_field *w = NULL;
    ap.prec = QF_DOUBLE;
    if (!qf_field_create(&w, lat, QF_FIELD_WILSON, QF_DOUBLE, 0)) {
        CHECK(qf_asqtad_create(&op, w, &ap) && strstr(qf_last_error(), "asqtad links"), "a Wilson field as links refused (%s)",
              qf_last_error());
        qf_field_destroy(w);
    }
    /* blocks of 2 in x: the Naik faces are 3 deep */
    qf_lattice thin;
    int L[4] = {4, 4, 4, 4}, grid[4] = {2, 1, 1, 1};
    qf_field *u = NULL, *l = NULL;
    qf_asqtad_link_params lp = qf_asqtad_default_link_params(1.0);
    if (!qf_lattice_init(&thin, L, NULL, grid, 0, 1, 2) && !qf_field_create(&u, &thin, QF_FIELD_GAUGE, QF_DOUBLE, 0) &&
        !qf_asqtad_links(u, &lp, &l)) {
        CHECK(qf_asqtad_create(&op, l, &ap) && strstr(qf_last_error(), "at least 4"),
              "blocks of 2 sites refused by the operator (%s)", qf_last_error());
    } else {
        CHECK(0, "links on blocks of 2 sites: %s", qf_last_error());
    }
    if (l) qf_field_destroy(l);
    if (u) qf_field_destroy(u);
    lp.u0 = 0.0;
    qf_field *g = NULL;
    if (!qf_field_create(&g, lat, QF_FIELD_GAUGE, QF_DOUBLE, 0)) {
        CHECK(qf_asqtad_links(g, &lp, &l) && strstr(qf_last_error(), "u0"), "u0 = 0 refused (%s)", qf_last_error());
        qf_field_destroy(g);
    }
}

int main(int argc, char **argv)
{
    int st = qf_test_start();
    if (st >= 0) return st;
    if (argc > 1) check_milc_sample(argv[1]);
    const double P = 1.0, A = -1.0, c = cos(0.3), s = sin(0.3);
    problem problems[] = {
        {{8, 8, 4, 8}, {1, 1, 1, 1}, {{P, 0}, {P, 0}, {P, 0}, {A, 0}}, 0.87, "8x8x4x8 one block, MILC phases"},
        {{8, 8, 4, 8}, {2, 2, 1, 2}, {{c, s}, {P, 0}, {P, 0}, {A, 0}}, 0.9, "8x8x4x8 blocks 2x2x1x2, complex x phase"},
        {{8, 4, 4, 8}, {2, 1, 1, 1}, {{P, 0}, {P, 0}, {P, 0}, {P, 0}}, 1.0, "8x4x4x8 blocks 2x1x1x1, periodic"},
    };
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        const problem *pb = &problems[i];
        qf_lattice lat;
        if (qf_lattice_init(&lat, pb->L, NULL, pb->grid, 0, 1, 4)) {
            CHECK(0, "%s: lattice: %s", pb->name, qf_last_error());
            continue;
        }
        reference_links r = reference(pb, 1000 + i);
        qf_field *links = links_checked(pb, &lat, &r);
        if (links) {
            check_operator(pb, &lat, links, &r, QF_DOUBLE);
            check_operator(pb, &lat, links, &r, QF_SINGLE);
            if (i < 2) check_solves(pb, &lat, links, &r);
            if (i != 1) check_multimass(pb, &lat, links, &r);
            if (i == 0) check_refusals(&lat, links);
            qf_field_destroy(links);
        }
        reference_free(&r);
    }
    qf_runtime_shutdown();
    return qf_check_summary();
}
