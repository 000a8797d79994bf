/* Site kinds. The site kernels of the Wilson-clover operator (spinor_kind.h, clover_kind.h,
 * wilson_kind.h) are written once, against a kind, and included once per kind. A kind is the real
 * type the kernels compute in and the number of sites (lanes) one call works on:
 *
 *   - the scalar kind (no suffix; this file): one site, arithmetic in double whatever the storage
 *     precision. The CUDA codelets use it, one thread per site, and so does the CPU codelets'
 *     version for a baseline x86-64 without 256-bit registers (kernels/simd.h);
 *   - the scalar float kind (_sf, half_float_kind.h): one site in float, on half fields, for the CUDA
 *     Wilson codelets;
 *   - the batch kinds of kernels/simd.h: _f8, 8 sites in float, and _d4, 4 sites in double, one site
 *     a lane of a GNU C vector. The CPU codelets use _f8 on single and half fields and _d4 on double
 *     ones, vectorised across sites over the ordinary site layout (records are transposed as they
 *     are loaded; half records are widened to float, simd_kind.h).
 *
 * A template names everything through QF_K(name), which the includer defines as name with the
 * kind's suffix pasted on. Before the templates, a kind provides under its suffix:
 *
 *   qf_real                the real type, qf_real_from(d) a double parameter in every lane;
 *   qf_complex, qf_su3     complex numbers (complex_kind.h) and 3x3 complex matrices;
 *   qf_index               a record index a lane; every lane names a record of the field, also
 *                          the lanes outside a mask (their loads are harmless, stores skip them);
 *   qf_mask                a set of lanes: qf_mask_any(m), qf_mask_not(m), qf_real_keep(v, m),
 *                          v in the lanes of m and 0 in the others, and qf_real_select(m, v, w), v
 *                          in the lanes of m and w in the others;
 *   qf_record_load(base, prec, i, rec, off, v, n)     v[k] = real off + k of record i, for a field
 *                          of records of rec reals in precision prec (batch kinds: their own);
 *   qf_record_store(base, prec, i, rec, off, v, n, m) the reverse, for the lanes in m only (whole
 *                          records in half precision, whose norm depends on all their reals);
 *   qf_sites               the output sites of one call with their block coordinates, and the
 *                          geometry on them that wilson_kind.h uses (wilson.h: qf_sites_valid,
 *                          qf_sites_hop, qf_sites_on_face, qf_sites_face_entry).
 *
 * This file sets up the scalar kind. */
#ifndef QF_KERNEL_KIND_H
#define QF_KERNEL_KIND_H

#include "qf_complex.h"
#include "reals.h"

typedef int64_t qf_index;
typedef int qf_mask; /* 1: the one site */

static inline QF_HD int qf_mask_any(qf_mask m) { return m; }
static inline QF_HD qf_mask qf_mask_not(qf_mask m) { return !m; }
static inline QF_HD qf_real qf_real_keep(qf_real v, qf_mask m) { return m ? v : 0.0; }
static inline QF_HD qf_real qf_real_select(qf_mask m, qf_real v, qf_real w) { return m ? v : w; }

static inline QF_HD void qf_record_load(const void *base, qf_precision prec, qf_index i, int rec, int off, qf_real *v,
                                        int n)
{
    qf_record_reals_load(base, prec, (size_t)i, rec, off, v, n, QF_HALF_TILES);
}

static inline QF_HD void qf_record_store(void *base, qf_precision prec, qf_index i, int rec, int off, const qf_real *v,
                                         int n, qf_mask m)
{
    if (m) qf_record_reals_store(base, prec, (size_t)i, rec, off, v, n, QF_HALF_TILES);
}

#endif
