/* Self-checks of the reference asqtad operator (staggered_reference.c), which the staggered tests use
 * to judge the task graphs; needs neither StarPU nor the implementation. Checks:
 *   - free field (U = 1): F_mu(x) = c_F eta_mu(x) and L_mu(x) = c_N eta_mu(x) times the identity, with
 *     c_F = 5/8 + 6/(16 u0^2) + 24/(64 u0^4) + 48/(384 u0^6) - 6/(16 u0^4) (9/8 at u0 = 1: each
 *     displaced direction of a phased staple flips its sign once) and c_N = -1/(24 u0^2), the boundary
 *     phase on the links whose paths cross the boundary (the one-link and Naik hops; transverse
 *     crossings of the staples cancel);
 *   - single-link probes: one link W in a free field, placed where only one class of paths passes
 *     (one link, 3-, 5-, 7-staple, Lepage, Naik), gives F_mu(x) = eta_mu(x) [c_F + sign n c (W - 1)]:
 *     this sees the shape, count and coefficient of each class, which the free field cannot;
 *   - lattice symmetries: on random links without the phases, relabelling and reflecting the axes
 *     commutes with building F and L (the orders of the staples' displacements, every direction alike);
 *   - free-field plane waves e^{ipx} chi, p_mu = (2 pi n_mu + arg phase_mu) / L_mu: D^2 psi = -lambda psi
 *     with lambda = 4 sum_mu (c_F sin p_mu + c_N sin 3p_mu)^2 (the eta factors of different directions
 *     anticommute under the odd hops, so only the diagonal terms survive), and |M psi|^2 =
 *     (4 m^2 + lambda) |psi|^2 (D anti-hermitian);
 *   - anti-hermiticity of D on random SU(3) links: <phi, D psi> = -<D phi, psi>;
 *   - even-odd: D maps sources on one parity to the other parity only;
 *   - gauge covariance under a random SU(3) g(x): F_mu(x) -> g(x) F_mu(x) g(x+mu)^dag,
 *     L_mu(x) -> g(x) L_mu(x) g(x+3mu)^dag, D'(g psi) = g (D psi). */
#include "check.h"
#include "random_gauge.h"
#include "staggered_reference.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>
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
    bc_t cplx = {"x e^0.3i, antiperiodic-t", {{cos(0.3), sin(0.3)}, {1, 0}, {1, 0}, {-1, 0}}};
    bcs[0] = periodic;
    bcs[1] = anti;
    bcs[2] = cplx;
}

/* ---- lattice, fields ---- */

static int64_t vol(const int L[4]) { return (int64_t)L[0] * L[1] * L[2] * L[3]; }

static void coords(int64_t i, const int L[4], int x[4])
{
    for (int mu = 0; mu < 4; mu++) {
        x[mu] = (int)(i % L[mu]);
        i /= L[mu];
    }
}

static int64_t shifted_index(const int x[4], const int L[4], int mu, int step)
{
    int y[4] = {x[0], x[1], x[2], x[3]};
    y[mu] = ((y[mu] + step) % L[mu] + L[mu]) % L[mu];
    return y[0] + (int64_t)L[0] * (y[1] + (int64_t)L[1] * (y[2] + (int64_t)L[2] * y[3]));
}

/* written out again from DESIGN.md rather than shared with the reference */
static double eta(const int x[4], int mu)
{
    int e = mu == 3 ? 0 : mu == 0 ? x[3] : mu == 1 ? x[3] + x[0] : x[3] + x[0] + x[1];
    return e % 2 ? -1.0 : 1.0;
}

static double *alloc_gauge(const int L[4]) { return calloc((size_t)vol(L) * 72, sizeof(double)); }
static double *alloc_colour(const int L[4]) { return calloc((size_t)vol(L) * REF_COLOUR_REALS, sizeof(double)); }

