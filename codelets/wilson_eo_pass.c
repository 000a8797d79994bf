/* The CPU side of wilson_block's even-odd program (kernels/eo_pass.h): an application of Mhat on a
 * one-block lattice as one pass over the odd sites, shared by the CPU team (cpu_team.h) in tiles of time
 * slices by z planes. An odd site scatters into the even sites beside it, so a tile's rows run in phases
 * with barriers between them: those inside the tile first (its even sites started a slice ahead of the
 * scatters), then those on its edges, class by class, while no other thread writes where they reach. */
#define _GNU_SOURCE
#include "codelets.h"
#include "cpu_team.h"
#include "cpu_versions.h"
#include "kernels/eo_pass.h"
#include "wilson_launch.h"

#include <sched.h>
#include <stdatomic.h>

typedef struct {
    atomic_int arrived, generation;
} barrier;

static void barrier_wait(barrier *b, int n)
{
    if (n == 1) return;
    int g = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->arrived, 1) == n - 1) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->generation, 1);
        return;
    }
    for (unsigned spin = 0; atomic_load(&b->generation) == g; spin++)
        if (spin % 256 == 255) sched_yield();
}

typedef struct {
    const qf_eo_pass *p;
    void *out;
    const void *in, *gauge, *clover_odd, *clover_even;
    barrier bar;
    /* a block of several (open): its faces, the directions in which it wraps, where it lies */
    int open, wrap, origin[QF_NDIM], global[QF_NDIM];
    qf_eo_faces faces;
} job;

/* Whether coordinate c of direction mu lies on the open block's face there, or within one site of it. */
static inline int on_face(const job *j, int mu, int c)
{
    return !(j->wrap >> mu & 1) && (c == 0 || c == j->p->ext[mu] - 1);
}
static inline int near_face(const job *j, int mu, int c)
{
    return !(j->wrap >> mu & 1) && (c <= 1 || c >= j->p->ext[mu] - 2);
}

/* Whether an odd row (y, z, t) of an open block has a hop through a face, or scatters into an even site
 * on one: every row does where x does not wrap. */
static inline int row_touches_faces(const job *j, int y, int z, int t)
{
    return j->open && (!(j->wrap & 1) || near_face(j, 1, y) || near_face(j, 2, z) || near_face(j, 3, t));
}

/* The hops of odd site c of an open block (qf_eo_open_site), and which cross the lattice's boundary: in a
 * direction that wraps, those across the block's own edge; in one that does not, those through a face
 * on the lattice's boundary. */
static void open_site(const job *j, const int c[QF_NDIM], qf_eo_open_site *o, unsigned char cross[QF_NDIM][2])
{
    const int *L = j->p->ext;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int wraps = j->wrap >> mu & 1, d[QF_NDIM] = {c[0], c[1], c[2], c[3]};
        o->leaves[mu][0] = !wraps && c[mu] == L[mu] - 1;
        o->leaves[mu][1] = !wraps && c[mu] == 0;
        cross[mu][0] = wraps ? c[mu] == L[mu] - 1 : o->leaves[mu][0] && j->origin[mu] + L[mu] == j->global[mu];
        cross[mu][1] = wraps ? c[mu] == 0 : o->leaves[mu][1] && j->origin[mu] == 0;
        for (int dir = 0; dir < 2; dir++) {
            d[mu] = (c[mu] + (dir ? L[mu] - 1 : 1)) % L[mu];
            o->raw[mu][dir] = !o->leaves[mu][dir] && qf_on_open_face(d, L, j->wrap);
        }
        d[mu] = 0; /* the face entry: the same in every face of mu (wilson_gather's, the exterior's) */
        o->face[mu] = qf_parity_face_index(d, L, mu, 0, 1);
    }
}

/* What the sites of odd row (y, z, t), with x = 2 h + q, share: the hops of a site x_rep away from
 * x's faces, whose face entries are face_base[mu] + h (mu > 0); x_rep (-1: none, every site is near
 * one). */
static int open_row(const job *j, int y, int z, int t, int q, qf_eo_open_site *o, unsigned char cross[QF_NDIM][2],
                    int64_t face_base[QF_NDIM])
{
    int x_rep = j->wrap & 1 ? q : j->p->ext[0] >= 6 ? 2 + q : -1;
    if (x_rep < 0) return -1;
    open_site(j, (const int[QF_NDIM]){x_rep, y, z, t}, o, cross);
    for (int mu = 1; mu < QF_NDIM; mu++) face_base[mu] = o->face[mu] - x_rep / 2;
    return x_rep;
}

