/* The codelets of quarkflow and the helpers that insert their tasks. Each codelet lives in its own file
 * pair (NAME.c for the CPU implementation, the codelet, its performance model and its insert helper;
 * NAME.cu for the CUDA implementation), and both call the site kernels in codelets/kernels/, where
 * the argument blocks are too. */
#ifndef QF_CODELETS_H
#define QF_CODELETS_H

#include "quarkflow/qf_config.h"
#include "quarkflow/qf_gauge.h"
#include "quarkflow/qf_lattice.h"
#include "field_handles.h"
#include "mpi_data.h"

#include <starpu.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Task-insert helpers ----
 * One a codelet, defined beside it in NAME.c: the graph builders of tasks/ call these with a task's
 * fields, block numbers, handles and the operation's plain parameters, and never see an argument block
 * or a site kernel (the argument blocks live with the kernels, codelets/kernels/). Each inserts one
 * task through QF_TASK_INSERT (runtime/mpi_data.h: placement scopes, StarPU-MPI) and returns
 * QF_SUCCESS, or QF_ERROR with a message naming the codelet. A `struct starpu_data_descr` operand is a
 * handle with its access mode, for the operands whose mode the builder decides (reductions: W or
 * STARPU_REDUX, qf_block_sum_operand; fields written on all sites or on one parity: W or RW). */

/* A codelet bound to its argument block, for a builder that inserts it on every block without knowing
 * its arguments (tasks/stencil.c): args is a heap block the binder allocated (free it with
 * qf_codelet_stages_free); the builder writes each block's global origin at origin_offset (-1: none)
 * of the copy each task carries. */
typedef struct {
    struct starpu_codelet *cl;
    void *args;
    size_t args_size;
    int origin_offset;
    const char *name; /* the task name in traces */
} qf_codelet_stage;
void qf_codelet_stages_free(qf_codelet_stage *st, int n);
/* For the binders: st = cl with a heap copy of args (size bytes). */
int qf_codelet_stage_bind(qf_codelet_stage *st, struct starpu_codelet *cl, const void *args, size_t size,
                          int origin_offset, const char *name);

/* face_copy: the (mu, side) face of block b of f, whole sites to f's face depth, into f's face buffer.
 * Buffers: R block, W face. */
extern struct starpu_codelet qf_cl_face_copy;
int qf_insert_face_copy(const qf_field *f, int b, int mu, int side);

/* plaquette: the sums of Re Tr of the spatial plaquettes, the temporal ones and the links of block b
 * of the gauge field u (reading the side-0 faces of its forward neighbours), added into the
 * QF_GAUGE_SUMS doubles of sum. */
#define QF_GAUGE_SUMS 3
extern struct starpu_codelet qf_cl_plaquette;
int qf_insert_plaquette(const qf_field *u, int b, struct starpu_data_descr sum);

/* sum_zero and sum_add: zero and add for arrays of doubles in variable handles, StarPU's init and
 * reduction methods of the STARPU_REDUX accumulators (qf_set_sum_reduction). */
extern struct starpu_codelet qf_cl_sum_zero;
extern struct starpu_codelet qf_cl_sum_add;
void qf_set_sum_reduction(starpu_data_handle_t h);
int qf_insert_sum_zero(starpu_data_handle_t h);
int qf_insert_sum_add(starpu_data_handle_t target, starpu_data_handle_t term);

/* task_probe: a kernel that only waits wait_ns and counts into count (RW; NaN unless it held expect
 * before, expect < 0: any), reading the handles of read (R; at most QF_TASK_PROBE_MAX_BUFFERS - 1): a
 * task that costs the runtime what a real one does and computes nothing (task_probe.c, tasks/probe.c). */
#define QF_TASK_PROBE_MAX_BUFFERS 16
extern struct starpu_codelet qf_cl_task_probe;
int qf_insert_task_probe(starpu_data_handle_t count, const starpu_data_handle_t *read, int nread, int64_t wait_ns,
                         double expect);

/* field_zero: a field block zero-filled, the init method of scratch blocks (field_zero.c). */
extern struct starpu_codelet qf_cl_field_zero;

/* gauge_start: cold, weak (noise eps) or hot links on block b of u, keyed by seed and the global site. */
extern struct starpu_codelet qf_cl_gauge_start;
int qf_insert_gauge_start(qf_field *u, int b, qf_gauge_start_kind kind, uint64_t seed, double eps);

