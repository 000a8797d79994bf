/* Site kernels of the Polyakov loop. A block's line buffer holds, for each spatial site (x, y, z) of
 * the block in block-local lexicographic order (x fastest), the ordered product of the time links
 * U_t(x, t0) U_t(x, t0 + 1) ... over the block's t extent, as one double-precision matrix (18 reals).
 * The products of the blocks of one column along t are then multiplied in t order (chain) and
 * traced (trace). */
#ifndef QF_KERNEL_POLYAKOV_H
#define QF_KERNEL_POLYAKOV_H

#include "su3.h"
#include "quarkflow/qf_lattice.h"

/* Spatial sites of a block of extents ext. */
static inline QF_HD int64_t qf_polyakov_spatial_volume(const int ext[QF_NDIM])
{
    return (int64_t)ext[0] * ext[1] * ext[2];
}

/* line(sp) = prod_{t = 0}^{E_t - 1} U_t(x(sp), t), ordered with t increasing to the right. */
static inline QF_HD void qf_polyakov_line_site(const void *block, double *line, int64_t sp, const int ext[QF_NDIM],
                                               qf_precision prec)
{
    const int sext[QF_NDIM] = {ext[0], ext[1], ext[2], 1};
    int x[QF_NDIM];
    qf_lex_coords(sp, sext, x);
    x[3] = 0;
    qf_su3 p = qf_su3_load(block, prec, (size_t)(4 * qf_block_site_index(x, ext) + 3));
    for (x[3] = 1; x[3] < ext[3]; x[3]++) {
        qf_su3 u = qf_su3_load(block, prec, (size_t)(4 * qf_block_site_index(x, ext) + 3));
        p = qf_su3_mul(&p, &u);
    }
    qf_su3_store(line, QF_DOUBLE, (size_t)sp, &p);
}

/* acc(sp) = acc(sp) next(sp): appends the next block's product along t. */
static inline QF_HD void qf_polyakov_chain_site(double *acc, const double *next, int64_t sp)
{
    qf_su3 a = qf_su3_load(acc, QF_DOUBLE, (size_t)sp);
    qf_su3 b = qf_su3_load(next, QF_DOUBLE, (size_t)sp);
    qf_su3 c = qf_su3_mul(&a, &b);
    qf_su3_store(acc, QF_DOUBLE, (size_t)sp, &c);
}

/* (1/3) Tr line(sp). */
static inline QF_HD qf_complex qf_polyakov_trace_site(const double *line, int64_t sp)
{
    const double *m = line + (size_t)sp * QF_SU3_REALS;
    return qf_cmake((m[0] + m[8] + m[16]) / 3.0, (m[1] + m[9] + m[17]) / 3.0);
}

/* The argument block of polyakov_line. */
typedef struct {
    int ext[QF_NDIM];
    qf_precision prec; /* of the gauge field */
} qf_polyakov_args;

#endif
