/* quarkflow links: the asqtad fat and Naik links of a gauge file (qf_asqtad_links: MILC's path
 * coefficients for a tadpole factor u0, on links that carry the staggered and boundary phases) as a
 * task graph, with the coefficients, the smearing's time and a check line per link set, written as
 * SciDAC colour-matrix files. */
#include "app.h"
#include "commands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow links GAUGE_FILE [options]\n"
    "\n"
    "Builds the improved staggered (asqtad) fat links F_mu and Naik (long) links L_mu of a gauge file as\n"
    "MILC does, as a task graph: the links times the staggered phases and the boundary phases (--bc),\n"
    "smeared with MILC's path coefficients for the tadpole factor u0 (one-link 5/8, Naik -1/(24 u0^2),\n"
    "3-staple -1/(16 u0^2), 5-staple 1/(64 u0^4), 7-staple -1/(384 u0^6), Lepage -1/(16 u0^4)). Prints\n"
    "the coefficients in that order, the smearing's time, and for each link set the averages over the\n"
    "sites of Re Tr of the link of each direction and of |link|^2 = Tr(link^dag link) over all four:\n"
    "numbers to compare between runs. --out-fat and --out-long write the links as SciDAC files of 4\n"
    "colour matrices a site (x, y, z, t; QDP_D3_ColorMatrix or QDP_F3_ColorMatrix, SciDAC checksums).\n"
    "\n"
    "  --u0 U              tadpole factor, in (0, 1] (default 1: none; MILC runs give it, usually the\n"
    "                      fourth root of the plaquette)\n"
    "  --bc X Y Z T        boundary phases as for quarkflow apply (default periodic in space,\n"
    "                      antiperiodic in t: MILC's)\n"
    "  --format F          input format: auto (default), nersc, milc, scidac, ildg, bridge, ddalpha\n"
    "  --dim X Y Z T       lattice extents (needed for Bridge++ text files; checked otherwise)\n"
    "  --blocks BX BY BZ BT  block grid of the task graph (at least 2 sites a block in every direction;\n"
    "                      default: 1 per GPU; without GPUs up to 4 per CPU worker, as the smearing's\n"
    "                      tasks run faster spread over blocks than shared on one)\n"
    "  --out-fat FILE      write the fat links F_mu\n"
    "  --out-long FILE     write the Naik links L_mu\n"
    "  --out-bits 32|64    precision written (default 64; --out-prec single|double says the same)\n"
    "  --smearing S        standard (default: 72 one-hop staple steps, faces exchanged at each) or extended\n"
    "                      (each block with a 2-deep halo gathered once, then no messages); the same links\n"
    "\n"
    "solve and propagator --action asqtad read the files back with --fat FILE --long FILE (instead of\n"
    "smearing the links of their gauge field).\n\n";

typedef struct {
    const char *gauge_file, *out_fat, *out_long;
    qf_gauge_format format;
    int dims[4], blocks[4], out_bits, u0_given;
    double u0, phase[4][2];
    qf_asqtad_smearing smearing;
} links_opts;

static int parse(int argc, char **argv, links_opts *o)
{
    memset(o, 0, sizeof *o);
    o->u0 = 1.0;
    o->out_bits = 64;
    qf_asqtad_link_params lp = qf_asqtad_default_link_params(1.0);
    memcpy(o->phase, lp.phase, sizeof o->phase);
    const char *cmd = "links";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--smearing")) {
            if (i + 1 >= argc || qf_asqtad_smearing_parse(argv[i + 1], &o->smearing))
                return qf_app_usage_error(cmd, "--smearing needs standard or extended");
            i++;
            continue;
        }
        if (!strcmp(a, "--u0")) {
            rc = qf_app_double(cmd, argc, argv, &i, &o->u0);
            if (!rc && !(o->u0 > 0.0 && o->u0 <= 1.0))
                return qf_app_usage_error(cmd, "--u0 %g: the tadpole factor lies in (0, 1] (the fourth root of the "
                                               "plaquette, or 1 for none)",
                                          o->u0);
            o->u0_given = 1;
        } else if (!strcmp(a, "--bc")) {
            rc = qf_app_bc(cmd, argc, argv, &i, o->phase);
        } else if (!strcmp(a, "--format")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "--format needs a value");
            if (qf_gauge_format_parse(argv[++i], &o->format)) return qf_app_usage_error(cmd, "%s", qf_last_error());
        } else if (!strcmp(a, "--dim")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->dims);
        } else if (!strcmp(a, "--blocks")) {
            rc = qf_app_dims(cmd, argc, argv, &i, o->blocks);
        } else if (!strcmp(a, "--out-fat") || !strcmp(a, "--out-long")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "%s needs a file name", a);
            *(!strcmp(a, "--out-fat") ? &o->out_fat : &o->out_long) = argv[++i];
        } else if (!strcmp(a, "--out-bits")) {
            const char *v = i + 1 < argc ? argv[i + 1] : "";
            if (strcmp(v, "32") && strcmp(v, "64")) return qf_app_usage_error(cmd, "--out-bits needs 32 or 64");
            o->out_bits = atoi(v);
            i++;
        } else if (!strcmp(a, "--out-prec")) {
            qf_precision p;
            if (i + 1 >= argc || qf_precision_parse(argv[i + 1], &p) || qf_precision_check_full(p, a))
                return qf_app_usage_error(cmd, "%s needs double or single", a);
            o->out_bits = p == QF_DOUBLE ? 64 : 32;
            i++;
        } else if (a[0] == '-' && a[1]) {
            return qf_app_usage_error(cmd, "unknown option '%s'", a);
        } else if (!o->gauge_file) {
            o->gauge_file = a;
        } else {
            return qf_app_usage_error(cmd, "unexpected argument '%s' (one gauge file)", a);
        }
        if (rc) return rc;
    }
    if (!o->gauge_file) return qf_app_usage_error(cmd, "needs a GAUGE_FILE");
    if (o->out_fat && o->out_long && !strcmp(o->out_fat, o->out_long))
        return qf_app_usage_error(cmd, "--out-fat and --out-long name the same file '%s'", o->out_fat);
    return 0;
}

