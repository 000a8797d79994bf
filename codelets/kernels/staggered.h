/* Site kernels of improved staggered (asqtad) quarks in MILC's conventions (DESIGN.md), shared by the
 * CPU and CUDA codelets:
 *
 *   - the link smearing, MILC's "staple" algorithm as a sequence of one-hop steps that only ever read a
 *     block and its neighbours' faces (seed 002's standard algorithm): the staggered phases and the
 *     boundary phases multiplied into the links, the generalised staple
 *       S_nu[W](x) = U_nu(x) W(x+nu) U_nu(x+mu)^dag + U_nu(x-nu)^dag W(x-nu) U_nu(x-nu+mu)
 *     of a matrix field W in direction mu, and the Naik link U_mu(x) U_mu(x+mu) U_mu(x+2mu). The lower
 *     half of a staple at the block's first layer in nu comes from the backward neighbour, which
 *     computes T(y) = U_nu(y)^dag W(y) U_nu(y+mu) for its last layer and sends that (as the Wilson
 *     gather sends U^dag psi), so that only W's and T's faces travel in nu; U_nu(x+mu) comes from U's
 *     faces in mu.
 *   - the asqtad operator D psi(x) = sum_mu [F_mu(x) psi(x+mu) - F_mu(x-mu)^dag psi(x-mu)
 *     + L_mu(x) psi(x+3mu) - L_mu(x-3mu)^dag psi(x-3mu)], as a stencil of two face sets: 1 deep for
 *     the fat hop and 3 deep for the Naik hop. A side-0 face holds psi, a side-1 face the link^dag psi
 *     of its sites (the backward hop multiplied in by the sender).
 *
 * The operator's links are one field of QF_ASQTAD_LINK_MATRICES matrices a site: F_0..F_3, then
 * L_0..L_3. Arithmetic is in double; the smearing works on double-precision fields. */
#ifndef QF_KERNEL_STAGGERED_H
#define QF_KERNEL_STAGGERED_H

#include "face.h"
#include "su3.h"

#define QF_COLOUR_REALS 6
#define QF_ASQTAD_LINK_MATRICES (2 * QF_NDIM)
/* face set k of the operator: hops of length 1 (k = 0, fat) and 3 (k = 1, Naik) */
#define QF_ASQTAD_FACE_SETS 2
static inline QF_HD int qf_asqtad_hop_length(int k) { return 2 * k + 1; }

/* ---- colour vectors ---- */

typedef struct {
    qf_complex c[3];
} qf_colour;

static inline QF_HD qf_colour qf_colour_load(const void *base, qf_precision prec, int64_t i)
{
    qf_colour v;
    qf_complex_load(base, prec, (size_t)i * QF_COLOUR_REALS, v.c, 3);
    return v;
}
static inline QF_HD void qf_colour_store(void *base, qf_precision prec, int64_t i, const qf_colour *v)
{
    qf_complex_store(base, prec, (size_t)i * QF_COLOUR_REALS, v->c, 3);
}

/* h += s U v and h += s U^dag v */
static inline QF_HD void qf_colour_add_mul(qf_colour *h, double s, const qf_su3 *u, const qf_colour *v)
{
    for (int i = 0; i < 3; i++) {
        qf_complex a = qf_cmul(u->e[i][0], v->c[0]);
        a = qf_cmadd(a, u->e[i][1], v->c[1]);
        a = qf_cmadd(a, u->e[i][2], v->c[2]);
        h->c[i] = qf_cadd(h->c[i], qf_cscale(s, a));
    }
}
static inline QF_HD qf_colour qf_colour_dag_mul(const qf_su3 *u, const qf_colour *v)
{
    qf_colour r;
    for (int i = 0; i < 3; i++) {
        qf_complex a = qf_cconjmul(u->e[0][i], v->c[0]);
        a = qf_cconjmadd(a, u->e[1][i], v->c[1]);
        r.c[i] = qf_cconjmadd(a, u->e[2][i], v->c[2]);
    }
    return r;
}

/* ---- link smearing ---- */

/* m *= c (complex) */
static inline QF_HD void qf_su3_scale_by(qf_su3 *m, qf_complex c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m->e[i][j] = qf_cmul(c, m->e[i][j]);
}

/* The two halves of a staple, which both algorithms assemble from the matrices at their own addresses:
 * the upper U_nu(x) W(x+nu) U_nu(x+mu)^dag and, at y = x - nu, the lower U_nu(y)^dag W(y) U_nu(y+mu). */
