/* Fields and observables as task graphs: import/export round trips, precision conversion, the
 * parity-major layout of blocks, blocks on cache lines, and the plaquette for several block grids
 * against the global-loop reference. The scheduler comes from STARPU_SCHED, so ctest runs this under
 * several policies. */
#include "check.h"
#include "test_start.h"
#include "random_gauge.h"
#include "quarkflow.h"
#include "../runtime/field_handles.h"
#include "../tasks/tasks.h"
#include "kernels/random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A test codelet on a block: counts sites whose stored parity tag differs from that of the half they
 * lie in (the in-block layout is parity-major: the even sites, then the odd ones). */
static void parity_probe_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    const double *d = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]);
    unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
    int *bad = (int *)STARPU_VARIABLE_GET_PTR(buffers[1]);
    for (unsigned s = 0; s < n; s++)
        if ((int)d[s * 6] != (s < n / 2 ? 0 : 1)) (*bad)++;
}
static struct starpu_codelet parity_probe = {
    .cpu_funcs = {parity_probe_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .name = "parity_probe"};

/* Counts blocks whose data StarPU placed off a cache line (the CPU kernels' vector loads would straddle
 * lines: qf_runtime_init asks StarPU for 64-byte alignment). */
static void align_probe_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    if (STARPU_VECTOR_GET_PTR(buffers[0]) % 64) (*(int *)STARPU_VARIABLE_GET_PTR(buffers[1]))++;
}
static struct starpu_codelet align_probe = {
    .cpu_funcs = {align_probe_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .name = "align_probe"};

static const int dims[4] = {4, 4, 4, 8};
static const int block_grids[][4] = {{1, 1, 1, 1}, {2, 1, 1, 1}, {1, 2, 1, 2}, {2, 2, 2, 2}, {2, 2, 2, 4}, {1, 1, 2, 4}};

static void test_staggered_parity(const qf_lattice *lat, double *buf)
{
    int64_t v = lat->global_volume;
    for (int64_t i = 0; i < v; i++) {
        int x[4];
        qf_lex_coords(i, lat->global, x);
        for (int k = 0; k < 6; k++) buf[6 * i + k] = k == 0 ? qf_parity(x) : (double)i;
    }
    qf_field *f;
    CHECK(qf_field_create(&f, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 1) == 0, "create staggered field: %s", qf_last_error());
    qf_field_import(f, buf);
    int bad = 0;
    starpu_data_handle_t hbad;
    starpu_variable_data_register(&hbad, STARPU_MAIN_RAM, (uintptr_t)&bad, sizeof bad);
    for (int b = 0; b < lat->nblocks; b++) starpu_task_insert(&parity_probe, STARPU_R, qf_field_block(f, b), STARPU_RW, hbad, 0);
    starpu_data_unregister(hbad);
    CHECK(bad == 0, "every site in a block's first half is even, in its second half odd (%d wrong)", bad);
    double *back = calloc((size_t)v * 6, sizeof *back);
    CHECK(qf_field_export(f, back) == 0 && !memcmp(back, buf, (size_t)v * 6 * sizeof *back),
          "staggered field round trip after the parity probe");
    free(back);
    qf_field_destroy(f);
}

/* The blocks of a field with host memory, and those StarPU allocates where a scratch field's first task
 * writes them, start on cache lines. */
static void test_block_alignment(const qf_lattice *lat)
{
    qf_field *host, *scratch;
    CHECK(qf_field_create(&host, lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) == 0 &&
              qf_field_create_scratch(&scratch, lat, QF_FIELD_WILSON, QF_SINGLE) == 0 &&
              qf_blas_axpby(0.0, NULL, 0.0, scratch, -1) == 0,
          "fields for the alignment probe: %s", qf_last_error());
    int misaligned = 0;
    starpu_data_handle_t h;
    starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&misaligned, sizeof misaligned);
    for (int b = 0; b < lat->nblocks; b++) {
        starpu_task_insert(&align_probe, STARPU_R, qf_field_block(host, b), STARPU_RW, h, 0);
        starpu_task_insert(&align_probe, STARPU_R, qf_field_block(scratch, b), STARPU_RW, h, 0);
    }
    starpu_data_unregister(h);
    CHECK(misaligned == 0, "every host and scratch block starts on a cache line (%d of %d do not)", misaligned,
          2 * lat->nblocks);
    qf_field_destroy(host);
    qf_field_destroy(scratch);
}

