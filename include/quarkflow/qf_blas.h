/* BLAS-1 on lattice fields as task graphs, with scalars that stay in the runtime. A qf_scalar is a
 * complex double held in a StarPU variable handle: reductions write it (STARPU_REDUX, accumulated
 * in double whatever the field precision), small scalar tasks combine scalars (alpha = rr / pAp),
 * and field updates read their coefficients from scalars, so a solver iteration is submitted without
 * the host waiting for any value; qf_scalar_get is the only call that waits.
 *
 * Every field operation takes a parity: 0 or 1 for the even or odd sites of full-lattice fields
 * (what the even-odd operators of qf_dirac.h read and write), -1 for all sites. Fields must be of
 * one kind, precision and lattice (qf_lattice_same); a field may appear as several operands.
 * Every call submits tasks (one per block, plus one per scalar operation) and returns; inside a chain
 * (qf_chain_begin, at the end) the tasks of a one-block lattice wait for the chain's end to be
 * submitted as one. */
#ifndef QF_BLAS_H
#define QF_BLAS_H

#include "qf_field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qf_scalar qf_scalar;

int qf_scalar_create(qf_scalar **s);          /* starts at 0 */
void qf_scalar_destroy(qf_scalar *s);         /* after its tasks, without waiting */
int qf_scalar_set(qf_scalar *s, double re, double im);
/* Waits for the tasks that write s and returns its value. */
int qf_scalar_get(const qf_scalar *s, double *re, double *im);

/* Scalar arithmetic as tasks: out = a * b, out = a / b (NaN when b is 0, which the solvers detect
 * as a breakdown), out = s * a for a real constant s. Exact zeros absorb: 0 * b, a * 0 and 0 / b are
 * 0 whatever a and b (also 0, Inf, NaN), the coefficients of a residual that has vanished. out may
 * be a or b. */
int qf_scalar_mul(qf_scalar *out, const qf_scalar *a, const qf_scalar *b);
int qf_scalar_div(qf_scalar *out, const qf_scalar *a, const qf_scalar *b);
int qf_scalar_scale(qf_scalar *out, double s, const qf_scalar *a);
/* Back substitution as one task: x_i = c_i - sum_{l > i} u[i * ld + l] x_l for i = m-1 .. 0 (the
 * unit upper-triangular system of GCR's restart), x overwriting c[0 .. m-1]; u[i * ld + l] is read
 * for i < l < m only. With div (not NULL), row i is divided by div[i] first: x_i = c_i / div[i] -
 * sum_{l > i} (u[i * ld + l] / div[i]) x_l, each division as qf_scalar_div. m is at most 128. When an x_i comes out NaN or Inf every c_i is set to 0 and
 * status to i + 1 (the first such i, counting down), otherwise status is 0, so that a caller reads
 * one scalar to know. */
int qf_scalar_trisolve(int m, qf_scalar *const *c, qf_scalar *const *u, int ld, qf_scalar *const *div,
                       qf_scalar *status);

/* Reductions: r = |x|^2 (imaginary part 0), r = <x, y> = sum conj(x) y, and both <x, y> and |x|^2
 * in one pass over the fields (two distinct scalars). */
int qf_blas_norm2(qf_scalar *r, const qf_field *x, int parity);
int qf_blas_dot(qf_scalar *r, const qf_field *x, const qf_field *y, int parity);
int qf_blas_dot_norm2(qf_scalar *dot, qf_scalar *norm, const qf_field *x, const qf_field *y, int parity);

/* Several fields x[0 .. n-1] against one field y, one task a block and pass over y for every
 * QF_BLAS_MULTI_FIELDS of them (where a dot and an update a field would make two passes each):
 * r[k] = <x[k], y> (n distinct scalars); y = y + s
 * sum_k (a[k] / d[k]) x[k], the ratios worked out in the tasks as qf_blas_caxpy_ratio's (d NULL: the
 * coefficients a[k]), summed in double and rounded once; y may be among the x[k] of a multi_dot, not
 * of a multi_caxpy. A block of classical Gram-Schmidt is one of each (GCR's orthogonalisation,
 * solvers/gcr.c). n = 0 submits nothing. */
