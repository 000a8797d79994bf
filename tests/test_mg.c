/* Adaptive multigrid (qf_multigrid.h) against independent checks:
 *   - the restriction against plain global loops over the exported vectors (no blocks), and
 *     P = R^dagger (<R psi, e> = <psi, P e>), P^dagger P = 1, P keeping chirality;
 *   - Galerkin consistency D_c e = R M P e on several block grids, aggregates, clover on and off and
 *     boundary conditions, in double (1e-13) and single (1e-5), and on a third level (R_c D_c P_c);
 *   - gamma_5-hermiticity of the coarse operator (<y, D_c e> = <D_c^dagger y, e>, the dagger applied as
 *     g5 D_c g5) and its even-odd form (Dhat_c e_e = prepared D_c e, reconstruction returns e);
 *   - an MG solve reaching the requested true residual and agreeing with BiCGStab's solution, with the
 *     same iterations on two block grids.
 * The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "dirac_reference.h"
#include "test_start.h"
#include "quarkflow.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int L[4], blocks[4];
    qf_lattice lat;
    qf_field *u;
    double *links;
} problem;

static int problem_init(problem *pb, const int L[4], const int blocks[4], uint64_t seed)
{
    memcpy(pb->L, L, sizeof pb->L);
    memcpy(pb->blocks, blocks, sizeof pb->blocks);
    pb->links = malloc((size_t)ref_volume(L) * REF_GAUGE_REALS * sizeof(double));
    ref_rng g = {seed};
    ref_random_links(&g, L, pb->links);
    return qf_lattice_init(&pb->lat, L, NULL, blocks, 0, 1, 2) ||
           qf_field_create(&pb->u, &pb->lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_field_import(pb->u, pb->links);
}

static void problem_free(problem *pb)
{
    qf_field_destroy(pb->u);
    free(pb->links);
}

/* A field of the shape on lat holding Gaussian numbers from g; *host gets its global array (owned). */
static qf_field *random_field(const qf_lattice *lat, const qf_field_shape *s, qf_precision prec, ref_rng *g,
                              double **host)
{
    size_t n = (size_t)lat->global_volume * s->site_reals;
    double *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++) a[i] = ref_rng_gauss(g);
    qf_field *f = NULL;
    if (qf_field_create_shaped(&f, lat, s, prec, 0) || qf_field_import(f, a)) printf("field: %s\n", qf_last_error());
    if (host) *host = a;
    else free(a);
    return f;
}

static double *exported(const qf_field *f)
{
    const qf_lattice *lat = qf_field_lattice(f);
    double *a = malloc((size_t)lat->global_volume * qf_field_get_shape(f)->site_reals * sizeof *a);
    if (qf_field_export(f, a)) printf("export: %s\n", qf_last_error());
    return a;
}

/* |a - b| / |b| over n reals */
static double rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0.0, r = 0.0;
    for (size_t i = 0; i < n; i++) {
        d += (a[i] - b[i]) * (a[i] - b[i]);
        r += b[i] * b[i];
    }
    return sqrt(d / r);
}

static double complex host_dot(const double *a, const double *b, size_t nreals)
{
    double complex s = 0.0;
    for (size_t i = 0; i < nreals; i += 2) s += conj(a[i] + I * a[i + 1]) * (b[i] + I * b[i + 1]);
    return s;
}

static size_t nreals(const qf_field *f)
{
    return (size_t)qf_field_lattice(f)->global_volume * qf_field_get_shape(f)->site_reals;
}

/* ---- the transfer ---- */


/* A scope that keeps the tasks inserted under it on one kind of worker (the GPU where there is one), so
 * that an operation repeated under it gives the same bits: a CPU and a GPU sum in different orders (the
 * GPU in float), and under dmdas with both kinds two runs of one operation may land on either. */
static qf_task_scope *one_kind_scope(void)
{
    /* static: a scope must outlive the tasks inserted under it, whose completion counts into it */
    static qf_task_scope pin;
    pin = (qf_task_scope){.where = qf_runtime_ncuda_workers() > 0 ? QF_PLACE_GPU : QF_PLACE_CPU};
    return &pin;
}

/* R psi from the exported vectors with global loops: coarse site C = x / agg; from the even sites alone
 * where parity is 0. */
static void host_restrict(const qf_transfer *T, const double *v, const double *psi, int parity, double *out)
{
    const qf_lattice *fl = qf_transfer_fine_lattice(T), *cl = qf_transfer_coarse_lattice(T);
    int n = qf_transfer_nvec(T), ns = qf_transfer_fine_shape(T).site_reals / 2, h = ns / 2, x[4], c[4], agg[4];
    for (int mu = 0; mu < 4; mu++) agg[mu] = fl->global[mu] / cl->global[mu];
    memset(out, 0, (size_t)cl->global_volume * 4 * n * sizeof *out);
    for (int64_t s = 0; s < fl->global_volume; s++) {
        qf_lex_coords(s, fl->global, x);
        if (parity == 0 && (x[0] + x[1] + x[2] + x[3]) % 2) continue;
        for (int mu = 0; mu < 4; mu++) c[mu] = x[mu] / agg[mu];
        int64_t cs = qf_lex_index(c, cl->global);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < ns; i++) {
                const double *vv = v + ((size_t)s * n + k) * 2 * ns + 2 * i, *p = psi + (size_t)s * 2 * ns + 2 * i;
                double complex t = conj(vv[0] + I * vv[1]) * (p[0] + I * p[1]);
                double *o = out + (size_t)cs * 4 * n + 2 * ((i / h) * n + k);
                o[0] += creal(t);
                o[1] += cimag(t);
            }
    }
}

