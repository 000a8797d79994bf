/* quarkflow bench mg: the multigrid solver against mixed-precision BiCGStab over a scan of the hopping
 * parameter up to near its critical value, on one gauge field and one random source (issue 19).
 *
 * For each kappa: the Wilson-clover operator; BiCGStab on its even-odd system with single-precision
 * iterations and double-precision reliable updates (the fastest Krylov method quarkflow has without
 * multigrid); the multigrid hierarchy built for the operator (setup time) and the MG-preconditioned
 * GCR solve (outer iterations, time, per-level coarse iterations). Every solve runs once untimed (it
 * allocates the temporaries, which the operator keeps for the next solve of a propagator), then
 * --timed-solves times, the median timed: single solves on a shared 2-core machine spread by 10-20%.
 * The table's end-to-end column is what a 12-solve propagator costs each way. Each transfer and each
 * coarse level's operator is also applied alone (task graph, waited for), its bytes (vectors or links,
 * input and output once) over its time against the machine's memory-bandwidth ceiling measured in the
 * same run (STREAM triad on the CPU workers' cores, device-to-device copy on the GPU); a coarsest level
 * with a dense Schur inverse is solved alone too, the inverse's bytes over a solve's time. */
#include "app.h"
#include "dslash_bench.h"
#include "qf_bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_ITER 4000 /* BiCGStab's limit near the critical kappa; for the parser and the help alike */
#define BENCH_MAX_KAPPA 16
#define PROPAGATOR_SOLVES 12
#define BENCH_MAX_TIMED 50

static const char help[] =
    "usage: quarkflow bench mg [GAUGE_FILE] [options]\n"
    "\n"
    "For each hopping parameter of --kappa: mixed-precision BiCGStab (even-odd, single-precision iterations,\n"
    "double-precision reliable updates) and the multigrid solver (--solver mg: the hierarchy built once for\n"
    "the operator, then flexible GCR preconditioned by its K-cycle) solve M x = b for one random source to\n"
    "the same true residual. Prints per kappa the quark mass, BiCGStab's iterations and time, the multigrid\n"
    "setup time, outer iterations, solve time and the coarse levels' iterations, and the speedups of one\n"
    "solve and of a " QF_APP_STR(PROPAGATOR_SOLVES) "-solve propagator (setup included). Each solve runs once\n"
    "untimed, then --timed-solves times; the table shows the median time.\n"
    "Each transfer (restriction R, prolongation P) and each coarse operator is then applied alone: its\n"
    "time an application and its bandwidth (vectors or links, input and output read or written once)\n"
    "against the memory-bandwidth ceiling measured in the same run; a coarsest level with a dense Schur\n"
    "inverse (--mg-coarse-dense) is solved alone too, the inverse's bytes over a solve's time.\n"
    "\n"
    "Gauge field: GAUGE_FILE (any format quarkflow reads; --format to name it), or a generated start field.\n"
    QF_APP_TILE_HELP
    "  --dim X Y Z T, --start cold|weak|hot, --eps E, --seed S   the generated field (default weak, 8^4)\n"
    QF_APP_BLOCKS_HELP
    "Operator:\n"
    "  --kappa LIST        hopping parameters, comma-separated (default 0.12,0.125)\n"
    "  --csw C, --bc X Y Z T, --prec double|single, --recon R, --recon-sloppy R   as for quarkflow solve\n"
    "                      (default c_sw 0, t antiperiodic, whole links)\n"
    "Solvers:\n"
    "  --tol T             true relative residual of every solve (default 1e-10)\n"
    "  --max-iter N        iteration limit of each solve (default " QF_APP_STR(BENCH_MAX_ITER) "); a BiCGStab solve that does not\n"
    "                      converge in it is reported as such and the scan goes on\n"
    "  --check-every K, --delta D, --nkrylov N, and the multigrid options --mg-levels, --mg-nvec,\n"
    "  --mg-block, --mg-setup-iter, --mg-setup-krylov, --mg-setup-refine, --mg-refine-iter,\n"
    "  --mg-smoother-steps, --mg-coarse-tol,\n"
    "  --mg-coarse-max-iter as for quarkflow solve\n"
    "  --source-seed S     seed of the random source (default 1)\n"
    "  --timed-solves N    solves timed after the untimed first, each method and kappa (default 1, at\n"
    "                      most " QF_APP_STR(BENCH_MAX_TIMED) "): the table takes their median, the progress lines their\n"
    "                      range\n"
    "  --plot FILE.svg     iterations and time to solution against the quark mass (gnuplot; FILE.svg.dat\n"
    "                      and FILE.svg.gp stay beside it)\n"
    "\n"
    "Results: bench/RESULTS.md.\n\n";

