/* Geometry and index helpers: round trips of every index map, the parity-major block layout, faces,
 * and the rejection of invalid decompositions with messages that name the numbers. */
#include "check.h"
#include "quarkflow/qf_lattice.h"

#include <string.h>

static void check_block_layout(const int ext[4])
{
    int64_t v = qf_volume(ext);
    char seen[4096] = {0};
    int ok_bijective = 1, ok_parity = 1, ok_inverse = 1;
    for (int64_t lex = 0; lex < v; lex++) {
        int x[4], y[4];
        qf_lex_coords(lex, ext, x);
        int64_t s = qf_block_site_index(x, ext);
        if (s < 0 || s >= v || seen[s]) ok_bijective = 0;
        else seen[s] = 1;
        if ((s >= v / 2) != qf_parity(x)) ok_parity = 0;
        qf_block_site_coords(s, ext, y);
        if (memcmp(x, y, sizeof x)) ok_inverse = 0;
    }
    CHECK(ok_bijective, "block index is a bijection for %dx%dx%dx%d", ext[0], ext[1], ext[2], ext[3]);
    CHECK(ok_parity, "even sites first, then odd, for %dx%dx%dx%d", ext[0], ext[1], ext[2], ext[3]);
    CHECK(ok_inverse, "qf_block_site_coords inverts qf_block_site_index for %dx%dx%dx%d", ext[0], ext[1], ext[2], ext[3]);

    for (int depth = 1; depth <= 3; depth++)
        for (int mu = 0; mu < 4; mu++)
            for (int side = 0; side < 2; side++) {
                if (ext[mu] < depth) continue;
                int64_t n = qf_face_volume(ext, mu, depth), count = 0;
                int ok = 1;
                for (int64_t f = 0; f < n; f++) {
                    int x[4];
                    qf_face_site_coords(f, ext, mu, side, depth, x);
                    int in = side ? x[mu] >= ext[mu] - depth : x[mu] < depth;
                    if (!in || qf_face_site_index(x, ext, mu, side, depth) != f) ok = 0;
                    count++;
                }
                CHECK(ok && count == v / ext[mu] * depth, "face mu=%d side=%d depth=%d of %dx%dx%dx%d", mu, side, depth,
                      ext[0], ext[1], ext[2], ext[3]);
            }
}

static void expect_reject(const int g[4], const int p[4], const int b[4], int nprocs, int min_ext, const char *needle)
{
    qf_lattice lat;
    int rc = qf_lattice_init(&lat, g, p, b, 0, nprocs, min_ext);
    CHECK(rc == QF_ERROR && strstr(qf_last_error(), needle), "rejected with a message containing '%s' (got: %s)",
          needle, rc ? qf_last_error() : "accepted");
}

