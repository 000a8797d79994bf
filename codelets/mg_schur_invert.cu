/* CUDA implementation of mg_schur_invert. The Schur complement Ahat (kernels/coarse_dense.h) is
 * assembled column-major in double, a thread block for each pair of even sites; cuBLAS, on the
 * worker's stream, then forms B = Ahat^dagger Ahat, which is Hermitian positive definite, so that
 * Gauss-Jordan elimination needs no pivoting across panels, and inverts B in place in panels of
 * QF_SCHUR_PANEL: with K the panel's rows and columns and D = B_KK^-1 (one thread block,
 * qf_invert_block),
 *
 *   B_Kj <- D B_Kj,   B_ij <- B_ij - B_iK B_Kj (i not in K),   B_iK <- -B_iK D (i not in K),   B_KK <- D,
 *
 * the middle step one ZGEMM of n x n x QF_SCHUR_PANEL, so that the 8 n^3 flops of the inversion run in
 * cuBLAS's GEMM. Then Ahat^-1 = B^-1 Ahat^dagger (one more ZGEMM), its check on the test vector (two
 * ZGEMVs), and its rounding to prec, transposed to the row-major inverse the coarse solve reads. B's
 * condition number is Ahat's squared: in double that leaves Ahat^-1 good to about 1e-16 cond(Ahat)^2,
 * which the check measures. Synchronous: the task ends with the stream. */
#include "codelets.h"
#include "cuda_launch.h"
#include "kernels/coarse_dense.h"
#include "kernels/invert_block.cuh"

#include <cublas_v2.h>
#include <starpu_cublas_v2.h>

/* W_d(V/2 + o)_kc for thread t = ((o 8 + d) 2N + k) 2N + c: W's own offset */
static __global__ void schur_w_kernel(qf_schur_dense_args a, const void *links, const void *xinv, qf_complex *wm,
                                      int64_t count)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    int n2 = 2 * a.nvec, c = (int)(t % n2), k = (int)(t / n2 % n2), d = (int)(t / ((int64_t)n2 * n2) % QF_NDIRS);
    int64_t o = t / ((int64_t)n2 * n2 * QF_NDIRS);
    wm[t] = qf_schur_w_entry(&a, links, xinv, o, d, k, c);
}

/* Block (s, z): the (2N)^2 entries joining even sites s and z, into the column-major matrix m */
static __global__ void schur_assemble_kernel(qf_schur_dense_args a, const void *links, const qf_complex *wm,
                                             qf_complex *m, int64_t n)
{
    __shared__ int d[QF_SCHUR_MAX_PAIRS];
    __shared__ size_t w[QF_SCHUR_MAX_PAIRS];
    __shared__ int np;
    int64_t s = blockIdx.x, z = blockIdx.y;
    int n2 = 2 * a.nvec;
    if (threadIdx.x == 0) np = qf_schur_pairs(&a, s, z, d, w);
    __syncthreads();
    for (int e = threadIdx.x; e < n2 * n2; e += blockDim.x) {
        int r = e % n2, c = e / n2;
        m[(size_t)(z * n2 + c) * (size_t)n + (size_t)(s * n2 + r)] = qf_schur_dense_entry(&a, links, wm, s, z, r, c, np, d, w);
    }
}

/* The kb x kb panel d inverted into dinv (kernels/invert_block.cuh; column-major storage read as
 * row-major is the transpose, whose inverse is the transposed inverse); a singular panel sets *bad. */
static __global__ void panel_invert_kernel(qf_complex *d, qf_complex *dinv, int kb, double *bad)
{
    if (qf_invert_block(d, dinv, kb) && threadIdx.x == 0) *bad = 1.0;
}

static __global__ void schur_test_kernel(qf_complex *v, int64_t n)
{
    int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) v[j] = qf_schur_test_entry(j);
}

/* *check = |u - v| / |v| (u = Ahat Ahat^-1 v), or infinite after a bad pivot or on a number that is not
 * finite; one block */
static __global__ void schur_check_kernel(const qf_complex *u, const qf_complex *v, int64_t n, const double *bad,
                                          double *check)
{
    __shared__ double srr[QF_CUDA_THREADS], svv[QF_CUDA_THREADS];
    double rr = 0.0, vv = 0.0;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
        rr += qf_cnorm2(qf_csub(u[j], v[j]));
        vv += qf_cnorm2(v[j]);
    }
    srr[threadIdx.x] = rr;
    svv[threadIdx.x] = vv;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s) {
            srr[threadIdx.x] += srr[threadIdx.x + s];
            svv[threadIdx.x] += svv[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) *check = *bad != 0.0 || !isfinite(srr[0]) ? INFINITY : sqrt(srr[0] / svv[0]);
}

/* out[i n + j] = d[i + j n] in P */
template <int P>
static __global__ void schur_store_kernel(const qf_complex *d, void *out, int64_t n)
{
    int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= n * n) return;
    qf_complex x = d[(size_t)(e % n) * (size_t)n + (size_t)(e / n)];
    qf_real_set(out, (qf_precision)P, 2 * (size_t)e, x.re);
    qf_real_set(out, (qf_precision)P, 2 * (size_t)e + 1, x.im);
}

static void cublas_check(cublasStatus_t st)
{
    if (st != CUBLAS_STATUS_SUCCESS) STARPU_CUBLAS_REPORT_ERROR(st);
}

