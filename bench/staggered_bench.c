/* quarkflow bench staggered: the asqtad link smearing and the multi-mass solve (include/quarkflow/
 * qf_staggered.h), the two staggered figures of issue 22 besides the operator's bandwidth (bench dslash
 * --action asqtad):
 *
 *   links       qf_asqtad_links on a weak random field by both algorithms of seed 002 (standard: 72
 *               staple steps of one hop each; extended: a 2-deep halo in 4 rounds, then one task a
 *               block), the first build and the best of --repeat more, in site-links a second;
 *   multi-mass  M(m_i) x_i = b for --masses masses by one multi-shift CG on each parity
 *               (qf_asqtad_multimass), against the same masses solved one by one with even-odd CG: the
 *               time of each (each after a warm-up solve, which allocates the temporaries), their
 *               iterations and the ratio, as seed 000 reports its multi-shift solver. */
#include "app.h"
#include "qf_bench.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow bench staggered [options]\n"
    "\n"
    "Times the asqtad fat- and Naik-link smearing on a weak random field by both algorithms (extended\n"
    "volume: a 2-deep halo, then one task a block; standard: 72 one-hop staple steps), then solves\n"
    "M(m) x = b for a list of masses at once by multi-shift CG (one Krylov space for every mass, on each\n"
    "parity) and one mass at a time by even-odd CG, and prints both times, the iterations and the ratio.\n"
    "\n"
    "Options:\n"
    "  --dim X Y Z T       lattice extents (default 16 16 16 16, or 32 32 32 32 with a CUDA worker)\n"
    QF_APP_BLOCKS_HELP
    "                      (block extents at least 4)\n"
    "  --u0 U              tadpole factor of the smearing (default 0.9)\n"
    "  --masses N          masses of the multi-mass solve, m_k = m (1 + k) for k < N (default 12)\n"
    "  --mass m            the lightest mass (default 0.02)\n"
    "  --prec double|single  precision of the operator and the solutions (default double)\n"
    "  --sloppy double|single  precision of the iterations (default single: mixed precision)\n"
    "  --tol T             true relative residual of every mass (default 1e-8)\n"
    "  --repeat R          timed smearings after the first (default 3)\n"
    "  --seed S            the random field's and source's seed (default 1)\n"
    "  --links-only        time the smearing alone\n\n";

typedef struct {
    int dims[4], blocks[4], nmass, repeat, links_only;
    double u0, mass, tol;
    qf_precision prec, sloppy;
    uint64_t seed;
} options;

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.nmass = 12, .repeat = 3, .u0 = 0.9, .mass = 0.02, .tol = 1e-8, .prec = QF_DOUBLE, .sloppy = QF_SINGLE,
                   .seed = 1};
    const char *cmd = "bench staggered";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--dim")) rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        else if (!strcmp(a, "--blocks")) rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        else if (!strcmp(a, "--u0")) rc = qf_app_double(cmd, argc, argv, &i, &o->u0);
        else if (!strcmp(a, "--masses")) rc = qf_app_int(cmd, argc, argv, &i, &o->nmass);
        else if (!strcmp(a, "--mass")) rc = qf_app_double(cmd, argc, argv, &i, &o->mass);
        else if (!strcmp(a, "--tol")) rc = qf_app_double(cmd, argc, argv, &i, &o->tol);
        else if (!strcmp(a, "--repeat")) rc = qf_app_int(cmd, argc, argv, &i, &o->repeat);
        else if (!strcmp(a, "--seed")) rc = qf_app_u64(cmd, argc, argv, &i, &o->seed);
        else if (!strcmp(a, "--links-only")) o->links_only = 1;
        else if (!strcmp(a, "--prec") || !strcmp(a, "--sloppy")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "%s needs double or single", a);
            qf_precision *p = !strcmp(a, "--prec") ? &o->prec : &o->sloppy;
            if (qf_precision_parse(argv[++i], p) || *p == QF_HALF)
                return qf_app_usage_error(cmd, "%s %s: give double or single (staggered fields are not kept in half)", a,
                                          argv[i]);
        } else return qf_app_usage_error(cmd, "unknown option '%s'", a);
        if (rc) return rc;
    }
    if (o->nmass < 1 || o->nmass > QF_MULTISHIFT_MAX)
        return qf_app_usage_error(cmd, "--masses %d: give 1 to %d", o->nmass, QF_MULTISHIFT_MAX);
    if (!(o->mass > 0.0)) return qf_app_usage_error(cmd, "--mass %g: the lightest mass must be above 0", o->mass);
    if (!(o->u0 > 0.0 && o->u0 <= 1.0)) return qf_app_usage_error(cmd, "--u0 %g: give a value in (0, 1]", o->u0);
    if (o->repeat < 0) return qf_app_usage_error(cmd, "--repeat %d: give 0 or more", o->repeat);
    if (!(o->tol >= qf_solver_min_tol(o->prec) && o->tol < 1.0))
        return qf_app_usage_error(cmd, "--tol %g: give a value in [%g, 1) for a %s-precision operator", o->tol,
                                  qf_solver_min_tol(o->prec), qf_precision_name(o->prec));
    return 0;
}

