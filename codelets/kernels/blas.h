/* Kernels of the BLAS-1 codelets (blas_update, blas_reduce, blas_multi, blas_cg_update,
 * blas_bicgstab_update, blas_bicgstab_p) and
 * of scalar_op, shared by CPU and CUDA code, with their argument blocks.
 *
 * A field block is seen as a run of complex numbers: its sites' reals taken in (re, im) pairs,
 * whatever the kind (Wilson 24 reals a site, staggered 6, ...). A parity is a contiguous range of
 * that run (the in-block layout is parity-major, qf_lattice.h), so a task works on the elements
 * first .. first + n - 1. Values are loaded into double, combined in double and rounded once when
 * stored (half records: in float, kernels/blas_units.h); reductions add in double, over the values as
 * stored (rounded to the field's precision).
 *
 * Every element kernel loads all its operands before it stores anything, so that operands that are
 * the same field (passed to the task once, the operand table below pointing at one buffer) see the
 * old values, as if every right-hand side were evaluated before any assignment.
 *
 * Fields in half precision keep a norm a site (reals.h), so an element cannot be stored alone: the
 * codelets' loops run over units (kernels/blas_units.h), an element, or whole records in half, whose
 * operands are decoded together, combined by the same arithmetic (blas_kind.h) and encoded whole.
 *
 * A scalar (qf_scalar) is a variable of 2 doubles (re, im). */
#ifndef QF_KERNEL_BLAS_H
#define QF_KERNEL_BLAS_H

#include "qf_complex.h"
#include "reals.h"

#include <math.h>

/* Operands of the codelets: the task carries each distinct field or scalar once (STARPU_VARIABLE_NBUFFERS)
 * and args.buf[operand] is the buffer that holds it (-1 for an operand the operation does not use). */
#define QF_BLAS_MULTI_MAX 8 /* the fields x_k of one blas_multi task: qf_blas.h's QF_BLAS_MULTI_FIELDS */
#define QF_BLAS_MAX_OPERANDS (1 + 3 * QF_BLAS_MULTI_MAX)
enum { QF_UPD_Y = 0, QF_UPD_X, QF_UPD_W, QF_UPD_A, QF_UPD_D };              /* blas_update */
/* blas_multi: y, then x_k, then a_k (the coefficients' numerators, or the results r_k), then d_k */
enum { QF_MULTI_Y = 0, QF_MULTI_X = 1, QF_MULTI_A = 1 + QF_BLAS_MULTI_MAX, QF_MULTI_D = 1 + 2 * QF_BLAS_MULTI_MAX };
enum { QF_RED_X = 0, QF_RED_Y, QF_RED_R, QF_RED_R2 };                       /* blas_reduce */
enum { QF_CG_X = 0, QF_CG_R, QF_CG_A, QF_CG_P, QF_CG_Q, QF_CG_RR, QF_CG_D }; /* blas_cg_update */
enum { QF_BICG_X = 0, QF_BICG_R, QF_BICG_A, QF_BICG_P, QF_BICG_W, QF_BICG_S, QF_BICG_T, QF_BICG_RR, QF_BICG_AD, QF_BICG_WD };
enum { QF_BP_P = 0, QF_BP_R, QF_BP_V, QF_BP_RHO_NEW, QF_BP_RHO, QF_BP_ALPHA, QF_BP_OMEGA, QF_BP_ALPHA_D, QF_BP_OMEGA_D }; /* blas_bicgstab_p */
enum { QF_SOP_OUT = 0, QF_SOP_A, QF_SOP_B };                                /* scalar_op */
/* blas_shift: r, then x_k, then p_k */
enum { QF_SHIFT_R = 0, QF_SHIFT_X = 1, QF_SHIFT_P = 1 + QF_BLAS_MULTI_MAX };

/* blas_update: y = x; y = a x + b y (y not read when b == 0); y = y + s c x; y = x + s c y, c the
 * scalar operand; y = w x and y = conj(w) x element by element, w a field operand; y = x + s c w (y
 * not read). The scalar coefficient is c = s a, or s (a / d) when the scalar operand d is given (the
 * division of scalar_op, below). blas_reduce: r += |x|^2, r += <x, y> = sum conj(x) y, or both r += <x, y> and
 * r2 += |x|^2 in one pass. */
