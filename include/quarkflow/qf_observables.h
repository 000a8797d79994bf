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

#ifdef __cplusplus
}
#endif
#endif
