/* Launch helpers of the CUDA codelets: every kernel runs on the worker's StarPU stream (the codelets
 * are STARPU_CUDA_ASYNC) and every launch is checked. */
#ifndef QF_CUDA_LAUNCH_H
#define QF_CUDA_LAUNCH_H

#include <starpu.h>

#define QF_CUDA_THREADS 128

static inline unsigned qf_cuda_blocks(int64_t n) { return (unsigned)((n + QF_CUDA_THREADS - 1) / QF_CUDA_THREADS); }

#define QF_CUDA_CHECK_LAUNCH()                                                                                     \
    do {                                                                                                           \
        cudaError_t qf_status_ = cudaGetLastError();                                                               \
        if (qf_status_ != cudaSuccess) STARPU_CUDA_REPORT_ERROR(qf_status_);                                       \
    } while (0)

#endif
