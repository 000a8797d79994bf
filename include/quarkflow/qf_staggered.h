/* Improved staggered (asqtad) quarks in MILC's conventions (DESIGN.md):
 *
 *   M = 2m + D,
 *   D psi(x) = sum_mu [ F_mu(x) psi(x+mu) - F_mu(x-mu)^dag psi(x-mu) + L_mu(x) psi(x+3mu) - L_mu(x-3mu)^dag psi(x-3mu) ],
 *
 * with the fat links F and the Naik links L smeared from links that carry the staggered phases
 * eta_mu(x) and the boundary phases (MILC: periodic in space, antiperiodic in time). D is
 * anti-hermitian and connects even and odd sites only, so M^dag M = 4m^2 - D^2 is block-diagonal in
 * parity; the even-odd system is the Schur complement of M, MILC's 4m^2 - D_eo D_oe divided by 2m:
 *
 *   Mhat x_e = (2m - D_eo D_oe / 2m) x_e = b_e - D_eo b_o / 2m,   x_o = (b_o - D_oe x_e) / 2m,
 *
 * hermitian and positive definite, with the residual of the full system: CG (QF_SOLVER_CG) solves it,
 * and multi-shift CG (qf_asqtad_multishift) solves -D_eo D_oe + 4 m_i^2 for many masses in one Krylov
 * space. Colour vectors are QF_FIELD_STAGGERED fields (6 reals a site,
 * [colour][re, im]); the links of the operator are one QF_FIELD_ASQTAD_LINKS field (F_0..F_3 then
 * L_0..L_3 a site). Everything is a task graph: the smearing as MILC's staple algorithm in one-hop
 * steps (seed 002's standard algorithm), the operator as gathers of 1-deep fat and 3-deep Naik faces,
 * interiors and exteriors. */
#ifndef QF_STAGGERED_H
#define QF_STAGGERED_H

#include "qf_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MILC's asqtad path coefficients for tadpole factor u0 (one_link without the Lepage correction). */
typedef struct {
    double one_link, naik, staple3, staple5, staple7, lepage;
} qf_asqtad_coefficients;
qf_asqtad_coefficients qf_asqtad_coefficients_for(double u0);

/* The two smearing algorithms of seed 002, which give the same links:
 *   standard  MILC's staple algorithm as 72 one-hop steps, each a gather of the staple's faces and a
 *             staple task per block (no redundant work; a message per step across blocks);
 *   extended  each block's links with a 2-deep halo on every side (corners included) gathered in 4
 *             rounds of slabs, then the whole smearing as one task per block without a message (the
 *             staples also computed on the halo: redundant work, as seed 002's "ex_vol"). */
typedef enum { QF_SMEAR_STANDARD = 0, QF_SMEAR_EXTENDED } qf_asqtad_smearing;
const char *qf_asqtad_smearing_name(qf_asqtad_smearing a);
/* Parses standard or extended. */
int qf_asqtad_smearing_parse(const char *s, qf_asqtad_smearing *a);

typedef struct {
    double u0;                /* tadpole factor, in (0, 1] */
    double phase[QF_NDIM][2]; /* boundary phase (re, im) of the links that leave the lattice */
    qf_asqtad_smearing algorithm;
} qf_asqtad_link_params;
/* u0, periodic in space, antiperiodic in time (MILC's), the standard algorithm. */
qf_asqtad_link_params qf_asqtad_default_link_params(double u0);

/* The fat and Naik links of gauge (a gauge field in any precision; the smearing runs in double) as
 * task graphs, into *links: a new QF_FIELD_ASQTAD_LINKS field in double precision that the caller
 * destroys. Blocks must be at least 2 sites in every direction. */
int qf_asqtad_links(const qf_field *gauge, const qf_asqtad_link_params *p, qf_field **links);

/* The links to and from files, as MILC writes them through QIO: the fat links and the Naik links each a
 * SciDAC colour-matrix file of 4 matrices a site (QDP_F3/D3_ColorMatrix, qf_gauge_io.h), 32 or 64 bit,
 * every process its part (a file system all processes share); a NULL path skips that file when saving.
 * Loading makes *links, a double-precision QF_FIELD_ASQTAD_LINKS field on lat (the files' dimensions
 * must be lat's). */
int qf_asqtad_links_save(const qf_field *links, const char *fat_path, const char *long_path, int precision_bits);
int qf_asqtad_links_load(const qf_lattice *lat, const char *fat_path, const char *long_path, qf_field **links);

typedef struct qf_asqtad qf_asqtad;

typedef struct {
    double mass;       /* m > 0 */
    qf_precision prec; /* of the operator's links and operands: double or single */
} qf_asqtad_params;

/* The operator on links (from qf_asqtad_links or a file; converted to p->prec as tasks; the field may
 * be destroyed afterwards). Blocks must be at least 4 sites in every direction (the Naik hop's faces
 * are 3 deep). */
int qf_asqtad_create(qf_asqtad **op, const qf_field *links, const qf_asqtad_params *p);
void qf_asqtad_destroy(qf_asqtad *op);
const qf_asqtad_params *qf_asqtad_get_params(const qf_asqtad *op);

/* out = D in on every site; out and in distinct staggered fields of the operator's precision. */
int qf_asqtad_dslash(qf_asqtad *op, qf_field *out, const qf_field *in);
/* The operator as a qf_linop: M = 2m + D on the whole lattice with its even-odd form Mhat (above, the
 * Schur form, hermitian) and its twin in the other precision. The caller owns *A and destroys it before op. */
int qf_asqtad_linop(qf_asqtad *op, qf_linop **A);
/* The hermitian positive semi-definite -D_pq D_qp on the sites of parity p (0 even, 1 odd), whose
 * shifts by 4 m^2 are MILC's M(m)^dag M(m) on those sites: multi-shift CG's operator. The caller owns
 * *A and destroys it before op. */
int qf_asqtad_parity_linop(qf_asqtad *op, int parity, qf_linop **A);
/* out = M(mass) in = 2 mass in + D in, or M(mass)^dag in = 2 mass in - D in (dagger), for any mass:
 * the operator's own mass is not used. out and in distinct staggered fields of its precision. */
int qf_asqtad_apply_m(qf_asqtad *op, double mass, int dagger, qf_field *out, const qf_field *in);
/* M(m_i) x_i = b for n masses at once (solvers/asqtad_multimass.c), as MILC's multi-mass inverters do
 * it: y_i = (M_i^dag M_i)^-1 b by multi-shift CG (qf_multishift_cg, which refines each shift by CG) on
 * the even and on the odd sites (shifts 4 m_i^2 of -D^2, which is block-diagonal in parity), then
 * x_i = M_i^dag y_i = 2 m_i y_i - D y_i, whose residual b - M_i x_i is y_i's, M and M^dag commuting.
 * p: tol (each mass's |b - M_i x_i| / |b|), max_iter, check_every, sloppy, verbose. res[i] per mass:
 * iterations (multi-shift on both parities plus refinements), true residual, converged; seconds and
 * flops of the whole solve. Fails, naming the mass, when one misses tol. */
int qf_asqtad_multimass(qf_asqtad *op, int n, const double *masses, qf_field *const *x, const qf_field *b,
                        const qf_solver_params *p, qf_solver_result *res);
/* Flops of one D on the whole lattice by QUDA's count (1146 a site). */
double qf_asqtad_dslash_flops(const qf_lattice *lat);

#ifdef __cplusplus
}
#endif
#endif
