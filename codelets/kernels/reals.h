/* The precisions of stored reals, for every site kernel (CPU and CUDA): the one place that names each
 * precision's storage type (qf_real_get / qf_real_set and the run loads built on them) and the one
 * place where a codelet turns a field's run-time precision into a compile-time constant
 * (QF_WITH_PRECISION), so that a new precision joins the kernels here. */
#ifndef QF_REALS_H
#define QF_REALS_H

#include "quarkflow/qf_defs.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Runs the statement with P a constant of the precision prec, so that the kernels it calls
 * (inlined, or templates under nvcc) are specialised for each precision. QF_WITH_PRECISION knows
 * double and single, for the codelets of fields that are never kept in half (the tasks refuse half
 * before they reach them: qf_precision_check_full, qf_field_create_shaped); QF_WITH_ANY_PRECISION
 * adds half, for the codelets of the Wilson-clover operator, its BLAS and the conversions. */
#define QF_WITH_PRECISION(prec, P, ...)                                                                          \
    do {                                                                                                       \
        if ((prec) == QF_DOUBLE) {                                                                             \
            const qf_precision P = QF_DOUBLE;                                                                  \
            __VA_ARGS__;                                                                                       \
        } else {                                                                                               \
            const qf_precision P = QF_SINGLE;                                                                  \
            __VA_ARGS__;                                                                                       \
        }                                                                                                      \
    } while (0)
#define QF_WITH_ANY_PRECISION(prec, P, ...)                                                                      \
    do {                                                                                                       \
        if ((prec) == QF_HALF) {                                                                               \
            const qf_precision P = QF_HALF;                                                                    \
            __VA_ARGS__;                                                                                       \
        } else {                                                                                               \
            QF_WITH_PRECISION(prec, P, __VA_ARGS__);                                                           \
        }                                                                                                      \
    } while (0)

/* Runs the statement with P the constant of the fields' precision prec and PS that of data stored
 * beside them in stored: prec itself, or half with single fields (the multigrid levels' 16-bit coarse
 * links and near-null vectors): (double, double), (single, single) or (single, half). */
#define QF_WITH_FIELD_AND_STORED_PRECISION(prec, stored, P, PS, ...)                                              \
    do {                                                                                                       \
        if ((stored) == QF_HALF) {                                                                             \
            const qf_precision P = QF_SINGLE, PS = QF_HALF;                                                    \
            __VA_ARGS__;                                                                                       \
        } else {                                                                                               \
            QF_WITH_PRECISION(prec, P, {                                                                       \
                const qf_precision PS = P;                                                                     \
                __VA_ARGS__;                                                                                   \
            });                                                                                                \
        }                                                                                                      \
    } while (0)

/* Element i of an array of reals stored in precision prec, as a double; and stored from one. */
static inline QF_HD double qf_real_get(const void *base, qf_precision prec, size_t i)
{
    return prec == QF_DOUBLE ? ((const double *)base)[i] : (double)((const float *)base)[i];
}
static inline QF_HD void qf_real_set(void *base, qf_precision prec, size_t i, double v)
{
    if (prec == QF_DOUBLE) ((double *)base)[i] = v;
    else ((float *)base)[i] = (float)v;
}
/* v as precision prec stores it */
static inline QF_HD double qf_real_round(qf_precision prec, double v) { return prec == QF_DOUBLE ? v : (double)(float)v; }

/* Loads n reals from base + offset into v. On GPUs the loads go through the read-only data cache, 16
 * bytes at a time where n and offset allow it (the compiler sees both for spinors, half spinors and
 * links, so the test folds), which is what keeps the per-thread site records from costing extra
 * memory transactions. */
