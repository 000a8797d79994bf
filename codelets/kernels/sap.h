/* Site kernels of the Schwarz alternating procedure (SAP; solvers/sap.c), shared by the CPU and CUDA
 * codelets domain_layout and wilson_sap.
 *
 * A block is cut into domains of extents dom (even, dividing the block's extents). Domains are
 * coloured like a chessboard on the global grid of domains, so that neighbouring domains differ in
 * colour. The operator restricted to a domain with Dirichlet boundaries (hops that leave the domain
 * dropped) is the interior kernel of wilson.h run on the domain as if it were a block
 * (qf_wilson_args.dirichlet: every site finished). For that, the fields it reads are kept in domain
 * layout: domain j (lexicographic in the block's grid of domains) holds its sites at records
 * j V_d + s, s the domain-local storage index (qf_block_site_index with extents dom), V_d the
 * domain's volume. The links and the clover term are copied into that layout once per operator
 * (domain_layout); a SAP step gathers the residual into it, runs minimal-residual (MR) steps on each
 * domain of one colour, and adds the domain solutions to the block's correction. Both codelets run
 * the same per-site functions below. */
#ifndef QF_KERNEL_SAP_H
#define QF_KERNEL_SAP_H

#include "wilson.h"

/* GPU: one thread block a domain, one thread a site. */
#define QF_SAP_MAX_DOMAIN_SITES 256

typedef struct {
    int ext[QF_NDIM];    /* block extents */
    int dom[QF_NDIM];    /* domain extents */
    int origin[QF_NDIM]; /* global coordinates of the block's site (0, 0, 0, 0) */
} qf_domain_geom;

static inline QF_HD int64_t qf_domain_count(const qf_domain_geom *g)
{
    int64_t n = 1;
    for (int mu = 0; mu < QF_NDIM; mu++) n *= g->ext[mu] / g->dom[mu];
    return n;
}

/* Domain j's colour: the parity of its coordinates on the global grid of domains. */
static inline QF_HD int qf_domain_colour(const qf_domain_geom *g, int64_t j)
{
    int c = 0;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int nd = g->ext[mu] / g->dom[mu];
        c += (int)(j % nd) + g->origin[mu] / g->dom[mu];
        j /= nd;
    }
    return c & 1;
}

/* The block storage index of site s (domain-local storage index) of domain j. */
static inline QF_HD int64_t qf_domain_block_site(const qf_domain_geom *g, int64_t j, int64_t s)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, g->dom, x);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int nd = g->ext[mu] / g->dom[mu];
        x[mu] += (int)(j % nd) * g->dom[mu];
        j /= nd;
    }
    return qf_block_site_index(x, g->ext);
}

typedef struct {
    qf_domain_geom g;
    int rec; /* reals a record */
    qf_precision prec;
} qf_domain_layout_args;

/* domain_layout: record k (= j V_d + s) of the domain-layout copy from the block layout. */
static inline QF_HD void qf_domain_layout_record(const qf_domain_geom *g, const void *block, void *dom, int64_t k,
                                                 int rec, qf_precision prec)
{
    int64_t vd = qf_volume(g->dom);
    int64_t s = qf_domain_block_site(g, k / vd, k % vd);
    for (int i = 0; i < rec; i++)
        qf_real_set(dom, prec, (size_t)(k * rec + i), qf_real_get(block, prec, (size_t)(s * rec + i)));
}

/* wilson_sap: MR steps on the domains of one colour of a block for M_d e = r (M_d: the Wilson-clover
 * operator on the domain, Dirichlet boundaries), starting from e = 0; the block's x gains e. op is
 * the domain operator (ext = dom, all sites, a = 1, b = -kappa, x = its input, dirichlet). */
typedef struct {
    qf_domain_geom g;
    qf_wilson_args op;
    int colour;
    int mr_steps;
} qf_sap_args;

/* The MR step's partial sums at one site: <q, rho> (re, im) and <q, q>. */
static inline QF_HD void qf_sap_site_dots(const void *q, const void *rho, int64_t k, qf_precision prec, double d[3])
{
    for (int i = 0; i < QF_SPINOR_REALS; i += 2) {
        size_t o = (size_t)(k * QF_SPINOR_REALS + i);
        double qr = qf_real_get(q, prec, o), qi = qf_real_get(q, prec, o + 1);
        double rr = qf_real_get(rho, prec, o), ri = qf_real_get(rho, prec, o + 1);
        d[0] += qr * rr + qi * ri;
        d[1] += qr * ri - qi * rr;
        d[2] += qr * qr + qi * qi;
    }
}

/* alpha = <q, rho> / <q, q>, then e += alpha rho, rho -= alpha q at one site (q = 0 on a domain
 * whose residual vanished: alpha 0). */
static inline QF_HD void qf_sap_site_update(void *e, void *rho, const void *q, int64_t k, qf_precision prec,
                                            const double d[3])
{
    double ar = d[2] > 0.0 ? d[0] / d[2] : 0.0, ai = d[2] > 0.0 ? d[1] / d[2] : 0.0;
    for (int i = 0; i < QF_SPINOR_REALS; i += 2) {
        size_t o = (size_t)(k * QF_SPINOR_REALS + i);
        double rr = qf_real_get(rho, prec, o), ri = qf_real_get(rho, prec, o + 1);
        double qr = qf_real_get(q, prec, o), qi = qf_real_get(q, prec, o + 1);
        qf_real_set(e, prec, o, qf_real_get(e, prec, o) + ar * rr - ai * ri);
        qf_real_set(e, prec, o + 1, qf_real_get(e, prec, o + 1) + ar * ri + ai * rr);
        qf_real_set(rho, prec, o, rr - ar * qr + ai * qi);
        qf_real_set(rho, prec, o + 1, ri - ar * qi - ai * qr);
    }
}

/* A domain solve's start at domain site s, block site bs: rho = r there, e = 0. */
static inline QF_HD void qf_sap_site_begin(void *rho, void *e, int64_t s, const void *r, int64_t bs, qf_precision prec)
{
    for (int i = 0; i < QF_SPINOR_REALS; i++) {
        qf_real_set(rho, prec, (size_t)(s * QF_SPINOR_REALS + i),
                    qf_real_get(r, prec, (size_t)(bs * QF_SPINOR_REALS + i)));
        qf_real_set(e, prec, (size_t)(s * QF_SPINOR_REALS + i), 0.0);
    }
}

/* Its end: x += e at block site bs from domain site s. */
static inline QF_HD void qf_sap_site_add(void *x, int64_t bs, const void *e, int64_t s, qf_precision prec)
{
    for (int i = 0; i < QF_SPINOR_REALS; i++) {
        size_t o = (size_t)(bs * QF_SPINOR_REALS + i);
        qf_real_set(x, prec, o, qf_real_get(x, prec, o) + qf_real_get(e, prec, (size_t)(s * QF_SPINOR_REALS + i)));
    }
}

/* The domain operator's arguments on domain j's records: its fields' pointers shifted to the domain. */
static inline QF_HD const void *qf_domain_records(const void *base, int64_t j, int64_t vd, int rec, qf_precision prec)
{
    return (const char *)base + (size_t)(j * vd * rec) * (prec == QF_DOUBLE ? sizeof(double) : sizeof(float));
}

#endif