static void cuda_check(cudaError_t st)
{
    if (st != cudaSuccess) STARPU_CUDA_REPORT_ERROR(st);
}

extern "C" void qf_mg_schur_invert_cuda(void *buffers[], void *cl_arg)
{
    const qf_schur_dense_args *a = (const qf_schur_dense_args *)cl_arg;
    const void *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *xinv = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *inv = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    qf_complex *wm = (qf_complex *)STARPU_VECTOR_GET_PTR(buffers[3]);
    double *check = (double *)STARPU_VARIABLE_GET_PTR(buffers[4]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cublasHandle_t h = starpu_cublas_get_local_handle();
    cublas_check(cublasSetStream(h, stream));
    const int64_t half = qf_volume(a->ext) / 2, n = qf_schur_dense_dim(a);
    const int nb = QF_SCHUR_PANEL, ni = (int)n;
    const size_t nn = (size_t)n * (size_t)n, cb = sizeof(qf_complex);
    qf_complex *m = wm + qf_schur_w_count(a), *b = m + nn, *inverse = b + nn, *cp = inverse + nn,
               *rp = cp + (size_t)n * nb, *panel = rp + (size_t)n * nb, *dk = panel + (size_t)nb * nb,
               *v = dk + (size_t)nb * nb, *t = v + n, *u = t + n;
    double *bad = (double *)(u + n);
    cuda_check(cudaMemsetAsync(bad, 0, sizeof(double), stream));
    int64_t nw = (int64_t)qf_schur_w_count(a);
    schur_w_kernel<<<qf_cuda_blocks(nw), QF_CUDA_THREADS, 0, stream>>>(*a, links, xinv, wm, nw);
    QF_CUDA_CHECK_LAUNCH();
    schur_assemble_kernel<<<dim3((unsigned)half, (unsigned)half), QF_CUDA_THREADS, 0, stream>>>(*a, links, wm, m, n);
    QF_CUDA_CHECK_LAUNCH();

    const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0}, minus_one = {-1.0, 0.0};
    cuDoubleComplex *M = (cuDoubleComplex *)m, *B = (cuDoubleComplex *)b, *I = (cuDoubleComplex *)inverse,
                    *CP = (cuDoubleComplex *)cp, *RP = (cuDoubleComplex *)rp, *DK = (cuDoubleComplex *)dk;
    cublas_check(cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, ni, ni, ni, &one, M, ni, M, ni, &zero, B, ni));
    for (int k0 = 0; k0 < ni; k0 += nb) {
        int kb = ni - k0 < nb ? ni - k0 : nb;
        cuDoubleComplex *bk = B + k0, *bcol = B + (size_t)k0 * ni;
        cuda_check(cudaMemcpy2DAsync(panel, kb * cb, bcol + k0, ni * cb, kb * cb, kb, cudaMemcpyDeviceToDevice, stream));
        panel_invert_kernel<<<1, 2 * nb, 0, stream>>>(panel, dk, kb, bad);
        QF_CUDA_CHECK_LAUNCH();
        cuda_check(cudaMemcpyAsync(CP, bcol, (size_t)ni * kb * cb, cudaMemcpyDeviceToDevice, stream));
        cuda_check(cudaMemset2DAsync(CP + k0, ni * cb, 0, kb * cb, kb, stream)); /* B_KK's rows stay out */
        cublas_check(cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, kb, ni, kb, &one, DK, kb, bk, ni, &zero, RP, kb));
        cublas_check(cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, kb, &minus_one, CP, ni, RP, kb, &one, B, ni));
        cuda_check(cudaMemcpy2DAsync(bk, ni * cb, RP, kb * cb, kb * cb, ni, cudaMemcpyDeviceToDevice, stream));
        cublas_check(cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, kb, kb, &minus_one, CP, ni, DK, kb, &zero, bcol, ni));
        cuda_check(cudaMemcpy2DAsync(bcol + k0, ni * cb, DK, kb * cb, kb * cb, kb, cudaMemcpyDeviceToDevice, stream));
    }
    cublas_check(cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, ni, ni, ni, &one, B, ni, M, ni, &zero, I, ni));

    schur_test_kernel<<<qf_cuda_blocks(n), QF_CUDA_THREADS, 0, stream>>>(v, n);
    QF_CUDA_CHECK_LAUNCH();
    cublas_check(cublasZgemv(h, CUBLAS_OP_N, ni, ni, &one, I, ni, (cuDoubleComplex *)v, 1, &zero, (cuDoubleComplex *)t, 1));
    cublas_check(cublasZgemv(h, CUBLAS_OP_N, ni, ni, &one, M, ni, (cuDoubleComplex *)t, 1, &zero, (cuDoubleComplex *)u, 1));
    schur_check_kernel<<<1, QF_CUDA_THREADS, 0, stream>>>(u, v, n, bad, check);
    QF_CUDA_CHECK_LAUNCH();
    QF_WITH_PRECISION(a->prec, P,
                      schur_store_kernel<P><<<qf_cuda_blocks((int64_t)nn), QF_CUDA_THREADS, 0, stream>>>(inverse, inv, n));
    QF_CUDA_CHECK_LAUNCH();
    cuda_check(cudaStreamSynchronize(stream));
}
