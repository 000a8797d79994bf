/* Site kernel of start fields: cold (unit links), weak (reunitarised 1 + eps G) and hot (Haar
 * random SU(3)) links of one site, from the counter-based generator. */
#ifndef QF_KERNEL_GAUGE_START_H
#define QF_KERNEL_GAUGE_START_H

#include "quarkflow/qf_gauge.h"
#include "random.h"

typedef struct {
    int ext[QF_NDIM];    /* block extents */
    int origin[QF_NDIM]; /* global coordinates of the block's first site */
    int global[QF_NDIM]; /* global extents */
    uint64_t seed;
    qf_gauge_start_kind kind;
    double eps; /* weak-field noise */
    qf_precision prec;
    int team;   /* CPU: the sites shared among the team (cpu_team.h) */
} qf_gauge_start_args;

static inline QF_HD void qf_gauge_start_site(void *block, int64_t s, const qf_gauge_start_args *a)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, a->ext, x);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] += a->origin[mu];
    qf_rng_key key = {a->seed, qf_lex_index(x, a->global), 0, 0};
    for (int mu = 0; mu < QF_NDIM; mu++) {
        key.link = mu;
        qf_su3 u = a->kind == QF_START_COLD ? qf_su3_identity() : qf_rng_su3(&key, a->kind == QF_START_HOT ? -1.0 : a->eps);
        qf_su3_store(block, a->prec, (size_t)(4 * s + mu), &u);
    }
}

#endif
