/* quarkflow propagator: the main job. A point-source quark propagator (12 solves, one per source spin
 * and colour) on a gauge file or a quenched field generated on the spot, and the pseudoscalar and
 * vector meson correlators with their effective masses (for --action asqtad: 3 solves a mass, one per
 * source colour, and the Goldstone pion, below):
 *
 *   C(t) = sum_x Tr[ Gamma S(x, 0) Gamma_bar g5 S(x, 0)^dagger g5 ] (-1), Gamma_bar = g4 Gamma^dagger g4,
 *
 * which with S(0, x) = g5 S(x, 0)^dagger g5 gives C_pi(t) = sum_x |S(x, 0)|^2 and, for Gamma = g_k,
 * C_rho(t) = sum_x Tr[ g_k S g_k g5 S^dagger g5 ], averaged over k = x, y, z: both positive.
 *
 * Asqtad (MILC's conventions): the staggered Goldstone pion of a point source at the origin, as MILC's
 * spectrum codes compute it, C(t) = sum_c sum_{x with time t} |G_c(x)|^2, G_c = M^-1 of the source of
 * colour c: no volume factor, summed over the 3 source colours. */
#include "app.h"
#include "commands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The propagator's iteration limit, above the library's default: one macro for the parser and the
 * help text, which named both 2000 and 1000 */
#define PROPAGATOR_MAX_ITER 2000

static const char help[] =
    "usage: quarkflow propagator [GAUGE_FILE] [options]\n"
    "\n"
    "Computes the point-source propagator (12 solves) and the pion and rho correlators. Without\n"
    "GAUGE_FILE it first generates a quenched field (Wilson action, heatbath + overrelaxation).\n"
    "With --action asqtad: 3 solves a mass (the source colours; --masses: one multi-shift solve a colour)\n"
    "and the staggered Goldstone pion C(t) = sum_c sum_{x at time t} |x_c(x)|^2 of each mass, as MILC's\n"
    "spectrum codes print it (no volume factor, summed over the source colours).\n"
    "\n"
    "  --dim X Y Z T       lattice extents (generated field: default 8 8 8 8; GAUGE_FILE: checked, or\n"
    "                      needed for Bridge++ text files)\n"
    "  --beta B            gauge coupling of the generated field (default 6.0)\n"
    "  --sweeps N          heatbath sweeps from a cold start before measuring (default 100)\n"
    "  --seed S            seed of the generated field (default 1)\n"
    "  --format F          format of GAUGE_FILE (default auto)\n" QF_APP_TILE_HELP
    "  --kappa K           hopping parameter (default 0.1330)\n"
    "  --csw C             clover coefficient (default 1.769, non-perturbative at beta 6)\n"
    "  --prec double|single  precision of the operator (default double; half is for --sloppy)\n"
    "  --recon 18|12|8     reals kept a gauge link: whole links, two rows, or QUDA's 8 (default 18);\n"
    "                      the kernels rebuild the rest, which needs SU(3) links\n"
    "  --recon-sloppy R    the same for the operator's copies in a solver's sloppy precision (default:\n"
    "                      as --recon)\n"
    "  --bc X Y Z T        boundary phases as for quarkflow apply (default periodic in space, antiperiodic in t)\n"
    QF_APP_BLOCKS_HELP
    "  --out FILE          write the correlators as lines 't pion rho' (asqtad: 't pion' with a pion\n"
    "                      column per mass)\n"
    "\n"
    "Improved staggered (asqtad) quarks, MILC's conventions (M = 2m + D; --kappa, --csw and --recon\n"
    "belong to the Wilson-clover action and are refused with it):\n" QF_APP_ASQTAD_HELP
    "\n"
    "The solves (even-odd):\n" QF_APP_SOLVER_HELP(PROPAGATOR_MAX_ITER)
    "\n"
    "The source is at the origin.\n\n";

