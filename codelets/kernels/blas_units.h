/* The units of the BLAS-1 codelets (kernels/blas.h): what their loops visit, and the arithmetic of
 * blas_kind.h on each, shared by the CPU and CUDA codelets. A unit is an element, or in half precision
 * whole records, since a record's norm covers its 24 reals: they are decoded, combined and encoded
 * whole again.
 *
 * On GPUs a unit is half a record, three of its chunks of four reals (QF_BLAS_HALF_PARTS threads a
 * record), decoded into and computed in float (the _sf kind): in double, a thread's half BiCGStab
 * update held 143-191 registers and ran twice as long (bench/RESULTS.md). A warp's turn takes 16
 * consecutive records, their first halves in lanes 0-15 and their second in lanes 16-31
 * (qf_blas_unit_order), so that each 8-byte load of the warp reads two runs of 128 bytes in the
 * records' tiles (qf_half_layout); quarter records (6 reals, lanes 4j .. 4j + 3) read 4-byte pieces
 * across chunks, half of each sector a load. The threads of a record agree on its new norm by
 * shuffles (qf_blas_record_store).
 *
 * On CPUs a unit is 8 consecutive records (QF_BLAS_HALF_BATCH), one a lane of the float batch kind
 * (kernels/simd.h, _f8), loaded and stored by the Wilson kernels' half tile loads and stores and
 * computed in float as on GPUs. A record at a time in double, the half BLAS of a 16^4 double/half
 * BiCGStab on the 2-core VM took 3.9x single precision's time; 8 at a time in float, 1.6-2.0x in
 * the updates and 1.1x in the reductions (bench/RESULTS.md, "The CPU's half BLAS eight records at a
 * time").
 *
 * Sums over a unit are taken in its kind, a record's own (a lane's), and added into the double sums
 * (qf_blas_half_total). */
#ifndef QF_KERNEL_BLAS_UNITS_H
#define QF_KERNEL_BLAS_UNITS_H

#include "blas.h"

#if defined(__CUDA_ARCH__)
#define QF_BLAS_HK(name) name##_sf
#elif defined(__CUDACC__) /* nvcc's host pass: compiles the units, never runs them */
#define QF_BLAS_HK(name) name
#else
/* The BLAS codelets' baseline version runs these units too (cpu_versions.h: the same body for every
 * version), so the batch kind's loads must not use AVX instructions by inline assembly. */
#ifdef QF_KERNEL_SIMD_H
#error "kernels/blas_units.h includes kernels/simd.h without inline assembly: include it first"
#endif
#define QF_SIMD_PORTABLE
#include "simd.h"
#define QF_BLAS_HK(name) name##_f8
/* a coefficient is one number, the same in every lane */
static inline QF_HD_INLINE int qf_blas_nonzero_f8(qf_real_f8 a) { return a[0] != 0; }
#define QF_K(name) name##_f8
#include "blas_kind.h"
#undef QF_K
#endif

typedef QF_BLAS_HK(qf_real) qf_blas_half_real;
typedef QF_BLAS_HK(qf_complex) qf_blas_half_complex;
typedef struct {
    qf_blas_half_real v[QF_BLAS_PART_REALS];
} qf_blas_record;

/* A unit's sum in its kind, added up in double: on CPUs the lanes (records) in order. */
static inline QF_HD_INLINE double qf_blas_half_total(qf_blas_half_real v)
{
#if defined(__CUDACC__)
    return v;
#else
    double s = 0.0;
    QF_UNROLL
    for (int l = 0; l < QF_BLAS_HALF_BATCH; l++) s += v[l];
    return s;
#endif
}

/* The task's units are first_unit .. first_unit + nunits - 1. */
static inline QF_HD int64_t qf_blas_first_unit(const qf_blas_args *a, qf_precision prec)
{
    return a->first / qf_blas_unit_elems(prec);
}
static inline QF_HD int64_t qf_blas_nunits(const qf_blas_args *a, qf_precision prec)
{
    return a->n / qf_blas_unit_elems(prec);
}

