/* NERSC archive gauge files (the "Gauge Connection" format that Chroma, MILC, Grid and CPS share).
 * A text header
 *     BEGIN_HEADER
 *     KEY = VALUE           (DATATYPE, DIMENSION_1..4, FLOATING_POINT, CHECKSUM, PLAQUETTE, ...)
 *     END_HEADER
 * is followed directly by the links: sites in lexicographic order (x fastest), mu = x y z t, each
 * matrix row-major complex, either all three rows (4D_SU3_GAUGE_3x3) or the first two
 * (4D_SU3_GAUGE, row 3 = conj(row1 x row2)). CHECKSUM is the uint32 sum of the stored 32-bit words
 * taken in the file's byte order -- for 64-bit data both halves of every double, as MILC's
 * r_serial_arch and Chroma do -- over the stored rows only. PLAQUETTE and LINK_TRACE are Re Tr / 3
 * averages. We write big-endian, the archive's original byte order, and compute the header facts
 * from the numbers actually stored, so that a file always reads back within the 64-bit tolerances. */
#include "gauge_io_internal.h"
#include "su3.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NERSC_MAX_HEADER 65536

typedef struct {
    int rows, bytes, big_endian;
    int dims[4];
    int have_dim[4];
    int have_checksum, have_fp, have_datatype;
    uint32_t checksum;
    char datatype[64], fp_name[32];
    int have_plaq, have_trace;
    double plaq, trace;
    char plaq_text[64], trace_text[64];
} nersc_header;

static void trim(char *s)
{
    size_t n = strlen(s), i = 0;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
    while (s[i] == ' ' || s[i] == '\t') i++;
    memmove(s, s + i, n - i + 1);
}

