/* The clover term as task graphs: building A = 1 + i kappa c_sw sum_{mu<nu} sigma_munu F_munu and A^-1
 * from the field strength, and applying a clover field to colour-spinors (codelets clover_build and
 * clover_apply; codelets/kernels/clover.h has the algebra and the storage layout of QF_FIELD_CLOVER
 * fields). The Dirac operator builds its own (qf_dirac_create); these serve tools that run the same
 * clover term elsewhere (bench dslash's kernels without the runtime) and the tests. */
#ifndef QF_CLOVER_H
#define QF_CLOVER_H

#include "qf_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A and A^-1 on every site from fmunu (a QF_FIELD_FIELD_STRENGTH field, from qf_gauge_field_strength,
 * either precision) and kappa_csw = kappa * c_sw, into two distinct QF_FIELD_CLOVER fields a and ainv
 * of one precision, on fmunu's lattice: one clover_build task per block, then a wait for the count of
 * sites where A is not positive definite. Fails with a message naming that count when it is not zero
 * (kappa * c_sw too large for the gauge field); a and ainv then hold no usable operator. */
int qf_clover_build(const qf_field *fmunu, double kappa_csw, qf_field *a, qf_field *ainv);

/* out = a x + b C y on the sites of parity 0 or 1 (the other parity of out keeps its values) or on all
 * sites (parity -1), C a clover field (A or A^-1). out, x and y are QF_FIELD_WILSON fields of the
 * clover field's precision and lattice; out may be x or y. x is not read when a == 0 and may then be
 * NULL. One clover_apply task per block; no wait. */
int qf_clover_apply(qf_field *out, double a, const qf_field *x, double b, const qf_field *clover,
                          const qf_field *y, int parity);

#ifdef __cplusplus
}
#endif
#endif
