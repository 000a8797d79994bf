/* Gauge-field, colour-vector and Dirac-fermion file I/O. Readers and writers work on plain global
 * arrays in lexicographic site order (x fastest), which is how fields are loaded and stored (qf_field.h):
 *   gauge:         double links[V][4][3][3][2]   (site, mu = x y z t, row, column, re/im)
 *   colour vector: double vec[V][3][2]
 *   Dirac fermion: double psi[V][4][3][2]       (site, spin, colour, re/im; DeGrand-Rossi basis)
 * Every reader verifies every fact the format carries (dimensions, record lengths, checksums, stored
 * plaquette and link trace, closeness to SU(3)) and fails with one message naming the cause. This
 * module does not use StarPU. */
#ifndef QF_GAUGE_IO_H
#define QF_GAUGE_IO_H

#include "qf_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    QF_GAUGE_AUTO = 0, /* detect from the file's contents */
    QF_GAUGE_NERSC,    /* NERSC archive: 4D_SU3_GAUGE (2 rows) and 4D_SU3_GAUGE_3x3, 32/64 bit, both byte orders */
    QF_GAUGE_MILC,     /* MILC native v5, both byte orders */
    QF_GAUGE_SCIDAC,   /* SciDAC/QIO LIME (scidac-binary-data) */
    QF_GAUGE_ILDG,     /* ILDG LIME (ildg-binary-data) */
    QF_GAUGE_BRIDGE,   /* Bridge++ text: one double a line, no header (dimensions must be given) */
    QF_GAUGE_DDALPHA   /* DDalphaAMG binary */
} qf_gauge_format;

const char *qf_gauge_format_name(qf_gauge_format f);
/* Parses nersc, milc, scidac, ildg, bridge, ddalpha or auto. */
int qf_gauge_format_parse(const char *s, qf_gauge_format *f);

/* What a file said and what the reader computed. Plaquettes are averages of Re Tr / 3 (range
 * [0, 1], the NERSC/Chroma convention); MILC's printed numbers are 3 times these. */
typedef struct {
    qf_gauge_format format;
    int dims[4];                 /* x y z t */
    int precision_bits;          /* 32 or 64 as stored in the file */
    int big_endian;
    char datatype[64];           /* e.g. "4D_SU3_GAUGE_3x3", "MILC v5", "scidac-binary-data F" */

    int has_checksum;            /* 1: one 32-bit checksum (NERSC); 2: a pair (MILC, SciDAC) */
    uint32_t stored_checksum[2];
    uint32_t computed_checksum[2];
    int has_plaquette;           /* the file stores a plaquette (NERSC, DDalphaAMG, quarkflow's ILDG) */
    double stored_plaquette;     /* converted to Re Tr / 3 */
    int has_link_trace;
    double stored_link_trace;    /* Re Tr / 3 averaged over links */

    double plaquette;            /* computed from the links read: total, spatial, temporal */
    double plaquette_space, plaquette_time;
    double link_trace;
    double max_unitarity_deviation;
    double plaquette_tolerance;  /* what the stored plaquette and link trace may differ by from the */
    double link_trace_tolerance; /* measured ones, given the precision and printed digits */
    /* A doubt the checks cannot settle, "" when none: the measured plaquette of a file that stores
     * none is what links read with the wrong extents give (see qf_gauge_check_plaquette). */
    char warning[512];
} qf_gauge_info;

/* Reads a gauge field. dims_hint gives the extents for formats without a header (Bridge++) and is
 * checked against the header otherwise; NULL or zeros mean "take them from the file". On success
 * *links is a malloc'ed array (free with free()) and *info is filled in. */
int qf_gauge_read(const char *path, qf_gauge_format format, const int dims_hint[4], double **links,
                  qf_gauge_info *info);

/* Reads the file's header only: format, dimensions, precision and the stored facts (the links
 * are neither read nor verified; qf_gauge_read and qf_gauge_read_part do that). For Bridge++ text
 * files, which have no header, dims_hint gives the dimensions. */
int qf_gauge_read_header(const char *path, qf_gauge_format format, const int dims_hint[4], qf_gauge_info *info);

/* Reading a file in parts: each of several readers (processes, usually) keeps the box of sites
 * [lo, lo + ext) and reads only those (Bridge++ text and MILC files with a site table are scanned
 * whole, keeping the part). The readers exchange what they found through allgather, so that every
 * one verifies the whole file (checksums, non-finite numbers, closeness to SU(3), link trace) and
 * they all succeed or all fail with the same message; every reader must call with the same path
 * and format. allgather(ctx, mine, all, bytes) must place every reader's `bytes` bytes at
 * all + r * bytes in reader order r = 0 .. nreaders - 1 (MPI_Allgather does); it is NULL for a
 * single reader. *links receives the part's links in lexicographic order of the box (ext[0]
 * fastest). The plaquette needs neighbours across parts, so a part that is not the whole lattice
 * leaves it to the caller: info->plaquette is NaN, and qf_gauge_check_plaquette judges the caller's
 * measurement against the stored value. ext all zero: the whole lattice. */
typedef struct {
    int lo[4], ext[4];
    int nreaders, reader; /* how many readers, and which one this is (0 .. nreaders - 1) */
    int (*allgather)(void *ctx, const void *mine, void *all, size_t bytes);
    void *ctx;
} qf_gauge_part;

int qf_gauge_read_part(const char *path, qf_gauge_format format, const int dims_hint[4], const qf_gauge_part *part,
                       double **links, qf_gauge_info *info);

