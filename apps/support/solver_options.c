/* The solver options of solve, propagator and bench solver, parsed and validated in one place so
 * that the three commands name them, check them and document them alike. */
#include "app.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The multigrid options of the command being run (one command a process). */
static qf_mg_params mg_options;
static int mg_options_set;
static int mg_prec_given; /* --mg-prec: otherwise single under a double operator */

static qf_mg_params *mg_params(void)
{
    if (!mg_options_set) {
        mg_options = qf_mg_default_params();
        mg_options_set = 1;
    }
    return &mg_options;
}

/* A per-level list (--mg-nvec 24,32, --mg-location gpu,cpu): item k sets levels k and above (the last
 * repeats), at most max items; each item parsed by set, which returns 0 or -1. */
typedef int (*level_item)(const char *item, int level, qf_mg_params *mg);

static int parse_levels(const char *list, int max, level_item set, qf_mg_params *mg)
{
    char *copy = strdup(list), *save = NULL;
    int l = 0, rc = copy ? 0 : -1;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !rc; t = strtok_r(NULL, ",", &save), l++)
        rc = l >= max ? -1 : set(t, l, mg);
    free(copy);
    return rc;
}

static int nvec_item(const char *t, int l, qf_mg_params *mg)
{
    char *end;
    long n = strtol(t, &end, 10);
    if (*end || n < 1 || n > QF_MG_MAX_NVEC) return -1;
    for (int k = l; k < QF_MG_MAX_LEVELS; k++) mg->nvec[k] = (int)n;
    return 0;
}

static int location_item(const char *t, int l, qf_mg_params *mg)
{
    qf_placement p;
    if (qf_placement_parse(t, &p)) return -1;
    for (int k = l; k < QF_MG_MAX_LEVELS; k++) mg->location[k] = p;
    return 0;
}

/* Whether argv[*i] is the option name, followed by four extents parsed into dims (*rc: 0, or the usage
 * error). */
static int dims_option(const char *command, int argc, char **argv, int *i, const char *name, int dims[QF_NDIM],
                       int *rc)
{
    if (strcmp(argv[*i], name)) return 0;
    *rc = 0;
    if (qf_parse_dims(argv + *i + 1, argc - *i - 1, dims, name)) *rc = qf_app_usage_error(command, "%s", qf_last_error());
    else *i += 4;
    return 1;
}

/* NAME half|hierarchy (what: the data it sets): whether argv[*i] is NAME; *out half, or the hierarchy's
 * precision hier, and *rc the parse's result. */
static int half_option(const char *command, int argc, char **argv, int *i, const char *name, const char *what,
                       qf_precision hier, qf_precision *out, int *rc)
{
    if (strcmp(argv[*i], name)) return 0;
    const char *v = *i + 1 < argc ? argv[*i + 1] : "";
    *rc = 0;
    if (strcmp(v, "half") && strcmp(v, "hierarchy"))
        *rc = qf_app_usage_error(command, "%s needs half or hierarchy (%s)", name, what);
    else {
        *out = strcmp(v, "half") ? hier : QF_HALF;
        *i += 1;
    }
    return 1;
}