/* Start fields: equal bit for bit to the generator called site by site on the host, for every block
 * grid and CPU/GPU placement, in SU(3), with the plaquettes a cold, weak and hot start must have. */
static void test_start_fields(double *links, double *back)
{
    int64_t v = (int64_t)dims[0] * dims[1] * dims[2] * dims[3];
    const uint64_t seed = 20261122;
    for (int64_t i = 0; i < v; i++)
        for (int mu = 0; mu < 4; mu++) {
            qf_rng_key key = {seed, i, mu, 0};
            qf_su3 u = qf_rng_su3(&key, -1.0);
            qf_su3_store(links, QF_DOUBLE, (size_t)(4 * i + mu), &u);
        }
    double *first = malloc((size_t)v * 72 * sizeof *first);
    for (unsigned g = 0; g < sizeof block_grids / sizeof block_grids[0]; g++) {
        const int *bg = block_grids[g];
        qf_lattice lat;
        qf_field *u;
        if (qf_lattice_init(&lat, dims, NULL, bg, 0, 1, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0)) {
            CHECK(0, "lattice/field: %s", qf_last_error());
            continue;
        }
        CHECK(qf_gauge_start(u, QF_START_HOT, seed, 0.0) == 0, "hot start: %s", qf_last_error());
        qf_field_export(u, back);
        double to_host = 0, to_first = 0;
        if (g == 0) memcpy(first, back, (size_t)v * 72 * sizeof *first);
        for (int64_t i = 0; i < v * 72; i++) {
            to_host = fmax(to_host, fabs(back[i] - links[i]));
            to_first = fmax(to_first, fabs(back[i] - first[i]));
        }
        CHECK(to_host == 0.0, "blocks %d %d %d %d: hot start equals the host generator (max difference %.1e)", bg[0],
              bg[1], bg[2], bg[3], to_host);
        CHECK(to_first == 0.0, "blocks %d %d %d %d: identical to the one-block field (max difference %.1e)", bg[0],
              bg[1], bg[2], bg[3], to_first);
        double p, ps, pt, tr, dev;
        qf_gauge_measure_global(dims, back, &p, &ps, &pt, &tr, &dev);
        CHECK(dev < 1e-13 && fabs(p) < 0.05, "hot start in SU(3) (deviation %.1e), plaquette near 0 (%.4f)", dev, p);

        qf_gauge_observables obs;
        CHECK(qf_gauge_start(u, QF_START_COLD, seed, 0.0) == 0 && qf_gauge_measure(u, &obs) == 0 &&
                  fabs(obs.plaquette - 1.0) < 1e-15 && fabs(obs.link_trace - 1.0) < 1e-15,
              "cold start: plaquette %.17f, link trace %.17f", obs.plaquette, obs.link_trace);
        CHECK(qf_gauge_start(u, QF_START_WEAK, seed, 0.2) == 0 && qf_gauge_measure(u, &obs) == 0 &&
                  obs.plaquette > 0.5 && obs.plaquette < 0.999,
              "weak start (eps 0.2): plaquette %.6f between hot and cold", obs.plaquette);
        CHECK(qf_gauge_start(u, QF_START_WEAK, seed, -1.0) == QF_ERROR, "negative weak-field noise rejected");
        qf_field_destroy(u);
    }
    free(first);
}

