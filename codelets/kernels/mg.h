/* Site kernels of adaptive multigrid, shared by the CPU and CUDA codelets (seed 003's algorithm):
 * the transfer operators between a fine level and its coarse level, the block orthonormalisation of
 * the near-null vectors, the construction of the Galerkin coarse operator D_c = R D P from the fine
 * operator's links and local term, and the coarse operator's hops.
 *
 * A fine site holds nsite complex numbers in two chiral halves of h = nsite / 2: a Wilson spinor
 * [spin][colour] (chirality 0: spins 0, 1; chirality 1: spins 2, 3, gamma_5 = diag(1, 1, -1, -1)),
 * or a coarse site [chirality][colour]. The N near-null vectors are stored together at each fine site
 * (QF_FIELD_TRANSFER): V[x][k][i]. An aggregate is a box of agg[0] x .. x agg[3] fine sites inside one
 * fine block; it becomes one coarse site of 2 N complex numbers [chirality][k], so that
 *
 *   (P e)(x)[i] = sum_k V_k(x)[i] e(A(x))[chi(i) N + k],   (R psi)(A)[chi N + k] = sum_{x in A, i in chi} conj(V_k(x)[i]) psi(x)[i]
 *
 * and R = P^dagger, P^dagger P = 1 once the vectors are orthonormal on each aggregate and chirality.
 * P keeps chirality, so the coarse operator is gamma_5-hermitian with the coarse gamma_5 = diag(1, -1)
 * over chirality: D_c^dagger = g5 D_c g5, which is how its dagger is applied (entries linking the two
 * chiralities change sign).
 *
 * The coarse operator at coarse site A: D_c psi(A) = X(A) psi(A) + sum_d Y_d(A) psi(A + hop_d), with
 * hop d = 2 mu + 1 the forward hop +mu and d = 2 mu the backward hop -mu (QF_NDIRS), and X the local
 * term: 9 matrices a coarse site (QF_MG_NMAT, X last), each (2N) x (2N) row-major, rows and columns
 * (chirality, colour). Boundary phases of the fine operator are inside the Y. The build sums, for every
 * fine site x of A and every term m of the fine operator at x (8 hops to y = x + hop_m and the local
 * term, y = x), the products conj(V_k(x)[i]) (M_m P_chi' V_l(y))[i]: into Y_m(A) when y lies outside A,
 * into X(A) otherwise. The fine operator is the Wilson-clover M = A - kappa D (M_m = -kappa phase
 * (1 -+ g_mu) U for the hops, the clover term A for the local term) or a coarse operator (its Y and X).
 *
 * Arithmetic is in double, but for the coarse operator's hops, which multiply in the fields' precision
 * (single fields: single, as QUDA's and DDalphaAMG's coarse operators), and the CPU's transfers of a
 * Wilson level in single, which multiply and sum in float (qf_mg_wilson_float); fields are stored in the
 * precision of their arguments, a coarse operator's links and X^-1 also in half (a record a row). */
#ifndef QF_KERNEL_MG_H
#define QF_KERNEL_MG_H

#include "face.h"
#include "wilson.h" /* qf_gamma_block, su3, clover layout */
#include "quarkflow/qf_multigrid.h" /* QF_MG_MAX_NVEC */

#include <string.h>

/* Matrices a coarse site: the 8 hops and the local term. */
#define QF_MG_NMAT (QF_NDIRS + 1)
#define QF_MG_LOCAL QF_NDIRS

/* How a level's fine sites group into aggregates. */
typedef struct {
    int fext[QF_NDIM];     /* fine block extents */
    int agg[QF_NDIM];      /* aggregate extents, dividing fext */
    int nsite;             /* complex numbers a fine site (12 for Wilson, 2 N_fine for coarse) */
    int nvec;              /* near-null vectors N */
    qf_precision prec;     /* of the fine fields, the vectors and the coarse fields */
    qf_precision vprec;    /* of the vectors where restriction and prolongation read them: prec, or half
                            * (a record a vector and fine site) with single fields */
} qf_mg_geom;

/* mg_restrict — coarse block from the fine blocks it holds (at most QF_MG_MAX_FINE_BLOCKS, codelets.h),
 * from all their sites or from the even ones alone (even_only: R of the fine field with its odd sites
 * taken as zero, whatever they hold; half the vectors' bytes read). Buffers: R fine[j], j < nfine, R V[j],
 * W coarse. */
typedef struct {
    qf_mg_geom g;
    int cext[QF_NDIM];     /* coarse block extents */
    int ratio[QF_NDIM];    /* fine blocks a coarse block holds in each direction */
    int nfine;             /* their number, lexicographic in ratio */
    int team;              /* the process's coarse lattice is this one block: on CPUs, shared among the CPU team */
    int even_only;
} qf_mg_restrict_args;

/* mg_prolong — fine block from its coarse block: out = P e on all sites, or on the even sites alone
 * (even_only; they come first in a block, qf_block_site_coords), the odd ones kept. Buffers: R coarse,
 * R V, W (RW when even_only) fine. */
typedef struct {
    qf_mg_geom g;
    int cext[QF_NDIM];
    int pos[QF_NDIM];      /* the fine block's position in its coarse block, in fine blocks */
    int team;              /* CPU: the sites shared among the team (cpu_team.h) */
    int even_only;
} qf_mg_prolong_args;

/* The fine block's sites that mg_prolong writes: [0, this). */
static inline QF_HD int64_t qf_mg_prolong_sites(const qf_mg_prolong_args *a)
{
    return qf_volume(a->g.fext) / (a->even_only ? 2 : 1);
}

/* mg_orthonormalize — Gram-Schmidt (twice) of the N vectors on every aggregate and chirality of a fine
 * block; counts the aggregates where a vector vanished. Buffers: RW V, REDUX accumulator of 1 double. */
typedef struct {
    qf_mg_geom g;
    int team; /* CPU: the aggregates (pack: the sites) shared among the team (cpu_team.h) */
} qf_mg_orth_args;

/* mg_build — the contributions of one fine block to the coarse operator, for the block's aggregates in
 * lexicographic order of its aggregate grid, QF_MG_NMAT matrices each, in double. Buffers:
 *   R V, R fine links (gauge field, or the coarse links of a coarse level), [R clover A (Wilson with
 *   clover)], R the V faces of the neighbours (d = 2 mu: the -mu neighbour's side-1 face, d = 2 mu + 1:
 *   the +mu neighbour's side-0 face), [R the -mu neighbours' side-1 gauge faces, mu = 0..3 (Wilson)],
 *   W partial. */
enum { QF_MG_SOURCE_WILSON = 0, QF_MG_SOURCE_COARSE };
typedef struct {
    qf_mg_geom g;
    int source;            /* QF_MG_SOURCE_* */
    int has_clover;
    double kappa;
    double phase[QF_NDIM][2];
    int origin[QF_NDIM];   /* global coordinates of the fine block's first site */
    int global[QF_NDIM];   /* global fine extents */
    qf_precision link_prec;
    int team;              /* CPU: the aggregates shared among the team (cpu_team.h) */
} qf_mg_build_args;

/* mg_assemble — a coarse block's links and the inverse of its local term from the partials of its fine
 * blocks; counts the sites whose local term is singular. Buffers: R partial[j], j < nfine, W links,
 * W X^-1, SCRATCH (2 (2N)^2 complex doubles a coarse site), REDUX accumulator of 1 double. */
typedef struct {
    int cext[QF_NDIM];
    int ratio[QF_NDIM];
    int apb[QF_NDIM];      /* aggregates a fine block holds in each direction */
    int nfine, nvec;
    qf_precision prec;     /* of the links and X^-1 */
    int team;              /* CPU: the coarse sites shared among the team (cpu_team.h) */
} qf_mg_assemble_args;

/* The coarse operator's hops (mg_coarse_gather, _interior, _exterior through tasks/stencil.h), the
 * Wilson kernels' split: out = finish(a, x, b, sum of hops), where with L the local term X (links'
 * last matrix) or X^-1 (local_inverse: a field of one matrix a site)
 *   out = L (a x + b H)  (QF_CLOVER_ALL),  a L x + b H  (QF_CLOVER_X),  a x + b L H  (QF_CLOVER_HOPS),
 *   a x + b H            (QF_CLOVER_NONE).
 * b == 0: no hops are computed. Buffers as the stencil's: gather R in, W faces[8]; interior R in,
 * R links, W|RW out, [R x], [R X^-1]; exterior RW out, R links, R faces[8], [R x], [R X^-1].
 * wrap: the block is the whole lattice of one process, and a hop leaving it re-enters on its other side
 * (the boundary phases are inside the links): the interior finishes every site, no faces are needed
 * (the coarsest level's one-task solve, mg_coarse_solve). */
typedef struct {
    int ext[QF_NDIM];      /* coarse block extents */
    int parity;            /* of the output sites, -1 for all */
    int dagger;
    double a, b;
    int has_x;
    int local_on;          /* QF_CLOVER_* */
    int local_inverse;
    int nvec;
    int wrap;
    qf_precision prec;      /* of the coarse fields */
    qf_precision link_prec; /* of the links and X^-1: prec, or half (a record a row: qf_coarse_matrix_entry) with
                             * single-precision fields */
} qf_coarse_args;

