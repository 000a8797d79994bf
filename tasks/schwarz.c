/* The Wilson-clover operator's domain solves for Schwarz methods (qf_linop_domains in
 * include/quarkflow/qf_linop.h, kernels/sap.h): its links, clover term and inverse copied once into the domain
 * layout (one domain_layout task a block and field), then one wilson_sap task a block for each
 * colour's solves. The tasks read and write their own block only: no faces, no messages. */
#include "mg_tasks.h"

#include "kernels/sap.h"

/* The spec (codelets.h) is the whole state: it owns its fields. */
static void domains_free(void *ctx)
{
    qf_wilson_sap_spec *sp = ctx;
    if (sp->links) qf_field_destroy(sp->links);
    if (sp->clover) qf_field_destroy(sp->clover);
    if (sp->clover_inv) qf_field_destroy(sp->clover_inv);
    for (int k = 0; k < 3; k++)
        if (sp->work[k]) qf_field_destroy(sp->work[k]);
    free(sp);
}

static int domains_solve(void *ctx, int colour, qf_field *x, const qf_field *r)
{
    const qf_wilson_sap_spec *sp = ctx;
    const qf_lattice *lat = sp->links->lat;
    for (int k = 0; k < 2; k++) {
        const qf_field *f = k ? r : x;
        if (f->shape.kind != QF_FIELD_WILSON || f->prec != sp->links->prec || !qf_lattice_same(f->lat, lat))
            return qf_fail("Schwarz domain solves: the %s field is a %s field in %s precision; the operator's are "
                           "Wilson fields in %s precision on its lattice",
                           k ? "right-hand side" : "solution", qf_field_kind_name(f->shape.kind),
                           qf_precision_name(f->prec), qf_precision_name(sp->links->prec));
    }
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_lattice_block_is_local(lat, b) && qf_insert_wilson_sap(sp, b, colour, x, r)) return QF_ERROR;
    return QF_SUCCESS;
}

static const qf_domains_ops dirac_domains_ops = {.solve = domains_solve, .destroy = domains_free};

/* Domains that tile every block, with an even number of them along every direction of the lattice
 * (the chessboard colouring), small enough for one GPU thread block. */
static int check_domains(const qf_lattice *lat, const int dom[QF_NDIM])
{
    int ok = qf_volume(dom) <= QF_SAP_MAX_DOMAIN_SITES;
    for (int mu = 0; mu < QF_NDIM; mu++)
        ok = ok && dom[mu] >= 2 && dom[mu] % 2 == 0 && lat->block[mu] % dom[mu] == 0 &&
             lat->global[mu] / dom[mu] % 2 == 0;
    if (ok) return QF_SUCCESS;
    return qf_fail("Schwarz domains of %d %d %d %d sites do not suit blocks of %d %d %d %d on a %d %d %d %d lattice: "
                   "a domain's extents are even and divide the block's, the lattice holds an even number of domains "
                   "along every direction, and a domain has at most %d sites (e.g. 4 4 4 4)",
                   dom[0], dom[1], dom[2], dom[3], lat->block[0], lat->block[1], lat->block[2], lat->block[3],
                   lat->global[0], lat->global[1], lat->global[2], lat->global[3], QF_SAP_MAX_DOMAIN_SITES);
}

int qf_dirac_domains(qf_dirac *d, const int dom[QF_NDIM], int mr_steps, qf_domains **out)
{
    *out = NULL;
    const qf_lattice *lat = qf_dirac_lattice(d);
    if (check_domains(lat, dom) || qf_precision_check_full(qf_dirac_get_params(d)->prec, "Schwarz domain solves"))
        return QF_ERROR;
    qf_wilson_sap_spec *sp = calloc(1, sizeof *sp);
    if (!sp) return qf_fail("out of host memory creating Schwarz domains");
    const qf_field *links, *clover, *clover_inv = qf_dirac_clover_inverse(d);
    qf_dirac_fields(d, &links, &clover);
    qf_precision prec = qf_dirac_get_params(d)->prec;
    sp->mr_steps = mr_steps;
    sp->kappa = qf_dirac_get_params(d)->kappa;
    memcpy(sp->dom, dom, sizeof sp->dom);
    int rc = qf_field_create_shaped(&sp->links, lat, &links->shape, prec, QF_FIELD_SCRATCH);
    if (!rc && clover) rc = qf_field_create_shaped(&sp->clover, lat, &clover->shape, prec, QF_FIELD_SCRATCH) ||
                            qf_field_create_shaped(&sp->clover_inv, lat, &clover->shape, prec, QF_FIELD_SCRATCH);
    for (int k = 0; k < 3 && !rc; k++) rc = qf_field_create_scratch(&sp->work[k], lat, QF_FIELD_WILSON, prec);
    for (int b = 0; b < lat->nblocks && !rc; b++) {
        if (!qf_lattice_block_is_local(lat, b)) continue;
        rc = qf_insert_domain_layout(sp->links, b, links, dom) ||
             (clover && (qf_insert_domain_layout(sp->clover, b, clover, dom) ||
                         qf_insert_domain_layout(sp->clover_inv, b, clover_inv, dom)));
    }
    if (rc || qf_domains_create(out, &dirac_domains_ops, sp)) {
        domains_free(sp);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}