static inline QF_HD qf_su3 qf_asqtad_upper(const qf_su3 *un, const qf_su3 *w, const qf_su3 *un_mu)
{
    qf_su3 t = qf_su3_mul(un, w);
    return qf_su3_mul_nd(&t, un_mu);
}
static inline QF_HD qf_su3 qf_asqtad_lower_of(const qf_su3 *un, const qf_su3 *w, const qf_su3 *un_mu)
{
    qf_su3 t = qf_su3_mul_dn(un, w);
    return qf_su3_mul(&t, un_mu);
}

/* F_mu of site s of the asqtad links += coef st */
static inline QF_HD void qf_asqtad_fat_add(void *links, int64_t s, int mu, double coef, const qf_su3 *st)
{
    size_t fo = (size_t)QF_ASQTAD_LINK_MATRICES * s + mu;
    qf_su3 fat = qf_su3_load(links, QF_DOUBLE, fo), add = *st;
    qf_su3_scale_by(&add, qf_cmake(coef, 0.0));
    qf_su3_add_to(&fat, &add);
    qf_su3_store(links, QF_DOUBLE, fo, &fat);
}

/* L_mu(s) = naik u0 u1 u2 into the asqtad links' Naik slot */
static inline QF_HD void qf_asqtad_naik_store(void *links, int64_t s, int mu, double naik, const qf_su3 u[3])
{
    qf_su3 t = qf_su3_mul(&u[0], &u[1]), m = qf_su3_mul(&t, &u[2]);
    qf_su3_scale_by(&m, qf_cmake(naik, 0.0));
    qf_su3_store(links, QF_DOUBLE, (size_t)QF_ASQTAD_LINK_MATRICES * s + QF_NDIM + mu, &m);
}

/* The staggered phase eta_mu of global site g: eta_x = (-1)^t, eta_y = (-1)^(t+x), eta_z = (-1)^(t+x+y),
 * eta_t = 1. */
static inline QF_HD double qf_staggered_eta(const int g[QF_NDIM], int mu)
{
    int n = mu == 3 ? 0 : g[3];
    for (int nu = 0; nu < mu && mu < 3; nu++) n += g[nu];
    return n & 1 ? -1.0 : 1.0;
}

/* asqtad_phases: the phased links V = eta U (times the boundary phase on a link that leaves the lattice)
 * of one block, and the fat link's start one_link V (its other slots zero, the long links zero). */
typedef struct {
    int ext[QF_NDIM];
    int origin[QF_NDIM]; /* the block's first site, global coordinates (written by the graph builder) */
    int global[QF_NDIM];
    double phase[QF_NDIM][2];
    double one_link;
    qf_precision prec; /* of the input gauge field */
} qf_asqtad_phase_args;

static inline QF_HD void qf_asqtad_phases_site(const qf_asqtad_phase_args *a, const void *u, void *v, void *links,
                                               int64_t s)
{
    int x[QF_NDIM], g[QF_NDIM];
    qf_block_site_coords(s, a->ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) g[mu] = a->origin[mu] + x[mu];
    for (int mu = 0; mu < QF_NDIM; mu++) {
        qf_su3 m = qf_su3_load(u, a->prec, (size_t)QF_NDIM * s + mu);
        qf_complex f = qf_cmake(qf_staggered_eta(g, mu), 0.0);
        if (g[mu] == a->global[mu] - 1) f = qf_cmul(f, qf_cmake(a->phase[mu][0], a->phase[mu][1]));
        qf_su3_scale_by(&m, f);
        qf_su3_store(v, QF_DOUBLE, (size_t)QF_NDIM * s + mu, &m);
        qf_su3 fat = m, zero = qf_su3_zero();
        qf_su3_scale_by(&fat, qf_cmake(a->one_link, 0.0));
        qf_su3_store(links, QF_DOUBLE, (size_t)QF_ASQTAD_LINK_MATRICES * s + mu, &fat);
        qf_su3_store(links, QF_DOUBLE, (size_t)QF_ASQTAD_LINK_MATRICES * s + QF_NDIM + mu, &zero);
    }
}

/* U_nu(y) of the phased links v for block-local y that may lie up to u_depth sites past the block's end in
 * direction mu only, then in the forward neighbour's side-0 face uface (whole sites). */