/* Edit distance (Levenshtein, case ignored) between key and a name of at most 15 characters. */
static size_t edit_distance(const char *key, const char *name)
{
    size_t n = strlen(name), row[16];
    for (size_t j = 0; j <= n; j++) row[j] = j;
    for (size_t i = 1; key[i - 1]; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t up = row[j];
            size_t same = toupper((unsigned char)key[i - 1]) == toupper((unsigned char)name[j - 1]);
            size_t best = diag + !same;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[n];
}

/* PLAQUETTE and LINK_TRACE are optional, so a damaged key would silently drop its check: a key
 * within two edits of one of them (one or two corrupted, lost or added bytes, or another case) is
 * taken for a damaged one. No key that NERSC writers use (HDR_VERSION, ENSEMBLE_LABEL,
 * SEQUENCE_NUMBER, CREATOR_HARDWARE, ARCHIVE_DATE, ...) comes that close. */
static int check_damaged_key(int lineno, const char *key)
{
    static const char *const checked[] = {"PLAQUETTE", "LINK_TRACE"};
    for (int k = 0; k < 2; k++)
        if (strlen(key) <= 2 * strlen(checked[k]) && edit_distance(key, checked[k]) <= 2)
            return qf_fail("header line %d: key '%s' is not %s but close to it: a damaged key would drop the %s check "
                           "(corrupt header; write the key as %s)",
                           lineno, key, checked[k], k ? "link-trace" : "plaquette", checked[k]);
    return QF_SUCCESS;
}

static int parse_line(nersc_header *h, int lineno, char *key, char *val)
{
    if (!strcmp(key, "DATATYPE")) {
        if (!strcmp(val, "4D_SU3_GAUGE")) h->rows = 2;
        else if (!strcmp(val, "4D_SU3_GAUGE_3x3")) h->rows = 3;
        else return qf_fail("header line %d: DATATYPE '%s' is not 4D_SU3_GAUGE or 4D_SU3_GAUGE_3x3", lineno, val);
        snprintf(h->datatype, sizeof h->datatype, "%s", val);
        h->have_datatype = 1;
    } else if (!strncmp(key, "DIMENSION_", 10) && key[10] >= '1' && key[10] <= '4' && key[11] == '\0') {
        int mu = key[10] - '1';
        long v;
        if (h->have_dim[mu]) return qf_fail("header line %d: %s appears twice (corrupt header)", lineno, key);
        if (qf_io_parse_long(val, &v) != QF_SUCCESS || v < 1 || v > (1 << 20))
            return qf_fail("header line %d: %s = '%s' is not an extent between 1 and %d", lineno, key, val, 1 << 20);
        h->dims[mu] = (int)v;
        h->have_dim[mu] = 1;
    } else if (!strcmp(key, "FLOATING_POINT")) {
        /* IEEE32 and IEEE64 without an order are the archive's original big-endian */
        if (!strcmp(val, "IEEE32BIG") || !strcmp(val, "IEEE32")) { h->bytes = 4; h->big_endian = 1; }
        else if (!strcmp(val, "IEEE32LITTLE")) { h->bytes = 4; h->big_endian = 0; }
        else if (!strcmp(val, "IEEE64BIG") || !strcmp(val, "IEEE64")) { h->bytes = 8; h->big_endian = 1; }
        else if (!strcmp(val, "IEEE64LITTLE")) { h->bytes = 8; h->big_endian = 0; }
        else
            return qf_fail("header line %d: FLOATING_POINT '%s' is not IEEE32BIG, IEEE32LITTLE, IEEE64BIG, IEEE64LITTLE "
                           "or IEEE32",
                           lineno, val);
        snprintf(h->fp_name, sizeof h->fp_name, "%s", val);
        h->have_fp = 1;
    } else if (!strcmp(key, "CHECKSUM")) {
        if (qf_io_parse_hex32(val, &h->checksum) != QF_SUCCESS)
            return qf_fail("header line %d: CHECKSUM '%s' is not a 32-bit hexadecimal number", lineno, val);
        h->have_checksum = 1;
    } else if (!strcmp(key, "PLAQUETTE") || !strcmp(key, "LINK_TRACE")) {
        int is_plaq = key[0] == 'P';
        if (is_plaq ? h->have_plaq : h->have_trace)
            return qf_fail("header line %d: %s appears twice (corrupt header)", lineno, key);
        double v;
        if (qf_io_parse_double(val, &v) != QF_SUCCESS)
            return qf_fail("header line %d: %s '%s' is not a number", lineno, key, val);
        if (is_plaq) {
            h->plaq = v;
            h->have_plaq = 1;
            snprintf(h->plaq_text, sizeof h->plaq_text, "%s", val);
        } else {
            h->trace = v;
            h->have_trace = 1;
            snprintf(h->trace_text, sizeof h->trace_text, "%s", val);
        }
    } else if (!strncmp(key, "BOUNDARY_", 9)) {
        if (strcmp(val, "PERIODIC") && strcmp(val, "ANTIPERIODIC"))
            return qf_fail("header line %d: %s '%s' is not PERIODIC or ANTIPERIODIC", lineno, key, val);
    } else {
        /* other keys (ENSEMBLE_ID, CREATOR, dates, ...) describe provenance and are not checked */
        return check_damaged_key(lineno, key);
    }
    return QF_SUCCESS;
}

/* Parses the header text; *data_off receives the offset of the first link byte. */
static int parse_header(qf_io_file *f, nersc_header *h, uint64_t *data_off)
{
    size_t n = f->size < NERSC_MAX_HEADER ? (size_t)f->size : NERSC_MAX_HEADER;
    char *text = malloc(n + 1);
    if (!text) return qf_fail("out of memory for the header");
    if (qf_io_read_at(f, 0, text, n, "the NERSC header") != QF_SUCCESS) {
        free(text);
        return QF_ERROR;
    }
    text[n] = '\0';
    memset(h, 0, sizeof *h);
    if (n < 12 || memcmp(text, "BEGIN_HEADER", 12)) {
        free(text);
        return qf_fail("file does not start with BEGIN_HEADER: not a NERSC file%s", n < 12 ? " (or truncated)" : "");
    }
    int rc = QF_SUCCESS, lineno = 0, ended = 0;
    size_t pos = 0;
    while (rc == QF_SUCCESS && !ended) {
        char *nl = memchr(text + pos, '\n', n - pos);
        if (!nl) {
            rc = qf_fail("header has no END_HEADER line within its first %zu bytes: %s", n,
                         n < NERSC_MAX_HEADER ? "truncated?" : "not a NERSC file?");
            break;
        }
        size_t len = (size_t)(nl - (text + pos));
        char line[512];
        lineno++;
        if (memchr(text + pos, '\0', len)) {
            rc = qf_fail("header line %d contains a NUL byte: corrupt header", lineno);
            break;
        }
        if (len >= sizeof line) {
            rc = qf_fail("header line %d is %zu characters long: corrupt header?", lineno, len);
            break;
        }
        memcpy(line, text + pos, len);
        line[len] = '\0';
        pos += len + 1;
        trim(line);
        if (lineno == 1) {
            if (strcmp(line, "BEGIN_HEADER")) rc = qf_fail("first line '%.40s' is not BEGIN_HEADER: not a NERSC file", line);
            continue;
        }
        if (!strcmp(line, "END_HEADER")) {
            ended = 1;
            break;
        }
        if (line[0] == '\0') continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            rc = qf_fail("header line %d ('%.60s') is neither KEY = VALUE nor END_HEADER: corrupt header", lineno, line);
            break;
        }
        *eq = '\0';
        char *key = line, *val = eq + 1;
        trim(key);
        trim(val);
        rc = parse_line(h, lineno, key, val);
    }
    free(text);
    if (rc != QF_SUCCESS) return rc;
    *data_off = pos;
    if (!h->have_datatype) return qf_fail("header has no DATATYPE line");
    for (int mu = 0; mu < 4; mu++)
        if (!h->have_dim[mu]) return qf_fail("header has no DIMENSION_%d line", mu + 1);
    if (!h->have_fp) return qf_fail("header has no FLOATING_POINT line: cannot tell the precision and byte order");
    if (!h->have_checksum) return qf_fail("header has no CHECKSUM line: the data cannot be verified");
    return QF_SUCCESS;
}