/* The odd sites of slice t with z_lo <= z < z_hi: each with its even neighbours' storage indices and
 * boundary crossings; dagger a constant where the caller passes one, so that the projections' signs fold. */
#define ODD_SLICE(K, R)                                                                                        \
    static inline __attribute__((always_inline)) void odd_rows_##K(const job *j, int t, int z_lo, int z_hi,    \
                                                                   const int dagger)                           \
    {                                                                                                          \
        const int *L = j->p->ext;                                                                              \
        const int64_t w = L[0] / 2, half = qf_volume(L) / 2;                                                   \
        int tp = t + 1 == L[3] ? 0 : t + 1, tm = t ? t - 1 : L[3] - 1;                                         \
        for (int z = z_lo; z < z_hi; z++) {                                                                    \
            int zp = z + 1 == L[2] ? 0 : z + 1, zm = z ? z - 1 : L[2] - 1;                                    \
            for (int y = 0; y < L[1]; y++) {                                                                   \
                int yp = y + 1 == L[1] ? 0 : y + 1, ym = y ? y - 1 : L[1] - 1;                                \
                int64_t row[QF_NDIM][2] = {                                                                    \
                    {0, 0},                                                                                    \
                    {yp + L[1] * (z + (int64_t)L[2] * t), ym + L[1] * (z + (int64_t)L[2] * t)},                \
                    {y + L[1] * (zp + (int64_t)L[2] * t), y + L[1] * (zm + (int64_t)L[2] * t)},                \
                    {y + L[1] * (z + (int64_t)L[2] * tp), y + L[1] * (z + (int64_t)L[2] * tm)}};               \
                int64_t r = y + L[1] * (z + (int64_t)L[2] * t);                                                \
                int q = (1 + y + z + t) & 1; /* x = 2 h + q is odd */                                          \
                unsigned char cross[QF_NDIM][2] = {{0, 0},                                                     \
                                                   {y == L[1] - 1, y == 0},                                    \
                                                   {z == L[2] - 1, z == 0},                                    \
                                                   {t == L[3] - 1, t == 0}};                                   \
                int touches = row_touches_faces(j, y, z, t), x_rep = -1;                                       \
                qf_eo_open_site row_site;                                                                      \
                unsigned char row_cross[QF_NDIM][2];                                                           \
                int64_t face_base[QF_NDIM];                                                                    \
                if (touches) x_rep = open_row(j, y, z, t, q, &row_site, row_cross, face_base);                 \
                for (int64_t h = 0; h < w; h++) {                                                              \
                    int x = (int)(2 * h) + q;                                                                  \
                    int64_t nb[QF_NDIM][2];                                                                    \
                    nb[0][0] = w * r + (q ? (h + 1 == w ? 0 : h + 1) : h);                                     \
                    nb[0][1] = w * r + (q ? h : (h ? h - 1 : w - 1));                                          \
                    QF_UNROLL for (int mu = 1; mu < QF_NDIM; mu++)                                             \
                        for (int dir = 0; dir < 2; dir++) nb[mu][dir] = w * row[mu][dir] + h;                  \
                    if (touches) {                                                                             \
                        qf_eo_open_site o = row_site;                                                          \
                        unsigned char open_cross[QF_NDIM][2];                                                  \
                        if (x_rep < 0 || (!(j->wrap & 1) && near_face(j, 0, x))) {                             \
                            open_site(j, (const int[QF_NDIM]){x, y, z, t}, &o, open_cross);                    \
                        } else {                                                                               \
                            memcpy(open_cross, row_cross, sizeof open_cross);                                  \
                            open_cross[0][0] = (j->wrap & 1) && x == L[0] - 1;                                 \
                            open_cross[0][1] = (j->wrap & 1) && x == 0;                                        \
                            QF_UNROLL for (int mu = 1; mu < QF_NDIM; mu++) o.face[mu] = face_base[mu] + h;     \
                        }                                                                                      \
                        qf_eo_odd_site_##K((R *)j->out, (const R *)j->in, (const R *)j->gauge,                 \
                                           (const R *)j->clover_odd, half + w * r + h, nb,                     \
                                           (const unsigned char(*)[2])open_cross, j->p, dagger, 1, &o,         \
                                           &j->faces);                                                         \
                        continue;                                                                              \
                    }                                                                                          \
                    cross[0][0] = x == L[0] - 1;                                                               \
                    cross[0][1] = x == 0;                                                                      \
                    qf_eo_odd_site_##K((R *)j->out, (const R *)j->in, (const R *)j->gauge,                     \
                                       (const R *)j->clover_odd, half + w * r + h, nb,                         \
                                       (const unsigned char(*)[2])cross, j->p, dagger, 0, NULL, NULL);         \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    static inline __attribute__((always_inline)) void odd_slice_##K(const job *j, int t, int z_lo, int z_hi)  \
    {                                                                                                          \
        if (j->p->dagger) odd_rows_##K(j, t, z_lo, z_hi, 1);                                                   \
        else odd_rows_##K(j, t, z_lo, z_hi, 0);                                                                \
    }

/* The even sites of slice t with z_lo <= z < z_hi; those on an open block's faces keep their partial
 * hop sum for the exterior: started at zero, not finished. */
#define EVEN_SLICE(K, R, WHAT, START)                                                                          \
    static inline __attribute__((always_inline)) void even_##WHAT##_##K(const job *j, int t, int z_lo, int z_hi) \
    {                                                                                                          \
        const int *L = j->p->ext;                                                                              \
        const int64_t w = L[0] / 2;                                                                            \
        int64_t n = w * L[1], first = n * (z_lo + (int64_t)L[2] * t);                                          \
        if (!j->open) {                                                                                        \
            for (int64_t s = first; s < first + n * (z_hi - z_lo); s++)                                        \
                qf_eo_even_##WHAT##_##K((R *)j->out, (const R *)j->in, (const R *)j->clover_even, s, j->p);    \
            return;                                                                                            \
        }                                                                                                      \
        for (int z = z_lo; z < z_hi; z++)                                                                      \
            for (int y = 0; y < L[1]; y++) {                                                                   \
                int row_face = on_face(j, 1, y) || on_face(j, 2, z) || on_face(j, 3, t), q = (y + z + t) & 1;  \
                int64_t s0 = w * (y + L[1] * (z + (int64_t)L[2] * t));                                         \
                for (int64_t h = 0; h < w; h++) {                                                              \
                    if (row_face || on_face(j, 0, (int)(2 * h) + q)) {                                         \
                        if (START) qf_eo_even_clear_##K((R *)j->out, s0 + h);                                  \
                        continue;                                                                              \
                    }                                                                                          \
                    qf_eo_even_##WHAT##_##K((R *)j->out, (const R *)j->in, (const R *)j->clover_even, s0 + h,  \
                                            j->p);                                                             \
                }                                                                                              \
            }                                                                                                  \
    }

/* A thread's tile: time slices [t0, t1) by z planes [z0, z1), each range at least three wide or the whole
 * extent. Its odd rows fall into classes by where they lie in each range (cls_range): inside, first, last.
 * The inner rows scatter into the tile only; the first rows of all tiles scatter into disjoint planes,
 * and so do the last ones, so each class runs in a phase of its own. Where a direction has one range
 * (whole: z only, since time starts its slices in order), its rows are all inner: the tile is its own
 * neighbour across that extent. */
typedef struct {
    int t0, t1, z0, z1, whole_z;
} tile;

enum { INNER, FIRST, LAST };

static inline void cls_range(int lo, int hi, int whole, int cls, int *a, int *b)
{
    if (whole) *a = cls == INNER ? lo : 0, *b = cls == INNER ? hi : 0;
    else if (cls == INNER) *a = lo + 1, *b = hi - 1;
    else if (cls == FIRST) *a = lo, *b = lo + 1;
    else *a = hi - 1, *b = hi - 1 > lo ? hi : hi - 1;
}

/* The pass of one thread's tile w, of m, for the kernels of one variant: D and F their double and single
 * suffixes. First the inner rows slice by slice, starting the tile's even sites a slice ahead of their scatters;
 * every even site of the tile is started before the first barrier. Where time has one range the first
 * and last slices wait for the others (they scatter across the lattice's wrap, into slices started
 * last). */
#define PASS_PART(V, D, F)                                                                                     \
    ODD_SLICE(D, double)                                                                                       \
    ODD_SLICE(F, float)                                                                                        \
    EVEN_SLICE(D, double, start, 1)                                                                            \
    EVEN_SLICE(F, float, start, 1)                                                                             \
    EVEN_SLICE(D, double, finish, 0)                                                                           \
    EVEN_SLICE(F, float, finish, 0)                                                                            \
    static inline __attribute__((always_inline)) void odd_slice_##V(const job *j, int t, int z_lo, int z_hi)  \
    {                                                                                                          \
        if (j->p->prec == QF_DOUBLE) odd_slice_##D(j, t, z_lo, z_hi);                                          \
        else odd_slice_##F(j, t, z_lo, z_hi);                                                                  \
    }                                                                                                          \
    static inline __attribute__((always_inline)) void even_slice_##V(const job *j, int t, const tile *w,       \
                                                                      int finish)                              \
    {                                                                                                          \
        if (j->p->prec == QF_DOUBLE) finish ? even_finish_##D(j, t, w->z0, w->z1) : even_start_##D(j, t, w->z0, w->z1); \
        else finish ? even_finish_##F(j, t, w->z0, w->z1) : even_start_##F(j, t, w->z0, w->z1);               \
    }                                                                                                          \
    static inline __attribute__((always_inline)) void pass_part_##V(job *j, const tile *w, int m)            \
    {                                                                                                          \
        int za, zb, started = w->t0;                                                                           \
        cls_range(w->z0, w->z1, w->whole_z, INNER, &za, &zb);                                                  \
        for (int t = w->t0 + 1; t < w->t1 - 1; t++) {                                                          \
            for (; started <= t + 1; started++) even_slice_##V(j, started, w, 0);                             \
            odd_slice_##V(j, t, za, zb);                                                                       \
        }                                                                                                      \
        for (; started < w->t1; started++) even_slice_##V(j, started, w, 0);                                  \
        barrier_wait(&j->bar, m);                                                                              \
        for (int ct = INNER; ct <= LAST; ct++)                                                                 \
            for (int cz = INNER; cz <= LAST; cz++) {                                                           \
                if (ct == INNER && cz == INNER) continue;                                                      \
                int ta, tb;                                                                                    \
                cls_range(w->t0, w->t1, 0, ct, &ta, &tb);                                                      \
                cls_range(w->z0, w->z1, w->whole_z, cz, &za, &zb);                                             \
                for (int t = ta; t < tb && za < zb; t++) odd_slice_##V(j, t, za, zb);                          \
                barrier_wait(&j->bar, m);                                                                      \
            }                                                                                                  \
        if (j->p->even_clover != QF_CLOVER_HOPS) return;                                                       \
        for (int t = w->t0; t < w->t1; t++) even_slice_##V(j, t, w, 1);                                        \
    }

