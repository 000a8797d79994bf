/* quarkflow apply and quarkflow solve: one application of the Wilson-clover Dirac operator
 * (qf_dirac.h) as a task graph, or one solve of M x = b (qf_solver.h), on a gauge file or a generated
 * start field, with a point, random or file source; the result goes to a SciDAC/USQCD Dirac-fermion
 * file. */
#include "app.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow apply [GAUGE_FILE] [options]\n"
    "\n"
    "Applies the Wilson-clover Dirac operator (DeGrand-Rossi basis, kappa normalisation) to a source\n"
    "as a task graph, prints the norms of source and result and the time, and writes the result as a\n"
    "SciDAC/USQCD Dirac-fermion file (USQCD_D3_DiracFermion, as Chroma and QUDA read them).\n"
    "Without GAUGE_FILE the operator is built on a generated start field (default: weak field on 8^4).\n"
    "\n"
    "Gauge field:\n"
    "  --format F          input format: auto (default), nersc, milc, scidac, ildg, bridge, ddalpha\n"
    "  --dim X Y Z T       lattice extents (generated field: default 8 8 8 8; files: checked, or needed\n"
    "                      for Bridge++ text files)\n"
    "  --start cold|weak|hot  generated start field (default weak)\n"
    "  --seed S            seed of the generated field and of the random source (default 1)\n"
    "  --eps E             weak-field noise (default 0.1)\n"
    "Operator:\n"
    "  --kappa K           hopping parameter (default 0.12; mass m = 1/(2 kappa) - 4)\n"
    "  --csw C             clover coefficient (default 0: plain Wilson)\n"
    "  --bc X Y Z T        boundary condition per direction, each 'periodic', 'antiperiodic' or a real\n"
    "                      number theta meaning the phase exp(i pi theta) on hops across the boundary\n"
    "                      (0: periodic, 1: antiperiodic, 0.5: i; default periodic periodic periodic\n"
    "                      antiperiodic)\n"
    "  --op OP             M, Mdag, MdagM (full lattice), Mhat, Mhat_dag, Mhat_dag_Mhat (even-odd\n"
    "                      Schur complement on the even sites; default M)\n"
    "  --schur asym|sym    even-odd form: A_ee - kappa^2 D_eo A_oo^-1 D_oe (asym, default) or\n"
    "                      1 - kappa^2 A_ee^-1 D_eo A_oo^-1 D_oe (sym)\n"
    "  --prec double|single  precision of the operator and its fields (default double)\n"
    "  --blocks BX BY BZ BT  block grid of the task graph (default: 1 per GPU; without GPUs up to 4 per CPU worker, none under 8192 sites)\n"
    "Source and result:\n"
    "  --source SRC        point (default), random (complex Gaussian, --seed), or a FILE holding a\n"
    "                      SciDAC Dirac fermion of the lattice's size (write ./point for a file named point)\n"
    "  --point X Y Z T S C  site, spin and colour of the point source (default 0 0 0 0 0 0)\n"
    "  --out FILE          write the result (all sites; the even-odd operators leave the odd sites 0)\n"
    "  --out-prec double|single  precision written (default double)\n"
    "\n"
    "The even-odd operators read the even sites of the source only. Norms are sums of squares over\n"
    "the whole lattice (|x|^2).\n\n";

static const char solve_help[] =
    "usage: quarkflow solve [GAUGE_FILE] [options]\n"
    "\n"
    "Solves M x = b for the Wilson-clover operator with a Krylov solver whose iterations are task graphs\n"
    "(the host reads the residual only every --check-every iterations), prints the iterated residual\n"
    "as it goes, then the iterations, the true residual |b - M x| / |b|, the time and the GFLOPS of the\n"
    "operator applications, and the workers' statistics over the solve (rank 0's workers): per worker\n"
    "the tasks, the busy time (running codelets), the idle share and the tasks of each codelet kind,\n"
    "from StarPU's profiling, which is on during the solve only. --out writes the solution x.\n"
    "\n"
    "Solver:\n" QF_APP_SOLVER_HELP(QF_SOLVER_DEFAULT_MAX_ITER)
    "  --full              solve on the full lattice instead of the even-odd Schur system\n"
    "\n"
    "The gauge field, operator, source and output options are those of quarkflow apply (see\n"
    "'quarkflow apply --help'), except --op.\n\n";

typedef struct {
    int solve;                  /* quarkflow solve rather than apply */
    qf_solver_params sp;
    const char *gauge_file, *source, *out;
    qf_gauge_format format;
    int dims[4], blocks[4], point[6];
    qf_gauge_start_kind start;
    uint64_t seed;
    double eps;
    qf_dirac_params p;
    qf_schur_form form;
    qf_dirac_op op;
    int out_bits;
} apply_opts;

