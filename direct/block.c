/* One block's CPU Wilson kernels called one at a time without the runtime (qf_direct.h), for bench
 * kernels: the arguments of one of Mhat's hops as the plan of direct.c gives them, on a one-block
 * lattice, so that the kernels timed alone are the ones, with the arguments, that a whole operator
 * runs. */
#include "direct_plan.h"

_Static_assert(QF_DIRECT_NFACES == QF_WILSON_NFACES, "qf_direct_block_fields holds the faces the kernels write");

#include <stdlib.h>
#include <string.h>

struct qf_direct_block {
    qf_direct_hop_args hop;
    int64_t volume;
    qf_precision prec;
};

int qf_direct_block_create(qf_direct_block **out, const int block[QF_NDIM], const qf_dirac_params *p, qf_schur_form form,
                           int hop)
{
    *out = NULL;
    /* a one-block lattice: the block is its own neighbour, and every face hop crosses the boundary */
    static const int one[QF_NDIM] = {1, 1, 1, 1};
    qf_lattice lat;
    if (qf_lattice_init(&lat, block, NULL, one, 0, 1, 2)) return QF_ERROR;
    qf_direct_plan plan;
    memset(&plan, 0, sizeof plan);
    qf_direct_plan_hops(&plan, &lat, p, form);
    if (hop < 0 || hop >= plan.nhops) return qf_fail("Mhat has %d hops: there is no hop %d", plan.nhops, hop);
    qf_direct_block *kb = calloc(1, sizeof *kb);
    if (!kb) return qf_fail("out of host memory");
    kb->hop = plan.hop[hop];
    /* timed as one block of a larger lattice: its hops across the faces go through the gather and the
     * exterior, not around the block as on a one-block lattice (qf_wilson_args.wrap) */
    kb->hop.a.wrap = kb->hop.g.wrap = 0;
    kb->volume = qf_volume(block);
    kb->prec = p->prec;
    *out = kb;
    return QF_SUCCESS;
}

void qf_direct_block_destroy(qf_direct_block *kb) { free(kb); }

const qf_dirac_hop *qf_direct_block_hop(const qf_direct_block *kb) { return &kb->hop.hop; }

void qf_direct_block_sizes(const qf_direct_block *kb, qf_direct_block_bytes *z)
{
    /* one record a site and a face site: in half, whole tiles (qf_half_layout) */
    size_t sites = (size_t)kb->volume;
    z->spinor = qf_records_bytes(kb->prec, QF_HALF_TILES, QF_SPINOR_REALS, sites);
    z->gauge = qf_records_bytes(kb->prec, QF_HALF_TILES, QF_LINKS_REALS, sites);
    z->clover = qf_records_bytes(kb->prec, QF_HALF_TILES, QF_CLOVER_REALS, sites);
    for (int k = 0; k < QF_WILSON_NFACES; k++)
        z->face[k] = qf_records_bytes(kb->prec, QF_HALF_TILES, QF_HALF_SPINOR_REALS,
                                      (size_t)qf_parity_face_sites(kb->hop.g.ext, k / 2, kb->hop.g.parity));
}

void qf_direct_block_spinor(const qf_direct_block *kb, const void *spinor, int64_t site, double v[QF_SPINOR_REALS])
{
    qf_record_reals_load(spinor, kb->prec, (size_t)site, QF_SPINOR_REALS, 0, v, QF_SPINOR_REALS, QF_HALF_TILES);
}

void qf_direct_block_call(const qf_direct_block *kb, qf_direct_kernel k, const qf_direct_block_fields *f)
{
    const qf_direct_hop_args *h = &kb->hop;
    if (k == QF_DIRECT_GATHER) {
        qf_wilson_gather_run(&h->g, f->in, f->gauge, f->face);
    } else if (k == QF_DIRECT_INTERIOR) {
        qf_wilson_interior_run(&h->a, f->out, f->in, f->gauge, f->x, f->clover);
    } else {
        /* exterior slot 2 mu takes the -mu neighbour's side-1 face, slot 2 mu + 1 the +mu neighbour's
         * side-0 face (as the plan wires them); on a one-block lattice both neighbours are the block */
        const void *nbr[QF_WILSON_NFACES];
        for (int mu = 0; mu < QF_NDIM; mu++) {
            nbr[2 * mu] = f->face[2 * mu + 1];
            nbr[2 * mu + 1] = f->face[2 * mu];
        }
        qf_wilson_exterior_run(&h->a, f->out, f->gauge, f->x, f->clover, nbr);
    }
}