static inline QF_HD qf_su3 qf_asqtad_link_fwd(const void *v, const void *uface, const int ext[QF_NDIM], int u_depth,
                                              const int y[QF_NDIM], int mu, int nu)
{
    if (y[mu] < ext[mu]) return qf_su3_load(v, QF_DOUBLE, (size_t)QF_NDIM * qf_block_site_index(y, ext) + nu);
    int z[QF_NDIM] = {y[0], y[1], y[2], y[3]};
    z[mu] -= ext[mu];
    return qf_su3_load(uface, QF_DOUBLE, (size_t)QF_NDIM * qf_face_site_index(z, ext, mu, 0, u_depth) + nu);
}

/* A staple step S_nu[W] for links in direction mu. W's matrix at block site s is matrix
 * w_stride s + w_slot of the w field (the phased links' mu-th, or a link-matrix field). */
typedef struct {
    int ext[QF_NDIM];
    int mu, nu;
    int w_stride, w_slot;
    int u_depth; /* of the phased links' faces */
    double coef; /* fat_mu += coef S */
    int keep;    /* S is written to a link-matrix field (the next step's W) */
    int w_is_v;  /* W is the phased links' mu-th (the task has no buffer of its own for W) */
    int team;    /* CPU: the sites shared among the team (cpu_team.h) */
} qf_asqtad_staple_args;

static inline QF_HD qf_su3 qf_asqtad_w(const qf_asqtad_staple_args *a, const void *w, int64_t s)
{
    return qf_su3_load(w, QF_DOUBLE, (size_t)a->w_stride * s + a->w_slot);
}

/* T(y) = U_nu(y)^dag W(y) U_nu(y+mu) at block site y */
static inline QF_HD qf_su3 qf_asqtad_lower(const qf_asqtad_staple_args *a, const void *w, const void *v,
                                           const void *uface, const int y[QF_NDIM])
{
    int64_t s = qf_block_site_index(y, a->ext);
    int yp[QF_NDIM] = {y[0], y[1], y[2], y[3]};
    yp[a->mu] += 1;
    qf_su3 un = qf_su3_load(v, QF_DOUBLE, (size_t)QF_NDIM * s + a->nu);
    qf_su3 ww = qf_asqtad_w(a, w, s);
    qf_su3 r = qf_asqtad_link_fwd(v, uface, a->ext, a->u_depth, yp, a->mu, a->nu);
    return qf_asqtad_lower_of(&un, &ww, &r);
}

/* The staple step's gather: entry f of the two nu faces (side 0 first: W of the block's first layer
 * in nu; then side 1: T of its last layer). */
static inline QF_HD void qf_asqtad_staple_gather_site(const qf_asqtad_staple_args *a, const void *w, const void *v,
                                                      const void *uface, void *face0, void *face1, int64_t f)
{
    int64_t n = qf_face_volume(a->ext, a->nu, 1);
    int side = f >= n, y[QF_NDIM];
    if (side) f -= n;
    qf_face_site_coords(f, a->ext, a->nu, side, 1, y);
    qf_su3 m = side ? qf_asqtad_lower(a, w, v, uface, y) : qf_asqtad_w(a, w, qf_block_site_index(y, a->ext));
    qf_su3_store(side ? face1 : face0, QF_DOUBLE, (size_t)f, &m);
}

/* The staple at block site s: upper U_nu(x) W(x+nu) U_nu(x+mu)^dag and lower T(x-nu), W(x+nu) from the
 * nu-forward neighbour's side-0 face wface and T(x-nu) from the nu-backward neighbour's side-1 face
 * tface when they lie outside the block; fat_mu += coef S, and S kept when asked. */
static inline QF_HD void qf_asqtad_staple_site(const qf_asqtad_staple_args *a, const void *w, const void *v,
                                               const void *uface, const void *wface, const void *tface, void *links,
                                               void *keep, int64_t s)
{
    int x[QF_NDIM], y[QF_NDIM];
    qf_block_site_coords(s, a->ext, x);
    int mu = a->mu, nu = a->nu;
    for (int k = 0; k < QF_NDIM; k++) y[k] = x[k];
    qf_su3 wf;
    if (x[nu] + 1 < a->ext[nu]) {
        y[nu] += 1;
        wf = qf_asqtad_w(a, w, qf_block_site_index(y, a->ext));
    } else {
        y[nu] = 0;
        wf = qf_su3_load(wface, QF_DOUBLE, (size_t)qf_face_site_index(y, a->ext, nu, 0, 1));
    }
    for (int k = 0; k < QF_NDIM; k++) y[k] = x[k];
    y[mu] += 1;
    qf_su3 un = qf_su3_load(v, QF_DOUBLE, (size_t)QF_NDIM * s + nu);
    qf_su3 r = qf_asqtad_link_fwd(v, uface, a->ext, a->u_depth, y, mu, nu);
    qf_su3 st = qf_asqtad_upper(&un, &wf, &r);
    for (int k = 0; k < QF_NDIM; k++) y[k] = x[k];
    qf_su3 lower;
    if (x[nu] > 0) {
        y[nu] -= 1;
        lower = qf_asqtad_lower(a, w, v, uface, y);
    } else {
        y[nu] = a->ext[nu] - 1;
        lower = qf_su3_load(tface, QF_DOUBLE, (size_t)qf_face_site_index(y, a->ext, nu, 1, 1));
    }
    qf_su3_add_to(&st, &lower);
    if (a->keep) qf_su3_store(keep, QF_DOUBLE, (size_t)s, &st);
    qf_asqtad_fat_add(links, s, mu, a->coef, &st);
}

