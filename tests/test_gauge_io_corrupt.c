/* Gauge I/O against damaged files: for every sample in DATA_DIR, copies that are truncated, that have
 * corrupted header fields (dimensions, datatype, precision, record lengths, magic numbers), flipped
 * payload bytes, links scaled off SU(3) and NaNs planted, both with the checksums recomputed (so that
 * the SU(3) and finiteness checks themselves must fire), and wrong dimension hints; plus every reader
 * on every other format's file, a missing file and a folder. Each must
 * return QF_ERROR with a message (printed) and leave no links behind; nothing may crash (run it under
 * AddressSanitizer). Flipped bytes must be caught wherever the format has a checksum (NERSC, MILC,
 * SciDAC, ILDG with its scidac-checksum record); where it has only a plaquette (DDalphaAMG) or
 * nothing (Bridge++ text) a flip of a low-order digit is undetectable, so there the reader may succeed.
 *
 *   test_gauge_io_corrupt DATA_DIR      one line per case, last line "N passed, M failed" */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "quarkflow/qf_gauge_io.h"
#include "io_util.h"
#include "test_files.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int n_pass, n_fail;
static char tmpdir[4096], case_path[4200];

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void report(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok) n_pass++;
    else n_fail++;
}

typedef struct {
    unsigned char *b;
    size_t n;
} bytes;

static bytes slurp(const char *path)
{
    bytes r = {NULL, 0};
    r.b = qf_test_read_file(path, &r.n);
    return r;
}

static bytes copy_of(bytes s)
{
    bytes r = {malloc(s.n + 1), s.n};
    memcpy(r.b, s.b, s.n);
    return r;
}

static void put_case(const void *data, size_t n)
{
    FILE *fp = fopen(case_path, "wb");
    if (!fp || (n && fwrite(data, 1, n, fp) != n)) {
        fprintf(stderr, "cannot write %s\n", case_path);
        exit(2);
    }
    fclose(fp);
}

/* ---- what is being attacked ---- */

typedef struct {
    const char *file;
    qf_gauge_format format; /* QF_GAUGE_AUTO here marks the colour-vector file */
    int dims[4];
    int hint;               /* the reader needs dims (Bridge++) */
    int checksummed;        /* flips must be detected */
} target;

static const target targets[] = {
    {"lat.sample.l8", QF_GAUGE_SCIDAC, {8, 8, 8, 8}, 0, 1},
    {"ksvector.src.sample.l8", QF_GAUGE_AUTO, {8, 8, 8, 8}, 0, 1},
    {"lat.sample.l4448", QF_GAUGE_MILC, {4, 4, 4, 8}, 0, 1},
    {"lat.sample.l4448.gf", QF_GAUGE_MILC, {4, 4, 4, 8}, 0, 1},
    {"lat.sample.l4444", QF_GAUGE_MILC, {4, 4, 4, 4}, 0, 1},
    {"lat.sample.l4444.scidac", QF_GAUGE_SCIDAC, {4, 4, 4, 4}, 0, 1},
    {"lat.sample.l4444.ildg", QF_GAUGE_ILDG, {4, 4, 4, 4}, 0, 1},
    {"lat.sample.l8888", QF_GAUGE_MILC, {8, 8, 8, 8}, 0, 1},
    {"t_nersc.cfg", QF_GAUGE_NERSC, {4, 4, 4, 4}, 0, 1},
    {"conf_04040408.txt", QF_GAUGE_BRIDGE, {4, 4, 4, 8}, 1, 0},
    {"4x4x4x4b6.0000id3n1", QF_GAUGE_DDALPHA, {4, 4, 4, 4}, 0, 0},
    {"8x8x8x8b6.0000id3n1", QF_GAUGE_DDALPHA, {8, 8, 8, 8}, 0, 0},
};
#define NTARGETS ((int)(sizeof targets / sizeof targets[0]))

static int is_vector(const target *t) { return t->format == QF_GAUGE_AUTO; }

/* Reads case_path; *links_left: a failed read left the output pointer set (it must reset it). */
static double sentinel;

static int run_reader(qf_gauge_format format, int vector, const int *hint, char *msg, size_t msg_size, int *links_left)
{
    qf_fail("%s", ""); /* so that a failure without a message shows */
    int rc;
    if (vector) {
        int d[4];
        double *v = &sentinel;
        rc = qf_colour_vector_read(case_path, hint, d, &v, NULL);
        *links_left = rc != QF_SUCCESS && v != NULL;
        if (rc == QF_SUCCESS) free(v);
    } else {
        double *u = &sentinel;
        qf_gauge_info info;
        rc = qf_gauge_read(case_path, format, hint, &u, &info);
        *links_left = rc != QF_SUCCESS && u != NULL;
        if (rc == QF_SUCCESS) free(u);
    }
    const char *m = qf_last_error();
    snprintf(msg, msg_size, "%s", strcmp(m, "no error recorded") ? m : "");
    return rc;
}