typedef struct {
    qf_app_problem pr;
    double kappa[BENCH_MAX_KAPPA];
    int nkappa;
    qf_solver_params sp;
    uint64_t source_seed;
    int timed_solves;
    const char *plot;
} bench_opts;

typedef struct {
    double kappa;
    qf_solver_result bicg, mg; /* seconds: the median of the timed solves */
    double bicg_range[2], mg_range[2]; /* the fastest and slowest timed solve */
    double setup_seconds;
    qf_mg_stats levels;
} bench_row;

static int parse_kappas(const char *cmd, int argc, char **argv, int *i, bench_opts *o)
{
    if (*i + 1 >= argc || !argv[*i + 1][0]) return qf_app_usage_error(cmd, "--kappa needs a comma-separated list, e.g. 0.13,0.135");
    char list[512];
    snprintf(list, sizeof list, "%s", argv[++*i]);
    o->nkappa = 0;
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *end;
        double k = strtod(item, &end);
        if (end == item || *end || !(k > 0.0 && k < 0.5))
            return qf_app_usage_error(cmd, "--kappa: '%s' is not a hopping parameter between 0 and 0.5", item);
        if (o->nkappa == BENCH_MAX_KAPPA) return qf_app_usage_error(cmd, "--kappa: at most %d values", BENCH_MAX_KAPPA);
        o->kappa[o->nkappa++] = k;
    }
    if (!o->nkappa) return qf_app_usage_error(cmd, "--kappa: the list '%s' is empty", argv[*i]);
    return 0;
}

static int parse(int argc, char **argv, bench_opts *o)
{
    const char *cmd = "bench mg";
    memset(o, 0, sizeof *o);
    qf_app_problem_defaults(&o->pr);
    o->pr.p.csw = 0.0;
    o->kappa[0] = 0.12;
    o->kappa[1] = 0.125;
    o->nkappa = 2;
    o->sp = qf_app_solver_defaults();
    o->sp.max_iter = BENCH_MAX_ITER;
    o->source_seed = 1;
    o->timed_solves = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if (!strcmp(a, "--kappa")) {
            rc = parse_kappas(cmd, argc, argv, &i, o);
        } else if (!strcmp(a, "--source-seed")) {
            rc = qf_app_u64(cmd, argc, argv, &i, &o->source_seed);
        } else if (!strcmp(a, "--timed-solves")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->timed_solves);
            if (!rc && (o->timed_solves < 1 || o->timed_solves > BENCH_MAX_TIMED))
                return qf_app_usage_error(cmd, "--timed-solves %d: 1 to %d", o->timed_solves, BENCH_MAX_TIMED);
        } else if (!strcmp(a, "--plot")) {
            if (i + 1 >= argc || !argv[i + 1][0]) return qf_app_usage_error(cmd, "--plot needs a file name (FILE.svg)");
            o->plot = argv[++i];
        } else if (!strcmp(a, "--solver") || !strcmp(a, "--sloppy") || !strcmp(a, "--inner-mr")) {
            return qf_app_usage_error(cmd, "%s: bench mg compares mixed BiCGStab with --solver mg; use bench solver for "
                                           "other solvers", a);
        } else if (!strcmp(a, "--source") || !strcmp(a, "--point") || !strcmp(a, "--out") || !strcmp(a, "--out-prec") ||
                   !strcmp(a, "--schur")) {
            return qf_app_usage_error(cmd, "%s: bench mg solves for a random source (--source-seed) and writes no field", a);
        } else if ((op_rc = qf_app_solver_option(cmd, argc, argv, &i, &o->sp)) != QF_APP_NOT_A_SOLVER_OPTION) {
            rc = op_rc;
        } else if ((op_rc = qf_app_problem_option(cmd, argc, argv, &i, &o->pr)) != QF_APP_NOT_A_PROBLEM_OPTION) {
            rc = op_rc;
        } else {
            return qf_app_usage_error(cmd, "unknown option '%s'", a);
        }
        if (rc) return rc;
    }
    return qf_app_solver_check(cmd, &o->sp, o->pr.p.prec);
}