static void check_transfer(qf_transfer *T, qf_precision prec, const char *cfg)
{
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-5;
    ref_rng g = {77};
    qf_field_shape fs = qf_transfer_fine_shape(T), cs = qf_transfer_coarse_shape(T);
    const qf_lattice *fl = qf_transfer_fine_lattice(T), *cl = qf_transfer_coarse_lattice(T);
    double *psi_h, *e_h;
    qf_field *psi = random_field(fl, &fs, prec, &g, &psi_h), *e = random_field(cl, &cs, prec, &g, &e_h);
    qf_field *rpsi = NULL, *pe = NULL, *rpe = NULL;
    qf_field_create_shaped(&rpsi, cl, &cs, prec, 0);
    qf_field_create_shaped(&rpe, cl, &cs, prec, 0);
    qf_field_create_shaped(&pe, fl, &fs, prec, 0);
    int rc = qf_transfer_restrict(T, rpsi, psi, -1) || qf_transfer_prolong(T, pe, e, -1) || qf_transfer_restrict(T, rpe, pe, -1);
    CHECK(!rc, "%s: transfer: %s", cfg, qf_last_error());
    double *v = exported(qf_transfer_vectors(T)), *r = exported(rpsi), *p = exported(pe), *rp = exported(rpe);
    double *ref = malloc(nreals(rpsi) * sizeof *ref);
    host_restrict(T, v, psi_h, -1, ref);
    double d = rel_diff(r, ref, nreals(rpsi));
    CHECK(d < tol, "%s: R psi against global loops: %.2e", cfg, d);
    /* from the even sites alone: the odd ones' values make no difference */
    rc = qf_transfer_restrict(T, rpe, psi, 0);
    CHECK(!rc, "%s: restriction from the even sites: %s", cfg, qf_last_error());
    if (!rc) {
        double *re = exported(rpe);
        host_restrict(T, v, psi_h, 0, ref);
        d = rel_diff(re, ref, nreals(rpe));
        CHECK(d < tol, "%s: R psi from the even sites against global loops: %.2e", cfg, d);
        free(re);
    }
    CHECK(qf_transfer_restrict(T, rpe, psi, 1) && strstr(qf_last_error(), "give -1 (all sites) or 0"),
          "%s: restriction from the odd sites: %s", cfg, qf_last_error());
    d = rel_diff(rp, e_h, nreals(rpe));
    CHECK(d < tol, "%s: P^dagger P e = e: %.2e", cfg, d);
    double complex a = host_dot(r, e_h, nreals(rpsi)), b = host_dot(psi_h, p, nreals(pe));
    CHECK(cabs(a - b) < tol * cabs(a), "%s: <R psi, e> = %.12g%+.12gi, <psi, P e> = %.12g%+.12gi", cfg, creal(a),
          cimag(a), creal(b), cimag(b));
    /* chirality: a coarse field of chirality 0 prolongs to a fine field of chirality 0 */
    int n = qf_transfer_nvec(T), ns = fs.site_reals / 2;
    for (int64_t s = 0; s < cl->global_volume; s++)
        for (int i = 2 * n; i < 4 * n; i++) e_h[s * 4 * n + i] = 0.0;
    qf_field_import(e, e_h);
    qf_transfer_prolong(T, pe, e, -1);
    free(p);
    p = exported(pe);
    double lower = 0.0, all = 0.0;
    for (int64_t s = 0; s < fl->global_volume; s++)
        for (int i = 0; i < 2 * ns; i++) {
            double q = p[s * 2 * ns + i] * p[s * 2 * ns + i];
            all += q;
            if (i >= ns) lower += q;
        }
    CHECK(lower <= 1e-28 * all && all > 0.0, "%s: P keeps chirality: |lower half|^2 = %.2e of %.2e", cfg, lower, all);
    /* half vectors (single transfers): R psi and P e (r and p above) to their 16-bit rounding, not bit
     * for bit, and bit for bit again once dropped (R psi before and after, on one kind of worker); a
     * double transfer refuses them */
    if (prec == QF_SINGLE) {
        qf_task_scope *pin = one_kind_scope(), *outer = qf_task_scope_enter(pin);
        rc = qf_transfer_restrict(T, rpe, psi, -1);
        qf_task_scope_leave(outer);
        double *r1 = rc ? NULL : exported(rpe);
        rc = rc || qf_transfer_set_vector_precision(T, QF_HALF) || qf_transfer_restrict(T, rpe, psi, -1) ||
             qf_transfer_prolong(T, pe, e, -1);
        CHECK(!rc, "%s: half vectors: %s", cfg, qf_last_error());
        if (!rc) {
            double *rh = exported(rpe), *ph = exported(pe);
            double dr = rel_diff(rh, r, nreals(rpe)), dp = rel_diff(ph, p, nreals(pe));
            CHECK(dr > 1e-8 && dr < 2e-4 && dp > 1e-8 && dp < 2e-4,
                  "%s: R psi and P e with half vectors against single: %.2e and %.2e (want 1e-8 .. 2e-4)", cfg, dr, dp);
            free(rh), free(ph);
        }
        outer = qf_task_scope_enter(pin);
        rc = qf_transfer_set_vector_precision(T, QF_SINGLE) || qf_transfer_restrict(T, rpe, psi, -1);
        qf_task_scope_leave(outer);
        CHECK(!rc, "%s: single vectors again: %s", cfg, qf_last_error());
        if (!rc && r1) {
            double *r2 = exported(rpe);
            CHECK(!memcmp(r2, r1, nreals(rpe) * sizeof *r2), "%s: R psi with the single vectors again differs", cfg);
            free(r2);
        }
        free(r1);
    } else {
        rc = qf_transfer_set_vector_precision(T, QF_HALF);
        CHECK(rc && strstr(qf_last_error(), "half for a single-precision transfer"),
              "%s: half vectors of a double transfer: %s", cfg, rc ? qf_last_error() : "accepted");
    }
    free(v), free(r), free(p), free(rp), free(ref), free(psi_h), free(e_h);
    qf_field_destroy(psi), qf_field_destroy(e), qf_field_destroy(rpsi), qf_field_destroy(pe), qf_field_destroy(rpe);
}

/* ---- the coarse operator ---- */

/* D_c e against R A P e, gamma_5-hermiticity and the even-odd form. */
static void check_coarse(qf_linop *A, qf_transfer *T, qf_linop *Ac, qf_precision prec, const char *cfg)
{
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-5;
    ref_rng g = {99};
    qf_field_shape fs = qf_transfer_fine_shape(T), cs = qf_transfer_coarse_shape(T);
    const qf_lattice *fl = qf_transfer_fine_lattice(T), *cl = qf_transfer_coarse_lattice(T);
    double *e_h, *y_h;
    qf_field *e = random_field(cl, &cs, prec, &g, &e_h), *y = random_field(cl, &cs, prec, &g, &y_h);
    qf_field *dce = NULL, *rape = NULL, *pe = NULL, *ape = NULL, *dcy = NULL, *bh = NULL, *dh = NULL, *rec = NULL;
    qf_field_create_shaped(&dce, cl, &cs, prec, 0);
    qf_field_create_shaped(&rape, cl, &cs, prec, 0);
    qf_field_create_shaped(&dcy, cl, &cs, prec, 0);
    qf_field_create_shaped(&bh, cl, &cs, prec, 0);
    qf_field_create_shaped(&dh, cl, &cs, prec, 0);
    qf_field_create_shaped(&rec, cl, &cs, prec, 0);
    qf_field_create_shaped(&pe, fl, &fs, prec, 0);
    qf_field_create_shaped(&ape, fl, &fs, prec, 0);
    qf_linop *schur = NULL;
    int rc = qf_linop_apply(Ac, dce, e) || qf_transfer_prolong(T, pe, e, -1) || qf_linop_apply(A, ape, pe) ||
             qf_transfer_restrict(T, rape, ape, -1) || qf_linop_apply_dagger(Ac, dcy, y) || qf_linop_schur(Ac, &schur) ||
             qf_linop_prepare(Ac, bh, dce) || qf_linop_apply(schur, dh, e) || qf_linop_reconstruct(Ac, rec, e, dce);
    CHECK(!rc, "%s: coarse operator: %s", cfg, qf_last_error());
    double *a1 = exported(dce), *a2 = exported(rape), *b1 = exported(dcy), *eb = exported(bh), *ed = exported(dh),
           *er = exported(rec);
    size_t n = nreals(dce);
    double d = rel_diff(a1, a2, n);
    CHECK(d < tol, "%s: D_c e against R A P e: %.2e", cfg, d);
    double complex l = host_dot(y_h, a1, n), r = host_dot(b1, e_h, n);
    CHECK(cabs(l - r) < tol * cabs(l), "%s: <y, D_c e> = %.12g%+.12gi, <D_c^dag y, e> = %.12g%+.12gi", cfg, creal(l),
          cimag(l), creal(r), cimag(r));
    /* even sites of the global arrays: the Schur complement of e against the prepared D_c e */
    int x[4], sr = cs.site_reals;
    double num = 0.0, den = 0.0;
    for (int64_t s = 0; s < cl->global_volume; s++) {
        qf_lex_coords(s, cl->global, x);
        if (qf_parity(x)) continue;
        for (int i = 0; i < sr; i++) {
            num += (ed[s * sr + i] - eb[s * sr + i]) * (ed[s * sr + i] - eb[s * sr + i]);
            den += eb[s * sr + i] * eb[s * sr + i];
        }
    }
    CHECK(sqrt(num / den) < tol, "%s: Dhat_c e_e against the prepared source: %.2e", cfg, sqrt(num / den));
    d = rel_diff(er, e_h, n);
    CHECK(d < tol, "%s: reconstruction of e: %.2e", cfg, d);
    free(a1), free(a2), free(b1), free(eb), free(ed), free(er), free(e_h), free(y_h);
    qf_field *fields[] = {e, y, dce, rape, pe, ape, dcy, bh, dh, rec};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) qf_field_destroy(fields[k]);
}