/* The case in case_path must fail with a message, with the explicit reader and (for gauge files)
 * with detection. need: a substring the message must contain (NULL: any). */
static void expect_error(const target *t, const char *what, const int *hint, const char *need)
{
    char msg[2048];
    int left;
    int rc = run_reader(t->format, is_vector(t), hint, msg, sizeof msg, &left);
    int ok = rc == QF_ERROR && msg[0] && !left && (!need || strstr(msg, need));
    report(ok, "%s: %s -> %s%s%s%s", t->file, what, rc == QF_ERROR ? "QF_ERROR: " : "accepted!", msg,
           left ? " [links pointer not reset]" : "", ok || !need || rc != QF_ERROR ? "" : " [message should name the cause]");
    if (!is_vector(t)) {
        rc = run_reader(QF_GAUGE_AUTO, 0, hint, msg, sizeof msg, &left);
        ok = rc == QF_ERROR && msg[0] && !left;
        report(ok, "%s: %s, format detected -> %s%s", t->file, what, rc == QF_ERROR ? "QF_ERROR: " : "accepted!", msg);
    }
}

/* Formats without a checksum: the reader may accept the damage, but must not crash. */
static void expect_survival(const target *t, const char *what, const int *hint)
{
    char msg[2048];
    int left;
    int rc = run_reader(t->format, is_vector(t), hint, msg, sizeof msg, &left);
    report(!left && (rc == QF_SUCCESS || msg[0]), "%s: %s -> %s%s (no checksum in this format: accepting is allowed)",
           t->file, what, rc == QF_ERROR ? "QF_ERROR: " : "accepted", msg);
}

/* ---- mutations ---- */

static void truncations(const target *t, bytes f, const size_t *lengths, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        if (lengths[i] >= f.n) continue;
        char what[128];
        snprintf(what, sizeof what, "truncated to %zu bytes (%s)", lengths[i], names[i]);
        put_case(f.b, lengths[i]);
        expect_error(t, what, t->hint ? t->dims : NULL, NULL);
    }
}

static void flips(const target *t, bytes f, size_t payload_off, size_t payload_len)
{
    size_t at[3] = {payload_off, payload_off + payload_len / 2 + 1, payload_off + payload_len - 1};
    for (int i = 0; i < 3; i++) {
        bytes c = copy_of(f);
        c.b[at[i]] ^= 0x10;
        put_case(c.b, c.n);
        free(c.b);
        char what[128];
        snprintf(what, sizeof what, "payload byte %zu flipped (0x10)", at[i]);
        if (t->checksummed) expect_error(t, what, t->hint ? t->dims : NULL, "checksum");
        else expect_survival(t, what, t->hint ? t->dims : NULL);
    }
}

static void wrong_hints(const target *t)
{
    int h[3][4];
    memcpy(h[0], t->dims, sizeof h[0]);
    h[0][0] += 1;
    memcpy(h[1], t->dims, sizeof h[1]);
    h[1][3] *= 2;
    int n = 2;
    if (t->dims[0] != t->dims[3] && t->format != QF_GAUGE_BRIDGE) {
        /* x and t swapped: same volume; Bridge++ text cannot tell (no header), every other format can */
        memcpy(h[2], t->dims, sizeof h[2]);
        h[2][0] = t->dims[3];
        h[2][3] = t->dims[0];
        n = 3;
    }
    for (int i = 0; i < n; i++) {
        char what[128];
        snprintf(what, sizeof what, "wrong dims hint %d %d %d %d", h[i][0], h[i][1], h[i][2], h[i][3]);
        expect_error(t, what, h[i], NULL);
    }
    if (t->format == QF_GAUGE_BRIDGE) expect_error(t, "no dims hint", NULL, "dimensions");
    int partial[4] = {t->dims[0], 0, t->dims[2], t->dims[3]};
    expect_error(t, "dims hint with a zero extent", partial, NULL);
}

