/* quarkflow gauge: load and verify gauge files, convert between formats, and measure observables
 * with the task graph (checked against the readers' independent global-loop values). */
#include "app.h"
#include "commands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow gauge load FILE [options]       read, verify every fact the file carries, print them\n"
    "       quarkflow gauge convert IN OUT [options]  write IN in another format (--to nersc|ildg)\n"
    "       quarkflow gauge measure [FILE] [options]  plaquette, link trace, Polyakov loop as task graphs,\n"
    "                                                 of FILE or of a generated start field (default:\n"
    "                                                 weak field on 8^4)\n"
    "       quarkflow gauge generate [options]        quenched Wilson-action heatbath + overrelaxation\n"
    "\n"
    "Options:\n"
    "  --format F          input format: auto (default), nersc, milc, scidac, ildg, bridge, ddalpha\n"
    "  --dim X Y Z T       lattice extents (needed for Bridge++ text files; checked otherwise)\n"
    QF_APP_BLOCKS_HELP
    "  --prec double|single  precision of the field in the task graph (default double)\n"
    "  --to nersc|ildg     output format of convert (default nersc)\n"
    "  --out-prec double|single  precision written by convert (default: the input file's)\n"
    "  --two-row           NERSC output: 4D_SU3_GAUGE (two rows stored) instead of 3x3\n"
    "  --start cold|weak|hot  measure: generated start field (default weak)\n"
    "  --seed S            seed of the counter-based generator (default 1)\n"
    "  --eps E             weak-field noise (default 0.1)\n"
    "  --out FILE          measure, generate: also write the field (format --to, precision --out-prec)\n"
    "  --beta B            generate: gauge coupling (default 6.0)\n"
    "  --sweeps N          generate: heatbath sweeps (default 20), each followed by --or K (default 4)\n"
    "                      overrelaxation sweeps; the start field is --start (default cold)\n"
    "  --therm T           generate: sweeps left out of the average plaquette (default N / 2)\n"
    "\n"
    "Plaquettes are printed as Re Tr / 3 (NERSC, Chroma, Bridge++); MILC prints 3 times these.\n\n";

typedef struct {
    const char *in, *out;
    qf_gauge_format format, to;
    int dims[4], blocks[4];
    qf_precision prec;
    int out_bits, two_row;
    qf_gauge_start_kind start;
    int start_given;
    uint64_t seed;
    double eps, beta;
    int sweeps, or_steps, therm;
} gauge_opts;

static int parse(int argc, char **argv, gauge_opts *o, int min_files, int max_files)
{
    memset(o, 0, sizeof *o);
    o->to = QF_GAUGE_NERSC;
    o->start = QF_START_WEAK;
    o->seed = 1;
    o->eps = 0.1;
    o->beta = 6.0;
    o->sweeps = 20;
    o->or_steps = 4;
    o->therm = -1;
    int nfiles = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--format") || !strcmp(a, "--to")) {
            if (i + 1 >= argc) return qf_app_usage_error("gauge", "%s needs a value", a);
            if (qf_gauge_format_parse(argv[++i], !strcmp(a, "--to") ? &o->to : &o->format))
                return qf_app_usage_error("gauge", "%s", qf_last_error());
        } else if (!strcmp(a, "--dim")) {
            rc = qf_app_dims("gauge", argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims("gauge", argc, argv, &i, o->blocks);
        } else if (!strcmp(a, "--prec") || !strcmp(a, "--out-prec")) {
            qf_precision p;
            if (i + 1 >= argc || qf_precision_parse(argv[i + 1], &p) || qf_precision_check_full(p, a))
                return qf_app_usage_error("gauge", "%s needs double or single", a);
            i++;
            if (!strcmp(a, "--prec")) o->prec = p;
            else o->out_bits = p == QF_DOUBLE ? 64 : 32;
        } else if (!strcmp(a, "--two-row")) {
            o->two_row = 1;
        } else if (!strcmp(a, "--start")) {
            if (i + 1 >= argc || qf_gauge_start_parse(argv[i + 1], &o->start))
                return qf_app_usage_error("gauge", "--start needs cold, weak or hot");
            o->start_given = 1;
            i++;
        } else if (!strcmp(a, "--seed") || !strcmp(a, "--eps") || !strcmp(a, "--beta")) {
            char *end = NULL;
            if (i + 1 < argc) {
                if (!strcmp(a, "--seed")) o->seed = strtoull(argv[i + 1], &end, 10);
                else *(!strcmp(a, "--eps") ? &o->eps : &o->beta) = strtod(argv[i + 1], &end);
            }
            if (!end || *end || end == argv[i + 1]) return qf_app_usage_error("gauge", "%s needs a number", a);
            i++;
        } else if (!strcmp(a, "--sweeps")) {
            rc = qf_app_int("gauge", argc, argv, &i, &o->sweeps);
        } else if (!strcmp(a, "--or")) {
            rc = qf_app_int("gauge", argc, argv, &i, &o->or_steps);
        } else if (!strcmp(a, "--therm")) {
            rc = qf_app_int("gauge", argc, argv, &i, &o->therm);
        } else if (!strcmp(a, "--out")) {
            if (i + 1 >= argc) return qf_app_usage_error("gauge", "--out needs a file name");
            o->out = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return qf_app_usage_error("gauge", "unknown option '%s'", a);
        } else if (nfiles < max_files) {
            if (nfiles++ == 0) o->in = a;
            else o->out = a;
        } else {
            return qf_app_usage_error("gauge", "unexpected argument '%s'", a);
        }
        if (rc) return rc;
    }
    if (nfiles < min_files)
        return qf_app_usage_error("gauge", "'%s' needs %s", argv[1], min_files == 1 ? "a FILE" : "IN and OUT files");
    if (o->to != QF_GAUGE_NERSC && o->to != QF_GAUGE_ILDG)
        return qf_app_usage_error("gauge", "convert writes nersc or ildg, not %s", qf_gauge_format_name(o->to));
    return 0;
}

