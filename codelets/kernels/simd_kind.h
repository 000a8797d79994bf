/* The primitives of one CPU batch kind (kernels/kind.h, kernels/simd.h): QF_KW sites, one a lane.
 * Included once per batch kind by kernels/simd.h, with QF_K and QF_KW defined and QF_K(qf_real),
 * QF_K(qf_elem) (the stored real), QF_K(qf_chunk), QF_K(qf_chunks_load_join), QF_K(qf_chunk_of), QF_K(qf_transpose),
 * QF_K(qf_real_from), the integer vector QF_K(qf_bits) of QF_K(qf_bits_elem) with the lane bits
 * QF_K(qf_lane_bits), and the kind's complex type declared. No include guard, on purpose. */

typedef struct { QF_K(qf_complex) e[3][3]; } QF_K(qf_su3);
/* Every lane names a record of the field, also a lane outside the mask of its loads and stores
 * (some record: loads are then harmless and stores skip it), so loads need no test. run: lane l
 * names record i[0] + l in every lane, which is what most batches of a block walk hold (qf_walk);
 * the loads and stores then address the lanes from one pointer, with the lane offsets folded into
 * the instructions, instead of working out and reading eight indices a record (a third of the
 * interior kernel's instructions before, 2026-11-23). */
typedef struct { int64_t i[QF_KW]; int run; } QF_K(qf_lanes);
/* The kernels pass indices around by value: a pointer, since a copy of the lanes was most of the
 * integer work left in the interior kernel. */
typedef const QF_K(qf_lanes) *QF_K(qf_index);
typedef unsigned QF_K(qf_mask); /* bit l: lane l */

static inline QF_HD_INLINE int QF_K(qf_mask_any)(QF_K(qf_mask) m) { return m != 0; }
static inline QF_HD_INLINE QF_K(qf_mask) QF_K(qf_mask_not)(QF_K(qf_mask) m) { return ~m & ((1u << QF_KW) - 1); }

/* v in the lanes of m, 0 in the others. */
static inline QF_HD_INLINE QF_K(qf_real) QF_K(qf_real_keep)(QF_K(qf_real) v, QF_K(qf_mask) m)
{
    QF_K(qf_bits) keep = (QF_K(qf_lane_bits) & (QF_K(qf_bits_elem))m) != 0; /* all ones in the lanes of m */
    return (QF_K(qf_real))((QF_K(qf_bits))v & keep);
}

/* v in the lanes of m, w in the others. */
static inline QF_HD_INLINE QF_K(qf_real) QF_K(qf_real_select)(QF_K(qf_mask) m, QF_K(qf_real) v, QF_K(qf_real) w)
{
    QF_K(qf_bits) keep = (QF_K(qf_lane_bits) & (QF_K(qf_bits_elem))m) != 0;
    return (QF_K(qf_real))(((QF_K(qf_bits))v & keep) | ((QF_K(qf_bits))w & ~keep));
}

/* first, first + 1, ... in the lanes of m (the lowest lanes), first in the others. */
static inline QF_HD_INLINE QF_K(qf_lanes) QF_K(qf_lanes_run)(int64_t first, QF_K(qf_mask) m)
{
    QF_K(qf_lanes) r;
    QF_UNROLL
    for (int l = 0; l < QF_KW; l++) r.i[l] = m >> l & 1 ? first + l : first;
    r.run = m == (1u << QF_KW) - 1;
    return r;
}

/* Makes *x the run first, first + 1, ... if all its records lie in the field (nrec of them), so that
 * every lane, also one outside a mask, names a record; 0 (and *x unchanged) if not. A run's loads and
 * stores read lane 0 only; the other lanes keep the records they named, which the per-lane path of a
 * store with a partial mask reads (the lanes it stores are first + l there too). */
static inline QF_HD_INLINE int QF_K(qf_lanes_set_run)(QF_K(qf_lanes) *x, int64_t first, int64_t nrec)
{
    if (first < 0 || first + QF_KW > nrec) return 0;
    x->i[0] = first;
    x->run = 1;
    return 1;
}

/* Marks *x a run if the lanes in m name consecutive records, lane l record first + l (qf_lanes_set_run). */
static inline QF_HD_INLINE void QF_K(qf_lanes_mark_run)(QF_K(qf_lanes) *x, QF_K(qf_mask) m, int64_t nrec)
{
    x->run = 0;
    if (!m) return;
    int l0 = __builtin_ctz(m);
    int64_t first = x->i[l0] - l0;
    for (int l = l0; l < QF_KW; l++)
        if (m >> l & 1 && x->i[l] != first + l) return;
    QF_K(qf_lanes_set_run)(x, first, nrec);
}

/* Runs stmt with p[l] the address of real off of lane l's record (i, records of rec reals from base,
 * p an array of pointers to the kind's stored real): worked out from one pointer when i is a run, and
 * stmt is then inlined once for each case, so that the lane offsets become constants of its
 * instructions. */
