/* Site kernels of gauge observables: the plaquettes and link traces at one site, reading forward
 * neighbours from the block or from the neighbours' 1-deep faces (4 links a face site). */
#ifndef QF_KERNEL_GAUGE_OBS_H
#define QF_KERNEL_GAUGE_OBS_H

#include "face.h"
#include "su3.h"

/* Link U_nu at the site x + mu. */
static inline QF_HD qf_su3 qf_gauge_link_forward(const void *block, const void *const faces[QF_NDIM],
                                                 const int x[QF_NDIM], const int ext[QF_NDIM], int mu, int nu,
                                                 qf_precision prec)
{
    int in_face;
    int64_t s = qf_forward_site(x, ext, mu, &in_face);
    return qf_su3_load(in_face ? faces[mu] : block, prec, (size_t)(4 * s + nu));
}

/* Adds the site's sums of Re Tr: sums[0] spatial plaquettes (3 planes), sums[1] temporal plaquettes
 * (3 planes), sums[2] link traces (4 links). */
static inline QF_HD void qf_gauge_site_sums(const void *block, const void *const faces[QF_NDIM], int64_t s,
                                            const int ext[QF_NDIM], qf_precision prec, double sums[3])
{
    int x[QF_NDIM];
    qf_block_site_coords(s, ext, x);
    qf_su3 u[QF_NDIM];
    for (int mu = 0; mu < QF_NDIM; mu++) {
        u[mu] = qf_su3_load(block, prec, (size_t)(4 * s + mu));
        sums[2] += qf_su3_retrace(&u[mu]);
    }
    for (int mu = 0; mu < QF_NDIM; mu++)
        for (int nu = mu + 1; nu < QF_NDIM; nu++) {
            qf_su3 u_nu_xpmu = qf_gauge_link_forward(block, faces, x, ext, mu, nu, prec);
            qf_su3 u_mu_xpnu = qf_gauge_link_forward(block, faces, x, ext, nu, mu, prec);
            double p = qf_plaquette_site(&u[mu], &u_nu_xpmu, &u_mu_xpnu, &u[nu]);
            sums[nu == 3 ? 1 : 0] += p;
        }
}

/* The argument block of plaquette and plaquette_matrix. */
typedef struct {
    int ext[QF_NDIM];
    qf_precision prec;
    int team; /* CPU: the sites shared among the team (cpu_team.h) */
} qf_plaquette_args;

#endif
