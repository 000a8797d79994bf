/* qf_mg_invert (kernels/mg.h) as a thread block's schedule on a GPU: Gauss-Jordan elimination with
 * partial pivoting of the n x n row-major complex doubles m into inv, a thread a column of [m | 1] (at
 * least 2 n threads, n at most 2 QF_MG_MAX_NVEC), with the serial code's operations in its order, so
 * that both give the same bits. Used for the coarse local terms (mg_assemble.cu) and the panels of the
 * dense Schur inverse (mg_schur_invert.cu). Every thread of the block calls it; it returns, the same in
 * every thread, 1 when a pivot falls below 1e-14 of the largest entry (singular), else 0. */
#ifndef QF_INVERT_BLOCK_CUH
#define QF_INVERT_BLOCK_CUH

#include "mg.h"

static __device__ int qf_invert_block(qf_complex *m, qf_complex *inv, int n)
{
    __shared__ qf_complex f[2 * QF_MG_MAX_NVEC], dinv;
    __shared__ int pivot, singular;
    __shared__ double scale;
    int j = threadIdx.x, own = j < 2 * n;
    qf_complex *a = j < n ? m + j : inv + (j - n); /* the thread's column: a[i * n] is row i */
    if (j >= n && own)
        for (int i = 0; i < n; i++) a[(size_t)i * n] = qf_cmake(i == j - n ? 1.0 : 0.0, 0.0);
    if (j == 0) {
        double sc = 0.0;
        for (int i = 0; i < n * n; i++) sc = fmax(sc, qf_cnorm2(m[i]));
        scale = sc;
        singular = 0;
    }
    __syncthreads();
    for (int col = 0; col < n; col++) {
        if (j == 0) {
            int p = col;
            for (int i = col + 1; i < n; i++)
                if (qf_cnorm2(m[(size_t)i * n + col]) > qf_cnorm2(m[(size_t)p * n + col])) p = i;
            pivot = p;
            singular = !(qf_cnorm2(m[(size_t)p * n + col]) > 1e-28 * scale);
        }
        __syncthreads();
        if (singular) break;
        if (own && pivot != col) {
            qf_complex t = a[(size_t)pivot * n];
            a[(size_t)pivot * n] = a[(size_t)col * n];
            a[(size_t)col * n] = t;
        }
        __syncthreads();
        if (j == 0) {
            qf_complex d = m[(size_t)col * n + col];
            double dn = qf_cnorm2(d);
            dinv = qf_cmake(d.re / dn, -d.im / dn);
        }
        __syncthreads();
        if (j < n) f[j] = m[(size_t)j * n + col]; /* column col before its row is scaled */
        __syncthreads();
        if (own) {
            qf_complex r = qf_cmul(a[(size_t)col * n], dinv);
            a[(size_t)col * n] = r;
            for (int i = 0; i < n; i++) {
                if (i == col || (f[i].re == 0.0 && f[i].im == 0.0)) continue;
                a[(size_t)i * n] = qf_csub(a[(size_t)i * n], qf_cmul(f[i], r));
            }
        }
        __syncthreads();
    }
    int result = singular;
    __syncthreads(); /* the flag read before a next call's thread 0 resets it */
    return result;
}

#endif