/* Quenched updates of the links U_mu of one parity (heatbath, or overrelaxation when overrelax is set),
 * keyed by seed, sweep and the global site.
 * staple_face: block b's lower staples for its -nu neighbours (nu != mu) into its side-1 faces of lower,
 *   reading the +mu neighbour's side-0 gauge face.
 * gauge_update: block b's links, reading the +nu neighbours' side-0 gauge faces and the -nu
 *   neighbours' lower-staple faces. */
typedef struct {
    double beta;
    uint64_t seed;
    int sweep, overrelax, mu, parity;
} qf_update_stage;
extern struct starpu_codelet qf_cl_staple_face;
extern struct starpu_codelet qf_cl_gauge_update;
/* The reals of a lower-staple face site (one matrix, in double). */
int qf_staple_face_reals(void);
int qf_insert_staple_face(const qf_field *u, int b, const qf_face_set *lower, const qf_update_stage *st);
int qf_insert_gauge_update(qf_field *u, int b, const qf_face_set *lower, const qf_update_stage *st);

/* convert: block b of src into block b of dst in dst's precision, the sites of one parity (0 even, 1
 * odd) or all of them (-1) (shapes checked by the caller). */
extern struct starpu_codelet qf_cl_convert;
int qf_insert_convert(qf_field *dst, const qf_field *src, int b, int parity);
/* gauge_compress: block b of the whole links src into the compressed links dst (kernels/convert.h). */
extern struct starpu_codelet qf_cl_gauge_compress;
int qf_insert_gauge_compress(qf_field *dst, const qf_field *src, int b);

/* The Polyakov loop. A line buffer is a vector handle of qf_polyakov_line_site_bytes() per spatial site
 * (block-local lexicographic order).
 * polyakov_line: the ordered product of each spatial site's time links over block b of u, into line.
 * polyakov_chain: acc(x) = acc(x) next(x), appending the next block along t.
 * polyakov_trace: adds the sums over spatial sites of Re and Im of (1/3) Tr line(x) into sum (2 doubles). */
extern struct starpu_codelet qf_cl_polyakov_line;
extern struct starpu_codelet qf_cl_polyakov_chain;
extern struct starpu_codelet qf_cl_polyakov_trace;
size_t qf_polyakov_line_site_bytes(void);
int qf_insert_polyakov_line(const qf_field *u, int b, starpu_data_handle_t line);
int qf_insert_polyakov_chain(starpu_data_handle_t acc, starpu_data_handle_t next);
int qf_insert_polyakov_trace(starpu_data_handle_t line, struct starpu_data_descr sum);

/* The clover field strength in two transport passes (tasks/field_strength.c). Per-block matrix
 * handles hold qf_leaf_site_reals() doubles a site (6 planes), transport faces qf_leaf_face_reals()
 * doubles a face site; pass 1 transports along nu of each plane mu < nu, pass 2 along mu and finishes.
 * plaquette_matrix: the plaquettes P(x) of the six planes on block b of u into p (reading the forward
 *   neighbours' side-0 gauge faces).
 * leaf_transport: the sender of a pass, U_rho^dagger M U_rho on block b's side-1 faces of t.
 * leaf_sum: the receiver, out = M + S(M) in double, or after pass 2 F = (Q - Q^dagger) / 8 into
 *   block b of fmunu (out NULL then), reading the -rho neighbours' side-1 faces of t. */
extern struct starpu_codelet qf_cl_plaquette_matrix;
extern struct starpu_codelet qf_cl_leaf_transport;
extern struct starpu_codelet qf_cl_leaf_sum;
int qf_leaf_site_reals(void);
int qf_leaf_face_reals(void);
int qf_insert_plaquette_matrix(const qf_field *u, int b, starpu_data_handle_t p);
int qf_insert_leaf_transport(const qf_field *u, int b, int pass, starpu_data_handle_t m, const qf_face_set *t);
int qf_insert_leaf_sum(const qf_field *u, int b, int pass, starpu_data_handle_t m, const qf_face_set *t,
                       starpu_data_handle_t out, qf_field *fmunu);

