/* The default count of CPU workers (qf_runtime_default_ncpu): the core left to the submitting thread
 * with CUDA workers on any machine, and without them only from 16 cores on, where on an H200 node's
 * Xeon the thread paced 16 workers (bench/RESULTS.md); never fewer than one worker. */
#include "check.h"
#include "quarkflow.h"

int main(void)
{
    static const struct {
        long ncores;
        int ncuda, expected; /* -1: StarPU's default, a worker on every core */
        const char *why;
    } cases[] = {
        {2, 0, -1, "2 cores, no GPU: a worker on every core"},
        {8, 0, -1, "8 cores, no GPU: a worker on every core"},
        {15, 0, -1, "15 cores, no GPU: a worker on every core"},
        {16, 0, 15, "16 cores, no GPU: one core for the submitting thread"},
        {128, 0, 127, "128 cores, no GPU: one core for the submitting thread"},
        {16, 1, 14, "16 cores, 1 GPU: one core per GPU and one for the submitting thread"},
        {32, 2, 29, "32 cores, 2 GPUs: one core per GPU and one for the submitting thread"},
        {2, 1, 1, "2 cores, 1 GPU: at least one worker"},
        {-1, 1, 1, "unknown core count, 1 GPU: one worker"},
        {-1, 0, -1, "unknown core count, no GPU: StarPU's default"},
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int got = qf_runtime_default_ncpu(cases[k].ncores, cases[k].ncuda);
        CHECK(got == cases[k].expected, "%s: expected %d, got %d", cases[k].why, cases[k].expected, got);
    }
    return qf_check_summary();
}
