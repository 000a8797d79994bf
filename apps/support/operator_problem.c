/* What quarkflow apply and quarkflow solve share (app.h): the options of the Wilson-clover operator
 * (also read by propagator and the benchmarks), and the problem both commands set up: the gauge field
 * (a file, or a generated start field), the operator (Wilson-clover, or for solve's --action asqtad
 * the asqtad one: support/staggered.c), the source and the output file. */
#include "app.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
            return qf_app_usage_error(command, "--prec needs double, single or half");
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--recon") || !strcmp(a, "--recon-sloppy")) {
        qf_recon r;
        if (*i + 1 >= argc || qf_recon_parse(argv[*i + 1], &r))
            return qf_app_usage_error(command, "%s needs 18, 12 or 8 (reals kept a link)", a);
        *i += 1;
        if (!strcmp(a, "--recon-sloppy")) {
            p->recon_sloppy = r;
            return 0;
        }
        p->recon = r;
        /* as in QUDA's test programs, the sloppy copies follow --recon unless told otherwise */
        int sloppy_given = 0;
        for (int k = 1; k < argc; k++) sloppy_given |= !strcmp(argv[k], "--recon-sloppy");
        if (!sloppy_given) p->recon_sloppy = r;
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
    if (p->recon != QF_RECON_18 || p->recon_sloppy != QF_RECON_18)
        printf("links         reconstruct %s (%d reals a link), sloppy copies %s\n", qf_recon_name(p->recon),
               qf_recon_link_reals(p->recon), qf_recon_name(p->recon_sloppy));
    qf_app_print_boundary(p->phase);
}

void qf_app_print_boundary(const double phase[4][2])
{
    printf("boundary      ");
    static const char dir[4] = {'x', 'y', 'z', 't'};
    for (int mu = 0; mu < 4; mu++) {
        const double *z = phase[mu];
        if (z[0] == 1.0 && z[1] == 0.0) printf("%c periodic", dir[mu]);
        else if (z[0] == -1.0 && z[1] == 0.0) printf("%c antiperiodic", dir[mu]);
        else printf("%c (%.6g, %.6g)", dir[mu], z[0], z[1]);
        printf(mu < 3 ? ", " : "\n");
    }
}

void qf_app_problem_defaults(qf_app_problem *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->start = QF_START_WEAK;
    pr->seed = 1;
    pr->eps = 0.1;
    pr->p = qf_dirac_default_params(0.12);
    pr->form = QF_SCHUR_ASYMMETRIC;
    pr->source = "point";
    pr->out_bits = 64;
    for (int mu = 0; mu < 4; mu++) pr->tile[mu] = 1;
    qf_app_quarks_defaults(&pr->q);
}