typedef struct {
    const char *gauge_file, *out;
    qf_gauge_format format;
    int dims[4], blocks[4], tile[4], sweeps;
    double beta;
    uint64_t seed;
    qf_solver_params sp;
    qf_dirac_params dp;
    qf_app_quarks q;
} prop_opts;

static int parse(int argc, char **argv, prop_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sweeps = 100;
    o->beta = 6.0;
    o->dp = qf_dirac_default_params(0.1330);
    o->dp.csw = 1.769;
    o->seed = 1;
    for (int mu = 0; mu < 4; mu++) o->tile[mu] = 1;
    o->sp = qf_app_solver_defaults();
    o->sp.max_iter = PROPAGATOR_MAX_ITER;
    qf_app_quarks_defaults(&o->q);
    const char *cmd = "propagator";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if ((op_rc = qf_app_quark_option(cmd, argc, argv, &i, &o->q)) != QF_APP_NOT_A_QUARK_OPTION) rc = op_rc;
        else if (!strcmp(a, "--dim")) rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        else if (!strcmp(a, "--blocks")) rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        else if (!strcmp(a, "--tile")) rc = qf_app_dims(cmd, argc, argv, &i, o->tile);
        else if (!strcmp(a, "--beta")) rc = qf_app_double(cmd, argc, argv, &i, &o->beta);
        else if (!strcmp(a, "--sweeps")) rc = qf_app_int(cmd, argc, argv, &i, &o->sweeps);
        else if (!strcmp(a, "--seed")) rc = qf_app_u64(cmd, argc, argv, &i, &o->seed);
        else if ((op_rc = qf_app_dirac_option(cmd, argc, argv, &i, &o->dp, NULL)) != QF_APP_NOT_AN_OPERATOR_OPTION)
            rc = op_rc;
        else if ((op_rc = qf_app_solver_option(cmd, argc, argv, &i, &o->sp)) != QF_APP_NOT_A_SOLVER_OPTION)
            rc = op_rc;
        else if (!strcmp(a, "--format")) {
            if (i + 1 >= argc || qf_gauge_format_parse(argv[i + 1], &o->format))
                return qf_app_usage_error(cmd, "--format needs a gauge-file format");
            i++;
        } else if (!strcmp(a, "--out")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "--out needs a file name");
            o->out = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return qf_app_usage_error(cmd, "unknown option '%s'", a);
        } else if (!o->gauge_file) {
            o->gauge_file = a;
        } else {
            return qf_app_usage_error(cmd, "unexpected argument '%s' (one gauge file at most)", a);
        }
        if (rc) return rc;
    }
    if (o->sweeps < 0) return qf_app_usage_error(cmd, "--sweeps %d: must be >= 0", o->sweeps);
    int rc = qf_app_quarks_check(cmd, &o->q, &o->sp);
    return rc ? rc : qf_app_solver_check(cmd, &o->sp, o->dp.prec);
}

/* Every source sits at the origin; the correlators count time from its time slice. */
static const int source_site[4] = {0, 0, 0, 0};

/* The gauge field: GAUGE_FILE read (every process its part; replicated --tile times), or a quenched
 * field generated on the spot; *plaquette its Re Tr / 3. */
static int make_gauge(const prop_opts *o, qf_field *u, const int dims[4], double *plaquette)
{
    if (o->gauge_file) {
        qf_gauge_info g;
        int rc = qf_app_gauge_load_tiled(u, o->gauge_file, o->format, o->tile, &g);
        if (!rc) {
            printf("gauge         %s (%s), lattice %d %d %d %d%s, plaquette %.10f\n", o->gauge_file,
                   qf_gauge_format_name(g.format), dims[0], dims[1], dims[2], dims[3],
                   qf_app_tiled(o->tile) ? " (the file's field tiled)" : "", g.plaquette);
            qf_app_gauge_warning(o->gauge_file, &g);
            *plaquette = g.plaquette;
        }
        return rc;
    }
    qf_update_params up = {.beta = o->beta, .or_steps = 4, .seed = o->seed};
    double t0 = qf_wtime();
    int rc = qf_gauge_start(u, QF_START_COLD, o->seed, 0.0) || (o->sweeps && qf_gauge_update(u, &up, 0, o->sweeps));
    qf_gauge_observables obs;
    rc = rc || qf_gauge_measure(u, &obs);
    if (!rc) {
        printf("gauge         generated: beta %g, %d sweeps (1 heatbath + 4 overrelaxation) from cold, seed %llu, "
               "%d %d %d %d, plaquette %.8f, %.1f s\n",
               o->beta, o->sweeps, (unsigned long long)o->seed, dims[0], dims[1], dims[2], dims[3], obs.plaquette,
               qf_wtime() - t0);
        *plaquette = obs.plaquette;
    }
    return rc;
}

