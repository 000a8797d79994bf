/* The clover term of the Wilson-clover operator as site kernels shared by CPU and CUDA code
 * (DESIGN.md conventions, DeGrand-Rossi basis, mu = 0..3 = x, y, z, t):
 *
 *   A(x) = 1 + i kappa c_sw sum_{mu<nu} sigma_munu F_munu(x),   sigma_munu = (i/2) [g_mu, g_nu],
 *
 * F_munu = (Q - Q^dagger) / 8 the anti-hermitian clover-leaf field strength (qf_gauge_field_strength:
 * 108 reals a site, planes 01 02 03 12 13 23). sigma_munu is hermitian and F_munu anti-hermitian, so A
 * is hermitian; sigma_munu commutes with gamma_5 = diag(1, 1, -1, -1), so A is block diagonal in two
 * chiral blocks: block 0 acts on spins {0, 1}, block 1 on spins {2, 3}. Inside block k the index
 * i = 3 (spin - 2k) + colour runs over 0..5, and each block is a hermitian 6x6 complex matrix,
 * positive definite for kappa c_sw small enough for the gauge field.
 *
 * Storage of one QF_FIELD_CLOVER site: a record of 72 reals in double, single or half precision, at the in-block site
 * index of every field (qf_block_site_index):
 *
 *   reals  0..35   block 0 (spins 0, 1)        reals 36..71   block 1 (spins 2, 3)
 *
 *   inside a block (36 reals):
 *     0 .. 5     the real diagonal d[i] = A[i][i], i = 0..5
 *     6 .. 35    the 15 strictly lower entries L[i][j], i > j, in row-major order
 *                (1,0) (2,0) (2,1) (3,0) (3,1) (3,2) (4,0) .. (4,3) (5,0) .. (5,4), each as (re, im):
 *                re at 6 + i (i - 1) + 2 j, im at 7 + i (i - 1) + 2 j   (qf_clover_lower_offset)
 *     the upper entries are the conjugates: A[j][i] = conj(L[i][j]).
 *
 * A field of A^-1 (block by block: the inverse of A is block diagonal too, and hermitian) uses the
 * same layout. The build runs once per gauge field and favours plain, obviously correct code (gamma
 * matrices as written in DESIGN.md, sigma by matrix products, a Cholesky factorisation with a pivot
 * check), all in double. Applying C is on the hot path of the Dirac operator (one pass over the 36 reals
 * of each block): qf_clover_apply_site and the clover_apply codelet's site are written once for every
 * site kind (clover_kind.h, kernels/kind.h), arithmetic in double for the scalar kind set up here. */
#ifndef QF_KERNEL_CLOVER_H
#define QF_KERNEL_CLOVER_H

#include "spinor.h"
#include "quarkflow/qf_lattice.h"

#include <math.h>

/* Reals of one stored site and of one chiral block. */
#define QF_CLOVER_REALS 72
#define QF_CLOVER_BLOCK_REALS 36
/* Planes of the field strength, and the reals it holds a site. */
#define QF_CLOVER_NPLANES 6
#define QF_CLOVER_F_REALS (QF_CLOVER_NPLANES * QF_SU3_REALS)

/* Relative size of the smallest Cholesky pivot accepted, against the block's largest diagonal entry. */
#define QF_CLOVER_PIVOT_TOL 1e-12

/* Offset in a block of the real part of the lower entry L[i][j], i > j. */
static inline QF_HD int qf_clover_lower_offset(int i, int j) { return 6 + i * (i - 1) + 2 * j; }

/* ---- build ---- */

/* g_mu (mu = 0..3: gamma_1 .. gamma_4) as a 4x4 complex matrix, entries as written in DESIGN.md. */
static inline QF_HD void qf_clover_gamma(int mu, qf_complex g[4][4])
{
    /* [mu][row][col] = (re, im) */
    const signed char tab[4][4][4][2] = {
        /* g1 = [[0,0,0,i],[0,0,i,0],[0,-i,0,0],[-i,0,0,0]] */
        {{{0, 0}, {0, 0}, {0, 0}, {0, 1}},
         {{0, 0}, {0, 0}, {0, 1}, {0, 0}},
         {{0, 0}, {0, -1}, {0, 0}, {0, 0}},
         {{0, -1}, {0, 0}, {0, 0}, {0, 0}}},
        /* g2 = [[0,0,0,-1],[0,0,1,0],[0,1,0,0],[-1,0,0,0]] */
        {{{0, 0}, {0, 0}, {0, 0}, {-1, 0}},
         {{0, 0}, {0, 0}, {1, 0}, {0, 0}},
         {{0, 0}, {1, 0}, {0, 0}, {0, 0}},
         {{-1, 0}, {0, 0}, {0, 0}, {0, 0}}},
        /* g3 = [[0,0,i,0],[0,0,0,-i],[-i,0,0,0],[0,i,0,0]] */
        {{{0, 0}, {0, 0}, {0, 1}, {0, 0}},
         {{0, 0}, {0, 0}, {0, 0}, {0, -1}},
         {{0, -1}, {0, 0}, {0, 0}, {0, 0}},
         {{0, 0}, {0, 1}, {0, 0}, {0, 0}}},
        /* g4 = [[0,0,1,0],[0,0,0,1],[1,0,0,0],[0,1,0,0]] */
        {{{0, 0}, {0, 0}, {1, 0}, {0, 0}},
         {{0, 0}, {0, 0}, {0, 0}, {1, 0}},
         {{1, 0}, {0, 0}, {0, 0}, {0, 0}},
         {{0, 0}, {1, 0}, {0, 0}, {0, 0}}},
    };
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) g[r][c] = qf_cmake(tab[mu][r][c][0], tab[mu][r][c][1]);
}

