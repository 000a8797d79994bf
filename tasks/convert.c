/* Precision conversion of a whole field: one convert task per block. */
#include "tasks.h"

int qf_field_convert(qf_field *dst, const qf_field *src)
{
    if (dst->kind != src->kind || dst->lat->nblocks != src->lat->nblocks || dst->lat->block_volume != src->lat->block_volume)
        return qf_fail("cannot convert a %s field into a %s field of another shape", qf_field_kind_name(src->kind),
                       qf_field_kind_name(dst->kind));
    qf_convert_args a = {.nreals = dst->lat->block_volume * dst->site_reals, .src_prec = src->prec, .dst_prec = dst->prec};
    for (int b = 0; b < dst->lat->nblocks; b++) {
        int ret = QF_TASK_INSERT(&qf_cl_convert, STARPU_R, qf_field_block(src, b), STARPU_W, qf_field_block(dst, b),
                                     QF_ARGS(a), 0);
        if (qf_task_check(ret, "convert")) return QF_ERROR;
    }
    return QF_SUCCESS;
}
