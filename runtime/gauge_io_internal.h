/* What the per-format gauge modules share: their entry points (dispatched from gauge_io.c) and the
 * common verification that every reader ends with, so that all formats check the same facts with the
 * same tolerances. Internal to runtime/. */
#ifndef QF_GAUGE_IO_INTERNAL_H
#define QF_GAUGE_IO_INTERNAL_H

#include "quarkflow/qf_gauge_io.h"
#include "io_util.h"

/* Reals in the in-memory gauge array per site: 4 links x 3 x 3 complex. */
#define QF_GIO_SITE_REALS 72

/* ---- readers: each fills every file fact in *info and returns after the header when header_only;
 * otherwise it reads the part's links into *links (malloc'ed, part-lexicographic order), verifies
 * the format's own checksums and lengths, and ends with qf_gio_finish. On failure *links is NULL.
 * part->ext is resolved (never all zero) once the reader knows the dimensions: qf_gio_part_resolve. ---- */
typedef struct {
    qf_gauge_part box;
    int header_only;
} qf_gio_part;

/* The whole lattice read by one reader (header_only: the header alone). */
static inline qf_gio_part qf_gio_whole(int header_only)
{
    qf_gio_part p = {.box = {.nreaders = 1}, .header_only = header_only};
    return p;
}

int qf_nersc_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info);
int qf_milc_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info);
/* format is QF_GAUGE_SCIDAC or QF_GAUGE_ILDG */
int qf_lime_gauge_read(qf_io_file *f, qf_gauge_format format, const int dims_hint[4], qf_gio_part *part,
                       double **links, qf_gauge_info *info);
int qf_bridge_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info);
int qf_ddalpha_read(qf_io_file *f, const int dims_hint[4], qf_gio_part *part, double **links, qf_gauge_info *info);

/* Fills an unset box (ext all zero) with the whole lattice and checks that a set one lies inside it. */
int qf_gio_part_resolve(qf_gio_part *part, const int dims[4]);
/* Sites of the part, and whether lexicographic site `site` of the lattice lies in it (its index in
 * the part, or -1). */
uint64_t qf_gio_part_volume(const qf_gio_part *part);
int64_t qf_gio_part_index(const qf_gio_part *part, const int dims[4], int64_t site);

/* What one reader found in its part, combined over the readers so that each judges the whole file. */
typedef struct {
    int32_t failed;         /* reading failed here: message holds the reason */
    int32_t bad_index;      /* which real of bad_site is not finite */
    uint32_t checksum[2];   /* the format's checksums over the part's site records */
    int64_t bad_site;       /* first lexicographic site holding a non-finite number, -1: none */
    double bad_value;
    double trace_sum;       /* sum of Re Tr over the part's links */
    double worst;           /* largest deviation from SU(3), at link worst_link (site * 4 + mu) */
    int64_t worst_link;
    int64_t token;          /* writers: writer 0's token, which names the common temporary file, */
    int64_t length;         /* and its header's length, where the records start */
    char message[512];
} qf_gio_partial;

typedef enum { QF_GIO_SUM, QF_GIO_XOR } qf_gio_checksum_op;

/* A partial with nothing found yet. */
void qf_gio_partial_init(qf_gio_partial *p);
/* Records this reader's failure (the message of the last qf_fail) in *p. */
void qf_gio_partial_fail(qf_gio_partial *p);
/* Combines every reader's partial into *p (a single reader: nothing to do). Fails on every reader,
 * with the first failed reader's message, when any failed. */
int qf_gio_combine(const qf_gio_part *part, qf_gio_partial *p, qf_gio_checksum_op op);

/* How a binary format stores sites: where the records start, their size, the format's checksum over
 * a run of records at file positions first_pos.. and the decoding of one record into site_reals
 * doubles. table: file position -> lexicographic site (MILC's site table), NULL for natural order. */
typedef struct {
    uint64_t data_off;
    size_t site_bytes;
    int site_reals;
    const int64_t *table;
    void (*checksum)(const void *ctx, uint32_t sum[2], const unsigned char *bytes, size_t nsites, uint64_t first_pos);
    void (*decode)(const void *ctx, const unsigned char *record, double *out);
    const void *ctx;
    const char *what; /* for messages: "the link data" */
    void (*encode)(const void *ctx, const double *in, unsigned char *record); /* writers: decode's inverse */
} qf_gio_layout;

