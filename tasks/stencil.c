/* The task graph of one nearest-neighbour operator application (stencil.h), shared by the operators:
 * they differ in their codelets, argument blocks and face sets, not in the graph. */
#include "stencil.h"

enum { PRIO_GATHER = 1, PRIO_EXTERIOR = 1, PRIO_INTERIOR = 0 };

/* The buffers of one task, in the codelet's order. */
typedef struct {
    struct starpu_data_descr d[3 + 3 * QF_NDIM * QF_STENCIL_MAX_FACE_SETS + QF_STENCIL_MAX_EXTRA];
    int n;
} buffers;

static void add(buffers *t, starpu_data_handle_t h, enum starpu_data_access_mode mode)
{
    t->d[t->n++] = (struct starpu_data_descr){h, mode};
}

static void add_links(buffers *t, const qf_stencil *s, int b)
{
    if (s->links) add(t, qf_field_block(s->links, b), STARPU_R);
}

/* The task of stage st on block b: its extra fields appended (not the gather's), the block's origin put
 * into the stage's argument block, of which the task carries a copy. */
static void complete(const qf_stencil *s, const qf_codelet_stage *st, int b, buffers *t)
{
    for (int k = 0; k < QF_STENCIL_MAX_EXTRA && st != &s->stage[QF_STENCIL_GATHER]; k++)
        if (s->extra[k]) add(t, qf_field_block(s->extra[k], b), STARPU_R);
    if (st->origin_offset >= 0) qf_lattice_block_origin(s->in->lat, b, (int *)((char *)st->args + st->origin_offset));
}

static int insert(const qf_stencil *s, const qf_codelet_stage *st, int b, buffers *t, int priority)
{
    complete(s, st, b, t);
    int ret = QF_TASK_INSERT_BLOCK(s->in->lat, b, st->cl, STARPU_DATA_MODE_ARRAY, t->d, t->n, STARPU_PRIORITY, priority,
                                   STARPU_NAME, st->name, STARPU_CL_ARGS, qf_task_args_copy(st->args, st->args_size),
                                   st->args_size, 0);
    return qf_task_check(ret, st->cl->name);
}

int qf_stencil_fuses(const qf_lattice *lat) { return lat->nblocks == 1 && qf_runtime_fuse_blocks(); }

/* The hop of each block as one task reading its neighbours' blocks where they are: no faces. */
static int apply_direct(const qf_stencil *s)
{
    const qf_lattice *lat = s->in->lat;
    int rc = QF_SUCCESS;
    for (int b = 0; b < lat->nblocks && !rc; b++) {
        buffers t = {.n = 0};
        add(&t, qf_field_block(s->in, b), STARPU_R);
        add_links(&t, s, b);
        add(&t, qf_field_block(s->out, b), s->all_sites ? STARPU_W : STARPU_RW);
        for (int mu = 0; mu < QF_NDIM; mu++)
            for (int dir = 0; dir < 2; dir++)
                add(&t, qf_field_block(s->in, qf_block_neighbour(b, lat->blocks, mu, dir ? -1 : +1)), STARPU_R);
        for (int mu = 0; mu < QF_NDIM && s->direct_reads_links; mu++)
            add(&t, qf_field_block(s->links, qf_block_neighbour(b, lat->blocks, mu, -1)), STARPU_R);
        rc = insert(s, &s->stage[QF_STENCIL_DIRECT], b, &t, PRIO_INTERIOR);
    }
    return rc;
}

/* The hop of the one block, which wraps in every direction, as one task: no faces. It joins the
 * inserting thread's open chain (chain.c), so that a solver's iteration on one GPU is one task with the
 * operator in it (the asqtad D^dag D of multi-shift CG, the coarse operators of a K-cycle, the Wilson
 * operators other than Mhat) rather than paying a dependent task's latency around each application. */