/* Sum of the stored 32-bit words in the file's byte order: the order of the sites does not matter. */
static void nersc_checksum(const void *ctx, uint32_t sum[2], const unsigned char *bytes, size_t nsites, uint64_t first_pos)
{
    const nersc_header *h = ctx;
    (void)first_pos;
    size_t words = nsites * (size_t)(4 * h->rows * 6 * h->bytes) / 4;
    for (size_t w = 0; w < words; w++) sum[0] += qf_io_get_u32(bytes + 4 * w, h->big_endian);
}

static void nersc_decode(const void *ctx, const unsigned char *record, double *out)
{
    const nersc_header *h = ctx;
    size_t reals_per_link = (size_t)h->rows * 6;
    for (int mu = 0; mu < 4; mu++) {
        double m[QF_SU3_REALS] = {0};
        for (size_t r = 0; r < reals_per_link; r++) {
            const unsigned char *p = record + (mu * reals_per_link + r) * (size_t)h->bytes;
            m[r] = h->bytes == 4 ? qf_io_get_f32(p, h->big_endian) : qf_io_get_f64(p, h->big_endian);
        }
        qf_su3 s = qf_su3_load(m, QF_DOUBLE, 0);
        if (h->rows == 2) qf_su3_complete_row3(&s);
        qf_su3_store(out, QF_DOUBLE, (size_t)mu, &s);
    }
}

int qf_nersc_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info)
{
    nersc_header h;
    uint64_t data_off = 0;
    *links = NULL;
    if (parse_header(f, &h, &data_off) != QF_SUCCESS) return QF_ERROR;
    if (qf_io_check_dims(h.dims, QF_GIO_SITE_REALS * sizeof(double), "the NERSC header") != QF_SUCCESS) return QF_ERROR;
    uint64_t vol = qf_io_volume(h.dims);
    size_t reals_per_link = (size_t)h.rows * 6, site_bytes = 4 * reals_per_link * (size_t)h.bytes;
    uint64_t need = data_off + vol * site_bytes;
    if (f->size != need)
        return qf_fail("file is %llu bytes but a %dx%dx%dx%d %s file in %s with a %llu-byte header needs %llu: %s",
                       (unsigned long long)f->size, h.dims[0], h.dims[1], h.dims[2], h.dims[3], h.datatype, h.fp_name,
                       (unsigned long long)data_off, (unsigned long long)need,
                       f->size < need ? "truncated?" : "trailing data, or wrong DIMENSION, DATATYPE or FLOATING_POINT?");
    if (qf_gio_check_hint(h.dims, dims_hint, "the NERSC header") != QF_SUCCESS) return QF_ERROR;

    info->format = QF_GAUGE_NERSC;
    memcpy(info->dims, h.dims, sizeof h.dims);
    info->precision_bits = 8 * h.bytes;
    info->big_endian = h.big_endian;
    snprintf(info->datatype, sizeof info->datatype, "%s", h.datatype);
    info->has_checksum = 1;
    info->stored_checksum[0] = h.checksum;
    info->has_plaquette = h.have_plaq;
    info->stored_plaquette = h.plaq;
    info->has_link_trace = h.have_trace;
    info->stored_link_trace = h.trace;

    if (part->header_only) return QF_SUCCESS;

    qf_gio_partial p;
    qf_gio_partial_init(&p);
    if (qf_gio_part_resolve(part, h.dims) != QF_SUCCESS) qf_gio_partial_fail(&p);
    qf_gio_layout layout = {data_off, site_bytes, QF_GIO_SITE_REALS, NULL, nersc_checksum, nersc_decode, &h,
                            "the link data", NULL};
    double *u = NULL;
    qf_gio_read_sites(f, &layout, h.dims, part, &u, &p);
    /* a non-finite number is reported only after the checksum: corruption is the likelier cause */
    int rc = qf_gio_combine(part, &p, QF_GIO_SUM);
    info->computed_checksum[0] = p.checksum[0];
    if (rc == QF_SUCCESS && p.checksum[0] != h.checksum)
        rc = qf_fail("checksum mismatch: CHECKSUM = %08x in the header but the stored words sum to %08x: corrupt data",
                     h.checksum, p.checksum[0]);
    if (rc == QF_SUCCESS)
        rc = qf_gio_finish(u, info, part, &p, qf_gio_fact_tolerance(h.plaq_text, info->precision_bits, 1),
                           qf_gio_fact_tolerance(h.trace_text, info->precision_bits, 0));
    if (rc != QF_SUCCESS) {
        free(u);
        return QF_ERROR;
    }
    *links = u;
    return QF_SUCCESS;
}

