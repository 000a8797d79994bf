/* Gaussian random fields as task graphs (qf_field_gaussian, include/quarkflow/qf_blas.h): one
 * field_gaussian task a block, W: the block. */
#include "quarkflow/qf_blas.h"
#include "tasks.h"

int qf_field_gaussian(qf_field *f, uint64_t seed, int stream)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!f) return qf_fail("qf_field_gaussian: the field is NULL");
    if (stream < 0 || stream >= (1 << 20))
        return qf_fail("qf_field_gaussian: stream %d: use a number from 0 to %d", stream, (1 << 20) - 1);
    if (f->prec == QF_HALF)
        return qf_fail("qf_field_gaussian on a half-precision field: fill a single- or double-precision field and "
                       "convert it (qf_field_convert)");
    const qf_lattice *lat = f->lat;
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_lattice_block_is_local(lat, b) && qf_insert_field_gaussian(f, b, seed, stream)) return QF_ERROR;
    return QF_SUCCESS;
}