PASS_PART(plain, d, f)
PASS_PART(vex, dv, fv)

/* The tile grid for n threads: the most tiles of at least three slices and three planes each, more
 * ranges in time where products tie (a tile's slices then lie together in memory). */
static void tile_grid(const int ext[QF_NDIM], int n, int *mt, int *mz)
{
    int most_t = ext[3] / 3 > 1 ? ext[3] / 3 : 1, most_z = ext[2] / 3 > 1 ? ext[2] / 3 : 1;
    *mt = *mz = 1;
    for (int a = most_t < n ? most_t : n; a >= 1; a--) {
        int b = n / a < most_z ? n / a : most_z;
        if (a * b > *mt * *mz) *mt = a, *mz = b;
    }
}

QF_CPU_VERSIONS(pass_part_vex, pass_part_plain, (job * j, const tile *w, int m), (j, w, m))

static void run_tile(job *j, const tile *w, int m)
{
#if defined(QF_CPU_DISPATCH) && defined(__x86_64__)
    QF_CPU_CALL(pass_part_vex, (j, w, m));
#else
    pass_part_plain(j, w, m);
#endif
}

static void team_part(void *arg, int k, int n)
{
    job *j = (job *)arg;
    const int *L = j->p->ext;
    int mt, mz;
    tile_grid(L, n, &mt, &mz);
    int m = mt * mz;
    if (k >= m) return;
    int kt = k / mz, kz = k % mz;
    tile w = {L[3] * kt / mt, L[3] * (kt + 1) / mt, L[2] * kz / mz, L[2] * (kz + 1) / mz, mz == 1};
    run_tile(j, &w, m);
}