static int mg_option(const char *command, int argc, char **argv, int *i, qf_mg_params *mg)
{
    const char *a = argv[*i];
    int rc;
    if (!strcmp(a, "--mg-nvec")) {
        if (*i + 1 >= argc) return qf_app_usage_error(command, "--mg-nvec needs a count, e.g. 24");
        *i += 1;
        if (parse_levels(argv[*i], QF_MG_MAX_LEVELS - 1, nvec_item, mg))
            return qf_app_usage_error(command, "--mg-nvec '%s': give up to %d counts from 1 to %d, e.g. 24 or 24,32",
                                      argv[*i], QF_MG_MAX_LEVELS - 1, QF_MG_MAX_NVEC);
        return 0;
    }
    if (!strcmp(a, "--mg-location")) {
        if (*i + 1 >= argc) return qf_app_usage_error(command, "--mg-location needs cpu, gpu or auto per level, e.g. gpu,cpu");
        *i += 1;
        if (parse_levels(argv[*i], QF_MG_MAX_LEVELS, location_item, mg))
            return qf_app_usage_error(command,
                                      "--mg-location '%s': give up to %d of cpu, gpu or auto, from the finest level, "
                                      "e.g. gpu,cpu",
                                      argv[*i], QF_MG_MAX_LEVELS);
        return 0;
    }
    if (dims_option(command, argc, argv, i, "--mg-block", mg->block[0], &rc)) return rc;
    if (dims_option(command, argc, argv, i, "--mg-sap-block", mg->sap_block, &rc)) return rc;
    if (!strcmp(a, "--mg-smoother")) {
        const char *v = *i + 1 < argc ? argv[*i + 1] : "";
        if (strcmp(v, "mr") && strcmp(v, "sap"))
            return qf_app_usage_error(command, "--mg-smoother needs mr (even-odd MR steps) or sap (Schwarz cycles)");
        mg->smoother = strcmp(v, "sap") ? QF_MG_SMOOTHER_MR : QF_MG_SMOOTHER_SAP;
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--mg-prec")) {
        const char *v = *i + 1 < argc ? argv[*i + 1] : "";
        if (strcmp(v, "single") && strcmp(v, "double"))
            return qf_app_usage_error(command, "--mg-prec needs single or double (the hierarchy's precision)");
        mg->prec = strcmp(v, "double") ? QF_SINGLE : QF_DOUBLE;
        mg_prec_given = 1;
        *i += 1;
        return 0;
    }
    if (half_option(command, argc, argv, i, "--mg-smoother-prec", "the levels' precision", mg->prec, &mg->smoother_prec,
                    &rc) ||
        half_option(command, argc, argv, i, "--mg-link-prec", "the coarse links' precision", mg->prec,
                    &mg->coarse_link_prec, &rc) ||
        half_option(command, argc, argv, i, "--mg-null-prec", "the near-null vectors' precision", mg->prec,
                    &mg->null_prec, &rc))
        return rc;
    if (!strcmp(a, "--mg-coarse-tol")) {
        rc = qf_app_double(command, argc, argv, i, &mg->coarse_tol);
        if (!rc && !(mg->coarse_tol > 0.0 && mg->coarse_tol < 1.0))
            return qf_app_usage_error(command, "--mg-coarse-tol %g: the coarse solves' relative residual, between 0 and 1",
                                      mg->coarse_tol);
        return rc;
    }
    /* the options that take "auto" */
    int *automatic = !strcmp(a, "--mg-levels") ? &mg->levels : !strcmp(a, "--mg-coarse-dense") ? &mg->coarse_dense : NULL;
    if (automatic && *i + 1 < argc && !strcmp(argv[*i + 1], "auto")) {
        *automatic = automatic == &mg->levels ? QF_MG_LEVELS_AUTO : QF_MG_DENSE_AUTO;
        *i += 1;
        return 0;
    }
    int *value = !strcmp(a, "--mg-levels") ? &mg->levels
                 : !strcmp(a, "--mg-setup-iter") ? &mg->setup_iter
                 : !strcmp(a, "--mg-setup-krylov") ? &mg->setup_krylov
                 : !strcmp(a, "--mg-setup-refine") ? &mg->setup_refine
                 : !strcmp(a, "--mg-refine-iter") ? &mg->refine_iter
                 : !strcmp(a, "--mg-smoother-steps") ? &mg->smoother_steps
                 : !strcmp(a, "--mg-sap-cycles") ? &mg->sap_cycles
                 : !strcmp(a, "--mg-sap-mr") ? &mg->sap_mr
                 : !strcmp(a, "--mg-coarse-max-iter") ? &mg->coarse_max_iter
                 : !strcmp(a, "--mg-coarse-one-task") ? &mg->coarse_one_task
                 : !strcmp(a, "--mg-coarse-nkrylov") ? &mg->coarse_nkrylov
                 : !strcmp(a, "--mg-coarse-dense") ? &mg->coarse_dense
                                                       : NULL;
    if (!value) return QF_APP_NOT_A_SOLVER_OPTION;
    rc = qf_app_int(command, argc, argv, i, value);
    if (!rc && value == &mg->coarse_nkrylov && *value > QF_COARSE_ONE_TASK_MAX_NKRYLOV)
        return qf_app_usage_error(command, "--mg-coarse-nkrylov %d: give 1 to %d", *value, QF_COARSE_ONE_TASK_MAX_NKRYLOV);
    if (!rc && value == &mg->levels && (*value < 2 || *value > QF_MG_MAX_LEVELS))
        return qf_app_usage_error(command, "--mg-levels %d: give 2 to %d, or auto", *value, QF_MG_MAX_LEVELS);
    if (!rc && value == &mg->coarse_one_task && (*value < 0 || *value > 3))
        return qf_app_usage_error(command,
                                  "--mg-coarse-one-task %d: give 3 (every coarse lattice one block, each coarse solve "
                                  "one task with the levels below), 2 (the coarsest one block), 1 (one task where "
                                  "the lattices are one block anyway) or 0 (task graphs)",
                                  *value);
    if (!rc && value == &mg->coarse_dense && *value > QF_COARSE_DENSE_MAX_DIM)
        return qf_app_usage_error(command,
                                  "--mg-coarse-dense %d: give the largest coarsest Schur dimension to invert densely, "
                                  "0 (never) to %d, or auto",
                                  *value, QF_COARSE_DENSE_MAX_DIM);
    int least = value == &mg->smoother_steps || value == &mg->coarse_one_task || value == &mg->setup_refine ||
                        value == &mg->coarse_dense
                    ? 0
                    : 1;
    if (!rc && *value < least) return qf_app_usage_error(command, "%s %d: give at least %d", a, *value, least);
    return rc;
}

