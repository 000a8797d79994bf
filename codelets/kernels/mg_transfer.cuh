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
        const T s = (T)__ldg(qf_half_norm_at(base, rec, 2 * nsite)) * (T)(1.0 / QF_HALF_MAX);
        return {(T)q.x * s, (T)q.y * s};
    } else if constexpr (PS == QF_SINGLE) {
        const float2 q = __ldg((const float2 *)base + rec * nsite + i);
        return {(T)q.x, (T)q.y};
    } else {
        const double2 q = __ldg((const double2 *)base + rec * nsite + i);
        return {(T)q.x, (T)q.y};
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
