/* The Wilson hopping term as site kernels of one site kind (kernels/kind.h), included once per kind:
 * by wilson.h for the scalar kind (the CUDA codelets, one thread per site) and by kernels/simd.h for
 * the CPU batch kinds. Conventions, faces, the finishing step and the geometry of the sites
 * (qf_sites_hop, qf_sites_on_face, qf_sites_face_entry): wilson.h. No include guard, on purpose. */

/* z times the unit phase pr + i pi, one of 1, -1, i, -i: once the kernels are unrolled the phase is a
 * constant and this folds to a swap and sign changes. */
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cmul_unit)(QF_K(qf_complex) z, double pr, double pi)
{
    if (pi == 0.0) return QF_K(qf_cmake)(QF_K(qf_real_from)(pr) * z.re, QF_K(qf_real_from)(pr) * z.im);
    return QF_K(qf_cmake)(QF_K(qf_real_from)(-pi) * z.im, QF_K(qf_real_from)(pi) * z.re);
}

/* h = psi_upper + t B_mu psi_lower: the half spinor of (1 + t g_mu) psi. */
static inline QF_HD_INLINE QF_K(qf_half_spinor) QF_K(qf_spin_project)(const QF_K(qf_spinor) *psi, int mu, double t)
{
    QF_K(qf_half_spinor) h;
    QF_UNROLL
    for (int r = 0; r < 2; r++) {
        int col;
        double pr, pi;
        qf_gamma_block(mu, r, &col, &pr, &pi);
        QF_UNROLL
        for (int c = 0; c < 3; c++)
            h.h[r][c] = QF_K(qf_cadd)(psi->s[r][c], QF_K(qf_cmul_unit)(psi->s[2 + col][c], t * pr, t * pi));
    }
    return h;
}

/* acc += (1 + t g_mu) psi given its half spinor h: upper = h, lower = t B_mu^dagger h. */
static inline QF_HD_INLINE void QF_K(qf_spin_reconstruct_add)(QF_K(qf_spinor) *acc, const QF_K(qf_half_spinor) *h,
                                                              int mu, double t)
{
    QF_UNROLL
    for (int r = 0; r < 2; r++) {
        int col;
        double pr, pi;
        qf_gamma_block(mu, r, &col, &pr, &pi);
        /* row col of B^dagger has conj(phase) in column r */
        QF_UNROLL
        for (int c = 0; c < 3; c++) {
            acc->s[r][c] = QF_K(qf_cadd)(acc->s[r][c], h->h[r][c]);
            acc->s[2 + col][c] = QF_K(qf_cadd)(acc->s[2 + col][c], QF_K(qf_cmul_unit)(h->h[r][c], t * pr, -t * pi));
        }
    }
}

/* h times the boundary phase re + i im. */
static inline QF_HD_INLINE void QF_K(qf_half_scale)(QF_K(qf_half_spinor) *h, double re, double im)
{
    QF_K(qf_complex) z = QF_K(qf_cmake)(QF_K(qf_real_from)(re), QF_K(qf_real_from)(im));
    QF_UNROLL
    for (int r = 0; r < 2; r++) {
        QF_UNROLL
        for (int c = 0; c < 3; c++) h->h[r][c] = QF_K(qf_cmul)(z, h->h[r][c]);
    }
}

static inline QF_HD_INLINE QF_K(qf_half_spinor) QF_K(qf_half_mul)(const QF_K(qf_su3) *u, const QF_K(qf_half_spinor) *h,
                                                                  int dagger)
{
    QF_K(qf_half_spinor) r;
    QF_UNROLL
    for (int a = 0; a < 2; a++) {
        if (dagger) QF_K(qf_su3_dagger_mul_vec)(u, h->h[a], r.h[a]);
        else QF_K(qf_su3_mul_vec)(u, h->h[a], r.h[a]);
    }
    return r;
}

/* The finished result at sites s from their complete hop sum acc. The clover field is applied at one
 * place whatever clover_on says, so that the kernel holds one copy of its code. */
