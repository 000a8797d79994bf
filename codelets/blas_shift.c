/* Codelet blas_shift: multi-shift CG's updates of up to QF_BLAS_MULTI_MAX shifts on one block in one
 * pass over the shared residual r, x_k = x_k + a_k p_k and then p_k = z_k r + b_k p_k (kernels/blas.h),
 * over the elements of one parity or of the whole block, double or single precision. Two axpbys a
 * shift read r once a shift and each p_k twice, each a task of its own (on a GPU a launch: 22 an
 * iteration for 12 masses). STARPU_VARIABLE_NBUFFERS: r, the x_k, the p_k (the table in the arguments,
 * qf_blas_shift_args). */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "cpu_versions.h"

#if QF_HAVE_CUDA
void qf_blas_shift_cuda(void *buffers[], void *cl_arg);
#endif

/* The CPU loop takes the block a tile of elements at a time, every shift against the tile of r while it
 * is in the L1 cache. */
#define SHIFT_TILE 256

static inline QF_HD_INLINE void shift_loop(qf_precision prec, const qf_blas_shift_args *s, const void *r, void *const *x,
                                           void *const *p)
{
    int64_t first = s->base.first, end = first + s->base.n;
    for (int64_t t = first; t < end; t += SHIFT_TILE) {
        int64_t t_end = t + SHIFT_TILE < end ? t + SHIFT_TILE : end;
        for (int k = 0; k < s->base.nvec; k++) {
            void *xk = x[k], *pk = p[k];
            double a = s->a[k], z = s->z[k], b = s->b[k];
            for (int64_t i = t; i < t_end; i++) qf_blas_shift_elem(qf_blas_load(r, prec, i), xk, pk, a, z, b, i, prec);
        }
    }
}

static inline QF_HD_INLINE void shift_run(const qf_blas_shift_args *s, const void *r, void *const *x, void *const *p)
{
    QF_WITH_PRECISION(s->base.prec, P, shift_loop(P, s, r, x, p));
}
QF_CPU_VERSIONS(shift_run, shift_run, (const qf_blas_shift_args *s, const void *r, void *const *x, void *const *p),
                (s, r, x, p))

typedef struct {
    const qf_blas_shift_args *s;
    const void *r;
    void *const *x, *const *p;
} shift_ctx;

static void shift_part(void *ctx, const qf_blas_args *part, int chunk)
{
    const shift_ctx *c = ctx;
    qf_blas_shift_args s = *c->s;
    (void)chunk;
    s.base = *part;
    QF_CPU_CALL(shift_run, (&s, c->r, c->x, c->p));
}

static void blas_shift_cpu(void *buffers[], void *cl_arg)
{
    const qf_blas_shift_args *s = cl_arg;
    void *x[QF_BLAS_MULTI_MAX], *p[QF_BLAS_MULTI_MAX];
    for (int k = 0; k < s->base.nvec; k++) {
        x[k] = qf_blas_field_ptr(buffers, &s->base, QF_SHIFT_X + k);
        p[k] = qf_blas_field_ptr(buffers, &s->base, QF_SHIFT_P + k);
    }
    shift_ctx c = {s, qf_blas_field_ptr(buffers, &s->base, QF_SHIFT_R), x, p};
    qf_blas_team_run(&s->base, shift_part, &c);
}

static struct starpu_perfmodel blas_shift_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_shift", .footprint = qf_blas_footprint};

struct starpu_codelet qf_cl_blas_shift = {
    .name = "blas_shift",
    .cpu_funcs = {blas_shift_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_blas_shift_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_shift_model,
};

int qf_insert_blas_shift(const qf_blas_range *r, int nvec, const struct starpu_data_descr *ops, const double *a,
                         const double *z, const double *b)
{
    if (nvec < 1 || nvec > QF_BLAS_MULTI_MAX)
        return qf_fail("blas_shift: %d shifts in one task (1 to %d)", nvec, QF_BLAS_MULTI_MAX);
    if (r->prec == QF_HALF) return qf_fail("blas_shift on half-precision fields: multi-shift CG iterates in double or single");
    qf_blas_shift_args s = {.base = {.nvec = nvec}};
    for (int k = 0; k < nvec; k++) s.a[k] = a[k], s.z[k] = z[k], s.b[k] = b[k];
    return qf_blas_insert_args(&qf_cl_blas_shift, &s.base, sizeof s, r, ops, 1 + 2 * QF_BLAS_MULTI_MAX);
}
