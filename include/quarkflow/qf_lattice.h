/* Lattice geometry and decomposition: global extents, the process grid, local extents and the block
 * grid inside each process, plus the index helpers that CPU and CUDA kernels share.
 *
 * Conventions (DESIGN.md): directions 0..3 are x, y, z, t; site order is lexicographic with x
 * fastest; parity is (x + y + z + t) mod 2 of global coordinates.
 *
 * In-block layout: a block of extents E[4] (all even) stores its V = E0 E1 E2 E3 sites parity-major:
 * the V/2 even sites first, then the V/2 odd ones, each half in block-local lexicographic order.
 * Since every block origin has even coordinates, block-local parity equals global parity, and the
 * two halves are the parity sub-handles of a field. Only qf_block_site_index and
 * qf_block_site_coords know this layout.
 *
 * Faces: the face of a block in direction (mu, side) with depth d holds the d layers of sites
 * nearest that side (side 0: x_mu = 0 .. d-1, side 1: x_mu = E_mu - d .. E_mu - 1), in lexicographic
 * order of the block coordinates with extent E_mu replaced by d (layer index in place of x_mu). */
#ifndef QF_LATTICE_H
#define QF_LATTICE_H

#include "qf_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QF_NDIM 4

/* Blocks are numbered over the whole lattice (lexicographically in the global block grid), so that
 * every process builds the same task graph over the same block numbers: a block belongs to the
 * process whose part of the lattice holds it (qf_lattice_block_owner), which runs its tasks. With
 * one process the global block grid is the block grid. */
typedef struct {
    int global[QF_NDIM];       /* global extents L */
    int procs[QF_NDIM];        /* process grid P */
    int local[QF_NDIM];        /* local extents L / P */
    int proc_coord[QF_NDIM];   /* this process's position in the process grid */
    int local_blocks[QF_NDIM]; /* block grid B inside each process */
    int blocks[QF_NDIM];       /* global block grid P B: what block numbers and neighbours refer to */
    int block[QF_NDIM];        /* block extents (L / P) / B */
    int nprocs, rank;
    int nblocks;               /* blocks of the whole lattice */
    int nlocal_blocks;         /* blocks of each process */
    int64_t global_volume, local_volume, block_volume;
} qf_lattice;

/* Checks every combination and fills *lat; blocks is the block grid inside each process; rank and
 * nprocs describe this process (1 process: 0, 1; procs may be NULL for 1 1 1 1). Fails with a message naming the offending numbers when an extent is
 * not divisible, a block extent is odd (the parity layout needs even ones) or smaller than
 * min_block_extent (for example 3 for 3-deep staggered faces), or the process grid does not match
 * nprocs. */
int qf_lattice_init(qf_lattice *lat, const int global[QF_NDIM], const int procs[QF_NDIM],
                    const int blocks[QF_NDIM], int rank, int nprocs, int min_block_extent);

/* 1 when a and b describe the same decomposition (global extents, process grid and position, block
 * grid), so that fields on them have the same blocks. */
int qf_lattice_same(const qf_lattice *a, const qf_lattice *b);

/* The coarse lattice of a multigrid level: one site for each aggregate of agg[0] x .. x agg[3] fine sites,
 * on the fine lattice's processes, with a block grid such that every coarse block is the union of the
 * aggregates of whole fine blocks (its local block grid divides the fine one; the largest such grid whose
 * coarse block extents are even), or with one_block one block a process (fewer, larger tasks; the
 * coarsest level's one-task solve needs it). Fails, naming the direction, when an aggregate does not
 * tile the fine blocks or the coarse local extent is odd (the even-odd layout needs even extents). */
int qf_lattice_coarsen(qf_lattice *coarse, const qf_lattice *fine, const int agg[QF_NDIM], int one_block);
/* 1 when qf_lattice_coarsen would coarsen fine by agg, 0 when it would fail (no error is recorded). */
int qf_lattice_can_coarsen(const qf_lattice *fine, const int agg[QF_NDIM]);
/* How many fine blocks a coarse block of qf_lattice_coarsen holds in each direction, and the fine blocks
 * of coarse block c in lexicographic order of that grid (fine_blocks: ratio[0] x .. x ratio[3] entries). */
void qf_lattice_coarse_ratio(const qf_lattice *coarse, const qf_lattice *fine, int ratio[QF_NDIM]);
void qf_lattice_coarse_members(const qf_lattice *coarse, const qf_lattice *fine, int c, int *fine_blocks);
/* The coarse block that holds fine block b, and b's position in it (fine-block coordinates). */
int qf_lattice_coarse_block_of(const qf_lattice *coarse, const qf_lattice *fine, int b, int pos[QF_NDIM]);

/* Picks a process grid for nprocs processes: prime factors of nprocs split the largest local extents
 * (t first on ties, as QUDA does), keeping local extents even. Fails, naming the extents, when nprocs
 * does not divide the lattice that way. */
int qf_lattice_default_procs(const int global[QF_NDIM], int nprocs, int procs[QF_NDIM]);

/* The rank that owns global block b, and whether that is this process. */
int qf_lattice_block_owner(const qf_lattice *lat, int b);
static inline int qf_lattice_block_is_local(const qf_lattice *lat, int b) { return qf_lattice_block_owner(lat, b) == lat->rank; }

