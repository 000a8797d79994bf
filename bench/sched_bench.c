/* quarkflow bench sched: one workload (a solve, a propagator's 12 solves, applications of Mhat, a
 * multigrid solve with its setup, or quenched gauge generation)
 * under a list of StarPU scheduling policies, StarPU restarted for each (a policy is chosen at
 * start-up). Each policy's runtime first runs the workload to calibrate StarPU's history-based
 * performance models (the dm* policies plan with them) and says whether they are calibrated; then
 * one run is measured with the workers' statistics: time, iterations, tasks per worker type, busy
 * and idle shares per worker type, bytes moved between memory nodes, and whether the result matches
 * the first policy's. The table is printed in Markdown and written as CSV and Markdown on request. */
#include "app.h"
#include "qf_bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow bench sched [options]\n"
    "\n"
    "Runs the same workload (by default a solve of M x = b: even-odd Wilson-clover, weak-field gauge\n"
    "field, random source) under each scheduling policy of a list, restarting StarPU for each: warm-up\n"
    "runs calibrate the performance models (the table says when they are not: StarPU still\n"
    "calibrating kernel sizes during the measured run), then one measured run. Columns: policy, time,\n"
    "iterations (of all the solves; applications for dslash), tasks on CPU and CUDA workers, their\n"
    "idle shares, GB moved between memory nodes, models, and |x|^2 against the first policy's.\n"
    "\n"
    "Options:\n"
    "  --policies LIST     comma-separated StarPU policies (default eager,prio,random,ws,lws,dm,dmda,\n"
    "                      dmdar,dmdas,heteroprio; heteroprio runs on CPU workers only); 'default' is\n"
    "                      the policy quarkflow picks when none is given (dmdas with CUDA workers,\n"
    "                      eager without)\n"
    "  --dim X Y Z T       lattice (default 16 16 16 16)\n"
    "  --blocks BX BY BZ BT  block grid (default: 1 per GPU; without GPUs up to 4 per CPU worker, none under 8192 sites)\n"
    "  --workload W[,W..]  solve (default: one solve of a random source), propagator (the 12 solves of\n"
    "                      a point source and their pion and rho contraction), dslash (--applications\n"
    "                      N of Mhat, default 100), mg (the solve by multigrid, as --solver mg: each\n"
    "                      policy builds its hierarchy first, which the warm-up runs and the measured\n"
    "                      one reuse; the --mg-* options apply) or gauge (--sweeps N, default 20, of\n"
    "                      heatbath + 4 overrelaxation at beta 6.0 from a cold start, as propagator\n"
    "                      generates its field; iterations are sweeps, |x|^2 the plaquette); a list\n"
    "                      runs each in turn, a table each\n"
    "  --versus-ncpu N     also run each policy and workload with N CPU workers (0: the GPUs alone) and\n"
    "                      print the time against that reference: the regression guard of a mixed node,\n"
    "                      whose default must not be slower than its GPUs alone (bench/RESULTS.md)\n"
    "  --max-ratio R       with --versus-ncpu: fail (exit 1) when a time exceeds R times the reference's\n"
    "  --warmup-solves N   calibrating runs of the workload before the measured one (default 2)\n"
    "  --seed S            seed of the gauge field and the source (default 1)\n"
    "  --csv FILE, --md FILE  also write the table as CSV / Markdown\n"
    "  --plot FILE.svg     bar charts of the time to solution and the idle shares per policy (gnuplot;\n"
    "                      FILE.svg.dat and FILE.svg.gp stay beside it)\n"
    "  --kappa K, --csw C, --prec P, --bc X Y Z T, --recon R, --recon-sloppy R   the operator (default\n"
    "                      kappa 0.125, c_sw 1.0, whole links)\n"
    "  and solve's solver options (--solver, --sloppy, --tol, ...; default BiCGStab to 1e-10)\n"
    "\n"
    "--ncpu and --ncuda choose the workers as for every command; --trace is refused here (trace one\n"
    "policy with 'quarkflow --sched NAME --trace DIR bench solver'). Results: bench/RESULTS.md.\n\n";

#define MAX_POLICIES 16

