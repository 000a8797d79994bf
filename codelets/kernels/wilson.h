/* Site kernels of the Wilson hopping term, shared by the CPU and CUDA codelets wilson_gather,
 * wilson_interior and wilson_exterior (DESIGN.md conventions, DeGrand-Rossi basis):
 *
 *   D psi(x) = sum_mu [ (1 - s g_mu) U_mu(x) psi(x+mu) + (1 + s g_mu) U_mu(x-mu)^dagger psi(x-mu) ],
 *
 * s = +1, or s = -1 for D^dagger = g5 D g5. In this basis g_mu = [[0, B_mu], [B_mu^dagger, 0]] in 2x2
 * spin blocks with B_mu unitary and one entry a row, so (1 + t g_mu) psi is carried by the half
 * spinor h = psi_upper + t B_mu psi_lower, and the lower spins are t B_mu^dagger h.
 *
 * A hop from a site in the block is done by the interior kernel. A hop from a neighbour block comes
 * through a face: the neighbour's gather writes the projected half spinor of its side-0 sites (the
 * receiver multiplies by its own U_mu(x)), and U_mu(y)^dagger times the projected half spinor of its
 * side-1 sites (it owns U_mu(y)), so gauge links never travel. Hops that cross the lattice boundary
 * take the direction's phase (forward) or its conjugate (backward), applied by the receiver.
 *
 * Parity: an operator restricted to output parity p reads sites of parity 1 - p, and its faces hold
 * only those: half-size faces indexed by face_index / 2 (consecutive face indices differ in parity,
 * since the first face extent that is not 1 is even). Full operators use full faces.
 *
 * The operator's result is finished per site as
 *   out = C (a x + b hops)   (clover_on QF_CLOVER_ALL),   out = a C x + b hops   (QF_CLOVER_X),
 *   out = a x + b C hops     (QF_CLOVER_HOPS),            out = a x + b hops     (QF_CLOVER_NONE),
 * with C the clover field passed (A or A^-1, kernels/clover.h) and x a spinor field (a = 0: none).
 * Sites with a face hop are finished by the exterior kernel; the interior kernel stores their
 * partial hop sum in out. */
#ifndef QF_KERNEL_WILSON_H
#define QF_KERNEL_WILSON_H

#include "clover.h"
#include "spinor.h"
#include "quarkflow/qf_lattice.h"

enum { QF_CLOVER_NONE = 0, QF_CLOVER_X, QF_CLOVER_HOPS, QF_CLOVER_ALL };

typedef struct {
    int ext[QF_NDIM];      /* block extents */
    int origin[QF_NDIM];   /* global coordinates of the block's site (0, 0, 0, 0) */
    int global[QF_NDIM];   /* global extents */
    int parity;            /* parity of the output sites, or -1 for all sites */
    int dagger;            /* 1: D^dagger */
    double phase[QF_NDIM][2];
    double a, b;           /* out = a x + b hops, with the clover field where clover_on says */
    int has_x;             /* an x buffer is passed (a != 0) */
    int clover_on;         /* QF_CLOVER_* */
    qf_precision prec;
} qf_wilson_args;

/* The gather writes the faces of one block: buffers R spinor, R gauge, W faces (mu, side) in the
 * order mu = 0..3, side 0 then 1. parity is that of the sites gathered (-1: all). */
typedef struct {
    int ext[QF_NDIM];
    int parity;
    int dagger;
    qf_precision prec;
} qf_wilson_gather_args;

#define QF_WILSON_NFACES (2 * QF_NDIM)

/* B_mu as (column, phase) per row, phase = (re, im) in {1, -1, i, -i}. */
static inline QF_HD void qf_gamma_block(int mu, int row, int *col, double *pr, double *pi)
{
    /* g1: B = [[0, i], [i, 0]]; g2: [[0, -1], [1, 0]]; g3: [[i, 0], [0, -i]]; g4: 1 */
    switch (mu) {
    case 0: *col = 1 - row; *pr = 0.0; *pi = 1.0; break;
    case 1: *col = 1 - row; *pr = row ? 1.0 : -1.0; *pi = 0.0; break;
    case 2: *col = row; *pr = 0.0; *pi = row ? -1.0 : 1.0; break;
    default: *col = row; *pr = 1.0; *pi = 0.0; break;
    }
}

