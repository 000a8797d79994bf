/* Codelet field_point: one real of one site of a block set to 1, the rest of the block left as it is:
 * a point source on a field that qf_field_point has zeroed, written where the block lives instead of
 * imported from a host array a solve at a time (kernels/meson.h). Buffers: RW block. */
#include "codelets.h"
#include "kernels/meson.h"

#if QF_HAVE_CUDA
void qf_field_point_cuda(void *buffers[], void *cl_arg);
#endif

static void field_point_cpu(void *buffers[], void *cl_arg)
{
    qf_field_point_store(cl_arg, (void *)STARPU_VECTOR_GET_PTR(buffers[0]));
}

static struct starpu_perfmodel field_point_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_field_point"};

struct starpu_codelet qf_cl_field_point = {
    .name = "field_point",
    .cpu_funcs = {field_point_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_field_point_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 1,
    .modes = {STARPU_RW},
    .model = &field_point_model,
};

int qf_insert_field_point(qf_field *f, int b, int64_t site, int real)
{
    qf_field_point_args a = {.site = site, .site_reals = f->shape.site_reals, .real = real, .prec = f->prec};
    int ret = QF_TASK_INSERT_BLOCK(f->lat, b, &qf_cl_field_point, STARPU_RW, qf_field_block(f, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "field_point");
}
