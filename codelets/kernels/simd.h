/* The CPU batch kinds of the Dirac site kernels (kernels/kind.h): _f8, 8 sites in float, for
 * single- and half-precision fields, and _d4, 4 sites in double, for double-precision fields. A site is
 * a lane of a 32-byte GNU C vector (GCC, Clang), so the CPU codelets compute single precision in float and
 * vectorise across sites over the ordinary site layout: the same record (a spinor, a link, a clover
 * block, a half spinor) of the batch's sites is loaded as runs of 8 (4) reals a site and transposed
 * in registers, so that real k of the record is one vector holding it for every site; stores
 * transpose back. Here: the vector types and transposes, a site iterator, and the kinds' set-up
 * (simd_kind.h, then the shared templates, then the codelets' loops in block_loops_kind.h). CPU only:
 * nvcc never includes this header. */
#ifndef QF_KERNEL_SIMD_H
#define QF_KERNEL_SIMD_H

#include "wilson.h"

#include <string.h>

typedef float qf_real_f8 __attribute__((vector_size(32)));
typedef double qf_real_d4 __attribute__((vector_size(32)));
typedef float qf_chunk_f8 __attribute__((vector_size(16))); /* a 16-byte chunk: half a vector */
typedef double qf_chunk_d4 __attribute__((vector_size(16)));
typedef float qf_elem_f8; /* the stored real of a kind */
typedef double qf_elem_d4;

/* Lanes picked from the concatenation of a and b (indices of a, then of b); the result has as many
 * lanes as indices. */
#if !defined(__clang__) && __GNUC__ < 12
#error "the CPU Dirac kernels need __builtin_shufflevector: GCC >= 12 or Clang"
#endif
#define QF_SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)

/* Integer vectors of the reals' width, for lane masks: lane l of qf_lane_bits is 1 << l. */
typedef int32_t qf_bits_elem_f8;
typedef int64_t qf_bits_elem_d4;
typedef qf_bits_elem_f8 qf_bits_f8 __attribute__((vector_size(32)));
typedef qf_bits_elem_d4 qf_bits_d4 __attribute__((vector_size(32)));
static const qf_bits_f8 qf_lane_bits_f8 = {1, 2, 4, 8, 16, 32, 64, 128};
static const qf_bits_d4 qf_lane_bits_d4 = {1, 2, 4, 8};

static inline QF_HD_INLINE qf_real_f8 qf_real_from_f8(double d)
{
    float f = (float)d;
    return (qf_real_f8){f, f, f, f, f, f, f, f};
}

static inline QF_HD_INLINE qf_real_d4 qf_real_from_d4(double d) { return (qf_real_d4){d, d, d, d}; }

/* What rebuilding reconstruct-8 links takes (su3_kind.h): square roots lane by lane (scalar square-root
 * instructions) ... */
#define QF_LANEWISE(K, T, name, expr)                                                                          \
    static inline QF_HD_INLINE qf_real_##K name##_##K(qf_real_##K x)                                          \
    {                                                                                                          \
        qf_real_##K r = x;                                                                                     \
        for (int l = 0; l < (int)(sizeof r / sizeof(T)); l++) {                                                \
            T v = x[l];                                                                                        \
            r[l] = expr;                                                                                       \
        }                                                                                                      \
        return r;                                                                                              \
    }
QF_LANEWISE(f8, float, qf_real_sqrt_nonneg, sqrtf(v > 0.0f ? v : 0.0f))
QF_LANEWISE(d4, double, qf_real_sqrt_nonneg, sqrt(v > 0.0 ? v : 0.0))
#undef QF_LANEWISE

/* ... and the cosine and sine of the stored phases (in [-pi, pi]) on whole vectors: libm's, a lane at a
 * time, made reconstruct-8 cost the CPU operator 2.8-3.3x two-row links (bench/RESULTS.md, "Reconstruct-8's
 * phases on whole vectors"). x = q pi/2 + r with q rounded to nearest (by adding and subtracting 1.5 2^(mantissa
 * bits)) and pi/2 in two parts, |r| <= pi/4; fdlibm's kernel polynomials in double, Cephes' in float;
 * then the quadrant q mod 4 swaps the two and sets their signs. Within 1 ulp of libm's for |x| <= pi
 * (2.2e-16 and 6e-8 absolute over 2 10^6 random phases). */
