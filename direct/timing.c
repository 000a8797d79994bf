/* The benchmarks' timing rule (qf_direct.h): one rule for the direct kernels, the task graphs timed
 * beside them and single kernel calls, so that their figures compare. */
#include "quarkflow/qf_direct.h"

#include <math.h>
#include <time.h>

double qf_timing_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { QF_TIMING_ROUNDS = 5 };

int qf_timing_run(qf_timing_fn run, void *ctx, int warmup, long n, double target_s, qf_timing *out)
{
    double t = 0.0;
    if (warmup > 0 && run(ctx, warmup, &t)) return QF_ERROR;
    if (n <= 0) { /* the probes warm up too */
        long probe = 1;
        for (;;) {
            if (run(ctx, probe, &t)) return QF_ERROR;
            if (t >= 0.1 || probe >= (1L << 24)) break;
            probe *= 2;
        }
        double per = t / (double)probe;
        n = per > 0 ? (long)ceil(target_s / per) : probe;
        if (n < 1) n = 1;
    }
    out->rounds = n >= QF_TIMING_ROUNDS ? QF_TIMING_ROUNDS : 1;
    out->n = 0;
    out->seconds = 0.0;
    out->best = INFINITY;
    for (int r = 0; r < out->rounds; r++) {
        long k = n / out->rounds + (r < n % out->rounds);
        if (run(ctx, k, &t)) return QF_ERROR;
        out->n += k;
        out->seconds += t;
        if (t / (double)k < out->best) out->best = t / (double)k;
    }
    return QF_SUCCESS;
}
