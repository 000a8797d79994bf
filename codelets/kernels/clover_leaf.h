/* Site kernels of the clover-leaf field strength F_munu = (Q - Q^dagger) / 8, Q the four plaquette
 * leaves around x in the plane (mu, nu), built with faces only one site deep:
 *
 *   P(y)       = U_mu(y) U_nu(y + mu) U_mu(y + nu)^dagger U_nu(y)^dagger      (plaquette matrix)
 *   S_rho(M)(x) = U_rho(x - rho)^dagger M(x - rho) U_rho(x - rho)              (backward transport)
 *   R = P + S_nu(P),   Q = R + S_mu(R) = P + S_nu P + S_mu P + S_mu S_nu P.
 *
 * S_mu P(x) = U_nu(x) U_mu(x - mu + nu)^dagger U_nu(x - mu)^dagger U_mu(x - mu) is the leaf behind x in
 * mu, S_nu P the leaf behind it in nu, S_mu S_nu P the leaf diagonally behind; each starts and ends at
 * x. A transport pass applies S_{dir[p]} to plane p: where x - rho lies behind the block face, the
 * -rho neighbour, which owns the links U_rho(y) of its side-1 face, has sent U^dagger M U as a face.
 *
 * Storage: the per-block matrices P and R are 6 planes x 18 doubles a site (planes 01 02 03 12 13 23,
 * site order of the block, qf_lattice.h); a transport face holds QF_LEAF_FACE_SLOTS matrices (18
 * doubles each) a face site: the planes transported in that direction, in increasing plane order. */
#ifndef QF_KERNEL_CLOVER_LEAF_H
#define QF_KERNEL_CLOVER_LEAF_H

#include "gauge_obs.h"

#define QF_NPLANES 6
/* Most planes a transport pass carries across one direction (S_nu: t carries 03 13 23; S_mu: x
 * carries 01 02 03). */
#define QF_LEAF_FACE_SLOTS 3

/* Plane index of (mu, nu), mu < nu: 01 02 03 12 13 23 -> 0..5. */
static inline QF_HD int qf_plane_index(int mu, int nu) { return mu == 0 ? nu - 1 : mu + nu; }

/* The slot of plane p in a face of direction dir[p]: how many earlier planes go the same way. */
static inline QF_HD int qf_leaf_face_slot(const int dir[QF_NPLANES], int p)
{
    int k = 0;
    for (int q = 0; q < p; q++) k += dir[q] == dir[p];
    return k;
}

/* P at site s of the block for all six planes (forward links from the block or the side-0 faces of
 * the forward neighbours), into pm (6 matrices a site, double). */
static inline QF_HD void qf_plaquette_matrix_site(const void *block, const void *const faces[QF_NDIM], double *pm,
                                                  int64_t s, const int ext[QF_NDIM], qf_precision prec)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++)
        for (int nu = mu + 1; nu < QF_NDIM; nu++) {
            qf_su3 u_mu = qf_su3_load(block, prec, (size_t)(4 * s + mu));
            qf_su3 u_nu = qf_su3_load(block, prec, (size_t)(4 * s + nu));
            qf_su3 u_nu_xpmu = qf_gauge_link_forward(block, faces, x, ext, mu, nu, prec);
            qf_su3 u_mu_xpnu = qf_gauge_link_forward(block, faces, x, ext, nu, mu, prec);
            qf_su3 left = qf_su3_mul(&u_mu, &u_nu_xpmu);   /* U_mu(x) U_nu(x+mu) */
            qf_su3 right = qf_su3_mul(&u_nu, &u_mu_xpnu);  /* U_nu(x) U_mu(x+nu) */
            qf_su3 p = qf_su3_mul_nd(&left, &right);
            qf_su3_store(pm, QF_DOUBLE, (size_t)(QF_NPLANES * s + qf_plane_index(mu, nu)), &p);
        }
}

/* U_rho(y)^dagger M_p(y) U_rho(y) for block-local y and a per-site matrix field m (6 planes). */
static inline QF_HD qf_su3 qf_leaf_transport(const void *block, const double *m, const int y[QF_NDIM],
                                             const int ext[QF_NDIM], int rho, int p, qf_precision prec)
{
    int64_t s = qf_block_site_index(y, ext);
    qf_su3 u = qf_su3_load(block, prec, (size_t)(4 * s + rho));
    qf_su3 mp = qf_su3_load(m, QF_DOUBLE, (size_t)(QF_NPLANES * s + p));
    qf_su3 t = qf_su3_mul_dn(&u, &mp);
    return qf_su3_mul(&t, &u);
}

