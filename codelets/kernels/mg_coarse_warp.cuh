/* The warp schedule of the coarse operator's hops on CUDA, which mg_coarse_interior.cu and
 * mg_coarse_exterior.cu launch for N >= QF_COARSE_WARP_MIN_NVEC (their thread-per-row kernels below
 * that), seed 003's mapping (QUDA's coarse operator): parallel over sites, rows AND hop directions. A
 * thread block computes one output site with W warps, warp w the hops of its QF_NDIRS / W directions,
 * each into its own slice of shared memory: with a whole site in one warp its 8 matrix-vector products
 * ran one after another, and the 4096 warps of an 8^4 lattice could not keep enough loads in flight. A
 * coarse matrix is row-major, so the lanes stride over a row's columns in pairs (qf_coarse_warp_col):
 * lanes read consecutive complex entries of a row (coalesced), and a row's dot product is a warp sum.
 * After __syncthreads the block's threads sum the slices entry by entry, and the local matrix's rows
 * are spread over the warps as well. The precisions P (fields) and PL (links and X^-1: P, or half with
 * single fields, a record a row whose scale multiplies the lane's share of the row's sum) are template
 * parameters down to the loads, and the argument block is read where the launch put it (a
 * __grid_constant__ parameter, never copied to the stack), so that the loads are specialised. */
#ifndef QF_MG_COARSE_WARP_CUH
#define QF_MG_COARSE_WARP_CUH

#include "mg.h"

#include <type_traits>

#define QF_COARSE_WARP_LANES 32
/* the smallest N the warp schedule takes: from N = 16 a site's 2 N columns fill a warp's lanes; below,
 * most lanes idle and thread-per-row measured faster (bench/RESULTS.md, see the launchers) */
#define QF_COARSE_WARP_MIN_NVEC 16
/* columns a lane holds: 2 QF_MG_MAX_NVEC over the warp; the kernels take C = 2 (a pair a lane) where
 * 2 N <= 64 (qf_coarse_warp_cols), which keeps the registers of the second pair free */
#define QF_COARSE_WARP_COLS (2 * QF_MG_MAX_NVEC / QF_COARSE_WARP_LANES)
static inline int qf_coarse_warp_cols(int nvec) { return 2 * nvec <= 2 * QF_COARSE_WARP_LANES ? 2 : QF_COARSE_WARP_COLS; }
/* rows a warp sums at once (a power of two up to 16): their 2 ROWS reals share one transposing
 * reduction, and their loads are in flight together; 4 rows fit the kernels' 64 (interior) and 80
 * (exterior) registers a thread (ptxas, sm_90: no spills but 8 bytes in the double exterior), where 8
 * took about 120 in double arithmetic; with single arithmetic 8 rows measured no faster (H100, the 8^4
 * level of N = 24: 262-270 us against 272-274 with half links, 289-291 against 294-295 in single) */
#define QF_COARSE_WARP_ROWS 4
/* reals of a site's shared slice: 2 N complex entries, in double */
#define QF_COARSE_WARP_SLICE (4 * QF_MG_MAX_NVEC)

static_assert(2 * QF_MG_MAX_NVEC % (2 * QF_COARSE_WARP_LANES) == 0, "a site's columns fill whole warps in pairs");

/* The warp's sum of each of the V values v (V a power of two up to 32), lane l getting that of value
 * l / (32 / V). Each step hands half of the values still held to the lane across one bit of the lane
 * index and keeps the other half, so the V sums take V - 1 + log2(32 / V) shuffles, where V separate
 * reductions would take 5 V. A step a template instance, so that every index is a constant and the
 * values stay in registers. */
