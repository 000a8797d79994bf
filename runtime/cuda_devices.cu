/* How many CUDA devices the process can use, asked before StarPU starts: the runtime picks its default
 * scheduling policy from it (runtime.c). A device that cannot be queried counts as none. */
#include <cuda_runtime_api.h>

extern "C" int qf_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no device or no driver: clear the sticky error StarPU would see next */
        return 0;
    }
    return n;
}