/* The clover term (tasks/clover.c).
 * clover_build: A = 1 + i kappa c_sw sum_{mu<nu} sigma_munu F_munu and A^-1 on block b, from the field
 *   strength into a and ainv, adding into failed (1 double) the sites where a chiral block is not
 *   positive definite (A^-1 not built there).
 * clover_apply: out = a x + b C y on the sites of parity (0, 1; -1: all) of block b, C a clover field
 *   (A or A^-1); x is not read when a == 0 (pass y); out may be x or y; the other parity keeps its
 *   values. */
extern struct starpu_codelet qf_cl_clover_build;
extern struct starpu_codelet qf_cl_clover_apply;
int qf_insert_clover_build(const qf_field *fmunu, qf_field *a, qf_field *ainv, int b, double kappa_csw,
                           struct starpu_data_descr failed);
int qf_insert_clover_apply(qf_field *out, double a, const qf_field *x, double b, const qf_field *clover,
                           const qf_field *y, int parity, int blk);

/* ---- Wilson hopping term (tasks/dirac.c): the gather, interior and exterior stages of the stencil
 * graph (tasks/stencil.h), argument blocks and launchers in wilson_launch.h, site kernels in
 * kernels/wilson.h. All three take STARPU_VARIABLE_NBUFFERS. ---- */
extern struct starpu_codelet qf_cl_wilson_gather;
extern struct starpu_codelet qf_cl_wilson_interior;
extern struct starpu_codelet qf_cl_wilson_exterior;
/* One hop out = a x + b D in (D^dagger with dagger; the clover field where clover_on says,
 * qf_clover_on) on the sites of parity (-1: all): st[0..2] the gather, interior and exterior stages
 * for blocks of lat, with boundary phases phase and task names names[0..2]. */
typedef struct {
    int parity, dagger;
    double a, b;
    int has_x, clover_on;
    qf_precision prec;
    qf_recon recon;
    double phase[QF_NDIM][2];
} qf_wilson_hop;
extern struct starpu_codelet qf_cl_wilson_block; /* its arguments: wilson_launch.h */
extern struct starpu_codelet qf_cl_wilson_pair;  /* both hops of Mhat on a block; arguments: wilson_launch.h */
extern struct starpu_codelet qf_cl_wilson_direct; /* a hop reading the neighbour blocks (CPU); wilson_direct.c */
/* The stages of one hop, in the order of tasks/stencil.h: gather, interior, exterior, the three of a
 * block fused (wilson_block), and the hop reading its neighbour blocks (wilson_direct), each with its
 * task name. */
int qf_wilson_stages(const qf_lattice *lat, const qf_wilson_hop *h, const char *const names[5], qf_codelet_stage st[5]);

/* ---- BLAS-1 on fields and scalar arithmetic (tasks/blas.c, tasks/scalar.c); argument blocks, operand
 * tables and site kernels in kernels/blas.h, buffer access in blas_launch.h. Each task's operands are
 * handles with modes (an unused operand: handle NULL); the helper makes each distinct handle one
 * buffer with the union of its operands' modes (R and W give RW) and the argument block tells the
 * kernels which buffer holds each operand. Fields' operands are the blocks of one lattice block; the
 * elements are the complex numbers [first, first + n) of each, in prec. Scalars are variable handles
 * of 2 doubles (re, im); a result scalar is REDUX (or W when the task assigns: assign set). ---- */
typedef struct {
    int64_t first, n;
    qf_precision prec;
    int site_reals;         /* of the fields: half precision is visited a site at a time */
    int assign;
    const char *name;       /* the task name in traces */
    const qf_lattice *lat;  /* the lattice of the fields' block `block`, whose home GPU runs the task */
    int block;              /* (runtime/mpi_data.h, QF_TASK_INSERT_BLOCK); lat NULL: tasks on scalars */
} qf_blas_range;
extern struct starpu_codelet qf_cl_blas_update;
extern struct starpu_codelet qf_cl_blas_reduce;
extern struct starpu_codelet qf_cl_blas_multi;
extern struct starpu_codelet qf_cl_blas_shift;
extern struct starpu_codelet qf_cl_blas_cg_update;
extern struct starpu_codelet qf_cl_blas_bicgstab_update;
extern struct starpu_codelet qf_cl_blas_bicgstab_p;
extern struct starpu_codelet qf_cl_chain;
/* Inserts a task of codelet cl on block `block` of lat (QF_TASK_INSERT_BLOCK) with buffers d[0 .. n-1]
 * (distinct handles), a copy of the argument block args (`bytes` bytes) and the name name, or adds it
 * to the inserting thread's open chain where it can join (chain.c; footprint: what distinguishes its
 * work in the chain's performance model); a task that cannot join submits the chain so far first. The
 * codelet's functions must use only their buffers, their argument block and the worker's stream, on
 * which its CUDA function only queues (STARPU_CUDA_ASYNC). */
