/* Byte order, bounds-checked file access, checksums and header-text parsing for the gauge I/O modules.
 * Every number is assembled byte by byte in the order the file declares, so the code is the same on
 * little- and big-endian hosts and never reads through a misaligned pointer. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "io_util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- byte order ---- */

uint32_t qf_io_get_u32(const unsigned char *p, int big_endian)
{
    if (big_endian) return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

uint64_t qf_io_get_u64(const unsigned char *p, int big_endian)
{
    uint64_t hi = qf_io_get_u32(p + (big_endian ? 0 : 4), big_endian);
    uint64_t lo = qf_io_get_u32(p + (big_endian ? 4 : 0), big_endian);
    return hi << 32 | lo;
}

double qf_io_get_f32(const unsigned char *p, int big_endian)
{
    uint32_t u = qf_io_get_u32(p, big_endian);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

double qf_io_get_f64(const unsigned char *p, int big_endian)
{
    uint64_t u = qf_io_get_u64(p, big_endian);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

void qf_io_put_u16(unsigned char *p, uint16_t v, int big_endian)
{
    p[big_endian ? 0 : 1] = (unsigned char)(v >> 8);
    p[big_endian ? 1 : 0] = (unsigned char)v;
}

void qf_io_put_u32(unsigned char *p, uint32_t v, int big_endian)
{
    for (int i = 0; i < 4; i++) p[big_endian ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

void qf_io_put_u64(unsigned char *p, uint64_t v, int big_endian)
{
    for (int i = 0; i < 8; i++) p[big_endian ? 7 - i : i] = (unsigned char)(v >> (8 * i));
}

void qf_io_put_f32(unsigned char *p, float v, int big_endian)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    qf_io_put_u32(p, u, big_endian);
}

void qf_io_put_f64(unsigned char *p, double v, int big_endian)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    qf_io_put_u64(p, u, big_endian);
}

/* ---- files ---- */

/* What a path names when it is not a regular file, for the message that refuses it. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

int qf_io_open(qf_io_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    /* O_NONBLOCK: opening a FIFO would otherwise wait for a writer, possibly forever, before fstat
     * could refuse it; it makes no difference to regular files and is cleared once the file passes */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return qf_fail("cannot open for reading: %s", strerror(errno));
    struct stat st;
    int flags;
    if (fstat(fd, &st) != 0 || (flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return qf_fail("cannot inspect the opened file: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return qf_fail("this is %s, not a regular file: the readers need a file's size and random access to it; "
                       "give the path of a file (copy a stream into one first)",
                       file_kind(st.st_mode));
    }
    f->fp = fdopen(fd, "rb");
    if (!f->fp) {
        int e = errno;
        close(fd);
        return qf_fail("cannot open for reading: %s", strerror(e));
    }
    f->size = (uint64_t)st.st_size;
    return QF_SUCCESS;
}

void qf_io_close(qf_io_file *f)
{
    if (f->fp) fclose(f->fp);
    f->fp = NULL;
}

int qf_io_read_at(qf_io_file *f, uint64_t off, void *buf, size_t len, const char *what)
{
    if (off > f->size || len > f->size - off)
        return qf_fail("%s needs bytes %llu to %llu but the file has only %llu bytes: truncated?", what,
                       (unsigned long long)off, (unsigned long long)(off + len), (unsigned long long)f->size);
    if (len == 0) return QF_SUCCESS;
    if (off > (uint64_t)INT64_MAX || fseeko(f->fp, (off_t)off, SEEK_SET) != 0)
        return qf_fail("cannot seek to byte %llu for %s: %s", (unsigned long long)off, what, strerror(errno));
    size_t got = fread(buf, 1, len, f->fp);
    if (got != len)
        return qf_fail("read error in %s at byte %llu (%zu of %zu bytes read): %s", what,
                       (unsigned long long)off, got, len, ferror(f->fp) ? strerror(errno) : "file shrank while reading");
    return QF_SUCCESS;
}

int qf_io_read_all(qf_io_file *f, char **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    if (f->size >= (uint64_t)SIZE_MAX) return qf_fail("file of %llu bytes is too large to read into memory",
                                                      (unsigned long long)f->size);
    char *buf = malloc((size_t)f->size + 1);
    if (!buf) return qf_fail("out of memory reading %llu bytes", (unsigned long long)f->size);
    if (qf_io_read_at(f, 0, buf, (size_t)f->size, "the file") != QF_SUCCESS) {
        free(buf);
        return QF_ERROR;
    }
    buf[f->size] = '\0';
    *data = buf;
    *size = (size_t)f->size;
    return QF_SUCCESS;
}

/* ---- checksums ---- */

uint32_t qf_io_rotl32(uint32_t w, unsigned r)
{
    r &= 31u;
    return r ? (w << r) | (w >> (32u - r)) : w;
}

/* The CRC table is built by the compiler, so that it needs no initialisation and concurrent callers
 * share nothing mutable: one bit step of the reflected polynomial 0xedb88320, eight steps a byte. */
#define CRC_STEP(c) (((c) >> 1) ^ (0xedb88320u & (0u - ((c) & 1u))))
#define CRC_BYTE(n) CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP((uint32_t)(n)))))))))
#define CRC_T4(n) CRC_BYTE(n), CRC_BYTE((n) + 1), CRC_BYTE((n) + 2), CRC_BYTE((n) + 3)
#define CRC_T16(n) CRC_T4(n), CRC_T4((n) + 4), CRC_T4((n) + 8), CRC_T4((n) + 12)
#define CRC_T64(n) CRC_T16(n), CRC_T16((n) + 16), CRC_T16((n) + 32), CRC_T16((n) + 48)
static const uint32_t crc_table[256] = {CRC_T64(0), CRC_T64(64), CRC_T64(128), CRC_T64(192)};

uint32_t qf_io_crc32(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t c = crc ^ 0xffffffffu;
    for (size_t i = 0; i < len; i++) c = crc_table[(c ^ p[i]) & 0xffu] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

void qf_io_milc_checksum_add(qf_milc_sum *s, const unsigned char *bytes, size_t nwords, uint64_t word_index,
                             int big_endian)
{
    unsigned r29 = (unsigned)(word_index % 29), r31 = (unsigned)(word_index % 31);
    for (size_t k = 0; k < nwords; k++) {
        uint32_t w = qf_io_get_u32(bytes + 4 * k, big_endian);
        s->sum29 ^= qf_io_rotl32(w, r29);
        s->sum31 ^= qf_io_rotl32(w, r31);
        if (++r29 == 29) r29 = 0;
        if (++r31 == 31) r31 = 0;
    }
}

void qf_io_scidac_checksum_add(qf_scidac_sum *s, const unsigned char *bytes, size_t site_bytes, size_t nsites,
                               uint64_t first_rank)
{
    for (size_t i = 0; i < nsites; i++) {
        uint32_t c = qf_io_crc32(0, bytes + i * site_bytes, site_bytes);
        uint64_t r = first_rank + i;
        s->suma ^= qf_io_rotl32(c, (unsigned)(r % 29));
        s->sumb ^= qf_io_rotl32(c, (unsigned)(r % 31));
    }
}

/* ---- text ---- */

static int only_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    return *s == '\0';
}

int qf_io_parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno || !only_blanks(end)) return QF_ERROR;
    *out = v;
    return QF_SUCCESS;
}

int qf_io_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || (errno && errno != ERANGE) || !only_blanks(end) || !isfinite(v)) return QF_ERROR;
    *out = v;
    return QF_SUCCESS;
}