static void unit_links(const int L[4], double *u)
{
    memset(u, 0, (size_t)vol(L) * 72 * sizeof(double));
    for (int64_t k = 0; k < vol(L) * 4; k++)
        for (int a = 0; a < 3; a++) u[18 * k + 8 * a] = 1;
}

static void random_links(uint64_t *rng, const int L[4], double *u)
{
    for (int64_t k = 0; k < vol(L) * 4; k++) qf_test_random_su3(rng, u + 18 * k);
}

/* parity -1: every site; 0 / 1: the even / odd sites, zero elsewhere */
static void random_colour(uint64_t *rng, const int L[4], double *psi, int parity)
{
    for (int64_t i = 0; i < vol(L); i++) {
        int x[4];
        coords(i, L, x);
        int on = parity < 0 || (x[0] + x[1] + x[2] + x[3]) % 2 == parity;
        for (int k = 0; k < REF_COLOUR_REALS; k++) psi[i * REF_COLOUR_REALS + k] = on ? qf_test_gauss(rng) : 0.0;
    }
}

static double complex dot(const int L[4], const double *a, const double *b)
{
    double complex s = 0;
    for (int64_t k = 0; k < vol(L) * 3; k++) s += CMPLX(a[2 * k], -a[2 * k + 1]) * CMPLX(b[2 * k], b[2 * k + 1]);
    return s;
}

static double norm2(const int L[4], const double *a) { return creal(dot(L, a, a)); }

/* ---- 3x3 matrices on 18 doubles ---- */

static double complex el(const double *m, int i, int j) { return CMPLX(m[6 * i + 2 * j], m[6 * i + 2 * j + 1]); }

/* out = a b c^dag (out distinct from the inputs) */
static void mat_a_b_cdag(const double *a, const double *b, const double *c, double *out)
{
    double complex ab[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double complex s = 0;
            for (int k = 0; k < 3; k++) s += el(a, i, k) * el(b, k, j);
            ab[i][j] = s;
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double complex s = 0;
            for (int k = 0; k < 3; k++) s += ab[i][k] * conj(el(c, j, k));
            out[6 * i + 2 * j] = creal(s);
            out[6 * i + 2 * j + 1] = cimag(s);
        }
}

static double mat_maxdiff(const double *a, const double *b)
{
    double d = 0;
    for (int k = 0; k < 9; k++) d = fmax(d, cabs(CMPLX(a[2 * k] - b[2 * k], a[2 * k + 1] - b[2 * k + 1])));
    return d;
}

/* ---- 1. free field ---- */

static double free_fat_coeff(double u0)
{
    double u2 = u0 * u0, u4 = u2 * u2, u6 = u4 * u2;
    return 5.0 / 8.0 + 6.0 / (16.0 * u2) + 24.0 / (64.0 * u4) + 48.0 / (384.0 * u6) - 6.0 / (16.0 * u4);
}

static double free_naik_coeff(double u0) { return -1.0 / (24.0 * u0 * u0); }