/* The image of an even-odd solution without applying the operator (qf_linop_schur_image): for random b
 * and y, A x of x = reconstruct(y, b) from b, prepare(b) and Ahat y, against A applied to x. */
static void check_schur_image(qf_linop *A, const qf_lattice *lat, const qf_field_shape *s, qf_precision prec,
                              const char *cfg)
{
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-5;
    ref_rng g = {31};
    qf_field *b = random_field(lat, s, prec, &g, NULL), *y = random_field(lat, s, prec, &g, NULL);
    qf_field *bhat = NULL, *w = NULL, *x = NULL, *ax = NULL, *az = NULL;
    qf_linop *schur = NULL;
    int rc = qf_field_create_shaped(&bhat, lat, s, prec, 0) || qf_field_create_shaped(&w, lat, s, prec, 0) ||
             qf_field_create_shaped(&x, lat, s, prec, 0) || qf_field_create_shaped(&ax, lat, s, prec, 0) ||
             qf_field_create_shaped(&az, lat, s, prec, 0) || qf_blas_axpby(0.0, NULL, 0.0, w, -1) ||
             qf_blas_axpby(0.0, NULL, 0.0, bhat, -1) || qf_linop_schur(A, &schur) || qf_linop_prepare(A, bhat, b) ||
             qf_linop_apply(schur, w, y) || qf_linop_reconstruct(A, x, y, b) || qf_linop_apply(A, ax, x);
    CHECK(qf_linop_has_schur_image(A), "%s: %s has no schur_image", cfg, qf_linop_name(A));
    rc = rc || qf_linop_schur_image(A, az, b, bhat, w);
    CHECK(!rc, "%s: schur image: %s", cfg, qf_last_error());
    double *e1 = exported(ax), *e2 = exported(az), d = rel_diff(e2, e1, nreals(ax));
    CHECK(d < tol, "%s: %s's image of the reconstructed solution against the operator applied: %.2e", cfg,
          qf_linop_name(A), d);
    free(e1), free(e2);
    qf_field *fields[] = {b, y, bhat, w, x, ax, az};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) qf_field_destroy(fields[k]);
}

/* The Schur source of a defect without the defect (qf_linop_prepare_defect): for random r and z (odd
 * sites too, which drop out), prepare(r - A z) the long way against it. */
static void check_prepare_defect(qf_linop *A, const qf_lattice *lat, const qf_field_shape *s, qf_precision prec,
                                 const char *cfg)
{
    double tol = prec == QF_DOUBLE ? 1e-13 : 1e-5;
    ref_rng g = {37};
    qf_field *r = random_field(lat, s, prec, &g, NULL), *z = random_field(lat, s, prec, &g, NULL);
    qf_field *az = NULL, *bref = NULL, *bhat = NULL;
    int rc = qf_field_create_shaped(&az, lat, s, prec, 0) || qf_field_create_shaped(&bref, lat, s, prec, 0) ||
             qf_field_create_shaped(&bhat, lat, s, prec, 0) || qf_blas_axpby(0.0, NULL, 0.0, bref, -1) ||
             qf_blas_axpby(0.0, NULL, 0.0, bhat, -1) || qf_linop_apply(A, az, z) ||
             qf_blas_axpby(1.0, r, -1.0, az, -1) || qf_linop_prepare(A, bref, az);
    CHECK(qf_linop_has_prepare_defect(A), "%s: %s has no prepare_defect", cfg, qf_linop_name(A));
    rc = rc || qf_linop_prepare_defect(A, bhat, r, z);
    CHECK(!rc, "%s: prepare_defect: %s", cfg, qf_last_error());
    double *e1 = exported(bref), *e2 = exported(bhat), d = rel_diff(e2, e1, nreals(bref));
    CHECK(d < tol, "%s: %s's prepared defect against prepare(r - A z): %.2e", cfg, qf_linop_name(A), d);
    free(e1), free(e2);
    qf_field *fields[] = {r, z, az, bref, bhat};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) qf_field_destroy(fields[k]);
}

/* A coarse system D_c x = b with b = D_c e for a random e, the solution x, a residual field and a
 * statistics scalar, for the one-task solves' checks. */
typedef struct {
    qf_field *e, *b, *x, *r;
    qf_scalar *stats;
} coarse_system;

static int coarse_system_init(coarse_system *cs, qf_linop *Ac, const qf_transfer *T, qf_precision prec, uint64_t seed)
{
    ref_rng g = {seed};
    qf_field_shape shape = qf_transfer_coarse_shape(T);
    const qf_lattice *cl = qf_transfer_coarse_lattice(T);
    *cs = (coarse_system){random_field(cl, &shape, prec, &g, NULL), NULL, NULL, NULL, NULL};
    return qf_field_create_shaped(&cs->b, cl, &shape, prec, 0) || qf_field_create_shaped(&cs->x, cl, &shape, prec, 0) ||
           qf_field_create_shaped(&cs->r, cl, &shape, prec, 0) || qf_scalar_create(&cs->stats) ||
           qf_linop_apply(Ac, cs->b, cs->e);
}

/* |b - D_c x| / |b|, through r */
static int coarse_system_residual(coarse_system *cs, qf_linop *Ac, double *res)
{
    if (qf_linop_apply(Ac, cs->r, cs->x) || qf_blas_axpby(1.0, cs->b, -1.0, cs->r, -1)) return QF_ERROR;
    double *bh = exported(cs->b), *rh = exported(cs->r);
    size_t n = nreals(cs->b);
    *res = sqrt(creal(host_dot(rh, rh, n)) / creal(host_dot(bh, bh, n)));
    free(bh), free(rh);
    return QF_SUCCESS;
}

static void coarse_system_free(coarse_system *cs)
{
    if (cs->stats) qf_scalar_destroy(cs->stats);
    qf_field *fields[] = {cs->e, cs->b, cs->x, cs->r};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        if (fields[k]) qf_field_destroy(fields[k]);
}

/* The one-task coarse solve (where the coarse lattice is one block): D_c x = b for b = D_c e reaches the
 * tolerance tol on the full system, and the statistics count its iterations; refused with the reason on
 * a lattice of several blocks. */