/* z times the unit phase pr + i pi, one of 1, -1, i, -i: once the kernels are unrolled the phase is a
 * constant and this folds to a swap and sign changes. */
static inline QF_HD qf_complex qf_cmul_unit(qf_complex z, double pr, double pi)
{
    if (pi == 0.0) return qf_cmake(pr * z.re, pr * z.im);
    return qf_cmake(-pi * z.im, pi * z.re);
}

/* h = psi_upper + t B_mu psi_lower: the half spinor of (1 + t g_mu) psi. */
static inline QF_HD qf_half_spinor qf_spin_project(const qf_spinor *psi, int mu, double t)
{
    qf_half_spinor h;
    QF_UNROLL
    for (int r = 0; r < 2; r++) {
        int col;
        double pr, pi;
        qf_gamma_block(mu, r, &col, &pr, &pi);
        for (int c = 0; c < 3; c++)
            h.h[r][c] = qf_cadd(psi->s[r][c], qf_cmul_unit(psi->s[2 + col][c], t * pr, t * pi));
    }
    return h;
}

/* acc += (1 + t g_mu) psi given its half spinor h: upper = h, lower = t B_mu^dagger h. */
static inline QF_HD void qf_spin_reconstruct_add(qf_spinor *acc, const qf_half_spinor *h, int mu, double t)
{
    QF_UNROLL
    for (int r = 0; r < 2; r++) {
        int col;
        double pr, pi;
        qf_gamma_block(mu, r, &col, &pr, &pi);
        /* row col of B^dagger has conj(phase) in column r */
        for (int c = 0; c < 3; c++) {
            acc->s[r][c] = qf_cadd(acc->s[r][c], h->h[r][c]);
            acc->s[2 + col][c] = qf_cadd(acc->s[2 + col][c], qf_cmul_unit(h->h[r][c], t * pr, -t * pi));
        }
    }
}

/* h times the boundary phase (re, im) = z. */
static inline QF_HD void qf_half_scale(qf_half_spinor *h, qf_complex z)
{
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++) h->h[r][c] = qf_cmul(z, h->h[r][c]);
}

static inline QF_HD qf_half_spinor qf_half_mul(const qf_su3 *u, const qf_half_spinor *h, int dagger)
{
    qf_half_spinor r;
    for (int a = 0; a < 2; a++) {
        if (dagger) qf_su3_dagger_mul_vec(u, h->h[a], r.h[a]);
        else qf_su3_mul_vec(u, h->h[a], r.h[a]);
    }
    return r;
}

/* U h or U^dagger h for the half spinor h of (1 + t g_mu) psi: a hop's projection carried across
 * the link, by the receiver (interior hops) or by the owner of the link (backward faces). */
static inline QF_HD qf_half_spinor qf_hop_transport(const qf_spinor *psi, const qf_su3 *u, int mu, double t, int dagger)
{
    qf_half_spinor p = qf_spin_project(psi, mu, t);
    return qf_half_mul(u, &p, dagger);
}

/* Projector signs: the forward hop uses 1 - s g_mu, the backward hop 1 + s g_mu. */
static inline QF_HD double qf_forward_sign(int dagger) { return dagger ? 1.0 : -1.0; }
static inline QF_HD double qf_backward_sign(int dagger) { return dagger ? -1.0 : 1.0; }

/* Sites the kernels loop over: those of one parity (V/2) or all (V). */
static inline QF_HD int64_t qf_wilson_nsites(const int ext[QF_NDIM], int parity)
{
    return parity < 0 ? qf_volume(ext) : qf_volume(ext) / 2;
}

