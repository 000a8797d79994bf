/* Codelet blas_update: the element-wise updates of one block with real or scalar coefficients,
 * y = x (copy), y = a x + b y (axpby), y = a x + b y + s w (axpbypcw), y = y + s c x (caxpy), y = x + s c y (cxpay), c a scalar
 * buffer or the ratio of two, the element-wise products y = w x, y = conj(w) x (mul, conj_mul), and y = x + s c w (xpcw,
 * w a field), over the elements of
 * one parity or of the whole block (kernels/blas.h). With one parity the other half of y keeps its
 * values. STARPU_VARIABLE_NBUFFERS: each distinct operand once (kernels/blas.h's operand table). */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "kernels/blas_units.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_update_cuda(void *buffers[], void *cl_arg);
#endif

/* op and prec are constants at every call, so each loop is specialised */
static inline QF_HD_INLINE void update_loop(int op, qf_precision prec, const qf_blas_args *a, void *y, const void *x,
                                            const void *w, qf_complex c)
{
    for (int64_t u = qf_blas_first_unit(a, prec), end = u + qf_blas_nunits(a, prec); u < end; u++)
        qf_blas_update_unit(op, y, x, w, a->a, a->b, c, u, prec);
}

static inline QF_HD_INLINE void update_block(int op, const qf_blas_args *a, void *y, const void *x, const void *w,
                                             qf_complex c)
{
    QF_WITH_ANY_PRECISION(a->prec, P, update_loop(op, P, a, y, x, w, c));
}

static inline QF_HD_INLINE void update_run(const qf_blas_args *a, void *y, const void *x, const void *w, qf_complex c)
{
    switch (a->op) {
    case QF_BLAS_COPY: update_block(QF_BLAS_COPY, a, y, x, w, c); break;
    case QF_BLAS_AXPBY: update_block(QF_BLAS_AXPBY, a, y, x, w, c); break;
    case QF_BLAS_CAXPY: update_block(QF_BLAS_CAXPY, a, y, x, w, c); break;
    case QF_BLAS_MUL: update_block(QF_BLAS_MUL, a, y, x, w, c); break;
    case QF_BLAS_CONJ_MUL: update_block(QF_BLAS_CONJ_MUL, a, y, x, w, c); break;
    case QF_BLAS_XPCW: update_block(QF_BLAS_XPCW, a, y, x, w, c); break;
    case QF_BLAS_AXPBYPCW: update_block(QF_BLAS_AXPBYPCW, a, y, x, w, c); break;
    default: update_block(QF_BLAS_CXPAY, a, y, x, w, c); break;
    }
}
QF_CPU_VERSIONS(update_run, update_run, (const qf_blas_args *a, void *y, const void *x, const void *w, qf_complex c),
                (a, y, x, w, c))

typedef struct {
    void *y;
    const void *x, *w;
    qf_complex c;
} update_ctx;

static void update_part(void *ctx, const qf_blas_args *part, int chunk)
{
    const update_ctx *u = ctx;
    (void)chunk;
    QF_CPU_CALL(update_run, (part, u->y, u->x, u->w, u->c));
}

static void blas_update_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_args *a = cl_arg;
    update_ctx u = {.y = qf_blas_field_ptr(buffers, a, QF_UPD_Y),
                    .x = qf_blas_field_ptr(buffers, a, QF_UPD_X),
                    .w = qf_blas_field_ptr(buffers, a, QF_UPD_W),
                    .c = qf_blas_update_factor(a, qf_blas_scalar_ptr(buffers, a, QF_UPD_A),
                                               qf_blas_scalar_ptr(buffers, a, QF_UPD_D))};
    qf_blas_team_run(a, update_part, &u);
}

static struct starpu_perfmodel blas_update_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_update", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_update = {
    .name = "blas_update",
    .cpu_funcs = {blas_update_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_update_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_update_model,
};

static int insert(int op, const qf_blas_range *r, const qf_blas_update_operands *o, double a, double b, double s)
{
    qf_blas_args args = {.op = op, .a = a, .b = b, .s = s};
    struct starpu_data_descr ops[5];
    ops[QF_UPD_Y] = o->y;
    ops[QF_UPD_X] = o->x;
    ops[QF_UPD_A] = o->c;
    ops[QF_UPD_W] = o->w;
    ops[QF_UPD_D] = o->d;
    return qf_blas_insert(&qf_cl_blas_update, &args, r, ops, 5);
}

int qf_insert_blas_copy(const qf_blas_range *r, const qf_blas_update_operands *o) { return insert(QF_BLAS_COPY, r, o, 0, 0, 0); }
int qf_insert_blas_axpby(const qf_blas_range *r, const qf_blas_update_operands *o, double a, double b)
{
    return insert(QF_BLAS_AXPBY, r, o, a, b, 0);
}
int qf_insert_blas_caxpy(const qf_blas_range *r, const qf_blas_update_operands *o, double s)
{
    return insert(QF_BLAS_CAXPY, r, o, 0, 0, s);
}
int qf_insert_blas_cxpay(const qf_blas_range *r, const qf_blas_update_operands *o, double s)
{
    return insert(QF_BLAS_CXPAY, r, o, 0, 0, s);
}
int qf_insert_blas_mul(const qf_blas_range *r, const qf_blas_update_operands *o) { return insert(QF_BLAS_MUL, r, o, 0, 0, 0); }
int qf_insert_blas_conj_mul(const qf_blas_range *r, const qf_blas_update_operands *o)
{
    return insert(QF_BLAS_CONJ_MUL, r, o, 0, 0, 0);
}
int qf_insert_blas_axpbypcw(const qf_blas_range *r, const qf_blas_update_operands *o, double a, double b, double c)
{
    return insert(QF_BLAS_AXPBYPCW, r, o, a, b, c);
}
int qf_insert_blas_xpcw(const qf_blas_range *r, const qf_blas_update_operands *o, double s)
{
    return insert(QF_BLAS_XPCW, r, o, 0, 0, s);
}
