/* The StarPU side of a field, for the task builders in tasks/: block handles and
 * face buffers. Not part of the public API. */
#ifndef QF_FIELD_HANDLES_H
#define QF_FIELD_HANDLES_H

#include "quarkflow/qf_field.h"

#include <starpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Face buffers for every block, direction and side: vector handles of face sites, allocated by StarPU
 * where first written. Fields own one set; operators and updates own more (for example faces that
 * carry products computed by the sender). */
typedef struct {
    int nblocks, reals_per_site, depth;
    qf_precision prec;
    starpu_data_handle_t *face; /* [nblocks][QF_NDIM][2 sides] */
} qf_face_set;

/* A vector handle of n elements of elem_bytes that belongs to block b: no home memory (StarPU allocates
 * it where the first task that writes it runs), owned by the process of block b (StarPU-MPI). Every
 * per-block handle of a task graph (fields, faces, temporaries) is made this way or with memory. */
void qf_block_handle_register(starpu_data_handle_t *h, const qf_lattice *lat, int b, uint32_t n, size_t elem_bytes);

int qf_face_set_create(qf_face_set *s, const qf_lattice *lat, int reals_per_site, int depth, qf_precision prec);
/* 1-deep faces holding the sites of one parity only (half the sites; kernels/wilson.h indexes them). */
int qf_face_set_create_half(qf_face_set *s, const qf_lattice *lat, int reals_per_site, qf_precision prec);
void qf_face_set_destroy(qf_face_set *s);
static inline starpu_data_handle_t qf_face_set_handle(const qf_face_set *s, int b, int mu, int side)
{
    return s->face[(b * QF_NDIM + mu) * 2 + side];
}

struct qf_field {
    const qf_lattice *lat;
    qf_field_shape shape;
    qf_precision prec;
    void **block_data;                      /* host copies, pinned by starpu_malloc; NULL for scratch fields */
    int nregistered;                        /* blocks registered so far */
    starpu_data_handle_t *block;            /* [nblocks] */
    qf_face_set faces;                      /* face == NULL until qf_field_request_faces */
};

static inline starpu_data_handle_t qf_field_block(const qf_field *f, int b) { return f->block[b]; }
/* Makes the field's faces (of its shape's reals and depth) if it has none yet: every graph that fills
 * or reads them asks first. Fails for a shape without faces or blocks thinner than the depth. */
int qf_field_request_faces(const qf_field *f);
/* Face of block b in direction mu on side 0 (x_mu = 0 ...) or side 1 (x_mu = E_mu - 1 ...), once
 * requested. */
static inline starpu_data_handle_t qf_field_face(const qf_field *f, int b, int mu, int side)
{
    STARPU_ASSERT_MSG(f->faces.face, "the faces of a %s field were used before qf_field_request_faces",
                      qf_field_kind_name(f->shape.kind));
    return qf_face_set_handle(&f->faces, b, mu, side);
}

#ifdef __cplusplus
}
#endif
#endif
