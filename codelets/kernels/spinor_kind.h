/* Wilson colour-spinors of one site kind (kernels/kind.h), included once per kind: the spinor and half
 * spinor types, the loads and stores of spinors, half spinors (face sites) and links, and the
 * colour algebra of the hops. Record layouts: spinor.h and su3.h. No include guard, on purpose. */

typedef struct { QF_K(qf_complex) s[4][3]; } QF_K(qf_spinor);
typedef struct { QF_K(qf_complex) h[2][3]; } QF_K(qf_half_spinor);

/* n <= QF_COMPLEX_RUN_MAX complex numbers from or to the reals off .. off + 2 n - 1 of record i. */
static inline QF_HD_INLINE void QF_K(qf_complex_record_load)(const void *base, qf_precision prec, QF_K(qf_index) i,
                                                             int rec, int off, QF_K(qf_complex) *z, int n)
{
    QF_K(qf_real) v[2 * QF_COMPLEX_RUN_MAX];
    QF_K(qf_record_load)(base, prec, i, rec, off, v, 2 * n);
    QF_UNROLL
    for (int k = 0; k < n; k++) z[k] = QF_K(qf_cmake)(v[2 * k], v[2 * k + 1]);
}

static inline QF_HD_INLINE void QF_K(qf_complex_record_store)(void *base, qf_precision prec, QF_K(qf_index) i, int rec,
                                                              int off, const QF_K(qf_complex) *z, int n, QF_K(qf_mask) m)
{
    QF_K(qf_real) v[2 * QF_COMPLEX_RUN_MAX];
    QF_UNROLL
    for (int k = 0; k < n; k++) {
        v[2 * k] = z[k].re;
        v[2 * k + 1] = z[k].im;
    }
    QF_K(qf_record_store)(base, prec, i, rec, off, v, 2 * n, m);
}

/* U_mu(site) of a gauge field whose links keep the reals recon says (su3_kind.h rebuilds the rest).
 * One call a case, so that each load's length is a constant and its loops unroll. */
static inline QF_HD_INLINE QF_K(qf_su3) QF_K(qf_link_load)(const void *gauge, qf_precision prec, qf_recon recon,
                                                           QF_K(qf_index) site, int mu)
{
    QF_K(qf_su3) u;
    if (recon == QF_RECON_12) {
        QF_K(qf_complex_record_load)(gauge, prec, site, QF_NDIM * 12, mu * 12, &u.e[0][0], 6);
        QF_K(qf_su3_complete_row3)(&u);
    } else if (recon == QF_RECON_8) {
        QF_K(qf_complex_record_load)(gauge, prec, site, QF_NDIM * 8, mu * 8, &u.e[0][0], 4);
        QF_K(qf_su3_unpack8_stored)(&u, prec);
    } else {
        QF_K(qf_complex_record_load)(gauge, prec, site, QF_LINKS_REALS, mu * QF_SU3_REALS, &u.e[0][0], 9);
    }
    return u;
}

static inline QF_HD_INLINE QF_K(qf_spinor) QF_K(qf_spinor_load)(const void *base, qf_precision prec, QF_K(qf_index) site)
{
    QF_K(qf_spinor) s;
    QF_K(qf_complex_record_load)(base, prec, site, QF_SPINOR_REALS, 0, &s.s[0][0], 12);
    return s;
}

static inline QF_HD_INLINE void QF_K(qf_spinor_store)(void *base, qf_precision prec, QF_K(qf_index) site,
                                                      const QF_K(qf_spinor) *s, QF_K(qf_mask) m)
{
    QF_K(qf_complex_record_store)(base, prec, site, QF_SPINOR_REALS, 0, &s->s[0][0], 12, m);
}

static inline QF_HD_INLINE QF_K(qf_half_spinor) QF_K(qf_half_load)(const void *base, qf_precision prec, QF_K(qf_index) f)
{
    QF_K(qf_half_spinor) h;
    QF_K(qf_complex_record_load)(base, prec, f, QF_HALF_SPINOR_REALS, 0, &h.h[0][0], 6);
    return h;
}

