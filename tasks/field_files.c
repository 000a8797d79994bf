/* Fields to and from files on any number of processes: each process reads and writes only its own
 * part of the lattice (qf_gauge_read_part, qf_gauge_write_part), the processes agree through MPI on
 * the file's checksums and facts, and the plaquette, which needs neighbours across the parts'
 * boundaries, comes from the task graph: checked against the stored one on loading, stored on saving. */
#include "quarkflow/qf_gauge.h"
#include "quarkflow/qf_observables.h"
#include "quarkflow/qf_runtime.h"
#include "quarkflow/qf_staggered.h"
#include "tasks.h"

#include <math.h>

static int allgather_processes(void *ctx, const void *mine, void *all, size_t bytes)
{
    (void)ctx;
    return qf_runtime_allgather(mine, all, bytes);
}

/* This process's part of the lattice, for the readers and writers. */
static qf_gauge_part process_part(const qf_lattice *lat)
{
    qf_gauge_part part = {.nreaders = lat->nprocs, .reader = lat->rank,
                          .allgather = lat->nprocs > 1 ? allgather_processes : NULL};
    for (int mu = 0; mu < QF_NDIM; mu++) {
        part.lo[mu] = lat->proc_coord[mu] * lat->local[mu];
        part.ext[mu] = lat->local[mu];
    }
    return part;
}

/* Whether every process got ready to write (rc: this one's result); a writer must not start alone. */
static int all_ready(const qf_lattice *lat, int rc, const char *path)
{
    if (lat->nprocs == 1) return rc;
    int *all = malloc((size_t)lat->nprocs * sizeof *all);
    if (!all || qf_runtime_allgather(&rc, all, sizeof rc)) {
        free(all);
        return qf_fail("writing %s: the processes could not agree to start", path);
    }
    int failed = -1;
    for (int r = 0; r < lat->nprocs && failed < 0; r++)
        if (all[r]) failed = r;
    free(all);
    if (failed >= 0 && !rc) return qf_fail("writing %s: process %d failed to prepare its part (see its message)", path, failed);
    return failed >= 0 ? QF_ERROR : QF_SUCCESS;
}

int qf_gauge_load(qf_field *u, const char *path, qf_gauge_format format, qf_gauge_info *info)
{
    if (!u || !path || !info) return qf_fail("qf_gauge_load: field, path and info must not be NULL");
    if (u->shape.kind != QF_FIELD_GAUGE || u->prec != QF_DOUBLE)
        return qf_fail("%s: gauge files load into a double-precision gauge field (this one is a %s %s field): load "
                       "in double, then convert with qf_field_convert",
                       path, qf_precision_name(u->prec), qf_field_kind_name(u->shape.kind));
    const qf_lattice *lat = u->lat;
    qf_gauge_part part = process_part(lat);
    double *links;
    if (qf_gauge_read_part(path, format, lat->global, &part, &links, info)) return QF_ERROR;
    int rc = qf_field_import_local(u, links);
    free(links);
    if (rc) return QF_ERROR;
    if (!isnan(info->plaquette)) return QF_SUCCESS; /* one reader of the whole file measured and checked it */
    qf_gauge_observables obs;
    if (qf_gauge_measure(u, &obs)) return QF_ERROR;
    if (qf_gauge_check_plaquette(info, obs.plaquette, obs.plaquette_space, obs.plaquette_time))
        return qf_fail_context("%s (read as %s)", path, qf_gauge_format_name(info->format));
    return QF_SUCCESS;
}

