/* An independent reference for the improved staggered (asqtad) operator, for the tests only: double
 * precision, plain loops over the whole global lattice, no blocks, no StarPU and nothing from
 * codelets/ or tasks/. Written straight from DESIGN.md ("Conventions (physics)", MILC conventions):
 *
 *   M psi = 2 m psi + D psi,
 *   D psi(x) = sum_mu [ F_mu(x) psi(x+mu) - F_mu(x-mu)^dag psi(x-mu) + L_mu(x) psi(x+3mu)
 *                       - L_mu(x-3mu)^dag psi(x-3mu) ].
 *
 * The fat links F are built by enumerating every path of the action one by one (85 a link) and
 * multiplying its links out, not by the recursive staple products of the production code, so that a
 * mistake in either shows up as a disagreement. Self-contained (only static helpers), so that it links
 * beside dirac_reference.c.
 *
 * Global arrays, lexicographic site order x fastest (site index x + Lx*(y + Ly*(z + Lz*t))).
 * Gauge-shaped arrays: 72 doubles a site, [mu][row][col][re,im], mu = 0..3 = x,y,z,t.
 * Colour vectors: 6 doubles a site, [colour][re,im]. Every extent must be even (the staggered phases
 * and the even-odd structure need it). In the operators, out and psi must be distinct arrays. */
#ifndef QF_TEST_STAGGERED_REFERENCE_H
#define QF_TEST_STAGGERED_REFERENCE_H

#define REF_COLOUR_REALS 6

/* Multiplies u in place by the staggered phases eta_mu(x) (eta_t = 1, eta_x = (-1)^t, eta_y = (-1)^(t+x),
 * eta_z = (-1)^(t+x+y)) and, on the links that cross the lattice boundary (U_mu(x) with x_mu = L_mu - 1),
 * by the complex boundary phase phase[mu] = (re, im). MILC's default is phase = 1 in space, -1 in time. */
void qf_ref_staggered_phases(double *u, const int L[4], const double phase[4][2]);

/* Asqtad fat links F and Naik (long) links L from phased links (the output of qf_ref_staggered_phases),
 * by explicit enumeration of every path of the action with MILC's coefficients for tadpole factor u0:
 * one-link 5/8, Naik -1/(24 u0^2), 3-staple -1/(16 u0^2), 5-staple 1/(64 u0^4), 7-staple -1/(384 u0^6),
 * Lepage -1/(16 u0^4). fat and lng: gauge-shaped arrays. */
void qf_ref_asqtad_links(const double *u_phased, const int L[4], double u0, double *fat, double *lng);

/* out = D psi on all sites:
 * D psi(x) = sum_mu [ F_mu(x) psi(x+mu) - F_mu(x-mu)^dag psi(x-mu) + L_mu(x) psi(x+3mu) - L_mu(x-3mu)^dag psi(x-3mu) ]
 * with periodic index wrap-around (boundary phases are already in the links). */
void qf_ref_asqtad_dslash(const double *fat, const double *lng, const int L[4], const double *psi, double *out);

/* out = M psi = 2 m psi + D psi. */
void qf_ref_asqtad_m(const double *fat, const double *lng, const int L[4], double mass, const double *psi, double *out);

#endif