int qf_chain_insert(struct starpu_codelet *cl, const qf_lattice *lat, int block, const struct starpu_data_descr *d,
                    int n, const char *name, const void *args, size_t bytes, uint32_t footprint);
/* Open and close (nested: the outermost close submits) the inserting thread's chain. */
int qf_chain_open(void);
int qf_chain_close(void);
extern struct starpu_codelet qf_cl_scalar_op;
extern struct starpu_codelet qf_cl_scalar_trisolve;
/* data_publish (data_publish.c): a small variable handle copied to a page-locked host slot and stamped,
 * so that qf_data_read_doubles waits on the stamp instead of acquiring the handle. */
extern struct starpu_codelet qf_cl_data_publish;
/* The slot, made once CUDA workers run and freed before they stop (the runtime's codelet hooks). */
void qf_data_publish_start(void);
void qf_data_publish_stop(void);
/* values[0 .. n-1] = the handle's doubles through the slot, after the tasks held back and those before:
 * 1 when read so, 0 when the slot does not serve (no CUDA worker, MPI, n > QF_PUBLISH_MAX), -1 on a
 * failed insertion. */
int qf_data_publish_read(starpu_data_handle_t h, double *values, int n);
/* blas_update: y = x; y = a x + b y; y = s c x + y; y = x + s c y; y = w x; y = conj(w) x; y = x + s c w
 * (c a scalar, or c / d with the scalar d given). */
typedef struct {
    struct starpu_data_descr y, x, c, w, d;
} qf_blas_update_operands;
int qf_insert_blas_copy(const qf_blas_range *r, const qf_blas_update_operands *o);
int qf_insert_blas_axpby(const qf_blas_range *r, const qf_blas_update_operands *o, double a, double b);
int qf_insert_blas_caxpy(const qf_blas_range *r, const qf_blas_update_operands *o, double s);
int qf_insert_blas_cxpay(const qf_blas_range *r, const qf_blas_update_operands *o, double s);
int qf_insert_blas_mul(const qf_blas_range *r, const qf_blas_update_operands *o);
int qf_insert_blas_conj_mul(const qf_blas_range *r, const qf_blas_update_operands *o);
int qf_insert_blas_xpcw(const qf_blas_range *r, const qf_blas_update_operands *o, double s);
int qf_insert_blas_axpbypcw(const qf_blas_range *r, const qf_blas_update_operands *o, double a, double b, double c);
/* blas_reduce: r = |x|^2; r = <x, y>; r = <x, y> and r2 = |x|^2. */
typedef struct {
    struct starpu_data_descr x, y, r, r2;
} qf_blas_reduce_operands;
int qf_insert_blas_norm2(const qf_blas_range *r, const qf_blas_reduce_operands *o);
int qf_insert_blas_dot(const qf_blas_range *r, const qf_blas_reduce_operands *o);
int qf_insert_blas_dot_norm2(const qf_blas_range *r, const qf_blas_reduce_operands *o);
/* blas_multi over nvec fields (1 to QF_BLAS_MULTI_MAX): r_k = <x_k, y>; y = y + s sum_k c_k x_k, c_k = a_k
 * or a_k / d_k. ops: the operand table in kernels/blas.h's QF_MULTI_* order (QF_BLAS_MAX_OPERANDS
 * entries, the results r_k in the a_k's places). */
int qf_insert_blas_multi_dot(const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops);
int qf_insert_blas_multi_caxpy(const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops, double s);
/* blas_shift over nvec shifts (1 to QF_BLAS_MULTI_MAX): x_k = x_k + a_k p_k, p_k = z_k r + b_k p_k. ops: the
 * operand table in kernels/blas.h's QF_SHIFT_* order (1 + 2 QF_BLAS_MULTI_MAX entries). */
int qf_insert_blas_shift(const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops, const double *a,
                         const double *z, const double *b);
