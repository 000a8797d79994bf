/* Field allocation and data registration: one vector handle per block (elements are sites, even
 * sites first: tasks select a parity by range, not by sub-handle, because StarPU gives a planned
 * partition of a lazily allocated handle a main-memory copy, which would cost every GPU-resident
 * scratch field its size in pinned host memory), and lazily allocated face buffers; plus the copies between fields and global lexicographic arrays. */
#include "codelet_table.h"
#include "field_handles.h"
#include "mpi_data.h"
#include "quarkflow/qf_runtime.h"
#include "reals.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"gauge", "wilson", "staggered", "field strength", "clover", "coarse", "transfer", "coarse links",
                                           "compressed gauge", "link matrix", "asqtad links"};
/* the named kinds' shapes (a Wilson face site: a spin-projected half spinor); the coarse kind's is made
 * by qf_field_shape_coarse */
static const qf_field_shape kind_shapes[] = {
    {QF_FIELD_GAUGE, 72, 72, 1, 0},          {QF_FIELD_WILSON, 24, 12, 1, 0},
    {QF_FIELD_STAGGERED, 6, 6, 3, 0},        {QF_FIELD_FIELD_STRENGTH, 108, 0, 0, 0},
    {QF_FIELD_CLOVER, 72, 0, 0, 0},          {QF_FIELD_COARSE, 0, 0, 0, 0},
    {QF_FIELD_TRANSFER, 0, 0, 0, 0},         {QF_FIELD_COARSE_LINKS, 0, 0, 0, 0},
    {QF_FIELD_COMPRESSED_GAUGE, 0, 0, 0, 0}, {QF_FIELD_LINK_MATRIX, 18, 0, 0, 0},
    {QF_FIELD_ASQTAD_LINKS, 144, 0, 0, 0}};

const char *qf_field_kind_name(qf_field_kind k) { return (unsigned)k < QF_FIELD_NKINDS ? kind_names[k] : "?"; }
qf_field_shape qf_field_kind_shape(qf_field_kind k)
{
    return (unsigned)k < QF_FIELD_NKINDS ? kind_shapes[k] : kind_shapes[QF_FIELD_COARSE];
}
int qf_field_site_reals(qf_field_kind k) { return qf_field_kind_shape(k).site_reals; }

int qf_field_shape_coarse(qf_field_shape *s, int ncolour)
{
    if (ncolour < 1 || ncolour > QF_COARSE_MAX_COLOURS)
        return qf_fail("a coarse field of %d colours (near-null vectors): keep between 1 and %d", ncolour,
                       QF_COARSE_MAX_COLOURS);
    *s = (qf_field_shape){QF_FIELD_COARSE, 4 * ncolour, 4 * ncolour, 1, 0};
    return QF_SUCCESS;
}

int qf_field_shape_transfer(qf_field_shape *s, int fine_site_reals, int nvec)
{
    if (nvec < 1 || nvec > QF_COARSE_MAX_COLOURS)
        return qf_fail("a prolongator of %d near-null vectors: keep between 1 and %d", nvec, QF_COARSE_MAX_COLOURS);
    if (fine_site_reals < 2 || fine_site_reals % 4)
        return qf_fail("a prolongator of fields of %d reals a site: a fine site must hold two chiral halves of "
                       "complex numbers (a multiple of 4 reals)",
                       fine_site_reals);
    *s = (qf_field_shape){QF_FIELD_TRANSFER, nvec * fine_site_reals, nvec * fine_site_reals, 1, fine_site_reals};
    return QF_SUCCESS;
}

int qf_field_shape_coarse_links(qf_field_shape *s, int ncolour, int nmatrices)
{
    if (ncolour < 1 || ncolour > QF_COARSE_MAX_COLOURS || nmatrices < 1)
        return qf_fail("coarse links of %d matrices for %d colours: give at least one matrix and between 1 and %d "
                       "colours",
                       nmatrices, ncolour, QF_COARSE_MAX_COLOURS);
    *s = (qf_field_shape){QF_FIELD_COARSE_LINKS, nmatrices * 8 * ncolour * ncolour, 0, 0, 4 * ncolour};
    return QF_SUCCESS;
}