int qf_app_solver_option(const char *command, int argc, char **argv, int *i, qf_solver_params *sp)
{
    const char *a = argv[*i];
    int rc;
    if (!strcmp(a, "--solver")) {
        if (*i + 1 >= argc || qf_solver_parse(argv[*i + 1], &sp->kind))
            return qf_app_usage_error(command, "--solver needs cg, cgnr, cgne, bicgstab, gcr, mr or mg");
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--sloppy")) {
        if (*i + 1 >= argc || qf_precision_parse(argv[*i + 1], &sp->sloppy))
            return qf_app_usage_error(command, "--sloppy needs double, single or half");
        *i += 1;
        return 0;
    }
    /* --tol's range depends on --prec: qf_app_solver_check */
    if (!strcmp(a, "--tol")) return qf_app_double(command, argc, argv, i, &sp->tol);
    if (!strcmp(a, "--delta")) {
        rc = qf_app_double(command, argc, argv, i, &sp->delta);
        if (!rc && !(sp->delta > 0.0 && sp->delta < 1.0))
            return qf_app_usage_error(command, "--delta %g: the residual's fall between updates, between 0 and 1",
                                      sp->delta);
        return rc;
    }
    if (dims_option(command, argc, argv, i, "--sap-block", sp->gcr_sap_block, &rc)) return rc;
    int *value = !strcmp(a, "--max-iter") ? &sp->max_iter
                 : !strcmp(a, "--check-every") ? &sp->check_every
                 : !strcmp(a, "--nkrylov") ? &sp->gcr_nkrylov
                 : !strcmp(a, "--inner-mr") ? &sp->gcr_inner_mr
                 : !strcmp(a, "--sap") ? &sp->gcr_sap_cycles
                 : !strcmp(a, "--sap-mr") ? &sp->gcr_sap_mr
                                             : NULL;
    if (!value) return mg_option(command, argc, argv, i, mg_params());
    rc = qf_app_int(command, argc, argv, i, value);
    int least = value == &sp->gcr_inner_mr || value == &sp->gcr_sap_cycles ? 0 : 1;
    if (!rc && *value < least) return qf_app_usage_error(command, "%s %d: give at least %d", a, *value, least);
    if (!rc && value == &sp->gcr_nkrylov && *value > 128)
        return qf_app_usage_error(command, "--nkrylov %d: keep at most 128 search directions", *value);
    return rc;
}

qf_solver_params qf_app_solver_defaults(void)
{
    qf_solver_params sp = qf_solver_default_params();
    sp.tol = NAN; /* no option gives it: qf_app_solver_check */
    return sp;
}

