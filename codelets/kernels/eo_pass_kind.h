/* The site kernels of the even-odd pass (eo_pass.h) for one precision: a site's colours in vectors, as
 * openQCD keeps them. A vector (QF_P(vec)) holds two complex numbers: one colour of two spins. A Wilson
 * spinor is six of them, up[c] = (psi_0, psi_1)[c] and lo[c] = (psi_2, psi_3)[c], a half spinor three,
 * and a link multiplies a half spinor by broadcasting its entries, so that nothing is transposed and a
 * site's hop sum stays in six registers. Included by eo_pass.h once per precision with QF_P(name)
 * pasting the suffix and QF_P_REAL the real type; no include guard, on purpose. */

typedef QF_P_REAL QF_P(vec) __attribute__((vector_size(4 * sizeof(QF_P_REAL))));
typedef QF_P_REAL QF_P(cpx) __attribute__((vector_size(2 * sizeof(QF_P_REAL))));

typedef struct {
    QF_P(vec) up[3], lo[3];
} QF_P(spinor);

typedef struct {
    QF_P(vec) c[3];
} QF_P(half);

static inline __attribute__((always_inline)) QF_P(vec) QF_P(splat)(QF_P_REAL r) { return (QF_P(vec)){r, r, r, r}; }

/* With QF_P_VEX (the versions compiled for x86-64-v3 and v4) a broadcast and a join come straight from
 * memory, by inline assembly: GCC otherwise loads a link's row as a vector and spreads it by lane
 * permutes, and joins two halves by a register shuffle, both on the shuffle ports the arithmetic needs
 * (the asm's registers are the first 16, which VEX encodes). */
static inline __attribute__((always_inline)) QF_P(vec) QF_P(splat_at)(const QF_P_REAL *e)
{
#if QF_P_VEX
    QF_P(vec) v;
    if (sizeof(QF_P_REAL) == 8) __asm__("vbroadcastsd %1, %0" : "=x"(v) : "m"(*e));
    else __asm__("vbroadcastss %1, %0" : "=x"(v) : "m"(*e));
    return v;
#else
    return QF_P(splat)(*e);
#endif
}

static inline __attribute__((always_inline)) QF_P(spinor) QF_P(spinor_zero)(void)
{
    QF_P(spinor) s;
    QF_UNROLL
    for (int c = 0; c < 3; c++) s.up[c] = s.lo[c] = QF_P(splat)(0);
    return s;
}

/* The complex numbers at a and b as one vector, and the reverse. */
static inline __attribute__((always_inline)) QF_P(vec) QF_P(load2)(const QF_P_REAL *a, const QF_P_REAL *b)
{
#if QF_P_VEX
    QF_P(vec) v;
    if (sizeof(QF_P_REAL) == 8)
        __asm__("vmovupd %1, %x0\n\tvinsertf128 $1, %2, %0, %0"
                : "=&x"(v)
                : "m"(*(const QF_P(cpx) *)a), "m"(*(const QF_P(cpx) *)b));
    else
        __asm__("vmovsd %1, %0\n\tvmovhps %2, %0, %0" : "=&x"(v) : "m"(*(const QF_P(cpx) *)a), "m"(*(const QF_P(cpx) *)b));
    return v;
#else
    QF_P(cpx) l, h;
    memcpy(&l, a, sizeof l);
    memcpy(&h, b, sizeof h);
    return __builtin_shufflevector(l, h, 0, 1, 2, 3);
#endif
}

static inline __attribute__((always_inline)) void QF_P(store2)(QF_P_REAL *a, QF_P_REAL *b, QF_P(vec) v)
{
    QF_P(cpx) l = __builtin_shufflevector(v, v, 0, 1), h = __builtin_shufflevector(v, v, 2, 3);
    memcpy(a, &l, sizeof l);
    memcpy(b, &h, sizeof h);
}

/* a - b in the real parts, a + b in the imaginary ones (one instruction where SSE3 or AVX is on). */
static inline __attribute__((always_inline)) QF_P(vec) QF_P(addsub)(QF_P(vec) a, QF_P(vec) b)
{
    return __builtin_shufflevector(a - b, a + b, 0, 5, 2, 7);
}

