/* Codelet blas_multi: nvec fields x_k (at most QF_BLAS_MULTI_MAX) against one field y in one pass over
 * y, over the elements of one parity or of the whole block (kernels/blas.h): the inner products r_k =
 * <x_k, y> in double (multi_dot, into STARPU_REDUX scalars or assigned with one block), or y = y + s
 * sum_k c_k x_k, c_k = a_k or a_k / d_k worked out in the task (multi_caxpy). A block of classical
 * Gram-Schmidt is one of each, where modified Gram-Schmidt takes a dot and an update a vector, each a
 * pass over y. STARPU_VARIABLE_NBUFFERS: each distinct operand once (kernels/blas.h's QF_MULTI_*
 * table). */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "kernels/blas_units.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_multi_cuda(void *buffers[], void *cl_arg);
#endif

/* The CPU loops take the block a tile of elements at a time, every x_k against the tile of y while it
 * is in the L1 cache: each x_k's loop vectorises as blas_reduce's and blas_update's do, and y is read
 * (and written) once from memory. A multiple of QF_BLAS_LANES, so that element u sums into lane
 * (u - first) % QF_BLAS_LANES in every tile, as blas_reduce sums. */
#define MULTI_TILE 256

static inline QF_HD_INLINE void multi_dot_loop(qf_precision prec, const qf_blas_args *a, const qf_blas_multi_fields *x,
                                               const void *y, double dot[][2])
{
    double re[QF_BLAS_MULTI_MAX][QF_BLAS_LANES] = {{0}}, im[QF_BLAS_MULTI_MAX][QF_BLAS_LANES] = {{0}};
    int64_t first = qf_blas_first_unit(a, prec), end = first + qf_blas_nunits(a, prec);
    int nv = a->nvec;
    if (prec == QF_HALF) { /* a unit is a record: the lane sums start from the record's lane */
        QF_BLAS_FOR_LANES(first, end, u, j, {
            double d[QF_BLAS_MULTI_MAX][2];
            for (int k = 0; k < nv; k++) d[k][0] = re[k][j], d[k][1] = im[k][j];
            qf_blas_multi_dot_unit(nv, x, y, u, prec, d);
            for (int k = 0; k < nv; k++) re[k][j] = d[k][0], im[k][j] = d[k][1];
        });
    } else {
        for (int64_t t = first; t < end; t += MULTI_TILE) {
            int64_t t_end = t + MULTI_TILE < end ? t + MULTI_TILE : end;
            for (int k = 0; k < nv; k++) {
                const void *xk = x->x[k];
                double *rk = re[k], *ik = im[k];
                QF_BLAS_FOR_LANES(t, t_end, u, j, {
                    qf_complex v = qf_blas_reduce_elem(QF_BLAS_DOT, xk, y, u, prec);
                    rk[j] += v.re;
                    ik[j] += v.im;
                });
            }
        }
    }
    for (int k = 0; k < nv; k++) dot[k][0] = qf_blas_lanes_sum(re[k]), dot[k][1] = qf_blas_lanes_sum(im[k]);
}

static inline QF_HD_INLINE void multi_caxpy_loop(qf_precision prec, const qf_blas_args *a, const qf_blas_multi_fields *x,
                                                 void *y, const qf_complex *c)
{
    int64_t first = qf_blas_first_unit(a, prec), end = first + qf_blas_nunits(a, prec);
    int nv = a->nvec;
    if (prec == QF_HALF) {
        for (int64_t u = first; u < end; u++) qf_blas_multi_caxpy_unit(nv, y, x, c, u, prec);
        return;
    }
    double acc_re[MULTI_TILE], acc_im[MULTI_TILE];
    for (int64_t t = first; t < end; t += MULTI_TILE) {
        int m = (int)(t + MULTI_TILE < end ? MULTI_TILE : end - t);
        for (int i = 0; i < m; i++) {
            qf_complex v = qf_blas_load(y, prec, t + i);
            acc_re[i] = v.re, acc_im[i] = v.im;
        }
        for (int k = 0; k < nv; k++) {
            const void *xk = x->x[k];
            for (int i = 0; i < m; i++) {
                qf_complex v = qf_blas_caxpy_value(qf_cmake(acc_re[i], acc_im[i]), c[k], qf_blas_load(xk, prec, t + i));
                acc_re[i] = v.re, acc_im[i] = v.im;
            }
        }
        for (int i = 0; i < m; i++) qf_blas_store(y, prec, t + i, qf_cmake(acc_re[i], acc_im[i]));
    }
}

