/* SU(3) algebra for site kernels, shared by CPU and CUDA code. A matrix is 3x3 row-major complex;
 * in memory it is 18 reals (re, im) in double or single precision, loaded into and stored from
 * this double-precision struct. */
#ifndef QF_SU3_H
#define QF_SU3_H

#include "qf_complex.h"
#include "reals.h"
#include "quarkflow/qf_lattice.h" /* QF_NDIM */

#include <math.h>

typedef struct { qf_complex e[3][3]; } qf_su3;

/* Reals in one stored matrix, and in the QF_NDIM links of a site of a gauge field (its record:
 * link mu of site i is matrix QF_NDIM i + mu). */
#define QF_SU3_REALS 18
#define QF_LINKS_REALS (QF_NDIM * QF_SU3_REALS)

/* n <= 12 complex numbers (the longest record: a Wilson spinor) from or to n re, im pairs at base +
 * offset reals: the one conversion between stored records and the double-precision structs. */
#define QF_COMPLEX_RUN_MAX 12
static inline QF_HD void qf_complex_load(const void *base, qf_precision prec, size_t offset, qf_complex *z, int n)
{
    double v[2 * QF_COMPLEX_RUN_MAX];
    qf_reals_load(base, prec, offset, v, 2 * n);
    for (int i = 0; i < n; i++) z[i] = qf_cmake(v[2 * i], v[2 * i + 1]);
}

static inline QF_HD void qf_complex_store(void *base, qf_precision prec, size_t offset, const qf_complex *z, int n)
{
    double v[2 * QF_COMPLEX_RUN_MAX];
    for (int i = 0; i < n; i++) {
        v[2 * i] = z[i].re;
        v[2 * i + 1] = z[i].im;
    }
    qf_reals_store(base, prec, offset, v, 2 * n);
}

static inline QF_HD qf_su3 qf_su3_load(const void *base, qf_precision prec, size_t matrix_index)
{
    qf_su3 m;
    qf_complex_load(base, prec, matrix_index * QF_SU3_REALS, &m.e[0][0], 9);
    return m;
}

static inline QF_HD void qf_su3_store(void *base, qf_precision prec, size_t matrix_index, const qf_su3 *m)
{
    qf_complex_store(base, prec, matrix_index * QF_SU3_REALS, &m->e[0][0], 9);
}

/* The scalar kind's rebuilding of compressed links (su3_kind.h): qf_su3_complete_row3 (row 2 =
 * conj(row 0 x row 1)) and qf_su3_unpack8, in double. */
static inline QF_HD double qf_real_sqrt_nonneg(double x) { return sqrt(x > 0.0 ? x : 0.0); }
static inline QF_HD void qf_real_sincos(double x, double *s, double *c)
{
    *s = sin(x);
    *c = cos(x);
}
#define QF_K(name) name
#define QF_KIND_UNPACK8_STORED
#include "su3_kind.h"
#undef QF_KIND_UNPACK8_STORED
#undef QF_K

/* The same in float (suffix _sf), for links stored in single precision: unpacking reconstruct-8 in the
 * scalar kind's double arithmetic (two square roots, two sines and cosines and about 60 operations a
 * link) made a single-precision hop on the GPU slower than with whole links (H200, 32^4: 725-765 us a
 * Mhat against 698 with 18 and 611 with 12), for no accuracy the stored reals have. */
#define QF_K(name) name##_sf
typedef struct { qf_complex_sf e[3][3]; } qf_su3_sf;
static inline QF_HD float qf_real_sqrt_nonneg_sf(float x) { return sqrtf(x > 0.0f ? x : 0.0f); }
static inline QF_HD void qf_real_sincos_sf(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}
#include "su3_kind.h"
#undef QF_K

/* The scalar kind's qf_su3_unpack8 of reals stored in prec: in float for single and half precision. */
static inline QF_HD_INLINE void qf_su3_unpack8_stored(qf_su3 *m, qf_precision prec)
{
    if (prec == QF_DOUBLE) {
        qf_su3_unpack8(m);
        return;
    }
    qf_su3_sf f;
    static const int stored[4][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}};
    for (int k = 0; k < 4; k++) {
        const qf_complex z = m->e[stored[k][0]][stored[k][1]];
        f.e[stored[k][0]][stored[k][1]] = qf_cmake_sf((float)z.re, (float)z.im);
    }
    qf_su3_unpack8_sf(&f);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m->e[i][j] = qf_cmake(f.e[i][j].re, f.e[i][j].im);
}

/* The reals a stored link keeps under recon (qf_defs.h), which su3_kind.h rebuilds it from: all 18;
 * rows 0 and 1 (12); or, in QUDA's reconstruct-8, arg a00, arg a20, then a01, a02 and a10 (8). */
static inline QF_HD void qf_su3_pack(const qf_su3 *u, qf_recon recon, double *v)
{
    if (recon == QF_RECON_8) {
        const qf_complex z[4] = {qf_cmake(atan2(u->e[0][0].im, u->e[0][0].re), atan2(u->e[2][0].im, u->e[2][0].re)),
                                 u->e[0][1], u->e[0][2], u->e[1][0]};
        for (int k = 0; k < 4; k++) v[2 * k] = z[k].re, v[2 * k + 1] = z[k].im;
        return;
    }
    int n = qf_recon_link_reals(recon) / 2;
    for (int k = 0; k < n; k++) v[2 * k] = u->e[k / 3][k % 3].re, v[2 * k + 1] = u->e[k / 3][k % 3].im;
}