/* asqtad_long: L_mu(x) = naik U_mu(x) U_mu(x+mu) U_mu(x+2mu) of the phased links, the forward links from
 * the mu-forward neighbours' faces (2 deep) past the block's end. */
typedef struct {
    int ext[QF_NDIM];
    int u_depth;
    double naik;
    int team; /* CPU: the sites shared among the team (cpu_team.h) */
} qf_asqtad_long_args;

static inline QF_HD void qf_asqtad_long_site(const qf_asqtad_long_args *a, const void *v, const void *const *uface,
                                             void *links, int64_t s)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, a->ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
        qf_su3 u[3];
        for (int k = 0; k < 3; k++) {
            y[mu] = x[mu] + k;
            u[k] = qf_asqtad_link_fwd(v, uface[mu], a->ext, a->u_depth, y, mu, mu);
        }
        qf_asqtad_naik_store(links, s, mu, a->naik, u);
    }
}

/* ---- link smearing on an extended block (seed 002's extended-volume algorithm) ----
 * A block's phased links with a halo QF_ASQTAD_HALO sites deep on every side, corners included, in
 * lexicographic order of the extended extents X = E + 2 QF_ASQTAD_HALO (x fastest), 4 links a site. The
 * halo is filled one direction after the other: in round mu a block sends its first and last
 * QF_ASQTAD_HALO layers in mu over the whole extended extents of the other directions (so the halos of
 * the earlier rounds travel with them, and a corner arrives in the round of its last direction), and
 * the neighbours write them into their mu halo. Then the whole smearing runs on the block without a
 * message: the staples S1 and S2 on the extended block less its outermost layer, which is where their
 * neighbours exist (S2 is valid on the block and one layer beyond, which the 7-staple reads), the fat
 * and Naik links on the block's own sites. Halo 2: the Lepage term and the Naik link reach 2 sites. */
#define QF_ASQTAD_HALO 2

static inline QF_HD void qf_asqtad_ext_extents(const int ext[QF_NDIM], int X[QF_NDIM])
{
    for (int mu = 0; mu < QF_NDIM; mu++) X[mu] = ext[mu] + 2 * QF_ASQTAD_HALO;
}

/* Sites of the extended block, and of its slab in direction mu (QF_ASQTAD_HALO layers across the
 * extended extents of the other directions). */
static inline QF_HD int64_t qf_asqtad_ext_volume(const int ext[QF_NDIM])
{
    int X[QF_NDIM];
    qf_asqtad_ext_extents(ext, X);
    return qf_volume(X);
}
static inline QF_HD int64_t qf_asqtad_slab_volume(const int ext[QF_NDIM], int mu)
{
    int X[QF_NDIM];
    qf_asqtad_ext_extents(ext, X);
    return qf_volume(X) / X[mu] * QF_ASQTAD_HALO;
}

/* asqtad_ext_fill: the block's own sites of the extended links from the phased links v (site s). */
static inline QF_HD void qf_asqtad_ext_fill_site(const int ext[QF_NDIM], const void *v, void *e, int64_t s)
{
    int x[QF_NDIM], X[QF_NDIM];
    qf_asqtad_ext_extents(ext, X);
    qf_block_site_coords(s, ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] += QF_ASQTAD_HALO;
    int64_t i = qf_lex_index(x, X);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        qf_su3 m = qf_su3_load(v, QF_DOUBLE, (size_t)QF_NDIM * s + mu);
        qf_su3_store(e, QF_DOUBLE, (size_t)QF_NDIM * i + mu, &m);
    }
}

/* Entry f of the (mu, side) slab <-> the extended site it holds: in the sender, its first (side 0) or
 * last (side 1) QF_ASQTAD_HALO layers of own sites; in the receiver, the forward halo (from the forward
 * neighbour's side 0) or the backward one (from the backward neighbour's side 1). */