typedef enum {
    QF_BLAS_COPY = 0,
    QF_BLAS_AXPBY,
    QF_BLAS_CAXPY,
    QF_BLAS_CXPAY,
    QF_BLAS_MUL,
    QF_BLAS_CONJ_MUL,
    QF_BLAS_XPCW,
    QF_BLAS_AXPBYPCW
} qf_blas_update_op;
typedef enum { QF_BLAS_NORM2 = 0, QF_BLAS_DOT, QF_BLAS_DOT_NORM2 } qf_blas_reduce_op;
/* blas_multi, nvec fields x_k against one field y in one pass over y: r_k = <x_k, y> (multi_dot); y = y
 * + s sum_k c_k x_k with c_k = a_k or a_k / d_k (multi_caxpy, summed in double and rounded once). */
typedef enum { QF_BLAS_MULTI_DOT = 0, QF_BLAS_MULTI_CAXPY } qf_blas_multi_op;

typedef struct {
    int op;                          /* qf_blas_update_op, qf_blas_reduce_op or qf_blas_multi_op; unused by the
                                      * fused updates */
    int nvec;                        /* blas_multi: the fields x_0 .. x_{nvec-1} */
    qf_precision prec;               /* of every field operand */
    int64_t first, n;                /* complex elements of the block the task visits */
    double a, b;                     /* real coefficients of axpby */
    double s;                        /* real factor of the scalar coefficient(s): caxpy, cxpay */
    int buf[QF_BLAS_MAX_OPERANDS];   /* buffer index of each operand */
    int assign;                      /* the result scalar is the task's alone (W, a lattice of one block):
                                      * set it to the sum instead of adding into a STARPU_REDUX copy */
    int team;                        /* the CPU function shares the task's chunks among the CPU team
                                      * (codelets/blas_team.h) */
} qf_blas_args;

/* blas_shift, multi-shift CG's updates of nvec shifts in one pass over r (double or single fields):
 * x_k = x_k + a_k p_k, then p_k = z_k r + b_k p_k, with real coefficients. */
typedef struct {
    qf_blas_args base; /* nvec, prec, the elements and the operand table (QF_SHIFT_*) */
    double a[QF_BLAS_MULTI_MAX], z[QF_BLAS_MULTI_MAX], b[QF_BLAS_MULTI_MAX];
} qf_blas_shift_args;

/* scalar_op: out = (re, im); out = a b; out = a / b (NaN when b == 0); out = s a. Exact zeros absorb:
 * 0 b, a 0 and 0 / b are 0 whatever a and b. */
typedef enum { QF_SCALAR_SET = 0, QF_SCALAR_MUL, QF_SCALAR_DIV, QF_SCALAR_SCALE } qf_scalar_op_kind;

typedef struct {
    int op;          /* qf_scalar_op_kind */
    double re, im;   /* the value of QF_SCALAR_SET */
    double s;        /* the factor of QF_SCALAR_SCALE */
    int buf[3];      /* buffer index of out, a, b (-1: unused) */
} qf_scalar_op_args;

/* scalar_trisolve: the order m of the system, at most QF_TRISOLVE_MAX_M (GCR's largest Krylov space). */
#define QF_TRISOLVE_MAX_M 128
typedef struct {
    int m;
    int has_d; /* row divisors d_0 .. d_{m-1} are given */
} qf_scalar_trisolve_args;

/* ---- elements ---- */

static inline QF_HD qf_complex qf_blas_load(const void *base, qf_precision prec, int64_t i)
{
    return qf_cmake(qf_real_get(base, prec, (size_t)(2 * i)), qf_real_get(base, prec, (size_t)(2 * i + 1)));
}

static inline QF_HD void qf_blas_store(void *base, qf_precision prec, int64_t i, qf_complex v)
{
    qf_real_set(base, prec, (size_t)(2 * i), v.re);
    qf_real_set(base, prec, (size_t)(2 * i + 1), v.im);
}

/* v as the field's precision stores it */
static inline QF_HD qf_complex qf_blas_round(qf_precision prec, qf_complex v)
{
    return qf_cmake(qf_real_round(prec, v.re), qf_real_round(prec, v.im));
}

/* ---- units: what the codelets' loops visit (kernels/blas_units.h) ----
 * An element, or in half precision whole records (a record's norm covers its QF_BLAS_HALF_RECORD reals):
 * on GPUs half a record (QF_BLAS_HALF_PARTS threads a record), on CPUs QF_BLAS_HALF_BATCH consecutive
 * records, one a lane of the float batch kind. A task's range of a half field is whole units
 * (qf_blas_insert checks). */
