/* The clover term as task graphs (include/quarkflow/qf_clover.h):
 *
 *   clover_build(b)   R: F(b)                    W: A(b), A^-1(b)   REDUX: failed-site count
 *   clover_apply(b)   R: C(b), x(b), y(b)        RW: out(b)
 *
 * Both are site-local: no faces. The build waits for its failure count only, so that a clover term
 * that cannot be inverted is reported where it is built. */
#include "quarkflow/qf_clover.h"
#include "tasks.h"

#include <math.h>

/* Fails unless f lives on lat's geometry; what names f, whose names the reference. */
static int check_lattice(const qf_field *f, const char *what, const qf_lattice *lat, const char *whose)
{
    const qf_lattice *l = f->lat;
    if (qf_lattice_same(l, lat)) return QF_SUCCESS;
    return qf_fail("%s's lattice (%d %d %d %d, blocks %d %d %d %d) differs from the %s's (%d %d %d %d, blocks %d "
                   "%d %d %d): create it on the %s's lattice",
                   what, l->global[0], l->global[1], l->global[2], l->global[3], l->blocks[0], l->blocks[1],
                   l->blocks[2], l->blocks[3], whose, lat->global[0], lat->global[1], lat->global[2], lat->global[3],
                   lat->blocks[0], lat->blocks[1], lat->blocks[2], lat->blocks[3], whose);
}

int qf_clover_build(const qf_field *fmunu, double kappa_csw, qf_field *a, qf_field *ainv)
{
    if (fmunu->shape.kind != QF_FIELD_FIELD_STRENGTH)
        return qf_fail("the clover term is built from a %s field (qf_gauge_field_strength), not a %s field",
                       qf_field_kind_name(QF_FIELD_FIELD_STRENGTH), qf_field_kind_name(fmunu->shape.kind));
    if (a->shape.kind != QF_FIELD_CLOVER || ainv->shape.kind != QF_FIELD_CLOVER)
        return qf_fail("the clover term and its inverse go into %s fields, not a %s field: create them with "
                       "QF_FIELD_CLOVER",
                       qf_field_kind_name(QF_FIELD_CLOVER),
                       qf_field_kind_name(a->shape.kind != QF_FIELD_CLOVER ? a->shape.kind : ainv->shape.kind));
    if (a == ainv) return qf_fail("the clover term and its inverse need two distinct clover fields, not one");
    if (a->prec != ainv->prec)
        return qf_fail("the clover term (%s) and its inverse (%s) must have the same precision",
                       qf_precision_name(a->prec), qf_precision_name(ainv->prec));
    if (!isfinite(kappa_csw)) return qf_fail("kappa * c_sw = %g is not a finite number", kappa_csw);
    const qf_lattice *lat = fmunu->lat;
    if (check_lattice(a, "the clover field", lat, "field strength") ||
        check_lattice(ainv, "the inverse clover field", lat, "field strength"))
        return QF_ERROR;

    double failed[1];
    qf_block_sum sum;
    if (qf_block_sum_begin_host(&sum, 1, lat)) return QF_ERROR;
    int rc = QF_SUCCESS;
    for (int b = 0; !rc && b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_near(lat, b)) continue; /* pruned (runtime/mpi_data.h) */
        rc = qf_insert_clover_build(fmunu, a, ainv, b, kappa_csw, qf_block_sum_descr(&sum, b));
    }
    if (qf_block_sum_read(&sum, failed, 1) || rc) return QF_ERROR;
    if (failed[0] > 0.0)
        return qf_fail("the clover term A = 1 + i kappa c_sw sigma.F is not positive definite (not invertible) on %.0f "
                       "of %lld sites: kappa * c_sw = %g is too large for this gauge field; use a smaller c_sw (or "
                       "kappa), or a smoother gauge field (thermalised or smeared rather than hot)",
                       failed[0], (long long)lat->global_volume, kappa_csw);
    return QF_SUCCESS;
}

/* Fails unless f is a Wilson field of the clover field's precision and lattice. */
static int check_spinor(const qf_field *f, const char *what, const qf_field *clover)
{
    if (f->shape.kind != QF_FIELD_WILSON)
        return qf_fail("the clover term acts on %s fields: %s is a %s field", qf_field_kind_name(QF_FIELD_WILSON), what,
                       qf_field_kind_name(f->shape.kind));
    if (f->prec != clover->prec)
        return qf_fail("%s is in %s precision but the clover field in %s: convert it (qf_field_convert)", what,
                       qf_precision_name(f->prec), qf_precision_name(clover->prec));
    return check_lattice(f, what, clover->lat, "clover field");
}

int qf_clover_apply(qf_field *out, double a, const qf_field *x, double b, const qf_field *clover,
                          const qf_field *y, int parity)
{
    if (parity < -1 || parity > 1)
        return qf_fail("parity %d: the clover term applies to parity 0 (even), 1 (odd) or -1 (all sites)", parity);
    if (clover->shape.kind != QF_FIELD_CLOVER)
        return qf_fail("the clover term needs a %s field (qf_clover_build), not a %s field",
                       qf_field_kind_name(QF_FIELD_CLOVER), qf_field_kind_name(clover->shape.kind));
    if (!x && a != 0.0) return qf_fail("out = a x + b C y with a = %g needs an x field", a);
    if (check_spinor(out, "the output", clover) || check_spinor(y, "the input y", clover) ||
        (x && check_spinor(x, "the input x", clover)))
        return QF_ERROR;
    if (!x) x = y; /* a == 0: x is not read, but the codelet has a buffer for it */

    const qf_lattice *lat = clover->lat;
    for (int blk = 0; blk < lat->nblocks; blk++) /* pruned (runtime/mpi_data.h) */
        if (qf_lattice_block_is_near(lat, blk) && qf_insert_clover_apply(out, a, x, b, clover, y, parity, blk))
            return QF_ERROR;
    return QF_SUCCESS;
}