/* blas_cg_update: x = x + c p, r = r - c q, rr += |r|^2, c = a or a / d (d given). */
typedef struct {
    struct starpu_data_descr x, r, a, p, q, rr, d;
} qf_blas_cg_operands;
int qf_insert_blas_cg_update(const qf_blas_range *r, const qf_blas_cg_operands *o);
/* blas_bicgstab_update: x = x + a p + w s, r = s - w t, rr += |r|^2; a / ad and w / wd where the
 * divisors are given (handles NULL where not). */
typedef struct {
    struct starpu_data_descr x, r, a, p, w, s, t, rr, ad, wd;
} qf_blas_bicgstab_operands;
int qf_insert_blas_bicgstab_update(const qf_blas_range *r, const qf_blas_bicgstab_operands *o);
/* blas_bicgstab_p: p = r + beta (p - omega v), beta = (rho_new / rho) (alpha / omega); alpha / alpha_d
 * and omega / omega_d where the divisors are given (handles NULL where not). */
typedef struct {
    struct starpu_data_descr p, r, v, rho_new, rho, alpha, omega, alpha_d, omega_d;
} qf_blas_bicgstab_p_operands;
int qf_insert_blas_bicgstab_p(const qf_blas_range *r, const qf_blas_bicgstab_p_operands *o);
/* scalar_op: out = (re, im); out = a b; out = a / b; out = s a (handles NULL where unused; out is W,
 * or RW when it is an input too). */
int qf_insert_scalar_set(starpu_data_handle_t out, double re, double im);
int qf_insert_scalar_mul(starpu_data_handle_t out, starpu_data_handle_t a, starpu_data_handle_t b);
int qf_insert_scalar_div(starpu_data_handle_t out, starpu_data_handle_t a, starpu_data_handle_t b);
int qf_insert_scalar_scale(starpu_data_handle_t out, double s, starpu_data_handle_t a);
/* scalar_trisolve: the back substitution of GCR's restarts on m unknowns (at most
 * qf_scalar_trisolve_max_order()); d: c_0 .. c_{m-1} (RW), the strict upper triangle row by row (R),
 * the status (W), every scalar distinct. */
int qf_scalar_trisolve_max_order(void);
int qf_insert_scalar_trisolve(int m, int has_d, const struct starpu_data_descr *d);

/* ---- Multigrid (tasks/mg_transfer.c, tasks/coarse_op.c); argument blocks and site kernels in
 * kernels/mg.h and kernels/coarse_gcr.h. A transfer's codelets read its vectors v (a QF_FIELD_TRANSFER
 * field on the fine lattice, in the transfer's precision) with its aggregates' extents agg and its
 * number of vectors nvec; its coarse fields hold 2 nvec complex numbers a site. A coarse operator of
 * nvec colours keeps its links and X^-1 (qf_field_shape_coarse_links). ---- */
extern struct starpu_codelet qf_cl_mg_pack;
extern struct starpu_codelet qf_cl_mg_orthonormalize;
extern struct starpu_codelet qf_cl_mg_restrict;
extern struct starpu_codelet qf_cl_mg_prolong;
extern struct starpu_codelet qf_cl_mg_build;
extern struct starpu_codelet qf_cl_mg_assemble;
extern struct starpu_codelet qf_cl_mg_coarse_gather;
extern struct starpu_codelet qf_cl_mg_coarse_interior;
extern struct starpu_codelet qf_cl_mg_coarse_exterior;
extern struct starpu_codelet qf_cl_mg_coarse_solve;
extern struct starpu_codelet qf_cl_mg_schur_invert;

/* Most fine blocks a coarse block may hold: restrict and assemble take a buffer for each. */
#define QF_MG_MAX_FINE_BLOCKS 64
/* Matrices a site of a coarse operator's links: the 8 hops, then the local term X. */
int qf_coarse_link_matrices(void);

/* mg_pack: the vectors vec[k] (k < nvec, fine fields) on fine block b into v. R vec[k], W v.
 * mg_orthonormalize: Gram-Schmidt of v's vectors on every aggregate and chirality of fine block b
 *   (RW), adding into vanished (1 double) the aggregates where a vector lay in the others' span. */
int qf_insert_mg_pack(qf_field *v, int b, const int agg[QF_NDIM], int nvec, qf_field *const *vec);
int qf_insert_mg_orthonormalize(qf_field *v, int b, const int agg[QF_NDIM], int nvec,
                                struct starpu_data_descr vanished);