/* (re, im) -> (im, re) in both numbers; the two numbers swapped; both. */
static inline __attribute__((always_inline)) QF_P(vec) QF_P(swap_ri)(QF_P(vec) v)
{
    return __builtin_shufflevector(v, v, 1, 0, 3, 2);
}
static inline __attribute__((always_inline)) QF_P(vec) QF_P(swap_pair)(QF_P(vec) v)
{
    return __builtin_shufflevector(v, v, 2, 3, 0, 1);
}
static inline __attribute__((always_inline)) QF_P(vec) QF_P(swap_both)(QF_P(vec) v)
{
    return __builtin_shufflevector(v, v, 3, 2, 1, 0);
}

/* A stored spinor (24 reals [spin][colour][re, im]); lo_swapped: lo[c] = (psi_3, psi_2)[c], the order in
 * which the x and y projections read it. */
static inline __attribute__((always_inline)) QF_P(spinor) QF_P(spinor_load)(const QF_P_REAL *p, int lo_swapped)
{
    QF_P(spinor) s;
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        s.up[c] = QF_P(load2)(p + 2 * c, p + 6 + 2 * c);
        s.lo[c] = lo_swapped ? QF_P(load2)(p + 18 + 2 * c, p + 12 + 2 * c) : QF_P(load2)(p + 12 + 2 * c, p + 18 + 2 * c);
    }
    return s;
}

static inline __attribute__((always_inline)) void QF_P(spinor_store)(QF_P_REAL *p, const QF_P(spinor) *s)
{
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        QF_P(store2)(p + 2 * c, p + 6 + 2 * c, s->up[c]);
        QF_P(store2)(p + 12 + 2 * c, p + 18 + 2 * c, s->lo[c]);
    }
}

/* Whether direction mu's projection reads the lower spins swapped (B_mu off the diagonal: x and y). */
static inline int QF_P(reads_swapped)(int mu) { return mu < 2; }

/* h = psi_upper + t B_mu psi_lower (kernels/wilson.h), given lo in the order reads_swapped(mu) says:
 * x: (psi_0 + t i psi_3, psi_1 + t i psi_2); y: (psi_0 - t psi_3, psi_1 + t psi_2);
 * z: (psi_0 + t i psi_2, psi_1 - t i psi_3); t: (psi_0 + t psi_2, psi_1 + t psi_3). */
static inline __attribute__((always_inline)) QF_P(half) QF_P(project)(const QF_P(vec) up[3], const QF_P(vec) lo[3],
                                                                     int mu, QF_P_REAL t)
{
    QF_P(half) h;
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        switch (mu) {
        case 0: h.c[c] = up[c] + QF_P(swap_ri)(lo[c]) * (QF_P(vec)){-t, t, -t, t}; break;
        case 1: h.c[c] = up[c] + lo[c] * (QF_P(vec)){-t, -t, t, t}; break;
        case 2: h.c[c] = up[c] + QF_P(swap_ri)(lo[c]) * (QF_P(vec)){-t, t, t, -t}; break;
        default: h.c[c] = up[c] + lo[c] * QF_P(splat)(t); break;
        }
    }
    return h;
}

/* The lower spins' share t B_mu^dagger r of a projected hop r (upper share: r itself), in the order
 * (psi_2, psi_3). */
static inline __attribute__((always_inline)) QF_P(vec) QF_P(lower_share)(QF_P(vec) r, int mu, QF_P_REAL t)
{
    switch (mu) {
    case 0: return QF_P(swap_both)(r) * (QF_P(vec)){t, -t, t, -t}; /* (-i t r_1, -i t r_0) */
    case 1: return QF_P(swap_pair)(r) * (QF_P(vec)){t, t, -t, -t};  /* (t r_1, -t r_0) */
    case 2: return QF_P(swap_ri)(r) * (QF_P(vec)){t, -t, -t, t};    /* (-i t r_0, i t r_1) */
    default: return r * QF_P(splat)(t);
    }
}

/* h times the phase pr + i pi. */
static inline __attribute__((always_inline)) void QF_P(half_phase)(QF_P(half) *h, QF_P_REAL pr, QF_P_REAL pi)
{
    const QF_P(vec) i_sign = {-1, 1, -1, 1};
    QF_UNROLL
    for (int i = 0; i < 3; i++) h->c[i] = h->c[i] * QF_P(splat)(pr) + QF_P(swap_ri)(h->c[i]) * i_sign * QF_P(splat)(pi);
}

