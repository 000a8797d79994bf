/* One application of a nearest-neighbour operator as a task graph (DESIGN.md, "One Dirac-operator
 * application as a graph"), for any operator: for every block a gather that writes the block's faces
 * (one per direction and side, of the face set's depth and reals a face site), an interior task for
 * the hops inside the block, and an exterior task for the hops through the neighbours' faces. Gathers
 * and exteriors go first, so that faces are ready and sent by the time the interiors are done. The
 * operator names its three codelets with their argument blocks and the fields they read; the builder
 * gives blocks, faces, access modes, pruning (runtime/mpi_data.h) and priorities. Buffers:
 *   gather    R in(b) [R links(b), unless gather_without_links]  W faces(b, mu, side), mu = 0..3, side 0 then 1
 *   interior  R in(b) [R links(b)] W|RW out(b)    R extra[0](b) ...
 *   exterior  RW out(b) [R links(b)]              R faces(b - mu, mu, 1), faces(b + mu, mu, 0), mu = 0..3
 *                                                 R extra[0](b) ...
 * out is W when the stencil writes all its sites, RW when only one parity (the other keeps its values). */
#ifndef QF_TASKS_STENCIL_H
#define QF_TASKS_STENCIL_H

#include "tasks.h"

#define QF_STENCIL_MAX_EXTRA 2

typedef struct {
    struct starpu_codelet *cl;
    const void *args;    /* the codelet's argument block, copied into each task */
    size_t args_size;
    int origin_offset;   /* offset of an int[QF_NDIM] in args that gets each block's origin, or -1 */
    const char *name;    /* task name in traces */
} qf_stencil_stage;

typedef struct {
    qf_stencil_stage gather, interior, exterior;
    const qf_field *in;
    qf_field *out;
    int all_sites;       /* out written on all sites (W), or on one parity (RW) */
    const qf_field *links;                        /* read by every stage; NULL: none */
    int gather_without_links;                     /* the gather copies sites: it does not read links */
    const qf_field *extra[QF_STENCIL_MAX_EXTRA];  /* read by interior and exterior; NULL: none */
    const qf_face_set *faces;
} qf_stencil;

int qf_stencil_apply(const qf_stencil *s);

#endif