static inline QF_HD_INLINE QF_K(qf_spinor) QF_K(qf_wilson_finish)(const void *x, const void *clover, QF_K(qf_index) s,
                                                                  const QF_K(qf_spinor) *acc, const qf_wilson_args *a)
{
    QF_K(qf_spinor) xs = a->has_x ? QF_K(qf_spinor_load)(x, a->prec, s) : QF_K(qf_spinor_zero)();
    if (a->clover_on == QF_CLOVER_NONE) return QF_K(qf_spinor_axpby)(a->a, &xs, a->b, acc);
    /* C applied to x (QF_CLOVER_X), to the hops (QF_CLOVER_HOPS) or to a x + b hops (QF_CLOVER_ALL);
     * one branch a case, so that only the spinors a case still needs stay live across the clover
     * product (a shared product kept x, the hops and the product live: 252 registers a CUDA thread
     * against 168) */
    QF_K(qf_spinor) r;
    if (a->clover_on == QF_CLOVER_X) {
        QF_K(qf_spinor) cx = QF_K(qf_clover_apply_site)(clover, a->prec, s, &xs);
        r = QF_K(qf_spinor_axpby)(a->a, &cx, a->b, acc);
    } else if (a->clover_on == QF_CLOVER_HOPS) {
        QF_K(qf_spinor) ch = QF_K(qf_clover_apply_site)(clover, a->prec, s, acc);
        r = QF_K(qf_spinor_axpby)(a->a, &xs, a->b, &ch);
    } else {
        QF_K(qf_spinor) t = QF_K(qf_spinor_axpby)(a->a, &xs, a->b, acc);
        r = QF_K(qf_clover_apply_site)(clover, a->prec, s, &t);
    }
    return r;
}

/* acc += the hop (mu, dir) of the lanes in m, their sources at nb in the spinors src and, for the
 * backward hop, their links in links (the block's own, or a neighbour block's: qf_wilson_nbrs); the
 * forward hop's link U_mu(x) is the block's own. The lanes in cross take the hop across the
 * lattice's boundary, with the phase (forward) or its conjugate (backward): (phase - 1) h added. */
static inline QF_HD_INLINE void QF_K(qf_wilson_hop_add)(QF_K(qf_spinor) *acc, const void *src, const void *links,
                                                        const void *gauge, const QF_K(qf_sites) *q, int mu, int dir,
                                                        QF_K(qf_index) nb, QF_K(qf_mask) m, QF_K(qf_mask) cross,
                                                        const qf_wilson_args *a)
{
    double t = dir ? qf_backward_sign(a->dagger) : qf_forward_sign(a->dagger);
    QF_K(qf_spinor) psi = QF_K(qf_spinor_load)(src, a->prec, nb);
    QF_K(qf_half_spinor) p = QF_K(qf_spin_project)(&psi, mu, t);
    if (QF_K(qf_mask_any)(QF_K(qf_mask_not)(m))) QF_K(qf_half_keep)(&p, m); /* lanes whose hop is a face's */
    /* U_mu(x) forward, U_mu(x - mu)^dagger backward */
    QF_K(qf_su3) u = QF_K(qf_link_load)(dir ? links : gauge, a->prec, a->recon, dir ? nb : q->s, mu);
    QF_K(qf_half_spinor) h = QF_K(qf_half_mul)(&u, &p, dir);
    QF_K(qf_spin_reconstruct_add)(acc, &h, mu, t);
    double pr = a->phase[mu][0], pi = dir ? -a->phase[mu][1] : a->phase[mu][1];
    if (QF_K(qf_mask_any)(cross) && (pr != 1.0 || pi != 0.0)) {
        QF_K(qf_half_scale)(&h, pr - 1.0, pi);
        QF_K(qf_half_keep)(&h, cross);
        QF_K(qf_spin_reconstruct_add)(acc, &h, mu, t);
    }
}

/* Interior: the hops from sites inside the block, for the output sites q; finishes the sites with no
 * face hop, stores the partial hop sum of the others. In a direction that wraps (qf_wilson_args.wrap)
 * the hops that leave the block come back across its other side, or, where the direction is remote,
 * from the neighbour blocks' fields in nbrs at the same storage index (the blocks' layouts agree);
 * nbrs may be NULL where no direction is remote. */
