/* Basic definitions shared by every layer and by CPU and CUDA code: the host/device marker, the
 * precision and field-kind enumerations, and the error channel of the public API. */
#ifndef QF_DEFS_H
#define QF_DEFS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define QF_HD __host__ __device__
#else
#define QF_HD
#endif

/* Site kernels that a codelet's loop must inline, so that the precision it passes as a constant
 * specialises the kernel's loads and stores. */
#if defined(__CUDACC__)
#define QF_HD_INLINE __host__ __device__ __attribute__((always_inline))
#elif defined(__GNUC__)
#define QF_HD_INLINE __attribute__((always_inline))
#else
#define QF_HD_INLINE
#endif

/* Full unrolling of a short fixed loop in site kernels: keeps small arrays indexed by the loop
 * variable in registers (on GPUs, dynamic indexing sends them to local memory). */
#if defined(__CUDA_ARCH__)
#define QF_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__) /* nvcc's host pass: its front end knows no GCC pragmas */
#define QF_UNROLL
#elif defined(__GNUC__) && !defined(__clang__)
#define QF_UNROLL _Pragma("GCC unroll 16")
#else
#define QF_UNROLL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Storage precisions. Half is QUDA's (seed 001): 16-bit fixed-point components scaled by one float
 * norm a record (a site's spinor, half spinor, links or clover term: the largest magnitude among its
 * reals), kept for the Wilson-clover operator's fields and their BLAS and conversions; kernels load
 * it into single or double and compute there. */
typedef enum { QF_DOUBLE = 0, QF_SINGLE = 1, QF_HALF = 2 } qf_precision;

/* Bytes of one real number in precision p (half: its 16-bit component, without the record's norm). */
static inline QF_HD size_t qf_real_size(qf_precision p)
{
    return p == QF_DOUBLE ? sizeof(double) : p == QF_SINGLE ? sizeof(float) : 2;
}

/* Bytes of a record of n reals in precision p: n reals; in half, n 16-bit components and the float
 * norm, padded to 8 bytes so that every record of an array starts aligned for 8-byte loads. */
static inline QF_HD size_t qf_record_bytes(qf_precision p, int n)
{
    return p == QF_HALF ? ((size_t)n * 2 + 4 + 7) / 8 * 8 : (size_t)n * qf_real_size(p);
}

/* How an array of half records lies (codelets/kernels/reals.h). QF_HALF_TILES, for fields of one record a
 * site (spinors and their faces, links, clover): in tiles of QF_HALF_TILE records, each four components
 * (8 bytes) of a record beside the same four of the tile's other records, then the tile's norms, so
 * that a warp's threads on consecutive records load consecutive bytes (QUDA's short4 field order);
 * an array of n records takes whole tiles (qf_records_count). QF_HALF_ROWS, for fields of several
 * records a site (multigrid's coarse link rows and near-null vectors, whose kernels read one record
 * with several threads or lanes): one record after another. */
#define QF_HALF_TILE 32
typedef enum { QF_HALF_ROWS, QF_HALF_TILES } qf_half_layout;

/* The records to allocate for n records of an array in precision p laid out as l. */
static inline QF_HD size_t qf_records_count(qf_precision p, qf_half_layout l, size_t n)
{
    return p == QF_HALF && l == QF_HALF_TILES ? (n + QF_HALF_TILE - 1) / QF_HALF_TILE * QF_HALF_TILE : n;
}
/* The bytes of such an array of n records of rec reals. */
static inline QF_HD size_t qf_records_bytes(qf_precision p, qf_half_layout l, int rec, size_t n)
{
    return qf_records_count(p, l, n) * qf_record_bytes(p, rec);
}

/* Gauge-link compression, QUDA's "reconstruct": a link of an SU(3) field is stored whole (18 reals), as
 * its first two rows (12; the third is conj(row 0 x row 1)) or as 8 reals (QUDA's Bunk-Sommer
 * parametrisation: a01, a02, a10 and the phases of a00 and a20), and the Dirac kernels rebuild the rest
 * as they load it: fewer bytes for the same arithmetic. Only for links in SU(3) (unitary, det 1); the
 * boundary phases are applied after reconstruction, on the hops that cross the lattice boundary. */
typedef enum { QF_RECON_18 = 0, QF_RECON_12, QF_RECON_8 } qf_recon;

/* Reals a link keeps under r: 18, 12 or 8. */
static inline QF_HD int qf_recon_link_reals(qf_recon r) { return r == QF_RECON_12 ? 12 : r == QF_RECON_8 ? 8 : 18; }

/* Every fallible function of the API returns 0 on success and QF_ERROR otherwise, after recording a
 * message (cause and fix) that qf_last_error() returns. The message is per thread. */
enum { QF_SUCCESS = 0, QF_ERROR = -1 };

const char *qf_last_error(void);
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int qf_fail(const char *fmt, ...);
/* Prefixes the current message with more context ("reading FILE: ..."); returns QF_ERROR. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int qf_fail_context(const char *fmt, ...);

/* Sequences, for code that submits many calls before it waits (as Chameleon's sequences): between
 * qf_sequence_begin and qf_sequence_end the first call that fails on this thread fails the
 * sequence, and every later call that submits tasks (BLAS, scalar arithmetic, operators,
 * preconditioners, conversions) or reads a scalar returns QF_ERROR at once, submitting nothing, so
 * that the first failure's message stands. An algorithm is then written as its list of steps and
 * checked where it waits anyway. Sequences nest; the outermost end clears the failure. */
void qf_sequence_begin(void);
/* Whether the current sequence has failed (0 outside any sequence). */
int qf_sequence_failed(void);
/* Ends a sequence: QF_SUCCESS, or QF_ERROR when it failed. */
int qf_sequence_end(void);

const char *qf_precision_name(qf_precision p);
/* QF_SUCCESS for a precision the library knows; otherwise a message naming what (the precision of
 * what: "operator", "sloppy") and QF_ERROR. qf_precision_check_full refuses half too, for the parts
 * of the library that keep no half-precision fields (multigrid's coarse levels, gauge generation). */
int qf_precision_check(qf_precision p, const char *what);
int qf_precision_check_full(qf_precision p, const char *what);
/* Parses "double", "single" (also "float") or "half"; returns QF_ERROR with a message otherwise. */
int qf_precision_parse(const char *s, qf_precision *p);
/* "18", "12" or "8"; qf_recon_check as qf_precision_check; qf_recon_parse reads 18, 12 or 8. */
const char *qf_recon_name(qf_recon r);
int qf_recon_check(qf_recon r, const char *what);
int qf_recon_parse(const char *s, qf_recon *r);

#ifdef __cplusplus
}
#endif
#endif
