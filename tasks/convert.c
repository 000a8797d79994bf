/* Conversions of whole fields, a task per block: precision (convert), and gauge links into the
 * compressed records of a Dirac operator (gauge_compress). */
#include "tasks.h"

int qf_field_convert_parity(qf_field *dst, const qf_field *src, int parity)
{
    if (qf_sequence_failed() || qf_check_parity("qf_field_convert_parity", parity)) return QF_ERROR;
    if (!qf_field_shape_same_sites(&dst->shape, &src->shape) || dst->lat->nblocks != src->lat->nblocks ||
        dst->lat->block_volume != src->lat->block_volume)
        return qf_fail("cannot convert a %s field (%d reals a site) into a %s field (%d reals a site) or onto other blocks",
                       qf_field_kind_name(src->shape.kind), src->shape.site_reals, qf_field_kind_name(dst->shape.kind),
                       dst->shape.site_reals);
    for (int b = 0; b < dst->lat->nblocks; b++)
        if (qf_insert_convert(dst, src, b, parity)) return QF_ERROR;
    return QF_SUCCESS;
}

int qf_field_convert(qf_field *dst, const qf_field *src)
{
    return qf_field_convert_parity(dst, src, -1);
}

int qf_field_create_converted(qf_field **out, const qf_field *src, qf_precision prec)
{
    *out = NULL;
    if (qf_field_create_shaped(out, src->lat, &src->shape, prec, QF_FIELD_SCRATCH) || qf_field_convert(*out, src)) {
        if (*out) qf_field_destroy(*out);
        *out = NULL;
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

int qf_gauge_compress(qf_field *out, const qf_field *gauge)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (gauge->shape.kind != QF_FIELD_GAUGE || out->shape.kind != QF_FIELD_COMPRESSED_GAUGE)
        return qf_fail("link compression reads a %s field into a %s field, not a %s field into a %s field",
                       qf_field_kind_name(QF_FIELD_GAUGE), qf_field_kind_name(QF_FIELD_COMPRESSED_GAUGE),
                       qf_field_kind_name(gauge->shape.kind), qf_field_kind_name(out->shape.kind));
    if (!qf_lattice_same(out->lat, gauge->lat))
        return qf_fail("link compression: the compressed field lives on another lattice or blocking than the links");
    for (int b = 0; b < out->lat->nblocks; b++)
        if (qf_insert_gauge_compress(out, gauge, b)) return QF_ERROR;
    return QF_SUCCESS;
}
