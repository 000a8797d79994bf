/* Quenched update sweeps as graphs. One stage updates the links U_mu of one parity: gather the forward
 * faces, let every block compute the lower staples its +nu neighbours need (staple_face), then update
 * every block (gauge_update). Links of one stage read only links the stage does not change, so the
 * result does not depend on the order in which blocks or sites are visited. */
#include "quarkflow/qf_gauge.h"
#include "tasks.h"

static int submit_stage(qf_field *u, const qf_face_set *lower, const qf_update_stage *st)
{
    const qf_lattice *lat = u->lat;
    if (qf_tasks_copy_faces(u, 0)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++) /* pruned (runtime/mpi_data.h) */
        if (qf_lattice_block_is_near(lat, b) && qf_insert_staple_face(u, b, lower, st)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_lattice_block_is_near(lat, b) && qf_insert_gauge_update(u, b, lower, st)) return QF_ERROR;
    return QF_SUCCESS;
}

int qf_gauge_update(qf_field *u, const qf_update_params *p, int first_sweep, int count)
{
    if (u->shape.kind != QF_FIELD_GAUGE) return qf_fail("updates need a gauge field, not a %s field", qf_field_kind_name(u->shape.kind));
    if (qf_precision_check_full(u->prec, "the updated gauge field's")) return QF_ERROR;
    if (!(p->beta > 0.0 && p->beta < 1e6)) return qf_fail("beta = %g: the gauge coupling must be positive", p->beta);
    if (p->or_steps < 0 || p->or_steps > 100)
        return qf_fail("%d overrelaxation steps per sweep: use 0 to 100", p->or_steps);
    if (first_sweep < 0 || count < 0 || first_sweep + (int64_t)count > (1 << 27))
        return qf_fail("sweep numbers %d..%d are outside 0..2^27 (they key the random numbers)", first_sweep,
                       first_sweep + count - 1);
    const qf_lattice *lat = u->lat;
    qf_face_set lower;
    if (qf_face_set_create(&lower, lat, qf_staple_face_reals(), 1, QF_DOUBLE)) return QF_ERROR;
    qf_update_stage st = {.beta = p->beta, .seed = p->seed};
    int rc = QF_SUCCESS;
    for (st.sweep = first_sweep; st.sweep < first_sweep + count && !rc; st.sweep++)
        for (int pass = 0; pass <= p->or_steps && !rc; pass++) {
            st.overrelax = pass > 0;
            for (st.mu = 0; st.mu < QF_NDIM && !rc; st.mu++)
                for (st.parity = 0; st.parity < 2 && !rc; st.parity++) rc = submit_stage(u, &lower, &st);
        }
    qf_face_set_destroy(&lower);
    return rc;
}