typedef enum { WORKLOAD_SOLVE = 0, WORKLOAD_PROPAGATOR, WORKLOAD_DSLASH, WORKLOAD_MG, WORKLOAD_GAUGE } workload_kind;
static const char *const workload_names[] = {"solve", "propagator", "dslash", "mg", "gauge"};
#define NWORKLOADS ((int)(sizeof workload_names / sizeof *workload_names))

typedef struct {
    char list[256];
    const char *policy[MAX_POLICIES];
    int npolicy, dims[4], blocks[4], warmup, applications, sweeps;
    workload_kind workload[NWORKLOADS];
    int nworkload, versus_ncpu; /* versus_ncpu < 0: no reference run */
    double max_ratio;           /* 0: none */
    uint64_t seed;
    const char *csv, *md, *plot;
    qf_dirac_params p;
    qf_schur_form form;
    qf_solver_params sp;
} sched_opts;

typedef struct {
    const char *policy;
    int ok;               /* the policy started and the solve converged */
    double setup_seconds; /* the multigrid hierarchy's, where the solver is mg */
    char error[320];
    qf_solver_result r;   /* r.iterations and r.seconds: of the whole measured workload */
    double reference_seconds; /* the same with --versus-ncpu's workers (< 0: not run or failed) */
    long tasks_cpu, tasks_cuda;
    double idle_cpu, idle_cuda, gbytes, x2;
    int uncalibrated;     /* model entries StarPU was still calibrating in the measured run */
} sched_row;

static int parse(int argc, char **argv, sched_opts *o)
{
    memset(o, 0, sizeof *o);
    o->dims[0] = o->dims[1] = o->dims[2] = o->dims[3] = 16;
    o->warmup = 2;
    o->applications = 100;
    o->sweeps = 20;
    o->versus_ncpu = -1;
    o->seed = 1;
    o->p = qf_dirac_default_params(0.125);
    o->p.csw = 1.0;
    o->form = QF_SCHUR_ASYMMETRIC;
    o->sp = qf_app_solver_defaults();
    snprintf(o->list, sizeof o->list, "eager,prio,random,ws,lws,dm,dmda,dmdar,dmdas,heteroprio");
    const char *cmd = "bench sched";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0, op_rc;
        if (!strcmp(a, "--policies")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "--policies needs a comma-separated list");
            snprintf(o->list, sizeof o->list, "%s", argv[++i]);
        } else if ((op_rc = qf_app_solver_option(cmd, argc, argv, &i, &o->sp)) != QF_APP_NOT_A_SOLVER_OPTION) {
            rc = op_rc;
        } else if ((op_rc = qf_app_dirac_option(cmd, argc, argv, &i, &o->p, &o->form)) != QF_APP_NOT_AN_OPERATOR_OPTION) {
            rc = op_rc;
        } else if (!strcmp(a, "--dim")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        } else if (!strcmp(a, "--workload")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "--workload needs solve, propagator, dslash, mg or gauge");
            char list[128];
            snprintf(list, sizeof list, "%s", argv[++i]);
            o->nworkload = 0;
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                int k = 0;
                while (k < NWORKLOADS && strcmp(tok, workload_names[k])) k++;
                if (k == NWORKLOADS || o->nworkload == NWORKLOADS)
                    return qf_app_usage_error(cmd, "--workload '%s': give up to %d of solve, propagator, dslash, mg or gauge",
                                              argv[i], NWORKLOADS);
                o->workload[o->nworkload++] = (workload_kind)k;
            }
        } else if (!strcmp(a, "--versus-ncpu")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->versus_ncpu);
            if (!rc && o->versus_ncpu < 0) return qf_app_usage_error(cmd, "--versus-ncpu %d: 0 or more", o->versus_ncpu);
        } else if (!strcmp(a, "--max-ratio")) {
            rc = qf_app_double(cmd, argc, argv, &i, &o->max_ratio);
            if (!rc && !(o->max_ratio > 0.0)) return qf_app_usage_error(cmd, "--max-ratio %g: give a positive ratio", o->max_ratio);
        } else if (!strcmp(a, "--applications")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->applications);
            if (!rc && o->applications < 1) return qf_app_usage_error(cmd, "--applications %d: at least 1", o->applications);
        } else if (!strcmp(a, "--sweeps")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->sweeps);
            if (!rc && o->sweeps < 1) return qf_app_usage_error(cmd, "--sweeps %d: at least 1", o->sweeps);
        } else if (!strcmp(a, "--warmup-solves")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->warmup);
            if (!rc && o->warmup < 0) return qf_app_usage_error(cmd, "--warmup-solves %d: 0 or more", o->warmup);
        } else if (!strcmp(a, "--seed")) {
            rc = qf_app_u64(cmd, argc, argv, &i, &o->seed);
        } else if (!strcmp(a, "--csv") || !strcmp(a, "--md") || !strcmp(a, "--plot")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "%s needs a file name", a);
            const char **dst = a[2] == 'c' ? &o->csv : a[2] == 'm' ? &o->md : &o->plot;
            *dst = argv[++i];
        } else {
            return qf_app_usage_error(cmd, "%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument", a);
        }
        if (rc) return rc;
    }
    for (char *tok = strtok(o->list, ","); tok; tok = strtok(NULL, ",")) {
        if (o->npolicy == MAX_POLICIES) return qf_app_usage_error(cmd, "--policies: at most %d policies", MAX_POLICIES);
        if (strcmp(tok, "default") && qf_runtime_check_sched(tok))
            return qf_app_usage_error(cmd, "--policies: %s", qf_last_error());
        o->policy[o->npolicy++] = tok;
    }
    if (!o->npolicy) return qf_app_usage_error(cmd, "--policies: give at least one policy");
    if (!o->nworkload) o->workload[o->nworkload++] = WORKLOAD_SOLVE;
    if (o->max_ratio > 0.0 && o->versus_ncpu < 0) return qf_app_usage_error(cmd, "--max-ratio needs --versus-ncpu");
    int rc = qf_app_solver_check(cmd, &o->sp, o->p.prec);
    if (rc) return rc;
    if (qf_app.runtime.trace_dir)
        return qf_app_usage_error(cmd, "--trace: bench sched restarts StarPU for every policy; trace one policy with "
                                       "'quarkflow --sched NAME --trace DIR bench solver'");
    return 0;
}

