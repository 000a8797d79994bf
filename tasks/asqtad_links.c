/* The asqtad fat and Naik links as task graphs (include/quarkflow/qf_staggered.h), by the two
 * algorithms of seed 002 on MILC's staple algorithm (load_fatlinks; kernels/staggered.h):
 *
 *   V = phased links;  F_mu = (c1 - 6 cL) V_mu;  L_mu = cN V_mu V_mu(+mu) V_mu(+2mu)
 *   for nu != mu:      S1 = S_nu[V_mu],  F_mu += c3 S1;  F_mu += cL S_nu[S1]
 *     for rho:         S2 = S_rho[S1],   F_mu += c5 S2
 *       for sigma:     F_mu += c7 S_sigma[S2]
 *
 * The Lepage term S_nu[S_nu[V_mu]] includes the two paths that go out along nu and straight back, each
 * V_mu itself: the one-link coefficient subtracts them (c1 - 6 cL), as MILC does.
 *   standard  a staple step is a gather per block (the nu faces of W and of U_nu^dag W U_nu(+mu)) and a
 *             staple task per block; the blocks of a step run side by side, the steps in turn (they
 *             accumulate into F_mu and share S1, S2 and the faces);
 *   extended  a block's phased links with their 2-deep halo in 4 rounds of slab exchanges (pack on
 *             every block, then unpack into the neighbours' halos), then one task a block runs every
 *             step on that extended block. */
#include "tasks.h"
#include "quarkflow/qf_staggered.h"

#include <math.h>
#include <string.h>

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

static const char *const smearing_names[] = {"standard", "extended"};

const char *qf_asqtad_smearing_name(qf_asqtad_smearing a) { return (unsigned)a <= QF_SMEAR_EXTENDED ? smearing_names[a] : "?"; }

int qf_asqtad_smearing_parse(const char *s, qf_asqtad_smearing *a)
{
    for (int k = 0; k <= QF_SMEAR_EXTENDED; k++)
        if (!strcmp(s, smearing_names[k])) {
            *a = (qf_asqtad_smearing)k;
            return QF_SUCCESS;
        }
    return qf_fail("unknown smearing algorithm '%s': use standard or extended", s);
}

qf_asqtad_link_params qf_asqtad_default_link_params(double u0)
{
    qf_asqtad_link_params p = {.u0 = u0, .algorithm = QF_SMEAR_STANDARD};
    for (int mu = 0; mu < QF_NDIM; mu++) p.phase[mu][0] = mu == 3 ? -1.0 : 1.0;
    return p;
}

