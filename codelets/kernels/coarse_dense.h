/* The coarsest multigrid level's even-odd Schur complement as a dense matrix, for its inverse
 * (codelet mg_schur_invert) and the inverse's application in the one-task coarsest solve
 * (kernels/coarse_gcr.h): site kernels shared by the CPU and CUDA codelets.
 *
 * On the coarsest level, a lattice of V sites in one block whose hops wrap, the Schur complement
 * Ahat = X_ee - H_eo X_oo^-1 H_oe (tasks/coarse_op.c) acts on the n = V/2 x 2N complex numbers of the
 * even sites, numbered as a coarse field stores them: i = s 2N + r for even site s < V/2 and row r.
 * Its entries come from the operator's links and X^-1 directly:
 *
 *   Ahat(s r, z c) = delta_sz X(s)_rc - sum over the pairs (d, d') with y = s + hop_d, z = y + hop_d' of
 *                    sum_k Y_d(s)_rk W_d'(y)_kc,      W_d'(y) = X^-1(y) Y_d'(y),
 *
 * W first, one (2N)^2 matrix for each hop of each odd site (odd site y = V/2 + o). On lattices of
 * extent 2 a hop forward and one backward reach the same site, so that several pairs may join s to z:
 * every pair is summed, in the order of d and then d'. Arithmetic in double; the links and X^-1 read
 * in their precision (half included). */
#ifndef QF_KERNEL_COARSE_DENSE_H
#define QF_KERNEL_COARSE_DENSE_H

#include "mg.h"

typedef struct {
    int ext[QF_NDIM];       /* the coarsest lattice (one block) */
    int nvec;               /* N */
    qf_precision link_prec; /* of the links and X^-1 */
    qf_precision prec;      /* of the stored inverse */
} qf_schur_dense_args;

/* Most pairs of hops that join two even sites: every (d, d'). */
#define QF_SCHUR_MAX_PAIRS (QF_NDIRS * QF_NDIRS)

/* The Schur complement's dimension n. */
static inline QF_HD int64_t qf_schur_dense_dim(const qf_schur_dense_args *a)
{
    return qf_volume(a->ext) / 2 * 2 * a->nvec;
}

/* Storage index of the site hop d away from site s, across the wrap. */
static inline QF_HD int64_t qf_schur_hop_site(const qf_schur_dense_args *a, int64_t s, int d)
{
    int x[QF_NDIM], mu = d / 2;
    qf_block_site_coords(s, a->ext, x);
    x[mu] = (x[mu] + (d & 1 ? 1 : a->ext[mu] - 1)) % a->ext[mu];
    return qf_block_site_index(x, a->ext);
}

/* Complex doubles of the W matrices, and the offset of W_d(V/2 + o). */
static inline QF_HD size_t qf_schur_w_count(const qf_schur_dense_args *a)
{
    size_t n2 = 2 * (size_t)a->nvec;
    return (size_t)(qf_volume(a->ext) / 2) * QF_NDIRS * n2 * n2;
}
static inline QF_HD size_t qf_schur_w_offset(const qf_schur_dense_args *a, int64_t o, int d)
{
    size_t n2 = 2 * (size_t)a->nvec;
    return ((size_t)o * QF_NDIRS + (size_t)d) * n2 * n2;
}

/* W_d(y)_kc, y = V/2 + o: row k of y's X^-1 times column c of its hop matrix Y_d. */
static inline QF_HD qf_complex qf_schur_w_entry(const qf_schur_dense_args *a, const void *links, const void *xinv,
                                                 int64_t o, int d, int k, int c)
{
    int n = a->nvec, n2 = 2 * n;
    int64_t y = qf_volume(a->ext) / 2 + o;
    size_t xo = (size_t)2 * (size_t)y * n2 * n2, lo = qf_coarse_matrix_offset(y, d, n);
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int l = 0; l < n2; l++)
        acc = qf_cmadd(acc, qf_coarse_matrix_entry(xinv, a->link_prec, xo, n, k, l),
                       qf_coarse_matrix_entry(links, a->link_prec, lo, n, l, c));
    return acc;
}

