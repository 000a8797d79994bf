/* The precisions of stored reals, for every site kernel (CPU and CUDA): the one place that names each
 * precision's storage type (qf_real_get / qf_real_set and the run loads built on them) and the one
 * place where a codelet turns a field's run-time precision into a compile-time constant
 * (QF_WITH_PRECISION), so that a new precision joins the kernels here. */
#ifndef QF_REALS_H
#define QF_REALS_H

#include "quarkflow/qf_defs.h"

/* Runs the statement with P a constant of the precision prec, so that the kernels it calls
 * (inlined, or templates under nvcc) are specialised for each precision. */
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

#endif