typedef struct {
    int ext[QF_NDIM];
    int parity;            /* of the sites gathered, -1 for all */
    int nvec;
    qf_precision prec;
} qf_coarse_gather_args;

/* ---- indices ---- */

/* Reals offset of component i of vector k at fine site fs in V. */
static inline QF_HD size_t qf_mg_v_offset(const qf_mg_geom *g, int64_t fs, int k, int i)
{
    return (size_t)2 * (((size_t)fs * g->nvec + k) * g->nsite + i);
}

/* Component i of vector k at fine site fs of V stored in g->vprec (in half record fs N + k). */
static inline QF_HD qf_complex qf_mg_v_entry(const qf_mg_geom *g, const void *v, int64_t fs, int k, int i)
{
    double x[2];
    qf_record_reals_load(v, g->vprec, (size_t)fs * g->nvec + k, 2 * g->nsite, 2 * i, x, 2, QF_HALF_ROWS);
    return qf_cmake(x[0], x[1]);
}

/* All 2 nsite reals of vector k at fine site fs of V into x (doubles). */
static inline QF_HD void qf_mg_v_record(const qf_mg_geom *g, const void *v, int64_t fs, int k, double *x)
{
    qf_record_reals_load(v, g->vprec, (size_t)fs * g->nvec + k, 2 * g->nsite, 0, x, 2 * g->nsite, QF_HALF_ROWS);
}

/* Reals offset of matrix m of coarse site s in a links field, and of site s in a coarse field. */
static inline QF_HD size_t qf_coarse_matrix_offset(int64_t s, int m, int n)
{
    return (size_t)2 * ((size_t)s * QF_MG_NMAT + m) * (size_t)(4 * n * n);
}
static inline QF_HD size_t qf_coarse_site_offset(int64_t s, int n) { return (size_t)4 * n * (size_t)s; }
/* The row of 4N reals, counted from the array's first, at which the matrix at reals offset mo (as
 * single and double storage lay it out) starts: its record index in half, where a row is a record. */
static inline QF_HD size_t qf_coarse_matrix_row(size_t mo, int n) { return mo / (size_t)(4 * n); }

/* Aggregates of a fine block in each direction, and their number. */
static inline QF_HD void qf_mg_apb(const qf_mg_geom *g, int apb[QF_NDIM])
{
    for (int mu = 0; mu < QF_NDIM; mu++) apb[mu] = g->fext[mu] / g->agg[mu];
}

/* Index of the aggregate that holds block-local fine site x, in the block's aggregate grid. */
static inline QF_HD int64_t qf_mg_aggregate_of(const qf_mg_geom *g, const int x[QF_NDIM])
{
    int a[QF_NDIM], apb[QF_NDIM];
    qf_mg_apb(g, apb);
    for (int mu = 0; mu < QF_NDIM; mu++) a[mu] = x[mu] / g->agg[mu];
    return qf_lex_index(a, apb);
}

/* Fine site number t (lexicographic in the aggregate box) of aggregate index ai: block-local coords. */
static inline QF_HD void qf_mg_aggregate_site(const qf_mg_geom *g, int64_t ai, int64_t t, int x[QF_NDIM])
{
    int a[QF_NDIM], apb[QF_NDIM], d[QF_NDIM];
    qf_mg_apb(g, apb);
    qf_lex_coords(ai, apb, a);
    qf_lex_coords(t, g->agg, d);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] = a[mu] * g->agg[mu] + d[mu];
}

/* Coarse site (storage index s of a coarse block of extents cext holding ratio fine blocks): the fine
 * block j (lexicographic in ratio) and the aggregate index in it. */
static inline QF_HD int64_t qf_mg_coarse_site_source(const qf_mg_geom *g, const int cext[QF_NDIM],
                                                     const int ratio[QF_NDIM], int64_t s, int *j)
{
    int a[QF_NDIM], apb[QF_NDIM], jb[QF_NDIM], w[QF_NDIM];
    qf_mg_apb(g, apb);
    qf_block_site_coords(s, cext, a);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        jb[mu] = a[mu] / apb[mu];
        w[mu] = a[mu] % apb[mu];
    }
    *j = (int)qf_lex_index(jb, ratio);
    return qf_lex_index(w, apb);
}

/* ---- transfer ---- */

/* (R psi)(s)[r], r = chi N + k: the coarse site s of a coarse block, from the fine blocks fine[] and
 * their vectors v[]. */
static inline QF_HD qf_complex qf_mg_restrict_entry(const qf_mg_restrict_args *a, const void *const *fine,
                                                    const void *const *v, int64_t s, int r)
{
    const qf_mg_geom *g = &a->g;
    int j, x[QF_NDIM];
    int64_t ai = qf_mg_coarse_site_source(g, a->cext, a->ratio, s, &j);
    int chi = r / g->nvec, k = r % g->nvec, h = g->nsite / 2;
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int64_t t = 0, n = qf_volume(g->agg); t < n; t++) {
        qf_mg_aggregate_site(g, ai, t, x);
        int64_t fs = qf_block_site_index(x, g->fext);
        for (int i = chi * h; i < chi * h + h; i++) {
            size_t po = (size_t)2 * ((size_t)fs * g->nsite + i);
            qf_complex vv = qf_mg_v_entry(g, v[j], fs, k, i);
            qf_complex pv = qf_cmake(qf_real_get(fine[j], g->prec, po), qf_real_get(fine[j], g->prec, po + 1));
            acc = qf_cconjmadd(acc, vv, pv);
        }
    }
    return acc;
}

#if !defined(__CUDACC__)
typedef float qf_mg_vf16 __attribute__((vector_size(64)));
typedef float qf_mg_vf8 __attribute__((vector_size(32)));
typedef int qf_mg_vi16 __attribute__((vector_size(64)));

/* A Wilson level in single precision (fields; vectors in single or half): the CPU's transfers multiply
 * in float, a site's 24 reals a vector as one 16- and one 8-wide vector, as the GPU's threads do. In
 * double lanes (a float record widened four reals at a time) they ran at 0.35-0.4 of a one-thread read
 * of the vectors; see qf_mg_restrict_row and qf_mg_prolong_wilson_f. */
static inline QF_HD int qf_mg_wilson_float(const qf_mg_geom *g)
{
    return g->nsite == QF_SPINOR_REALS / 2 && g->prec == QF_SINGLE && g->vprec != QF_DOUBLE;
}

/* The transfers stream the vectors' records of the sites in storage order; the VM's prefetchers left
 * the restriction at 0.6 of a one-thread read, a prefetch of the records two sites ahead at 0.8. */
#define QF_MG_PREFETCH_SITES 2

/* The N vectors' records at Wilson site fs of a single-precision level as floats: in place where they
 * are stored in single, else decoded into buf (N x 24 floats); the records QF_MG_PREFETCH_SITES sites
 * ahead are prefetched. */
static inline QF_HD_INLINE const float *qf_mg_wilson_records_f(const qf_mg_geom *g, const void *v, int64_t fs,
                                                                float *buf)
{
    const int n = g->nvec;
    const size_t bytes = (size_t)n * qf_record_bytes(g->vprec, QF_SPINOR_REALS);
    const char *ahead = (const char *)v + (size_t)(fs + QF_MG_PREFETCH_SITES) * bytes;
    for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(ahead + b);
    if (g->vprec == QF_SINGLE) return (const float *)v + qf_mg_v_offset(g, fs, 0, 0);
    for (int k = 0; k < n; k++)
        qf_half_record_load_f(v, (size_t)fs * n + k, QF_SPINOR_REALS, 0, buf + QF_SPINOR_REALS * k, QF_SPINOR_REALS,
                              QF_HALF_ROWS);
    return buf;
}

/* Doubles of qf_mg_restrict_row's sums a coarse site: a Wilson level in single keeps 48 float lanes a
 * vector (re and im of each of its 24 reals); anything else 4 N nsite doubles ([k][chi][re, im][real
 * of the chirality]). */
static inline QF_HD size_t qf_mg_restrict_acc_doubles(const qf_mg_geom *g)
{
    return qf_mg_wilson_float(g) ? (size_t)24 * g->nvec : (size_t)4 * g->nvec * g->nsite;
}

/* A Wilson site's products conj(V_k) psi in float (psi as xa, xb of 24 floats each, see below) added
 * into its coarse site's lanes acc[k][re, im][24]: summed per real over the aggregate's sites of the
 * row, and over the reals of each chirality (in double) only once at the row's end. */
static inline QF_HD_INLINE void qf_mg_restrict_add_wilson_f(const float *xa, const float *xb, const float *v, int n,
                                                            float *acc)
{
    qf_mg_vf16 a0, b0;
    qf_mg_vf8 a1, b1;
    memcpy(&a0, xa, sizeof a0);
    memcpy(&a1, xa + 16, sizeof a1);
    memcpy(&b0, xb, sizeof b0);
    memcpy(&b1, xb + 16, sizeof b1);
    for (int k = 0; k < n; k++) {
        qf_mg_vf16 v0, r0, i0;
        qf_mg_vf8 v1, r1, i1;
        const float *vk = v + QF_SPINOR_REALS * k;
        float *o = acc + 2 * QF_SPINOR_REALS * k;
        memcpy(&v0, vk, sizeof v0);
        memcpy(&v1, vk + 16, sizeof v1);
        memcpy(&r0, o, sizeof r0);
        memcpy(&r1, o + 16, sizeof r1);
        memcpy(&i0, o + 24, sizeof i0);
        memcpy(&i1, o + 40, sizeof i1);
        r0 += v0 * a0;
        r1 += v1 * a1;
        i0 += v0 * b0;
        i1 += v1 * b1;
        memcpy(o, &r0, sizeof r0);
        memcpy(o + 16, &r1, sizeof r1);
        memcpy(o + 24, &i0, sizeof i0);
        memcpy(o + 40, &i1, sizeof i1);
    }
}