/* A face's half spinor record (12 reals [spin][colour][re, im], kernels/wilson.h) and back. */
static inline __attribute__((always_inline)) QF_P(half) QF_P(half_load)(const QF_P_REAL *p)
{
    QF_P(half) h;
    QF_UNROLL
    for (int c = 0; c < 3; c++) h.c[c] = QF_P(load2)(p + 2 * c, p + 6 + 2 * c);
    return h;
}

static inline __attribute__((always_inline)) void QF_P(half_store)(QF_P_REAL *p, const QF_P(half) *h)
{
    QF_UNROLL
    for (int c = 0; c < 3; c++) QF_P(store2)(p + 2 * c, p + 6 + 2 * c, h->c[c]);
}

/* U h, or U^dagger h, for a stored link u (18 reals [row][column][re, im]), times the boundary phase
 * (pr, pi) where cross is set: the real parts of U's entries times h and their imaginary parts times h
 * with re and im swapped, summed apart and joined by one addsub a row. */
static inline __attribute__((always_inline)) QF_P(half) QF_P(link_mul)(const QF_P_REAL *u, const QF_P(half) *h,
                                                                      int dagger, int cross, QF_P_REAL pr,
                                                                      QF_P_REAL pi)
{
    QF_P(vec) sh[3];
    QF_UNROLL
    for (int j = 0; j < 3; j++) sh[j] = QF_P(swap_ri)(h->c[j]);
    QF_P(half) r;
    QF_UNROLL
    for (int i = 0; i < 3; i++) {
        QF_P(vec) re = QF_P(splat)(0), im = QF_P(splat)(0);
        QF_UNROLL
        for (int j = 0; j < 3; j++) {
            const QF_P_REAL *e = dagger ? u + 2 * (3 * j + i) : u + 2 * (3 * i + j);
            re += QF_P(splat_at)(e) * h->c[j];
            if (dagger) im -= QF_P(splat_at)(e + 1) * sh[j]; /* conj(U_ji) */
            else im += QF_P(splat_at)(e + 1) * sh[j];
        }
        r.c[i] = QF_P(addsub)(re, im);
    }
    if (cross) QF_P(half_phase)(&r, pr, pi);
    return r;
}

/* acc += (1 + t g_mu) U psi given the product r = U h of its projection. */
static inline __attribute__((always_inline)) void QF_P(reconstruct_add)(QF_P(spinor) *acc, const QF_P(half) *r, int mu,
                                                                       QF_P_REAL t)
{
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        acc->up[c] += r->c[c];
        acc->lo[c] += QF_P(lower_share)(r->c[c], mu, t);
    }
}

/* C psi for a stored clover record (72 reals, kernels/clover.h): both chiral blocks at once, block 0 in
 * the low and block 1 in the high number of each vector. w[i] holds entry i = 3 s + c of both blocks'
 * six-vectors (spins 0, 1 and 2, 3). */
static inline __attribute__((always_inline)) QF_P(spinor) QF_P(clover_mul)(const QF_P_REAL *cl, const QF_P(spinor) *psi)
{
    QF_P(vec) w[6], sw[6], re[6], im[6], o[6];
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        w[c] = __builtin_shufflevector(psi->up[c], psi->lo[c], 0, 1, 4, 5);     /* (psi_0, psi_2)[c] */
        w[3 + c] = __builtin_shufflevector(psi->up[c], psi->lo[c], 2, 3, 6, 7); /* (psi_1, psi_3)[c] */
    }
    QF_UNROLL
    for (int i = 0; i < 6; i++) {
        sw[i] = QF_P(swap_ri)(w[i]);
        re[i] = (QF_P(vec)){cl[i], cl[i], cl[36 + i], cl[36 + i]} * w[i];
        im[i] = QF_P(splat)(0);
    }
    QF_UNROLL
    for (int i = 1; i < 6; i++)
        QF_UNROLL
        for (int j = 0; j < i; j++) { /* L[i][j] and its conjugate A[j][i], as link_mul's sums */
            int off = qf_clover_lower_offset(i, j);
            QF_P(vec) k = QF_P(load2)(cl + off, cl + 36 + off);
            QF_P(vec) kr = __builtin_shufflevector(k, k, 0, 0, 2, 2), ki = __builtin_shufflevector(k, k, 1, 1, 3, 3);
            re[i] += kr * w[j];
            im[i] += ki * sw[j];
            re[j] += kr * w[i];
            im[j] -= ki * sw[i];
        }
    QF_UNROLL
    for (int i = 0; i < 6; i++) o[i] = QF_P(addsub)(re[i], im[i]);
    QF_P(spinor) r;
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        r.up[c] = __builtin_shufflevector(o[c], o[3 + c], 0, 1, 4, 5);
        r.lo[c] = __builtin_shufflevector(o[c], o[3 + c], 2, 3, 6, 7);
    }
    return r;
}

