/* MILC native v5 gauge files (MILC generic/io_lat4.c). Layout, as read from the samples and MILC's
 * reader:
 *   bytes  0..3   magic 20103, written in the writer's byte order: it tells the reader which order
 *                 the whole file uses (both occur in the samples)
 *          4..19  int32 dims x y z t
 *         20..83  time stamp, 64 characters
 *         84..87  int32 order: 0 = sites in natural order, 1 = a table of V int32 site indices follows
 *   then (after the table, if any) the checksum pair uint32 sum29, sum31 -- in the header region,
 *   not at the end of the file -- and then the links: single precision, sites in file order, four
 *   3x3 row-major complex matrices a site (mu = x, y, z, t).
 * MILC v5 carries no plaquette; the checksum pair covers every 32-bit word of the link data. */
#include "gauge_io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MILC_MAGIC 20103u
#define MILC_HEADER_BYTES 88u /* magic, dims, time stamp, order */
#define MILC_SITE_BYTES (4u * 18u * 4u)

static int read_site_table(qf_io_file *f, uint64_t off, uint64_t vol, int big_endian, int64_t **table)
{
    *table = NULL;
    int64_t *t = malloc((size_t)vol * sizeof *t);
    unsigned char *seen = calloc((size_t)vol, 1);
    unsigned char *buf = malloc(4 * QF_GIO_CHUNK_SITES);
    int rc = QF_SUCCESS;
    if (!t || !seen || !buf) rc = qf_fail("out of memory for the site table of %llu sites", (unsigned long long)vol);
    for (uint64_t i = 0; rc == QF_SUCCESS && i < vol; i += QF_GIO_CHUNK_SITES) {
        size_t n = vol - i < QF_GIO_CHUNK_SITES ? (size_t)(vol - i) : QF_GIO_CHUNK_SITES;
        rc = qf_io_read_at(f, off + 4 * i, buf, 4 * n, "the site table");
        for (size_t k = 0; rc == QF_SUCCESS && k < n; k++) {
            uint32_t s = qf_io_get_u32(buf + 4 * k, big_endian);
            if (s >= vol || seen[s])
                rc = qf_fail("site table entry %llu is %u: %s (corrupt site table)", (unsigned long long)(i + k), s,
                             s >= vol ? "beyond the lattice volume" : "a site listed twice");
            else {
                seen[s] = 1;
                t[i + k] = s;
            }
        }
    }
    free(seen);
    free(buf);
    if (rc != QF_SUCCESS) free(t);
    else *table = t;
    return rc;
}

/* sum29 / sum31 over the records' 32-bit words, rotated by each word's index in the file: an XOR, so
 * that parts combine in any order. */
static void milc_checksum(const void *ctx, uint32_t sum[2], const unsigned char *bytes, size_t nsites, uint64_t first_pos)
{
    qf_milc_sum s = {0, 0};
    qf_io_milc_checksum_add(&s, bytes, nsites * (MILC_SITE_BYTES / 4), first_pos * (MILC_SITE_BYTES / 4),
                            *(const int *)ctx);
    sum[0] ^= s.sum29;
    sum[1] ^= s.sum31;
}

static void milc_decode(const void *ctx, const unsigned char *record, double *out)
{
    for (int r = 0; r < QF_GIO_SITE_REALS; r++) out[r] = qf_io_get_f32(record + 4 * r, *(const int *)ctx);
}

int qf_milc_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info)
{
    unsigned char h[MILC_HEADER_BYTES];
    *links = NULL;
    if (qf_io_read_at(f, 0, h, sizeof h, "the MILC v5 header") != QF_SUCCESS) return QF_ERROR;
    int be;
    if (qf_io_get_u32(h, 1) == MILC_MAGIC) be = 1;
    else if (qf_io_get_u32(h, 0) == MILC_MAGIC) be = 0;
    else
        return qf_fail("magic number 0x%08x is not MILC v5's %u in either byte order: not a MILC v5 file",
                       qf_io_get_u32(h, 1), MILC_MAGIC);
    int dims[4];
    for (int mu = 0; mu < 4; mu++) dims[mu] = (int)(int32_t)qf_io_get_u32(h + 4 + 4 * mu, be);
    if (qf_io_check_dims(dims, QF_GIO_SITE_REALS * sizeof(double), "the MILC header") != QF_SUCCESS) return QF_ERROR;
    uint32_t order = qf_io_get_u32(h + 84, be);
    if (order > 1)
        return qf_fail("order field is %u: MILC v5 knows 0 (natural order) and 1 (site table): corrupt header?", order);
    uint64_t vol = qf_io_volume(dims);
    uint64_t check_off = MILC_HEADER_BYTES + (order ? 4 * vol : 0);
    uint64_t data_off = check_off + 8;
    uint64_t need = data_off + vol * MILC_SITE_BYTES;
    if (f->size != need)
        return qf_fail("file is %llu bytes but a %dx%dx%dx%d MILC v5 file in 32-bit%s needs %llu: %s",
                       (unsigned long long)f->size, dims[0], dims[1], dims[2], dims[3],
                       order ? " with a site table" : "", (unsigned long long)need,
                       f->size < need ? "truncated?" : "trailing data, or corrupt dimensions?");
    if (qf_gio_check_hint(dims, dims_hint, "the MILC header") != QF_SUCCESS) return QF_ERROR;

    unsigned char ck[8];
    if (qf_io_read_at(f, check_off, ck, 8, "the checksum pair") != QF_SUCCESS) return QF_ERROR;
    info->format = QF_GAUGE_MILC;
    memcpy(info->dims, dims, sizeof dims);
    info->precision_bits = 32;
    info->big_endian = be;
    snprintf(info->datatype, sizeof info->datatype, "MILC v5%s", order ? " site table" : "");
    info->has_checksum = 2;
    info->stored_checksum[0] = qf_io_get_u32(ck, be);
    info->stored_checksum[1] = qf_io_get_u32(ck + 4, be);

    if (part->header_only) return QF_SUCCESS;

    qf_gio_partial p;
    qf_gio_partial_init(&p);
    if (qf_gio_part_resolve(part, dims) != QF_SUCCESS) qf_gio_partial_fail(&p);
    int64_t *table = NULL;
    if (!p.failed && order && read_site_table(f, MILC_HEADER_BYTES, vol, be, &table) != QF_SUCCESS)
        qf_gio_partial_fail(&p);
    qf_gio_layout layout = {data_off, MILC_SITE_BYTES, QF_GIO_SITE_REALS, table, milc_checksum, milc_decode, &be,
                            "the link data", NULL};
    double *u = NULL;
    qf_gio_read_sites(f, &layout, dims, part, &u, &p);
    free(table);
    /* a non-finite number is reported only after the checksum: corruption is the likelier cause */
    int rc = qf_gio_combine(part, &p, QF_GIO_XOR);
    info->computed_checksum[0] = p.checksum[0];
    info->computed_checksum[1] = p.checksum[1];
    if (rc == QF_SUCCESS && (p.checksum[0] != info->stored_checksum[0] || p.checksum[1] != info->stored_checksum[1]))
        rc = qf_fail("checksum mismatch: the file stores sum29 %08x sum31 %08x but the link data give %08x %08x: corrupt "
                     "data",
                     info->stored_checksum[0], info->stored_checksum[1], p.checksum[0], p.checksum[1]);
    if (rc == QF_SUCCESS) rc = qf_gio_finish(u, info, part, &p, 0.0, 0.0);
    if (rc != QF_SUCCESS) {
        free(u);
        return QF_ERROR;
    }
    *links = u;
    return QF_SUCCESS;
}
