/* Counter-based random numbers (Philox4x32-10 from Random123) keyed by seed, global site, link and
 * sweep: a generated field is bit-identical for every block grid, process grid and CPU/GPU placement,
 * because no generator state depends on where or in which order a site is visited. */
#ifndef QF_KERNEL_RANDOM_H
#define QF_KERNEL_RANDOM_H

#include "qf_math.h"
#include "su3.h"

#include <Random123/philox.h>

typedef struct {
    uint64_t seed;
    int64_t site; /* global lexicographic index */
    int link;     /* 0..3, or another small stream number */
    int sweep;
} qf_rng_key;

/* Two uniform doubles in (0, 1) from draw number `draw` of the key's stream. */
static inline QF_HD void qf_rng_uniform2(const qf_rng_key *k, uint32_t draw, double u[2])
{
    philox4x32_key_t key = {{(uint32_t)k->seed, (uint32_t)(k->seed >> 32)}};
    philox4x32_ctr_t ctr = {{(uint32_t)k->site, (uint32_t)((uint64_t)k->site >> 32),
                             (uint32_t)k->link | ((uint32_t)k->sweep << 4), draw}};
    philox4x32_ctr_t r = philox4x32(ctr, key);
    for (int i = 0; i < 2; i++) {
        uint64_t bits = ((uint64_t)r.v[2 * i] << 32 | r.v[2 * i + 1]) >> 11;
        u[i] = ((double)bits + 0.5) * (1.0 / 9007199254740992.0);
    }
}

/* Two independent standard normal numbers (Box-Muller), the same bits on CPUs and GPUs. */
static inline QF_HD void qf_rng_gauss2(const qf_rng_key *k, uint32_t draw, double g[2])
{
    double u[2], s, c;
    qf_rng_uniform2(k, draw, u);
    double r = sqrt(-2.0 * qf_log(u[0]));
    qf_sincos_2pi(u[1], &s, &c);
    g[0] = r * c;
    g[1] = r * s;
}

/* A random SU(3) matrix: Gaussian complex rows, reunitarised. With eps < 0 the matrix is Haar
 * distributed (a hot start); with eps >= 0 it is the reunitarised 1 + eps G, a weak field. */
static inline QF_HD qf_su3 qf_rng_su3(const qf_rng_key *k, double eps)
{
    qf_su3 m = qf_su3_identity();
    uint32_t draw = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double g[2];
            qf_rng_gauss2(k, draw++, g);
            qf_complex z = qf_cmake(g[0], g[1]);
            m.e[i][j] = eps < 0 ? z : qf_cadd(m.e[i][j], qf_cscale(eps, z));
        }
    qf_su3_reunitarize(&m);
    return m;
}

/* field_gaussian: a block of standard normal reals, keyed by seed, stream and global site (draw: the
 * pair of reals), so that the field does not depend on the block grid. */
typedef struct {
    int ext[QF_NDIM], origin[QF_NDIM], global[QF_NDIM];
    int site_reals;
    uint64_t seed;
    int stream;
    qf_precision prec;
    int team; /* CPU: the sites shared among the team (cpu_team.h) */
} qf_field_gaussian_args;

static inline QF_HD void qf_field_gaussian_site(const qf_field_gaussian_args *a, void *f, int64_t s)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, a->ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] += a->origin[mu];
    qf_rng_key key = {.seed = a->seed, .site = qf_lex_index(x, a->global), .link = a->stream & 15,
                      .sweep = a->stream >> 4};
    for (int i = 0; i < a->site_reals; i += 2) {
        double g[2];
        qf_rng_gauss2(&key, (uint32_t)(i / 2), g);
        qf_real_set(f, a->prec, (size_t)s * a->site_reals + i, g[0]);
        qf_real_set(f, a->prec, (size_t)s * a->site_reals + i + 1, g[1]);
    }
}

#endif