static void print_info(const char *path, const qf_gauge_info *g)
{
    printf("file          %s\n", path);
    printf("format        %s (%s), %d-bit, %s-endian\n", qf_gauge_format_name(g->format), g->datatype,
           g->precision_bits, g->big_endian ? "big" : "little");
    printf("lattice       %d %d %d %d\n", g->dims[0], g->dims[1], g->dims[2], g->dims[3]);
    if (g->has_checksum == 1)
        printf("checksum      stored %08x, computed %08x: match\n", g->stored_checksum[0], g->computed_checksum[0]);
    else if (g->has_checksum == 2)
        printf("checksums     stored %08x %08x, computed %08x %08x: match\n", g->stored_checksum[0],
               g->stored_checksum[1], g->computed_checksum[0], g->computed_checksum[1]);
    else
        printf("checksums     none in this format\n");
    if (g->has_plaquette) printf("stored plaq   %.10f (matches)\n", g->stored_plaquette);
    if (g->has_link_trace) printf("stored trace  %.10f (matches)\n", g->stored_link_trace);
    printf("plaquette     %.16f  (space %.16f, time %.16f)\n", g->plaquette, g->plaquette_space, g->plaquette_time);
    printf("MILC style    %.16f %.16f  (3 x space, 3 x time)\n", 3 * g->plaquette_space, 3 * g->plaquette_time);
    printf("link trace    %.16f\n", g->link_trace);
    printf("SU(3)         largest deviation %.2e\n", g->max_unitarity_deviation);
    qf_app_gauge_warning(path, g);
}

static void print_observables(const char *label, const qf_gauge_observables *obs)
{
    printf("%-13s plaquette %.16f (space %.16f, time %.16f), link trace %.16f\n", label, obs->plaquette,
           obs->plaquette_space, obs->plaquette_time, obs->link_trace);
}

/* --out: every process writes its part. */
static int save(const gauge_opts *o, const qf_field *u)
{
    qf_gauge_write_options w = {.precision_bits = o->out_bits ? o->out_bits : 64, .two_row = o->two_row};
    int rc = qf_gauge_save(u, o->out, o->to, &w);
    if (!rc) printf("wrote         %s (%s, %d-bit)\n", o->out, qf_gauge_format_name(o->to), w.precision_bits);
    return rc;
}

/* Measures the field with the task graph; with one process also with plain global loops over the
 * exported links, which must agree (a disagreement is a bug, not a rounding matter); writes --out. */
