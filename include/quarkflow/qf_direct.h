/* The operator's kernels run directly, without the runtime (direct/): what the benchmarks time against
 * the task graphs, so that a figure says what StarPU costs (DESIGN.md, "Performance method": compare
 * the task graph against the same kernels called directly, and both against the machine's ceiling
 * measured in the same run). The kernels are the ones the codelets launch, on plain buffers that hold
 * the task graph's own data, in the sequence of hops the library's Mhat runs (qf_dirac_schur_hops):
 *
 *   CPUs   one thread per StarPU CPU worker, bound to that worker's core, blocks dealt round-robin,
 *          per hop the gather and the interior of every block, a barrier, then every exterior; the
 *          runtime is paused meanwhile, so that no task shares their cores;
 *   GPU    device buffers, the CUDA launchers on one stream, timed with CUDA events.
 *
 * A plan is made with the runtime started (it exports the task graph's fields and rebuilds the
 * clover term as tasks) and its kernels run with the runtime paused; the timing rule and the
 * one-block kernels at the end need no runtime at all. One process only. */
#ifndef QF_DIRECT_H
#define QF_DIRECT_H

#include "qf_dirac.h"
#include "qf_runtime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the timing rule of the benchmarks ----
 * run(ctx, k, &seconds) does k applications (or kernel calls) and times them; qf_timing_run runs
 * warmup untimed, then n timed ones in rounds (5, or one if n is smaller; n <= 0: as many as last
 * about target_s seconds, found by doubling a probe run until it lasts 0.1 s). best is the fastest
 * round's time an application. Ceilings are best-of-N figures (STREAM's rule), and on a machine
 * shared with other jobs a mean carries their bursts into the operator's time but not into the
 * ceiling's: ratios compare best with best, and the means are worth printing beside them. */
typedef struct {
    long n;
    int rounds;
    double seconds, best;
} qf_timing;
typedef int (*qf_timing_fn)(void *ctx, long n, double *seconds);
int qf_timing_run(qf_timing_fn run, void *ctx, int warmup, long n, double target_s, qf_timing *out);
/* Monotonic wall-clock seconds without StarPU (qf_wtime is StarPU's clock; bench kernels starts no runtime). */
double qf_timing_now(void);

/* ---- one even-odd Mhat application (QF_OP_MHAT, dagger 0) ---- */
typedef struct qf_direct qf_direct;

/* Where the direct kernels run: the GPU of the first CUDA worker when there is one and the device is
 * usable (*gpu = 1, its *device), otherwise the CPU workers' cores. Fails when there is neither. */
int qf_direct_path(int *gpu, int *device);
/* The plan of Mhat for the operator of parameters p and form on lat's blocks and gauge (its data
 * rebuilt as qf_dirac_create builds it, in p->prec: the links converted, the clover field and its
 * inverse built), with `in` (a field of precision p->prec) exported as the input. */
int qf_direct_create(qf_direct **dk, const qf_lattice *lat, const qf_dirac_params *p, qf_schur_form form,
                     const qf_field *gauge, const qf_field *in, int gpu, int device);
void qf_direct_destroy(qf_direct *dk);
/* Hop k of the plan as qf_dirac_schur_hops gives it (NULL past the last), and the bytes one
 * application moves by QUDA's rule (qf_direct_hop_bytes over the hops' output sites). */
const qf_dirac_hop *qf_direct_hop(const qf_direct *dk, int k);
double qf_direct_bytes(const qf_direct *dk);
/* QUDA's count of the bytes one hop moves per output site: the dslash reads 8 x (L gauge + 24
 * spinor) reals, L the reals a link keeps under recon (18: 1344 bytes in single precision; 12: 1152;
 * 8: 1024), plus the clover field (72) where the fused finishing step reads it, x (24) where it is
 * read, and the output written (24); each record counted by the bytes it takes in prec (half: 16-bit
 * reals and the norm, padded to 8 bytes, qf_record_bytes; a link a quarter of its site's record).
 * Faces, the partial sums that the interior stores for face sites and the exterior reads back, and
 * write-allocate traffic are not counted. */
double qf_direct_hop_bytes(const qf_dirac_hop *h, qf_recon recon, qf_precision prec);
/* The bytes of one link under recon in prec, as qf_direct_hop_bytes counts them. */
double qf_direct_link_bytes(qf_recon recon, qf_precision prec);
/* The same count for one Mhat of parameters p and form on global_volume sites, without a plan (what
 * a run of several processes reports: their direct kernels are not run). */
double qf_direct_mhat_bytes(const qf_dirac_params *p, qf_schur_form form, int64_t global_volume);

/* One direct application compared with ref, the task graph's Mhat of the same input (a global
 * lexicographic array): fails with a message when the relative difference *diff exceeds
 * qf_direct_check_tolerance of the plan's precision. */