int qf_io_parse_hex32(const char *s, uint32_t *out)
{
    while (*s == ' ' || *s == '\t') s++;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!isxdigit((unsigned char)*s)) return QF_ERROR;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 16);
    if (errno || !only_blanks(end) || v > 0xffffffffull) return QF_ERROR;
    *out = (uint32_t)v;
    return QF_SUCCESS;
}

int qf_io_decimals(const char *s)
{
    const char *dot = strchr(s, '.');
    int decimals = 0;
    if (dot)
        for (const char *p = dot + 1; isdigit((unsigned char)*p); p++) decimals++;
    const char *e = strpbrk(s, "eE");
    if (e) {
        long ex = strtol(e + 1, NULL, 10); /* saturates at LONG_MIN/MAX on overflow */
        if (ex > 1000) ex = 1000;
        if (ex < -1000) ex = -1000;
        decimals -= (int)ex;
    }
    return decimals;
}

int qf_io_xml_get(const char *xml, const char *tag, char *out, size_t out_size)
{
    size_t tl = strlen(tag);
    const char *p = xml;
    while ((p = strchr(p, '<')) != NULL) {
        p++;
        if (strncmp(p, tag, tl) == 0 && (p[tl] == '>' || p[tl] == ' ' || p[tl] == '\t' || p[tl] == '\n')) {
            const char *start = strchr(p + tl, '>');
            if (!start) return -1;
            start++;
            const char *end = strstr(start, "</");
            while (end && !(strncmp(end + 2, tag, tl) == 0 && end[2 + tl] == '>')) end = strstr(end + 2, "</");
            if (!end) return -1;
            while (start < end && isspace((unsigned char)*start)) start++;
            while (end > start && isspace((unsigned char)end[-1])) end--;
            size_t n = (size_t)(end - start);
            if (n + 1 > out_size) return -1;
            memcpy(out, start, n);
            out[n] = '\0';
            return 0;
        }
    }
    return -1;
}

