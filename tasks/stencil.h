/* One application of a nearest-neighbour operator as a task graph (DESIGN.md, "One Dirac-operator
 * application as a graph"), for any operator: for every block a gather that writes the block's faces
 * (one per direction and side of each of the operator's face sets, each set of its own depth and reals
 * a face site: a one-hop and a three-hop term keep a 1-deep and a 3-deep set), an interior task for the
 * hops inside the block, and an exterior task for the hops through the neighbours' faces. Gathers and
 * exteriors go first, so that faces are ready and sent by the time the interiors are done. The
 * operator binds its three codelets to their argument blocks (qf_codelet_stage, codelets.h) and names
 * the fields they read; the builder gives blocks, faces, access modes, pruning (runtime/mpi_data.h)
 * and priorities. Buffers, face sets k = 0 .. nfaces - 1 one after the other:
 *   gather    R in(b) [R links(b), unless gather_without_links]  W faces_k(b, mu, side), mu = 0..3, side 0 then 1
 *   interior  R in(b) [R links(b)] W|RW out(b)    R extra[0](b) ...
 *   exterior  RW out(b) [R links(b)]              R faces_k(b - mu, mu, 1), faces_k(b + mu, mu, 0), mu = 0..3
 *                                                 R extra[0](b) ...
 *   fused     R in(b) [R links(b)] W|RW out(b) R extra[0](b) ...
 *   direct    R in(b) [R links(b)] W|RW out(b) R in(b + mu), in(b - mu), mu = 0..3
 *             [R links(b - mu), mu = 0..3, where direct_reads_links]   R extra[0](b) ...
 * out is W when the stencil writes all its sites, RW when only one parity (the other keeps its values).
 * fused, an optional fourth stage, is the hop of a block that is its own neighbour in every direction
 * (the lattice in one block, one process) as one task: every hop wraps around the block, so it has no
 * faces to gather or read; the graph uses it there unless qf_runtime_fuse_blocks says not to.
 * direct, an optional fifth, is the hop of one block of several in one process that reads its
 * neighbours' input blocks (and, for hops whose backward links are the source's, their links) where
 * they lie, in the memory the CPU workers share: one task a block and no faces, where the stencil's
 * gathers and exteriors cost a face hop several times an interior one (bench/RESULTS.md); the graph
 * uses it where qf_runtime_direct_hops says so. */
#ifndef QF_TASKS_STENCIL_H
#define QF_TASKS_STENCIL_H

#include "tasks.h"

#define QF_STENCIL_MAX_EXTRA 2
#define QF_STENCIL_MAX_FACE_SETS 2

enum { QF_STENCIL_GATHER, QF_STENCIL_INTERIOR, QF_STENCIL_EXTERIOR, QF_STENCIL_FUSED, QF_STENCIL_DIRECT, QF_STENCIL_NSTAGES };

typedef struct {
    qf_codelet_stage stage[QF_STENCIL_NSTAGES];  /* QF_STENCIL_GATHER .. _DIRECT (cl NULL: none) */
    const qf_field *in;
    qf_field *out;
    int all_sites;       /* out written on all sites (W), or on one parity (RW) */
    const qf_field *links;                        /* read by every stage; NULL: none */
    int gather_without_links;                     /* the gather copies sites: it does not read links */
    const qf_field *extra[QF_STENCIL_MAX_EXTRA];  /* read by interior and exterior; NULL: none */
    int nfaces;                                   /* face sets, 1 .. QF_STENCIL_MAX_FACE_SETS */
    const qf_face_set *faces[QF_STENCIL_MAX_FACE_SETS];
    int direct_reads_links; /* the direct stage reads the -mu neighbours' links (backward hops) */
} qf_stencil;

int qf_stencil_apply(const qf_stencil *s);
/* The graph's gathers and its exteriors alone, for an operator that runs what lies between itself
 * (wilson_pair, tasks/dirac.c). */
int qf_stencil_gathers(const qf_stencil *s);
int qf_stencil_exteriors(const qf_stencil *s);
/* The eight faces of set that block b's exterior reads, in its buffer order: d[2 mu] the -mu
 * neighbour's side-1 face, d[2 mu + 1] the +mu neighbour's side-0 face (R). */
void qf_stencil_neighbour_faces(const qf_face_set *set, const qf_lattice *lat, int b, struct starpu_data_descr *d);
/* Whether graphs on lat run a block's stages fused (one block, and qf_runtime_fuse_blocks): what the
 * stencil does with a fused stage, and what an operator asks before fusing more than one hop. */
int qf_stencil_fuses(const qf_lattice *lat);

#endif