int qf_direct_check(qf_direct *dk, const double *ref, double *diff);
static inline double qf_direct_check_tolerance(qf_precision p)
{
    return p == QF_HALF ? 1e-3 : p == QF_SINGLE ? 1e-5 : 1e-12;
}
/* warmup untimed, then n timed chained applications (input and output swapped after each; n <= 0: as
 * many as last about target_s seconds) with the runtime paused: by qf_timing_run's rounds on CPUs,
 * in one round on the GPU (its own, not shared). On the GPU wait_each launches each application only
 * once the host has seen the last one end (polling an event): the most a runtime keeps that starts a
 * dependent task when it sees its predecessor end, as StarPU does; CPU threads end each application
 * before the next anyway (wait_each is moot there). The chained applications grow the field by the
 * operator's norm each time, so long runs reach inf and NaN, which run at full speed. */
int qf_direct_time(qf_direct *dk, int warmup, int wait_each, long n, double target_s, qf_timing *t);

/* ---- the memory-bandwidth ceiling of a path (qf_direct_path), with the runtime paused ----
 * CPUs: a STREAM triad a[i] = b[i] + s c[i] on nthreads threads bound to the CPU workers' cores, on
 * arrays far larger than the caches (*bytes: one array's), best of 10, bytes counted as STREAM does
 * (3 x 8 an element). GPU: a device-to-device cudaMemcpy of *bytes, best of 10, counting the bytes
 * read and written. */
int qf_direct_ceiling(int gpu, int device, int nthreads, double *gbps, size_t *bytes);

/* ---- the task probe's kernel without the runtime (quarkflow bench tasks) ----
 * n calls of the kernel that qf_runtime_probe_tasks (qf_runtime.h) runs as tasks, waiting wait_us
 * each, with the runtime paused: kind QF_WORKER_CUDA on the GPU of the first CUDA worker, either
 * queued back to back on one stream and waited for once, or one at a time, the host polling each
 * call's end before it launches the next (wait_each: what any runtime pays that starts a task when it
 * sees the one before it end); QF_WORKER_CPU on the calling thread, one call after the other
 * (wait_each is moot there). *seconds: all n calls. */
int qf_direct_probe(qf_worker_kind kind, int wait_each, long n, double wait_us, double *seconds);

/* ---- one block's CPU kernels, one call at a time, without the runtime ----
 * The gather, interior and exterior of one hop of Mhat on a one-block lattice (global = block: every
 * face hop crosses the boundary and the block is its own neighbour), called on the caller's buffers
 * in the fields' layout (qf_lattice.h). The version that runs is the one the codelets run (AVX-512,
 * AVX2 or baseline: qf_cpu_kernels(); call qf_cpu_kernels_select first when the runtime is not
 * started). */
#define QF_DIRECT_NFACES (2 * QF_NDIM) /* the faces of a block, (mu, side) order: mu = 0..3, side 0 then 1 */
typedef enum { QF_DIRECT_GATHER = 0, QF_DIRECT_INTERIOR, QF_DIRECT_EXTERIOR, QF_DIRECT_NKERNELS } qf_direct_kernel;
/* A block's buffers for one hop: the gather reads in (and gauge) and writes face; the interior reads
 * in, gauge, x and clover and writes out; the exterior reads face (the block's own), gauge, x and
 * clover and finishes out. */
typedef struct {
    void *in, *out, *gauge, *x, *clover;
    void *face[QF_DIRECT_NFACES];
} qf_direct_block_fields;
/* The sizes of those buffers in bytes. */
typedef struct {
    size_t spinor, gauge, clover, face[QF_DIRECT_NFACES];
} qf_direct_block_bytes;
typedef struct qf_direct_block qf_direct_block;
/* Hop number `hop` of Mhat for parameters p (p->prec: the buffers' precision) and form, on a block of
 * extents block (each even). */
int qf_direct_block_create(qf_direct_block **kb, const int block[QF_NDIM], const qf_dirac_params *p, qf_schur_form form,
                           int hop);
void qf_direct_block_destroy(qf_direct_block *kb);
const qf_dirac_hop *qf_direct_block_hop(const qf_direct_block *kb);
void qf_direct_block_sizes(const qf_direct_block *kb, qf_direct_block_bytes *bytes);
/* The spinor of storage index site (the even sites first) of a block's spinor buffer, as doubles:
 * the records of any precision decoded. */
void qf_direct_block_spinor(const qf_direct_block *kb, const void *spinor, int64_t site, double v[24]);
void qf_direct_block_call(const qf_direct_block *kb, qf_direct_kernel k, const qf_direct_block_fields *f);

#ifdef __cplusplus
}
#endif
#endif