int main(void)
{
    int exts[][4] = {{2, 2, 2, 2}, {4, 2, 6, 2}, {2, 4, 4, 8}, {6, 4, 2, 4}};
    for (unsigned i = 0; i < sizeof exts / sizeof exts[0]; i++) check_block_layout(exts[i]);

    int L[4] = {6, 4, 8, 10}, x[4];
    int ok = 1;
    for (int64_t i = 0; i < qf_volume(L); i++) {
        qf_lex_coords(i, L, x);
        if (qf_lex_index(x, L) != i || x[0] != i % 6) ok = 0;
    }
    CHECK(ok, "lexicographic index round trip, x fastest");

    int bg[4] = {2, 3, 1, 4};
    ok = 1;
    for (int b = 0; b < 24; b++)
        for (int mu = 0; mu < 4; mu++)
            if (qf_block_neighbour(qf_block_neighbour(b, bg, mu, +1), bg, mu, -1) != b) ok = 0;
    CHECK(ok, "block neighbours: forward then backward returns");
    CHECK(qf_block_neighbour(1, bg, 0, +1) == 0, "block grid wraps around");

    qf_lattice lat;
    int g[4] = {8, 8, 8, 16}, p[4] = {1, 1, 2, 2}, b[4] = {2, 1, 2, 2};
    CHECK(qf_lattice_init(&lat, g, p, b, 3, 4, 1) == 0, "valid decomposition accepted: %s", qf_last_error());
    CHECK(lat.local[3] == 8 && lat.block[3] == 4 && lat.block[0] == 4 && lat.nlocal_blocks == 8 && lat.nblocks == 32 &&
              lat.blocks[3] == 4, "local and block extents, per process and global");
    CHECK(qf_lattice_block_owner(&lat, 0) == 0 && qf_lattice_block_owner(&lat, 31) == 3 && qf_lattice_block_owner(&lat, 4) == 1 &&
              qf_lattice_block_owner(&lat, 16) == 2, "block owners follow the process grid");
    CHECK(lat.proc_coord[2] == 1 && lat.proc_coord[3] == 1, "process coordinates of rank 3");
    CHECK(lat.global_volume == 8192 && lat.local_volume == 2048 && lat.block_volume == 256, "volumes");

    int procs[4], g32[4] = {32, 32, 32, 64};
    CHECK(qf_lattice_default_procs(g32, 8, procs) == 0 && procs[0] == 1 && procs[1] == 1 && procs[2] == 2 && procs[3] == 4,
          "8 processes on 32^3 x 64: the largest extent halved each time, t first (got %d %d %d %d)", procs[0],
          procs[1], procs[2], procs[3]);
    CHECK(qf_lattice_default_procs(g32, 6, procs) == QF_ERROR && strstr(qf_last_error(), "6 processes"),
          "6 processes on 32^3 x 64 refused (no extent splits in 3 with even parts): %s", qf_last_error());
    int g4[4] = {4, 4, 4, 4};
    CHECK(qf_lattice_default_procs(g4, 32, procs) == QF_ERROR && strstr(qf_last_error(), "--grid"),
          "32 processes on 4^4 refused, naming --grid: %s", qf_last_error());

    int one[4] = {1, 1, 1, 1};
    int g_bad[4] = {8, 8, 6, 8}, b_3[4] = {1, 1, 2, 1};
    expect_reject(g_bad, one, b_3, 1, 1, "block extent z = 3");
    int b_5[4] = {1, 5, 1, 1};
    expect_reject(g, one, b_5, 1, 1, "not divisible by the block grid's 5");
    int p_3[4] = {3, 1, 1, 1};
    expect_reject(g, p_3, one, 3, 1, "not divisible by the process grid's 3");
    int p_2[4] = {2, 1, 1, 1};
    expect_reject(g, p_2, one, 4, 1, "has 2 processes but 4 are running");
    int b_4[4] = {4, 1, 1, 1};
    expect_reject(g, one, b_4, 1, 3, "smaller than 3");
    int g_odd[4] = {8, 8, 8, 1};
    expect_reject(g_odd, one, one, 1, 1, "at least 2");

    int blocks[4], local[4] = {8, 8, 8, 8};
    CHECK(qf_lattice_default_blocks(local, 8, 2, NULL, blocks) == 0 && blocks[0] * blocks[1] * blocks[2] * blocks[3] == 8,
          "default block grid has 8 blocks (%d %d %d %d)", blocks[0], blocks[1], blocks[2], blocks[3]);
    int tiny[4] = {4, 4, 4, 4};
    CHECK(qf_lattice_default_blocks(tiny, 1000, 2, NULL, blocks) == 0 && blocks[0] == 2 && blocks[3] == 2,
          "default blocks stop at extent 2");
    /* 24^4 for 30 blocks: 12 12 12 6 unless the blocks must hold 4^4 aggregates, then 12^4 (16 blocks) */
    int l24[4] = {24, 24, 24, 24}, agg4[4] = {4, 4, 4, 4};
    CHECK(qf_lattice_default_blocks(l24, 30, 1, NULL, blocks) == 0 && blocks[3] == 4 && blocks[0] == 2,
          "24^4 for 30 blocks: 2 2 2 4 (%d %d %d %d)", blocks[0], blocks[1], blocks[2], blocks[3]);
    CHECK(qf_lattice_default_blocks(l24, 30, 1, agg4, blocks) == 0 && blocks[0] == 2 && blocks[1] == 2 &&
              blocks[2] == 2 && blocks[3] == 2,
          "24^4 for 30 blocks of 4^4 aggregates: 2 2 2 2 (%d %d %d %d)", blocks[0], blocks[1], blocks[2], blocks[3]);

    char *argv_ok[] = {"4", "4", "4", "8"}, *argv_bad[] = {"4", "x", "4", "8"};
    int d[4];
    CHECK(qf_parse_dims(argv_ok, 4, d, "--dim") == 0 && d[3] == 8, "parse --dim");
    CHECK(qf_parse_dims(argv_bad, 4, d, "--dim") == QF_ERROR && strstr(qf_last_error(), "'x'"), "bad --dim named");
    CHECK(qf_parse_dims(argv_ok, 3, d, "--dim") == QF_ERROR, "--dim with three numbers rejected");
    return qf_check_summary();
}
