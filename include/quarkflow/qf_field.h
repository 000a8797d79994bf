/* Lattice fields: gauge fields (4 links a site), Wilson colour-spinors (4 spins x 3 colours) and
 * staggered colour vectors (1 x 3), in double or single precision. A field owns one StarPU handle per
 * block (qf_lattice.h describes the in-block layout), with its two parity halves as sub-handles, and
 * one face-buffer handle for every block and hop direction. Fields talk to I/O and tests through
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
    QF_FIELD_CLOVER          /* 2 hermitian 6x6 chiral blocks a site (codelets/kernels/clover.h) */
} qf_field_kind;

typedef struct qf_field qf_field;

const char *qf_field_kind_name(qf_field_kind k);
/* Reals one site holds: gauge 72, Wilson 24, staggered 6, field strength 108, clover 72. */
int qf_field_site_reals(qf_field_kind k);
/* Reals one face site holds: gauge 72 (whole links), Wilson 12 (a spin-projected half spinor),
 * staggered 6, field strength 108, clover 72 (clover fields have no use for faces). */
int qf_field_face_reals(qf_field_kind k);
/* Face depth a kind needs by default: 3 for staggered (the Naik term), 1 otherwise. */
int qf_field_default_face_depth(qf_field_kind k);

/* Creates a field on the lattice (which must outlive it); face_depth 0 takes the kind's default.
 * Contents start at zero. */
int qf_field_create(qf_field **f, const qf_lattice *lat, qf_field_kind kind, qf_precision prec, int face_depth);
/* A scratch field: no host memory and no initial contents (write it before anything reads it);
 * StarPU allocates each block where the first task that writes it runs (a GPU, for a GPU-only
 * solve), and host memory only if the host reads it.
 * Solver temporaries are scratch fields: pinning host memory for them costs more than the solve. */
int qf_field_create_scratch(qf_field **f, const qf_lattice *lat, qf_field_kind kind, qf_precision prec);
void qf_field_destroy(qf_field *f);

const qf_lattice *qf_field_lattice(const qf_field *f);
qf_field_kind qf_field_kind_of(const qf_field *f);
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
/* dst = src in dst's precision, as one task per block; kinds and lattices must match. */
int qf_field_convert(qf_field *dst, const qf_field *src);

#ifdef __cplusplus
}
#endif
#endif