static int measure_tasks(const gauge_opts *o, const qf_lattice *lat, const qf_field *u)
{
    qf_gauge_observables obs;
    double poly_re = 0.0, poly_im = 0.0;
    if (qf_gauge_measure(u, &obs) || qf_gauge_polyakov(u, &poly_re, &poly_im)) return QF_ERROR;
    printf("task graph    %s precision, blocks %d x %d x %d x %d of %d x %d x %d x %d sites, %d CPU + %d CUDA workers\n",
           qf_precision_name(o->prec), lat->blocks[0], lat->blocks[1], lat->blocks[2], lat->blocks[3], lat->block[0],
           lat->block[1], lat->block[2], lat->block[3], qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
    print_observables("", &obs);
    int rc = QF_SUCCESS;
    if (lat->nprocs == 1) {
        double *links = malloc((size_t)lat->global_volume * 72 * sizeof *links);
        if (!links) return qf_fail("out of host memory for the field (%lld sites)", (long long)lat->global_volume);
        if (qf_field_export(u, links)) {
            free(links);
            return QF_ERROR;
        }
        qf_gauge_observables ref;
        double dev;
        qf_gauge_measure_global(lat->global, links, &ref.plaquette, &ref.plaquette_space, &ref.plaquette_time,
                                &ref.link_trace, &dev);
        /* the field's own links in both cases: only the summation order differs */
        double tol = 1e-12;
        double d = fabs(obs.plaquette - ref.plaquette) + fabs(obs.plaquette_space - ref.plaquette_space) +
                   fabs(obs.plaquette_time - ref.plaquette_time) + fabs(obs.link_trace - ref.link_trace);
        if (!(d <= tol))
            rc = qf_fail("the task graph's observables differ from the global-loop values by %.3e (tolerance %.0e): "
                         "this is a bug, please report it with this command line",
                         d, tol);
        else
            printf("              agrees with plain global loops over the same links (difference %.1e)\n", d);
        free(links);
    }
    if (!rc) printf("Polyakov loop %.16f %+.16f i\n", poly_re, poly_im);
    if (!rc && o->out) rc = save(o, u);
    return rc;
}

/* gauge load and gauge measure of a file: every process reads its own part (qf_gauge_load); measure
 * then measures in the precision asked for. */
static int load_file(const gauge_opts *o, int measure)
{
    qf_gauge_info g;
    qf_lattice lat;
    qf_field *u = NULL, *us = NULL;
    int rc = qf_gauge_read_header(o->in, o->format, o->dims, &g) || qf_app_lattice(&lat, g.dims, o->blocks, 1, NULL) ||
             qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_load(u, o->in, o->format, &g);
    if (!rc) print_info(o->in, &g);
    if (!rc && measure && o->prec != QF_DOUBLE)
        rc = qf_field_create(&us, &lat, QF_FIELD_GAUGE, o->prec, 0) || qf_field_convert(us, u);
    if (!rc && measure) rc = measure_tasks(o, &lat, us ? us : u);
    if (us) qf_field_destroy(us);
    if (u) qf_field_destroy(u);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* gauge measure without a file: a start field built in blocks. */
static int measure_start(const gauge_opts *o, const int dims[4])
{
    qf_lattice lat;
    qf_field *u = NULL;
    int rc = qf_app_lattice(&lat, dims, o->blocks, 1, NULL) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, o->prec, 0) ||
             qf_gauge_start(u, o->start, o->seed, o->eps) || measure_tasks(o, &lat, u);
    if (u) qf_field_destroy(u);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* Mean and error of a Monte Carlo series from (up to) 8 bins, so that autocorrelation within a bin
 * does not shrink the error. */
static void binned_mean(const double *x, int n, double *mean, double *err, int *nbins)
{
    int nb = n < 8 ? n : 8, per = n / (nb > 0 ? nb : 1);
    double sum = 0.0, sum2 = 0.0;
    for (int b = 0; b < nb; b++) {
        double m = 0.0;
        for (int k = 0; k < per; k++) m += x[n - nb * per + b * per + k];
        m /= per;
        sum += m;
        sum2 += m * m;
    }
    *nbins = nb;
    *mean = nb ? sum / nb : 0.0;
    *err = nb > 1 ? sqrt(fmax(sum2 / nb - *mean * *mean, 0.0) / (nb - 1)) : 0.0;
}

/* Heatbath + overrelaxation from a start field, with the plaquette after every sweep. */
static int generate(gauge_opts *o)
{
    int dims[4] = {8, 8, 8, 8};
    if (o->dims[0]) memcpy(dims, o->dims, sizeof dims);
    if (o->sweeps < 1) return qf_fail("--sweeps %d: at least one sweep", o->sweeps);
    if (o->therm < 0) o->therm = o->sweeps / 2;
    if (o->therm >= o->sweeps) return qf_fail("--therm %d leaves none of the %d sweeps to average", o->therm, o->sweeps);
    if (!o->start_given) o->start = QF_START_COLD;
    qf_lattice lat;
    if (qf_app_lattice(&lat, dims, o->blocks, 1, NULL)) return QF_ERROR;
    qf_field *u;
    if (qf_field_create(&u, &lat, QF_FIELD_GAUGE, o->prec, 0)) return QF_ERROR;
    double *plaq = malloc((size_t)o->sweeps * sizeof *plaq);
    qf_update_params p = {.beta = o->beta, .or_steps = o->or_steps, .seed = o->seed};
    printf("generate      beta %g, %d sweeps of 1 heatbath + %d overrelaxation, %s start, seed %llu, lattice %d %d %d %d\n",
           o->beta, o->sweeps, o->or_steps, qf_gauge_start_name(o->start), (unsigned long long)o->seed, dims[0], dims[1],
           dims[2], dims[3]);
    printf("task graph    %s precision, blocks %d x %d x %d x %d, %d CPU + %d CUDA workers\n", qf_precision_name(o->prec),
           lat.blocks[0], lat.blocks[1], lat.blocks[2], lat.blocks[3], qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
    int rc = !plaq || qf_gauge_start(u, o->start, o->seed, o->eps);
    double total = 0.0;
    for (int sweep = 0; sweep < o->sweeps && !rc; sweep++) {
        double t0 = qf_wtime();
        qf_gauge_observables obs;
        rc = qf_gauge_update(u, &p, sweep, 1) || qf_gauge_measure(u, &obs);
        double dt = qf_wtime() - t0;
        total += dt;
        if (rc) break;
        plaq[sweep] = obs.plaquette;
        printf("sweep %5d   plaquette %.10f (space %.10f, time %.10f)   %.3f s\n", sweep + 1, obs.plaquette,
               obs.plaquette_space, obs.plaquette_time, dt);
        fflush(stdout);
    }
    if (!rc) {
        double mean, err;
        int nb;
        binned_mean(plaq + o->therm, o->sweeps - o->therm, &mean, &err, &nb);
        double updates = 4.0 * (double)lat.global_volume * (1 + o->or_steps) * o->sweeps;
        printf("average       plaquette %.8f +- %.8f over sweeps %d..%d (%d bins)\n", mean, err, o->therm + 1,
               o->sweeps, nb);
        printf("speed         %.3f s per sweep, %.3g link updates per second (measurements included)\n",
               total / o->sweeps, updates / total);
        double poly_re, poly_im;
        rc = qf_gauge_polyakov(u, &poly_re, &poly_im);
        if (!rc) printf("Polyakov loop %.10f %+.10f i (last field)\n", poly_re, poly_im);
    }
    if (!rc && o->out) rc = save(o, u);
    free(plaq);
    qf_field_destroy(u);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cmd_gauge(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(help, argc < 2 ? stderr : stdout);
        fputs(qf_app_global_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    int is_convert = !strcmp(sub, "convert"), is_generate = !strcmp(sub, "generate");
    if (!is_convert && !is_generate && strcmp(sub, "load") && strcmp(sub, "measure"))
        return qf_app_usage_error("gauge", "unknown subcommand '%s' (load, convert, measure or generate)", sub);
    if (qf_app_help_requested(argc, argv, 2, help)) return 0;
    int is_load = !strcmp(sub, "load");
    gauge_opts o;
    int rc = parse(argc, argv, &o, is_convert ? 2 : is_load, is_convert ? 2 : !is_generate);
    if (rc) return rc;
    if (is_load && o.out)
        return qf_app_usage_error("gauge", "load writes no file, so --out would be ignored: write FILE in another "
                                           "format with 'quarkflow gauge convert FILE OUT --to FORMAT'");
    if (o.out && qf_app_check_output(is_convert ? "OUT" : "--out", o.out)) return qf_app_error();
    if (is_generate) {
        if (qf_app_start(&argc, &argv)) return qf_app_error();
        rc = generate(&o);
        qf_app_stop();
        return rc ? qf_app_error() : 0;
    }

    if (!is_convert) {
        if (!o.in) {
            int dims[4] = {8, 8, 8, 8};
            if (o.dims[0]) memcpy(dims, o.dims, sizeof dims);
            char noise[64] = "";
            if (o.start == QF_START_WEAK) snprintf(noise, sizeof noise, " (eps %g)", o.eps);
            printf("start field   %s%s, seed %llu, lattice %d %d %d %d\n", qf_gauge_start_name(o.start), noise,
                   (unsigned long long)o.seed, dims[0], dims[1], dims[2], dims[3]);
            if (qf_app_start(&argc, &argv)) return qf_app_error();
            rc = measure_start(&o, dims);
        } else {
            if (qf_app_start(&argc, &argv)) return qf_app_error();
            rc = load_file(&o, !is_load);
        }
        qf_app_stop();
        return rc ? qf_app_error() : 0;
    }

    /* convert runs no task graph: under mpirun rank 0 converts, once */
    if (qf_app_launcher_rank() != 0) return 0;
    double *links = NULL;
    qf_gauge_info g;
    if (qf_gauge_read(o.in, o.format, o.dims, &links, &g)) return qf_app_error();
    qf_app_gauge_warning(o.in, &g);
    qf_gauge_write_options w = {.precision_bits = o.out_bits ? o.out_bits : g.precision_bits, .two_row = o.two_row,
                                .ensemble_id = NULL};
    rc = qf_gauge_write(o.out, o.to, g.dims, links, &w);
    if (!rc)
        printf("wrote %s as %s, %d-bit (plaquette %.16f)\n", o.out, qf_gauge_format_name(o.to), w.precision_bits,
               g.plaquette);
    free(links);
    return rc ? qf_app_error() : 0;
}
