/* The Wilson-clover Dirac operator (DESIGN.md, kappa normalisation, DeGrand-Rossi basis):
 *
 *   M psi(x) = A(x) psi(x) - kappa D psi(x),
 *   D psi(x) = sum_mu [ (1 - g_mu) U_mu(x) psi(x+mu) + (1 + g_mu) U_mu(x-mu)^dagger psi(x-mu) ],
 *   A(x)     = 1 + i kappa c_sw sum_{mu<nu} sigma_munu F_munu(x),   sigma_munu = (i/2)[g_mu, g_nu],
 *
 * with F_munu the clover-leaf field strength (qf_gauge_field_strength) and a phase per direction on
 * the hops that cross the lattice boundary: the hop from x + mu to x across the boundary carries
 * phase_mu, the hop back carries conj(phase_mu). Each application is a task graph: per block a gather
 * of the spin-projected faces (the backward-hop face already multiplied by U^dagger by its owner, so
 * gauge links never travel), an interior task for the hops inside the block, and an exterior task
 * for the hops that come through the faces, including faces whose neighbour is the block itself.
 *
 * Even-odd preconditioning (Schur complement on the even sites):
 *   asymmetric   Mhat = A_ee - kappa^2 D_eo A_oo^-1 D_oe
 *   symmetric    Mhat = 1 - kappa^2 A_ee^-1 D_eo A_oo^-1 D_oe
 * Without clover both are 1 - kappa^2 D_eo D_oe. Even-odd operators take and return full-lattice
 * fields and read and write their even sites only; the odd sites of the output keep their values.
 * A solve of Mhat x_e = bhat_e is reconstructed with qf_dirac_prepare / qf_dirac_reconstruct.
 *
 * Colour-spinor fields are QF_FIELD_WILSON fields, a site's 24 reals ordered [spin][colour][re, im].
 * All operands of an application must be distinct fields of the operator's precision, on its
 * lattice. Every call submits tasks and returns; the next use of the output waits for them. */
#ifndef QF_DIRAC_H
#define QF_DIRAC_H

#include "qf_linop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qf_dirac qf_dirac;

typedef struct {
    double kappa;
    double csw;                        /* 0: plain Wilson (no clover field is built) */
    double phase[QF_NDIM][2];          /* boundary phase (re, im) per direction */
    qf_precision prec;                 /* of the operator's gauge and clover fields and its operands */
    qf_recon recon;                    /* of the links the hops read (qf_defs.h; SU(3) links only) */
    qf_recon recon_sloppy;             /* of the copies in other precisions (qf_dirac_in_precision) */
} qf_dirac_params;

/* kappa, csw 0, periodic in space and antiperiodic in time, double precision, whole links. */
qf_dirac_params qf_dirac_default_params(double kappa);

typedef enum {
    QF_OP_M = 0,        /* full lattice: M */
    QF_OP_MDAG,         /* M^dagger = g5 M g5 */
    QF_OP_MDAGM,        /* M^dagger M */
    QF_OP_MHAT,         /* even sites: Mhat (asymmetric or symmetric as the operator was built) */
    QF_OP_MHAT_DAG,     /* Mhat^dagger */
    QF_OP_MHAT_DAGMHAT  /* Mhat^dagger Mhat */
} qf_dirac_op;

typedef enum { QF_SCHUR_ASYMMETRIC = 0, QF_SCHUR_SYMMETRIC } qf_schur_form;

/* Builds the operator on gauge (any precision; converted to prec as tasks): copies the links, and
 * with csw != 0 computes F_munu, the clover term A and its inverse A^-1 on every site, all as
 * tasks. Fails with a clear message when A is not positive definite on some site (kappa c_sw too
 * large for this field: A^-1 is built by Cholesky factorisation). With recon 12 or 8 the hops read
 * compressed links (qf_gauge_compress), which holds only for links in SU(3); the whole links are kept
 * too, for the multigrid setup and the Schwarz domains. The gauge field may be destroyed afterwards. */
int qf_dirac_create(qf_dirac **d, const qf_field *gauge, const qf_dirac_params *p, qf_schur_form form);
void qf_dirac_destroy(qf_dirac *d);

/* The same operator in precision prec, for mixed-precision solvers: d itself when prec is its own,
 * otherwise a copy whose gauge and clover fields are d's converted (as tasks) and whose links are
 * compressed as d's recon_sloppy says, built on the first request and kept until d is destroyed. */