static inline QF_HD void qf_reals_load(const void *base, qf_precision prec, size_t offset, double *v, int n)
{
#if defined(__CUDA_ARCH__)
    if (prec == QF_SINGLE && n % 4 == 0 && offset % 4 == 0) {
        const float4 *p = (const float4 *)((const float *)base + offset);
        for (int i = 0; i < n / 4; i++) {
            float4 q = __ldg(p + i);
            v[4 * i] = q.x; v[4 * i + 1] = q.y; v[4 * i + 2] = q.z; v[4 * i + 3] = q.w;
        }
        return;
    }
    if (prec == QF_SINGLE && n % 2 == 0 && offset % 2 == 0) {
        const float2 *p = (const float2 *)((const float *)base + offset);
        for (int i = 0; i < n / 2; i++) {
            float2 q = __ldg(p + i);
            v[2 * i] = q.x; v[2 * i + 1] = q.y;
        }
        return;
    }
    if (prec == QF_DOUBLE && n % 2 == 0 && offset % 2 == 0) {
        const double2 *p = (const double2 *)((const double *)base + offset);
        for (int i = 0; i < n / 2; i++) {
            double2 q = __ldg(p + i);
            v[2 * i] = q.x; v[2 * i + 1] = q.y;
        }
        return;
    }
#endif
    for (int i = 0; i < n; i++) v[i] = qf_real_get(base, prec, offset + (size_t)i);
}

static inline QF_HD void qf_reals_store(void *base, qf_precision prec, size_t offset, const double *v, int n)
{
#if defined(__CUDA_ARCH__)
    if (prec == QF_SINGLE && n % 4 == 0 && offset % 4 == 0) {
        float4 *p = (float4 *)((float *)base + offset);
        for (int i = 0; i < n / 4; i++)
            p[i] = make_float4((float)v[4 * i], (float)v[4 * i + 1], (float)v[4 * i + 2], (float)v[4 * i + 3]);
        return;
    }
    if (prec == QF_DOUBLE && n % 2 == 0 && offset % 2 == 0) {
        double2 *p = (double2 *)((double *)base + offset);
        for (int i = 0; i < n / 2; i++) p[i] = make_double2(v[2 * i], v[2 * i + 1]);
        return;
    }
#endif
    for (int i = 0; i < n; i++) qf_real_set(base, prec, offset + (size_t)i, v[i]);
}

/* ---- half precision: records of 16-bit components and a float norm (qf_record_bytes) ----
 * Component k of a record holds round(v_k / norm * QF_HALF_MAX), norm the largest |v_k| of the record,
 * so a record keeps its largest values to 3e-5 relative and the others to 3e-5 of the largest, as
 * QUDA's half spinors do. A record is written whole (its norm depends on every value), read in any
 * part. NaN or infinity anywhere makes the norm NaN or infinite, so that every value loads as NaN
 * and the solvers see the breakdown. */
#define QF_HALF_MAX 32767.0

/* Record i's first byte, in rows (multigrid's kernels read a row's components directly). */
static inline QF_HD const char *qf_half_record_ptr(const void *base, size_t i, int rec)
{
    return (const char *)base + i * qf_record_bytes(QF_HALF, rec);
}
/* Component k of record i, and its norm, in layout l (qf_half_layout, qf_defs.h). A tile takes the
 * bytes of QF_HALF_TILE records (qf_record_bytes), its components first, four to a chunk, chunk m of
 * its records side by side. */
static inline QF_HD const char *qf_half_tile_ptr(const void *base, size_t i, int rec)
{
    return (const char *)base + i / QF_HALF_TILE * QF_HALF_TILE * qf_record_bytes(QF_HALF, rec);
}
static inline QF_HD const int16_t *qf_half_component_ptr(const void *base, size_t i, int rec, int k, qf_half_layout l)
{
    if (l == QF_HALF_ROWS) return (const int16_t *)qf_half_record_ptr(base, i, rec) + k;
    return (const int16_t *)(qf_half_tile_ptr(base, i, rec) + ((size_t)(k / 4) * QF_HALF_TILE + i % QF_HALF_TILE) * 8) + k % 4;
}
static inline QF_HD const float *qf_half_norm_at(const void *base, size_t i, int rec, qf_half_layout l)
{
    if (l == QF_HALF_ROWS)
        return (const float *)(qf_half_record_ptr(base, i, rec) + qf_record_bytes(QF_HALF, rec) - sizeof(float));
    return (const float *)(qf_half_tile_ptr(base, i, rec) + (size_t)(rec + 3) / 4 * QF_HALF_TILE * 8) + i % QF_HALF_TILE;
}

/* qf_half_record_load: n reals off .. off + n - 1 of record i (rec reals a record, layout l) into
 * doubles; qf_half_record_load_f the same into floats. */