#define QF_BLAS_HALF_RECORD 24
#if defined(__CUDA_ARCH__)
#define QF_BLAS_HALF_PARTS 2
#define QF_BLAS_HALF_BATCH 1
#elif defined(__CUDACC__) /* nvcc's host pass */
#define QF_BLAS_HALF_PARTS 1
#define QF_BLAS_HALF_BATCH 1
#else
#define QF_BLAS_HALF_PARTS 1
#define QF_BLAS_HALF_BATCH 8
#endif
#define QF_BLAS_PART_REALS (QF_BLAS_HALF_RECORD / QF_BLAS_HALF_PARTS)
#define QF_BLAS_RECORD_ELEMS (QF_BLAS_PART_REALS / 2)
static inline QF_HD int64_t qf_blas_unit_elems(qf_precision prec)
{
    return prec == QF_HALF ? QF_BLAS_RECORD_ELEMS * QF_BLAS_HALF_BATCH : 1;
}

/* Whether a coefficient is nonzero (blas_kind.h's axpby reads an operand only where its coefficient is):
 * one number, also in a kind whose reals are vectors of lanes (blas_units.h). */
static inline QF_HD int qf_blas_nonzero(double a) { return a != 0; }
static inline QF_HD int qf_blas_nonzero_sf(float a) { return a != 0; }

/* The arithmetic on values, in double (and in float for half records, blas_units.h). */
#define QF_K(name) name
#include "blas_kind.h"
#undef QF_K
#define QF_K(name) name##_sf
#include "blas_kind.h"
#undef QF_K

/* Which operands blas_update's op reads: x but in axpby with a = 0; y in caxpy and cxpay, and in axpby
 * and axpbypcw where b != 0; w in mul, conj_mul, xpcw and axpbypcw. */
static inline QF_HD int qf_blas_update_reads_x(int op, double a) { return op != QF_BLAS_AXPBY || a != 0.0; }
static inline QF_HD int qf_blas_update_reads_y(int op, double b)
{
    return op == QF_BLAS_CAXPY || op == QF_BLAS_CXPAY || ((op == QF_BLAS_AXPBY || op == QF_BLAS_AXPBYPCW) && b != 0.0);
}
static inline QF_HD int qf_blas_update_reads_w(int op)
{
    return op == QF_BLAS_MUL || op == QF_BLAS_CONJ_MUL || op == QF_BLAS_XPCW || op == QF_BLAS_AXPBYPCW;
}

/* ---- blas_update: element i of y; c = s * scalar (caxpy, cxpay), w the field factor (mul) ---- */
static inline QF_HD_INLINE void qf_blas_update_elem(int op, void *y, const void *x, const void *w, double a, double b,
                                                    qf_complex c, int64_t i, qf_precision prec)
{
    qf_complex zero = qf_cmake(0.0, 0.0);
    qf_complex yv = qf_blas_update_reads_y(op, b) ? qf_blas_load(y, prec, i) : zero;
    qf_complex xv = qf_blas_update_reads_x(op, a) ? qf_blas_load(x, prec, i) : zero;
    qf_complex wv = qf_blas_update_reads_w(op) ? qf_blas_load(w, prec, i) : zero;
    qf_blas_store(y, prec, i, qf_blas_update_value(op, yv, xv, wv, a, b, c));
}

/* ---- blas_reduce: the contribution of element i (im is 0 for the norm) ---- */
static inline QF_HD_INLINE qf_complex qf_blas_reduce_elem(int op, const void *x, const void *y, int64_t i,
                                                          qf_precision prec)
{
    qf_complex xv = qf_blas_load(x, prec, i);
    if (op == QF_BLAS_NORM2) return qf_cmake(qf_cnorm2(xv), 0.0);
    return qf_cconjmul(xv, qf_blas_load(y, prec, i));
}

/* ---- blas_shift: shift k's x and p at element i, given r there, each as blas_update's axpby works it
 * out ---- */
static inline QF_HD_INLINE void qf_blas_shift_elem(qf_complex rv, void *x, void *p, double a, double z, double b, int64_t i,
                                                   qf_precision prec)
{
    qf_complex zero = qf_cmake(0.0, 0.0), xv = qf_blas_load(x, prec, i), pv = qf_blas_load(p, prec, i);
    qf_blas_store(x, prec, i, qf_blas_update_value(QF_BLAS_AXPBY, xv, pv, zero, a, 1.0, zero));
    qf_blas_store(p, prec, i, qf_blas_update_value(QF_BLAS_AXPBY, pv, rv, zero, z, b, zero));
}