static inline QF_HD int64_t qf_asqtad_slab_site(const int ext[QF_NDIM], int mu, int side, int receiver, int64_t f)
{
    int X[QF_NDIM], S[QF_NDIM], y[QF_NDIM];
    qf_asqtad_ext_extents(ext, X);
    for (int nu = 0; nu < QF_NDIM; nu++) S[nu] = X[nu];
    S[mu] = QF_ASQTAD_HALO;
    qf_lex_coords(f, S, y);
    if (!receiver) y[mu] += side ? ext[mu] : QF_ASQTAD_HALO;
    else y[mu] += side ? 0 : ext[mu] + QF_ASQTAD_HALO;
    return qf_lex_index(y, X);
}

/* asqtad_ext_slabs: one extended site's 4 links, block to slab (pack) or slab to halo (unpack). */
typedef struct {
    int ext[QF_NDIM];
    int mu, unpack;
} qf_asqtad_slab_args;
static inline QF_HD void qf_asqtad_slab_copy(const int ext[QF_NDIM], int mu, int side, int unpack, void *e, void *slab,
                                             int64_t f)
{
    int64_t i = qf_asqtad_slab_site(ext, mu, side, unpack, f);
    double v[QF_LINKS_REALS];
    if (unpack) {
        qf_reals_load(slab, QF_DOUBLE, (size_t)f * QF_LINKS_REALS, v, QF_LINKS_REALS);
        qf_reals_store(e, QF_DOUBLE, (size_t)i * QF_LINKS_REALS, v, QF_LINKS_REALS);
    } else {
        qf_reals_load(e, QF_DOUBLE, (size_t)i * QF_LINKS_REALS, v, QF_LINKS_REALS);
        qf_reals_store(slab, QF_DOUBLE, (size_t)f * QF_LINKS_REALS, v, QF_LINKS_REALS);
    }
}

/* One staple step S_nu[W] for links in mu on an extended block: over the extended block less its
 * outermost layer (all 0) or over the block's own sites (all 1: a staple no later step reads). W is
 * matrix w_stride i + w_slot of w at extended site i; S goes to keep (NULL: not kept), and coef S onto
 * F_mu of the block's own sites in links (the asqtad links, block layout). */
typedef struct {
    int ext[QF_NDIM];
    int mu, nu;
    int w_stride, w_slot;
    double coef;
} qf_asqtad_ext_step;

/* The region a step covers: its first extended coordinate and extents. */
static inline QF_HD void qf_asqtad_ext_region(const int ext[QF_NDIM], int own, int lo[QF_NDIM], int R[QF_NDIM])
{
    for (int mu = 0; mu < QF_NDIM; mu++) {
        lo[mu] = own ? QF_ASQTAD_HALO : 1;
        R[mu] = own ? ext[mu] : ext[mu] + 2 * QF_ASQTAD_HALO - 2;
    }
}

static inline QF_HD void qf_asqtad_ext_staple_site(const qf_asqtad_ext_step *a, int own, const void *e, const void *w,
                                                   void *keep, void *links, int64_t t)
{
    int X[QF_NDIM], lo[QF_NDIM], R[QF_NDIM], y[QF_NDIM];
    qf_asqtad_ext_extents(a->ext, X);
    qf_asqtad_ext_region(a->ext, own, lo, R);
    qf_lex_coords(t, R, y);
    for (int k = 0; k < QF_NDIM; k++) y[k] += lo[k];
    int mu = a->mu, nu = a->nu;
    int64_t i = qf_lex_index(y, X);
    int yp[QF_NDIM] = {y[0], y[1], y[2], y[3]};
    yp[nu] += 1;
    int64_t i_pnu = qf_lex_index(yp, X);
    yp[nu] -= 2;
    int64_t i_mnu = qf_lex_index(yp, X);
    yp[mu] += 1;
    int64_t i_mnu_pmu = qf_lex_index(yp, X);
    yp[nu] += 1;
    int64_t i_pmu = qf_lex_index(yp, X);
    qf_su3 un = qf_su3_load(e, QF_DOUBLE, (size_t)QF_NDIM * i + nu);
    qf_su3 wf = qf_su3_load(w, QF_DOUBLE, (size_t)a->w_stride * i_pnu + a->w_slot);
    qf_su3 r = qf_su3_load(e, QF_DOUBLE, (size_t)QF_NDIM * i_pmu + nu);
    qf_su3 st = qf_asqtad_upper(&un, &wf, &r);
    qf_su3 ub = qf_su3_load(e, QF_DOUBLE, (size_t)QF_NDIM * i_mnu + nu);
    qf_su3 wb = qf_su3_load(w, QF_DOUBLE, (size_t)a->w_stride * i_mnu + a->w_slot);
    qf_su3 rb = qf_su3_load(e, QF_DOUBLE, (size_t)QF_NDIM * i_mnu_pmu + nu);
    qf_su3 lower = qf_asqtad_lower_of(&ub, &wb, &rb);
    qf_su3_add_to(&st, &lower);
    if (keep) qf_su3_store(keep, QF_DOUBLE, (size_t)i, &st);
    int x[QF_NDIM], inside = 1;
    for (int k = 0; k < QF_NDIM; k++) {
        x[k] = y[k] - QF_ASQTAD_HALO;
        inside = inside && x[k] >= 0 && x[k] < a->ext[k];
    }
    if (inside) qf_asqtad_fat_add(links, qf_block_site_index(x, a->ext), mu, a->coef, &st);
}