int qf_app_solver_check(const char *command, qf_solver_params *sp, qf_precision op_prec)
{
    /* the tolerance's default follows a single-precision operator (the cadence's, the method and the
     * iteration limit: qf_solver_check_every); values given beyond them are mistakes worth naming */
    if (op_prec == QF_HALF)
        return qf_app_usage_error(command, "--prec half: a solve and its solution are in double or single; give half as "
                                           "the precision of the iterations instead (--prec double --sloppy half)");
    const qf_solver_params library = qf_solver_default_params();
    double least = qf_solver_min_tol(op_prec);
    if (isnan(sp->tol)) sp->tol = fmax(library.tol, least);
    if (!(sp->tol >= least && sp->tol < 1.0))
        return qf_app_usage_error(command,
                                  "--tol %g: the relative residual to reach, between %g (the least a %s-precision "
                                  "operator's rounding allows) and 1",
                                  sp->tol, least, qf_precision_name(op_prec));
    if (sp->check_every > sp->max_iter)
        return qf_app_usage_error(command, "--check-every %d: read the residual every 1 to %d iterations (--max-iter)",
                                  sp->check_every, sp->max_iter);
    return 0;
}

/* Whether the iterations run below the operator's precision (qf_precision counts down). */
static int mixed_precision(const qf_solver_params *sp, qf_precision op_prec) { return sp->sloppy > op_prec; }

const char *qf_app_solver_precision(const qf_solver_params *sp, qf_precision op_prec)
{
    static const char *const pairs[3][3] = {
        {"double", "double/single", "double/half"}, {"single", "single", "single/half"}, {"half", "half", "half"}};
    if ((unsigned)op_prec > QF_HALF || (unsigned)sp->sloppy > QF_HALF) return qf_precision_name(op_prec);
    return pairs[op_prec][mixed_precision(sp, op_prec) ? sp->sloppy : op_prec];
}

static int lcm(int a, int b)
{
    int x = a, y = b;
    while (y) {
        int r = x % y;
        x = y;
        y = r;
    }
    return a / x * b;
}

void qf_app_solver_block_multiple(const qf_solver_params *sp, int multiple[4])
{
    const qf_mg_params *mg = mg_params();
    for (int mu = 0; mu < QF_NDIM; mu++) {
        multiple[mu] = 1;
        if (sp->kind == QF_SOLVER_MG) {
            multiple[mu] = lcm(multiple[mu], mg->block[0][mu]);
            if (mg->smoother == QF_MG_SMOOTHER_SAP) multiple[mu] = lcm(multiple[mu], mg->sap_block[mu]);
        }
        if (sp->gcr_sap_cycles > 0 && !sp->precond) multiple[mu] = lcm(multiple[mu], sp->gcr_sap_block[mu]);
    }
}

void qf_app_print_solver(const qf_solver_params *sp, qf_precision op_prec, const qf_lattice *lat)
{
    printf("solver        %s", qf_solver_name(sp->kind));
    if (sp->kind == QF_SOLVER_MG) {
        const qf_mg_params *mg = mg_params();
        int levels = qf_mg_levels_for(lat, mg);
        printf("(%d) with a %d-level K-cycle (%svectors", sp->gcr_nkrylov, levels,
               mg->levels == QF_MG_LEVELS_AUTO ? "levels auto, " : "");
        for (int l = 0; l < levels - 1; l++) printf("%s%d", l ? "," : " ", mg->nvec[l]);
        printf(", aggregates %d %d %d %d, then 2^4; ", mg->block[0][0], mg->block[0][1], mg->block[0][2], mg->block[0][3]);
        if (mg->smoother == QF_MG_SMOOTHER_SAP)
            printf("Schwarz smoothing, %d cycles on %d %d %d %d domains of %d MR steps, coarser levels ", mg->sap_cycles,
                   mg->sap_block[0], mg->sap_block[1], mg->sap_block[2], mg->sap_block[3], mg->sap_mr);
        int schur = sp->even_odd && qf_mg_params_schur_outer(mg); /* the outer GCR's system */
        printf("%d even-odd MR smoothing steps%s, coarse GCR(%d) to %g%s%s), %s, %s", mg->smoother_steps,
               mg->smoother_prec == QF_HALF && mg->smoother == QF_MG_SMOOTHER_MR ? " (the finest in half)" : "",
               mg->coarse_nkrylov, mg->coarse_tol, mg->coarse_link_prec == QF_HALF ? ", coarse links in half" : "",
               mg->null_prec == QF_HALF ? ", near-null vectors in half" : "",
               schur ? "even-odd Schur system" : "full lattice",
               op_prec == QF_DOUBLE && mg->prec == QF_SINGLE ? "double/single" : qf_precision_name(op_prec));
        printf(", tolerance %.1e, at most %d iterations, residual read every %d\n", sp->tol, sp->max_iter,
               qf_solver_check_every(sp));
        return;
    }
    if (sp->kind == QF_SOLVER_GCR) {
        printf("(%d)", sp->gcr_nkrylov);
        if (sp->gcr_sap_cycles)
            printf(" with %d Schwarz cycles as preconditioner (domains %d %d %d %d, %d MR steps a domain)",
                   sp->gcr_sap_cycles, sp->gcr_sap_block[0], sp->gcr_sap_block[1], sp->gcr_sap_block[2],
                   sp->gcr_sap_block[3], sp->gcr_sap_mr);
        else if (sp->gcr_inner_mr)
            printf(" with %d MR steps as preconditioner", sp->gcr_inner_mr);
    }
    printf(", %s, %s", sp->even_odd ? "even-odd Schur system" : "full lattice", qf_app_solver_precision(sp, op_prec));
    if (mixed_precision(sp, op_prec))
        printf(" (%s at a residual fall of %g)", sp->kind == QF_SOLVER_GCR ? "restarts" : "reliable updates",
               qf_solver_delta(sp));
    printf(", tolerance %.1e, at most %d iterations, residual read every %d\n", sp->tol, sp->max_iter,
           qf_solver_check_every(sp));
}

