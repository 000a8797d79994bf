/* The codelets of quarkflow and the argument blocks their tasks carry. Each codelet lives in its own
 * file pair (NAME.c for the CPU implementation, the codelet and its performance model; NAME.cu for
 * the CUDA implementation), and both call the site kernels in codelets/kernels/. */
#ifndef QF_CODELETS_H
#define QF_CODELETS_H

#include "quarkflow/qf_config.h"
#include "quarkflow/qf_lattice.h"

#include <starpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the (mu, side, depth) face of a block, whole sites, into a face buffer.
 * Buffers: R block, W face. */
typedef struct {
    int ext[QF_NDIM];
    int mu, side, depth;
    int site_reals;
    qf_precision prec;
} qf_face_copy_args;
extern struct starpu_codelet qf_cl_face_copy;

/* Plaquette and link-trace sums of one block of a gauge field.
 * Buffers: R gauge block, R the side-0 faces of the forward neighbours in x, y, z, t,
 * REDUX accumulator of QF_GAUGE_SUMS doubles (spatial plaquettes, temporal plaquettes, link traces;
 * each a sum of Re Tr). */
typedef struct {
    int ext[QF_NDIM];
    qf_precision prec;
} qf_plaquette_args;
#define QF_GAUGE_SUMS 3
extern struct starpu_codelet qf_cl_plaquette;

/* Zero and add for STARPU_REDUX accumulators that are arrays of doubles (a variable handle). */
extern struct starpu_codelet qf_cl_sum_zero;
extern struct starpu_codelet qf_cl_sum_add;

/* Start fields: cold, weak or hot links for one block (args: qf_gauge_start_args in
 * kernels/gauge_start.h). Buffers: W gauge block. */
extern struct starpu_codelet qf_cl_gauge_start;

/* Quenched updates (args: qf_update_args in kernels/heatbath.h).
 * staple_face — buffers: R gauge block, R the +mu neighbour's side-0 face, W this block's side-1
 * lower-staple faces for nu != mu (increasing nu).
 * gauge_update — buffers: RW gauge block, R the +nu neighbours' side-0 faces (nu = 0..3), R the -nu
 * neighbours' lower-staple faces for nu != mu (increasing nu). */
extern struct starpu_codelet qf_cl_staple_face;
extern struct starpu_codelet qf_cl_gauge_update;

/* Precision conversion of one block. Buffers: R source block, W destination block. */
typedef struct {
    int64_t nreals;
    qf_precision src_prec, dst_prec;
} qf_convert_args;
extern struct starpu_codelet qf_cl_convert;

#ifdef __cplusplus
}
#endif
#endif