int qf_app_problem_option(const char *cmd, int argc, char **argv, int *i, qf_app_problem *o)
{
    const char *a = argv[*i];
    int rc = qf_app_dirac_option(cmd, argc, argv, i, &o->p, &o->form);
    if (rc != QF_APP_NOT_AN_OPERATOR_OPTION) return rc;
    if (!strcmp(a, "--format")) {
        if (*i + 1 >= argc) return qf_app_usage_error(cmd, "%s needs a value", a);
        if (qf_gauge_format_parse(argv[++*i], &o->format)) return qf_app_usage_error(cmd, "%s", qf_last_error());
        return 0;
    }
    if (!strcmp(a, "--dim")) return qf_app_dims(cmd, argc, argv, i, o->dims);
    if (!strcmp(a, "--blocks")) return qf_app_dims(cmd, argc, argv, i, o->blocks);
    if (!strcmp(a, "--tile")) return qf_app_dims(cmd, argc, argv, i, o->tile);
    if (!strcmp(a, "--out-prec")) {
        qf_precision p;
        if (*i + 1 >= argc || qf_precision_parse(argv[*i + 1], &p) || qf_precision_check_full(p, a))
            return qf_app_usage_error(cmd, "%s needs double or single", a);
        *i += 1;
        o->out_bits = p == QF_DOUBLE ? 64 : 32;
        return 0;
    }
    if (!strcmp(a, "--start")) {
        if (*i + 1 >= argc || qf_gauge_start_parse(argv[*i + 1], &o->start))
            return qf_app_usage_error(cmd, "--start needs cold, weak or hot");
        *i += 1;
        return 0;
    }
    if (!strcmp(a, "--seed")) return qf_app_u64(cmd, argc, argv, i, &o->seed);
    if (!strcmp(a, "--eps")) return qf_app_double(cmd, argc, argv, i, &o->eps);
    if (!strcmp(a, "--source")) {
        if (*i + 1 >= argc || !argv[*i + 1][0]) return qf_app_usage_error(cmd, "--source needs point, random or a file name");
        o->source = argv[++*i];
        return 0;
    }
    if (!strcmp(a, "--point")) {
        /* a staggered point is a site and a colour: X Y Z T COLOUR */
        int ks = qf_app_action_named(argc, argv) == QF_APP_ASQTAD, n = ks ? 5 : 6;
        if (*i + n >= argc)
            return qf_app_usage_error(cmd, ks ? "--point needs five values with --action asqtad: X Y Z T COLOUR"
                                              : "--point needs six values: X Y Z T SPIN COLOUR");
        memset(o->point, 0, sizeof o->point);
        for (int k = 0; k < n; k++) {
            int j = *i + k, *at = &o->point[ks && k == 4 ? 5 : k];
            rc = qf_app_int(cmd, argc, argv, &j, at);
            if (rc) return rc;
            if (*at < 0) return qf_app_usage_error(cmd, "--point: '%s' is negative", argv[*i + 1 + k]);
        }
        *i += n;
        /* a sixth number after an asqtad point is a Wilson point's spin, not a gauge file */
        char *end;
        if (ks && *i + 1 < argc && (strtol(argv[*i + 1], &end, 10), *end == 0 && end != argv[*i + 1]))
            return qf_app_usage_error(cmd, "--point takes five values with --action asqtad (X Y Z T COLOUR: a staggered "
                                           "field has no spin), and '%s' follows them",
                                      argv[*i + 1]);
        if (o->point[4] > 3) return qf_app_usage_error(cmd, "--point: spin %d is not 0..3", o->point[4]);
        if (o->point[5] > 2) return qf_app_usage_error(cmd, "--point: colour %d is not 0..2", o->point[5]);
        return 0;
    }
    if (!strcmp(a, "--out")) {
        if (*i + 1 >= argc) return qf_app_usage_error(cmd, "--out needs a file name");
        o->out = argv[++*i];
        return 0;
    }
    if (a[0] == '-' && a[1]) return QF_APP_NOT_A_PROBLEM_OPTION;
    if (o->gauge_file) return qf_app_usage_error(cmd, "unexpected argument '%s' (one gauge file at most)", a);
    o->gauge_file = a;
    return 0;
}

void qf_app_problem_out(const qf_app_problem *o, int k, char *path, size_t size)
{
    if (o->q.mass_list) snprintf(path, size, "%s.m%g", o->out, o->q.mass[k]);
    else snprintf(path, size, "%s", o->out);
}

int qf_app_problem_prepare(const char *cmd, const qf_app_problem *o, int dims[4])
{
    for (int k = 0; o->out && k < (o->q.mass_list ? o->q.nmass : 1); k++) {
        char path[4096];
        qf_app_problem_out(o, k, path, sizeof path);
        if (qf_app_check_output("--out", path)) return qf_app_error();
    }
    const int generated[4] = {8, 8, 8, 8};
    memcpy(dims, generated, sizeof generated);
    /* the lattice now; the links once the processes run (each reads its part) */
    int rc = qf_app_gauge_dims(cmd, o->gauge_file, o->format, o->dims, o->tile, dims);
    if (rc) return rc;
    if (!o->gauge_file) {
        if (o->dims[0]) memcpy(dims, o->dims, sizeof o->dims);
        char noise[64] = "";
        if (o->start == QF_START_WEAK) snprintf(noise, sizeof noise, " (eps %g)", o->eps);
        printf("gauge         generated %s start field%s, seed %llu, lattice %d %d %d %d\n", qf_gauge_start_name(o->start),
               noise, (unsigned long long)o->seed, dims[0], dims[1], dims[2], dims[3]);
    }
    for (int mu = 0; mu < 4 && !strcmp(o->source, "point"); mu++)
        if (o->point[mu] >= dims[mu])
            return qf_app_usage_error(cmd, "--point: coordinate %d of direction %c is outside the %d %d %d %d lattice",
                                      o->point[mu], "xyzt"[mu], dims[0], dims[1], dims[2], dims[3]);
    return 0;
}

