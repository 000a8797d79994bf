/* Codelet mg_coarse_solve: the coarse multigrid levels' solves in one task (kernels/coarse_gcr.h): the
 * coarsest level's, or a coarse level's with the K-cycle of the levels below it inside. On the CPU
 * cores the operators', restriction's and prolongation's sites are shared among a team of threads
 * (cpu_team.h: the other CPU workers idle through this serial step of the K-cycle) and the vector
 * loops run on the calling core; or on a GPU (mg_coarse_solve.cu). Buffers: kernels/coarse_gcr.h. */
#include "codelets.h"
#include "cpu_versions.h"
#include "cpu_team.h"
#include "kernels/coarse_dense.h"
#include "kernels/coarse_gcr.h"
#include "mg_coarse_run.h"

#if QF_HAVE_CUDA
void qf_mg_coarse_solve_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    qf_precision prec;
} cpu_backend;

static void cpu_hop(void *ctx, const qf_coarse_args *a, const void *links, const void *xinv, const void *in, void *out,
                    const void *x)
{
    (void)ctx;
    qf_coarse_interior_team_cpu(a, in, links, out, x, xinv);
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

static void cpu_dots(void *ctx, int m, const void *const *x, const void *const *y, int64_t first, int64_t n, double *out,
                     double *s, int op, int j, int it)
{
    const cpu_backend *c = ctx;
    QF_CPU_CALL(dots_run, (c->prec, m, x, y, first, n, out));
    if (op != QF_GCR_NONE) qf_coarse_gcr_scalars(s, op, j, it);
}

static void cpu_axpys(void *ctx, int m, const double *cf, const void *const *x, void *y, int64_t first, int64_t n)
{
    const cpu_backend *c = ctx;
    QF_CPU_CALL(axpys_run, (c->prec, m, cf, x, y, first, n));
}

static void cpu_axpys2(void *ctx, int m, const double *c1, const void *const *x1, void *y1, const double *c2,
                       const void *const *x2, void *y2, int64_t first, int64_t n)
{
    cpu_axpys(ctx, m, c1, x1, y1, first, n);
    cpu_axpys(ctx, m, c2, x2, y2, first, n);
}

/* The scalars are in host memory: formed and read in place. */
static void cpu_scalars(void *ctx, double *s, int op, int j, int it)
{
    (void)ctx;
    qf_coarse_gcr_scalars(s, op, j, it);
}

static void cpu_read(void *ctx, const double *s, int n, double *out)
{
    (void)ctx;
    memcpy(out, s, (size_t)n * sizeof *out);
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

static void cpu_restrict(void *ctx, const qf_mg_restrict_args *a, const void *fine, const void *v, void *coarse)
{
    (void)ctx;
    qf_mg_restrict_run_cpu(a, &fine, &v, coarse);
}

static void cpu_prolong(void *ctx, const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine)
{
    (void)ctx;
    qf_mg_prolong_run_cpu(a, coarse, v, fine);
}

/* The rows shared among the CPU team (cpu_team.h), each summed by one thread in a fixed order. */
typedef struct {
    qf_precision prec;
    const void *inv, *in;
    void *out;
    int64_t n;
} dense_share;

static void dense_part(void *arg, int64_t first, int64_t end)
{
    const dense_share *d = arg;
    for (int64_t i = first; i < end; i++) {
        qf_complex y = qf_schur_inverse_row(d->prec, d->inv, d->n, d->in, i, 0, 1);
        qf_real_set(d->out, d->prec, 2 * (size_t)i, y.re);
        qf_real_set(d->out, d->prec, 2 * (size_t)i + 1, y.im);
    }
}

static void cpu_dense_apply(void *ctx, const void *inv, int64_t n, const void *in, void *out)
{
    dense_share d = {((const cpu_backend *)ctx)->prec, inv, in, out, n};
    qf_cpu_team_range(1, n, dense_part, &d);
}

static double cpu_seconds(void *ctx)
{
    (void)ctx;
    return 1e-6 * starpu_timing_now();
}

static void mg_coarse_solve_cpu(void *buffers[], void *cl_arg)
{
    const qf_coarse_solve_args *a = cl_arg;
    cpu_backend c = {a->prec};
    const qf_coarse_gcr_backend be = {.ctx = &c,
                                      .hop = cpu_hop,
                                      .dots = cpu_dots,
                                      .axpys = cpu_axpys,
                                      .axpys2_at = cpu_axpys2,
                                      .scalars = cpu_scalars,
                                      .read = cpu_read,
                                      .copy = cpu_copy,
                                      .zero = cpu_zero,
                                      .restrict_to = cpu_restrict,
                                      .prolong = cpu_prolong,
                                      .dense_apply = cpu_dense_apply,
                                      .seconds = cpu_seconds,
                                      .read_every = 1}; /* a read costs nothing here */
    qf_coarse_task t;
    qf_coarse_task_init(&t, &be, a, (const void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_b_buffer(a)]),
                        (void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_x_buffer(a)]),
                        (void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_work_buffer(a)]));
    qf_coarse_task_operands(&t, buffers);
    qf_coarse_task_solve(&t, 0);
    for (int i = 0; i < a->nlevels; i++) {
        double *stats = (double *)STARPU_VARIABLE_GET_PTR(buffers[qf_coarse_task_stats_buffer(a, i)]);
        stats[0] += (double)t.lev[i].iterations;
        stats[1] += t.lev[i].seconds;
    }
}

