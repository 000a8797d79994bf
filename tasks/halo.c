/* Face (halo) graphs: the gathers that fill face buffers from blocks, for every block and direction
 * (also where the neighbour is the same block), so that the halo path is always exercised. */
#include "tasks.h"

#include <string.h>

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
        for (int mu = 0; mu < QF_NDIM && qf_lattice_block_is_near(lat, b); mu++) /* pruned (runtime/mpi_data.h) */
            if (qf_insert_face_copy(f, b, mu, side)) return QF_ERROR;
    return QF_SUCCESS;
}
