/* The project's complex number: a plain struct so that the same site kernels compile as C11 on CPUs
 * and as C++ under nvcc (C99 _Complex is not available in device code). Arithmetic is in double;
 * single-precision storage is converted on load and store (see su3.h). */
#ifndef QF_COMPLEX_H
#define QF_COMPLEX_H

#include "quarkflow/qf_defs.h"

typedef struct { double re, im; } qf_complex;

static inline QF_HD qf_complex qf_cmake(double re, double im) { qf_complex z; z.re = re; z.im = im; return z; }
static inline QF_HD qf_complex qf_cadd(qf_complex a, qf_complex b) { return qf_cmake(a.re + b.re, a.im + b.im); }
static inline QF_HD qf_complex qf_csub(qf_complex a, qf_complex b) { return qf_cmake(a.re - b.re, a.im - b.im); }
static inline QF_HD qf_complex qf_cmul(qf_complex a, qf_complex b)
{
    return qf_cmake(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
/* conj(a) * b */
static inline QF_HD qf_complex qf_cconjmul(qf_complex a, qf_complex b)
{
    return qf_cmake(a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re);
}
static inline QF_HD qf_complex qf_cconj(qf_complex a) { return qf_cmake(a.re, -a.im); }
static inline QF_HD qf_complex qf_cscale(double s, qf_complex a) { return qf_cmake(s * a.re, s * a.im); }
static inline QF_HD double qf_cnorm2(qf_complex a) { return a.re * a.re + a.im * a.im; }

#endif
