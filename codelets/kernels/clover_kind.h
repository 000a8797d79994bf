/* The clover term's application as site kernels of one site kind (kernels/kind.h), included once per
 * kind: C x for a clover field C (A or A^-1) in the 72-real layout of clover.h, and the clover_apply
 * codelet's site. No include guard, on purpose. */

/* y = C x for one stored 36-real block c (diagonal, then lower entries; upper ones conjugated). */
static inline QF_HD_INLINE void QF_K(qf_clover_block_mul)(const QF_K(qf_real) *c, const QF_K(qf_complex) x[6],
                                                          QF_K(qf_complex) y[6])
{
    QF_UNROLL
    for (int i = 0; i < 6; i++) y[i] = QF_K(qf_cscale)(c[i], x[i]);
    QF_UNROLL
    for (int i = 1; i < 6; i++) {
        QF_UNROLL
        for (int j = 0; j < i; j++) {
            int k = qf_clover_lower_offset(i, j);
            QF_K(qf_complex) l = QF_K(qf_cmake)(c[k], c[k + 1]);
            y[i] = QF_K(qf_cmadd)(y[i], l, x[j]);     /* A[i][j] x[j] */
            y[j] = QF_K(qf_cconjmadd)(y[j], l, x[i]); /* A[j][i] x[i] = conj(L[i][j]) x[i] */
        }
    }
}

/* C(site) in, C the clover field at base (A or A^-1) in precision prec: 2 x 36 reals loaded, one pass
 * over each block, 504 flops a site (QUDA's count for the clover term). */
static inline QF_HD_INLINE QF_K(qf_spinor) QF_K(qf_clover_apply_site)(const void *clover, qf_precision prec,
                                                                      QF_K(qf_index) site, const QF_K(qf_spinor) *in)
{
    QF_K(qf_spinor) out;
    QF_UNROLL
    for (int blk = 0; blk < 2; blk++) {
        QF_K(qf_real) c[QF_CLOVER_BLOCK_REALS];
        QF_K(qf_record_load)(clover, prec, site, QF_CLOVER_REALS, blk * QF_CLOVER_BLOCK_REALS, c, QF_CLOVER_BLOCK_REALS);
        QF_K(qf_complex) x[6], y[6];
        QF_UNROLL
        for (int i = 0; i < 6; i++) x[i] = in->s[2 * blk + i / 3][i % 3];
        QF_K(qf_clover_block_mul)(c, x, y);
        QF_UNROLL
        for (int i = 0; i < 6; i++) out.s[2 * blk + i / 3][i % 3] = y[i];
    }
    return out;
}

/* The clover_apply codelet's sites s (the lanes in m): out(s) = a x(s) + b C(s) y(s); x is not read
 * when a == 0. Any of out, x, y may be the same field. */
static inline QF_HD_INLINE void QF_K(qf_clover_axpby_site)(void *out, double a, const void *x, double b,
                                                           const void *clover, const void *y, QF_K(qf_index) s,
                                                           QF_K(qf_mask) m, qf_precision prec)
{
    QF_K(qf_spinor) ys = QF_K(qf_spinor_load)(y, prec, s);
    QF_K(qf_spinor) r = QF_K(qf_clover_apply_site)(clover, prec, s, &ys);
    if (a != 0.0) {
        QF_K(qf_spinor) xs = QF_K(qf_spinor_load)(x, prec, s);
        r = QF_K(qf_spinor_axpby)(a, &xs, b, &r);
    } else {
        QF_K(qf_real) rb = QF_K(qf_real_from)(b);
        QF_UNROLL
        for (int sp = 0; sp < 4; sp++) {
            QF_UNROLL
            for (int c = 0; c < 3; c++) r.s[sp][c] = QF_K(qf_cscale)(rb, r.s[sp][c]);
        }
    }
    QF_K(qf_spinor_store)(out, prec, s, &r, m);
}
