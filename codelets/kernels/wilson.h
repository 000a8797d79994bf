/* Site kernels of the Wilson hopping term, shared by the CPU and CUDA codelets wilson_gather,
 * wilson_interior and wilson_exterior (DESIGN.md conventions, DeGrand-Rossi basis):
 *
 *   D psi(x) = sum_mu [ (1 - s g_mu) U_mu(x) psi(x+mu) + (1 + s g_mu) U_mu(x-mu)^dagger psi(x-mu) ],
 *
 * s = +1, or s = -1 for D^dagger = g5 D g5. In this basis g_mu = [[0, B_mu], [B_mu^dagger, 0]] in 2x2
 * spin blocks with B_mu unitary and one entry a row, so (1 + t g_mu) psi is carried by the half
 * spinor h = psi_upper + t B_mu psi_lower, and the lower spins are t B_mu^dagger h.
 *
 * A hop from a site in the block is done by the interior kernel. A hop from a neighbour block comes
 * through a face: the neighbour's gather writes the projected half spinor of its side-0 sites (the
 * receiver multiplies by its own U_mu(x)), and U_mu(y)^dagger times the projected half spinor of its
 * side-1 sites (it owns U_mu(y)), so gauge links never travel. Hops that cross the lattice boundary
 * take the direction's phase (forward) or its conjugate (backward), applied by the receiver. A block
 * that is its own neighbour in direction mu (qf_wilson_args.wrap) has no mu faces: the interior
 * takes the hops across them from the block's other side, with the phase where they cross. A block of
 * several in one process may take them from its neighbour blocks' fields instead, as if it wrapped
 * (qf_wilson_args.remote, qf_wilson_nbrs; codelet wilson_direct, CPU only): no faces either.
 *
 * Parity: an operator restricted to output parity p reads sites of parity 1 - p, and its faces hold
 * only those: half-size faces indexed by face_index / 2 (consecutive face indices differ in parity,
 * since the first face extent that is not 1 is even). Full operators use full faces.
 *
 * The operator's result is finished per site as
 *   out = C (a x + b hops)   (clover_on QF_CLOVER_ALL),   out = a C x + b hops   (QF_CLOVER_X),
 *   out = a x + b C hops     (QF_CLOVER_HOPS),            out = a x + b hops     (QF_CLOVER_NONE),
 * with C the clover field passed (A or A^-1, kernels/clover.h) and x a spinor field (a = 0: none).
 * Sites with a face hop are finished by the exterior kernel; the interior kernel stores their
 * partial hop sum in out. This split is per site, whatever the kind that computes it, since the
 * interior and the exterior of one block may run on different workers (a CPU and a GPU).
 *
 * The kernels are written once for every site kind (wilson_kind.h, kernels/kind.h); this header
 * sets them up for the scalar kind, one site in double, which the CUDA codelets run one thread per
 * site. The CPU codelets run the batch kinds of kernels/simd.h. */
#ifndef QF_KERNEL_WILSON_H
#define QF_KERNEL_WILSON_H

#include "clover.h"
#include "face.h"
#include "spinor.h"
#include "quarkflow/qf_dirac.h" /* qf_clover_on */
#include "quarkflow/qf_lattice.h"

typedef struct {
    int ext[QF_NDIM];      /* block extents */
    int origin[QF_NDIM];   /* global coordinates of the block's site (0, 0, 0, 0) */
    int global[QF_NDIM];   /* global extents */
    int parity;            /* parity of the output sites, or -1 for all sites */
    int dagger;            /* 1: D^dagger */
    double phase[QF_NDIM][2];
    double a, b;           /* out = a x + b hops, with the clover field where clover_on says */
    int has_x;             /* an x buffer is passed (a != 0) */
    int clover_on;         /* QF_CLOVER_* */
    int dirichlet;         /* the interior kernel on a Schwarz domain (kernels/sap.h): hops that leave the
                            * block are dropped, and every site is finished */
    int wrap;              /* bit mu: the block is its own neighbour in direction mu (it spans the lattice
                            * there, on one process): the interior takes the hops across its mu faces
                            * itself, with the boundary phase, and the exterior reads no mu face */
    int remote;            /* bits of wrap whose hops across the block's faces read the neighbour blocks'
                            * fields instead (qf_wilson_nbrs: one process, CPU workers), with the phase
                            * where the face lies on the lattice's boundary */
    qf_precision prec;
    qf_recon recon;        /* of the links (qf_defs.h) */
} qf_wilson_args;

/* Whether a hop on the block has faces to gather and an exterior to run: not where it wraps in every
 * direction (the whole lattice in one block on one process). */
static inline QF_HD int qf_wilson_has_faces(const qf_wilson_args *a) { return a->wrap != (1 << QF_NDIM) - 1; }

/* The gather writes the faces of one block: buffers R spinor, R gauge, W faces (mu, side) in the
 * order mu = 0..3, side 0 then 1. parity is that of the sites gathered (-1: all). */
typedef struct {
    int ext[QF_NDIM];
    int parity;
    int dagger;
    int wrap;              /* as qf_wilson_args.wrap: the faces of these directions are not gathered */
    qf_precision prec;
    qf_recon recon;
} qf_wilson_gather_args;

#define QF_WILSON_NFACES (2 * QF_NDIM)