static inline QF_HD qf_su3 qf_su3_identity(void)
{
    qf_su3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.e[i][j] = qf_cmake(i == j ? 1.0 : 0.0, 0.0);
    return m;
}

/* a * b */
static inline QF_HD qf_su3 qf_su3_mul(const qf_su3 *a, const qf_su3 *b)
{
    qf_su3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            qf_complex s = qf_cmul(a->e[i][0], b->e[0][j]);
            s = qf_cadd(s, qf_cmul(a->e[i][1], b->e[1][j]));
            c.e[i][j] = qf_cadd(s, qf_cmul(a->e[i][2], b->e[2][j]));
        }
    return c;
}

/* a * b^dagger */
static inline QF_HD qf_su3 qf_su3_mul_nd(const qf_su3 *a, const qf_su3 *b)
{
    qf_su3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            qf_complex s = qf_cconjmul(b->e[j][0], a->e[i][0]);
            s = qf_cadd(s, qf_cconjmul(b->e[j][1], a->e[i][1]));
            c.e[i][j] = qf_cadd(s, qf_cconjmul(b->e[j][2], a->e[i][2]));
        }
    return c;
}

/* a^dagger * b */
static inline QF_HD qf_su3 qf_su3_mul_dn(const qf_su3 *a, const qf_su3 *b)
{
    qf_su3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            qf_complex s = qf_cconjmul(a->e[0][i], b->e[0][j]);
            s = qf_cadd(s, qf_cconjmul(a->e[1][i], b->e[1][j]));
            c.e[i][j] = qf_cadd(s, qf_cconjmul(a->e[2][i], b->e[2][j]));
        }
    return c;
}

static inline QF_HD void qf_su3_add_to(qf_su3 *a, const qf_su3 *b)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a->e[i][j] = qf_cadd(a->e[i][j], b->e[i][j]);
}

static inline QF_HD qf_su3 qf_su3_zero(void)
{
    qf_su3 m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.e[i][j] = qf_cmake(0.0, 0.0);
    return m;
}

/* Re Tr(a * b^dagger), without forming the product. */
static inline QF_HD double qf_su3_retrace_mul_nd(const qf_su3 *a, const qf_su3 *b)
{
    double t = 0.0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) t += a->e[i][k].re * b->e[i][k].re + a->e[i][k].im * b->e[i][k].im;
    return t;
}

static inline QF_HD double qf_su3_retrace(const qf_su3 *a) { return a->e[0][0].re + a->e[1][1].re + a->e[2][2].re; }

/* Plaquette term Re Tr[ U_mu(x) U_nu(x+mu) U_mu(x+nu)^dagger U_nu(x)^dagger ]. */
static inline QF_HD double qf_plaquette_site(const qf_su3 *u_mu_x, const qf_su3 *u_nu_xpmu,
                                             const qf_su3 *u_mu_xpnu, const qf_su3 *u_nu_x)
{
    qf_su3 left = qf_su3_mul(u_mu_x, u_nu_xpmu);
    qf_su3 right = qf_su3_mul(u_nu_x, u_mu_xpnu);
    return qf_su3_retrace_mul_nd(&left, &right);
}

/* Third row of an SU(3) matrix from its first two: row3 = conj(row1 x row2). */
/* Projects a matrix near U(3) back onto SU(3): Gram-Schmidt on the first two rows, third row from
 * them (the standard reunitarisation of MILC and Chroma). */
static inline QF_HD void qf_su3_reunitarize(qf_su3 *m)
{
    double n = 0.0;
    for (int k = 0; k < 3; k++) n += qf_cnorm2(m->e[0][k]);
    n = 1.0 / sqrt(n);
    for (int k = 0; k < 3; k++) m->e[0][k] = qf_cscale(n, m->e[0][k]);
    qf_complex p = qf_cmake(0.0, 0.0); /* row0^dagger . row1 */
    for (int k = 0; k < 3; k++) p = qf_cadd(p, qf_cconjmul(m->e[0][k], m->e[1][k]));
    for (int k = 0; k < 3; k++) m->e[1][k] = qf_csub(m->e[1][k], qf_cmul(p, m->e[0][k]));
    n = 0.0;
    for (int k = 0; k < 3; k++) n += qf_cnorm2(m->e[1][k]);
    n = 1.0 / sqrt(n);
    for (int k = 0; k < 3; k++) m->e[1][k] = qf_cscale(n, m->e[1][k]);
    qf_su3_complete_row3(m);
}

/* Largest deviation from SU(3): max over |U U^dagger - 1| entries and |det U - 1|. */
static inline QF_HD double qf_su3_unitarity_deviation(const qf_su3 *m)
{
    qf_su3 p = qf_su3_mul_nd(m, m);
    double dev = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            qf_complex d = qf_csub(p.e[i][j], qf_cmake(i == j ? 1.0 : 0.0, 0.0));
            double a = qf_cnorm2(d);
            if (a > dev) dev = a;
        }
    qf_su3 r = *m;
    qf_su3_complete_row3(&r);
    /* det U = row3 . conj(complete row3) for a unitary U; compare row 3 with its completion */
    qf_complex det = qf_cmake(0.0, 0.0);
    for (int k = 0; k < 3; k++) det = qf_cadd(det, qf_cconjmul(r.e[2][k], m->e[2][k]));
    double dd = qf_cnorm2(qf_csub(det, qf_cmake(1.0, 0.0)));
    if (dd > dev) dev = dd;
    return sqrt(dev); /* the entries above are squared deviations */
}

#endif
