/* Gauge observables computed as task graphs: average plaquette (spatial, temporal, total) and link
 * trace, each normalised as Re Tr / 3 (NERSC and Chroma convention; MILC prints 3 times these). */
#ifndef QF_OBSERVABLES_H
#define QF_OBSERVABLES_H

#include "qf_field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double plaquette;       /* average over all 6 planes */
    double plaquette_space; /* xy, xz, yz planes */
    double plaquette_time;  /* xt, yt, zt planes */
    double link_trace;      /* average over all links */
} qf_gauge_observables;

/* Submits gathers of the gauge faces and one plaquette task per block reducing into one accumulator,
 * then waits for that accumulator only. */
int qf_gauge_measure(const qf_field *gauge, qf_gauge_observables *out);

/* Polyakov loop: the average over spatial sites of (1/3) Tr of the ordered product of the time
 * links along the whole time extent (no boundary phase). */
int qf_gauge_polyakov(const qf_field *gauge, double *re, double *im);

/* Clover-leaf field strength F_munu(x) = (Q_munu(x) - Q_munu(x)^dagger) / 8, Q the sum of the four
 * plaquette leaves around x in the mu-nu plane, each starting and ending at x, taken counter-clockwise
 * (mu then nu); no trace subtraction (DESIGN.md). fmunu must be a QF_FIELD_FIELD_STRENGTH field on the
 * gauge field's lattice; its site holds the planes 01 02 03 12 13 23. Submitted as tasks: the
 * caller's next use of fmunu waits for them. */
int qf_gauge_field_strength(const qf_field *gauge, qf_field *fmunu);

/* The pion and rho correlators of a point-source Wilson propagator, as the propagator command prints
 * them: col[k] the solution for the source at spin k / 3, colour k % 3 of the global site whose time
 * is t_source (single or double Wilson fields of one lattice); pion[t] = sum over the sink sites x at
 * time t_source + t (mod T) of sum |S(x)|^2, rho[t] the same of (1/3) sum_k Re Tr[g_k S g_k g5 S^+ g5]
 * over the spatial DeGrand-Rossi gammas. One slice_sums task a block, run where the columns live; every
 * process gets the whole correlators (T = the global time extent values each). */
int qf_meson_correlators(qf_field *const col[12], int t_source, double *pion, double *rho);

/* The time-slice sums c[t] = sum over the sites x at time t_source + t (mod T) of |f(x)|^2, every real of
 * the site (single or double precision; the staggered Goldstone pion of one source colour, as MILC's
 * spectrum codes compute it): one slice_sums task a block, run where f lives; every process gets all T. */
int qf_field_slice_norm2(const qf_field *f, int t_source, double *c);

#ifdef __cplusplus
}
#endif
#endif