#define QF_SINCOS(K, T, I, MAGIC, PIO2_HI, PIO2_LO, SIN_POLY, COS_POLY)                                       \
    static inline QF_HD_INLINE void qf_real_sincos_##K(qf_real_##K x, qf_real_##K *s, qf_real_##K *c)       \
    {                                                                                                          \
        qf_real_##K q = (x * (T)0.63661977236758134308 + MAGIC) - MAGIC;                                       \
        qf_real_##K r = (x - q * PIO2_HI) - q * PIO2_LO, z = r * r;                                            \
        qf_real_##K sr = r + r * z * (SIN_POLY), cr = 1 - (T)0.5 * z + z * z * (COS_POLY);                     \
        I n = __builtin_convertvector(q, I);                                                                   \
        I swap = -(n & 1), sneg = (n & 2) != 0, cneg = ((n + 1) & 2) != 0;                                     \
        I sign = (I)((qf_real_##K){0} * (T)-1.0);                                                              \
        *s = (qf_real_##K)((((I)cr & swap) | ((I)sr & ~swap)) ^ (sign & sneg));                                \
        *c = (qf_real_##K)((((I)sr & swap) | ((I)cr & ~swap)) ^ (sign & cneg));                                \
    }
QF_SINCOS(f8, float, qf_bits_f8, 0x1.8p23f, 1.5707962513e+00f, 7.5497894159e-08f,
          -1.6666654611e-1f + z * (8.3321608736e-3f + z * -1.9515295891e-4f),
          4.166664568298827e-2f + z * (-1.388731625493765e-3f + z * 2.443315711809948e-5f))
QF_SINCOS(d4, double, qf_bits_d4, 0x1.8p52, 1.57079632673412561417e+00, 6.07710050650619224932e-11,
          -1.66666666666666324348e-01 +
              z * (8.33333333332248946124e-03 +
                   z * (-1.98412698298579493134e-04 +
                        z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))),
          4.16666666666666019037e-02 +
              z * (-1.38888888888741095749e-03 +
                   z * (2.48015872894767294178e-05 +
                        z * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))))
#undef QF_SINCOS

/* Records are moved between memory and registers 16 bytes a site at a time (4 floats, 2 doubles): a
 * vector is filled with 16 bytes of site l in its low half and 16 bytes of site l + QF_KW / 2 in
 * its high half (loads: qf_chunks_load_join; stores write the two halves apart), and QF_KW / 2 such
 * vectors are transposed within their 128-bit halves, which makes each vector one real of the 8 (4)
 * sites. That costs 2 shuffles a vector, where a full 8 x 8 transpose costs 3 (and crosses the
 * halves). The transposes below are their own inverses: loads and stores use the same one. */
static inline QF_HD_INLINE qf_real_f8 qf_chunks_join_f8(qf_chunk_f8 lo, qf_chunk_f8 hi)
{
    return QF_SHUFFLE(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

static inline QF_HD_INLINE qf_real_d4 qf_chunks_join_d4(qf_chunk_d4 lo, qf_chunk_d4 hi) { return QF_SHUFFLE(lo, hi, 0, 1, 2, 3); }

/* A vector of the 16 bytes at lo (low half) and the 16 at hi (high half), as the loads of records
 * take them. On x86-64 this is one 16-byte load and an insert from memory (vinsertf128 ymm, ymm, m128),
 * whose shuffle any of three ports runs; GCC compiles the join of two loaded chunks into a load, a
 * load and a shuffle from a register (vinsertf128 or vshuff32x4 ymm, ymm, xmm), which only port 5
 * runs, beside the transposes' shuffles. Measured on the 2-core VM (Intel Xeon, x86-64-v4) with
 * `quarkflow bench kernels --prec single|double` (one 16x8x8x8 block in the cache), the interior
 * kernel: single 106-122 -> 96-99 ns an output site, double 159-167 -> 152-156 (bench/RESULTS.md). The
 * batch kinds run in functions compiled for x86-64-v3 or v4 when QF_CPU_DISPATCH is set (cpu_versions.h),
 * and otherwise for the build's own target, so the instruction is used there and where __AVX__ is
 * defined; not where the includer defines QF_SIMD_PORTABLE (a file whose baseline version runs the
 * batch kinds too: kernels/blas_units.h). */
#if defined(__x86_64__) && (defined(QF_CPU_DISPATCH) || defined(__AVX__)) && !defined(QF_SIMD_PORTABLE)
#define QF_LOAD_JOIN(K, T, mov)                                                                                \
    static inline QF_HD_INLINE qf_real_##K qf_chunks_load_join_##K(const T *lo, const T *hi)                  \
    {                                                                                                          \
        qf_real_##K r;                                                                                         \
        __asm__(mov " %1, %x0\n\tvinsertf128 $1, %2, %0, %0"                                                  \
                : "=&x"(r)                                                                                     \
                : "m"(*(const qf_chunk_##K *)lo), "m"(*(const qf_chunk_##K *)hi));                            \
        return r;                                                                                              \
    }
#else
#define QF_LOAD_JOIN(K, T, mov)                                                                                \
    static inline QF_HD_INLINE qf_real_##K qf_chunks_load_join_##K(const T *lo, const T *hi)                  \
    {                                                                                                          \
        qf_chunk_##K a, b;                                                                                     \
        memcpy(&a, lo, sizeof a);                                                                              \
        memcpy(&b, hi, sizeof b);                                                                              \
        return qf_chunks_join_##K(a, b);                                                                       \
    }
#endif
QF_LOAD_JOIN(f8, float, "vmovups")
QF_LOAD_JOIN(d4, double, "vmovupd")
#undef QF_LOAD_JOIN

static inline QF_HD_INLINE qf_chunk_f8 qf_chunk_of_f8(qf_real_f8 v, int high)
{
    return high ? QF_SHUFFLE(v, v, 4, 5, 6, 7) : QF_SHUFFLE(v, v, 0, 1, 2, 3);
}

static inline QF_HD_INLINE qf_chunk_d4 qf_chunk_of_d4(qf_real_d4 v, int high)
{
    return high ? QF_SHUFFLE(v, v, 2, 3) : QF_SHUFFLE(v, v, 0, 1);
}

/* 4 x 4 transposes in both halves: unpacks, then 64-bit shuffles (vunpcklps, vshufps). */
static inline QF_HD_INLINE void qf_transpose_f8(qf_real_f8 r[4])
{
    qf_real_f8 t0 = QF_SHUFFLE(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
    qf_real_f8 t1 = QF_SHUFFLE(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
    qf_real_f8 t2 = QF_SHUFFLE(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
    qf_real_f8 t3 = QF_SHUFFLE(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
    r[0] = QF_SHUFFLE(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    r[1] = QF_SHUFFLE(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    r[2] = QF_SHUFFLE(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    r[3] = QF_SHUFFLE(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
}

/* 2 x 2 transposes in both halves (vunpcklpd, vunpckhpd). */
static inline QF_HD_INLINE void qf_transpose_d4(qf_real_d4 r[2])
{
    qf_real_d4 t0 = QF_SHUFFLE(r[0], r[1], 0, 4, 2, 6);
    qf_real_d4 t1 = QF_SHUFFLE(r[0], r[1], 1, 5, 3, 7);
    r[0] = t0;
    r[1] = t1;
}

/* ---- visiting sites ---- */

/* A CPU loop's walk over sites: boxes lo <= x < hi of block coordinates walked in turn, each parity by
 * parity (the sites of one parity, or of both), row by row (x[1..3] fixed), optionally only the rows
 * on at least min_faces faces of the block among x[1..3] (x[nu] = 0 or ext[nu] - 1). It hands out runs: sites that
 * follow each other in a row, x0 stepping by 2. The one property of the block layout (qf_lattice.h)
 * that the walk and the batches rely on: such sites have consecutive storage indices, and so have
 * their neighbours in any direction. */
typedef struct {
    int lo[QF_NDIM], hi[QF_NDIM], min_faces;
} qf_walk_box;

typedef struct {
    qf_walk_box box[2 * QF_NDIM + 1];
    int nbox, k;                     /* the boxes; the one walked */
    int ext[QF_NDIM];
    int first_parity, last_parity;   /* the parities walked in each box */
    int parity, row[QF_NDIM], begun; /* where the walk is: the parity and row of box k */
    int mu, side;                    /* a face walk's face */
    int wrap;                        /* directions in which the block is its own neighbour (qf_wilson_args):
                                      * their faces are no faces */
    int x[QF_NDIM], n;               /* the run: its first site, n sites */
    int64_t s;                       /* the run's first storage index */
} qf_walk;

static inline QF_HD_INLINE void qf_walk_init(qf_walk *w, const int ext[QF_NDIM], int parity, int wrap)
{
    memcpy(w->ext, ext, sizeof w->ext);
    w->wrap = wrap;
    w->nbox = w->k = 0;
    w->first_parity = parity < 0 ? 0 : parity;
    w->last_parity = parity < 0 ? 1 : parity;
    w->begun = 0;
    w->n = 0;
    w->mu = w->side = -1;
}

/* Adds the box of the whole block, or (mu >= 0) the part of the (mu, side) face whose other coordinates
 * are lo_other <= x[nu] < ext[nu] - lo_other but x[0], which spans the block (whole rows). */
static inline QF_HD_INLINE void qf_walk_add(qf_walk *w, int mu, int side, int lo_other, int min_faces)
{
    qf_walk_box *b = &w->box[w->nbox++];
    for (int nu = 0; nu < QF_NDIM; nu++) {
        b->lo[nu] = mu < 0 || nu == 0 || w->wrap >> nu & 1 ? 0 : lo_other;
        b->hi[nu] = w->ext[nu] - b->lo[nu];
    }
    if (mu >= 0) {
        b->lo[mu] = side ? w->ext[mu] - 1 : 0;
        b->hi[mu] = b->lo[mu] + 1;
    }
    b->min_faces = min_faces;
}

/* Every site of the block (of the parity, or all). */
static inline QF_HD_INLINE void qf_walk_block(qf_walk *w, const int ext[QF_NDIM], int parity, int wrap)
{
    qf_walk_init(w, ext, parity, wrap);
    qf_walk_add(w, -1, 0, 0, 0);
}

/* The sites with a face hop, in whole rows where a row lies on a face of x[1..3]: the rows of each such
 * face that are on no other, face by face, then the rows on two faces or more, then the ends of the
 * other rows (the x faces). A batch of rows of one face needs that face's hop and one lane of an x
 * face's, not a hop for each face its lanes lie on; and whole rows are runs of records (most
 * batches when the block's x extent is 16), which the kernels address from one pointer: of the
 * face sites of a 16 x 8 x 8 x 8 block, 92% then lie in whole rows. */
static inline QF_HD_INLINE void qf_walk_exterior(qf_walk *w, const int ext[QF_NDIM], int parity, int wrap)
{
    qf_walk_init(w, ext, parity, wrap);
    for (int mu = 1; mu < QF_NDIM; mu++)
        for (int side = 0; side < 2 && !(wrap >> mu & 1); side++) qf_walk_add(w, mu, side, 1, 0);
    qf_walk_add(w, -1, 0, 0, 2);
    for (int side = 0; side < 2 && !(wrap & 1); side++) qf_walk_add(w, 0, side, 1, 0);
}

/* The sites of the (mu, side) face. */
static inline QF_HD_INLINE void qf_walk_face(qf_walk *w, const int ext[QF_NDIM], int mu, int side, int parity)
{
    qf_walk_init(w, ext, parity, 0);
    qf_walk_add(w, mu, side, 0, 0);
    w->mu = mu;
    w->side = side;
}

static inline QF_HD_INLINE int qf_walk_on_faces(const qf_walk *w, int nu, int c)
{
    return !(w->wrap >> nu & 1) && (c == 0 || c == w->ext[nu] - 1);
}

/* Moves the walk to its next row: 0 past the last one of the last box. */
static inline QF_HD_INLINE int qf_walk_next_row(qf_walk *w)
{
    while (w->k < w->nbox) {
        const qf_walk_box *b = &w->box[w->k];
        if (!w->begun) {
            w->begun = 1;
            w->parity = w->first_parity;
            memcpy(w->row, b->lo, sizeof w->row);
        } else {
            int nu;
            for (nu = 1; nu < QF_NDIM; nu++) {
                if (++w->row[nu] < b->hi[nu]) break;
                w->row[nu] = b->lo[nu];
            }
            if (nu == QF_NDIM && w->parity++ == w->last_parity) {
                w->k++;
                w->begun = 0;
                continue;
            }
        }
        int empty = 0;
        for (int nu = 0; nu < QF_NDIM; nu++) empty |= b->lo[nu] >= b->hi[nu];
        if (empty) {
            w->k++;
            w->begun = 0;
            continue;
        }
        return 1;
    }
    return 0;
}

/* Moves the walk to its next run; 0 when there is none. */
static inline QF_HD_INLINE int qf_walk_next_run(qf_walk *w)
{
    while (qf_walk_next_row(w)) {
        const qf_walk_box *b = &w->box[w->k];
        int x0 = b->lo[0] + ((b->lo[0] + w->row[1] + w->row[2] + w->row[3] + w->parity) & 1);
        if (x0 >= b->hi[0]) continue;
        int n = (b->hi[0] - x0 + 1) / 2;
        int faces = 0;
        for (int nu = 1; nu < QF_NDIM; nu++) faces += qf_walk_on_faces(w, nu, w->row[nu]);
        if (faces < b->min_faces) continue;
        w->x[0] = x0;
        for (int nu = 1; nu < QF_NDIM; nu++) w->x[nu] = w->row[nu];
        w->n = n;
        w->s = qf_block_site_index(w->x, w->ext);
        return 1;
    }
    return 0;
}

/* What a batch of sites is filled for (simd_kind.h): the hop sources in the block (interior), the face
 * entries of its hops (exterior), the entries of the walk's face (gather). */
typedef enum { QF_SITES_HOPS, QF_SITES_FACES, QF_SITES_ENTRIES } qf_sites_kind;

/* A walk of the CPU loops (block_loops_kind.h) and what its batches are filled for: the walk of every
 * site (QF_SITES_HOPS), of the sites with a face hop (QF_SITES_FACES, src_parity the faces'), or of the
 * (mu, side) face (QF_SITES_ENTRIES, src_parity the spinor's). The batches of a walk depend on nothing
 * else, so the codelets keep them (codelets/site_plans.c): a plan of batches filled once a key, which
 * the loops read instead of working the geometry out again at each call (qf_sites_fill was a quarter
 * of a CPU hop's time on the 2-core VM, bench/RESULTS.md). Every field an int, so that keys compare
 * as bytes. */
typedef struct {
    int kind; /* qf_sites_kind */
    int ext[QF_NDIM], parity, wrap, src_parity, mu, side;
    int t_lo, t_hi; /* only the sites of slices t_lo <= x[3] < t_hi (t_hi 0: all; qf_sites_key_slices) */
} qf_sites_key;

static inline QF_HD_INLINE qf_sites_key qf_sites_key_make(qf_sites_kind kind, const int ext[QF_NDIM], int parity,
                                                          int wrap, int src_parity, int mu, int side)
{
    qf_sites_key k = {.kind = kind, .parity = parity, .wrap = wrap, .src_parity = src_parity, .mu = mu, .side = side};
    memcpy(k.ext, ext, sizeof k.ext);
    return k;
}

/* The key's walk restricted to the time slices t_lo <= x[3] < t_hi: the sites of a slice and parity are
 * consecutive in storage (qf_lattice.h), so that a codelet can run two hops a few slices apart while
 * the links and spinors they share are still in the cache (wilson_pair). */
static inline QF_HD_INLINE qf_sites_key qf_sites_key_slices(qf_sites_key k, int t_lo, int t_hi)
{
    k.t_lo = t_lo;
    k.t_hi = t_hi;
    return k;
}

static inline QF_HD_INLINE void qf_walk_of_key(qf_walk *w, const qf_sites_key *k)
{
    if (k->kind == QF_SITES_HOPS) qf_walk_block(w, k->ext, k->parity, k->wrap);
    else if (k->kind == QF_SITES_FACES) qf_walk_exterior(w, k->ext, k->parity, k->wrap);
    else qf_walk_face(w, k->ext, k->mu, k->side, k->parity);
    if (k->t_hi <= 0) return;
    for (int b = 0; b < w->nbox; b++) { /* an emptied box is skipped by the walk */
        qf_walk_box *box = &w->box[b];
        if (box->lo[3] < k->t_lo) box->lo[3] = k->t_lo;
        if (box->hi[3] > k->t_hi) box->hi[3] = k->t_hi;
    }
}

/* In the loops of block_loops_kind.h: runs kernel (a statement on QF_K(qf_sites) *q) on the n batches
 * of a plan (QF_K(qf_sites_plan_fill)), whose ahead pointers name the next, so that the kernel can
 * prefetch what it will load (qf_sites_prefetch_hop). */
#define QF_SITES_FOR_PLAN(plan, n, q, kernel)                                                                  \
    do {                                                                                                       \
        for (int64_t i_ = 0; i_ < (n); i_++) {                                                                 \
            const QF_K(qf_sites) *q = &(plan)[i_];                                                             \
            kernel;                                                                                            \
        }                                                                                                      \
    } while (0)

/* ---- the kinds ---- */

#define QF_K(name) name##_f8
#define QF_KW 8
#define QF_KIND_HALF /* and half-precision fields (simd_kind.h) */
#include "complex_kind.h"
#include "simd_kind.h"
#include "su3_kind.h"
#include "spinor_kind.h"
#include "clover_kind.h"
#include "wilson_kind.h"
#include "block_loops_kind.h"
#undef QF_KIND_HALF
#undef QF_KW
#undef QF_K

#define QF_K(name) name##_d4
#define QF_KW 4
#include "complex_kind.h"
#include "simd_kind.h"
#include "su3_kind.h"
#include "spinor_kind.h"
#include "clover_kind.h"
#include "wilson_kind.h"
#include "block_loops_kind.h"
#undef QF_KW
#undef QF_K

/* Runs stmt_f8 on single- and half-precision fields and stmt_d4 on double ones, with b a copy of *a (of
 * type T) whose precision and dagger flag are compile-time constants in each branch, so that the
 * projector signs of the inlined kernels fold and the float kind's loads keep only their single or
 * their half path. */
#define QF_SIMD_SPECIALISE(T, a, b, stmt_f8, stmt_d4)                                                          \
    do {                                                                                                       \
        T b = *(a);                                                                                            \
        if (b.prec == QF_SINGLE && b.dagger) { b.prec = QF_SINGLE; b.dagger = 1; stmt_f8; }                    \
        else if (b.prec == QF_SINGLE) { b.prec = QF_SINGLE; b.dagger = 0; stmt_f8; }                           \
        else if (b.prec == QF_HALF && b.dagger) { b.prec = QF_HALF; b.dagger = 1; stmt_f8; }                   \
        else if (b.prec == QF_HALF) { b.prec = QF_HALF; b.dagger = 0; stmt_f8; }                               \
        else if (b.dagger) { b.dagger = 1; stmt_d4; }                                                          \
        else { b.dagger = 0; stmt_d4; }                                                                        \
    } while (0)

#endif