/* The records a warp's turn takes, and the unit (from the task's first) a GPU thread takes at position i
 * of a launch's turns: in half, lane l part l / QF_BLAS_WARP_RECORDS of record l % QF_BLAS_WARP_RECORDS
 * of the turn; otherwise unit i. */
#define QF_BLAS_WARP_RECORDS (32 / QF_BLAS_HALF_PARTS)
static inline QF_HD int64_t qf_blas_unit_order(int64_t i, qf_precision prec)
{
    if (prec != QF_HALF || QF_BLAS_HALF_PARTS == 1) return i;
    int lane = (int)(i % 32);
    return i - lane + (int64_t)(lane % QF_BLAS_WARP_RECORDS) * QF_BLAS_HALF_PARTS + lane / QF_BLAS_WARP_RECORDS;
}

/* Unit u of a half field into r (zeros for a field the operation does not read), and back: on GPUs part
 * u % QF_BLAS_HALF_PARTS of record u / QF_BLAS_HALF_PARTS, whose threads call the store together (each
 * unit of a task is a thread's, QF_BLAS_CUDA_FOR_UNITS, from a first unit that starts a record); on CPUs
 * records 8u .. 8u + 7, one a lane, which lie in one tile of QF_HALF_TILE (whole units a task). */
static inline QF_HD_INLINE void qf_blas_record_load(qf_blas_record *r, const void *base, int64_t u)
{
    if (!base) {
        for (int k = 0; k < QF_BLAS_PART_REALS; k++) r->v[k] = QF_BLAS_HK(qf_real_from)(0);
        return;
    }
#if defined(__CUDACC__)
    size_t rec = (size_t)(u / QF_BLAS_HALF_PARTS);
    int off = (int)(u % QF_BLAS_HALF_PARTS) * QF_BLAS_PART_REALS;
#if defined(__CUDA_ARCH__)
    qf_half_record_load_f(base, rec, QF_BLAS_HALF_RECORD, off, r->v, QF_BLAS_PART_REALS, QF_HALF_TILES);
#else
    qf_half_record_load(base, rec, QF_BLAS_HALF_RECORD, off, r->v, QF_BLAS_PART_REALS, QF_HALF_TILES);
#endif
#else
    qf_lanes_f8 lanes = qf_lanes_run_f8(u * QF_BLAS_HALF_BATCH, (1u << QF_BLAS_HALF_BATCH) - 1);
    qf_record_load_f8(base, QF_HALF, &lanes, QF_BLAS_HALF_RECORD, 0, r->v, QF_BLAS_HALF_RECORD);
#endif
}
static inline QF_HD_INLINE void qf_blas_record_store(const qf_blas_record *r, void *base, int64_t u)
{
#if defined(__CUDA_ARCH__)
    float m = 0.0f;
    int finite = 1;
    QF_UNROLL
    for (int k = 0; k < QF_BLAS_PART_REALS; k++) qf_half_extent_f(r->v[k], &m, &finite);
    /* the record's threads are lanes j, j + QF_BLAS_WARP_RECORDS, ... of the warp (qf_blas_unit_order),
     * all running (whole records a task) */
    unsigned group = 0;
    for (int k = 0; k < QF_BLAS_HALF_PARTS; k++) group |= 1u << (threadIdx.x % QF_BLAS_WARP_RECORDS + k * QF_BLAS_WARP_RECORDS);
    for (int d = QF_BLAS_WARP_RECORDS; d < 32; d *= 2) {
        m = fmaxf(m, __shfl_xor_sync(group, m, d));
        finite &= __shfl_xor_sync(group, finite, d);
    }
    float norm = qf_half_norm_f(m, finite);
    size_t rec = (size_t)(u / QF_BLAS_HALF_PARTS);
    int part = (int)(u % QF_BLAS_HALF_PARTS);
    qf_half_components_store_f(base, rec, QF_BLAS_HALF_RECORD, part * QF_BLAS_PART_REALS, r->v, QF_BLAS_PART_REALS,
                               qf_half_components_scale_f(norm), QF_HALF_TILES);
    if (part == 0) *(float *)qf_half_norm_at(base, rec, QF_BLAS_HALF_RECORD, QF_HALF_TILES) = norm;
#elif defined(__CUDACC__)
    qf_half_record_store(base, (size_t)u, QF_BLAS_HALF_RECORD, r->v, QF_HALF_TILES);
#else
    qf_lanes_f8 lanes = qf_lanes_run_f8(u * QF_BLAS_HALF_BATCH, (1u << QF_BLAS_HALF_BATCH) - 1);
    qf_record_store_f8(base, QF_HALF, &lanes, QF_BLAS_HALF_RECORD, 0, r->v, QF_BLAS_HALF_RECORD,
                       (1u << QF_BLAS_HALF_BATCH) - 1);
#endif
}
/* element e of a record, and a coefficient, in the half records' kind */
static inline QF_HD_INLINE qf_blas_half_complex qf_blas_record_elem(const qf_blas_record *r, int e)
{
    return QF_BLAS_HK(qf_cmake)(r->v[2 * e], r->v[2 * e + 1]);
}
static inline QF_HD_INLINE void qf_blas_record_set(qf_blas_record *r, int e, qf_blas_half_complex v)
{
    r->v[2 * e] = v.re;
    r->v[2 * e + 1] = v.im;
}
static inline QF_HD_INLINE qf_blas_half_complex qf_blas_half_coefficient(qf_complex c)
{
    return QF_BLAS_HK(qf_cmake)(QF_BLAS_HK(qf_real_from)(c.re), QF_BLAS_HK(qf_real_from)(c.im));
}