/* Replaces the first occurrence of `from` (within [0, limit)) by `to`; returns 0 if absent. */
static int replace(bytes *f, size_t limit, const char *from, const char *to)
{
    size_t lf = strlen(from), lt = strlen(to);
    for (size_t i = 0; i + lf <= limit && i + lf <= f->n; i++)
        if (!memcmp(f->b + i, from, lf)) {
            unsigned char *nb = malloc(f->n - lf + lt + 1);
            memcpy(nb, f->b, i);
            memcpy(nb + i, to, lt);
            memcpy(nb + i + lt, f->b + i + lf, f->n - i - lf);
            free(f->b);
            f->b = nb;
            f->n = f->n - lf + lt;
            return 1;
        }
    return 0;
}

/* The text with newlines shown as \n, for one-line reports. */
static const char *visible(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    for (; *s && n + 3 < size; s++) {
        if (*s == '\n') {
            buf[n++] = '\\';
            buf[n++] = 'n';
        } else {
            buf[n++] = *s;
        }
    }
    buf[n] = '\0';
    return buf;
}

static void text_case(const target *t, bytes f, size_t limit, const char *from, const char *to, const char *need)
{
    bytes c = copy_of(f);
    char what[256], a[96], b[96];
    snprintf(what, sizeof what, "'%s' -> '%s'", visible(from, a, sizeof a), visible(to, b, sizeof b));
    if (!replace(&c, limit, from, to)) {
        report(0, "%s: cannot find '%s' to corrupt", t->file, from);
    } else {
        put_case(c.b, c.n);
        expect_error(t, what, t->hint ? t->dims : NULL, need);
    }
    free(c.b);
}

static void put_u32_case(const target *t, bytes f, size_t off, uint32_t v, int be, const char *what, const char *need)
{
    bytes c = copy_of(f);
    qf_io_put_u32(c.b + off, v, be);
    put_case(c.b, c.n);
    free(c.b);
    expect_error(t, what, NULL, need);
}

/* ---- per format ---- */

