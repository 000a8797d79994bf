/* DDalphaAMG gauge files (DDalphaAMG's read_conf/write_conf, "standard" format). No magic number:
 *   int32 dims in the order t z y x, float64 plaquette, then float64 links;
 * all little-endian (the code writes its host's order, and every machine it ran on was x86).
 * The stored plaquette is the average of Re Tr over the six planes (range [0, 3]), i.e. 3 times our
 * Re Tr / 3. Sites run t slowest and x fastest -- our lexicographic order -- and inside a site the
 * four links come in DDalphaAMG's direction order T, Z, Y, X, each a row-major 3x3 complex matrix;
 * we store them as mu = x y z t. With this mapping the links reproduce the stored plaquettes of both
 * samples to 1e-15, and the row-major reading is confirmed by it (transposed links do not close the
 * plaquette). What the samples cannot confirm: reading sites t fastest with links in the order
 * x y z t is the same lattice with the axes relabelled x <-> t, y <-> z, which on their hypercubic
 * 4^4 and 8^4 lattices gives the same total plaquette; only the split into spatial and temporal
 * plaquettes would differ. We follow DDalphaAMG's read loops (t outermost, x innermost) for that. */
#include "gauge_io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DD_HEADER_BYTES 24u
#define DD_SITE_BYTES (4u * 18u * 8u)

static void dd_decode(const void *ctx, const unsigned char *record, double *out)
{
    (void)ctx;
    for (int d = 0; d < 4; d++) {
        int mu = 3 - d; /* file direction T Z Y X -> our t z y x */
        for (int r = 0; r < 18; r++) out[mu * 18 + r] = qf_io_get_f64(record + ((size_t)d * 18 + (size_t)r) * 8, 0);
    }
}

int qf_ddalpha_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info)
{
    unsigned char h[DD_HEADER_BYTES];
    *links = NULL;
    if (qf_io_read_at(f, 0, h, sizeof h, "the DDalphaAMG header (dims and plaquette)") != QF_SUCCESS) return QF_ERROR;
    int dims[4];
    for (int i = 0; i < 4; i++) dims[3 - i] = (int)(int32_t)qf_io_get_u32(h + 4 * i, 0); /* file: t z y x */
    if (qf_io_check_dims(dims, QF_GIO_SITE_REALS * sizeof(double), "the DDalphaAMG header") != QF_SUCCESS)
        return QF_ERROR;
    uint64_t vol = qf_io_volume(dims);
    uint64_t need = DD_HEADER_BYTES + vol * DD_SITE_BYTES;
    if (f->size != need)
        return qf_fail("file is %llu bytes but a %dx%dx%dx%d (x y z t) DDalphaAMG file needs %llu: %s",
                       (unsigned long long)f->size, dims[0], dims[1], dims[2], dims[3], (unsigned long long)need,
                       f->size < need ? "truncated?" : "trailing data, or corrupt dimensions?");
    if (qf_gio_check_hint(dims, dims_hint, "the DDalphaAMG header") != QF_SUCCESS) return QF_ERROR;
    double plaq = qf_io_get_f64(h + 16, 0);
    if (!isfinite(plaq) || plaq < -3.0 || plaq > 3.0)
        return qf_fail("stored plaquette %g is outside [-3, 3]: corrupt header, or not a DDalphaAMG file", plaq);

    info->format = QF_GAUGE_DDALPHA;
    memcpy(info->dims, dims, sizeof dims);
    info->precision_bits = 64;
    info->big_endian = 0;
    snprintf(info->datatype, sizeof info->datatype, "DDalphaAMG");
    info->has_plaquette = 1;
    info->stored_plaquette = plaq / 3.0;

    if (part->header_only) return QF_SUCCESS;

    qf_gio_partial p;
    qf_gio_partial_init(&p);
    if (qf_gio_part_resolve(part, dims) != QF_SUCCESS) qf_gio_partial_fail(&p);
    qf_gio_layout layout = {DD_HEADER_BYTES, DD_SITE_BYTES, QF_GIO_SITE_REALS, NULL, NULL, dd_decode, NULL,
                            "the link data", NULL};
    double *u = NULL;
    qf_gio_read_sites(f, &layout, dims, part, &u, &p);
    int rc = qf_gio_combine(part, &p, QF_GIO_SUM);
    /* the plaquette is stored as a full double computed from these very links: only the summation
     * order can differ */
    if (rc == QF_SUCCESS) rc = qf_gio_finish(u, info, part, &p, qf_gio_fact_tolerance(NULL, 64, 1), 0.0);
    if (rc != QF_SUCCESS) {
        free(u);
        return QF_ERROR;
    }
    *links = u;
    return QF_SUCCESS;
}
