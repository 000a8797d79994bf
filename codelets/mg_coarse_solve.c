/* Codelet mg_coarse_solve: the coarsest multigrid level's solve in one task (kernels/coarse_gcr.h),
 * on the CPU cores, the operator's sites shared among a team of threads (cpu_team.h: the other CPU
 * workers idle through this serial step of the K-cycle) and the vector loops over the even sites'
 * complex numbers on the calling core, or on a GPU (mg_coarse_solve.cu).
 * Buffers: R links, R X^-1, R b, W x, SCRATCH work, RW stats. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/coarse_gcr.h"
#include "mg_coarse_run.h"

#if QF_HAVE_CUDA
void qf_mg_coarse_solve_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const void *links, *xinv;
    qf_precision prec;
} cpu_backend;

typedef struct {
    const cpu_backend *c;
    const qf_coarse_args *a;
    const void *in, *x;
    void *out;
} hop_share;

static void hop_part(void *p, int k, int n)
{
    const hop_share *h = p;
    int64_t first, end;
    qf_cpu_team_share(qf_parity_nsites(h->a->ext, h->a->parity), k, n, &first, &end);
    qf_coarse_interior_range_cpu(h->a, h->in, h->c->links, h->out, h->x, h->c->xinv, first, end);
}

/* Every output site is one thread's alone, so the result is the same for every team size. */
static void cpu_hop(void *ctx, const qf_coarse_args *a, const void *in, void *out, const void *x)
{
    hop_share h = {ctx, a, in, x, out};
    qf_cpu_team_run(hop_part, &h);
}

static void cpu_dots(void *ctx, int m, const void *const *x, const void *const *y, int64_t first, int64_t n, double *out)
{
    const cpu_backend *c = ctx;
    QF_WITH_PRECISION(c->prec, P, {
        for (int k = 0; k < m; k++) {
            double re = 0.0, im = 0.0;
            for (int64_t e = first; e < first + n; e++) {
                double xr = qf_real_get(x[k], P, 2 * e), xi = qf_real_get(x[k], P, 2 * e + 1);
                double yr = qf_real_get(y[k], P, 2 * e), yi = qf_real_get(y[k], P, 2 * e + 1);
                re += xr * yr + xi * yi;
                im += xr * yi - xi * yr;
            }
            out[2 * k] = re;
            out[2 * k + 1] = im;
        }
    });
}

static void cpu_axpys(void *ctx, int m, const double *cf, const void *const *x, void *y, int64_t first, int64_t n)
{
    const cpu_backend *c = ctx;
    QF_WITH_PRECISION(c->prec, P, {
        for (int64_t e = first; e < first + n; e++) {
            double re = qf_real_get(y, P, 2 * e), im = qf_real_get(y, P, 2 * e + 1);
            for (int k = 0; k < m; k++) {
                double xr = qf_real_get(x[k], P, 2 * e), xi = qf_real_get(x[k], P, 2 * e + 1);
                re += cf[2 * k] * xr - cf[2 * k + 1] * xi;
                im += cf[2 * k] * xi + cf[2 * k + 1] * xr;
            }
            qf_real_set(y, P, 2 * e, re);
            qf_real_set(y, P, 2 * e + 1, im);
        }
    });
}

static size_t complex_bytes(const cpu_backend *c) { return 2 * qf_real_size(c->prec); }

static void cpu_copy(void *ctx, void *dst, const void *src, int64_t first, int64_t n)
{
    size_t cb = complex_bytes(ctx);
    memcpy((char *)dst + (size_t)first * cb, (const char *)src + (size_t)first * cb, (size_t)n * cb);
}

static void cpu_zero(void *ctx, void *dst, int64_t first, int64_t n)
{
    size_t cb = complex_bytes(ctx);
    memset((char *)dst + (size_t)first * cb, 0, (size_t)n * cb);
}

static void mg_coarse_solve_cpu(void *buffers[], void *cl_arg)
{
    const qf_coarse_solve_args *a = cl_arg;
    cpu_backend c = {(const void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                     a->prec};
    const qf_coarse_gcr_backend be = {&c, cpu_hop, cpu_dots, cpu_axpys, cpu_copy, cpu_zero};
    double *stats = (double *)STARPU_VARIABLE_GET_PTR(buffers[5]), rel;
    int iterations;
    double t0 = starpu_timing_now();
    qf_coarse_gcr_solve(&be, a, (const void *)STARPU_VECTOR_GET_PTR(buffers[2]), (void *)STARPU_VECTOR_GET_PTR(buffers[3]),
                        (void *)STARPU_VECTOR_GET_PTR(buffers[4]), &iterations, &rel);
    stats[0] += iterations;
    stats[1] += 1e-6 * (starpu_timing_now() - t0);
}

static struct starpu_perfmodel mg_coarse_solve_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_coarse_solve"};

struct starpu_codelet qf_cl_mg_coarse_solve = {
    .name = "mg_coarse_solve",
    .cpu_funcs = {mg_coarse_solve_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_coarse_solve_cuda},
#endif
    .nbuffers = 6,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_RW},
    .model = &mg_coarse_solve_model,
};

size_t qf_coarse_solve_work_doubles(const qf_lattice *lat, int nvec, qf_precision prec, int nkrylov)
{
    /* the solve's fields, then room for a batch of inner products in double */
    size_t field_bytes = (size_t)lat->block_volume * 4 * nvec * qf_real_size(prec);
    return (qf_coarse_gcr_fields(nkrylov) * field_bytes) / sizeof(double) + 2 * QF_COARSE_GCR_MAX_NKRYLOV;
}

int qf_insert_mg_coarse_solve(const qf_field *links, const qf_field *xinv, const qf_field *b, qf_field *x,
                              starpu_data_handle_t work, starpu_data_handle_t stats, int nvec, double tol,
                              int max_iter, int nkrylov)
{
    qf_coarse_solve_args a = {.nvec = nvec, .prec = links->prec, .tol = tol, .max_iter = max_iter, .nkrylov = nkrylov};
    memcpy(a.ext, links->lat->block, sizeof a.ext);
    int ret = QF_TASK_INSERT(&qf_cl_mg_coarse_solve, STARPU_R, qf_field_block(links, 0), STARPU_R,
                             qf_field_block(xinv, 0), STARPU_R, qf_field_block(b, 0), STARPU_W, qf_field_block(x, 0),
                             STARPU_SCRATCH, work, STARPU_RW, stats, STARPU_NAME,
                             a.prec == QF_DOUBLE ? "c_solve:double" : "c_solve:single", QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_coarse_solve");
}
