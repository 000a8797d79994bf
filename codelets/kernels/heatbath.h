/* Site kernels of the quenched Wilson-action update: staples, and the Cabibbo-Marinari update of one
 * link over its three SU(2) subgroups, by Kennedy-Pendleton heatbath or by overrelaxation.
 *
 * The local action of U = U_mu(x) is -(beta/3) Re Tr(U A), A the sum of the six staples. A subgroup
 * update U -> R U, R = r embedded in rows and columns (i, j), changes it through Re Tr(r M), M the
 * (i, j) block of W = U A, and Re Tr(r M) = r . v with v = (Re M00 + Re M11, -Im M01 - Im M10,
 * Re M10 - Re M01, Im M11 - Im M00) for r = r0 + i r.sigma = [[r0 + i r3, r2 + i r1],
 * [-r2 + i r1, r0 - i r3]]. The heatbath draws x with density ~ exp(a x0), a = beta |v| / 3, and sets
 * r = x V (V the SU(2) matrix of v / |v|), so that r . v / |v| = x0; overrelaxation sets r = V V, which
 * reflects the link about the staple and leaves the action unchanged.
 *
 * Staples across a block face: the upper staple needs U_nu(x + mu) and U_mu(x + nu) (the forward
 * neighbours' side-0 faces); the lower staple L(y) = U_nu(y + mu)^dagger U_mu(y)^dagger U_nu(y) at
 * y = x - nu is computed by the block that owns y when y lies behind the face, and sent as a face. */
#ifndef QF_KERNEL_HEATBATH_H
#define QF_KERNEL_HEATBATH_H

#include "gauge_obs.h"
#include "random.h"

typedef enum { QF_UPDATE_HEATBATH = 0, QF_UPDATE_OVERRELAX } qf_update_kind;

/* A heatbath draw gives up after this many Kennedy-Pendleton rejections and leaves the subgroup
 * unchanged: at the smallest couplings used (beta ~ 0.1) acceptance is several per cent, so this
 * never happens in practice, and it keeps a kernel's running time bounded. */
#define QF_KP_MAX_ATTEMPTS 4096
/* Random draws reserved for one subgroup of one link update. */
#define QF_KP_DRAWS_PER_SUBGROUP (1u << 16)

typedef struct {
    int ext[QF_NDIM];
    int origin[QF_NDIM]; /* global coordinates of the block's first site */
    int global[QF_NDIM];
    int mu, parity;
    qf_update_kind kind;
    double beta;
    uint64_t seed;
    int sweep;
    qf_precision prec;
    int team; /* CPU: the sites shared among the team (cpu_team.h) */
} qf_update_args;

/* The argument block of one update stage on a block of ext at origin, of a lattice of global extents. */
static inline qf_update_args qf_update_args_make(const int ext[QF_NDIM], const int origin[QF_NDIM],
                                                 const int global[QF_NDIM], int mu, int parity, int overrelax,
                                                 double beta, uint64_t seed, int sweep, qf_precision prec)
{
    qf_update_args a = {.mu = mu, .parity = parity, .kind = overrelax ? QF_UPDATE_OVERRELAX : QF_UPDATE_HEATBATH,
                        .beta = beta, .seed = seed, .sweep = sweep, .prec = prec};
    for (int k = 0; k < QF_NDIM; k++) {
        a.ext[k] = ext[k];
        a.origin[k] = origin[k];
        a.global[k] = global[k];
    }
    return a;
}

/* L(y) = U_nu(y + mu)^dagger U_mu(y)^dagger U_nu(y) for block-local y (y + mu may be in the face). */
static inline QF_HD qf_su3 qf_lower_staple(const void *block, const void *const fwd_faces[QF_NDIM], const int y[QF_NDIM],
                                           const int ext[QF_NDIM], int mu, int nu, qf_precision prec)
{
    int64_t s = qf_block_site_index(y, ext);
    qf_su3 u_mu_y = qf_su3_load(block, prec, (size_t)(4 * s + mu));
    qf_su3 u_nu_y = qf_su3_load(block, prec, (size_t)(4 * s + nu));
    qf_su3 u_nu_ypmu = qf_gauge_link_forward(block, fwd_faces, y, ext, mu, nu, prec);
    qf_su3 t = qf_su3_mul(&u_mu_y, &u_nu_ypmu);
    return qf_su3_mul_dn(&t, &u_nu_y);
}

