/* Site kernels of the Schwarz alternating procedure (SAP; solvers/sap.c), shared by the CPU and CUDA
 * codelets domain_layout and wilson_sap.
 *
 * A block is cut into domains of extents dom (even, dividing the block's extents). Domains are
 * coloured like a chessboard on the global grid of domains, so that neighbouring domains differ in
 * colour. The operator restricted to a domain with Dirichlet boundaries (hops that leave the domain
 * dropped), M_d = A - kappa D, is the interior kernel of wilson.h run on the domain as if it were a
 * block (qf_wilson_args.dirichlet: every site finished). For that, the fields it reads are kept in
 * domain layout: domain j (lexicographic in the block's grid of domains) holds its sites at records
 * j V_d + s, s the domain-local storage index (qf_block_site_index with extents dom: even sites first),
 * V_d the domain's volume. The links, the clover term and its inverse are copied into that layout once
 * per operator (domain_layout).
 *
 * A domain solve is Lüscher's (openQCD's sap.c): minimal-residual (MR) steps on the even-odd
 * preconditioned domain operator Mhat_d = A_ee - kappa^2 D_eo A_oo^-1 D_oe, whose even sites damp the
 * high modes far better than MR on M_d for the same operator applications:
 *
 *   u_o = A_oo^-1 r_o,  rho_e = r_e + kappa D_eo u_o,  e_e = 0
 *   mr_steps times:  q_e = Mhat_d rho_e (t_o = A_oo^-1 D_oe rho_e, then q_e = A_ee rho_e - kappa^2 D_eo t_o),
 *                    alpha = <q, rho> / <q, q>,  e_e += alpha rho_e,  rho_e -= alpha q_e
 *   e_o = u_o + kappa A_oo^-1 D_oe e_e
 *
 * so that r - M_d e is rho_e on the even sites and 0 on the odd ones. In the work fields rho (whose odd
 * half holds u), q (whose odd half holds t) and e, all in domain layout. Both codelets run the same
 * per-site functions and the hops of qf_sap_hop below. */
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

/* The block storage index of site s (domain-local storage index) of domain j: that of the same site of
 * domain 0 shifted by qf_domain_shift(g, j), since a domain's origin has even coordinates (so the
 * parity of a site and the half of its lexicographic index move together). */