#define QF_HALF_T double
#define QF_HALF_LOAD qf_half_record_load
#include "half_load_kind.h"
#undef QF_HALF_T
#undef QF_HALF_LOAD
#define QF_HALF_T float
#define QF_HALF_LOAD qf_half_record_load_f
#include "half_load_kind.h"
#undef QF_HALF_T
#undef QF_HALF_LOAD

/* The parts of storing a record: its largest magnitude (qf_half_extent over its values, finite cleared
 * by NaN or infinity), the norm and scale that follow, and the components (qf_half_components_store);
 * whole in qf_half_record_store, a few values at a time where a thread cannot hold a record
 * (convert.h, the GPU's BLAS). */
static inline QF_HD void qf_half_extent(double v, double *m, int *finite)
{
    double a = fabs(v);
    *finite = *finite && a <= 1.7e308; /* false for NaN and infinity */
    *m = a > *m ? a : *m;
}
static inline QF_HD float qf_half_norm(double m, int finite) { return finite ? (float)m : (float)NAN; }
static inline QF_HD double qf_half_components_scale(float norm)
{
    return norm > 0.0f ? QF_HALF_MAX / (double)norm : 0.0;
}
/* x rounded to the nearest integer in [-QF_HALF_MAX, QF_HALF_MAX]: |x| may pass QF_HALF_MAX by the
 * rounding of norm to float */
static inline QF_HD double qf_half_round(double x)
{
    double q = rint(x);
    return q > QF_HALF_MAX ? QF_HALF_MAX : q < -QF_HALF_MAX ? -QF_HALF_MAX : q;
}
static inline QF_HD int16_t qf_half_component(double v, double s) { return (int16_t)qf_half_round(v * s); }
/* n components off .. off + n - 1 of record i (layout l) from v at scale s. On GPUs 8 or 4 bytes a store
 * where n and off allow it (records, and chunks of a tile, start 8-byte aligned): 2-byte stores cost a
 * warp as many sectors as 8-byte ones. */
static inline QF_HD void qf_half_components_store(void *base, size_t i, int rec, int off, const double *v, int n, double s,
                                                  qf_half_layout l)
{
#define QF_HALF_C(k) ((int16_t *)qf_half_component_ptr(base, i, rec, (k), l))
#if defined(__CUDA_ARCH__)
    if (n % 4 == 0 && off % 4 == 0) {
        for (int k = 0; k < n / 4; k++)
            *(short4 *)QF_HALF_C(off + 4 * k) = make_short4(qf_half_component(v[4 * k], s), qf_half_component(v[4 * k + 1], s),
                                                         qf_half_component(v[4 * k + 2], s), qf_half_component(v[4 * k + 3], s));
        return;
    }
    if (n % 2 == 0 && off % 2 == 0) {
        for (int k = 0; k < n / 2; k++)
            *(short2 *)QF_HALF_C(off + 2 * k) = make_short2(qf_half_component(v[2 * k], s), qf_half_component(v[2 * k + 1], s));
        return;
    }
#endif
    for (int k = 0; k < n; k++) *QF_HALF_C(off + k) = qf_half_component(v[k], s);
#undef QF_HALF_C
}

/* Record i, all rec reals of it, from v. */
static inline QF_HD void qf_half_record_store(void *base, size_t i, int rec, const double *v, qf_half_layout l)
{
#if !defined(__CUDACC__)
    if (rec % 4 == 0) { /* CPUs: the same steps a chunk of 4 components (8 bytes in either layout) at a time */
        typedef double vec4 __attribute__((vector_size(32)));
        typedef int64_t bits4 __attribute__((vector_size(32)));
        typedef int32_t ints4 __attribute__((vector_size(16)));
        typedef int16_t comp4 __attribute__((vector_size(8)));
        vec4 big = {0.0, 0.0, 0.0, 0.0}, x;
        bits4 finite = {-1, -1, -1, -1};
        for (int k = 0; k < rec; k += 4) {
            memcpy(&x, v + k, sizeof x);
            vec4 a = (vec4)((bits4)x & (bits4){INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX});
            finite &= a <= 1.7e308;
            for (int j = 0; j < 4; j++) big[j] = a[j] > big[j] ? a[j] : big[j];
        }
        double m = 0.0;
        for (int j = 0; j < 4; j++) m = big[j] > m ? big[j] : m;
        float norm = qf_half_norm(m, finite[0] && finite[1] && finite[2] && finite[3]);
        double s = qf_half_components_scale(norm);
        for (int k = 0; k < rec; k += 4) {
            memcpy(&x, v + k, sizeof x);
            vec4 q = x * s;
            for (int j = 0; j < 4; j++) q[j] = qf_half_round(q[j]);
            comp4 c = __builtin_convertvector(__builtin_convertvector(q, ints4), comp4);
            memcpy((int16_t *)qf_half_component_ptr(base, i, rec, k, l), &c, sizeof c);
        }
        *(float *)qf_half_norm_at(base, i, rec, l) = norm;
        return;
    }
#endif
    double m = 0.0;
    int finite = 1;
    for (int k = 0; k < rec; k++) qf_half_extent(v[k], &m, &finite);
    float norm = qf_half_norm(m, finite);
    qf_half_components_store(base, i, rec, 0, v, rec, qf_half_components_scale(norm), l);
    *(float *)qf_half_norm_at(base, i, rec, l) = norm;
}