/* The Naik links of the block's own site s from the extended links. */
static inline QF_HD void qf_asqtad_ext_long_site(const int ext[QF_NDIM], double naik, const void *e, void *links, int64_t s)
{
    int x[QF_NDIM], X[QF_NDIM];
    qf_asqtad_ext_extents(ext, X);
    qf_block_site_coords(s, ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int y[QF_NDIM];
        for (int k = 0; k < QF_NDIM; k++) y[k] = x[k] + QF_ASQTAD_HALO;
        qf_su3 u[3];
        for (int k = 0; k < 3; k++, y[mu]++) u[k] = qf_su3_load(e, QF_DOUBLE, (size_t)QF_NDIM * qf_lex_index(y, X) + mu);
        qf_asqtad_naik_store(links, s, mu, naik, u);
    }
}

/* The coefficients of asqtad_ext_smear, which runs every step on one block. */
typedef struct {
    int ext[QF_NDIM];
    double staple3, staple5, staple7, lepage, naik;
    int team; /* CPU: each step's sites shared among the team (cpu_team.h) */
} qf_asqtad_ext_args;

/* The smearing's sequence of staple steps on one block (MILC's order), for a runner that executes
 * each step over its region: step(ctx, a, own, w (NULL: the extended links' mu-th), keep (0 none,
 * 1 S1, 2 S2)). */
#define QF_ASQTAD_EXT_STEPS(args, STEP)                                                                        \
    do {                                                                                                       \
        for (int mu_ = 0; mu_ < QF_NDIM; mu_++)                                                                \
            for (int nu_ = 0; nu_ < QF_NDIM; nu_++) {                                                          \
                if (nu_ == mu_) continue;                                                                      \
                STEP(mu_, nu_, (args)->staple3, 0, 0, 1);                                                      \
                STEP(mu_, nu_, (args)->lepage, 1, 1, 0);                                                       \
                for (int rho_ = 0; rho_ < QF_NDIM; rho_++) {                                                   \
                    if (rho_ == mu_ || rho_ == nu_) continue;                                                  \
                    STEP(mu_, rho_, (args)->staple5, 0, 1, 2);                                                 \
                    for (int sig_ = 0; sig_ < QF_NDIM; sig_++)                                                 \
                        if (sig_ != mu_ && sig_ != nu_ && sig_ != rho_) STEP(mu_, sig_, (args)->staple7, 1, 2, 0); \
                }                                                                                              \
            }                                                                                                  \
    } while (0)
/* STEP(mu, nu, coef, own, w_from, keep): w_from 0 the extended links' mu-th, 1 S1, 2 S2. */

/* ---- the operator ---- */

/* The operator's own copy of the links is kept in its own layout: complex number e of matrix k at block
 * site s at complex index (9 k + e) V + s of the block (V its sites), so that the threads of a GPU warp,
 * one a site, read consecutive complex numbers (the sites' records of 8 matrices would put their loads
 * 576 bytes apart in single precision: the first version of the kernel, at 0.52 of the copy bandwidth
 * on an H100). */
static inline QF_HD qf_su3 qf_asqtad_op_link(const void *links, qf_precision prec, int64_t vol, int64_t s, int k)
{
    qf_su3 m;
    for (int e = 0; e < 9; e++) {
        double v[2];
        qf_reals_load(links, prec, 2 * (size_t)((9 * k + e) * vol + s), v, 2);
        m.e[e / 3][e % 3] = qf_cmake(v[0], v[1]);
    }
    return m;
}

