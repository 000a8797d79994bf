/* CUDA implementation of data_publish: one thread stores the values and the stamp into the page-locked
 * slot, which the GPU reaches through unified addressing (kernels/blas.h, qf_publish_store). */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/blas.h"

static __global__ void data_publish_kernel(qf_publish_args a, const double *v) { qf_publish_store(&a, v); }

extern "C" void qf_data_publish_cuda(void *buffers[], void *cl_arg)
{
    data_publish_kernel<<<1, 1, 0, starpu_cuda_get_local_stream()>>>(*(const qf_publish_args *)cl_arg,
                                                                      (const double *)STARPU_VARIABLE_GET_PTR(buffers[0]));
    QF_CUDA_CHECK_LAUNCH();
}

extern "C" qf_publish_slot *qf_publish_slot_alloc(void)
{
    void *p = NULL;
    if (cudaHostAlloc(&p, sizeof(qf_publish_slot), cudaHostAllocPortable | cudaHostAllocMapped) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL; /* the reads acquire instead */
    }
    memset(p, 0, sizeof(qf_publish_slot));
    return (qf_publish_slot *)p;
}

extern "C" void qf_publish_slot_free(qf_publish_slot *slot) { cudaFreeHost(slot); }
