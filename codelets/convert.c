/* Codelet convert: copies a block into a field of another precision (kernels/convert.h). */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/convert.h"
#include "kernels/face.h"

#if QF_HAVE_CUDA
void qf_convert_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_convert_args *a;
    const void *src;
    void *dst;
} convert_job;

/* Real by real, both precisions made constants (QF_WITH_PRECISION), so that qf_real_get and qf_real_set
 * fold into one typed loop that the compiler vectorises: through qf_convert_item each real was a call
 * and two precision tests (3.7% of a 2-core multigrid solve's samples, bench/RESULTS.md). Half
 * precision goes a record at a time (its norm covers the record). */
static void convert_part(void *arg, int64_t first, int64_t end)
{
    const convert_job *j = arg;
    const qf_convert_args *a = j->a;
    const void *src = j->src;
    void *dst = j->dst;
    first += qf_convert_first(a);
    end += qf_convert_first(a);
    if (qf_convert_by_record(a)) {
        for (int64_t i = first; i < end; i++) qf_convert_item(src, dst, a, i);
        return;
    }
    QF_WITH_PRECISION(a->src_prec, PS, QF_WITH_PRECISION(a->dst_prec, PD, {
        for (int64_t i = first; i < end; i++) qf_real_set(dst, PD, (size_t)i, qf_real_get(src, PS, (size_t)i));
    }));
}

static void convert_cpu(void *buffers[], void *cl_arg)
{
    const qf_convert_args *a = cl_arg;
    convert_job j = {a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (void *)STARPU_VECTOR_GET_PTR(buffers[1])};
    qf_cpu_team_range(a->team, qf_convert_count(a), convert_part, &j);
}

static struct starpu_perfmodel convert_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_convert"};

struct starpu_codelet qf_cl_convert = {
    .name = "convert",
    .cpu_funcs = {convert_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_convert_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* src R, dst W, or RW for one parity (qf_insert_convert) */
    .model = &convert_model,
};

int qf_insert_convert(qf_field *dst, const qf_field *src, int b, int parity)
{
    /* records, not sites: a half field's norms cover records (a coarse link matrix's rows); a block's
     * even sites come before its odd ones */
    int rec = qf_field_shape_record_reals(&dst->shape);
    int64_t per_site = dst->shape.site_reals / rec;
    qf_convert_args a = {.first = qf_parity_site(dst->lat->block, parity, 0) * per_site,
                         .nsites = qf_parity_nsites(dst->lat->block, parity) * per_site,
                         .rec = rec,
                         .src_prec = src->prec,
                         .dst_prec = dst->prec,
                         .layout = qf_field_shape_half_layout(&dst->shape)};
    a.team = qf_cpu_team_shares(dst->lat) && a.nsites * rec >= QF_CPU_TEAM_MIN_REALS;
    /* one parity keeps the other's values, which must then be valid where the task runs */
    struct starpu_data_descr d[2] = {{qf_field_block(src, b), STARPU_R},
                                     {qf_field_block(dst, b), parity < 0 ? STARPU_W : STARPU_RW}};
    uint32_t footprint = starpu_hash_crc32c_be((uint32_t)a.dst_prec, starpu_hash_crc32c_be((uint32_t)a.src_prec, (uint32_t)a.nsites));
    return qf_chain_insert(&qf_cl_convert, dst->lat, b, d, 2, "convert", &a, sizeof a, footprint);
}