/* (P e)(x) of a Wilson site in float: out[24] from its coarse site's 4 N floats e and its vectors' record
 * v. Each vector's 24 reals times Re e_k into A and times Im e_k into B (the first 12 reals take e_k of
 * chirality 0, the others of chirality 1), then out = A + i B as (re, im) pairs. */
static inline QF_HD_INLINE void qf_mg_prolong_wilson_f(const float *e, const float *v, int n, float *out)
{
    const qf_mg_vi16 chi0 = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0};
    const qf_mg_vi16 swap = {1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14};
    const qf_mg_vf16 sign = {-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1};
    qf_mg_vf16 A0 = {0}, B0 = {0};
    qf_mg_vf8 A1 = {0}, B1 = {0};
    for (int k = 0; k < n; k++) {
        qf_mg_vf16 v0, r0 = {0}, i0 = {0}, r1w = {0}, i1w = {0};
        qf_mg_vf8 v1;
        const float *vk = v + QF_SPINOR_REALS * k;
        memcpy(&v0, vk, sizeof v0);
        memcpy(&v1, vk + 16, sizeof v1);
        r0 += e[2 * k];
        i0 += e[2 * k + 1];
        r1w += e[2 * (n + k)];
        i1w += e[2 * (n + k) + 1];
        qf_mg_vf16 ca = (qf_mg_vf16)(((qf_mg_vi16)r0 & chi0) | ((qf_mg_vi16)r1w & ~chi0));
        qf_mg_vf16 cb = (qf_mg_vf16)(((qf_mg_vi16)i0 & chi0) | ((qf_mg_vi16)i1w & ~chi0));
        A0 += v0 * ca;
        B0 += v0 * cb;
        A1 += v1 * e[2 * (n + k)];
        B1 += v1 * e[2 * (n + k) + 1];
    }
    qf_mg_vf16 o0 = A0 + sign * __builtin_shuffle(B0, swap);
    qf_mg_vf8 o1 = A1 + __builtin_shufflevector(sign, sign, 0, 1, 2, 3, 4, 5, 6, 7) *
                            __builtin_shufflevector(B1, B1, 1, 0, 3, 2, 5, 4, 7, 6);
    memcpy(out, &o0, sizeof o0);
    memcpy(out + 16, &o1, sizeof o1);
}

/* Units of qf_mg_restrict_row in a fine block: its rows of aggregates along x_0, one for each aggregate
 * position in x_1, x_2 and x_3. */
static inline QF_HD int64_t qf_mg_restrict_rows(const qf_mg_geom *g)
{
    int apb[QF_NDIM];
    qf_mg_apb(g, apb);
    return (int64_t)apb[1] * apb[2] * apb[3];
}

/* The CPU's schedule of qf_mg_restrict_entry's sums, a row of aggregates at a time (row `row` of
 * qf_mg_restrict_rows, x_1 fastest): the fine sites of fine block j in the row's aggregates, swept in
 * storage order, a run of agg[1] lines of the block for each x_2 and x_3 in the row and each parity, so
 * that their vectors stream through the cache as the prolongation reads them. Each site's components
 * are loaded once as (re, im) and (im, -re) interleaved, so that conj(V_k) psi becomes two products of
 * contiguous reals, summed lane by lane (a lane a real) into its coarse site's sums (acc:
 * qf_mg_restrict_acc_doubles for each coarse site of the row) and across the lanes of each chirality
 * at the end: vectorisable without reassociation. The row's coarse sites are then stored. A coarse
 * site's sums take its fine sites in storage order, whatever the rows' distribution among threads.
 * Walking one aggregate's sites at a time instead, whose vector records lie apart in the block, the
 * restriction took 3.4x the prolongation's time (13 against 3.9 ms for a 16^4 block of 12 vectors in
 * single on one core of the 2-core VM), its prefetches stalling. */
static inline QF_HD_INLINE void qf_mg_restrict_row(const qf_mg_restrict_args *a, const void *fine, const void *v,
                                                   int j, int64_t row, double *acc, void *coarse)
{
    const qf_mg_geom *g = &a->g;
    const int n = g->nvec, len = 2 * g->nsite, h = g->nsite, wf = qf_mg_wilson_float(g);
    int apb[QF_NDIM], jb[QF_NDIM], x[QF_NDIM];
    qf_mg_apb(g, apb);
    const int ay = (int)(row % apb[1]), az = (int)(row / apb[1] % apb[2]),
              at = (int)(row / ((int64_t)apb[1] * apb[2]));
    const int64_t per = (int64_t)qf_mg_restrict_acc_doubles(g);
    for (int64_t k = 0; k < apb[0] * per; k++) acc[k] = 0.0;
    const int64_t half = qf_volume(g->fext) / 2, line = g->fext[0], run = line * g->agg[1];
    double xa[4 * QF_MG_MAX_NVEC], xb[4 * QF_MG_MAX_NVEC], vh[4 * QF_MG_MAX_NVEC];
    float fa[QF_SPINOR_REALS], fb[QF_SPINOR_REALS], vf[QF_MG_MAX_NVEC * QF_SPINOR_REALS];
    for (int p = 0; p < (a->even_only ? 1 : 2); p++)
        for (int t = at * g->agg[3]; t < (at + 1) * g->agg[3]; t++)
            for (int z = az * g->agg[2]; z < (az + 1) * g->agg[2]; z++) {
                /* the run's lexicographic sites [lex, lex + run): both ends even (line is), so the
                 * parity-p sites among them are the storage indices p half + [lex / 2, (lex + run) / 2) */
                const int64_t lex = (((int64_t)t * g->fext[2] + z) * g->fext[1] + (int64_t)ay * g->agg[1]) * line;
                for (int64_t fs = p * half + lex / 2, end = p * half + (lex + run) / 2; fs < end; fs++) {
                    qf_block_site_coords(fs, g->fext, x);
                    double *w = acc + (int64_t)(x[0] / g->agg[0]) * per;
                    size_t po = (size_t)len * (size_t)fs;
                    if (wf) {
                        const float *f = (const float *)fine + po;
                        for (int l = 0; l < QF_SPINOR_REALS; l += 2) {
                            fa[l] = f[l];
                            fa[l + 1] = f[l + 1];
                            fb[l] = f[l + 1];
                            fb[l + 1] = -f[l];
                        }
                        qf_mg_restrict_add_wilson_f(fa, fb, qf_mg_wilson_records_f(g, v, fs, vf), n, (float *)w);
                        continue;
                    }
                    for (int l = 0; l < len; l += 2) {
                        double re = qf_real_get(fine, g->prec, po + l), im = qf_real_get(fine, g->prec, po + l + 1);
                        xa[l] = re;
                        xa[l + 1] = im;
                        xb[l] = im;
                        xb[l + 1] = -re;
                    }
                    for (int k = 0; k < n; k++) {
                        size_t vo = qf_mg_v_offset(g, fs, k, 0);
                        if (g->vprec == QF_HALF) qf_mg_v_record(g, v, fs, k, vh); /* decoded once, then as below */
                        for (int chi = 0; chi < 2; chi++) {
                            double *r = w + (size_t)(2 * (2 * k + chi)) * h, *i = r + h;
                            for (int l = 0; l < h; l++) {
                                double vv = g->vprec == QF_HALF ? vh[chi * h + l] : qf_real_get(v, g->prec, vo + chi * h + l);
                                r[l] += vv * xa[chi * h + l];
                                i[l] += vv * xb[chi * h + l];
                            }
                        }
                    }
                }
            }
    qf_lex_coords(j, a->ratio, jb);
    for (int ca = 0; ca < apb[0]; ca++) {
        const double *w = acc + ca * per;
        int c[QF_NDIM] = {jb[0] * apb[0] + ca, jb[1] * apb[1] + ay, jb[2] * apb[2] + az, jb[3] * apb[3] + at};
        size_t o = qf_coarse_site_offset(qf_block_site_index(c, a->cext), n);
        for (int chi = 0; chi < 2; chi++)
            for (int k = 0; k < n; k++) {
                double re = 0.0, im = 0.0;
                if (wf) { /* [k][re, im][24 reals], chirality chi the reals 12 chi .. 12 chi + 11 */
                    const float *r = (const float *)w + 2 * QF_SPINOR_REALS * k + h * chi, *i = r + QF_SPINOR_REALS;
                    for (int l = 0; l < h; l++) {
                        re += r[l];
                        im += i[l];
                    }
                } else {
                    const double *r = w + (size_t)(2 * (2 * k + chi)) * h, *i = r + h;
                    for (int l = 0; l < h; l++) {
                        re += r[l];
                        im += i[l];
                    }
                }
                qf_real_set(coarse, g->prec, o + 2 * (size_t)(chi * n + k), re);
                qf_real_set(coarse, g->prec, o + 2 * (size_t)(chi * n + k) + 1, im);
            }
    }
}
#endif

