/* Codelet gauge_compress: a block's links, whole, into the compressed records the Dirac kernels
 * rebuild them from (qf_recon), in the destination's precision. */
#include "codelets.h"
#include "kernels/convert.h"

#if QF_HAVE_CUDA
void qf_gauge_compress_cuda(void *buffers[], void *cl_arg);
#endif

static void gauge_compress_cpu(void *buffers[], void *cl_arg)
{
    const qf_gauge_compress_args *a = cl_arg;
    const void *src = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *dst = (void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    for (int64_t s = 0; s < a->nsites; s++) qf_gauge_compress_site(src, dst, a, s);
}

static struct starpu_perfmodel gauge_compress_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_gauge_compress"};

struct starpu_codelet qf_cl_gauge_compress = {
    .name = "gauge_compress",
    .cpu_funcs = {gauge_compress_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_gauge_compress_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &gauge_compress_model,
};

int qf_insert_gauge_compress(qf_field *dst, const qf_field *src, int b)
{
    qf_gauge_compress_args a = {.nsites = dst->lat->block_volume,
                                .src_prec = src->prec,
                                .dst_prec = dst->prec,
                                .recon = qf_field_shape_recon(&dst->shape)};
    int ret = QF_TASK_INSERT_BLOCK(dst->lat, b, &qf_cl_gauge_compress, STARPU_R, qf_field_block(src, b), STARPU_W,
                                   qf_field_block(dst, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "gauge_compress");
}
