/* Improved staggered (asqtad) quarks on the command line (app.h): the --action, --mass, --masses and
 * --u0 options that solve and propagator share, the refusal of the other action's options, the asqtad
 * operator built from a gauge field (the links smeared, or read from the files of quarkflow links
 * with --fat and --long), then the operator. The physics is the library's (qf_staggered.h). */
#include "app.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Options that belong to the Wilson-clover action (and its solvers) only. */
static const char *const wilson_only[] = {"--kappa", "--csw",  "--recon",     "--recon-sloppy", "--schur",
                                          "--op",    "--sap",  "--sap-block", "--sap-mr"};

int qf_app_action_parse(const char *s, qf_app_action *a)
{
    if (!strcmp(s, "wilson")) *a = QF_APP_WILSON;
    else if (!strcmp(s, "asqtad")) *a = QF_APP_ASQTAD;
    else return -1;
    return 0;
}

void qf_app_quarks_defaults(qf_app_quarks *q)
{
    memset(q, 0, sizeof *q);
    q->action = QF_APP_WILSON;
    q->u0 = 1.0;
}

qf_app_action qf_app_action_named(int argc, char **argv)
{
    qf_app_action a = QF_APP_WILSON;
    for (int k = 1; k + 1 < argc; k++)
        if (!strcmp(argv[k], "--action")) qf_app_action_parse(argv[k + 1], &a);
    return a;
}

/* --masses M1,M2,...: each a positive number. */
static int parse_masses(const char *cmd, const char *list, qf_app_quarks *q)
{
    int n = 0;
    const char *p = list;
    while (*p) {
        char *end;
        errno = 0;
        double m = strtod(p, &end);
        if (end == p || errno || !isfinite(m) || (*end && *end != ','))
            return qf_app_usage_error(cmd, "--masses '%s': give masses separated by commas, e.g. 0.01,0.02,0.05", list);
        if (!(m > 0.0))
            return qf_app_usage_error(cmd, "--masses: mass %g: the asqtad quark masses must be positive", m);
        if (n == QF_MULTISHIFT_MAX)
            return qf_app_usage_error(cmd, "--masses: at most %d masses in one multi-shift solve", QF_MULTISHIFT_MAX);
        q->mass[n++] = m;
        p = *end ? end + 1 : end;
        if (*end && !*p) return qf_app_usage_error(cmd, "--masses '%s': a comma with no mass after it", list);
    }
    if (!n) return qf_app_usage_error(cmd, "--masses needs masses separated by commas, e.g. 0.01,0.02,0.05");
    q->nmass = n;
    return 0;
}