static void attack_nersc(const target *t, bytes f)
{
    const char *end = strstr((const char *)f.b, "END_HEADER\n");
    size_t data_off = (size_t)(end - (const char *)f.b) + 11, pay = f.n - data_off;
    size_t len[] = {0, 5, data_off / 2, data_off - 1, data_off, data_off + pay / 2, f.n - 1};
    const char *names[] = {"empty", "inside BEGIN_HEADER", "inside the header", "END_HEADER without newline",
                           "header only", "inside the links", "one byte short"};
    truncations(t, f, len, names, 7);
    text_case(t, f, data_off, "DIMENSION_1 = 4", "DIMENSION_1 = 5", "needs");
    text_case(t, f, data_off, "DIMENSION_4 = 4", "DIMENSION_4 = 0", "DIMENSION_4");
    text_case(t, f, data_off, "DIMENSION_2 = 4", "DIMENSION_2 = x4", "DIMENSION_2");
    text_case(t, f, data_off, "DIMENSION_3 = 4", "DIMENSION_3 = 99999999999", "DIMENSION_3");
    text_case(t, f, data_off, "DIMENSION_3 = 4\n", "", "DIMENSION_3");
    text_case(t, f, data_off, "DATATYPE = 4D_SU3_GAUGE\n", "DATATYPE = 4D_SU3_GAUGE_3x3\n", "needs");
    text_case(t, f, data_off, "DATATYPE = 4D_SU3_GAUGE\n", "DATATYPE = 4D_SU2_GAUGE\n", "DATATYPE");
    text_case(t, f, data_off, "IEEE32BIG", "IEEE64BIG", "needs");
    text_case(t, f, data_off, "IEEE32BIG", "IEEE32LITTLE", "checksum");
    text_case(t, f, data_off, "IEEE32BIG", "IEEE16BIG", "FLOATING_POINT");
    text_case(t, f, data_off, "CHECKSUM = 717938df", "CHECKSUM = 717938de", "checksum");
    text_case(t, f, data_off, "CHECKSUM = 717938df", "CHECKSUM = zz", "CHECKSUM");
    text_case(t, f, data_off, "CHECKSUM = 717938df\n", "", "CHECKSUM");
    text_case(t, f, data_off, "PLAQUETTE = 0.0382422893", "PLAQUETTE = 0.0392422893", "plaquette");
    text_case(t, f, data_off, "LINK_TRACE = 0.4630322094", "LINK_TRACE = 0.4630332094", "link trace");
    /* the optional facts: a damaged value or key, or a second copy, must not drop their check */
    text_case(t, f, data_off, "PLAQUETTE = 0.0382422893", "PLAQUETTE = 0.5x", "PLAQUETTE '0.5x' is not a number");
    text_case(t, f, data_off, "PLAQUETTE = 0.0382422893", "PLAQUETTE =", "PLAQUETTE '' is not a number");
    text_case(t, f, data_off, "LINK_TRACE = 0.4630322094", "LINK_TRACE = nan", "LINK_TRACE 'nan' is not a number");
    text_case(t, f, data_off, "PLAQUETTE =", "PLAQUETTF =", "key 'PLAQUETTF' is not PLAQUETTE but close to it");
    text_case(t, f, data_off, "PLAQUETTE =", "PLAQUE\xd4TE =", "is not PLAQUETTE but close to it");
    text_case(t, f, data_off, "PLAQUETTE =", "Plaquette =", "key 'Plaquette' is not PLAQUETTE");
    text_case(t, f, data_off, "LINK_TRACE =", "LINK_TACE =", "key 'LINK_TACE' is not LINK_TRACE but close to it");
    text_case(t, f, data_off, "LINK_TRACE =", "LINKTRACEX =", "key 'LINKTRACEX' is not LINK_TRACE");
    text_case(t, f, data_off, "ENSEMBLE_ID = 0\n", "PLAQUETTE = 0.0382422893\n", "PLAQUETTE appears twice");
    text_case(t, f, data_off, "BEGIN_HEADER", "BEGIN_HEADEX", NULL);
    text_case(t, f, data_off, "END_HEADER", "END_HEADEX", "END_HEADER");
    text_case(t, f, data_off, "BOUNDARY_1 = PERIODIC", "BOUNDARY_1 = SIDEWAYS", "BOUNDARY_1");
    text_case(t, f, data_off, "HDR_VERSION = 1.0", "HDR_VERSION 1.0", "KEY = VALUE");
    flips(t, f, data_off, pay);
    {
        bytes c = copy_of(f);
        qf_io_put_f32(c.b + data_off + 4 * 50, NAN, 1);
        uint32_t sum = 0;
        for (size_t k = data_off; k + 4 <= c.n; k += 4) sum += qf_io_get_u32(c.b + k, 1);
        char line[64];
        snprintf(line, sizeof line, "CHECKSUM = %08x", sum);
        replace(&c, data_off, "CHECKSUM = 717938df", line);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "a NaN in site 1, CHECKSUM recomputed", NULL, "non-finite");
    }
    /* links x 1.5 with a consistent CHECKSUM: only the SU(3) check can object */
    bytes c = copy_of(f);
    uint32_t sum = 0;
    for (size_t k = data_off; k + 4 <= c.n; k += 4) {
        qf_io_put_f32(c.b + k, (float)(1.5 * qf_io_get_f32(c.b + k, 1)), 1);
        sum += qf_io_get_u32(c.b + k, 1);
    }
    char line[64];
    snprintf(line, sizeof line, "CHECKSUM = %08x", sum);
    replace(&c, data_off, "CHECKSUM = 717938df", line);
    put_case(c.b, c.n);
    free(c.b);
    expect_error(t, "links scaled by 1.5, CHECKSUM recomputed", NULL, "SU(3)");
}

