/* The Schwarz alternating procedure (qf_linop_domains, qf_precond_sap in qf_linop.h) against an
 * independent reference written with the global-loop operator of dirac_reference.c:
 *   - one colour's domain solves: on each domain of the colour, MR steps on the even-odd preconditioned
 *     operator with Dirichlet boundaries (the hops applied to a field that vanishes off the colour's
 *     domains, kept on them: the neighbouring domains have the other colour), each domain with its own
 *     MR coefficient, the odd sites reconstructed, added to x; to 1e-12 (double) and 1e-5 (single) on
 *     several block grids, domain extents, with and without clover, periodic and antiperiodic time;
 *   - the whole SAP preconditioner (cycles of both colours with the residual updated between them);
 *   - GCR preconditioned by SAP reaching the requested true residual in fewer iterations than GCR
 *     preconditioned by as many MR steps;
 *   - domain extents that do not suit the lattice, and operators without domain solves, refused.
 * The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "dirac_reference.h"
#include "quarkflow.h"
#include "test_start.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int L[4], dom[4];
    double kappa, csw;
    int antiperiodic;
} sap_case;

/* The domain of global site s (lexicographic on the global grid of domains) and its colour. */
static int64_t domain_of(const int L[4], const int dom[4], int64_t s, int *colour)
{
    int x[4];
    ref_coords(s, L, x);
    int64_t j = 0, stride = 1;
    int c = 0;
    for (int mu = 0; mu < 4; mu++) {
        j += (x[mu] / dom[mu]) * stride;
        stride *= L[mu] / dom[mu];
        c += x[mu] / dom[mu];
    }
    *colour = c & 1;
    return j;
}

/* Zero f off the colour's domains (id < 0). */
static void keep_domains(const int64_t *id, int64_t V, double *f)
{
    for (int64_t s = 0; s < V; s++)
        if (id[s] < 0) memset(f + s * REF_SPINOR_REALS, 0, REF_SPINOR_REALS * sizeof *f);
}

/* out = C^-1 D in on parity p, on the colour's domains only, 0 elsewhere (in vanishes off them, so no
 * hop reaches a domain from outside: Dirichlet boundaries); inverse 0: out = D in there. */
static void domain_hop(const ref_dirac *rd, const int64_t *id, double *out, const double *in, int p, int inverse)
{
    memset(out, 0, (size_t)rd->V * REF_SPINOR_REALS * sizeof *out);
    ref_hop(rd, out, in, 0, p);
    keep_domains(id, rd->V, out);
    if (inverse) ref_clover(rd, out, out, 1, 0, p);
}

/* x += the colour's domain solves of r: on each domain, mr MR steps from zero on the even-odd
 * preconditioned domain operator Mhat_d = A_ee - kappa^2 D_eo A_oo^-1 D_oe for the prepared source,
 * then the odd sites reconstructed (kernels/sap.h), each domain with its own MR coefficient. */