static void check_free_field(const int L[4], const bc_t *bc, double u0)
{
    double *u = alloc_gauge(L), *fat = alloc_gauge(L), *lng = alloc_gauge(L);
    unit_links(L, u);
    qf_ref_staggered_phases(u, L, bc->phase);
    qf_ref_asqtad_links(u, L, u0, fat, lng);
    double cf = free_fat_coeff(u0), cn = free_naik_coeff(u0), df = 0, dl = 0;
    for (int64_t i = 0; i < vol(L); i++) {
        int x[4];
        coords(i, L, x);
        for (int mu = 0; mu < 4; mu++) {
            double complex ph = CMPLX(bc->phase[mu][0], bc->phase[mu][1]);
            /* the Naik hop from x crosses the boundary once when x_mu is one of the last three */
            double complex wf = cf * eta(x, mu) * (x[mu] == L[mu] - 1 ? ph : 1.0);
            double complex wl = cn * eta(x, mu) * (x[mu] >= L[mu] - 3 ? ph : 1.0);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    df = fmax(df, cabs(el(fat + (i * 4 + mu) * 18, a, b) - (a == b ? wf : 0.0)));
                    dl = fmax(dl, cabs(el(lng + (i * 4 + mu) * 18, a, b) - (a == b ? wl : 0.0)));
                }
        }
    }
    printf("free field %dx%dx%dx%d %s u0=%.2f: F = %.10f eta, L = %.10f eta: max deviations %.1e, %.1e\n", L[0],
           L[1], L[2], L[3], bc->name, u0, cf, cn, df, dl);
    CHECK(df < 1e-14, "free-field fat links (%s, u0 %.2f) deviate by %.1e", bc->name, u0, df);
    CHECK(dl < 1e-15, "free-field Naik links (%s, u0 %.2f) deviate by %.1e", bc->name, u0, dl);
    free(u);
    free(fat);
    free(lng);
}

/* ---- 1b. single-link probes ----
 * The free field sees only the sum of the coefficients. To see the shape of each path class, set one
 * link to a random SU(3) W in an otherwise free field: the mu-link at x + (displacements D) lies on
 * exactly those paths from x to x + mu whose displacements, as a set, are D (each displaced direction is
 * left and re-entered through other links): D = {} the one-link term, {s nu} one 3-staple, {s nu, r rho}
 * two 5-staples (both orders), {s nu, r rho, q sigma} six 7-staples, {s nu, s nu} one Lepage path (with
 * L_nu > 4, so that x + 2 s nu is not x - 2 s nu). Each carries the class sign (-1)^(number of displaced
 * directions), so F_mu(x) = eta_mu(x) [c_F + sign n c (W - 1)]. The Naik link L_mu(x) = c_N eta_mu(x) W
 * when the middle link U_mu(x + mu) is W. */
static void check_single_link_probe(const char *what, const int L[4], int mu, const int x0[4], int nd,
                                    const int *disp, double weight, double u0, uint64_t *rng)
{
    double *u = alloc_gauge(L), *fat = alloc_gauge(L), *lng = alloc_gauge(L), w[18];
    const double periodic[4][2] = {{1, 0}, {1, 0}, {1, 0}, {1, 0}};
    unit_links(L, u);
    qf_test_random_su3(rng, w);
    int y[4] = {x0[0], x0[1], x0[2], x0[3]};
    for (int k = 0; k < nd; k++) {
        int d = abs(disp[k]) - 1;
        y[d] = ((y[d] + (disp[k] > 0 ? 1 : -1)) % L[d] + L[d]) % L[d];
    }
    int64_t probe = y[0] + (int64_t)L[0] * (y[1] + (int64_t)L[1] * (y[2] + (int64_t)L[2] * y[3]));
    memcpy(u + (probe * 4 + mu) * 18, w, sizeof w);
    qf_ref_staggered_phases(u, L, periodic);
    qf_ref_asqtad_links(u, L, u0, fat, lng);

    int64_t i0 = x0[0] + (int64_t)L[0] * (x0[1] + (int64_t)L[1] * (x0[2] + (int64_t)L[2] * x0[3]));
    double e = eta(x0, mu), cf = free_fat_coeff(u0), want[18], dev;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int r = 0; r < 2; r++) {
                double delta = a == b && r == 0 ? 1.0 : 0.0;
                want[6 * a + 2 * b + r] = e * (cf * delta + weight * (w[6 * a + 2 * b + r] - delta));
            }
    dev = mat_maxdiff(fat + (i0 * 4 + mu) * 18, want);
    printf("single-link probe %dx%dx%dx%d mu=%d, %s: F_mu(x) = eta [c_F + (%.6f) (W - 1)]: max deviation %.1e\n",
           L[0], L[1], L[2], L[3], mu, what, weight, dev);
    CHECK(dev < 1e-14, "single-link probe (%s) deviates by %.1e", what, dev);
    free(u);
    free(fat);
    free(lng);
}