/* asqtad_layout: site s's matrices from the record layout (src_op 0: a QF_FIELD_ASQTAD_LINKS field) or
 * the operator layout (src_op 1: another operator's copy) in precision src into the operator layout in
 * dst. */
typedef struct {
    int ext[QF_NDIM];
    int src_op;
    qf_precision src, dst;
} qf_asqtad_layout_args;

static inline QF_HD void qf_asqtad_layout_site(const qf_asqtad_layout_args *a, const void *in, void *out, int64_t s)
{
    int64_t vol = qf_volume(a->ext);
    for (int k = 0; k < QF_ASQTAD_LINK_MATRICES; k++) {
        qf_su3 m = a->src_op ? qf_asqtad_op_link(in, a->src, vol, s, k)
                             : qf_su3_load(in, a->src, (size_t)QF_ASQTAD_LINK_MATRICES * s + k);
        for (int e = 0; e < 9; e++) {
            double v[2] = {m.e[e / 3][e % 3].re, m.e[e / 3][e % 3].im};
            qf_reals_store(out, a->dst, 2 * (size_t)((9 * k + e) * vol + s), v, 2);
        }
    }
}

/* asqtad_gather: the faces of the sites of one parity (-1: all) of a block, face set k, direction mu and
 * side flattened in that order; entries of the other parity are left unwritten (never read). */
typedef struct {
    int ext[QF_NDIM];
    int parity;
    qf_precision prec;
} qf_asqtad_gather_args;

static inline QF_HD int64_t qf_asqtad_gather_total(const int ext[QF_NDIM])
{
    int64_t n = 0;
    for (int k = 0; k < QF_ASQTAD_FACE_SETS; k++)
        for (int mu = 0; mu < QF_NDIM; mu++) n += 2 * qf_face_volume(ext, mu, qf_asqtad_hop_length(k));
    return n;
}

/* faces[QF_NDIRS k + 2 mu + side] */
static inline QF_HD void qf_asqtad_gather_site(const qf_asqtad_gather_args *a, const void *in, const void *links,
                                               void *const *faces, int64_t t)
{
    int k = 0, mu = 0;
    int64_t n = qf_face_volume(a->ext, 0, 1);
    while (t >= 2 * n) {
        t -= 2 * n;
        if (++mu == QF_NDIM) mu = 0, k++;
        n = qf_face_volume(a->ext, mu, qf_asqtad_hop_length(k));
    }
    int side = t >= n, y[QF_NDIM], depth = qf_asqtad_hop_length(k);
    int64_t f = t - side * n;
    qf_face_site_coords(f, a->ext, mu, side, depth, y);
    if (a->parity >= 0 && qf_parity(y) != a->parity) return;
    int64_t s = qf_block_site_index(y, a->ext);
    qf_colour v = qf_colour_load(in, a->prec, s);
    if (side) {
        qf_su3 u = qf_asqtad_op_link(links, a->prec, qf_volume(a->ext), s, QF_NDIM * k + mu);
        v = qf_colour_dag_mul(&u, &v);
    }
    qf_colour_store(faces[QF_NDIRS * k + 2 * mu + side], a->prec, f, &v);
}

/* One application out = a x + b D in (D^dag = -D: the caller negates b) on the output sites of parity
 * (-1: all). wrap: the block is the whole lattice of one process, and a hop that leaves it re-enters on
 * its other side (the boundary phases are in the links): no faces, every site finished at once (the
 * interior codelet as the stencil's fused stage). */
typedef struct {
    int ext[QF_NDIM];
    int parity;
    double a, b;
    int has_x;
    int wrap;
    qf_precision prec;
} qf_asqtad_args;

/* Whether output site x has a hop through a face (3 deep: the Naik hop reaches furthest). */
static inline QF_HD int qf_asqtad_partial(const int ext[QF_NDIM], const int x[QF_NDIM])
{
    int on = 0;
    for (int mu = 0; mu < QF_NDIM; mu++) on |= x[mu] < 3 || x[mu] >= ext[mu] - 3;
    return on;
}

/* Adds to h the hops of output site x (storage index s) whose sources lie in the block (faces NULL) or
 * in the neighbours' faces (faces given, faces[QF_NDIRS k + 2 mu + fwd]: the mu-backward neighbour's
 * side-1 face for fwd 0, the mu-forward neighbour's side-0 face for fwd 1, as tasks/stencil.h orders
 * them). */