int main(void)
{
    int start = qf_test_start();
    if (start >= 0) return start;
    int64_t v = (int64_t)dims[0] * dims[1] * dims[2] * dims[3];
    double *links = malloc((size_t)v * 72 * sizeof *links), *back = malloc((size_t)v * 72 * sizeof *back);
    uint64_t seed = 12345;
    for (int64_t m = 0; m < v * 4; m++) qf_test_random_su3(&seed, links + 18 * m);
    double ref_plaq, ref_space, ref_time, ref_trace, dev;
    qf_gauge_measure_global(dims, links, &ref_plaq, &ref_space, &ref_time, &ref_trace, &dev);
    printf("reference plaquette %.16f (space %.16f, time %.16f), link trace %.16f\n", ref_plaq, ref_space, ref_time, ref_trace);

    for (unsigned g = 0; g < sizeof block_grids / sizeof block_grids[0]; g++) {
        const int *bg = block_grids[g];
        qf_lattice lat;
        if (qf_lattice_init(&lat, dims, NULL, bg, 0, 1, 1)) {
            CHECK(0, "lattice %d %d %d %d: %s", bg[0], bg[1], bg[2], bg[3], qf_last_error());
            continue;
        }
        for (int p = 0; p < 2; p++) {
            qf_precision prec = p ? QF_SINGLE : QF_DOUBLE;
            qf_field *u;
            CHECK(qf_field_create(&u, &lat, QF_FIELD_GAUGE, prec, 0) == 0, "create: %s", qf_last_error());
            qf_field_import(u, links);
            qf_field_export(u, back);
            int same = 1;
            for (int64_t i = 0; i < v * 72; i++)
                if (back[i] != (prec == QF_DOUBLE ? links[i] : (double)(float)links[i])) same = 0;
            CHECK(same, "blocks %d %d %d %d %s: import/export round trip", bg[0], bg[1], bg[2], bg[3], qf_precision_name(prec));

            qf_gauge_observables obs;
            CHECK(qf_gauge_measure(u, &obs) == 0, "measure: %s", qf_last_error());
            double tol = prec == QF_DOUBLE ? 1e-13 : 2e-6;
            double err = fmax(fmax(fabs(obs.plaquette - ref_plaq), fabs(obs.link_trace - ref_trace)),
                              fmax(fabs(obs.plaquette_space - ref_space), fabs(obs.plaquette_time - ref_time)));
            CHECK(err < tol, "blocks %d %d %d %d %s: plaquette %.16f vs %.16f (err %.2e)", bg[0], bg[1], bg[2], bg[3],
                  qf_precision_name(prec), obs.plaquette, ref_plaq, err);

            /* precision conversion as tasks, there and back */
            qf_field *w;
            qf_precision other = prec == QF_DOUBLE ? QF_SINGLE : QF_DOUBLE;
            CHECK(qf_field_create(&w, &lat, QF_FIELD_GAUGE, other, 0) == 0, "create: %s", qf_last_error());
            CHECK(qf_field_convert(w, u) == 0, "convert: %s", qf_last_error());
            qf_field_export(w, back);
            same = 1;
            for (int64_t i = 0; i < v * 72; i++)
                if (back[i] != (double)(float)links[i]) same = 0;
            CHECK(same, "blocks %d %d %d %d: %s -> %s conversion", bg[0], bg[1], bg[2], bg[3], qf_precision_name(prec),
                  qf_precision_name(other));
            qf_field_destroy(w);
            qf_field_destroy(u);
        }
        if (qf_runtime_ncpu_workers() > 0) { /* the probe codelets are CPU-only */
            test_staggered_parity(&lat, back);
            test_block_alignment(&lat);
        }
    }
    test_start_fields(links, back);

    qf_lattice lat;
    int b2[4] = {2, 2, 2, 2};
    qf_lattice_init(&lat, dims, NULL, b2, 0, 1, 1);
    qf_field *f;
    CHECK(qf_field_create(&f, &lat, QF_FIELD_STAGGERED, QF_DOUBLE, 3) == QF_ERROR && strstr(qf_last_error(), "3 deep"),
          "3-deep faces on 2-site blocks rejected: %s", qf_last_error());
    /* faces come when a graph needs them: a staggered field (3 deep by default) fits 2-site blocks
     * until its faces are asked for; clover fields have none */
    CHECK(qf_field_create(&f, &lat, QF_FIELD_STAGGERED, QF_DOUBLE, 0) == 0, "staggered field without faces: %s",
          qf_last_error());
    CHECK(qf_field_request_faces(f) == QF_ERROR && strstr(qf_last_error(), "3 deep"),
          "its 3-deep faces on 2-site blocks refused when asked for: %s", qf_last_error());
    qf_field_destroy(f);
    CHECK(qf_field_create(&f, &lat, QF_FIELD_CLOVER, QF_DOUBLE, 1) == QF_ERROR && strstr(qf_last_error(), "no faces"),
          "faces of a clover field refused: %s", qf_last_error());
    CHECK(qf_field_create(&f, &lat, QF_FIELD_WILSON, QF_SINGLE, 0) == 0 && qf_field_face_depth(f) == 1,
          "Wilson field with 1-deep faces");
    /* its faces hold projected half spinors: whole sites would overrun them */
    CHECK(qf_tasks_copy_faces(f, 0) == QF_ERROR && strstr(qf_last_error(), "12 of a site's 24 reals"),
          "whole-site face copy into a Wilson field's half-spinor faces refused: %s", qf_last_error());
    qf_field_destroy(f);

    free(links);
    free(back);
    qf_runtime_shutdown();
    return qf_check_summary();
}
