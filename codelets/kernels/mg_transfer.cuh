/* The CUDA loads of restriction and prolongation (mg_restrict.cu, mg_prolong.cu): one complex number of
 * a fine field or of a near-null vector in the arithmetic type T of the kernels, float for single
 * fields, double for double (qf_mg_restrict_entry and qf_mg_prolong_entry define the sums; the CPU
 * schedules keep double). The precisions are template parameters down to the loads, so that a half
 * vector's two 16-bit components and its record's scale are one load each, a single one a float2, and
 * nothing goes through the conversion pipe twice: in double arithmetic every real of the 2.4 GB of a
 * 32^4 level's vectors was converted, the products at the FP64 rate (the same as the coarse operator's
 * warp kernel). */
#ifndef QF_MG_TRANSFER_CUH
#define QF_MG_TRANSFER_CUH

#include "mg.h"

#include <type_traits>

/* Complex numbers a thread of the transfers takes at a fine site: 2 where a chirality's components come
 * in pairs (nsite a multiple of 4: Wilson sites, coarse sites of an even N), with one load each. */
static inline int qf_mg_transfer_grain(int nsite) { return nsite % 4 == 0 ? 2 : 1; }

template <int P>
using qf_mg_real = typename std::conditional<P == QF_DOUBLE, double, float>::type;

template <typename T>
struct qf_mg_cplx {
    T re, im;
};

/* Complex number i of record rec (nsite complex numbers a record) of an array stored in precision PS:
 * a site of a fine field, or vector k at fine site fs (record fs N + k) of the vectors. */
template <typename T, int PS>
static __device__ __forceinline__ qf_mg_cplx<T> qf_mg_load_cplx(const void *base, size_t rec, int nsite, int i)
{
    if constexpr (PS == QF_HALF) {
        const short2 q = __ldg((const short2 *)qf_half_record_ptr(base, rec, 2 * nsite) + i);
        const T s = (T)__ldg(qf_half_norm_at(base, rec, 2 * nsite, QF_HALF_ROWS)) * (T)(1.0 / QF_HALF_MAX);
        return {(T)q.x * s, (T)q.y * s};
    } else if constexpr (PS == QF_SINGLE) {
        const float2 q = __ldg((const float2 *)base + rec * nsite + i);
        return {(T)q.x, (T)q.y};
    } else {
        const double2 q = __ldg((const double2 *)base + rec * nsite + i);
        return {(T)q.x, (T)q.y};
    }
}

/* Complex numbers i and i + 1 (i even) of record rec, as qf_mg_load_cplx: one 8-byte load in half, 16
 * in single. The records' starts and an even i keep the loads aligned (half records are padded to 8
 * bytes, qf_record_bytes; single records of an even count of complex numbers). */
template <typename T, int PS>
static __device__ __forceinline__ void qf_mg_load_cplx2(const void *base, size_t rec, int nsite, int i, qf_mg_cplx<T> &a,
                                                        qf_mg_cplx<T> &b)
{
    if constexpr (PS == QF_HALF) {
        const short4 q = __ldg((const short4 *)qf_half_record_ptr(base, rec, 2 * nsite) + i / 2);
        const T s = (T)__ldg(qf_half_norm_at(base, rec, 2 * nsite, QF_HALF_ROWS)) * (T)(1.0 / QF_HALF_MAX);
        a = {(T)q.x * s, (T)q.y * s};
        b = {(T)q.z * s, (T)q.w * s};
    } else if constexpr (PS == QF_SINGLE) {
        const float4 q = __ldg((const float4 *)base + (rec * nsite + i) / 2);
        a = {(T)q.x, (T)q.y};
        b = {(T)q.z, (T)q.w};
    } else {
        a = qf_mg_load_cplx<T, PS>(base, rec, nsite, i);
        b = qf_mg_load_cplx<T, PS>(base, rec, nsite, i + 1);
    }
}

/* acc += conj(v) x, and acc += v x */
template <typename T>
static __device__ __forceinline__ void qf_mg_conj_madd(qf_mg_cplx<T> &acc, qf_mg_cplx<T> v, qf_mg_cplx<T> x)
{
    acc.re = fma(v.re, x.re, fma(v.im, x.im, acc.re));
    acc.im = fma(v.re, x.im, fma(-v.im, x.re, acc.im));
}
template <typename T>
static __device__ __forceinline__ void qf_mg_madd(qf_mg_cplx<T> &acc, qf_mg_cplx<T> v, qf_mg_cplx<T> x)
{
    acc.re = fma(v.re, x.re, fma(-v.im, x.im, acc.re));
    acc.im = fma(v.re, x.im, fma(v.im, x.re, acc.im));
}

#endif
