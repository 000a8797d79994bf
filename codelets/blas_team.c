/* The BLAS codelets' chunks shared among the CPU team (blas_team.h): each thread takes the next chunk
 * as it finishes one, so that a slow thread holds the others up by one chunk at most (cpu_team.h). */
#include "blas_team.h"

#include "cpu_team.h"

#include <stdatomic.h>

typedef struct {
    const qf_blas_args *a;
    qf_blas_part_fn part;
    void *ctx;
    atomic_int next;
} team_job;

static void run_chunk(const team_job *j, int c)
{
    const qf_blas_args *a = j->a;
    /* chunks of whole units (a half record is one), so that every chunk's loop starts on a unit */
    int64_t unit = qf_blas_unit_elems(a->prec), units = a->n / unit;
    int64_t first = units * c / QF_BLAS_TEAM_CHUNKS, end = units * (c + 1) / QF_BLAS_TEAM_CHUNKS;
    qf_blas_args part = *a;
    part.first = a->first + first * unit;
    part.n = (end - first) * unit;
    j->part(j->ctx, &part, c);
}

static void team_part(void *arg, int k, int n)
{
    (void)k, (void)n;
    team_job *j = arg;
    for (int c; (c = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed)) < QF_BLAS_TEAM_CHUNKS;) run_chunk(j, c);
}

void qf_blas_team_run(const qf_blas_args *a, qf_blas_part_fn part, void *ctx)
{
    if (!a->team) {
        part(ctx, a, 0);
        return;
    }
    team_job j = {a, part, ctx, 0};
    qf_cpu_team_run(team_part, &j);
}