int qf_field_shape_compressed_gauge(qf_field_shape *s, qf_recon r)
{
    if (r != QF_RECON_12 && r != QF_RECON_8)
        return qf_fail("compressed links of reconstruction %s: compression keeps 12 or 8 reals a link (whole links "
                       "are a gauge field)",
                       qf_recon_name(r));
    *s = (qf_field_shape){QF_FIELD_COMPRESSED_GAUGE, QF_NDIM * qf_recon_link_reals(r), 0, 0, 0};
    return QF_SUCCESS;
}

qf_recon qf_field_shape_recon(const qf_field_shape *s)
{
    if (s->kind != QF_FIELD_COMPRESSED_GAUGE) return QF_RECON_18;
    return s->site_reals == QF_NDIM * 12 ? QF_RECON_12 : QF_RECON_8;
}

int qf_field_shape_same_sites(const qf_field_shape *a, const qf_field_shape *b)
{
    return a->kind == b->kind && a->site_reals == b->site_reals;
}

const qf_lattice *qf_field_lattice(const qf_field *f) { return f->lat; }
qf_field_kind qf_field_kind_of(const qf_field *f) { return f->shape.kind; }
const qf_field_shape *qf_field_get_shape(const qf_field *f) { return &f->shape; }
qf_precision qf_field_precision(const qf_field *f) { return f->prec; }
int qf_field_face_depth(const qf_field *f) { return f->shape.face_depth; }

void qf_block_handle_register(starpu_data_handle_t *h, const qf_lattice *lat, int b, uint32_t n, size_t elem_bytes)
{
    starpu_vector_data_register(h, -1, 0, n, elem_bytes);
    qf_data_set_owner(*h, qf_lattice_block_owner(lat, b));
}

static int face_set_create(qf_face_set *s, const qf_lattice *lat, int reals_per_site, int depth, int per_site,
                           qf_precision prec)
{
    s->nblocks = lat->nblocks;
    s->reals_per_site = reals_per_site;
    s->depth = depth;
    s->prec = prec;
    s->face = calloc((size_t)lat->nblocks * 2 * QF_NDIM, sizeof *s->face);
    if (!s->face) return qf_fail("out of host memory allocating face handles");
    size_t site_bytes = qf_record_bytes(prec, reals_per_site);
    for (int b = 0; b < lat->nblocks; b++)
        for (int mu = 0; mu < QF_NDIM; mu++)
            for (int side = 0; side < 2; side++) { /* the sender (block b) fills it; a face site is one record */
                size_t n = qf_records_count(prec, QF_HALF_TILES, (size_t)(qf_face_volume(lat->block, mu, depth) / per_site));
                qf_block_handle_register(&s->face[(b * QF_NDIM + mu) * 2 + side], lat, b, (uint32_t)n, site_bytes);
            }
    return QF_SUCCESS;
}

int qf_face_set_create(qf_face_set *s, const qf_lattice *lat, int reals_per_site, int depth, qf_precision prec)
{
    return face_set_create(s, lat, reals_per_site, depth, 1, prec);
}

int qf_face_set_create_half(qf_face_set *s, const qf_lattice *lat, int reals_per_site, qf_precision prec)
{
    return face_set_create(s, lat, reals_per_site, 1, 2, prec);
}

void qf_face_set_destroy(qf_face_set *s)
{
    if (!s->face) return;
    qf_task_release_held();
    /* StarPU owns the buffers: hand them back once their last task is done, without waiting here */
    for (int k = 0; k < s->nblocks * 2 * QF_NDIM; k++) starpu_data_unregister_submit(s->face[k]);
    free(s->face);
    s->face = NULL;
}

