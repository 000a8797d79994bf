/* The asqtad fat and Naik links as a task graph (include/quarkflow/qf_staggered.h): MILC's staple
 * algorithm (load_fatlinks), each staple a one-hop step through faces (kernels/staggered.h):
 *
 *   V = phased links;  F_mu = (c1 - 6 cL) V_mu;  L_mu = cN V_mu V_mu(+mu) V_mu(+2mu)
 *   for nu != mu:      S1 = S_nu[V_mu],  F_mu += c3 S1;  F_mu += cL S_nu[S1]
 *     for rho:         S2 = S_rho[S1],   F_mu += c5 S2
 *       for sigma:     F_mu += c7 S_sigma[S2]
 *
 * The Lepage term S_nu[S_nu[V_mu]] includes the two paths that go out along nu and straight back, each
 * V_mu itself: the one-link coefficient subtracts them (c1 - 6 cL), as MILC does. A staple step is a
 * gather per block (the nu faces of W and of U_nu^dag W U_nu(+mu)) and a staple task per block; the
 * blocks of a step run side by side, the steps in turn (they accumulate into F_mu and share S1, S2 and
 * the faces). */
#include "tasks.h"
#include "quarkflow/qf_staggered.h"

#include <math.h>

qf_asqtad_coefficients qf_asqtad_coefficients_for(double u0)
{
    double u2 = 1.0 / (u0 * u0), u4 = u2 * u2, u6 = u4 * u2;
    return (qf_asqtad_coefficients){.one_link = 5.0 / 8.0,
                                    .naik = -u2 / 24.0,
                                    .staple3 = -u2 / 16.0,
                                    .staple5 = u4 / 64.0,
                                    .staple7 = -u6 / 384.0,
                                    .lepage = -u4 / 16.0};
}

qf_asqtad_link_params qf_asqtad_default_link_params(double u0)
{
    qf_asqtad_link_params p = {.u0 = u0};
    for (int mu = 0; mu < QF_NDIM; mu++) p.phase[mu][0] = mu == 3 ? -1.0 : 1.0;
    return p;
}

typedef struct {
    const qf_field *v;  /* phased links */
    qf_field *links;    /* the asqtad links being built */
    qf_face_set faces;  /* one staple step's nu faces */
} smearing;

/* links' F_mu += coef S_nu[W] (W: w, or V_mu with w NULL), S into keep unless NULL. */
static int staple(smearing *g, const qf_field *w, int mu, int nu, double coef, qf_field *keep)
{
    const qf_lattice *lat = g->v->lat;
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_lattice_block_is_near(lat, b) && qf_insert_asqtad_staple_gather(g->v, w, &g->faces, b, mu, nu))
            return QF_ERROR;
    /* near, not local: a staple reads its neighbours' faces, which StarPU-MPI sends only where their
     * owner inserts the task too (runtime/mpi_data.h) */
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_lattice_block_is_near(lat, b) && qf_insert_asqtad_staple(g->v, w, &g->faces, g->links, keep, b, mu, nu, coef))
            return QF_ERROR;
    return QF_SUCCESS;
}

static int fat_direction(smearing *g, const qf_asqtad_coefficients *c, int mu, qf_field *s1, qf_field *s2)
{
    for (int nu = 0; nu < QF_NDIM; nu++) {
        if (nu == mu) continue;
        if (staple(g, NULL, mu, nu, c->staple3, s1) || staple(g, s1, mu, nu, c->lepage, NULL)) return QF_ERROR;
        for (int rho = 0; rho < QF_NDIM; rho++) {
            if (rho == mu || rho == nu) continue;
            if (staple(g, s1, mu, rho, c->staple5, s2)) return QF_ERROR;
            for (int sigma = 0; sigma < QF_NDIM; sigma++)
                if (sigma != mu && sigma != nu && sigma != rho && staple(g, s2, mu, sigma, c->staple7, NULL))
                    return QF_ERROR;
        }
    }
    return QF_SUCCESS;
}

static int check_params(const qf_field *gauge, const qf_asqtad_link_params *p)
{
    if (!gauge || !p) return qf_fail("qf_asqtad_links: the gauge field or the parameters are NULL");
    if (qf_field_get_shape(gauge)->kind != QF_FIELD_GAUGE)
        return qf_fail("qf_asqtad_links: smears a gauge field, not a %s field", qf_field_kind_name(qf_field_get_shape(gauge)->kind));
    if (qf_precision_check_full(qf_field_precision(gauge), "the gauge field of the asqtad smearing")) return QF_ERROR;
    if (!(p->u0 > 0.0 && p->u0 <= 1.0))
        return qf_fail("tadpole factor u0 = %g: give a value in (0, 1] (the fourth root of the plaquette, or 1 for none)",
                       p->u0);
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (!(fabs(hypot(p->phase[mu][0], p->phase[mu][1]) - 1.0) < 1e-12))
            return qf_fail("boundary phase (%g, %g) in direction %d: a phase has modulus 1", p->phase[mu][0],
                           p->phase[mu][1], mu);
    return QF_SUCCESS;
}

int qf_asqtad_links(const qf_field *gauge, const qf_asqtad_link_params *p, qf_field **links)
{
    if (!links) return qf_fail("qf_asqtad_links: the place for the links is NULL");
    *links = NULL;
    if (check_params(gauge, p)) return QF_ERROR;
    const qf_lattice *lat = qf_field_lattice(gauge);
    qf_asqtad_coefficients c = qf_asqtad_coefficients_for(p->u0);
    qf_field *v = NULL, *out = NULL, *s1 = NULL, *s2 = NULL;
    smearing g = {0};
    /* faces 2 deep: the Naik link reads U_mu(x+2mu) */
    int rc = qf_field_create(&v, lat, QF_FIELD_GAUGE, QF_DOUBLE, 2) ||
             qf_field_create(&out, lat, QF_FIELD_ASQTAD_LINKS, QF_DOUBLE, 0) ||
             qf_field_create_scratch(&s1, lat, QF_FIELD_LINK_MATRIX, QF_DOUBLE) ||
             qf_field_create_scratch(&s2, lat, QF_FIELD_LINK_MATRIX, QF_DOUBLE) ||
             qf_face_set_create(&g.faces, lat, 18, 1, QF_DOUBLE);
    g.v = v;
    g.links = out;
    for (int b = 0; b < lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_local(lat, b))
            rc = qf_insert_asqtad_phases(gauge, v, out, b, p->phase, c.one_link - 6.0 * c.lepage);
    rc = rc || qf_tasks_copy_faces(v, 0);
    for (int b = 0; b < lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_near(lat, b)) rc = qf_insert_asqtad_long(v, out, c.naik, b);
    for (int mu = 0; mu < QF_NDIM && !rc; mu++) rc = fat_direction(&g, &c, mu, s1, s2);
    qf_face_set_destroy(&g.faces);
    if (s1) qf_field_destroy(s1);
    if (s2) qf_field_destroy(s2);
    if (v) qf_field_destroy(v);
    if (rc) {
        if (out) qf_field_destroy(out);
        return QF_ERROR;
    }
    *links = out;
    return QF_SUCCESS;
}