static inline QF_HD int64_t qf_wilson_site(const int ext[QF_NDIM], int parity, int64_t i)
{
    return parity < 0 ? i : parity * (qf_volume(ext) / 2) + i;
}

/* ---- faces ---- */

/* Number of sites in the (mu) face of a block, for gathers of one parity (half) or all. */
static inline QF_HD int64_t qf_wilson_face_sites(const int ext[QF_NDIM], int mu, int parity)
{
    int64_t n = qf_face_volume(ext, mu, 1);
    return parity < 0 ? n : n / 2;
}

/* Face buffer index of block-local site y in the (mu, side) face. */
static inline QF_HD int64_t qf_wilson_face_index(const int y[QF_NDIM], const int ext[QF_NDIM], int mu, int side,
                                                 int parity)
{
    int64_t f = qf_face_site_index(y, ext, mu, side, 1);
    return parity < 0 ? f : f / 2;
}

/* Block-local coordinates of face buffer entry f of the (mu, side) face (inverse of the above). */
static inline QF_HD void qf_wilson_face_coords(int64_t f, const int ext[QF_NDIM], int mu, int side, int parity,
                                               int y[QF_NDIM])
{
    if (parity < 0) {
        qf_face_site_coords(f, ext, mu, side, 1, y);
        return;
    }
    qf_face_site_coords(2 * f, ext, mu, side, 1, y);
    if (qf_parity(y) != parity) y[mu == 0 ? 1 : 0] += 1;
}

/* Gather entry t of all eight faces (flattened: mu, side, then face entry). face[k] is the buffer of
 * face k = 2 mu + side. */
static inline QF_HD_INLINE void qf_wilson_gather_site(const void *spinor, const void *gauge, void *const face[QF_WILSON_NFACES],
                                               int64_t t, const qf_wilson_gather_args *a)
{
    int mu = 0;
    int64_t n = qf_wilson_face_sites(a->ext, 0, a->parity);
    while (t >= 2 * n) {
        t -= 2 * n;
        mu++;
        n = qf_wilson_face_sites(a->ext, mu, a->parity);
    }
    int side = t >= n;
    int64_t f = t - side * n;
    int y[QF_NDIM];
    qf_wilson_face_coords(f, a->ext, mu, side, a->parity, y);
    int64_t s = qf_block_site_index(y, a->ext);
    qf_spinor psi = qf_spinor_load(spinor, a->prec, s);
    qf_half_spinor h;
    if (side == 0) { /* for the forward hop of the block below: projected only */
        h = qf_spin_project(&psi, mu, qf_forward_sign(a->dagger));
    } else {         /* for the backward hop of the block above: U_mu(y)^dagger times projected */
        qf_su3 u = qf_su3_load(gauge, a->prec, (size_t)(4 * s + mu));
        h = qf_hop_transport(&psi, &u, mu, qf_backward_sign(a->dagger), 1);
    }
    qf_half_store(face[2 * mu + side], a->prec, f, &h);
}

static inline QF_HD int64_t qf_wilson_gather_total(const qf_wilson_gather_args *a)
{
    int64_t n = 0;
    for (int mu = 0; mu < QF_NDIM; mu++) n += 2 * qf_wilson_face_sites(a->ext, mu, a->parity);
    return n;
}

/* ---- interior and exterior ---- */

static inline QF_HD int qf_on_face(const int x[QF_NDIM], const int ext[QF_NDIM])
{
    int on = 0;
    for (int mu = 0; mu < QF_NDIM; mu++) on |= x[mu] == 0 || x[mu] == ext[mu] - 1;
    return on;
}