/* The workload once: a solve of the random source; a propagator (the 12 point-source solves of the
 * spin-colour sources at the origin into col, and their contraction, as the propagator command);
 * `applications` chained applications of Mhat; or `sweeps` quenched updates of g from a cold start.
 * iterations and |x|^2 (summed over the propagator's solves; the plaquette of the generated field)
 * are what the policies must agree on. */
static int workload(const sched_opts *o, workload_kind w, qf_solver_params *sp, qf_dirac *d, qf_linop *M, qf_field *b,
                    qf_field *x, qf_field *const col[12], qf_field *g, qf_scalar *x2, int *iterations, double *norm)
{
    double re, im;
    qf_solver_result r;
    *iterations = 0;
    *norm = 0.0;
    if (w == WORKLOAD_GAUGE) {
        qf_update_params up = {.beta = 6.0, .or_steps = 4, .seed = o->seed};
        qf_gauge_observables obs;
        int rc = qf_gauge_start(g, QF_START_COLD, o->seed, 0.0) || qf_gauge_update(g, &up, 0, o->sweeps) ||
                 qf_gauge_measure(g, &obs);
        *iterations = o->sweeps;
        *norm = rc ? 0.0 : obs.plaquette;
        return rc;
    }
    if (w == WORKLOAD_DSLASH) {
        int rc = QF_SUCCESS;
        for (int k = 0; k < o->applications && !rc; k++) rc = qf_dirac_apply(d, QF_OP_MHAT, x, b);
        *iterations = o->applications;
        return rc || qf_blas_norm2(x2, x, 0) || qf_scalar_get(x2, norm, &im) ? QF_ERROR : QF_SUCCESS;
    }
    int nsolves = w == WORKLOAD_PROPAGATOR ? 12 : 1;
    for (int s = 0; s < nsolves; s++) {
        static const int origin[4] = {0, 0, 0, 0};
        if (w == WORKLOAD_PROPAGATOR && qf_field_point(b, origin, 2 * s)) return QF_ERROR; /* spin s / 3, colour s % 3 */
        qf_field *sol = w == WORKLOAD_PROPAGATOR ? col[s] : x;
        if (qf_blas_axpby(0.0, NULL, 0.0, sol, -1) || qf_solve(M, sol, b, sp, &r) || qf_blas_norm2(x2, sol, -1) ||
            qf_scalar_get(x2, &re, &im))
            return QF_ERROR;
        *iterations += r.iterations;
        *norm += re;
    }
    if (w != WORKLOAD_PROPAGATOR) return QF_SUCCESS;
    double *c = malloc(2 * (size_t)o->dims[3] * sizeof *c);
    int rc = !c ? qf_fail("out of host memory for the correlators") : qf_meson_correlators(col, 0, c, c + o->dims[3]);
    free(c);
    return rc;
}

