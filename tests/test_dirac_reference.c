/* Self-checks of the reference Wilson-clover operator (dirac_reference.c), which test_dirac uses to
 * judge the task graphs; needs neither StarPU nor the implementation. Checks, for periodic,
 * antiperiodic-in-time and complex boundary phases, with and without clover:
 *   - the gamma matrices: hermitian, Clifford algebra, g1 g2 g3 g4 = g5 = diag(1, 1, -1, -1);
 *   - the random links are SU(3); F is anti-hermitian; A is hermitian, block-diagonal in chirality,
 *     A A^-1 = 1;
 *   - single matrix elements of M from point sources, against the formula written out by hand,
 *     across the boundary in every direction and both ways;
 *   - adjoints: <v, op w> = <op^dagger v, w> for M and both Schur forms of Mhat, MdagM = M^dagger M,
 *     g5 M g5 = M^dagger, g5 Mhat g5 = Mhat^dagger (asymmetric form);
 *   - gauge covariance under a random SU(3) Omega(x) of M, M^dagger, Mhat, Mhat^dagger, prepare;
 *   - free field: plane waves e^{ipx} chi with momenta the boundary phases allow are eigenvectors
 *     with M = 1 - kappa sum_mu (2 cos p_mu - 2 i g_mu sin p_mu), and |M psi|^2 = (a^2 + |b|^2) |psi|^2;
 *   - the Schur identities: with b = M x, Mhat x_e = prepare(b)_e and reconstruct(x_e, b) = x;
 *   - even-odd operators read only the even sites of their input and keep the odd sites of their
 *     output. */
#include "check.h"
#include "dirac_reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    double phase[4][2];
} bc_t;

static bc_t bcs[3];

static void init_bcs(void)
{
    bc_t periodic = {"periodic", {{1, 0}, {1, 0}, {1, 0}, {1, 0}}};
    bc_t anti = {"antiperiodic-t", {{1, 0}, {1, 0}, {1, 0}, {-1, 0}}};
    bc_t cplx = {"complex(x e^0.3i, z e^-1.1i, t e^2.5i)",
                 {{cos(0.3), sin(0.3)}, {1, 0}, {cos(-1.1), sin(-1.1)}, {cos(2.5), sin(2.5)}}};
    bcs[0] = periodic;
    bcs[1] = anti;
    bcs[2] = cplx;
}

static double *alloc_sp(const int L[4]) { return calloc((size_t)ref_volume(L) * REF_SPINOR_REALS, sizeof(double)); }

/* ---- gamma matrices ---- */

static void check_gammas(void)
{
    double worst = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) worst = fmax(worst, cabs(ref_gamma[mu][a][b] - conj(ref_gamma[mu][b][a])));
    CHECK(worst == 0, "gammas hermitian (%.1e)", worst);
    for (int mu = 0; mu < 4; mu++)
        for (int nu = 0; nu < 4; nu++) {
            double e = 0;
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++) {
                    double complex c = 0;
                    for (int k = 0; k < 4; k++)
                        c += ref_gamma[mu][a][k] * ref_gamma[nu][k][b] + ref_gamma[nu][a][k] * ref_gamma[mu][k][b];
                    e = fmax(e, cabs(c - (mu == nu && a == b ? 2.0 : 0.0)));
                }
            CHECK(e == 0, "{g_%d, g_%d} = 2 delta (%.1e)", mu, nu, e);
        }
    double complex p[4][4], q[4][4];
    memcpy(p, ref_gamma[0], sizeof p);
    for (int mu = 1; mu < 4; mu++) {
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                double complex c = 0;
                for (int k = 0; k < 4; k++) c += p[a][k] * ref_gamma[mu][k][b];
                q[a][b] = c;
            }
        memcpy(p, q, sizeof p);
    }
    double e = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) e = fmax(e, cabs(p[a][b] - ref_gamma5[a][b]));
    CHECK(e == 0, "g1 g2 g3 g4 = g5 = diag(1, 1, -1, -1) (%.1e)", e);
    printf("gamma matrices: hermitian, Clifford algebra, g5 = g1 g2 g3 g4 = diag(1,1,-1,-1)\n");
}

/* ---- links, F, A ---- */