static void check_naik_probe(const int L[4], int mu, const int x0[4], double u0, uint64_t *rng)
{
    double *u = alloc_gauge(L), *fat = alloc_gauge(L), *lng = alloc_gauge(L), w[18], want[18];
    const double periodic[4][2] = {{1, 0}, {1, 0}, {1, 0}, {1, 0}};
    unit_links(L, u);
    qf_test_random_su3(rng, w);
    memcpy(u + (shifted_index(x0, L, mu, 1) * 4 + mu) * 18, w, sizeof w);
    qf_ref_staggered_phases(u, L, periodic);
    qf_ref_asqtad_links(u, L, u0, fat, lng);
    int64_t i0 = shifted_index(x0, L, mu, 0);
    for (int k = 0; k < 18; k++) want[k] = free_naik_coeff(u0) * eta(x0, mu) * w[k];
    double dev = mat_maxdiff(lng + (i0 * 4 + mu) * 18, want);
    printf("single-link probe %dx%dx%dx%d mu=%d, Naik middle link: L_mu(x) = c_N eta W: max deviation %.1e\n", L[0],
           L[1], L[2], L[3], mu, dev);
    CHECK(dev < 1e-15, "Naik probe deviates by %.1e", dev);
    free(u);
    free(fat);
    free(lng);
}

static void check_single_link_probes(uint64_t *rng)
{
    /* mu = z; displacements -t (across the boundary from t = 0; L_t = 6 for the Lepage path), +x (across
     * the boundary from x = 3), -y; u0 != 1 so that the classes differ in weight */
    const int L[4] = {4, 4, 4, 6}, mu = 2, x0[4] = {1, 3, 2, 0};
    double u0 = 0.9, u2 = u0 * u0, u4 = u2 * u2, u6 = u4 * u2;
    const int none[1] = {0}, d1[1] = {-4}, d2[2] = {-4, +1}, d3[3] = {-4, +1, -2}, dl[2] = {-4, -4};
    check_single_link_probe("one link", L, mu, x0, 0, none, 5.0 / 8.0, u0, rng);
    check_single_link_probe("3-staple {-t}", L, mu, x0, 1, d1, -1 * 1 * (-1.0 / (16 * u2)), u0, rng);
    check_single_link_probe("5-staples {-t,+x}", L, mu, x0, 2, d2, +1 * 2 * (1.0 / (64 * u4)), u0, rng);
    check_single_link_probe("7-staples {-t,+x,-y}", L, mu, x0, 3, d3, -1 * 6 * (-1.0 / (384 * u6)), u0, rng);
    check_single_link_probe("Lepage {-t,-t}", L, mu, x0, 2, dl, +1 * 1 * (-1.0 / (16 * u4)), u0, rng);
    const int x1[4] = {3, 0, 3, 1};
    check_naik_probe(L, 0, x1, u0, rng);
}

/* ---- 1c. lattice symmetries ----
 * The probes multiply W by identities only, so they cannot tell the two orders of a 5-staple's
 * displacements apart, nor notice a direction treated unlike the others. The smearing itself (without
 * the staggered phases, which are not symmetric) commutes with the hypercubic group: relabel the axes
 * (new axis perm[mu] = old axis mu) and reflect some (new y = -x mod L), build F' and L' from the moved
 * links, and they must be the moved F and L: a link along a reflected axis turns into the adjoint of its
 * neighbour's, U'_{perm mu}(R x) = U_mu(x - mu)^dag, and likewise F_mu(x - mu)^dag, L_mu(x - 3mu)^dag. */
