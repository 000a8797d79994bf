/* The multigrid transfer as task graphs (include/quarkflow/qf_multigrid.h): the near-null vectors packed
 * into the prolongator's storage and orthonormalised block by block, restriction (one task a coarse
 * block, reading the fine blocks it holds) and prolongation (one task a fine block, reading its coarse
 * block):
 *
 *   mg_pack(b)            R: v_k(b), k < N          W: V(b)
 *   mg_orthonormalize(b)  RW: V(b)                  REDUX: count of vanished vectors
 *   mg_restrict(c)        R: fine(b), V(b) for the fine blocks b of c       W: coarse(c)
 *   mg_prolong(b)         R: coarse(c(b)), V(b)     W (RW on the even sites alone): fine(b) */
#include "mg_tasks.h"

int qf_transfer_create(qf_transfer **out, const qf_lattice *fine, const qf_field_shape *fine_shape,
                       const int agg[QF_NDIM], int nvec, qf_precision prec, int one_block)
{
    *out = NULL;
    if (fine_shape->kind != QF_FIELD_WILSON && fine_shape->kind != QF_FIELD_COARSE)
        return qf_fail("multigrid transfers map Wilson or coarse fields, not %s fields",
                       qf_field_kind_name(fine_shape->kind));
    if (qf_precision_check_full(prec, "transfer")) return QF_ERROR;
    qf_transfer *T = calloc(1, sizeof *T);
    if (!T) return qf_fail("out of host memory creating a multigrid transfer");
    T->fine = fine;
    T->fine_shape = *fine_shape;
    T->nvec = nvec;
    T->prec = prec;
    memcpy(T->agg, agg, sizeof T->agg);
    qf_field_shape vshape;
    int rc = qf_lattice_coarsen(&T->coarse, fine, agg, one_block) || qf_field_shape_coarse(&T->coarse_shape, nvec) ||
             qf_field_shape_transfer(&vshape, fine_shape->site_reals, nvec) ||
             qf_field_create_shaped(&T->v, fine, &vshape, prec, QF_FIELD_SCRATCH) ||
             qf_blas_axpby(0.0, NULL, 0.0, T->v, -1);
    if (!rc) {
        int ratio[QF_NDIM];
        qf_lattice_coarse_ratio(&T->coarse, fine, ratio);
        if (qf_volume(ratio) > QF_MG_MAX_FINE_BLOCKS)
            rc = qf_fail("multigrid: a coarse block would hold %lld fine blocks, more than %d: use fewer blocks "
                         "(--blocks)",
                         (long long)qf_volume(ratio), QF_MG_MAX_FINE_BLOCKS);
    }
    if (rc) {
        qf_transfer_destroy(T);
        return QF_ERROR;
    }
    *out = T;
    return QF_SUCCESS;
}

static void drop_half_vectors(qf_transfer *T)
{
    if (T->v_half) qf_field_destroy(T->v_half);
    T->v_half = NULL;
}

void qf_transfer_destroy(qf_transfer *T)
{
    if (!T) return;
    drop_half_vectors(T);
    if (T->v) qf_field_destroy(T->v);
    free(T);
}

int qf_transfer_set_vector_precision(qf_transfer *T, qf_precision vprec)
{
    if (qf_sequence_failed()) return QF_ERROR;
    drop_half_vectors(T);
    if (vprec == T->prec) return QF_SUCCESS;
    if (vprec != QF_HALF || T->prec != QF_SINGLE)
        return qf_fail("multigrid transfer vectors in %s precision for a transfer in %s: give the transfer's precision, "
                       "or half for a single-precision transfer",
                       qf_precision_name(vprec), qf_precision_name(T->prec));
    return qf_field_create_converted(&T->v_half, T->v, QF_HALF);
}

const qf_lattice *qf_transfer_coarse_lattice(const qf_transfer *T) { return &T->coarse; }
const qf_lattice *qf_transfer_fine_lattice(const qf_transfer *T) { return T->fine; }
qf_field_shape qf_transfer_coarse_shape(const qf_transfer *T) { return T->coarse_shape; }
qf_field_shape qf_transfer_fine_shape(const qf_transfer *T) { return T->fine_shape; }
int qf_transfer_nvec(const qf_transfer *T) { return T->nvec; }
qf_precision qf_transfer_precision(const qf_transfer *T) { return T->prec; }
qf_precision qf_transfer_vector_precision(const qf_transfer *T) { return qf_field_precision(qf_transfer_applied_vectors(T)); }
const qf_field *qf_transfer_vectors(const qf_transfer *T) { return T->v; }