/* Records a plaquette measured elsewhere (total, spatial, temporal; Re Tr / 3) in *info and checks it
 * against the file's stored plaquette with the reader's tolerance (info->plaquette_tolerance). A
 * file without a stored plaquette cannot be checked so: MILC, SciDAC and ILDG files state their
 * extents, but neither their size nor their checksums depend on the extents' order, and Bridge++
 * text takes them from the caller. Links read with the extents permuted no longer close into
 * plaquettes, so a plaquette below 0.05 in magnitude fills info->warning (the reading still
 * succeeds: a hot start or a strong-coupling field lies there too). */
int qf_gauge_check_plaquette(qf_gauge_info *info, double plaquette, double plaquette_space, double plaquette_time);

/* Writes a gauge field as NERSC (4D_SU3_GAUGE_3x3 or, with two_row = 1, 4D_SU3_GAUGE) or ILDG
 * (with the SciDAC private records and checksums), big-endian, in 32 or 64-bit precision.
 * Header facts (plaquette, link trace, checksums) are computed from the links. Every writer here
 * (gauge fields, colour vectors, Dirac fermions) writes a new temporary file beside path (never an
 * existing name or a symlink), puts it on disk and renames it to path: the target changes only when
 * the new file is complete, keeps its permission bits, and is refused when write-protected; a
 * failed write, or one ended by SIGINT, SIGTERM or SIGHUP, leaves no temporary file. */
typedef struct {
    int precision_bits; /* 32 or 64 */
    int two_row;        /* NERSC only */
    const char *ensemble_id;
} qf_gauge_write_options;

int qf_gauge_write(const char *path, qf_gauge_format format, const int dims[4], const double *links,
                   const qf_gauge_write_options *opt);

/* Writes a gauge field held in parts (as qf_gauge_read_part reads it: links holds the part's sites,
 * part->reader names this writer): the writers agree on the header's facts and checksums through
 * part->allgather and fail alike; writer 0 writes the header and every writer its own records into
 * one temporary file, which takes the final name once complete (the writers must share a file
 * system). A part cannot measure the plaquette across its boundary: `plaquette` (Re Tr / 3, as
 * qf_gauge_measure gives it) goes into the header unless the part is the whole lattice with a single
 * writer, which measures the stored numbers itself. part NULL: the whole lattice, one writer. */
int qf_gauge_write_part(const char *path, qf_gauge_format format, const int dims[4], const double *links,
                        const qf_gauge_part *part, double plaquette, const qf_gauge_write_options *opt);

/* SciDAC colour vectors (one 3-vector a site, as MILC's ksvector files), 32 or 64 bit. */
int qf_colour_vector_read(const char *path, const int dims_hint[4], int dims[4], double **vec, int *precision_bits);
int qf_colour_vector_write(const char *path, const int dims[4], const double *vec, int precision_bits);
/* The same for a part and from parts, as the Dirac-fermion functions below (part NULL: the whole
 * lattice, one writer). */
int qf_colour_vector_read_part(const char *path, const int dims_hint[4], const qf_gauge_part *part, int dims[4],
                               double **vec, int *precision_bits);
int qf_colour_vector_write_part(const char *path, const int dims[4], const double *vec, const qf_gauge_part *part,
                                int precision_bits);

/* SciDAC colour-matrix fields of 4 matrices a site (QDP_F3_ColorMatrix / QDP_D3_ColorMatrix, datacount
 * 4, SciDAC checksums) that are not gauge fields: the asqtad fat and Naik links, as MILC writes them
 * through QIO. Read and written as the colour vectors are (every record checked, finite numbers), with
 * none of the gauge fields' SU(3), plaquette or link-trace checks; 72 doubles a site, [mu][row][col]. */
int qf_colour_matrices_read_part(const char *path, const int dims_hint[4], const qf_gauge_part *part, int dims[4],
                                 double **m, int *precision_bits);
int qf_colour_matrices_write_part(const char *path, const int dims[4], const double *m, const qf_gauge_part *part,
                                  int precision_bits);

/* SciDAC/USQCD Wilson Dirac fermions (QIO datatype USQCD_F3_DiracFermion / USQCD_D3_DiracFermion,
 * 4 spins, 3 colours, typesize 96 / 192 bytes, datacount 1, SciDAC checksums), the colour-spinor
 * files Chroma and QUDA read and write, in the DeGrand-Rossi basis as Chroma uses. The reader checks
 * every record as the colour-vector reader does (dimensions against dims_hint when given, datatype,
 * precision, colours, spins when stated, typesize, data length, checksum, finite numbers); the
 * writer writes 32 or 64 bit and refuses non-finite numbers. Same calling conventions as the
 * colour-vector functions (*psi malloc'ed, 24 doubles a site). */
int qf_dirac_fermion_read(const char *path, const int dims_hint[4], int dims[4], double **psi, int *precision_bits);
/* The same for a part, as qf_gauge_read_part (part NULL: the whole lattice). */
int qf_dirac_fermion_read_part(const char *path, const int dims_hint[4], const qf_gauge_part *part, int dims[4],
                               double **psi, int *precision_bits);
int qf_dirac_fermion_write(const char *path, const int dims[4], const double *psi, int precision_bits);
/* The same from parts, as qf_gauge_write_part (part NULL: the whole lattice, one writer). */
int qf_dirac_fermion_write_part(const char *path, const int dims[4], const double *psi, const qf_gauge_part *part,
                                int precision_bits);

/* Plaquette (Re Tr / 3: total, spatial, temporal), link trace and largest deviation from SU(3) of a
 * global gauge array, computed with plain loops: the readers' check, independent of blocks and tasks. */
void qf_gauge_measure_global(const int dims[4], const double *links, double *plaq, double *plaq_space,
                             double *plaq_time, double *link_trace, double *max_unitarity_deviation);

#ifdef __cplusplus
}
#endif
#endif