typedef struct {
    const qf_field *v;  /* phased links */
    qf_field *links;    /* the asqtad links being built */
    qf_field *s1, *s2;  /* the 3-staple and the 5-staple the next steps read */
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

static int fat_direction(smearing *g, const qf_asqtad_coefficients *c, int mu)
{
    qf_field *s1 = g->s1, *s2 = g->s2;
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

/* The standard algorithm: the Naik links from the phased links' 2-deep faces, then the staple steps. */
static int smear_standard(const qf_field *v, qf_field *out, const qf_asqtad_coefficients *c)
{
    const qf_lattice *lat = v->lat;
    smearing g = {.v = v, .links = out};
    int rc = qf_field_create_scratch(&g.s1, lat, QF_FIELD_LINK_MATRIX, QF_DOUBLE) ||
             qf_field_create_scratch(&g.s2, lat, QF_FIELD_LINK_MATRIX, QF_DOUBLE) ||
             qf_face_set_create(&g.faces, lat, 18, 1, QF_DOUBLE) || qf_tasks_copy_faces(v, 0);
    for (int b = 0; b < lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_near(lat, b)) rc = qf_insert_asqtad_long(v, out, c->naik, b);
    for (int mu = 0; mu < QF_NDIM && !rc; mu++) rc = fat_direction(&g, c, mu);
    qf_face_set_destroy(&g.faces);
    if (g.s1) qf_field_destroy(g.s1);
    if (g.s2) qf_field_destroy(g.s2);
    return rc;
}

/* The extended-volume algorithm: the halo rounds, then the smearing block by block. */
static int smear_extended(const qf_field *v, qf_field *out, const qf_asqtad_coefficients *c)
{
    const qf_lattice *lat = v->lat;
    int nb = lat->nblocks, X[QF_NDIM];
    int64_t n = 1;
    for (int mu = 0; mu < QF_NDIM; mu++) n *= X[mu] = lat->block[mu] + 4; /* QF_ASQTAD_HALO 2 on each side */
    starpu_data_handle_t *e = calloc((size_t)nb, sizeof *e), *slab = calloc((size_t)nb * 2 * QF_NDIM, sizeof *slab), s[2];
    if (!e || !slab) {
        free(e);
        free(slab);
        return qf_fail("out of host memory for the extended-volume smearing's handles");
    }
    for (int b = 0; b < nb; b++) {
        qf_block_handle_register(&e[b], lat, b, (uint32_t)n, 72 * sizeof(double));
        for (int mu = 0; mu < QF_NDIM; mu++)
            for (int side = 0; side < 2; side++)
                qf_block_handle_register(&slab[(b * QF_NDIM + mu) * 2 + side], lat, b, (uint32_t)(n / X[mu] * 2),
                                         72 * sizeof(double));
    }
    for (int k = 0; k < 2; k++) starpu_vector_data_register(&s[k], -1, 0, (uint32_t)n, 18 * sizeof(double));
    int rc = QF_SUCCESS;
    for (int b = 0; b < nb && !rc; b++)
        if (qf_lattice_block_is_local(lat, b)) rc = qf_insert_asqtad_ext_fill(v, e[b], b);
    /* near, not local: an unpack reads its neighbours' slabs (runtime/mpi_data.h) */
    for (int mu = 0; mu < QF_NDIM && !rc; mu++) {
        for (int b = 0; b < nb && !rc; b++)
            if (qf_lattice_block_is_near(lat, b))
                rc = qf_insert_asqtad_ext_slabs(lat, e[b], slab[(b * QF_NDIM + mu) * 2], slab[(b * QF_NDIM + mu) * 2 + 1], b, mu,
                                                0);
        for (int b = 0; b < nb && !rc; b++)
            if (qf_lattice_block_is_near(lat, b))
                rc = qf_insert_asqtad_ext_slabs(lat, e[b], slab[(qf_block_neighbour(b, lat->blocks, mu, +1) * QF_NDIM + mu) * 2],
                                                slab[(qf_block_neighbour(b, lat->blocks, mu, -1) * QF_NDIM + mu) * 2 + 1], b, mu,
                                                1);
    }
    for (int b = 0; b < nb && !rc; b++)
        if (qf_lattice_block_is_local(lat, b))
            rc = qf_insert_asqtad_ext_smear(out, e[b], s[0], s[1], b, c->staple3, c->staple5, c->staple7, c->lepage, c->naik);
    for (int b = 0; b < nb; b++) {
        starpu_data_unregister_submit(e[b]);
        for (int k = 0; k < 2 * QF_NDIM; k++) starpu_data_unregister_submit(slab[b * 2 * QF_NDIM + k]);
    }
    for (int k = 0; k < 2; k++) starpu_data_unregister_submit(s[k]);
    free(e);
    free(slab);
    return rc;
}

static int check_params(const qf_field *gauge, const qf_asqtad_link_params *p)
{
    if (!gauge || !p) return qf_fail("qf_asqtad_links: the gauge field or the parameters are NULL");
    if (qf_field_get_shape(gauge)->kind != QF_FIELD_GAUGE)
        return qf_fail("qf_asqtad_links: smears a gauge field, not a %s field", qf_field_kind_name(qf_field_get_shape(gauge)->kind));
    if (qf_precision_check_full(qf_field_precision(gauge), "the gauge field of the asqtad smearing")) return QF_ERROR;
    if ((unsigned)p->algorithm > QF_SMEAR_EXTENDED)
        return qf_fail("qf_asqtad_links: smearing algorithm %d: use QF_SMEAR_STANDARD or QF_SMEAR_EXTENDED", (int)p->algorithm);
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
    qf_field *v = NULL, *out = NULL;
    /* scratch, as every field here: allocated where their tasks run (pinning host memory for a 32^4 set of
     * links took most of a GPU smearing's second), the result in host memory only once the host reads it;
     * the phased links' faces, which the standard algorithm asks for, 2 deep: the Naik link reads
     * U_mu(x+2mu) */
    qf_field_shape vs = qf_field_kind_shape(QF_FIELD_GAUGE);
    vs.face_depth = 2;
    int rc = qf_field_create_shaped(&v, lat, &vs, QF_DOUBLE, QF_FIELD_SCRATCH) ||
             qf_field_create_scratch(&out, lat, QF_FIELD_ASQTAD_LINKS, QF_DOUBLE);
    for (int b = 0; b < lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_local(lat, b))
            rc = qf_insert_asqtad_phases(gauge, v, out, b, p->phase, c.one_link - 6.0 * c.lepage);
    rc = rc || (p->algorithm == QF_SMEAR_EXTENDED ? smear_extended(v, out, &c) : smear_standard(v, out, &c));
    if (v) qf_field_destroy(v);
    if (rc) {
        if (out) qf_field_destroy(out);
        return QF_ERROR;
    }
    *links = out;
    return QF_SUCCESS;
}
