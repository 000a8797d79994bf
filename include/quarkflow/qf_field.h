/* Lattice fields: gauge fields (4 links a site), Wilson colour-spinors (4 spins x 3 colours),
 * staggered colour vectors (1 x 3), coarse multigrid colour-spinors (2 x N) and the clover term's
 * fields, each a shape (qf_field_shape), in double or single precision. A field owns one StarPU handle
 * per block (qf_lattice.h describes the in-block layout) and, once a task graph needs them, one
 * face-buffer handle for every block, hop direction and side. Fields talk to I/O and tests through
 * plain global arrays of doubles in lexicographic order (qf_gauge_io.h gives their shapes). */
#ifndef QF_FIELD_H
#define QF_FIELD_H

#include "qf_lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    QF_FIELD_GAUGE = 0,      /* 4 links a site (x, y, z, t) */
    QF_FIELD_WILSON,         /* 4 spins x 3 colours */
    QF_FIELD_STAGGERED,      /* 1 x 3 */
    QF_FIELD_FIELD_STRENGTH, /* 6 matrices a site, planes (mu,nu) = 01 02 03 12 13 23 */
    QF_FIELD_CLOVER,         /* 2 hermitian 6x6 chiral blocks a site (codelets/kernels/clover.h) */
    QF_FIELD_COARSE,         /* multigrid: 2 chiral spins x N colours, N chosen at run time */
    QF_FIELD_TRANSFER,       /* multigrid: N near-null vectors of a finer field at each fine site */
    QF_FIELD_COARSE_LINKS,   /* multigrid: (2N) x (2N) complex matrices at each coarse site */
    QF_FIELD_COMPRESSED_GAUGE, /* 4 links a site, each 12 or 8 reals (qf_recon) */
    QF_FIELD_LINK_MATRIX,      /* 1 matrix a site (the asqtad smearing's staples) */
    QF_FIELD_ASQTAD_LINKS      /* 8 matrices a site: the fat links F_0..F_3, then the Naik links L_0..L_3 */
} qf_field_kind;
#define QF_FIELD_NKINDS (QF_FIELD_ASQTAD_LINKS + 1)

/* What a field holds, as data: the reals of a site, the reals of a face site (what a neighbouring
 * block needs of a site: whole links, a spin-projected half spinor ...; 0 for fields that never have
 * faces) and how many sites deep a face reaches. A field's faces are allocated when a task graph first
 * needs them (or at creation on request), not for every field. In half precision a site is stored as
 * records of 16-bit components with one norm each (qf_record_bytes): record_reals reals a record, 0 for
 * one record a site (coarse links: a matrix row, transfer vectors: a vector, so that each keeps its own
 * scale). */
typedef struct {
    qf_field_kind kind;
    int site_reals;
    int face_reals;
    int face_depth;
    int record_reals;
} qf_field_shape;

/* The reals of each record of a site (a divisor of site_reals), and the bytes of a site in prec. */
static inline int qf_field_shape_record_reals(const qf_field_shape *s)
{
    return s->record_reals > 0 ? s->record_reals : s->site_reals;
}
static inline size_t qf_field_shape_site_bytes(const qf_field_shape *s, qf_precision prec)
{
    int rec = qf_field_shape_record_reals(s);
    return (size_t)(s->site_reals / rec) * qf_record_bytes(prec, rec);
}
/* How the shape's records lie in half (qf_half_layout): in rows for multigrid's near-null vectors and
 * coarse links (a record a vector or a matrix row), in tiles for the others (a record a site). */
static inline qf_half_layout qf_field_shape_half_layout(const qf_field_shape *s)
{
    return s->kind == QF_FIELD_TRANSFER || s->kind == QF_FIELD_COARSE_LINKS ? QF_HALF_ROWS : QF_HALF_TILES;
}
/* The sites a block of nsites sites allocates in prec: whole tiles of records in half. */
static inline size_t qf_field_shape_block_sites(const qf_field_shape *s, qf_precision prec, size_t nsites)
{
    return qf_records_count(prec, qf_field_shape_half_layout(s), nsites);
}

typedef struct qf_field qf_field;

const char *qf_field_kind_name(qf_field_kind k);
/* The shape of a kind with its default face depth: gauge 72 reals a site and a face site; Wilson 24
 * and 12 (a spin-projected half spinor); staggered 6 and 6, 3 deep (the Naik term); field strength
 * 108, no faces; clover 72, no faces. The coarse kind has no fixed shape: qf_field_shape_coarse. */
qf_field_shape qf_field_kind_shape(qf_field_kind k);
/* A coarse colour-spinor shape: 2 chiral spins x ncolour colours (4 ncolour reals a site and a face
 * site, 1 deep); ncolour from 1 to QF_COARSE_MAX_COLOURS. */
#define QF_COARSE_MAX_COLOURS 256
int qf_field_shape_coarse(qf_field_shape *s, int ncolour);
/* The prolongator's storage: nvec vectors of a fine field of fine_site_reals reals a site, at each fine
 * site ([vector][fine site's reals]); faces hold whole sites, 1 deep (the coarse operator's build reads
 * the vectors across block boundaries); in half precision a record a vector. nvec from 1 to
 * QF_COARSE_MAX_COLOURS. */
