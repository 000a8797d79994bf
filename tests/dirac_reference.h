/* An independent reference for the Wilson-clover Dirac operator (include/quarkflow/qf_dirac.h), for
 * the tests only: double precision, plain loops over the whole global lattice in lexicographic order
 * (x fastest), no blocks, no StarPU and nothing from codelets/. Written straight from the formulas of
 * DESIGN.md ("Conventions (physics)") with full 4x4 DeGrand-Rossi gamma matrices:
 *
 *   M psi(x) = A(x) psi(x) - kappa D psi(x),
 *   D psi(x) = sum_mu [ (1 - g_mu) U_mu(x) psi(x+mu) + (1 + g_mu) U_mu(x-mu)^dagger psi(x-mu) ],
 *   A(x)     = 1 + i kappa c_sw sum_{mu<nu} sigma_munu F_munu(x),  sigma_munu = (i/2)[g_mu, g_nu],
 *   F_munu   = (Q_munu - Q_munu^dagger) / 8, Q the four plaquette leaves around x (no trace subtraction),
 *
 * the hop from x + mu to x across the boundary (x_mu = L_mu - 1) multiplied by phase_mu, the hop from
 * x - mu to x across the boundary (x_mu = 0) by conj(phase_mu). Daggers are the true adjoints, built
 * from D^dagger (the hops with the opposite projectors) and the conjugate transposes of A and A^-1.
 *
 * Arrays are the ones qf_field_import / qf_field_export exchange: gauge fields 72 doubles a site (4
 * links mu = x, y, z, t, each 3x3 complex row-major [row][col][re, im]); spinors 24 doubles a site
 * [spin][colour][re, im]; field strengths 108 doubles a site (planes 01 02 03 12 13 23). */
#ifndef QF_TEST_DIRAC_REFERENCE_H
#define QF_TEST_DIRAC_REFERENCE_H

#include <complex.h>
#include <stdint.h>

#define REF_SPINOR_REALS 24
#define REF_GAUGE_REALS 72

/* The operators, in the order of qf_dirac_op. */
typedef enum { REF_M = 0, REF_MDAG, REF_MDAGM, REF_MHAT, REF_MHAT_DAG, REF_MHAT_DAGMHAT, REF_NOPS } ref_op;
/* The Schur forms, in the order of qf_schur_form. */
typedef enum { REF_ASYMMETRIC = 0, REF_SYMMETRIC } ref_form;

extern const char *const ref_op_names[REF_NOPS];
/* 1 for the even-odd operators (they read and write even sites only). */
int ref_op_is_eo(ref_op op);

/* gamma[mu][row][col], mu = 0..3 for g1..g4 (x, y, z, t), and gamma_5. */
extern const double complex ref_gamma[4][4][4];
extern const double complex ref_gamma5[4][4];

typedef struct {
    int L[4];
    int64_t V;
    double kappa, csw;
    double complex phase[4];
    double *links;          /* own copy, 72 doubles a site */
    double complex *A, *Ainv; /* 144 complex a site, [row][col], row = 3 spin + colour; NULL when csw == 0 */
} ref_dirac;

/* Copies the links, and with csw != 0 computes F, A and A^-1 on every site. Returns 0, or -1 when
 * some A(x) is singular (the message goes to stdout). phase[mu] = (re, im). */
int ref_dirac_init(ref_dirac *r, const int L[4], const double *links, double kappa, double csw,
                   const double phase[4][2]);
void ref_dirac_free(ref_dirac *r);

/* out = op in. Full ops write every site. Even-odd ops (MHAT...) read the even sites of in only and
 * write the even sites of out only (its odd sites keep their values). form chooses the Schur form. */
void ref_dirac_apply(const ref_dirac *r, ref_op op, ref_form form, double *out, const double *in);

/* bhat_e = b_e + kappa D_eo A_oo^-1 b_o (asymmetric), A_ee^-1 of that (symmetric); even sites of bhat
 * only. */
