/* Buffers of the BLAS codelets (blas_update, blas_reduce, blas_multi, blas_cg_update, blas_bicgstab_update,
 * scalar_op, scalar_trisolve), shared by their CPU and CUDA implementations: every operand is found through the
 * argument block's buffer table (kernels/blas.h), so that an operand given twice (the same field or
 * scalar) is one buffer of the task. */
#ifndef QF_BLAS_LAUNCH_H
#define QF_BLAS_LAUNCH_H

#include "codelets.h" /* qf_blas_range */
#include "kernels/blas.h"

#include <starpu.h>

#ifndef __CUDACC__
/* Inserts one task of BLAS codelet cl: operand k of args's table is ops[k] (handle NULL: unused), over
 * r's elements (blas_insert.c). */
int qf_blas_insert(struct starpu_codelet *cl, qf_blas_args *args, const qf_blas_range *r,
                   const struct starpu_data_descr *ops, int nops);
/* ... for a codelet whose argument block, bytes long, starts with its qf_blas_args (blas_shift). */
int qf_blas_insert_args(struct starpu_codelet *cl, qf_blas_args *args, size_t bytes, const qf_blas_range *r,
                        const struct starpu_data_descr *ops, int nops);
#endif

/* The block of field operand k (a vector handle), or NULL when the operation has no such operand. */
static inline void *qf_blas_field_ptr(void *buffers[], const qf_blas_args *a, int k)
{
    return a->buf[k] < 0 ? NULL : (void *)STARPU_VECTOR_GET_PTR(buffers[a->buf[k]]);
}

/* The 2 doubles of scalar operand k (a variable handle), or NULL. */
static inline double *qf_blas_scalar_ptr(void *buffers[], const qf_blas_args *a, int k)
{
    return a->buf[k] < 0 ? NULL : (double *)STARPU_VARIABLE_GET_PTR(buffers[a->buf[k]]);
}

/* The CPU loops that sum over a task's units keep QF_BLAS_LANES partial sums, unit first + k into lane
 * k % QF_BLAS_LANES, and add the lanes in order at the end (qf_blas_lanes_sum): the same result from
 * every CPU version (cpu_versions.h), and loops that vectorise without reassociating a sum. One running
 * sum was a chain of dependent additions: a fifth of a 16^4 multigrid solve's BLAS time on the 2-core
 * VM went to the reductions. */
#define QF_BLAS_LANES 8
/* Runs the statement (the variadic part) for each unit u of [first, end) with its lane j, the main
 * part's lanes a constant. */
#define QF_BLAS_FOR_LANES(first, end, u, j, ...)                                                              \
    do {                                                                                                       \
        int64_t qf_lanes_u = (first), qf_lanes_end = (end);                                                    \
        for (; qf_lanes_u + QF_BLAS_LANES <= qf_lanes_end; qf_lanes_u += QF_BLAS_LANES)                        \
            for (int j = 0; j < QF_BLAS_LANES; j++) {                                                          \
                int64_t u = qf_lanes_u + j;                                                                    \
                __VA_ARGS__;                                                                                   \
            }                                                                                                  \
        for (int j = 0; qf_lanes_u + j < qf_lanes_end; j++) {                                                  \
            int64_t u = qf_lanes_u + j;                                                                        \
            __VA_ARGS__;                                                                                       \
        }                                                                                                      \
    } while (0)
static inline double qf_blas_lanes_sum(const double *lane)
{
    double s = 0.0;
    for (int j = 0; j < QF_BLAS_LANES; j++) s += lane[j];
    return s;
}

/* Stores a task's sum into its result scalar r: added into the STARPU_REDUX copy, or assigned. */
static inline void qf_blas_result(const qf_blas_args *a, double *r, double re, double im)
{
    if (a->assign) r[0] = re, r[1] = im;
    else r[0] += re, r[1] += im;
}

static inline double *qf_scalar_op_ptr(void *buffers[], const qf_scalar_op_args *a, int k)
{
    return a->buf[k] < 0 ? NULL : (double *)STARPU_VARIABLE_GET_PTR(buffers[a->buf[k]]);
}

/* The buffers of scalar_trisolve with m unknowns: c[0 .. m-1], the m (m - 1) / 2 entries of the
 * upper triangle into u, the m divisors into d where has_d (d is not written otherwise), and the
 * status, which it returns. */
static inline double *qf_scalar_trisolve_buffers(void *buffers[], int m, int has_d, double **c, const double **u,
                                                 const double **d)
{
    int nu = m * (m - 1) / 2, nd = has_d ? m : 0;
    for (int i = 0; i < m; i++) c[i] = (double *)STARPU_VARIABLE_GET_PTR(buffers[i]);
    for (int k = 0; k < nu; k++) u[k] = (const double *)STARPU_VARIABLE_GET_PTR(buffers[m + k]);
    for (int k = 0; k < nd; k++) d[k] = (const double *)STARPU_VARIABLE_GET_PTR(buffers[m + nu + k]);
    return (double *)STARPU_VARIABLE_GET_PTR(buffers[m + nu + nd]);
}