/* mg_restrict: coarse block c of coarse = R fine, reading the fine blocks that c holds and their
 *   blocks of v, all their sites or the even ones alone (even_only); W coarse(c). Task name "restrict".
 * mg_prolong: fine block b of fine = P coarse (W), or its even sites alone (even_only: RW), reading b's
 *   coarse block and v(b). Task name "prolong". */
int qf_insert_mg_restrict(qf_field *coarse, int c, const qf_field *fine, const qf_field *v, const int agg[QF_NDIM],
                          int nvec, int even_only);
int qf_insert_mg_prolong(qf_field *fine, int b, const qf_field *coarse, const qf_field *v, const int agg[QF_NDIM],
                         int nvec, int even_only);

/* The fine operator of a Galerkin build: Wilson-clover (wilson set: links the gauge field, clover its
 * term A or NULL, kappa, boundary phases) or a coarse operator (links its links). */
typedef struct {
    int wilson;
    const qf_field *links;
    const qf_field *clover;
    double kappa;
    double phase[QF_NDIM][2];
} qf_coarse_source;
/* mg_build: fine block b's contributions to R D P for its aggregates, in double, into partial
 *   (qf_mg_partial_doubles doubles, W). Reads v(b), links(b), [clover(b)], v's faces of b's
 *   neighbours (both sides) and, for Wilson, the -mu neighbours' side-1 faces of the gauge field.
 * mg_assemble: coarse block c's links and X^-1 (W) from the partials of the fine blocks c holds
 *   (partial[] indexed by fine block; fine the fine lattice), through scratch (2 (2 nvec)^2 complex
 *   doubles a coarse site), adding into singular (1 double) the sites where X is singular. */
size_t qf_mg_partial_doubles(const qf_lattice *fine, const int agg[QF_NDIM], int nvec);
int qf_insert_mg_build(const qf_field *v, int b, const int agg[QF_NDIM], int nvec, const qf_coarse_source *src,
                       starpu_data_handle_t partial);
int qf_insert_mg_assemble(qf_field *links, qf_field *xinv, int c, const qf_lattice *fine, const int agg[QF_NDIM],
                          int nvec, const starpu_data_handle_t *partial, starpu_data_handle_t scratch,
                          struct starpu_data_descr singular);

/* One hop of a coarse operator of nvec colours in prec (its links and X^-1 in link_prec: prec, or half
 * with single fields), out = a x + b H in with its local term where
 * local_on says (QF_CLOVER_*, X or X^-1 with local_inverse) on the sites of parity (-1: all), the dagger
 * g5 (.) g5 with dagger: st[0..3] the mg_coarse_gather, _interior and _exterior stages for blocks of
 * lat and the fused one of a one-block lattice (mg_coarse_interior, its hops wrapping; tasks/stencil.h),
 * task names names[0..3]. */
typedef struct {
    int parity, dagger;
    double a, b;
    int has_x, local_on, local_inverse;
    int nvec;
    qf_precision prec, link_prec;
} qf_coarse_hop;
int qf_coarse_stages(const qf_lattice *lat, const qf_coarse_hop *h, const char *const names[4], qf_codelet_stage st[4]);

/* mg_coarse_solve: the solve of x = A^-1 b on coarse level 0 of nlevels (lattices of one block), the
 * last the coarsest, in one task (kernels/coarse_gcr.h): on the coarsest by GCR(nkrylov) on its Schur
 * system, above it by flexible GCR preconditioned by the K-cycle through the levels below
 * (restriction by v[i], the transfer's vectors on level i with aggregates agg[i], the next level's
 * solve, prolongation, smoother_steps MR steps on the Schur system), each to tol in at most max_iter
 * iterations. links[i], xinv[i]: level i's operator, of nvec[i] colours; work a scratch vector of
 * qf_coarse_solve_work_doubles doubles; each level's GCR iterations and seconds are added into
 * stats[i] (2 doubles, RW). Task name "c_solve:<precision>" (one level), "c_cycle:<precision>". */
typedef struct {
    double tol;
    int max_iter, nkrylov, smoother_steps;
    qf_precision prec; /* of the levels' fields; each level's links and X^-1 in theirs (half allowed) */
    starpu_data_handle_t dense; /* or NULL: the coarsest level's Schur inverse (mg_schur_invert), applied
                                 * in place of its GCR */
} qf_coarse_solve_params;
size_t qf_coarse_solve_work_doubles(int nlevels, const qf_field *const *links, const int *nvec,
                                    const qf_coarse_solve_params *p);