static void ref_domain_solves(const ref_dirac *rd, const int dom[4], int colour, int mr, double *x, const double *r)
{
    const int *L = rd->L;
    int64_t V = rd->V, nd = V / ((int64_t)dom[0] * dom[1] * dom[2] * dom[3]);
    double k = rd->kappa;
    size_t n = (size_t)V * REF_SPINOR_REALS;
    double *u = malloc(n * sizeof *u), *rho = malloc(n * sizeof *rho), *t = malloc(n * sizeof *t),
           *q = malloc(n * sizeof *q), *ar = calloc(n, sizeof *ar), *e = calloc(n, sizeof *e);
    int64_t *id = malloc((size_t)V * sizeof *id);
    for (int64_t s = 0; s < V; s++) {
        int c;
        id[s] = domain_of(L, dom, s, &c);
        if (c != colour) id[s] = -1;
    }
    /* u = r on the domains with u_o = A_oo^-1 r_o; rho_e = r_e + kappa D_eo u_o */
    memcpy(u, r, n * sizeof *u);
    keep_domains(id, V, u);
    ref_clover(rd, u, u, 1, 0, 1);
    domain_hop(rd, id, rho, u, 0, 0);
    for (size_t i = 0; i < n; i++) rho[i] = ref_parity_of((int64_t)(i / REF_SPINOR_REALS), L) ? 0.0 : u[i] + k * rho[i];
    double complex *num = malloc((size_t)nd * sizeof *num);
    double *den = malloc((size_t)nd * sizeof *den);
    for (int step = 0; step < mr; step++) {
        domain_hop(rd, id, t, rho, 1, 1); /* t_o = A_oo^-1 D_oe rho_e */
        domain_hop(rd, id, q, t, 0, 0);   /* q_e = A_ee rho_e - kappa^2 D_eo t_o */
        ref_clover(rd, ar, rho, 0, 0, 0);
        for (size_t i = 0; i < n; i++) q[i] = ar[i] - k * k * q[i];
        for (int64_t j = 0; j < nd; j++) num[j] = 0.0, den[j] = 0.0;
        for (int64_t s = 0; s < V; s++) {
            if (id[s] < 0 || ref_parity_of(s, L)) continue;
            for (int i = 0; i < REF_SPINOR_REALS; i += 2) {
                double complex qq = q[s * 24 + i] + I * q[s * 24 + i + 1],
                               rr = rho[s * 24 + i] + I * rho[s * 24 + i + 1];
                num[id[s]] += conj(qq) * rr;
                den[id[s]] += creal(conj(qq) * qq);
            }
        }
        for (int64_t s = 0; s < V; s++) {
            if (id[s] < 0 || ref_parity_of(s, L)) continue;
            double complex a = den[id[s]] > 0.0 ? num[id[s]] / den[id[s]] : 0.0;
            for (int i = 0; i < REF_SPINOR_REALS; i += 2) {
                double complex qq = q[s * 24 + i] + I * q[s * 24 + i + 1],
                               rr = rho[s * 24 + i] + I * rho[s * 24 + i + 1];
                double complex ee = e[s * 24 + i] + I * e[s * 24 + i + 1] + a * rr;
                rr -= a * qq;
                e[s * 24 + i] = creal(ee), e[s * 24 + i + 1] = cimag(ee);
                rho[s * 24 + i] = creal(rr), rho[s * 24 + i + 1] = cimag(rr);
            }
        }
    }
    /* e_o = u_o + kappa A_oo^-1 D_oe e_e */
    domain_hop(rd, id, t, e, 1, 1);
    for (size_t i = 0; i < n; i++)
        if (ref_parity_of((int64_t)(i / REF_SPINOR_REALS), L)) e[i] = u[i] + k * t[i];
    for (size_t i = 0; i < n; i++) x[i] += e[i];
    free(u), free(rho), free(t), free(q), free(ar), free(e), free(id), free(num), free(den);
}

/* z = SAP(cycles, mr) r */
static void ref_sap(const ref_dirac *rd, const int dom[4], int cycles, int mr, double *z, const double *r)
{
    size_t n = (size_t)rd->V * REF_SPINOR_REALS;
    double *s = malloc(n * sizeof *s);
    memset(z, 0, n * sizeof *z);
    memcpy(s, r, n * sizeof *s);
    for (int cy = 0; cy < cycles; cy++)
        for (int c = 0; c < 2; c++) {
            ref_domain_solves(rd, dom, c, mr, z, s);
            ref_dirac_apply(rd, REF_M, REF_ASYMMETRIC, s, z);
            for (size_t i = 0; i < n; i++) s[i] = r[i] - s[i];
        }
    free(s);
}

static double rel(const double *a, const double *b, size_t n)
{
    double d = 0.0, nb = 0.0;
    for (size_t i = 0; i < n; i++) d += (a[i] - b[i]) * (a[i] - b[i]), nb += b[i] * b[i];
    return sqrt(d / nb);
}

typedef struct {
    qf_lattice lat;
    qf_field *u;
    qf_dirac *d;
    qf_linop *M;
    ref_dirac rd;
    double *links;
} setup;