/* Reads the part's site records (runs of consecutive sites, not the whole file, in natural order)
 * into *out, adds them to p->checksum and notes the first non-finite number. Failures go into *p,
 * not the return value, so that the caller still reaches qf_gio_combine. */
void qf_gio_read_sites(qf_io_file *f, const qf_gio_layout *layout, const int dims[4], const qf_gio_part *part,
                       double **out, qf_gio_partial *p);

/* Which of the LIME gauge formats a LIME file holds (QF_GAUGE_ILDG when it has ildg-binary-data,
 * QF_GAUGE_SCIDAC for scidac-binary-data); QF_ERROR with a message otherwise. */
int qf_lime_detect(qf_io_file *f, qf_gauge_format *format);

/* ---- writers (options already validated) ---- */
int qf_nersc_write(const char *path, const int dims[4], const double *links, qf_gio_part *part, double plaquette,
                   const qf_gauge_write_options *opt);
int qf_ildg_write(const char *path, const int dims[4], const double *links, qf_gio_part *part, double plaquette,
                  const qf_gauge_write_options *opt);

/* ---- shared checks ---- */

/* dims_hint NULL or all zero: no hint. Otherwise it must equal dims; `source` names where dims came from. */
int qf_gio_check_hint(const int dims[4], const int dims_hint[4], const char *source);


/* Tolerance for comparing a stored plaquette (is_plaquette = 1) or link trace printed as `printed`
 * (NULL: stored in binary at full precision) with the value computed from links stored in
 * precision_bits. */
double qf_gio_fact_tolerance(const char *printed, int precision_bits, int is_plaquette);

/* After the combined checksum check: fails on a non-finite number, then measures the part's links
 * (closeness to SU(3), link trace: combined over the readers) and checks them with the tolerances
 * given, which it keeps in *info; the plaquette is measured and checked here when the part is the
 * whole lattice, and left to qf_gauge_check_plaquette (NaN in *info) otherwise. */
int qf_gio_finish(const double *links, qf_gauge_info *info, const qf_gio_part *part, qf_gio_partial *p,
                  double plaquette_tol, double link_trace_tol);


/* ---- writing in parts ---- */

/* Writers' gate over the part's sites (a whole-lattice part: the whole field), combined over the
 * writers: every number finite in the target precision and, for gauge fields (is_gauge), every link
 * as it will be stored (rounded to float, row 3 rebuilt) within the SU(3) tolerance the reader will
 * apply; the format's checksums of the records as encoded by layout (op: how parts combine). facts
 * receives the header facts of the stored form: plaquette, spatial, temporal, link trace, max
 * deviation; the plaquettes from the whole field when the part is the whole lattice, otherwise the
 * caller's `plaquette` (the task graph's). */
int qf_gio_prepare_write(const int dims[4], const double *data, qf_gio_part *part, const qf_gio_layout *layout,
                         int is_gauge, int precision_bits, int two_row, double plaquette, qf_gio_checksum_op op,
                         uint32_t checksum[2], double facts[5]);

/* Writes head, the lattice's records (each writer its part's, encoded by layout at their file
 * positions) and tail into a temporary file that writer 0 creates beside path (qf_io_output_create:
 * a fresh name, the target's permissions, a write-protected target refused), puts it on disk and
 * renames it to path; every writer opens the same file, so they must share a file system. All
 * writers succeed or fail together, and a failure leaves no temporary file. */
int qf_gio_write_records(const char *path, const void *head, size_t head_len, const void *tail, size_t tail_len,
                         const qf_gio_layout *layout, const int dims[4], const qf_gio_part *part, const double *data);



/* Sites a reader or writer converts at a time: bounds the scratch memory to a few hundred KiB. */
#define QF_GIO_CHUNK_SITES 1024

/* Date for headers, as "Mon Jan  2 15:04:05 2006 UTC" (no newline). */
void qf_gio_date(char *buf, size_t size);

#endif
