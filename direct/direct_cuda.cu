/* The direct kernels on the GPU (qf_direct.h): the plan of direct.c (the hops of one Mhat application)
 * run with the CUDA launchers of codelets/wilson_launch.h on cudaMalloc'ed buffers, on one stream,
 * timed with CUDA events; and the device-to-device copy bandwidth, the GPU's ceiling. */
#include "direct_plan.h"
#include "task_probe.h"

#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(call)                                                                                                  \
    do {                                                                                                           \
        cudaError_t e_ = (call);                                                                                   \
        if (e_ != cudaSuccess) {                                                                                   \
            snprintf(err, errlen, "%s: %s", #call, cudaGetErrorString(e_));                                        \
            goto fail;                                                                                             \
        }                                                                                                          \
    } while (0)

extern "C" int qf_direct_cuda_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

namespace {

struct device_plan {
    void **spinor[QF_DIRECT_NSPINORS];
    void **gauge;
    void **clover[2];
    void **face; /* [block * 8 + k] */
    int nblocks;
};

void free_device(device_plan *dp)
{
    for (int b = 0; b < dp->nblocks; b++) {
        for (int k = 0; k < QF_DIRECT_NSPINORS; k++)
            if (dp->spinor[k]) cudaFree(dp->spinor[k][b]);
        if (dp->gauge) cudaFree(dp->gauge[b]);
        for (int k = 0; k < 2; k++)
            if (dp->clover[k]) cudaFree(dp->clover[k][b]);
        for (int k = 0; k < QF_WILSON_NFACES && dp->face; k++) cudaFree(dp->face[b * QF_WILSON_NFACES + k]);
    }
    for (int k = 0; k < QF_DIRECT_NSPINORS; k++) free(dp->spinor[k]);
    free(dp->gauge);
    for (int k = 0; k < 2; k++) free(dp->clover[k]);
    free(dp->face);
}

void *spinor_of(const qf_direct_plan *p, const device_plan *dp, int id, int b, long it)
{
    (void)p;
    if ((it & 1) && id != QF_DIRECT_TMP) id = id == QF_DIRECT_IN ? QF_DIRECT_OUT : QF_DIRECT_IN;
    return dp->spinor[id][b];
}

/* Applications number first .. first + n - 1 (their number decides which buffer is the input), in the
 * order of the task graph's submission: per hop, every gather, every interior, every exterior (none of
 * the gathers and exteriors where the block wraps in every direction, as in the task graph). */
void launch(const qf_direct_plan *p, const device_plan *dp, long first, long n, cudaStream_t s)
{
    for (long it = first; it < first + n; it++)
        for (int h = 0; h < p->nhops; h++) {
            const qf_direct_hop_args *hp = &p->hop[h];
            qf_wilson_args a = hp->a;
            const int faces = qf_wilson_has_faces(&a);
            for (int b = 0; b < p->nblocks && faces; b++)
                qf_wilson_gather_run_cuda(&hp->g, spinor_of(p, dp, hp->src, b, it), dp->gauge[b],
                                          dp->face + (size_t)b * QF_WILSON_NFACES, s);
            for (int b = 0; b < p->nblocks; b++) {
                memcpy(a.origin, p->block_origin[b], sizeof a.origin);
                qf_wilson_interior_run_cuda(&a, spinor_of(p, dp, hp->dst, b, it), spinor_of(p, dp, hp->src, b, it),
                                            dp->gauge[b], hp->x >= 0 ? spinor_of(p, dp, hp->x, b, it) : NULL,
                                            hp->clover >= 0 ? dp->clover[hp->clover][b] : NULL, s);
            }
            for (int b = 0; b < p->nblocks && faces; b++) {
                const void *nbr[QF_WILSON_NFACES];
                for (int k = 0; k < QF_WILSON_NFACES; k++) nbr[k] = dp->face[p->neighbour[b][k]];
                memcpy(a.origin, p->block_origin[b], sizeof a.origin);
                qf_wilson_exterior_run_cuda(&a, spinor_of(p, dp, hp->dst, b, it), dp->gauge[b],
                                            hp->x >= 0 ? spinor_of(p, dp, hp->x, b, it) : NULL,
                                            hp->clover >= 0 ? dp->clover[hp->clover][b] : NULL, nbr, s);
            }
        }
}

/* Records `done` on s and polls it until the stream has run up to it: the soonest a host can see a
 * launch end, which a runtime must before it starts the task that depends on it. */
cudaError_t poll_end(cudaStream_t s, cudaEvent_t done)
{
    cudaError_t e = cudaEventRecord(done, s);
    if (e != cudaSuccess) return e;
    while ((e = cudaEventQuery(done)) == cudaErrorNotReady) {
    }
    return e;
}

/* Applications first .. first + n - 1: back to back (done NULL), or each launched once the host has
 * seen the last one end. */
cudaError_t launch_waiting(const qf_direct_plan *p, const device_plan *dp, long first, long n, cudaStream_t s,
                           cudaEvent_t done)
{
    if (!done) {
        launch(p, dp, first, n, s);
        return cudaSuccess;
    }
    for (long it = first; it < first + n; it++) {
        launch(p, dp, it, 1, s);
        cudaError_t e = poll_end(s, done);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" int qf_direct_cuda_run(qf_direct_plan *p, int device, int warmup, int wait_each, double target_s,
                                    long *iters, double *seconds, char *err, size_t errlen)
{
    device_plan dp;
    memset(&dp, 0, sizeof dp);
    dp.nblocks = p->nblocks;
    cudaStream_t s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL, done = NULL;
    int nb = p->nblocks;
    long launched = 0, n = *iters;
    float ms = 0.0f;
    TRY(cudaSetDevice(device));
    for (int k = 0; k < QF_DIRECT_NSPINORS; k++) dp.spinor[k] = (void **)calloc((size_t)nb, sizeof(void *));
    dp.gauge = (void **)calloc((size_t)nb, sizeof(void *));
    for (int k = 0; k < 2; k++)
        if (p->clover[k]) dp.clover[k] = (void **)calloc((size_t)nb, sizeof(void *));
    dp.face = (void **)calloc((size_t)nb * QF_WILSON_NFACES, sizeof(void *));
    if (!dp.spinor[0] || !dp.spinor[1] || !dp.spinor[2] || !dp.gauge || !dp.face || (p->clover[0] && !dp.clover[0]) ||
        (p->clover[1] && !dp.clover[1])) {
        snprintf(err, errlen, "out of host memory");
        goto fail;
    }
    for (int b = 0; b < nb; b++) {
        for (int k = 0; k < QF_DIRECT_NSPINORS; k++) {
            TRY(cudaMalloc(&dp.spinor[k][b], p->spinor_bytes));
            TRY(cudaMemcpy(dp.spinor[k][b], p->spinor[k][b], p->spinor_bytes, cudaMemcpyHostToDevice));
        }
        TRY(cudaMalloc(&dp.gauge[b], p->gauge_bytes));
        TRY(cudaMemcpy(dp.gauge[b], p->gauge[b], p->gauge_bytes, cudaMemcpyHostToDevice));
        for (int k = 0; k < 2; k++)
            if (p->clover[k]) {
                TRY(cudaMalloc(&dp.clover[k][b], p->clover_bytes));
                TRY(cudaMemcpy(dp.clover[k][b], p->clover[k][b], p->clover_bytes, cudaMemcpyHostToDevice));
            }
        for (int k = 0; k < QF_WILSON_NFACES; k++)
            TRY(cudaMalloc(&dp.face[b * QF_WILSON_NFACES + k], p->face_bytes[k / 2] ? p->face_bytes[k / 2] : 64));
    }
    TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    TRY(cudaEventCreate(&e0));
    TRY(cudaEventCreate(&e1));
    if (wait_each) TRY(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));

    /* warmup, then (n <= 0) a probe doubled until it lasts 0.1 s, then the timed run */
    if (warmup > 0) {
        launch(p, &dp, launched, warmup, s);
        launched += warmup;
        TRY(cudaStreamSynchronize(s));
    }
    if (n <= 0) {
        long probe = 1;
        for (;;) {
            TRY(cudaEventRecord(e0, s));
            TRY(launch_waiting(p, &dp, launched, probe, s, done));
            launched += probe;
            TRY(cudaEventRecord(e1, s));
            TRY(cudaEventSynchronize(e1));
            TRY(cudaEventElapsedTime(&ms, e0, e1));
            if (ms >= 100.0f || probe >= (1L << 24)) break;
            probe *= 2;
        }
        double per = 1e-3 * ms / (double)probe;
        n = per > 0 ? (long)ceil(target_s / per) : probe;
        if (n < 1) n = 1;
    }
    TRY(cudaEventRecord(e0, s));
    TRY(launch_waiting(p, &dp, launched, n, s, done));
    launched += n;
    TRY(cudaEventRecord(e1, s));
    TRY(cudaEventSynchronize(e1));
    TRY(cudaGetLastError());
    TRY(cudaEventElapsedTime(&ms, e0, e1));
    *iters = n;
    *seconds = 1e-3 * ms;
    /* the output buffers: the result of the first application when that was the only one */
    for (int b = 0; b < nb; b++)
        TRY(cudaMemcpy(p->spinor[QF_DIRECT_OUT][b], dp.spinor[QF_DIRECT_OUT][b], p->spinor_bytes, cudaMemcpyDeviceToHost));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (done) cudaEventDestroy(done);
    cudaStreamDestroy(s);
    free_device(&dp);
    return 0;
fail:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (done) cudaEventDestroy(done);
    if (s) cudaStreamDestroy(s);
    free_device(&dp);
    return -1;
}

extern "C" int qf_direct_cuda_copy_bandwidth(int device, size_t bytes, double *gbps, char *err, size_t errlen)
{
    void *a = NULL, *b = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float best = 0.0f;
    TRY(cudaSetDevice(device));
    TRY(cudaMalloc(&a, bytes));
    TRY(cudaMalloc(&b, bytes));
    TRY(cudaMemset(a, 1, bytes));
    TRY(cudaMemset(b, 0, bytes));
    TRY(cudaEventCreate(&e0));
    TRY(cudaEventCreate(&e1));
    TRY(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); /* warmup */
    for (int r = 0; r < 10; r++) {
        float ms;
        TRY(cudaEventRecord(e0, 0));
        TRY(cudaMemcpyAsync(r & 1 ? a : b, r & 1 ? b : a, bytes, cudaMemcpyDeviceToDevice, 0));
        TRY(cudaEventRecord(e1, 0));
        TRY(cudaEventSynchronize(e1));
        TRY(cudaEventElapsedTime(&ms, e0, e1));
        if (r == 0 || ms < best) best = ms;
    }
    *gbps = 2.0 * (double)bytes / (1e-3 * best) * 1e-9;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    return 0;
fail:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    return -1;
}

/* The task probe's kernel (codelets/task_probe.cu) n times on one stream of `device`: back to back and
 * waited for once, or each waited for (poll_end) before the next launch. */
extern "C" int qf_direct_cuda_probe(int device, int wait_each, long n, int64_t wait_ns, double *seconds, char *err,
                                    size_t errlen)
{
    double *count = NULL, counted = 0.0;
    cudaStream_t stream = NULL;
    cudaEvent_t done = NULL;
    TRY(cudaSetDevice(device));
    TRY(cudaMalloc(&count, sizeof(double)));
    TRY(cudaMemset(count, 0, sizeof(double)));
    TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    TRY(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    qf_task_probe_run_cuda(count, wait_ns, 0.0, stream); /* warmup: the module loaded, the stream started */
    TRY(cudaStreamSynchronize(stream));
    {
        double t0 = qf_timing_now();
        for (long i = 0; i < n; i++) {
            qf_task_probe_run_cuda(count, wait_ns, (double)(i + 1), stream);
            if (wait_each) TRY(poll_end(stream, done));
        }
        TRY(cudaStreamSynchronize(stream));
        *seconds = qf_timing_now() - t0;
    }
    TRY(cudaMemcpy(&counted, count, sizeof(double), cudaMemcpyDeviceToHost));
    if (counted != (double)(n + 1)) {
        snprintf(err, errlen, "the kernel counted %.0f calls of %ld", counted, n + 1);
        goto fail;
    }
    cudaEventDestroy(done);
    cudaStreamDestroy(stream);
    cudaFree(count);
    return 0;
fail:
    if (done) cudaEventDestroy(done);
    if (stream) cudaStreamDestroy(stream);
    cudaFree(count);
    return -1;
}
