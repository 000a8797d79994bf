/* The plans of the CPU Wilson loops (kernels/simd.h, qf_sites_key): for each walk a codelet runs, the
 * batches of site geometry filled once and kept for the life of the process, shared by every thread
 * (read-only once made). A key's plan is a few hundred bytes a batch of sites (about 380 KiB for the
 * even half of a 16 x 8 x 8 x 8 block in single precision); a process holds one per block shape,
 * parity, walk and batch kind it has run. */
#ifndef QF_SITE_PLANS_H
#define QF_SITE_PLANS_H

#include "kernels/simd.h"

/* The plan of a key in the batch kind of a precision: f8 for single, d4 for double (the other NULL),
 * n batches. */
typedef struct {
    const qf_sites_f8 *f8;
    const qf_sites_d4 *d4;
    int64_t n;
} qf_sites_plan;

/* The plan of key for fields in prec (single or double), made on first use. A plan that cannot be
 * allocated ends the process with a message (a codelet cannot return an error). */
qf_sites_plan qf_sites_plan_of(const qf_sites_key *key, qf_precision prec);

#endif
