/* Start-up shared by the task-graph tests. */
#ifndef QF_TEST_START_H
#define QF_TEST_START_H

#include "quarkflow/qf_runtime.h"

#include <stdio.h>
#include <stdlib.h>

/* Starts the runtime and prints the machine. Returns -1 to go on, or the exit status main should
 * return: the GPU-labelled runs (QF_TEST_REQUIRE_CUDA) are skipped (77), not failed, without a CUDA
 * worker. */
static inline int qf_test_start(void)
{
    int need_cuda = getenv("QF_TEST_REQUIRE_CUDA") != NULL;
    if (qf_runtime_init(NULL, NULL, NULL)) {
        printf("runtime: %s\n", qf_last_error());
        return need_cuda ? 77 : 1;
    }
    if (need_cuda && qf_runtime_ncuda_workers() == 0) {
        printf("no CUDA worker: skipped\n");
        qf_runtime_shutdown();
        return 77;
    }
    printf("scheduler %s, %d CPU workers, %d CUDA workers\n", qf_runtime_sched_name(), qf_runtime_ncpu_workers(),
           qf_runtime_ncuda_workers());
    return -1;
}

#endif
