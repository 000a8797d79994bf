/* Codelet scalar_trisolve: back substitution of a unit upper-triangular system on qf_scalar variables
 * (kernels/blas.h) as one task, so that a method that needs one (GCR's implicit solution update at a
 * restart) neither reads its coefficients on the host nor submits a task for each.
 * STARPU_VARIABLE_NBUFFERS: RW c_0 .. c_{m-1}, R the strict upper triangle row by row, R the row
 * divisors d_0 .. d_{m-1} where given, W status. */
#include "codelets.h"
#include "blas_launch.h"

#if QF_HAVE_CUDA
void qf_scalar_trisolve_cuda(void *buffers[], void *cl_arg);
#endif

static void scalar_trisolve_cpu(void *buffers[], void *cl_arg)
{
    const qf_scalar_trisolve_args *a = cl_arg;
    double *c[QF_TRISOLVE_MAX_M];
    const double *u[QF_TRISOLVE_MAX_M * (QF_TRISOLVE_MAX_M - 1) / 2], *d[QF_TRISOLVE_MAX_M];
    double *status = qf_scalar_trisolve_buffers(buffers, a->m, a->has_d, c, u, d);
    qf_scalar_trisolve_apply(a->m, c, u, a->has_d ? d : NULL, status);
}

static struct starpu_perfmodel scalar_trisolve_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_scalar_trisolve"};

struct starpu_codelet qf_cl_scalar_trisolve = {
    .name = "scalar_trisolve",
    .cpu_funcs = {scalar_trisolve_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_scalar_trisolve_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &scalar_trisolve_model,
};

int qf_scalar_trisolve_max_order(void) { return QF_TRISOLVE_MAX_M; }

int qf_insert_scalar_trisolve(int m, int has_d, const struct starpu_data_descr *d)
{
    qf_scalar_trisolve_args args = {.m = m, .has_d = has_d};
    int n = m + m * (m - 1) / 2 + (has_d ? m : 0) + 1;
    return qf_task_check(QF_TASK_INSERT_LATENCY(&qf_cl_scalar_trisolve, STARPU_DATA_MODE_ARRAY, d, n, QF_ARGS(args), 0),
                         "scalar_trisolve");
}