/* Whether block b or one of its eight neighbours is this process's: the blocks whose faces this
 * process sends or reads, and so the only ones whose face tasks it must know of. */
int qf_lattice_block_is_near(const qf_lattice *lat, int b);
/* Global lexicographic index of site i of this process's part (lexicographic in the part, x
 * fastest: the order of qf_field_import_local's arrays). */
int64_t qf_lattice_local_to_global(const qf_lattice *lat, int64_t i);
/* Global coordinates of the first site of block b. */
void qf_lattice_block_origin(const qf_lattice *lat, int b, int origin[QF_NDIM]);

/* Picks a block grid for the local lattice: the fewest blocks with at least target_blocks blocks
 * in all, each extent even, >= min_extent and a multiple of multiple[mu] (what must tile the blocks:
 * multigrid aggregates, Schwarz domains; NULL: none), splitting the largest extents first. */
int qf_lattice_default_blocks(const int local[QF_NDIM], int target_blocks, int min_extent, const int multiple[QF_NDIM],
                              int blocks[QF_NDIM]);

/* Parses "X Y Z T" given as four separate argv words (QUDA spelling --dim X Y Z T). */
int qf_parse_dims(char *const argv[], int argc_left, int out[QF_NDIM], const char *option);

/* ---- index helpers, shared by CPU and CUDA code ---- */

static inline QF_HD int64_t qf_lex_index(const int x[QF_NDIM], const int ext[QF_NDIM])
{
    return x[0] + (int64_t)ext[0] * (x[1] + (int64_t)ext[1] * (x[2] + (int64_t)ext[2] * x[3]));
}

static inline QF_HD void qf_lex_coords(int64_t idx, const int ext[QF_NDIM], int x[QF_NDIM])
{
    for (int mu = 0; mu < QF_NDIM; mu++) {
        x[mu] = (int)(idx % ext[mu]);
        idx /= ext[mu];
    }
}

static inline QF_HD int qf_parity(const int x[QF_NDIM]) { return (x[0] + x[1] + x[2] + x[3]) & 1; }

static inline QF_HD int64_t qf_volume(const int ext[QF_NDIM])
{
    return (int64_t)ext[0] * ext[1] * ext[2] * ext[3];
}

/* Storage index of block-local site x in a block of extents ext (all even). */
static inline QF_HD int64_t qf_block_site_index(const int x[QF_NDIM], const int ext[QF_NDIM])
{
    return qf_parity(x) * (qf_volume(ext) / 2) + qf_lex_index(x, ext) / 2;
}

/* Block-local coordinates of storage index s (inverse of qf_block_site_index). */
static inline QF_HD void qf_block_site_coords(int64_t s, const int ext[QF_NDIM], int x[QF_NDIM])
{
    int64_t half = qf_volume(ext) / 2;
    int p = s >= half;
    qf_lex_coords(2 * (s - p * half), ext, x);
    if (qf_parity(x) != p) x[0] += 1; /* ext[0] is even, so the partner site is in the same row */
}

/* Number of sites in a face of depth d in direction mu. */
static inline QF_HD int64_t qf_face_volume(const int ext[QF_NDIM], int mu, int depth)
{
    return qf_volume(ext) / ext[mu] * depth;
}

/* Index inside the (mu, side, depth) face of the block-local site x, which must lie in that face. */
static inline QF_HD int64_t qf_face_site_index(const int x[QF_NDIM], const int ext[QF_NDIM], int mu, int side,
                                               int depth)
{
    int fx[QF_NDIM], fe[QF_NDIM];
    for (int nu = 0; nu < QF_NDIM; nu++) { fx[nu] = x[nu]; fe[nu] = ext[nu]; }
    fe[mu] = depth;
    fx[mu] = side ? x[mu] - (ext[mu] - depth) : x[mu];
    return qf_lex_index(fx, fe);
}

/* Block-local coordinates of face index f (inverse of qf_face_site_index). */
static inline QF_HD void qf_face_site_coords(int64_t f, const int ext[QF_NDIM], int mu, int side, int depth,
                                             int x[QF_NDIM])
{
    int fe[QF_NDIM];
    for (int nu = 0; nu < QF_NDIM; nu++) fe[nu] = ext[nu];
    fe[mu] = depth;
    qf_lex_coords(f, fe, x);
    if (side) x[mu] += ext[mu] - depth;
}

/* Hop directions: 2 mu + 0 is the backward hop -mu, 2 mu + 1 the forward hop +mu. The face a block
 * sends for its neighbour's forward hop is its side-0 face, and vice versa. */
#define QF_NDIRS 8

/* Block index of the neighbour of block b in direction mu, step +1 or -1, in the global block grid,
 * which wraps around as the lattice does. */
static inline QF_HD int qf_block_neighbour(int b, const int bgrid[QF_NDIM], int mu, int step)
{
    int c[QF_NDIM];
    qf_lex_coords(b, bgrid, c);
    c[mu] = (c[mu] + step + bgrid[mu]) % bgrid[mu];
    return (int)qf_lex_index(c, bgrid);
}

#ifdef __cplusplus
}
#endif
#endif