/* f: a field of the shape, lattice and precision given. */
static int check_field(const qf_field *f, const qf_lattice *lat, const qf_field_shape *shape, qf_precision prec,
                       const char *what)
{
    if (!f) return qf_fail("multigrid transfer: the %s field is NULL", what);
    if (!qf_field_shape_same_sites(&f->shape, shape) || f->prec != prec || !qf_lattice_same(f->lat, lat))
        return qf_fail("multigrid transfer: the %s field is a %s field (%d reals a site) in %s precision%s; the transfer "
                       "needs %s fields (%d reals a site) in %s precision on its %s lattice",
                       what, qf_field_kind_name(f->shape.kind), f->shape.site_reals, qf_precision_name(f->prec),
                       qf_lattice_same(f->lat, lat) ? "" : " on another lattice", qf_field_kind_name(shape->kind),
                       shape->site_reals, qf_precision_name(prec), what);
    return QF_SUCCESS;
}

int qf_transfer_set_vectors(qf_transfer *T, qf_field *const *v)
{
    if (qf_sequence_failed()) return QF_ERROR;
    drop_half_vectors(T); /* it would keep the old vectors */
    for (int k = 0; k < T->nvec; k++)
        if (check_field(v[k], T->fine, &T->fine_shape, T->prec, "fine")) return QF_ERROR;
    const qf_lattice *lat = T->fine;
    int rc = QF_SUCCESS;
    for (int b = 0; b < lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_local(lat, b)) rc = qf_insert_mg_pack(T->v, b, T->agg, T->nvec, v);
    double vanished = 0.0;
    qf_block_sum sum;
    if (rc || qf_block_sum_begin_host(&sum, 1, lat)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks && !rc; b++)
        if (qf_lattice_block_is_local(lat, b))
            rc = qf_insert_mg_orthonormalize(T->v, b, T->agg, T->nvec, qf_block_sum_descr(&sum, b));
    if (qf_block_sum_read(&sum, &vanished, 1) || rc) return QF_ERROR;
    if (vanished > 0.0)
        return qf_fail("multigrid: on %.0f aggregates and chiralities one of the %d near-null vectors lay in the span of "
                       "the others: give fewer vectors (--mg-nvec), larger aggregates (--mg-block), or more distinct "
                       "start vectors",
                       vanished, T->nvec);
    return QF_SUCCESS;
}

int qf_transfer_restrict(const qf_transfer *T, qf_field *coarse, const qf_field *fine, int parity)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (parity != -1 && parity != 0)
        return qf_fail("multigrid restriction from parity %d: give -1 (all sites) or 0 (the even sites)", parity);
    if (check_field(fine, T->fine, &T->fine_shape, T->prec, "fine") ||
        check_field(coarse, &T->coarse, &T->coarse_shape, T->prec, "coarse"))
        return QF_ERROR;
    const qf_lattice *cl = &T->coarse;
    for (int c = 0; c < cl->nblocks; c++)
        if (qf_lattice_block_is_local(cl, c) &&
            qf_insert_mg_restrict(coarse, c, fine, qf_transfer_applied_vectors(T), T->agg, T->nvec, parity == 0))
            return QF_ERROR;
    return QF_SUCCESS;
}

int qf_transfer_prolong(const qf_transfer *T, qf_field *fine, const qf_field *coarse, int parity)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (parity != -1 && parity != 0)
        return qf_fail("multigrid prolongation on parity %d: give -1 (all sites) or 0 (the even sites)", parity);
    if (check_field(fine, T->fine, &T->fine_shape, T->prec, "fine") ||
        check_field(coarse, &T->coarse, &T->coarse_shape, T->prec, "coarse"))
        return QF_ERROR;
    const qf_lattice *fl = T->fine;
    for (int b = 0; b < fl->nblocks; b++)
        if (qf_lattice_block_is_local(fl, b) &&
            qf_insert_mg_prolong(fine, b, coarse, qf_transfer_applied_vectors(T), T->agg, T->nvec, parity == 0))
            return QF_ERROR;
    return QF_SUCCESS;
}
