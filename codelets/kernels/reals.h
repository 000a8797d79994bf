/* Loading and storing runs of reals of a site record in double or single precision, shared by every
 * site kernel (CPU and CUDA). */
#ifndef QF_REALS_H
#define QF_REALS_H

#include "quarkflow/qf_defs.h"

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
    if (prec == QF_DOUBLE) {
        const double *p = (const double *)base + offset;
        for (int i = 0; i < n; i++) v[i] = p[i];
    } else {
        const float *p = (const float *)base + offset;
        for (int i = 0; i < n; i++) v[i] = p[i];
    }
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
    if (prec == QF_DOUBLE) {
        double *p = (double *)base + offset;
        for (int i = 0; i < n; i++) p[i] = v[i];
    } else {
        float *p = (float *)base + offset;
        for (int i = 0; i < n; i++) p[i] = (float)v[i];
    }
}

#endif