template <typename T, int V, int BIT = QF_COARSE_WARP_LANES / 2>
static __device__ __forceinline__ T qf_coarse_warp_transpose_sum(const T (&v)[V], int lane)
{
    if constexpr (BIT == 0) {
        return v[0];
    } else if constexpr (V == 1) {
        const T w[1] = {v[0] + __shfl_xor_sync(0xffffffffu, v[0], BIT)};
        return qf_coarse_warp_transpose_sum<T, 1, BIT / 2>(w, lane);
    } else {
        T w[V / 2];
        int upper = lane & BIT;
        QF_UNROLL
        for (int k = 0; k < V / 2; k++)
            w[k] = (upper ? v[k + V / 2] : v[k]) + __shfl_xor_sync(0xffffffffu, upper ? v[k] : v[k + V / 2], BIT);
        return qf_coarse_warp_transpose_sum<T, V / 2, BIT / 2>(w, lane);
    }
}

/* The arithmetic of a lane's products and of the warp's sums: single where the fields are single (the
 * links single or half), as the CPU's schedule and QUDA's coarse operator multiply; double for double.
 * The partial sums of the directions and the finish stay in double. In double the single-precision
 * kernel converted every loaded real (the slow conversion pipe), ran its FMAs at the FP64 rate and
 * shuffled two words a value. */
template <int P>
using qf_coarse_warp_real = typename std::conditional<P == QF_DOUBLE, double, float>::type;
template <typename T>
struct qf_coarse_warp_cplx {
    T re, im;
};
template <typename T>
static __device__ __forceinline__ void qf_coarse_warp_cmadd(qf_coarse_warp_cplx<T> &acc, const qf_coarse_warp_cplx<T> &m,
                                                            const qf_coarse_warp_cplx<T> &v)
{
    acc.re += m.re * v.re - m.im * v.im;
    acc.im += m.re * v.im + m.im * v.re;
}

/* Column k (k < QF_COARSE_WARP_COLS) of a lane's columns: neighbours in pairs, 2 lane and 2 lane + 1,
 * then the same 64 columns on, so that a lane loads two complex entries of a row at once (16 bytes in
 * single, 8 in half; with a column a lane the half loads were 4 bytes, and the kernel issued as many
 * loads as in single for half the bytes: 393 against 415 us on the H100's 8^4 level, N = 24). */
static __device__ __forceinline__ int qf_coarse_warp_col(int lane, int k)
{
    return 2 * lane + (k & 1) + (k >> 1) * 2 * QF_COARSE_WARP_LANES;
}

/* Two neighbouring complex entries as a lane loads them, in the storage's own type (half: 16-bit,
 * unscaled). */
struct qf_coarse_warp_d4 {
    double x, y, z, w;
};
template <int PL>
struct qf_coarse_warp_raw {
    typedef float4 type;
};
template <>
struct qf_coarse_warp_raw<QF_HALF> {
    typedef short4 type;
};
template <>
struct qf_coarse_warp_raw<QF_DOUBLE> {
    typedef qf_coarse_warp_d4 type;
};
/* Complex entries c and c + 1 (c even) of row `row` (counted from the array's first) of rows of n2 = 2 N
 * complex numbers stored in PL (matrices, or the sites of a coarse field): one load of 8 bytes in half,
 * 16 in single, two in double. Rows of an even count of complex numbers keep the pairs aligned. */
template <int PL>
static __device__ __forceinline__ typename qf_coarse_warp_raw<PL>::type qf_coarse_warp_raw_pair(const void *base, size_t row,
                                                                                              int c, int n2)
{
    if constexpr (PL == QF_HALF) {
        return __ldg((const short4 *)qf_half_record_ptr(base, row, 2 * n2) + c / 2);
    } else if constexpr (PL == QF_SINGLE) {
        return __ldg((const float4 *)base + (row * (size_t)n2 + c) / 2);
    } else {
        const double2 *p = (const double2 *)base + row * (size_t)n2 + c;
        const double2 a = __ldg(p), b = __ldg(p + 1);
        return {a.x, a.y, b.x, b.y};
    }
}
/* The same as two complex numbers in T (the sources: fields in single or double) */
template <int P, typename T>
static __device__ __forceinline__ void qf_coarse_warp_pair(const void *base, size_t row, int c, int n2,
                                                           qf_coarse_warp_cplx<T> &a, qf_coarse_warp_cplx<T> &b)
{
    static_assert(P != QF_HALF, "the sources are fields in single or double");
    const typename qf_coarse_warp_raw<P>::type m = qf_coarse_warp_raw_pair<P>(base, row, c, n2);
    a = {(T)m.x, (T)m.y};
    b = {(T)m.z, (T)m.w};
}

