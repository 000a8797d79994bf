/* The default count of CPU workers (qf_runtime_default_ncpu): the core left to the submitting thread
 * with CUDA workers on any machine, and without them only from 16 cores on, where on an H200 node's
 * Xeon the thread paced 16 workers (bench/RESULTS.md); never fewer than one worker. And where Mhat's
 * two hops run as one task a block by default (qf_runtime_default_pair_hops), and where a block's hop
 * reads its neighbour blocks (qf_runtime_default_direct_hops). */
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
    /* both hops of Mhat in one task a block where the CPU pass runs them, or where the fields come from
     * memory, not from the cache; never with GPUs */
    static const struct {
        int64_t bytes;
        long cache;
        int ncuda, pass, expected;
        const char *why;
    } pairs[] = {
        {654L << 20, 300L << 20, 0, 0, 1, "32^4 single on a 300 MB cache, CPUs only: paired"},
        {94L << 20, 300L << 20, 0, 0, 0, "16^4 double on a 300 MB cache, no pass (half, recon): the stencil"},
        {94L << 20, 300L << 20, 0, 1, 1, "16^4 double on a 300 MB cache, the pass: paired"},
        {654L << 20, 300L << 20, 1, 0, 0, "32^4 with a CUDA worker: the stencil"},
        {94L << 20, 300L << 20, 1, 1, 0, "16^4 with a CUDA worker, although the pass would fit: the stencil"},
        {40L << 20, 0, 0, 0, 1, "40 MB, cache unknown (32 MiB assumed): paired"},
        {16L << 20, -1, 0, 0, 0, "16 MB, cache unknown: the stencil"},
    };
    for (unsigned k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        int got = qf_runtime_default_pair_hops(pairs[k].bytes, pairs[k].cache, pairs[k].ncuda, pairs[k].pass);
        CHECK(got == pairs[k].expected, "%s: expected %d, got %d", pairs[k].why, pairs[k].expected, got);
    }
    /* a block's hop reads its neighbours' blocks with a few CPU workers and no GPU */
    static const struct {
        int ncpu, ncuda, expected;
        const char *why;
    } directs[] = {
        {2, 0, 1, "2 CPU workers: the direct hop"},
        {QF_DIRECT_MAX_CPU_WORKERS, 0, 1, "the most CPU workers it takes: the direct hop"},
        {QF_DIRECT_MAX_CPU_WORKERS + 1, 0, 0, "one CPU worker more: the stencil"},
        {15, 0, 0, "15 CPU workers: the stencil"},
        {2, 1, 0, "2 CPU workers and a CUDA worker: the stencil"},
    };
    for (unsigned k = 0; k < sizeof directs / sizeof directs[0]; k++) {
        int got = qf_runtime_default_direct_hops(directs[k].ncpu, directs[k].ncuda);
        CHECK(got == directs[k].expected, "%s: expected %d, got %d", directs[k].why, directs[k].expected, got);
    }
    return qf_check_summary();
}