/* Sum of the six staples of U_mu(x). lower_faces[nu] is the -nu neighbour's face of lower staples
 * (18 doubles a face site), used where x - nu lies behind the block face. */
static inline QF_HD qf_su3 qf_staple_sum(const void *block, const void *const fwd_faces[QF_NDIM],
                                         const double *const lower_faces[QF_NDIM], const int x[QF_NDIM],
                                         const int ext[QF_NDIM], int mu, qf_precision prec)
{
    qf_su3 a = qf_su3_zero();
    int64_t s = qf_block_site_index(x, ext);
    for (int nu = 0; nu < QF_NDIM; nu++) {
        if (nu == mu) continue;
        qf_su3 u_nu_x = qf_su3_load(block, prec, (size_t)(4 * s + nu));
        qf_su3 u_nu_xpmu = qf_gauge_link_forward(block, fwd_faces, x, ext, mu, nu, prec);
        qf_su3 u_mu_xpnu = qf_gauge_link_forward(block, fwd_faces, x, ext, nu, mu, prec);
        qf_su3 t = qf_su3_mul_nd(&u_nu_xpmu, &u_mu_xpnu);
        qf_su3 upper = qf_su3_mul_nd(&t, &u_nu_x);
        qf_su3_add_to(&a, &upper);
        qf_su3 lower;
        if (x[nu] > 0) {
            int y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
            y[nu] -= 1;
            lower = qf_lower_staple(block, fwd_faces, y, ext, mu, nu, prec);
        } else {
            lower = qf_su3_load(lower_faces[nu], QF_DOUBLE, (size_t)qf_face_site_index(x, ext, nu, 0, 1));
        }
        qf_su3_add_to(&a, &lower);
    }
    return a;
}

/* r = x y for SU(2) elements as 4-vectors in the parametrisation above. */
static inline QF_HD void qf_su2_mul(const double x[4], const double y[4], double r[4])
{
    r[0] = x[0] * y[0] - x[1] * y[1] - x[2] * y[2] - x[3] * y[3];
    r[1] = x[0] * y[1] + x[1] * y[0] - x[2] * y[3] + x[3] * y[2];
    r[2] = x[0] * y[2] + x[2] * y[0] - x[3] * y[1] + x[1] * y[3];
    r[3] = x[0] * y[3] + x[3] * y[0] - x[1] * y[2] + x[2] * y[1];
}

/* Kennedy-Pendleton: x with density ~ sqrt(1 - x0^2) exp(a x0) on the unit 3-sphere. Returns 0 when
 * every attempt was rejected. */
static inline QF_HD int qf_kennedy_pendleton(const qf_rng_key *key, uint32_t draw, double a, double x[4])
{
    for (int attempt = 0; attempt < QF_KP_MAX_ATTEMPTS; attempt++) {
        double u[2], w[2], s, c;
        qf_rng_uniform2(key, draw++, u);
        qf_rng_uniform2(key, draw++, w);
        qf_sincos_2pi(u[1], &s, &c);
        double l2 = -(qf_log(u[0]) + c * c * qf_log(w[0])) / (2.0 * a);
        if (w[1] * w[1] > 1.0 - l2) continue;
        x[0] = 1.0 - 2.0 * l2;
        double d[2];
        qf_rng_uniform2(key, draw, d);
        double cos_t = 2.0 * d[0] - 1.0, sin_t = sqrt(1.0 - cos_t * cos_t), sp, cp;
        double r = sqrt(1.0 - x[0] * x[0]);
        qf_sincos_2pi(d[1], &sp, &cp);
        x[1] = r * sin_t * cp;
        x[2] = r * sin_t * sp;
        x[3] = r * cos_t;
        return 1;
    }
    return 0;
}