static inline QF_HD_INLINE void qf_blas_update_unit(int op, void *y, const void *x, const void *w, double a, double b,
                                                    qf_complex c, int64_t u, qf_precision prec)
{
    if (prec != QF_HALF) {
        qf_blas_update_elem(op, y, x, w, a, b, c, u, prec);
        return;
    }
    qf_blas_record ry, rx, rw;
    qf_blas_record_load(&rx, qf_blas_update_reads_x(op, a) ? x : NULL, u);
    qf_blas_record_load(&rw, qf_blas_update_reads_w(op) ? w : NULL, u);
    qf_blas_record_load(&ry, qf_blas_update_reads_y(op, b) ? y : NULL, u);
    qf_blas_half_complex ck = qf_blas_half_coefficient(c);
    QF_UNROLL
    for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++)
        qf_blas_record_set(&ry, e,
                           QF_BLAS_HK(qf_blas_update_value)(op, qf_blas_record_elem(&ry, e), qf_blas_record_elem(&rx, e),
                                                            qf_blas_record_elem(&rw, e), QF_BLAS_HK(qf_real_from)(a),
                                                            QF_BLAS_HK(qf_real_from)(b), ck));
    qf_blas_record_store(&ry, y, u);
}

/* adds unit u's <x, y> (or |x|^2 for norm2) into dot, and its |x|^2 into *norm for dot_norm2 */
static inline QF_HD_INLINE void qf_blas_reduce_unit(int op, const void *x, const void *y, int64_t u, qf_precision prec,
                                                    double dot[2], double *norm)
{
    if (prec != QF_HALF) {
        qf_complex v = qf_blas_reduce_elem(op == QF_BLAS_NORM2 ? QF_BLAS_NORM2 : QF_BLAS_DOT, x, y, u, prec);
        dot[0] += v.re;
        dot[1] += v.im;
        if (op == QF_BLAS_DOT_NORM2) *norm += qf_blas_reduce_elem(QF_BLAS_NORM2, x, x, u, prec).re;
        return;
    }
    qf_blas_record rx, ry;
    qf_blas_record_load(&rx, x, u);
    if (y == x) ry = rx; /* a copy, not a pointer to either: that kept both in the GPU's local memory */
    else qf_blas_record_load(&ry, y, u);
    qf_blas_half_real re = QF_BLAS_HK(qf_real_from)(0), im = re, nn = re;
    QF_UNROLL
    for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++) {
        qf_blas_half_complex xv = qf_blas_record_elem(&rx, e);
        if (op == QF_BLAS_NORM2) {
            re += QF_BLAS_HK(qf_cnorm2)(xv);
            continue;
        }
        qf_blas_half_complex v = QF_BLAS_HK(qf_cconjmul)(xv, qf_blas_record_elem(&ry, e));
        re += v.re;
        im += v.im;
        if (op == QF_BLAS_DOT_NORM2) nn += QF_BLAS_HK(qf_cnorm2)(xv);
    }
    dot[0] += qf_blas_half_total(re);
    dot[1] += qf_blas_half_total(im);
    if (op == QF_BLAS_DOT_NORM2) *norm += qf_blas_half_total(nn);
}