int qf_gauge_save(const qf_field *u, const char *path, qf_gauge_format format, const qf_gauge_write_options *opt)
{
    if (!u || !path) return qf_fail("qf_gauge_save: field and path must not be NULL");
    if (u->shape.kind != QF_FIELD_GAUGE) return qf_fail("%s: a %s field is not a gauge field", path, qf_field_kind_name(u->shape.kind));
    const qf_lattice *lat = u->lat;
    /* the header's plaquette is held to 1e-12 in 64-bit files: measure the double-precision numbers written */
    qf_field *ud = NULL;
    if (u->prec != QF_DOUBLE && (qf_field_create(&ud, lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_field_convert(ud, u))) {
        if (ud) qf_field_destroy(ud);
        return QF_ERROR;
    }
    const qf_field *src = ud ? ud : u;
    double *links = malloc((size_t)lat->local_volume * 72 * sizeof *links);
    /* one writer of the whole lattice measures the stored numbers itself (qf_gauge_write_part) */
    qf_gauge_observables obs = {0};
    int rc = !links ? qf_fail("out of host memory for the %lld sites written by this process", (long long)lat->local_volume)
                    : (lat->nprocs > 1 && qf_gauge_measure(src, &obs)) || qf_field_export_local(src, links);
    qf_gauge_part part = process_part(lat);
    rc = all_ready(lat, rc, path) || qf_gauge_write_part(path, format, lat->global, links, &part, obs.plaquette, opt);
    free(links);
    if (ud) qf_field_destroy(ud);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* A colour-vector or Dirac-fermion file of this process's part of field f (kind, reals a site). */
typedef int (*spin_colour_writer)(const char *path, const int dims[4], const double *v, const qf_gauge_part *part,
                                  int precision_bits);
static int save_spin_colour(const qf_field *f, const char *path, int precision_bits, qf_field_kind kind,
                            spin_colour_writer write, const char *what)
{
    if (!f || !path) return qf_fail("saving a %s: field and path must not be NULL", what);
    if (f->shape.kind != kind)
        return qf_fail("%s: a %s field is not a %s field", path, qf_field_kind_name(f->shape.kind), qf_field_kind_name(kind));
    const qf_lattice *lat = f->lat;
    double *v = malloc((size_t)lat->local_volume * f->shape.site_reals * sizeof *v);
    int rc = !v ? qf_fail("out of host memory for the %lld sites written by this process", (long long)lat->local_volume)
                : qf_field_export_local(f, v);
    qf_gauge_part part = process_part(lat);
    rc = all_ready(lat, rc, path) || write(path, lat->global, v, &part, precision_bits);
    free(v);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_field_save_dirac_fermion(const qf_field *psi, const char *path, int precision_bits)
{
    return save_spin_colour(psi, path, precision_bits, QF_FIELD_WILSON, qf_dirac_fermion_write_part, "Dirac fermion");
}

int qf_field_save_colour_vector(const qf_field *v, const char *path, int precision_bits)
{
    return save_spin_colour(v, path, precision_bits, QF_FIELD_STAGGERED, qf_colour_vector_write_part, "colour vector");
}

int qf_dirac_fermion_read_local(const qf_lattice *lat, const char *path, double **psi, int *precision_bits)
{
    qf_gauge_part part = process_part(lat);
    int dims[4];
    return qf_dirac_fermion_read_part(path, lat->global, &part, dims, psi, precision_bits);
}

int qf_colour_vector_read_local(const qf_lattice *lat, const char *path, double **vec, int *precision_bits)
{
    qf_gauge_part part = process_part(lat);
    int dims[4];
    return qf_colour_vector_read_part(path, lat->global, &part, dims, vec, precision_bits);
}

/* ---- asqtad links: two colour-matrix files, the fat links and the Naik links ---- */

int qf_asqtad_links_save(const qf_field *links, const char *fat_path, const char *long_path, int precision_bits)
{
    if (!links || (!fat_path && !long_path)) return qf_fail("qf_asqtad_links_save: the links or both paths are NULL");
    if (links->shape.kind != QF_FIELD_ASQTAD_LINKS)
        return qf_fail("qf_asqtad_links_save: a %s field is not asqtad links", qf_field_kind_name(links->shape.kind));
    const qf_lattice *lat = links->lat;
    size_t n = (size_t)lat->local_volume;
    double *all = malloc(n * 144 * sizeof *all), *half = malloc(n * 72 * sizeof *half);
    int rc = !all || !half ? qf_fail("out of host memory for the %lld sites written by this process", (long long)n)
                           : qf_field_export_local(links, all);
    qf_gauge_part part = process_part(lat);
    for (int k = 0; k < 2; k++) {
        const char *path = k ? long_path : fat_path;
        if (!path) continue;
        for (size_t i = 0; !rc && i < n; i++) memcpy(half + 72 * i, all + 144 * i + 72 * k, 72 * sizeof *half);
        rc = all_ready(lat, rc, path) || qf_colour_matrices_write_part(path, lat->global, half, &part, precision_bits);
    }
    free(all);
    free(half);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_asqtad_links_load(const qf_lattice *lat, const char *fat_path, const char *long_path, qf_field **links)
{
    if (!lat || !fat_path || !long_path || !links) return qf_fail("qf_asqtad_links_load: an argument is NULL");
    *links = NULL;
    size_t n = (size_t)lat->local_volume;
    double *all = malloc(n * 144 * sizeof *all);
    int rc = all ? QF_SUCCESS : qf_fail("out of host memory for the %lld sites read by this process", (long long)n);
    qf_gauge_part part = process_part(lat);
    for (int k = 0; k < 2 && !rc; k++) {
        double *half = NULL;
        int dims[4];
        rc = qf_colour_matrices_read_part(k ? long_path : fat_path, lat->global, &part, dims, &half, NULL);
        for (size_t i = 0; !rc && i < n; i++) memcpy(all + 144 * i + 72 * k, half + 72 * i, 72 * sizeof *all);
        free(half);
    }
    rc = rc || qf_field_create(links, lat, QF_FIELD_ASQTAD_LINKS, QF_DOUBLE, 0) || qf_field_import_local(*links, all);
    free(all);
    if (rc && *links) {
        qf_field_destroy(*links);
        *links = NULL;
    }
    return rc ? QF_ERROR : QF_SUCCESS;
}