/* One Cabibbo-Marinari pass over the subgroups (0,1), (0,2), (1,2): U -> R U. */
static inline QF_HD void qf_cabibbo_marinari(qf_su3 *u, const qf_su3 *staple, const qf_update_args *a,
                                             const qf_rng_key *key)
{
    const int rows[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int g = 0; g < 3; g++) {
        int i = rows[g][0], j = rows[g][1];
        qf_su3 w = qf_su3_mul(u, staple);
        double v[4] = {w.e[i][i].re + w.e[j][j].re, -(w.e[i][j].im + w.e[j][i].im), w.e[j][i].re - w.e[i][j].re,
                       w.e[j][j].im - w.e[i][i].im};
        double k = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        if (!(k > 1e-300)) continue;
        double vh[4] = {v[0] / k, v[1] / k, v[2] / k, v[3] / k}, r[4];
        if (a->kind == QF_UPDATE_OVERRELAX) {
            qf_su2_mul(vh, vh, r);
        } else {
            double x[4];
            if (!qf_kennedy_pendleton(key, (uint32_t)g * QF_KP_DRAWS_PER_SUBGROUP, a->beta * k / 3.0, x)) continue;
            qf_su2_mul(x, vh, r);
        }
        /* rows i and j of R U, with r = [[r0 + i r3, r2 + i r1], [-r2 + i r1, r0 - i r3]] */
        qf_complex r00 = qf_cmake(r[0], r[3]), r01 = qf_cmake(r[2], r[1]);
        qf_complex r10 = qf_cmake(-r[2], r[1]), r11 = qf_cmake(r[0], -r[3]);
        for (int c = 0; c < 3; c++) {
            qf_complex ui = u->e[i][c], uj = u->e[j][c];
            u->e[i][c] = qf_cadd(qf_cmul(r00, ui), qf_cmul(r01, uj));
            u->e[j][c] = qf_cadd(qf_cmul(r10, ui), qf_cmul(r11, uj));
        }
    }
}

/* Updates U_mu at the block's site s (of the stage's parity) and reunitarises it. */
static inline QF_HD void qf_update_site(void *block, const void *const fwd_faces[QF_NDIM],
                                        const double *const lower_faces[QF_NDIM], int64_t s, const qf_update_args *a)
{
    int x[QF_NDIM], g[QF_NDIM];
    qf_block_site_coords(s, a->ext, x);
    for (int nu = 0; nu < QF_NDIM; nu++) g[nu] = x[nu] + a->origin[nu];
    qf_su3 staple = qf_staple_sum(block, fwd_faces, lower_faces, x, a->ext, a->mu, a->prec);
    qf_su3 u = qf_su3_load(block, a->prec, (size_t)(4 * s + a->mu));
    qf_rng_key key = {a->seed, qf_lex_index(g, a->global), a->mu, a->sweep};
    qf_cabibbo_marinari(&u, &staple, a, &key);
    qf_su3_reunitarize(&u);
    qf_su3_store(block, a->prec, (size_t)(4 * s + a->mu), &u);
}

/* Lower staples L(y) of the block's side-1 face in direction nu, for the stage's mu, into the face. */
static inline QF_HD void qf_lower_staple_face_site(const void *block, const void *const fwd_faces[QF_NDIM], double *face,
                                                   int64_t f, const int ext[QF_NDIM], int mu, int nu, qf_precision prec)
{
    int y[QF_NDIM];
    qf_face_site_coords(f, ext, nu, 1, 1, y);
    qf_su3 l = qf_lower_staple(block, fwd_faces, y, ext, mu, nu, prec);
    qf_su3_store(face, QF_DOUBLE, (size_t)f, &l);
}

#endif