/* Sender: for face site f of the block's side-1 face in direction rho, the transported matrices of
 * the planes p with dir[p] == rho, into the face's slots. */
static inline QF_HD void qf_leaf_face_site(const void *block, const double *m, double *face, int64_t f,
                                           const int ext[QF_NDIM], int rho, const int dir[QF_NPLANES],
                                           qf_precision prec)
{
    int y[QF_NDIM];
    qf_face_site_coords(f, ext, rho, 1, 1, y);
    for (int p = 0; p < QF_NPLANES; p++) {
        if (dir[p] != rho) continue;
        qf_su3 t = qf_leaf_transport(block, m, y, ext, rho, p, prec);
        qf_su3_store(face, QF_DOUBLE, (size_t)(QF_LEAF_FACE_SLOTS * f + qf_leaf_face_slot(dir, p)), &t);
    }
}

/* Receiver: out_p(x) = M_p(x) + S_{dir[p]}(M_p)(x) at site s for every plane, taking the transported
 * matrix from inside the block or from the -rho neighbour's side-1 face (faces[rho]). With finish
 * set, stores F = (Q - Q^dagger) / 8 of that sum in out_prec; otherwise the sum itself in double. */
static inline QF_HD void qf_leaf_sum_site(const void *block, const double *m, const double *const faces[QF_NDIM],
                                          void *out, int64_t s, const int ext[QF_NDIM], const int dir[QF_NPLANES],
                                          int finish, qf_precision prec, qf_precision out_prec)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, ext, x);
    for (int p = 0; p < QF_NPLANES; p++) {
        int rho = dir[p];
        int y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
        qf_su3 t;
        if (x[rho] > 0) {
            y[rho] -= 1;
            t = qf_leaf_transport(block, m, y, ext, rho, p, prec);
        } else {
            y[rho] = ext[rho] - 1;
            int64_t f = qf_face_site_index(y, ext, rho, 1, 1);
            t = qf_su3_load(faces[rho], QF_DOUBLE, (size_t)(QF_LEAF_FACE_SLOTS * f + qf_leaf_face_slot(dir, p)));
        }
        qf_su3 q = qf_su3_load(m, QF_DOUBLE, (size_t)(QF_NPLANES * s + p));
        qf_su3_add_to(&q, &t);
        if (finish) {
            qf_su3 fm;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    fm.e[i][j] = qf_cscale(0.125, qf_csub(q.e[i][j], qf_cconj(q.e[j][i])));
            qf_su3_store(out, out_prec, (size_t)(QF_NPLANES * s + p), &fm);
        } else {
            qf_su3_store(out, QF_DOUBLE, (size_t)(QF_NPLANES * s + p), &q);
        }
    }
}

/* The argument block of leaf_transport and leaf_sum. */
#define QF_LEAF_FACE_DIRS 3
typedef struct {
    int ext[QF_NDIM];
    int dir[QF_NPLANES];               /* the transport S_rho of plane p crosses rho = dir[p] */
    int face_dir[QF_LEAF_FACE_DIRS];   /* the distinct directions in dir[], increasing: face buffer order */
    int finish;                        /* 0: out = M + S(M) in double; 1: out = (Q - Q^dagger) / 8 */
    qf_precision prec;                 /* of the gauge field */
    qf_precision out_prec;             /* of out when finish is set */
    int team;                          /* leaf_sum on CPUs: the sites shared among the team (cpu_team.h) */
} qf_leaf_args;

/* The arguments of transport pass 1 (S_nu of each plane mu < nu, into double) or 2 (S_mu, finishing F
 * in out_prec) on blocks of ext; face_dir: the distinct directions, increasing (nu takes 1 2 3, mu
 * takes 0 1 2: QF_LEAF_FACE_DIRS of them either way). */
static inline qf_leaf_args qf_leaf_args_make(const int ext[QF_NDIM], int pass, qf_precision prec, qf_precision out_prec)
{
    qf_leaf_args a;
    for (int mu = 0; mu < QF_NDIM; mu++) a.ext[mu] = ext[mu];
    for (int mu = 0; mu < QF_NDIM; mu++)
        for (int nu = mu + 1; nu < QF_NDIM; nu++) a.dir[qf_plane_index(mu, nu)] = pass == 1 ? nu : mu;
    int k = 0;
    for (int rho = 0; rho < QF_NDIM; rho++) {
        int used = 0;
        for (int p = 0; p < QF_NPLANES; p++) used |= a.dir[p] == rho;
        if (used) a.face_dir[k++] = rho;
    }
    a.finish = pass == 2;
    a.prec = prec;
    a.out_prec = pass == 2 ? out_prec : QF_DOUBLE;
    a.team = 0;
    return a;
}

#endif
