/* The float scalar kind (suffix _sf, kernels/kind.h): one site, arithmetic in float. The CUDA
 * codelets of the Wilson-clover operator run it for single and half fields, as QUDA's kernels compute
 * there: in half the scalar kind's double arithmetic, not the bytes, bounded the operator (H100,
 * 32^4 Mhat: 0.54 of the copy bandwidth in half against 0.85 in single). Double fields keep the
 * scalar kind. The site geometry is the scalar kind's (qf_sites); the float complex numbers and
 * matrices, with the rebuilding of compressed links, come from su3.h. Included by wilson.h after the
 * scalar kind. The CPU codelets' scalar versions (the baseline x86-64, and half fields) use the same
 * entry points, so that every precision but double computes in float on every device. */
#ifndef QF_KERNEL_FLOAT_KIND_H
#define QF_KERNEL_FLOAT_KIND_H

typedef qf_index qf_index_sf;
typedef qf_mask qf_mask_sf;
typedef qf_sites qf_sites_sf;

static inline QF_HD float qf_real_from_sf(double d) { return (float)d; }
static inline QF_HD int qf_mask_any_sf(qf_mask_sf m) { return m; }
static inline QF_HD qf_mask_sf qf_mask_not_sf(qf_mask_sf m) { return !m; }
static inline QF_HD float qf_real_keep_sf(float v, qf_mask_sf m) { return m ? v : 0.0f; }
static inline QF_HD float qf_real_select_sf(qf_mask_sf m, float v, float w) { return m ? v : w; }

static inline QF_HD void qf_record_load_sf(const void *base, qf_precision prec, qf_index_sf i, int rec, int off,
                                           float *v, int n)
{
    qf_record_reals_load_f(base, prec, (size_t)i, rec, off, v, n);
}

static inline QF_HD void qf_record_store_sf(void *base, qf_precision prec, qf_index_sf i, int rec, int off,
                                            const float *v, int n, qf_mask_sf m)
{
    if (m) qf_record_reals_store_f(base, prec, (size_t)i, rec, off, v, n);
}

/* the scalar kind's site geometry under the kind's names */
static inline QF_HD qf_mask_sf qf_sites_hop_sf(const qf_sites_sf *q, int mu, int dir, const int ext[QF_NDIM],
                                               qf_index_sf *nb)
{
    return qf_sites_hop(q, mu, dir, ext, nb);
}
static inline QF_HD qf_mask_sf qf_sites_on_face_sf(const qf_sites_sf *q, const int ext[QF_NDIM])
{
    return qf_sites_on_face(q, ext);
}
static inline QF_HD qf_mask_sf qf_sites_valid_sf(const qf_sites_sf *q) { return qf_sites_valid(q); }
static inline QF_HD qf_mask_sf qf_sites_face_entry_sf(const qf_sites_sf *q, int mu, int dir, const int ext[QF_NDIM],
                                                      int src_parity, qf_index_sf *f)
{
    return qf_sites_face_entry(q, mu, dir, ext, src_parity, f);
}
static inline QF_HD void qf_sites_prefetch_hop_sf(const qf_sites_sf *q, int mu, int dir, const void *src, int src_rec,
                                                  const void *gauge, int link_reals, int link_at_src)
{
    qf_sites_prefetch_hop(q, mu, dir, src, src_rec, gauge, link_reals, link_at_src);
}
static inline QF_HD void qf_sites_prefetch_sites_sf(const qf_sites_sf *q, const void *base, int rec)
{
    qf_sites_prefetch_sites(q, base, rec);
}

#define QF_K(name) name##_sf
#include "spinor_kind.h"
#include "clover_kind.h"
#include "wilson_kind.h"
#undef QF_K

/* The site entry points of wilson.h in the kind that suits the precision P (a constant of the CUDA
 * kernels): the scalar kind for double, the float kind otherwise. */
static inline QF_HD_INLINE void qf_wilson_interior_site_in(qf_precision P, void *out, const void *in, const void *gauge,
                                                           const void *x, const void *clover, int64_t i,
                                                           const qf_wilson_args *a)
{
    qf_sites q;
    q.s = qf_parity_site(a->ext, a->parity, i);
    qf_block_site_coords(q.s, a->ext, q.x);
    if (P == QF_DOUBLE) qf_wilson_interior_at(out, in, gauge, x, clover, &q, a);
    else qf_wilson_interior_at_sf(out, in, gauge, x, clover, &q, a);
}

static inline QF_HD_INLINE void qf_wilson_exterior_site_in(qf_precision P, void *out, const void *gauge, const void *x,
                                                           const void *clover,
                                                           const void *const nbr_face[QF_WILSON_NFACES], int64_t i,
                                                           const qf_wilson_args *a)
{
    qf_sites q;
    q.s = qf_parity_site(a->ext, a->parity, i);
    qf_block_site_coords(q.s, a->ext, q.x);
    if (P == QF_DOUBLE) qf_wilson_exterior_at(out, gauge, x, clover, nbr_face, &q, a);
    else qf_wilson_exterior_at_sf(out, gauge, x, clover, nbr_face, &q, a);
}

static inline QF_HD_INLINE void qf_wilson_gather_site_in(qf_precision P, const void *spinor, const void *gauge,
                                                         void *const face[QF_WILSON_NFACES], int64_t t,
                                                         const qf_wilson_gather_args *a)
{
    int mu, side, y[QF_NDIM];
    int64_t f = qf_parity_faces_entry(a->ext, a->parity, t, &mu, &side);
    qf_parity_face_coords(f, a->ext, mu, side, a->parity, y);
    if (P == QF_DOUBLE) qf_wilson_gather_at(spinor, gauge, face[2 * mu + side], mu, side, qf_block_site_index(y, a->ext), f, 1, a);
    else qf_wilson_gather_at_sf(spinor, gauge, face[2 * mu + side], mu, side, qf_block_site_index(y, a->ext), f, 1, a);
}

/* The same with the precision of the arguments (CPU codelets, where it is known at run time). */
static inline QF_HD_INLINE void qf_wilson_interior_site(void *out, const void *in, const void *gauge, const void *x,
                                                        const void *clover, int64_t i, const qf_wilson_args *a)
{
    qf_wilson_interior_site_in(a->prec, out, in, gauge, x, clover, i, a);
}
static inline QF_HD_INLINE void qf_wilson_exterior_site(void *out, const void *gauge, const void *x, const void *clover,
                                                        const void *const nbr_face[QF_WILSON_NFACES], int64_t i,
                                                        const qf_wilson_args *a)
{
    qf_wilson_exterior_site_in(a->prec, out, gauge, x, clover, nbr_face, i, a);
}
static inline QF_HD_INLINE void qf_wilson_gather_site(const void *spinor, const void *gauge,
                                                      void *const face[QF_WILSON_NFACES], int64_t t,
                                                      const qf_wilson_gather_args *a)
{
    qf_wilson_gather_site_in(a->prec, spinor, gauge, face, t, a);
}

static inline QF_HD_INLINE void qf_clover_axpby_site_in(qf_precision P, void *out, double a, const void *x, double b,
                                                        const void *clover, const void *y, qf_index s)
{
    if (P == QF_DOUBLE) qf_clover_axpby_site(out, a, x, b, clover, y, s, 1, P);
    else qf_clover_axpby_site_sf(out, a, x, b, clover, y, s, 1, P);
}

#endif