int qf_io_check_text(const char *s, size_t max_len)
{
    size_t n = strlen(s);
    if (n > max_len) return qf_fail("text is %zu characters long: at most %zu fit", n, max_len);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return qf_fail("text has a control character (0x%02x) at position %zu: use printable characters", *p,
                           (size_t)(p - (const unsigned char *)s));
    return QF_SUCCESS;
}

int qf_io_xml_escape(const char *s, char *out, size_t out_size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            return qf_fail("text has a control character (0x%02x) at position %zu: use printable characters", *p,
                           (size_t)(p - (const unsigned char *)s));
        const char *rep = *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : NULL;
        size_t len = rep ? strlen(rep) : 1;
        if (n + len + 1 > out_size) return qf_fail("text is too long: at most %zu characters fit", out_size / 5);
        if (rep) memcpy(out + n, rep, len);
        else out[n] = (char)*p;
        n += len;
    }
    out[n] = '\0';
    return QF_SUCCESS;
}

/* ---- lattice sizes ---- */

uint64_t qf_io_volume(const int dims[4])
{
    return (uint64_t)dims[0] * (uint64_t)dims[1] * (uint64_t)dims[2] * (uint64_t)dims[3];
}

int qf_io_check_dims(const int dims[4], uint64_t bytes_per_site, const char *what)
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    for (int mu = 0; mu < 4; mu++)
        if (dims[mu] < 1 || dims[mu] > (1 << 20))
            return qf_fail("%s gives extent %c = %d: extents must be between 1 and %d (corrupt header?)", what,
                           axis[mu], dims[mu], 1 << 20);
    /* 2^62 bytes keeps every offset derived from V representable in off_t and size_t arithmetic */
    uint64_t limit = ((uint64_t)1 << 62) / (bytes_per_site ? bytes_per_site : 1);
    if ((uint64_t)SIZE_MAX / 2 / (bytes_per_site ? bytes_per_site : 1) < limit)
        limit = (uint64_t)SIZE_MAX / 2 / (bytes_per_site ? bytes_per_site : 1);
    uint64_t v = 1;
    for (int mu = 0; mu < 4; mu++) {
        if (v > limit / (uint64_t)dims[mu])
            return qf_fail("%s gives a %dx%dx%dx%d lattice, too large to hold in memory (corrupt header?)", what,
                           dims[0], dims[1], dims[2], dims[3]);
        v *= (uint64_t)dims[mu];
    }
    return QF_SUCCESS;
}