/* ---- blas_multi: the x_k of one task, and unit u's part of each operation ---- */
typedef struct {
    const void *x[QF_BLAS_MULTI_MAX];
} qf_blas_multi_fields;

/* adds unit u's <x_k, y> into dot[k] for k < nv, y loaded once */
static inline QF_HD_INLINE void qf_blas_multi_dot_unit(int nv, const qf_blas_multi_fields *x, const void *y, int64_t u,
                                                       qf_precision prec, double dot[][2])
{
    if (prec != QF_HALF) {
        qf_complex yv = qf_blas_load(y, prec, u);
        QF_UNROLL
        for (int k = 0; k < nv; k++) {
            qf_complex v = qf_cconjmul(qf_blas_load(x->x[k], prec, u), yv);
            dot[k][0] += v.re;
            dot[k][1] += v.im;
        }
        return;
    }
    qf_blas_record ry, rx;
    qf_blas_record_load(&ry, y, u);
    QF_UNROLL
    for (int k = 0; k < nv; k++) {
        qf_blas_record_load(&rx, x->x[k], u);
        qf_blas_half_real re = QF_BLAS_HK(qf_real_from)(0), im = re;
        QF_UNROLL
        for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++) {
            qf_blas_half_complex v = QF_BLAS_HK(qf_cconjmul)(qf_blas_record_elem(&rx, e), qf_blas_record_elem(&ry, e));
            re += v.re;
            im += v.im;
        }
        dot[k][0] += qf_blas_half_total(re);
        dot[k][1] += qf_blas_half_total(im);
    }
}

/* unit u of y + sum_k c_k x_k, k < nv, summed in the unit's kind (float for half records)
 * and rounded once */
static inline QF_HD_INLINE void qf_blas_multi_caxpy_unit(int nv, void *y, const qf_blas_multi_fields *x,
                                                         const qf_complex *c, int64_t u, qf_precision prec)
{
    if (prec != QF_HALF) {
        qf_complex acc = qf_blas_load(y, prec, u);
        QF_UNROLL
        for (int k = 0; k < nv; k++) acc = qf_blas_caxpy_value(acc, c[k], qf_blas_load(x->x[k], prec, u));
        qf_blas_store(y, prec, u, acc);
        return;
    }
    qf_blas_record ry, rx;
    qf_blas_record_load(&ry, y, u);
    QF_UNROLL
    for (int k = 0; k < nv; k++) {
        qf_blas_record_load(&rx, x->x[k], u);
        qf_blas_half_complex ck = qf_blas_half_coefficient(c[k]);
        QF_UNROLL
        for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++)
            qf_blas_record_set(&ry, e, QF_BLAS_HK(qf_blas_caxpy_value)(qf_blas_record_elem(&ry, e), ck, qf_blas_record_elem(&rx, e)));
    }
    qf_blas_record_store(&ry, y, u);
}