#define QF_BLAS_MULTI_FIELDS 8
int qf_blas_multi_dot(qf_scalar *const r[], const qf_field *const x[], int n, const qf_field *y, int parity);
int qf_blas_multi_caxpy(const qf_scalar *const a[], const qf_scalar *const d[], double s, const qf_field *const x[],
                        int n, qf_field *y, int parity);
/* Multi-shift CG's updates of n shifts in one pass over r (qf_multishift_cg): for each k, x[k] = x[k] +
 * a[k] p[k], then p[k] = z[k] r + b[k] p[k], real coefficients, double or single precision; every x[k]
 * and p[k] a field of its own (QF_BLAS_MULTI_FIELDS shifts a task). Two axpbys a shift read r n times
 * and each p[k] twice, in 2 n tasks. */
int qf_blas_shift_update(int n, qf_field *const x[], qf_field *const p[], const double a[], const double z[],
                         const double b[], const qf_field *r, int parity);

/* Updates with real constants: y = x; y = a x + b y. With a = 0, x is not read (it may be NULL), so
 * qf_blas_axpby(0, NULL, 0, y, p) sets y to zero, also a scratch field that was never written. */
int qf_blas_copy(qf_field *y, const qf_field *x, int parity);
int qf_blas_axpby(double a, const qf_field *x, double b, qf_field *y, int parity);
/* y = a x + b y + c w in one pass (with b = 0, y is written, not read): the K-cycle's and the
 * smoothers' residual images, r - t + y and r - e, without a copy or a second update. */
int qf_blas_axpbypcw(double a, const qf_field *x, double b, qf_field *y, double c, const qf_field *w, int parity);

/* Updates with scalar coefficients (s = +1 or -1 flips the sign without another scalar task):
 * y = y + s a x (caxpy); y = x + s a y (cxpay); y = x + s a w (xpcw: y written, not read, which saves
 * the copy a caxpy into a fresh field needs). */
int qf_blas_caxpy(const qf_scalar *a, double s, const qf_field *x, qf_field *y, int parity);
int qf_blas_cxpay(const qf_field *x, const qf_scalar *a, double s, qf_field *y, int parity);
int qf_blas_xpcw(qf_field *y, const qf_field *x, const qf_scalar *a, double s, const qf_field *w, int parity);
/* y = x + s (a / d) y, the ratio worked out in the task as qf_scalar_div would (exact zeros absorb):
 * CG's p = r + (|r_new|^2 / |r|^2) p without a scalar task of its own. */
int qf_blas_cxpay_ratio(const qf_field *x, const qf_scalar *a, const qf_scalar *d, double s, qf_field *y, int parity);
/* y = y + s (a / d) x: caxpy with its coefficient the ratio of two scalars, worked out in the task. */
int qf_blas_caxpy_ratio(const qf_scalar *a, const qf_scalar *d, double s, const qf_field *x, qf_field *y, int parity);
/* y = x + s (a / d) w: xpcw likewise (BiCGStab's s = r - (rho / <r0, v>) v). */
int qf_blas_xpcw_ratio(qf_field *y, const qf_field *x, const qf_scalar *a, const qf_scalar *d, double s, const qf_field *w,
                       int parity);

/* Element-wise products of the fields' complex numbers: y = w x and y = conj(w) x (a diagonal
 * operator and its adjoint, phases, masks). */
int qf_blas_mul(qf_field *y, const qf_field *w, const qf_field *x, int parity);
int qf_blas_conj_mul(qf_field *y, const qf_field *w, const qf_field *x, int parity);

