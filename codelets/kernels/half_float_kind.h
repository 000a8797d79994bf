/* The scalar float kind (suffix _sf, kernels/kind.h) on half-precision fields: one site, arithmetic in
 * float, what the CUDA Wilson codelets run on half fields (QUDA computes its half Dslash in float too).
 * A 16-bit component carries 15 bits, so float loses nothing the records keep, and a thread holds its
 * spinors and links in half the registers of the double kind: 96 against 128-166 a thread for the
 * interior hop, no spills, and the H200's 32^4 half Mhat (two-row links) 314 -> 257 us in the direct
 * kernels (bench/RESULTS.md). Single-precision fields stay in the double kind: whole links in float ran
 * 1.23x slower there (437 -> 536 us), two-row links tied. The records' storage is reals.h's (in tiles:
 * these fields hold one record a site); the geometry of the sites is the double kind's (wilson.h). */
#ifndef QF_KERNEL_HALF_FLOAT_KIND_H
#define QF_KERNEL_HALF_FLOAT_KIND_H

#include "wilson.h"

typedef int64_t qf_index_sf;
typedef int qf_mask_sf; /* 1: the one site */
typedef qf_sites qf_sites_sf;

static inline QF_HD int qf_mask_any_sf(qf_mask_sf m) { return m; }
static inline QF_HD qf_mask_sf qf_mask_not_sf(qf_mask_sf m) { return !m; }
static inline QF_HD qf_real_sf qf_real_keep_sf(qf_real_sf v, qf_mask_sf m) { return m ? v : 0.0f; }
static inline QF_HD qf_real_sf qf_real_select_sf(qf_mask_sf m, qf_real_sf v, qf_real_sf w) { return m ? v : w; }

/* The kind's storage precision is half, whatever prec says (as a batch kind's is its own). */
static inline QF_HD_INLINE void qf_record_load_sf(const void *base, qf_precision prec, qf_index_sf i, int rec, int off,
                                                  float *v, int n)
{
    (void)prec;
    qf_half_record_load_f(base, (size_t)i, rec, off, v, n, QF_HALF_TILES);
}

/* Record i whole (off 0, n rec: a half record's norm depends on all its reals), as
 * qf_half_record_store does in double: the largest magnitude, then the components at QF_HALF_MAX / norm. */
static inline QF_HD_INLINE void qf_record_store_sf(void *base, qf_precision prec, qf_index_sf i, int rec, int off,
                                                   const float *v, int n, qf_mask_sf m)
{
    (void)prec, (void)off, (void)n;
    if (!m) return;
    float big = 0.0f;
    int finite = 1;
    for (int k = 0; k < rec; k++) qf_half_extent_f(v[k], &big, &finite);
    float norm = qf_half_norm_f(big, finite);
    qf_half_components_store_f(base, (size_t)i, rec, 0, v, rec, qf_half_components_scale_f(norm), QF_HALF_TILES);
    *(float *)qf_half_norm_at(base, (size_t)i, rec, QF_HALF_TILES) = norm;
}

#define qf_sites_hop_sf qf_sites_hop
#define qf_sites_on_face_sf qf_sites_on_face
#define qf_sites_valid_sf qf_sites_valid
#define qf_sites_face_entry_sf qf_sites_face_entry
#define qf_sites_prefetch_hop_sf qf_sites_prefetch_hop
#define qf_sites_prefetch_sites_sf qf_sites_prefetch_sites

/* Calls the one-site function name (wilson_thread_kind.h) of the kind a CUDA thread computes fields of
 * precision P in (P a constant, CUDA C++): the float kind on half fields, the double kind on the others. */
#define QF_THREAD_SITE_CALL(P, name, ...)                                                                      \
    do {                                                                                                       \
        if constexpr ((P) == QF_HALF) name##_sf(__VA_ARGS__);                                                  \
        else name(__VA_ARGS__);                                                                                \
    } while (0)

#define QF_K(name) name##_sf
#include "spinor_kind.h"
#include "clover_kind.h"
#include "wilson_kind.h"
#include "wilson_thread_kind.h"
#undef QF_K

#endif
