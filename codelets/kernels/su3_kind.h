/* SU(3) links of one site kind (kernels/kind.h) rebuilt from their compressed records (qf_recon,
 * qf_defs.h): the third row of reconstruct-12 and the whole matrix of reconstruct-8; the loads are
 * spinor_kind.h's qf_link_load. Included once per
 * kind (su3.h: the scalar kind; kernels/simd.h: the CPU batch kinds), after the kind's qf_su3 type and
 * its qf_real_sqrt_nonneg and qf_real_sincos (x, &sin, &cos). No include guard, on purpose. */

/* Row 2 from rows 0 and 1: conj(row 0 x row 1), which unitarity and det 1 fix. */
static inline QF_HD_INLINE void QF_K(qf_su3_complete_row3)(QF_K(qf_su3) *m)
{
    QF_UNROLL
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        QF_K(qf_complex) c = QF_K(qf_csub)(QF_K(qf_cmul)(m->e[0][i], m->e[1][j]), QF_K(qf_cmul)(m->e[0][j], m->e[1][i]));
        m->e[2][k] = QF_K(qf_cconj)(c);
    }
}

/* The matrix from QUDA's 8 reals, as a record of them loads (su3.h, qf_su3_pack): a01, a02 and a10 in
 * their places, the phases of a00 (re) and a20 (im) in e[0][0]. Row 0 and column 0 are unit vectors,
 * which gives |a00| and |a20|; for a unitary matrix of det 1 each entry is the conjugate of its
 * cofactor, which gives the other four linearly:
 *   a11 = -(conj(a00) a01 a10 + conj(a02 a20)) / n,   a12 = (conj(a01 a20) - conj(a00) a02 a10) / n,
 *   a21 = conj(a02 a10 - a00 a12),                     a22 = conj(a00 a11 - a01 a10),
 * n = |a01|^2 + |a02|^2 = 1 - |a00|^2 (singular only where a00 has modulus 1, as in QUDA). */
static inline QF_HD_INLINE void QF_K(qf_su3_unpack8)(QF_K(qf_su3) *m)
{
    QF_K(qf_real) ph0 = m->e[0][0].re, ph2 = m->e[0][0].im;
    QF_K(qf_complex) a01 = m->e[0][1], a02 = m->e[0][2], a10 = m->e[1][0];
    QF_K(qf_real) n = QF_K(qf_cnorm2)(a01) + QF_K(qf_cnorm2)(a02);
    QF_K(qf_real) r0 = QF_K(qf_real_sqrt_nonneg)(1 - n), s0, c0, s2, c2;
    QF_K(qf_real_sincos)(ph0, &s0, &c0);
    QF_K(qf_real_sincos)(ph2, &s2, &c2);
    QF_K(qf_complex) a00 = QF_K(qf_cmake)(r0 * c0, r0 * s0);
    QF_K(qf_real) r2 = QF_K(qf_real_sqrt_nonneg)(1 - QF_K(qf_cnorm2)(a00) - QF_K(qf_cnorm2)(a10));
    QF_K(qf_complex) a20 = QF_K(qf_cmake)(r2 * c2, r2 * s2);
    QF_K(qf_real) inv_n = 1 / n;
    QF_K(qf_complex) t = QF_K(qf_cconjmul)(a00, QF_K(qf_cmul)(a01, a10)); /* conj(a00) a01 a10 */
    QF_K(qf_complex) a11 = QF_K(qf_cscale)(-inv_n, QF_K(qf_cadd)(t, QF_K(qf_cconj)(QF_K(qf_cmul)(a02, a20))));
    t = QF_K(qf_cconjmul)(a00, QF_K(qf_cmul)(a02, a10));
    QF_K(qf_complex) a12 = QF_K(qf_cscale)(inv_n, QF_K(qf_csub)(QF_K(qf_cconj)(QF_K(qf_cmul)(a01, a20)), t));
    m->e[0][0] = a00;
    m->e[1][1] = a11;
    m->e[1][2] = a12;
    m->e[2][0] = a20;
    m->e[2][1] = QF_K(qf_cconj)(QF_K(qf_csub)(QF_K(qf_cmul)(a02, a10), QF_K(qf_cmul)(a00, a12)));
    m->e[2][2] = QF_K(qf_cconj)(QF_K(qf_csub)(QF_K(qf_cmul)(a00, a11), QF_K(qf_cmul)(a01, a10)));
}

#ifndef QF_KIND_UNPACK8_STORED
/* qf_su3_unpack8 of reals stored in prec: a kind that computes in its own precision ignores prec (the
 * scalar kind has its own, su3.h). */
static inline QF_HD_INLINE void QF_K(qf_su3_unpack8_stored)(QF_K(qf_su3) *m, qf_precision prec)
{
    (void)prec;
    QF_K(qf_su3_unpack8)(m);
}
#endif
