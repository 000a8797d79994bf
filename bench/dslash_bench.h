/* quarkflow bench dslash: what the C driver (dslash_bench.c) and its CUDA part (dslash_bench_cuda.cu)
 * share. The driver mirrors one application of the even-odd operator as the sequence of hops that
 * tasks/dirac.c submits (each hop: gathers of every block, interiors, exteriors), on plain per-block
 * buffers in the fields' own layout, and hands the plan to the CPU threads or to the GPU. */
#ifndef QF_DSLASH_BENCH_H
#define QF_DSLASH_BENCH_H

#include "quarkflow/qf_config.h"
#include "quarkflow/qf_lattice.h" /* before the kernels: kernels/clover.h uses QF_NDIM */
#include "wilson_launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Spinor buffers of the plan: the operator's input and output (swapped after every application so
 * that the applications chain) and the odd-site intermediate. */
enum { QF_BENCH_IN = 0, QF_BENCH_OUT, QF_BENCH_TMP, QF_BENCH_NSPINORS };
enum { QF_BENCH_MAX_HOPS = 2 };

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

#ifdef __cplusplus
}
#endif
#endif
