/* What the BLAS codelets' insert helpers share (codelets.h): the operands of a task become its buffers,
 * each distinct handle once with the union of its operands' modes, and the argument block's table says
 * which buffer holds each operand, so that a field or scalar given twice is one buffer of the task.
 * While a chain is open the task joins it (chain.c) where it can. */
#include "codelets.h"
#include "blas_launch.h"
#include "blas_team.h"
#include "cpu_team.h"

int qf_blas_insert(struct starpu_codelet *cl, qf_blas_args *args, const qf_blas_range *r,
                   const struct starpu_data_descr *ops, int nops)
{
    return qf_blas_insert_args(cl, args, sizeof *args, r, ops, nops);
}

int qf_blas_insert_args(struct starpu_codelet *cl, qf_blas_args *args, size_t bytes, const qf_blas_range *r,
                        const struct starpu_data_descr *ops, int nops)
{
    args->prec = r->prec;
    args->first = r->first;
    args->n = r->n;
    if (r->prec == QF_HALF && r->site_reals != QF_BLAS_HALF_RECORD)
        return qf_fail("%s on half-precision fields of %d reals a site: BLAS keeps Wilson spinors (%d reals) in half",
                       cl->name, r->site_reals, QF_BLAS_HALF_RECORD);
    /* a parity of a block of even extents is a multiple of 8 sites, so this holds for every field */
    if (r->prec == QF_HALF && (r->first % qf_blas_unit_elems(QF_HALF) || r->n % qf_blas_unit_elems(QF_HALF)))
        return qf_fail("%s on half-precision elements %lld .. %lld: the CPU codelets take half records %d at a time; "
                       "make the block's parity a multiple of %d sites",
                       cl->name, (long long)r->first, (long long)(r->first + r->n - 1), QF_BLAS_HALF_BATCH,
                       QF_BLAS_HALF_BATCH);
    args->assign = r->assign;
    args->team = qf_cpu_team_shares(r->lat) && r->n >= QF_CPU_TEAM_MIN_REALS;
    struct starpu_data_descr d[QF_BLAS_MAX_OPERANDS];
    int n = 0;
    for (int k = 0; k < QF_BLAS_MAX_OPERANDS; k++) args->buf[k] = -1;
    for (int k = 0; k < nops; k++) {
        if (!ops[k].handle) continue;
        int j = 0;
        while (j < n && d[j].handle != ops[k].handle) j++;
        if (j == n) d[n++] = ops[k];
        else d[j].mode = (enum starpu_data_access_mode)(d[j].mode | ops[k].mode); /* R and W give RW */
        args->buf[k] = j;
    }
    return qf_chain_insert(cl, r->lat, r->block, d, n, r->name, args, bytes, qf_blas_args_footprint(args, (uint32_t)args->nvec));
}