static int64_t moved_site(const int x[4], const int L[4], const int perm[4], const int refl[4], int Lp[4])
{
    int y[4];
    for (int mu = 0; mu < 4; mu++) {
        Lp[perm[mu]] = L[mu];
        y[perm[mu]] = refl[mu] ? (L[mu] - x[mu]) % L[mu] : x[mu];
    }
    return y[0] + (int64_t)Lp[0] * (y[1] + (int64_t)Lp[1] * (y[2] + (int64_t)Lp[2] * y[3]));
}

/* out = the moved copy of a gauge-shaped array; hop: how far the array's links reach (1 for U and F,
 * 3 for L), which a reflection needs to find the link that now points the other way */
static void move_links(const double *in, const int L[4], const int perm[4], const int refl[4], double *out, int hop)
{
    for (int64_t i = 0; i < vol(L); i++) {
        int x[4], Lp[4];
        coords(i, L, x);
        int64_t j = moved_site(x, L, perm, refl, Lp);
        for (int mu = 0; mu < 4; mu++) {
            double *dst = out + (j * 4 + perm[mu]) * 18;
            if (!refl[mu]) {
                memcpy(dst, in + (i * 4 + mu) * 18, 18 * sizeof(double));
                continue;
            }
            const double *src = in + (shifted_index(x, L, mu, -hop) * 4 + mu) * 18;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    dst[6 * a + 2 * b] = src[6 * b + 2 * a];
                    dst[6 * a + 2 * b + 1] = -src[6 * b + 2 * a + 1];
                }
        }
    }
}

static void check_symmetry(const int L[4], const int perm[4], const int refl[4], double u0, uint64_t *rng)
{
    int64_t n = vol(L) * 72;
    double *u = alloc_gauge(L), *fat = alloc_gauge(L), *lng = alloc_gauge(L), *up = alloc_gauge(L);
    double *fatp = alloc_gauge(L), *lngp = alloc_gauge(L), *want = alloc_gauge(L);
    int Lp[4], x0[4] = {0, 0, 0, 0};
    moved_site(x0, L, perm, refl, Lp);
    random_links(rng, L, u);
    qf_ref_asqtad_links(u, L, u0, fat, lng);
    move_links(u, L, perm, refl, up, 1);
    qf_ref_asqtad_links(up, Lp, u0, fatp, lngp);
    double df = 0, dl = 0;
    move_links(fat, L, perm, refl, want, 1);
    for (int64_t k = 0; k < n; k++) df = fmax(df, fabs(fatp[k] - want[k]));
    move_links(lng, L, perm, refl, want, 3);
    for (int64_t k = 0; k < n; k++) dl = fmax(dl, fabs(lngp[k] - want[k]));
    printf("symmetry %dx%dx%dx%d axes -> (%d,%d,%d,%d), reflected (%d,%d,%d,%d): max |F' - moved F| %.1e, "
           "|L' - moved L| %.1e\n",
           L[0], L[1], L[2], L[3], perm[0], perm[1], perm[2], perm[3], refl[0], refl[1], refl[2], refl[3], df, dl);
    CHECK(df < 1e-14 && dl < 1e-15, "smearing commutes with the lattice symmetry: %.1e, %.1e", df, dl);
    free(u);
    free(fat);
    free(lng);
    free(up);
    free(fatp);
    free(lngp);
    free(want);
}

/* ---- 2. free-field plane waves ---- */