/* ---- blas_cg_update: x = x + c p, r = r - c q; returns |r|^2 of r as stored ---- */
static inline QF_HD_INLINE double qf_blas_cg_elem(void *x, void *r, qf_complex c, const void *p, const void *q,
                                                  int64_t i, qf_precision prec)
{
    qf_complex xv = qf_blas_load(x, prec, i), rv = qf_blas_load(r, prec, i);
    qf_blas_cg_value(&xv, &rv, c, qf_blas_load(p, prec, i), qf_blas_load(q, prec, i));
    rv = qf_blas_round(prec, rv);
    qf_blas_store(x, prec, i, xv);
    qf_blas_store(r, prec, i, rv);
    return qf_cnorm2(rv);
}

/* ---- blas_bicgstab_update: x = x + c p + w s, r = s - w t; returns |r|^2 of r as stored ---- */
static inline QF_HD_INLINE double qf_blas_bicgstab_elem(void *x, void *r, qf_complex c, const void *p, qf_complex w,
                                                        const void *s, const void *t, int64_t i, qf_precision prec)
{
    qf_complex xv = qf_blas_load(x, prec, i), rv;
    qf_blas_bicgstab_value(&xv, &rv, c, qf_blas_load(p, prec, i), w, qf_blas_load(s, prec, i), qf_blas_load(t, prec, i));
    rv = qf_blas_round(prec, rv);
    qf_blas_store(x, prec, i, xv);
    qf_blas_store(r, prec, i, rv);
    return qf_cnorm2(rv);
}

/* ---- the scalar arithmetic of scalar_op, also done inside fused updates ----
 * Exact zeros absorb: 0 b, a 0 and 0 / b are 0 for every a and b (0, Inf and NaN included). A Krylov
 * method that iterates past convergence until its residual underflows to 0 computes such coefficients,
 * and 0 keeps its solution where NaN would destroy it. Otherwise a / b = a conj(b) / |b|^2, NaN when
 * b == 0: a breakdown the solvers detect. */
static inline QF_HD int qf_scalar_is_zero(qf_complex a) { return a.re == 0.0 && a.im == 0.0; }
static inline QF_HD qf_complex qf_scalar_mul_value(qf_complex a, qf_complex b)
{
    return qf_scalar_is_zero(a) || qf_scalar_is_zero(b) ? qf_cmake(0.0, 0.0) : qf_cmul(a, b);
}
static inline QF_HD qf_complex qf_scalar_div_value(qf_complex a, qf_complex b)
{
    if (qf_scalar_is_zero(a)) return qf_cmake(0.0, 0.0);
    double d = qf_cnorm2(b);
    qf_complex num = qf_cmul(a, qf_cconj(b));
    return qf_cmake(num.re / d, num.im / d);
}
static inline QF_HD qf_complex qf_scalar_at(const double *s) { return qf_cmake(s[0], s[1]); }
/* The scalar a, or a / d where the divisor d is given (not NULL), divided as scalar_op divides. */
static inline QF_HD qf_complex qf_scalar_ratio(const double *a, const double *d)
{
    return d ? qf_scalar_div_value(qf_scalar_at(a), qf_scalar_at(d)) : qf_scalar_at(a);
}

/* blas_update's coefficient from its scalar operands a and d (NULL where not given). */
static inline QF_HD qf_complex qf_blas_update_coefficient(double s, const double *a, const double *d)
{
    if (!a) return qf_cmake(0.0, 0.0);
    return qf_cscale(s, qf_scalar_ratio(a, d));
}
/* blas_update's c: the scalar coefficient, or axpbypcw's real s */
static inline QF_HD qf_complex qf_blas_update_factor(const qf_blas_args *args, const double *a, const double *d)
{
    return args->op == QF_BLAS_AXPBYPCW ? qf_cmake(args->s, 0.0) : qf_blas_update_coefficient(args->s, a, d);
}