/* Stored form of one site: rows 1..rows of the four links, in the header's precision and byte order. */
static void nersc_encode(const void *ctx, const double *site_links, unsigned char *out)
{
    const nersc_header *h = ctx;
    size_t k = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int r = 0; r < h->rows * 6; r++, k++) {
            double v = site_links[mu * 18 + r];
            if (h->bytes == 4) qf_io_put_f32(out + 4 * k, (float)v, h->big_endian);
            else qf_io_put_f64(out + 8 * k, v, h->big_endian);
        }
}

int qf_nersc_write(const char *path, const int dims[4], const double *links, qf_gio_part *part, double plaquette,
                   const qf_gauge_write_options *opt)
{
    nersc_header h = {.rows = opt->two_row ? 2 : 3, .bytes = opt->precision_bits / 8, .big_endian = 1};
    const char *ensemble = opt->ensemble_id ? opt->ensemble_id : "unknown";
    if (qf_io_check_text(ensemble, 200) != QF_SUCCESS) return qf_fail_context("ensemble_id");
    size_t site_bytes = (size_t)4 * h.rows * 6 * h.bytes;
    qf_gio_layout layout = {.site_bytes = site_bytes, .site_reals = QF_GIO_SITE_REALS, .checksum = nersc_checksum,
                            .encode = nersc_encode, .ctx = &h};
    /* the checksum and the facts go into the header, ahead of the data */
    double m[5];
    uint32_t sum[2];
    if (qf_gio_prepare_write(dims, links, part, &layout, 1, opt->precision_bits, opt->two_row, plaquette, QF_GIO_SUM,
                             sum, m) != QF_SUCCESS)
        return QF_ERROR;
    char date[64], header[4096];
    qf_gio_date(date, sizeof date);
    int len = snprintf(header, sizeof header,
                       "BEGIN_HEADER\n"
                       "HDR_VERSION = 1.0\n"
                       "DATATYPE = %s\n"
                       "STORAGE_FORMAT = 1.0\n"
                       "DIMENSION_1 = %d\nDIMENSION_2 = %d\nDIMENSION_3 = %d\nDIMENSION_4 = %d\n"
                       "LINK_TRACE = %.15f\n"
                       "PLAQUETTE = %.15f\n"
                       "BOUNDARY_1 = PERIODIC\nBOUNDARY_2 = PERIODIC\nBOUNDARY_3 = PERIODIC\nBOUNDARY_4 = PERIODIC\n"
                       "CHECKSUM = %08x\n"
                       "ENSEMBLE_ID = %s\n"
                       "SEQUENCE_NUMBER = 0\n"
                       "CREATOR = quarkflow\n"
                       "CREATION_DATE = %s\n"
                       "FLOATING_POINT = %s\n"
                       "END_HEADER\n",
                       h.rows == 2 ? "4D_SU3_GAUGE" : "4D_SU3_GAUGE_3x3", dims[0], dims[1], dims[2], dims[3], m[3], m[0],
                       sum[0], ensemble, date, h.bytes == 4 ? "IEEE32BIG" : "IEEE64BIG");
    if (len < 0 || (size_t)len >= sizeof header) return qf_fail("header does not fit in %zu bytes", sizeof header);
    return qf_gio_write_records(path, header, (size_t)len, NULL, 0, &layout, dims, part, links);
}