static inline QF_HD_INLINE void QF_K(qf_half_store)(void *base, qf_precision prec, QF_K(qf_index) f,
                                                    const QF_K(qf_half_spinor) *h, QF_K(qf_mask) m)
{
    QF_K(qf_complex_record_store)(base, prec, f, QF_HALF_SPINOR_REALS, 0, &h->h[0][0], 6, m);
}

/* h in the lanes of m, 0 in the others: a hop that a lane does not take adds nothing. */
static inline QF_HD_INLINE void QF_K(qf_half_keep)(QF_K(qf_half_spinor) *h, QF_K(qf_mask) m)
{
    QF_UNROLL
    for (int r = 0; r < 2; r++) {
        QF_UNROLL
        for (int c = 0; c < 3; c++)
            h->h[r][c] = QF_K(qf_cmake)(QF_K(qf_real_keep)(h->h[r][c].re, m), QF_K(qf_real_keep)(h->h[r][c].im, m));
    }
}

/* a in the lanes of m, b in the others */
static inline QF_HD_INLINE QF_K(qf_spinor) QF_K(qf_spinor_select)(QF_K(qf_mask) m, const QF_K(qf_spinor) *a,
                                                                  const QF_K(qf_spinor) *b)
{
    QF_K(qf_spinor) r;
    QF_UNROLL
    for (int s = 0; s < 4; s++) {
        QF_UNROLL
        for (int c = 0; c < 3; c++)
            r.s[s][c] = QF_K(qf_cmake)(QF_K(qf_real_select)(m, a->s[s][c].re, b->s[s][c].re),
                                       QF_K(qf_real_select)(m, a->s[s][c].im, b->s[s][c].im));
    }
    return r;
}

static inline QF_HD_INLINE QF_K(qf_spinor) QF_K(qf_spinor_zero)(void)
{
    QF_K(qf_spinor) s;
    QF_UNROLL
    for (int a = 0; a < 4; a++) {
        QF_UNROLL
        for (int c = 0; c < 3; c++) s.s[a][c] = QF_K(qf_cmake)(QF_K(qf_real_from)(0.0), QF_K(qf_real_from)(0.0));
    }
    return s;
}

/* a x + b y (real a, b) */
static inline QF_HD_INLINE QF_K(qf_spinor) QF_K(qf_spinor_axpby)(double a, const QF_K(qf_spinor) *x, double b,
                                                                 const QF_K(qf_spinor) *y)
{
    QF_K(qf_real) ra = QF_K(qf_real_from)(a), rb = QF_K(qf_real_from)(b);
    QF_K(qf_spinor) r;
    QF_UNROLL
    for (int s = 0; s < 4; s++) {
        QF_UNROLL
        for (int c = 0; c < 3; c++)
            r.s[s][c] = QF_K(qf_cmake)(ra * x->s[s][c].re + rb * y->s[s][c].re, ra * x->s[s][c].im + rb * y->s[s][c].im);
    }
    return r;
}

/* U v for a colour vector v */
static inline QF_HD_INLINE void QF_K(qf_su3_mul_vec)(const QF_K(qf_su3) *u, const QF_K(qf_complex) *v,
                                                     QF_K(qf_complex) *out)
{
    QF_UNROLL
    for (int i = 0; i < 3; i++) {
        QF_K(qf_complex) s = QF_K(qf_cmul)(u->e[i][0], v[0]);
        s = QF_K(qf_cmadd)(s, u->e[i][1], v[1]);
        out[i] = QF_K(qf_cmadd)(s, u->e[i][2], v[2]);
    }
}

/* U^dagger v */
static inline QF_HD_INLINE void QF_K(qf_su3_dagger_mul_vec)(const QF_K(qf_su3) *u, const QF_K(qf_complex) *v,
                                                            QF_K(qf_complex) *out)
{
    QF_UNROLL
    for (int i = 0; i < 3; i++) {
        QF_K(qf_complex) s = QF_K(qf_cconjmul)(u->e[0][i], v[0]);
        s = QF_K(qf_cconjmadd)(s, u->e[1][i], v[1]);
        out[i] = QF_K(qf_cconjmadd)(s, u->e[2][i], v[2]);
    }
}