/* The averages over the sites of Re Tr of each direction's link and of |link|^2 over all four, of the
 * fat (set 0) and the Naik (set 1) links; local: this process's sites, 144 reals a site. */
static int check_lines(const qf_lattice *lat, const double *local)
{
    double sums[2][5] = {{0}};
    for (int64_t i = 0; i < lat->local_volume; i++)
        for (int set = 0; set < 2; set++)
            for (int mu = 0; mu < 4; mu++) {
                const double *m = local + 144 * i + 72 * set + 18 * mu;
                sums[set][mu] += m[0] + m[8] + m[16];
                for (int k = 0; k < 18; k++) sums[set][4] += m[k] * m[k];
            }
    if (qf_runtime_sum_doubles(&sums[0][0], 10)) return QF_ERROR;
    double v = (double)lat->global_volume;
    for (int set = 0; set < 2; set++)
        printf("%-13s <Re Tr %c_mu> x %+.12e y %+.12e z %+.12e t %+.12e, <|%c|^2> %.12e\n",
               set ? "Naik links" : "fat links", set ? 'L' : 'F', sums[set][0] / v, sums[set][1] / v, sums[set][2] / v,
               sums[set][3] / v, set ? 'L' : 'F', sums[set][4] / (4.0 * v));
    return QF_SUCCESS;
}

static int run(const links_opts *o, const int dims[4])
{
    qf_lattice lat;
    qf_field *u = NULL, *links = NULL;
    qf_gauge_info g;
    double *local = NULL, seconds = 0.0;
    /* the smearing's staples reach 2 sites: blocks of at least 2 */
    int rc = qf_app_lattice_spread(&lat, dims, o->blocks, 2) || qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
             qf_gauge_load(u, o->gauge_file, o->format, &g);
    if (!rc) {
        printf("gauge         %s (%s, %d-bit), lattice %d %d %d %d, plaquette %.16f\n", o->gauge_file,
               qf_gauge_format_name(g.format), g.precision_bits, dims[0], dims[1], dims[2], dims[3], g.plaquette);
        qf_app_gauge_warning(o->gauge_file, &g);
    }
    rc = rc || qf_app_asqtad_links(u, o->u0, o->phase, o->smearing, &links, &seconds);
    if (u) qf_field_destroy(u);
    if (!rc) {
        qf_asqtad_coefficients c = qf_asqtad_coefficients_for(o->u0);
        printf("links         asqtad fat and Naik links, u0 %g%s, smeared in %.3f s (%s algorithm, task graph: blocks %d x %d x "
               "%d x %d, %d CPU + %d CUDA workers)\n",
               o->u0, o->u0_given ? "" : " (default)", seconds, qf_asqtad_smearing_name(o->smearing), lat.blocks[0], lat.blocks[1], lat.blocks[2], lat.blocks[3],
               qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
        qf_app_u0_note(o->u0_given, g.plaquette);
        printf("coefficients  %e %e %e %e %e %e  (one-link, Naik, 3-staple, 5-staple, 7-staple, Lepage)\n", c.one_link,
               c.naik, c.staple3, c.staple5, c.staple7, c.lepage);
        qf_app_print_boundary(o->phase);
        local = malloc((size_t)lat.local_volume * 144 * sizeof *local);
        rc = !local ? qf_fail("out of host memory for the links of %lld sites", (long long)lat.local_volume)
                    : qf_field_export_local(links, local);
    }
    rc = rc || check_lines(&lat, local);
    if (!rc && (o->out_fat || o->out_long)) rc = qf_asqtad_links_save(links, o->out_fat, o->out_long, o->out_bits);
    for (int set = 0; set < 2 && !rc; set++)
        if (set ? o->out_long : o->out_fat)
            printf("wrote         %s (%s links: SciDAC QDP_%c3_ColorMatrix, 4 a site, %d-bit)\n", set ? o->out_long : o->out_fat,
                   set ? "Naik" : "fat", o->out_bits == 32 ? 'F' : 'D', o->out_bits);
    free(local);
    if (links) qf_field_destroy(links);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cmd_links(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    links_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if ((o.out_fat && qf_app_check_output("--out-fat", o.out_fat)) ||
        (o.out_long && qf_app_check_output("--out-long", o.out_long)))
        return qf_app_error();
    qf_gauge_info g; /* the lattice now; the links once the processes run (each reads its part) */
    if (qf_gauge_read_header(o.gauge_file, o.format, o.dims, &g)) return qf_app_error();
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = run(&o, g.dims);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