static void release_blocks(qf_field *f)
{
    qf_task_release_held(); /* tasks held back may still use the blocks */
    for (int b = 0; b < f->nregistered; b++) {
        if (f->block_data[b]) {
            starpu_data_unregister(f->block[b]);
            starpu_free(f->block_data[b]);
        } else {
            starpu_data_unregister_submit(f->block[b]); /* StarPU owns the buffers: no wait */
        }
    }
}

/* Faces deep enough for the shape fit in every block. */
static int check_face_depth(const qf_lattice *lat, const qf_field_shape *shape)
{
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (lat->block[mu] < shape->face_depth)
            return qf_fail("a %s field needs faces %d deep but the block extent in direction %d is %d: use fewer blocks",
                           kind_names[shape->kind], shape->face_depth, mu, lat->block[mu]);
    return QF_SUCCESS;
}

/* The kinds whose codelets know half precision (QF_WITH_ANY_PRECISION). */
static int kind_keeps_half(qf_field_kind k)
{
    return k == QF_FIELD_WILSON || k == QF_FIELD_GAUGE || k == QF_FIELD_COMPRESSED_GAUGE || k == QF_FIELD_CLOVER ||
           k == QF_FIELD_COARSE_LINKS || k == QF_FIELD_TRANSFER;
}

int qf_field_create_shaped(qf_field **out, const qf_lattice *lat, const qf_field_shape *shape, qf_precision prec,
                           unsigned flags)
{
    if (!out) return qf_fail("qf_field_create: the place for the new field is NULL");
    *out = NULL;
    if (!lat || !shape) return qf_fail("qf_field_create: the lattice or the shape is NULL");
    if ((unsigned)shape->kind >= QF_FIELD_NKINDS || shape->site_reals <= 0 || shape->site_reals % 2 ||
        shape->face_reals < 0 || shape->face_depth < 0 || (shape->face_reals > 0) != (shape->face_depth > 0))
        return qf_fail("qf_field_create: a shape of %d reals a site and %d a face site, %d deep: the reals a site must "
                       "be even and positive, and a face needs both reals and a depth",
                       shape->site_reals, shape->face_reals, shape->face_depth);
    if (lat->nprocs != qf_runtime_nprocs())
        return qf_fail("a %s field on a lattice split over %d processes, but %d are running: make the lattice with "
                       "the running processes' count and rank (qf_runtime_nprocs, qf_runtime_rank)",
                       kind_names[shape->kind], lat->nprocs, qf_runtime_nprocs());
    if (shape->record_reals < 0 || shape->record_reals % 2 || (shape->record_reals && shape->site_reals % shape->record_reals))
        return qf_fail("qf_field_create: records of %d reals in a site of %d: a record's reals must be even and divide "
                       "the site's", shape->record_reals, shape->site_reals);
    if ((flags & QF_FIELD_WITH_FACES) && shape->face_reals == 0)
        return qf_fail("a %s field has no faces", kind_names[shape->kind]);
    if ((flags & QF_FIELD_WITH_FACES) && check_face_depth(lat, shape)) return QF_ERROR;
    if (qf_precision_check(prec, "field")) return QF_ERROR;
    if (prec == QF_HALF && !kind_keeps_half(shape->kind))
        return qf_fail("a %s field in half precision: half is kept for the operators' and transfers' fields (wilson, "
                       "gauge, compressed gauge, clover, coarse links, transfer); make this one in single or double",
                       kind_names[shape->kind]);
    /* a tile's chunks hold four components of each record, and its norms follow them in its bytes */
    if (prec == QF_HALF && qf_field_shape_half_layout(shape) == QF_HALF_TILES &&
        (qf_field_shape_record_reals(shape) % 4 || shape->face_reals % 4))
        return qf_fail("a half-precision %s field of %d reals a record and %d a face site: half records in tiles "
                       "hold a multiple of 4 reals; make this one in single",
                       kind_names[shape->kind], qf_field_shape_record_reals(shape), shape->face_reals);
    qf_field *f = calloc(1, sizeof *f);
    if (!f) return qf_fail("out of host memory allocating a field");
    f->lat = lat;
    f->shape = *shape;
    f->prec = prec;
    int nb = lat->nblocks;
    f->block_data = calloc((size_t)nb, sizeof *f->block_data);
    f->block = calloc((size_t)nb, sizeof *f->block);
    if (!f->block_data || !f->block) {
        qf_field_destroy(f);
        return qf_fail("out of host memory allocating a field's handles");
    }
    if ((flags & QF_FIELD_WITH_FACES) && qf_field_request_faces(f)) {
        qf_field_destroy(f);
        return QF_ERROR;
    }
    size_t site_bytes = qf_field_shape_site_bytes(shape, prec);
    size_t nsites = qf_field_shape_block_sites(shape, prec, (size_t)lat->block_volume);
    for (int b = 0; b < nb; b++) {
        if ((flags & QF_FIELD_SCRATCH) || !qf_lattice_block_is_local(lat, b)) {
            /* scratch: StarPU allocates each block where its first task writes it, or zero-fills it
             * there where a task on one parity reads the other first; another process's block: a handle
             * for the task graph, memory only where StarPU-MPI receives a copy */
            qf_block_handle_register(&f->block[b], lat, b, (uint32_t)nsites, site_bytes);
            if (qf_lattice_block_is_local(lat, b))
                starpu_data_set_reduction_methods(f->block[b], NULL, qf_codelet_field_init());
        } else {
            if (starpu_malloc(&f->block_data[b], nsites * site_bytes)) {
                qf_field_destroy(f);
                return qf_fail("out of host memory: a %s field of %lld sites in %s precision needs %.1f MiB",
                               kind_names[shape->kind], (long long)lat->local_volume, qf_precision_name(prec),
                               (double)lat->local_volume * (double)site_bytes / (1 << 20));
            }
            memset(f->block_data[b], 0, nsites * site_bytes);
            starpu_vector_data_register(&f->block[b], STARPU_MAIN_RAM, (uintptr_t)f->block_data[b], (uint32_t)nsites,
                                        site_bytes);
            qf_data_set_owner(f->block[b], lat->rank);
        }
        f->nregistered = b + 1;
    }
    *out = f;
    return QF_SUCCESS;
}