/* |v|^2 of a field held in parts (this process's sites, qf_field_export_local's order), summed over
 * the processes; even_only: the even sites only. */
double qf_app_norm2(const double *v, const qf_lattice *lat, int site_reals, int even_only)
{
    double s = 0.0;
    for (int64_t i = 0; i < lat->local_volume; i++) {
        if (even_only) {
            int x[4];
            qf_lex_coords(qf_lattice_local_to_global(lat, i), lat->global, x);
            if (qf_parity(x)) continue;
        }
        for (int k = 0; k < site_reals; k++) s += v[site_reals * i + k] * v[site_reals * i + k];
    }
    qf_runtime_sum_doubles(&s, 1);
    return s;
}

/* Builds this process's part of the source: a Wilson colour-spinor (24 reals a site) or, for the
 * asqtad action, a colour vector (6). */
static int make_source(const qf_app_problem *o, const qf_lattice *lat, double *src)
{
    int64_t vol = lat->local_volume;
    int ks = o->q.action == QF_APP_ASQTAD, reals = ks ? 6 : 24;
    memset(src, 0, (size_t)vol * reals * sizeof *src);
    if (!strcmp(o->source, "point")) {
        int64_t at = qf_lex_index(o->point, lat->global);
        for (int64_t i = 0; i < vol; i++)
            if (qf_lattice_local_to_global(lat, i) == at) src[i * reals + (o->point[4] * 3 + o->point[5]) * 2] = 1.0;
        if (ks)
            printf("source        point at (%d, %d, %d, %d), colour %d\n", o->point[0], o->point[1], o->point[2],
                   o->point[3], o->point[5]);
        else
            printf("source        point at (%d, %d, %d, %d), spin %d, colour %d\n", o->point[0], o->point[1], o->point[2],
                   o->point[3], o->point[4], o->point[5]);
        return QF_SUCCESS;
    }
    if (!strcmp(o->source, "random")) {
        if (ks) qf_app_random_colour_vector_local(src, lat, o->seed);
        else qf_app_random_spinor_local(src, lat, o->seed);
        printf("source        random complex Gaussian, seed %llu\n", (unsigned long long)o->seed);
        return QF_SUCCESS;
    }
    int bits;
    double *psi;
    if (ks ? qf_colour_vector_read_local(lat, o->source, &psi, &bits) : qf_dirac_fermion_read_local(lat, o->source, &psi, &bits))
        return qf_fail_context("--source %s (the source must be a SciDAC %s of the gauge field's lattice)", o->source,
                               ks ? "colour vector (MILC's ksvector files)" : "Dirac fermion");
    memcpy(src, psi, (size_t)vol * reals * sizeof *src);
    free(psi);
    printf("source        %s (SciDAC %s, %d-bit)\n", o->source, ks ? "colour vector" : "Dirac fermion", bits);
    return QF_SUCCESS;
}

/* --out: every process writes its part of the solution or result. */
int qf_app_write_result(const qf_app_problem *o, const char *path, const qf_field *out, const char *what)
{
    int ks = o->q.action == QF_APP_ASQTAD;
    int rc = ks ? qf_field_save_colour_vector(out, path, o->out_bits) : qf_field_save_dirac_fermion(out, path, o->out_bits);
    if (!rc)
        printf("wrote         %s (%s; SciDAC %s_%c3_%s, %d-bit)\n", path, what, ks ? "QDP" : "USQCD",
               o->out_bits == 32 ? 'F' : 'D', ks ? "ColorVector" : "DiracFermion", o->out_bits);
    return rc;
}

