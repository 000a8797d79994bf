/* What the multigrid task builders share inside tasks/: the transfer's state, and the build of a coarse
 * operator from a fine operator's term description (tasks/coarse_op.c), which the Wilson-clover and the
 * coarse operators' coarsen functions call. */
#ifndef QF_TASKS_MG_H
#define QF_TASKS_MG_H

#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_dirac.h"
#include "quarkflow/qf_multigrid.h"
#include "tasks.h"

struct qf_transfer {
    const qf_lattice *fine;
    qf_lattice coarse;
    qf_field_shape fine_shape, coarse_shape;
    int agg[QF_NDIM];
    int nvec;
    qf_precision prec;
    qf_field *v; /* QF_FIELD_TRANSFER: the vectors at each fine site */
    qf_field *v_half; /* their 16-bit copy, which restriction and prolongation read where set
                       * (qf_transfer_set_vector_precision) */
};

/* The vectors restriction and prolongation read: the 16-bit copy where there is one. */
static inline const qf_field *qf_transfer_applied_vectors(const qf_transfer *T) { return T->v_half ? T->v_half : T->v; }

/* The Wilson-clover operator's links and clover term A (NULL without clover), for its coarsening and
 * its Schwarz domains. */
void qf_dirac_fields(const qf_dirac *d, const qf_field **gauge, const qf_field **clover);
const qf_field *qf_dirac_clover_inverse(const qf_dirac *d); /* A^-1, NULL for plain Wilson */

/* The Wilson-clover operator's domain solves (tasks/schwarz.c; qf_linop_domains). */
int qf_dirac_domains(qf_dirac *d, const int dom[QF_NDIM], int mr_steps, qf_domains **D);

/* *Ac = R D P for the fine operator described by src (codelets.h), in the transfer's precision. */
int qf_coarse_op_build(const qf_transfer *T, const qf_coarse_source *src, qf_linop **Ac);

#endif