/* The gauge field on lat: the file's (replicated --tile times), or the start field. */
static int load_gauge(const bench_opts *o, qf_field *u)
{
    if (!o->pr.gauge_file) return qf_gauge_start(u, o->pr.start, o->pr.seed, o->pr.eps);
    qf_gauge_info g;
    if (qf_app_gauge_load_tiled(u, o->pr.gauge_file, o->pr.format, o->pr.tile, &g)) return QF_ERROR;
    printf("gauge         %s (%s), plaquette %.12f%s\n", o->pr.gauge_file, qf_gauge_format_name(g.format), g.plaquette,
           qf_app_tiled(o->pr.tile) ? ", tiled" : "");
    qf_app_gauge_warning(o->pr.gauge_file, &g);
    return QF_SUCCESS;
}

/* ---- a coarse operator applied alone ---- */

typedef struct {
    qf_linop *A;
    qf_field *f[2];
} coarse_apply_ctx;

static int coarse_apply_run(void *ctx, long n, double *seconds)
{
    coarse_apply_ctx *c = ctx;
    double t0 = qf_timing_now();
    for (long k = 0; k < n; k++)
        if (qf_linop_apply(c->A, c->f[(k + 1) & 1], c->f[k & 1])) return QF_ERROR;
    qf_runtime_wait_all();
    *seconds = qf_timing_now() - t0;
    return QF_SUCCESS;
}

/* Level l's operator: best time an application and its bandwidth against ceiling (GB/s). */
static int time_coarse_op(qf_mg *mg, int l, double ceiling)
{
    coarse_apply_ctx c = {qf_mg_level_op(mg, l), {NULL, NULL}};
    const qf_linop_domain *dom = qf_linop_get_domain(c.A);
    int rc = qf_linop_field_take(c.A, &c.f[0]) || qf_linop_field_take(c.A, &c.f[1]) || qf_field_gaussian(c.f[0], 3, 0);
    qf_timing t;
    rc = rc || qf_timing_run(coarse_apply_run, &c, 2, 0, 0.3, &t);
    if (!rc) {
        /* 9 matrices of n2 rows a site (a record a row in half), the input and output sites */
        int n2 = dom->shape.site_reals / 2;
        qf_precision lp = qf_coarse_op_link_precision(c.A);
        double bytes = (double)dom->lat->global_volume *
                       (9.0 * n2 * (double)qf_record_bytes(lp, 2 * n2) + 2.0 * (double)qf_record_bytes(dom->prec, 2 * n2));
        double gbps = bytes / t.best * 1e-9;
        printf("level %d       coarse operator D_c, %d %d %d %d sites, N = %d, %s, links in %s: %.1f us an application "
               "(best of %ld), %.1f GB/s = %.2f of the ceiling\n",
               l, dom->lat->global[0], dom->lat->global[1], dom->lat->global[2], dom->lat->global[3], n2 / 2,
               qf_precision_name(dom->prec), qf_precision_name(lp), t.best * 1e6, t.n, gbps, gbps / ceiling);
        fflush(stdout);
    }
    qf_linop_field_give_back(c.A, c.f[0]);
    qf_linop_field_give_back(c.A, c.f[1]);
    return rc;
}

/* ---- the coarsest level's solve by its dense Schur inverse, alone ---- */

typedef struct {
    qf_linop *A;
    qf_field *x, *b;
    qf_scalar *stats;
} dense_solve_ctx;

static int dense_solve_run(void *ctx, long n, double *seconds)
{
    dense_solve_ctx *c = ctx;
    double t0 = qf_timing_now();
    for (long k = 0; k < n; k++)
        if (qf_coarse_solve_one_task(c->A, c->x, c->b, 0.25, 1, 1, c->stats)) return QF_ERROR;
    qf_runtime_wait_all();
    *seconds = qf_timing_now() - t0;
    return QF_SUCCESS;
}

/* Level l's solve where it has a dense Schur inverse: best time a one-task solve (source prepared, the
 * inverse applied, odd sites reconstructed) and the inverse's bytes over it against ceiling (GB/s). */
