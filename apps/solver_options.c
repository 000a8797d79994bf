/* The solver options of solve, propagator and bench solver, parsed and validated in one place so
 * that the three commands name them, check them and document them alike. */
#include "app.h"

#include <math.h>
#include <string.h>

int qf_app_solver_option(const char *command, int argc, char **argv, int *i, qf_solver_params *sp)
{
    const char *a = argv[*i];
    int rc;
    if (!strcmp(a, "--solver")) {
        if (*i + 1 >= argc || qf_solver_parse(argv[*i + 1], &sp->kind))
            return qf_app_usage_error(command, "--solver needs cgnr, cgne, bicgstab, gcr or mr");
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--sloppy")) {
        if (*i + 1 >= argc || qf_precision_parse(argv[*i + 1], &sp->sloppy))
            return qf_app_usage_error(command, "--sloppy needs double or single");
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
    int *value = !strcmp(a, "--max-iter") ? &sp->max_iter
                 : !strcmp(a, "--check-every") ? &sp->check_every
                 : !strcmp(a, "--nkrylov") ? &sp->gcr_nkrylov
                 : !strcmp(a, "--inner-mr") ? &sp->gcr_inner_mr
                                             : NULL;
    if (!value) return QF_APP_NOT_A_SOLVER_OPTION;
    rc = qf_app_int(command, argc, argv, i, value);
    int least = value == &sp->gcr_inner_mr ? 0 : 1;
    if (!rc && *value < least) return qf_app_usage_error(command, "%s %d: give at least %d", a, *value, least);
    if (!rc && value == &sp->gcr_nkrylov && *value > 128)
        return qf_app_usage_error(command, "--nkrylov %d: keep at most 128 search directions", *value);
    return rc;
}

qf_solver_params qf_app_solver_defaults(void)
{
    qf_solver_params sp = qf_solver_default_params();
    sp.tol = NAN; /* no option gives these: qf_app_solver_check */
    sp.check_every = 0;
    return sp;
}

int qf_app_solver_check(const char *command, qf_solver_params *sp, qf_precision op_prec)
{
    /* the defaults follow the other options: the tolerance a single-precision operator, the cadence
     * a lower iteration limit (at which the solver reads the residual anyway); values given beyond
     * them are mistakes worth naming */
    const qf_solver_params library = qf_solver_default_params();
    double least = qf_solver_min_tol(op_prec);
    if (isnan(sp->tol)) sp->tol = fmax(library.tol, least);
    if (!sp->check_every) sp->check_every = library.check_every < sp->max_iter ? library.check_every : sp->max_iter;
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

const char *qf_app_solver_precision(const qf_solver_params *sp, qf_precision op_prec)
{
    if (sp->sloppy == QF_SINGLE && op_prec == QF_DOUBLE) return "double/single";
    return qf_precision_name(op_prec);
}

void qf_app_print_solver(const qf_solver_params *sp, qf_precision op_prec)
{
    printf("solver        %s", qf_solver_name(sp->kind));
    if (sp->kind == QF_SOLVER_GCR) {
        printf("(%d)", sp->gcr_nkrylov);
        if (sp->gcr_inner_mr) printf(" with %d MR steps as preconditioner", sp->gcr_inner_mr);
    }
    printf(", %s, %s", sp->even_odd ? "even-odd Schur system" : "full lattice", qf_app_solver_precision(sp, op_prec));
    if (sp->sloppy == QF_SINGLE && op_prec == QF_DOUBLE)
        printf(" (%s at a residual fall of %g)", sp->kind == QF_SOLVER_GCR ? "restarts" : "reliable updates", sp->delta);
    printf(", tolerance %.1e, at most %d iterations, residual read every %d\n", sp->tol, sp->max_iter,
           sp->check_every);
}