int qf_app_quark_option(const char *cmd, int argc, char **argv, int *i, qf_app_quarks *q)
{
    const char *a = argv[*i];
    int rc;
    if (!strcmp(a, "--action")) {
        const char *v = *i + 1 < argc ? argv[*i + 1] : "";
        if (qf_app_action_parse(v, &q->action))
            return qf_app_usage_error(cmd,
                                      "--action '%s': give wilson (Wilson-clover: --kappa, --csw) or asqtad (improved "
                                      "staggered, MILC's conventions: --mass, --u0)",
                                      v);
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--mass") || !strcmp(a, "--masses")) {
        int list = !strcmp(a, "--masses");
        if (q->nmass && q->mass_list != list)
            return qf_app_usage_error(cmd, "give --mass (one mass) or --masses (several), not both");
        q->mass_list = list;
        if (list) {
            if (*i + 1 >= argc) return qf_app_usage_error(cmd, "--masses needs masses separated by commas, e.g. 0.01,0.02");
            *i += 1;
            return parse_masses(cmd, argv[*i], q);
        }
        rc = qf_app_double(cmd, argc, argv, i, &q->mass[0]);
        if (!rc && !(q->mass[0] > 0.0))
            return qf_app_usage_error(cmd,
                                      "--mass %g: the asqtad quark mass must be positive (MILC's M = 2m + D; the even-odd "
                                      "system 4m^2 - D_eo D_oe is singular at m = 0)",
                                      q->mass[0]);
        q->nmass = 1;
        return rc;
    }
    if (!strcmp(a, "--fat") || !strcmp(a, "--long")) {
        if (*i + 1 >= argc) return qf_app_usage_error(cmd, "%s needs a file of asqtad links (quarkflow links --out-fat/--out-long)", a);
        *(!strcmp(a, "--fat") ? &q->fat_file : &q->long_file) = argv[++*i];
        return 0;
    }
    if (!strcmp(a, "--u0")) {
        rc = qf_app_double(cmd, argc, argv, i, &q->u0);
        if (!rc && !(q->u0 > 0.0 && q->u0 <= 1.0))
            return qf_app_usage_error(cmd, "--u0 %g: the tadpole factor lies in (0, 1] (the fourth root of the plaquette, "
                                           "or 1 for none)",
                                      q->u0);
        q->u0_given = 1;
        return rc;
    }
    /* noted for qf_app_quarks_check, parsed by the solver and operator options */
    if (!strcmp(a, "--solver")) q->solver_given = 1;
    for (size_t k = 0; k < sizeof wilson_only / sizeof wilson_only[0] && !q->wilson_option; k++)
        if (!strcmp(a, wilson_only[k])) q->wilson_option = wilson_only[k];
    if (!q->wilson_option && !strncmp(a, "--mg-", 5)) q->wilson_option = a;
    return QF_APP_NOT_A_QUARK_OPTION;
}

int qf_app_quarks_check(const char *cmd, qf_app_quarks *q, qf_solver_params *sp)
{
    if (q->action == QF_APP_WILSON) {
        if (q->fat_file || q->long_file)
            return qf_app_usage_error(cmd, "--fat and --long belong to --action asqtad (its fat and Naik links)");
        if (q->nmass)
            return qf_app_usage_error(cmd,
                                      "%s belongs to --action asqtad; the Wilson-clover quark mass is set by --kappa "
                                      "(m = 1/(2 kappa) - 4)",
                                      q->mass_list ? "--masses" : "--mass");
        if (q->u0_given)
            return qf_app_usage_error(cmd, "--u0 belongs to --action asqtad (the tadpole factor of its smeared links)");
        if (sp && sp->kind == QF_SOLVER_CG)
            return qf_app_usage_error(cmd, "--solver cg needs a hermitian system, which the Wilson-clover operator is not: "
                                           "use cgnr (CG on M^dagger M) or cgne");
        return 0;
    }
    if (q->wilson_option)
        return qf_app_usage_error(cmd, "%s belongs to the Wilson-clover action: --action asqtad takes --mass (or --masses) "
                                       "and --u0",
                                  q->wilson_option);
    if (!q->fat_file != !q->long_file)
        return qf_app_usage_error(cmd, "--fat and --long go together: the two files quarkflow links --out-fat and --out-long "
                                       "wrote");
    if (q->fat_file && q->u0_given)
        return qf_app_usage_error(cmd, "--u0 smears the links, which --fat and --long read ready-made: give one or the other");
    if (!q->nmass) return qf_app_usage_error(cmd, "--action asqtad needs the quark mass: --mass M (or --masses M1,M2,...)");
    if (!sp) return 0;
    if (sp->kind == QF_SOLVER_MG)
        return qf_app_usage_error(cmd, "--solver mg: multigrid serves the Wilson-clover action only; --action asqtad solves "
                                       "with cg (the default), bicgstab, gcr, cgnr, cgne or mr");
    if (sp->sloppy == QF_HALF)
        return qf_app_usage_error(cmd, "--sloppy half: the asqtad operator runs in double or single precision; give "
                                       "--sloppy single");
    if (!q->solver_given) sp->kind = QF_SOLVER_CG;
    if (q->mass_list) {
        if (sp->kind != QF_SOLVER_CG)
            return qf_app_usage_error(cmd, "--masses solves all masses by multi-shift CG (MILC's multi-mass inverter): "
                                           "leave out --solver %s",
                                      qf_solver_name(sp->kind));
        if (!sp->even_odd)
            return qf_app_usage_error(cmd, "--masses solves on the even and odd sites by multi-shift CG: leave out --full");
    }
    if (sp->kind == QF_SOLVER_CG && !sp->even_odd)
        return qf_app_usage_error(cmd, "--solver cg with --full: the full asqtad M = 2m + D is not hermitian; CG solves "
                                       "the even-odd system (leave out --full), or give --solver bicgstab or gcr");
    return 0;
}