static void check_links_and_clover(const int L[4], const double *links, const ref_dirac *r)
{
    int64_t V = ref_volume(L);
    double eu = 0, ed = 0;
    for (int64_t k = 0; k < V * 4; k++) {
        const double *m = links + 18 * k;
        double complex u[3][3];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) u[a][b] = CMPLX(m[6 * a + 2 * b], m[6 * a + 2 * b + 1]);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double complex c = 0;
                for (int j = 0; j < 3; j++) c += u[a][j] * conj(u[b][j]);
                eu = fmax(eu, cabs(c - (a == b)));
            }
        double complex det = u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
                             u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
                             u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
        ed = fmax(ed, cabs(det - 1));
    }
    CHECK(eu < 1e-14 && ed < 1e-14, "random links SU(3): |U U^dag - 1| %.1e, |det U - 1| %.1e", eu, ed);

    double *f = malloc((size_t)V * 108 * sizeof(double));
    ref_field_strength(L, links, f);
    double ah = 0, fmax_abs = 0;
    for (int64_t k = 0; k < V * 6; k++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                const double *m = f + 18 * k;
                double complex fab = CMPLX(m[6 * a + 2 * b], m[6 * a + 2 * b + 1]);
                double complex fba = CMPLX(m[6 * b + 2 * a], m[6 * b + 2 * a + 1]);
                ah = fmax(ah, cabs(fab + conj(fba)));
                fmax_abs = fmax(fmax_abs, cabs(fab));
            }
    CHECK(ah < 1e-15 && fmax_abs > 0.1, "F anti-hermitian (%.1e, max |F| %.2f)", ah, fmax_abs);
    free(f);

    if (!r->A) return;
    double eh = 0, ec = 0, ei = 0;
    for (int64_t i = 0; i < V; i++) {
        const double complex *a = r->A + 144 * i, *ai = r->Ainv + 144 * i;
        for (int p = 0; p < 12; p++)
            for (int q = 0; q < 12; q++) {
                eh = fmax(eh, cabs(a[12 * p + q] - conj(a[12 * q + p])));
                if ((p < 6) != (q < 6)) ec = fmax(ec, cabs(a[12 * p + q]));
                double complex c = 0;
                for (int k = 0; k < 12; k++) c += a[12 * p + k] * ai[12 * k + q];
                ei = fmax(ei, cabs(c - (p == q)));
            }
    }
    CHECK(eh < 1e-15, "A hermitian (%.1e)", eh);
    CHECK(ec < 1e-15, "A block-diagonal in chirality (%.1e)", ec);
    CHECK(ei < 1e-13, "A A^-1 = 1 (%.1e)", ei);
}

/* ---- point sources: single matrix elements of M written out from the formula ---- */