static inline QF_HD_INLINE void QF_K(qf_wilson_interior_at)(void *out, const void *in, const void *gauge, const void *x,
                                                            const void *clover, const qf_wilson_nbrs *nbrs,
                                                            const QF_K(qf_sites) *q, const qf_wilson_args *a)
{
    QF_K(qf_spinor) acc = QF_K(qf_spinor_zero)();
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++) {
        QF_UNROLL
        for (int dir = 0; dir < 2; dir++) { /* the hop from x + mu (1 - s g_mu), then from x - mu (1 + s g_mu) */
            int remote = a->remote >> mu & 1;
            const void *far = remote ? nbrs->in[2 * mu + dir] : in, *far_links = remote && dir ? nbrs->gauge[mu] : gauge;
            QF_K(qf_sites_prefetch_hop)(q, a->prec, mu, dir, in, far, QF_SPINOR_REALS, gauge, far_links,
                                        qf_recon_link_reals(a->recon), dir);
            QF_K(qf_index) nb;
            QF_K(qf_mask) wrapped;
            QF_K(qf_mask) m = QF_K(qf_sites_hop)(q, mu, dir, a, &nb, &wrapped);
            if (!QF_K(qf_mask_any)(m)) continue;
            if (!remote) { /* a wrapped hop crosses the lattice's boundary: the block spans it */
                QF_K(qf_wilson_hop_add)(&acc, in, gauge, gauge, q, mu, dir, nb, m, wrapped, a);
                continue;
            }
            /* the lanes in the block, then those across the face, from the neighbour; the latter cross the
             * lattice's boundary where the block's face lies on it */
            QF_K(qf_mask) near = m & QF_K(qf_mask_not)(wrapped);
            int crosses = dir ? a->origin[mu] == 0 : a->origin[mu] + a->ext[mu] == a->global[mu];
            if (QF_K(qf_mask_any)(near)) QF_K(qf_wilson_hop_add)(&acc, in, gauge, gauge, q, mu, dir, nb, near, 0, a);
            if (QF_K(qf_mask_any)(wrapped))
                QF_K(qf_wilson_hop_add)(&acc, far, far_links, gauge, q, mu, dir, nb, wrapped, crosses ? wrapped : 0, a);
        }
    }
    QF_K(qf_sites_prefetch_sites)(q, a->prec, clover, QF_CLOVER_REALS);
    QF_K(qf_mask) face = a->dirichlet ? 0 : QF_K(qf_sites_on_face)(q, a), inner = QF_K(qf_mask_not)(face);
    if (!QF_K(qf_mask_any)(inner)) {
        QF_K(qf_spinor_store)(out, a->prec, q->s, &acc, QF_K(qf_sites_valid)(q));
        return;
    }
    QF_K(qf_spinor) r = QF_K(qf_wilson_finish)(x, clover, q->s, &acc, a);
    /* a batch with sites of both kinds stores once (one site on a GPU thread never has both) */
    if (QF_K(qf_mask_any)(face)) r = QF_K(qf_spinor_select)(face, &acc, &r);
    QF_K(qf_spinor_store)(out, a->prec, q->s, &r, QF_K(qf_sites_valid)(q));
}

/* Exterior: adds the face hops of the output sites q on the block's faces to their partial sums and
 * finishes them. nbr_face[k] is the neighbour's face for k = 2 mu + 1 (forward hop: the +mu
 * neighbour's side-0 face) and k = 2 mu (backward hop: the -mu neighbour's side-1 face). */