int qf_app_mg_prepare(qf_linop *M, qf_solver_params *sp)
{
    if (sp->kind != QF_SOLVER_MG || sp->mg) return QF_SUCCESS;
    qf_mg_params p = *mg_params();
    qf_precision op = qf_linop_get_domain(M)->prec;
    if (mg_prec_given && p.prec < op)
        return qf_fail("--mg-prec %s is finer than the operator's %s precision: give --prec %s too, or --mg-prec %s",
                       qf_precision_name(p.prec), qf_precision_name(op), qf_precision_name(p.prec), qf_precision_name(op));
    if (!mg_prec_given) p.prec = op == QF_DOUBLE ? QF_SINGLE : op;
    p.verbose = qf_runtime_rank() == 0;
    if (qf_mg_setup(&sp->mg, M, &p)) return QF_ERROR;
    qf_mg_stats st;
    qf_mg_get_stats(sp->mg, &st);
    printf("multigrid     setup %.3f s\n", st.setup_seconds);
    fflush(stdout);
    return QF_SUCCESS;
}

void qf_app_mg_report(qf_solver_params *sp)
{
    if (!sp->mg) return;
    qf_mg_stats st;
    qf_mg_get_stats(sp->mg, &st);
    for (int l = 0; l < st.levels; l++) {
        if (l == 0)
            printf("  level 0     %ld K-cycles", st.visits[0]);
        else if (l == st.levels - 1 && st.dense_dim)
            printf("  level %d     %ld coarse solves by the dense Schur inverse (dimension %lld), %.3f s %s", l,
                   st.visits[l], (long long)st.dense_dim, st.seconds[l],
                   st.one_task[l] ? "(in one-task solves)" : "");
        else
            printf("  level %d     %ld coarse solves, %ld GCR iterations, %.3f s %s", l, st.visits[l], st.iterations[l],
                   st.seconds[l],
                   st.one_task[l] ? "(in one-task solves: the tasks' time, including the levels below)"
                                  : "(including the levels below)");
        int top = l; /* the level whose one-task solves hold this one's */
        while (st.one_task[l] && top >= 2 && st.one_task[top - 1]) top--;
        if (top < l)
            printf("; inside level %d's tasks\n", top);
        else
            printf("; placed %s%s, tasks ran %ld on CPU, %ld on CUDA workers\n", qf_placement_name(st.location[l]),
                   st.measured[l] ? " (auto, timed)" : "", st.ran[l][QF_WORKER_CPU], st.ran[l][QF_WORKER_CUDA]);
    }
    qf_mg_reset_stats(sp->mg);
}

void qf_app_mg_release(qf_solver_params *sp)
{
    qf_mg_destroy(sp->mg);
    sp->mg = NULL;
}