/* The 12 columns stay where they were solved (a GPU's memory on a GPU node): each point source is
 * written there, and the correlators are contracted there (qf_field_point, qf_meson_correlators), so
 * that the host neither builds nor reads a field between solves. */
static int run_wilson(prop_opts *o, const qf_lattice *lat, const qf_field *u, const int dims[4])
{
    qf_field *b = NULL, *col[12] = {NULL};
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    double *pion = calloc((size_t)dims[3], sizeof *pion), *rho = calloc((size_t)dims[3], sizeof *rho);
    int rc = !pion || !rho ? qf_fail("out of host memory for the correlators") : QF_SUCCESS;
    const qf_dirac_params dp = o->dp;
    rc = rc || qf_dirac_create(&d, u, &dp, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
         qf_field_create_scratch(&b, lat, QF_FIELD_WILSON, dp.prec);
    for (int k = 0; k < 12 && !rc; k++) rc = qf_field_create_scratch(&col[k], lat, QF_FIELD_WILSON, dp.prec);
    if (!rc) {
        qf_app_print_operator(&dp, QF_SCHUR_ASYMMETRIC);
        qf_app_print_solver(&o->sp, dp.prec, lat);
        rc = qf_app_mg_prepare(M, &o->sp); /* built once, reused by the 12 solves */
    }
    double t0 = qf_wtime(), t_solve = 0.0, flops = 0.0;
    int iters = 0;
    for (int k = 0; k < 12 && !rc; k++) {
        qf_solver_result res;
        /* spin k / 3, colour k % 3: real 2 k of the source site's 24 */
        rc = qf_field_point(b, source_site, 2 * k) || qf_blas_axpby(0.0, NULL, 0.0, col[k], -1);
        qf_runtime_trace_begin();
        rc = rc || qf_solve(M, col[k], b, &o->sp, &res);
        qf_runtime_trace_end();
        if (!rc) {
            printf("solve %2d      spin %d colour %d: %4d iterations, %2d updates, true residual %.2e, %.2f s\n", k + 1,
                   k / 3, k % 3, res.iterations, res.updates, res.residual, res.seconds);
            fflush(stdout);
            t_solve += res.seconds;
            flops += res.flops;
            iters += res.iterations;
        }
    }
    rc = rc || qf_meson_correlators(col, source_site[3], pion, rho);
    if (!rc) {
        printf("propagator    12 solves, %d iterations, %.2f s, %.2f GFLOPS; with the sources and the contraction "
               "%.2f s\n",
               iters, t_solve, flops / t_solve * 1e-9, qf_wtime() - t0);
        qf_app_mg_report(&o->sp);
        printf("   t        pion C(t)               rho C(t)          m_eff pion   m_eff rho\n");
        for (int t = 0; t < dims[3]; t++) {
            int tn = (t + 1) % dims[3];
            printf("%4d   %.15e   %.15e", t, pion[t], rho[t]);
            if (t < dims[3] / 2) printf("   %9.5f   %9.5f", log(pion[t] / pion[tn]), log(rho[t] / rho[tn]));
            printf("\n");
        }
        if (o->out && qf_app_writes_files()) {
            FILE *f = fopen(o->out, "w");
            if (!f) {
                rc = qf_fail("cannot write %s: check the directory exists and is writable", o->out);
            } else {
                fprintf(f, "# t pion rho (point source at the origin, kappa %.6f, csw %.6f)\n", dp.kappa, dp.csw);
                for (int t = 0; t < dims[3]; t++) fprintf(f, "%d %.17e %.17e\n", t, pion[t], rho[t]);
                rc = fclose(f) ? qf_fail("writing %s failed", o->out) : QF_SUCCESS;
                if (!rc) printf("wrote         %s\n", o->out);
            }
        }
    }
    free(pion);
    free(rho);
    qf_app_mg_release(&o->sp);
    qf_linop_destroy(M);
    if (d) qf_dirac_destroy(d);
    if (b) qf_field_destroy(b);
    for (int k = 0; k < 12; k++)
        if (col[k]) qf_field_destroy(col[k]);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* --action asqtad: for each source colour at the origin, M(m) x = b for every mass (one solve each, or
 * one multi-shift solve for --masses), and the Goldstone pion C(t) = sum_c sum_{x, t} |x_c(x)|^2 of
 * each mass. */
static int run_asqtad(prop_opts *o, const qf_lattice *lat, const qf_field *u, const int dims[4], double plaquette)
{
    const qf_app_quarks *q = &o->q;
    int n = q->nmass, T = dims[3], nx = q->mass_list ? n : 1;
    qf_asqtad *op = NULL;
    qf_linop *M = NULL;
    qf_field *b = NULL, *x[QF_MULTISHIFT_MAX] = {NULL};
    double *pion = calloc((size_t)n * T, sizeof *pion), *slice = malloc((size_t)T * sizeof *slice);
    int rc = !pion || !slice ? qf_fail("out of host memory for the correlators") : QF_SUCCESS;
    rc = rc || qf_app_asqtad_create(&op, u, q, o->dp.phase, o->dp.prec, plaquette) ||
         qf_field_create_scratch(&b, lat, QF_FIELD_STAGGERED, o->dp.prec);
    /* never exported: the pion is summed where the solutions live */
    for (int k = 0; k < nx && !rc; k++) rc = qf_field_create_scratch(&x[k], lat, QF_FIELD_STAGGERED, o->dp.prec);
    if (!rc && !q->mass_list) rc = qf_asqtad_linop(op, &M);
    if (!rc) {
        qf_app_print_asqtad(q, o->dp.phase, o->dp.prec, 1);
        if (q->mass_list)
            printf("solver        multi-shift CG (MILC's multi-mass inverter), %s, tolerance %.1e, at most %d iterations, "
                   "residual read every %d\n",
                   qf_app_solver_precision(&o->sp, o->dp.prec), o->sp.tol, o->sp.max_iter, qf_solver_check_every(&o->sp));
        else
            qf_app_print_solver(&o->sp, o->dp.prec, lat);
    }
    double t_solve = 0.0, flops = 0.0;
    int iters = 0, solves = 0;
    for (int c = 0; c < 3 && !rc; c++) {
        qf_solver_result res[QF_MULTISHIFT_MAX];
        rc = qf_field_point(b, source_site, 2 * c) /* colour c */ || (!q->mass_list && qf_blas_axpby(0.0, NULL, 0.0, x[0], -1));
        qf_runtime_trace_begin();
        if (q->mass_list) rc = rc || qf_asqtad_multimass(op, n, q->mass, x, b, &o->sp, res);
        else rc = rc || qf_solve(M, x[0], b, &o->sp, &res[0]);
        qf_runtime_trace_end();
        for (int k = 0; k < nx && !rc; k++) { /* summed where x[k] lives, whole on every process */
            rc = qf_field_slice_norm2(x[k], source_site[3], slice);
            for (int t = 0; t < T && !rc; t++) pion[(size_t)k * T + t] += slice[t];
        }
        if (rc) break;
        /* a multi-shift solve's seconds and flops are the whole solve's, its iterations those of each mass */
        int most = 0;
        double worst = 0.0;
        for (int k = 0; k < nx; k++) {
            most = res[k].iterations > most ? res[k].iterations : most;
            worst = res[k].residual > worst ? res[k].residual : worst;
        }
        if (q->mass_list)
            printf("solve %2d      colour %d, %d masses: %4d iterations (the lightest's), true residual at most %.2e, "
                   "%.2f s\n",
                   c + 1, c, n, most, worst, res[0].seconds);
        else
            printf("solve %2d      colour %d: %4d iterations, %2d updates, true residual %.2e, %.2f s\n", c + 1, c,
                   res[0].iterations, res[0].updates, res[0].residual, res[0].seconds);
        fflush(stdout);
        t_solve += res[0].seconds;
        flops += res[0].flops;
        iters += most;
        solves++;
    }
    if (!rc) {
        printf("propagator    %d %s, %d iterations, %.2f s, %.2f GFLOPS\n", solves,
               q->mass_list ? "multi-mass solves (one a source colour)" : "solves (one a source colour)", iters, t_solve,
               flops / t_solve * 1e-9);
        for (int k = 0; k < n; k++) {
            printf("mass %-8g Goldstone pion C(t) = sum over source colours and sites of time t of |x|^2 (MILC's "
                   "normalisation: no volume factor)\n",
                   q->mass[k]);
            printf("   t        pion C(t)          m_eff pion\n");
            const double *p = pion + (size_t)k * T;
            for (int t = 0; t < T; t++) {
                printf("%4d   %.15e", t, p[t]);
                if (t < T / 2) printf("   %9.5f", log(p[t] / p[(t + 1) % T]));
                printf("\n");
            }
        }
        if (o->out && qf_app_writes_files()) {
            FILE *f = fopen(o->out, "w");
            if (!f) {
                rc = qf_fail("cannot write %s: check the directory exists and is writable", o->out);
            } else {
                fprintf(f, "# t");
                for (int k = 0; k < n; k++) fprintf(f, " pion(m=%g)", q->mass[k]);
                fprintf(f, " (asqtad, u0 %g, point source at the origin, summed over its 3 colours)\n", q->u0);
                for (int t = 0; t < T; t++) {
                    fprintf(f, "%d", t);
                    for (int k = 0; k < n; k++) fprintf(f, " %.17e", pion[(size_t)k * T + t]);
                    fprintf(f, "\n");
                }
                rc = fclose(f) ? qf_fail("writing %s failed", o->out) : QF_SUCCESS;
                if (!rc) printf("wrote         %s\n", o->out);
            }
        }
    }
    free(pion);
    free(slice);
    qf_linop_destroy(M);
    if (b) qf_field_destroy(b);
    for (int k = 0; k < nx; k++)
        if (x[k]) qf_field_destroy(x[k]);
    qf_asqtad_destroy(op);
    return rc ? QF_ERROR : QF_SUCCESS;
}

static int run(prop_opts *o, int dims[4])
{
    qf_lattice lat;
    qf_field *u = NULL;
    double plaquette = NAN;
    int ks = o->q.action == QF_APP_ASQTAD;
    /* the asqtad operator's Naik hop reaches 3 sites: blocks of at least 4 */
    int rc = qf_app_lattice(&lat, dims, o->blocks, ks ? 4 : 1, &o->sp) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
             make_gauge(o, u, dims, &plaquette);
    rc = rc || (ks ? run_asqtad(o, &lat, u, dims, plaquette) : run_wilson(o, &lat, u, dims));
    if (u) qf_field_destroy(u);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cmd_propagator(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    prop_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (o.out && qf_app_check_output("--out", o.out)) return qf_app_error();
    int dims[4] = {8, 8, 8, 8};
    /* the lattice now; the links once the processes run (each reads its part) */
    if ((rc = qf_app_gauge_dims("propagator", o.gauge_file, o.format, o.dims, o.tile, dims))) return rc;
    if (!o.gauge_file && o.dims[0]) memcpy(dims, o.dims, sizeof dims);
    qf_app.runtime.trace_window = 1; /* the trace holds the 12 solves, not the gauge generation */
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = run(&o, dims);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
