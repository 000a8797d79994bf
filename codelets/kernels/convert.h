/* Kernels of conversions: precision, one real at a time, or one record (site) at a time where either
 * side is in half precision (its norm covers a record); link compression (qf_recon), one site at a
 * time. */
#ifndef QF_KERNEL_CONVERT_H
#define QF_KERNEL_CONVERT_H

#include "su3.h"
#include "quarkflow/qf_multigrid.h" /* QF_MG_MAX_NVEC */

/* The argument block of convert: nsites records of rec reals (a site, or a coarse link matrix's row). */
typedef struct {
    int64_t nsites;
    int rec;
    qf_precision src_prec, dst_prec;
} qf_convert_args;

/* The longest record kept in half precision: a row of a coarse link matrix of QF_MG_MAX_NVEC colours
 * (a site's links or clover term are 72 reals). */
#define QF_HALF_RECORD_MAX (4 * QF_MG_MAX_NVEC)

static inline QF_HD int qf_convert_by_record(const qf_convert_args *a)
{
    return a->src_prec == QF_HALF || a->dst_prec == QF_HALF;
}

/* The work items of a block: its records or its reals. */
static inline QF_HD int64_t qf_convert_count(const qf_convert_args *a)
{
    return qf_convert_by_record(a) ? a->nsites : a->nsites * a->rec;
}

/* Work item i: record i or real i. */
static inline QF_HD void qf_convert_item(const void *src, void *dst, const qf_convert_args *a, int64_t i)
{
    if (qf_convert_by_record(a)) {
        double v[QF_HALF_RECORD_MAX];
        qf_record_reals_load(src, a->src_prec, (size_t)i, a->rec, 0, v, a->rec);
        qf_record_reals_store(dst, a->dst_prec, (size_t)i, a->rec, 0, v, a->rec);
    } else {
        qf_real_set(dst, a->dst_prec, (size_t)i, qf_real_get(src, a->src_prec, (size_t)i));
    }
}

/* The argument block of gauge_compress: the links of nsites sites, whole in src_prec, compressed to recon
 * in dst_prec. */
typedef struct {
    int64_t nsites;
    qf_precision src_prec, dst_prec;
    qf_recon recon;
} qf_gauge_compress_args;

/* The QF_NDIM links of site s compressed into its record. */
static inline QF_HD void qf_gauge_compress_site(const void *src, void *dst, const qf_gauge_compress_args *a, int64_t s)
{
    int n = qf_recon_link_reals(a->recon);
    double v[QF_LINKS_REALS];
    qf_record_reals_load(src, a->src_prec, (size_t)s, QF_LINKS_REALS, 0, v, QF_LINKS_REALS);
    for (int mu = 0; mu < QF_NDIM; mu++) { /* packed in place: link mu's n reals never pass its 18 */
        qf_su3 u;
        for (int k = 0; k < 9; k++) u.e[k / 3][k % 3] = qf_cmake(v[mu * QF_SU3_REALS + 2 * k], v[mu * QF_SU3_REALS + 2 * k + 1]);
        qf_su3_pack(&u, a->recon, v + mu * n);
    }
    qf_record_reals_store(dst, a->dst_prec, (size_t)s, QF_NDIM * n, 0, v, QF_NDIM * n);
}

#endif