int qf_field_request_faces(const qf_field *f)
{
    if (f->faces.face) return QF_SUCCESS;
    if (f->shape.face_reals == 0) return qf_fail("a %s field has no faces", kind_names[f->shape.kind]);
    /* a face site is one record (qf_face_copy_site) */
    if (f->prec == QF_HALF && qf_field_shape_record_reals(&f->shape) != f->shape.site_reals)
        return qf_fail("a half-precision %s field stores a site as several records and has no faces: read the faces "
                       "of its single-precision original",
                       kind_names[f->shape.kind]);
    if (check_face_depth(f->lat, &f->shape)) return QF_ERROR;
    /* fields are always allocated here, never const objects: the faces are a cache of the field */
    qf_field *mutable_f = (qf_field *)f;
    return qf_face_set_create(&mutable_f->faces, f->lat, f->shape.face_reals, f->shape.face_depth, f->prec);
}

/* The kinds of a fixed shape (the others' are made at run time: qf_field_shape_coarse ...). */
static int kind_is_fixed(qf_field_kind k) { return (unsigned)k < QF_FIELD_NKINDS && kind_shapes[k].site_reals > 0; }

int qf_field_create(qf_field **out, const qf_lattice *lat, qf_field_kind kind, qf_precision prec, int face_depth)
{
    if (!kind_is_fixed(kind))
        return qf_fail("qf_field_create: kind %d has no fixed shape; make coarse fields with qf_field_shape_coarse and "
                       "qf_field_create_shaped",
                       (int)kind);
    qf_field_shape shape = qf_field_kind_shape(kind);
    if (face_depth > 0 && shape.face_reals > 0) shape.face_depth = face_depth;
    return qf_field_create_shaped(out, lat, &shape, prec, face_depth > 0 ? QF_FIELD_WITH_FACES : 0);
}

