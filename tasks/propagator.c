/* A propagator's point sources and correlators as task graphs (qf_field_point, qf_blas.h;
 * qf_meson_correlators and qf_field_slice_norm2, qf_observables.h): the BLAS's zero and one field_point
 * task, or one slice_sums task a block, so that the solves of a propagator neither import their
 * sources from nor export their solutions to the host. */
#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_observables.h"
#include "tasks.h"
#include "kernels/meson.h" /* qf_slice_quantity, qf_slice_nsums */

int qf_field_point(qf_field *f, const int site[4], int real)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!f || !site) return qf_fail("qf_field_point: the field or the site is NULL");
    if (qf_precision_check_full(f->prec, "qf_field_point's field")) return QF_ERROR;
    const qf_lattice *lat = f->lat;
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (site[mu] < 0 || site[mu] >= lat->global[mu])
            return qf_fail("qf_field_point: coordinate %d of direction %d is outside the lattice (0 .. %d)", site[mu],
                           mu, lat->global[mu] - 1);
    if (real < 0 || real >= f->shape.site_reals)
        return qf_fail("qf_field_point: real %d: a %s site holds reals 0 .. %d", real, qf_field_kind_name(f->shape.kind),
                       f->shape.site_reals - 1);
    if (qf_blas_axpby(0.0, NULL, 0.0, f, -1)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_local(lat, b)) continue;
        int o[QF_NDIM], x[QF_NDIM], inside = 1;
        qf_lattice_block_origin(lat, b, o);
        for (int mu = 0; mu < QF_NDIM; mu++) {
            x[mu] = site[mu] - o[mu];
            inside = inside && x[mu] >= 0 && x[mu] < lat->block[mu];
        }
        if (inside) return qf_insert_field_point(f, b, qf_block_site_index(x, lat->block), real);
    }
    return QF_SUCCESS; /* the site is another process's */
}

/* A CUDA thread block sums its sites into shared bins, a block-local time slice each (slice_sums.cu). */
enum { SLICE_MAX_BLOCK_T = 2048 };

/* The time-slice sums of `what` over the fields f (checked by the caller), nsums T doubles into out. */
static int slice_sums(const qf_field *const *f, qf_slice_quantity what, int t_source, double *out, const char *fn)
{
    const qf_lattice *lat = f[0]->lat;
    int T = lat->global[3], n = qf_slice_nsums(what) * T;
    if (t_source < 0 || t_source >= T)
        return qf_fail("%s: source time %d is outside the lattice (0 .. %d)", fn, t_source, T - 1);
    if (lat->block[3] > SLICE_MAX_BLOCK_T)
        return qf_fail("%s: blocks %d sites long in t; use a block grid with blocks of at most %d", fn, lat->block[3],
                       SLICE_MAX_BLOCK_T);
    qf_block_sum sum;
    if (qf_block_sum_begin_host(&sum, n, lat)) return QF_ERROR;
    int rc = QF_SUCCESS;
    for (int b = 0; !rc && b < lat->nblocks; b++)
        if (qf_lattice_block_is_local(lat, b)) rc = qf_insert_slice_sums(f, what, b, t_source, qf_block_sum_descr(&sum, b));
    return qf_block_sum_read(&sum, out, n) || rc ? QF_ERROR : QF_SUCCESS;
}

int qf_meson_correlators(qf_field *const col[12], int t_source, double *pion, double *rho)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!col || !pion || !rho) return qf_fail("qf_meson_correlators: the columns or the correlators are NULL");
    for (int k = 0; k < 12; k++) {
        if (!col[k]) return qf_fail("qf_meson_correlators: column %d is NULL", k);
        if (col[k]->shape.kind != QF_FIELD_WILSON)
            return qf_fail("qf_meson_correlators: column %d is a %s field, not a Wilson colour-spinor field", k,
                           qf_field_kind_name(col[k]->shape.kind));
        if (qf_precision_check_full(col[k]->prec, "qf_meson_correlators' column")) return QF_ERROR;
        if (col[k]->prec != col[0]->prec || !qf_lattice_same(col[k]->lat, col[0]->lat))
            return qf_fail("qf_meson_correlators: column %d differs from column 0 in precision or lattice", k);
    }
    int T = col[0]->lat->global[3];
    double *sums = malloc(2 * (size_t)T * sizeof *sums);
    if (!sums) return qf_fail("out of host memory for the correlators");
    int rc = slice_sums((const qf_field *const *)col, QF_SLICE_MESON, t_source, sums, "qf_meson_correlators");
    if (!rc) {
        memcpy(pion, sums, (size_t)T * sizeof *pion);
        memcpy(rho, sums + T, (size_t)T * sizeof *rho);
    }
    free(sums);
    return rc;
}

int qf_field_slice_norm2(const qf_field *f, int t_source, double *c)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!f || !c) return qf_fail("qf_field_slice_norm2: the field or the result is NULL");
    if (qf_precision_check_full(f->prec, "qf_field_slice_norm2's field")) return QF_ERROR;
    return slice_sums(&f, QF_SLICE_NORM2, t_source, c, "qf_field_slice_norm2");
}
