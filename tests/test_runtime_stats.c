/* Per-worker statistics (qf_runtime_stats_*, qf_runtime.h): StarPU's profiling is on only between
 * begin and end; the tasks of each codelet counted over the interval are exactly those the graph
 * submitted (one task a block for an update or a reduction), whichever worker ran them; the
 * statistics agree with themselves (tasks by codelet against tasks by worker, idle fractions in
 * [0, 1], none for a kind of worker that is absent); an interval with no work counts no task; misuse
 * is refused with messages; the table names the kinds that ran and no other. Nothing here asserts a
 * time. The scheduler comes from STARPU_SCHED. */
#include "check.h"
#include "test_start.h"
#include "quarkflow.h"

#include <starpu.h>
#include <starpu_profiling.h>
#include <stdlib.h>
#include <string.h>

static char *print_to_string(const qf_runtime_stats *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    qf_runtime_stats_print(s, f);
    fclose(f);
    return text;
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;

    const int L[4] = {4, 4, 4, 8}, B[4] = {2, 1, 1, 2};
    qf_lattice lat;
    qf_field *x = NULL, *y = NULL;
    qf_scalar *r = NULL;
    int rc = qf_lattice_init(&lat, L, NULL, B, 0, 1, 1) || qf_field_create(&x, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) ||
             qf_field_create(&y, &lat, QF_FIELD_WILSON, QF_DOUBLE, 0) || qf_scalar_create(&r);
    CHECK(rc == 0, "set-up: %s", qf_last_error());
    if (rc) return qf_check_summary();
    long nb = lat.nblocks;

    qf_runtime_stats *s = NULL;
    CHECK(starpu_profiling_status_get() == STARPU_PROFILING_DISABLE, "profiling is off before an interval");
    CHECK(qf_runtime_stats_end(&s) != 0 && strstr(qf_last_error(), "without qf_runtime_stats_begin") && !s,
          "an end without a begin is refused: %s", qf_last_error());

    CHECK(qf_runtime_stats_begin() == 0, "begin: %s", qf_last_error());
    CHECK(starpu_profiling_status_get() == STARPU_PROFILING_ENABLE, "profiling is on inside the interval");
    CHECK(qf_runtime_stats_begin() != 0 && strstr(qf_last_error(), "already open"),
          "a second begin is refused: %s", qf_last_error());
    /* three updates and a norm: 3 blas_update and 1 blas_reduce task a block */
    double re = 0.0, im = 0.0;
    rc = qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_blas_axpby(1.0, x, 2.0, y, -1) || qf_blas_copy(x, y, -1) ||
         qf_blas_norm2(r, x, -1) || qf_scalar_get(r, &re, &im);
    CHECK(rc == 0, "the graph: %s", qf_last_error());
    CHECK(qf_runtime_stats_end(&s) == 0 && s, "end: %s", qf_last_error());
    CHECK(starpu_profiling_status_get() == STARPU_PROFILING_DISABLE, "profiling is off after the interval");
    if (!s) return qf_check_summary();

    long upd = qf_runtime_stats_tasks(s, "blas_update"), red = qf_runtime_stats_tasks(s, "blas_reduce");
    CHECK(upd == 3 * nb, "blas_update tasks: %ld, expected 3 a block (%ld)", upd, 3 * nb);
    CHECK(red == nb, "blas_reduce tasks: %ld, expected 1 a block (%ld)", red, nb);
    CHECK(qf_runtime_stats_tasks(s, "wilson_gather") == 0, "no Dirac-operator task ran");
    CHECK(qf_runtime_stats_tasks(s, "no_such_codelet") == -1, "an unknown codelet name gives -1");
    /* the redux's zero and add tasks run too; every counted codelet task is one of the workers' tasks */
    long all = qf_runtime_stats_tasks(s, NULL), counted = upd + red + qf_runtime_stats_tasks(s, "sum_zero") +
                                                          qf_runtime_stats_tasks(s, "sum_add");
    CHECK(all >= counted && counted >= 4 * nb, "the workers' tasks (%ld) hold the codelets' (%ld)", all, counted);
    double idle_cpu = qf_runtime_stats_idle_fraction(s, QF_WORKER_CPU),
           idle_cuda = qf_runtime_stats_idle_fraction(s, QF_WORKER_CUDA);
    if (qf_runtime_ncpu_workers() > 0) CHECK(idle_cpu >= 0.0 && idle_cpu <= 1.0, "CPU idle fraction %g in [0, 1]", idle_cpu);
    else CHECK(idle_cpu == -1.0, "no CPU workers: idle fraction -1, not %g", idle_cpu);
    if (qf_runtime_ncuda_workers() > 0) CHECK(idle_cuda >= 0.0 && idle_cuda <= 1.0, "CUDA idle fraction %g in [0, 1]", idle_cuda);
    else CHECK(idle_cuda == -1.0, "no CUDA workers: idle fraction -1, not %g", idle_cuda);
    CHECK(qf_runtime_stats_seconds(s) >= 0.0, "the interval has a length");

    char *text = print_to_string(s);
    CHECK(text && strstr(text, "axpby") && strstr(text, "reduce") && !strstr(text, "gather") && strstr(text, "\n  all "),
          "the table has the columns of the kinds that ran, no other, and a total line:\n%s", text ? text : "(none)");
    if (text) printf("%s", text);
    free(text);
    qf_runtime_stats_free(s);

    /* an interval with no work */
    s = NULL;
    CHECK(qf_runtime_stats_begin() == 0 && qf_runtime_stats_end(&s) == 0 && s, "empty interval: %s", qf_last_error());
    if (s) CHECK(qf_runtime_stats_tasks(s, NULL) == 0 && qf_runtime_stats_tasks(s, "blas_update") == 0,
                 "an interval with no work counts no task (%ld)", qf_runtime_stats_tasks(s, NULL));
    qf_runtime_stats_free(s);

    qf_scalar_destroy(r);
    qf_field_destroy(x);
    qf_field_destroy(y);
    qf_runtime_shutdown();
    return qf_check_summary();
}
