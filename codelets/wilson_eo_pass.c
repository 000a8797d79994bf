/* The CPU side of wilson_block's even-odd program (kernels/eo_pass.h): an application of Mhat on a
 * one-block lattice as one pass over the odd sites, its time slices shared by the CPU team (cpu_team.h).
 * A slice's odd sites scatter into the even sites of that slice and the two beside it, so each thread
 * owns a range of at least three slices and runs it in three phases with a barrier between them: the
 * slices inside its range (it starts its even sites a slice ahead of the scatters), then its first
 * slice, then its last, whose scatters reach the neighbouring ranges while no one else writes there. */
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

/* The odd sites of slice t: each with its even neighbours' storage indices and boundary crossings; dagger
 * a constant where the caller passes one, so that the projections' signs fold. */
#define ODD_SLICE(K, R)                                                                                        \
    static inline __attribute__((always_inline)) void odd_rows_##K(const job *j, int t, const int dagger)     \
    {                                                                                                          \
        const int *L = j->p->ext;                                                                              \
        const int64_t w = L[0] / 2, half = qf_volume(L) / 2;                                                   \
        int tp = t + 1 == L[3] ? 0 : t + 1, tm = t ? t - 1 : L[3] - 1;                                         \
        for (int z = 0; z < L[2]; z++) {                                                                       \
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
    static inline __attribute__((always_inline)) void odd_slice_##K(const job *j, int t)                      \
    {                                                                                                          \
        if (j->p->dagger) odd_rows_##K(j, t, 1);                                                               \
        else odd_rows_##K(j, t, 0);                                                                            \
    }

#define EVEN_SLICE(K, R, WHAT)                                                                                 \
    static inline __attribute__((always_inline)) void even_##WHAT##_##K(const job *j, int t)                  \
    {                                                                                                          \
        const int *L = j->p->ext;                                                                              \
        int64_t n = (int64_t)L[0] / 2 * L[1] * L[2];                                                           \
        for (int64_t s = n * t; s < n * (t + 1); s++)                                                          \
            qf_eo_even_##WHAT##_##K((R *)j->out, (const R *)j->in, (const R *)j->clover_even, s, j->p);        \
    }

/* The pass of thread k of m for the kernels of one variant: D and F their double and single suffixes. */
#define PASS_PART(V, D, F)                                                                                     \
    ODD_SLICE(D, double)                                                                                       \
    ODD_SLICE(F, float)                                                                                        \
    EVEN_SLICE(D, double, start)                                                                               \
    EVEN_SLICE(F, float, start)                                                                                \
    EVEN_SLICE(D, double, finish)                                                                              \
    EVEN_SLICE(F, float, finish)                                                                               \
    static inline __attribute__((always_inline)) void odd_slice_##V(const job *j, int t)                      \
    {                                                                                                          \
        if (j->p->prec == QF_DOUBLE) odd_slice_##D(j, t);                                                      \
        else odd_slice_##F(j, t);                                                                              \
    }                                                                                                          \
    static inline __attribute__((always_inline)) void even_slice_##V(const job *j, int t, int finish)         \
    {                                                                                                          \
        if (j->p->prec == QF_DOUBLE) finish ? even_finish_##D(j, t) : even_start_##D(j, t);                   \
        else finish ? even_finish_##F(j, t) : even_start_##F(j, t);                                           \
    }                                                                                                          \
    static inline __attribute__((always_inline)) void pass_part_##V(job *j, int k, int m)                     \
    {                                                                                                          \
        int T = j->p->ext[3], t0 = T * k / m, t1 = T * (k + 1) / m, started = t0;                             \
        for (int t = t0 + 1; t < t1 - 1; t++) {                                                                \
            for (; started <= t + 1; started++) even_slice_##V(j, started, 0);                                \
            odd_slice_##V(j, t);                                                                               \
        }                                                                                                      \
        for (; started < t1; started++) even_slice_##V(j, started, 0);                                        \
        barrier_wait(&j->bar, m);                                                                              \
        odd_slice_##V(j, t0);                                                                                  \
        barrier_wait(&j->bar, m);                                                                              \
        if (t1 - 1 > t0) odd_slice_##V(j, t1 - 1);                                                             \
        if (j->p->even_clover != QF_CLOVER_HOPS) return;                                                       \
        barrier_wait(&j->bar, m);                                                                              \
        for (int t = t0; t < t1; t++) even_slice_##V(j, t, 1);                                                 \
    }

PASS_PART(plain, d, f)
PASS_PART(vex, dv, fv)

/* Threads that share the slices: at most one a three slices. */
static int threads_for(const qf_eo_pass *p, int n)
{
    int most = p->ext[3] / 3;
    return n < most ? n : most > 1 ? most : 1;
}

QF_CPU_VERSIONS(pass_part_vex, pass_part_plain, (job * j, int k, int m), (j, k, m))

static void team_part(void *arg, int k, int n)
{
    job *j = (job *)arg;
    int m = threads_for(j->p, n);
    if (k >= m) return;
#if defined(QF_CPU_DISPATCH) && defined(__x86_64__)
    QF_CPU_CALL(pass_part_vex, (j, k, m));
#else
    pass_part_plain(j, k, m);
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