static void attack_milc(const target *t, bytes f)
{
    int be = qf_io_get_u32(f.b, 1) == 20103u;
    size_t pay = f.n - 96;
    size_t len[] = {0, 3, 50, 92, 96, 96 + pay / 2, f.n - 1};
    const char *names[] = {"empty", "inside the magic number", "inside the time stamp", "inside the checksum pair",
                           "header only", "inside the links", "one byte short"};
    truncations(t, f, len, names, 7);
    uint32_t d0 = qf_io_get_u32(f.b + 4, be), dt = qf_io_get_u32(f.b + 16, be);
    put_u32_case(t, f, 0, 0, be, "magic number zeroed", "magic");
    put_u32_case(t, f, 0, 0x874e0000u, be, "magic number byte-swapped (other byte order claimed)", NULL);
    put_u32_case(t, f, 4, d0 + 1, be, "dims x + 1", "needs");
    put_u32_case(t, f, 4, 0, be, "dims x = 0", "extent");
    put_u32_case(t, f, 8, (uint32_t)-4, be, "dims y = -4", "extent");
    put_u32_case(t, f, 16, 0x7fffffffu, be, "dims t = 2^31 - 1", "extent");
    put_u32_case(t, f, 16, 2 * dt, be, "dims t doubled", "needs");
    put_u32_case(t, f, 84, 1, be, "order = 1 (site table claimed)", "needs");
    put_u32_case(t, f, 84, 7, be, "order = 7", "order");
    put_u32_case(t, f, 88, qf_io_get_u32(f.b + 88, be) ^ 1u, be, "sum29 changed", "checksum");
    put_u32_case(t, f, 92, qf_io_get_u32(f.b + 92, be) ^ 0x80000000u, be, "sum31 changed", "checksum");
    flips(t, f, 96, pay);
    {
        /* a site table (order 1) that lists one site twice, with valid checksums */
        size_t vol = pay / 288, n = 88 + 4 * vol + 8 + pay;
        unsigned char *b = malloc(n);
        memcpy(b, f.b, 88);
        qf_io_put_u32(b + 84, 1, be);
        for (size_t i = 0; i < vol; i++) qf_io_put_u32(b + 88 + 4 * i, (uint32_t)(i == 5 ? 4 : i), be);
        memcpy(b + 88 + 4 * vol + 8, f.b + 96, pay);
        qf_milc_sum s = {0, 0};
        qf_io_milc_checksum_add(&s, f.b + 96, pay / 4, 0, be);
        qf_io_put_u32(b + 88 + 4 * vol, s.sum29, be);
        qf_io_put_u32(b + 88 + 4 * vol + 4, s.sum31, be);
        put_case(b, n);
        free(b);
        expect_error(t, "site table (order 1) listing site 4 twice", NULL, "site table");
    }
    {
        /* a NaN with valid checksums: only the finiteness check can object */
        bytes c = copy_of(f);
        qf_io_put_f32(c.b + 96 + 288 * 3 + 4 * 20, NAN, be);
        qf_milc_sum s = {0, 0};
        qf_io_milc_checksum_add(&s, c.b + 96, pay / 4, 0, be);
        qf_io_put_u32(c.b + 88, s.sum29, be);
        qf_io_put_u32(c.b + 92, s.sum31, be);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "a NaN in U_y of site 3, checksums recomputed", NULL, "non-finite");
    }
    bytes c = copy_of(f);
    for (size_t k = 96; k + 4 <= c.n; k += 4) qf_io_put_f32(c.b + k, (float)(1.5 * qf_io_get_f32(c.b + k, be)), be);
    qf_milc_sum s = {0, 0};
    qf_io_milc_checksum_add(&s, c.b + 96, pay / 4, 0, be);
    qf_io_put_u32(c.b + 88, s.sum29, be);
    qf_io_put_u32(c.b + 92, s.sum31, be);
    put_case(c.b, c.n);
    free(c.b);
    expect_error(t, "links scaled by 1.5, checksums recomputed", NULL, "SU(3)");
}

typedef struct {
    size_t hdr, data, len;
    char type[129];
} rec;

static int lime_records(bytes f, rec *r, int max)
{
    int n = 0;
    for (size_t off = 0; off + 144 <= f.n && n < max; n++) {
        r[n].hdr = off;
        r[n].data = off + 144;
        r[n].len = (size_t)qf_io_get_u64(f.b + off + 8, 1);
        memcpy(r[n].type, f.b + off + 16, 128);
        r[n].type[128] = '\0';
        off += 144 + ((r[n].len + 7) & ~(size_t)7);
    }
    return n;
}

static int find_rec(const rec *r, int n, const char *type)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(r[i].type, type)) return i;
    return -1;
}