/* The dagger's sign of entry (r, c), qf_coarse_sign, is s(r) s(c) with s(i) = -1 on the second
 * chirality: s(c) is folded into the source vector, s(r) into the row's sum. */
static __device__ __forceinline__ double qf_coarse_warp_chiral_sign(int dagger, int i, int n)
{
    return qf_coarse_sign(dagger, i, 0, n);
}

/* After qf_coarse_warp_group_sum, lane l holds real l / QF_COARSE_WARP_SPREAD of the row group's 2 ROWS
 * reals (re, im a row); the first lane of each such run stores it. */
#define QF_COARSE_WARP_SPREAD (QF_COARSE_WARP_LANES / (2 * QF_COARSE_WARP_ROWS))

/* A lane's raw loads of a group of rows (its C / 2 column pairs a row, and in half the rows' scales),
 * held in registers until the group's sums. */
template <int PL, int C>
struct qf_coarse_warp_group {
    typename qf_coarse_warp_raw<PL>::type m[QF_COARSE_WARP_ROWS][C / 2];
    float scale[QF_COARSE_WARP_ROWS];
};

template <int PL, int C>
static __device__ __forceinline__ void qf_coarse_warp_fetch(const void *base, size_t mr, int n2, int r0, int lane,
                                                            qf_coarse_warp_group<PL, C> &g)
{
    QF_UNROLL
    for (int q = 0; q < QF_COARSE_WARP_ROWS; q++) {
        int r = r0 + q;
        QF_UNROLL
        for (int k = 0; k < C; k += 2) {
            int c = qf_coarse_warp_col(lane, k);
            typename qf_coarse_warp_raw<PL>::type m = {0, 0, 0, 0};
            if (r < n2 && c < n2) m = qf_coarse_warp_raw_pair<PL>(base, mr + r, c, n2);
            g.m[q][k / 2] = m;
        }
        if constexpr (PL == QF_HALF)
            g.scale[q] = r < n2 ? __ldg(qf_half_norm_at(base, mr + r, 2 * n2, QF_HALF_ROWS)) * (float)(1.0 / QF_HALF_MAX) : 0.0f;
    }
}

/* Rows r0 .. r0 + ROWS - 1 of M v from the group's loads, v the lane's columns of the source (signs
 * s(c) folded in): the warp's sums, spread over the lanes as above. */
template <int PL, int C, typename T>
static __device__ __forceinline__ double qf_coarse_warp_group_sum(const qf_coarse_warp_group<PL, C> &g,
                                                                  const qf_coarse_warp_cplx<T> (&v)[C], int lane)
{
    T p[2 * QF_COARSE_WARP_ROWS];
    QF_UNROLL
    for (int q = 0; q < QF_COARSE_WARP_ROWS; q++) {
        qf_coarse_warp_cplx<T> acc = {(T)0, (T)0};
        QF_UNROLL
        for (int k = 0; k < C; k += 2) {
            const typename qf_coarse_warp_raw<PL>::type m = g.m[q][k / 2];
            qf_coarse_warp_cmadd(acc, qf_coarse_warp_cplx<T>{(T)m.x, (T)m.y}, v[k]);
            qf_coarse_warp_cmadd(acc, qf_coarse_warp_cplx<T>{(T)m.z, (T)m.w}, v[k + 1]);
        }
        if constexpr (PL == QF_HALF) {
            acc.re *= g.scale[q];
            acc.im *= g.scale[q];
        }
        p[2 * q] = acc.re;
        p[2 * q + 1] = acc.im;
    }
    return (double)qf_coarse_warp_transpose_sum(p, lane);
}

/* The row groups r0 = first, first + stride, .. < n2 of M v (M's first row mr of base), each group's
 * warp sum handed to emit(r0, sum). In single and half the next group's loads are issued before this
 * group's products and shuffles, so that a warp's loads stay in flight through its reductions: a group
 * at a time, each warp waited for its loads a dozen times a matrix (48 rows of N = 24), and the kernel
 * ran at the same 270-295 us on the H100's 8^4 level whether its links were half or single. */
