/* Lattice decomposition: validates global extents, process grid and block grid together, so that
 * every later layer can assume even, divisible block extents. */
#include "quarkflow/qf_lattice.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char axis[QF_NDIM] = {'x', 'y', 'z', 't'};

int qf_lattice_init(qf_lattice *lat, const int global[QF_NDIM], const int procs[QF_NDIM],
                    const int blocks[QF_NDIM], int rank, int nprocs, int min_block_extent)
{
    static const int one[QF_NDIM] = {1, 1, 1, 1};
    if (!procs) procs = one;
    memset(lat, 0, sizeof *lat);
    int nproc_grid = 1, nblocks = 1;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        if (global[mu] < 2)
            return qf_fail("lattice extent %c = %d: every extent must be at least 2", axis[mu], global[mu]);
        if (procs[mu] < 1 || blocks[mu] < 1)
            return qf_fail("process grid %c = %d, block grid %c = %d: both must be at least 1", axis[mu],
                           procs[mu], axis[mu], blocks[mu]);
        if (global[mu] % procs[mu])
            return qf_fail("lattice extent %c = %d is not divisible by the process grid's %d", axis[mu],
                           global[mu], procs[mu]);
        int local = global[mu] / procs[mu];
        if (local % blocks[mu])
            return qf_fail("local extent %c = %d (global %d / %d processes) is not divisible by the block grid's %d",
                           axis[mu], local, global[mu], procs[mu], blocks[mu]);
        int ext = local / blocks[mu];
        if (ext % 2)
            return qf_fail("block extent %c = %d (local %d / %d blocks) is odd: the even-odd layout needs even "
                           "block extents; choose another block grid or lattice size",
                           axis[mu], ext, local, blocks[mu]);
        if (ext < min_block_extent)
            return qf_fail("block extent %c = %d is smaller than %d (the depth of the faces this field needs); "
                           "use fewer blocks in %c",
                           axis[mu], ext, min_block_extent, axis[mu]);
        lat->global[mu] = global[mu];
        lat->procs[mu] = procs[mu];
        lat->local[mu] = local;
        lat->local_blocks[mu] = blocks[mu];
        lat->blocks[mu] = procs[mu] * blocks[mu];
        lat->block[mu] = ext;
        nproc_grid *= procs[mu];
        nblocks *= blocks[mu];
    }
    if (nproc_grid != nprocs)
        return qf_fail("process grid %d x %d x %d x %d has %d processes but %d are running", procs[0], procs[1],
                       procs[2], procs[3], nproc_grid, nprocs);
    if (rank < 0 || rank >= nprocs) return qf_fail("rank %d is outside 0..%d", rank, nprocs - 1);
    lat->nprocs = nprocs;
    lat->rank = rank;
    lat->nlocal_blocks = nblocks;
    lat->nblocks = nblocks * nprocs;
    qf_lex_coords(rank, procs, lat->proc_coord);
    lat->global_volume = qf_volume(lat->global);
    lat->local_volume = qf_volume(lat->local);
    lat->block_volume = qf_volume(lat->block);
    return QF_SUCCESS;
}

/* What keeps fine from coarsening by agg in direction mu: 0 nothing, 1 the aggregate does not tile the
 * fine blocks, 2 the coarse local extent is odd. */
static int coarsen_obstacle(const qf_lattice *fine, const int agg[QF_NDIM], int mu)
{
    if (agg[mu] < 1 || fine->block[mu] % agg[mu]) return 1;
    return fine->local[mu] / agg[mu] % 2 ? 2 : 0;
}

int qf_lattice_can_coarsen(const qf_lattice *fine, const int agg[QF_NDIM])
{
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (coarsen_obstacle(fine, agg, mu)) return 0;
    return 1;
}

int qf_lattice_coarsen(qf_lattice *coarse, const qf_lattice *fine, const int agg[QF_NDIM], int one_block)
{
    int global[QF_NDIM], blocks[QF_NDIM];
    for (int mu = 0; mu < QF_NDIM; mu++) {
        int obstacle = coarsen_obstacle(fine, agg, mu);
        if (obstacle == 1)
            return qf_fail("multigrid aggregate %c = %d does not divide the fine block extent %d: choose an aggregate "
                           "that tiles the blocks (--mg-block), or another block grid (--blocks)",
                           axis[mu], agg[mu], fine->block[mu]);
        int local = fine->local[mu] / agg[mu];
        if (obstacle == 2)
            return qf_fail("multigrid: the coarse local extent %c = %d (%d / aggregate %d) is odd; the even-odd "
                           "layout needs even extents: use a smaller aggregate in %c",
                           axis[mu], local, fine->local[mu], agg[mu], axis[mu]);
        global[mu] = fine->global[mu] / agg[mu];
        blocks[mu] = 1;
        for (int d = one_block ? 1 : fine->local_blocks[mu]; d >= 1; d--)
            if (fine->local_blocks[mu] % d == 0 && (local / d) % 2 == 0 && local % d == 0) {
                blocks[mu] = d;
                break;
            }
    }
    return qf_lattice_init(coarse, global, fine->procs, blocks, fine->rank, fine->nprocs, 1);
}

void qf_lattice_coarse_ratio(const qf_lattice *coarse, const qf_lattice *fine, int ratio[QF_NDIM])
{
    for (int mu = 0; mu < QF_NDIM; mu++) ratio[mu] = fine->blocks[mu] / coarse->blocks[mu];
}

