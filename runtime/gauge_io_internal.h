/* What the per-format gauge modules share: their entry points (dispatched from gauge_io.c) and the
 * common verification that every reader ends with, so that all formats check the same facts with the
 * same tolerances. Internal to runtime/. */
#ifndef QF_GAUGE_IO_INTERNAL_H
#define QF_GAUGE_IO_INTERNAL_H

#include "quarkflow/qf_gauge_io.h"
#include "io_util.h"

/* Reals in the in-memory gauge array per site: 4 links x 3 x 3 complex. */
#define QF_GIO_SITE_REALS 72

/* ---- readers: each fills *links (malloc'ed) and every file fact in *info, verifies the format's own
 * checksums and lengths, and ends with qf_gio_finish. On failure *links is NULL. ---- */
int qf_nersc_read(qf_io_file *f, const int dims_hint[4], double **links, qf_gauge_info *info);
int qf_milc_read(qf_io_file *f, const int dims_hint[4], double **links, qf_gauge_info *info);
/* format is QF_GAUGE_SCIDAC or QF_GAUGE_ILDG */
int qf_lime_gauge_read(qf_io_file *f, qf_gauge_format format, const int dims_hint[4], double **links,
                       qf_gauge_info *info);
int qf_bridge_read(qf_io_file *f, const int dims_hint[4], double **links, qf_gauge_info *info);
int qf_ddalpha_read(qf_io_file *f, const int dims_hint[4], double **links, qf_gauge_info *info);

/* Which of the LIME gauge formats a LIME file holds (QF_GAUGE_ILDG when it has ildg-binary-data,
 * QF_GAUGE_SCIDAC for scidac-binary-data); QF_ERROR with a message otherwise. */
int qf_lime_detect(qf_io_file *f, qf_gauge_format *format);

/* ---- writers (options already validated) ---- */
int qf_nersc_write(const char *path, const int dims[4], const double *links, const qf_gauge_write_options *opt);
int qf_ildg_write(const char *path, const int dims[4], const double *links, const qf_gauge_write_options *opt);

/* ---- shared checks ---- */

/* dims_hint NULL or all zero: no hint. Otherwise it must equal dims; `source` names where dims came from. */
int qf_gio_check_hint(const int dims[4], const int dims_hint[4], const char *source);

/* Largest accepted deviation from SU(3) for links stored with this many bits. */
double qf_gio_su3_tolerance(int precision_bits);

/* Tolerance for comparing a stored plaquette (is_plaquette = 1) or link trace printed as `printed`
 * (NULL: stored in binary at full precision) with the value computed from links stored in
 * precision_bits. */
double qf_gio_fact_tolerance(const char *printed, int precision_bits, int is_plaquette);

/* Measures the field, then checks closeness to SU(3) and the stored plaquette and link trace
 * against the tolerances given (ignored when the file stores no such fact). Fills the computed part
 * of *info. */
int qf_gio_finish(const double *links, qf_gauge_info *info, double plaquette_tol, double link_trace_tol);

/* Measurement of the field as a reader would see it after storing: with round32 every number rounded
 * to float, with two_row the third row rebuilt from the first two. The writers use it for the
 * header facts, so that a file agrees with what is read back from it. out: plaquette, spatial,
 * temporal, link trace, max unitarity deviation. */
void qf_gio_measure(const int dims[4], const double *links, int round32, int two_row, double out[5],
                    int64_t *worst_link);

/* Writers' gate: every number finite in the target precision and every link, as it will be stored
 * (rounded to float, row 3 rebuilt), within the SU(3) tolerance the reader will apply. facts
 * receives qf_gio_measure's output for the stored form, for the file's header. */
int qf_gio_check_writable(const int dims[4], const double *links, int precision_bits, int two_row, double facts[5]);

/* Message helper: "site (x,y,z,t)" of lexicographic index. */
void qf_gio_site_name(int64_t site, const int dims[4], char *buf, size_t size);

/* Fails with a message naming the non-finite number v read for link mu of a site. */
int qf_gio_fail_nonfinite(const int dims[4], int64_t site, int mu, double v);

/* Sites a reader or writer converts at a time: bounds the scratch memory to a few hundred KiB. */
#define QF_GIO_CHUNK_SITES 1024

/* Date for headers, as "Mon Jan  2 15:04:05 2006 UTC" (no newline). */
void qf_gio_date(char *buf, size_t size);

#endif