/* out(s) = finished result from the complete hop sum acc. */
static inline QF_HD_INLINE void qf_wilson_finish(void *out, const void *x, const void *clover, int64_t s, qf_spinor *acc,
                                          const qf_wilson_args *a)
{
    qf_spinor xs = a->has_x ? qf_spinor_load(x, a->prec, s) : qf_spinor_zero();
    qf_spinor r;
    switch (a->clover_on) {
    case QF_CLOVER_X: {
        qf_spinor cx = qf_clover_apply_site(clover, a->prec, s, &xs);
        r = qf_spinor_axpby(a->a, &cx, a->b, acc);
        break;
    }
    case QF_CLOVER_HOPS: {
        qf_spinor ch = qf_clover_apply_site(clover, a->prec, s, acc);
        r = qf_spinor_axpby(a->a, &xs, a->b, &ch);
        break;
    }
    case QF_CLOVER_ALL: {
        qf_spinor t = qf_spinor_axpby(a->a, &xs, a->b, acc);
        r = qf_clover_apply_site(clover, a->prec, s, &t);
        break;
    }
    default: r = qf_spinor_axpby(a->a, &xs, a->b, acc); break;
    }
    qf_spinor_store(out, a->prec, s, &r);
}

/* Interior: the hops from sites inside the block, for the output site s at block coordinates xc;
 * finishes sites with no face hop, stores the partial hop sum of the others. */
static inline QF_HD_INLINE void qf_wilson_interior_at(void *out, const void *in, const void *gauge, const void *x,
                                                      const void *clover, int64_t s, int xc[QF_NDIM],
                                                      const qf_wilson_args *a)
{
    qf_spinor acc = qf_spinor_zero();
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++) {
        if (xc[mu] + 1 < a->ext[mu]) {
            xc[mu] += 1;
            qf_spinor psi = qf_spinor_load(in, a->prec, qf_block_site_index(xc, a->ext));
            xc[mu] -= 1;
            double t = qf_forward_sign(a->dagger);
            qf_su3 u = qf_su3_load(gauge, a->prec, (size_t)(4 * s + mu));
            qf_half_spinor h = qf_hop_transport(&psi, &u, mu, t, 0);
            qf_spin_reconstruct_add(&acc, &h, mu, t);
        }
        if (xc[mu] > 0) {
            xc[mu] -= 1;
            int64_t sb = qf_block_site_index(xc, a->ext);
            xc[mu] += 1;
            qf_spinor psi = qf_spinor_load(in, a->prec, sb);
            double t = qf_backward_sign(a->dagger);
            qf_su3 u = qf_su3_load(gauge, a->prec, (size_t)(4 * sb + mu));
            qf_half_spinor h = qf_hop_transport(&psi, &u, mu, t, 1);
            qf_spin_reconstruct_add(&acc, &h, mu, t);
        }
    }
    if (qf_on_face(xc, a->ext)) qf_spinor_store(out, a->prec, s, &acc);
    else qf_wilson_finish(out, x, clover, s, &acc, a);
}

/* The same for output site number i (qf_wilson_site), one thread per site on GPUs. */
static inline QF_HD_INLINE void qf_wilson_interior_site(void *out, const void *in, const void *gauge, const void *x,
                                                        const void *clover, int64_t i, const qf_wilson_args *a)
{
    int64_t s = qf_wilson_site(a->ext, a->parity, i);
    int xc[QF_NDIM];
    qf_block_site_coords(s, a->ext, xc);
    qf_wilson_interior_at(out, in, gauge, x, clover, s, xc, a);
}

/* Exterior: adds the face hops of output site i to its partial sum and finishes it. nbr_face[k] is
 * the neighbour's face for k = 2 mu + 1 (forward hop: the +mu neighbour's side-0 face) and k = 2 mu
 * (backward hop: the -mu neighbour's side-1 face). */