static void check_plane_wave(const int L[4], const bc_t *bc, double u0, double mass, const int n[4], uint64_t *rng)
{
    double *u = alloc_gauge(L), *fat = alloc_gauge(L), *lng = alloc_gauge(L);
    double *psi = alloc_colour(L), *t1 = alloc_colour(L), *t2 = alloc_colour(L);
    unit_links(L, u);
    qf_ref_staggered_phases(u, L, bc->phase);
    qf_ref_asqtad_links(u, L, u0, fat, lng);

    double p[4], lambda = 0, cf = free_fat_coeff(u0), cn = free_naik_coeff(u0);
    for (int mu = 0; mu < 4; mu++) {
        p[mu] = (6.283185307179586 * n[mu] + atan2(bc->phase[mu][1], bc->phase[mu][0])) / L[mu];
        double s = cf * sin(p[mu]) + cn * sin(3 * p[mu]);
        lambda += 4 * s * s;
    }
    double complex chi[3];
    for (int c = 0; c < 3; c++) chi[c] = CMPLX(qf_test_gauss(rng), qf_test_gauss(rng));
    for (int64_t i = 0; i < vol(L); i++) {
        int x[4];
        coords(i, L, x);
        double complex w = cexp(I * (p[0] * x[0] + p[1] * x[1] + p[2] * x[2] + p[3] * x[3]));
        for (int c = 0; c < 3; c++) {
            psi[i * 6 + 2 * c] = creal(w * chi[c]);
            psi[i * 6 + 2 * c + 1] = cimag(w * chi[c]);
        }
    }
    qf_ref_asqtad_dslash(fat, lng, L, psi, t1);
    qf_ref_asqtad_dslash(fat, lng, L, t1, t2);
    double d = 0;
    for (int64_t k = 0; k < vol(L) * REF_COLOUR_REALS; k++) d += pow(t2[k] + lambda * psi[k], 2);
    double rel = sqrt(d / norm2(L, psi)) / lambda;

    qf_ref_asqtad_m(fat, lng, L, mass, psi, t1);
    double want = 4 * mass * mass + lambda, relm = fabs(norm2(L, t1) / norm2(L, psi) - want) / want;
    printf("plane wave %dx%dx%dx%d %s u0=%.2f n=(%d,%d,%d,%d): lambda %.6f, |D^2 psi + lambda psi| / (lambda |psi|) "
           "%.1e, |M psi|^2 / |psi|^2 off 4m^2 + lambda by %.1e\n",
           L[0], L[1], L[2], L[3], bc->name, u0, n[0], n[1], n[2], n[3], lambda, rel, relm);
    CHECK(lambda > 1e-3 && rel < 1e-13, "plane wave (%s): D^2 psi = -lambda psi off by %.1e", bc->name, rel);
    CHECK(relm < 1e-12, "plane wave (%s): |M psi|^2 = (4m^2 + lambda)|psi|^2 off by %.1e", bc->name, relm);
    free(u);
    free(fat);
    free(lng);
    free(psi);
    free(t1);
    free(t2);
}

/* ---- 3. anti-hermiticity and 4. even-odd structure ---- */

static void check_antihermitian_and_parity(const int L[4], const bc_t *bc, double u0, uint64_t *rng)
{
    double *u = alloc_gauge(L), *fat = alloc_gauge(L), *lng = alloc_gauge(L);
    double *phi = alloc_colour(L), *psi = alloc_colour(L), *dphi = alloc_colour(L), *dpsi = alloc_colour(L);
    random_links(rng, L, u);
    qf_ref_staggered_phases(u, L, bc->phase);
    qf_ref_asqtad_links(u, L, u0, fat, lng);

    random_colour(rng, L, phi, -1);
    random_colour(rng, L, psi, -1);
    qf_ref_asqtad_dslash(fat, lng, L, phi, dphi);
    qf_ref_asqtad_dslash(fat, lng, L, psi, dpsi);
    double complex a = dot(L, phi, dpsi), b = dot(L, dphi, psi);
    double rel = cabs(a + b) / cabs(a);
    printf("anti-hermiticity %dx%dx%dx%d %s u0=%.2f: <phi, D psi> = %.6f%+.6fi, |<phi, D psi> + <D phi, psi>| / |.| "
           "%.1e\n",
           L[0], L[1], L[2], L[3], bc->name, u0, creal(a), cimag(a), rel);
    CHECK(cabs(a) > 1 && rel < 1e-13, "<phi, D psi> = -<D phi, psi> (%s) off by %.1e", bc->name, rel);

    for (int parity = 0; parity < 2; parity++) {
        random_colour(rng, L, psi, parity);
        qf_ref_asqtad_dslash(fat, lng, L, psi, dpsi);
        double same = 0, other = 0;
        for (int64_t i = 0; i < vol(L); i++) {
            int x[4];
            coords(i, L, x);
            double s = 0;
            for (int k = 0; k < REF_COLOUR_REALS; k++) s += dpsi[i * REF_COLOUR_REALS + k] * dpsi[i * REF_COLOUR_REALS + k];
            if ((x[0] + x[1] + x[2] + x[3]) % 2 == parity)
                same += s;
            else
                other += s;
        }
        printf("even-odd %dx%dx%dx%d: source on %s sites: |D psi|^2 %.3e on that parity, %.3e on the other\n", L[0],
               L[1], L[2], L[3], parity ? "odd" : "even", same, other);
        CHECK(same == 0 && other > 1, "D maps %s sites to the other parity only (%.1e left, %.1e moved)",
              parity ? "odd" : "even", same, other);
    }
    free(u);
    free(fat);
    free(lng);
    free(phi);
    free(psi);
    free(dphi);
    free(dpsi);
}