/* One policy and workload: StarPU started with it (ncpu >= 0: that many CPU workers), the multigrid
 * setup where the solver is mg, the warm-up runs, the measured run, StarPU stopped. */
static void run_policy(const sched_opts *o, workload_kind w, int ncpu, sched_row *row)
{
    qf_runtime_options ro = qf_app.runtime;
    ro.sched = strcmp(row->policy, "default") ? row->policy : NULL;
    if (ncpu >= 0) ro.ncpu = ncpu;
    if (qf_runtime_init(&ro, NULL, NULL) || qf_app_single_process("bench sched")) {
        snprintf(row->error, sizeof row->error, "%s", qf_last_error());
        qf_runtime_shutdown();
        return;
    }
    qf_lattice lat;
    qf_field *u = NULL, *b = NULL, *x = NULL, *g = NULL, *col[12] = {NULL};
    qf_dirac *d = NULL;
    qf_linop *M = NULL;
    qf_scalar *x2 = NULL;
    qf_runtime_stats *stats = NULL;
    int64_t vol = (int64_t)o->dims[0] * o->dims[1] * o->dims[2] * o->dims[3];
    double *src = malloc((size_t)vol * 24 * sizeof *src);
    int rc = !src ? qf_fail("out of host memory for a colour-spinor field") : QF_SUCCESS;
    rc = rc || qf_app_lattice_spread(&lat, o->dims, o->blocks, 1) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
         qf_gauge_start(u, QF_START_WEAK, o->seed, 0.1) || qf_dirac_create(&d, u, &o->p, o->form) || qf_dirac_linop(d, &M) ||
         qf_field_create(&b, &lat, QF_FIELD_WILSON, o->p.prec, 0) ||
         qf_field_create(&x, &lat, QF_FIELD_WILSON, o->p.prec, 0) || qf_scalar_create(&x2) ||
         (w == WORKLOAD_GAUGE && qf_field_create(&g, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0));
    for (int k = 0; k < 12 && !rc && w == WORKLOAD_PROPAGATOR; k++)
        rc = qf_field_create_scratch(&col[k], &lat, QF_FIELD_WILSON, o->p.prec);
    if (!rc) qf_app_random_spinor(src, vol, o->seed);
    rc = rc || qf_field_import(b, src);
    qf_solver_params sp = o->sp;
    if (w == WORKLOAD_MG) sp.kind = QF_SOLVER_MG;
    if (!rc && sp.kind == QF_SOLVER_MG) {
        double t0 = qf_wtime();
        rc = qf_app_mg_prepare(M, &sp);
        row->setup_seconds = qf_wtime() - t0;
    }
    int iterations;
    double norm;
    for (int k = 0; k < o->warmup && !rc; k++) rc = workload(o, w, &sp, d, M, b, x, col, g, x2, &iterations, &norm);
    if (sp.mg) qf_mg_reset_stats(sp.mg); /* the per-level report below: the measured run's */
    if (w != WORKLOAD_PROPAGATOR) rc = rc || qf_field_import(b, src); /* the same source again */
    rc = rc || qf_runtime_stats_begin();
    if (!rc) {
        rc = workload(o, w, &sp, d, M, b, x, col, g, x2, &row->r.iterations, &row->x2);
        rc = qf_runtime_stats_end(&stats) || rc;
    }
    if (!rc) {
        row->r.seconds = qf_runtime_stats_seconds(stats);
        row->ok = 1;
        row->tasks_cpu = qf_runtime_stats_kind_tasks(stats, QF_WORKER_CPU);
        row->tasks_cuda = qf_runtime_stats_kind_tasks(stats, QF_WORKER_CUDA);
        row->idle_cpu = qf_runtime_stats_idle_fraction(stats, QF_WORKER_CPU);
        row->idle_cuda = qf_runtime_stats_idle_fraction(stats, QF_WORKER_CUDA);
        row->gbytes = qf_runtime_stats_bytes_moved(stats) * 1e-9;
        row->uncalibrated = qf_runtime_stats_calibrating(stats);
    } else {
        snprintf(row->error, sizeof row->error, "%s", qf_last_error());
    }
    qf_runtime_stats_free(stats);
    if (!rc) qf_app_mg_report(&sp); /* where each level's tasks ran under this policy */
    qf_app_mg_release(&sp);
    if (x2) qf_scalar_destroy(x2);
    qf_linop_destroy(M);
    if (d) qf_dirac_destroy(d);
    qf_field *f[4] = {u, b, x, g};
    for (int k = 0; k < 4; k++)
        if (f[k]) qf_field_destroy(f[k]);
    for (int k = 0; k < 12; k++)
        if (col[k]) qf_field_destroy(col[k]);
    free(src);
    qf_runtime_shutdown();
}