static inline QF_HD_INLINE void QF_K(qf_wilson_exterior_at)(void *out, const void *gauge, const void *x,
                                                            const void *clover,
                                                            const void *const nbr_face[QF_WILSON_NFACES],
                                                            const QF_K(qf_sites) *q, const qf_wilson_args *a)
{
    QF_K(qf_mask) face = QF_K(qf_sites_on_face)(q, a);
    if (!QF_K(qf_mask_any)(face)) return;
    int src_parity = a->parity < 0 ? -1 : 1 - a->parity;
    QF_K(qf_spinor) acc = QF_K(qf_spinor_load)(out, a->prec, q->s);
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++) {
        QF_K(qf_sites_prefetch_hop)(q, a->prec, mu, 0, nbr_face[2 * mu + 1], nbr_face[2 * mu + 1], QF_HALF_SPINOR_REALS,
                                    gauge, gauge, qf_recon_link_reals(a->recon), 0);
        QF_K(qf_sites_prefetch_hop)(q, a->prec, mu, 1, nbr_face[2 * mu], nbr_face[2 * mu], QF_HALF_SPINOR_REALS, NULL,
                                    NULL, 0, 0);
        QF_K(qf_index) f;
        QF_K(qf_mask) m = QF_K(qf_sites_face_entry)(q, mu, 0, a, src_parity, &f);
        if (QF_K(qf_mask_any)(m)) {
            QF_K(qf_half_spinor) p = QF_K(qf_half_load)(nbr_face[2 * mu + 1], a->prec, f);
            if (QF_K(qf_mask_any)(QF_K(qf_mask_not)(m))) QF_K(qf_half_keep)(&p, m);
            QF_K(qf_su3) u = QF_K(qf_link_load)(gauge, a->prec, a->recon, q->s, mu);
            QF_K(qf_half_spinor) h = QF_K(qf_half_mul)(&u, &p, 0);
            if (a->origin[mu] + a->ext[mu] == a->global[mu]) /* the hop crosses the lattice boundary */
                QF_K(qf_half_scale)(&h, a->phase[mu][0], a->phase[mu][1]);
            QF_K(qf_spin_reconstruct_add)(&acc, &h, mu, qf_forward_sign(a->dagger));
        }
        m = QF_K(qf_sites_face_entry)(q, mu, 1, a, src_parity, &f);
        if (QF_K(qf_mask_any)(m)) {
            QF_K(qf_half_spinor) h = QF_K(qf_half_load)(nbr_face[2 * mu], a->prec, f);
            if (QF_K(qf_mask_any)(QF_K(qf_mask_not)(m))) QF_K(qf_half_keep)(&h, m);
            if (a->origin[mu] == 0) QF_K(qf_half_scale)(&h, a->phase[mu][0], -a->phase[mu][1]);
            QF_K(qf_spin_reconstruct_add)(&acc, &h, mu, qf_backward_sign(a->dagger));
        }
    }
    QF_K(qf_sites_prefetch_sites)(q, a->prec, out, QF_SPINOR_REALS);
    QF_K(qf_sites_prefetch_sites)(q, a->prec, x, QF_SPINOR_REALS);
    QF_K(qf_sites_prefetch_sites)(q, a->prec, clover, QF_CLOVER_REALS);
    QF_K(qf_spinor) r = QF_K(qf_wilson_finish)(x, clover, q->s, &acc, a);
    QF_K(qf_spinor_store)(out, a->prec, q->s, &r, face);
}

/* Gather: face entries f of the (mu, side) face from block sites s, for the lanes in m. Side 0 is
 * for the forward hop of the block below: projected only; side 1 for the backward hop of the block
 * above: U_mu(s)^dagger times projected. */
static inline QF_HD_INLINE void QF_K(qf_wilson_gather_at)(const void *spinor, const void *gauge, void *face, int mu,
                                                          int side, QF_K(qf_index) s, QF_K(qf_index) f,
                                                          QF_K(qf_mask) m, const qf_wilson_gather_args *a)
{
    QF_K(qf_spinor) psi = QF_K(qf_spinor_load)(spinor, a->prec, s);
    QF_K(qf_half_spinor) h = QF_K(qf_spin_project)(&psi, mu, side ? qf_backward_sign(a->dagger) : qf_forward_sign(a->dagger));
    if (side) {
        QF_K(qf_su3) u = QF_K(qf_link_load)(gauge, a->prec, a->recon, s, mu);
        h = QF_K(qf_half_mul)(&u, &h, 1);
    }
    QF_K(qf_half_store)(face, a->prec, f, &h, m);
}
