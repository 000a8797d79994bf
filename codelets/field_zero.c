/* Codelet field_zero: a field block set to zero, the init method of scratch blocks (runtime/field.c).
 * StarPU runs it where a scratch block is first read before any task wrote it: a task on one parity
 * (RW: the BLAS and conversions of qf_blas.h and qf_field_convert_parity) of a fresh scratch field
 * then finds zeros on the other parity, as on a field created zeroed, instead of StarPU's abort on
 * reading an uninitialised handle. */
#include "codelets.h"

#include <string.h>

#if QF_HAVE_CUDA
void qf_field_zero_cuda(void *buffers[], void *cl_arg);
#endif

static void field_zero_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    memset((void *)STARPU_VECTOR_GET_PTR(buffers[0]), 0,
           (size_t)STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]));
}

static struct starpu_perfmodel field_zero_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_field_zero"};

struct starpu_codelet qf_cl_field_zero = {
    .name = "field_zero",
    .cpu_funcs = {field_zero_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_field_zero_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 1,
    .modes = {STARPU_W},
    .model = &field_zero_model,
};