/* The same parts in float, for the kernels that compute half records in float (half_float_kind.h, the
 * GPU's half BLAS): the largest magnitude and the norm of float values are those of the doubles they
 * convert to, and the components those of rint(v s) at the float scale. */
static inline QF_HD void qf_half_extent_f(float v, float *m, int *finite)
{
    float a = fabsf(v);
    *finite = *finite && a <= 3.4e38f; /* false for NaN and infinity */
    *m = a > *m ? a : *m;
}
static inline QF_HD float qf_half_norm_f(float m, int finite) { return finite ? m : (float)NAN; }
static inline QF_HD float qf_half_components_scale_f(float norm) { return norm > 0.0f ? (float)QF_HALF_MAX / norm : 0.0f; }
static inline QF_HD int16_t qf_half_component_f(float v, float s)
{
#if defined(__CUDA_ARCH__)
    /* one float-to-integer conversion, rounding to nearest even as rintf, and an integer clamp: through
     * double (the clamp's constants) each component took two of the 64-bit conversions that these GPUs
     * run at an eighth of the float rate (bench/RESULTS.md, "The half stores' conversions") */
    return (int16_t)max(-(int)QF_HALF_MAX, min((int)QF_HALF_MAX, __float2int_rn(v * s)));
#else
    float q = rintf(v * s);
    return (int16_t)(q > (float)QF_HALF_MAX ? QF_HALF_MAX : q < -(float)QF_HALF_MAX ? -QF_HALF_MAX : q);
#endif
}
static inline QF_HD void qf_half_components_store_f(void *base, size_t i, int rec, int off, const float *v, int n, float s,
                                                    qf_half_layout l)
{
#define QF_HALF_C(k) ((int16_t *)qf_half_component_ptr(base, i, rec, (k), l))
#if defined(__CUDA_ARCH__)
    if (n % 4 == 0 && off % 4 == 0) { /* 8 bytes a store, as qf_half_components_store */
        for (int k = 0; k < n / 4; k++)
            *(short4 *)QF_HALF_C(off + 4 * k) = make_short4(qf_half_component_f(v[4 * k], s), qf_half_component_f(v[4 * k + 1], s),
                                                         qf_half_component_f(v[4 * k + 2], s), qf_half_component_f(v[4 * k + 3], s));
        return;
    }
#endif
    for (int k = 0; k < n; k++) *QF_HALF_C(off + k) = qf_half_component_f(v[k], s);
#undef QF_HALF_C
}

/* n reals off .. off + n - 1 of record i of an array of records of rec reals in precision prec (in half
 * laid out as l), into v or from v; records in half are stored whole (off 0, n rec). */
static inline QF_HD void qf_record_reals_load(const void *base, qf_precision prec, size_t i, int rec, int off, double *v,
                                              int n, qf_half_layout l)
{
    if (prec == QF_HALF) qf_half_record_load(base, i, rec, off, v, n, l);
    else qf_reals_load(base, prec, i * (size_t)rec + (size_t)off, v, n);
}
static inline QF_HD void qf_record_reals_store(void *base, qf_precision prec, size_t i, int rec, int off,
                                               const double *v, int n, qf_half_layout l)
{
    if (prec == QF_HALF) qf_half_record_store(base, i, rec, v, l);
    else qf_reals_store(base, prec, i * (size_t)rec + (size_t)off, v, n);
}

#endif
