/* Site kernels of a propagator's observables: the point source itself (a field that is zero but for
 * one real, written on the device that holds the block instead of imported from the host), and the
 * time-slice sums of the correlators: the pion and rho terms at one sink site from the 12 columns of
 * a Wilson propagator, or |f|^2 of one field (the staggered Goldstone pion), so that a propagator's
 * contraction runs where its solutions live. */
#ifndef QF_KERNEL_MESON_H
#define QF_KERNEL_MESON_H

#include "qf_complex.h"
#include "reals.h"

/* field_point: real `real` of the site of storage index `site` of a block set to 1. */
typedef struct {
    int64_t site;
    int site_reals, real;
    qf_precision prec;
} qf_field_point_args;

/* The source's one real stored into its block. */
static inline QF_HD void qf_field_point_store(const qf_field_point_args *a, void *block)
{
    const double one = 1.0;
    qf_reals_store(block, a->prec, (size_t)a->site * (size_t)a->site_reals + (size_t)a->real, &one, 1);
}

/* slice_sums: a block's sums over its sites of each time slice of one site quantity, added into
 * acc[k T + (t0 + t) mod T] for the quantity's sums k, t the block-local time: the meson correlators'
 * terms of the 12 columns of a propagator (2 sums: pion, rho), or |f|^2 of one field (1 sum). */
enum { QF_MESON_COLUMNS = 12 };
typedef enum { QF_SLICE_MESON, QF_SLICE_NORM2 } qf_slice_quantity;
typedef struct {
    int ext[QF_NDIM];
    int t0; /* global time of the block's first slice, counted from the source's */
    int T;  /* global time extent */
    int site_reals;
    qf_slice_quantity what;
    qf_precision prec;
} qf_slice_args;

static inline QF_HD int qf_slice_nsums(qf_slice_quantity what) { return what == QF_SLICE_MESON ? 2 : 1; }
static inline QF_HD int qf_slice_nfields(qf_slice_quantity what) { return what == QF_SLICE_MESON ? QF_MESON_COLUMNS : 1; }

/* The terms of sink site s: pion sum_{a, b} |S[a][b]|^2 and rho (1/3) sum_k Re Tr[g_k S g_k g5 S^+ g5]
 * over the spatial DeGrand-Rossi gammas g_1..g_3 (DESIGN.md), where S[s c][s0 c0] is component (s, c)
 * of column 3 s0 + c0 at the site. */
static inline QF_HD void qf_meson_site(const void *const col[QF_MESON_COLUMNS], qf_precision prec, int64_t s,
                                       double *pion, double *rho)
{
    /* each gamma has one nonzero a row: g_k[a][gcol[k][a]] = gval[k][a] (re, im) */
    const int gcol[3][4] = {{3, 2, 1, 0}, {3, 2, 1, 0}, {2, 3, 0, 1}};
    const double gval[3][4][2] = {{{0, 1}, {0, 1}, {0, -1}, {0, -1}},
                                  {{-1, 0}, {1, 0}, {1, 0}, {-1, 0}},
                                  {{0, 1}, {0, -1}, {0, -1}, {0, 1}}};
    const double g5[4] = {1, 1, -1, -1};
    qf_complex S[12][12]; /* [s c][s0 c0] */
    double p = 0.0;
    for (int k = 0; k < QF_MESON_COLUMNS; k++) {
        double v[24];
        qf_reals_load(col[k], prec, (size_t)s * 24, v, 24);
        for (int r = 0; r < 12; r++) {
            S[r][k] = qf_cmake(v[2 * r], v[2 * r + 1]);
            p += qf_cnorm2(S[r][k]);
        }
    }
    /* Tr[g S g g5 S^+ g5] = sum g[a][ap] S[ap][b] g[b][bp] g5[bp] conj(S[a][bp]) g5[a] */
    qf_complex v = qf_cmake(0.0, 0.0);
    for (int k = 0; k < 3; k++)
        for (int a = 0; a < 4; a++) {
            int ap = gcol[k][a];
            for (int b = 0; b < 4; b++) {
                int bp = gcol[k][b];
                qf_complex f = qf_cscale(g5[bp] * g5[a], qf_cmul(qf_cmake(gval[k][a][0], gval[k][a][1]),
                                                                 qf_cmake(gval[k][b][0], gval[k][b][1])));
                qf_complex t = qf_cmake(0.0, 0.0);
                for (int c = 0; c < 3; c++)
                    for (int c2 = 0; c2 < 3; c2++) t = qf_cadd(t, qf_cconjmul(S[3 * a + c][3 * bp + c2], S[3 * ap + c][3 * b + c2]));
                v = qf_cadd(v, qf_cmul(f, t));
            }
        }
    *pion = p;
    *rho = v.re / 3.0;
}

/* |f|^2 of site s. */
static inline QF_HD double qf_site_norm2(const void *f, qf_precision prec, int64_t s, int site_reals)
{
    double sum = 0.0;
    for (int k = 0; k < site_reals; k++) {
        double v;
        qf_reals_load(f, prec, (size_t)s * (size_t)site_reals + (size_t)k, &v, 1);
        sum += v * v;
    }
    return sum;
}

/* The quantity's sums at site s (qf_slice_nsums of them). */
static inline QF_HD void qf_slice_site(const qf_slice_args *a, const void *const *f, int64_t s, double out[2])
{
    if (a->what == QF_SLICE_MESON) qf_meson_site(f, a->prec, s, &out[0], &out[1]);
    else out[0] = qf_site_norm2(f[0], a->prec, s, a->site_reals);
}

#endif
