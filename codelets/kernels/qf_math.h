/* Deterministic elementary functions for Monte Carlo kernels: log and the sine and cosine of 2 pi u
 * from +, -, *, / in a fixed order, so that CPUs and GPUs (compiled without FMA contraction: C with
 * -ffp-contract=off, CUDA with --fmad=false) produce the same bits. The libm functions of the two
 * differ in the last place, and one differing bit changes a Monte Carlo accept/reject decision; the
 * series below are accurate to about an ulp, which is all a random-number transform needs. */
#ifndef QF_MATH_H
#define QF_MATH_H

#include "quarkflow/qf_defs.h"

#include <string.h>

/* Natural logarithm of a positive normal number. */
static inline QF_HD double qf_log(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
    double m;
    memcpy(&m, &bits, sizeof m); /* x = m 2^e, m in [1, 2) */
    if (m > 1.4142135623730951) {
        m *= 0.5;
        e += 1;
    }
    /* log m = 2 atanh(s), |s| <= 0.1716: the series to s^23 is below 1e-18 */
    double s = (m - 1.0) / (m + 1.0), s2 = s * s;
    double t = 1.0 / 23.0;
    for (int k = 21; k >= 1; k -= 2) t = t * s2 + 1.0 / k;
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    return (double)e * ln2_hi + (2.0 * s * t + (double)e * ln2_lo);
}

/* sin and cos of x in [0, pi/4] by their Taylor series (terms below 1e-19 dropped). */
static inline QF_HD void qf_sincos_small(double x, double *s, double *c)
{
    double x2 = x * x, ts = 1.0, tc = 1.0;
    for (int k = 18; k >= 2; k -= 2) {
        tc = 1.0 - tc * x2 / ((double)k * (k - 1));
        ts = 1.0 - ts * x2 / ((double)(k + 1) * k);
    }
    *s = x * ts;
    *c = tc;
}

/* sin(2 pi u) and cos(2 pi u) for u in [0, 1). */
static inline QF_HD void qf_sincos_2pi(double u, double *s, double *c)
{
    double w = 4.0 * u;
    int q = (int)w;
    double f = w - q; /* exact: w and q are within a factor 4 of each other */
    double ss, cc;
    if (f <= 0.5) {
        qf_sincos_small(f * 1.5707963267948966, &ss, &cc);
    } else {
        qf_sincos_small((1.0 - f) * 1.5707963267948966, &cc, &ss);
    }
    switch (q & 3) {
    case 0: *s = ss; *c = cc; break;
    case 1: *s = cc; *c = -ss; break;
    case 2: *s = -ss; *c = -cc; break;
    default: *s = -cc; *c = ss; break;
    }
}

#endif
