/* quarkflow bench dslash: what the C driver (dslash_bench.c), its CUDA part (dslash_bench_cuda.cu)
 * and bench solver (solver_bench.c, which times the same direct kernels) share. The driver mirrors
 * one application of the even-odd operator as the sequence of hops that tasks/dirac.c submits (each
 * hop: gathers of every block, interiors, exteriors), on plain per-block buffers in the fields' own
 * layout, and hands the plan to the CPU threads or to the GPU. */
#ifndef QF_DSLASH_BENCH_H
#define QF_DSLASH_BENCH_H

#include "quarkflow/qf_config.h"
#include "quarkflow/qf_dirac.h" /* before the kernels: kernels/clover.h uses QF_NDIM */
#include "wilson_launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Spinor buffers of the plan: the operator's input and output (swapped after every application so
 * that the applications chain) and the odd-site intermediate, numbered as the library's hops name
 * them (qf_hop_field). */
enum { QF_BENCH_IN = QF_HOP_IN, QF_BENCH_OUT = QF_HOP_OUT, QF_BENCH_TMP = QF_HOP_TMP, QF_BENCH_NSPINORS };
enum { QF_BENCH_MAX_HOPS = QF_DIRAC_MAX_HOPS };

typedef struct {
    int src, dst, x;             /* spinor buffers read through the hops, written, read as x (-1: none) */
    int clover;                  /* 0: the clover field A, 1: its inverse, -1: none */
    qf_wilson_gather_args g;     /* as tasks/dirac.c fills them */
    qf_wilson_args a;            /* origin set per block from block_origin */
} qf_bench_hop;

typedef struct {
    int nblocks;
    int blocks[QF_NDIM];
    int (*block_origin)[QF_NDIM];      /* [nblocks]: global coordinates of each block's first site */
    int (*neighbour)[QF_WILSON_NFACES]; /* [nblocks][k]: block whose face feeds exterior face slot k */
    qf_precision prec;
    int nhops;
    qf_bench_hop hop[QF_BENCH_MAX_HOPS];
    /* host buffers per block, in the layout of the field handles (qf_lattice.h) */
    size_t spinor_bytes, gauge_bytes, clover_bytes, face_bytes[QF_NDIM];
    void **spinor[QF_BENCH_NSPINORS]; /* [buffer][block] */
    void **gauge;                     /* [block] */
    void **clover[2];                 /* [A or A^-1][block], NULL without clover */
} qf_bench_plan;

/* The direct kernels of one Mhat application on an operator's data (dslash_bench.c), shared by bench
 * dslash and bench solver: the plan, and the face buffers of the CPU threads. */
typedef struct {
    qf_bench_plan plan;
    qf_lattice lat;
    int gpu, device;      /* the GPU path on CUDA device `device`, or CPU threads */
    int nthreads;         /* CPU: one a StarPU CPU worker, bound to its core */
    void **faces;         /* CPU: [block * QF_WILSON_NFACES + k] */
    double bytes;         /* moved by one application, by QUDA's rule */
} qf_bench_direct;

/* The arguments of Mhat's hops (p->hop, p->nhops) as tasks/dirac.c submits them for the operator of
 * parameters dp and form on lat's blocks, and QUDA's count of the reals one hop moves an output
 * site; bench kernels times the second hop's kernels alone from the same arguments. */
void qf_bench_plan_hops(qf_bench_plan *p, const qf_lattice *lat, const qf_dirac_params *dp, qf_schur_form form);
double qf_bench_hop_reals(const qf_bench_hop *h);

/* The path of the direct kernels: the GPU of the first CUDA worker when there is one and the device
 * is usable, otherwise the CPU workers' cores. Fails when there is neither. */
int qf_bench_direct_path(int *gpu, int *device);
/* The plan of Mhat for the operator of parameters p and form on gauge (its data rebuilt as
 * qf_dirac_create builds it, in p->prec), with `in` (a field of precision p->prec) as the input. */