int qf_field_shape_transfer(qf_field_shape *s, int fine_site_reals, int nvec);
/* The coarse operator's storage: nmatrices matrices of (2 ncolour) x (2 ncolour) complex numbers a
 * coarse site, row-major, rows and columns ordered (chirality, colour); no faces; in half precision a
 * record a row. */
int qf_field_shape_coarse_links(qf_field_shape *s, int ncolour, int nmatrices);
/* The Dirac operator's compressed links (qf_gauge_compress): QF_NDIM links a site of 12 or 8 reals each
 * (r QF_RECON_12 or QF_RECON_8, qf_defs.h), no faces; qf_field_shape_recon gives a shape's r back
 * (QF_RECON_18 for every other shape). */
int qf_field_shape_compressed_gauge(qf_field_shape *s, qf_recon r);
qf_recon qf_field_shape_recon(const qf_field_shape *s);
/* Whether fields of the two shapes hold the same contents a site (kind and reals a site; their faces
 * may differ): what BLAS, conversions and operators require of their operands. */
int qf_field_shape_same_sites(const qf_field_shape *a, const qf_field_shape *b);
/* Reals one site of a kind holds (qf_field_kind_shape(k).site_reals). */
int qf_field_site_reals(qf_field_kind k);

/* Creates a field on the lattice (which must outlive it); face_depth 0 takes the kind's default and
 * allocates faces when first needed, face_depth > 0 allocates faces of that depth now (refused when a
 * block is thinner). Contents start at zero. */
int qf_field_create(qf_field **f, const qf_lattice *lat, qf_field_kind kind, qf_precision prec, int face_depth);
/* A scratch field: no host memory; StarPU allocates each block where the first task that writes it
 * runs (a GPU, for a GPU-only solve), and host memory only if the host reads it. A block read before
 * anything wrote it (the other parity of an operation on one parity) reads as zeros.
 * Solver temporaries are scratch fields: pinning host memory for them costs more than the solve. */
int qf_field_create_scratch(qf_field **f, const qf_lattice *lat, qf_field_kind kind, qf_precision prec);
/* A field of any shape: flags QF_FIELD_SCRATCH (as qf_field_create_scratch; otherwise zero, as
 * qf_field_create) and QF_FIELD_WITH_FACES (faces now). */
enum { QF_FIELD_SCRATCH = 1, QF_FIELD_WITH_FACES = 2 };
int qf_field_create_shaped(qf_field **f, const qf_lattice *lat, const qf_field_shape *shape, qf_precision prec,
                           unsigned flags);
void qf_field_destroy(qf_field *f);

const qf_lattice *qf_field_lattice(const qf_field *f);
qf_field_kind qf_field_kind_of(const qf_field *f);
const qf_field_shape *qf_field_get_shape(const qf_field *f);
qf_precision qf_field_precision(const qf_field *f);
int qf_field_face_depth(const qf_field *f);

/* Copies this process's part of a global lexicographic array (doubles, site_reals a site) into the
 * field, or the field into it (converting precision); waits for the tasks that write or read the
 * field. */
int qf_field_import(qf_field *f, const double *global);
int qf_field_export(const qf_field *f, double *global);
/* The same for this process's part of the lattice: local holds lat->local_volume sites in
 * lexicographic order of the part (x fastest), whose first site has global coordinates
 * proc_coord[mu] * local[mu]. With one process, local and global arrays are the same. */
int qf_field_import_local(qf_field *f, const double *local);
int qf_field_export_local(const qf_field *f, double *local);

/* Writes a Wilson colour-spinor field as a SciDAC Dirac-fermion file (qf_gauge_io.h), 32 or 64-bit,
 * every process its own part into the same file (a file system all processes share); every process
 * must call it. */
int qf_field_save_dirac_fermion(const qf_field *psi, const char *path, int precision_bits);
/* Reads this process's part of a SciDAC Dirac-fermion file of the lattice's dimensions into *psi
 * (malloc'ed, qf_field_import_local's order; 24 doubles a site); every process must call it, and
 * all verify the whole file's checksum together. */
int qf_dirac_fermion_read_local(const qf_lattice *lat, const char *path, double **psi, int *precision_bits);
/* The same for staggered fields and SciDAC colour-vector files (MILC's ksvector files; 6 doubles a
 * site). */
int qf_field_save_colour_vector(const qf_field *v, const char *path, int precision_bits);
int qf_colour_vector_read_local(const qf_lattice *lat, const char *path, double **vec, int *precision_bits);
/* dst = src in dst's precision, as one task per block; shapes and lattices must match. */
int qf_field_convert(qf_field *dst, const qf_field *src);
/* The same on the sites of one parity (0 even, 1 odd; -1 all), as the BLAS's parity argument: the
 * other parity of dst keeps its values. */
int qf_field_convert_parity(qf_field *dst, const qf_field *src, int parity);
/* A scratch field of src's lattice and shape in precision prec holding src's contents (the caller owns
 * it; NULL on failure). */
int qf_field_create_converted(qf_field **out, const qf_field *src, qf_precision prec);

#ifdef __cplusplus
}
#endif
#endif