/* Reals offset in the coarse block of the coarse site that fine site fs lies in. */
static inline QF_HD size_t qf_mg_prolong_coarse_offset(const qf_mg_prolong_args *a, int64_t fs)
{
    const qf_mg_geom *g = &a->g;
    int x[QF_NDIM], c[QF_NDIM];
    qf_block_site_coords(fs, g->fext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) c[mu] = (a->pos[mu] * g->fext[mu] + x[mu]) / g->agg[mu];
    return qf_coarse_site_offset(qf_block_site_index(c, a->cext), g->nvec);
}

/* (P e)(fs)[i] for fine site fs of a fine block. */
static inline QF_HD qf_complex qf_mg_prolong_entry(const qf_mg_prolong_args *a, const void *coarse, const void *v,
                                                   int64_t fs, int i)
{
    const qf_mg_geom *g = &a->g;
    size_t cs = qf_mg_prolong_coarse_offset(a, fs);
    int n = g->nvec, chi = i / (g->nsite / 2);
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int k = 0; k < n; k++) {
        size_t co = cs + (size_t)2 * (chi * n + k);
        acc = qf_cmadd(acc, qf_mg_v_entry(g, v, fs, k, i),
                       qf_cmake(qf_real_get(coarse, g->prec, co), qf_real_get(coarse, g->prec, co + 1)));
    }
    return acc;
}

/* All components of (P e)(fs) into out (2 nsite doubles, re and im interleaved): qf_mg_prolong_entry's
 * sums in the CPU's schedule, the coarse site read once and each vector's record multiplied in as a
 * contiguous run of reals: re and im of every component times Re e_k into A, times Im e_k into B (e_k
 * of the component's chirality), combined at the end, so that the loops over the reals vectorise; the
 * Wilson level's 12 components a site are a constant there, which keeps A and B in registers. As
 * complex products a component at a time the prolongation ran scalar: 8% of the 2-core multigrid
 * solve, 885 ns a site of a 16x8x8x8 block with N = 24 (one core, in the cache), now 200-400. The two
 * chiralities are written out, not looped over: GCC 12 vectorised a loop over them four wide and read
 * the coarse numbers of "chiralities" 2 and 3, past the end of the coarse field at its last site. */
static inline QF_HD_INLINE void qf_mg_prolong_sums(const qf_mg_prolong_args *a, const void *coarse, const void *v,
                                                   int64_t fs, size_t co, int nsite, double *out)
{
    const qf_mg_geom *g = &a->g;
    int n = g->nvec, half = nsite; /* reals of a chirality */
    double A[4 * QF_MG_MAX_NVEC], B[4 * QF_MG_MAX_NVEC];
    for (int l = 0; l < 2 * half; l++) A[l] = B[l] = 0.0;
    for (int k = 0; k < n; k++) {
        size_t vo = qf_mg_v_offset(g, fs, k, 0);
        double vh[4 * QF_MG_MAX_NVEC];
        if (g->vprec == QF_HALF) qf_mg_v_record(g, v, fs, k, vh); /* decoded once, then as below */
        double er0 = qf_real_get(coarse, g->prec, co + 2 * (size_t)k);
        double ei0 = qf_real_get(coarse, g->prec, co + 2 * (size_t)k + 1);
        double er1 = qf_real_get(coarse, g->prec, co + 2 * (size_t)(n + k));
        double ei1 = qf_real_get(coarse, g->prec, co + 2 * (size_t)(n + k) + 1);
        for (int l = 0; l < half; l++) {
            double vl = g->vprec == QF_HALF ? vh[l] : qf_real_get(v, g->prec, vo + (size_t)l);
            A[l] += vl * er0;
            B[l] += vl * ei0;
        }
        for (int l = half; l < 2 * half; l++) {
            double vl = g->vprec == QF_HALF ? vh[l] : qf_real_get(v, g->prec, vo + (size_t)l);
            A[l] += vl * er1;
            B[l] += vl * ei1;
        }
    }
    for (int i = 0; i < nsite; i++) {
        out[2 * i] = A[2 * i] - B[2 * i + 1];
        out[2 * i + 1] = A[2 * i + 1] + B[2 * i];
    }
}

static inline QF_HD_INLINE void qf_mg_prolong_site(const qf_mg_prolong_args *a, const void *coarse, const void *v,
                                                   int64_t fs, double *out)
{
    const qf_mg_geom *g = &a->g;
    size_t co = qf_mg_prolong_coarse_offset(a, fs);
    if (g->nsite == QF_SPINOR_REALS / 2) qf_mg_prolong_sums(a, coarse, v, fs, co, QF_SPINOR_REALS / 2, out);
    else qf_mg_prolong_sums(a, coarse, v, fs, co, g->nsite, out);
}

/* ---- block orthonormalisation ---- */

/* <v_j, v_k> over aggregate ai and chirality chi (sum conj(v_j) v_k). */
static inline QF_HD qf_complex qf_mg_aggregate_dot(const qf_mg_geom *g, const void *v, int64_t ai, int chi, int j,
                                                   int k)
{
    int x[QF_NDIM], h = g->nsite / 2;
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int64_t t = 0, n = qf_volume(g->agg); t < n; t++) {
        qf_mg_aggregate_site(g, ai, t, x);
        int64_t fs = qf_block_site_index(x, g->fext);
        for (int i = chi * h; i < chi * h + h; i++) {
            size_t oj = qf_mg_v_offset(g, fs, j, i), ok = qf_mg_v_offset(g, fs, k, i);
            acc = qf_cconjmadd(acc, qf_cmake(qf_real_get(v, g->prec, oj), qf_real_get(v, g->prec, oj + 1)),
                               qf_cmake(qf_real_get(v, g->prec, ok), qf_real_get(v, g->prec, ok + 1)));
        }
    }
    return acc;
}

/* v_k = a v_k + c v_j over aggregate ai and chirality chi (j < 0: no v_j term). */
static inline QF_HD void qf_mg_aggregate_update(const qf_mg_geom *g, void *v, int64_t ai, int chi, int k, double a,
                                                qf_complex c, int j)
{
    int x[QF_NDIM], h = g->nsite / 2;
    for (int64_t t = 0, n = qf_volume(g->agg); t < n; t++) {
        qf_mg_aggregate_site(g, ai, t, x);
        int64_t fs = qf_block_site_index(x, g->fext);
        for (int i = chi * h; i < chi * h + h; i++) {
            size_t ok = qf_mg_v_offset(g, fs, k, i);
            qf_complex r = qf_cscale(a, qf_cmake(qf_real_get(v, g->prec, ok), qf_real_get(v, g->prec, ok + 1)));
            if (j >= 0) {
                size_t oj = qf_mg_v_offset(g, fs, j, i);
                r = qf_cmadd(r, c, qf_cmake(qf_real_get(v, g->prec, oj), qf_real_get(v, g->prec, oj + 1)));
            }
            qf_real_set(v, g->prec, ok, r.re);
            qf_real_set(v, g->prec, ok + 1, r.im);
        }
    }
}

/* Modified Gram-Schmidt, twice ("twice is enough"), of the N vectors on aggregate ai and chirality chi;
 * returns 1 when a vector vanished against the earlier ones (it is then set to zero), else 0. */
static inline QF_HD int qf_mg_orthonormalize_aggregate(const qf_mg_geom *g, void *v, int64_t ai, int chi)
{
    int bad = 0;
    for (int k = 0; k < g->nvec; k++) {
        double n0 = qf_mg_aggregate_dot(g, v, ai, chi, k, k).re;
        for (int pass = 0; pass < 2; pass++)
            for (int j = 0; j < k; j++) {
                qf_complex c = qf_mg_aggregate_dot(g, v, ai, chi, j, k);
                qf_mg_aggregate_update(g, v, ai, chi, k, 1.0, qf_cscale(-1.0, c), j);
            }
        double n2 = qf_mg_aggregate_dot(g, v, ai, chi, k, k).re;
        /* a vector left with less than 1e-10 of its norm lay in the span of the others */
        int vanished = !(n2 > 1e-20 * n0) || !(n2 > 0.0) || !isfinite(n2);
        bad |= vanished;
        qf_mg_aggregate_update(g, v, ai, chi, k, vanished ? 0.0 : 1.0 / sqrt(n2), qf_cmake(0.0, 0.0), -1);
    }
    return bad;
}

/* ---- the fine operator's terms, for the build ---- */

/* Where V(y) lies for the source of term m at block-local fine site x: the block (faces == NULL or a
 * hop inside the block) or a neighbour's face; returns the site index there and sets *src. */
static inline QF_HD int64_t qf_mg_source_site(const qf_mg_geom *g, const int x[QF_NDIM], int m, const void *v,
                                              const void *const *vface, const void **src)
{
    if (m == QF_MG_LOCAL) {
        *src = v;
        return qf_block_site_index(x, g->fext);
    }
    int mu = m / 2, fwd = m & 1, y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
    y[mu] += fwd ? 1 : -1;
    if (y[mu] >= 0 && y[mu] < g->fext[mu]) {
        *src = v;
        return qf_block_site_index(y, g->fext);
    }
    /* forward: the +mu neighbour's side-0 face; backward: the -mu neighbour's side-1 face */
    y[mu] = fwd ? 0 : g->fext[mu] - 1;
    *src = vface[m];
    return qf_face_site_index(y, g->fext, mu, fwd ? 0 : 1, 1);
}

