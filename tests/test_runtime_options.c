/* The default count of CPU workers (qf_runtime_default_ncpu): the core left to the submitting thread
 * with CUDA workers on any machine, and without them only from 16 cores on, where on an H200 node's
 * Xeon the thread paced 16 workers (bench/RESULTS.md); never fewer than one worker. */
#include "check.h"
#include "quarkflow.h"

int main(void)
{
    CHECK(qf_runtime_default_ncpu(2, 0) == -1, "2 cores, no GPU: a worker on every core (got %d)",
          qf_runtime_default_ncpu(2, 0));
    CHECK(qf_runtime_default_ncpu(8, 0) == -1, "8 cores, no GPU: a worker on every core (got %d)",
          qf_runtime_default_ncpu(8, 0));
    CHECK(qf_runtime_default_ncpu(15, 0) == -1, "15 cores, no GPU: a worker on every core (got %d)",
          qf_runtime_default_ncpu(15, 0));
    CHECK(qf_runtime_default_ncpu(16, 0) == 15, "16 cores, no GPU: 15 workers (got %d)", qf_runtime_default_ncpu(16, 0));
    CHECK(qf_runtime_default_ncpu(128, 0) == 127, "128 cores, no GPU: 127 workers (got %d)",
          qf_runtime_default_ncpu(128, 0));
    CHECK(qf_runtime_default_ncpu(16, 1) == 14, "16 cores, 1 GPU: 14 workers (got %d)", qf_runtime_default_ncpu(16, 1));
    CHECK(qf_runtime_default_ncpu(32, 2) == 29, "32 cores, 2 GPUs: 29 workers (got %d)", qf_runtime_default_ncpu(32, 2));
    CHECK(qf_runtime_default_ncpu(2, 1) == 1, "2 cores, 1 GPU: at least one worker (got %d)", qf_runtime_default_ncpu(2, 1));
    CHECK(qf_runtime_default_ncpu(-1, 1) == 1, "unknown core count, 1 GPU: one worker (got %d)",
          qf_runtime_default_ncpu(-1, 1));
    CHECK(qf_runtime_default_ncpu(-1, 0) == -1, "unknown core count, no GPU: StarPU's default (got %d)",
          qf_runtime_default_ncpu(-1, 0));
    return qf_check_summary();
}
