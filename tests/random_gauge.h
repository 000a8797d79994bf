/* Test-only random fields: a small deterministic generator and random SU(3) links (Gram-Schmidt of
 * Gaussian rows, third row from the first two), independent of the project's generators. */
#ifndef QF_TEST_RANDOM_GAUGE_H
#define QF_TEST_RANDOM_GAUGE_H

#include <math.h>
#include <stdint.h>

static inline uint64_t qf_test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline double qf_test_gauss(uint64_t *state)
{
    double u1 = ((qf_test_rand(state) >> 11) + 0.5) * 0x1.0p-53, u2 = (qf_test_rand(state) >> 11) * 0x1.0p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* One SU(3) matrix, 18 doubles row-major (re, im). */
static inline void qf_test_random_su3(uint64_t *state, double *m)
{
    double r[3][6];
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 6; k++) r[i][k] = qf_test_gauss(state);
    /* normalise row 0; row 1 -= (row0^* . row1) row0; normalise row 1 */
    double n = 0;
    for (int k = 0; k < 6; k++) n += r[0][k] * r[0][k];
    for (int k = 0; k < 6; k++) r[0][k] /= sqrt(n);
    double pr = 0, pi = 0;
    for (int c = 0; c < 3; c++) {
        pr += r[0][2 * c] * r[1][2 * c] + r[0][2 * c + 1] * r[1][2 * c + 1];
        pi += r[0][2 * c] * r[1][2 * c + 1] - r[0][2 * c + 1] * r[1][2 * c];
    }
    for (int c = 0; c < 3; c++) {
        r[1][2 * c] -= pr * r[0][2 * c] - pi * r[0][2 * c + 1];
        r[1][2 * c + 1] -= pr * r[0][2 * c + 1] + pi * r[0][2 * c];
    }
    n = 0;
    for (int k = 0; k < 6; k++) n += r[1][k] * r[1][k];
    for (int k = 0; k < 6; k++) r[1][k] /= sqrt(n);
    /* row 2 = conj(row0 x row1) */
    for (int c = 0; c < 3; c++) {
        int a = (c + 1) % 3, b = (c + 2) % 3;
        double re = r[0][2 * a] * r[1][2 * b] - r[0][2 * a + 1] * r[1][2 * b + 1] - (r[0][2 * b] * r[1][2 * a] - r[0][2 * b + 1] * r[1][2 * a + 1]);
        double im = r[0][2 * a] * r[1][2 * b + 1] + r[0][2 * a + 1] * r[1][2 * b] - (r[0][2 * b] * r[1][2 * a + 1] + r[0][2 * b + 1] * r[1][2 * a]);
        r[2][2 * c] = re;
        r[2][2 * c + 1] = -im;
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 6; k++) m[6 * i + k] = r[i][k];
}

#endif
