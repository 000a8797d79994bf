/* Codelet field_point: a block of a point source, all zero but one real of one site (kernels/meson.h),
 * written where the block is wanted instead of imported from a host array a solve at a time.
 * Buffers: W block. */
#include "codelets.h"
#include "kernels/meson.h"

#if QF_HAVE_CUDA
void qf_field_point_cuda(void *buffers[], void *cl_arg);
#endif

static void field_point_cpu(void *buffers[], void *cl_arg)
{
    const qf_field_point_args *a = cl_arg;
    void *block = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    memset(block, 0, (size_t)STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]));
    if (a->site >= 0) qf_field_point_store(a, block);
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
    .modes = {STARPU_W},
    .model = &field_point_model,
};

int qf_insert_field_point(qf_field *f, int b, int64_t site, int real)
{
    qf_field_point_args a = {.site = site, .site_reals = f->shape.site_reals, .real = real, .prec = f->prec};
    int ret = QF_TASK_INSERT_BLOCK(f->lat, b, &qf_cl_field_point, STARPU_W, qf_field_block(f, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "field_point");
}
