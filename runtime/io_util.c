/* Byte order, bounds-checked file access, checksums and header-text parsing for the gauge I/O modules.
 * Every number is assembled byte by byte in the order the file declares, so the code is the same on
 * little- and big-endian hosts and never reads through a misaligned pointer. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "io_util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
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

/* ---- output files ---- */

/* Removal of temporary files when SIGINT, SIGTERM or SIGHUP ends the process during a write: the
 * creator registers its temporary file, and a handler (installed while any is registered, and not
 * for a signal the process ignores) unlinks every registered name, restores the handler it replaced
 * and raises the signal again, so that the process ends, or the application's own handler runs, as
 * before. Everything in the handler is async-signal-safe (lock-free atomics, unlink, sigaction,
 * raise). Not covered: SIGKILL and crashes (nothing can run then), and a write beyond CLEANUP_SLOTS
 * at once in one process (it is still removed on every failure the writer sees). */
#define CLEANUP_SLOTS 8
#define CLEANUP_NSIGNALS 3
static const int cleanup_signals[CLEANUP_NSIGNALS] = {SIGINT, SIGTERM, SIGHUP};
static char cleanup_names[CLEANUP_SLOTS][QF_IO_PATH_MAX];
static atomic_int cleanup_used[CLEANUP_SLOTS];
static struct sigaction cleanup_previous[CLEANUP_NSIGNALS];
static int cleanup_installed[CLEANUP_NSIGNALS], cleanup_count;
static pthread_mutex_t cleanup_lock = PTHREAD_MUTEX_INITIALIZER;

static void cleanup_on_signal(int sig)
{
    int saved_errno = errno;
    for (int k = 0; k < CLEANUP_SLOTS; k++)
        if (atomic_load(&cleanup_used[k])) unlink(cleanup_names[k]);
    for (int i = 0; i < CLEANUP_NSIGNALS; i++)
        if (cleanup_signals[i] == sig) sigaction(sig, &cleanup_previous[i], NULL);
    raise(sig); /* blocked until this handler returns, then the previous disposition takes it */
    errno = saved_errno;
}

static int cleanup_register(const char *name)
{
    pthread_mutex_lock(&cleanup_lock);
    int slot = -1;
    for (int k = 0; k < CLEANUP_SLOTS && slot < 0; k++)
        if (!atomic_load(&cleanup_used[k])) slot = k;
    if (slot >= 0) {
        snprintf(cleanup_names[slot], sizeof cleanup_names[slot], "%s", name);
        atomic_store(&cleanup_used[slot], 1);
        if (cleanup_count++ == 0) {
            struct sigaction ours;
            memset(&ours, 0, sizeof ours);
            ours.sa_handler = cleanup_on_signal;
            sigemptyset(&ours.sa_mask);
            ours.sa_flags = SA_RESTART;
            for (int i = 0; i < CLEANUP_NSIGNALS; i++) {
                cleanup_installed[i] = sigaction(cleanup_signals[i], NULL, &cleanup_previous[i]) == 0 &&
                                       cleanup_previous[i].sa_handler != SIG_IGN &&
                                       sigaction(cleanup_signals[i], &ours, NULL) == 0;
            }
        }
    }
    pthread_mutex_unlock(&cleanup_lock);
    return slot;
}

static void cleanup_unregister(int slot)
{
    if (slot < 0) return;
    pthread_mutex_lock(&cleanup_lock);
    atomic_store(&cleanup_used[slot], 0);
    if (--cleanup_count == 0)
        for (int i = 0; i < CLEANUP_NSIGNALS; i++) {
            struct sigaction now;
            /* put the previous handler back unless someone replaced ours meanwhile */
            if (cleanup_installed[i] && sigaction(cleanup_signals[i], NULL, &now) == 0 &&
                now.sa_handler == cleanup_on_signal)
                sigaction(cleanup_signals[i], &cleanup_previous[i], NULL);
            cleanup_installed[i] = 0;
        }
    pthread_mutex_unlock(&cleanup_lock);
}

static int temporary_name(char *buf, size_t size, const char *path, int64_t token)
{
    int n = snprintf(buf, size, "%s.tmp-%lld", path, (long long)token);
    if (n < 0 || (size_t)n >= size) return qf_fail("output path is too long (%zu characters)", strlen(path));
    return QF_SUCCESS;
}

/* The first name tried is PATH.tmp-PID; when taken, unpredictable ones follow, so that names planted
 * in advance cannot exhaust the attempts. */
static int64_t temporary_token(int attempt)
{
    int64_t pid = (int64_t)getpid();
    if (attempt == 0) return pid;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t z = (uint64_t)now.tv_nsec ^ (uint64_t)now.tv_sec << 30 ^ (uint64_t)attempt * 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u; /* splitmix64's finaliser */
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (int64_t)((z ^ (z >> 31)) >> 34) << 22 | pid; /* pid < 2^22 on Linux */
}

/* Whether path may be replaced; *mode receives the permission bits the new file takes over, or -1
 * for a new file. */
