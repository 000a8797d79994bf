/* Precision conversion of a whole field: one convert task per block. */
#include "tasks.h"

int qf_field_convert(qf_field *dst, const qf_field *src)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!qf_field_shape_same_sites(&dst->shape, &src->shape) || dst->lat->nblocks != src->lat->nblocks ||
        dst->lat->block_volume != src->lat->block_volume)
        return qf_fail("cannot convert a %s field (%d reals a site) into a %s field (%d reals a site) or onto other blocks",
                       qf_field_kind_name(src->shape.kind), src->shape.site_reals, qf_field_kind_name(dst->shape.kind),
                       dst->shape.site_reals);
    for (int b = 0; b < dst->lat->nblocks; b++)
        if (qf_insert_convert(dst, src, b)) return QF_ERROR;
    return QF_SUCCESS;
}