#define QF_RECORD_PTRS(p, base, i, rec, off, stmt)                                                             \
    do {                                                                                                       \
        if ((i)->run) {                                                                                        \
            __typeof__(p[0]) p0_ = (__typeof__(p[0]))(base) + (i)->i[0] * (rec) + (off);                     \
            QF_UNROLL                                                                                          \
            for (int l_ = 0; l_ < QF_KW; l_++) p[l_] = p0_ + l_ * (rec);                                       \
            stmt;                                                                                              \
        } else {                                                                                               \
            QF_UNROLL                                                                                          \
            for (int l_ = 0; l_ < QF_KW; l_++) p[l_] = (__typeof__(p[0]))(base) + (i)->i[l_] * (rec) + (off);  \
            stmt;                                                                                              \
        }                                                                                                      \
    } while (0)

#ifdef QF_KIND_HALF
/* ---- half records (QF_KIND_HALF: the float kind also takes fields in half) ----
 * A half field (reals.h: 16-bit components and a float norm a record, in tiles of QF_HALF_TILE records)
 * is loaded into and stored from this kind's float vectors, so that half runs the batch kernels and
 * computes in float, as the GPU's half kernels do (half_float_kind.h); the values loaded and stored are
 * the scalar float kind's. A tile keeps chunk c (components 4c .. 4c + 3) of its records side by side,
 * 8 bytes each: a run of 8 sites inside one tile (most batches) reads a chunk as 64 contiguous bytes,
 * two sites a 16-byte load widened to floats, then transposed by two-source shuffles. Other lanes are
 * read 8 bytes a lane and transposed as single-precision records are (kernels/simd.h). */
typedef int16_t QF_K(qf_half4) __attribute__((vector_size(8)));
typedef int16_t QF_K(qf_half8) __attribute__((vector_size(16)));
typedef int32_t QF_K(qf_int8) __attribute__((vector_size(32)));
_Static_assert(QF_KW == 8, "the half loads fill 8 lanes");
enum { QF_K(qf_half_chunk_stride) = QF_HALF_TILE * 8 }; /* bytes from a record's chunk c to its chunk c + 1 */

/* Runs stmt with q[l] the address of lane l's component chunk 0, nrm[l] that of its norm, and in_tile
 * 1 where the lanes are a run inside one tile (q[l] = q[0] + 8 l, nrm[l] = nrm[0] + l, the lane offsets
 * folded into the instructions), 0 otherwise. */
#define QF_HALF_LANE_PTRS(q, nrm, in_tile, base, i, rec, stmt)                                                 \
    do {                                                                                                       \
        if ((i)->run && (i)->i[0] % QF_HALF_TILE + QF_KW <= QF_HALF_TILE) {                                    \
            const char *q0_ = (const char *)qf_half_component_ptr(base, (size_t)(i)->i[0], rec, 0, QF_HALF_TILES); \
            const float *n0_ = qf_half_norm_at(base, (size_t)(i)->i[0], rec, QF_HALF_TILES);                  \
            QF_UNROLL                                                                                          \
            for (int l_ = 0; l_ < QF_KW; l_++) {                                                               \
                q[l_] = q0_ + 8 * l_;                                                                          \
                nrm[l_] = n0_ + l_;                                                                            \
            }                                                                                                  \
            const int in_tile = 1;                                                                             \
            stmt;                                                                                              \
        } else {                                                                                               \
            QF_UNROLL                                                                                          \
            for (int l_ = 0; l_ < QF_KW; l_++) {                                                               \
                size_t r_ = (size_t)((i)->run ? (i)->i[0] + l_ : (i)->i[l_]);                                  \
                q[l_] = (const char *)qf_half_component_ptr(base, r_, rec, 0, QF_HALF_TILES);                  \
                nrm[l_] = qf_half_norm_at(base, r_, rec, QF_HALF_TILES);                                       \
            }                                                                                                  \
            const int in_tile = 0;                                                                             \
            stmt;                                                                                              \
        }                                                                                                      \
    } while (0)

static inline QF_HD_INLINE QF_K(qf_real) QF_K(qf_half_widen)(QF_K(qf_half8) h)
{
    return __builtin_convertvector(__builtin_convertvector(h, QF_K(qf_int8)), QF_K(qf_real));
}

/* The 8 components at p widened to floats. GCC 12 widens a 16-byte vector of int16 into a 32-byte one
 * of int32 in two 128-bit halves and an insert (five instructions with the load); AVX2 does it in one
 * from memory (vpmovsxwd ymm, m128), which the batch kinds may use where they use vinsertf128
 * (kernels/simd.h's QF_LOAD_JOIN, and not under QF_SIMD_PORTABLE either). */
static inline QF_HD_INLINE QF_K(qf_real) QF_K(qf_half_widen_load)(const char *p)
{
#if defined(__x86_64__) && (defined(QF_CPU_DISPATCH) || defined(__AVX2__)) && !defined(QF_SIMD_PORTABLE)
    QF_K(qf_int8) r;
    __asm__("vpmovsxwd %1, %0" : "=x"(r) : "m"(*(const QF_K(qf_half8) *)p));
    return __builtin_convertvector(r, QF_K(qf_real));
#else
    QF_K(qf_half8) h;
    memcpy(&h, p, sizeof h);
    return QF_K(qf_half_widen)(h);
#endif
}