/* mg_schur_invert: the inverse of the even-odd Schur complement of the coarse operator of links and
 * X^-1 (nvec colours, a lattice of one block whose hops wrap) into inverse (W: n^2 complex numbers in
 * prec, row-major, n = half the sites x 2 nvec), and |Ahat Ahat^-1 v - v| / |v| for a test vector into
 * check (W, 1 double; infinite where Ahat is singular). Task name "schur_inv". */
int qf_insert_mg_schur_invert(const qf_field *links, const qf_field *xinv, int nvec, starpu_data_handle_t inverse,
                              qf_precision prec, starpu_data_handle_t check);
int qf_insert_mg_coarse_solve(int nlevels, const qf_field *const *links, const qf_field *const *xinv, const int *nvec,
                              const qf_field *const *v, const int (*agg)[QF_NDIM], const qf_field *b, qf_field *x,
                              starpu_data_handle_t work, const starpu_data_handle_t *stats,
                              const qf_coarse_solve_params *p);

/* ---- The Schwarz alternating procedure on the Wilson-clover operator (tasks/schwarz.c,
 * solvers/sap.c); argument blocks and site kernels in kernels/sap.h. Domains of extents dom tile every
 * block; a domain's fields are kept in the domain layout. ----
 * domain_layout: block b of src (R) into dst (W) in the domain layout (links, the clover term).
 * wilson_sap: on block b's domains of one colour, mr_steps even-odd MR steps for M_d e = r (M_d = A -
 *   kappa D with Dirichlet boundaries, A the clover term or 1) from e = 0, and x += e there (R r, RW x;
 *   W the three work fields). Task name "sap". */
extern struct starpu_codelet qf_cl_domain_layout;
extern struct starpu_codelet qf_cl_wilson_sap;
typedef struct {
    int dom[QF_NDIM];
    int mr_steps;
    double kappa;
    qf_field *links, *clover, *clover_inv; /* in the domain layout; the clover term and its inverse NULL
                                            * for plain Wilson */
    qf_field *work[3];        /* Wilson fields of the operator's precision */
} qf_wilson_sap_spec;
int qf_insert_domain_layout(qf_field *dst, int b, const qf_field *src, const int dom[QF_NDIM]);
int qf_insert_wilson_sap(const qf_wilson_sap_spec *sp, int b, int colour, qf_field *x, const qf_field *r);

/* field_gaussian: standard normal reals on block b of f, keyed by seed, stream and the global site. */
extern struct starpu_codelet qf_cl_field_gaussian;
int qf_insert_field_gaussian(qf_field *f, int b, uint64_t seed, int stream);

/* field_point: real `real` of block-local site `site` (storage index) of block b of f set to 1 (RW;
 * kernels/meson.h). */
extern struct starpu_codelet qf_cl_field_point;
int qf_insert_field_point(qf_field *f, int b, int64_t site, int real);

/* slice_sums: time-slice sums over block b's sites (times counted from t_source) of a quantity `what`
 * (qf_slice_quantity, kernels/meson.h) of the fields f (R each): the pion and rho correlators' terms of
 * the 12 columns of a point-source Wilson propagator (2 T doubles), or |f[0]|^2 (T doubles), added
 * into sum. */
extern struct starpu_codelet qf_cl_slice_sums;
int qf_insert_slice_sums(const qf_field *const *f, int what, int b, int t_source, struct starpu_data_descr sum);

/* ---- Improved staggered (asqtad) quarks (tasks/asqtad_links.c, tasks/asqtad.c); argument blocks and
 * site kernels in kernels/staggered.h. The link smearing works on double-precision fields: gauge the
 * input links, v the phased links (a gauge field with faces 2 deep), links the asqtad links (a
 * QF_FIELD_ASQTAD_LINKS field: fat links, then Naik links), w and keep link-matrix fields. ----
 * asqtad_phases: block b's phased links v (staggered phases, boundary phase on the links that leave the
 *   lattice) and the fat links' start one_link v, the Naik links zero (R gauge, W v, W links).
 * asqtad_staple_gather: the nu faces of one staple step S_nu[W] for links in mu (W: w, or v's mu-th
 *   with w NULL): W of block b's first layer into faces (b, nu, 0), U_nu^dag W U_nu(+mu) of its last
 *   into (b, nu, 1) (R v and the mu-forward neighbour's v face, W the faces).
 * asqtad_staple: S_nu[W] on block b, F_mu += coef S, and S into keep unless NULL (R v, its mu face, the
 *   nu neighbours' faces, RW links, W keep).
 * asqtad_long: the Naik links naik U_mu(x) U_mu(x+mu) U_mu(x+2mu) of block b (R v and its forward faces,
 *   RW links). */
