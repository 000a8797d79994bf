/* Kernels of conversions: precision, one real at a time, or one record (site) at a time where either
 * side is in half precision (its norm covers a record); link compression (qf_recon), one site at a
 * time. */
#ifndef QF_KERNEL_CONVERT_H
#define QF_KERNEL_CONVERT_H

#include "su3.h"

/* The argument block of convert: nsites records of rec reals (a site, or a coarse link matrix's row)
 * from record first on (the even or odd sites of a block, or all of them), laid out as layout in half. */
typedef struct {
    int64_t first, nsites;
    int rec;
    qf_precision src_prec, dst_prec;
    qf_half_layout layout;
    int team; /* CPU: the items shared among the team (cpu_team.h) */
} qf_convert_args;

static inline QF_HD int qf_convert_by_record(const qf_convert_args *a)
{
    return a->src_prec == QF_HALF || a->dst_prec == QF_HALF;
}

/* The work items of a block: its records or its reals. */
static inline QF_HD int64_t qf_convert_count(const qf_convert_args *a)
{
    return qf_convert_by_record(a) ? a->nsites : a->nsites * a->rec;
}

/* Record i, W reals at a time (W divides the record; at most 4): a thread holds W values, never a
 * record. A whole record in a thread's array (up to a coarse link row, 4 x QF_MG_MAX_NVEC reals,
 * indexed at run time) went to the GPU's local memory and made a 32^4 spinor's conversion to or from
 * half 7x slower than its bytes (bench/RESULTS.md). A record stored in half is read twice, the first
 * time for its norm. */
static inline QF_HD_INLINE void qf_convert_record(const void *src, void *dst, const qf_convert_args *a, int64_t i,
                                                  const int W)
{
    const int rec = a->rec;
    double v[4];
    if (a->dst_prec != QF_HALF) {
        for (int off = 0; off < rec; off += W) {
            qf_record_reals_load(src, a->src_prec, (size_t)i, rec, off, v, W, a->layout);
            qf_reals_store(dst, a->dst_prec, (size_t)i * rec + off, v, W);
        }
        return;
    }
    double m = 0.0;
    int finite = 1;
    for (int off = 0; off < rec; off += W) {
        qf_record_reals_load(src, a->src_prec, (size_t)i, rec, off, v, W, a->layout);
        for (int j = 0; j < W; j++) qf_half_extent(v[j], &m, &finite);
    }
    float norm = qf_half_norm(m, finite);
    double s = qf_half_components_scale(norm);
    for (int off = 0; off < rec; off += W) {
        qf_record_reals_load(src, a->src_prec, (size_t)i, rec, off, v, W, a->layout);
        qf_half_components_store(dst, (size_t)i, rec, off, v, W, s, a->layout);
    }
    *(float *)qf_half_norm_at(dst, (size_t)i, rec, a->layout) = norm;
}

/* The block's index of work item 0. */
static inline QF_HD int64_t qf_convert_first(const qf_convert_args *a)
{
    return qf_convert_by_record(a) ? a->first : a->first * a->rec;
}

/* Work item i of the block (counted from qf_convert_first): record i or real i. */
static inline QF_HD void qf_convert_item(const void *src, void *dst, const qf_convert_args *a, int64_t i)
{
    if (!qf_convert_by_record(a)) qf_real_set(dst, a->dst_prec, (size_t)i, qf_real_get(src, a->src_prec, (size_t)i));
    else if (a->rec % 4 == 0) qf_convert_record(src, dst, a, i, 4);
    else qf_convert_record(src, dst, a, i, 1);
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
    qf_record_reals_load(src, a->src_prec, (size_t)s, QF_LINKS_REALS, 0, v, QF_LINKS_REALS, QF_HALF_TILES);
    for (int mu = 0; mu < QF_NDIM; mu++) { /* packed in place: link mu's n reals never pass its 18 */
        qf_su3 u;
        for (int k = 0; k < 9; k++) u.e[k / 3][k % 3] = qf_cmake(v[mu * QF_SU3_REALS + 2 * k], v[mu * QF_SU3_REALS + 2 * k + 1]);
        qf_su3_pack(&u, a->recon, v + mu * n);
    }
    qf_record_reals_store(dst, a->dst_prec, (size_t)s, QF_NDIM * n, 0, v, QF_NDIM * n, QF_HALF_TILES);
}

#endif