/* Whether the source of term m at x lies in x's aggregate. */
static inline QF_HD int qf_mg_source_in_aggregate(const qf_mg_geom *g, const int x[QF_NDIM], int m)
{
    if (m == QF_MG_LOCAL) return 1;
    int mu = m / 2, y = x[mu] + ((m & 1) ? 1 : -1);
    return y >= 0 && y < g->fext[mu] && y / g->agg[mu] == x[mu] / g->agg[mu];
}

/* The link matrix W of Wilson hop m at x: U_mu(x) forward, U_mu(x - mu)^dagger backward (from the
 * -mu neighbour's side-1 gauge face at the block's edge), with its coefficient -kappa phase (the
 * boundary phase, conjugated backwards, where the hop crosses the lattice's edge). */
static inline QF_HD qf_su3 qf_mg_wilson_link(const qf_mg_build_args *a, const int x[QF_NDIM], int m,
                                             const void *gauge, const void *const *gface, qf_complex *coef)
{
    const qf_mg_geom *g = &a->g;
    int mu = m / 2, fwd = m & 1, gx = a->origin[mu] + x[mu];
    int crosses = fwd ? gx == a->global[mu] - 1 : gx == 0;
    *coef = qf_cmake(-a->kappa, 0.0);
    if (crosses) *coef = qf_cscale(-a->kappa, qf_cmake(a->phase[mu][0], fwd ? a->phase[mu][1] : -a->phase[mu][1]));
    if (fwd) return qf_su3_load(gauge, a->link_prec, (size_t)qf_block_site_index(x, g->fext) * QF_NDIM + mu);
    int y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
    qf_su3 u;
    if (x[mu] > 0) {
        y[mu] -= 1;
        u = qf_su3_load(gauge, a->link_prec, (size_t)qf_block_site_index(y, g->fext) * QF_NDIM + mu);
    } else {
        y[mu] = g->fext[mu] - 1;
        u = qf_su3_load(gface[mu], a->link_prec, (size_t)qf_face_site_index(y, g->fext, mu, 1, 1) * QF_NDIM + mu);
    }
    qf_su3 w;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) w.e[r][c] = qf_cconj(u.e[c][r]);
    return w;
}

/* (W v)[spin][colour] for a Wilson spinor v at (src, fs). */
static inline QF_HD qf_complex qf_mg_link_times(const qf_su3 *w, const void *src, qf_precision prec, size_t vo,
                                                int spin, int colour)
{
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int c = 0; c < 3; c++) {
        size_t o = vo + (size_t)2 * (spin * 3 + c);
        acc = qf_cmadd(acc, w->e[colour][c], qf_cmake(qf_real_get(src, prec, o), qf_real_get(src, prec, o + 1)));
    }
    return acc;
}

/* Entry i of coef (1 + s g_mu) (W P_chi' v), s = -1 forward and +1 backward, for the vector whose
 * component 0 is at reals offset vo of src. In 2x2 spin blocks g_mu = [[0, B], [B^dagger, 0]]. */
static inline QF_HD qf_complex qf_mg_wilson_hop_entry(const qf_su3 *w, qf_complex coef, int mu, int fwd, int i,
                                                      int chi_src, const void *src, qf_precision prec, size_t vo)
{
    int spin = i / 3, colour = i % 3, chi = spin / 2, col;
    double s = fwd ? -1.0 : 1.0, pr, pi;
    qf_complex val;
    if (chi == chi_src) {
        val = qf_mg_link_times(w, src, prec, vo, spin, colour);
    } else if (chi == 0) { /* (B v_lower)[spin] = B[spin][col] v_lower[col] */
        qf_gamma_block(mu, spin, &col, &pr, &pi);
        val = qf_cscale(s, qf_cmul(qf_cmake(pr, pi), qf_mg_link_times(w, src, prec, vo, 2 + col, colour)));
    } else { /* (B^dagger v_upper)[r] = conj(B[row][r]) v_upper[row], the row whose column is r */
        int r = spin - 2, row = mu < 2 ? 1 - r : r;
        qf_gamma_block(mu, row, &col, &pr, &pi);
        val = qf_cscale(s, qf_cmul(qf_cmake(pr, -pi), qf_mg_link_times(w, src, prec, vo, row, colour)));
    }
    return qf_cmul(coef, val);
}

/* Entry (i, j) of chiral block blk of a clover site (kernels/clover.h's layout). */
static inline QF_HD qf_complex qf_mg_clover_entry(const void *clover, qf_precision prec, int64_t s, int blk, int i, int j)
{
    size_t o = (size_t)s * QF_CLOVER_REALS + (size_t)blk * QF_CLOVER_BLOCK_REALS;
    if (i == j) return qf_cmake(qf_real_get(clover, prec, o + i), 0.0);
    if (i > j) {
        size_t l = o + qf_clover_lower_offset(i, j);
        return qf_cmake(qf_real_get(clover, prec, l), qf_real_get(clover, prec, l + 1));
    }
    size_t l = o + qf_clover_lower_offset(j, i);
    return qf_cmake(qf_real_get(clover, prec, l), -qf_real_get(clover, prec, l + 1));
}

/* Entry i of M_m P_chi' v at fine site x (block storage index fs), v the vector at (src, vo): the
 * fine operator's term m, Wilson-clover or coarse. */
typedef struct {
    qf_su3 w;          /* Wilson hop: the link */
    qf_complex coef;   /* Wilson hop: -kappa phase */
} qf_mg_term;

static inline QF_HD qf_mg_term qf_mg_term_at(const qf_mg_build_args *a, const int x[QF_NDIM], int m,
                                             const void *links, const void *const *gface)
{
    qf_mg_term t;
    t.coef = qf_cmake(0.0, 0.0);
    if (a->source == QF_MG_SOURCE_WILSON && m != QF_MG_LOCAL) t.w = qf_mg_wilson_link(a, x, m, links, gface, &t.coef);
    return t;
}

static inline QF_HD qf_complex qf_mg_term_entry(const qf_mg_build_args *a, const qf_mg_term *t, int64_t fs, int m,
                                                const void *links, const void *clover, int i, int chi_src,
                                                const void *src, size_t vo)
{
    const qf_mg_geom *g = &a->g;
    int h = g->nsite / 2;
    if (a->source == QF_MG_SOURCE_WILSON) {
        if (m != QF_MG_LOCAL) return qf_mg_wilson_hop_entry(&t->w, t->coef, m / 2, m & 1, i, chi_src, src, g->prec, vo);
        if (i / h != chi_src) return qf_cmake(0.0, 0.0); /* the clover term keeps chirality */
        if (!a->has_clover) return qf_cmake(qf_real_get(src, g->prec, vo + 2 * i), qf_real_get(src, g->prec, vo + 2 * i + 1));
        qf_complex acc = qf_cmake(0.0, 0.0);
        for (int j = 0; j < h; j++) {
            size_t o = vo + (size_t)2 * (chi_src * h + j);
            acc = qf_cmadd(acc, qf_mg_clover_entry(clover, a->link_prec, fs, chi_src, i - chi_src * h, j),
                           qf_cmake(qf_real_get(src, g->prec, o), qf_real_get(src, g->prec, o + 1)));
        }
        return acc;
    }
    /* coarse: (Y_m)[i][j] for j in chirality chi_src, at reals ((fs * 9 + m) n2 + i) n2 + j */
    int n2 = g->nsite;
    size_t mo = (size_t)2 * (((size_t)fs * QF_MG_NMAT + m) * n2 + i) * n2;
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int j = chi_src * h; j < chi_src * h + h; j++) {
        size_t o = vo + (size_t)2 * j;
        acc = qf_cmadd(acc, qf_cmake(qf_real_get(links, a->link_prec, mo + 2 * j), qf_real_get(links, a->link_prec, mo + 2 * j + 1)),
                       qf_cmake(qf_real_get(src, g->prec, o), qf_real_get(src, g->prec, o + 1)));
    }
    return acc;
}

/* Reals offset of entry (r, c) of matrix m of aggregate ai in a build's partial buffer. */
static inline QF_HD size_t qf_mg_partial_offset(int nvec, int64_t ai, int m, int r, int c)
{
    size_t n2 = (size_t)2 * nvec;
    return (size_t)2 * ((((size_t)ai * QF_MG_NMAT + m) * n2 + r) * n2 + c);
}

/* Rows in one step of qf_mg_build_rows (a GPU thread's accumulators). */
#define QF_MG_BUILD_ROWS 16

/* Entries (r, c) of matrix target (a hop d, or QF_MG_LOCAL) of aggregate ai for the rows r = chi N + k,
 * k0 <= k < k0 + nk (nk <= QF_MG_BUILD_ROWS), into acc[k - k0]: the whole sums over the aggregate's
 * fine sites, each term applied to column c's vector once for all nk rows (the GPU's mapping; the CPU
 * codelet sums site by site instead). A hop's matrix gathers only the sites on the aggregate's face
 * in its direction, which are walked alone, in the order of the whole walk (the same sums), where each
 * hop's threads had walked every site of the aggregate. */
