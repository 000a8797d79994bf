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

/* ---- Gauge observables: Polyakov loop (tasks/polyakov.c) and clover field strength
 * (tasks/field_strength.c); site kernels in kernels/polyakov.h and kernels/clover_leaf.h. ---- */

/* Polyakov loop. A block's line buffer is a vector handle of E_x E_y E_z matrices (18 doubles each,
 * block-local lexicographic order of the spatial sites).
 * polyakov_line — ordered product of each spatial site's time links over the block's t extent.
 *   Args: qf_polyakov_args. Buffers: R gauge block, W line buffer.
 * polyakov_chain — acc(x) = acc(x) next(x), appending the next block along t. No args.
 *   Buffers: RW line buffer (the column's running product), R the next block's line buffer.
 * polyakov_trace — adds the sums over spatial sites of Re and Im of (1/3) Tr line(x). No args.
 *   Buffers: R line buffer, REDUX accumulator of 2 doubles (re, im). */
typedef struct {
    int ext[QF_NDIM];
    qf_precision prec; /* of the gauge field */
} qf_polyakov_args;
extern struct starpu_codelet qf_cl_polyakov_line;
extern struct starpu_codelet qf_cl_polyakov_chain;
extern struct starpu_codelet qf_cl_polyakov_trace;

/* Clover field strength. P and R are per-block vector handles of sites holding 6 matrices (planes 01
 * 02 03 12 13 23, 108 doubles a site); transport faces hold 3 matrices (54 doubles) a face site.
 * plaquette_matrix — P(x) for the six planes. Args: qf_plaquette_args (ext, gauge precision).
 *   Buffers: R gauge block, R the side-0 gauge faces of the forward neighbours in x, y, z, t, W P.
 * leaf_transport — sender of a transport pass: U_rho(y)^dagger M(y) U_rho(y) on the block's side-1
 *   faces, for the planes p with dir[p] == rho. Args: qf_leaf_args.
 *   Buffers: R gauge block, R M, W this block's side-1 transport faces in directions face_dir[0..2].
 * leaf_sum — receiver: out = M + S_dir(M), or with finish set F = (Q - Q^dagger) / 8 of that sum in
 *   out_prec. Args: qf_leaf_args. Buffers: R gauge block, R M, R the side-1 transport faces of the
 *   -rho neighbours for rho = face_dir[0..2], W out (R in double, or the field-strength block). */
#define QF_LEAF_FACE_DIRS 3
typedef struct {
    int ext[QF_NDIM];
    int dir[6];                        /* the transport S_rho of plane p crosses rho = dir[p] */
    int face_dir[QF_LEAF_FACE_DIRS];   /* the distinct directions in dir[], increasing: face buffer order */
    int finish;                        /* 0: out = M + S(M) in double; 1: out = (Q - Q^dagger) / 8 */
    qf_precision prec;                 /* of the gauge field */
    qf_precision out_prec;             /* of out when finish is set */
} qf_leaf_args;
extern struct starpu_codelet qf_cl_plaquette_matrix;
extern struct starpu_codelet qf_cl_leaf_transport;
extern struct starpu_codelet qf_cl_leaf_sum;

/* ---- Wilson hopping term (tasks/dirac.c); argument blocks, buffers and launchers in
 * wilson_launch.h, site kernels in kernels/wilson.h. All three take STARPU_VARIABLE_NBUFFERS. ---- */
extern struct starpu_codelet qf_cl_wilson_gather;
extern struct starpu_codelet qf_cl_wilson_interior;
extern struct starpu_codelet qf_cl_wilson_exterior;

/* ---- Clover term (tasks/clover.c); site kernels and the storage layout of clover fields in
 * kernels/clover.h. ----
 * clover_build — A = 1 + i kappa c_sw sum_{mu<nu} sigma_munu F_munu and A^-1 on every site of a block,
 *   from the field strength (f_prec) into two clover fields (prec), adding the number of sites where
 *   a chiral block is not positive definite (A^-1 not built) into the accumulator.
 *   Args: qf_clover_build_args. Buffers: R field-strength block, W A block, W A^-1 block,
 *   REDUX accumulator of 1 double.
 * clover_apply — out = a x + b C y on the sites of one parity (0, 1) or on all sites (-1), C a clover
 *   field (A or A^-1); x is not read when a == 0; out may be x or y.
 *   Args: qf_clover_apply_args. Buffers: R C block, R x block, R y block, RW out block (with one
 *   parity, the other half keeps its values). */
