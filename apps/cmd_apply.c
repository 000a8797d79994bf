/* quarkflow apply: one application of the Wilson-clover Dirac operator (qf_dirac.h) or of the asqtad
 * operator (qf_staggered.h, --action asqtad) as a task graph, on a gauge file or a generated start
 * field, with a point, random or file source; the result goes to a SciDAC/USQCD Dirac-fermion file or
 * a SciDAC colour-vector file. */
#include "app.h"
#include "commands.h"

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
    "  --eps E             weak-field noise (default 0.1)\n" QF_APP_TILE_HELP
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
    "  --prec P            precision of the operator and its fields: double (default), single or half\n"
    "  --recon 18|12|8     reals kept a gauge link: whole links, two rows, or QUDA's 8 (default 18);\n"
    "                      the kernels rebuild the rest, which needs SU(3) links\n"
    "  --recon-sloppy R    the same for the operator's copies in a solver's sloppy precision (default:\n"
    "                      as --recon)\n"
    QF_APP_BLOCKS_HELP
    "Source and result:\n"
    "  --source SRC        point (default), random (complex Gaussian, --seed), or a FILE holding a\n"
    "                      SciDAC Dirac fermion of the lattice's size (write ./point for a file named point)\n"
    "  --point X Y Z T S C  site, spin and colour of the point source (default 0 0 0 0 0 0)\n"
    "  --out FILE          write the result (all sites; the even-odd operators leave the odd sites 0)\n"
    "  --out-prec double|single  precision written (default double)\n"
    "\n"
    "The even-odd operators read the even sites of the source only. Norms are sums of squares over\n"
    "the whole lattice (|x|^2).\n"
    "\n"
    "Improved staggered (asqtad) quarks: --action asqtad --mass m [--u0 U | --fat F --long L] with --op D\n"
    "(the hopping term), M (2m + D, default), Mdag (2m - D) or Mhat (2m - D_eo D_oe / 2m on the even\n"
    "sites); --point X Y Z T C, --source a SciDAC colour vector, --out writes one.\n"
    "\n" QF_APP_ASQTAD_HELP "\n";

/* The asqtad operators apply knows. */
typedef enum { KS_D = 0, KS_M, KS_MDAG, KS_MHAT } ks_op;
static const char *const ks_op_names[] = {"D", "M", "Mdag", "Mhat"};

static int parse(int argc, char **argv, qf_app_problem *o, qf_dirac_op *op, ks_op *kop)
{
    qf_app_problem_defaults(o);
    *op = QF_OP_M;
    *kop = KS_M;
    int ks = qf_app_action_named(argc, argv) == QF_APP_ASQTAD;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc;
        if (!strcmp(a, "--op")) {
            const char *v = i + 1 < argc ? argv[i + 1] : "";
            int k = 0;
            while (ks && k <= KS_MHAT && strcmp(v, ks_op_names[k])) k++;
            if (ks && k > KS_MHAT)
                return qf_app_usage_error("apply", "--op '%s' is not one of D, M, Mdag, Mhat (the asqtad operators)", v);
            if (!ks && qf_app_op_parse(v, op))
                return qf_app_usage_error("apply", "--op '%s' is not one of M, Mdag, MdagM, Mhat, Mhat_dag, Mhat_dag_Mhat", v);
            *kop = (ks_op)k;
            i++;
            continue;
        }
        rc = qf_app_quark_option("apply", argc, argv, &i, &o->q);
        if (rc == QF_APP_NOT_A_QUARK_OPTION) rc = qf_app_problem_option("apply", argc, argv, &i, o);
        if (rc == QF_APP_NOT_A_PROBLEM_OPTION) return qf_app_usage_error("apply", "unknown option '%s'", a);
        if (rc) return rc;
    }
    return ks && o->q.mass_list ? qf_app_usage_error("apply", "--masses belongs to solve and propagator: apply takes one --mass")
                                : qf_app_quarks_check("apply", &o->q, NULL);
}

/* The asqtad operator kop on the source; its flops by QUDA's count into *flops. */
static int apply_asqtad(qf_app_setup *s, const qf_app_problem *o, ks_op kop, double *flops)
{
    double m = o->q.mass[0], v = (double)s->lat.global_volume, d = qf_asqtad_dslash_flops(&s->lat);
    if (kop == KS_D) {
        *flops = d;
        return qf_asqtad_dslash(s->ks, s->out, s->in);
    }
    if (kop != KS_MHAT) {
        *flops = d + 12.0 * v;
        return qf_asqtad_apply_m(s->ks, m, kop == KS_MDAG, s->out, s->in);
    }
    qf_linop *M = NULL, *Mhat = NULL;
    int rc = qf_asqtad_linop(s->ks, &M) || qf_linop_schur(M, &Mhat) || qf_blas_axpby(0.0, NULL, 0.0, s->out, -1) ||
             qf_linop_apply(Mhat, s->out, s->in);
    *flops = rc ? 0.0 : qf_linop_flops(Mhat, 0);
    qf_linop_destroy(M);
    return rc;
}

static int run(const qf_app_problem *o, qf_dirac_op op, ks_op kop, const int dims[4])
{
    qf_app_setup s;
    int rc = qf_app_setup_create(&s, o, dims, NULL);
    if (rc) return QF_ERROR;
    int ks = s.ks != NULL, n = s.site_reals;
    double flops = 0.0;
    qf_runtime_wait_all();
    double t_apply = qf_wtime();
    rc = ks ? apply_asqtad(&s, o, kop, &flops) : qf_dirac_apply(s.d, op, s.out, s.in);
    qf_runtime_wait_all();
    t_apply = qf_wtime() - t_apply;
    rc = rc || qf_field_export_local(s.out, s.res);
    if (!rc) {
        const qf_lattice *lat = &s.lat;
        int eo = ks ? kop == KS_MHAT : op >= QF_OP_MHAT;
        if (ks) qf_app_print_asqtad(&o->q, o->p.phase, o->p.prec, eo);
        else qf_app_print_operator(&o->p, o->form);
        printf("task graph    %s precision, blocks %d x %d x %d x %d of %d x %d x %d x %d sites, %d CPU + %d CUDA workers\n",
               qf_precision_name(o->p.prec), lat->blocks[0], lat->blocks[1], lat->blocks[2], lat->blocks[3], lat->block[0],
               lat->block[1], lat->block[2], lat->block[3], qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
        printf("op            %s%s\n", ks ? ks_op_names[kop] : qf_dirac_op_name(op),
               eo ? " (even-odd: reads and writes the even sites)" : " (full lattice)");
        printf("|source|^2    %.15e", qf_app_norm2(s.src, lat, n, 0));
        if (eo) printf("   (even sites %.15e)", qf_app_norm2(s.src, lat, n, 1));
        printf("\n|result|^2    %.15e\n", qf_app_norm2(s.res, lat, n, 0));
        if (!ks) flops = qf_dirac_flops(s.d, op);
        printf("time          %.3f ms for the application (%.3g flops, %.2f GFLOPS); operator built in %.3f s\n",
               1e3 * t_apply, flops, flops / t_apply * 1e-9, s.build_seconds);
        if (o->out) rc = qf_app_write_result(o, o->out, s.out, "the result");
    }
    qf_app_setup_destroy(&s);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_cmd_apply(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    qf_app_problem o;
    qf_dirac_op op;
    ks_op kop;
    int dims[4];
    int rc = parse(argc, argv, &o, &op, &kop);
    if (rc || (rc = qf_app_problem_prepare("apply", &o, dims))) return rc;
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = run(&o, op, kop, dims);
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