extern struct starpu_codelet qf_cl_asqtad_phases;
extern struct starpu_codelet qf_cl_asqtad_staple_gather;
extern struct starpu_codelet qf_cl_asqtad_staple;
extern struct starpu_codelet qf_cl_asqtad_long;
int qf_insert_asqtad_phases(const qf_field *gauge, qf_field *v, qf_field *links, int b, const double phase[QF_NDIM][2],
                            double one_link);
int qf_insert_asqtad_staple_gather(const qf_field *v, const qf_field *w, const qf_face_set *faces, int b, int mu, int nu);
int qf_insert_asqtad_staple(const qf_field *v, const qf_field *w, const qf_face_set *faces, qf_field *links,
                            qf_field *keep, int b, int mu, int nu, double coef);
int qf_insert_asqtad_long(const qf_field *v, qf_field *links, double naik, int b);
/* The extended-volume smearing (seed 002): e a block's extended links (its phased links with a halo
 * QF_ASQTAD_HALO deep, corners included: kernels/staggered.h), slabs the layers a round sends.
 * asqtad_ext_fill: block b's own sites of e from v (R v, W e).
 * asqtad_ext_slabs: round mu, block b's first and last layers into slab0 and slab1 (R e, W slabs), or
 *   with unpack the forward neighbour's slab0 and the backward one's slab1 into b's halo (RW e, R slabs).
 * asqtad_ext_smear: every staple step and the Naik links of block b from e into links (RW), s1 and s2
 *   scratch handles of one matrix an extended site. */
extern struct starpu_codelet qf_cl_asqtad_ext_fill;
extern struct starpu_codelet qf_cl_asqtad_ext_slabs;
extern struct starpu_codelet qf_cl_asqtad_ext_smear;
int qf_insert_asqtad_ext_fill(const qf_field *v, starpu_data_handle_t e, int b);
int qf_insert_asqtad_ext_slabs(const qf_lattice *lat, starpu_data_handle_t e, starpu_data_handle_t slab0,
                               starpu_data_handle_t slab1, int b, int mu, int unpack);
int qf_insert_asqtad_ext_smear(qf_field *links, starpu_data_handle_t e, starpu_data_handle_t s1, starpu_data_handle_t s2,
                               int b, double staple3, double staple5, double staple7, double lepage, double naik);

/* The asqtad operator's stencil (tasks/stencil.h): asqtad_gather writes the 1-deep fat faces and the
 * 3-deep Naik faces (face sets 0 and 1; side 1 already multiplied by the link^dag), asqtad_interior and
 * asqtad_exterior the hops, and asqtad_interior all of a hop on a block that is the whole lattice (the
 * fused stage: hops wrap inside it); out = a x + b D in on the sites of parity (-1: all); st[0..3] in the
 * stencil's order with task names names[0..3]. ---- */
extern struct starpu_codelet qf_cl_asqtad_gather;
extern struct starpu_codelet qf_cl_asqtad_interior;
extern struct starpu_codelet qf_cl_asqtad_exterior;
/* asqtad_layout: block b of links (a QF_FIELD_ASQTAD_LINKS field, or with from_operator another
 * operator's copy) into out in the operator's own layout and out's precision, which the three stages
 * above read (R links, W out). */
extern struct starpu_codelet qf_cl_asqtad_layout;
int qf_insert_asqtad_layout(const qf_field *links, int from_operator, qf_field *out, int b);
typedef struct {
    int parity;
    double a, b;
    int has_x;
    qf_precision prec;
} qf_asqtad_hop;
int qf_asqtad_stages(const qf_lattice *lat, const qf_asqtad_hop *h, const char *const names[4], qf_codelet_stage st[4]);

/* ---- Every codelet above is in one table (registry.c), which registry.c hands to the runtime when
 * the library loads (runtime/codelet_table.h): the per-worker statistics, the watchdog and the trace
 * colours read it there. A new codelet joins the table. ---- */

#ifdef __cplusplus
}
#endif
#endif