/* ---- scalar_op on (re, im) pairs; a and b may be out ---- */
static inline QF_HD void qf_scalar_op_apply(const qf_scalar_op_args *args, double *out, const double *a,
                                            const double *b)
{
    qf_complex r;
    if (args->op == QF_SCALAR_SET) r = qf_cmake(args->re, args->im);
    else if (args->op == QF_SCALAR_SCALE) r = qf_cscale(args->s, qf_scalar_at(a));
    else if (args->op == QF_SCALAR_MUL) r = qf_scalar_mul_value(qf_scalar_at(a), qf_scalar_at(b));
    else r = qf_scalar_div_value(qf_scalar_at(a), qf_scalar_at(b));
    out[0] = r.re;
    out[1] = r.im;
}

/* ---- data_publish: a handle's n doubles into the page-locked slot, then the stamp that tells the host
 * they are there (after a release on the CPU, a system-wide fence on the GPU) ---- */
#define QF_PUBLISH_MAX 8
typedef struct {
    double values[QF_PUBLISH_MAX];
    uint64_t seq; /* written after the values */
} qf_publish_slot;
typedef struct {
    qf_publish_slot *slot;
    uint64_t seq;
    int n;
} qf_publish_args;
static inline QF_HD void qf_publish_store(const qf_publish_args *a, const double *v)
{
    for (int i = 0; i < a->n; i++) a->slot->values[i] = v[i];
#ifdef __CUDA_ARCH__
    __threadfence_system();
    *(volatile uint64_t *)&a->slot->seq = a->seq;
#else
    __atomic_store_n(&a->slot->seq, a->seq, __ATOMIC_RELEASE);
#endif
}

/* ---- blas_bicgstab_p: BiCGStab's new direction p = r + beta (p - omega v), beta = (rho_new / rho)
 * (alpha / omega) worked out in the task from the scalars as scalar_op would (qf_bicgstab_beta; alpha
 * and omega themselves ratios where their divisors are given), the two updates of p in one pass and
 * without rounding p in between ---- */
static inline QF_HD qf_complex qf_bicgstab_beta(const double *rho_new, const double *rho, qf_complex alpha,
                                                qf_complex omega)
{
    return qf_scalar_mul_value(qf_scalar_div_value(alpha, omega),
                               qf_scalar_div_value(qf_scalar_at(rho_new), qf_scalar_at(rho)));
}

static inline QF_HD_INLINE void qf_blas_bicgstab_p_elem(void *p, const void *r, const void *v, qf_complex beta,
                                                        qf_complex omega, int64_t i, qf_precision prec)
{
    qf_blas_store(p, prec, i,
                  qf_blas_bicgstab_p_value(qf_blas_load(p, prec, i), qf_blas_load(r, prec, i), qf_blas_load(v, prec, i),
                                           beta, omega));
}

/* ---- scalar_trisolve: back substitution x_i = c_i - sum_{l > i} u_il x_l, i = m-1 .. 0, x in place of
 * c; the strict upper triangle u row by row (qf_trisolve_packed), the diagonal 1; with divisors d (not
 * NULL), x_i = c_i / d_i - sum_{l > i} (u_il / d_i) x_l, the divisions those of scalar_op. When an x_i comes
 * out NaN or Inf (a vanished direction upstream), every x_i is set to 0, so that what x feeds stays
 * untouched, and status to (i + 1, 0) for the first such i (counting down); status (0, 0) otherwise. ---- */
static inline QF_HD int qf_trisolve_packed(int m, int i, int l) { return i * m - i * (i + 1) / 2 + (l - i - 1); }

static inline QF_HD void qf_scalar_trisolve_apply(int m, double *const *c, const double *const *u,
                                                const double *const *d, double *status)
{
    int bad = 0;
    for (int i = m - 1; i >= 0 && !bad; i--) {
        /* with divisors, row i is divided by d_i first, as scalar_op's division would */
        qf_complex x = d ? qf_scalar_div_value(qf_scalar_at(c[i]), qf_scalar_at(d[i])) : qf_scalar_at(c[i]);
        for (int l = i + 1; l < m; l++) {
            qf_complex uil = qf_scalar_at(u[qf_trisolve_packed(m, i, l)]);
            if (d) uil = qf_scalar_div_value(uil, qf_scalar_at(d[i]));
            x = qf_csub(x, qf_cmul(uil, qf_cmake(c[l][0], c[l][1])));
        }
        c[i][0] = x.re;
        c[i][1] = x.im;
        if (!isfinite(x.re) || !isfinite(x.im)) bad = i + 1;
    }
    for (int i = 0; i < m && bad; i++) c[i][0] = c[i][1] = 0.0;
    status[0] = bad;
    status[1] = 0.0;
}

#endif