/* The neighbour blocks' fields of a hop that reads them directly (qf_wilson_args.remote): in[2 mu] the
 * +mu neighbour's input spinors (the forward hop's sources), in[2 mu + 1] the -mu neighbour's, and
 * gauge[mu] the -mu neighbour's links (the backward hop's U_mu(x - mu)); entries of other directions
 * are not read. */
typedef struct {
    const void *in[QF_WILSON_NFACES];
    const void *gauge[QF_NDIM];
} qf_wilson_nbrs;

/* B_mu as (column, phase) per row, phase = (re, im) in {1, -1, i, -i}. */
static inline QF_HD void qf_gamma_block(int mu, int row, int *col, double *pr, double *pi)
{
    /* g1: B = [[0, i], [i, 0]]; g2: [[0, -1], [1, 0]]; g3: [[i, 0], [0, -i]]; g4: 1 */
    switch (mu) {
    case 0: *col = 1 - row; *pr = 0.0; *pi = 1.0; break;
    case 1: *col = 1 - row; *pr = row ? 1.0 : -1.0; *pi = 0.0; break;
    case 2: *col = row; *pr = 0.0; *pi = row ? -1.0 : 1.0; break;
    default: *col = row; *pr = 1.0; *pi = 0.0; break;
    }
}

/* Projector signs: the forward hop uses 1 - s g_mu, the backward hop 1 + s g_mu. */
static inline QF_HD double qf_forward_sign(int dagger) { return dagger ? 1.0 : -1.0; }
static inline QF_HD double qf_backward_sign(int dagger) { return dagger ? -1.0 : 1.0; }

static inline QF_HD int64_t qf_wilson_gather_total(const qf_wilson_gather_args *a)
{
    return qf_parity_faces_total(a->ext, a->parity);
}


/* ---- the scalar kind's sites ---- */

/* One output site: its storage index and block coordinates. */
typedef struct {
    qf_index s;
    int x[QF_NDIM];
} qf_sites;

/* Whether the source of the hop (mu, dir) of site q, x + mu (dir 0) or x - mu (dir 1), lies in the
 * block, across its mu face where the block wraps in mu (*wrapped: then the hop crosses the lattice's
 * boundary); if so *nb is its storage index. */
static inline QF_HD qf_mask qf_sites_hop(const qf_sites *q, int mu, int dir, const qf_wilson_args *a, qf_index *nb,
                                         qf_mask *wrapped)
{
    int y[QF_NDIM] = {q->x[0], q->x[1], q->x[2], q->x[3]};
    y[mu] += dir ? -1 : 1;
    *wrapped = 0;
    if (y[mu] < 0 || y[mu] >= a->ext[mu]) {
        if (!(a->wrap >> mu & 1)) return 0;
        y[mu] = dir ? a->ext[mu] - 1 : 0;
        *wrapped = 1;
    }
    *nb = qf_block_site_index(y, a->ext);
    return 1;
}

static inline QF_HD qf_mask qf_sites_on_face(const qf_sites *q, const qf_wilson_args *a)
{
    return qf_on_open_face(q->x, a->ext, a->wrap);
}

/* The lanes that hold a site: the one. */
static inline QF_HD qf_mask qf_sites_valid(const qf_sites *q) { return (void)q, 1; }

/* Whether the hop (mu, dir) of site q comes through a face; if so *f is the entry of the neighbour's
 * face that holds its source: the +mu neighbour's side-0 face (dir 0), the -mu neighbour's side-1 face
 * (dir 1), of sites of parity src_parity. */
static inline QF_HD qf_mask qf_sites_face_entry(const qf_sites *q, int mu, int dir, const qf_wilson_args *a,
                                                int src_parity, qf_index *f)
{
    const int *ext = a->ext;
    if (a->wrap >> mu & 1 || q->x[mu] != (dir ? 0 : ext[mu] - 1)) return 0;
    int y[QF_NDIM] = {q->x[0], q->x[1], q->x[2], q->x[3]};
    y[mu] = dir ? ext[mu] - 1 : 0;
    *f = qf_parity_face_index(y, ext, mu, dir, src_parity);
    return 1;
}

/* A batch kind prefetches what its next batch will load (kernels/simd_kind.h); one site on a GPU
 * thread has no next batch. */
static inline QF_HD void qf_sites_prefetch_hop(const qf_sites *q, qf_precision prec, int mu, int dir, const void *src,
                                               const void *far_src, int src_rec, const void *gauge,
                                               const void *far_gauge, int link_reals, int link_at_src)
{
    (void)q, (void)prec, (void)mu, (void)dir, (void)src, (void)far_src, (void)src_rec, (void)gauge, (void)far_gauge,
        (void)link_reals, (void)link_at_src;
}

static inline QF_HD void qf_sites_prefetch_sites(const qf_sites *q, qf_precision prec, const void *base, int rec)
{
    (void)q, (void)prec, (void)base, (void)rec;
}

/* ---- the site kernels (wilson_kind.h) for the scalar kind, and the CUDA codelets' sites ---- */

#define QF_K(name) name
#include "wilson_kind.h"
#undef QF_K

/* One site a call in double arithmetic: a CUDA thread's on double and single fields (on half fields the
 * float kind's, kernels/half_float_kind.h), and the CPU codelets' loop on half fields and on CPUs without
 * the batch kinds. */
#define QF_K(name) name
#include "wilson_thread_kind.h"
#undef QF_K

#endif
