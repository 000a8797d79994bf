/* A propagator's point sources and meson correlators as task graphs (qf_field_point, qf_blas.h;
 * qf_meson_correlators, qf_observables.h): one field_point or meson task a block, so that the 12
 * solves of a propagator neither import their sources from nor export their solutions to the host. */
#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_observables.h"
#include "tasks.h"

static int check_full_precision(const qf_field *f, const char *fn)
{
    if (f->prec == QF_HALF)
        return qf_fail("%s on a half-precision field: use a single- or double-precision field and convert it "
                       "(qf_field_convert)",
                       fn);
    return QF_SUCCESS;
}

int qf_field_point(qf_field *f, const int site[4], int real)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!f || !site) return qf_fail("qf_field_point: the field or the site is NULL");
    if (check_full_precision(f, "qf_field_point")) return QF_ERROR;
    const qf_lattice *lat = f->lat;
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (site[mu] < 0 || site[mu] >= lat->global[mu])
            return qf_fail("qf_field_point: coordinate %d of direction %d is outside the lattice (0 .. %d)", site[mu],
                           mu, lat->global[mu] - 1);
    if (real < 0 || real >= f->shape.site_reals)
        return qf_fail("qf_field_point: real %d: a %s site holds reals 0 .. %d", real, qf_field_kind_name(f->shape.kind),
                       f->shape.site_reals - 1);
    for (int b = 0; b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_local(lat, b)) continue;
        int o[QF_NDIM], x[QF_NDIM], inside = 1;
        qf_lattice_block_origin(lat, b, o);
        for (int mu = 0; mu < QF_NDIM; mu++) {
            x[mu] = site[mu] - o[mu];
            inside = inside && x[mu] >= 0 && x[mu] < lat->block[mu];
        }
        if (qf_insert_field_point(f, b, inside ? qf_block_site_index(x, lat->block) : -1, real)) return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* A CUDA thread block sums its sites into shared bins, a block-local time slice each (meson.cu). */
enum { MESON_MAX_BLOCK_T = 2048 };

int qf_meson_correlators(qf_field *const col[12], int t_source, double *pion, double *rho)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!col || !pion || !rho) return qf_fail("qf_meson_correlators: the columns or the correlators are NULL");
    for (int k = 0; k < 12; k++) {
        if (!col[k]) return qf_fail("qf_meson_correlators: column %d is NULL", k);
        if (col[k]->shape.kind != QF_FIELD_WILSON)
            return qf_fail("qf_meson_correlators: column %d is a %s field, not a Wilson colour-spinor field", k,
                           qf_field_kind_name(col[k]->shape.kind));
        if (check_full_precision(col[k], "qf_meson_correlators")) return QF_ERROR;
        if (col[k]->prec != col[0]->prec || !qf_lattice_same(col[k]->lat, col[0]->lat))
            return qf_fail("qf_meson_correlators: column %d differs from column 0 in precision or lattice", k);
    }
    const qf_lattice *lat = col[0]->lat;
    int T = lat->global[3];
    if (t_source < 0 || t_source >= T)
        return qf_fail("qf_meson_correlators: source time %d is outside the lattice (0 .. %d)", t_source, T - 1);
    if (lat->block[3] > MESON_MAX_BLOCK_T)
        return qf_fail("qf_meson_correlators: blocks %d sites long in t; use a block grid with blocks of at most %d",
                       lat->block[3], MESON_MAX_BLOCK_T);
    double *sums = malloc(2 * (size_t)T * sizeof *sums);
    if (!sums) return qf_fail("out of host memory for the correlators");
    qf_block_sum sum;
    if (qf_block_sum_begin_host(&sum, 2 * T, lat)) {
        free(sums);
        return QF_ERROR;
    }
    int rc = QF_SUCCESS;
    for (int b = 0; !rc && b < lat->nblocks; b++)
        if (qf_lattice_block_is_local(lat, b)) rc = qf_insert_meson(col, b, t_source, qf_block_sum_descr(&sum, b));
    rc = qf_block_sum_read(&sum, sums, 2 * T) || rc;
    if (!rc) {
        memcpy(pion, sums, (size_t)T * sizeof *pion);
        memcpy(rho, sums + T, (size_t)T * sizeof *rho);
    }
    free(sums);
    return rc;
}
