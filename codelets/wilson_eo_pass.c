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
} job;

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
                for (int64_t h = 0; h < w; h++) {                                                              \
                    int x = (int)(2 * h) + q;                                                                  \
                    int64_t nb[QF_NDIM][2];                                                                    \
                    nb[0][0] = w * r + (q ? (h + 1 == w ? 0 : h + 1) : h);                                     \
                    nb[0][1] = w * r + (q ? h : (h ? h - 1 : w - 1));                                          \
                    cross[0][0] = x == L[0] - 1;                                                               \
                    cross[0][1] = x == 0;                                                                      \
                    QF_UNROLL for (int mu = 1; mu < QF_NDIM; mu++)                                             \
                        for (int dir = 0; dir < 2; dir++) nb[mu][dir] = w * row[mu][dir] + h;                  \
                    qf_eo_odd_site_##K((R *)j->out, (const R *)j->in, (const R *)j->gauge,                     \
                                       (const R *)j->clover_odd, half + w * r + h, nb, cross, j->p, dagger);   \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    static inline __attribute__((always_inline)) void odd_slice_##K(const job *j, int t, int z_lo, int z_hi)  \
    {                                                                                                          \
        if (j->p->dagger) odd_rows_##K(j, t, z_lo, z_hi, 1);                                                   \
        else odd_rows_##K(j, t, z_lo, z_hi, 0);                                                                \
    }

#define EVEN_SLICE(K, R, WHAT)                                                                                 \
    static inline __attribute__((always_inline)) void even_##WHAT##_##K(const job *j, int t, int z_lo, int z_hi) \
    {                                                                                                          \
        const int *L = j->p->ext;                                                                              \
        int64_t n = (int64_t)L[0] / 2 * L[1], first = n * (z_lo + (int64_t)L[2] * t);                         \
        for (int64_t s = first; s < first + n * (z_hi - z_lo); s++)                                            \
            qf_eo_even_##WHAT##_##K((R *)j->out, (const R *)j->in, (const R *)j->clover_even, s, j->p);        \
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
    EVEN_SLICE(D, double, start)                                                                               \
    EVEN_SLICE(F, float, start)                                                                                \
    EVEN_SLICE(D, double, finish)                                                                              \
    EVEN_SLICE(F, float, finish)                                                                               \
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
#if defined(QF_CPU_DISPATCH) && defined(__x86_64__)
    QF_CPU_CALL(pass_part_vex, (j, &w, m));
#else
    pass_part_plain(j, &w, m);
#endif
}

static int pass_of(const qf_wilson_args *first, const qf_wilson_args *second, qf_eo_pass *p)
{
    const qf_wilson_args *h[2] = {first, second};
    for (int k = 0; k < 2; k++)
        if (h[k]->wrap != (1 << QF_NDIM) - 1 || h[k]->remote || h[k]->dirichlet || h[k]->parity != 1 - k ||
            h[k]->recon != QF_RECON_18 || (h[k]->prec != QF_DOUBLE && h[k]->prec != QF_SINGLE) ||
            h[k]->prec != first->prec || h[k]->dagger != first->dagger ||
            memcmp(h[k]->phase, first->phase, sizeof first->phase))
            return 0;
    if (first->has_x || first->a != 0.0 || (first->clover_on != QF_CLOVER_NONE && first->clover_on != QF_CLOVER_HOPS) ||
        !second->has_x || second->clover_on == QF_CLOVER_ALL)
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
    return pass_of(first, second, &p);
}

int qf_wilson_eo_pass_run(const qf_wilson_args *first, const qf_wilson_args *second, void *out, const void *in,
                          const void *gauge, const void *clover_odd, const void *clover_even)
{
    qf_eo_pass p;
    if (!pass_of(first, second, &p)) return 0;
    job j = {.p = &p, .out = out, .in = in, .gauge = gauge, .clover_odd = p.odd_clover ? clover_odd : NULL,
             .clover_even = clover_even};
    qf_cpu_team_run(team_part, &j);
    return 1;
}