static void check_point_sources(const int L[4], const double *links, const bc_t *bc, double kappa)
{
    ref_dirac r;
    ref_dirac_init(&r, L, links, kappa, 0.0, bc->phase);
    double *src = alloc_sp(L), *out = alloc_sp(L);
    double worst = 0;
    /* sources at the origin and at the far corner, so that every hop into them from the nearest
     * sites crosses the boundary in one of the two directions */
    int corners[2][4] = {{0, 0, 0, 0}, {L[0] - 1, L[1] - 1, L[2] - 1, L[3] - 1}};
    for (int ci = 0; ci < 2; ci++) {
        int *y = corners[ci];
        int64_t iy = ref_index(y, L);
        for (int t = 0; t < 4; t++)
            for (int b = 0; b < 3; b++) {
                memset(src, 0, (size_t)ref_volume(L) * REF_SPINOR_REALS * sizeof(double));
                src[REF_SPINOR_REALS * iy + 6 * t + 2 * b] = 1.0;
                ref_dirac_apply(&r, REF_M, REF_ASYMMETRIC, out, src);
                for (int mu = 0; mu < 4; mu++)
                    for (int side = 0; side < 2; side++) {
                        /* side 0: x = y - mu, the hop from x + mu = y (forward); side 1: x = y + mu (backward) */
                        int x[4] = {y[0], y[1], y[2], y[3]};
                        x[mu] = side == 0 ? (y[mu] - 1 + L[mu]) % L[mu] : (y[mu] + 1) % L[mu];
                        int64_t ix = ref_index(x, L);
                        double complex ph = 1;
                        if (side == 0 && x[mu] == L[mu] - 1) ph = CMPLX(bc->phase[mu][0], bc->phase[mu][1]);
                        if (side == 1 && x[mu] == 0) ph = CMPLX(bc->phase[mu][0], -bc->phase[mu][1]);
                        for (int s = 0; s < 4; s++)
                            for (int a = 0; a < 3; a++) {
                                /* side 0: -kappa (1 - g_mu)[s][t] U_mu(x)[a][b] ph;
                                 * side 1: -kappa (1 + g_mu)[s][t] conj(U_mu(y)[b][a]) ph */
                                double complex proj = (s == t) + (side == 0 ? -1.0 : 1.0) * ref_gamma[mu][s][t];
                                const double *u = links + ((side == 0 ? ix : iy) * 4 + mu) * 18;
                                double complex uab = side == 0 ? CMPLX(u[6 * a + 2 * b], u[6 * a + 2 * b + 1])
                                                               : CMPLX(u[6 * b + 2 * a], -u[6 * b + 2 * a + 1]);
                                double complex want = -kappa * proj * uab * ph;
                                const double *g = out + REF_SPINOR_REALS * ix + 6 * s + 2 * a;
                                worst = fmax(worst, cabs(CMPLX(g[0], g[1]) - want));
                            }
                    }
                /* diagonal: 1 without clover */
                for (int s = 0; s < 4; s++)
                    for (int a = 0; a < 3; a++) {
                        const double *g = out + REF_SPINOR_REALS * iy + 6 * s + 2 * a;
                        worst = fmax(worst, cabs(CMPLX(g[0], g[1]) - (double)(s == t && a == b)));
                    }
            }
    }
    CHECK(worst < 1e-15, "point sources, %s: M matrix elements from the formula (max err %.1e)", bc->name, worst);
    free(src);
    free(out);
    ref_dirac_free(&r);
}

/* ---- adjoints, covariance, Schur identities on random fields ---- */

static double worst_adj, worst_g5, worst_cov, worst_schur, worst_free;

