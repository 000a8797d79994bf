/* qf_half_record_load (reals.h) for one value type, included once per type with QF_HALF_T the type
 * and QF_HALF_LOAD the function's name: the kernels decode into double, the half BLAS records into
 * float. No include guard, on purpose. */

/* n reals off .. off + n - 1 of record i (rec reals a record, layout l) into v. */
static inline QF_HD void QF_HALF_LOAD(const void *base, size_t i, int rec, int off, QF_HALF_T *v, int n, qf_half_layout l)
{
#define QF_HALF_C(k) qf_half_component_ptr(base, i, rec, off + (k), l)
#if defined(__CUDA_ARCH__)
    QF_HALF_T s = (QF_HALF_T)__ldg(qf_half_norm_at(base, i, rec, l)) * (QF_HALF_T)(1.0 / QF_HALF_MAX);
    if (n % 4 == 0 && off % 4 == 0) { /* the components start 8-byte aligned (a record's, or a tile's chunk): 4 a load */
        for (int k = 0; k < n / 4; k++) {
            short4 q = __ldg((const short4 *)QF_HALF_C(4 * k));
            v[4 * k] = q.x * s; v[4 * k + 1] = q.y * s; v[4 * k + 2] = q.z * s; v[4 * k + 3] = q.w * s;
        }
        return;
    }
    if (n % 2 == 0 && off % 2 == 0) {
        for (int k = 0; k < n / 2; k++) {
            short2 q = __ldg((const short2 *)QF_HALF_C(2 * k));
            v[2 * k] = q.x * s; v[2 * k + 1] = q.y * s;
        }
        return;
    }
#else
    QF_HALF_T s = (QF_HALF_T)*qf_half_norm_at(base, i, rec, l) * (QF_HALF_T)(1.0 / QF_HALF_MAX);
#if !defined(__CUDACC__)
    if (n % 4 == 0 && off % 4 == 0) { /* CPUs: a chunk's 4 components (8 bytes in either layout) a vector */
        typedef QF_HALF_T vec4 __attribute__((vector_size(4 * sizeof(QF_HALF_T))));
        typedef int16_t comp4 __attribute__((vector_size(8)));
        typedef int32_t ints4 __attribute__((vector_size(16)));
        for (int k = 0; k < n; k += 4) {
            comp4 q;
            memcpy(&q, QF_HALF_C(k), sizeof q);
            vec4 x = __builtin_convertvector(__builtin_convertvector(q, ints4), vec4) * s;
            memcpy(v + k, &x, sizeof x);
        }
        return;
    }
#endif
#endif
    for (int k = 0; k < n; k++) v[k] = *QF_HALF_C(k) * s;
#undef QF_HALF_C
}
