/* The StarPU side of a qf_scalar (include/quarkflow/qf_blas.h), for the task builders in tasks/: a
 * variable handle of 2 doubles (re, im), allocated by StarPU where it is first used (home node -1),
 * with the sum_zero / sum_add codelets as its reduction methods so that reductions can write it in
 * STARPU_REDUX mode. Not part of the public API. */
#ifndef QF_TASKS_SCALAR_H
#define QF_TASKS_SCALAR_H

#include "quarkflow/qf_blas.h"

#include <starpu.h>

struct qf_scalar {
    starpu_data_handle_t h;
};

static inline starpu_data_handle_t qf_scalar_handle(const qf_scalar *s) { return s->h; }

#endif