/* y[j] = component 4c + j of every lane, as stored (not yet scaled by the norms). */
static inline QF_HD_INLINE void QF_K(qf_half_chunk_load)(const char *const q[QF_KW], int in_tile, int c,
                                                         QF_K(qf_real) y[4])
{
    enum { H = QF_KW / 2 };
    if (in_tile) { /* r[k]: the chunks of lanes 2k and 2k + 1 */
        QF_K(qf_real) r[H];
        QF_UNROLL
        for (int k = 0; k < H; k++) r[k] = QF_K(qf_half_widen_load)(q[0] + c * QF_K(qf_half_chunk_stride) + 16 * k);
        QF_K(qf_real) t0 = QF_SHUFFLE(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
        QF_K(qf_real) t1 = QF_SHUFFLE(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
        QF_K(qf_real) t2 = QF_SHUFFLE(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
        QF_K(qf_real) t3 = QF_SHUFFLE(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
        y[0] = QF_SHUFFLE(t0, t2, 0, 4, 1, 5, 8, 12, 9, 13);
        y[1] = QF_SHUFFLE(t0, t2, 2, 6, 3, 7, 10, 14, 11, 15);
        y[2] = QF_SHUFFLE(t1, t3, 0, 4, 1, 5, 8, 12, 9, 13);
        y[3] = QF_SHUFFLE(t1, t3, 2, 6, 3, 7, 10, 14, 11, 15);
        return;
    }
    QF_UNROLL
    for (int l = 0; l < H; l++) { /* y[l]: the chunks of lanes l and l + H, as qf_record_load_at's */
        QF_K(qf_half4) lo, hi;
        memcpy(&lo, q[l] + c * QF_K(qf_half_chunk_stride), sizeof lo);
        memcpy(&hi, q[l + H] + c * QF_K(qf_half_chunk_stride), sizeof hi);
        y[l] = QF_K(qf_half_widen)(QF_SHUFFLE(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7));
    }
    QF_K(qf_transpose)(y);
}

/* The reverse of qf_half_chunk_load for the lanes in m, y[j] rounded components in [-QF_HALF_MAX,
 * QF_HALF_MAX] (or any value where the norm is not finite). */
static inline QF_HD_INLINE void QF_K(qf_half_chunk_store)(const char *const q[QF_KW], int in_tile, int c,
                                                          const QF_K(qf_real) y[4], QF_K(qf_mask) m)
{
    enum { H = QF_KW / 2 };
    QF_K(qf_real) r[H];
    if (in_tile && m == (1u << QF_KW) - 1) {
        QF_K(qf_real) u0 = QF_SHUFFLE(y[0], y[1], 0, 8, 1, 9, 2, 10, 3, 11);
        QF_K(qf_real) u1 = QF_SHUFFLE(y[2], y[3], 0, 8, 1, 9, 2, 10, 3, 11);
        QF_K(qf_real) u2 = QF_SHUFFLE(y[0], y[1], 4, 12, 5, 13, 6, 14, 7, 15);
        QF_K(qf_real) u3 = QF_SHUFFLE(y[2], y[3], 4, 12, 5, 13, 6, 14, 7, 15);
        r[0] = QF_SHUFFLE(u0, u1, 0, 1, 8, 9, 2, 3, 10, 11);
        r[1] = QF_SHUFFLE(u0, u1, 4, 5, 12, 13, 6, 7, 14, 15);
        r[2] = QF_SHUFFLE(u2, u3, 0, 1, 8, 9, 2, 3, 10, 11);
        r[3] = QF_SHUFFLE(u2, u3, 4, 5, 12, 13, 6, 7, 14, 15);
        QF_UNROLL
        for (int k = 0; k < H; k++) {
            QF_K(qf_half8) h = __builtin_convertvector(__builtin_convertvector(r[k], QF_K(qf_int8)), QF_K(qf_half8));
            memcpy((char *)q[0] + c * QF_K(qf_half_chunk_stride) + 16 * k, &h, sizeof h);
        }
        return;
    }
    memcpy(r, y, sizeof r);
    QF_K(qf_transpose)(r);
    QF_UNROLL
    for (int l = 0; l < H; l++) {
        QF_K(qf_half8) h = __builtin_convertvector(__builtin_convertvector(r[l], QF_K(qf_int8)), QF_K(qf_half8));
        QF_K(qf_half4) lo = QF_SHUFFLE(h, h, 0, 1, 2, 3), hi = QF_SHUFFLE(h, h, 4, 5, 6, 7);
        if (m >> l & 1) memcpy((char *)q[l] + c * QF_K(qf_half_chunk_stride), &lo, sizeof lo);
        if (m >> (l + H) & 1) memcpy((char *)q[l + H] + c * QF_K(qf_half_chunk_stride), &hi, sizeof hi);
    }
}

/* v[k] = real off + k of each lane's half record, n of them. */
static inline QF_HD_INLINE void QF_K(qf_half_load_at)(const char *const q[QF_KW], const float *const nrm[QF_KW],
                                                      int in_tile, int off, QF_K(qf_real) *v, int n)
{
    QF_K(qf_real) s;
    if (in_tile) memcpy(&s, nrm[0], sizeof s); /* one load: the lanes' norms side by side */
    else {
        QF_UNROLL
        for (int l = 0; l < QF_KW; l++) s[l] = *nrm[l];
    }
    s *= (float)(1.0 / QF_HALF_MAX);
    QF_UNROLL
    for (int c = off / 4; 4 * c < off + n; c++) {
        QF_K(qf_real) y[4];
        QF_K(qf_half_chunk_load)(q, in_tile, c, y);
        QF_UNROLL
        for (int j = 0; j < 4; j++) {
            int k = 4 * c + j - off;
            if (k >= 0 && k < n) v[k] = y[j] * s;
        }
    }
}

/* Each lane's half record, all rec reals of it (a norm covers the record), for the lanes in m: the
 * largest magnitude (NaN or infinity make the norm NaN), then the components rint(v QF_HALF_MAX / norm)
 * (reals.h's qf_half_extent_f, qf_half_norm_f, qf_half_components_scale_f, qf_half_component_f). The
 * norm is the largest |v| itself, so |v| QF_HALF_MAX / norm in float is at most QF_HALF_MAX + 0.004 and
 * rounds to QF_HALF_MAX at most: the scalar kinds' clamp never acts on finite values and is left out. */
static inline QF_HD_INLINE void QF_K(qf_half_store_at)(const char *const q[QF_KW], const float *const nrm[QF_KW],
                                                       int in_tile, const QF_K(qf_real) *v, int rec, QF_K(qf_mask) m)
{
    const QF_K(qf_bits) sign = (QF_K(qf_bits))QF_K(qf_real_from)(-0.0);
    const QF_K(qf_real) zero = QF_K(qf_real_from)(0.0);
    QF_K(qf_real) big = zero;
    QF_K(qf_bits) finite = ~(QF_K(qf_bits)){0};
    QF_UNROLL
    for (int k = 0; k < rec; k++) {
        QF_K(qf_real) a = (QF_K(qf_real))((QF_K(qf_bits))v[k] & ~sign);
        finite &= a <= QF_K(qf_real_from)(3.4e38);
        QF_UNROLL
        for (int l = 0; l < QF_KW; l++) big[l] = a[l] > big[l] ? a[l] : big[l]; /* vmaxps */
    }
    QF_K(qf_real) norm =
        (QF_K(qf_real))(((QF_K(qf_bits))big & finite) | ((QF_K(qf_bits))QF_K(qf_real_from)(NAN) & ~finite));
    QF_K(qf_real) scale = (QF_K(qf_real))((QF_K(qf_bits))(QF_K(qf_real_from)(QF_HALF_MAX) / norm) & (norm > zero));
    QF_UNROLL
    for (int c = 0; c < rec / 4; c++) {
        QF_K(qf_real) y[4];
        QF_UNROLL
        for (int j = 0; j < 4; j++) {
            QF_K(qf_real) x = v[4 * c + j] * scale;
            QF_UNROLL
            for (int l = 0; l < QF_KW; l++) y[j][l] = rintf(x[l]); /* vroundps */
        }
        QF_K(qf_half_chunk_store)(q, in_tile, c, y, m);
    }
    if (in_tile && m == (1u << QF_KW) - 1) {
        memcpy((float *)nrm[0], &norm, sizeof norm);
        return;
    }
    QF_UNROLL
    for (int l = 0; l < QF_KW; l++)
        if (m >> l & 1) *(float *)nrm[l] = norm[l];
}
#endif

/* v[k] = real off + k of record i, each lane its own record: QF_KW / 2 reals of every lane at a time
 * (kernels/simd.h); a last, shorter run is loaded as the QF_KW / 2 reals that end the record's run,
 * overlapping the run before (n >= QF_KW / 2). */
static inline QF_HD_INLINE void QF_K(qf_record_load_at)(const QF_K(qf_elem) *const p[QF_KW], QF_K(qf_real) *v, int n)
{
    enum { H = QF_KW / 2 };
    QF_UNROLL
    for (int k0 = 0; k0 < n; k0 += H) {
        int k = k0 + H <= n ? k0 : n - H;
        QF_K(qf_real) r[H];
        QF_UNROLL
        for (int l = 0; l < H; l++) {
            r[l] = QF_K(qf_chunks_load_join)(p[l] + k, p[l + H] + k);
        }
        QF_K(qf_transpose)(r);
        QF_UNROLL
        for (int j = k0 - k; j < H; j++) v[k + j] = r[j];
    }
}

static inline QF_HD_INLINE void QF_K(qf_record_load)(const void *base, qf_precision prec, QF_K(qf_index) i, int rec,
                                                     int off, QF_K(qf_real) *v, int n)
{
#ifdef QF_KIND_HALF
    if (prec == QF_HALF) {
        const char *q[QF_KW];
        const float *nrm[QF_KW];
        QF_HALF_LANE_PTRS(q, nrm, in_tile, base, i, rec, QF_K(qf_half_load_at)(q, nrm, in_tile, off, v, n));
        return;
    }
#endif
    (void)prec; /* otherwise a batch kind's storage precision is its own */
    const QF_K(qf_elem) *p[QF_KW];
    QF_RECORD_PTRS(p, base, i, rec, off, QF_K(qf_record_load_at)(p, v, n));
}

/* The reverse of qf_record_load_at. An overlapping last run stores again the values the run before
 * stored. */
static inline QF_HD_INLINE void QF_K(qf_record_store_at)(QF_K(qf_elem) *const p[QF_KW], const QF_K(qf_real) *v, int n)
{
    enum { H = QF_KW / 2 };
    QF_UNROLL
    for (int k0 = 0; k0 < n; k0 += H) {
        int k = k0 + H <= n ? k0 : n - H;
        QF_K(qf_real) r[H];
        QF_UNROLL
        for (int j = 0; j < H; j++) r[j] = v[k + j];
        QF_K(qf_transpose)(r);
        QF_UNROLL
        for (int l = 0; l < QF_KW; l++) {
            QF_K(qf_chunk) h = QF_K(qf_chunk_of)(r[l % H], l >= H);
            memcpy(p[l] + k, &h, sizeof h);
        }
    }
}

/* The reverse of qf_record_load, for the lanes in m; the others write to a local sink instead, which
 * keeps the stores free of branches (n <= QF_SPINOR_REALS: spinors and half spinors are stored). */
static inline QF_HD_INLINE void QF_K(qf_record_store)(void *base, qf_precision prec, QF_K(qf_index) i, int rec, int off,
                                                      const QF_K(qf_real) *v, int n, QF_K(qf_mask) m)
{
#ifdef QF_KIND_HALF
    if (prec == QF_HALF) { /* whole records: off 0, n rec */
        (void)off, (void)n;
        const char *q[QF_KW];
        const float *nrm[QF_KW];
        QF_HALF_LANE_PTRS(q, nrm, in_tile, base, i, rec, QF_K(qf_half_store_at)(q, nrm, in_tile, v, rec, m));
        return;
    }
#endif
    (void)prec;
    QF_K(qf_elem) *p[QF_KW];
    if (m == (1u << QF_KW) - 1 && i->run) {
        QF_K(qf_elem) *p0 = (QF_K(qf_elem) *)base + i->i[0] * rec + off;
        QF_UNROLL
        for (int l = 0; l < QF_KW; l++) p[l] = p0 + l * rec;
        QF_K(qf_record_store_at)(p, v, n);
        return;
    }
    QF_K(qf_elem) sink[QF_SPINOR_REALS];
    QF_UNROLL
    for (int l = 0; l < QF_KW; l++) p[l] = m >> l & 1 ? (QF_K(qf_elem) *)base + i->i[l] * rec + off : sink;
    QF_K(qf_record_store_at)(p, v, n);
}

/* ---- sites ---- */

/* Up to QF_KW output sites of a block walk (kernels/simd.h) with their geometry, worked out when the
 * batch is filled: their storage indices, and for each hop (mu, dir) the lanes whose source lies in
 * the block and its storage index (an interior walk), or the lanes whose hop comes through a face and
 * the face entry (an exterior walk). Lanes past the walk's end repeat the first site, outside every
 * mask; a lane outside a hop's mask keeps the source an earlier batch gave it (some record of the
 * same field: start from a zeroed batch). */
typedef struct QF_K(qf_sites_s) {
    QF_K(qf_lanes) site;
    QF_K(qf_index) s; /* &site */
    QF_K(qf_mask) valid, face; /* the lanes with a site; those with a face hop */
    QF_K(qf_mask) hop[QF_NDIM][2];
    QF_K(qf_mask) wrapped[QF_NDIM][2]; /* lanes whose hop wraps around the block (qf_wilson_args.wrap) */
    QF_K(qf_lanes) src[QF_NDIM][2];
    const struct QF_K(qf_sites_s) *ahead; /* the batch the loop computes next, if any */
} QF_K(qf_sites);

/* Fills q with the next sites of walk w and the geometry that kind asks for (qf_sites_kind; the face
 * entries go to src[0][0]); 0 when none was left. Integer work only, kept out of the kernels
 * (noinline): inlined, it competed with their vectors for registers. It works on runs (qf_walk): the
 * sites of a run share x[1..3], and their hop sources in the block are a run too (the walk's layout
 * rule), so one storage index a run and hop does; a batch that is one run gets its indices as runs
 * (qf_lanes), whose other lanes are not written. */
static __attribute__((noinline)) int QF_K(qf_sites_fill)(QF_K(qf_sites) *q, qf_walk *w, qf_sites_kind kind, int src_parity)
{
    const int *ext = w->ext;
    struct { int first, n, x[QF_NDIM]; int64_t s; } run[QF_KW]; /* lanes first .. first + n - 1 */
    int nrun = 0, n = 0;
    while (n < QF_KW) {
        if (w->n == 0 && !qf_walk_next_run(w)) break;
        int k = w->n < QF_KW - n ? w->n : QF_KW - n;
        run[nrun].first = n;
        run[nrun].n = k;
        run[nrun].s = w->s;
        memcpy(run[nrun].x, w->x, sizeof w->x);
        nrun++;
        for (int j = 0; j < k; j++) q->site.i[n + j] = w->s + j;
        n += k;
        w->x[0] += 2 * k;
        w->s += k;
        w->n -= k;
    }
    if (n == 0) return 0;
    q->valid = (1u << n) - 1;
    for (int l = n; l < QF_KW; l++) q->site.i[l] = q->site.i[0];
    q->s = &q->site;
    q->face = 0;
    const int wrap = w->wrap;
    for (int r = 0; r < nrun; r++) {
        const int *x = run[r].x;
        int first = run[r].first, k = run[r].n, last_x0 = x[0] + 2 * (k - 1);
        int row_on = 0; /* x[1..3] on a face: the whole run is */
        for (int nu = 1; nu < QF_NDIM; nu++) row_on |= qf_walk_on_faces(w, nu, x[nu]);
        if (row_on) q->face |= ((1u << k) - 1) << first;
        if (!(wrap & 1) && x[0] == 0) q->face |= 1u << first;
        if (!(wrap & 1) && last_x0 == ext[0] - 1) q->face |= 1u << (first + k - 1);
    }
    /* one run filling the batch: its sites, and their hop sources in the block, are runs of records */
    const int single = nrun == 1 && n == QF_KW;
    const int64_t volume = qf_volume(ext);
    if (single) q->site.run = 1;
    else QF_K(qf_lanes_mark_run)(&q->site, q->valid, volume);
    if (kind == QF_SITES_ENTRIES) {
        const int step = qf_parity_face_row_step(w->mu, src_parity);
        for (int r = 0; r < nrun; r++) {
            int64_t f = qf_parity_face_index(run[r].x, ext, w->mu, w->side, src_parity);
            for (int j = 0; j < run[r].n; j++) q->src[0][0].i[run[r].first + j] = f + j * step;
        }
        for (int l = n; l < QF_KW; l++) q->src[0][0].i[l] = q->src[0][0].i[0];
        QF_K(qf_lanes_mark_run)(&q->src[0][0], q->valid, qf_parity_face_sites(ext, w->mu, src_parity));
        return 1;
    }
    memset(q->hop, 0, sizeof q->hop);
    memset(q->wrapped, 0, sizeof q->wrapped);
    for (int mu = 0; mu < QF_NDIM; mu++) q->src[mu][0].run = q->src[mu][1].run = 0;
    /* qf_block_site_index of a hop source, from the run's own: the lexicographic strides of the
     * block are even but in x, so a hop moves the lexicographic index by a stride and flips parity */
    const int64_t half = volume / 2, stride[QF_NDIM] = {1, ext[0], (int64_t)ext[0] * ext[1],
                                                        (int64_t)ext[0] * ext[1] * ext[2]};
    for (int r = 0; r < nrun; r++) {
        int first = run[r].first, k = run[r].n, last_x0 = run[r].x[0] + 2 * (k - 1);
        int parity = qf_parity(run[r].x);
        int64_t lex = 2 * (run[r].s - parity * half) + (run[r].x[0] & 1);
        for (int mu = 0; mu < QF_NDIM; mu++)
            for (int dir = 0; dir < 2; dir++) {
                int y[QF_NDIM] = {run[r].x[0], run[r].x[1], run[r].x[2], run[r].x[3]};
                int edge = dir ? 0 : ext[mu] - 1, wraps = wrap >> mu & 1;
                const int64_t step = dir ? -stride[mu] : stride[mu], around = dir ? ext[mu] * stride[mu] : -ext[mu] * stride[mu];
                if (kind == QF_SITES_FACES && wraps) continue; /* no face in mu */
                /* the run's lanes j0 .. j1 - 1 take the hop from the block (HOPS) or through the face (FACES);
                 * in a wrapping block the hops that leave it come back across its other face */
                int j0 = 0, j1 = k;
                if (mu == 0) {
                    int first_on = y[0] == edge, last_on = last_x0 == edge;
                    if (kind == QF_SITES_HOPS) {
                        j0 = first_on;
                        j1 = k - last_on;
                        if (wraps && (first_on || last_on)) { /* the edge lane's source, across the block */
                            int j = first_on ? 0 : k - 1;
                            q->hop[mu][dir] |= 1u << (first + j);
                            q->wrapped[mu][dir] |= 1u << (first + j);
                            q->src[mu][dir].i[first + j] = (1 - parity) * half + ((lex + 2 * j + step + around) >> 1);
                        }
                    } else {
                        j0 = first_on ? 0 : k - 1;
                        j1 = first_on || last_on ? j0 + 1 : j0;
                    }
                } else if ((y[mu] == edge) == (kind == QF_SITES_HOPS)) {
                    if (!(kind == QF_SITES_HOPS && wraps)) continue;
                    /* the whole run's hop wraps: its sources are a run across the block */
                    int64_t base = (1 - parity) * half + ((lex + step + around) >> 1);
                    q->hop[mu][dir] |= ((1u << k) - 1) << first;
                    q->wrapped[mu][dir] |= ((1u << k) - 1) << first;
                    QF_K(qf_lanes) *src = &q->src[mu][dir];
                    if (single && QF_K(qf_lanes_set_run)(src, base, volume)) continue;
                    for (int j = 0; j < k; j++) src->i[first + j] = base + j;
                    continue;
                }
                if (j0 >= j1) continue;
                q->hop[mu][dir] |= ((1u << (j1 - j0)) - 1) << (first + j0);
                QF_K(qf_lanes) *src = &q->src[mu][dir];
                if (kind == QF_SITES_HOPS) {
                    /* the source of lane first + j is base + j */
                    int64_t base = (1 - parity) * half + ((lex + step) >> 1);
                    if (single && !q->wrapped[mu][dir] && QF_K(qf_lanes_set_run)(src, base, volume)) continue;
                    for (int j = j0; j < j1; j++) src->i[first + j] = base + j;
                } else {
                    y[0] += 2 * j0;
                    y[mu] = dir ? ext[mu] - 1 : 0;
                    int64_t f = qf_parity_face_index(y, ext, mu, dir, src_parity);
                    const int step = qf_parity_face_row_step(mu, src_parity);
                    for (int j = j0; j < j1; j++) src->i[first + j] = f + (j - j0) * step;
                }
            }
    }
    /* the other batches' hop sources and face entries may be runs too (a face is ordered as the block) */
    for (int mu = 0; mu < QF_NDIM; mu++)
        for (int dir = 0; dir < 2; dir++)
            if (!q->src[mu][dir].run)
                QF_K(qf_lanes_mark_run)(&q->src[mu][dir], q->hop[mu][dir],
                                        kind == QF_SITES_FACES ? qf_parity_face_sites(ext, mu, src_parity) : volume);
    return 1;
}

/* The batches of the walk of key into plan[0 .. max - 1], each filled from a zeroed batch (a lane outside
 * a hop's mask then names record 0, which every field has), s and ahead pointing into the plan; returns
 * their number, counting on past max (max 0: the size of the plan). */
static inline int64_t QF_K(qf_sites_plan_fill)(QF_K(qf_sites) *plan, int64_t max, const qf_sites_key *key)
{
    QF_K(qf_sites) scratch;
    qf_walk w;
    qf_walk_of_key(&w, key);
    int64_t n = 0;
    for (;;) {
        QF_K(qf_sites) *q = n < max ? &plan[n] : &scratch;
        memset(q, 0, sizeof *q);
        if (!QF_K(qf_sites_fill)(q, &w, (qf_sites_kind)key->kind, key->src_parity)) break;
        n++;
    }
    for (int64_t i = 0; i < n && i < max; i++) {
        plan[i].s = &plan[i].site;
        plan[i].ahead = i + 1 < n ? &plan[i + 1] : NULL;
    }
    return n;
}

/* The kernels' prefetches fill the second-level cache, not the first (prefetcht1, not prefetcht0):
 * a batch prefetches some 150 lines that miss every cache, more than the first-level cache has miss
 * buffers, and with prefetcht0 they held those buffers until the lines came, stalling the kernel's own
 * loads. Measured on the 2-core VM (Zen 4), one 16x8x8x8 block of 32 sets of fields (out of cache):
 * interior 180 -> 75-95 ns a site, exterior 75 -> 40-50 ns; in the cache no change. The hint
 * is also where Intel's cores put prefetcht1 (2026-11-24). */
#define QF_PREFETCH(p) __builtin_prefetch((p), 0, 2)

/* Prefetches n reals from p[l] in every lane: a lane outside a mask names some record of the field
 * too, and a test would cost more than the prefetch. A line every 64 bytes and the last byte: the
 * parts prefetched here hold 48 to 288 bytes at multiples of 16 (at most one more line than their
 * length needs). */
static inline QF_HD_INLINE void QF_K(qf_prefetch_at)(const QF_K(qf_elem) *const p[QF_KW], int n)
{
    enum { LINE = 64 };
    const int bytes = n * (int)sizeof(QF_K(qf_elem));
    QF_UNROLL
    for (int l = 0; l < QF_KW; l++) {
        const char *c = (const char *)p[l];
        QF_UNROLL
        for (int b = 0; b < bytes - LINE; b += LINE) QF_PREFETCH(c + b);
        QF_PREFETCH(c + bytes - 1);
    }
}

/* Prefetches reals off .. off + n - 1 of records i (rec reals each) of a field in precision prec: a
 * run of whole records as one stretch of memory. */
#ifdef QF_KIND_HALF
/* Prefetches chunks off / 4 .. (off + n - 1) / 4 and the norms of a run inside one tile: a line a chunk. */
static inline QF_HD_INLINE void QF_K(qf_half_prefetch)(const void *base, QF_K(qf_index) i, int rec, int off, int n)
{
    if (!i->run || i->i[0] % QF_HALF_TILE + QF_KW > QF_HALF_TILE) return;
    const char *q0 = (const char *)qf_half_component_ptr(base, (size_t)i->i[0], rec, 0, QF_HALF_TILES);
    QF_UNROLL
    for (int m = off / 4; 4 * m < off + n; m++) {
        QF_PREFETCH(q0 + m * QF_K(qf_half_chunk_stride));
        QF_PREFETCH(q0 + m * QF_K(qf_half_chunk_stride) + 8 * QF_KW - 1);
    }
    QF_PREFETCH(qf_half_norm_at(base, (size_t)i->i[0], rec, QF_HALF_TILES));
}
#endif

static inline QF_HD_INLINE void QF_K(qf_prefetch_records)(const void *base, qf_precision prec, QF_K(qf_index) i,
                                                         int rec, int off, int n)
{
#ifdef QF_KIND_HALF
    if (prec == QF_HALF) {
        QF_K(qf_half_prefetch)(base, i, rec, off, n);
        return;
    }
#endif
    (void)prec;
    if (i->run && n == rec) {
        enum { LINE = 64 };
        const char *c = (const char *)((const QF_K(qf_elem) *)base + i->i[0] * rec);
        const int bytes = QF_KW * rec * (int)sizeof(QF_K(qf_elem));
        QF_UNROLL
        for (int b = 0; b < bytes; b += LINE) QF_PREFETCH(c + b);
        QF_PREFETCH(c + bytes - 1);
        return;
    }
    const QF_K(qf_elem) *p[QF_KW];
    QF_RECORD_PTRS(p, base, i, rec, off, QF_K(qf_prefetch_at)(p, n));
}

/* What the batch after q (q->ahead) will load, prefetched while q is computed, a hop or a finishing
 * step at a time (wilson.h's qf_sites_prefetch_hop and qf_sites_prefetch_sites): the hardware
 * prefetchers do not follow the fifteen or so streams of a hop kernel, and the kernel's own loads
 * leave the memory idle while it computes. Measured on the 2-core VM with two blocks not in the
 * cache at once: 20% less time; in the cache: 13% more. A hop whose sources across the block's face
 * lie elsewhere (far_src, and far_gauge where the links are the sources': a neighbour block's, or the
 * block itself where it wraps) prefetches there for a next batch whose lanes all cross. */
static inline QF_HD_INLINE void QF_K(qf_sites_prefetch_hop)(const QF_K(qf_sites) *q, qf_precision prec, int mu, int dir,
                                                            const void *src, const void *far_src, int src_rec,
                                                            const void *gauge, const void *far_gauge, int link_reals,
                                                            int link_at_src)
{
    const QF_K(qf_sites) *n = q->ahead;
    if (!n || !n->hop[mu][dir]) return; /* no lane of the next batch takes that hop */
    if (n->wrapped[mu][dir] == n->hop[mu][dir]) { /* every lane's source across the face: far_src's */
        src = far_src;
        if (link_at_src) gauge = far_gauge;
    }
    QF_K(qf_prefetch_records)(src, prec, &n->src[mu][dir], src_rec, 0, src_rec);
    if (gauge)
        QF_K(qf_prefetch_records)(gauge, prec, link_at_src ? &n->src[mu][dir] : n->s, QF_NDIM * link_reals,
                                  mu * link_reals, link_reals);
}

static inline QF_HD_INLINE void QF_K(qf_sites_prefetch_sites)(const QF_K(qf_sites) *q, qf_precision prec,
                                                              const void *base, int rec)
{
    if (q->ahead && base) QF_K(qf_prefetch_records)(base, prec, q->ahead->s, rec, 0, rec);
}

/* The geometry of wilson.h's scalar sites, for a batch. */
static inline QF_HD_INLINE QF_K(qf_mask) QF_K(qf_sites_hop)(const QF_K(qf_sites) *q, int mu, int dir,
                                                            const qf_wilson_args *a, QF_K(qf_index) *nb,
                                                            QF_K(qf_mask) *wrapped)
{
    (void)a;
    *nb = &q->src[mu][dir];
    *wrapped = q->wrapped[mu][dir];
    return q->hop[mu][dir];
}

static inline QF_HD_INLINE QF_K(qf_mask) QF_K(qf_sites_on_face)(const QF_K(qf_sites) *q, const qf_wilson_args *a)
{
    (void)a;
    return q->face;
}

static inline QF_HD_INLINE QF_K(qf_mask) QF_K(qf_sites_valid)(const QF_K(qf_sites) *q) { return q->valid; }

static inline QF_HD_INLINE QF_K(qf_mask) QF_K(qf_sites_face_entry)(const QF_K(qf_sites) *q, int mu, int dir,
                                                                   const qf_wilson_args *a, int src_parity,
                                                                   QF_K(qf_index) *f)
{
    (void)a;
    (void)src_parity;
    *f = &q->src[mu][dir];
    return q->hop[mu][dir];
}