static inline QF_HD_INLINE void multi_run(const qf_blas_args *a, const qf_blas_multi_fields *x, void *y,
                                          const qf_complex *c, double dot[][2])
{
    if (a->op == QF_BLAS_MULTI_DOT) QF_WITH_ANY_PRECISION(a->prec, P, multi_dot_loop(P, a, x, y, dot));
    else QF_WITH_ANY_PRECISION(a->prec, P, multi_caxpy_loop(P, a, x, y, c));
}
QF_CPU_VERSIONS(multi_run, multi_run,
                (const qf_blas_args *a, const qf_blas_multi_fields *x, void *y, const qf_complex *c, double dot[][2]),
                (a, x, y, c, dot))

typedef struct {
    qf_blas_multi_fields x;
    void *y;
    qf_complex c[QF_BLAS_MULTI_MAX];
    double dot[QF_BLAS_TEAM_CHUNKS][QF_BLAS_MULTI_MAX][2];
} multi_ctx;

static void multi_part(void *ctx, const qf_blas_args *part, int chunk)
{
    multi_ctx *m = ctx;
    QF_CPU_CALL(multi_run, (part, &m->x, m->y, m->c, m->dot[chunk]));
}

static void blas_multi_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    multi_ctx m = {.y = qf_blas_field_ptr(buffers, a, QF_MULTI_Y)};
    for (int k = 0; k < a->nvec; k++) {
        m.x.x[k] = qf_blas_field_ptr(buffers, a, QF_MULTI_X + k);
        if (a->op == QF_BLAS_MULTI_CAXPY)
            m.c[k] = qf_blas_update_coefficient(a->s, qf_blas_scalar_ptr(buffers, a, QF_MULTI_A + k),
                                                qf_blas_scalar_ptr(buffers, a, QF_MULTI_D + k));
    }
    qf_blas_team_run(a, multi_part, &m);
    const double *d = &m.dot[0][0][0];
    if (a->op == QF_BLAS_MULTI_DOT)
        for (int k = 0; k < a->nvec; k++)
            qf_blas_result(a, qf_blas_scalar_ptr(buffers, a, QF_MULTI_A + k),
                           qf_blas_chunks_sum(a, d, 2 * QF_BLAS_MULTI_MAX, 2 * k),
                           qf_blas_chunks_sum(a, d, 2 * QF_BLAS_MULTI_MAX, 2 * k + 1));
}

static struct starpu_perfmodel blas_multi_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_multi", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_multi = {
    .name = "blas_multi",
    .cpu_funcs = {blas_multi_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_multi_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_multi_model,
};

static int insert(int op, const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops, double s)
{
    if (nvec < 1 || nvec > QF_BLAS_MULTI_MAX)
        return qf_fail("blas_multi: %d fields in one task (1 to %d)", nvec, QF_BLAS_MULTI_MAX);
    qf_blas_args args = {.op = op, .nvec = nvec, .s = s};
    return qf_blas_insert(&qf_cl_blas_multi, &args, r, ops, QF_BLAS_MAX_OPERANDS);
}

int qf_insert_blas_multi_dot(const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops)
{
    return insert(QF_BLAS_MULTI_DOT, r, nvec, ops, 0.0);
}
int qf_insert_blas_multi_caxpy(const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops, double s)
{
    return insert(QF_BLAS_MULTI_CAXPY, r, nvec, ops, s);
}
