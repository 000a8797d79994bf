/* Site-independent kernel of precision conversion: one real at a time. */
#ifndef QF_KERNEL_CONVERT_H
#define QF_KERNEL_CONVERT_H

#include "reals.h"

static inline QF_HD void qf_convert_real(const void *src, qf_precision sp, void *dst, qf_precision dp, int64_t i)
{
    qf_real_set(dst, dp, (size_t)i, qf_real_get(src, sp, (size_t)i));
}

/* The argument block of convert. */
typedef struct {
    int64_t nreals;
    qf_precision src_prec, dst_prec;
} qf_convert_args;

#endif