void qf_app_format_masses(const qf_app_quarks *q, char *out, size_t size)
{
    size_t n = 0;
    out[0] = 0;
    for (int k = 0; k < q->nmass && n < size; k++) n += (size_t)snprintf(out + n, size - n, "%s%g", k ? ", " : "", q->mass[k]);
}

void qf_app_print_asqtad(const qf_app_quarks *q, const double phase[4][2], qf_precision prec, int even_odd)
{
    char masses[512];
    qf_app_format_masses(q, masses, sizeof masses);
    printf("operator      asqtad (MILC: M = 2m + D), mass%s %s, u0 %g, %s precision%s\n", q->nmass > 1 ? "es" : "", masses,
           q->u0, qf_precision_name(prec), even_odd ? ", even-odd system 2m - D_eo D_oe / 2m" : ", full lattice");
    qf_app_print_boundary(phase);
}

void qf_app_u0_note(int u0_given, double plaquette)
{
    if (u0_given || qf_runtime_rank() != 0) return;
    fflush(stdout); /* the note after the lines before it */
    char field[96] = "";
    if (plaquette > 0.0)
        snprintf(field, sizeof field, ": %.6f for this field (plaquette %.6f)", pow(plaquette, 0.25), plaquette);
    fprintf(stderr,
            "quarkflow: note: --u0 not given, so the links are smeared with u0 = 1 (no tadpole factor); MILC runs give "
            "u0 explicitly, usually the fourth root of the plaquette (Re Tr / 3)%s\n",
            field);
}

int qf_app_asqtad_links(const qf_field *gauge, double u0, const double phase[4][2], qf_asqtad_smearing smearing,
                        qf_field **links, double *seconds)
{
    qf_asqtad_link_params lp = qf_asqtad_default_link_params(u0);
    lp.algorithm = smearing;
    memcpy(lp.phase, phase, sizeof lp.phase);
    qf_runtime_wait_all();
    double t0 = qf_wtime();
    int rc = qf_asqtad_links(gauge, &lp, links);
    if (!rc) qf_runtime_wait_all();
    *seconds = qf_wtime() - t0;
    return rc;
}

int qf_app_asqtad_create(qf_asqtad **op, const qf_field *gauge, const qf_app_quarks *q, const double phase[4][2],
                         qf_precision prec, double plaquette)
{
    qf_field *links = NULL;
    double seconds = 0.0;
    *op = NULL;
    int rc;
    if (q->fat_file) { /* the links as quarkflow links wrote them: the gauge field's boundary phases are in them */
        rc = qf_asqtad_links_load(qf_field_lattice(gauge), q->fat_file, q->long_file, &links);
        if (!rc) printf("links         asqtad fat and Naik links read from %s and %s\n", q->fat_file, q->long_file);
    } else {
        rc = qf_app_asqtad_links(gauge, q->u0, phase, QF_SMEAR_STANDARD, &links, &seconds);
        if (!rc) {
            printf("links         asqtad fat and Naik links (MILC's path coefficients), u0 %g%s, smeared in %.3f s\n", q->u0,
                   q->u0_given ? "" : " (default)", seconds);
            qf_app_u0_note(q->u0_given, plaquette);
        }
    }
    if (!rc) {
        qf_asqtad_params ap = {.mass = q->mass[0], .prec = prec};
        rc = qf_asqtad_create(op, links, &ap);
        if (!rc) qf_runtime_wait_all();
    }
    if (links) qf_field_destroy(links);
    return rc;
}