static inline QF_HD_INLINE void qf_wilson_exterior_at(void *out, const void *gauge, const void *x, const void *clover,
                                                      const void *const nbr_face[QF_WILSON_NFACES], int64_t s,
                                                      const int xc[QF_NDIM], const qf_wilson_args *a)
{
    if (!qf_on_face(xc, a->ext)) return;
    int src_parity = a->parity < 0 ? -1 : 1 - a->parity;
    qf_spinor acc = qf_spinor_load(out, a->prec, s);
    QF_UNROLL
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int y[QF_NDIM] = {xc[0], xc[1], xc[2], xc[3]};
        if (xc[mu] == a->ext[mu] - 1) {
            y[mu] = 0;
            qf_half_spinor p = qf_half_load(nbr_face[2 * mu + 1], a->prec,
                                            qf_wilson_face_index(y, a->ext, mu, 0, src_parity));
            qf_su3 u = qf_su3_load(gauge, a->prec, (size_t)(4 * s + mu));
            qf_half_spinor h = qf_half_mul(&u, &p, 0);
            if (a->origin[mu] + xc[mu] == a->global[mu] - 1) /* the hop crosses the lattice boundary */
                qf_half_scale(&h, qf_cmake(a->phase[mu][0], a->phase[mu][1]));
            qf_spin_reconstruct_add(&acc, &h, mu, qf_forward_sign(a->dagger));
        }
        if (xc[mu] == 0) {
            y[mu] = a->ext[mu] - 1;
            qf_half_spinor h = qf_half_load(nbr_face[2 * mu], a->prec,
                                            qf_wilson_face_index(y, a->ext, mu, 1, src_parity));
            if (a->origin[mu] == 0) qf_half_scale(&h, qf_cmake(a->phase[mu][0], -a->phase[mu][1]));
            qf_spin_reconstruct_add(&acc, &h, mu, qf_backward_sign(a->dagger));
        }
    }
    qf_wilson_finish(out, x, clover, s, &acc, a);
}

static inline QF_HD_INLINE void qf_wilson_exterior_site(void *out, const void *gauge, const void *x, const void *clover,
                                                        const void *const nbr_face[QF_WILSON_NFACES], int64_t i,
                                                        const qf_wilson_args *a)
{
    int64_t s = qf_wilson_site(a->ext, a->parity, i);
    int xc[QF_NDIM];
    qf_block_site_coords(s, a->ext, xc);
    qf_wilson_exterior_at(out, gauge, x, clover, nbr_face, s, xc, a);
}

/* Visits the output sites of a block in storage order with their coordinates, without divisions:
 * the CPU loops of the interior and exterior codelets. */
#define QF_WILSON_FOR_SITES(a, s, xc, body)                                                                    \
    do {                                                                                                       \
        int64_t half_ = qf_volume((a)->ext) / 2;                                                              \
        for (int p_ = 0; p_ < 2; p_++) {                                                                      \
            if ((a)->parity >= 0 && p_ != (a)->parity) continue;                                              \
            int64_t s = p_ * half_;                                                                            \
            int xc[QF_NDIM];                                                                                   \
            for (xc[3] = 0; xc[3] < (a)->ext[3]; xc[3]++)                                                     \
                for (xc[2] = 0; xc[2] < (a)->ext[2]; xc[2]++)                                                 \
                    for (xc[1] = 0; xc[1] < (a)->ext[1]; xc[1]++) {                                           \
                        int x0_ = (p_ + xc[1] + xc[2] + xc[3]) & 1;                                            \
                        for (xc[0] = x0_; xc[0] < (a)->ext[0]; xc[0] += 2, s++) { body; }                      \
                    }                                                                                          \
        }                                                                                                      \
    } while (0)

/* Runs stmt with b a copy of *a whose precision and dagger flag are compile-time constants in each
 * branch, so that the inlined site kernels specialise on them. */
#define QF_WILSON_SPECIALISE(a, b, stmt)                                                                       \
    do {                                                                                                       \
        qf_wilson_args b = *(a);                                                                               \
        if ((a)->prec == QF_DOUBLE && !(a)->dagger) { b.prec = QF_DOUBLE; b.dagger = 0; stmt; }                \
        else if ((a)->prec == QF_DOUBLE) { b.prec = QF_DOUBLE; b.dagger = 1; stmt; }                           \
        else if (!(a)->dagger) { b.prec = QF_SINGLE; b.dagger = 0; stmt; }                                     \
        else { b.prec = QF_SINGLE; b.dagger = 1; stmt; }                                                       \
    } while (0)

#endif
