/* The clover-leaf field strength as a graph (kernels/clover_leaf.h has the algebra):
 *
 *   face_copy(b, mu)          R: U(b)                                   W: U face(b, mu, side 0)
 *   plaquette_matrix(b)       R: U(b), U faces of the +mu neighbours    W: P(b)
 *   pass 1, S_nu, dir = nu of each plane (faces in y, z, t):
 *     leaf_transport(b)       R: U(b), P(b)                             W: T1 faces(b, rho, side 1)
 *     leaf_sum(b)             R: U(b), P(b), T1 faces of the -rho nbrs  W: R(b) = P + S_nu P
 *   pass 2, S_mu, dir = mu of each plane (faces in x, y, z):
 *     leaf_transport(b)       R: U(b), R(b)                             W: T2 faces(b, rho, side 1)
 *     leaf_sum(b, finish)     R: U(b), R(b), T2 faces of the -rho nbrs  W: F(b) = (Q - Q^dagger) / 8
 *
 * Only 1-deep faces travel: the forward gauge links for P, and transported matrices that the owner of
 * the links U_rho(y) on its side-1 face has multiplied in, so gauge links never go backwards. P, R and
 * the transport faces are double-precision scratch handles that StarPU allocates where first written
 * and frees after their last task (unregister_submit): the host does not wait. */
#include "quarkflow/qf_observables.h"
#include "tasks.h"

/* One transport pass (codelets.h): out(b) = M(b) + S(M)(b), or after pass 2 F into fmunu. */
static int submit_pass(const qf_field *u, int pass, const starpu_data_handle_t *m, const qf_face_set *t,
                       const starpu_data_handle_t *out, qf_field *fmunu)
{
    const qf_lattice *lat = u->lat;
    for (int b = 0; b < lat->nblocks; b++) /* pruned (runtime/mpi_data.h) */
        if (qf_lattice_block_is_near(lat, b) && qf_insert_leaf_transport(u, b, pass, m[b], t)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_lattice_block_is_near(lat, b) && qf_insert_leaf_sum(u, b, pass, m[b], t, out ? out[b] : NULL, fmunu))
            return QF_ERROR;
    return QF_SUCCESS;
}

static int submit(const qf_field *u, qf_field *fmunu, const starpu_data_handle_t *p, const starpu_data_handle_t *r,
                  const qf_face_set *t1, const qf_face_set *t2)
{
    const qf_lattice *lat = u->lat;
    if (qf_tasks_copy_faces(u, 0)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++) /* pruned (runtime/mpi_data.h) */
        if (qf_lattice_block_is_near(lat, b) && qf_insert_plaquette_matrix(u, b, p[b])) return QF_ERROR;
    if (submit_pass(u, 1, p, t1, r, NULL)) return QF_ERROR;
    return submit_pass(u, 2, r, t2, NULL, fmunu);
}

int qf_gauge_field_strength(const qf_field *u, qf_field *fmunu)
{
    if (u->shape.kind != QF_FIELD_GAUGE)
        return qf_fail("the field strength needs a gauge field as input, not a %s field", qf_field_kind_name(u->shape.kind));
    if (qf_precision_check_full(u->prec, "the field strength's gauge field")) return QF_ERROR;
    if (fmunu->shape.kind != QF_FIELD_FIELD_STRENGTH)
        return qf_fail("the field strength goes into a %s field, not a %s field: create it with QF_FIELD_FIELD_STRENGTH",
                       qf_field_kind_name(QF_FIELD_FIELD_STRENGTH), qf_field_kind_name(fmunu->shape.kind));
    const qf_lattice *lat = u->lat;
    if (!qf_lattice_same(lat, fmunu->lat))
        return qf_fail("the field-strength field's lattice (%d %d %d %d, blocks %d %d %d %d) differs from the gauge "
                       "field's (%d %d %d %d, blocks %d %d %d %d): create it on the gauge field's lattice",
                       fmunu->lat->global[0], fmunu->lat->global[1], fmunu->lat->global[2], fmunu->lat->global[3],
                       fmunu->lat->blocks[0], fmunu->lat->blocks[1], fmunu->lat->blocks[2], fmunu->lat->blocks[3],
                       lat->global[0], lat->global[1], lat->global[2], lat->global[3], lat->blocks[0], lat->blocks[1],
                       lat->blocks[2], lat->blocks[3]);
    if (u->shape.face_depth != 1)
        return qf_fail("the field strength reads 1-deep gauge faces, but this gauge field has %d-deep ones: create it "
                       "with face depth 1",
                       u->shape.face_depth);

    int nb = lat->nblocks;
    starpu_data_handle_t *p = calloc((size_t)nb, sizeof *p), *r = calloc((size_t)nb, sizeof *r);
    qf_face_set t1 = {0}, t2 = {0};
    if (!p || !r || qf_face_set_create(&t1, lat, qf_leaf_face_reals(), 1, QF_DOUBLE) ||
        qf_face_set_create(&t2, lat, qf_leaf_face_reals(), 1, QF_DOUBLE)) {
        qf_face_set_destroy(&t1);
        qf_face_set_destroy(&t2);
        free(p);
        free(r);
        return qf_fail("out of host memory allocating the field strength's scratch handles");
    }
    size_t site_bytes = (size_t)qf_leaf_site_reals() * sizeof(double);
    for (int b = 0; b < nb; b++) {
        qf_block_handle_register(&p[b], lat, b, (uint32_t)lat->block_volume, site_bytes);
        qf_block_handle_register(&r[b], lat, b, (uint32_t)lat->block_volume, site_bytes);
    }
    int rc = submit(u, fmunu, p, r, &t1, &t2);
    for (int b = 0; b < nb; b++) {
        starpu_data_unregister_submit(p[b]);
        starpu_data_unregister_submit(r[b]);
    }
    free(p);
    free(r);
    qf_face_set_destroy(&t1);
    qf_face_set_destroy(&t2);
    return rc;
}
