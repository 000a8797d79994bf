/* The even-odd Wilson(-clover) operator on CPUs in openQCD's order (its Dwhat): one pass over the odd
 * sites, each of which gathers t = s C_oo (D_oe in)(x) from its eight even neighbours, keeps t in
 * registers, and scatters D_eo t back into them, with the same eight links. The even output is started
 * first (a C_ee x, a x or zero) and, where the clover acts on the hops (the symmetric form), finished
 * after the scatters. Against the two half-lattice hops of kernels/wilson.h it reads the links once
 * instead of twice and never stores the odd intermediate: about 0.7 of the bytes an application
 * (bench/RESULTS.md). Sites are vectors of colours (eo_pass_kind.h) rather than the batch kinds'
 * vectors of sites, so that a scatter adds into a stored spinor without transposing it.
 *
 * Conventions as kernels/wilson.h's: D psi(x) = sum_mu (1 - s g_mu) U_mu(x) psi(x + mu) + (1 + s g_mu)
 * U_mu(x - mu)^dagger psi(x - mu), the boundary phase on a hop that crosses the lattice's boundary
 * forward, its conjugate backward; records in the in-block layout (qf_block_site_index) of a block that
 * is the whole lattice (it wraps in every direction). CPU only, double and single precision, whole
 * links (reconstruct 18). */
#ifndef QF_KERNEL_EO_PASS_H
#define QF_KERNEL_EO_PASS_H

#include "clover.h"
#include "su3.h"
#include "spinor.h"
#include "quarkflow/qf_dirac.h" /* qf_clover_on */
#include "quarkflow/qf_lattice.h"

#include <string.h>

/* out_e = a C_ee in_e + s D_eo C_oo D_oe in_e (even_clover QF_CLOVER_X), a in_e + s D_eo C_oo D_oe in_e
 * (QF_CLOVER_NONE), or a in_e + b C_ee D_eo (s C_oo D_oe in_e) (QF_CLOVER_HOPS); C_oo is the odd clover
 * field where odd_clover is set, else 1. */
typedef struct {
    int ext[QF_NDIM];
    int dagger;           /* D^dagger: the projectors' signs swapped */
    int phased;           /* bit mu: phase[mu] is not 1 */
    double phase[QF_NDIM][2];
    double s;             /* the odd intermediate's factor */
    double a, b;
    int even_clover;      /* QF_CLOVER_X, QF_CLOVER_NONE or QF_CLOVER_HOPS */
    int odd_clover;
    qf_precision prec;
} qf_eo_pass;

/* A block of a lattice of several (wilson_pair), where the directions that do not wrap have faces,
 * as the stencil's (kernels/wilson.h): an odd site on a face takes its hops from outside through in's
 * faces (the neighbours' gathers), and hands its scatters out of the block to t's faces as
 * wilson_gather would write them, unscaled by the second hop's b (t_scale = 1 / b where s holds it).
 * The even sites on a face keep their partial hop sum in t_scale's units, for the second hop's exterior
 * to finish. */
typedef struct {
    const void *in_face[QF_NDIRS]; /* 2 mu + 1: the +mu neighbour's side-0 face; 2 mu: the -mu one's side 1 */
    void *t_face[QF_NDIRS];        /* 2 mu + side: this block's faces of t */
    double t_scale;
} qf_eo_faces;

/* What the hops of one odd site of an open block do: leaves[mu][dir] the hop to x + mu (dir 0) or
 * x - mu leaves the block (through face entry face[mu]), raw[mu][dir] it reaches an even site on a
 * face. */
typedef struct {
    unsigned char leaves[QF_NDIM][2], raw[QF_NDIM][2];
    int64_t face[QF_NDIM];
} qf_eo_open_site;

/* Each precision twice: plain C for the baseline target, and with QF_P_VEX for the versions compiled
 * for x86-64-v3 and v4 (eo_pass_kind.h). */
#define QF_P_REAL double
#define QF_P_VEX 0
#define QF_P(name) qf_eo_##name##_d
#include "eo_pass_kind.h"
#undef QF_P
#undef QF_P_VEX
#define QF_P_VEX 1
#define QF_P(name) qf_eo_##name##_dv
#include "eo_pass_kind.h"
#undef QF_P
#undef QF_P_VEX
#undef QF_P_REAL

#define QF_P_REAL float
#define QF_P_VEX 0
#define QF_P(name) qf_eo_##name##_f
#include "eo_pass_kind.h"
#undef QF_P
#undef QF_P_VEX
#define QF_P_VEX 1
#define QF_P(name) qf_eo_##name##_fv
#include "eo_pass_kind.h"
#undef QF_P
#undef QF_P_VEX
#undef QF_P_REAL

#endif