/* ---- 5. gauge covariance ---- */

static void check_gauge_covariance(const int L[4], const bc_t *bc, double u0, uint64_t *rng)
{
    int64_t V = vol(L);
    double *u = alloc_gauge(L), *ug = alloc_gauge(L), *g = calloc((size_t)V * 18, sizeof(double));
    double *fat = alloc_gauge(L), *lng = alloc_gauge(L), *fatg = alloc_gauge(L), *lngg = alloc_gauge(L);
    double *psi = alloc_colour(L), *gpsi = alloc_colour(L), *dpsi = alloc_colour(L), *dgpsi = alloc_colour(L);
    random_links(rng, L, u);
    for (int64_t i = 0; i < V; i++) qf_test_random_su3(rng, g + 18 * i);
    /* transform before the phases: they commute with g, so this is also the transform of the phased links */
    for (int64_t i = 0; i < V; i++) {
        int x[4];
        coords(i, L, x);
        for (int mu = 0; mu < 4; mu++)
            mat_a_b_cdag(g + 18 * i, u + (i * 4 + mu) * 18, g + 18 * shifted_index(x, L, mu, 1), ug + (i * 4 + mu) * 18);
    }
    qf_ref_staggered_phases(u, L, bc->phase);
    qf_ref_staggered_phases(ug, L, bc->phase);
    qf_ref_asqtad_links(u, L, u0, fat, lng);
    qf_ref_asqtad_links(ug, L, u0, fatg, lngg);

    double df = 0, dl = 0, fmax_abs = 0;
    for (int64_t i = 0; i < V; i++) {
        int x[4];
        coords(i, L, x);
        for (int mu = 0; mu < 4; mu++) {
            double want[18];
            const double *f = fat + (i * 4 + mu) * 18;
            mat_a_b_cdag(g + 18 * i, f, g + 18 * shifted_index(x, L, mu, 1), want);
            df = fmax(df, mat_maxdiff(fatg + (i * 4 + mu) * 18, want));
            mat_a_b_cdag(g + 18 * i, lng + (i * 4 + mu) * 18, g + 18 * shifted_index(x, L, mu, 3), want);
            dl = fmax(dl, mat_maxdiff(lngg + (i * 4 + mu) * 18, want));
            for (int k = 0; k < 18; k++) fmax_abs = fmax(fmax_abs, fabs(f[k]));
        }
    }

    random_colour(rng, L, psi, -1);
    for (int64_t i = 0; i < V; i++)
        for (int a = 0; a < 3; a++) {
            double complex s = 0;
            for (int b = 0; b < 3; b++) s += el(g + 18 * i, a, b) * CMPLX(psi[i * 6 + 2 * b], psi[i * 6 + 2 * b + 1]);
            gpsi[i * 6 + 2 * a] = creal(s);
            gpsi[i * 6 + 2 * a + 1] = cimag(s);
        }
    qf_ref_asqtad_dslash(fat, lng, L, psi, dpsi);
    qf_ref_asqtad_dslash(fatg, lngg, L, gpsi, dgpsi);
    double dd = 0, dmax = 0;
    for (int64_t i = 0; i < V; i++)
        for (int a = 0; a < 3; a++) {
            double complex s = 0;
            for (int b = 0; b < 3; b++) s += el(g + 18 * i, a, b) * CMPLX(dpsi[i * 6 + 2 * b], dpsi[i * 6 + 2 * b + 1]);
            dd = fmax(dd, cabs(s - CMPLX(dgpsi[i * 6 + 2 * a], dgpsi[i * 6 + 2 * a + 1])));
            dmax = fmax(dmax, cabs(s));
        }
    printf("gauge covariance %dx%dx%dx%d %s u0=%.2f: max |F' - g F g^dag| %.1e (max |F| %.2f), "
           "max |L' - g L g^dag| %.1e, max |D'(g psi) - g D psi| %.1e (max |D psi| %.2f)\n",
           L[0], L[1], L[2], L[3], bc->name, u0, df, fmax_abs, dl, dd, dmax);
    CHECK(fmax_abs > 0.1 && df < 1e-13, "fat links gauge covariant (%s): %.1e", bc->name, df);
    CHECK(dl < 1e-13, "Naik links gauge covariant (%s): %.1e", bc->name, dl);
    CHECK(dmax > 0.1 && dd < 1e-13, "D gauge covariant (%s): %.1e", bc->name, dd);
    free(u);
    free(ug);
    free(g);
    free(fat);
    free(lng);
    free(fatg);
    free(lngg);
    free(psi);
    free(gpsi);
    free(dpsi);
    free(dgpsi);
}