static inline QF_HD int64_t qf_domain_shift(const qf_domain_geom *g, int64_t j)
{
    int64_t lex = 0, stride = 1;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int nd = g->ext[mu] / g->dom[mu];
        lex += (j % nd) * g->dom[mu] * stride;
        stride *= g->ext[mu];
        j /= nd;
    }
    return lex / 2;
}
static inline QF_HD int64_t qf_domain_block_site(const qf_domain_geom *g, int64_t j, int64_t s)
{
    int x[QF_NDIM];
    qf_block_site_coords(s, g->dom, x);
    return qf_block_site_index(x, g->ext) + qf_domain_shift(g, j);
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

/* wilson_sap: the domain solves of one colour of a block for M_d e = r (above); the block's x gains e.
 * op holds what the domain's hops share (ext = dom, dirichlet, precision, whether there is a clover
 * term); qf_sap_hop sets the rest. */
typedef struct {
    qf_domain_geom g;
    qf_wilson_args op;
    double kappa;
    int colour;
    int mr_steps;
} qf_sap_args;

/* The hops of a domain solve: out = finish(a, x, b, D in) on the sites of one parity (wilson.h). */
enum {
    QF_SAP_PREPARE,     /* rho_e = r_e + kappa D_eo u_o                  (out rho, in rho, x rho) */
    QF_SAP_ODD,         /* t_o = A_oo^-1 D_oe rho_e                      (out q, in rho) */
    QF_SAP_EVEN,        /* q_e = A_ee rho_e - kappa^2 D_eo t_o           (out q, in q, x rho) */
    QF_SAP_RECONSTRUCT  /* e_o = u_o + kappa A_oo^-1 D_oe e_e            (out e, in e, x rho) */
};

/* The arguments of hop k; the clover field it reads is A^-1 for the odd ones, A for QF_SAP_EVEN. */
static inline QF_HD qf_wilson_args qf_sap_hop(const qf_sap_args *a, int k)
{
    qf_wilson_args h = a->op;
    int clover = a->op.clover_on != QF_CLOVER_NONE;
    h.parity = k == QF_SAP_ODD || k == QF_SAP_RECONSTRUCT;
    h.has_x = k != QF_SAP_ODD;
    h.a = k == QF_SAP_ODD ? 0.0 : 1.0;
    h.b = k == QF_SAP_ODD ? 1.0 : k == QF_SAP_EVEN ? -a->kappa * a->kappa : a->kappa;
    h.clover_on = !clover || k == QF_SAP_PREPARE ? QF_CLOVER_NONE : k == QF_SAP_EVEN ? QF_CLOVER_X : QF_CLOVER_HOPS;
    return h;
}

/* The MR step works on the even half of a domain's work fields as on QF_SAP_UNITS complex numbers a
 * site (unit k: reals 2k, 2k + 1), so that the CPU can sum over all of them in lanes and a GPU thread
 * over its site's. */
#define QF_SAP_UNITS (QF_SPINOR_REALS / 2)

/* Its partial sums at unit k: <q, rho> (re, im) and <q, q>. */
static inline QF_HD void qf_sap_unit_dots(const void *q, const void *rho, int64_t k, qf_precision prec, double d[3])
{
    size_t o = (size_t)(2 * k);
    double qr = qf_real_get(q, prec, o), qi = qf_real_get(q, prec, o + 1);
    double rr = qf_real_get(rho, prec, o), ri = qf_real_get(rho, prec, o + 1);
    d[0] += qr * rr + qi * ri;
    d[1] += qr * ri - qi * rr;
    d[2] += qr * qr + qi * qi;
}

/* alpha = <q, rho> / <q, q> from the sums (0 on a domain whose residual vanished: q = 0). */
static inline QF_HD void qf_sap_alpha(const double d[3], double alpha[2])
{
    alpha[0] = d[2] > 0.0 ? d[0] / d[2] : 0.0;
    alpha[1] = d[2] > 0.0 ? d[1] / d[2] : 0.0;
}

/* e += alpha rho, rho -= alpha q at unit k. */
static inline QF_HD void qf_sap_unit_update(void *e, void *rho, const void *q, int64_t k, qf_precision prec,
                                            const double alpha[2])
{
    size_t o = (size_t)(2 * k);
    double ar = alpha[0], ai = alpha[1];
    double rr = qf_real_get(rho, prec, o), ri = qf_real_get(rho, prec, o + 1);
    double qr = qf_real_get(q, prec, o), qi = qf_real_get(q, prec, o + 1);
    qf_real_set(e, prec, o, qf_real_get(e, prec, o) + ar * rr - ai * ri);
    qf_real_set(e, prec, o + 1, qf_real_get(e, prec, o + 1) + ar * ri + ai * rr);
    qf_real_set(rho, prec, o, rr - ar * qr + ai * qi);
    qf_real_set(rho, prec, o + 1, ri - ar * qi - ai * qr);
}

/* A domain solve's start at domain site s, block site bs: rho = r there (u_o = A_oo^-1 r_o then
 * replaces the odd half of rho, in place); on an even site also e = 0 (the reconstruction writes the
 * odd half). */
static inline QF_HD void qf_sap_site_begin(void *rho, void *e, int64_t s, int64_t half, const void *r, int64_t bs,
                                           qf_precision prec)
{
    for (int i = 0; i < QF_SPINOR_REALS; i++) {
        qf_real_set(rho, prec, (size_t)(s * QF_SPINOR_REALS + i),
                    qf_real_get(r, prec, (size_t)(bs * QF_SPINOR_REALS + i)));
        if (s < half) qf_real_set(e, prec, (size_t)(s * QF_SPINOR_REALS + i), 0.0);
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