/* Every real of f a standard normal number, drawn by counter-based generators keyed by seed, stream
 * (0 .. 2^20 - 1) and the global site: the same field for every block grid and worker. */
int qf_field_gaussian(qf_field *f, uint64_t seed, int stream);

/* A point source: every real of f zero but real `real` (0 .. site reals - 1) of the global site
 * `site`, which is 1: f zeroed as qf_blas_axpby(0, NULL, 0, f, -1) does, then one task on the block
 * holding the site, both run where the field is next read (a GPU for a GPU solve) instead of imported
 * from the host. Single or double precision. */
int qf_field_point(qf_field *f, const int site[4], int real);

/* Fused forms of the Krylov solvers, one pass over the fields each:
 * CG:       x = x + a p, r = r - a q, rr = |r|^2 (the new residual norm in the same pass);
 * BiCGStab: x = x + a p + w s, r = s - w t, rr = |r|^2; and the new direction p = r + beta (p - omega
 *           v) with beta = (rho_new / rho) (alpha / omega) worked out in the task, with exact zeros
 *           absorbing as in qf_scalar_mul and qf_scalar_div. */
int qf_blas_cg_update(qf_field *x, qf_field *r, const qf_scalar *a, const qf_field *p, const qf_field *q,
                      qf_scalar *rr, int parity);
/* The same with the coefficient a / d worked out in the task (CG's alpha = |r|^2 / <p, A p>). */
int qf_blas_cg_update_ratio(qf_field *x, qf_field *r, const qf_scalar *a, const qf_scalar *d, const qf_field *p,
                            const qf_field *q, qf_scalar *rr, int parity);
int qf_blas_bicgstab_update(qf_field *x, qf_field *r, const qf_scalar *a, const qf_field *p, const qf_scalar *w,
                            const qf_field *s, const qf_field *t, qf_scalar *rr, int parity);
int qf_blas_bicgstab_p(qf_field *p, const qf_field *r, const qf_field *v, const qf_scalar *rho_new,
                       const qf_scalar *rho, const qf_scalar *alpha, const qf_scalar *omega, int parity);
/* The same two with the coefficients ratios worked out in the tasks, a / ad and w / wd, alpha / alpha_d
 * and omega / omega_d (BiCGStab's alpha = rho / <r0, v> and omega = <t, s> / |t|^2), so that an
 * iteration needs no scalar task: the same values to the last bit as the scalar divisions'. */
int qf_blas_bicgstab_update_ratio(qf_field *x, qf_field *r, const qf_scalar *a, const qf_scalar *ad, const qf_field *p,
                                  const qf_scalar *w, const qf_scalar *wd, const qf_field *s, const qf_field *t,
                                  qf_scalar *rr, int parity);
int qf_blas_bicgstab_p_ratio(qf_field *p, const qf_field *r, const qf_field *v, const qf_scalar *rho_new,
                             const qf_scalar *rho, const qf_scalar *alpha, const qf_scalar *alpha_d,
                             const qf_scalar *omega, const qf_scalar *omega_d, int parity);

/* Chains: the calls of this file, precision conversions and the operator applications (Wilson, asqtad
 * and coarse operators, through a solver's qf_linop) made between qf_chain_begin and qf_chain_end on a
 * lattice of one block in one process run as one task, each one's kernels in turn (on a GPU, queued on
 * one stream without the runtime's latency between them: 15-17 us a dependent task on an H200), and a
 * reduction of the chain may feed a later call of it (BiCGStab's <r0, v> and then s = r - (rho / <r0,
 * v>) v). Elsewhere, and for whatever cannot join (an operator of several blocks), they are tasks of
 * their own as always, with the same results. Anything else submitted, a scalar read, a field freed or
 * a placement scope entered or left inside a chain first submits what the chain holds, so a chain
 * groups and never reorders. Chains nest: the outermost end submits. */
int qf_chain_begin(void);
int qf_chain_end(void);

#ifdef __cplusplus
}
#endif
#endif
