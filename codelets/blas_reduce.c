/* Codelet blas_reduce: adds |x|^2 (norm2), <x, y> = sum conj(x) y (dot), or both (dot into r, norm
 * into r2) over the elements of one parity or of the whole block, in double whatever the fields'
 * precision, into STARPU_REDUX scalars (2 doubles, re and im), or assigns them (one block).
 * STARPU_VARIABLE_NBUFFERS: x, then y unless it is x (or norm2), then r, then r2. */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "kernels/blas_units.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_reduce_cuda(void *buffers[], void *cl_arg);
#endif

/* The sums of one task, lane by lane (blas_launch.h): <x, y> or |x|^2 in dot, and |x|^2 in norm for
 * QF_BLAS_DOT_NORM2. */
static inline QF_HD_INLINE void reduce_loop(int op, qf_precision prec, const qf_blas_args *a, const void *x,
                                            const void *y, double dot[2], double *norm)
{
    double re[QF_BLAS_LANES] = {0}, im[QF_BLAS_LANES] = {0}, nn[QF_BLAS_LANES] = {0};
    int64_t first = qf_blas_first_unit(a, prec);
    QF_BLAS_FOR_LANES(first, first + qf_blas_nunits(a, prec), u, j, {
        double d[2] = {re[j], im[j]};
        qf_blas_reduce_unit(op, x, y, u, prec, d, &nn[j]);
        re[j] = d[0], im[j] = d[1];
    });
    dot[0] = qf_blas_lanes_sum(re);
    dot[1] = qf_blas_lanes_sum(im);
    *norm = qf_blas_lanes_sum(nn);
}

static inline QF_HD_INLINE void reduce_run(int op, qf_precision prec, const qf_blas_args *a, const void *x,
                                           const void *y, double dot[2], double *norm)
{
    QF_WITH_ANY_PRECISION(prec, P, reduce_loop(op, P, a, x, y, dot, norm));
}
QF_CPU_VERSIONS(reduce_run, reduce_run,
                (int op, qf_precision prec, const qf_blas_args *a, const void *x, const void *y, double dot[2],
                 double *norm),
                (op, prec, a, x, y, dot, norm))

typedef struct {
    const void *x, *y;
    double sums[QF_BLAS_TEAM_CHUNKS][3]; /* a chunk's dot (re, im) and norm */
} reduce_ctx;

static void reduce_part(void *ctx, const qf_blas_args *part, int chunk)
{
    reduce_ctx *r = ctx;
    double *s = r->sums[chunk];
    QF_CPU_CALL(reduce_run, (part->op, part->prec, part, r->x, r->y, s, &s[2]));
}

static void blas_reduce_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    reduce_ctx r = {.x = qf_blas_field_ptr(buffers, a, QF_RED_X), .y = qf_blas_field_ptr(buffers, a, QF_RED_Y)};
    if (!r.y) r.y = r.x;
    qf_blas_team_run(a, reduce_part, &r);
    const double *s = &r.sums[0][0];
    qf_blas_result(a, qf_blas_scalar_ptr(buffers, a, QF_RED_R), qf_blas_chunks_sum(a, s, 3, 0), qf_blas_chunks_sum(a, s, 3, 1));
    if (a->op == QF_BLAS_DOT_NORM2)
        qf_blas_result(a, qf_blas_scalar_ptr(buffers, a, QF_RED_R2), qf_blas_chunks_sum(a, s, 3, 2), 0.0);
}

static struct starpu_perfmodel blas_reduce_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_reduce", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_reduce = {
    .name = "blas_reduce",
    .cpu_funcs = {blas_reduce_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_reduce_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_reduce_model,
};

static int insert(int op, const qf_blas_range *r, const qf_blas_reduce_operands *o)
{
    qf_blas_args args = {.op = op};
    struct starpu_data_descr ops[4];
    ops[QF_RED_X] = o->x;
    ops[QF_RED_Y] = o->y;
    ops[QF_RED_R] = o->r;
    ops[QF_RED_R2] = o->r2;
    return qf_blas_insert(&qf_cl_blas_reduce, &args, r, ops, 4);
}

int qf_insert_blas_norm2(const qf_blas_range *r, const qf_blas_reduce_operands *o) { return insert(QF_BLAS_NORM2, r, o); }
int qf_insert_blas_dot(const qf_blas_range *r, const qf_blas_reduce_operands *o) { return insert(QF_BLAS_DOT, r, o); }
int qf_insert_blas_dot_norm2(const qf_blas_range *r, const qf_blas_reduce_operands *o)
{
    return insert(QF_BLAS_DOT_NORM2, r, o);
}
