/* Loading a gauge file into a field on any number of processes: each process reads only its part of
 * the lattice (qf_gauge_read_part), the processes agree through MPI on the file's checksums and
 * facts, and the plaquette the file stores is checked against the task graph's measurement, since
 * no process holds the neighbours a plaquette needs across its part's boundary. */
#include "quarkflow/qf_gauge.h"
#include "quarkflow/qf_observables.h"
#include "quarkflow/qf_runtime.h"
#include "tasks.h"

static int allgather_processes(void *ctx, const void *mine, void *all, size_t bytes)
{
    (void)ctx;
    return qf_runtime_allgather(mine, all, bytes);
}

int qf_gauge_load(qf_field *u, const char *path, qf_gauge_format format, qf_gauge_info *info)
{
    if (!u || !path || !info) return qf_fail("qf_gauge_load: field, path and info must not be NULL");
    if (u->kind != QF_FIELD_GAUGE || u->prec != QF_DOUBLE)
        return qf_fail("%s: gauge files load into a double-precision gauge field (this one is a %s %s field): load "
                       "in double, then convert with qf_field_convert",
                       path, qf_precision_name(u->prec), qf_field_kind_name(u->kind));
    const qf_lattice *lat = u->lat;
    qf_gauge_part part = {.nreaders = lat->nprocs, .allgather = lat->nprocs > 1 ? allgather_processes : NULL};
    for (int mu = 0; mu < QF_NDIM; mu++) {
        part.lo[mu] = lat->proc_coord[mu] * lat->local[mu];
        part.ext[mu] = lat->local[mu];
    }
    double *links;
    if (qf_gauge_read_part(path, format, lat->global, &part, &links, info)) return QF_ERROR;
    int rc = qf_field_import_local(u, links);
    free(links);
    qf_gauge_observables obs;
    if (rc || qf_gauge_measure(u, &obs)) return QF_ERROR;
    if (qf_gauge_check_plaquette(info, obs.plaquette, obs.plaquette_space, obs.plaquette_time))
        return qf_fail_context("%s (read as %s)", path, qf_gauge_format_name(info->format));
    return QF_SUCCESS;
}
