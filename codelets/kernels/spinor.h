/* Wilson colour-spinors for site kernels, shared by CPU and CUDA code. A stored site is 24 reals
 * ordered [spin][colour][re, im] in double or single precision; a stored half spinor (a face site)
 * is 12 reals [2 spins][colour][re, im]. Arithmetic is in double, as for qf_su3. */
#ifndef QF_SPINOR_H
#define QF_SPINOR_H

#include "su3.h"

typedef struct { qf_complex s[4][3]; } qf_spinor;
typedef struct { qf_complex h[2][3]; } qf_half_spinor;

#define QF_SPINOR_REALS 24
#define QF_HALF_SPINOR_REALS 12

static inline QF_HD qf_spinor qf_spinor_load(const void *base, qf_precision prec, int64_t site)
{
    qf_spinor s;
    qf_complex_load(base, prec, (size_t)site * QF_SPINOR_REALS, &s.s[0][0], 12);
    return s;
}

static inline QF_HD void qf_spinor_store(void *base, qf_precision prec, int64_t site, const qf_spinor *s)
{
    qf_complex_store(base, prec, (size_t)site * QF_SPINOR_REALS, &s->s[0][0], 12);
}

static inline QF_HD qf_half_spinor qf_half_load(const void *base, qf_precision prec, int64_t f)
{
    qf_half_spinor h;
    qf_complex_load(base, prec, (size_t)f * QF_HALF_SPINOR_REALS, &h.h[0][0], 6);
    return h;
}

static inline QF_HD void qf_half_store(void *base, qf_precision prec, int64_t f, const qf_half_spinor *h)
{
    qf_complex_store(base, prec, (size_t)f * QF_HALF_SPINOR_REALS, &h->h[0][0], 6);
}

static inline QF_HD qf_spinor qf_spinor_zero(void)
{
    qf_spinor s;
    for (int a = 0; a < 4; a++)
        for (int c = 0; c < 3; c++) s.s[a][c] = qf_cmake(0.0, 0.0);
    return s;
}

/* a x + b y (real a, b) */
static inline QF_HD qf_spinor qf_spinor_axpby(double a, const qf_spinor *x, double b, const qf_spinor *y)
{
    qf_spinor r;
    for (int s = 0; s < 4; s++)
        for (int c = 0; c < 3; c++)
            r.s[s][c] = qf_cmake(a * x->s[s][c].re + b * y->s[s][c].re, a * x->s[s][c].im + b * y->s[s][c].im);
    return r;
}

/* U v for a colour vector v */
static inline QF_HD void qf_su3_mul_vec(const qf_su3 *u, const qf_complex *v, qf_complex *out)
{
    for (int i = 0; i < 3; i++) {
        qf_complex s = qf_cmul(u->e[i][0], v[0]);
        s = qf_cadd(s, qf_cmul(u->e[i][1], v[1]));
        out[i] = qf_cadd(s, qf_cmul(u->e[i][2], v[2]));
    }
}

/* U^dagger v */
static inline QF_HD void qf_su3_dagger_mul_vec(const qf_su3 *u, const qf_complex *v, qf_complex *out)
{
    for (int i = 0; i < 3; i++) {
        qf_complex s = qf_cconjmul(u->e[0][i], v[0]);
        s = qf_cadd(s, qf_cconjmul(u->e[1][i], v[1]));
        out[i] = qf_cadd(s, qf_cconjmul(u->e[2][i], v[2]));
    }
}

#endif