/* The pairs of hops that join even site s to even site z: d[j] and the odd site's o[j] (y = V/2 + o)
 * with W's offset w[j] for d'; returns their number. */
static inline QF_HD int qf_schur_pairs(const qf_schur_dense_args *a, int64_t s, int64_t z, int *d, size_t *w)
{
    int64_t half = qf_volume(a->ext) / 2;
    int np = 0;
    for (int d1 = 0; d1 < QF_NDIRS; d1++) {
        int64_t y = qf_schur_hop_site(a, s, d1);
        for (int d2 = 0; d2 < QF_NDIRS; d2++)
            if (qf_schur_hop_site(a, y, d2) == z) {
                d[np] = d1;
                w[np] = qf_schur_w_offset(a, y - half, d2);
                np++;
            }
    }
    return np;
}

/* Ahat(s r, z c) from the pairs joining s to z (qf_schur_pairs) and the W matrices. */
static inline QF_HD qf_complex qf_schur_dense_entry(const qf_schur_dense_args *a, const void *links,
                                                     const qf_complex *wm, int64_t s, int64_t z, int r, int c,
                                                     int np, const int *d, const size_t *w)
{
    int n = a->nvec, n2 = 2 * n;
    qf_complex acc = s == z ? qf_coarse_matrix_entry(links, a->link_prec, qf_coarse_matrix_offset(s, QF_MG_LOCAL, n), n,
                                                     r, c)
                            : qf_cmake(0.0, 0.0);
    for (int j = 0; j < np; j++) {
        size_t lo = qf_coarse_matrix_offset(s, d[j], n);
        qf_complex h = qf_cmake(0.0, 0.0);
        for (int k = 0; k < n2; k++)
            h = qf_cmadd(h, qf_coarse_matrix_entry(links, a->link_prec, lo, n, r, k), wm[w[j] + (size_t)k * n2 + c]);
        acc = qf_csub(acc, h);
    }
    return acc;
}

/* Rows and columns of the blocked inversion's panels on a GPU (mg_schur_invert.cu), each inverted by
 * one thread block of 2 QF_SCHUR_PANEL threads (kernels/invert_block.cuh takes n up to 2 QF_MG_MAX_NVEC). */
#define QF_SCHUR_PANEL 64

/* The inversion's scratch buffer, in complex doubles: the W matrices, three n x n matrices (the
 * Schur complement and two for its inverse), two panels of n x QF_SCHUR_PANEL and two square ones,
 * three vectors of n and a flag. */
static inline QF_HD size_t qf_schur_scratch_count(const qf_schur_dense_args *a)
{
    size_t n = (size_t)qf_schur_dense_dim(a);
    return qf_schur_w_count(a) + 3 * n * n + 2 * n * QF_SCHUR_PANEL + 2 * QF_SCHUR_PANEL * QF_SCHUR_PANEL + 3 * n + 1;
}

/* A test vector for the inverse's check: v_j = (1 + (j mod 5) / 5) e^(0.618034 i j). */
static inline QF_HD qf_complex qf_schur_test_entry(int64_t j)
{
    double m = 1.0 + (double)(j % 5) / 5.0, phi = 0.618034 * (double)j;
    return qf_cmake(m * cos(phi), m * sin(phi));
}

/* Row i of the stored inverse (row-major, n x n complex numbers in prec) times in (n complex numbers
 * in prec), over the columns first, first + step, ... (a CPU thread: 0 and 1; a lane of the GPU warp
 * that shares the row: its lane and 32), summed in double. */
static inline QF_HD qf_complex qf_schur_inverse_row(qf_precision prec, const void *inv, int64_t n, const void *in,
                                                     int64_t i, int first, int step)
{
    double re = 0.0, im = 0.0;
    size_t ro = (size_t)2 * (size_t)i * (size_t)n;
    for (int64_t j = first; j < n; j += step) {
        double mr = qf_real_get(inv, prec, ro + 2 * j), mi = qf_real_get(inv, prec, ro + 2 * j + 1);
        double xr = qf_real_get(in, prec, 2 * j), xi = qf_real_get(in, prec, 2 * j + 1);
        re += mr * xr - mi * xi;
        im += mr * xi + mi * xr;
    }
    return qf_cmake(re, im);
}

#endif
