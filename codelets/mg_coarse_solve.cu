/* CUDA implementation of mg_coarse_solve: the solves' loops (kernels/coarse_gcr.h) run on the host of
 * the CUDA worker and launch on the worker's stream the coarse operator's step (mg_coarse_interior's
 * kernel), restriction and prolongation (mg_restrict's and mg_prolong's kernels), batched inner
 * products (a grid row per product; each block's partial sums into the work buffer's reduction space,
 * which the last block to finish adds in a fixed order and hands to the scalars' step that follows,
 * in the same launch), the scalars' steps, and batched updates (one thread per complex number, all
 * terms of the batch at once, the coefficients read from the scalars or passed by value; the GCR's and
 * MR's paired updates in one launch). A coarsest iteration launched 13 kernels and copies, each a few
 * microseconds on a lattice of 128 sites a parity, where its two hops take about 15 each; now 7.
 * The host waits only where it reads |r|^2: every QF_COARSE_GPU_READ_EVERY iterations, at restarts and
 * at each solve's start and end. Synchronous: the task ends with the solve. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/coarse_dense.h"
#include "kernels/coarse_gcr.h"
#include "mg_coarse_run.h"

#define DOT_THREADS 256
/* GCR iterations between the host's reads of |r|^2: a solve may run up to 3 iterations past its
 * tolerance (a coarsest iteration queued without waits costs a few tens of microseconds) */
#define QF_COARSE_GPU_READ_EVERY 4

typedef struct { const void *x[QF_COARSE_GCR_MAX_NKRYLOV], *y[QF_COARSE_GCR_MAX_NKRYLOV]; } dot_operands;
typedef struct { const void *x[QF_COARSE_GCR_MAX_NKRYLOV]; double c[2 * QF_COARSE_GCR_MAX_NKRYLOV]; } axpy_operands;
typedef struct { const void *x1[QF_COARSE_GCR_MAX_NKRYLOV], *x2[QF_COARSE_GCR_MAX_NKRYLOV]; } axpy2_operands;

typedef struct {
    qf_precision prec;
    cudaStream_t stream;
    double *partials; /* the reduction space: QF_COARSE_TASK_DOT_PARTIALS doubles, then the finished blocks */
} cuda_backend;

/* The inner products' blocks (gridDim.x a product, gridDim.y products) write their partial sums; the
 * last to finish adds them in block order into sums, resets the count and runs the scalars' step op. */
template <int P>
static __global__ void __launch_bounds__(DOT_THREADS)
dots_kernel(const __grid_constant__ dot_operands o, int64_t first, int64_t n, double *sums, double *partials, double *s,
            int op, int j, int it)
{
    __shared__ double sre[DOT_THREADS], sim[DOT_THREADS];
    __shared__ int last;
    unsigned *finished = (unsigned *)(partials + QF_COARSE_TASK_DOT_PARTIALS);
    int k = blockIdx.y;
    double re = 0.0, im = 0.0;
    for (int64_t e = first + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < first + n;
         e += (int64_t)gridDim.x * blockDim.x) {
        double xr = qf_real_get(o.x[k], (qf_precision)P, 2 * e), xi = qf_real_get(o.x[k], (qf_precision)P, 2 * e + 1);
        double yr = qf_real_get(o.y[k], (qf_precision)P, 2 * e), yi = qf_real_get(o.y[k], (qf_precision)P, 2 * e + 1);
        re += xr * yr + xi * yi;
        im += xr * yi - xi * yr;
    }
    sre[threadIdx.x] = re;
    sim[threadIdx.x] = im;
    __syncthreads();
    for (int s = DOT_THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            sre[threadIdx.x] += sre[threadIdx.x + s];
            sim[threadIdx.x] += sim[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        double *p = partials + 2 * ((size_t)k * gridDim.x + blockIdx.x);
        p[0] = sre[0];
        p[1] = sim[0];
        __threadfence(); /* the partial sums visible before the count says so */
        last = atomicAdd(finished, 1u) == gridDim.x * gridDim.y - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    for (int v = threadIdx.x; v < 2 * (int)gridDim.y; v += blockDim.x) { /* v: product v / 2, re or im */
        const double *p = partials + (size_t)(v / 2) * 2 * gridDim.x + v % 2;
        double sum = 0.0;
        for (unsigned b = 0; b < gridDim.x; b++) sum += __ldcg(p + 2 * b);
        sums[v] = sum;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        *finished = 0u;
        if (op != QF_GCR_NONE) qf_coarse_gcr_scalars(s, op, j, it);
    }
}

/* y[e] += sum_k c_k x_k[e], k < m */
template <int P>
static __device__ __forceinline__ void axpys_entry(const double *c, const void *const *x, int m, void *y, int64_t e)
{
    double re = qf_real_get(y, (qf_precision)P, 2 * e), im = qf_real_get(y, (qf_precision)P, 2 * e + 1);
    for (int k = 0; k < m; k++) {
        double xr = qf_real_get(x[k], (qf_precision)P, 2 * e), xi = qf_real_get(x[k], (qf_precision)P, 2 * e + 1);
        re += c[2 * k] * xr - c[2 * k + 1] * xi;
        im += c[2 * k] * xi + c[2 * k + 1] * xr;
    }
    qf_real_set(y, (qf_precision)P, 2 * e, re);
    qf_real_set(y, (qf_precision)P, 2 * e + 1, im);
}

/* c from the launch's arguments */
template <int P>
static __global__ void axpys_kernel(const __grid_constant__ axpy_operands o, int m, void *y, int64_t first, int64_t n)
{
    int64_t e = first + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e < first + n) axpys_entry<P>(o.c, o.x, m, y, e);
}

/* two updates, their coefficients in the scalars */
template <int P>
static __global__ void axpys2_kernel(const __grid_constant__ axpy2_operands o, const double *c1, void *y1,
                                     const double *c2, void *y2, int m, int64_t first, int64_t n)
{
    int64_t e = first + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= first + n) return;
    axpys_entry<P>(c1, o.x1, m, y1, e);
    axpys_entry<P>(c2, o.x2, m, y2, e);
}