static inline QF_HD void qf_mg_build_rows(const qf_mg_build_args *a, const void *v, const void *links,
                                          const void *clover, const void *const *vface, const void *const *gface,
                                          int64_t ai, int target, int chi, int k0, int nk, int c, qf_complex *acc)
{
    const qf_mg_geom *g = &a->g;
    int n = g->nvec, h = g->nsite / 2, chi_src = c / n, l = c % n, x[QF_NDIM], walk[QF_NDIM], d[QF_NDIM];
    int face = target != QF_MG_LOCAL, mu = target / 2;
    for (int nu = 0; nu < QF_NDIM; nu++) walk[nu] = face && nu == mu ? 1 : g->agg[nu];
    for (int k = 0; k < nk; k++) acc[k] = qf_cmake(0.0, 0.0);
    for (int64_t w = 0, nw = qf_volume(walk); w < nw; w++) {
        qf_lex_coords(w, walk, d);
        if (face) d[mu] = target & 1 ? g->agg[mu] - 1 : 0;
        qf_mg_aggregate_site(g, ai, qf_lex_index(d, g->agg), x);
        int64_t fs = qf_block_site_index(x, g->fext);
        for (int m = 0; m < QF_MG_NMAT; m++) {
            int inside = qf_mg_source_in_aggregate(g, x, m);
            if (target == QF_MG_LOCAL ? !inside : (m != target || inside)) continue;
            const void *src;
            int64_t ys = qf_mg_source_site(g, x, m, v, vface, &src);
            qf_mg_term term = qf_mg_term_at(a, x, m, links, gface);
            size_t vo = qf_mg_v_offset(g, ys, l, 0);
            for (int i = chi * h; i < chi * h + h; i++) {
                qf_complex te = qf_mg_term_entry(a, &term, fs, m, links, clover, i, chi_src, src, vo);
                for (int k = 0; k < nk; k++) {
                    size_t xo = qf_mg_v_offset(g, fs, k0 + k, i);
                    acc[k] = qf_cconjmadd(acc[k], qf_cmake(qf_real_get(v, g->prec, xo), qf_real_get(v, g->prec, xo + 1)), te);
                }
            }
        }
    }
}

/* ---- assembly: the local term's inverse ---- */

/* Inverts the n x n complex matrix in m (row-major, complex doubles) into inv by Gauss-Jordan elimination
 * with partial pivoting; m is destroyed. Returns 1 when a pivot falls below 1e-14 of the largest entry
 * (singular), else 0. */
static inline QF_HD int qf_mg_invert(qf_complex *m, qf_complex *inv, int n)
{
    double scale = 0.0;
    for (int i = 0; i < n * n; i++) scale = fmax(scale, qf_cnorm2(m[i]));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) inv[i * n + j] = qf_cmake(i == j ? 1.0 : 0.0, 0.0);
    for (int col = 0; col < n; col++) {
        int p = col;
        for (int i = col + 1; i < n; i++)
            if (qf_cnorm2(m[i * n + col]) > qf_cnorm2(m[p * n + col])) p = i;
        if (!(qf_cnorm2(m[p * n + col]) > 1e-28 * scale)) return 1;
        if (p != col)
            for (int j = 0; j < n; j++) {
                qf_complex t = m[p * n + j]; m[p * n + j] = m[col * n + j]; m[col * n + j] = t;
                t = inv[p * n + j]; inv[p * n + j] = inv[col * n + j]; inv[col * n + j] = t;
            }
        qf_complex d = m[col * n + col];
        double dn = qf_cnorm2(d);
        qf_complex dinv = qf_cmake(d.re / dn, -d.im / dn);
        for (int j = 0; j < n; j++) {
            m[col * n + j] = qf_cmul(m[col * n + j], dinv);
            inv[col * n + j] = qf_cmul(inv[col * n + j], dinv);
        }
        for (int i = 0; i < n; i++) {
            if (i == col) continue;
            qf_complex f = m[i * n + col];
            if (f.re == 0.0 && f.im == 0.0) continue;
            for (int j = 0; j < n; j++) {
                m[i * n + j] = qf_csub(m[i * n + j], qf_cmul(f, m[col * n + j]));
                inv[i * n + j] = qf_csub(inv[i * n + j], qf_cmul(f, inv[col * n + j]));
            }
        }
    }
    return 0;
}

/* ---- the coarse operator's hops ---- */

/* Sign of entry (r, c) of a coarse matrix under the dagger g5 M g5: -1 when r and c differ in
 * chirality. */
static inline QF_HD double qf_coarse_sign(int dagger, int r, int c, int n)
{
    return dagger && (r < n) != (c < n) ? -1.0 : 1.0;
}

/* Entry (r, c) of the matrix at reals offset mo of base (the offset single and double storage give it:
 * qf_coarse_matrix_offset, qf_coarse_local_matrix), stored in lp: in half, its row r is record
 * mo / 4N + r of 4N reals, so that each row keeps its own scale. */
static inline QF_HD qf_complex qf_coarse_matrix_entry(const void *base, qf_precision lp, size_t mo, int n, int r, int c)
{
    if (lp == QF_HALF) {
        double v[2];
        qf_half_record_load(base, qf_coarse_matrix_row(mo, n) + (size_t)r, 4 * n, 2 * c, v, 2, QF_HALF_ROWS);
        return qf_cmake(v[0], v[1]);
    }
    size_t o = mo + (size_t)4 * n * r + (size_t)2 * c;
    return qf_cmake(qf_real_get(base, lp, o), qf_real_get(base, lp, o + 1));
}

/* Row r of M v: M the matrix at reals offset mo of base (stored in lp), v the coarse site at reals
 * offset vo of src (in prec). */
static inline QF_HD qf_complex qf_coarse_row(const void *base, qf_precision lp, size_t mo, const void *src, size_t vo,
                                             int r, int n, int dagger, qf_precision prec)
{
    int n2 = 2 * n;
    qf_complex same = qf_cmake(0.0, 0.0), other = qf_cmake(0.0, 0.0);
    for (int c = 0; c < n2; c++) {
        qf_complex m = qf_coarse_matrix_entry(base, lp, mo, n, r, c);
        qf_complex x = qf_cmake(qf_real_get(src, prec, vo + 2 * c), qf_real_get(src, prec, vo + 2 * c + 1));
        if ((r < n) == (c < n)) same = qf_cmadd(same, m, x);
        else other = qf_cmadd(other, m, x);
    }
    return qf_cadd(same, dagger ? qf_cscale(-1.0, other) : other);
}

/* The source of hop d of output site x: in the block (faces NULL) or in the neighbour's face (faces
 * given); 0 when the hop is not of that kind, else 1 with its field and the site's index in it. */
static inline QF_HD_INLINE int qf_coarse_hop_source(const qf_coarse_args *a, const void *in, const void *const *faces,
                                                    const int x[QF_NDIM], int d, const void **src, int64_t *ys)
{
    int mu = d / 2, fwd = d & 1, y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
    y[mu] += fwd ? 1 : -1;
    int inside = y[mu] >= 0 && y[mu] < a->ext[mu];
    if (!inside && a->wrap) {
        y[mu] = fwd ? 0 : a->ext[mu] - 1;
        inside = 1;
    }
    if (inside == (faces != NULL)) return 0;
    if (inside) {
        *src = in;
        *ys = qf_block_site_index(y, a->ext);
    } else {
        y[mu] = fwd ? 0 : a->ext[mu] - 1;
        *src = faces[d];
        *ys = qf_parity_face_index(y, a->ext, mu, fwd ? 0 : 1, a->parity < 0 ? -1 : 1 - a->parity);
    }
    return 1;
}

/* Row r of the hops of output site x (block storage index s) whose sources lie in the block (faces
 * NULL) or in the neighbours' faces (faces given: those hops only): a GPU thread's share. */
static inline QF_HD qf_complex qf_coarse_hops_row(const qf_coarse_args *a, const void *in, const void *links,
                                                  const void *const *faces, const int x[QF_NDIM], int64_t s, int r)
{
    int n = a->nvec;
    qf_complex acc = qf_cmake(0.0, 0.0);
    for (int d = 0; d < QF_NDIRS; d++) {
        const void *src;
        int64_t ys;
        if (qf_coarse_hop_source(a, in, faces, x, d, &src, &ys))
            acc = qf_cadd(acc, qf_coarse_row(links, a->link_prec, qf_coarse_matrix_offset(s, d, n), src,
                                             qf_coarse_site_offset(ys, n), r, n, a->dagger, a->prec));
    }
    return acc;
}

#if !defined(__CUDACC__)
/* A CPU core's schedule of the same sums (the CPU codelets mg_coarse_interior, _exterior and the
 * one-task solve): all 2N rows of a site at once, summed over all of the site's hops before any sum
 * across a vector's lanes. Each source site is loaded once into xp = (re, -im) and xs = (im, re)
 * interleaved, in the storage's precision (the dagger's sign on the other-chirality half folded in:
 * row r then takes -(M x') for r >= N), so that row r of M x is two contiguous dot products over its
 * 4N reals. Four rows at a time share the loads of x; their eight accumulators (a vector of reals
 * each) run through every hop matrix of the site, and only then are their lanes added, in double;
 * the rows of each matrix two groups on are prefetched (the hardware's prefetch alone left the loads
 * waiting: N = 24 on 4^4, one core, 2.4 -> 1.9-2.1 ms an application, N = 32 8.2 -> 3.3-3.7 ms).
 * Single-precision storage is multiplied in single precision, as QUDA's and DDalphaAMG's coarse
 * operators are; half-precision links (a record a row) are widened to single as they are loaded, each
 * row's scale multiplied in. The schedule before (each row and hop its own pair of dot products, in double, two
 * chains of dependent FMAs and a lane sum each) was latency-bound at about 50k cycles a site of
 * N = 24, most of the 2-core multigrid solve at m0 = -0.33 (bench/RESULTS.md). */
