/* The reference asqtad operator: see staggered_reference.h. Every loop runs over the whole global
 * lattice; nothing here knows about blocks, faces or StarPU. */
#include "staggered_reference.h"

#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    double complex e[3][3];
} mat3;

/* ---- lattice helpers ---- */

static int64_t volume(const int L[4]) { return (int64_t)L[0] * L[1] * L[2] * L[3]; }

static void coords(int64_t i, const int L[4], int x[4])
{
    for (int mu = 0; mu < 4; mu++) {
        x[mu] = (int)(i % L[mu]);
        i /= L[mu];
    }
}

static int64_t site_index(const int x[4], const int L[4])
{
    return x[0] + (int64_t)L[0] * (x[1] + (int64_t)L[1] * (x[2] + (int64_t)L[2] * x[3]));
}

/* y = x + step mu, periodic; step may exceed L (the Naik hop on a short lattice) */
static void shifted(const int x[4], const int L[4], int mu, int step, int y[4])
{
    for (int nu = 0; nu < 4; nu++) y[nu] = x[nu];
    y[mu] = ((y[mu] + step) % L[mu] + L[mu]) % L[mu];
}

/* ---- 3x3 complex matrices and colour vectors ---- */

static mat3 m_load(const double *p)
{
    mat3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.e[i][j] = CMPLX(p[6 * i + 2 * j], p[6 * i + 2 * j + 1]);
    return m;
}

static void m_store(double *p, const mat3 *m)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            p[6 * i + 2 * j] = creal(m->e[i][j]);
            p[6 * i + 2 * j + 1] = cimag(m->e[i][j]);
        }
}

static mat3 m_zero(void)
{
    mat3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.e[i][j] = 0;
    return m;
}

static mat3 m_identity(void)
{
    mat3 m = m_zero();
    for (int i = 0; i < 3; i++) m.e[i][i] = 1;
    return m;
}

static mat3 m_mul(const mat3 *a, const mat3 *b)
{
    mat3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double complex s = 0;
            for (int k = 0; k < 3; k++) s += a->e[i][k] * b->e[k][j];
            c.e[i][j] = s;
        }
    return c;
}

static mat3 m_dag(const mat3 *a)
{
    mat3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) c.e[i][j] = conj(a->e[j][i]);
    return c;
}

static void m_add_scaled(mat3 *acc, double c, const mat3 *a)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) acc->e[i][j] += c * a->e[i][j];
}

/* U_mu(x) of a gauge-shaped array */
static mat3 link_at(const double *u, const int L[4], const int x[4], int mu)
{
    return m_load(u + (site_index(x, L) * 4 + mu) * 18);
}

/* acc += sign * m v, or sign * m^dag v with dagger */
static void mv_acc(double complex acc[3], const mat3 *m, int dagger, const double *v, double sign)
{
    for (int i = 0; i < 3; i++) {
        double complex s = 0;
        for (int j = 0; j < 3; j++) {
            double complex vj = CMPLX(v[2 * j], v[2 * j + 1]);
            s += (dagger ? conj(m->e[j][i]) : m->e[i][j]) * vj;
        }
        acc[i] += sign * s;
    }
}

/* ---- staggered phases ---- */

void qf_ref_staggered_phases(double *u, const int L[4], const double phase[4][2])
{
    int64_t V = volume(L);
    for (int64_t i = 0; i < V; i++) {
        int x[4];
        coords(i, L, x);
        double eta[4];
        eta[3] = 1;
        eta[0] = x[3] % 2 ? -1 : 1;
        eta[1] = (x[3] + x[0]) % 2 ? -1 : 1;
        eta[2] = (x[3] + x[0] + x[1]) % 2 ? -1 : 1;
        for (int mu = 0; mu < 4; mu++) {
            double complex f = eta[mu];
            if (x[mu] == L[mu] - 1) f *= CMPLX(phase[mu][0], phase[mu][1]);
            double *m = u + (i * 4 + mu) * 18;
            for (int k = 0; k < 9; k++) {
                double complex z = CMPLX(m[2 * k], m[2 * k + 1]) * f;
                m[2 * k] = creal(z);
                m[2 * k + 1] = cimag(z);
            }
        }
    }
}

/* ---- fat and Naik links by explicit paths ---- */

/* A path is a list of signed steps: +(d+1) a hop forward in direction d (times U_d(y)), -(d+1) a hop
 * backward (times U_d(y - d)^dag). Returns the ordered product of the links and the site it ends on. */
static mat3 path_product(const double *u, const int L[4], const int start[4], int n, const int *steps, int end[4])
{
    mat3 p = m_identity();
    int y[4] = {start[0], start[1], start[2], start[3]};
    for (int k = 0; k < n; k++) {
        int d = abs(steps[k]) - 1, z[4];
        mat3 l;
        if (steps[k] > 0) {
            l = link_at(u, L, y, d);
            shifted(y, L, d, +1, z);
        } else {
            shifted(y, L, d, -1, z);
            mat3 back = link_at(u, L, z, d);
            l = m_dag(&back);
        }
        p = m_mul(&p, &l);
        for (int nu = 0; nu < 4; nu++) y[nu] = z[nu];
    }
    for (int nu = 0; nu < 4; nu++) end[nu] = y[nu];
    return p;
}