int main(void)
{
    init_bcs();
    uint64_t rng = 20240611;
    const int L4[4] = {4, 4, 4, 4}, L8[4] = {4, 4, 4, 8}, Lmix[4] = {6, 4, 8, 4};

    for (int b = 0; b < 3; b++) {
        check_free_field(L4, &bcs[b], 1.0);
        check_free_field(Lmix, &bcs[b], 0.8);
    }
    check_single_link_probes(&rng);
    const int Lsym[4] = {4, 6, 4, 4};
    const int swap01[4] = {1, 0, 2, 3}, cyclic[4] = {1, 2, 3, 0}, mixed[4] = {3, 2, 0, 1};
    const int refl_t[4] = {0, 0, 0, 1}, refl_xz[4] = {1, 0, 1, 0}, refl_y[4] = {0, 1, 0, 0}, refl_none[4] = {0};
    check_symmetry(Lsym, swap01, refl_none, 0.9, &rng);
    check_symmetry(Lsym, swap01, refl_t, 0.9, &rng);
    check_symmetry(Lsym, cyclic, refl_xz, 0.9, &rng);
    check_symmetry(Lsym, mixed, refl_y, 0.9, &rng);

    const int n1[4] = {1, 0, 2, 1}, n2[4] = {0, 3, 1, -2};
    for (int b = 0; b < 3; b++) {
        check_plane_wave(L8, &bcs[b], 1.0, 0.05, n1, &rng);
        check_plane_wave(Lmix, &bcs[b], 0.8, 0.1, n2, &rng);
    }

    const int *lats[2] = {L4, L8};
    for (int l = 0; l < 2; l++) {
        check_antihermitian_and_parity(lats[l], &bcs[2], 0.87, &rng);
        check_gauge_covariance(lats[l], &bcs[2], 0.87, &rng);
    }
    check_gauge_covariance(Lmix, &bcs[1], 1.0, &rng);
    return qf_check_summary();
}