typedef float qf_coarse_vf __attribute__((vector_size(32)));
typedef double qf_coarse_vd __attribute__((vector_size(32)));
typedef short qf_coarse_vh8 __attribute__((vector_size(16))); /* a qf_coarse_vf's lanes as 16-bit integers */
typedef short qf_coarse_vh4 __attribute__((vector_size(8)));  /* a qf_coarse_vd's */

/* QF_COARSE_CPU_SCHEDULE(T, V, VH, LP, S) defines, for arithmetic on reals T in vectors V, the matrices
 * stored in precision LP (T's own, or QF_HALF for T float: VH the vector of V's lanes in 16 bits):
 *   qf_coarse_split_S(v, vp, vo, n, dagger, xp, xs)  the site at reals offset vo of v (stored in vp)
 *                                                    split into xp, xs (4N reals of T each)
 *   qf_coarse_matrix_S(links, mo, n)                 the first row of the matrix at reals offset mo
 *   qf_coarse_matvecs_S(n, dagger, nm, m, xp, xs, h)  h += sum_{j < nm} M_j x_j, M_j's rows from m[j]
 *                                                    (2N rows of 4N reals), x_j split into xp[j], xs[j]
 *   qf_coarse_rows_S(..., r0, nr, h)                  the same for rows r0 .. r0 + nr - 1 (nr <= 4)
 *   qf_coarse_hops_site_S(a, in, links, faces, x, s, h)  qf_coarse_hops_site in this storage
 *   qf_coarse_matvec_local_S(base, mo, v, n, dagger, out)  qf_coarse_matvec_local likewise */
#define QF_COARSE_CPU_SCHEDULE(T, V, VH, LP, S)                                                                \
    static inline QF_HD_INLINE void qf_coarse_split_##S(const void *v, qf_precision vp, size_t vo, int n,         \
                                                        int dagger, T *xp, T *xs)                               \
    {                                                                                                          \
        for (int c = 0; c < 2 * n; c++) {                                                                      \
            double sign = dagger && c >= n ? -1.0 : 1.0;                                                       \
            T re = (T)(sign * qf_real_get(v, vp, vo + (size_t)(2 * c)));                                       \
            T im = (T)(sign * qf_real_get(v, vp, vo + (size_t)(2 * c + 1)));                                   \
            xp[2 * c] = re;                                                                                    \
            xp[2 * c + 1] = -im;                                                                               \
            xs[2 * c] = im;                                                                                    \
            xs[2 * c + 1] = re;                                                                                \
        }                                                                                                      \
    }                                                                                                          \
    static inline QF_HD_INLINE const char *qf_coarse_matrix_##S(const void *links, size_t mo, int n)            \
    {                                                                                                          \
        return LP == QF_HALF ? qf_half_record_ptr(links, qf_coarse_matrix_row(mo, n), 4 * n)                   \
                             : (const char *)((const T *)links + mo);                                          \
    }                                                                                                          \
    /* lanes k .. k + VL - 1 of a row, unscaled in half (qf_coarse_row_scale_S) */                             \
    static inline QF_HD_INLINE void qf_coarse_row_lanes_##S(const char *row, int k, V *a)                      \
    {                                                                                                          \
        if (LP == QF_HALF) {                                                                                   \
            VH q;                                                                                              \
            memcpy(&q, (const short *)row + k, sizeof q);                                                      \
            *a = __builtin_convertvector(q, V);                                                                \
        } else {                                                                                               \
            memcpy(a, (const T *)row + k, sizeof *a);                                                          \
        }                                                                                                      \
    }                                                                                                          \
    static inline QF_HD_INLINE T qf_coarse_row_real_##S(const char *row, int k)                                \
    {                                                                                                          \
        return LP == QF_HALF ? (T)((const short *)row)[k] : ((const T *)row)[k];                               \
    }                                                                                                          \
    static inline QF_HD_INLINE T qf_coarse_row_scale_##S(const char *row, int len)                             \
    {                                                                                                          \
        return LP == QF_HALF ? (T)(*qf_half_norm_at(row, 0, len, QF_HALF_ROWS) * (1.0 / QF_HALF_MAX)) : (T)1;  \
    }                                                                                                          \
    static inline QF_HD_INLINE void qf_coarse_rows_##S(int n, int dagger, int nm, const char *const *m,          \
                                                       const T *const *xp, const T *const *xs, int r0, int nr,  \
                                                       double *h)                                               \
    {                                                                                                          \
        enum { VL = sizeof(V) / sizeof(T) };                                                                   \
        int len = 4 * n, vend = len / VL * VL;                                                                 \
        size_t rb = qf_record_bytes(LP, len);                                                                  \
        V re[4] = {0}, im[4] = {0};                                                                            \
        double tre[4] = {0.0}, tim[4] = {0.0};                                                                 \
        for (int j = 0; j < nm; j++) {                                                                         \
            const char *row = m[j] + (size_t)r0 * rb;                                                          \
            T scale[4];                                                                                        \
            for (int q = 0; q < nr; q++) scale[q] = qf_coarse_row_scale_##S(row + q * rb, len);                \
            if (r0 + 2 * nr < 2 * n) { /* the rows of M_j two groups on into the second-level cache */          \
                const char *next = row + (size_t)2 * nr * rb;                                                  \
                for (size_t b = 0; b < (size_t)nr * rb; b += 64) __builtin_prefetch(next + b, 0, 2);           \
            }                                                                                                  \
            /* in half a matrix's sums apart, each row's scale multiplied in once they are whole */            \
            V jre[4] = {0}, jim[4] = {0}, *are = LP == QF_HALF ? jre : re, *aim = LP == QF_HALF ? jim : im;    \
            for (int k = 0; k < vend; k += VL) {                                                               \
                V p, s;                                                                                        \
                memcpy(&p, xp[j] + k, sizeof p);                                                               \
                memcpy(&s, xs[j] + k, sizeof s);                                                               \
                for (int q = 0; q < nr; q++) {                                                                 \
                    V a;                                                                                       \
                    qf_coarse_row_lanes_##S(row + q * rb, k, &a);                                              \
                    are[q] += a * p;                                                                           \
                    aim[q] += a * s;                                                                           \
                }                                                                                              \
            }                                                                                                  \
            if (LP == QF_HALF)                                                                                 \
                for (int q = 0; q < nr; q++) {                                                                 \
                    re[q] += jre[q] * scale[q];                                                                \
                    im[q] += jim[q] * scale[q];                                                                \
                }                                                                                              \
            for (int k = vend; k < len; k++) /* 4N not a multiple of the lanes: N odd */                       \
                for (int q = 0; q < nr; q++) {                                                                 \
                    double a = (double)qf_coarse_row_real_##S(row + q * rb, k) * scale[q];                     \
                    tre[q] += a * xp[j][k];                                                                    \
                    tim[q] += a * xs[j][k];                                                                    \
                }                                                                                              \
        }                                                                                                      \
        for (int q = 0; q < nr; q++) {                                                                         \
            double sr = tre[q], si = tim[q], sign = dagger && r0 + q >= n ? -1.0 : 1.0;                        \
            for (int l = 0; l < VL; l++) {                                                                     \
                sr += re[q][l];                                                                                \
                si += im[q][l];                                                                                \
            }                                                                                                  \
            h[2 * (r0 + q)] += sign * sr;                                                                      \
            h[2 * (r0 + q) + 1] += sign * si;                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    static inline QF_HD_INLINE void qf_coarse_matvecs_##S(int n, int dagger, int nm, const char *const *m,       \
                                                          const T *const *xp, const T *const *xs, double *h)    \
    {                                                                                                          \
        int r0 = 0;                                                                                            \
        for (; r0 + 4 <= 2 * n; r0 += 4) qf_coarse_rows_##S(n, dagger, nm, m, xp, xs, r0, 4, h);               \
        if (r0 < 2 * n) qf_coarse_rows_##S(n, dagger, nm, m, xp, xs, r0, 2, h); /* 2N is even */               \
    }                                                                                                          \
    static inline QF_HD_INLINE void qf_coarse_hops_site_##S(const qf_coarse_args *a, const void *in,             \
                                                            const void *links, const void *const *faces,       \
                                                            const int x[QF_NDIM], int64_t s, double *h)         \
    {                                                                                                          \
        int n = a->nvec, nm = 0;                                                                               \
        T xp[QF_NDIRS][4 * QF_MG_MAX_NVEC], xs[QF_NDIRS][4 * QF_MG_MAX_NVEC];                                  \
        const char *m[QF_NDIRS];                                                                               \
        const T *pp[QF_NDIRS], *ps[QF_NDIRS];                                                                  \
        for (int d = 0; d < QF_NDIRS; d++) {                                                                   \
            const void *src;                                                                                   \
            int64_t ys;                                                                                        \
            if (!qf_coarse_hop_source(a, in, faces, x, d, &src, &ys)) continue;                                \
            qf_coarse_split_##S(src, a->prec, qf_coarse_site_offset(ys, n), n, a->dagger, xp[nm], xs[nm]);     \
            m[nm] = qf_coarse_matrix_##S(links, qf_coarse_matrix_offset(s, d, n), n);                          \
            pp[nm] = xp[nm];                                                                                   \
            ps[nm] = xs[nm];                                                                                   \
            nm++;                                                                                              \
        }                                                                                                      \
        qf_coarse_matvecs_##S(n, a->dagger, nm, m, pp, ps, h);                                                 \
    }                                                                                                          \
    static inline QF_HD_INLINE void qf_coarse_matvec_local_##S(const void *base, size_t mo, const double *v,     \
                                                               int n, int dagger, double *out)                  \
    {                                                                                                          \
        T xp[4 * QF_MG_MAX_NVEC], xs[4 * QF_MG_MAX_NVEC];                                                      \
        const char *m = qf_coarse_matrix_##S(base, mo, n);                                                     \
        const T *pp = xp, *ps = xs;                                                                            \
        qf_coarse_split_##S(v, QF_DOUBLE, 0, n, dagger, xp, xs);                                               \
        qf_coarse_matvecs_##S(n, dagger, 1, &m, &pp, &ps, out);                                                \
    }