static void print_gauge_file(const char *path, const qf_gauge_info *g, const int tile[4])
{
    char tiled[96] = "";
    if (qf_app_tiled(tile))
        snprintf(tiled, sizeof tiled, ", tiled %d %d %d %d times to %d %d %d %d", tile[0], tile[1], tile[2], tile[3],
                 g->dims[0] * tile[0], g->dims[1] * tile[1], g->dims[2] * tile[2], g->dims[3] * tile[3]);
    printf("gauge         %s (%s, %d-bit), lattice %d %d %d %d, plaquette %.16f%s\n", path, qf_gauge_format_name(g->format),
           g->precision_bits, g->dims[0], g->dims[1], g->dims[2], g->dims[3], g->plaquette, tiled);
    qf_app_gauge_warning(path, g);
}

int qf_app_setup_create(qf_app_setup *s, const qf_app_problem *o, const int dims[4], const qf_solver_params *sp)
{
    memset(s, 0, sizeof *s);
    qf_field *u = NULL;
    qf_gauge_info g;
    qf_lattice *lat = &s->lat;
    int ks = o->q.action == QF_APP_ASQTAD;
    s->site_reals = ks ? 6 : 24;
    /* the asqtad operator's Naik hop reaches 3 sites: blocks of at least 4 */
    int rc = qf_app_lattice(lat, dims, o->blocks, ks ? 4 : 1, sp);
    if (!rc) {
        s->src = malloc((size_t)lat->local_volume * s->site_reals * sizeof *s->src);
        s->res = calloc((size_t)lat->local_volume * s->site_reals, sizeof *s->res);
        if (!s->src || !s->res)
            rc = qf_fail("out of host memory for two colour-spinor fields of %lld sites", (long long)lat->local_volume);
    }
    rc = rc || qf_field_create(&u, lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
         (o->gauge_file ? qf_app_gauge_load_tiled(u, o->gauge_file, o->format, o->tile, &g)
                        : qf_gauge_start(u, o->start, o->seed, o->eps));
    if (!rc && o->gauge_file) print_gauge_file(o->gauge_file, &g, o->tile);
    rc = rc || make_source(o, lat, s->src);
    double plaquette = NAN; /* for the note on u0 */
    if (!rc && ks && !o->q.u0_given) {
        qf_gauge_observables obs;
        if (o->gauge_file) plaquette = g.plaquette;
        else if (!(rc = qf_gauge_measure(u, &obs))) plaquette = obs.plaquette;
    }
    double t_build = qf_wtime();
    if (ks) rc = rc || qf_app_asqtad_create(&s->ks, u, &o->q, o->p.phase, o->p.prec, plaquette);
    else rc = rc || qf_dirac_create(&s->d, u, &o->p, o->form);
    if (!rc) qf_runtime_wait_all();
    s->build_seconds = qf_wtime() - t_build;
    if (u) qf_field_destroy(u);
    qf_field_kind kind = ks ? QF_FIELD_STAGGERED : QF_FIELD_WILSON;
    rc = rc || qf_field_create(&s->in, lat, kind, o->p.prec, 0) || qf_field_create(&s->out, lat, kind, o->p.prec, 0) ||
         qf_field_import_local(s->in, s->src);
    if (rc) qf_app_setup_destroy(s);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_app_setup_linop(qf_app_setup *s, qf_linop **M)
{
    return s->ks ? qf_asqtad_linop(s->ks, M) : qf_dirac_linop(s->d, M);
}

void qf_app_print_problem_operator(const qf_app_problem *o, int even_odd)
{
    if (o->q.action == QF_APP_ASQTAD) qf_app_print_asqtad(&o->q, o->p.phase, o->p.prec, even_odd);
    else qf_app_print_operator(&o->p, o->form);
}

void qf_app_setup_destroy(qf_app_setup *s)
{
    if (s->d) qf_dirac_destroy(s->d);
    if (s->ks) qf_asqtad_destroy(s->ks);
    if (s->in) qf_field_destroy(s->in);
    if (s->out) qf_field_destroy(s->out);
    free(s->src);
    free(s->res);
    memset(s, 0, sizeof *s);
}
