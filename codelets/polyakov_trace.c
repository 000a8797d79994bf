/* Codelet polyakov_trace: adds the sum over a column's spatial sites of (1/3) Tr of the Polyakov line
 * (re, im) into a STARPU_REDUX accumulator. */
#include "codelets.h"
#include "kernels/polyakov.h"

#if QF_HAVE_CUDA
void qf_polyakov_trace_cuda(void *buffers[], void *cl_arg);
#endif

static void polyakov_trace_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    const double *line = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    double re = 0.0, im = 0.0;
    for (int64_t sp = 0; sp < n; sp++) {
        qf_complex t = qf_polyakov_trace_site(line, sp);
        re += t.re;
        im += t.im;
    }
    acc[0] += re;
    acc[1] += im;
}

static struct starpu_perfmodel polyakov_trace_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_polyakov_trace"};

struct starpu_codelet qf_cl_polyakov_trace = {
    .name = "polyakov_trace",
    .cpu_funcs = {polyakov_trace_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_polyakov_trace_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_REDUX},
    .model = &polyakov_trace_model,
};

int qf_insert_polyakov_trace(starpu_data_handle_t line, struct starpu_data_descr sum)
{
    return qf_task_check(QF_TASK_INSERT(&qf_cl_polyakov_trace, STARPU_R, line, sum.mode, sum.handle, 0),
                         "polyakov_trace");
}