static void attack_lime(const target *t, bytes f)
{
    rec r[32];
    int n = lime_records(f, r, 32);
    int ildg = t->format == QF_GAUGE_ILDG;
    int bin = find_rec(r, n, ildg ? "ildg-binary-data" : "scidac-binary-data");
    int cks = find_rec(r, n, "scidac-checksum");
    if (bin < 0 || cks < 0) {
        report(0, "%s: binary or checksum record not found", t->file);
        return;
    }
    size_t len[] = {0, 10, 100, r[1].hdr + 20, r[bin].data + r[bin].len / 2, r[cks].hdr, f.n - 1};
    const char *names[] = {"empty", "inside the first record header", "inside the first XML record",
                           "inside the second record header", "inside the binary data",
                           "at the scidac-checksum record (a record boundary)", "one byte short"};
    /* an ILDG file may legitimately end after its binary record (the SciDAC checksum is optional there) */
    truncations(t, f, len, names, ildg ? 5 : 7);
    if (ildg) truncations(t, f, &len[6], &names[6], 1);
    put_u32_case(t, f, 0, 0x12345678u, 1, "first LIME magic number", "magic");
    put_u32_case(t, f, r[bin].hdr, 0, 1, "binary record's LIME magic zeroed", "magic");
    {
        bytes c = copy_of(f);
        qf_io_put_u16(c.b + 4, 2, 1);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "first record version 2", NULL, "version");
    }
    const int64_t deltas[] = {8, -8, 1, INT64_MAX};
    for (int i = 0; i < 4; i++) {
        bytes c = copy_of(f);
        uint64_t l = deltas[i] == INT64_MAX ? (uint64_t)1 << 62 : (uint64_t)((int64_t)r[bin].len + deltas[i]);
        qf_io_put_u64(c.b + r[bin].hdr + 8, l, 1);
        put_case(c.b, c.n);
        free(c.b);
        char what[128];
        snprintf(what, sizeof what, "binary record length %zu -> %llu", r[bin].len, (unsigned long long)l);
        expect_error(t, what, NULL, NULL);
    }
    {
        bytes c = copy_of(f);
        qf_io_put_u64(c.b + 8, r[0].len + 8, 1);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "first XML record length + 8", NULL, NULL);
    }
    {
        bytes c = copy_of(f);
        c.b[r[bin].hdr + 16 + strlen(r[bin].type) - 1] ^= 0x01;
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "binary record type renamed", NULL, "record");
    }
    char from[64], to[64];
    snprintf(from, sizeof from, "<dims>%d %d %d %d ", t->dims[0], t->dims[1], t->dims[2], t->dims[3]);
    snprintf(to, sizeof to, "<dims>%d %d %d %d ", t->dims[0], t->dims[1], t->dims[2], t->dims[3] + 1);
    text_case(t, f, f.n, from, to, NULL);
    text_case(t, f, f.n, "<spacetime>4</spacetime>", "<spacetime>3</spacetime>", "spacetime");
    text_case(t, f, f.n, "<precision>F</precision>", "<precision>D</precision>", NULL);
    text_case(t, f, f.n, "<precision>F</precision>", "<precision>Q</precision>", "precision");
    text_case(t, f, f.n, is_vector(t) ? "<typesize>24</typesize>" : "<typesize>72</typesize>",
              is_vector(t) ? "<typesize>25</typesize>" : "<typesize>73</typesize>", "typesize");
    text_case(t, f, f.n, is_vector(t) ? "<datacount>1</datacount>" : "<datacount>4</datacount>",
              is_vector(t) ? "<datacount>2</datacount>" : "<datacount>3</datacount>", "datacount");
    text_case(t, f, f.n, "<colors>3</colors>", "<colors>2</colors>", "colors");
    text_case(t, f, f.n, "<datatype>QDP_F3", "<datatype>QDP_F4", NULL);
    if (ildg) {
        text_case(t, f, f.n, "<precision>32</precision>", "<precision>64</precision>", NULL);
        text_case(t, f, f.n, "<lx>4</lx>", "<lx>5</lx>", NULL);
        text_case(t, f, f.n, "<field>su3gauge</field>", "<field>su2gauge</field>", "su3gauge");
    }
    {
        bytes c = copy_of(f);
        unsigned char *a = (unsigned char *)strstr((char *)c.b + r[cks].data, "<suma>");
        a[6] = a[6] == '0' ? '1' : '0';
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "suma changed in the scidac-checksum record", NULL, "checksum");
    }
    {
        bytes c = copy_of(f);
        char *b = strstr((char *)c.b + r[cks].data, "<sumb>");
        b[6] = 'x';
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "sumb made non-hexadecimal", NULL, "sumb");
    }
    flips(t, f, r[bin].data, r[bin].len);
    {
        /* a NaN with a valid scidac-checksum: only the finiteness check can object */
        bytes c = copy_of(f);
        size_t site_bytes = is_vector(t) ? 24 : 288;
        qf_io_put_f32(c.b + r[bin].data + 8, NAN, 1);
        qf_scidac_sum s = {0, 0};
        qf_io_scidac_checksum_add(&s, c.b + r[bin].data, site_bytes, r[bin].len / site_bytes, 0);
        char hex[16];
        snprintf(hex, sizeof hex, "%08x", s.suma);
        memcpy(strstr((char *)c.b + r[cks].data, "<suma>") + 6, hex, 8);
        snprintf(hex, sizeof hex, "%08x", s.sumb);
        memcpy(strstr((char *)c.b + r[cks].data, "<sumb>") + 6, hex, 8);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "a NaN at site 0, SciDAC checksums recomputed", NULL, "non-finite");
    }
    if (is_vector(t)) return; /* a colour vector has no SU(3) constraint to violate */
    bytes c = copy_of(f);
    for (size_t k = r[bin].data; k < r[bin].data + r[bin].len; k += 4)
        qf_io_put_f32(c.b + k, (float)(1.5 * qf_io_get_f32(c.b + k, 1)), 1);
    qf_scidac_sum s = {0, 0};
    qf_io_scidac_checksum_add(&s, c.b + r[bin].data, 288, r[bin].len / 288, 0);
    char *a = strstr((char *)c.b + r[cks].data, "<suma>"), *b = strstr((char *)c.b + r[cks].data, "<sumb>");
    char hex[16];
    snprintf(hex, sizeof hex, "%08x", s.suma);
    memcpy(a + 6, hex, 8);
    snprintf(hex, sizeof hex, "%08x", s.sumb);
    memcpy(b + 6, hex, 8);
    put_case(c.b, c.n);
    free(c.b);
    expect_error(t, "links scaled by 1.5, SciDAC checksums recomputed", NULL, "SU(3)");
}