/* The pass's parameters for hops first and second, on a block that wraps in every direction (whole) or
 * on one of several in one process (whose faces wilson_pair passes). */
static int pass_of(const qf_wilson_args *first, const qf_wilson_args *second, int whole, qf_eo_pass *p)
{
    const qf_wilson_args *h[2] = {first, second};
    for (int k = 0; k < 2; k++)
        if ((whole && h[k]->wrap != (1 << QF_NDIM) - 1) || h[k]->wrap != first->wrap || h[k]->remote ||
            h[k]->dirichlet || h[k]->parity != 1 - k || h[k]->recon != QF_RECON_18 ||
            (h[k]->prec != QF_DOUBLE && h[k]->prec != QF_SINGLE) || h[k]->prec != first->prec ||
            h[k]->dagger != first->dagger || memcmp(h[k]->phase, first->phase, sizeof first->phase))
            return 0;
    if (first->has_x || first->a != 0.0 || (first->clover_on != QF_CLOVER_NONE && first->clover_on != QF_CLOVER_HOPS) ||
        !second->has_x || second->clover_on == QF_CLOVER_ALL || (!whole && second->b == 0.0))
        return 0;
    *p = (qf_eo_pass){.dagger = first->dagger,
                      .a = second->a,
                      .b = second->b,
                      .even_clover = second->clover_on,
                      .odd_clover = first->clover_on == QF_CLOVER_HOPS,
                      .prec = first->prec};
    memcpy(p->ext, first->ext, sizeof p->ext);
    memcpy(p->phase, first->phase, sizeof p->phase);
    for (int mu = 0; mu < QF_NDIM; mu++) p->phased |= (p->phase[mu][0] != 1.0 || p->phase[mu][1] != 0.0) << mu;
    p->s = second->clover_on == QF_CLOVER_HOPS ? first->b : first->b * second->b;
    return 1;
}