static void check_one_task(qf_linop *Ac, const qf_transfer *T, qf_precision prec, double tol, const char *cfg)
{
    coarse_system cs;
    int rc = coarse_system_init(&cs, Ac, T, prec, 7);
    CHECK(!rc, "%s: one-task solve: %s", cfg, qf_last_error());
    if (!rc && !qf_coarse_one_task_possible(Ac)) {
        rc = qf_coarse_solve_one_task(Ac, cs.x, cs.b, tol, 500, 16, cs.stats);
        CHECK(rc && strstr(qf_last_error(), "lattice of one block and one process"), "%s: a one-task solve on %d blocks: %s",
              cfg, qf_transfer_coarse_lattice(T)->nblocks, rc ? qf_last_error() : "accepted");
    } else if (!rc) {
        double iterations = 0.0, seconds = -1.0, res = INFINITY;
        rc = qf_coarse_solve_one_task(Ac, cs.x, cs.b, tol, 500, 16, cs.stats) || coarse_system_residual(&cs, Ac, &res) ||
             qf_scalar_get(cs.stats, &iterations, &seconds);
        CHECK(!rc, "%s: one-task solve: %s", cfg, qf_last_error());
        CHECK(!rc && res <= 2 * tol && iterations >= 1 && seconds >= 0.0,
              "%s: one-task solve: |b - D_c x| / |b| = %.2e (tolerance %.0e) in %g iterations", cfg, res, tol, iterations);
    }
    coarse_system_free(&cs);
}

/* The dense inverse of the coarse Schur complement (qf_coarse_op_invert_schur): its check residual is
 * that of a double-precision inverse; a one-task solve then applies it, one iteration, and solves the
 * full system D_c x = b to the rounding of the fields' precision, as the task-graph operator applied
 * measures it (the inverse is assembled from the links on its own, so that a wrong entry shows here);
 * without it the solve iterates again. Refused with the reason on a lattice of several blocks. */
static void check_dense_inverse(qf_linop *Ac, const qf_transfer *T, qf_precision prec, const char *cfg)
{
    double check = -1.0;
    if (!qf_coarse_one_task_possible(Ac)) {
        int rc = qf_coarse_op_invert_schur(Ac, &check);
        CHECK(rc && strstr(qf_last_error(), "lattice of one block and one process") && !qf_coarse_op_has_schur_inverse(Ac),
              "%s: a dense Schur inverse on several blocks: %s", cfg, rc ? qf_last_error() : "accepted");
        return;
    }
    if (qf_coarse_op_schur_dim(Ac) > QF_MG_DENSE_CPU) return; /* O(n^3) on a CPU core */
    coarse_system cs;
    double iterations[2] = {0.0, 0.0}, seconds, res = INFINITY;
    int rc = coarse_system_init(&cs, Ac, T, prec, 13) || qf_coarse_op_invert_schur(Ac, &check) ||
             qf_coarse_solve_one_task(Ac, cs.x, cs.b, 1e-3, 500, 16, cs.stats) || coarse_system_residual(&cs, Ac, &res) ||
             qf_scalar_get(cs.stats, &iterations[0], &seconds);
    CHECK(!rc, "%s: dense Schur inverse: %s", cfg, qf_last_error());
    double tol = prec == QF_DOUBLE ? 1e-12 : 1e-5;
    CHECK(!rc && check < 1e-12 && res < tol && iterations[0] == 1.0 && qf_coarse_op_has_schur_inverse(Ac),
          "%s: dense Schur inverse of dimension %lld: check %.2e, |b - D_c x| / |b| = %.2e (tolerance %.0e) in %g "
          "iterations",
          cfg, (long long)qf_coarse_op_schur_dim(Ac), check, res, tol, iterations[0]);
    qf_coarse_op_drop_schur_inverse(Ac);
    rc = rc || qf_scalar_set(cs.stats, 0.0, 0.0) || qf_coarse_solve_one_task(Ac, cs.x, cs.b, 1e-3, 500, 16, cs.stats) ||
         qf_scalar_get(cs.stats, &iterations[1], &seconds);
    CHECK(!rc && iterations[1] > 1.0 && !qf_coarse_op_has_schur_inverse(Ac),
          "%s: the one-task solve after the dense inverse is dropped: %g iterations", cfg, iterations[1]);
    coarse_system_free(&cs);
}

/* A coarse Schur complement singular in double, as a near-critical coarsest level may be: on the free
 * field at kappa 1/8 with every boundary periodic the constant spinors are exact zero modes of the
 * fine operator, and near-null vectors that span them on every aggregate carry them into D_c and so
 * into its Schur complement (the local term, 1 - 4 kappa on the constant modes, stays invertible).
 * qf_coarse_op_invert_schur refuses it with an infinite check residual and keeps no inverse (what the
 * multigrid setup takes as "the level keeps GCR"), and the one-task solve, by GCR, still reaches the
 * tolerance on a consistent system b = D_c e. */
static void check_singular_dense(void)
{
    static const int L[4] = {8, 4, 4, 8}, one[4] = {1, 1, 1, 1}, agg[4] = {2, 2, 2, 2};
    enum { NVEC = 6 };
    qf_lattice lat;
    qf_field *u = NULL, *v[NVEC] = {NULL};
    qf_dirac *d = NULL;
    qf_linop *M = NULL, *Ac = NULL;
    qf_transfer *T = NULL;
    qf_dirac_params dp = qf_dirac_default_params(0.125);
    dp.csw = 1.0; /* F = 0: the clover term is 1 */
    dp.phase[3][0] = 1.0;
    qf_field_shape ws = qf_field_kind_shape(QF_FIELD_WILSON);
    size_t n = (size_t)8 * 4 * 4 * 8 * 24;
    double *h = calloc(n, sizeof *h);
    int rc = !h || qf_lattice_init(&lat, L, NULL, one, 0, 1, 2) ||
             qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_COLD, 1, 0.0) ||
             qf_dirac_create(&d, u, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
             qf_transfer_create(&T, &lat, &ws, agg, NVEC, QF_DOUBLE, 1);
    /* vector (s, c): 1 on spins s and s + 2 of colour c, whose chiral halves span the 12 constant spinors */
    for (int k = 0; k < NVEC && !rc; k++) {
        int s = k / 3, c = k % 3;
        for (size_t i = 0; i < n; i++) h[i] = 0.0;
        for (size_t site = 0; site < n / 24; site++) h[site * 24 + (s * 3 + c) * 2] = h[site * 24 + ((s + 2) * 3 + c) * 2] = 1.0;
        rc = qf_field_create_shaped(&v[k], &lat, &ws, QF_DOUBLE, 0) || qf_field_import(v[k], h);
    }
    rc = rc || qf_transfer_set_vectors(T, v) || qf_linop_coarsen(M, T, &Ac);
    CHECK(!rc, "singular coarse Schur complement: setup: %s", qf_last_error());
    if (!rc) {
        double check = -1.0;
        int ri = qf_coarse_op_invert_schur(Ac, &check);
        CHECK(ri && strstr(qf_last_error(), "singular") && check == INFINITY && !qf_coarse_op_has_schur_inverse(Ac),
              "a singular coarse Schur complement (dimension %lld) inverted densely: %s, check residual %.2e, inverse "
              "%s",
              (long long)qf_coarse_op_schur_dim(Ac), ri ? qf_last_error() : "accepted", check,
              qf_coarse_op_has_schur_inverse(Ac) ? "kept" : "not kept");
        coarse_system cs;
        double iterations = 0.0, seconds, res = INFINITY;
        rc = coarse_system_init(&cs, Ac, T, QF_DOUBLE, 17) || qf_coarse_solve_one_task(Ac, cs.x, cs.b, 1e-8, 500, 16, cs.stats) ||
             coarse_system_residual(&cs, Ac, &res) || qf_scalar_get(cs.stats, &iterations, &seconds);
        CHECK(!rc && res <= 2e-8 && iterations > 1.0,
              "GCR on the singular coarse operator after the refused inverse: %s|b - D_c x| / |b| = %.2e in %g "
              "iterations",
              rc ? qf_last_error() : "", res, iterations);
        coarse_system_free(&cs);
    }
    for (int k = 0; k < NVEC; k++)
        if (v[k]) qf_field_destroy(v[k]);
    qf_linop_destroy(Ac), qf_transfer_destroy(T), qf_linop_destroy(M), qf_dirac_destroy(d);
    if (u) qf_field_destroy(u);
    free(h);
}

