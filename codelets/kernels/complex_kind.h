/* Complex arithmetic of one site kind (kernels/kind.h): the complex type QF_K(qf_complex) over the
 * kind's real type QF_K(qf_real) and its operations. Included once per kind (qf_complex.h: double;
 * kernels/simd.h: the CPU batch kinds), with QF_K defined; the real type may be a GNU C vector, so
 * the operations use +, - and * only. No include guard, on purpose. */

typedef struct { QF_K(qf_real) re, im; } QF_K(qf_complex);

static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cmake)(QF_K(qf_real) re, QF_K(qf_real) im)
{
    QF_K(qf_complex) z;
    z.re = re;
    z.im = im;
    return z;
}
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cadd)(QF_K(qf_complex) a, QF_K(qf_complex) b)
{
    return QF_K(qf_cmake)(a.re + b.re, a.im + b.im);
}
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_csub)(QF_K(qf_complex) a, QF_K(qf_complex) b)
{
    return QF_K(qf_cmake)(a.re - b.re, a.im - b.im);
}
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cmul)(QF_K(qf_complex) a, QF_K(qf_complex) b)
{
    return QF_K(qf_cmake)(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
/* conj(a) * b */
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cconjmul)(QF_K(qf_complex) a, QF_K(qf_complex) b)
{
    return QF_K(qf_cmake)(a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re);
}
/* acc + a b and acc + conj(a) b, each product term added to acc in turn: where contraction is on
 * (the Dirac kernels) that is two fused multiply-adds a component. */
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cmadd)(QF_K(qf_complex) acc, QF_K(qf_complex) a, QF_K(qf_complex) b)
{
    return QF_K(qf_cmake)(acc.re + a.re * b.re - a.im * b.im, acc.im + a.re * b.im + a.im * b.re);
}
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cconjmadd)(QF_K(qf_complex) acc, QF_K(qf_complex) a, QF_K(qf_complex) b)
{
    return QF_K(qf_cmake)(acc.re + a.re * b.re + a.im * b.im, acc.im + a.re * b.im - a.im * b.re);
}
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cconj)(QF_K(qf_complex) a) { return QF_K(qf_cmake)(a.re, -a.im); }
static inline QF_HD_INLINE QF_K(qf_complex) QF_K(qf_cscale)(QF_K(qf_real) s, QF_K(qf_complex) a)
{
    return QF_K(qf_cmake)(s * a.re, s * a.im);
}
static inline QF_HD_INLINE QF_K(qf_real) QF_K(qf_cnorm2)(QF_K(qf_complex) a) { return a.re * a.re + a.im * a.im; }