static int apply_fused(const qf_stencil *s)
{
    const qf_codelet_stage *st = &s->stage[QF_STENCIL_FUSED];
    buffers t = {.n = 0};
    add(&t, qf_field_block(s->in, 0), STARPU_R);
    add_links(&t, s, 0);
    add(&t, qf_field_block(s->out, 0), s->all_sites ? STARPU_W : STARPU_RW);
    complete(s, st, 0, &t);
    return qf_chain_insert(st->cl, s->in->lat, 0, t.d, t.n, st->name, st->args, st->args_size,
                           starpu_hash_crc32c_string(st->name, (uint32_t)st->args_size));
}

void qf_stencil_neighbour_faces(const qf_face_set *set, const qf_lattice *lat, int b, struct starpu_data_descr *d)
{
    for (int mu = 0; mu < QF_NDIM; mu++) {
        d[2 * mu] = (struct starpu_data_descr){qf_face_set_handle(set, qf_block_neighbour(b, lat->blocks, mu, -1), mu, 1),
                                               STARPU_R};
        d[2 * mu + 1] =
            (struct starpu_data_descr){qf_face_set_handle(set, qf_block_neighbour(b, lat->blocks, mu, +1), mu, 0), STARPU_R};
    }
}

static int check_face_sets(const qf_stencil *s)
{
    if (s->nfaces < 1 || s->nfaces > QF_STENCIL_MAX_FACE_SETS)
        return qf_fail("a %s graph with %d face sets: an operator has 1 to %d", s->stage[QF_STENCIL_INTERIOR].cl->name, s->nfaces,
                       QF_STENCIL_MAX_FACE_SETS);
    return QF_SUCCESS;
}

int qf_stencil_gathers(const qf_stencil *s)
{
    const qf_lattice *lat = s->in->lat;
    int rc = check_face_sets(s);
    for (int b = 0; b < lat->nblocks && !rc; b++) {
        if (!qf_lattice_block_is_near(lat, b)) continue;
        buffers t = {.n = 0};
        add(&t, qf_field_block(s->in, b), STARPU_R);
        if (!s->gather_without_links) add_links(&t, s, b);
        for (int k = 0; k < s->nfaces; k++)
            for (int f = 0; f < 2 * QF_NDIM; f++) add(&t, qf_face_set_handle(s->faces[k], b, f / 2, f % 2), STARPU_W);
        rc = insert(s, &s->stage[QF_STENCIL_GATHER], b, &t, PRIO_GATHER);
    }
    return rc;
}

static int interiors(const qf_stencil *s)
{
    const qf_lattice *lat = s->in->lat;
    int rc = QF_SUCCESS;
    for (int b = 0; b < lat->nblocks && !rc; b++) {
        if (!qf_lattice_block_is_local(lat, b)) continue;
        buffers t = {.n = 0};
        add(&t, qf_field_block(s->in, b), STARPU_R);
        add_links(&t, s, b);
        add(&t, qf_field_block(s->out, b), s->all_sites ? STARPU_W : STARPU_RW);
        rc = insert(s, &s->stage[QF_STENCIL_INTERIOR], b, &t, PRIO_INTERIOR);
    }
    return rc;
}

int qf_stencil_exteriors(const qf_stencil *s)
{
    const qf_lattice *lat = s->in->lat;
    int rc = check_face_sets(s);
    for (int b = 0; b < lat->nblocks && !rc; b++) {
        if (!qf_lattice_block_is_near(lat, b)) continue;
        buffers t = {.n = 0};
        add(&t, qf_field_block(s->out, b), STARPU_RW);
        add_links(&t, s, b);
        for (int k = 0; k < s->nfaces; k++, t.n += 2 * QF_NDIM) qf_stencil_neighbour_faces(s->faces[k], lat, b, &t.d[t.n]);
        rc = insert(s, &s->stage[QF_STENCIL_EXTERIOR], b, &t, PRIO_EXTERIOR);
    }
    return rc;
}

int qf_stencil_apply(const qf_stencil *s)
{
    if (check_face_sets(s)) return QF_ERROR;
    if (s->stage[QF_STENCIL_FUSED].cl && qf_stencil_fuses(s->in->lat)) return apply_fused(s);
    if (s->stage[QF_STENCIL_DIRECT].cl && qf_runtime_direct_hops(s->in->lat)) return apply_direct(s);
    return qf_stencil_gathers(s) || interiors(s) || qf_stencil_exteriors(s);
}
