/* The one-task coarse GCR's scalar steps (qf_coarse_gcr_scalars, kernels/coarse_gcr.h), which the CPU
 * runs in place and the GPU in a one-thread kernel: the coefficients that orthogonalise a direction,
 * alpha and |r|^2, and a breakdown that stays recorded with its iteration and zeroes every later
 * coefficient, so that x keeps its last good iterate until the host reads the flag. */
#include "check.h"
#include "coarse_gcr.h"

#include <math.h>

static int close_to(double a, double b) { return fabs(a - b) <= 1e-15 * (fabs(b) > 1.0 ? fabs(b) : 1.0); }

int main(void)
{
    double s[QF_GCR_S_COUNT] = {0};
    qf_coarse_gcr_scalars(s, QF_GCR_RESET, 0, 0);
    s[QF_GCR_S_RR] = 10.0;

    /* step 0: |z_0|^2 = 4, <z_0, r> = 2 - 2i: alpha = (2 - 2i) / 4, |r|^2 -= 8 / 4 */
    s[QF_GCR_S_ZR] = 4.0;
    s[QF_GCR_S_ZR + 2] = 2.0;
    s[QF_GCR_S_ZR + 3] = -2.0;
    qf_coarse_gcr_scalars(s, QF_GCR_ALPHA, 0, 0);
    CHECK(close_to(s[QF_GCR_S_ALPHA], 0.5) && close_to(s[QF_GCR_S_ALPHA + 1], -0.5), "alpha %g %+gi, want 0.5 - 0.5i",
          s[QF_GCR_S_ALPHA], s[QF_GCR_S_ALPHA + 1]);
    CHECK(close_to(s[QF_GCR_S_ALPHA + 2], -0.5) && close_to(s[QF_GCR_S_ALPHA + 3], 0.5), "-alpha %g %+gi",
          s[QF_GCR_S_ALPHA + 2], s[QF_GCR_S_ALPHA + 3]);
    CHECK(close_to(s[QF_GCR_S_RR], 8.0), "|r|^2 %g after step 0, want 8", s[QF_GCR_S_RR]);
    CHECK(close_to(s[QF_GCR_S_ZZ], 4.0), "|z_0|^2 kept as %g, want 4", s[QF_GCR_S_ZZ]);
    CHECK(s[QF_GCR_S_BROKEN] == 0.0, "a good step recorded a breakdown (%g)", s[QF_GCR_S_BROKEN]);

    /* step 1: <z_0, z_1> = 1 + 3i: coefficient -(1 + 3i) / 4 */
    s[QF_GCR_S_DOTS] = 1.0;
    s[QF_GCR_S_DOTS + 1] = 3.0;
    qf_coarse_gcr_scalars(s, QF_GCR_COEF, 1, 1);
    CHECK(close_to(s[QF_GCR_S_COEF], -0.25) && close_to(s[QF_GCR_S_COEF + 1], -0.75),
          "coefficient %g %+gi, want -0.25 - 0.75i", s[QF_GCR_S_COEF], s[QF_GCR_S_COEF + 1]);

    /* step 1 breaks down (|z_1|^2 = 0): recorded as iteration 1, alpha zero, |r|^2 untouched */
    s[QF_GCR_S_ZR] = 0.0;
    s[QF_GCR_S_ZR + 2] = 1.0;
    qf_coarse_gcr_scalars(s, QF_GCR_ALPHA, 1, 1);
    CHECK(s[QF_GCR_S_BROKEN] == 2.0, "breakdown recorded as %g, want 1 + iteration 1", s[QF_GCR_S_BROKEN]);
    CHECK(s[QF_GCR_S_ALPHA] == 0.0 && s[QF_GCR_S_ALPHA + 1] == 0.0 && s[QF_GCR_S_ALPHA + 2] == 0.0 &&
              s[QF_GCR_S_ALPHA + 3] == 0.0,
          "alpha after a breakdown is not zero");
    CHECK(close_to(s[QF_GCR_S_RR], 8.0), "|r|^2 changed by a breakdown: %g", s[QF_GCR_S_RR]);

    /* later steps: every coefficient zero, the first breakdown's iteration kept */
    s[QF_GCR_S_ZR] = 4.0;
    qf_coarse_gcr_scalars(s, QF_GCR_COEF, 1, 2);
    CHECK(s[QF_GCR_S_COEF] == 0.0 && s[QF_GCR_S_COEF + 1] == 0.0, "a coefficient after a breakdown is not zero");
    qf_coarse_gcr_scalars(s, QF_GCR_ALPHA, 1, 2);
    CHECK(s[QF_GCR_S_ALPHA] == 0.0 && s[QF_GCR_S_BROKEN] == 2.0, "a step after a breakdown moved x or its record");

    /* a NaN inner product is a breakdown too; RESET clears it for the next solve */
    qf_coarse_gcr_scalars(s, QF_GCR_RESET, 0, 0);
    s[QF_GCR_S_ZR] = 1.0;
    s[QF_GCR_S_ZR + 2] = NAN;
    qf_coarse_gcr_scalars(s, QF_GCR_ALPHA, 0, 5);
    CHECK(s[QF_GCR_S_BROKEN] == 6.0, "a NaN <z, r> recorded %g, want 1 + iteration 5", s[QF_GCR_S_BROKEN]);
    qf_coarse_gcr_scalars(s, QF_GCR_RESET, 0, 0);
    CHECK(s[QF_GCR_S_BROKEN] == 0.0, "RESET left the breakdown recorded");
    return qf_check_summary();
}