static void attack_ddalpha(const target *t, bytes f)
{
    size_t pay = f.n - 24;
    size_t len[] = {0, 10, 20, 24, 24 + pay / 2, f.n - 1};
    const char *names[] = {"empty", "inside the dims", "inside the plaquette", "header only", "inside the links",
                           "one byte short"};
    truncations(t, f, len, names, 6);
    put_u32_case(t, f, 0, qf_io_get_u32(f.b, 0) + 1, 0, "dims t + 1", "needs");
    put_u32_case(t, f, 12, 0, 0, "dims x = 0", NULL);
    put_u32_case(t, f, 8, (uint32_t)-1, 0, "dims y = -1", NULL);
    put_u32_case(t, f, 4, 1u << 30, 0, "dims z = 2^30", NULL);
    const double plaqs[] = {qf_io_get_f64(f.b + 16, 0) + 1e-6, NAN, 7.0};
    const char *pn[] = {"stored plaquette + 1e-6", "stored plaquette NaN", "stored plaquette 7"};
    for (int i = 0; i < 3; i++) {
        bytes c = copy_of(f);
        qf_io_put_f64(c.b + 16, plaqs[i], 0);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, pn[i], NULL, "plaquette");
    }
    flips(t, f, 24, pay);
    {
        /* the top byte of a double holds sign and exponent: this one the plaquette and SU(3) see */
        bytes c = copy_of(f);
        c.b[24 + 7] ^= 0x10;
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "exponent byte of the first number flipped", NULL, NULL);
    }
    {
        bytes c = copy_of(f);
        qf_io_put_f64(c.b + 24 + 576 + 8 * 3, INFINITY, 0);
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "an infinity in site 1's first link (file order: U_t)", NULL, "non-finite");
    }
    bytes c = copy_of(f);
    for (size_t k = 24; k + 8 <= c.n; k += 8) qf_io_put_f64(c.b + k, 1.5 * qf_io_get_f64(c.b + k, 0), 0);
    put_case(c.b, c.n);
    free(c.b);
    expect_error(t, "links scaled by 1.5", NULL, "SU(3)");
}

static void attack_bridge(const target *t, bytes f)
{
    size_t half = f.n / 2;
    while (half < f.n && f.b[half - 1] != '\n') half++;
    size_t last_line = f.n - 1;
    while (last_line > 0 && f.b[last_line - 1] != '\n') last_line--;
    /* no header to cut into; "one number short" stands for "one byte short", since dropping only the
     * final newline leaves the same numbers (checked below) */
    size_t len[] = {0, 10, half, last_line, f.n - 5};
    const char *names[] = {"empty", "inside the first number", "half the numbers", "one number short",
                           "last number lost its exponent"};
    truncations(t, f, len, names, 5);
    {
        put_case(f.b, f.n - 1);
        char msg[2048];
        int left;
        int rc = run_reader(t->format, 0, t->dims, msg, sizeof msg, &left);
        report(rc == QF_SUCCESS, "%s: final newline removed -> %s%s (same numbers: accepting is right)", t->file,
               rc == QF_SUCCESS ? "accepted" : "QF_ERROR: ", msg);
    }
    char first[64];
    size_t l0 = strcspn((const char *)f.b, "\n");
    snprintf(first, sizeof first, "%.*s\n", (int)l0, (const char *)f.b);
    text_case(t, f, f.n, first, "abc\n", "not a finite number");
    text_case(t, f, f.n, first, "nan\n", "not a finite number");
    text_case(t, f, f.n, first, "1e999\n", "not a finite number");
    text_case(t, f, f.n, first, "0.1 0.2\n", "numbers");
    text_case(t, f, f.n, first, "8.12206043906920e-02x\n", "not a finite number");
    {
        bytes c = copy_of(f);
        c.b[3] = '\0';
        put_case(c.b, c.n);
        free(c.b);
        expect_error(t, "NUL byte in the text", t->dims, NULL);
    }
    flips(t, f, 0, f.n);
    bytes c = {malloc(f.n * 2), 0};
    const char *p = (const char *)f.b;
    char *end;
    for (double v = strtod(p, &end); end != p; p = end, v = strtod(p, &end))
        c.n += (size_t)sprintf((char *)c.b + c.n, "%.14e\n", 1.5 * v);
    put_case(c.b, c.n);
    free(c.b);
    expect_error(t, "links scaled by 1.5", t->dims, "SU(3)");
}

