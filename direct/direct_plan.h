/* What the direct module's C files (direct.c, ceiling.c, block.c) and its CUDA part (direct_cuda.cu)
 * share: the plan of one Mhat application with the kernels' own arguments, which stay out of the
 * public header (qf_direct.h) so that the launchers' argument structs can change with the codelets. */
#ifndef QF_DIRECT_PLAN_H
#define QF_DIRECT_PLAN_H

#include "quarkflow/qf_config.h"
#include "quarkflow/qf_direct.h" /* before the kernels: kernels/clover.h uses QF_NDIM */
#include "wilson_launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Spinor buffers of the plan: the operator's input and output (swapped after every application so
 * that the applications chain) and the odd-site intermediate, numbered as the library's hops name
 * them (qf_hop_field). */
enum { QF_DIRECT_IN = QF_HOP_IN, QF_DIRECT_OUT = QF_HOP_OUT, QF_DIRECT_TMP = QF_HOP_TMP, QF_DIRECT_NSPINORS };

typedef struct {
    qf_dirac_hop hop;            /* as qf_dirac_schur_hops gives it */
    int src, dst, x;             /* spinor buffers read through the hops, written, read as x (-1: none) */
    int clover;                  /* 0: the clover field A, 1: its inverse, -1: none */
    qf_wilson_gather_args g;     /* as tasks/dirac.c fills them */
    qf_wilson_args a;            /* origin set per block from block_origin */
    qf_wilson_args direct;       /* the same for the hop that reads the neighbour blocks (qf_wilson_direct_args) */
} qf_direct_hop_args;

typedef struct {
    int nblocks;
    int blocks[QF_NDIM];
    int (*block_origin)[QF_NDIM];      /* [nblocks]: global coordinates of each block's first site */
    int (*neighbour)[QF_WILSON_NFACES]; /* [nblocks][k]: face (block * 8 + slot) that feeds exterior slot k */
    int reads_neighbours;              /* CPU: each block's hop reads its neighbours' blocks (wilson_direct), as
                                        * the task graph's where qf_runtime_direct_hops says so */
    int eo_pass;                       /* CPU: the one block's application in one pass over the odd sites
                                        * (qf_wilson_eo_pass_run), as the task graph's wilson_block runs it */
    int block_pass;                    /* CPU: each block's application in one pass over its odd sites
                                        * (qf_wilson_eo_pass_block_run) between the first hop's gathers and
                                        * the second's exteriors, as the task graph's wilson_pair runs it */
    qf_precision prec;
    int nhops;
    qf_direct_hop_args hop[QF_DIRAC_MAX_HOPS];
    /* host buffers per block, in the layout of the field handles (qf_lattice.h) */
    size_t spinor_bytes, gauge_bytes, clover_bytes, face_bytes[QF_NDIM];
    void **spinor[QF_DIRECT_NSPINORS]; /* [buffer][block] */
    void **gauge;                      /* [block] */
    void **clover[2];                  /* [A or A^-1][block], NULL without clover */
} qf_direct_plan;

/* The hops of one Mhat application (dagger 0) of the operator of parameters dp and form on lat's
 * blocks, with the kernels' arguments tasks/dirac.c gives them (p->hop, p->nhops). */
void qf_direct_plan_hops(qf_direct_plan *p, const qf_lattice *lat, const qf_dirac_params *dp, qf_schur_form form);

/* Runs fn on n threads (thread k gets a qf_direct_thread_arg {c, k}) and joins them. */
typedef struct {
    void *c;
    int tid;
} qf_direct_thread_arg;
int qf_direct_threads(int n, void *(*fn)(void *), void *c);
/* Binds direct thread k to the core of StarPU's CPU worker k, so that the direct kernels and the task
 * graph use the same cores (nothing is bound when StarPU binds nothing, as with
 * STARPU_WORKERS_NOBIND=1). */
void qf_direct_bind_to_worker_core(int tid);

#if QF_HAVE_CUDA
/* Number of CUDA devices the runtime sees (0 when none, or no driver). */
int qf_direct_cuda_devices(void);
/* Copies the plan's host buffers to device `device`, then times applications on one stream with
 * CUDA events: warmup untimed, then *iters (0: enough for about target_s seconds; set on return)
 * chained applications, queued back to back or (wait_each) each launched once the host has polled
 * the last one's end; the blocks of QF_DIRECT_OUT are copied back into the plan's host buffers (the
 * result of one application when *iters was 1 and warmup 0). Returns 0, or -1 with a message in err. */
int qf_direct_cuda_run(qf_direct_plan *p, int device, int warmup, int wait_each, double target_s, long *iters,
                       double *seconds, char *err, size_t errlen);
/* Device-to-device cudaMemcpy bandwidth on `device`: best of 10 copies of a `bytes`-sized buffer,
 * counting the bytes read and written (2 x bytes a copy). */
int qf_direct_cuda_copy_bandwidth(int device, size_t bytes, double *gbps, char *err, size_t errlen);
/* n calls of the task probe's kernel on `device` (qf_direct_probe), *seconds for all of them. */
int qf_direct_cuda_probe(int device, int wait_each, long n, int64_t wait_ns, double *seconds, char *err, size_t errlen);
#endif

#ifdef __cplusplus
}
#endif
#endif