static void print_share(FILE *f, double v, int csv)
{
    if (v < 0) fprintf(f, csv ? "," : " | -");
    else fprintf(f, csv ? ",%.1f" : " | %.1f%%", 100.0 * v);
}

/* The reference column of a row: its time against the same run with --versus-ncpu's workers. */
static void print_reference(FILE *f, const sched_row *r, int csv)
{
    if (r->reference_seconds > 0.0)
        fprintf(f, csv ? ",%.4f,%.3f" : " | %.3f | %.2f", r->reference_seconds, r->r.seconds / r->reference_seconds);
    else fprintf(f, csv ? ",," : " | failed | -");
}

/* The table, as Markdown (csv 0) or CSV (csv 1); versus_ncpu >= 0 adds the reference's columns. */
static void table(FILE *f, const sched_row *rows, int n, int csv, int versus_ncpu)
{
    int versus = versus_ncpu >= 0;
    fprintf(f, csv ? "policy,seconds,iterations,tasks_cpu,tasks_cuda,idle_cpu_percent,idle_cuda_percent,gbytes_moved,"
                     "models,x2,x2_rel_diff_to_first%s\n"
                   : "| policy | time s | iterations | tasks CPU | tasks CUDA | CPU idle | CUDA idle | GB moved | models | "
                     "|x|^2 vs first |%s\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |%s\n",
            !versus ? "" : csv ? ",reference_seconds,ratio_to_reference" : " reference s | time / reference |",
            !versus || csv ? "" : " --- | --- |");
    const sched_row *ref = NULL;
    for (int k = 0; k < n && !ref; k++)
        if (rows[k].ok) ref = &rows[k];
    for (int k = 0; k < n; k++) {
        const sched_row *r = &rows[k];
        if (!r->ok) {
            if (csv) fprintf(f, "%s,,,,,,,,,,\"failed: %s\"%s\n", r->policy, r->error, versus ? ",," : "");
            else fprintf(f, "| %s | failed: %s | | | | | | | | |%s\n", r->policy, r->error, versus ? " | |" : "");
            continue;
        }
        double diff = fabs(r->x2 - ref->x2) / ref->x2;
        fprintf(f, csv ? "%s,%.4f,%d,%ld,%ld" : "| %s | %.3f | %d | %ld | %ld", r->policy, r->r.seconds, r->r.iterations,
                r->tasks_cpu, r->tasks_cuda);
        print_share(f, r->idle_cpu, csv);
        print_share(f, r->idle_cuda, csv);
        char models[48];
        if (r->uncalibrated) snprintf(models, sizeof models, "%d sizes calibrating", r->uncalibrated);
        else snprintf(models, sizeof models, "calibrated");
        if (csv) fprintf(f, ",%.3f,%s,%.15e,%.1e", r->gbytes, models, r->x2, diff);
        else fprintf(f, " | %.3f | %s | %s (%.0e)", r->gbytes, models, diff <= 1e-9 ? "same" : "DIFFERS", diff);
        if (versus) print_reference(f, r, csv);
        fprintf(f, csv ? "\n" : " |\n");
    }
}