/* Every fat-link path of the action leaves x through the displacements disp[0..n-1], steps +mu, and
 * retraces the displacements in reverse order: n = 0 the one-link term, n = 1 the 3-staple, n = 2 the
 * 5-staple (or Lepage when disp[0] == disp[1]), n = 3 the 7-staple. The end point is checked so that a
 * slip in the enumeration stops the tests instead of building a link that is not gauge covariant. */
static void add_path(mat3 *acc, int *count, double c, const double *u, const int L[4], const int x[4], int mu,
                     int n, const int *disp)
{
    int steps[7], k = 0;
    for (int i = 0; i < n; i++) steps[k++] = disp[i];
    steps[k++] = mu + 1;
    for (int i = n - 1; i >= 0; i--) steps[k++] = -disp[i];
    int end[4], want[4];
    mat3 p = path_product(u, L, x, k, steps, end);
    shifted(x, L, mu, +1, want);
    if (site_index(end, L) != site_index(want, L)) {
        printf("staggered reference: a fat-link path does not end at x + mu\n");
        exit(1);
    }
    m_add_scaled(acc, c, &p);
    (*count)++;
}

void qf_ref_asqtad_links(const double *u_phased, const int L[4], double u0, double *fat, double *lng)
{
    /* MILC's coefficients: each path divided by u0 to the power (its length - 1) */
    double u2 = u0 * u0, u4 = u2 * u2, u6 = u4 * u2;
    double c1 = 5.0 / 8.0, cN = -1.0 / (24.0 * u2), c3 = -1.0 / (16.0 * u2), c5 = 1.0 / (64.0 * u4),
           c7 = -1.0 / (384.0 * u6), cL = -1.0 / (16.0 * u4);

    int64_t V = volume(L);
    for (int64_t i = 0; i < V; i++) {
        int x[4];
        coords(i, L, x);
        for (int mu = 0; mu < 4; mu++) {
            mat3 f = m_zero();
            int npaths = 0;
            add_path(&f, &npaths, c1, u_phased, L, x, mu, 0, NULL);
            for (int nu = 0; nu < 4; nu++) {
                if (nu == mu) continue;
                for (int s = -1; s <= 1; s += 2) {
                    int d[3];
                    d[0] = s * (nu + 1);
                    add_path(&f, &npaths, c3, u_phased, L, x, mu, 1, d);
                    int lepage[2] = {d[0], d[0]};
                    add_path(&f, &npaths, cL, u_phased, L, x, mu, 2, lepage);
                    for (int rho = 0; rho < 4; rho++) {
                        if (rho == mu || rho == nu) continue;
                        for (int r = -1; r <= 1; r += 2) {
                            d[1] = r * (rho + 1);
                            add_path(&f, &npaths, c5, u_phased, L, x, mu, 2, d);
                            for (int sigma = 0; sigma < 4; sigma++) {
                                if (sigma == mu || sigma == nu || sigma == rho) continue;
                                for (int q = -1; q <= 1; q += 2) {
                                    d[2] = q * (sigma + 1);
                                    add_path(&f, &npaths, c7, u_phased, L, x, mu, 3, d);
                                }
                            }
                        }
                    }
                }
            }
            /* 1 + 6 + 6 (Lepage) + 24 + 48 */
            if (npaths != 85) {
                printf("staggered reference: %d fat-link paths instead of 85\n", npaths);
                exit(1);
            }
            m_store(fat + (i * 4 + mu) * 18, &f);

            int naik[3] = {mu + 1, mu + 1, mu + 1}, end[4];
            mat3 l = path_product(u_phased, L, x, 3, naik, end);
            mat3 n = m_zero();
            m_add_scaled(&n, cN, &l);
            m_store(lng + (i * 4 + mu) * 18, &n);
        }
    }
}

/* ---- the operator ---- */

void qf_ref_asqtad_dslash(const double *fat, const double *lng, const int L[4], const double *psi, double *out)
{
    int64_t V = volume(L);
    for (int64_t i = 0; i < V; i++) {
        int x[4], y[4];
        coords(i, L, x);
        double complex acc[3] = {0, 0, 0};
        for (int mu = 0; mu < 4; mu++) {
            mat3 m;
            shifted(x, L, mu, +1, y);
            m = link_at(fat, L, x, mu);
            mv_acc(acc, &m, 0, psi + site_index(y, L) * REF_COLOUR_REALS, +1);
            shifted(x, L, mu, -1, y);
            m = link_at(fat, L, y, mu);
            mv_acc(acc, &m, 1, psi + site_index(y, L) * REF_COLOUR_REALS, -1);
            shifted(x, L, mu, +3, y);
            m = link_at(lng, L, x, mu);
            mv_acc(acc, &m, 0, psi + site_index(y, L) * REF_COLOUR_REALS, +1);
            shifted(x, L, mu, -3, y);
            m = link_at(lng, L, y, mu);
            mv_acc(acc, &m, 1, psi + site_index(y, L) * REF_COLOUR_REALS, -1);
        }
        for (int c = 0; c < 3; c++) {
            out[i * REF_COLOUR_REALS + 2 * c] = creal(acc[c]);
            out[i * REF_COLOUR_REALS + 2 * c + 1] = cimag(acc[c]);
        }
    }
}

void qf_ref_asqtad_m(const double *fat, const double *lng, const int L[4], double mass, const double *psi, double *out)
{
    qf_ref_asqtad_dslash(fat, lng, L, psi, out);
    int64_t n = volume(L) * REF_COLOUR_REALS;
    for (int64_t k = 0; k < n; k++) out[k] += 2 * mass * psi[k];
}
