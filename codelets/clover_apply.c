/* Codelet clover_apply: out = a x + b C y on the sites of one parity or on all sites of a block, C a
 * clover field (A or A^-1; kernels/clover.h). With one parity the other half of out keeps its values,
 * hence RW. */
#include "codelets.h"
#include "kernels/simd.h"
#include "cpu_versions.h"
#include "wilson_launch.h"

#if QF_HAVE_CUDA
void qf_clover_apply_cuda(void *buffers[], void *cl_arg);
#endif

/* The sites of the parity (or block) in batches of the fields' precision (kernels/simd.h). */
static inline QF_HD_INLINE void clover_apply_run(const qf_clover_apply_args *a, void *out, const void *x, const void *y,
                                                  const void *clover)
{
    int64_t first = qf_clover_site(a->ext, a->parity, 0), n = qf_clover_nsites(a->ext, a->parity);
    /* the precision a constant in each call, so that the float kind's loads keep one path */
    if (a->prec == QF_SINGLE) qf_clover_axpby_block_f8(out, a->a, x, a->b, clover, y, first, n, QF_SINGLE);
    else if (a->prec == QF_HALF) qf_clover_axpby_block_f8(out, a->a, x, a->b, clover, y, first, n, QF_HALF);
    else qf_clover_axpby_block_d4(out, a->a, x, a->b, clover, y, first, n, QF_DOUBLE);
}
static inline void clover_apply_scalar(const qf_clover_apply_args *a, void *out, const void *x, const void *y,
                                       const void *clover)
{
    for (int64_t i = 0, n = qf_clover_nsites(a->ext, a->parity); i < n; i++)
        qf_clover_axpby_site(out, a->a, x, a->b, clover, y, qf_clover_site(a->ext, a->parity, i), 1, a->prec);
}
QF_CPU_VERSIONS(clover_apply_run, clover_apply_scalar, (const qf_clover_apply_args *a, void *out, const void *x,
                                                        const void *y, const void *clover), (a, out, x, y, clover))

void qf_clover_apply_run_cpu(const qf_clover_apply_args *a, void *out, const void *x, const void *y, const void *clover)
{
    QF_CPU_CALL(clover_apply_run, (a, out, x, y, clover));
}

static void clover_apply_cpu(void *buffers[], void *cl_arg)
{
    qf_clover_apply_run_cpu(cl_arg, (void *)STARPU_VECTOR_GET_PTR(buffers[3]),
                            (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                            (const void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                            (const void *)STARPU_VECTOR_GET_PTR(buffers[0]));
}

/* One parity does half the work of all sites on the same buffers; a == 0 skips x. */
static uint32_t clover_apply_footprint(struct starpu_task *task)
{
    const qf_clover_apply_args *a = task->cl_arg;
    uint32_t kind = (uint32_t)(a->parity >= 0) | (uint32_t)(a->a != 0.0) << 1;
    return starpu_hash_crc32c_be(kind, starpu_task_data_footprint(task));
}

static struct starpu_perfmodel clover_apply_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_clover_apply", .footprint = clover_apply_footprint};

struct starpu_codelet qf_cl_clover_apply = {
    .name = "clover_apply",
    .cpu_funcs = {clover_apply_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_clover_apply_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 4,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_RW},
    .model = &clover_apply_model,
};

int qf_insert_clover_apply(qf_field *out, double a, const qf_field *x, double b, const qf_field *clover,
                           const qf_field *y, int parity, int blk)
{
    qf_clover_apply_args args = {.parity = parity, .a = a, .b = b, .prec = clover->prec};
    memcpy(args.ext, clover->lat->block, sizeof args.ext);
    int ret = QF_TASK_INSERT_BLOCK(clover->lat, blk, &qf_cl_clover_apply, STARPU_R, qf_field_block(clover, blk),
                                   STARPU_R, qf_field_block(x, blk), STARPU_R, qf_field_block(y, blk), STARPU_RW,
                                   qf_field_block(out, blk), QF_ARGS(args), 0);
    return qf_task_check(ret, "clover_apply");
}