template <int PL, int C, typename T, typename F>
static __device__ __forceinline__ void qf_coarse_warp_matvec(const void *base, size_t mr, const qf_coarse_warp_cplx<T> (&v)[C],
                                                             int n2, int first, int stride, int lane, F emit)
{
    if constexpr (PL == QF_DOUBLE || (PL == QF_SINGLE && C > 2)) { /* two groups would spill (64 registers) */
        for (int r0 = first; r0 < n2; r0 += stride) {
            qf_coarse_warp_group<PL, C> g;
            qf_coarse_warp_fetch<PL, C>(base, mr, n2, r0, lane, g);
            emit(r0, qf_coarse_warp_group_sum<PL, C>(g, v, lane));
        }
    } else {
        qf_coarse_warp_group<PL, C> cur, next;
        if (first < n2) qf_coarse_warp_fetch<PL, C>(base, mr, n2, first, lane, cur);
        for (int r0 = first; r0 < n2; r0 += stride) {
            if (r0 + stride < n2) qf_coarse_warp_fetch<PL, C>(base, mr, n2, r0 + stride, lane, next);
            emit(r0, qf_coarse_warp_group_sum<PL, C>(cur, v, lane));
            cur = next;
        }
    }
}

/* Warp (w, part)'s share of the hops of output site x (block storage index s) whose sources lie in the
 * block (faces NULL) or in the neighbours' faces (faces given), as qf_coarse_hops_row's: the directions
 * w D .. w D + D - 1, D = QF_NDIRS / W, and of their rows the groups part, part + R, .., summed into the
 * slice h of direction group w. Each real of h is written only by the lane that stores its row's sum,
 * so the warp needs no fence of its own. */
template <int P, int PL, int W, int R, int C>
static __device__ __forceinline__ void qf_coarse_warp_hops(const qf_coarse_args *a, const void *in, const void *links,
                                                           const void *const *faces, const int x[QF_NDIM], int64_t s,
                                                           int w, int part, int lane, double *h)
{
    const int dirs = QF_NDIRS / W, first = part * QF_COARSE_WARP_ROWS, stride = R * QF_COARSE_WARP_ROWS;
    int n = a->nvec, n2 = 2 * n, e = lane / QF_COARSE_WARP_SPREAD, store = lane % QF_COARSE_WARP_SPREAD == 0;
    for (int r0 = first; r0 < n2; r0 += stride)
        if (store && r0 + e / 2 < n2) h[2 * r0 + e] = 0.0;
    for (int d = w * dirs; d < (w + 1) * dirs; d++) {
        const void *src;
        int64_t ys;
        if (!qf_coarse_hop_source(a, in, faces, x, d, &src, &ys)) continue;
        size_t mr = qf_coarse_matrix_row(qf_coarse_matrix_offset(s, d, n), n);
        typedef qf_coarse_warp_real<P> T;
        qf_coarse_warp_cplx<T> v[C];
        QF_UNROLL
        for (int k = 0; k < C; k += 2) {
            int c = qf_coarse_warp_col(lane, k);
            v[k] = v[k + 1] = {(T)0, (T)0};
            if (c < n2) {
                qf_coarse_warp_pair<P>(src, (size_t)ys, c, n2, v[k], v[k + 1]);
                for (int j = 0; j < 2; j++) {
                    T sign = (T)qf_coarse_warp_chiral_sign(a->dagger, c + j, n);
                    v[k + j].re *= sign;
                    v[k + j].im *= sign;
                }
            }
        }
        qf_coarse_warp_matvec<PL, C>(links, mr, v, n2, first, stride, lane, [&](int r0, double sum) {
            int r = r0 + e / 2;
            if (store && r < n2) h[2 * r0 + e] += qf_coarse_warp_chiral_sign(a->dagger, r, n) * sum;
        });
    }
}