static __global__ void scalars_kernel(double *s, int op, int j, int it) { qf_coarse_gcr_scalars(s, op, j, it); }

/* out = M in: a warp a row, its lanes striding over the row (qf_schur_inverse_row: consecutive lanes
 * read consecutive entries), the lanes' sums added by shuffles in a fixed order. */
template <int P>
static __global__ void dense_apply_kernel(const void *inv, int64_t n, const void *in, void *out)
{
    int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (i >= n) return;
    qf_complex y = qf_schur_inverse_row((qf_precision)P, inv, n, in, i, lane, 32);
    double re = y.re, im = y.im;
    for (int off = 16; off > 0; off /= 2) {
        re += __shfl_down_sync(0xffffffffu, re, off);
        im += __shfl_down_sync(0xffffffffu, im, off);
    }
    if (lane == 0) {
        qf_real_set(out, (qf_precision)P, 2 * (size_t)i, re);
        qf_real_set(out, (qf_precision)P, 2 * (size_t)i + 1, im);
    }
}

static void cuda_dense_apply(void *ctx, const void *inv, int64_t n, const void *in, void *out)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    int64_t threads = 32 * n;
    QF_WITH_PRECISION(c->prec, P,
                      dense_apply_kernel<P><<<qf_cuda_blocks(threads), QF_CUDA_THREADS, 0, c->stream>>>(inv, n, in, out));
    QF_CUDA_CHECK_LAUNCH();
}

static void cuda_hop(void *ctx, const qf_coarse_args *a, const void *links, const void *xinv, const void *in, void *out,
                     const void *x)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    qf_coarse_interior_run_cuda(a, in, links, out, x, xinv, c->stream);
}

static void cuda_restrict(void *ctx, const qf_mg_restrict_args *a, const void *fine, const void *v, void *coarse)
{
    qf_mg_restrict_run_cuda(a, &fine, &v, coarse, ((const cuda_backend *)ctx)->stream);
}

static void cuda_prolong(void *ctx, const qf_mg_prolong_args *a, const void *coarse, const void *v, void *fine)
{
    qf_mg_prolong_run_cuda(a, coarse, v, fine, ((const cuda_backend *)ctx)->stream);
}

/* A level's seconds end where its work does: a solve starts and ends with a read of |r|^2, which waits
 * for the stream anyway. */
static double cuda_seconds(void *ctx)
{
    cudaError_t st = cudaStreamSynchronize(((const cuda_backend *)ctx)->stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
    return 1e-6 * starpu_timing_now();
}

static void cuda_dots(void *ctx, int m, const void *const *x, const void *const *y, int64_t first, int64_t n, double *d,
                      double *s, int op, int j, int it)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    dot_operands o;
    for (int k = 0; k < m; k++) {
        o.x[k] = x[k];
        o.y[k] = y[k];
    }
    int64_t blocks = (n + DOT_THREADS - 1) / DOT_THREADS;
    dim3 grid((unsigned)(blocks < QF_COARSE_DOT_BLOCKS ? (blocks > 0 ? blocks : 1) : QF_COARSE_DOT_BLOCKS), (unsigned)m);
    QF_WITH_PRECISION(c->prec, P,
                      dots_kernel<P><<<grid, DOT_THREADS, 0, c->stream>>>(o, first, n, d, c->partials, s, op, j, it));
    QF_CUDA_CHECK_LAUNCH();
}

