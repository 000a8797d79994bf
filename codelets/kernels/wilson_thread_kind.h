/* The Wilson hopping term one site a call (a CUDA thread's, or a CPU loop's on fields the batch kinds do
 * not load), for a scalar kind (kernels/kind.h): included once per kind, by wilson.h for the double
 * kind and by half_float_kind.h for the float one, whose qf_sites is the double kind's. No include
 * guard, on purpose. */

/* Output site number i (qf_parity_site) of the interior and of the exterior, one thread per site. */
static inline QF_HD_INLINE void QF_K(qf_wilson_interior_site)(void *out, const void *in, const void *gauge, const void *x,
                                                              const void *clover, const qf_wilson_nbrs *nbrs, int64_t i,
                                                              const qf_wilson_args *a)
{
    QF_K(qf_sites) q;
    q.s = qf_parity_site(a->ext, a->parity, i);
    qf_block_site_coords(q.s, a->ext, q.x);
    QF_K(qf_wilson_interior_at)(out, in, gauge, x, clover, nbrs, &q, a);
}

static inline QF_HD_INLINE void QF_K(qf_wilson_exterior_site)(void *out, const void *gauge, const void *x, const void *clover,
                                                              const void *const nbr_face[QF_WILSON_NFACES], int64_t i,
                                                              const qf_wilson_args *a)
{
    QF_K(qf_sites) q;
    q.s = qf_parity_site(a->ext, a->parity, i);
    qf_block_site_coords(q.s, a->ext, q.x);
    QF_K(qf_wilson_exterior_at)(out, gauge, x, clover, nbr_face, &q, a);
}

/* Gather entry t of all eight faces (flattened: mu, side, then face entry). face[k] is the buffer of
 * face k = 2 mu + side. */
static inline QF_HD_INLINE void QF_K(qf_wilson_gather_site)(const void *spinor, const void *gauge,
                                                            void *const face[QF_WILSON_NFACES], int64_t t,
                                                            const qf_wilson_gather_args *a)
{
    int mu, side, y[QF_NDIM];
    int64_t f = qf_parity_faces_entry(a->ext, a->parity, t, &mu, &side);
    if (a->wrap >> mu & 1) return;
    qf_parity_face_coords(f, a->ext, mu, side, a->parity, y);
    QF_K(qf_wilson_gather_at)(spinor, gauge, face[2 * mu + side], mu, side, qf_block_site_index(y, a->ext), f, 1, a);
}
