/* Kernels of conversions: precision, one real at a time; link compression (qf_recon), one link at a
 * time. */
#ifndef QF_KERNEL_CONVERT_H
#define QF_KERNEL_CONVERT_H

#include "su3.h"

static inline QF_HD void qf_convert_real(const void *src, qf_precision sp, void *dst, qf_precision dp, int64_t i)
{
    qf_real_set(dst, dp, (size_t)i, qf_real_get(src, sp, (size_t)i));
}

/* The argument block of convert. */
typedef struct {
    int64_t nreals;
    qf_precision src_prec, dst_prec;
} qf_convert_args;

/* The argument block of gauge_compress: the links of nsites sites, whole in src_prec, compressed to recon
 * in dst_prec. */
typedef struct {
    int64_t nsites;
    qf_precision src_prec, dst_prec;
    qf_recon recon;
} qf_gauge_compress_args;

/* Link i (site i / QF_NDIM, direction i % QF_NDIM) compressed. */
static inline QF_HD void qf_gauge_compress_link(const void *src, void *dst, const qf_gauge_compress_args *a, int64_t i)
{
    qf_su3 u = qf_su3_load(src, a->src_prec, (size_t)i);
    double v[QF_SU3_REALS];
    qf_su3_pack(&u, a->recon, v);
    int n = qf_recon_link_reals(a->recon);
    qf_reals_store(dst, a->dst_prec, (size_t)i * n, v, n);
}

#endif
