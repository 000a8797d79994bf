/* Launch helpers of the CUDA codelets: every kernel runs on the worker's StarPU stream (the codelets
 * are STARPU_CUDA_ASYNC) and every launch is checked. */
#ifndef QF_CUDA_LAUNCH_H
#define QF_CUDA_LAUNCH_H

#include <starpu.h>

#define QF_CUDA_THREADS 128

static inline unsigned qf_cuda_blocks(int64_t n) { return (unsigned)((n + QF_CUDA_THREADS - 1) / QF_CUDA_THREADS); }

#ifdef __CUDACC__
/* Thread blocks of QF_CUDA_THREADS of Kernel that the GPU runs at once: its multiprocessors times the
 * blocks each holds, worked out once a kernel (a template argument, as the kernels of one signature
 * are one type). */
template <auto Kernel> static unsigned qf_cuda_resident_blocks()
{
    static unsigned resident;
    if (!resident) {
        int dev = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, QF_CUDA_THREADS, 0);
        resident = (unsigned)(sms * per_sm);
    }
    return resident;
}
#endif

#define QF_CUDA_CHECK_LAUNCH()                                                                                     \
    do {                                                                                                           \
        cudaError_t qf_status_ = cudaGetLastError();                                                               \
        if (qf_status_ != cudaSuccess) STARPU_CUDA_REPORT_ERROR(qf_status_);                                       \
    } while (0)

#endif