/* Half-precision links (qf_coarse_op_set_link_precision) on a single-precision coarse operator: D_c e,
 * its dagger and its Schur complement agree with those of the single links to the 16-bit rounding of
 * each row (about 3e-5 of a row's largest entry) but not bit for bit, the one-task solve converges on
 * them, and back in single the operator applies its single links again, bit for bit. */
static void check_half_links(qf_linop *Ac, const qf_transfer *T, const char *cfg)
{
    ref_rng g = {5};
    qf_field_shape cs = qf_transfer_coarse_shape(T);
    const qf_lattice *cl = qf_transfer_coarse_lattice(T);
    qf_field *e = random_field(cl, &cs, QF_SINGLE, &g, NULL), *out[2][3] = {{NULL}};
    qf_linop *schur = NULL;
    int rc = qf_linop_schur(Ac, &schur);
    /* on one kind of worker: D_c e with single links again below is compared bit for bit */
    qf_task_scope *pin = one_kind_scope(), *outer = qf_task_scope_enter(pin);
    for (int h = 0; h < 2; h++) {
        rc = rc || (h && qf_coarse_op_set_link_precision(Ac, QF_HALF));
        for (int k = 0; k < 3; k++) rc = rc || qf_field_create_shaped(&out[h][k], cl, &cs, QF_SINGLE, 0);
        rc = rc || qf_linop_apply(Ac, out[h][0], e) || qf_linop_apply_dagger(Ac, out[h][1], e) ||
             qf_linop_apply(schur, out[h][2], e);
    }
    qf_task_scope_leave(outer);
    CHECK(!rc, "%s: half links: %s", cfg, qf_last_error());
    static const char *const what[3] = {"D_c e", "D_c^dag e", "Dhat_c e"};
    for (int k = 0; k < 3 && !rc; k++) {
        double *a = exported(out[0][k]), *b = exported(out[1][k]), d = rel_diff(b, a, nreals(e));
        CHECK(d > 1e-8 && d < 2e-4, "%s: %s with half links against single links: %.2e (want 1e-8 .. 2e-4)", cfg,
              what[k], d);
        free(a), free(b);
    }
    /* the full system's residual stops near 1e-4: X and X^-1 are rounded apart, so the Schur solve's
     * reconstruction X_oo^-1 is no exact inverse of X_oo */
    if (!rc) check_one_task(Ac, T, QF_SINGLE, 1e-3, cfg);
    rc = qf_coarse_op_set_link_precision(Ac, QF_DOUBLE);
    CHECK(rc && strstr(qf_last_error(), "half for a single-precision operator"), "%s: double links refused: %s", cfg,
          rc ? qf_last_error() : "accepted");
    outer = qf_task_scope_enter(pin);
    rc = qf_coarse_op_set_link_precision(Ac, QF_SINGLE) || qf_linop_apply(Ac, out[1][0], e);
    qf_task_scope_leave(outer);
    CHECK(!rc, "%s: back to single links: %s", cfg, qf_last_error());
    if (!rc) {
        double *a = exported(out[0][0]), *b = exported(out[1][0]);
        CHECK(!memcmp(a, b, nreals(e) * sizeof *a), "%s: D_c e with single links again differs from the first", cfg);
        free(a), free(b);
    }
    qf_field_destroy(e);
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 3; k++)
            if (out[h][k]) qf_field_destroy(out[h][k]);
}

/* Random (Gaussian) near-null vectors: the identities hold for any vectors. */
static int make_transfer(qf_transfer **T, const qf_lattice *lat, const qf_field_shape *s, const int agg[4], int nvec,
                         qf_precision prec, int one_block)
{
    qf_field *v[QF_MG_MAX_NVEC] = {NULL};
    if (nvec > QF_MG_MAX_NVEC) return qf_fail("make_transfer: %d vectors, at most %d", nvec, QF_MG_MAX_NVEC);
    int rc = qf_transfer_create(T, lat, s, agg, nvec, prec, one_block);
    for (int k = 0; k < nvec && !rc; k++)
        rc = qf_field_create_shaped(&v[k], lat, s, prec, 0) || qf_field_gaussian(v[k], 5, k);
    rc = rc || qf_transfer_set_vectors(*T, v);
    for (int k = 0; k < nvec; k++)
        if (v[k]) qf_field_destroy(v[k]);
    return rc;
}

/* Two coarse levels in one task (each lattice made one block): D_c x = b on the upper one by flexible
 * GCR with the K-cycle through the lower one inside the task reaches the tolerance on the full system
 * (checked with the task-graph operator), and both levels' statistics count; a transfer that does not
 * join the levels is refused with the reason. */
