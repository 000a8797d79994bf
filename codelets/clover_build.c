/* Codelet clover_build: the clover term A = 1 + i kappa c_sw sum sigma_munu F_munu and its inverse on
 * every site of one block (kernels/clover.h), with the number of sites where A is not positive
 * definite added into a STARPU_REDUX accumulator. */
#include "codelets.h"
#include "kernels/clover.h"

#if QF_HAVE_CUDA
void qf_clover_build_cuda(void *buffers[], void *cl_arg);
#endif

static void clover_build_cpu(void *buffers[], void *cl_arg)
{
    const qf_clover_build_args *a = cl_arg;
    const void *f = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *clover = (void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *clover_inv = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    double *acc = (double *)STARPU_VARIABLE_GET_PTR(buffers[3]);
    int64_t n = STARPU_VECTOR_GET_NX(buffers[0]), failed = 0;
    for (int64_t s = 0; s < n; s++)
        failed += qf_clover_build_store_site(f, a->f_prec, clover, clover_inv, a->prec, s, a->kappa_csw);
    acc[0] += (double)failed;
}

static struct starpu_perfmodel clover_build_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_clover_build"};

struct starpu_codelet qf_cl_clover_build = {
    .name = "clover_build",
    .cpu_funcs = {clover_build_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_clover_build_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 4,
    .modes = {STARPU_R, STARPU_W, STARPU_W, STARPU_REDUX},
    .model = &clover_build_model,
};

int qf_insert_clover_build(const qf_field *fmunu, qf_field *a, qf_field *ainv, int b, double kappa_csw,
                           struct starpu_data_descr failed)
{
    qf_clover_build_args args = {.kappa_csw = kappa_csw, .f_prec = fmunu->prec, .prec = a->prec};
    memcpy(args.ext, fmunu->lat->block, sizeof args.ext);
    int ret = QF_TASK_INSERT_BLOCK(a->lat, b, &qf_cl_clover_build, STARPU_R, qf_field_block(fmunu, b), STARPU_W,
                                   qf_field_block(a, b), STARPU_W, qf_field_block(ainv, b), failed.mode, failed.handle,
                                   QF_ARGS(args), 0);
    return qf_task_check(ret, "clover_build");
}
