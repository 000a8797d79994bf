/* The CPU BLAS codelets on a lattice of one block a process without CUDA workers, where each task is
 * all of the process's work and the other CPU workers idle (a one-block solver's updates and reductions
 * run one after another): the task's units in QF_BLAS_TEAM_CHUNKS chunks shared among the CPU team
 * (cpu_team.h). A codelet's part function runs its loop on one chunk's elements and keeps that chunk's
 * sums in the chunk's slot; the codelet adds the slots in chunk order (qf_blas_chunks_sum), so that its
 * result does not depend on the team's size or on which thread took which chunk. A task without the
 * team is one chunk: the part function over all of its elements. */
#ifndef QF_BLAS_TEAM_H
#define QF_BLAS_TEAM_H

#include "kernels/blas.h"

#define QF_BLAS_TEAM_CHUNKS 64

/* The codelet's loop on part's elements (part->first, part->n), its sums into slot chunk. */
typedef void (*qf_blas_part_fn)(void *ctx, const qf_blas_args *part, int chunk);

/* The chunks of a's task: QF_BLAS_TEAM_CHUNKS with the team (a->team), else 1. */
static inline int qf_blas_chunks(const qf_blas_args *a) { return a->team ? QF_BLAS_TEAM_CHUNKS : 1; }

/* Runs part over the chunks of a's task, shared among the team where a->team. */
void qf_blas_team_run(const qf_blas_args *a, qf_blas_part_fn part, void *ctx);

/* The sum over the chunks of a's task of slot[c * stride + k], in chunk order. */
static inline double qf_blas_chunks_sum(const qf_blas_args *a, const double *slot, int stride, int k)
{
    double s = 0.0;
    for (int c = 0, n = qf_blas_chunks(a); c < n; c++) s += slot[c * stride + k];
    return s;
}

#endif
