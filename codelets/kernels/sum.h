/* Kernels of reduction accumulators: arrays of doubles that STARPU_REDUX zeroes and adds. */
#ifndef QF_KERNEL_SUM_H
#define QF_KERNEL_SUM_H

#include "quarkflow/qf_defs.h"

static inline QF_HD void qf_sum_zero(double *acc, int i) { acc[i] = 0.0; }
static inline QF_HD void qf_sum_add(double *acc, const double *other, int i) { acc[i] += other[i]; }

#endif