int qf_wilson_eo_pass_fits(const qf_wilson_args *first, const qf_wilson_args *second)
{
    qf_eo_pass p;
    return pass_of(first, second, 1, &p);
}

int qf_wilson_eo_pass_run(const qf_wilson_args *first, const qf_wilson_args *second, void *out, const void *in,
                          const void *gauge, const void *clover_odd, const void *clover_even)
{
    qf_eo_pass p;
    if (!pass_of(first, second, 1, &p)) return 0;
    job j = {.p = &p, .out = out, .in = in, .gauge = gauge, .clover_odd = p.odd_clover ? clover_odd : NULL,
             .clover_even = clover_even};
    qf_cpu_team_run(team_part, &j);
    return 1;
}

int qf_wilson_eo_pass_block_fits(const qf_wilson_args *first, const qf_wilson_args *second)
{
    qf_eo_pass p;
    return qf_wilson_has_faces(first) && pass_of(first, second, 0, &p);
}

int qf_wilson_eo_pass_block_run(const qf_wilson_args *first, const qf_wilson_args *second, void *out, const void *in,
                                const void *gauge, const void *clover_odd, const void *clover_even,
                                const void *const in_face[QF_WILSON_NFACES], void *const t_face[QF_WILSON_NFACES])
{
    qf_eo_pass p;
    if (!qf_wilson_has_faces(first) || !pass_of(first, second, 0, &p)) return 0;
    job j = {.p = &p, .out = out, .in = in, .gauge = gauge, .clover_odd = p.odd_clover ? clover_odd : NULL,
             .clover_even = clover_even, .open = 1, .wrap = first->wrap};
    memcpy(j.origin, first->origin, sizeof j.origin);
    memcpy(j.global, first->global, sizeof j.global);
    for (int f = 0; f < QF_WILSON_NFACES; f++) {
        j.faces.in_face[f] = in_face[f];
        j.faces.t_face[f] = t_face[f];
    }
    /* the faces and the face sites' sums hold t as the second hop reads it: unscaled by its b */
    j.faces.t_scale = p.even_clover == QF_CLOVER_HOPS ? 1.0 : 1.0 / second->b;
    const tile whole = {0, p.ext[3], 0, p.ext[2], 1};
    run_tile(&j, &whole, 1);
    return 1;
}