static void check_cycle_one_task(qf_linop *M, const qf_lattice *lat, const int agg[4], qf_precision prec, const char *cfg)
{
    static const int agg2[4] = {2, 1, 1, 2};
    qf_field_shape ws = qf_field_kind_shape(QF_FIELD_WILSON), cs;
    qf_transfer *T = NULL, *Tc = NULL;
    qf_linop *ops[2] = {NULL, NULL};
    qf_field *e = NULL, *b = NULL, *x = NULL, *r = NULL;
    qf_scalar *stats[2] = {NULL, NULL};
    double *e_h = NULL, tol = prec == QF_DOUBLE ? 1e-9 : 1e-5;
    ref_rng g = {13};
    int rc = make_transfer(&T, lat, &ws, agg, 6, prec, 1) || qf_linop_coarsen(M, T, &ops[0]);
    if (!rc) {
        cs = qf_transfer_coarse_shape(T);
        const qf_lattice *cl = qf_transfer_coarse_lattice(T);
        rc = make_transfer(&Tc, cl, &cs, agg2, 4, prec, 1) || qf_linop_coarsen(ops[0], Tc, &ops[1]) ||
             qf_field_create_shaped(&b, cl, &cs, prec, 0) || qf_field_create_shaped(&x, cl, &cs, prec, 0) ||
             qf_field_create_shaped(&r, cl, &cs, prec, 0) || qf_scalar_create(&stats[0]) ||
             qf_scalar_create(&stats[1]);
        if (!rc) e = random_field(cl, &cs, prec, &g, &e_h);
        rc = rc || qf_linop_apply(ops[0], b, e);
    }
    CHECK(!rc, "%s: two levels in one task: setup: %s", cfg, qf_last_error());
    if (!rc) {
        qf_coarse_task_params p = {.tol = tol, .max_iter = 200, .nkrylov = 8, .smoother_steps = 2};
        const qf_transfer *Ts[1] = {Tc}, *wrong[1] = {T};
        double it0 = 0.0, s0 = -1.0, it1 = 0.0, s1 = -1.0;
        int bad = qf_coarse_levels_solve_one_task(2, ops, wrong, x, b, &p, stats);
        CHECK(bad && strstr(qf_last_error(), "does not map level 0's lattice to level 1's"),
              "%s: two levels in one task with the wrong transfer: %s", cfg, bad ? qf_last_error() : "accepted");
        rc = qf_coarse_levels_solve_one_task(2, ops, Ts, x, b, &p, stats) || qf_linop_apply(ops[0], r, x) ||
             qf_blas_axpby(1.0, b, -1.0, r, -1) || qf_scalar_get(stats[0], &it0, &s0) ||
             qf_scalar_get(stats[1], &it1, &s1);
        CHECK(!rc, "%s: two levels in one task: %s", cfg, qf_last_error());
        double *bh = exported(b), *rh = exported(r);
        size_t n = nreals(b);
        double res = sqrt(creal(host_dot(rh, rh, n)) / creal(host_dot(bh, bh, n)));
        CHECK(!rc && res <= 2 * tol && it0 >= 1 && it1 >= it0 && s0 >= s1 && s1 >= 0.0,
              "%s: two levels in one task: |b - D_c x| / |b| = %.2e (tolerance %.0e), iterations %g and %g, %g s and %g s",
              cfg, res, tol, it0, it1, s0, s1);
        free(bh), free(rh);
        /* one iteration: x = alpha p_0 with alpha = <z_0, b> / |z_0|^2 for z_0 the cycle's image of
         * p_0; only z_0 = A p_0 makes it the best step along x (<A x, b> / |A x|^2 = 1) */
        p.max_iter = 1;
        rc = qf_coarse_levels_solve_one_task(2, ops, Ts, x, b, &p, stats) || qf_linop_apply(ops[0], r, x);
        CHECK(!rc, "%s: one iteration in one task: %s", cfg, qf_last_error());
        if (!rc) {
            double *ax = exported(r), *bb = exported(b);
            double complex step = host_dot(ax, bb, n) / creal(host_dot(ax, ax, n));
            CHECK(cabs(step - 1.0) < (prec == QF_DOUBLE ? 1e-9 : 1e-4),
                  "%s: one iteration in one task: the best step along x is %.9f%+.9fi, not 1 (the cycle's image of A p "
                  "is off)",
                  cfg, creal(step), cimag(step));
            free(ax), free(bb);
        }
    }
    free(e_h);
    for (int k = 0; k < 2; k++) {
        if (stats[k]) qf_scalar_destroy(stats[k]);
        qf_linop_destroy(ops[1 - k]);
    }
    qf_transfer_destroy(Tc), qf_transfer_destroy(T);
    qf_field *fields[] = {e, b, x, r};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        if (fields[k]) qf_field_destroy(fields[k]);
}

