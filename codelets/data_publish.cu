/* CUDA implementation of data_publish: one thread writes the values into the page-locked slot, which
 * the GPU reaches through unified addressing, then, after a system-wide fence, the stamp. */
#include "codelets.h"
#include "cuda_launch.h"

static __global__ void data_publish_kernel(qf_publish_slot *slot, const double *v, int n, uint64_t seq)
{
    for (int i = 0; i < n; i++) slot->values[i] = v[i];
    __threadfence_system();
    *(volatile uint64_t *)&slot->seq = seq;
}

extern "C" void qf_data_publish_cuda(void *buffers[], void *cl_arg)
{
    const qf_publish_args *a = (const qf_publish_args *)cl_arg;
    data_publish_kernel<<<1, 1, 0, starpu_cuda_get_local_stream()>>>(
        a->slot, (const double *)STARPU_VARIABLE_GET_PTR(buffers[0]), a->n, a->seq);
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
