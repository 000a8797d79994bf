/* Gaussian random fields as task graphs (qf_field_gaussian, include/quarkflow/qf_blas.h): one
 * field_gaussian task a block, W: the block. */
#include "quarkflow/qf_blas.h"
#include "tasks.h"
#include "kernels/random.h"

int qf_field_gaussian(qf_field *f, uint64_t seed, int stream)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!f) return qf_fail("qf_field_gaussian: the field is NULL");
    if (stream < 0 || stream >= (1 << 20))
        return qf_fail("qf_field_gaussian: stream %d: use a number from 0 to %d", stream, (1 << 20) - 1);
    const qf_lattice *lat = f->lat;
    qf_field_gaussian_args a = {.site_reals = f->shape.site_reals, .seed = seed, .stream = stream, .prec = f->prec};
    memcpy(a.ext, lat->block, sizeof a.ext);
    memcpy(a.global, lat->global, sizeof a.global);
    for (int b = 0; b < lat->nblocks; b++) {
        if (!qf_lattice_block_is_local(lat, b)) continue;
        qf_lattice_block_origin(lat, b, a.origin);
        if (qf_task_check(QF_TASK_INSERT(&qf_cl_field_gaussian, STARPU_W, qf_field_block(f, b), QF_ARGS(a), 0),
                          "field_gaussian"))
            return QF_ERROR;
    }
    return QF_SUCCESS;
}