static int time_dense_solve(qf_mg *mg, int l, double ceiling)
{
    dense_solve_ctx c = {qf_mg_level_op(mg, l), NULL, NULL, NULL};
    if (!qf_coarse_op_has_schur_inverse(c.A)) return QF_SUCCESS;
    const qf_linop_domain *dom = qf_linop_get_domain(c.A);
    int rc = qf_linop_field_take(c.A, &c.x) || qf_linop_field_take(c.A, &c.b) || qf_scalar_create(&c.stats) ||
             qf_field_gaussian(c.b, 3, 0);
    qf_timing t;
    rc = rc || qf_timing_run(dense_solve_run, &c, 2, 0, 0.3, &t);
    if (!rc) {
        int64_t n = qf_coarse_op_schur_dim(c.A);
        double gbps = (double)n * (double)n * 2.0 * (double)qf_real_size(dom->prec) / t.best * 1e-9;
        printf("level %d       coarsest solve by the dense Schur inverse, dimension %lld, %s: %.1f us a solve in one task "
               "(best of %ld), the inverse read at %.1f GB/s = %.2f of the ceiling\n",
               l, (long long)n, qf_precision_name(dom->prec), t.best * 1e6, t.n, gbps, gbps / ceiling);
        fflush(stdout);
    }
    if (c.stats) qf_scalar_destroy(c.stats);
    if (c.x) qf_linop_field_give_back(c.A, c.x);
    if (c.b) qf_linop_field_give_back(c.A, c.b);
    return rc;
}

/* ---- restriction and prolongation applied alone ---- */

typedef struct {
    const qf_transfer *T;
    qf_field *fine, *coarse;
    int prolong;
} transfer_ctx;

static int transfer_run(void *ctx, long n, double *seconds)
{
    transfer_ctx *c = ctx;
    double t0 = qf_timing_now();
    for (long k = 0; k < n; k++)
        if (c->prolong ? qf_transfer_prolong(c->T, c->fine, c->coarse, -1)
                       : qf_transfer_restrict(c->T, c->coarse, c->fine, -1))
            return QF_ERROR;
    qf_runtime_wait_all();
    *seconds = qf_timing_now() - t0;
    return QF_SUCCESS;
}

/* The transfer from level l to l + 1: best time of R and of P, and their bandwidth against ceiling
 * (GB/s): the vectors as read, the fine field and the coarse field each read or written once. */
static int time_transfer(qf_mg *mg, int l, double ceiling)
{
    const qf_transfer *T = qf_mg_level_transfer(mg, l);
    transfer_ctx c = {T, NULL, NULL, 0};
    qf_linop *A = qf_mg_level_op(mg, l), *Ac = qf_mg_level_op(mg, l + 1);
    int rc = qf_linop_field_take(A, &c.fine) || qf_linop_field_take(Ac, &c.coarse) || qf_field_gaussian(c.fine, 5, 0) ||
             qf_field_gaussian(c.coarse, 7, 0);
    qf_field_shape fs = qf_transfer_fine_shape(T), cs = qf_transfer_coarse_shape(T);
    qf_precision prec = qf_transfer_precision(T), vprec = qf_transfer_vector_precision(T);
    const qf_lattice *fl = qf_transfer_fine_lattice(T), *cl = qf_transfer_coarse_lattice(T);
    double bytes = (double)fl->global_volume * ((double)qf_transfer_nvec(T) * (double)qf_record_bytes(vprec, fs.site_reals) +
                                                (double)qf_field_shape_site_bytes(&fs, prec)) +
                   (double)cl->global_volume * (double)qf_field_shape_site_bytes(&cs, prec);
    for (c.prolong = 0; c.prolong < 2 && !rc; c.prolong++) {
        qf_timing t;
        rc = qf_timing_run(transfer_run, &c, 2, 0, 0.3, &t);
        if (rc) break;
        double gbps = bytes / t.best * 1e-9;
        printf("level %d       %s, %d vectors in %s: %.1f us an application (best of %ld), %.1f GB/s = %.2f of the ceiling\n",
               l, c.prolong ? "prolongation P" : "restriction R", qf_transfer_nvec(T), qf_precision_name(vprec),
               t.best * 1e6, t.n, gbps, gbps / ceiling);
        fflush(stdout);
    }
    if (c.fine) qf_linop_field_give_back(A, c.fine);
    if (c.coarse) qf_linop_field_give_back(Ac, c.coarse);
    return rc;
}

/* ---- the K-cycle applied alone ---- */

typedef struct {
    qf_precond *K;
    qf_field *z, *az, *r;
} kcycle_ctx;

