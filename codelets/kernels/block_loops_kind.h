/* The CPU codelets' loops over a block for one batch kind (kernels/simd.h, included once per batch
 * kind): they walk the sites a codelet works on, QF_KW at a time, and call the site kernels of
 * wilson_kind.h and clover_kind.h on them; each calls its kernel at one place, since an inlined
 * kernel is large. No include guard, on purpose. */

/* wilson_interior: every output site, the n batches of plan (the walk of qf_sites_key QF_SITES_HOPS:
 * qf_walk_block). */
static inline QF_HD_INLINE void QF_K(qf_wilson_interior_block)(void *out, const void *in, const void *gauge,
                                                               const void *x, const void *clover,
                                                               const qf_wilson_nbrs *nbrs, const qf_wilson_args *a,
                                                               const QF_K(qf_sites) *plan, int64_t n)
{
    QF_SITES_FOR_PLAN(plan, n, q, QF_K(qf_wilson_interior_at)(out, in, gauge, x, clover, nbrs, q, a));
}

/* wilson_exterior: the output sites with a face hop (QF_SITES_FACES: qf_walk_exterior), packed into full
 * batches (a lane spent on a site with none would be wasted). */
static inline QF_HD_INLINE void QF_K(qf_wilson_exterior_block)(void *out, const void *gauge, const void *x,
                                                               const void *clover,
                                                               const void *const nbr_face[QF_WILSON_NFACES],
                                                               const qf_wilson_args *a, const QF_K(qf_sites) *plan,
                                                               int64_t n)
{
    QF_SITES_FOR_PLAN(plan, n, q, QF_K(qf_wilson_exterior_at)(out, gauge, x, clover, nbr_face, q, a));
}

/* wilson_gather: the eight faces, but those of the directions in which the block wraps; plan[2 mu + side]
 * the n[2 mu + side] batches of the (mu, side) face (QF_SITES_ENTRIES: qf_walk_face). */
static inline QF_HD_INLINE void QF_K(qf_wilson_gather_block)(const void *spinor, const void *gauge,
                                                             void *const face[QF_WILSON_NFACES],
                                                             const qf_wilson_gather_args *a,
                                                             const QF_K(qf_sites) *const plan[QF_WILSON_NFACES],
                                                             const int64_t n[QF_WILSON_NFACES])
{
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++) {
        if (a->wrap >> mu & 1) continue;
        QF_UNROLL
        for (int side = 0; side < 2; side++) {
            QF_SITES_FOR_PLAN(plan[2 * mu + side], n[2 * mu + side], q, {
                /* the next batch's sources: the hardware follows a face's rows no better than a hop's */
                QF_K(qf_sites_prefetch_sites)(q, a->prec, spinor, QF_SPINOR_REALS);
                if (side && q->ahead)
                    QF_K(qf_prefetch_records)(gauge, a->prec, q->ahead->s, QF_NDIM * qf_recon_link_reals(a->recon),
                                              mu * qf_recon_link_reals(a->recon), qf_recon_link_reals(a->recon));
                QF_K(qf_wilson_gather_at)(spinor, gauge, face[2 * mu + side], mu, side, q->s, &q->src[0][0], q->valid, a);
            });
        }
    }
}

/* clover_apply: the n sites from first, which are consecutive in storage. */
static inline QF_HD_INLINE void QF_K(qf_clover_axpby_block)(void *out, double a, const void *x, double b,
                                                            const void *clover, const void *y, int64_t first,
                                                            int64_t n, qf_precision prec)
{
    for (int64_t k = 0; k < n; k += QF_KW) {
        QF_K(qf_mask) m = n - k >= QF_KW ? (1u << QF_KW) - 1 : (1u << (n - k)) - 1;
        QF_K(qf_lanes) s = QF_K(qf_lanes_run)(first + k, m);
        QF_K(qf_clover_axpby_site)(out, a, x, b, clover, y, &s, m, prec);
    }
}