int qf_dirac_in_precision(qf_dirac *d, qf_precision prec, qf_dirac **out);

const qf_dirac_params *qf_dirac_get_params(const qf_dirac *d);
const qf_lattice *qf_dirac_lattice(const qf_dirac *d);
const char *qf_dirac_op_name(qf_dirac_op op);

/* The operator as a qf_linop (qf_linop.h), for the solvers: M and M^dagger on the whole lattice, with
 * its even-odd form Mhat and Mhat^dagger on the even sites (qf_linop_schur) and its twin in the other
 * precision. The caller owns *A and destroys it before d. */
int qf_dirac_linop(qf_dirac *d, qf_linop **A);

/* out = op in. The even-odd ops need an even-odd capable lattice (every block extent even, which
 * qf_lattice_init guarantees). MDAGM and the Mhat products use an internal temporary. */
int qf_dirac_apply(qf_dirac *d, qf_dirac_op op, qf_field *out, const qf_field *in);

/* Even-odd source: bhat_e = b_e + kappa D_eo A_oo^-1 b_o (asymmetric), or A_ee^-1 of that
 * (symmetric); written to the even sites of bhat. */
int qf_dirac_prepare(qf_dirac *d, qf_field *bhat, const qf_field *b);
/* Full solution from the even-site solution: copies x_e from x_even and sets
 * x_o = A_oo^-1 (b_o + kappa D_oe x_e). */
int qf_dirac_reconstruct(qf_dirac *d, qf_field *x, const qf_field *x_even, const qf_field *b);
/* The Schur system's source for the defect r - M z, from z's even sites alone: bhat = prepare(r - M z)
 * whatever z_o (prepare(M z) = Mhat z_e), in two hops and a vector pass where prepare(r) and Mhat z_e
 * take three hops and a pass; written to the even sites of bhat. */
int qf_dirac_prepare_defect(qf_dirac *d, qf_field *bhat, const qf_field *r, const qf_field *z);
/* az = M x for x = qf_dirac_reconstruct(x_even, b), from b, bhat = qf_dirac_prepare(b) and w = Mhat
 * x_even, in vector passes (and one clover application in the symmetric form): M x = b on the odd
 * sites, w + b - bhat on the even ones (A_ee (w - bhat) + b symmetric). */
int qf_dirac_schur_image(qf_dirac *d, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w);

/* Flops of one application of op on the whole lattice by QUDA's counts (DESIGN.md): Wilson dslash
 * 1320 a site it writes, clover term 504 a site (A or A^-1 applied), x + b y 48. */
double qf_dirac_flops(const qf_dirac *d, qf_dirac_op op);

/* ---- the operator's structure, for tools that run its kernels without the runtime ----
 * Every application is a sequence of hops: the hopping term D with its site-local finishing step
 * fused in, on the output sites of one parity (reading the other) or all (-1):
 *   out = C (a x + b D in)   (QF_CLOVER_ALL),   out = a C x + b D in   (QF_CLOVER_X),
 *   out = a x + b C D in     (QF_CLOVER_HOPS),  out = a x + b D in     (QF_CLOVER_NONE),
 * C the clover term A or its inverse, x a field of the application (or none). */
typedef enum { QF_CLOVER_NONE = 0, QF_CLOVER_X, QF_CLOVER_HOPS, QF_CLOVER_ALL } qf_clover_on;
/* The fields of an application a hop reads and writes: its input, its output, the operator's
 * temporary; QF_HOP_NONE for no x. */
typedef enum { QF_HOP_NONE = -1, QF_HOP_IN = 0, QF_HOP_OUT, QF_HOP_TMP } qf_hop_field;
typedef struct {
    qf_hop_field src, dst, x;
    int parity;
    double a, b;
    qf_clover_on clover_on;
    int clover_inverse; /* C is A^-1 (1) or A (0) */
} qf_dirac_hop;
/* The hops of one Mhat (QF_OP_MHAT) of the operator with parameters p and Schur form, in the order the
 * task graphs run them (Mhat^dagger runs the same with D^dagger, except in the symmetric form with
 * clover): *n of them, at most QF_DIRAC_MAX_HOPS. */
#define QF_DIRAC_MAX_HOPS 2
void qf_dirac_schur_hops(const qf_dirac_params *p, qf_schur_form form, qf_dirac_hop hops[QF_DIRAC_MAX_HOPS], int *n);

#ifdef __cplusplus
}
#endif
#endif