/* Every reader on this intact file except its own must refuse it. */
static void other_readers(const target *t)
{
    static const qf_gauge_format all[] = {QF_GAUGE_NERSC, QF_GAUGE_MILC,   QF_GAUGE_SCIDAC, QF_GAUGE_ILDG,
                                          QF_GAUGE_BRIDGE, QF_GAUGE_DDALPHA, QF_GAUGE_AUTO};
    for (int i = 0; i < 7; i++) {
        int vector = all[i] == QF_GAUGE_AUTO;
        if (vector ? is_vector(t) : all[i] == t->format) continue;
        char msg[2048];
        int left;
        int rc = run_reader(all[i], vector, t->dims, msg, sizeof msg, &left);
        report(rc == QF_ERROR && msg[0] && !left, "%s: read as %s -> %s%s", t->file,
               vector ? "a colour vector" : qf_gauge_format_name(all[i]), rc == QF_ERROR ? "QF_ERROR: " : "accepted!", msg);
    }
    if (is_vector(t)) {
        char msg[2048];
        int left;
        int rc = run_reader(QF_GAUGE_AUTO, 0, NULL, msg, sizeof msg, &left);
        report(rc == QF_ERROR && msg[0] && !left, "%s: read as a gauge field, format detected -> %s%s", t->file,
               rc == QF_ERROR ? "QF_ERROR: " : "accepted!", msg);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_gauge_io_corrupt.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "cannot create a temporary folder under %s\n", base && *base ? base : "/tmp");
        return 2;
    }
    snprintf(case_path, sizeof case_path, "%s/case", tmpdir);

    {
        char msg[2048];
        int left;
        int rc = run_reader(QF_GAUGE_AUTO, 0, NULL, msg, sizeof msg, &left);
        report(rc == QF_ERROR && msg[0], "file that does not exist -> QF_ERROR: %s", msg);
    }
    {
        char msg[2048];
        int left;
        snprintf(case_path, sizeof case_path, "%s", tmpdir);
        int rc = run_reader(QF_GAUGE_AUTO, 0, NULL, msg, sizeof msg, &left);
        report(rc == QF_ERROR && msg[0], "a folder instead of a file -> QF_ERROR: %s", msg);
        rc = run_reader(QF_GAUGE_NERSC, 0, NULL, msg, sizeof msg, &left);
        report(rc == QF_ERROR && msg[0], "a folder read as NERSC -> QF_ERROR: %s", msg);
        snprintf(case_path, sizeof case_path, "%s/case", tmpdir);
    }
    for (int i = 0; i < NTARGETS; i++) {
        const target *t = &targets[i];
        char path[4300];
        snprintf(path, sizeof path, "%s/%s", argv[1], t->file);
        bytes f = slurp(path);
        if (!f.b || !f.n) {
            report(0, "%s: cannot read %s", t->file, path);
            continue;
        }
        /* the intact file reads: the damage below is what fails */
        put_case(f.b, f.n);
        {
            char msg[2048];
            int left;
            int rc = run_reader(t->format, is_vector(t), t->hint ? t->dims : NULL, msg, sizeof msg, &left);
            report(rc == QF_SUCCESS, "%s: intact copy reads%s%s", t->file, rc ? ": " : "", msg);
        }
        other_readers(t);
        if (!is_vector(t)) wrong_hints(t);
        else {
            int h[4] = {8, 8, 8, 4};
            expect_error(t, "wrong dims hint 8 8 8 4", h, NULL);
        }
        switch (t->format) {
        case QF_GAUGE_NERSC: attack_nersc(t, f); break;
        case QF_GAUGE_MILC: attack_milc(t, f); break;
        case QF_GAUGE_SCIDAC:
        case QF_GAUGE_ILDG:
        case QF_GAUGE_AUTO: attack_lime(t, f); break;
        case QF_GAUGE_BRIDGE: attack_bridge(t, f); break;
        case QF_GAUGE_DDALPHA: attack_ddalpha(t, f); break;
        }
        free(f.b);
    }
    unlink(case_path);
    rmdir(tmpdir);
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
