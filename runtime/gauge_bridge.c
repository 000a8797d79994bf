/* Bridge++ text gauge files (FieldIO_Text): one number a line and nothing else, ordered site
 * (lexicographic, x fastest) -> mu (x y z t) -> row -> column -> (re, im). Without a header the
 * file cannot tell its own size, so the caller must give the dimensions and the only checks are the
 * count of numbers, that each line is a number, and closeness to SU(3). The numbers are printed with
 * 15 significant digits, so the links are held to the 64-bit SU(3) tolerance. */
#include "gauge_io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parses the next whitespace-separated token at *p; 0: a number, 1: end of text, -1: not a number. */
static int next_number(char **p, double *v, char **token)
{
    char *s = *p;
    while (isspace((unsigned char)*s)) s++;
    *token = s;
    if (*s == '\0') return 1;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || (*end && !isspace((unsigned char)*end)) || !isfinite(*v)) return -1;
    *p = end;
    return 0;
}

static size_t line_of(const char *text, const char *at)
{
    size_t line = 1;
    for (const char *c = text; c < at; c++) line += *c == '\n';
    return line;
}

int qf_bridge_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info)
{
    *links = NULL;
    char *text;
    size_t size;
    if (qf_io_read_all(f, &text, &size) != QF_SUCCESS) return QF_ERROR;
    if (memchr(text, '\0', size)) {
        free(text);
        return qf_fail("file contains NUL bytes: not a Bridge++ text file");
    }
    /* first pass: count, so that a size mismatch names both numbers before any allocation */
    uint64_t count = 0;
    char *p = text, *token;
    double v;
    int r;
    while ((r = next_number(&p, &v, &token)) == 0) count++;
    if (r < 0) {
        /* show the token with unprintable bytes made visible, since they are the usual culprit */
        char shown[64];
        size_t k = 0;
        for (const char *c = token; *c && !isspace((unsigned char)*c) && k + 5 < sizeof shown; c++) {
            if (isprint((unsigned char)*c)) shown[k++] = *c;
            else k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02x", (unsigned char)*c);
        }
        shown[k] = '\0';
        int rc = qf_fail("line %zu: '%s' is not a finite number: not a Bridge++ text file, or corrupt", line_of(text, token),
                         shown);
        free(text);
        return rc;
    }
    int have_hint = dims_hint && (dims_hint[0] || dims_hint[1] || dims_hint[2] || dims_hint[3]);
    if (!have_hint) {
        free(text);
        return qf_fail("Bridge++ text files have no header: give the dimensions (--dim X Y Z T); this file holds %llu "
                       "numbers, %s",
                       (unsigned long long)count,
                       count % QF_GIO_SITE_REALS ? "not a multiple of 72 (4 links x 18 reals a site): truncated?"
                                                 : "72 (4 links x 18 reals) a site");
    }
    int dims[4];
    memcpy(dims, dims_hint, sizeof dims);
    for (int mu = 0; mu < 4; mu++)
        if (dims[mu] < 1) {
            free(text);
            return qf_fail("dimensions asked for are %d %d %d %d: every extent must be at least 1", dims[0], dims[1],
                           dims[2], dims[3]);
        }
    if (qf_io_check_dims(dims, QF_GIO_SITE_REALS * sizeof(double), "the dimensions asked for") != QF_SUCCESS) {
        free(text);
        return QF_ERROR;
    }
    uint64_t need = qf_io_volume(dims) * QF_GIO_SITE_REALS;
    if (count != need) {
        free(text);
        return qf_fail("file holds %llu numbers but a %dx%dx%dx%d gauge field needs %llu (72 a site): %s",
                       (unsigned long long)count, dims[0], dims[1], dims[2], dims[3], (unsigned long long)need,
                       count < need ? "truncated, or wrong --dim?" : "wrong --dim?");
    }
    info->format = QF_GAUGE_BRIDGE;
    memcpy(info->dims, dims, sizeof dims);
    info->precision_bits = 64;
    info->big_endian = 0;
    snprintf(info->datatype, sizeof info->datatype, "Bridge++ text");
    if (part->header_only) {
        free(text);
        return QF_SUCCESS;
    }
    /* text cannot be seeked: every reader scans the whole file and keeps its part */
    qf_gio_partial pr;
    qf_gio_partial_init(&pr);
    double *u = NULL;
    if (qf_gio_part_resolve(part, dims) != QF_SUCCESS) qf_gio_partial_fail(&pr);
    else if (!(u = malloc((size_t)qf_gio_part_volume(part) * QF_GIO_SITE_REALS * sizeof *u))) {
        qf_fail("out of memory for a %dx%dx%dx%d gauge field", dims[0], dims[1], dims[2], dims[3]);
        qf_gio_partial_fail(&pr);
    }
    p = text;
    for (uint64_t site = 0; u && site < need / QF_GIO_SITE_REALS; site++) {
        int64_t at = qf_gio_part_index(part, dims, (int64_t)site);
        for (int r = 0; r < QF_GIO_SITE_REALS; r++) {
            next_number(&p, &v, &token);
            if (at >= 0) u[(size_t)at * QF_GIO_SITE_REALS + (size_t)r] = v;
        }
    }
    free(text);
    if (qf_gio_combine(part, &pr, QF_GIO_SUM) != QF_SUCCESS || qf_gio_finish(u, info, part, &pr, 0.0, 0.0) != QF_SUCCESS) {
        free(u);
        return QF_ERROR;
    }
    *links = u;
    return QF_SUCCESS;
}