#ifdef __CUDACC__
#include "cuda_launch.h"

/* Thread blocks of a launch over n elements: enough to fill the GPU, a grid-stride loop does the rest;
 * reductions take fewer, so that few atomic adds reach the accumulator. */
#define QF_BLAS_UPDATE_BLOCKS 4096u
#define QF_BLAS_REDUCE_BLOCKS 1024u
static inline unsigned qf_blas_cuda_blocks(int64_t n, unsigned max)
{
    unsigned b = qf_cuda_blocks(n);
    return b < max ? b : max;
}

/* Thread blocks of a reduction's launch: QF_BLAS_REDUCE_BLOCKS at most, and no more than the GPU runs at
 * once (qf_cuda_resident_blocks), so that the grid-stride loops' blocks finish together: 1024 blocks of
 * the half BiCGStab update at 5 a multiprocessor ran in 1.55 waves, the second idling 45% of the GPU
 * (ncu: 124 us against 110 at 2 a multiprocessor). */
template <auto Kernel> static unsigned qf_blas_reduce_blocks(int64_t n)
{
    unsigned wave = qf_cuda_resident_blocks<Kernel>();
    return qf_blas_cuda_blocks(n, wave > 0 && wave < QF_BLAS_REDUCE_BLOCKS ? wave : QF_BLAS_REDUCE_BLOCKS);
}

/* The kernels' grid-stride loop: the statement (the variadic part) for each unit u of the task (args a,
 * precision P) that falls to this thread, in the order of qf_blas_unit_order; every lane of a warp takes
 * its turns together, so that a half record's threads meet in its store. */
#define QF_BLAS_CUDA_FOR_UNITS(a, P, u, ...)                                                                   \
    for (int64_t qf_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x,                                        \
                 qf_u0 = qf_blas_first_unit(&(a), (qf_precision)(P)), qf_n = qf_blas_nunits(&(a), (qf_precision)(P)); \
         qf_i < (qf_n + 31) / 32 * 32; qf_i += (int64_t)gridDim.x * blockDim.x) {                              \
        int64_t u = qf_blas_unit_order(qf_i, (qf_precision)(P));                                               \
        if (u < qf_n) {                                                                                        \
            u += qf_u0;                                                                                        \
            __VA_ARGS__;                                                                                       \
        }                                                                                                      \
    }

/* A result scalar the task assigns starts at zero, as the kernels add into it. */
static inline void qf_blas_result_clear(const qf_blas_args *a, double *r, cudaStream_t stream)
{
    if (a->assign) cudaMemsetAsync(r, 0, 2 * sizeof(double), stream);
}

/* Sums the N values v of every thread of the block (blockDim.x == QF_CUDA_THREADS) in shared memory
 * and adds the block's sum k into *dest(k) with one atomic add each. */
template <int N, class Dest>
static __device__ __forceinline__ void qf_blas_block_add_at(const double (&v)[N], Dest dest)
{
    __shared__ double partial[N][QF_CUDA_THREADS];
    for (int k = 0; k < N; k++) partial[k][threadIdx.x] = v[k];
    __syncthreads();
    for (int stride = QF_CUDA_THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            for (int k = 0; k < N; k++) partial[k][threadIdx.x] += partial[k][threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < N) atomicAdd(dest((int)threadIdx.x), partial[threadIdx.x][0]);
}
/* ... into acc[0 .. N-1] */
template <int N> static __device__ __forceinline__ void qf_blas_block_add(const double (&v)[N], double *acc)
{
    qf_blas_block_add_at<N>(v, [acc](int k) { return acc + k; });
}
#else
/* What distinguishes a field codelet's work on the same buffers, hashed onto seed: the operation and
 * the number of elements visited (one parity does half the work of all sites on the same buffers). */
static inline uint32_t qf_blas_args_footprint(const qf_blas_args *a, uint32_t seed)
{
    uint32_t h = starpu_hash_crc32c_be((uint32_t)a->op, seed);
    h = starpu_hash_crc32c_be((uint32_t)a->n, h);
    return starpu_hash_crc32c_be((uint32_t)(a->b != 0.0), h);
}
/* Performance-model footprint of the field codelets: the buffers' sizes and the above. */
static inline uint32_t qf_blas_footprint(struct starpu_task *task)
{
    return qf_blas_args_footprint((const qf_blas_args *)task->cl_arg, starpu_task_data_footprint(task));
}
#endif

#endif