static int setup_init(setup *st, const sap_case *c, const int blocks[4], qf_precision prec, uint64_t seed)
{
    memset(st, 0, sizeof *st);
    ref_rng g = {seed};
    int64_t V = ref_volume(c->L);
    st->links = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double));
    ref_random_links(&g, c->L, st->links);
    qf_dirac_params dp = qf_dirac_default_params(c->kappa);
    dp.csw = c->csw;
    dp.prec = prec;
    if (!c->antiperiodic) dp.phase[3][0] = 1.0;
    if (ref_dirac_init(&st->rd, c->L, st->links, c->kappa, c->csw, (const double(*)[2])dp.phase)) return -1;
    return qf_lattice_init(&st->lat, c->L, NULL, blocks, 0, 1, 2) ||
           qf_field_create(&st->u, &st->lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_field_import(st->u, st->links) ||
           qf_dirac_create(&st->d, st->u, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(st->d, &st->M);
}

static void setup_free(setup *st)
{
    qf_linop_destroy(st->M);
    qf_dirac_destroy(st->d);
    if (st->u) qf_field_destroy(st->u);
    ref_dirac_free(&st->rd);
    free(st->links);
}

static qf_field *field_from(const qf_lattice *lat, qf_precision prec, const double *a)
{
    qf_field *f = NULL;
    if (qf_field_create(&f, lat, QF_FIELD_WILSON, prec, 0) || qf_field_import(f, a))
        printf("field: %s\n", qf_last_error());
    return f;
}

static void check_case(const sap_case *c, const int blocks[4], qf_precision prec)
{
    char cfg[160];
    snprintf(cfg, sizeof cfg, "L %d%d%d%d blocks %d%d%d%d domains %d%d%d%d csw %g %s t %s", c->L[0], c->L[1], c->L[2],
             c->L[3], blocks[0], blocks[1], blocks[2], blocks[3], c->dom[0], c->dom[1], c->dom[2], c->dom[3], c->csw,
             c->antiperiodic ? "antiperiodic" : "periodic", qf_precision_name(prec));
    double tol = prec == QF_DOUBLE ? 1e-12 : 1e-5;
    setup st;
    if (setup_init(&st, c, blocks, prec, 11)) {
        CHECK(0, "%s: set-up: %s", cfg, qf_last_error());
        setup_free(&st);
        return;
    }
    int64_t V = st.rd.V;
    size_t n = (size_t)V * REF_SPINOR_REALS;
    ref_rng g = {5};
    double *r = malloc(n * sizeof *r), *x0 = malloc(n * sizeof *x0), *want = malloc(n * sizeof *want),
           *got = malloc(n * sizeof *got);
    ref_random_spinor(&g, c->L, r);
    ref_random_spinor(&g, c->L, x0);
    qf_domains *D = NULL;
    int mr = 3;
    CHECK(!qf_linop_domains(st.M, c->dom, mr, &D), "%s: domains: %s", cfg, qf_last_error());
    for (int colour = 0; D && colour < 2; colour++) {
        qf_field *x = field_from(&st.lat, prec, x0), *rf = field_from(&st.lat, prec, r);
        memcpy(want, x0, n * sizeof *want);
        ref_domain_solves(&st.rd, c->dom, colour, mr, want, r);
        int rc = qf_domains_solve(D, colour, x, rf) || qf_field_export(x, got);
        CHECK(!rc, "%s colour %d: %s", cfg, colour, qf_last_error());
        double dx = rel(got, want, n);
        /* the change itself must be right, not only x0 */
        for (size_t i = 0; i < n; i++) got[i] -= x0[i], want[i] -= x0[i];
        double de = rel(got, want, n);
        CHECK(!rc && de < tol && dx < tol, "%s colour %d: domain solves differ from the reference by %.2e (x %.2e)",
              cfg, colour, de, dx);
        qf_field_destroy(x);
        qf_field_destroy(rf);
    }
    qf_domains_destroy(D);
    /* the whole smoother, 2 cycles */
    qf_precond *S = NULL;
    CHECK(!qf_precond_sap(&S, st.M, c->dom, 2, mr), "%s: SAP: %s", cfg, qf_last_error());
    if (S) {
        qf_field *z = NULL, *rf = field_from(&st.lat, prec, r);
        ref_sap(&st.rd, c->dom, 2, mr, want, r);
        double flops = 0.0;
        int rc = qf_field_create(&z, &st.lat, QF_FIELD_WILSON, prec, 0) || qf_precond_apply(S, z, rf, &flops) ||
                 qf_field_export(z, got);
        double d = rel(got, want, n);
        CHECK(!rc && d < tol && flops > 0.0, "%s: SAP(2, %d) differs from the reference by %.2e (%s)", cfg, mr, d,
              rc ? qf_last_error() : "");
        qf_field_destroy(z);
        qf_field_destroy(rf);
        qf_precond_destroy(S);
    }
    free(r), free(x0), free(want), free(got);
    setup_free(&st);
}

/* GCR preconditioned by SAP against GCR preconditioned by MR steps of the same number. */
static void check_gcr(void)
{
    sap_case c = {.L = {8, 8, 8, 8}, .dom = {4, 4, 4, 4}, .kappa = 0.124, .csw = 1.0, .antiperiodic = 1};
    int blocks[4] = {1, 1, 2, 2};
    setup st;
    if (setup_init(&st, &c, blocks, QF_DOUBLE, 3)) {
        CHECK(0, "gcr set-up: %s", qf_last_error());
        setup_free(&st);
        return;
    }
    size_t n = (size_t)st.rd.V * REF_SPINOR_REALS;
    ref_rng g = {9};
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *mx = malloc(n * sizeof *mx);
    ref_random_spinor(&g, c.L, b);
    qf_precond *K[2] = {NULL, NULL};
    int its[2] = {0, 0};
    int rc = qf_precond_sap(&K[0], st.M, c.dom, 4, 4) || qf_precond_mr(&K[1], st.M, 4);
    CHECK(!rc, "gcr preconditioners: %s", qf_last_error());
    for (int k = 0; k < 2 && !rc; k++) {
        qf_solver_params sp = qf_solver_default_params();
        sp.kind = QF_SOLVER_GCR;
        sp.tol = 1e-10;
        sp.max_iter = 300;
        sp.precond = K[k];
        sp.even_odd = 0; /* the preconditioners act on the full lattice */
        sp.check_every = 1;
        qf_solver_result res;
        qf_field *bf = field_from(&st.lat, QF_DOUBLE, b), *xf = NULL;
        int r2 = qf_field_create(&xf, &st.lat, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_solve(st.M, xf, bf, &sp, &res) ||
                 qf_field_export(xf, x);
        ref_dirac_apply(&st.rd, REF_M, REF_ASYMMETRIC, mx, x);
        double res_true = rel(mx, b, n);
        its[k] = res.iterations;
        CHECK(!r2 && res_true < 2e-10, "GCR with %s: true residual %.2e after %d iterations (%s)",
              k ? "MR(4)" : "SAP(4, 4)", res_true, res.iterations, r2 ? qf_last_error() : "");
        printf("GCR with %s: %d iterations, true residual %.2e\n", k ? "MR(4)" : "SAP(4 cycles, 4 MR steps)",
               res.iterations, res_true);
        qf_field_destroy(bf);
        qf_field_destroy(xf);
    }
    CHECK(its[0] > 0 && its[0] < its[1], "SAP-preconditioned GCR took %d iterations, MR-preconditioned %d", its[0],
          its[1]);
    qf_precond_destroy(K[0]);
    qf_precond_destroy(K[1]);
    free(b), free(x), free(mx);
    setup_free(&st);
}

static void check_refusals(void)
{
    sap_case c = {.L = {8, 8, 8, 8}, .dom = {4, 4, 4, 4}, .kappa = 0.12, .csw = 0.0, .antiperiodic = 1};
    int blocks[4] = {1, 1, 1, 2};
    setup st;
    if (setup_init(&st, &c, blocks, QF_DOUBLE, 1)) {
        CHECK(0, "refusals set-up: %s", qf_last_error());
        setup_free(&st);
        return;
    }
    static const int bad[][4] = {{3, 4, 4, 4}, {8, 4, 4, 4}, {4, 4, 4, 8}, {8, 8, 4, 4}, {4, 4, 4, 6}};
    static const char *why[] = {"an odd extent", "one domain along x", "thicker than the block", "1024 sites",
                                "an extent not dividing the block's"};
    for (int k = 0; k < 5; k++) {
        qf_domains *D = NULL;
        int rc = qf_linop_domains(st.M, bad[k], 2, &D);
        CHECK(rc && !D && strstr(qf_last_error(), "do not suit"), "domains %d%d%d%d (%s) accepted or unclear: %s",
              bad[k][0], bad[k][1], bad[k][2], bad[k][3], why[k], qf_last_error());
    }
    qf_linop *schur = NULL;
    qf_domains *D = NULL;
    int rc = qf_linop_schur(st.M, &schur) || qf_linop_domains(schur, c.dom, 2, &D);
    CHECK(rc && !D && strstr(qf_last_error(), "no Schwarz domain solves"), "the Schur operator's domains: %s",
          qf_last_error());
    setup_free(&st);
}

int main(void)
{
    int st = qf_test_start();
    if (st >= 0) return st;
    static const sap_case cases[] = {
        {.L = {8, 4, 4, 8}, .dom = {4, 2, 2, 4}, .kappa = 0.13, .csw = 1.2, .antiperiodic = 1},
        {.L = {8, 4, 4, 8}, .dom = {2, 2, 2, 2}, .kappa = 0.12, .csw = 0.0, .antiperiodic = 0},
        {.L = {8, 8, 4, 4}, .dom = {4, 4, 2, 2}, .kappa = 0.125, .csw = 1.0, .antiperiodic = 1},
    };
    static const int grids[][4] = {{1, 1, 1, 1}, {2, 1, 1, 2}, {1, 2, 2, 1}};
    for (int k = 0; k < 3; k++)
        for (int p = 0; p < 2; p++) check_case(&cases[k], grids[(k + p) % 3], p ? QF_SINGLE : QF_DOUBLE);
    check_case(&cases[0], grids[1], QF_DOUBLE);
    check_gcr();
    check_refusals();
    qf_runtime_shutdown();
    return qf_check_summary();
}
