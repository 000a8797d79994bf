/* Codelet mg_coarse_solve: the coarsest multigrid level's solve in one task (kernels/coarse_gcr.h),
 * on the CPU cores, the operator's sites shared among a team of threads (cpu_team.h: the other CPU
 * workers idle through this serial step of the K-cycle) and the vector loops over the even sites'
 * complex numbers on the calling core, or on a GPU (mg_coarse_solve.cu).
 * Buffers: R links, R X^-1, R b, W x, SCRATCH work, RW stats. */
#include "codelets.h"
#include "cpu_team.h"
#include "cpu_versions.h"
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

/* The GCR's vector loops over the even sites' complex numbers, a block of LANES at a time: each sum
 * kept lane by lane in double (the axpys' per complex number, the dots' per lane, the lanes added in
 * order at the end), so that the loops vectorise over the block without reassociating a sum, and are
 * compiled per CPU version (cpu_versions.h). With 24-48 search directions they were a quarter of the
 * coarse solve's time as scalar loops. */
enum { LANES = 8 };

/* re[j], im[j] += conj(x[e + j]) y[e + j] for j < len, len at most LANES (a constant in the loop's main
 * part). */
static inline QF_HD_INLINE void dot_lanes(qf_precision P, const void *x, const void *y, int64_t e, int len, double *re,
                                          double *im)
{
    for (int j = 0; j < len; j++) {
        double xr = qf_real_get(x, P, 2 * (e + j)), xi = qf_real_get(x, P, 2 * (e + j) + 1);
        double yr = qf_real_get(y, P, 2 * (e + j)), yi = qf_real_get(y, P, 2 * (e + j) + 1);
        re[j] += xr * yr + xi * yi;
        im[j] += xr * yi - xi * yr;
    }
}

static inline QF_HD_INLINE void dots_run(qf_precision prec, int m, const void *const *x, const void *const *y,
                                         int64_t first, int64_t n, double *out)
{
    QF_WITH_PRECISION(prec, P, {
        for (int k = 0; k < m; k++) {
            double re[LANES] = {0}, im[LANES] = {0};
            int64_t e = first, end = first + n;
            for (; e + LANES <= end; e += LANES) dot_lanes(P, x[k], y[k], e, LANES, re, im);
            if (e < end) dot_lanes(P, x[k], y[k], e, (int)(end - e), re, im);
            double sr = 0.0, si = 0.0;
            for (int j = 0; j < LANES; j++) {
                sr += re[j];
                si += im[j];
            }
            out[2 * k] = sr;
            out[2 * k + 1] = si;
        }
    });
}
QF_CPU_VERSIONS(dots_run, dots_run,
                (qf_precision prec, int m, const void *const *x, const void *const *y, int64_t first, int64_t n,
                 double *out),
                (prec, m, x, y, first, n, out))

/* y[e] += sum_k c_k x_k[e] for complex numbers e .. e + len - 1, len at most LANES (a constant in the
 * loop's main part). */
static inline QF_HD_INLINE void axpys_lanes(qf_precision P, int m, const double *cf, const void *const *x, void *y,
                                            int64_t e, int len)
{
    double re[LANES], im[LANES];
    for (int j = 0; j < len; j++) {
        re[j] = qf_real_get(y, P, 2 * (e + j));
        im[j] = qf_real_get(y, P, 2 * (e + j) + 1);
    }
    for (int k = 0; k < m; k++) {
        double cr = cf[2 * k], ci = cf[2 * k + 1];
        for (int j = 0; j < len; j++) {
            double xr = qf_real_get(x[k], P, 2 * (e + j)), xi = qf_real_get(x[k], P, 2 * (e + j) + 1);
            re[j] += cr * xr - ci * xi;
            im[j] += cr * xi + ci * xr;
        }
    }
    for (int j = 0; j < len; j++) {
        qf_real_set(y, P, 2 * (e + j), re[j]);
        qf_real_set(y, P, 2 * (e + j) + 1, im[j]);
    }
}

static inline QF_HD_INLINE void axpys_run(qf_precision prec, int m, const double *cf, const void *const *x, void *y,
                                          int64_t first, int64_t n)
{
    QF_WITH_PRECISION(prec, P, {
        int64_t e = first, end = first + n;
        for (; e + LANES <= end; e += LANES) axpys_lanes(P, m, cf, x, y, e, LANES);
        if (e < end) axpys_lanes(P, m, cf, x, y, e, (int)(end - e));
    });
}
QF_CPU_VERSIONS(axpys_run, axpys_run,
                (qf_precision prec, int m, const double *cf, const void *const *x, void *y, int64_t first,
                 int64_t n),
                (prec, m, cf, x, y, first, n))

static void cpu_dots(void *ctx, int m, const void *const *x, const void *const *y, int64_t first, int64_t n, double *out)
{
    const cpu_backend *c = ctx;
    QF_CPU_CALL(dots_run, (c->prec, m, x, y, first, n, out));
}

static void cpu_axpys(void *ctx, int m, const double *cf, const void *const *x, void *y, int64_t first, int64_t n)
{
    const cpu_backend *c = ctx;
    QF_CPU_CALL(axpys_run, (c->prec, m, cf, x, y, first, n));
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