typedef struct {
    int ext[QF_NDIM];
    double kappa_csw;       /* kappa * c_sw */
    qf_precision f_prec;    /* of the field strength */
    qf_precision prec;      /* of A and A^-1 */
} qf_clover_build_args;
extern struct starpu_codelet qf_cl_clover_build;

typedef struct {
    int ext[QF_NDIM];
    int parity;             /* 0, 1, or -1 for all sites */
    double a, b;
    qf_precision prec;      /* of C, x, y and out */
} qf_clover_apply_args;
extern struct starpu_codelet qf_cl_clover_apply;

/* ---- BLAS-1 on fields and scalar arithmetic (tasks/blas.c, tasks/scalar.c); argument blocks, operand
 * tables and site kernels in kernels/blas.h, buffer access in blas_launch.h. All take
 * STARPU_VARIABLE_NBUFFERS: each distinct field block or scalar of the operation is one buffer, and
 * the argument block's buf[] says which buffer holds each operand (aliased operands share one).
 * Scalars are variable handles of 2 doubles (re, im); the reductions' results are STARPU_REDUX.
 * blas_update — copy, axpby, caxpy, cxpay on one block (args qf_blas_args, op qf_blas_update_op).
 *   Operands: y (W for copy and axpby with b == 0 on all sites, RW otherwise), x (R), c (R scalar).
 * blas_reduce — norm2 or dot of one block (op qf_blas_reduce_op). Operands: x, y (R), r (REDUX).
 * blas_cg_update — x = x + a p, r = r - a q, rr += |r|^2. Operands: x, r (RW), a (R), p, q (R),
 *   rr (REDUX).
 * blas_bicgstab_update — x = x + a p + w s, r = s - w t, rr += |r|^2. Operands: x (RW), r (W on all
 *   sites, RW otherwise), a (R), p (R), w (R), s, t (R), rr (REDUX).
 * scalar_op — out = value, a b, a / b or s a (args qf_scalar_op_args). Operands: out (W, or RW when
 *   it is an input), a, b (R).
 * scalar_trisolve — back substitution (args qf_scalar_trisolve_args). Buffers: c_0 .. c_{m-1} (RW),
 *   the strict upper triangle row by row (R), status (W); every scalar distinct. */
extern struct starpu_codelet qf_cl_blas_update;
extern struct starpu_codelet qf_cl_blas_reduce;
extern struct starpu_codelet qf_cl_blas_cg_update;
extern struct starpu_codelet qf_cl_blas_bicgstab_update;
extern struct starpu_codelet qf_cl_scalar_op;
extern struct starpu_codelet qf_cl_scalar_trisolve;

/* ---- Multigrid (tasks/mg_transfer.c, tasks/coarse_op.c); argument blocks and site kernels in
 * kernels/mg.h, buffers there with each argument block. All but mg_orthonormalize take
 * STARPU_VARIABLE_NBUFFERS. mg_pack takes qf_mg_orth_args. ---- */
extern struct starpu_codelet qf_cl_mg_pack;
extern struct starpu_codelet qf_cl_mg_orthonormalize;
extern struct starpu_codelet qf_cl_mg_restrict;
extern struct starpu_codelet qf_cl_mg_prolong;
extern struct starpu_codelet qf_cl_mg_build;
extern struct starpu_codelet qf_cl_mg_assemble;
extern struct starpu_codelet qf_cl_mg_coarse_gather;
extern struct starpu_codelet qf_cl_mg_coarse_interior;
extern struct starpu_codelet qf_cl_mg_coarse_exterior;
/* The coarsest level's solve in one task (args and buffers: kernels/coarse_gcr.h). */
extern struct starpu_codelet qf_cl_mg_coarse_solve;

/* Gaussian random fields (tasks/field_random.c; args qf_field_gaussian_args in kernels/random.h).
 * Buffers: W block. */
extern struct starpu_codelet qf_cl_field_gaussian;

/* ---- Every codelet above is in one table (registry.c), which registry.c hands to the runtime when
 * the library loads (runtime/codelet_table.h): the per-worker statistics, the watchdog and the trace
 * colours read it there. A new codelet joins the table. ---- */

#ifdef __cplusplus
}
#endif
#endif
