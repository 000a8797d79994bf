/* Site-independent kernel of precision conversion: one real at a time. */
#ifndef QF_KERNEL_CONVERT_H
#define QF_KERNEL_CONVERT_H

#include "quarkflow/qf_defs.h"

static inline QF_HD void qf_convert_real(const void *src, qf_precision sp, void *dst, qf_precision dp, int64_t i)
{
    double v = sp == QF_DOUBLE ? ((const double *)src)[i] : (double)((const float *)src)[i];
    if (dp == QF_DOUBLE) ((double *)dst)[i] = v;
    else ((float *)dst)[i] = (float)v;
}

#endif
