/* Face (halo) graphs: the gathers that fill face buffers from blocks, for every block and direction
 * (also where the neighbour is the same block), so that the halo path is always exercised. */
#include "tasks.h"

#include <string.h>

int qf_task_check(int ret, const char *what)
{
    if (ret == -ENODEV)
        return qf_fail("no StarPU worker can run %s tasks: enable CPU workers (STARPU_NCPU / --ncpu) or a device that "
                       "has an implementation",
                       what);
    if (ret) return qf_fail("submitting a %s task failed (StarPU error %d: %s)", what, ret, strerror(-ret));
    return QF_SUCCESS;
}

int qf_tasks_copy_faces(const qf_field *f, int side)
{
    const qf_lattice *lat = f->lat;
    /* face_copy packs whole sites; a field whose faces hold less (the projected half spinors of a
     * Wilson field) fills them with its operator's gathers, and a whole site would overrun them */
    if (f->shape.face_reals && f->shape.face_reals != f->shape.site_reals)
        return qf_fail("copying whole sites into the faces of a %s field, whose faces hold %d of a site's %d reals: "
                       "fill them with the operator's gathers instead",
                       qf_field_kind_name(f->shape.kind), f->shape.face_reals, f->shape.site_reals);
    if (qf_field_request_faces(f)) return QF_ERROR;
    for (int b = 0; b < lat->nblocks; b++)
        for (int mu = 0; mu < QF_NDIM && qf_lattice_block_is_near(lat, b); mu++) { /* pruned (runtime/mpi_data.h) */
            qf_face_copy_args a = {.mu = mu, .side = side, .depth = f->shape.face_depth, .site_reals = f->shape.site_reals,
                                   .prec = f->prec};
            memcpy(a.ext, lat->block, sizeof a.ext);
            int ret = QF_TASK_INSERT(&qf_cl_face_copy, STARPU_R, qf_field_block(f, b), STARPU_W,
                                         qf_field_face(f, b, mu, side), QF_ARGS(a), 0);
            if (qf_task_check(ret, "face_copy")) return QF_ERROR;
        }
    return QF_SUCCESS;
}
