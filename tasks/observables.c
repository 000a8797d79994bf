/* Gauge observables as a graph: gather the side-0 gauge faces, then one plaquette task per block that
 * reads its block and its forward neighbours' faces and adds into one reduction accumulator. */
#include "quarkflow/qf_observables.h"
#include "tasks.h"

int qf_gauge_measure(const qf_field *u, qf_gauge_observables *out)
{
    if (u->shape.kind != QF_FIELD_GAUGE) return qf_fail("the plaquette needs a gauge field, not a %s field", qf_field_kind_name(u->shape.kind));
    if (qf_precision_check_full(u->prec, "the measured gauge field's")) return QF_ERROR;
    const qf_lattice *lat = u->lat;
    if (qf_tasks_copy_faces(u, 0)) return QF_ERROR;

    double sums[QF_GAUGE_SUMS];
    qf_block_sum sum;
    if (qf_block_sum_begin_host(&sum, QF_GAUGE_SUMS, lat)) return QF_ERROR;
    int rc = QF_SUCCESS;
    for (int b = 0; !rc && b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_near(lat, b)) continue; /* pruned (runtime/mpi_data.h) */
        rc = qf_insert_plaquette(u, b, qf_block_sum_descr(&sum, b));
    }
    if (qf_block_sum_read(&sum, sums, QF_GAUGE_SUMS) || rc) return QF_ERROR;
    double v = (double)lat->global_volume;
    out->plaquette_space = sums[0] / (9.0 * v);
    out->plaquette_time = sums[1] / (9.0 * v);
    out->plaquette = (sums[0] + sums[1]) / (18.0 * v);
    out->link_trace = sums[2] / (12.0 * v);
    return QF_SUCCESS;
}