/* sigma_munu = (i/2) (g_mu g_nu - g_nu g_mu). */
static inline QF_HD void qf_clover_sigma(int mu, int nu, qf_complex s[4][4])
{
    qf_complex gm[4][4], gn[4][4];
    qf_clover_gamma(mu, gm);
    qf_clover_gamma(nu, gn);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            qf_complex comm = qf_cmake(0.0, 0.0);
            for (int k = 0; k < 4; k++)
                comm = qf_cadd(comm, qf_csub(qf_cmul(gm[r][k], gn[k][c]), qf_cmul(gn[r][k], gm[k][c])));
            s[r][c] = qf_cmul(qf_cmake(0.0, 0.5), comm);
        }
}

/* Packs the lower triangle and the real diagonal of a hermitian 6x6 matrix into a 36-real block. */
static inline QF_HD void qf_clover_pack_block(const qf_complex m[6][6], double *blk)
{
    for (int i = 0; i < 6; i++) blk[i] = m[i][i].re;
    for (int i = 1; i < 6; i++)
        for (int j = 0; j < i; j++) {
            blk[qf_clover_lower_offset(i, j)] = m[i][j].re;
            blk[qf_clover_lower_offset(i, j) + 1] = m[i][j].im;
        }
}

/* Inverse of a hermitian positive definite 6x6 matrix by Cholesky, m = L L^dagger, m^-1 = L^-dagger L^-1
 * (lower triangle and diagonal filled). Returns 0, or 1 when a pivot is not above
 * QF_CLOVER_PIVOT_TOL times the largest diagonal entry (not positive definite, or numerically singular;
 * NaNs fail too); inv is then zero. */
static inline QF_HD int qf_clover_invert_block(const qf_complex m[6][6], qf_complex inv[6][6])
{
    double scale = 0.0;
    for (int i = 0; i < 6; i++) scale = fmax(scale, fabs(m[i][i].re));
    double tol = QF_CLOVER_PIVOT_TOL * scale;
    qf_complex l[6][6]; /* lower triangle used; real positive diagonal */
    int fail = 0;
    for (int j = 0; j < 6; j++) {
        double d = m[j][j].re;
        for (int k = 0; k < j; k++) d -= qf_cnorm2(l[j][k]);
        if (!(d > tol)) {
            fail = 1;
            break;
        }
        double ljj = sqrt(d);
        l[j][j] = qf_cmake(ljj, 0.0);
        for (int i = j + 1; i < 6; i++) {
            qf_complex s = m[i][j];
            for (int k = 0; k < j; k++) s = qf_csub(s, qf_cmul(l[i][k], qf_cconj(l[j][k])));
            l[i][j] = qf_cscale(1.0 / ljj, s);
        }
    }
    if (fail) {
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) inv[i][j] = qf_cmake(0.0, 0.0);
        return 1;
    }
    /* w = L^-1, lower triangular: w[i][i] = 1 / l[i][i], w[i][j] = -(sum_{k=j}^{i-1} l[i][k] w[k][j]) / l[i][i] */
    qf_complex w[6][6];
    for (int j = 0; j < 6; j++) {
        w[j][j] = qf_cmake(1.0 / l[j][j].re, 0.0);
        for (int i = j + 1; i < 6; i++) {
            qf_complex s = qf_cmake(0.0, 0.0);
            for (int k = j; k < i; k++) s = qf_cadd(s, qf_cmul(l[i][k], w[k][j]));
            w[i][j] = qf_cscale(-1.0 / l[i][i].re, s);
        }
    }
    /* m^-1 = w^dagger w: inv[i][j] = sum_{k >= i} conj(w[k][i]) w[k][j], for i >= j */
    for (int i = 0; i < 6; i++)
        for (int j = 0; j <= i; j++) {
            qf_complex s = qf_cmake(0.0, 0.0);
            for (int k = i; k < 6; k++) s = qf_cadd(s, qf_cconjmul(w[k][i], w[k][j]));
            inv[i][j] = s;
            inv[j][i] = qf_cconj(s);
        }
    for (int i = 0; i < 6; i++) inv[i][i].im = 0.0;
    return 0;
}