static void check_operator(const int L[4], const double *links, const bc_t *bc, double kappa, double csw,
                           ref_rng *rng)
{
    int64_t V = ref_volume(L);
    char tag[200];
    snprintf(tag, sizeof tag, "lattice %d %d %d %d, %s, kappa %g, csw %g", L[0], L[1], L[2], L[3], bc->name, kappa, csw);
    ref_dirac r;
    if (ref_dirac_init(&r, L, links, kappa, csw, bc->phase)) {
        CHECK(0, "%s: reference init", tag);
        return;
    }
    check_links_and_clover(L, links, &r);
    double *v = alloc_sp(L), *w = alloc_sp(L), *a = alloc_sp(L), *b = alloc_sp(L), *c = alloc_sp(L),
           *d = alloc_sp(L), *fill = alloc_sp(L);
    ref_random_spinor(rng, L, v);
    ref_random_spinor(rng, L, w);
    ref_random_spinor(rng, L, fill);

    /* adjoints */
    static const ref_op pairs[][2] = {{REF_M, REF_MDAG}, {REF_MHAT, REF_MHAT_DAG}};
    for (int form = 0; form < 2; form++)
        for (int k = 0; k < 2; k++) {
            ref_op op = pairs[k][0], dg = pairs[k][1];
            int par = ref_op_is_eo(op) ? 0 : -1;
            ref_dirac_apply(&r, op, (ref_form)form, a, w);  /* op w */
            ref_dirac_apply(&r, dg, (ref_form)form, b, v);  /* op^dag v */
            double complex l = ref_dot(L, v, a, par), rr = ref_dot(L, b, w, par);
            double e = cabs(l - rr) / sqrt(ref_norm2(L, v, par) * ref_norm2(L, a, par));
            worst_adj = fmax(worst_adj, e);
            CHECK(e < 1e-14, "%s, %s form: <v, %s w> = <%s v, w> (%.2e)", tag, form ? "symmetric" : "asymmetric",
                  ref_op_names[op], ref_op_names[dg], e);
            /* products: <v, op^dag op w> = <op v, op w> */
            ref_op prod = op == REF_M ? REF_MDAGM : REF_MHAT_DAGMHAT;
            ref_dirac_apply(&r, prod, (ref_form)form, c, w);
            ref_dirac_apply(&r, op, (ref_form)form, d, v);
            l = ref_dot(L, v, c, par);
            rr = ref_dot(L, d, a, par);
            e = cabs(l - rr) / sqrt(ref_norm2(L, v, par) * ref_norm2(L, c, par));
            worst_adj = fmax(worst_adj, e);
            CHECK(e < 1e-14, "%s, %s form: <v, %s w> = <%s v, %s w> (%.2e)", tag, form ? "symmetric" : "asymmetric",
                  ref_op_names[prod], ref_op_names[op], ref_op_names[op], e);
        }
    /* g5 M g5 = M^dagger, and for the asymmetric form g5 Mhat g5 = Mhat^dagger */
    for (int k = 0; k < 2; k++) {
        ref_op op = pairs[k][0], dg = pairs[k][1];
        int par = ref_op_is_eo(op) ? 0 : -1;
        ref_apply_gamma5(L, a, w);
        memset(b, 0, (size_t)V * REF_SPINOR_REALS * sizeof(double));
        ref_dirac_apply(&r, op, REF_ASYMMETRIC, b, a);
        ref_apply_gamma5(L, b, b);
        ref_dirac_apply(&r, dg, REF_ASYMMETRIC, c, w);
        double e = ref_rel_diff(L, b, c, par);
        worst_g5 = fmax(worst_g5, e);
        CHECK(e < 1e-14, "%s: g5 %s g5 = %s (asymmetric form) (%.2e)", tag, ref_op_names[op], ref_op_names[dg], e);
    }

    /* even-odd ops: odd sites of the input ignored, odd sites of the output kept */
    for (int form = 0; form < 2; form++)
        for (int op = REF_MHAT; op <= REF_MHAT_DAGMHAT; op++) {
            memcpy(a, w, (size_t)V * REF_SPINOR_REALS * sizeof(double));
            ref_copy_parity(L, a, v, 1); /* other odd sites */
            memcpy(b, fill, (size_t)V * REF_SPINOR_REALS * sizeof(double));
            memcpy(c, fill, (size_t)V * REF_SPINOR_REALS * sizeof(double));
            ref_dirac_apply(&r, (ref_op)op, (ref_form)form, b, w);
            ref_dirac_apply(&r, (ref_op)op, (ref_form)form, c, a);
            CHECK(ref_rel_diff(L, b, c, 0) == 0 && ref_rel_diff(L, b, fill, 1) == 0 && ref_rel_diff(L, c, fill, 1) == 0,
                  "%s: %s reads even sites only and keeps odd output sites", tag, ref_op_names[op]);
        }

    /* Schur: b = M x; Mhat x_e = prepare(b)_e; reconstruct(x_e, b) = x */
    const double *x = w;
    ref_dirac_apply(&r, REF_M, REF_ASYMMETRIC, b, x);
    for (int form = 0; form < 2; form++) {
        const char *fn = form ? "symmetric" : "asymmetric";
        memcpy(a, fill, (size_t)V * REF_SPINOR_REALS * sizeof(double));
        memcpy(c, fill, (size_t)V * REF_SPINOR_REALS * sizeof(double));
        ref_dirac_apply(&r, REF_MHAT, (ref_form)form, a, x);
        ref_dirac_prepare(&r, (ref_form)form, c, b);
        double e = ref_rel_diff(L, a, c, 0);
        worst_schur = fmax(worst_schur, e);
        CHECK(e < 1e-13, "%s, %s form: Mhat x_e = prepare(M x)_e (%.2e)", tag, fn, e);
        CHECK(ref_rel_diff(L, c, fill, 1) == 0, "%s, %s form: prepare keeps the odd sites", tag, fn);
        /* reconstruct from an x_even whose odd sites are garbage */
        memcpy(a, x, (size_t)V * REF_SPINOR_REALS * sizeof(double));
        ref_copy_parity(L, a, fill, 1);
        memcpy(d, v, (size_t)V * REF_SPINOR_REALS * sizeof(double));
        ref_dirac_reconstruct(&r, d, a, b);
        e = ref_rel_diff(L, d, x, -1);
        worst_schur = fmax(worst_schur, e);
        CHECK(e < 1e-13, "%s: reconstruct(x_e, M x) = x (%.2e)", tag, e);
    }

    /* gauge covariance: M[U^Omega] (Omega psi) = Omega (M[U] psi) */
    double *omega = malloc((size_t)V * 18 * sizeof(double)), *lg = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double));
    ref_random_gauge_transform(rng, L, omega);
    ref_gauge_transform_links(L, omega, links, lg);
    ref_dirac rg;
    ref_dirac_init(&rg, L, lg, kappa, csw, bc->phase);
    double *wg = alloc_sp(L);
    ref_gauge_transform_spinor(L, omega, w, wg);
    for (int form = 0; form < 2; form++)
        for (int op = 0; op < REF_NOPS + 1; op++) { /* REF_NOPS stands for prepare */
            int par = op < REF_NOPS && !ref_op_is_eo((ref_op)op) ? -1 : 0;
            memset(a, 0, (size_t)V * REF_SPINOR_REALS * sizeof(double));
            memset(c, 0, (size_t)V * REF_SPINOR_REALS * sizeof(double));
            if (op == REF_NOPS) {
                ref_dirac_prepare(&r, (ref_form)form, a, w);
                ref_dirac_prepare(&rg, (ref_form)form, c, wg);
            } else {
                ref_dirac_apply(&r, (ref_op)op, (ref_form)form, a, w);
                ref_dirac_apply(&rg, (ref_op)op, (ref_form)form, c, wg);
            }
            ref_gauge_transform_spinor(L, omega, a, b);
            double e = ref_rel_diff(L, c, b, par);
            worst_cov = fmax(worst_cov, e);
            CHECK(e < 1e-13, "%s, %s form: gauge covariance of %s (%.2e)", tag, form ? "symmetric" : "asymmetric",
                  op == REF_NOPS ? "prepare" : ref_op_names[op], e);
        }
    ref_dirac_free(&rg);
    free(omega);
    free(lg);
    free(wg);
    free(v);
    free(w);
    free(a);
    free(b);
    free(c);
    free(d);
    free(fill);
    ref_dirac_free(&r);
}