/* Output site x (storage index s) with thread block dimensions (32, W R), warp y the direction group
 * y % W and the row part y / W (R > 1 where there are too few sites to fill the SMs with blocks of W
 * warps: the coarsest lattices, whose hop kernels otherwise run one short wave): its hops (those of
 * qf_coarse_warp_hops, when b != 0) added to the partial sum prior (the site in that field, or NULL
 * for none), then finished as qf_coarse_finish_row does for one row, or stored as they are (finish 0:
 * a site that waits for its face hops). The block's threads first take the site's entries one a
 * thread: the hop sum, and from it the local matrix's source v (signs s(c) folded in) and the terms
 * outside the local matrix, kept in slices 0 and 1 (only the thread of an entry reads that entry's
 * slices, so they are reused without a barrier); the local matrix's row groups then go to the warps in
 * turn. */
template <int P, int PL, int W, int R, int C>
static __device__ __forceinline__ void qf_coarse_warp_site(const qf_coarse_args *a, const void *in, const void *links,
                                                           const void *const *faces, const void *x, const void *xinv,
                                                           const void *prior, int finish, const int xs[QF_NDIM],
                                                           int64_t s, void *out)
{
    static_assert(W >= 2 && QF_NDIRS % W == 0, "whole directions a warp, and two slices for the finish");
    __shared__ double hs[W][QF_COARSE_WARP_SLICE];
    const qf_precision prec = (qf_precision)P;
    const int warps = W * R;
    int w = threadIdx.y, lane = threadIdx.x, n = a->nvec, n2 = 2 * n, hops = a->b != 0.0;
    if (hops) qf_coarse_warp_hops<P, PL, W, R, C>(a, in, links, faces, xs, s, w % W, w / W, lane, hs[w % W]);
    __syncthreads(); /* every slice, before an entry's slices are summed */

    int local = finish && a->local_on != QF_CLOVER_NONE;
    size_t so = qf_coarse_site_offset(s, n);
    for (int e = w * QF_COARSE_WARP_LANES + lane; e < 2 * n2; e += warps * QF_COARSE_WARP_LANES) {
        double h = prior ? qf_real_get(prior, prec, so + e) : 0.0;
        if (hops) {
            QF_UNROLL
            for (int k = 0; k < W; k++) h += hs[k][e];
        }
        if (!finish) {
            qf_real_set(out, prec, so + e, h);
            continue;
        }
        double v, own;
        qf_coarse_finish_terms(a, qf_coarse_x_entry(a, x, prec, so, e), h, &v, &own);
        if (!local) {
            qf_real_set(out, prec, so + e, own);
            continue;
        }
        hs[0][e] = qf_coarse_warp_chiral_sign(a->dagger, e / 2, n) * v;
        hs[1][e] = own;
    }
    if (!local) return;
    __syncthreads(); /* the whole source v, before a warp takes its columns */

    size_t lo;
    const void *lbase = qf_coarse_local_matrix(a, links, xinv, s, &lo);
    typedef qf_coarse_warp_real<P> T;
    qf_coarse_warp_cplx<T> v[C];
    QF_UNROLL
    for (int k = 0; k < C; k++) {
        int c = qf_coarse_warp_col(lane, k);
        v[k] = c < n2 ? qf_coarse_warp_cplx<T>{(T)hs[0][2 * c], (T)hs[0][2 * c + 1]} : qf_coarse_warp_cplx<T>{(T)0, (T)0};
    }
    int e = lane / QF_COARSE_WARP_SPREAD;
    qf_coarse_warp_matvec<PL, C>(lbase, qf_coarse_matrix_row(lo, n), v, n2, w * QF_COARSE_WARP_ROWS,
                                 warps * QF_COARSE_WARP_ROWS, lane, [&](int r0, double sum) {
                                     int r = r0 + e / 2;
                                     if (lane % QF_COARSE_WARP_SPREAD == 0 && r < n2)
                                         qf_real_set(out, prec, so + 2 * r0 + e,
                                                     hs[1][2 * r0 + e] + qf_coarse_warp_chiral_sign(a->dagger, r, n) * sum);
                                 });
}

#endif
