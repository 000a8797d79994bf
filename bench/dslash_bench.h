/* What bench dslash (dslash_bench.c) shares with the other drivers that time the operator beside its
 * direct kernels (solver_bench.c) or against the machine's ceiling (mg_bench.c). The direct kernels,
 * the ceilings and the timing rule themselves are the library's (include/quarkflow/qf_direct.h). */
#ifndef QF_DSLASH_BENCH_H
#define QF_DSLASH_BENCH_H

#include "quarkflow.h"
#include "quarkflow/qf_direct.h"

/* The task graph timed by qf_timing_run's rule: chained qf_dirac_apply(QF_OP_MHAT) between f[0] and
 * f[1] (in f[0] on entry), one wait at the end. */
int qf_bench_graph_time(qf_dirac *d, qf_field *f[2], int warmup, long n, double target_s, qf_timing *t);

/* qf_direct_ceiling of the path the direct kernels take (qf_direct_path), printed. */
int qf_bench_ceiling(int gpu, int device, int ncpu, double *gbps);

/* The options both benchmarks share at argv[*i]: --iters N (timed applications), --warmup W
 * (untimed ones first), --seed S; 0, a usage error's exit code, or QF_BENCH_NOT_A_TIMING_OPTION. */
#define QF_BENCH_NOT_A_TIMING_OPTION (-1)
int qf_bench_timing_option(const char *cmd, int argc, char **argv, int *i, long *iters, int *warmup, uint64_t *seed);

#endif
