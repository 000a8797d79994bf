/* Codelet clover_build: the clover term A = 1 + i kappa c_sw sum sigma_munu F_munu and its inverse on
 * every site of one block (kernels/clover.h), with the number of sites where A is not positive
 * definite added into a STARPU_REDUX accumulator. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/clover.h"

#if QF_HAVE_CUDA
void qf_clover_build_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_clover_build_args *a;
    const void *f;
    void *clover, *clover_inv;
    int64_t failed; /* a count: the parts' order does not matter */
} build_job;

static void build_part(void *arg, int64_t first, int64_t end)
{
    build_job *j = arg;
    int64_t failed = 0;
    for (int64_t s = first; s < end; s++)
        failed += qf_clover_build_store_site(j->f, j->a->f_prec, j->clover, j->clover_inv, j->a->prec, s,
                                             j->a->kappa_csw);
    __atomic_fetch_add(&j->failed, failed, __ATOMIC_RELAXED);
}

static void clover_build_cpu(void *buffers[], void *cl_arg)
{
    const qf_clover_build_args *a = cl_arg;
    build_job j = {a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                   (void *)STARPU_VECTOR_GET_PTR(buffers[2]), 0};
    qf_cpu_team_range(a->team, STARPU_VECTOR_GET_NX(buffers[0]), build_part, &j);
    *(double *)STARPU_VARIABLE_GET_PTR(buffers[3]) += (double)j.failed;
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
    qf_clover_build_args args = {
        .kappa_csw = kappa_csw, .f_prec = fmunu->prec, .prec = a->prec, .team = qf_cpu_team_shares(a->lat)};
    memcpy(args.ext, fmunu->lat->block, sizeof args.ext);
    int ret = QF_TASK_INSERT_BLOCK(a->lat, b, &qf_cl_clover_build, STARPU_R, qf_field_block(fmunu, b), STARPU_W,
                                   qf_field_block(a, b), STARPU_W, qf_field_block(ainv, b), failed.mode, failed.handle,
                                   QF_ARGS(args), 0);
    return qf_task_check(ret, "clover_build");
}