/* Bars per policy: the time to solution, and the CPU and CUDA workers' idle shares. */
static int plot_rows(const char *picture, const sched_row *rows, int n)
{
    FILE *f = qf_app_plot_data(picture);
    if (!f) return QF_ERROR;
    fprintf(f, "policy seconds cpu_idle_percent cuda_idle_percent\n");
    for (int k = 0; k < n; k++)
        if (rows[k].ok)
            fprintf(f, "%s %.4f %.1f %.1f\n", rows[k].policy, rows[k].r.seconds,
                    rows[k].idle_cpu < 0 ? 0.0 : 100.0 * rows[k].idle_cpu, rows[k].idle_cuda < 0 ? 0.0 : 100.0 * rows[k].idle_cuda);
    fclose(f);
    return qf_app_plot_script(picture,
                              "set terminal svg size 1200,480 dynamic noenhanced font 'sans,11'\nset output %1$s\n"
                              "set multiplot layout 1,2 title 'quarkflow bench sched'\n"
                              "set style data histograms\nset style fill solid 0.8 noborder\nset xtics rotate by -45\n"
                              "set grid ytics\nset key autotitle columnhead\n"
                              "set ylabel 'time to solution (s)'\nset yrange [0:*]\nplot %2$s using 2:xtic(1) notitle lc 1\n"
                              "set ylabel 'idle share (%%)'\nset yrange [0:100]\nset key top left\n"
                              "plot %2$s using 3:xtic(1) title 'CPU workers' lc 2, '' using 4 title 'CUDA workers' lc 3\n"
                              "unset multiplot\n");
}

/* Appends (first: creates) the table of one workload to path, after a line naming the workload when
 * there are several (a heading in Markdown, "workload,NAME" in CSV). */
static int write_table(const char *path, const char *name, int first, int several, const sched_row *rows, int n,
                       int csv, int versus_ncpu)
{
    FILE *f = fopen(path, first ? "w" : "a");
    if (!f) return qf_fail("cannot write %s: check the directory exists and is writable", path);
    if (several) fprintf(f, csv ? "workload,%s\n" : "%s### %s\n\n", csv ? name : first ? "" : "\n", name);
    table(f, rows, n, csv, versus_ncpu);
    return fclose(f) ? qf_fail("writing %s failed", path) : QF_SUCCESS;
}

/* One workload under every policy (and each against its reference), its table printed and written. */
static int run_workload(const sched_opts *o, int wi, sched_row *rows)
{
    workload_kind w = o->workload[wi];
    memset(rows, 0, MAX_POLICIES * sizeof *rows);
    char what[96];
    if (w == WORKLOAD_DSLASH) snprintf(what, sizeof what, "%d applications of Mhat", o->applications);
    else if (w == WORKLOAD_GAUGE)
        snprintf(what, sizeof what, "%d quenched sweeps (heatbath + 4 overrelaxation, beta 6.0)", o->sweeps);
    else snprintf(what, sizeof what, "%s %s", w == WORKLOAD_PROPAGATOR ? "a propagator: 12" : "one",
                  qf_solver_name(w == WORKLOAD_MG ? QF_SOLVER_MG : o->sp.kind));
    char op[96] = "";
    if (w != WORKLOAD_GAUGE) snprintf(op, sizeof op, ", even-odd Wilson-clover (kappa %g, c_sw %g)", o->p.kappa, o->p.csw);
    printf("%sbench sched   %s on %d %d %d %d%s, %d warm-up run%s then one measured, under %d policies\n", wi ? "\n" : "",
           what, o->dims[0], o->dims[1], o->dims[2], o->dims[3], op, o->warmup, o->warmup == 1 ? "" : "s", o->npolicy);
    for (int k = 0; k < o->npolicy; k++) {
        sched_row *r = &rows[k];
        r->policy = o->policy[k];
        printf("progress      %d/%d: %s ...\n", k + 1, o->npolicy, o->policy[k]);
        fflush(stdout);
        run_policy(o, w, -1, r);
        if (r->ok && w == WORKLOAD_MG)
            printf("progress      %d/%d: %s: setup %.3f s, %d iterations, %.3f s\n", k + 1, o->npolicy, o->policy[k],
                   r->setup_seconds, r->r.iterations, r->r.seconds);
        else if (r->ok)
            printf("progress      %d/%d: %s: %d iterations, %.3f s\n", k + 1, o->npolicy, o->policy[k], r->r.iterations,
                   r->r.seconds);
        else
            printf("progress      %d/%d: %s failed: %s\n", k + 1, o->npolicy, o->policy[k], r->error);
        if (!r->ok || o->versus_ncpu < 0) continue;
        sched_row ref = {.policy = r->policy};
        printf("progress      %d/%d: %s with %d CPU workers (the reference) ...\n", k + 1, o->npolicy, o->policy[k],
               o->versus_ncpu);
        fflush(stdout);
        run_policy(o, w, o->versus_ncpu, &ref);
        r->reference_seconds = ref.ok ? ref.r.seconds : -1.0;
        if (ref.ok)
            printf("progress      %d/%d: %s with %d CPU workers: %d iterations, %.3f s (|x|^2 %s)\n", k + 1, o->npolicy,
                   o->policy[k], o->versus_ncpu, ref.r.iterations, ref.r.seconds,
                   fabs(ref.x2 - r->x2) <= 1e-9 * fabs(r->x2) ? "the same" : "DIFFERS");
        else
            printf("progress      %d/%d: %s with %d CPU workers failed: %s\n", k + 1, o->npolicy, o->policy[k],
                   o->versus_ncpu, ref.error);
    }
    printf("\n");
    table(stdout, rows, o->npolicy, 0, o->versus_ncpu);
    const char *name = workload_names[w];
    int several = o->nworkload > 1, first = wi == 0;
    int rc = (o->csv && write_table(o->csv, name, first, several, rows, o->npolicy, 1, o->versus_ncpu)) ||
             (o->md && write_table(o->md, name, first, several, rows, o->npolicy, 0, o->versus_ncpu)) ||
             (o->plot && plot_rows(o->plot, rows, o->npolicy));
    int failed = 0;
    for (int k = 0; k < o->npolicy; k++) failed += !rows[k].ok;
    if (!rc && failed == o->npolicy) rc = qf_fail("every policy failed on the %s workload: see the table", name);
    return rc;
}