static inline QF_HD_INLINE double qf_blas_cg_unit(void *x, void *r, qf_complex c, const void *p, const void *q,
                                                  int64_t u, qf_precision prec)
{
    if (prec != QF_HALF) return qf_blas_cg_elem(x, r, c, p, q, u, prec);
    qf_blas_record rx, rr, rp, rq;
    qf_blas_record_load(&rx, x, u);
    qf_blas_record_load(&rr, r, u);
    qf_blas_record_load(&rp, p, u);
    qf_blas_record_load(&rq, q, u);
    qf_blas_half_complex ck = qf_blas_half_coefficient(c);
    qf_blas_half_real sum = QF_BLAS_HK(qf_real_from)(0);
    QF_UNROLL
    for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++) {
        qf_blas_half_complex xv = qf_blas_record_elem(&rx, e), rv = qf_blas_record_elem(&rr, e);
        QF_BLAS_HK(qf_blas_cg_value)(&xv, &rv, ck, qf_blas_record_elem(&rp, e), qf_blas_record_elem(&rq, e));
        qf_blas_record_set(&rx, e, xv);
        qf_blas_record_set(&rr, e, rv);
        sum += QF_BLAS_HK(qf_cnorm2)(rv);
    }
    qf_blas_record_store(&rx, x, u);
    qf_blas_record_store(&rr, r, u);
    return qf_blas_half_total(sum);
}

static inline QF_HD_INLINE double qf_blas_bicgstab_unit(void *x, void *r, qf_complex c, const void *p, qf_complex w,
                                                        const void *s, const void *t, int64_t u, qf_precision prec)
{
    if (prec != QF_HALF) return qf_blas_bicgstab_elem(x, r, c, p, w, s, t, u, prec);
    qf_blas_record rx, rp, rs, rt, rr;
    qf_blas_record_load(&rx, x, u);
    qf_blas_record_load(&rp, p, u);
    qf_blas_record_load(&rs, s, u);
    qf_blas_record_load(&rt, t, u);
    qf_blas_half_complex ck = qf_blas_half_coefficient(c), wk = qf_blas_half_coefficient(w);
    qf_blas_half_real sum = QF_BLAS_HK(qf_real_from)(0);
    QF_UNROLL
    for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++) {
        qf_blas_half_complex xv = qf_blas_record_elem(&rx, e), rv;
        QF_BLAS_HK(qf_blas_bicgstab_value)(&xv, &rv, ck, qf_blas_record_elem(&rp, e), wk, qf_blas_record_elem(&rs, e),
                                           qf_blas_record_elem(&rt, e));
        qf_blas_record_set(&rx, e, xv);
        qf_blas_record_set(&rr, e, rv);
        sum += QF_BLAS_HK(qf_cnorm2)(rv);
    }
    qf_blas_record_store(&rx, x, u);
    qf_blas_record_store(&rr, r, u);
    return qf_blas_half_total(sum);
}

static inline QF_HD_INLINE void qf_blas_bicgstab_p_unit(void *p, const void *r, const void *v, qf_complex beta,
                                                        qf_complex omega, int64_t u, qf_precision prec)
{
    if (prec != QF_HALF) {
        qf_blas_bicgstab_p_elem(p, r, v, beta, omega, u, prec);
        return;
    }
    qf_blas_record rp, rr, rv;
    qf_blas_record_load(&rp, p, u);
    qf_blas_record_load(&rr, r, u);
    qf_blas_record_load(&rv, v, u);
    qf_blas_half_complex bk = qf_blas_half_coefficient(beta), ok = qf_blas_half_coefficient(omega);
    QF_UNROLL
    for (int e = 0; e < QF_BLAS_RECORD_ELEMS; e++)
        qf_blas_record_set(&rp, e,
                           QF_BLAS_HK(qf_blas_bicgstab_p_value)(qf_blas_record_elem(&rp, e), qf_blas_record_elem(&rr, e),
                                                                qf_blas_record_elem(&rv, e), bk, ok));
    qf_blas_record_store(&rp, p, u);
}

#endif