static int kcycle_run(void *ctx, long n, double *seconds)
{
    kcycle_ctx *c = ctx;
    double t0 = qf_timing_now();
    for (long k = 0; k < n; k++)
        if (qf_precond_apply_image(c->K, c->z, c->az, c->r, NULL)) return QF_ERROR;
    qf_runtime_wait_all();
    *seconds = qf_timing_now() - t0;
    return QF_SUCCESS;
}

/* The finest level's K-cycle with its image (what flexible GCR applies an outer iteration) on a
 * Gaussian residual: its best time, which the solve's outer iterations spread by the machine's noise. */
static int time_kcycle(qf_mg *mg)
{
    qf_linop *A = qf_mg_level_op(mg, 0);
    kcycle_ctx c = {qf_mg_precond(mg), NULL, NULL, NULL};
    int rc = qf_linop_field_take(A, &c.z) || qf_linop_field_take(A, &c.az) || qf_linop_field_take(A, &c.r) ||
             qf_field_gaussian(c.r, 11, 0) || qf_blas_axpby(0.0, NULL, 0.0, c.z, -1);
    qf_timing t;
    rc = rc || qf_timing_run(kcycle_run, &c, 2, 0, 1.0, &t);
    if (!rc) {
        printf("level 0       K-cycle with its image, %s: %.1f us an application (best of %ld)\n",
               qf_precision_name(qf_linop_get_domain(A)->prec), t.best * 1e6, t.n);
        fflush(stdout);
    }
    qf_field *own[3] = {c.z, c.az, c.r};
    for (int k = 0; k < 3; k++)
        if (own[k]) qf_linop_field_give_back(A, own[k]);
    return rc;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A solve from x = 0 once untimed (it allocates the temporaries), then ntimed times: the last one's
 * result with the median time, and the range of the times. A solve that reaches the iteration limit is
 * a result, not an error (it says whether it converged). */
static int solve_timed(qf_linop *M, qf_field *x, const qf_field *b, qf_solver_params *sp, int ntimed,
                       qf_solver_result *r, double range[2])
{
    double t[BENCH_MAX_TIMED];
    sp->accept_max_iter = 1;
    for (int pass = 0; pass <= ntimed; pass++) {
        if (sp->mg && pass == ntimed) qf_mg_reset_stats(sp->mg); /* the per-level figures of the last solve */
        if (qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(M, x, b, sp, r)) return QF_ERROR;
        if (pass) t[pass - 1] = r->seconds;
    }
    qsort(t, (size_t)ntimed, sizeof t[0], compare_doubles);
    r->seconds = ntimed % 2 ? t[ntimed / 2] : 0.5 * (t[ntimed / 2 - 1] + t[ntimed / 2]);
    range[0] = t[0];
    range[1] = t[ntimed - 1];
    return QF_SUCCESS;
}

/* ", median of N solves (A-B s)" where more than one was timed */
static void print_range(int ntimed, const double range[2])
{
    if (ntimed > 1) printf(", median of %d solves (%.3f-%.3f s)", ntimed, range[0], range[1]);
}

static void print_solve(const qf_solver_result *r)
{
    if (r->converged) printf("%6d %8.3f", r->iterations, r->seconds);
    else printf("%6s %8s", "-", "-");
}

static void print_table(const bench_opts *o, const bench_row *rows, int n)
{
    printf("\n%-9s %8s | %6s %8s | %8s %6s %8s %-16s | %7s %8s\n", "kappa", "m0", "BiCGSt", "time s", "MG setup", "outer",
           "time s", "coarse its/solve", "speedup", "x" QF_APP_STR(PROPAGATOR_SOLVES) " e2e");
    for (int k = 0; k < n; k++) {
        const bench_row *w = &rows[k];
        printf("%-9.6f %8.4f | ", w->kappa, 0.5 / w->kappa - 4.0);
        print_solve(&w->bicg);
        printf(" | %8.3f ", w->setup_seconds);
        print_solve(&w->mg);
        char coarse[64] = "";
        for (int l = 1, len = 0; l < w->levels.levels && len < (int)sizeof coarse; l++)
            len += snprintf(coarse + len, sizeof coarse - len, "%s%.1f", l > 1 ? "/" : "",
                            w->levels.visits[l] ? (double)w->levels.iterations[l] / w->levels.visits[l] : 0.0);
        printf(" %-16s | ", coarse);
        if (w->bicg.converged && w->mg.converged)
            printf("%7.2f %8.2f\n", w->bicg.seconds / w->mg.seconds,
                   PROPAGATOR_SOLVES * w->bicg.seconds / (w->setup_seconds + PROPAGATOR_SOLVES * w->mg.seconds));
        else printf("%7s %8s\n", "-", "-");
    }
    printf("\nBiCGSt: mixed-precision BiCGStab iterations ('-': not converged in %d). outer: MG-GCR iterations ('-':\n"
           "not converged, or stalled: no halving of the residual in %d K-cycles).\n"
           "coarse its/solve: GCR iterations per coarse solve on levels 1, 2, ... (1.0 on a coarsest level solved by\n"
           "its dense Schur inverse, --mg-coarse-dense). speedup: BiCGStab time / MG solve time. x%d e2e: %d\n"
           "BiCGStab solves / (MG setup + %d MG solves), a propagator's cost each way.\n",
           o->sp.max_iter, QF_MG_STALL_KCYCLES, PROPAGATOR_SOLVES, PROPAGATOR_SOLVES, PROPAGATOR_SOLVES);
}

/* Iterations and seconds against the quark mass, one panel each, BiCGStab and MG (setup apart). */
static int plot_rows(const char *picture, const bench_row *rows, int n)
{
    FILE *f = qf_app_plot_data(picture);
    if (!f) return QF_ERROR;
    fprintf(f, "m0 kappa bicgstab_iterations bicgstab_seconds mg_setup_seconds mg_iterations mg_seconds\n");
    for (int k = 0; k < n; k++) {
        const bench_row *w = &rows[k];
        fprintf(f, "%.6f %.6f ", 0.5 / w->kappa - 4.0, w->kappa);
        if (w->bicg.converged) fprintf(f, "%d %.4f ", w->bicg.iterations, w->bicg.seconds);
        else fprintf(f, "NaN NaN ");
        fprintf(f, "%.4f ", w->setup_seconds);
        if (w->mg.converged) fprintf(f, "%d %.4f\n", w->mg.iterations, w->mg.seconds);
        else fprintf(f, "NaN NaN\n");
    }
    fclose(f);
    return qf_app_plot_script(
        picture, "set terminal svg size 1200,480 dynamic noenhanced font 'sans,11'\nset output %1$s\n"
                 "set multiplot layout 1,2 title 'quarkflow bench mg'\nset grid\nset key top right\n"
                 "set datafile missing 'NaN'\nset xlabel 'bare quark mass m0'\nset logscale y\n"
                 "set ylabel 'iterations'\nplot %2$s using 1:3 with linespoints title 'mixed BiCGStab', '' using 1:6 with "
                 "linespoints title 'MG-GCR (outer)'\n"
                 "set ylabel 'time (s)'\nplot %2$s using 1:4 with linespoints title 'mixed BiCGStab', '' using 1:7 with "
                 "linespoints title 'MG solve', '' using 1:5 with linespoints title 'MG setup'\n"
                 "unset multiplot\n");
}

static int mg_bench(const bench_opts *o, const int dims[4])
{
    qf_solver_params bicg = o->sp, mg = o->sp;
    bicg.kind = QF_SOLVER_BICGSTAB;
    bicg.sloppy = QF_SINGLE;
    mg.kind = QF_SOLVER_MG;
    qf_lattice lat;
    if (qf_app_lattice(&lat, dims, o->pr.blocks, 1, &mg)) return QF_ERROR;
    printf("bench mg      mixed BiCGStab against MG-GCR, random source (seed %llu), to |b - M x| / |b| <= %.1e\n",
           (unsigned long long)o->source_seed, o->sp.tol);
    printf("lattice       %d %d %d %d, blocks %d x %d x %d x %d of %d x %d x %d x %d sites; %d CPU + %d CUDA workers "
           "(scheduler %s)\n",
           dims[0], dims[1], dims[2], dims[3], lat.blocks[0], lat.blocks[1], lat.blocks[2], lat.blocks[3], lat.block[0],
           lat.block[1], lat.block[2], lat.block[3], qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers(),
           qf_runtime_sched_name());

    int64_t vol = lat.global_volume;
    qf_field *u = NULL, *b = NULL, *x = NULL;
    double *src = malloc((size_t)vol * 24 * sizeof *src);
    bench_row rows[BENCH_MAX_KAPPA];
    int rc = !src ? qf_fail("out of host memory for a colour-spinor field") : QF_SUCCESS;
    rc = rc || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || load_gauge(o, u) ||
         qf_field_create(&b, &lat, QF_FIELD_WILSON, o->pr.p.prec, 0) ||
         qf_field_create(&x, &lat, QF_FIELD_WILSON, o->pr.p.prec, 0);
    if (!rc) {
        qf_app_random_spinor(src, vol, o->source_seed);
        rc = qf_field_import(b, src);
    }
    if (!rc) {
        qf_app_print_solver(&bicg, o->pr.p.prec, &lat);
        qf_app_print_solver(&mg, o->pr.p.prec, &lat);
    }
    int gpu = 0, device = 0;
    double ceiling = 0.0;
    rc = rc || qf_direct_path(&gpu, &device) || qf_bench_ceiling(gpu, device, qf_runtime_ncpu_workers(), &ceiling);
    int n = 0;
    for (; n < o->nkappa && !rc; n++) {
        bench_row *w = &rows[n];
        memset(w, 0, sizeof *w);
        w->kappa = o->kappa[n];
        qf_dirac_params p = o->pr.p;
        p.kappa = w->kappa;
        qf_dirac *d = NULL;
        qf_linop *M = NULL;
        printf("progress      kappa %g (m0 %.4f): mixed BiCGStab\n", w->kappa, 0.5 / w->kappa - 4.0);
        fflush(stdout);
        rc = qf_dirac_create(&d, u, &p, QF_SCHUR_ASYMMETRIC) || qf_dirac_linop(d, &M) ||
             solve_timed(M, x, b, &bicg, o->timed_solves, &w->bicg, w->bicg_range);
        if (!rc) {
            printf("progress      kappa %g: BiCGStab %d iterations, %.3f s", w->kappa, w->bicg.iterations,
                   w->bicg.seconds);
            print_range(o->timed_solves, w->bicg_range);
            printf(", residual %.2e%s; multigrid setup\n", w->bicg.residual,
                   w->bicg.converged ? "" : " (NOT converged)");
            fflush(stdout);
        }
        mg.mg = NULL;
        rc = rc || qf_app_mg_prepare(M, &mg);
        if (!rc) {
            qf_mg_get_stats(mg.mg, &w->levels);
            w->setup_seconds = w->levels.setup_seconds;
        }
        rc = rc || solve_timed(M, x, b, &mg, o->timed_solves, &w->mg, w->mg_range);
        if (!rc) {
            qf_mg_get_stats(mg.mg, &w->levels);
            printf("progress      kappa %g: MG %d outer iterations, %.3f s", w->kappa, w->mg.iterations, w->mg.seconds);
            print_range(o->timed_solves, w->mg_range);
            printf(", residual %.2e%s\n", w->mg.residual, w->mg.converged ? "" : " (NOT converged)");
            qf_app_mg_report(&mg); /* the timed solve's levels */
            fflush(stdout);
        }
        rc = rc || time_kcycle(mg.mg);
        for (int l = 1; l < w->levels.levels && !rc; l++)
            rc = time_transfer(mg.mg, l - 1, ceiling) || time_coarse_op(mg.mg, l, ceiling) ||
                 time_dense_solve(mg.mg, l, ceiling);
        if (mg.mg) qf_app_mg_release(&mg);
        qf_linop_destroy(M);
        if (d) qf_dirac_destroy(d);
        if (rc) qf_fail_context("bench mg, kappa %g", w->kappa);
    }
    if (!rc) {
        print_table(o, rows, n);
        if (o->plot) {
            rc = plot_rows(o->plot, rows, n);
            if (!rc) printf("wrote         %s\n", o->plot);
        }
    }
    if (u) qf_field_destroy(u);
    if (b) qf_field_destroy(b);
    if (x) qf_field_destroy(x);
    free(src);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_bench_mg(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    bench_opts o;
    int rc = parse(argc, argv, &o), dims[4];
    if (rc) return rc;
    if (o.plot && qf_app_check_output("--plot", o.plot)) return qf_app_error();
    if ((rc = qf_app_problem_prepare("bench mg", &o.pr, dims))) return rc;
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = qf_app_single_process("bench mg") || mg_bench(&o, dims);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