QF_COARSE_CPU_SCHEDULE(float, qf_coarse_vf, qf_coarse_vh8, QF_SINGLE, f)
QF_COARSE_CPU_SCHEDULE(double, qf_coarse_vd, qf_coarse_vh4, QF_DOUBLE, d)
QF_COARSE_CPU_SCHEDULE(float, qf_coarse_vf, qf_coarse_vh8, QF_HALF, h)

/* The hops of output site x (storage index s), in the block or through the faces as for
 * qf_coarse_hops_row, added into h (re, im interleaved, 4N doubles) for all rows. */
static inline QF_HD_INLINE void qf_coarse_hops_site(const qf_coarse_args *a, const void *in, const void *links,
                                                    const void *const *faces, const int x[QF_NDIM], int64_t s, double *h)
{
    if (a->link_prec == QF_HALF) qf_coarse_hops_site_h(a, in, links, faces, x, s, h);
    else if (a->prec == QF_DOUBLE) qf_coarse_hops_site_d(a, in, links, faces, x, s, h);
    else qf_coarse_hops_site_f(a, in, links, faces, x, s, h);
}

/* out += M v for all rows: M the matrix at reals offset mo of base (stored in lp), v 4N doubles. */
static inline QF_HD_INLINE void qf_coarse_matvec_local(const void *base, size_t mo, const double *v, int n, int dagger,
                                                       qf_precision lp, double *out)
{
    if (lp == QF_HALF) qf_coarse_matvec_local_h(base, mo, v, n, dagger, out);
    else if (lp == QF_DOUBLE) qf_coarse_matvec_local_d(base, mo, v, n, dagger, out);
    else qf_coarse_matvec_local_f(base, mo, v, n, dagger, out);
}
#endif /* !__CUDACC__ */

/* Whether site x of the block waits for face hops (the exterior finishes it). */
static inline QF_HD int qf_coarse_partial(const qf_coarse_args *a, const int x[QF_NDIM])
{
    return a->b != 0.0 && !a->wrap && qf_on_face(x, a->ext);
}

/* The local matrix the finish multiplies by at site s: X^-1 (xinv) or the local term of links; its reals
 * offset into *mo. */
static inline QF_HD const void *qf_coarse_local_matrix(const qf_coarse_args *a, const void *links, const void *xinv,
                                                       int64_t s, size_t *mo)
{
    int n2 = 2 * a->nvec;
    *mo = a->local_inverse ? (size_t)2 * (size_t)s * n2 * n2 : qf_coarse_matrix_offset(s, QF_MG_LOCAL, a->nvec);
    return a->local_inverse ? xinv : links;
}

/* The finish's terms at one real entry of a site, from x's entry xk (0 without x) and the hop sum's
 * entry hk: *v the local matrix's source (a x unless the matrix multiplies the hops alone, b h unless
 * it multiplies x alone) and *own what is added outside the matrix. Returns whether a local matrix
 * applies (local_on not QF_CLOVER_NONE). The one statement of the finish's rule, which the CPU's site
 * schedule, the GPU's row schedule and its warp schedule (mg_coarse_warp.cuh) share. */
static inline QF_HD int qf_coarse_finish_terms(const qf_coarse_args *a, double xk, double hk, double *v, double *own)
{
    int lx = a->local_on == QF_CLOVER_X, lh = a->local_on == QF_CLOVER_HOPS, none = a->local_on == QF_CLOVER_NONE;
    int hops = a->b != 0.0;
    *v = (a->has_x && !lh ? a->a * xk : 0.0) + (!lx && hops ? a->b * hk : 0.0);
    *own = (a->has_x && (lh || none) ? a->a * xk : 0.0) + ((lx || none) && hops ? a->b * hk : 0.0);
    return !none;
}

/* x's real entry k at site offset xo (stored in prec), or 0 without x. */
static inline QF_HD double qf_coarse_x_entry(const qf_coarse_args *a, const void *x, qf_precision prec, size_t xo,
                                             int k)
{
    return a->has_x ? qf_real_get(x, prec, xo + (size_t)k) : 0.0;
}

/* Row r of the finished output at site s from the hop sum h (the site's 2N entries, in double). */
static inline QF_HD qf_complex qf_coarse_finish_row(const qf_coarse_args *a, const qf_complex *h, const void *links,
                                                    const void *x, const void *xinv, int64_t s, int r)
{
    int n = a->nvec, n2 = 2 * n;
    size_t xo = qf_coarse_site_offset(s, n);
    double vr, vi, own_r, own_i;
    qf_complex acc = qf_cmake(0.0, 0.0);
    if (a->local_on != QF_CLOVER_NONE) {
        size_t lo;
        const void *lbase = qf_coarse_local_matrix(a, links, xinv, s, &lo);
        for (int c = 0; c < n2; c++) {
            qf_coarse_finish_terms(a, qf_coarse_x_entry(a, x, a->prec, xo, 2 * c), h[c].re, &vr, &own_r);
            qf_coarse_finish_terms(a, qf_coarse_x_entry(a, x, a->prec, xo, 2 * c + 1), h[c].im, &vi, &own_i);
            qf_complex m = qf_coarse_matrix_entry(lbase, a->link_prec, lo, n, r, c);
            acc = qf_cmadd(acc, qf_cscale(qf_coarse_sign(a->dagger, r, c, n), m), qf_cmake(vr, vi));
        }
    }
    qf_coarse_finish_terms(a, qf_coarse_x_entry(a, x, a->prec, xo, 2 * r), h[r].re, &vr, &own_r);
    qf_coarse_finish_terms(a, qf_coarse_x_entry(a, x, a->prec, xo, 2 * r + 1), h[r].im, &vi, &own_i);
    return qf_cadd(acc, qf_cmake(own_r, own_i));
}

#if !defined(__CUDACC__)
/* All rows of qf_coarse_finish_row at once (the CPU's schedule): out (4N doubles) from the hop sum h. */
static inline QF_HD_INLINE void qf_coarse_finish_site(const qf_coarse_args *a, const double *h, const void *links,
                                                      const void *x, const void *xinv, int64_t s, double *out)
{
    int n = a->nvec, len = 4 * n, local = 0;
    size_t xo = qf_coarse_site_offset(s, n);
    double v[4 * QF_MG_MAX_NVEC], own[4 * QF_MG_MAX_NVEC];
    for (int k = 0; k < len; k++) {
        local = qf_coarse_finish_terms(a, qf_coarse_x_entry(a, x, a->prec, xo, k), h[k], &v[k], &own[k]);
        out[k] = 0.0;
    }
    if (local) {
        size_t mo;
        const void *m = qf_coarse_local_matrix(a, links, xinv, s, &mo);
        qf_coarse_matvec_local(m, mo, v, n, a->dagger, a->link_prec, out);
    }
    for (int k = 0; k < len; k++) out[k] += own[k];
}
#endif

/* Gather: entry t of all eight faces, whole coarse sites of the gathered parity. */
static inline QF_HD void qf_coarse_gather_site(const qf_coarse_gather_args *a, const void *in, void *const *face,
                                               int64_t t)
{
    int mu, side, y[QF_NDIM];
    int64_t f = qf_parity_faces_entry(a->ext, a->parity, t, &mu, &side);
    qf_parity_face_coords(f, a->ext, mu, side, a->parity, y);
    int64_t s = qf_block_site_index(y, a->ext);
    int nr = 4 * a->nvec;
    for (int i = 0; i < nr; i++)
        qf_real_set(face[2 * mu + side], a->prec, (size_t)f * nr + i, qf_real_get(in, a->prec, (size_t)s * nr + i));
}

static inline QF_HD int64_t qf_coarse_gather_total(const qf_coarse_gather_args *a)
{
    return qf_parity_faces_total(a->ext, a->parity);
}

#endif