/* A and A^-1 of one site, in the 72-real layout, from the field strength f108 (6 planes in double) and
 * kappa_csw = kappa * c_sw. Returns 0, or a nonzero mask (bit k: chiral block k) of the blocks that
 * are not positive definite; A is stored all the same, and A^-1 of a failed block is zero. */
static inline QF_HD int qf_clover_build_site(const double *f108, double kappa_csw, double *a72, double *ainv72)
{
    int failed = 0;
    for (int blk = 0; blk < 2; blk++) {
        /* m = 1 + sum_p (i kappa c_sw sigma_p restricted to the block's spins) (x) F_p */
        qf_complex m[6][6], inv[6][6];
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) m[i][j] = qf_cmake(i == j ? 1.0 : 0.0, 0.0);
        int p = 0;
        for (int mu = 0; mu < 4; mu++)
            for (int nu = mu + 1; nu < 4; nu++, p++) {
                qf_complex sigma[4][4];
                qf_clover_sigma(mu, nu, sigma);
                for (int i = 0; i < 6; i++)
                    for (int j = 0; j < 6; j++) {
                        int si = 2 * blk + i / 3, ci = i % 3, sj = 2 * blk + j / 3, cj = j % 3;
                        const double *f = f108 + p * QF_SU3_REALS + 6 * ci + 2 * cj;
                        qf_complex isig = qf_cmul(qf_cmake(0.0, kappa_csw), sigma[si][sj]);
                        m[i][j] = qf_cadd(m[i][j], qf_cmul(isig, qf_cmake(f[0], f[1])));
                    }
            }
        qf_clover_pack_block(m, a72 + blk * QF_CLOVER_BLOCK_REALS);
        if (qf_clover_invert_block(m, inv)) failed |= 1 << blk;
        qf_clover_pack_block(inv, ainv72 + blk * QF_CLOVER_BLOCK_REALS);
    }
    return failed;
}

/* The clover_build codelet's site s: F read in f_prec, A and A^-1 stored in prec. Returns 1 when a
 * chiral block of the site is not positive definite, else 0. */
static inline QF_HD int qf_clover_build_store_site(const void *f, qf_precision f_prec, void *a, void *ainv,
                                                   qf_precision prec, int64_t s, double kappa_csw)
{
    double f108[QF_CLOVER_F_REALS], a72[QF_CLOVER_REALS], ainv72[QF_CLOVER_REALS];
    qf_reals_load(f, f_prec, (size_t)s * QF_CLOVER_F_REALS, f108, QF_CLOVER_F_REALS);
    int failed = qf_clover_build_site(f108, kappa_csw, a72, ainv72);
    qf_record_reals_store(a, prec, (size_t)s, QF_CLOVER_REALS, 0, a72, QF_CLOVER_REALS, QF_HALF_TILES);
    qf_record_reals_store(ainv, prec, (size_t)s, QF_CLOVER_REALS, 0, ainv72, QF_CLOVER_REALS, QF_HALF_TILES);
    return failed != 0;
}

/* ---- the clover_apply codelet's sites ---- */

/* Sites of a block visited for parity p (0, 1) or all sites (p = -1), and the storage index of the
 * i-th of them (the in-block layout is parity-major: parity p holds p V/2 .. p V/2 + V/2 - 1). */
static inline QF_HD int64_t qf_clover_nsites(const int ext[QF_NDIM], int parity)
{
    return parity < 0 ? qf_volume(ext) : qf_volume(ext) / 2;
}

static inline QF_HD int64_t qf_clover_site(const int ext[QF_NDIM], int parity, int64_t i)
{
    return parity < 0 ? i : parity * (qf_volume(ext) / 2) + i;
}

/* ---- the site kernels that apply a clover field (clover_kind.h), for the scalar kind ---- */

#define QF_K(name) name
/* The argument blocks of clover_build and clover_apply. */
typedef struct {
    int ext[QF_NDIM];
    double kappa_csw;       /* kappa * c_sw */
    qf_precision f_prec;    /* of the field strength */
    qf_precision prec;      /* of A and A^-1 */
    int team;               /* CPU: the sites shared among the team (cpu_team.h) */
} qf_clover_build_args;

typedef struct {
    int ext[QF_NDIM];
    int parity;             /* 0, 1, or -1 for all sites */
    double a, b;
    qf_precision prec;      /* of C, x, y and out */
} qf_clover_apply_args;

#include "clover_kind.h"
#undef QF_K

#endif
