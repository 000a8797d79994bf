/* The memory-bandwidth ceilings of the direct kernels' paths (qf_direct.h), measured in the same run
 * as the figures they bound: a STREAM triad on the threads the CPU path uses, bound to the same cores,
 * or a device-to-device copy on the GPU (direct_cuda.cu). */
#include "direct_plan.h"

#include "quarkflow/qf_runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    double *a, *b, *c;
    size_t n;
    int nthreads, reps;
    pthread_barrier_t barrier;
    double best;
} triad;

static void *triad_thread(void *arg_)
{
    qf_direct_thread_arg *arg = arg_;
    triad *t = arg->c;
    qf_direct_bind_to_worker_core(arg->tid);
    size_t lo = t->n * (size_t)arg->tid / (size_t)t->nthreads, hi = t->n * (size_t)(arg->tid + 1) / (size_t)t->nthreads;
    double *a = t->a, *b = t->b, *c = t->c;
    for (size_t i = lo; i < hi; i++) { /* first touch by the thread that uses the pages */
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
    const double s = 3.0;
    for (int r = 0; r < t->reps; r++) {
        pthread_barrier_wait(&t->barrier);
        double t0 = qf_timing_now();
        for (size_t i = lo; i < hi; i++) a[i] = b[i] + s * c[i];
        pthread_barrier_wait(&t->barrier);
        double dt = qf_timing_now() - t0;
        if (arg->tid == 0 && (r == 0 || dt < t->best)) t->best = dt;
    }
    return NULL;
}

static int stream_triad(int nthreads, double *gbps, size_t *array_bytes)
{
    /* 256 MiB an array (far beyond any L3 a few cores see), less on small machines */
    size_t n = (size_t)1 << 25;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) {
        double phys = (double)pages * (double)page;
        while (n > ((size_t)1 << 22) && 3.0 * 8.0 * (double)n > phys / 8) n /= 2;
    }
    triad t = {.n = n, .nthreads = nthreads, .reps = 10};
    t.a = malloc(n * sizeof(double));
    t.b = malloc(n * sizeof(double));
    t.c = malloc(n * sizeof(double));
    int rc = QF_SUCCESS;
    if (!t.a || !t.b || !t.c) rc = qf_fail("out of host memory for the STREAM arrays (3 x %zu MiB)", n * 8 >> 20);
    if (!rc && pthread_barrier_init(&t.barrier, NULL, (unsigned)nthreads)) rc = qf_fail("pthread_barrier_init failed");
    if (!rc) {
        rc = qf_direct_threads(nthreads, triad_thread, &t);
        pthread_barrier_destroy(&t.barrier);
    }
    /* a use of the result, so that the loop cannot be dropped */
    if (!rc && t.a[n / 2] != 1.0 + 3.0 * 2.0) rc = qf_fail("STREAM triad computed %g instead of 7", t.a[n / 2]);
    free(t.a);
    free(t.b);
    free(t.c);
    *gbps = rc ? 0.0 : 3.0 * 8.0 * (double)n / t.best * 1e-9;
    *array_bytes = n * sizeof(double);
    return rc;
}

int qf_direct_ceiling(int gpu, int device, int nthreads, double *gbps, size_t *bytes)
{
    qf_runtime_wait_all();
    qf_runtime_pause();
    *bytes = 0;
    int rc = QF_SUCCESS;
    if (!gpu) {
        rc = stream_triad(nthreads, gbps, bytes);
    } else {
#if QF_HAVE_CUDA
        char err[512] = "";
        *bytes = (size_t)1 << 30;
        if (qf_direct_cuda_copy_bandwidth(device, *bytes, gbps, err, sizeof err))
            rc = qf_fail("device-to-device copy: %s", err);
#else
        (void)device;
        rc = qf_fail("a GPU ceiling in a build without CUDA");
#endif
    }
    qf_runtime_resume();
    return rc;
}