static struct starpu_perfmodel mg_coarse_solve_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_coarse_solve"};

struct starpu_codelet qf_cl_mg_coarse_solve = {
    .name = "mg_coarse_solve",
    .cpu_funcs = {mg_coarse_solve_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_coarse_solve_cuda},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_coarse_solve_model,
};

/* The task's arguments; v and agg name the transfers between consecutive levels. */
static qf_coarse_solve_args solve_args(int nlevels, const qf_field *const *links, const int *nvec,
                                       const qf_field *const *v, const int (*agg)[QF_NDIM],
                                       const qf_coarse_solve_params *p)
{
    qf_coarse_solve_args a;
    memset(&a, 0, sizeof a);
    a.nlevels = nlevels;
    a.prec = p->prec;
    a.tol = p->tol;
    a.max_iter = p->max_iter;
    a.nkrylov = p->nkrylov;
    a.smoother_steps = p->smoother_steps;
    a.dense = p->dense != NULL;
    for (int i = 0; i < nlevels; i++) {
        memcpy(a.ext[i], links[i]->lat->block, sizeof a.ext[i]);
        a.nvec[i] = nvec[i];
        a.link_prec[i] = links[i]->prec;
    }
    for (int i = 0; i + 1 < nlevels; i++) {
        const qf_lattice *cl = links[i + 1]->lat;
        qf_mg_restrict_args *r = &a.restrict_args[i];
        qf_mg_prolong_args *pr = &a.prolong_args[i];
        r->g = pr->g = qf_mg_transfer_geom(v[i], agg[i], nvec[i + 1]);
        qf_lattice_coarse_ratio(cl, v[i]->lat, r->ratio);
        r->nfine = 1;
        r->team = 1;
        memcpy(r->cext, cl->block, sizeof r->cext);
        memcpy(pr->cext, cl->block, sizeof pr->cext);
        qf_lattice_coarse_block_of(cl, v[i]->lat, 0, pr->pos);
    }
    return a;
}

size_t qf_coarse_solve_work_doubles(int nlevels, const qf_field *const *links, const int *nvec,
                                    const qf_coarse_solve_params *p)
{
    qf_coarse_solve_args a = {.nlevels = nlevels, .prec = p->prec, .nkrylov = p->nkrylov};
    for (int i = 0; i < nlevels; i++) {
        memcpy(a.ext[i], links[i]->lat->block, sizeof a.ext[i]);
        a.nvec[i] = nvec[i];
    }
    return qf_coarse_task_work_doubles(&a);
}

int qf_insert_mg_coarse_solve(int nlevels, const qf_field *const *links, const qf_field *const *xinv, const int *nvec,
                              const qf_field *const *v, const int (*agg)[QF_NDIM], const qf_field *b, qf_field *x,
                              starpu_data_handle_t work, const starpu_data_handle_t *stats,
                              const qf_coarse_solve_params *p)
{
    STARPU_ASSERT_MSG(nlevels >= 1 && nlevels <= QF_COARSE_TASK_MAX_LEVELS, "mg_coarse_solve: levels out of range");
    qf_coarse_solve_args a = solve_args(nlevels, links, nvec, v, agg, p);
    struct starpu_data_descr d[4 * QF_COARSE_TASK_MAX_LEVELS + 3];
    for (int i = 0; i < nlevels; i++) {
        d[qf_coarse_task_links_buffer(i)] = (struct starpu_data_descr){qf_field_block(links[i], 0), STARPU_R};
        d[qf_coarse_task_xinv_buffer(i)] = (struct starpu_data_descr){qf_field_block(xinv[i], 0), STARPU_R};
        d[qf_coarse_task_stats_buffer(&a, i)] = (struct starpu_data_descr){stats[i], STARPU_RW};
        if (i < nlevels - 1)
            d[qf_coarse_task_v_buffer(&a, i)] = (struct starpu_data_descr){qf_field_block(v[i], 0), STARPU_R};
    }
    d[qf_coarse_task_b_buffer(&a)] = (struct starpu_data_descr){qf_field_block(b, 0), STARPU_R};
    d[qf_coarse_task_x_buffer(&a)] = (struct starpu_data_descr){qf_field_block(x, 0), STARPU_W};
    d[qf_coarse_task_work_buffer(&a)] = (struct starpu_data_descr){work, STARPU_SCRATCH};
    if (a.dense) d[qf_coarse_task_dense_buffer(&a)] = (struct starpu_data_descr){p->dense, STARPU_R};
    int ret = QF_TASK_INSERT(&qf_cl_mg_coarse_solve, STARPU_DATA_MODE_ARRAY, d, qf_coarse_task_nbuffers(&a),
                             STARPU_NAME,
                             nlevels > 1 ? (a.prec == QF_DOUBLE ? "c_cycle:double" : "c_cycle:single")
                                         : (a.prec == QF_DOUBLE ? "c_solve:double" : "c_solve:single"),
                             QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_coarse_solve");
}
