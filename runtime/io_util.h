/* Byte-level helpers shared by the gauge-file readers and writers: explicit byte order (files have a
 * declared order, the host's does not matter), bounds-checked reads so that a short or lying file
 * becomes an error message instead of a crash, the checksums the formats carry (CRC32, MILC
 * sum29/sum31, SciDAC suma/sumb) and strict parsing of the small text headers. Internal to runtime/. */
#ifndef QF_IO_UTIL_H
#define QF_IO_UTIL_H

#include "quarkflow/qf_defs.h"

#include <stdio.h>

/* ---- byte order: load and store numbers in a stated order, independent of the host ---- */
uint32_t qf_io_get_u32(const unsigned char *p, int big_endian);
uint64_t qf_io_get_u64(const unsigned char *p, int big_endian);
double qf_io_get_f32(const unsigned char *p, int big_endian);
double qf_io_get_f64(const unsigned char *p, int big_endian);
void qf_io_put_u16(unsigned char *p, uint16_t v, int big_endian);
void qf_io_put_u32(unsigned char *p, uint32_t v, int big_endian);
void qf_io_put_u64(unsigned char *p, uint64_t v, int big_endian);
void qf_io_put_f32(unsigned char *p, float v, int big_endian);
void qf_io_put_f64(unsigned char *p, double v, int big_endian);

/* ---- files ---- */
typedef struct {
    FILE *fp;
    const char *path;
    uint64_t size;
} qf_io_file;

/* Opens a regular file for reading; refuses FIFOs, directories and devices at once (without waiting
 * for a FIFO's writer), since every reader needs the size and seeks. */
int qf_io_open(qf_io_file *f, const char *path);
void qf_io_close(qf_io_file *f);
/* Reads bytes [off, off + len); fails naming `what` when the file ends before that. */
int qf_io_read_at(qf_io_file *f, uint64_t off, void *buf, size_t len, const char *what);
/* Reads the whole file into a malloc'ed buffer with a terminating NUL (not counted in *size). */
int qf_io_read_all(qf_io_file *f, char **data, size_t *size);

/* ---- output files ----
 * A file is written under a fresh temporary name beside its target and renamed over it once complete
 * and on disk, so that a reader never sees half a file and a failed write leaves the target as it
 * was. The temporary PATH.tmp-N is created with O_CREAT | O_EXCL: an existing name, a planted symlink
 * included, is never opened, and another N is tried. Several writers (processes) may fill one file:
 * the creator passes N (its token) on, the others join, each writes its part and finishes, and the
 * creator commits. */
#define QF_IO_PATH_MAX 4096
typedef struct {
    int fd;             /* -1: not open */
    int creator;        /* this writer created the temporary file and removes or renames it */
    int cleanup_slot;   /* its entry in the removal-on-signal registry, -1: none */
    const char *path;
    char tmp[QF_IO_PATH_MAX]; /* "": no temporary file (none yet, or committed or removed) */
} qf_io_output;

/* Refuses a path that must not be replaced (a directory or device, a write-protected file), then
 * creates the temporary file with the target's permission bits (new files: 0666 less the umask) and
 * registers it for removal on SIGINT, SIGTERM and SIGHUP. On failure nothing is left behind. */
int qf_io_output_create(qf_io_output *o, const char *path, int64_t *token);
/* Opens the temporary file that the creator of path made (its token), never through a symlink. */
int qf_io_output_join(qf_io_output *o, const char *path, int64_t token);
int qf_io_output_write_at(qf_io_output *o, uint64_t off, const void *data, size_t len);
/* Puts this writer's data on disk (fsync) and closes its descriptor. */
int qf_io_output_finish(qf_io_output *o);
/* The creator, once every writer finished: renames the temporary file to the target and syncs the
 * folder (best effort). On failure the temporary file is removed. */
int qf_io_output_commit(qf_io_output *o);
/* Closes the descriptor and, for the creator, removes the temporary file. Safe on any qf_io_output
 * that started as QF_IO_OUTPUT_INIT, whatever happened since (after a commit: nothing to do). */
void qf_io_output_abandon(qf_io_output *o);
#define QF_IO_OUTPUT_INIT {.fd = -1, .cleanup_slot = -1}

/* ---- checksums ---- */
/* CRC-32 (IEEE 802.3, reflected polynomial 0xedb88320), as zlib's crc32(): start with crc = 0. */
uint32_t qf_io_crc32(uint32_t crc, const void *data, size_t len);

/* MILC sum29/sum31 over 32-bit words; word_index is the index of the first word in file order.
 * Words are taken as numbers in the file's byte order (MILC byte-reverses before summing). */
typedef struct {
    uint32_t sum29, sum31;
} qf_milc_sum;
void qf_io_milc_checksum_add(qf_milc_sum *s, const unsigned char *bytes, size_t nwords, uint64_t word_index,
                             int big_endian);

/* SciDAC suma/sumb over sites: one CRC32 of each site's bytes as stored, rotated by the site's
 * lexicographic rank. */
typedef struct {
    uint32_t suma, sumb;
} qf_scidac_sum;
void qf_io_scidac_checksum_add(qf_scidac_sum *s, const unsigned char *bytes, size_t site_bytes, size_t nsites,
                               uint64_t first_rank);

/* ---- text ---- */
/* Strict number parsing of a whole token (leading and trailing blanks allowed, nothing else). */
int qf_io_parse_long(const char *s, long *out);
int qf_io_parse_double(const char *s, double *out);
int qf_io_parse_hex32(const char *s, uint32_t *out);
/* Digits printed after the decimal point of a number as written ("0.0382422893" -> 10; "1.5e-3" -> 4):
 * the resolution of a stored fact, used for its tolerance. */
int qf_io_decimals(const char *s);
/* Content of the first <tag>...</tag> (attributes allowed on the opening tag) in xml, copied to out
 * with surrounding blanks removed. Returns 0 when found, -1 when absent or too long for out. */
int qf_io_xml_get(const char *xml, const char *tag, char *out, size_t out_size);
/* Fails unless s is at most max_len printable characters (it goes into a one-line header). */
int qf_io_check_text(const char *s, size_t max_len);
/* Copy of s usable inside an XML element and in one-line headers: fails on control characters. */
int qf_io_xml_escape(const char *s, char *out, size_t out_size);

/* ---- lattice sizes ---- */
/* Checks 1 <= dims[mu] <= 1 << 20 and that V * bytes_per_site fits in 63 bits; names `what`. */
int qf_io_check_dims(const int dims[4], uint64_t bytes_per_site, const char *what);
uint64_t qf_io_volume(const int dims[4]);

#endif