int qf_bench_direct_create(qf_bench_direct *dk, const qf_lattice *lat, const qf_dirac_params *p, qf_schur_form form,
                           const qf_field *gauge, const qf_field *in, int gpu, int device);
/* One direct application compared with ref, the task graph's Mhat of the input (a global
 * lexicographic array): fails with a message when the relative difference *diff exceeds
 * qf_bench_check_tolerance of the plan's precision. */
int qf_bench_direct_check(qf_bench_direct *dk, const double *ref, double *diff);
static inline double qf_bench_check_tolerance(qf_precision p) { return p == QF_SINGLE ? 1e-5 : 1e-12; }
/* A timing: n applications in seconds, in rounds of about n / rounds chained applications each;
 * best is the fastest round's time an application. The ceilings are best-of-N figures (STREAM's
 * rule), and on a machine shared with other jobs a mean carries their bursts into the operator's
 * time but not into the ceiling's: the ratios compare best with best, and the means are printed too. */
typedef struct {
    long n;
    int rounds;
    double seconds, best;
} qf_bench_timing;

/* The memory-bandwidth ceiling of the path the direct kernels take (qf_bench_direct_path), printed, with
 * the runtime paused: a STREAM triad on ncpu threads, or a device-to-device copy on the GPU. */
int qf_bench_ceiling(int gpu, int device, int ncpu, double *gbps);

/* Monotonic wall-clock seconds, and the benchmarks' timing rule: run(ctx, k, &seconds) does k
 * applications (or kernel calls) and times them; qf_bench_timed runs warmup untimed, then n timed
 * ones in rounds (n <= 0: as many as last about target_s seconds). */
double qf_bench_now(void);
typedef int (*qf_bench_run)(void *ctx, long n, double *seconds);
int qf_bench_timed(qf_bench_run run, void *ctx, int warmup, long n, double target_s, qf_bench_timing *out);

/* warmup untimed, then n timed chained applications (n <= 0: as many as last about target_s
 * seconds) with the runtime paused: in rounds on CPUs, in one on a GPU (its own, not shared). */
int qf_bench_direct_time(qf_bench_direct *dk, int warmup, long n, double target_s, qf_bench_timing *t);
void qf_bench_direct_free(qf_bench_direct *dk);
/* The task graph timed the same way: chained qf_dirac_apply(QF_OP_MHAT) between f[0] and f[1] (in
 * f[0] on entry), one wait at the end. */
int qf_bench_graph_time(qf_dirac *d, qf_field *f[2], int warmup, long n, double target_s, qf_bench_timing *t);

#if QF_HAVE_CUDA
/* Number of CUDA devices the runtime sees (0 when none, or no driver). */
int qf_bench_cuda_devices(void);

/* Copies the plan's host buffers to device `device`, checks one application (result blocks of
 * QF_BENCH_OUT copied back into the plan's host buffers), then times applications on one stream with
 * CUDA events: warmup untimed, then *iters (0: enough for about target_s seconds; set on return)
 * chained applications. Returns 0, or -1 with a message in err. */
int qf_bench_cuda_direct(qf_bench_plan *p, int device, int warmup, double target_s, long *iters, double *seconds,
                         char *err, size_t errlen);

/* Device-to-device cudaMemcpy bandwidth on `device`: best of several copies of a `bytes`-sized
 * buffer, counting the bytes read and written (2 x bytes a copy). */
int qf_bench_cuda_copy_bandwidth(int device, size_t bytes, double *gbps, char *err, size_t errlen);
#endif

/* The options both benchmarks share at argv[*i]: --iters N (timed applications), --warmup W
 * (untimed ones first), --seed S; 0, a usage error's exit code, or QF_BENCH_NOT_A_TIMING_OPTION. */
#define QF_BENCH_NOT_A_TIMING_OPTION (-1)
int qf_bench_timing_option(const char *cmd, int argc, char **argv, int *i, long *iters, int *warmup, uint64_t *seed);

#ifdef __cplusplus
}
#endif
#endif
