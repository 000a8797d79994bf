/* The Polyakov loop as a graph. Per block, polyakov_line writes the ordered product of each spatial
 * site's time links over the block's t extent into a line buffer; per column of blocks along t,
 * polyakov_chain tasks multiply the column's line buffers into the first one in t order (a chain on
 * that handle, so the order of the non-commuting products is the graph's); then one polyakov_trace
 * task per column adds (1/3) Tr into a reduction accumulator of (re, im). */
#include "quarkflow/qf_observables.h"
#include "tasks.h"

static int submit(const qf_field *u, starpu_data_handle_t *line, qf_block_sum *acc)
{
    const qf_lattice *lat = u->lat;
    for (int b = 0; b < lat->nblocks; b++)
        if (qf_insert_polyakov_line(u, b, line[b])) return QF_ERROR;
    /* columns: the blocks of equal spatial block coordinates, bt = 0 .. B_t - 1 */
    int ncolumns = lat->nblocks / lat->blocks[3];
    for (int c = 0; c < ncolumns; c++) {
        int bc[QF_NDIM];
        const int sgrid[QF_NDIM] = {lat->blocks[0], lat->blocks[1], lat->blocks[2], 1};
        qf_lex_coords(c, sgrid, bc);
        bc[3] = 0;
        int first = (int)qf_lex_index(bc, lat->blocks);
        for (bc[3] = 1; bc[3] < lat->blocks[3]; bc[3]++) {
            int b = (int)qf_lex_index(bc, lat->blocks);
            if (qf_insert_polyakov_chain(line[first], line[b])) return QF_ERROR;
        }
        if (qf_insert_polyakov_trace(line[first], qf_block_sum_descr(acc, first))) return QF_ERROR;
    }
    return QF_SUCCESS;
}

int qf_gauge_polyakov(const qf_field *u, double *re, double *im)
{
    if (u->shape.kind != QF_FIELD_GAUGE)
        return qf_fail("the Polyakov loop needs a gauge field, not a %s field", qf_field_kind_name(u->shape.kind));
    if (qf_precision_check_full(u->prec, "the Polyakov loop's gauge field")) return QF_ERROR;
    const qf_lattice *lat = u->lat;
    int64_t nspatial = (int64_t)lat->block[0] * lat->block[1] * lat->block[2];
    starpu_data_handle_t *line = calloc((size_t)lat->nblocks, sizeof *line);
    if (!line) return qf_fail("out of host memory allocating Polyakov-line handles");
    for (int b = 0; b < lat->nblocks; b++)
        qf_block_handle_register(&line[b], lat, b, (uint32_t)nspatial, qf_polyakov_line_site_bytes());

    double sums[2];
    qf_block_sum sum;
    int rc = qf_block_sum_begin_host(&sum, 2, lat);
    if (!rc) {
        rc = submit(u, line, &sum);
        rc = qf_block_sum_read(&sum, sums, 2) || rc;
    }
    for (int b = 0; b < lat->nblocks; b++) starpu_data_unregister_submit(line[b]);
    free(line);
    if (rc) return QF_ERROR;
    double spatial_volume = (double)lat->global[0] * lat->global[1] * lat->global[2];
    *re = sums[0] / spatial_volume;
    *im = sums[1] / spatial_volume;
    return QF_SUCCESS;
}