static void galerkin_case(const int L[4], const int blocks[4], const int agg[4], int nvec, double csw, int bc,
                          qf_precision prec, int third_level)
{
    char cfg[200];
    snprintf(cfg, sizeof cfg, "%d%d%d%d blocks %d%d%d%d agg %d%d%d%d N %d csw %g bc %d %s", L[0], L[1], L[2], L[3],
             blocks[0], blocks[1], blocks[2], blocks[3], agg[0], agg[1], agg[2], agg[3], nvec, csw, bc,
             qf_precision_name(prec));
    problem pb;
    CHECK(!problem_init(&pb, L, blocks, 11), "%s: problem: %s", cfg, qf_last_error());
    qf_dirac_params dp = qf_dirac_default_params(0.11);
    dp.csw = csw;
    dp.prec = prec;
    if (bc == 1) dp.phase[3][0] = 1.0; /* periodic */
    if (bc == 2) dp.phase[0][0] = cos(0.3), dp.phase[0][1] = sin(0.3);
    qf_dirac *d = NULL;
    qf_linop *M = NULL, *Ac = NULL, *Acc = NULL;
    qf_transfer *T = NULL, *Tc = NULL;
    qf_field_shape ws = qf_field_kind_shape(QF_FIELD_WILSON);
    int rc = qf_dirac_create(&d, pb.u, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
             make_transfer(&T, &pb.lat, &ws, agg, nvec, prec, 0) || qf_linop_coarsen(M, T, &Ac);
    CHECK(!rc, "%s: setup: %s", cfg, qf_last_error());
    if (!rc) {
        check_transfer(T, prec, cfg);
        check_coarse(M, T, Ac, prec, cfg);
        qf_field_shape cs = qf_transfer_coarse_shape(T);
        check_schur_image(M, &pb.lat, &ws, prec, cfg);
        check_schur_image(Ac, qf_transfer_coarse_lattice(T), &cs, prec, cfg);
        check_prepare_defect(M, &pb.lat, &ws, prec, cfg);
        check_prepare_defect(Ac, qf_transfer_coarse_lattice(T), &cs, prec, cfg);
        qf_dirac *ds = NULL; /* the symmetric form's image and defect pass through the clover term */
        qf_linop *Ms = NULL;
        if (!qf_dirac_create(&ds, pb.u, &dp, QF_SCHUR_SYMMETRIC) && !qf_dirac_linop(ds, &Ms)) {
            check_schur_image(Ms, &pb.lat, &ws, prec, cfg);
            check_prepare_defect(Ms, &pb.lat, &ws, prec, cfg);
        }
        qf_linop_destroy(Ms), qf_dirac_destroy(ds);
        check_one_task(Ac, T, prec, prec == QF_DOUBLE ? 1e-10 : 1e-5, cfg);
        check_dense_inverse(Ac, T, prec, cfg);
        if (prec == QF_SINGLE) check_half_links(Ac, T, cfg);
        if (third_level) check_cycle_one_task(M, &pb.lat, agg, prec, cfg);
    }
    if (!rc && third_level) {
        qf_field_shape cs = qf_transfer_coarse_shape(T);
        int agg2[4] = {2, 1, 1, 2};
        strcat(cfg, " level 3");
        rc = make_transfer(&Tc, qf_transfer_coarse_lattice(T), &cs, agg2, 4, prec, 0) || qf_linop_coarsen(Ac, Tc, &Acc);
        CHECK(!rc, "%s: setup: %s", cfg, qf_last_error());
        if (!rc) {
            check_transfer(Tc, prec, cfg);
            check_coarse(Ac, Tc, Acc, prec, cfg);
        }
    }
    qf_linop_destroy(Acc), qf_transfer_destroy(Tc), qf_linop_destroy(Ac), qf_transfer_destroy(T);
    qf_linop_destroy(M), qf_dirac_destroy(d);
    problem_free(&pb);
}

/* ---- the solver ---- */

static int mg_solve(const int blocks[4], qf_precision link_prec, int dense, double *solution, int *iterations)
{
    static const int L[4] = {8, 8, 8, 8};
    qf_lattice lat;
    qf_field *u = NULL, *b = NULL, *x = NULL, *xb = NULL;
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    qf_mg *mg = NULL;
    qf_dirac_params dp = qf_dirac_default_params(0.14);
    dp.csw = 1.0;
    qf_mg_params mp = qf_mg_default_params();
    mp.nvec[0] = 8;
    mp.coarse_one_task = 1; /* coarse task graphs on the grids whose coarsest lattice has several blocks */
    mp.coarse_link_prec = link_prec;
    mp.null_prec = link_prec;
    mp.coarse_dense = dense ? QF_MG_DENSE_AUTO : 0;
    qf_field_shape ws = qf_field_kind_shape(QF_FIELD_WILSON);
    int rc = qf_lattice_init(&lat, L, NULL, blocks, 0, 1, 2) ||
             qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_WEAK, 3, 0.3) ||
             qf_dirac_create(&d, u, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
             qf_field_create_shaped(&b, &lat, &ws, QF_DOUBLE, 0) || qf_field_gaussian(b, 9, 0) ||
             qf_field_create(&x, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
             qf_field_create(&xb, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0);
    qf_runtime_stats *st = NULL;
    int counted = !rc && lat.nblocks == 1 && qf_runtime_stats_begin() == 0;
    rc = rc || qf_mg_setup(&mg, M, &mp);
    if (counted && qf_runtime_stats_end(&st) == 0 && st && !rc) {
        /* one block: each Gram-Schmidt of the setup's near-null vectors is one chain task, its dots in it
         * (4 passes of sum_k k = 28 dots for 8 vectors, 112 tasks of their own: 240 in all, 128 with the
         * chains; the rest are the norms the setup and its solves read) */
        long reduces = qf_runtime_stats_tasks(st, "blas_reduce");
        CHECK(reduces <= 180, "MG on one block: the setup ran %ld blas_reduce tasks (at most 180 expected: the "
              "Gram-Schmidt dots in chains)", reduces);
        if (reduces <= 180) printf("ok   MG on one block: the setup ran %ld blas_reduce tasks\n", reduces);
    }
    qf_runtime_stats_free(st);
    CHECK(!rc, "MG blocks %d%d%d%d links %s: setup: %s", blocks[0], blocks[1], blocks[2], blocks[3],
          qf_precision_name(link_prec), qf_last_error());
    if (!rc) {
        /* the K-cycle's image A z from its smoother's residual against the finest operator applied */
        qf_precond *K = qf_mg_precond(mg);
        qf_linop *A0 = qf_mg_level_op(mg, 0);
        qf_field *r0 = NULL, *z0 = NULL, *az = NULL, *ax = NULL;
        int ri = qf_linop_field_take(A0, &r0) || qf_linop_field_take(A0, &z0) || qf_linop_field_take(A0, &az) ||
                 qf_linop_field_take(A0, &ax) || qf_field_convert(r0, b) ||
                 qf_precond_apply_image(K, z0, az, r0, NULL) || qf_linop_apply(A0, ax, z0);
        CHECK(!ri && qf_precond_has_image(K), "K-cycle image: %s", ri ? qf_last_error() : "none");
        if (!ri) {
            double *e1 = exported(ax), *e2 = exported(az), di = rel_diff(e2, e1, nreals(ax));
            CHECK(di < 1e-4, "the K-cycle's image A z against the operator applied to z: %.2e", di);
            free(e1), free(e2);
        }
        /* the same for the K-cycle on the Schur system, against Ahat applied, on the even sites */
        qf_precond *Ks = qf_mg_precond_schur(mg);
        qf_linop *S0 = NULL;
        ri = !Ks || qf_linop_schur(A0, &S0) || qf_blas_axpby(0.0, NULL, 0.0, az, -1) ||
             qf_blas_axpby(0.0, NULL, 0.0, ax, -1) || qf_precond_apply_image(Ks, z0, az, r0, NULL) ||
             qf_linop_apply(S0, ax, z0);
        CHECK(!ri, "the Schur system's K-cycle image: %s", Ks ? qf_last_error() : "no such K-cycle");
        if (!ri) {
            double *e1 = exported(ax), *e2 = exported(az), di = rel_diff(e2, e1, nreals(ax));
            CHECK(di < 1e-4, "the Schur K-cycle's image Ahat z_e against Ahat applied to z_e: %.2e", di);
            free(e1), free(e2);
        }
        qf_field *tk[] = {r0, z0, az, ax};
        for (int k = 0; k < 4; k++)
            if (tk[k]) qf_linop_field_give_back(A0, tk[k]);
        qf_solver_params p = qf_solver_default_params();
        p.kind = QF_SOLVER_MG;
        p.mg = mg;
        p.tol = 1e-10;
        p.max_iter = 200;
        p.check_every = 1;
        p.verbose = getenv("V") != NULL;
        qf_solver_result res, rb, rf;
        /* the outer GCR on the full system, then (the default) on the Schur system */
        p.even_odd = 0;
        rc = qf_solve(M, x, b, &p, &rf);
        CHECK(!rc && rf.converged && rf.residual <= 1.5e-10, "MG solve of the full system: %s (residual %.2e after %d "
              "iterations)", rc ? qf_last_error() : "", rf.residual, rf.iterations);
        double *af = rc ? NULL : exported(x);
        p.even_odd = 1;
        rc = rc || qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, &p, &res);
        CHECK(!rc && res.converged && res.residual <= 1.5e-10, "MG solve: %s (residual %.2e after %d iterations)",
              rc ? qf_last_error() : "", res.residual, res.iterations);
        qf_solver_params pb = qf_solver_default_params();
        pb.tol = 1e-10;
        pb.max_iter = 4000;
        pb.check_every = 1;
        int rcb = qf_solve(M, xb, b, &pb, &rb);
        CHECK(!rcb, "BiCGStab: %s", qf_last_error());
        qf_mg_stats st;
        qf_mg_get_stats(mg, &st);
        /* auto placement: on a node with both kinds of worker the coarse level is placed whole by the
         * setup's timed K-cycles (and the solve above then ran on that placement), elsewhere it is left
         * to the scheduler */
        int mixed = qf_runtime_ncpu_workers() > 0 && qf_runtime_ncuda_workers() > 0;
        CHECK(st.measured[1] == mixed && st.measured[0] == 0 &&
                  (mixed ? st.location[1] != QF_PLACE_AUTO : st.location[1] == QF_PLACE_AUTO),
              "MG auto placement on %s workers: level 1 placed %s, measured %d",
              mixed ? "CPU and CUDA" : "one kind of", qf_placement_name(st.location[1]), st.measured[1]);
        if (mixed)
            CHECK(st.ran[1][st.location[1] == QF_PLACE_CPU ? QF_WORKER_CUDA : QF_WORKER_CPU] == 0,
                  "MG level 1 placed %s, but %ld of its tasks ran on the other kind of worker",
                  qf_placement_name(st.location[1]),
                  st.ran[1][st.location[1] == QF_PLACE_CPU ? QF_WORKER_CUDA : QF_WORKER_CPU]);
        /* the coarsest level (2^4 sites, one block, N = 8) solved by its dense Schur inverse (auto:
         * dimension 128) or by GCR */
        CHECK(st.dense_dim == (dense ? 128 : 0) && (!dense || st.dense_residual < 1e-12) &&
                  (dense ? st.iterations[1] == st.visits[1] : st.iterations[1] > st.visits[1]),
              "MG blocks %d%d%d%d: coarsest dense inverse of dimension %lld (check %.2e), %ld iterations in %ld solves",
              blocks[0], blocks[1], blocks[2], blocks[3], (long long)st.dense_dim, st.dense_residual, st.iterations[1],
              st.visits[1]);
        double *a1 = exported(x), *a2 = exported(xb);
        double diff = rel_diff(a1, a2, nreals(x)), difff = af ? rel_diff(af, a2, nreals(x)) : 1.0;
        CHECK(diff < 1e-8 && difff < 1e-8, "MG (Schur and full system) and BiCGStab solutions differ by %.2e and %.2e",
              diff, difff);
        printf("MG blocks %d%d%d%d, coarse links and near-null vectors in %s, coarsest by %s: %d outer iterations "
               "on the Schur system, %d on the full one (BiCGStab %d), true residual %.2e, setup %.2f s, solve %.2f s\n",
               blocks[0], blocks[1], blocks[2], blocks[3], qf_precision_name(link_prec), dense ? "its dense inverse" : "GCR",
               res.iterations, rf.iterations, rb.iterations, res.residual, st.setup_seconds, res.seconds);
        free(af);
        CHECK(res.iterations < rb.iterations, "MG took %d iterations, BiCGStab %d", res.iterations, rb.iterations);
        memcpy(solution, a1, nreals(x) * sizeof *solution);
        *iterations = res.iterations;
        free(a1), free(a2);
    }
    qf_mg_destroy(mg);
    qf_linop_destroy(M);
    qf_dirac_destroy(d);
    qf_field *f[] = {u, b, x, xb};
    for (int k = 0; k < 4; k++)
        if (f[k]) qf_field_destroy(f[k]);
    return rc;
}

/* The automatic level count: one level more for each coarsening that keeps even local extents, up to
 * three; the process grid's local extents decide, and an explicit count stands. */
static void check_auto_levels(void)
{
    static const struct {
        int L[4], procs[4], nprocs, agg, levels, want;
    } cases[] = {
        {{8, 8, 8, 8}, {1, 1, 1, 1}, 1, 4, QF_MG_LEVELS_AUTO, 2},    /* 2^4, then a lattice of extent 1 */
        {{8, 8, 8, 8}, {1, 1, 1, 1}, 1, 2, QF_MG_LEVELS_AUTO, 3},    /* 4^4, 2^4 */
        {{16, 16, 16, 16}, {1, 1, 1, 1}, 1, 4, QF_MG_LEVELS_AUTO, 3}, /* 4^4, 2^4 */
        {{64, 64, 64, 64}, {1, 1, 1, 1}, 1, 4, QF_MG_LEVELS_AUTO, 3}, /* capped at three */
        {{16, 16, 16, 16}, {1, 1, 1, 2}, 2, 4, QF_MG_LEVELS_AUTO, 2}, /* local 4 4 4 2, then 1 in t */
        {{8, 8, 8, 8}, {1, 1, 1, 1}, 1, 4, 4, 4},                    /* asked for: the setup judges it */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        qf_lattice lat;
        qf_mg_params p = qf_mg_default_params();
        p.levels = cases[k].levels;
        for (int mu = 0; mu < 4; mu++) p.block[0][mu] = cases[k].agg;
        int blocks[4] = {1, 1, 1, 1};
        int rc = qf_lattice_init(&lat, cases[k].L, cases[k].procs, blocks, 0, cases[k].nprocs, 2);
        CHECK(!rc, "auto levels case %zu: lattice: %s", k, qf_last_error());
        if (rc) continue;
        int got = qf_mg_levels_for(&lat, &p);
        CHECK(got == cases[k].want, "levels of case %zu (%d^4 over %d processes, aggregates %d^4): %d, expected %d", k,
              cases[k].L[0], cases[k].nprocs, cases[k].agg, got, cases[k].want);
    }
    CHECK(qf_mg_default_params().levels == QF_MG_LEVELS_AUTO, "the default level count is not automatic");
}

int main(void)
{
    int st = qf_test_start();
    if (st >= 0) return st;
    check_auto_levels();
    static const int L[4] = {8, 4, 4, 8};
    static const int one[4] = {1, 1, 1, 1}, two[4] = {2, 1, 1, 2}, all[4] = {2, 2, 2, 2};
    static const int agg4[4] = {4, 2, 2, 4}, agg2[4] = {2, 2, 2, 2};
    galerkin_case(L, one, agg4, 6, 0.0, 0, QF_DOUBLE, 0);
    galerkin_case(L, two, agg2, 6, 1.0, 0, QF_DOUBLE, 1);
    galerkin_case(L, two, agg4, 6, 1.0, 1, QF_DOUBLE, 0);
    galerkin_case(L, all, agg2, 6, 1.0, 2, QF_DOUBLE, 0);
    galerkin_case(L, two, agg2, 6, 1.0, 0, QF_SINGLE, 1);
    /* N = 16: the CUDA warp schedule of the coarse hops (N < 16 runs a thread a row), on coarse
     * lattices of 32, 256 and 512 sites a parity, which take 4, 2 and 1 warps a direction on a GPU of
     * 132 multiprocessors (H100) */
    static const int L2[4] = {16, 8, 8, 8}, L3[4] = {16, 8, 8, 16};
    galerkin_case(L, two, agg2, 16, 1.0, 0, QF_DOUBLE, 0);
    galerkin_case(L2, one, agg2, 16, 1.0, 1, QF_SINGLE, 0);
    galerkin_case(L3, one, agg2, 16, 1.0, 0, QF_DOUBLE, 0);
    /* N = 40 (2 N > 64): a lane of the warp schedule holds two column pairs, with the next row group's
     * loads in flight for half links and a group at a time for single and double ones */
    galerkin_case(L, two, agg2, 40, 1.0, 0, QF_SINGLE, 0);
    galerkin_case(L, two, agg2, 40, 1.0, 0, QF_DOUBLE, 0);
    check_singular_dense();

    static const int sb[4] = {2, 1, 1, 2};
    size_t n = (size_t)8 * 8 * 8 * 8 * 24;
    double *x1 = malloc(n * sizeof *x1), *x2 = malloc(n * sizeof *x2);
    int it1 = -1, it2 = -2, it3 = -3;
    /* the coarsest solved exactly (its dense inverse) and to 0.25 (GCR): the outer iterations barely change */
    if (!mg_solve(one, QF_SINGLE, 1, x1, &it1) && !mg_solve(sb, QF_SINGLE, 0, x2, &it2)) {
        CHECK(abs(it1 - it2) <= 1, "MG iterations differ between block grids: %d and %d", it1, it2);
        double diff = rel_diff(x1, x2, n);
        CHECK(diff < 1e-9, "MG solutions of two block grids differ by %.2e", diff);
    }
    /* half coarse links and near-null vectors: a preconditioner of 16-bit accuracy, the outer iterations
     * barely change */
    if (!mg_solve(sb, QF_HALF, 1, x2, &it3))
        CHECK(abs(it3 - it1) <= 2, "MG iterations with half coarse links and vectors: %d, single %d", it3, it1);
    free(x1), free(x2);
    qf_runtime_shutdown();
    return qf_check_summary();
}