int qf_bench_sched(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    sched_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (o.plot && o.nworkload > 1) return qf_app_usage_error("bench sched", "--plot draws one workload: give one to --workload");
    if ((o.csv && qf_app_check_output("--csv", o.csv)) || (o.md && qf_app_check_output("--md", o.md)) ||
        (o.plot && qf_app_check_output("--plot", o.plot)))
        return qf_app_error();
    sched_row rows[MAX_POLICIES];
    int over = 0; /* rows slower than --max-ratio times their reference */
    for (int wi = 0; wi < o.nworkload && !rc; wi++) {
        rc = run_workload(&o, wi, rows);
        for (int k = 0; k < o.npolicy && o.max_ratio > 0.0; k++)
            if (rows[k].ok && (rows[k].reference_seconds <= 0.0 ||
                               rows[k].r.seconds > o.max_ratio * rows[k].reference_seconds)) {
                printf("guard         %s, %s: %.3f s against %.3f s with %d CPU workers: above %.2f times\n",
                       workload_names[o.workload[wi]], rows[k].policy, rows[k].r.seconds, rows[k].reference_seconds,
                       o.versus_ncpu, o.max_ratio);
                over++;
            }
    }
    printf("\nmodels: 'N sizes calibrating' where StarPU was still calibrating N kernel sizes (codelet, size, kind\n"
           "of worker) during the measured run, so the dm* policies planned some tasks without a model:\n"
           "raise --warmup-solves.\n"
           "idle: the share of the measured run the workers of a type spent not running tasks.\n"
           "GB moved: StarPU's transfers between memory nodes in the measured run.\n");
    if (o.versus_ncpu >= 0)
        printf("reference: the same policy and workload with %d CPU workers%s; time / reference above 1: slower.\n",
               o.versus_ncpu, o.versus_ncpu == 0 ? " (the GPUs alone)" : "");
    if (!rc && (o.csv || o.md || o.plot))
        printf("wrote         %s%s%s%s%s\n", o.csv ? o.csv : "", o.csv && o.md ? ", " : "", o.md ? o.md : "",
               o.plot && (o.csv || o.md) ? ", " : "", o.plot ? o.plot : "");
    if (!rc && over)
        rc = qf_fail("%d run%s slower than %.2f times the reference with %d CPU workers (the lines 'guard' above)", over,
                     over == 1 ? " is" : "s are", o.max_ratio, o.versus_ncpu);
    return rc ? qf_app_error() : 0;
}