/* ---- free field ---- */

static void check_free_field(const int L[4], const bc_t *bc, double kappa, double csw, ref_rng *rng)
{
    int64_t V = ref_volume(L);
    double *links = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double));
    ref_unit_links(L, links);
    double *f = malloc((size_t)V * 108 * sizeof(double));
    ref_field_strength(L, links, f);
    double fm = 0;
    for (int64_t k = 0; k < V * 108; k++) fm = fmax(fm, fabs(f[k]));
    CHECK(fm == 0, "free field: F = 0 exactly (%.1e)", fm);
    free(f);
    ref_dirac r;
    ref_dirac_init(&r, L, links, kappa, csw, bc->phase);
    double *psi = alloc_sp(L), *out = alloc_sp(L), *want = alloc_sp(L), *wantd = alloc_sp(L);
    int nmom = 0;
    for (int trial = 0; trial < 4; trial++) {
        int n[4];
        double p[4];
        for (int mu = 0; mu < 4; mu++) {
            n[mu] = trial == 0 ? 0 : (int)(ref_rng_next(rng) % (uint64_t)L[mu]);
            double theta = atan2(bc->phase[mu][1], bc->phase[mu][0]);
            p[mu] = (2.0 * 3.141592653589793 * n[mu] + theta) / L[mu];
        }
        double complex chi[12];
        for (int k = 0; k < 12; k++) chi[k] = CMPLX(ref_rng_gauss(rng), ref_rng_gauss(rng));
        /* K = 1 - kappa sum_mu (2 cos p_mu - 2 i g_mu sin p_mu), K^dagger with + i */
        double complex K[4][4], Kd[4][4];
        double acoef = 1, bsq = 0;
        for (int s = 0; s < 4; s++)
            for (int t = 0; t < 4; t++) {
                K[s][t] = Kd[s][t] = s == t;
                for (int mu = 0; mu < 4; mu++) {
                    K[s][t] -= kappa * (2 * cos(p[mu]) * (s == t) - 2 * I * ref_gamma[mu][s][t] * sin(p[mu]));
                    Kd[s][t] -= kappa * (2 * cos(p[mu]) * (s == t) + 2 * I * ref_gamma[mu][s][t] * sin(p[mu]));
                }
            }
        for (int mu = 0; mu < 4; mu++) {
            acoef -= 2 * kappa * cos(p[mu]);
            bsq += 4 * kappa * kappa * sin(p[mu]) * sin(p[mu]);
        }
        for (int64_t i = 0; i < V; i++) {
            int x[4];
            ref_coords(i, L, x);
            double ph = 0;
            for (int mu = 0; mu < 4; mu++) ph += p[mu] * x[mu];
            double complex e = CMPLX(cos(ph), sin(ph));
            for (int s = 0; s < 4; s++)
                for (int a = 0; a < 3; a++) {
                    double complex v = e * chi[3 * s + a], kv = 0, kdv = 0;
                    for (int t = 0; t < 4; t++) {
                        kv += K[s][t] * e * chi[3 * t + a];
                        kdv += Kd[s][t] * e * chi[3 * t + a];
                    }
                    double *q = psi + REF_SPINOR_REALS * i + 6 * s + 2 * a;
                    q[0] = creal(v);
                    q[1] = cimag(v);
                    q = want + REF_SPINOR_REALS * i + 6 * s + 2 * a;
                    q[0] = creal(kv);
                    q[1] = cimag(kv);
                    q = wantd + REF_SPINOR_REALS * i + 6 * s + 2 * a;
                    q[0] = creal(kdv);
                    q[1] = cimag(kdv);
                }
        }
        ref_dirac_apply(&r, REF_M, REF_ASYMMETRIC, out, psi);
        double e1 = ref_rel_diff(L, out, want, -1);
        ref_dirac_apply(&r, REF_MDAG, REF_ASYMMETRIC, out, psi);
        double e2 = ref_rel_diff(L, out, wantd, -1);
        ref_dirac_apply(&r, REF_MDAGM, REF_ASYMMETRIC, out, psi);
        double complex ev = ref_dot(L, psi, out, -1) / ref_norm2(L, psi, -1);
        double e3 = cabs(ev - (acoef * acoef + bsq)) / (acoef * acoef + bsq);
        worst_free = fmax(worst_free, fmax(e1, fmax(e2, e3)));
        CHECK(e1 < 1e-12 && e2 < 1e-12 && e3 < 1e-12,
              "free field, lattice %d %d %d %d, %s, csw %g, n = %d %d %d %d: M psi = K psi (%.1e), M^dag psi = "
              "K^dag psi (%.1e), <psi, MdagM psi>/|psi|^2 = a^2 + |b|^2 (%.1e)",
              L[0], L[1], L[2], L[3], bc->name, csw, n[0], n[1], n[2], n[3], e1, e2, e3);
        nmom++;
    }
    free(psi);
    free(out);
    free(want);
    free(wantd);
    free(links);
    ref_dirac_free(&r);
}