void ref_dirac_prepare(const ref_dirac *r, ref_form form, double *bhat, const double *b);
/* x_e = x_even_e, x_o = A_oo^-1 (b_o + kappa D_oe x_e): every site of x. */
void ref_dirac_reconstruct(const ref_dirac *r, double *x, const double *x_even, const double *b);

/* Building blocks, exposed for the self-checks. parity: 0 even sites, 1 odd sites, -1 all; sites of
 * the other parity keep their values.
 *   ref_hop:    out = D in (dagger: D^dagger)
 *   ref_clover: out = C in site by site, C = A or A^-1 (inverse), or their adjoints (dagger); the
 *               identity when csw == 0. in and out may be the same array. */
void ref_hop(const ref_dirac *r, double *out, const double *in, int dagger, int parity);
void ref_clover(const ref_dirac *r, double *out, const double *in, int inverse, int dagger, int parity);

/* Clover-leaf field strength of the links on every site, 108 doubles a site. */
void ref_field_strength(const int L[4], const double *links, double *f);

/* The 12x12 clover matrix of one site from its six F matrices (18 doubles each, planes 01 .. 23). */
void ref_clover_site(const double *f_site, double kappa_csw, double complex a[12][12]);
/* inv = a^-1 by Gaussian elimination with partial pivoting; returns -1 when a is singular. */
int ref_invert12(const double complex a[12][12], double complex inv[12][12]);

/* ---- 3x3 complex matrices (links, F) in C99 complex arithmetic, 18 doubles [row][col][re, im] ---- */
typedef struct { double complex e[3][3]; } ref_mat3;
ref_mat3 ref_m_load(const double *p);
void ref_m_store(double *p, const ref_mat3 *m);
ref_mat3 ref_m_mul(ref_mat3 a, ref_mat3 b);
ref_mat3 ref_m_dag(ref_mat3 a);
/* U_mu(site) of a 72-doubles-a-site gauge array */
ref_mat3 ref_m_link(const double *links, int64_t site, int mu);

/* ---- lattice helpers ---- */
int64_t ref_volume(const int L[4]);
void ref_coords(int64_t i, const int L[4], int x[4]);
int64_t ref_index(const int x[4], const int L[4]);
int ref_parity_of(int64_t i, const int L[4]);

/* ---- spinor algebra on global arrays (parity as above) ---- */
/* sum over sites of parity of conj(a) . b */
double complex ref_dot(const int L[4], const double *a, const double *b, int parity);
double ref_norm2(const int L[4], const double *a, int parity);
/* |a - b| / |b| over the sites of parity (|a - b| when b = 0) */
double ref_rel_diff(const int L[4], const double *a, const double *b, int parity);
/* out = gamma_5 in, every site (in place allowed) */
void ref_apply_gamma5(const int L[4], double *out, const double *in);
/* copy the sites of parity from src to dst */
void ref_copy_parity(const int L[4], double *dst, const double *src, int parity);

/* ---- random numbers and fields ---- */
typedef struct { uint64_t s; } ref_rng;
uint64_t ref_rng_next(ref_rng *g);
double ref_rng_uniform(ref_rng *g); /* (0, 1) */
double ref_rng_gauss(ref_rng *g);
/* Haar-ish SU(3): Gram-Schmidt of Gaussian rows, third row the conjugate cross product. 18 doubles. */
void ref_random_su3(ref_rng *g, double *m);
void ref_random_links(ref_rng *g, const int L[4], double *links);
void ref_unit_links(const int L[4], double *links);
/* Gaussian components, 24 doubles a site */
void ref_random_spinor(ref_rng *g, const int L[4], double *psi);
/* One SU(3) matrix a site, 18 doubles a site. */
void ref_random_gauge_transform(ref_rng *g, const int L[4], double *omega);
/* U_mu(x) -> Omega(x) U_mu(x) Omega(x+mu)^dagger (periodic neighbour) */
void ref_gauge_transform_links(const int L[4], const double *omega, const double *links, double *out);
/* psi(x) -> Omega(x) psi(x) */
void ref_gauge_transform_spinor(const int L[4], const double *omega, const double *psi, double *out);

#endif
