/* Codelet convert: copies a block into a field of another precision (kernels/convert.h). */
#include "codelets.h"
#include "kernels/convert.h"

#if QF_HAVE_CUDA
void qf_convert_cuda(void *buffers[], void *cl_arg);
#endif

/* Between double and single one typed loop each way, which the compiler vectorises: through
 * qf_convert_item a call and two precision tests a real (3.7% of a 2-core multigrid solve's samples,
 * bench/RESULTS.md). */
static void convert_cpu(void *buffers[], void *cl_arg)
{
    const qf_convert_args *a = cl_arg;
    const void *src = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    void *dst = (void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    int64_t n = qf_convert_count(a);
    if (a->src_prec == QF_DOUBLE && a->dst_prec == QF_SINGLE) {
        const double *restrict s = src;
        float *restrict d = dst;
        for (int64_t i = 0; i < n; i++) d[i] = (float)s[i];
    } else if (a->src_prec == QF_SINGLE && a->dst_prec == QF_DOUBLE) {
        const float *restrict s = src;
        double *restrict d = dst;
        for (int64_t i = 0; i < n; i++) d[i] = s[i];
    } else {
        for (int64_t i = 0; i < n; i++) qf_convert_item(src, dst, a, i);
    }
}

static struct starpu_perfmodel convert_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_convert"};

struct starpu_codelet qf_cl_convert = {
    .name = "convert",
    .cpu_funcs = {convert_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_convert_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_W},
    .model = &convert_model,
};

int qf_insert_convert(qf_field *dst, const qf_field *src, int b)
{
    /* records, not sites: a half field's norms cover records (a coarse link matrix's rows) */
    int rec = qf_field_shape_record_reals(&dst->shape);
    qf_convert_args a = {.nsites = dst->lat->block_volume * (dst->shape.site_reals / rec),
                         .rec = rec,
                         .src_prec = src->prec,
                         .dst_prec = dst->prec};
    int ret = QF_TASK_INSERT_BLOCK(dst->lat, b, &qf_cl_convert, STARPU_R, qf_field_block(src, b), STARPU_W,
                                   qf_field_block(dst, b), QF_ARGS(a), 0);
    return qf_task_check(ret, "convert");
}