int main(void)
{
    init_bcs();
    check_gammas();
    ref_rng rng = {20260301};
    static const int lats[][4] = {{4, 4, 4, 4}, {6, 4, 2, 4}, {4, 2, 4, 6}};
    const double kappa = 0.12, csws[2] = {0.0, 1.2};
    for (unsigned l = 0; l < sizeof lats / sizeof lats[0]; l++) {
        const int *L = lats[l];
        int64_t V = ref_volume(L);
        double *links = malloc((size_t)V * REF_GAUGE_REALS * sizeof(double));
        ref_random_links(&rng, L, links);
        for (int b = 0; b < 3; b++) {
            if (L[0] >= 4 && L[1] >= 4 && L[2] >= 4 && L[3] >= 4) check_point_sources(L, links, &bcs[b], kappa);
            for (int c = 0; c < 2; c++) {
                check_operator(L, links, &bcs[b], kappa, csws[c], &rng);
                check_free_field(L, &bcs[b], kappa, csws[c], &rng);
            }
        }
        printf("lattice %d %d %d %d: point sources, adjoints, g5-hermiticity, covariance, Schur identities, free "
               "field for %d boundary conditions x csw 0, 1.2\n",
               L[0], L[1], L[2], L[3], 3);
        free(links);
    }
    printf("largest relative errors: adjoints %.1e, g5 %.1e, gauge covariance %.1e, Schur %.1e, free field %.1e\n",
           worst_adj, worst_g5, worst_cov, worst_schur, worst_free);
    return qf_check_summary();
}