static inline QF_HD void qf_asqtad_hops_site(const qf_asqtad_args *a, const void *in, const void *links,
                                             const void *const *faces, const int x[QF_NDIM], int64_t s, qf_colour *h)
{
    for (int k = 0; k < QF_ASQTAD_FACE_SETS; k++) {
        int n = qf_asqtad_hop_length(k);
        for (int mu = 0; mu < QF_NDIM; mu++) {
            int y[QF_NDIM] = {x[0], x[1], x[2], x[3]};
            /* forward: link(x) psi(x + n mu) */
            y[mu] = x[mu] + n;
            if (a->wrap && y[mu] >= a->ext[mu]) y[mu] -= a->ext[mu];
            int inside = y[mu] < a->ext[mu];
            if (inside == (faces == NULL)) {
                qf_colour v;
                if (inside) {
                    v = qf_colour_load(in, a->prec, qf_block_site_index(y, a->ext));
                } else {
                    y[mu] -= a->ext[mu];
                    v = qf_colour_load(faces[QF_NDIRS * k + 2 * mu + 1], a->prec, qf_face_site_index(y, a->ext, mu, 0, n));
                }
                qf_su3 u = qf_asqtad_op_link(links, a->prec, qf_volume(a->ext), s, QF_NDIM * k + mu);
                qf_colour_add_mul(h, 1.0, &u, &v);
            }
            /* backward: - link(x - n mu)^dag psi(x - n mu) */
            y[mu] = x[mu] - n;
            if (a->wrap && y[mu] < 0) y[mu] += a->ext[mu];
            inside = y[mu] >= 0;
            if (inside == (faces == NULL)) {
                qf_colour v;
                if (inside) {
                    int64_t ys = qf_block_site_index(y, a->ext);
                    qf_colour p = qf_colour_load(in, a->prec, ys);
                    qf_su3 u = qf_asqtad_op_link(links, a->prec, qf_volume(a->ext), ys, QF_NDIM * k + mu);
                    v = qf_colour_dag_mul(&u, &p);
                } else {
                    y[mu] += a->ext[mu];
                    v = qf_colour_load(faces[QF_NDIRS * k + 2 * mu], a->prec, qf_face_site_index(y, a->ext, mu, 1, n));
                }
                for (int c = 0; c < 3; c++) h->c[c] = qf_csub(h->c[c], v.c[c]);
            }
        }
    }
}

/* out(s) = a x(s) + b h */
static inline QF_HD void qf_asqtad_finish_site(const qf_asqtad_args *a, const void *x, int64_t s, const qf_colour *h,
                                               void *out)
{
    qf_colour o;
    for (int c = 0; c < 3; c++) o.c[c] = qf_cscale(a->b, h->c[c]);
    if (a->has_x) {
        qf_colour xv = qf_colour_load(x, a->prec, s);
        for (int c = 0; c < 3; c++) o.c[c] = qf_cadd(o.c[c], qf_cscale(a->a, xv.c[c]));
    }
    qf_colour_store(out, a->prec, s, &o);
}

/* The interior's work at output site i of the parity: the in-block hops, and the site finished unless it
 * has face hops (then its partial hop sum is stored for the exterior). */
static inline QF_HD void qf_asqtad_interior_site(const qf_asqtad_args *a, const void *in, const void *links, void *out,
                                                 const void *x, int64_t i)
{
    int xs[QF_NDIM];
    int64_t s = qf_parity_site(a->ext, a->parity, i);
    qf_block_site_coords(s, a->ext, xs);
    qf_colour h;
    for (int c = 0; c < 3; c++) h.c[c] = qf_cmake(0.0, 0.0);
    qf_asqtad_hops_site(a, in, links, NULL, xs, s, &h);
    if (!a->wrap && qf_asqtad_partial(a->ext, xs)) qf_colour_store(out, a->prec, s, &h);
    else qf_asqtad_finish_site(a, x, s, &h, out);
}

/* The exterior's: the face hops added to the partial sum, and the site finished. */
static inline QF_HD void qf_asqtad_exterior_site(const qf_asqtad_args *a, const void *links, const void *const *faces,
                                                 void *out, const void *x, int64_t i)
{
    int xs[QF_NDIM];
    int64_t s = qf_parity_site(a->ext, a->parity, i);
    qf_block_site_coords(s, a->ext, xs);
    if (!qf_asqtad_partial(a->ext, xs)) return;
    qf_colour h = qf_colour_load(out, a->prec, s);
    qf_asqtad_hops_site(a, NULL, links, faces, xs, s, &h);
    qf_asqtad_finish_site(a, x, s, &h, out);
}

#endif