static int check_target(const char *path, int *mode)
{
    struct stat st;
    *mode = -1;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) return QF_SUCCESS;
        return qf_fail("cannot inspect the output file %s: %s", path, strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return qf_fail("the output %s is %s, not a regular file: give the name of a file to write", path,
                       file_kind(st.st_mode));
    /* no write permission bit at all is a protection even where access() lets root through */
    int denied = access(path, W_OK) != 0 ? errno : 0;
    if (denied || !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
        return qf_fail("the output %s exists and is write-protected (mode %04o%s%s): it is not replaced; make it "
                       "writable (chmod u+w), remove it, or write another file",
                       path, (unsigned)(st.st_mode & 07777), denied ? ": " : "", denied ? strerror(denied) : "");
    *mode = (int)(st.st_mode & 07777);
    return QF_SUCCESS;
}

int qf_io_output_create(qf_io_output *o, const char *path, int64_t *token)
{
    *o = (qf_io_output)QF_IO_OUTPUT_INIT;
    o->path = path;
    int mode;
    if (check_target(path, &mode) != QF_SUCCESS) return QF_ERROR;
    for (int attempt = 0; attempt < 16; attempt++) {
        *token = temporary_token(attempt);
        if (temporary_name(o->tmp, sizeof o->tmp, path, *token) != QF_SUCCESS) return QF_ERROR;
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (o->fd >= 0) break;
        if (errno != EEXIST) {
            int e = errno;
            o->tmp[0] = '\0';
            return qf_fail("cannot create the temporary file beside %s: %s (does its folder exist, and may you write "
                           "there?)",
                           path, strerror(e));
        }
    }
    if (o->fd < 0) {
        o->tmp[0] = '\0';
        return qf_fail("cannot create a temporary file beside %s: 16 names %s.tmp-N were taken", path, path);
    }
    o->creator = 1;
    o->cleanup_slot = cleanup_register(o->tmp);
    if (mode >= 0 && fchmod(o->fd, (mode_t)mode) != 0) {
        int e = errno;
        qf_io_output_abandon(o);
        return qf_fail("cannot give the temporary file for %s the target's mode %04o: %s", path, (unsigned)mode,
                       strerror(e));
    }
    return QF_SUCCESS;
}

int qf_io_output_join(qf_io_output *o, const char *path, int64_t token)
{
    *o = (qf_io_output)QF_IO_OUTPUT_INIT;
    o->path = path;
    if (temporary_name(o->tmp, sizeof o->tmp, path, token) != QF_SUCCESS) return QF_ERROR;
    o->fd = open(o->tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (o->fd < 0)
        return qf_fail("cannot open %s, which writer 0 created: %s (do all processes see the same file system?)", o->tmp,
                       strerror(errno));
    return QF_SUCCESS;
}

int qf_io_output_write_at(qf_io_output *o, uint64_t off, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        if (off > (uint64_t)INT64_MAX - len) return qf_fail("writing %s: offset %llu is too large", o->tmp, (unsigned long long)off);
        ssize_t n = pwrite(o->fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return qf_fail("writing %s failed: %s (disk full?)", o->tmp, n < 0 ? strerror(errno) : "nothing written");
        p += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    return QF_SUCCESS;
}

int qf_io_output_finish(qf_io_output *o)
{
    int e = 0;
    /* EINVAL: a file system without fsync, where there is nothing more to wait for */
    if (fsync(o->fd) != 0 && errno != EINVAL) e = errno;
    if (close(o->fd) != 0 && !e && errno != EINTR) e = errno;
    o->fd = -1;
    if (e) return qf_fail("writing %s failed when flushing it to disk: %s", o->tmp, strerror(e));
    return QF_SUCCESS;
}

/* Best effort: the rename is on disk only once the folder is; failing here loses nothing written. */
static void sync_folder(const char *path)
{
    char folder[QF_IO_PATH_MAX];
    snprintf(folder, sizeof folder, "%s", path);
    char *slash = strrchr(folder, '/');
    if (!slash) snprintf(folder, sizeof folder, ".");
    else if (slash == folder) slash[1] = '\0';
    else *slash = '\0';
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

int qf_io_output_commit(qf_io_output *o)
{
    if (o->fd >= 0 && qf_io_output_finish(o) != QF_SUCCESS) {
        qf_io_output_abandon(o);
        return QF_ERROR;
    }
    if (rename(o->tmp, o->path) != 0) {
        int e = errno;
        qf_io_output_abandon(o);
        return qf_fail("cannot rename the complete temporary file to %s: %s", o->path, strerror(e));
    }
    cleanup_unregister(o->cleanup_slot);
    o->cleanup_slot = -1;
    o->tmp[0] = '\0';
    sync_folder(o->path);
    return QF_SUCCESS;
}

void qf_io_output_abandon(qf_io_output *o)
{
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    if (o->creator && o->tmp[0]) unlink(o->tmp);
    cleanup_unregister(o->cleanup_slot);
    o->cleanup_slot = -1;
    o->tmp[0] = '\0';
}

/* ---- checksums ---- */

static uint32_t rotl32(uint32_t w, unsigned r)
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
        s->sum29 ^= rotl32(w, r29);
        s->sum31 ^= rotl32(w, r31);
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
        s->suma ^= rotl32(c, (unsigned)(r % 29));
        s->sumb ^= rotl32(c, (unsigned)(r % 31));
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
