/* Launchers of the Wilson hopping kernels (kernels/wilson.h) on raw pointers: the codelets
 * wilson_gather, wilson_interior and wilson_exterior call them on their buffers, and the direct module
 * (direct/, include/quarkflow/qf_direct.h) calls them to run the same kernels without the runtime. The CUDA launchers run on the
 * given stream and return without waiting. */
#ifndef QF_WILSON_LAUNCH_H
#define QF_WILSON_LAUNCH_H

#include "codelets.h"
#include "kernels/wilson.h"

#ifdef __cplusplus
extern "C" {
#endif

void qf_wilson_gather_run(const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                          void *const face[QF_WILSON_NFACES]);
void qf_wilson_interior_run(const qf_wilson_args *a, void *out, const void *in, const void *gauge, const void *x,
                            const void *clover);
void qf_wilson_exterior_run(const qf_wilson_args *a, void *out, const void *gauge, const void *x, const void *clover,
                            const void *const nbr_face[QF_WILSON_NFACES]);
/* The CPU interior of a block that wraps in every direction, the remote ones (qf_wilson_args.remote)
 * reading the neighbour blocks' fields nbrs: every hop of every output site, finished (wilson_direct),
 * with a's arguments made so by qf_wilson_direct_args. */
qf_wilson_args qf_wilson_direct_args(const qf_wilson_args *a);
void qf_wilson_hops_run(const qf_wilson_args *a, void *out, const void *in, const void *gauge, const void *x,
                        const void *clover, const qf_wilson_nbrs *nbrs);
/* The CPU clover_apply on the sites of a->ext and a->parity (codelets/clover_apply.c): also what the
 * Schwarz domain solves (wilson_sap) apply A_oo^-1 with. */
void qf_clover_apply_run_cpu(const qf_clover_apply_args *a, void *out, const void *x, const void *y, const void *clover);
/* The CPU interior and exterior on the output sites of the time slices t_lo <= x[3] < t_hi only (t_hi 0:
 * all; a->parity 0 or 1): what wilson_pair runs a few slices at a time. */
void qf_wilson_interior_run_slices(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *in,
                                   const void *gauge, const void *x, const void *clover);
void qf_wilson_exterior_run_slices(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *gauge,
                                   const void *x, const void *clover, const void *const nbr_face[QF_WILSON_NFACES]);

#if QF_HAVE_CUDA
#include <cuda_runtime.h>
/* Runs the statement with R a constant of the links' reconstruction, so that each CUDA kernel is
 * compiled for one (as for one precision, QF_WITH_PRECISION). */
#define QF_WITH_RECON(recon, R, ...)                                                                           \
    do {                                                                                                       \
        if ((recon) == QF_RECON_12) {                                                                          \
            const qf_recon R = QF_RECON_12;                                                                    \
            __VA_ARGS__;                                                                                       \
        } else if ((recon) == QF_RECON_8) {                                                                    \
            const qf_recon R = QF_RECON_8;                                                                     \
            __VA_ARGS__;                                                                                       \
        } else {                                                                                               \
            const qf_recon R = QF_RECON_18;                                                                    \
            __VA_ARGS__;                                                                                       \
        }                                                                                                      \
    } while (0)
void qf_wilson_gather_run_cuda(const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                               void *const face[QF_WILSON_NFACES], cudaStream_t stream);
void qf_wilson_interior_run_cuda(const qf_wilson_args *a, void *out, const void *in, const void *gauge, const void *x,
                                 const void *clover, cudaStream_t stream);
void qf_wilson_exterior_run_cuda(const qf_wilson_args *a, void *out, const void *gauge, const void *x,
                                 const void *clover, const void *const nbr_face[QF_WILSON_NFACES], cudaStream_t stream);
#endif

/* An even-odd application on a one-block lattice as one pass over the odd sites (codelets/wilson_eo_pass.c,
 * kernels/eo_pass.h): whether the hops first (odd output, from in) and second (even output, x = in, from
 * the first's output) are one the pass runs (CPU, double or single, whole links), and the run, which
 * returns 0 without touching out where they are not. The first hop's output is not written. */
int qf_wilson_eo_pass_fits(const qf_wilson_args *first, const qf_wilson_args *second);
int qf_wilson_eo_pass_run(const qf_wilson_args *first, const qf_wilson_args *second, void *out, const void *in,
                          const void *gauge, const void *clover_odd, const void *clover_even);
/* The same on one block of a lattice of several (wilson_pair's CPU function), on one core: the hops
 * through the block's faces from in's faces (the first hop's gathers) and into t's faces (what the second
 * hop's gather writes), the even sites on the faces left with their partial hop sums for the second
 * hop's exterior, as the interior kernel leaves them. The same hops otherwise, but no remote ones. */
int qf_wilson_eo_pass_block_fits(const qf_wilson_args *first, const qf_wilson_args *second);
int qf_wilson_eo_pass_block_run(const qf_wilson_args *first, const qf_wilson_args *second, void *out, const void *in,
                                const void *gauge, const void *clover_odd, const void *clover_even,
                                const void *const in_face[QF_WILSON_NFACES], void *const t_face[QF_WILSON_NFACES]);

/* The kernels' arguments of hop h on lat's blocks (the origin left at zero: set per block). */
void qf_wilson_hop_args(const qf_lattice *lat, const qf_wilson_hop *h, qf_wilson_gather_args *g, qf_wilson_args *a);
/* Hop h of an operator of parameters p (qf_dirac_schur_hops), with D^dagger when dagger. */
qf_wilson_hop qf_wilson_hop_of(const qf_dirac_hop *h, const qf_dirac_params *p, int dagger);

/* The argument block of wilson_block (codelets/wilson_block.c): a program of hops on a one-block
 * lattice, each naming its fields by buffer index (-1: none). Buffers 0 and 2 are the first hop's
 * input and output, 1 the links; the others follow. */
enum { QF_WILSON_BLOCK_LINKS = 1, QF_WILSON_BLOCK_MAX_HOPS = QF_DIRAC_MAX_HOPS };
typedef struct {
    qf_wilson_args a;
    int src, dst, x, clover;
} qf_wilson_block_hop;
typedef struct {
    int nhops;
    qf_wilson_block_hop hop[QF_WILSON_BLOCK_MAX_HOPS];
} qf_wilson_block_args;

/* The argument block of wilson_pair (codelets/wilson_pair.c): the two hops of an even-odd operator on
 * one block of a lattice of several, t = hop[0] in on the odd sites, then out = hop[1] t on the even
 * ones, and the gather of t's faces for hop[1]'s neighbours. Buffers: R in, R links, RW out, RW t, R
 * the eight neighbour faces of in (as the exterior's), W the eight faces of t (as the gather's), then
 * the fields x[k] and clover[k] name by buffer index (-1: none). */
enum { QF_WILSON_PAIR_IN, QF_WILSON_PAIR_LINKS, QF_WILSON_PAIR_OUT, QF_WILSON_PAIR_TMP, QF_WILSON_PAIR_IN_FACES,
       QF_WILSON_PAIR_TMP_FACES = QF_WILSON_PAIR_IN_FACES + QF_WILSON_NFACES,
       QF_WILSON_PAIR_FIXED = QF_WILSON_PAIR_TMP_FACES + QF_WILSON_NFACES };
typedef struct {
    qf_wilson_args hop[2];
    qf_wilson_gather_args gather;
    int x[2], clover[2];
} qf_wilson_pair_args;

/* Buffer positions of the interior and exterior codelets (STARPU_VARIABLE_NBUFFERS): the fixed
 * buffers first, then x when has_x, then the clover field when clover_on != QF_CLOVER_NONE. */
enum { QF_WILSON_INTERIOR_FIXED = 3, QF_WILSON_EXTERIOR_FIXED = 2 + QF_WILSON_NFACES };

#ifdef __cplusplus
}
#endif
#endif