void qf_lattice_coarse_members(const qf_lattice *coarse, const qf_lattice *fine, int c, int *fine_blocks)
{
    int ratio[QF_NDIM], cc[QF_NDIM], j[QF_NDIM], f[QF_NDIM];
    qf_lattice_coarse_ratio(coarse, fine, ratio);
    qf_lex_coords(c, coarse->blocks, cc);
    for (int64_t k = 0, n = qf_volume(ratio); k < n; k++) {
        qf_lex_coords(k, ratio, j);
        for (int mu = 0; mu < QF_NDIM; mu++) f[mu] = cc[mu] * ratio[mu] + j[mu];
        fine_blocks[k] = (int)qf_lex_index(f, fine->blocks);
    }
}

int qf_lattice_coarse_block_of(const qf_lattice *coarse, const qf_lattice *fine, int b, int pos[QF_NDIM])
{
    int ratio[QF_NDIM], f[QF_NDIM], cc[QF_NDIM];
    qf_lattice_coarse_ratio(coarse, fine, ratio);
    qf_lex_coords(b, fine->blocks, f);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        cc[mu] = f[mu] / ratio[mu];
        pos[mu] = f[mu] % ratio[mu];
    }
    return (int)qf_lex_index(cc, coarse->blocks);
}

int qf_lattice_block_owner(const qf_lattice *lat, int b)
{
    int c[QF_NDIM];
    qf_lex_coords(b, lat->blocks, c);
    for (int mu = 0; mu < QF_NDIM; mu++) c[mu] /= lat->local_blocks[mu];
    return (int)qf_lex_index(c, lat->procs);
}

int qf_lattice_block_is_near(const qf_lattice *lat, int b)
{
    if (qf_lattice_block_is_local(lat, b)) return 1;
    for (int mu = 0; mu < QF_NDIM; mu++)
        for (int step = -1; step <= 1; step += 2)
            if (qf_lattice_block_is_local(lat, qf_block_neighbour(b, lat->blocks, mu, step))) return 1;
    return 0;
}

int64_t qf_lattice_local_to_global(const qf_lattice *lat, int64_t i)
{
    int x[QF_NDIM];
    qf_lex_coords(i, lat->local, x);
    for (int mu = 0; mu < QF_NDIM; mu++) x[mu] += lat->proc_coord[mu] * lat->local[mu];
    return qf_lex_index(x, lat->global);
}

void qf_lattice_block_origin(const qf_lattice *lat, int b, int origin[QF_NDIM])
{
    int c[QF_NDIM];
    qf_lex_coords(b, lat->blocks, c);
    for (int mu = 0; mu < QF_NDIM; mu++) origin[mu] = c[mu] * lat->block[mu];
}

int qf_lattice_default_procs(const int global[QF_NDIM], int nprocs, int procs[QF_NDIM])
{
    int local[QF_NDIM];
    for (int mu = 0; mu < QF_NDIM; mu++) {
        procs[mu] = 1;
        local[mu] = global[mu];
    }
    int left = nprocs;
    for (int p = 2; left > 1; p++) {
        while (left % p == 0) {
            int best = -1;
            for (int mu = QF_NDIM - 1; mu >= 0; mu--)
                if (local[mu] % (2 * p) == 0 && (best < 0 || local[mu] > local[best])) best = mu;
            if (best < 0)
                return qf_fail("%d processes do not divide the lattice %d %d %d %d into parts with even extents: use "
                               "another number of processes or give the process grid (--grid PX PY PZ PT)",
                               nprocs, global[0], global[1], global[2], global[3]);
            local[best] /= p;
            procs[best] *= p;
            left /= p;
        }
    }
    return QF_SUCCESS;
}

int qf_lattice_default_blocks(const int local[QF_NDIM], int target_blocks, int min_extent, const int multiple[QF_NDIM],
                              int blocks[QF_NDIM])
{
    int ext[QF_NDIM], n = 1;
    if (min_extent < 2) min_extent = 2;
    for (int mu = 0; mu < QF_NDIM; mu++) {
        blocks[mu] = 1;
        ext[mu] = local[mu];
        if (local[mu] % 2)
            return qf_fail("local extent %c = %d is odd: the even-odd layout needs even extents", axis[mu], local[mu]);
    }
    /* Halve the largest extent that stays even, >= min_extent and a multiple, t first on ties (as QUDA
     * splits). */
    while (n < target_blocks) {
        int best = -1;
        for (int mu = QF_NDIM - 1; mu >= 0; mu--)
            if (ext[mu] % 4 == 0 && ext[mu] / 2 >= min_extent &&
                (!multiple || multiple[mu] < 1 || ext[mu] / 2 % multiple[mu] == 0) && (best < 0 || ext[mu] > ext[best]))
                best = mu;
        if (best < 0) break;
        ext[best] /= 2;
        blocks[best] *= 2;
        n *= 2;
    }
    return QF_SUCCESS;
}

int qf_parse_dims(char *const argv[], int argc_left, int out[QF_NDIM], const char *option)
{
    if (argc_left < QF_NDIM) return qf_fail("%s needs four numbers (X Y Z T)", option);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        char *end;
        errno = 0;
        long v = strtol(argv[mu], &end, 10);
        if (errno || *end || end == argv[mu] || v < 1 || v > 1 << 20)
            return qf_fail("%s: '%s' is not a positive extent (expected four numbers X Y Z T)", option, argv[mu]);
        out[mu] = (int)v;
    }
    return QF_SUCCESS;
}

int qf_lattice_same(const qf_lattice *a, const qf_lattice *b)
{
    if (a == b) return 1;
    if (a->nprocs != b->nprocs || a->rank != b->rank) return 0;
    for (int mu = 0; mu < QF_NDIM; mu++)
        if (a->global[mu] != b->global[mu] || a->procs[mu] != b->procs[mu] || a->local_blocks[mu] != b->local_blocks[mu] ||
            a->proc_coord[mu] != b->proc_coord[mu])
            return 0;
    return 1;
}