/* The smearing by one algorithm timed: the first build, then the best of repeat. */
static int time_links(const options *o, const qf_field *u, qf_asqtad_smearing alg, qf_field **links)
{
    qf_asqtad_link_params lp = qf_asqtad_default_link_params(o->u0);
    lp.algorithm = alg;
    double best = 0.0, first = 0.0;
    for (int r = 0; r <= o->repeat; r++) {
        if (*links) qf_field_destroy(*links);
        *links = NULL;
        qf_runtime_wait_all();
        double t0 = qf_wtime();
        if (qf_asqtad_links(u, &lp, links)) return QF_ERROR;
        qf_runtime_wait_all();
        double t = qf_wtime() - t0;
        if (r == 0) first = t;
        if (r == 1 || (r > 1 && t < best)) best = t;
    }
    double sites = (double)qf_field_lattice(u)->global_volume;
    printf("links         fat and Naik links, %-8s algorithm: first %.4f s", qf_asqtad_smearing_name(alg), first);
    if (o->repeat > 0) printf(", best of %d %.4f s = %.3g site-links/s", o->repeat, best, 4.0 * sites / best);
    printf("\n");
    return QF_SUCCESS;
}

static int time_masses(const options *o, const qf_lattice *lat, const qf_field *links)
{
    int n = o->nmass;
    double masses[QF_MULTISHIFT_MAX];
    for (int k = 0; k < n; k++) masses[k] = o->mass * (1 + k);
    qf_asqtad *op = NULL;
    qf_asqtad_params ap = {.mass = masses[0], .prec = o->prec};
    qf_field *b = NULL, *x[QF_MULTISHIFT_MAX] = {NULL};
    double *src = malloc((size_t)lat->local_volume * 6 * sizeof *src);
    int rc = !src || qf_asqtad_create(&op, links, &ap) || qf_field_create(&b, lat, QF_FIELD_STAGGERED, o->prec, 0);
    if (!rc) {
        qf_app_random_colour_vector_local(src, lat, o->seed + 1);
        rc = qf_field_import_local(b, src);
    }
    for (int k = 0; k < n && !rc; k++) rc = qf_field_create(&x[k], lat, QF_FIELD_STAGGERED, o->prec, 0);
    qf_solver_params sp = qf_solver_default_params();
    sp.tol = o->tol;
    sp.sloppy = o->sloppy;
    sp.max_iter = 20000;
    qf_solver_result res[QF_MULTISHIFT_MAX];
    double t_multi = 0.0, t_single = 0.0;
    int it_single = 0;
    for (int rep = 0; rep < 2 && !rc; rep++) { /* the first allocates the temporaries */
        qf_runtime_wait_all();
        double t0 = qf_wtime();
        rc = qf_asqtad_multimass(op, n, masses, x, b, &sp, res);
        qf_runtime_wait_all();
        t_multi = qf_wtime() - t0;
    }
    if (!rc) {
        printf("multi-mass    %d masses %g .. %g, %s, tol %g: multi-shift CG on both parities %.4f s\n", n, masses[0],
               masses[n - 1], qf_app_solver_precision(&sp, o->prec), o->tol, t_multi);
        for (int k = 0; k < n; k++)
            printf("  mass %-8g %6d iterations, true residual %.3e\n", masses[k], res[k].iterations, res[k].residual);
    }
    sp.kind = QF_SOLVER_CG;
    for (int k = 0; k < n && !rc; k++) {
        qf_asqtad *single = NULL;
        qf_linop *M = NULL;
        qf_asqtad_params sap = {.mass = masses[k], .prec = o->prec};
        qf_solver_result r;
        rc = qf_asqtad_create(&single, links, &sap) || qf_asqtad_linop(single, &M);
        for (int rep = 0; rep < 2 && !rc; rep++) {
            rc = qf_blas_axpby(0.0, NULL, 0.0, x[k], -1);
            qf_runtime_wait_all();
            double t0 = qf_wtime();
            rc = rc || qf_solve(M, x[k], b, &sp, &r);
            qf_runtime_wait_all();
            if (rep) t_single += qf_wtime() - t0;
        }
        if (!rc) it_single += r.iterations;
        qf_linop_destroy(M);
        qf_asqtad_destroy(single);
    }
    if (!rc)
        printf("one by one    %d even-odd CG solves (%d iterations in all) %.4f s: multi-shift is %.2fx faster\n", n,
               it_single, t_single, t_single / t_multi);
    for (int k = 0; k < n; k++)
        if (x[k]) qf_field_destroy(x[k]);
    if (b) qf_field_destroy(b);
    qf_asqtad_destroy(op);
    free(src);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_bench_staggered(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    if (!o.dims[0]) {
        int d = qf_runtime_ncuda_workers() > 0 ? 32 : 16;
        for (int mu = 0; mu < 4; mu++) o.dims[mu] = d;
    }
    qf_lattice lat;
    qf_field *u = NULL, *links = NULL;
    rc = qf_app_single_process("bench staggered") || qf_app_lattice(&lat, o.dims, o.blocks, 4, NULL) ||
         qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_WEAK, o.seed, 0.1);
    if (!rc) {
        printf("bench staggered  asqtad on %dx%dx%dx%d, blocks %dx%dx%dx%d, weak-field gauge (eps 0.1), u0 %g; %d CPU and "
               "%d CUDA workers\n",
               o.dims[0], o.dims[1], o.dims[2], o.dims[3], lat.blocks[0], lat.blocks[1], lat.blocks[2], lat.blocks[3], o.u0,
               qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
        rc = time_links(&o, u, QF_SMEAR_EXTENDED, &links) || time_links(&o, u, QF_SMEAR_STANDARD, &links) ||
             (!o.links_only && time_masses(&o, &lat, links));
    }
    if (links) qf_field_destroy(links);
    if (u) qf_field_destroy(u);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
