/* The preconditioner interface (include/quarkflow/qf_linop.h): a K that flexible GCR applies to its
 * residual, from any implementation (n MR steps in mr.c; multigrid and Schwarz later). */
#include "quarkflow/qf_linop.h"

#include <stdlib.h>

struct qf_precond {
    const qf_precond_ops *ops;
    void *ctx;
};

int qf_precond_create(qf_precond **K, const qf_precond_ops *ops, void *ctx)
{
    *K = NULL;
    if (!ops || !ops->apply) return qf_fail("qf_precond_create: a preconditioner needs its apply function");
    if (!(*K = malloc(sizeof **K))) return qf_fail("out of host memory creating a preconditioner");
    **K = (qf_precond){.ops = ops, .ctx = ctx};
    return QF_SUCCESS;
}

void qf_precond_destroy(qf_precond *K)
{
    if (!K) return;
    if (K->ops->destroy) K->ops->destroy(K->ctx);
    free(K);
}

void *qf_precond_context(const qf_precond *K, const qf_precond_ops *ops) { return K && K->ops == ops ? K->ctx : NULL; }

const char *qf_precond_name(const qf_precond *K) { return K->ops->name ? K->ops->name : "preconditioner"; }

int qf_precond_apply(qf_precond *K, qf_field *z, const qf_field *r, double *flops)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!z || !r) return qf_fail("preconditioner %s: a NULL field", qf_precond_name(K));
    if (z == r) return qf_fail("preconditioner %s: the input and output are the same field", qf_precond_name(K));
    double spent = 0.0;
    int rc = K->ops->apply(K->ctx, z, r, &spent);
    if (flops) *flops += spent;
    return rc;
}

int qf_precond_has_image(const qf_precond *K) { return K && K->ops->apply_image; }

int qf_precond_apply_image(qf_precond *K, qf_field *z, qf_field *az, const qf_field *r, double *flops)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!qf_precond_has_image(K)) return qf_fail("preconditioner %s gives no image A z", K ? qf_precond_name(K) : "NULL");
    if (!z || !az || !r) return qf_fail("preconditioner %s: a NULL field", qf_precond_name(K));
    if (z == r || az == r || az == z)
        return qf_fail("preconditioner %s: the input, output and image must be distinct fields", qf_precond_name(K));
    double spent = 0.0;
    int rc = K->ops->apply_image(K->ctx, z, az, r, &spent);
    if (flops) *flops += spent;
    return rc;
}