static const char *const op_names[] = {"M", "Mdag", "MdagM", "Mhat", "Mhat_dag", "Mhat_dag_Mhat"};

int qf_app_op_parse(const char *s, qf_dirac_op *op)
{
    for (int k = 0; k < (int)(sizeof op_names / sizeof op_names[0]); k++)
        if (!strcmp(s, op_names[k])) {
            *op = (qf_dirac_op)k;
            return 0;
        }
    return -1;
}

int qf_app_schur(const char *command, int argc, char **argv, int *i, qf_schur_form *form)
{
    const char *v = *i + 1 < argc ? argv[*i + 1] : "";
    if (!strcmp(v, "asym") || !strcmp(v, "asymmetric")) *form = QF_SCHUR_ASYMMETRIC;
    else if (!strcmp(v, "sym") || !strcmp(v, "symmetric")) *form = QF_SCHUR_SYMMETRIC;
    else return qf_app_usage_error(command, "--schur needs asym or sym%s%s%s", *v ? ", not '" : "", v, *v ? "'" : "");
    *i += 1;
    return 0;
}

int qf_app_dirac_option(const char *command, int argc, char **argv, int *i, qf_dirac_params *p, qf_schur_form *form)
{
    const char *a = argv[*i];
    int rc;
    if (!strcmp(a, "--kappa")) {
        rc = qf_app_double(command, argc, argv, i, &p->kappa);
        if (!rc && !(p->kappa > 0.0))
            return qf_app_usage_error(command, "--kappa %g: the hopping parameter must be positive", p->kappa);
        return rc;
    }
    if (!strcmp(a, "--csw")) {
        rc = qf_app_double(command, argc, argv, i, &p->csw);
        if (!rc && p->csw < 0.0) return qf_app_usage_error(command, "--csw %g: the clover coefficient must be >= 0", p->csw);
        return rc;
    }
    if (!strcmp(a, "--prec")) {
        if (*i + 1 >= argc || qf_precision_parse(argv[*i + 1], &p->prec))
            return qf_app_usage_error(command, "--prec needs double or single");
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--bc")) return qf_app_bc(command, argc, argv, i, p->phase);
    if (form && !strcmp(a, "--schur")) return qf_app_schur(command, argc, argv, i, form);
    return QF_APP_NOT_AN_OPERATOR_OPTION;
}

/* exp(i pi theta), exact where theta is a multiple of 1/2 */
static void phase_of(double theta, double z[2])
{
    double t = fmod(theta, 2.0);
    if (t < 0) t += 2.0;
    if (t == 0.0) z[0] = 1.0, z[1] = 0.0;
    else if (t == 0.5) z[0] = 0.0, z[1] = 1.0;
    else if (t == 1.0) z[0] = -1.0, z[1] = 0.0;
    else if (t == 1.5) z[0] = 0.0, z[1] = -1.0;
    else z[0] = cos(3.14159265358979323846 * t), z[1] = sin(3.14159265358979323846 * t);
}

int qf_app_bc(const char *command, int argc, char **argv, int *i, double phase[4][2])
{
    if (*i + 4 >= argc) return qf_app_usage_error(command, "--bc needs four values (X Y Z T)");
    static const char dir[4] = {'x', 'y', 'z', 't'};
    for (int mu = 0; mu < 4; mu++) {
        const char *v = argv[*i + 1 + mu];
        char *end;
        if (!strcmp(v, "periodic")) {
            phase_of(0.0, phase[mu]);
        } else if (!strcmp(v, "antiperiodic")) {
            phase_of(1.0, phase[mu]);
        } else {
            double theta = strtod(v, &end);
            if (end == v || *end || !isfinite(theta))
                return qf_app_usage_error(command,
                                          "--bc: '%s' (direction %c) is not 'periodic', 'antiperiodic' or a number "
                                          "theta (phase exp(i pi theta))",
                                          v, dir[mu]);
            phase_of(theta, phase[mu]);
        }
    }
    *i += 4;
    return 0;
}

void qf_app_print_operator(const qf_dirac_params *p, qf_schur_form form)
{
    printf("operator      Wilson%s, kappa %g (mass %.6g), c_sw %g, even-odd form %s\n", p->csw != 0.0 ? "-clover" : "",
           p->kappa, 0.5 / p->kappa - 4.0, p->csw, form == QF_SCHUR_SYMMETRIC ? "symmetric" : "asymmetric");
    printf("boundary      ");
    static const char dir[4] = {'x', 'y', 'z', 't'};
    for (int mu = 0; mu < 4; mu++) {
        const double *z = p->phase[mu];
        if (z[0] == 1.0 && z[1] == 0.0) printf("%c periodic", dir[mu]);
        else if (z[0] == -1.0 && z[1] == 0.0) printf("%c antiperiodic", dir[mu]);
        else printf("%c (%.6g, %.6g)", dir[mu], z[0], z[1]);
        printf(mu < 3 ? ", " : "\n");
    }
}

static int parse(int argc, char **argv, apply_opts *o, int solve)
{
    memset(o, 0, sizeof *o);
    o->solve = solve;
    o->sp = qf_app_solver_defaults();
    o->sp.verbose = 1;
    o->start = QF_START_WEAK;
    o->seed = 1;
    o->eps = 0.1;
    o->p = qf_dirac_default_params(0.12);
    o->form = QF_SCHUR_ASYMMETRIC;
    o->op = QF_OP_M;
    o->source = "point";
    o->out_bits = 64;
    const char *cmd = solve ? "solve" : "apply";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if (solve && (op_rc = qf_app_solver_option(cmd, argc, argv, &i, &o->sp)) != QF_APP_NOT_A_SOLVER_OPTION) {
            rc = op_rc;
        } else if (solve && !strcmp(a, "--full")) {
            o->sp.even_odd = 0;
        } else if (solve && !strcmp(a, "--op")) {
            return qf_app_usage_error(cmd, "--op belongs to quarkflow apply: solve always solves M x = b");
        } else if ((op_rc = qf_app_dirac_option(cmd, argc, argv, &i, &o->p, &o->form)) != QF_APP_NOT_AN_OPERATOR_OPTION) {
            rc = op_rc;
        } else if (!strcmp(a, "--format")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "%s needs a value", a);
            if (qf_gauge_format_parse(argv[++i], &o->format)) return qf_app_usage_error(cmd, "%s", qf_last_error());
        } else if (!strcmp(a, "--dim")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        } else if (!strcmp(a, "--out-prec")) {
            qf_precision p;
            if (i + 1 >= argc || qf_precision_parse(argv[i + 1], &p))
                return qf_app_usage_error(cmd, "%s needs double or single", a);
            i++;
            o->out_bits = p == QF_DOUBLE ? 64 : 32;
        } else if (!strcmp(a, "--start")) {
            if (i + 1 >= argc || qf_gauge_start_parse(argv[i + 1], &o->start))
                return qf_app_usage_error(cmd, "--start needs cold, weak or hot");
            i++;
        } else if (!strcmp(a, "--seed")) {
            rc = qf_app_u64(cmd, argc, argv, &i, &o->seed);
        } else if (!strcmp(a, "--eps")) {
            rc = qf_app_double(cmd, argc, argv, &i, &o->eps);
        } else if (!strcmp(a, "--op")) {
            if (i + 1 >= argc || qf_app_op_parse(argv[i + 1], &o->op))
                return qf_app_usage_error(cmd, "--op '%s' is not one of M, Mdag, MdagM, Mhat, Mhat_dag, Mhat_dag_Mhat",
                                          i + 1 < argc ? argv[i + 1] : "");
            i++;
        } else if (!strcmp(a, "--source")) {
            if (i + 1 >= argc || !argv[i + 1][0])
                return qf_app_usage_error(cmd, "--source needs point, random or a file name");
            o->source = argv[++i];
        } else if (!strcmp(a, "--point")) {
            if (i + 6 >= argc) return qf_app_usage_error(cmd, "--point needs six values: X Y Z T SPIN COLOUR");
            for (int k = 0; k < 6 && !rc; k++) {
                int j = i + k;
                rc = qf_app_int(cmd, argc, argv, &j, &o->point[k]);
                if (!rc && o->point[k] < 0)
                    return qf_app_usage_error(cmd, "--point: '%s' is negative", argv[i + 1 + k]);
            }
            i += 6;
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
    if (o->point[4] > 3) return qf_app_usage_error(cmd, "--point: spin %d is not 0..3", o->point[4]);
    if (o->point[5] > 2) return qf_app_usage_error(cmd, "--point: colour %d is not 0..2", o->point[5]);
    return solve ? qf_app_solver_check(cmd, &o->sp, o->p.prec) : 0;
}

/* |v|^2 of a field held in parts (this process's sites, qf_field_export_local's order), summed over
 * the processes; even_only: the even sites only. */
static double norm2(const double *v, const qf_lattice *lat, int even_only)
{
    double s = 0.0;
    for (int64_t i = 0; i < lat->local_volume; i++) {
        if (even_only) {
            int x[4];
            qf_lex_coords(qf_lattice_local_to_global(lat, i), lat->global, x);
            if (qf_parity(x)) continue;
        }
        for (int k = 0; k < 24; k++) s += v[24 * i + k] * v[24 * i + k];
    }
    qf_runtime_sum_doubles(&s, 1);
    return s;
}

/* Builds this process's part of the source. */
static int make_source(const apply_opts *o, const qf_lattice *lat, double *src)
{
    int64_t vol = lat->local_volume;
    memset(src, 0, (size_t)vol * 24 * sizeof *src);
    if (!strcmp(o->source, "point")) {
        int64_t at = qf_lex_index(o->point, lat->global);
        for (int64_t i = 0; i < vol; i++)
            if (qf_lattice_local_to_global(lat, i) == at) src[i * 24 + (o->point[4] * 3 + o->point[5]) * 2] = 1.0;
        printf("source        point at (%d, %d, %d, %d), spin %d, colour %d\n", o->point[0], o->point[1], o->point[2],
               o->point[3], o->point[4], o->point[5]);
        return QF_SUCCESS;
    }
    if (!strcmp(o->source, "random")) {
        qf_app_random_spinor_local(src, lat, o->seed);
        printf("source        random complex Gaussian, seed %llu\n", (unsigned long long)o->seed);
        return QF_SUCCESS;
    }
    int bits;
    double *psi;
    if (qf_dirac_fermion_read_local(lat, o->source, &psi, &bits))
        return qf_fail_context("--source %s (the source must be a SciDAC Dirac fermion of the gauge field's lattice)",
                               o->source);
    memcpy(src, psi, (size_t)vol * 24 * sizeof *src);
    free(psi);
    printf("source        %s (SciDAC Dirac fermion, %d-bit)\n", o->source, bits);
    return QF_SUCCESS;
}

/* --out: every process writes its part of the solution or result. */
static int write_result(const apply_opts *o, const qf_field *out, const char *what)
{
    int rc = qf_field_save_dirac_fermion(out, o->out, o->out_bits);
    if (!rc)
        printf("wrote         %s (%s; SciDAC USQCD_%c3_DiracFermion, %d-bit)\n", o->out, what, o->out_bits == 32 ? 'F' : 'D',
               o->out_bits);
    return rc;
}

static void print_gauge_file(const char *path, const qf_gauge_info *g)
{
    printf("gauge         %s (%s, %d-bit), lattice %d %d %d %d, plaquette %.16f\n", path, qf_gauge_format_name(g->format),
           g->precision_bits, g->dims[0], g->dims[1], g->dims[2], g->dims[3], g->plaquette);
    qf_app_gauge_warning(path, g);
}

static int run(const apply_opts *o, const int dims[4])
{
    qf_lattice lat;
    qf_field *u = NULL, *in = NULL, *out = NULL;
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    qf_gauge_info g;
    double *src = NULL, *res = NULL;
    int rc = qf_app_lattice(&lat, dims, o->blocks, 1);
    if (!rc) {
        src = malloc((size_t)lat.local_volume * 24 * sizeof *src);
        res = calloc((size_t)lat.local_volume * 24, sizeof *res);
        if (!src || !res)
            rc = qf_fail("out of host memory for two colour-spinor fields of %lld sites", (long long)lat.local_volume);
    }
    rc = rc || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
         (o->gauge_file ? qf_gauge_load(u, o->gauge_file, o->format, &g) : qf_gauge_start(u, o->start, o->seed, o->eps));
    if (!rc && o->gauge_file) print_gauge_file(o->gauge_file, &g);
    rc = rc || make_source(o, &lat, src);
    double t_build = qf_wtime();
    rc = rc || qf_dirac_create(&d, u, &o->p, o->form);
    if (!rc) qf_runtime_wait_all();
    t_build = qf_wtime() - t_build;
    if (u) qf_field_destroy(u);
    rc = rc || qf_field_create(&in, &lat, QF_FIELD_WILSON, o->p.prec, 0) ||
         qf_field_create(&out, &lat, QF_FIELD_WILSON, o->p.prec, 0) || qf_field_import_local(in, src);
    double t_apply = 0.0;
    qf_solver_result sr;
    if (!rc && o->solve) {
        qf_runtime_wait_all();
        qf_app_print_operator(&o->p, o->form);
        qf_app_print_solver(&o->sp, o->p.prec);
        fflush(stdout);
        qf_runtime_stats *stats = NULL;
        rc = qf_blas_axpby(0.0, NULL, 0.0, out, -1) || qf_runtime_stats_begin();
        if (!rc) {
            /* the interval ends also after a failed solve, so that profiling is off again */
            qf_runtime_trace_begin();
            rc = qf_dirac_linop(d, &M) || qf_solve(M, out, in, &o->sp, &sr);
            qf_runtime_trace_end();
            rc = qf_runtime_stats_end(&stats) || rc;
        }
        if (!rc) {
            printf("solved        %d iterations, %d high-precision updates, true residual |b - M x| / |b| = %.3e, "
                   "%.3f s, %.2f GFLOPS\n",
                   sr.iterations, sr.updates, sr.residual, sr.seconds, sr.flops / sr.seconds * 1e-9);
            if (qf_runtime_rank() == 0) qf_runtime_stats_print(stats, stdout);
        }
        qf_runtime_stats_free(stats);
    } else if (!rc) {
        qf_runtime_wait_all();
        t_apply = qf_wtime();
        rc = qf_dirac_apply(d, o->op, out, in);
        qf_runtime_wait_all();
        t_apply = qf_wtime() - t_apply;
    }
    rc = rc || qf_field_export_local(out, res);
    if (!rc && o->solve) {
        printf("|x|^2         %.15e\n", norm2(res, &lat, 0));
        if (o->out) rc = write_result(o, out, "the solution");
    } else if (!rc) {
        int eo = o->op >= QF_OP_MHAT;
        qf_app_print_operator(&o->p, o->form);
        printf("task graph    %s precision, blocks %d x %d x %d x %d of %d x %d x %d x %d sites, %d CPU + %d CUDA workers\n",
               qf_precision_name(o->p.prec), lat.blocks[0], lat.blocks[1], lat.blocks[2], lat.blocks[3], lat.block[0],
               lat.block[1], lat.block[2], lat.block[3], qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
        printf("op            %s%s\n", qf_dirac_op_name(o->op),
               eo ? " (even-odd: reads and writes the even sites)" : " (full lattice)");
        printf("|source|^2    %.15e", norm2(src, &lat, 0));
        if (eo) printf("   (even sites %.15e)", norm2(src, &lat, 1));
        printf("\n|result|^2    %.15e\n", norm2(res, &lat, 0));
        double flops = qf_dirac_flops(d, o->op);
        printf("time          %.3f ms for the application (%.3g flops, %.2f GFLOPS); operator built in %.3f s\n",
               1e3 * t_apply, flops, flops / t_apply * 1e-9, t_build);
        if (o->out) rc = write_result(o, out, "the result");
    }
    qf_linop_destroy(M);
    if (d) qf_dirac_destroy(d);
    if (in) qf_field_destroy(in);
    if (out) qf_field_destroy(out);
    free(src);
    free(res);
    return rc ? QF_ERROR : QF_SUCCESS;
}

static int command(int argc, char **argv, int solve)
{
    if (qf_app_help_requested(argc, argv, 1, solve ? solve_help : help)) return 0;
    apply_opts o;
    int rc = parse(argc, argv, &o, solve);
    if (rc) return rc;
    if (o.out && qf_app_check_output("--out", o.out)) return qf_app_error();
    int dims[4] = {8, 8, 8, 8};
    if (o.gauge_file) { /* the lattice now; the links once the processes run (each reads its part) */
        qf_gauge_info g;
        if (qf_gauge_read_header(o.gauge_file, o.format, o.dims, &g)) return qf_app_error();
        memcpy(dims, g.dims, sizeof dims);
    } else {
        if (o.dims[0]) memcpy(dims, o.dims, sizeof dims);
        char noise[64] = "";
        if (o.start == QF_START_WEAK) snprintf(noise, sizeof noise, " (eps %g)", o.eps);
        printf("gauge         generated %s start field%s, seed %llu, lattice %d %d %d %d\n", qf_gauge_start_name(o.start),
               noise, (unsigned long long)o.seed, dims[0], dims[1], dims[2], dims[3]);
    }
    for (int mu = 0; mu < 4 && !strcmp(o.source, "point"); mu++)
        if (o.point[mu] >= dims[mu]) {
            return qf_app_usage_error(solve ? "solve" : "apply", "--point: coordinate %d of direction %c is outside the %d %d %d %d lattice",
                                      o.point[mu], "xyzt"[mu], dims[0], dims[1], dims[2], dims[3]);
        }
    qf_app.runtime.trace_window = solve; /* a solve's trace holds the solve only */
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = run(&o, dims);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}

int qf_cmd_apply(int argc, char **argv) { return command(argc, argv, 0); }
int qf_cmd_solve(int argc, char **argv) { return command(argc, argv, 1); }
