/* Site kernels for face buffers: copying one site of a block face, and reading a forward neighbour's
 * site either from the block itself or from the neighbour's face buffer. */
#ifndef QF_KERNEL_FACE_H
#define QF_KERNEL_FACE_H

#include "quarkflow/qf_lattice.h"
#include "reals.h"

/* Copies the record of face site f (site_reals reals, as stored: its bytes; in half its components and
 * norm, the face's records in tiles as the block's, qf_half_layout) from the block into the face buffer. */
static inline QF_HD void qf_face_copy_site(const void *block, void *face, int64_t f, const int ext[QF_NDIM], int mu,
                                           int side, int depth, int site_reals, qf_precision prec)
{
    int x[QF_NDIM];
    qf_face_site_coords(f, ext, mu, side, depth, x);
    int64_t s = qf_block_site_index(x, ext);
    if (prec == QF_HALF) {
        for (int k = 0; k < site_reals; k++)
            *(int16_t *)qf_half_component_ptr(face, (size_t)f, site_reals, k, QF_HALF_TILES) =
                *qf_half_component_ptr(block, (size_t)s, site_reals, k, QF_HALF_TILES);
        *(float *)qf_half_norm_at(face, (size_t)f, site_reals, QF_HALF_TILES) =
            *qf_half_norm_at(block, (size_t)s, site_reals, QF_HALF_TILES);
        return;
    }
    size_t n = qf_record_bytes(prec, site_reals) / 4; /* records are whole 4-byte words */
    const uint32_t *from = (const uint32_t *)block + (size_t)s * n;
    uint32_t *to = (uint32_t *)face + (size_t)f * n;
    for (size_t i = 0; i < n; i++) to[i] = from[i];
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

/* ---- sites and faces of one parity, for operators restricted to output parity p: they read sites of
 * parity 1 - p, and their faces hold only those (half-size faces indexed by face_index / 2, since
 * consecutive face indices differ in parity: the first face extent that is not 1 is even). ---- */

/* Sites the kernels loop over: those of one parity (V/2) or all (V). */
static inline QF_HD int64_t qf_parity_nsites(const int ext[QF_NDIM], int parity)
{
    return parity < 0 ? qf_volume(ext) : qf_volume(ext) / 2;
}

static inline QF_HD int64_t qf_parity_site(const int ext[QF_NDIM], int parity, int64_t i)
{
    return parity < 0 ? i : parity * (qf_volume(ext) / 2) + i;
}

/* The site numbers i (qf_parity_site) of the time slices t_lo <= x[3] < t_hi (t_hi 0: every slice) of one
 * parity: [*first, *end), since storage is lexicographic with x[3] slowest within a parity and every
 * slice holds as many sites of each (qf_lattice.h). */
static inline QF_HD void qf_parity_slice_sites(const int ext[QF_NDIM], int parity, int t_lo, int t_hi, int64_t *first,
                                               int64_t *end)
{
    int64_t n = qf_parity_nsites(ext, parity), per_slice = n / ext[3];
    *first = t_hi > 0 ? t_lo * per_slice : 0;
    *end = t_hi > 0 ? t_hi * per_slice : n;
}

/* Number of sites in the (mu) face of a block, for gathers of one parity (half) or all. */
static inline QF_HD int64_t qf_parity_face_sites(const int ext[QF_NDIM], int mu, int parity)
{
    int64_t n = qf_face_volume(ext, mu, 1);
    return parity < 0 ? n : n / 2;
}

/* Face buffer index of block-local site y in the (mu, side) face. */
static inline QF_HD int64_t qf_parity_face_index(const int y[QF_NDIM], const int ext[QF_NDIM], int mu, int side,
                                                 int parity)
{
    int64_t f = qf_face_site_index(y, ext, mu, side, 1);
    return parity < 0 ? f : f / 2;
}

/* How far the face index moves from a site of a row (x[1..3] fixed) to the row's next site of its
 * parity (x[0] + 2): the face is ordered as the block, x[0] fastest, halved with one parity stored;
 * a row has one site on an x face. */
static inline QF_HD int qf_parity_face_row_step(int mu, int parity) { return mu == 0 ? 0 : parity < 0 ? 2 : 1; }

/* Block-local coordinates of face buffer entry f of the (mu, side) face (inverse of the above). */
static inline QF_HD void qf_parity_face_coords(int64_t f, const int ext[QF_NDIM], int mu, int side, int parity,
                                               int y[QF_NDIM])
{
    if (parity < 0) {
        qf_face_site_coords(f, ext, mu, side, 1, y);
        return;
    }
    qf_face_site_coords(2 * f, ext, mu, side, 1, y);
    if (qf_parity(y) != parity) y[mu == 0 ? 1 : 0] += 1;
}

/* Entries of the eight faces of one parity (or all sites) together, as a gather's threads count them. */
static inline QF_HD int64_t qf_parity_faces_total(const int ext[QF_NDIM], int parity)
{
    int64_t n = 0;
    for (int mu = 0; mu < QF_NDIM; mu++) n += 2 * qf_parity_face_sites(ext, mu, parity);
    return n;
}

/* Entry t of the eight faces (flattened: mu, side, then face entry): its face k = 2 mu + side and the
 * entry in it. */
static inline QF_HD int64_t qf_parity_faces_entry(const int ext[QF_NDIM], int parity, int64_t t, int *mu, int *side)
{
    int m = 0;
    int64_t n = qf_parity_face_sites(ext, 0, parity);
    while (t >= 2 * n) {
        t -= 2 * n;
        m++;
        n = qf_parity_face_sites(ext, m, parity);
    }
    *mu = m;
    *side = t >= n;
    return t - *side * n;
}

/* Whether block site x has a hop through a face; qf_on_open_face: through a face of a direction
 * whose bit in wrap is clear (the block wraps in the others: it is its own neighbour there). */
static inline QF_HD int qf_on_open_face(const int x[QF_NDIM], const int ext[QF_NDIM], int wrap)
{
    int on = 0;
    for (int mu = 0; mu < QF_NDIM; mu++) on |= !(wrap >> mu & 1) && (x[mu] == 0 || x[mu] == ext[mu] - 1);
    return on;
}

static inline QF_HD int qf_on_face(const int x[QF_NDIM], const int ext[QF_NDIM]) { return qf_on_open_face(x, ext, 0); }

/* The argument block of face_copy: the (mu, side, depth) face of a block, whole sites. */
typedef struct {
    int ext[QF_NDIM];
    int mu, side, depth;
    int site_reals;
    qf_precision prec;
    int team; /* CPU: the sites shared among the team (cpu_team.h) */
} qf_face_copy_args;

#endif