static void cuda_axpys(void *ctx, int m, const double *cf, const void *const *x, void *y, int64_t first, int64_t n)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    if (n <= 0) return;
    axpy_operands o;
    for (int k = 0; k < m; k++) {
        o.x[k] = x[k];
        o.c[2 * k] = cf[2 * k];
        o.c[2 * k + 1] = cf[2 * k + 1];
    }
    QF_WITH_PRECISION(c->prec, P, axpys_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, c->stream>>>(o, m, y, first, n));
    QF_CUDA_CHECK_LAUNCH();
}

static void cuda_axpys2(void *ctx, int m, const double *c1, const void *const *x1, void *y1, const double *c2,
                        const void *const *x2, void *y2, int64_t first, int64_t n)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    if (n <= 0) return;
    axpy2_operands o;
    for (int k = 0; k < m; k++) {
        o.x1[k] = x1[k];
        o.x2[k] = x2[k];
    }
    QF_WITH_PRECISION(c->prec, P,
                      axpys2_kernel<P><<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, c->stream>>>(o, c1, y1, c2, y2, m, first, n));
    QF_CUDA_CHECK_LAUNCH();
}

static void cuda_scalars(void *ctx, double *s, int op, int j, int it)
{
    scalars_kernel<<<1, 1, 0, ((const cuda_backend *)ctx)->stream>>>(s, op, j, it);
    QF_CUDA_CHECK_LAUNCH();
}

static void cuda_read(void *ctx, const double *s, int n, double *out)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    cudaError_t st = cudaMemcpyAsync(out, s, (size_t)n * sizeof *out, cudaMemcpyDeviceToHost, c->stream);
    if (st == cudaSuccess) st = cudaStreamSynchronize(c->stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
}

static size_t complex_bytes(const cuda_backend *c) { return 2 * qf_real_size(c->prec); }

static void cuda_copy(void *ctx, void *dst, const void *src, int64_t first, int64_t n)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    size_t cb = complex_bytes(c);
    cudaError_t st = cudaMemcpyAsync((char *)dst + (size_t)first * cb, (const char *)src + (size_t)first * cb,
                                     (size_t)n * cb, cudaMemcpyDeviceToDevice, c->stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
}

static void cuda_zero(void *ctx, void *dst, int64_t first, int64_t n)
{
    const cuda_backend *c = (const cuda_backend *)ctx;
    size_t cb = complex_bytes(c);
    cudaError_t st = cudaMemsetAsync((char *)dst + (size_t)first * cb, 0, (size_t)n * cb, c->stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
}

/* the stats buffer's increment, on the device */
static __global__ void add_stats_kernel(double *stats, double iterations, double seconds)
{
    stats[0] += iterations;
    stats[1] += seconds;
}

extern "C" void qf_mg_coarse_solve_cuda(void *buffers[], void *cl_arg)
{
    const qf_coarse_solve_args *a = (const qf_coarse_solve_args *)cl_arg;
    STARPU_ASSERT_MSG(a->nkrylov >= 1 && a->nkrylov <= QF_COARSE_GCR_MAX_NKRYLOV, "mg_coarse_solve: nkrylov out of range");
    char *work = (char *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_work_buffer(a)]);
    cuda_backend c = {a->prec, starpu_cuda_get_local_stream(), qf_coarse_task_dot_partials(a, work)};
    /* the scratch buffer comes uninitialised: no block has finished */
    cudaError_t st = cudaMemsetAsync(c.partials + QF_COARSE_TASK_DOT_PARTIALS, 0, sizeof(double), c.stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
    /* in the order of qf_coarse_gcr_backend's members (C++17 has no designated initialisers) */
    const qf_coarse_gcr_backend be = {&c,           cuda_hop,  cuda_dots,     cuda_axpys,   cuda_axpys2,
                                      cuda_scalars, cuda_read, cuda_copy,     cuda_zero,    cuda_restrict,
                                      cuda_prolong, cuda_dense_apply, cuda_seconds, QF_COARSE_GPU_READ_EVERY};
    qf_coarse_task t;
    qf_coarse_task_init(&t, &be, a, (const void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_b_buffer(a)]),
                        (void *)STARPU_VECTOR_GET_PTR(buffers[qf_coarse_task_x_buffer(a)]), work);
    qf_coarse_task_operands(&t, buffers);
    qf_coarse_task_solve(&t, 0);
    for (int i = 0; i < a->nlevels; i++)
        add_stats_kernel<<<1, 1, 0, c.stream>>>((double *)STARPU_VARIABLE_GET_PTR(buffers[qf_coarse_task_stats_buffer(a, i)]),
                                                (double)t.lev[i].iterations, t.lev[i].seconds);
    QF_CUDA_CHECK_LAUNCH();
    st = cudaStreamSynchronize(c.stream);
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
}