static inline __attribute__((always_inline)) QF_P(spinor) QF_P(spinor_scale)(const QF_P(spinor) *s, QF_P_REAL a)
{
    QF_P(spinor) r;
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        r.up[c] = s->up[c] * QF_P(splat)(a);
        r.lo[c] = s->lo[c] * QF_P(splat)(a);
    }
    return r;
}

/* ---- the pass's sites (eo_pass.h) ---- */

/* Odd site so, its even neighbours nb[mu][0] = x + mu and nb[mu][1] = x - mu, cross[mu][dir] where the
 * hop to them crosses the lattice's boundary: t = s C (D_oe in)(x) in registers, then out += D_eo t on
 * the eight neighbours, each hop with the link it shares with the gather. With open (a constant) the
 * site is one of an open block's (qf_eo_open_site o, qf_eo_faces f): a hop that leaves the block takes
 * its source from in's face and hands its scatter to t's face, and a scatter into an even site on a face
 * adds t in f's units. */
static inline __attribute__((always_inline)) void QF_P(odd_site)(QF_P_REAL *out, const QF_P_REAL *in,
                                                                const QF_P_REAL *gauge, const QF_P_REAL *clover_odd,
                                                                int64_t so, const int64_t nb[QF_NDIM][2],
                                                                const unsigned char cross[QF_NDIM][2],
                                                                const qf_eo_pass *p, const int dagger, const int open,
                                                                const qf_eo_open_site *o, const qf_eo_faces *f)
{
    const QF_P_REAL tf = dagger ? 1 : -1, tb = -tf; /* the forward hop's 1 - s g_mu, the backward's 1 + s g_mu */
    const QF_P_REAL *own = gauge + so * QF_LINKS_REALS;
    QF_P(spinor) acc = QF_P(spinor_zero)();
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++)
        QF_UNROLL
        for (int dir = 0; dir < 2; dir++) {
            QF_P_REAL t = dir ? tb : tf;
            int cross_phase = cross[mu][dir] && p->phased >> mu & 1;
            QF_P_REAL pr = (QF_P_REAL)p->phase[mu][0], pi = (QF_P_REAL)(dir ? -p->phase[mu][1] : p->phase[mu][1]);
            QF_P(half) r;
            if (open && o->leaves[mu][dir]) { /* the neighbour projected it, and backward multiplied it too */
                const QF_P_REAL *e = (const QF_P_REAL *)f->in_face[2 * mu + !dir] + o->face[mu] * QF_HALF_SPINOR_REALS;
                r = QF_P(half_load)(e);
                if (!dir) r = QF_P(link_mul)(own + mu * QF_SU3_REALS, &r, 0, cross_phase, pr, pi);
                else if (cross_phase) QF_P(half_phase)(&r, pr, pi);
            } else {
                QF_P(spinor) psi = QF_P(spinor_load)(in + nb[mu][dir] * QF_SPINOR_REALS, QF_P(reads_swapped)(mu));
                QF_P(half) h = QF_P(project)(psi.up, psi.lo, mu, t);
                const QF_P_REAL *u = (dir ? gauge + nb[mu][1] * QF_LINKS_REALS : own) + mu * QF_SU3_REALS;
                r = QF_P(link_mul)(u, &h, dir, cross_phase, pr, pi);
            }
            QF_P(reconstruct_add)(&acc, &r, mu, t);
        }
    if (clover_odd) acc = QF_P(clover_mul)(clover_odd + so * QF_CLOVER_REALS, &acc);
    acc = QF_P(spinor_scale)(&acc, (QF_P_REAL)p->s);
    /* [0]: t as the even sites inside take it; [1]: in f's units, for the faces */
    QF_P(spinor) tk[2] = {acc, acc};
    if (open) tk[1] = QF_P(spinor_scale)(&acc, (QF_P_REAL)f->t_scale);
    QF_P(vec) lo_swapped[2][3];
    QF_UNROLL
    for (int k = 0; k < 1 + open; k++)
        QF_UNROLL
        for (int c = 0; c < 3; c++) lo_swapped[k][c] = QF_P(swap_pair)(tk[k].lo[c]);
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++)
        QF_UNROLL
        for (int dir = 0; dir < 2; dir++) {
            /* to x + mu the backward hop, with U_mu(x)^dagger; to x - mu the forward hop, with U_mu(x - mu) */
            QF_P_REAL t = dir ? tf : tb;
            int leaves = open && o->leaves[mu][dir], k = open && (leaves || o->raw[mu][dir]);
            QF_P(half) h = QF_P(project)(tk[k].up, QF_P(reads_swapped)(mu) ? lo_swapped[k] : tk[k].lo, mu, t);
            if (leaves) { /* as wilson_gather writes t's side-1 (U^dagger times projected) and side-0 faces */
                QF_P_REAL *e = (QF_P_REAL *)f->t_face[2 * mu + !dir] + o->face[mu] * QF_HALF_SPINOR_REALS;
                if (!dir) h = QF_P(link_mul)(own + mu * QF_SU3_REALS, &h, 1, 0, 1, 0);
                QF_P(half_store)(e, &h);
                continue;
            }
            const QF_P_REAL *u = (dir ? gauge + nb[mu][1] * QF_LINKS_REALS : own) + mu * QF_SU3_REALS;
            int cross_phase = cross[mu][dir] && p->phased >> mu & 1;
            QF_P(half) r = QF_P(link_mul)(u, &h, !dir, cross_phase, (QF_P_REAL)p->phase[mu][0],
                                          (QF_P_REAL)(dir ? p->phase[mu][1] : -p->phase[mu][1]));
            QF_P_REAL *y = out + nb[mu][dir] * QF_SPINOR_REALS;
            QF_P(spinor) ov = QF_P(spinor_load)(y, 0);
            QF_P(reconstruct_add)(&ov, &r, mu, t);
            QF_P(spinor_store)(y, &ov);
        }
}

