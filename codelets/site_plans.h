/* The plans of the CPU Wilson loops (kernels/simd.h, qf_sites_key): for each walk a codelet runs, the
 * batches of site geometry filled once and kept for the life of the process, shared by every thread
 * (read-only once made). A key's plan is a few hundred bytes a batch of sites (about 380 KiB for the
 * even half of a 16 x 8 x 8 x 8 block in single precision); a process holds one per block shape,
 * parity, walk and batch kind it has run. */
#ifndef QF_SITE_PLANS_H
#define QF_SITE_PLANS_H

#include "kernels/simd.h"

/* The plan of key for single-precision (8-lane) or double-precision (4-lane) batches, made on first
 * use; *n gets its number of batches. A plan that cannot be allocated ends the process with a
 * message (a codelet cannot return an error). */
const qf_sites_f8 *qf_sites_plan_f8(const qf_sites_key *key, int64_t *n);
const qf_sites_d4 *qf_sites_plan_d4(const qf_sites_key *key, int64_t *n);

#endif
