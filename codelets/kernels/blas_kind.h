/* The arithmetic of the BLAS-1 kernels (blas.h) on complex values of one kind (kernels/kind.h): written
 * once, included for double (no suffix: every field but half on CPUs, double and single fields on GPUs),
 * for float (_sf: half records on GPUs, whose 15 bits a component float holds; QUDA's half BLAS computes
 * in float too) and for the CPU's float batch kind (_f8: half records on CPUs, 8 at a time, one a lane;
 * blas_units.h). The callers load the operands an operation reads and store what it returns; an operand
 * it does not read is ignored. A coefficient is one number in every kind (qf_blas_nonzero tests it). No
 * include guard, on purpose. */

/* y + c x */
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_blas_caxpy_value)(QF_K(qf_complex) y, QF_K(qf_complex) c, QF_K(qf_complex) x)
{
    return QF_K(qf_cadd)(y, QF_K(qf_cmul)(c, x));
}

/* blas_update's new y (qf_blas_update_op): x; a x + b y (x ignored where a == 0: garbage times 0 is not 0;
 * y where b == 0); y + c x; x + c y; w x; conj(w) x; x + c w; a x + c.re w + b y */
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_blas_update_value)(int op, QF_K(qf_complex) y, QF_K(qf_complex) x,
                                                                       QF_K(qf_complex) w, QF_K(qf_real) a, QF_K(qf_real) b,
                                                                       QF_K(qf_complex) c)
{
    QF_K(qf_complex) r;
    if (op == QF_BLAS_COPY) {
        r = x;
    } else if (op == QF_BLAS_AXPBY) {
        r = QF_K(qf_blas_nonzero)(a) ? QF_K(qf_cscale)(a, x) : QF_K(qf_cmake)(QF_K(qf_real_from)(0), QF_K(qf_real_from)(0));
        if (QF_K(qf_blas_nonzero)(b)) r = QF_K(qf_cadd)(r, QF_K(qf_cscale)(b, y));
    } else if (op == QF_BLAS_CAXPY) {
        r = QF_K(qf_blas_caxpy_value)(y, c, x);
    } else if (op == QF_BLAS_MUL) {
        r = QF_K(qf_cmul)(w, x);
    } else if (op == QF_BLAS_CONJ_MUL) {
        r = QF_K(qf_cconjmul)(w, x);
    } else if (op == QF_BLAS_XPCW) {
        r = QF_K(qf_blas_caxpy_value)(x, c, w);
    } else if (op == QF_BLAS_AXPBYPCW) {
        r = QF_K(qf_cadd)(QF_K(qf_cscale)(a, x), QF_K(qf_cscale)(c.re, w));
        if (QF_K(qf_blas_nonzero)(b)) r = QF_K(qf_cadd)(r, QF_K(qf_cscale)(b, y));
    } else {
        r = QF_K(qf_blas_caxpy_value)(x, c, y);
    }
    return r;
}

/* blas_cg_update: x + c p, r - c q */
static inline QF_HD_INLINE void QF_K(qf_blas_cg_value)(QF_K(qf_complex) *x, QF_K(qf_complex) *r, QF_K(qf_complex) c,
                                                       QF_K(qf_complex) p, QF_K(qf_complex) q)
{
    *x = QF_K(qf_blas_caxpy_value)(*x, c, p);
    *r = QF_K(qf_csub)(*r, QF_K(qf_cmul)(c, q));
}

/* blas_bicgstab_update: x + c p + w s, and r = s - w t */
static inline QF_HD_INLINE void QF_K(qf_blas_bicgstab_value)(QF_K(qf_complex) *x, QF_K(qf_complex) *r, QF_K(qf_complex) c,
                                                             QF_K(qf_complex) p, QF_K(qf_complex) w, QF_K(qf_complex) s,
                                                             QF_K(qf_complex) t)
{
    *x = QF_K(qf_blas_caxpy_value)(QF_K(qf_blas_caxpy_value)(*x, c, p), w, s);
    *r = QF_K(qf_csub)(s, QF_K(qf_cmul)(w, t));
}

/* blas_bicgstab_p: r + beta (p - omega v) */
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_blas_bicgstab_p_value)(QF_K(qf_complex) p, QF_K(qf_complex) r,
                                                                           QF_K(qf_complex) v, QF_K(qf_complex) beta,
                                                                           QF_K(qf_complex) omega)
{
    return QF_K(qf_blas_caxpy_value)(r, beta, QF_K(qf_csub)(p, QF_K(qf_cmul)(omega, v)));
}