/* Even site s before the odd sites scatter into it: out = a C x (clover_at_x), a x, or 0 (the hops'
 * clover is applied after them). */
static inline __attribute__((always_inline)) void QF_P(even_start)(QF_P_REAL *out, const QF_P_REAL *x,
                                                                  const QF_P_REAL *clover_even, int64_t s,
                                                                  const qf_eo_pass *p)
{
    QF_P(spinor) o = QF_P(spinor_zero)();
    if (p->even_clover != QF_CLOVER_HOPS) {
        QF_P(spinor) xs = QF_P(spinor_load)(x + s * QF_SPINOR_REALS, 0);
        if (p->even_clover == QF_CLOVER_X) xs = QF_P(clover_mul)(clover_even + s * QF_CLOVER_REALS, &xs);
        o = QF_P(spinor_scale)(&xs, (QF_P_REAL)p->a);
    }
    QF_P(spinor_store)(out + s * QF_SPINOR_REALS, &o);
}

/* An even site on an open block's face before the odd sites scatter into it: its partial hop sum starts
 * at zero (qf_eo_faces). */
static inline __attribute__((always_inline)) void QF_P(even_clear)(QF_P_REAL *out, int64_t s)
{
    QF_P(spinor) o = QF_P(spinor_zero)();
    QF_P(spinor_store)(out + s * QF_SPINOR_REALS, &o);
}

/* Even site s after the scatters, where the clover acts on the hops: out = a x + b C out. */
static inline __attribute__((always_inline)) void QF_P(even_finish)(QF_P_REAL *out, const QF_P_REAL *x,
                                                                   const QF_P_REAL *clover_even, int64_t s,
                                                                   const qf_eo_pass *p)
{
    QF_P(spinor) o = QF_P(spinor_load)(out + s * QF_SPINOR_REALS, 0);
    o = QF_P(clover_mul)(clover_even + s * QF_CLOVER_REALS, &o);
    QF_P(spinor) xs = QF_P(spinor_load)(x + s * QF_SPINOR_REALS, 0);
    QF_UNROLL
    for (int c = 0; c < 3; c++) {
        o.up[c] = o.up[c] * QF_P(splat)((QF_P_REAL)p->b) + xs.up[c] * QF_P(splat)((QF_P_REAL)p->a);
        o.lo[c] = o.lo[c] * QF_P(splat)((QF_P_REAL)p->b) + xs.lo[c] * QF_P(splat)((QF_P_REAL)p->a);
    }
    QF_P(spinor_store)(out + s * QF_SPINOR_REALS, &o);
}