int qf_field_create_scratch(qf_field **out, const qf_lattice *lat, qf_field_kind kind, qf_precision prec)
{
    if (!kind_is_fixed(kind))
        return qf_fail("qf_field_create_scratch: kind %d has no fixed shape; use qf_field_create_shaped", (int)kind);
    qf_field_shape shape = qf_field_kind_shape(kind);
    return qf_field_create_shaped(out, lat, &shape, prec, QF_FIELD_SCRATCH);
}

void qf_field_destroy(qf_field *f)
{
    if (!f) return;
    if (f->block && f->block_data) release_blocks(f);
    qf_face_set_destroy(&f->faces);
    free(f->block_data);
    free(f->block);
    free(f);
}

/* An array of sites in lexicographic order of the box [origin, origin + ext): the whole lattice, or
 * this process's part of it. */
typedef struct {
    int origin[QF_NDIM], ext[QF_NDIM];
} site_box;

/* The whole lattice (part = 0) or this process's part of it (part = 1). */
static site_box box_of(const qf_lattice *lat, int part)
{
    site_box box;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        box.origin[mu] = part ? lat->proc_coord[mu] * lat->local[mu] : 0;
        box.ext[mu] = part ? lat->local[mu] : lat->global[mu];
    }
    return box;
}

/* Block b of f and its sites' places in the box's array, one way or the other: the block's origin in
 * the box found once, the precision a constant of the loop (QF_WITH_PRECISION), since whole gauge
 * files pass through here. */
static void copy_block(const qf_field *f, int b, const site_box *box, double *array, void *data, int to_field)
{
    const qf_lattice *lat = f->lat;
    int n = f->shape.site_reals, rec = qf_field_shape_record_reals(&f->shape), o[QF_NDIM], x[QF_NDIM], g[QF_NDIM];
    qf_half_layout layout = qf_field_shape_half_layout(&f->shape);
    qf_lattice_block_origin(lat, b, o);
    for (int mu = 0; mu < QF_NDIM; mu++) o[mu] -= box->origin[mu];
    QF_WITH_ANY_PRECISION(f->prec, P, {
        for (int64_t s = 0; s < lat->block_volume; s++) {
            qf_block_site_coords(s, lat->block, x);
            for (int mu = 0; mu < QF_NDIM; mu++) g[mu] = o[mu] + x[mu];
            double *a = array + qf_lex_index(g, box->ext) * n;
            for (int k = 0; k < n / rec; k++) {
                size_t i = (size_t)s * (size_t)(n / rec) + (size_t)k;
                if (to_field) qf_record_reals_store(data, P, i, rec, 0, a + k * rec, rec, layout);
                else qf_record_reals_load(data, P, i, rec, 0, a + k * rec, rec, layout);
            }
        }
    });
}

static int copy_blocks(const qf_field *f, const site_box *box, double *array, int to_field)
{
    qf_task_release_held();
    for (int b = 0; b < f->lat->nblocks; b++) {
        if (!qf_lattice_block_is_local(f->lat, b)) continue;
        if (starpu_data_acquire(f->block[b], to_field ? STARPU_W : STARPU_R))
            return qf_fail("could not acquire block %d of a %s field for %s", b, kind_names[f->shape.kind],
                           to_field ? "writing" : "reading");
        copy_block(f, b, box, array, starpu_data_get_local_ptr(f->block[b]), to_field);
        starpu_data_release(f->block[b]);
    }
    return QF_SUCCESS;
}

int qf_field_import(qf_field *f, const double *global)
{
    site_box box = box_of(f->lat, 0);
    return copy_blocks(f, &box, (double *)global, 1);
}

int qf_field_export(const qf_field *f, double *global)
{
    site_box box = box_of(f->lat, 0);
    return copy_blocks(f, &box, global, 0);
}

int qf_field_import_local(qf_field *f, const double *local)
{
    site_box box = box_of(f->lat, 1);
    return copy_blocks(f, &box, (double *)local, 1);
}

int qf_field_export_local(const qf_field *f, double *local)
{
    site_box box = box_of(f->lat, 1);
    return copy_blocks(f, &box, local, 0);
}
