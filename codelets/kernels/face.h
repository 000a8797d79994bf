/* Site kernels for face buffers: copying one site of a block face, and reading a forward neighbour's
 * site either from the block itself or from the neighbour's face buffer. */
#ifndef QF_KERNEL_FACE_H
#define QF_KERNEL_FACE_H

#include "quarkflow/qf_lattice.h"
#include "reals.h"

/* Copies the site_reals reals of face site f from the block into the face buffer. */
static inline QF_HD void qf_face_copy_site(const void *block, void *face, int64_t f, const int ext[QF_NDIM], int mu,
                                           int side, int depth, int site_reals, qf_precision prec)
{
    int x[QF_NDIM];
    qf_face_site_coords(f, ext, mu, side, depth, x);
    int64_t s = qf_block_site_index(x, ext);
    for (int i = 0; i < site_reals; i++)
        qf_real_set(face, prec, (size_t)(f * site_reals + i), qf_real_get(block, prec, (size_t)(s * site_reals + i)));
}

/* Where the site x + mu lives for a block-local site x: in the block (returns the storage index and
 * sets *in_face = 0) or in the side-0 face of the forward neighbour (returns the face index). */
static inline QF_HD int64_t qf_forward_site(const int x[QF_NDIM], const int ext[QF_NDIM], int mu, int *in_face)
{
    int y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
    if (x[mu] + 1 < ext[mu]) {
        y[mu] += 1;
        *in_face = 0;
        return qf_block_site_index(y, ext);
    }
    y[mu] = 0;
    *in_face = 1;
    return qf_face_site_index(y, ext, mu, 0, 1);
}

#endif
