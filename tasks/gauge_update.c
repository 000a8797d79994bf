/* Quenched update sweeps as graphs. One stage updates the links U_mu of one parity: gather the forward
 * faces, let every block compute the lower staples its +nu neighbours need (staple_face), then update
 * every block (gauge_update). Links of one stage read only links the stage does not change, so the
 * result does not depend on the order in which blocks or sites are visited. */
#include "quarkflow/qf_gauge.h"
#include "kernels/heatbath.h"
#include "tasks.h"

static int submit_stage(qf_field *u, const qf_face_set *lower, qf_update_args a)
{
    const qf_lattice *lat = u->lat;
    if (qf_tasks_copy_faces(u, 0)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_near(lat, b)) continue; /* pruned (runtime/mpi_data.h) */
        starpu_data_handle_t out[QF_NDIM - 1];
        for (int k = 0, nu = 0; nu < QF_NDIM; nu++)
            if (nu != a.mu) out[k++] = qf_face_set_handle(lower, b, nu, 1);
        int ret = QF_TASK_INSERT(&qf_cl_staple_face, STARPU_R, qf_field_block(u, b), STARPU_R,
                                     qf_field_face(u, qf_block_neighbour(b, lat->blocks, a.mu, +1), a.mu, 0), STARPU_W,
                                     out[0], STARPU_W, out[1], STARPU_W, out[2], QF_ARGS(a), 0);
        if (qf_task_check(ret, "staple_face")) return QF_ERROR;
    }
    for (int b = 0; b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_near(lat, b)) continue; /* pruned (runtime/mpi_data.h) */
        qf_lattice_block_origin(lat, b, a.origin);
        starpu_data_handle_t fwd[QF_NDIM], low[QF_NDIM - 1];
        for (int k = 0, nu = 0; nu < QF_NDIM; nu++) {
            fwd[nu] = qf_field_face(u, qf_block_neighbour(b, lat->blocks, nu, +1), nu, 0);
            if (nu != a.mu) low[k++] = qf_face_set_handle(lower, qf_block_neighbour(b, lat->blocks, nu, -1), nu, 1);
        }
        int ret = QF_TASK_INSERT(&qf_cl_gauge_update, STARPU_RW, qf_field_block(u, b), STARPU_R, fwd[0], STARPU_R,
                                     fwd[1], STARPU_R, fwd[2], STARPU_R, fwd[3], STARPU_R, low[0], STARPU_R, low[1],
                                     STARPU_R, low[2], QF_ARGS(a), 0);
        if (qf_task_check(ret, "gauge_update")) return QF_ERROR;
    }
    return QF_SUCCESS;
}

int qf_gauge_update(qf_field *u, const qf_update_params *p, int first_sweep, int count)
{
    if (u->shape.kind != QF_FIELD_GAUGE) return qf_fail("updates need a gauge field, not a %s field", qf_field_kind_name(u->shape.kind));
    if (!(p->beta > 0.0 && p->beta < 1e6)) return qf_fail("beta = %g: the gauge coupling must be positive", p->beta);
    if (p->or_steps < 0 || p->or_steps > 100)
        return qf_fail("%d overrelaxation steps per sweep: use 0 to 100", p->or_steps);
    if (first_sweep < 0 || count < 0 || first_sweep + (int64_t)count > (1 << 27))
        return qf_fail("sweep numbers %d..%d are outside 0..2^27 (they key the random numbers)", first_sweep,
                       first_sweep + count - 1);
    const qf_lattice *lat = u->lat;
    qf_face_set lower;
    if (qf_face_set_create(&lower, lat, QF_SU3_REALS, 1, QF_DOUBLE)) return QF_ERROR;
    qf_update_args a = {.beta = p->beta, .seed = p->seed, .prec = u->prec};
    for (int mu = 0; mu < QF_NDIM; mu++) {
        a.ext[mu] = lat->block[mu];
        a.global[mu] = lat->global[mu];
    }
    int rc = QF_SUCCESS;
    for (int sweep = first_sweep; sweep < first_sweep + count && !rc; sweep++) {
        a.sweep = sweep;
        for (int pass = 0; pass <= p->or_steps && !rc; pass++) {
            a.kind = pass == 0 ? QF_UPDATE_HEATBATH : QF_UPDATE_OVERRELAX;
            for (a.mu = 0; a.mu < QF_NDIM && !rc; a.mu++)
                for (a.parity = 0; a.parity < 2 && !rc; a.parity++) rc = submit_stage(u, &lower, a);
        }
    }
    qf_face_set_destroy(&lower);
    return rc;
}
