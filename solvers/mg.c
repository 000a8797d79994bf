/* Adaptive multigrid (include/quarkflow/qf_multigrid.h), as seed 003 and DDalphaAMG's K-cycle:
 *
 *   setup, level l = 0 .. levels-2 on the operator A_l:
 *     v_k = Gaussian noise; setup_iter times: v_k = BiCGStab_{setup_krylov}(A_l) v_k (inverse iteration),
 *           orthogonalised against v_0 .. v_{k-1} and normalised
 *     T_l = the transfer of the v_k (block-orthonormalised on aggregates and chiralities)
 *     A_{l+1} = R_l A_l P_l (built directly from A_l's links)
 *   then setup_refine cycles, level l = 0 .. levels-2 of the built hierarchy:
 *     v_k = GCR_{refine_iter}(A_l, preconditioned by K_l) v_k, orthonormalised; T_l and A_{l+1} rebuilt
 *
 *   K-cycle, z = K_l r on level l < levels-1:
 *     r_c = R_l r
 *     e_c = GCR on A_{l+1} e_c = r_c to coarse_tol (preconditioned by K_{l+1} unless l+1 is the coarsest,
 *           which is solved on its even-odd Schur system)
 *     z = P_l e_c;  z += S_l (r - A_l z)                                   (post-smoothing)
 *     (with the even-odd smoother in place: the Schur source prepare(r) - Ahat (P_l e_c)_e, so neither
 *     A_l z nor the odd sites of P_l e_c are needed; eo_smoother_correct)
 *
 *   on level 0's Schur system, z_e = Khat r_e (the outer GCR's preconditioner, cycle_schur_run):
 *     r_c = R (r_e, 0);  e_c as above;  y_e = (P e_c)_e;  z_e = y_e + S_hat (r_e - Ahat y_e)
 *
 *   S_l: smoother_steps MR steps on A_l's even-odd Schur system (source prepared, odd sites
 *        reconstructed), which damps the high modes far better than MR on A_l itself (on the
 *        DDalphaAMG 8^4 field at m0 = -0.33, 4 MR steps on the full operator left 41 outer
 *        iterations); MR on A_l where it has no even-odd form. On level 0, optionally the Schwarz
 *        smoother (smoother QF_MG_SMOOTHER_SAP, qf_precond_sap): fewer outer iterations, more time
 *        (RESULTS).
 *
 * Everything runs in the hierarchy's precision; the outer flexible GCR (qf_solve's kind MG) may run
 * in double around it. Written against the operator, preconditioner, transfer and BLAS interfaces. */
#include "krylov.h"
#include "quarkflow/qf_multigrid.h"
#include "quarkflow/qf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct qf_mg *mg;
    int l;
    int schur; /* the K-cycle on level 0's Schur system (cycle_schur_run) rather than on level l */
} level_ref;

struct qf_mg {
    qf_mg_params p;
    qf_linop *op[QF_MG_MAX_LEVELS];       /* op[0]: the fine operator in the hierarchy's precision (A's) */
    qf_transfer *T[QF_MG_MAX_LEVELS];     /* T[l]: level l to l + 1 */
    qf_precond *smoother[QF_MG_MAX_LEVELS];
    qf_precond *cycle[QF_MG_MAX_LEVELS];  /* K_l, l < levels - 1 */
    qf_precond *cycle_schur;              /* K_0 on level 0's Schur system, where its smoother is in place */
    level_ref ref_schur;
    qf_field **vec[QF_MG_MAX_LEVELS];     /* level l's near-null vectors, kept for the refinement cycles */
    level_ref ref[QF_MG_MAX_LEVELS];
    qf_task_scope scope[QF_MG_MAX_LEVELS]; /* where level l's tasks run, and where they ran */
    qf_task_scope dense_scope;             /* the GPU's, for a dense inverse too large for a core */
    int measured[QF_MG_MAX_LEVELS];        /* 1: level l placed auto, its placement chosen by timing */
    qf_scalar *one_task[QF_MG_MAX_LEVELS]; /* level l's solves inside one-task solves: iterations, seconds */
    int one_task_from;                     /* the first level solved in one task (levels: none) */
    int64_t dense_dim;                     /* the coarsest level's Schur inverse (0: none) */
    double dense_residual, dense_seconds;
    qf_mg_stats stats;
};

qf_mg_params qf_mg_default_params(void)
{
    qf_mg_params p = {.levels = QF_MG_LEVELS_AUTO, .setup_iter = 3, .setup_krylov = 24, .setup_refine = 0, .refine_iter = 4,
                      .smoother_steps = 5, .coarse_tol = 0.25, .coarse_max_iter = 100, .coarse_nkrylov = 64,
                      .coarse_dense = QF_MG_DENSE_AUTO, .coarse_one_task = 3, .smoother = QF_MG_SMOOTHER_MR, .sap_block = {4, 4, 4, 4},
                      .sap_cycles = 4, .sap_mr = 4, .prec = QF_SINGLE, .seed = 1};
    for (int l = 0; l < QF_MG_MAX_LEVELS; l++) {
        p.nvec[l] = 24;
        for (int mu = 0; mu < QF_NDIM; mu++) p.block[l][mu] = l == 0 ? 4 : 2;
    }
    return p;
}

/* How many of the first `want` coarsenings of lat by p's aggregates succeed, each coarse lattice as
 * qf_transfer_create will make it (merged into one block a process under coarse_one_task 3). With
 * report the first that fails records qf_lattice_coarsen's error, naming the direction; without, none
 * is recorded. */
static int coarsenings(const qf_lattice *lat, const qf_mg_params *p, int want, int report)
{
    qf_lattice cur = *lat, next;
    int n = 0;
    while (n < want && (report || qf_lattice_can_coarsen(&cur, p->block[n])) &&
           !qf_lattice_coarsen(&next, &cur, p->block[n], p->coarse_one_task == 3)) {
        cur = next;
        n++;
    }
    return n;
}

int qf_mg_levels_for(const qf_lattice *lat, const qf_mg_params *p)
{
    if (p->levels != QF_MG_LEVELS_AUTO) return p->levels;
    int levels = 1 + coarsenings(lat, p, QF_MG_AUTO_MAX_LEVELS - 1, 0);
    return levels < 2 ? 2 : levels; /* two levels that do not fit fail in the setup, naming the direction */
}

static int check_params(const qf_mg_params *p)
{
    if (p->levels < 2 || p->levels > QF_MG_MAX_LEVELS)
        return qf_fail("multigrid with %d levels: give 2 to %d", p->levels, QF_MG_MAX_LEVELS);
    for (int l = 0; l < p->levels - 1; l++)
        if (p->nvec[l] < 1 || p->nvec[l] > QF_MG_MAX_NVEC)
            return qf_fail("multigrid level %d with %d near-null vectors: give 1 to %d", l, p->nvec[l], QF_MG_MAX_NVEC);
    if (p->setup_iter < 1 || p->setup_krylov < 1)
        return qf_fail("multigrid setup of %d rounds of %d iterations: give at least one of each", p->setup_iter,
                       p->setup_krylov);
    if (p->setup_refine < 0 || p->refine_iter < 1)
        return qf_fail("multigrid setup refinement of %d cycles of %d iterations: give 0 or more cycles of at least one "
                       "iteration",
                       p->setup_refine, p->refine_iter);
    if (p->smoother_steps < 0) return qf_fail("multigrid smoother of %d steps: give 0 or more", p->smoother_steps);
    if (p->smoother != QF_MG_SMOOTHER_MR && p->smoother != QF_MG_SMOOTHER_SAP)
        return qf_fail("multigrid smoother %d: give QF_MG_SMOOTHER_MR or QF_MG_SMOOTHER_SAP", p->smoother);
    if (p->coarse_nkrylov < 1 || p->coarse_nkrylov > QF_COARSE_ONE_TASK_MAX_NKRYLOV)
        return qf_fail("multigrid coarse solves by GCR(%d): give 1 to %d search directions", p->coarse_nkrylov,
                       QF_COARSE_ONE_TASK_MAX_NKRYLOV);
    if (!(p->coarse_tol > 0.0 && p->coarse_tol < 1.0) || p->coarse_max_iter < 1)
        return qf_fail("multigrid coarse solves to tolerance %g in %d iterations: the tolerance is between 0 and 1 "
                       "(e.g. 0.25), the iterations at least 1",
                       p->coarse_tol, p->coarse_max_iter);
    if (p->coarse_dense < QF_MG_DENSE_AUTO || p->coarse_dense > QF_COARSE_DENSE_MAX_DIM)
        return qf_fail("multigrid coarsest dense inverse up to dimension %d: give 0 (never) to %d, or %d (auto)",
                       p->coarse_dense, QF_COARSE_DENSE_MAX_DIM, QF_MG_DENSE_AUTO);
    if (p->coarse_one_task < 0 || p->coarse_one_task > 3)
        return qf_fail("multigrid coarse_one_task = %d: give 3 (every coarse lattice one block, each coarse solve one "
                       "task with the levels below), 2 (the coarsest lattice one block, its solves one task), 1 (one "
                       "task a coarsest solve where its lattice is one block anyway) or 0 (task graphs)",
                       p->coarse_one_task);
    if (qf_precision_check_full(p->prec, "multigrid")) return QF_ERROR;
    if (p->smoother_prec == QF_HALF && p->smoother != QF_MG_SMOOTHER_MR)
        return qf_fail("multigrid smoother in half precision: the half smoother is the even-odd MR one (--mg-smoother mr)");
    if ((p->coarse_link_prec == QF_HALF || p->null_prec == QF_HALF) && p->prec != QF_SINGLE)
        return qf_fail("multigrid coarse links or near-null vectors in half precision under a %s hierarchy: half "
                       "links and vectors come with a single precision hierarchy (--mg-prec single)",
                       qf_precision_name(p->prec));
    for (int l = 0; l < p->levels; l++) {
        char what[64];
        snprintf(what, sizeof what, "multigrid level %d (--mg-location)", l);
        if (qf_placement_check(p->location[l], what)) return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* ---- the smoother ---- */

typedef struct {
    qf_linop *A;       /* the level's operator, in the smoother's precision */
    qf_linop *schur;   /* its Schur complement Ahat (A's) */
    qf_precond *mr;    /* MR steps on Ahat */
    qf_field *bhat, *xhat; /* the Schur system's source and solution, kept from one application to the next */
    qf_field *t, *z;   /* the input and output in the smoother's precision where it is not the level's */
    qf_field *w;       /* Ahat xhat, where the smoother gives its image (eo_smoother_image_ops) */
} eo_smoother;

/* z = S t; with az (only with eo_smoother_image_ops), also A z from the MR steps' residual and the
 * operator's schur_image, instead of an application of A */
static int eo_smoother_run(eo_smoother *s, qf_field *z, qf_field *az, const qf_field *t, double *flops)
{
    qf_sequence_begin();
    if (s->t) qf_field_convert(s->t, t);
    const qf_field *in = s->t ? s->t : t;
    qf_linop_prepare(s->A, s->bhat, in);
    if (az) qf_precond_apply_image(s->mr, s->xhat, s->w, s->bhat, flops);
    else qf_precond_apply(s->mr, s->xhat, s->bhat, flops);
    qf_linop_reconstruct(s->A, s->z ? s->z : z, s->xhat, in);
    if (s->z) qf_field_convert(z, s->z);
    if (az) qf_linop_schur_image(s->A, az, in, s->bhat, s->w);
    return qf_sequence_end();
}

/* The post-smoothing of a coarse correction c = P e_c in place, in the level's precision: z = c in,
 * c + S (r - A c) out, and with az, A of it; no application of A. The Schur system's source for
 * r - A c is prepare(r - A c), whatever c_o (qf_linop_prepare_defect: two hops from c_e, where
 * prepare(r) and Ahat c_e take three), and the smoothed solution's odd sites are the reconstruction
 * from r and its even sites c_e + xhat: c's odd sites drop out, so the K-cycle prolongs the even sites
 * alone. Where t = r - A c, z = c + S t and the image took three passes over all sites and the whole
 * prolongation, this takes two on the even sites and half of it. */
static int eo_smoother_correct(eo_smoother *s, qf_field *z, qf_field *az, const qf_field *r, double *flops)
{
    qf_sequence_begin();
    *flops += qf_linop_flops(s->schur, 0);
    qf_linop_prepare_defect(s->A, s->bhat, r, z);
    qf_precond_apply_image(s->mr, s->xhat, s->w, s->bhat, flops);
    qf_blas_axpby(1.0, z, 1.0, s->xhat, 0);
    qf_linop_reconstruct(s->A, z, s->xhat, r);
    if (az) qf_linop_schur_image(s->A, az, r, s->bhat, s->w);
    return qf_sequence_end();
}

static int eo_smoother_apply(void *ctx, qf_field *z, const qf_field *t, double *flops)
{
    return eo_smoother_run(ctx, z, NULL, t, flops);
}

static int eo_smoother_apply_image(void *ctx, qf_field *z, qf_field *az, const qf_field *t, double *flops)
{
    return eo_smoother_run(ctx, z, az, t, flops);
}

static void eo_smoother_destroy(void *ctx)
{
    eo_smoother *s = ctx;
    qf_precond_destroy(s->mr);
    qf_field *own[5] = {s->bhat, s->xhat, s->t, s->z, s->w};
    for (int k = 0; k < 5; k++)
        if (own[k]) qf_linop_field_give_back(s->A, own[k]);
    free(s);
}

static const qf_precond_ops eo_smoother_ops = {
    .name = "even-odd MR smoother", .apply = eo_smoother_apply, .destroy = eo_smoother_destroy};
/* In the level's own precision the smoother also gives A z (the image's rounding is that of the
 * iterations); in another (a half-precision smoother) it does not, and the K-cycle applies A. */
static const qf_precond_ops eo_smoother_image_ops = {.name = "even-odd MR smoother",
                                                     .apply = eo_smoother_apply,
                                                     .apply_image = eo_smoother_apply_image,
                                                     .destroy = eo_smoother_destroy};

/* The smoother of level l's operator A, in precision prec (A's twin there; the input converted to it and
 * the output back). Its fields start at zero: the prepared source is written on the even sites only,
 * and a task must not read a field no task has written. */
static int smoother_create(qf_precond **S, qf_linop *A, int steps, qf_precision prec)
{
    *S = NULL;
    if (!qf_linop_has_even_odd(A)) return qf_precond_mr(S, A, steps);
    eo_smoother *s = calloc(1, sizeof *s);
    if (!s) return qf_fail("out of host memory creating a multigrid smoother");
    int own_precision = prec == qf_linop_get_domain(A)->prec;
    if (qf_linop_in_precision(A, prec, &s->A)) {
        free(s);
        return QF_ERROR;
    }
    int image = own_precision && qf_linop_has_schur_image(s->A);
    if (qf_linop_schur(s->A, &s->schur) || qf_precond_mr(&s->mr, s->schur, steps) || qf_linop_field_take(s->A, &s->bhat) ||
        qf_linop_field_take(s->A, &s->xhat) || qf_blas_axpby(0.0, NULL, 0.0, s->bhat, -1) ||
        qf_blas_axpby(0.0, NULL, 0.0, s->xhat, -1) ||
        (!own_precision && (qf_linop_field_take(s->A, &s->t) || qf_linop_field_take(s->A, &s->z))) ||
        (image && (qf_linop_field_take(s->A, &s->w) || qf_blas_axpby(0.0, NULL, 0.0, s->w, -1))) ||
        qf_precond_create(S, image ? &eo_smoother_image_ops : &eo_smoother_ops, s)) {
        eo_smoother_destroy(s);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* ---- the K-cycle ---- */

/* Whether levels c .. levels-1 run in one task a solve of level c: each one block on one process, and
 * all placed alike (a split placement runs the levels above the split as task graphs). */
static int one_task_below(const qf_mg *mg, int c)
{
    if (c < mg->one_task_from) return 0;
    for (int d = c + 1; d < mg->p.levels; d++)
        if (mg->scope[d].where != mg->scope[c].where) return 0;
    return 1;
}

/* The coarse-grid solve of level l + 1: GCR to coarse_tol, preconditioned by the next cycle, or on the
 * even-odd system at the coarsest level, as task graphs or, where the levels from l + 1 on allow it, in
 * one task; iterations that run out end it without failing. */
static int coarse_solve(qf_mg *mg, int l, qf_field *e, const qf_field *r)
{
    int c = l + 1, coarsest = c == mg->p.levels - 1, rc;
    qf_task_scope *outer = qf_task_scope_enter(&mg->scope[c]);
    mg->stats.visits[c]++;
    if (one_task_below(mg, c)) { /* the levels' iterations and time come from the task (qf_mg_get_stats) */
        qf_coarse_task_params tp = {.tol = mg->p.coarse_tol, .max_iter = mg->p.coarse_max_iter,
                                    .nkrylov = mg->p.coarse_nkrylov, .smoother_steps = mg->p.smoother_steps};
        rc = qf_coarse_levels_solve_one_task(mg->p.levels - c, &mg->op[c], (const qf_transfer *const *)&mg->T[c], e, r,
                                             &tp, &mg->one_task[c]);
    } else {
        qf_solver_params sp = qf_solver_default_params();
        sp.kind = QF_SOLVER_GCR;
        sp.tol = mg->p.coarse_tol;
        sp.max_iter = mg->p.coarse_max_iter;
        sp.check_every = 2;
        sp.gcr_nkrylov = mg->p.coarse_nkrylov;
        sp.even_odd = coarsest;
        sp.sloppy = mg->p.prec;
        sp.precond = coarsest ? NULL : mg->cycle[c];
        sp.accept_max_iter = 1;
        qf_solver_result res = {0};
        double t0 = qf_wtime();
        rc = qf_blas_axpby(0.0, NULL, 0.0, e, -1) || qf_solve(mg->op[c], e, r, &sp, &res);
        mg->stats.iterations[c] += res.iterations;
        mg->stats.seconds[c] += qf_wtime() - t0;
    }
    qf_task_scope_leave(outer);
    return rc ? QF_ERROR : QF_SUCCESS;
}

/* Level l's smoother where it corrects the prolonged field in place (eo_smoother_correct): the even-odd
 * one in the level's precision, on an operator that prepares a defect's source; else NULL. */
static eo_smoother *in_place_smoother(const qf_mg *mg, int l)
{
    eo_smoother *eo = qf_precond_context(mg->smoother[l], &eo_smoother_image_ops);
    return eo && qf_linop_has_prepare_defect(eo->A) ? eo : NULL;
}

/* The coarse correction of level l: z = P_l e_c (its even sites alone with prolong_parity 0) where e_c
 * solves A_{l+1} e_c = R_l r (r's even sites alone with restrict_parity 0) to the coarse tolerance. */
static void coarse_correction(qf_mg *mg, int l, qf_field *z, const qf_field *r, int restrict_parity,
                              int prolong_parity)
{
    qf_linop *Ac = mg->op[l + 1];
    qf_field *rc = NULL, *ec = NULL;
    qf_linop_field_take(Ac, &rc);
    qf_linop_field_take(Ac, &ec);
    qf_transfer_restrict(mg->T[l], rc, r, restrict_parity);
    coarse_solve(mg, l, ec, rc);
    qf_transfer_prolong(mg->T[l], z, ec, prolong_parity);
    qf_linop_field_give_back(Ac, rc);
    qf_linop_field_give_back(Ac, ec);
}

/* z = K_l r; with az, also A_l z. The in-place smoother corrects P e_c (eo_smoother_correct: the even
 * sites of P e_c alone, and the image); any other smooths t = r - A_l P e_c and adds its correction s,
 * az = (r - t) + A_l s where the smoother gives A_l s (qf_precond_has_image), else by an application of
 * A_l. */
static int cycle_run(const level_ref *ref, qf_field *z, qf_field *az, const qf_field *r, double *flops)
{
    qf_mg *mg = ref->mg;
    int l = ref->l;
    qf_linop *A = mg->op[l];
    qf_field *t = NULL, *s = NULL;
    double t0 = qf_wtime();
    qf_task_scope *outer = qf_task_scope_enter(&mg->scope[l]);
    qf_sequence_begin();
    eo_smoother *eo = in_place_smoother(mg, l);
    coarse_correction(mg, l, z, r, -1, eo ? 0 : -1);
    int image = az && mg->smoother[l] && qf_precond_has_image(mg->smoother[l]);
    if (eo) {
        eo_smoother_correct(eo, z, az, r, flops);
    } else if (mg->smoother[l]) {
        qf_linop_field_take(A, &t);
        qf_linop_field_take(A, &s);
        *flops += qf_linop_flops(A, 0);
        qf_linop_apply(A, t, z);
        qf_blas_axpby(1.0, r, -1.0, t, -1);
        if (image) { /* az = A s + (r - t) */
            qf_precond_apply_image(mg->smoother[l], s, az, t, flops);
            qf_blas_axpbypcw(1.0, r, 1.0, az, -1.0, t, -1);
        } else {
            qf_precond_apply(mg->smoother[l], s, t, flops);
        }
        qf_blas_axpby(1.0, s, 1.0, z, -1);
    }
    if (az && !image) {
        *flops += qf_linop_flops(A, 0);
        qf_linop_apply(A, az, z);
    }
    int ret = qf_sequence_end();
    qf_task_scope_leave(outer);
    qf_linop_field_give_back(A, t);
    qf_linop_field_give_back(A, s);
    if (l == 0) { /* a deeper level's cycles run inside its coarse solves, which coarse_solve counts */
        mg->stats.visits[0]++;
        mg->stats.seconds[0] += qf_wtime() - t0;
    }
    return ret;
}

/* z_e = Khat rho, the K-cycle of level 0 as a preconditioner of its Schur system Ahat (the solve's outer
 * GCR on the even sites, qf_mg_precond_schur): the coarse correction of the full-lattice residual
 * (rho, 0), whose solution's even sites are Ahat^-1 rho in the asymmetric Schur form (prepare((rho, 0)) =
 * rho; in the symmetric form that is A_ee^-1 rho, and (rho, 0) stands for (A_ee rho, 0), a coarse
 * correction as good as A_ee is near 1), restricted from the even sites alone; then the smoother on Ahat
 * from the prolonged even sites y_e, with source rho - Ahat y_e; and the image Ahat z_e = Ahat y_e + w
 * (w = Ahat xhat from the MR residual), Ahat y_e kept in az from the source. Against the full system's
 * K-cycle: half the restriction's reads, no reconstruction hop, and outer vectors of half the sites. */
static int cycle_schur_run(const level_ref *ref, qf_field *z, qf_field *az, const qf_field *rho, double *flops)
{
    qf_mg *mg = ref->mg;
    eo_smoother *eo = in_place_smoother(mg, 0);
    double t0 = qf_wtime();
    qf_task_scope *outer = qf_task_scope_enter(&mg->scope[0]);
    qf_sequence_begin();
    coarse_correction(mg, 0, z, rho, 0, 0);
    *flops += qf_linop_flops(eo->schur, 0);
    if (az) { /* az = Ahat y_e, bhat = rho - az */
        qf_linop_apply(eo->schur, az, z);
        qf_blas_axpbypcw(1.0, rho, 0.0, eo->bhat, -1.0, az, 0);
    } else {
        qf_linop_apply(eo->schur, eo->bhat, z);
        qf_blas_axpby(1.0, rho, -1.0, eo->bhat, 0);
    }
    qf_precond_apply_image(eo->mr, eo->xhat, eo->w, eo->bhat, flops);
    qf_blas_axpby(1.0, eo->xhat, 1.0, z, 0);
    if (az) qf_blas_axpby(1.0, eo->w, 1.0, az, 0);
    int ret = qf_sequence_end();
    qf_task_scope_leave(outer);
    mg->stats.visits[0]++;
    mg->stats.seconds[0] += qf_wtime() - t0;
    return ret;
}

/* The two K-cycles as preconditioners (qf_precond_ops), each level_ref naming its own. */
static int cycle_apply_image(void *ctx, qf_field *z, qf_field *az, const qf_field *r, double *flops)
{
    const level_ref *ref = ctx;
    return ref->schur ? cycle_schur_run(ref, z, az, r, flops) : cycle_run(ref, z, az, r, flops);
}

static int cycle_apply(void *ctx, qf_field *z, const qf_field *r, double *flops)
{
    return cycle_apply_image(ctx, z, NULL, r, flops);
}

static const qf_precond_ops cycle_ops = {.name = "multigrid K-cycle", .apply = cycle_apply, .apply_image = cycle_apply_image};
static const qf_precond_ops cycle_schur_ops = {
    .name = "multigrid K-cycle on the Schur system", .apply = cycle_apply, .apply_image = cycle_apply_image};

/* ---- setup ---- */

/* v[k] -= <v[j], v[k]> v[j] for j < k, then v[k] /= |v[k]| (the earlier v[j] normalised): on a lattice
 * of one block the 2 k calls are one task (a chain), where each was a dependent task of its own. */
static int orthonormalise(qf_field *const *v, int k)
{
    qf_scalar *c = NULL;
    int rc = qf_scalar_create(&c), chained = !rc && qf_chain_begin() == QF_SUCCESS;
    for (int j = 0; j < k && !rc; j++) rc = qf_blas_dot(c, v[j], v[k], -1) || qf_blas_caxpy(c, -1.0, v[j], v[k], -1);
    if (chained && qf_chain_end()) rc = QF_ERROR;
    if (c) qf_scalar_destroy(c);
    double norm = 0.0;
    if (rc || qf_krylov_norm(v[k], -1, &norm)) return QF_ERROR;
    if (!(norm > 0.0) || !isfinite(norm))
        return qf_fail("multigrid setup: near-null vector %d vanished (norm %g) against the earlier ones: give fewer "
                       "vectors (--mg-nvec)",
                       k, norm);
    return qf_blas_axpby(1.0 / norm, v[k], 0.0, v[k], -1);
}

/* The nvec near-null vectors of level l by inverse iteration from Gaussian noise. */
static int near_null_vectors(qf_mg *mg, int l, qf_field **v)
{
    qf_linop *A = mg->op[l];
    const qf_linop_domain *dom = qf_linop_get_domain(A);
    qf_solver_params sp = qf_solver_default_params();
    /* BiCGStab: on the 32^4 beta 6.0 field at kappa 0.135 (H100, bench/RESULTS.md) 24 iterations a
     * round gave vectors for 40 outer iterations, where GCR restarted every 8 directions gave 50 at the
     * same setup time and unrestarted GCR(24) 45 at 1.7 times the time (its orthogonalisation is many
     * small tasks) */
    sp.kind = QF_SOLVER_BICGSTAB;
    sp.tol = qf_solver_min_tol(dom->prec);
    sp.max_iter = mg->p.setup_krylov;
    sp.check_every = mg->p.setup_krylov;
    sp.even_odd = qf_linop_has_even_odd(A);
    sp.sloppy = dom->prec;
    sp.accept_max_iter = 1;
    qf_field *x = NULL;
    int rc = qf_linop_field_take(A, &x);
    for (int k = 0; k < mg->p.nvec[l] && !rc; k++) {
        rc = qf_field_create_shaped(&v[k], dom->lat, &dom->shape, dom->prec, QF_FIELD_SCRATCH) ||
             qf_field_gaussian(v[k], mg->p.seed, l * QF_COARSE_MAX_COLOURS + k) || orthonormalise(v, k);
        for (int it = 0; it < mg->p.setup_iter && !rc; it++) {
            qf_solver_result res;
            rc = qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(A, x, v[k], &sp, &res) ||
                 qf_blas_copy(v[k], x, -1) || orthonormalise(v, k);
        }
    }
    qf_linop_field_give_back(A, x);
    return rc;
}

static void free_vectors(qf_mg *mg, int l)
{
    for (int k = 0; mg->vec[l] && k < mg->p.nvec[l]; k++)
        if (mg->vec[l][k]) qf_field_destroy(mg->vec[l][k]);
    free(mg->vec[l]);
    mg->vec[l] = NULL;
}

/* T_l from level l's vectors, and from it A_{l+1} with its smoother (replacing those of an earlier
 * build: the refinement cycles rebuild them). */
static int build_coarse(qf_mg *mg, int l)
{
    int c = l + 1;
    qf_precond_destroy(mg->smoother[c]);
    mg->smoother[c] = NULL;
    qf_linop_destroy(mg->op[c]);
    mg->op[c] = NULL;
    int rc = qf_transfer_set_vectors(mg->T[l], mg->vec[l]) || qf_linop_coarsen(mg->op[l], mg->T[l], &mg->op[c]);
    if (!rc && mg->p.null_prec == QF_HALF) rc = qf_transfer_set_vector_precision(mg->T[l], QF_HALF);
    if (!rc && mg->p.coarse_link_prec == QF_HALF) rc = qf_coarse_op_set_link_precision(mg->op[c], QF_HALF);
    if (!rc && c < mg->p.levels - 1 && mg->p.smoother_steps > 0)
        rc = smoother_create(&mg->smoother[c], mg->op[c], mg->p.smoother_steps, mg->p.prec);
    return rc;
}

static void report_level(const qf_mg *mg, int l, const char *what, double vectors_s, double build_s)
{
    if (!mg->p.verbose || qf_runtime_rank() != 0) return;
    const qf_lattice *c = qf_transfer_coarse_lattice(mg->T[l]);
    printf("  multigrid level %d: %d vectors %s in %.2f s, coarse lattice %d %d %d %d (blocks %d %d %d %d) built in "
           "%.2f s\n",
           l + 1, mg->p.nvec[l], what, vectors_s, c->global[0], c->global[1], c->global[2], c->global[3], c->blocks[0],
           c->blocks[1], c->blocks[2], c->blocks[3], build_s);
    fflush(stdout);
}

static int setup_level(qf_mg *mg, int l)
{
    const qf_linop_domain *dom = qf_linop_get_domain(mg->op[l]);
    int nvec = mg->p.nvec[l];
    if (!(mg->vec[l] = calloc((size_t)nvec, sizeof *mg->vec[l])))
        return qf_fail("out of host memory for %d near-null vectors", nvec);
    double t0 = qf_wtime();
    qf_task_scope *outer = qf_task_scope_enter(&mg->scope[l]);
    /* the transfer first: it checks the aggregates before the setup's solves */
    /* the coarsest lattice one block (2), or every coarse lattice (3) */
    int merge = mg->p.coarse_one_task == 3 || (mg->p.coarse_one_task == 2 && l == mg->p.levels - 2);
    int rc = qf_transfer_create(&mg->T[l], dom->lat, &dom->shape, mg->p.block[l], nvec, mg->p.prec, merge) ||
             near_null_vectors(mg, l, mg->vec[l]);
    double t1 = qf_wtime();
    rc = rc || build_coarse(mg, l);
    qf_task_scope_leave(outer);
    if (!rc) report_level(mg, l, "found", t1 - t0, qf_wtime() - t1);
    return rc;
}

/* One refinement cycle of level l: each vector one approximate solve by GCR preconditioned by K_l
 * (which runs on the hierarchy below as built so far), then T_l and A_{l+1} again. */
static int refine_level(qf_mg *mg, int l)
{
    qf_linop *A = mg->op[l];
    qf_solver_params sp = qf_solver_default_params();
    sp.kind = QF_SOLVER_GCR;
    sp.tol = qf_solver_min_tol(mg->p.prec);
    sp.max_iter = mg->p.refine_iter;
    sp.check_every = mg->p.refine_iter;
    if (mg->p.refine_iter < sp.gcr_nkrylov) sp.gcr_nkrylov = mg->p.refine_iter; /* longer: restarted as usual */
    sp.sloppy = mg->p.prec;
    sp.precond = mg->cycle[l];
    sp.accept_max_iter = 1;
    double t0 = qf_wtime();
    qf_task_scope *outer = qf_task_scope_enter(&mg->scope[l]);
    qf_field *x = NULL;
    int rc = qf_linop_field_take(A, &x);
    for (int k = 0; k < mg->p.nvec[l] && !rc; k++) {
        qf_solver_result res;
        rc = qf_blas_axpby(0.0, NULL, 0.0, x, -1) || qf_solve(A, x, mg->vec[l][k], &sp, &res) ||
             qf_blas_copy(mg->vec[l][k], x, -1) || orthonormalise(mg->vec[l], k);
    }
    qf_linop_field_give_back(A, x);
    double t1 = qf_wtime();
    rc = rc || build_coarse(mg, l);
    qf_task_scope_leave(outer);
    if (!rc) report_level(mg, l, "refined", t1 - t0, qf_wtime() - t1);
    return rc;
}

/* The coarsest level's Schur complement inverted densely where its solves run in one task and its
 * dimension is within qf_mg_params.coarse_dense: its solves then cost one pass over the inverse instead
 * of tens of GCR iterations, each two hops on a lattice too small to fill a GPU (bench/RESULTS.md).
 * Auto allows the dimensions a GPU inverts in a fraction of a second where the level may run on one,
 * and those a CPU core inverts in seconds elsewhere; beyond the latter the inversion goes to a GPU. An
 * inverse whose check residual is poor, or a complement singular to the inversion's precision (an
 * ill-conditioned coarsest operator, which GCR to coarse_tol may still serve), leaves GCR in place. */
#define DENSE_MAX_RESIDUAL 1e-3
static int dense_coarsest(qf_mg *mg)
{
    int c = mg->p.levels - 1;
    qf_linop *Ac = mg->op[c];
    mg->dense_dim = 0;
    if (mg->one_task_from > c || mg->p.coarse_dense == 0) return QF_SUCCESS;
    int64_t n = qf_coarse_op_schur_dim(Ac);
    int gpu = qf_runtime_ncuda_workers() > 0 && mg->scope[c].where != QF_PLACE_CPU;
    int64_t limit = mg->p.coarse_dense != QF_MG_DENSE_AUTO ? mg->p.coarse_dense : gpu ? QF_MG_DENSE_GPU : QF_MG_DENSE_CPU;
    if (n > limit) return QF_SUCCESS;
    mg->dense_scope = (qf_task_scope){.where = QF_PLACE_GPU};
    qf_task_scope *scope = gpu && n > QF_MG_DENSE_CPU ? &mg->dense_scope : &mg->scope[c];
    qf_task_scope *outer = qf_task_scope_enter(scope);
    double t0 = qf_wtime(), residual = -1.0;
    int rc = qf_coarse_op_invert_schur(Ac, &residual);
    qf_task_scope_leave(outer);
    if (rc && residual != INFINITY) /* a failure other than a singular complement */
        return qf_fail_context("multigrid: the dense inverse of level %d's Schur complement", c);
    mg->dense_seconds = qf_wtime() - t0;
    mg->dense_residual = residual;
    if (residual > DENSE_MAX_RESIDUAL) qf_coarse_op_drop_schur_inverse(Ac);
    else mg->dense_dim = n;
    if (mg->p.verbose && qf_runtime_rank() == 0) {
        if (mg->dense_dim)
            printf("  multigrid level %d: Schur complement (dimension %lld) inverted densely in %.2f s, check residual "
                   "%.1e\n",
                   c, (long long)n, mg->dense_seconds, residual);
        else
            printf("  multigrid level %d: Schur complement (dimension %lld) not inverted densely (check residual %.1e, "
                   "%s): the level keeps GCR\n",
                   c, (long long)n, residual, isfinite(residual) ? "too inaccurate" : "singular in double");
        fflush(stdout);
    }
    return QF_SUCCESS;
}

/* ---- placement of the coarse levels (auto) ----
 * A coarse level is a chain of small dependent tasks whose cost is latency, which per-task estimates
 * do not see: dmdas, placing each task where its model says it finishes first, put 900-1500 of a
 * 16^4 three-level solve's 5342 middle-level tasks on CPU workers and ran 11-29% slower than the GPU
 * alone, and its setup took 5.2 s instead of 3.5 s (bench/RESULTS.md). So on a node with both kinds of
 * worker the coarse levels placed auto are placed whole: the setup runs them on the GPU, and then
 * times one K-cycle with the coarse levels from k on placed on the CPU workers and those above on the
 * GPU, for k from the coarsest level up, and keeps the fastest. A coarser level is the more
 * latency-bound one, so the search stops at the first k that is not at least 3% faster than the
 * placement before it (the margin keeps noise from moving a level: the CPU team's times vary more).
 * The input is a residual such as the outer solver gives its preconditioner: Gaussian noise after one
 * preconditioned Richardson step (its high modes removed, so that the coarse solves work as in a
 * solve). Times are summed over processes, so that every process makes the same choice. */
enum { PLACE_ROUNDS = 2 };
#define PLACE_MARGIN 0.97

static int mixed_node(void)
{
    double mixed = qf_runtime_ncpu_workers() > 0 && qf_runtime_ncuda_workers() > 0, nprocs = 1.0;
    if (qf_runtime_sum_doubles(&mixed, 1) || qf_runtime_sum_doubles(&nprocs, 1)) return 0;
    return mixed == nprocs;
}

static int cycle_seconds(qf_mg *mg, qf_field *z, const qf_field *r, double *seconds)
{
    double flops = 0.0, t0 = qf_wtime();
    qf_task_scope *outer = qf_task_scope_enter(&mg->scope[0]);
    int rc = qf_precond_apply(mg->cycle[0], z, r, &flops);
    qf_runtime_wait_all();
    qf_task_scope_leave(outer);
    *seconds = qf_wtime() - t0;
    return rc || qf_runtime_sum_doubles(seconds, 1);
}

/* Places the coarse levels placed auto from level k on on the CPUs, those above on the GPU. */
static void use_split(qf_mg *mg, int k)
{
    for (int l = 1; l < mg->p.levels; l++)
        if (mg->p.location[l] == QF_PLACE_AUTO) mg->scope[l].where = l >= k ? QF_PLACE_CPU : QF_PLACE_GPU;
}

/* The first coarse level placed auto (levels where none is). */
static int first_auto_level(const qf_mg *mg)
{
    int first = mg->p.levels;
    for (int l = mg->p.levels - 1; l >= 1; l--)
        if (mg->p.location[l] == QF_PLACE_AUTO) first = l;
    return first;
}

static int place_coarse_levels(qf_mg *mg)
{
    int levels = mg->p.levels, first = first_auto_level(mg);
    qf_linop *A = mg->op[0];
    qf_field *r = NULL, *z = NULL, *t = NULL;
    double best[QF_MG_MAX_LEVELS + 1], norm = 0.0, s;
    int rc = qf_linop_field_take(A, &r) || qf_linop_field_take(A, &z) || qf_linop_field_take(A, &t) ||
             qf_field_gaussian(t, mg->p.seed, QF_MG_MAX_LEVELS * QF_COARSE_MAX_COLOURS);
    use_split(mg, levels); /* every coarse level on the GPU */
    rc = rc || cycle_seconds(mg, z, t, &s) || qf_linop_apply(A, r, z) || qf_blas_axpby(1.0, t, -1.0, r, -1) ||
         qf_krylov_norm(r, -1, &norm) || qf_blas_axpby(norm > 0.0 ? 1.0 / norm : 1.0, r, 0.0, r, -1);
    int chosen = levels, tried = levels;
    for (int k = levels; k >= first && !rc; k--) {
        use_split(mg, k);
        rc = cycle_seconds(mg, z, r, &s); /* the first cycle of a placement moves the levels' data */
        best[k] = INFINITY;
        for (int round = 0; round < PLACE_ROUNDS && !rc; round++) {
            rc = cycle_seconds(mg, z, r, &s);
            if (s < best[k]) best[k] = s;
        }
        tried = k;
        if (k == levels || best[k] < PLACE_MARGIN * best[chosen]) chosen = k;
        else break;
    }
    use_split(mg, chosen);
    qf_field *own[3] = {r, z, t};
    for (int j = 0; j < 3; j++)
        if (own[j]) qf_linop_field_give_back(A, own[j]);
    if (rc) return qf_fail_context("multigrid placement of the coarse levels (auto)");
    for (int l = first; l < levels; l++) mg->measured[l] = mg->p.location[l] == QF_PLACE_AUTO;
    if (mg->p.verbose && qf_runtime_rank() == 0) {
        double ms = 1e3 / qf_runtime_nprocs(); /* the processes' mean */
        printf("  multigrid placement (auto, K-cycles timed): coarse levels on the GPU %.2f ms", ms * best[levels]);
        for (int k = levels - 1; k >= tried; k--) printf(", from level %d on the CPUs %.2f ms", k, ms * best[k]);
        printf("; kept: levels");
        for (int l = 0; l < levels; l++) printf(" %s", qf_placement_name(mg->scope[l].where));
        printf("\n");
        fflush(stdout);
    }
    return QF_SUCCESS;
}

int qf_mg_setup(qf_mg **out, qf_linop *A, const qf_mg_params *p)
{
    *out = NULL;
    if (!A || !p) return qf_fail("qf_mg_setup: no operator or no parameters");
    const qf_linop_domain *dom = qf_linop_get_domain(A);
    if (dom->parity != -1)
        return qf_fail("multigrid needs the full-lattice operator (%s acts on one parity)", qf_linop_name(A));
    qf_mg_params resolved = *p;
    resolved.levels = qf_mg_levels_for(dom->lat, p);
    if (check_params(&resolved)) return QF_ERROR;
    /* every level's lattice checked before any setup work */
    int fit = coarsenings(dom->lat, &resolved, resolved.levels - 1, 1);
    if (fit == 0) return QF_ERROR; /* the finest aggregates do not fit: qf_lattice_coarsen's message says so */
    if (fit < resolved.levels - 1)
        return qf_fail_context("multigrid with %d levels: level %d's lattice cannot be coarsened (fewer levels: "
                               "--mg-levels, or auto)",
                               resolved.levels, fit);
    qf_mg *mg = calloc(1, sizeof *mg);
    if (!mg) return qf_fail("out of host memory creating a multigrid hierarchy");
    mg->p = resolved;
    p = &mg->p;
    for (int l = 0; l < p->levels; l++) mg->scope[l].where = p->location[l];
    int place = first_auto_level(mg) < p->levels && mixed_node();
    if (place) use_split(mg, p->levels); /* the setup's coarse levels on the GPU, then timed */
    double t0 = qf_wtime();
    int rc = qf_linop_in_precision(A, p->prec, &mg->op[0]);
    if (!rc && p->smoother == QF_MG_SMOOTHER_SAP)
        rc = qf_precond_sap(&mg->smoother[0], mg->op[0], p->sap_block, p->sap_cycles, p->sap_mr);
    else if (!rc && p->smoother_steps > 0)
        rc = smoother_create(&mg->smoother[0], mg->op[0], p->smoother_steps,
                             p->smoother_prec == QF_HALF ? QF_HALF : p->prec);
    for (int l = 0; l < p->levels - 1 && !rc; l++) {
        rc = setup_level(mg, l);
        if (!p->setup_refine) free_vectors(mg, l); /* only the refinement cycles read them again */
    }
    /* the levels from one_task_from on run in one task a solve where their lattices allow it: the
     * coarsest alone, or with coarse_one_task 3 every coarse level */
    mg->one_task_from = p->levels;
    int highest = p->coarse_one_task == 3 ? 1 : p->levels - 1;
    for (int l = p->levels - 1;
         l >= highest && !rc && p->coarse_one_task && qf_coarse_one_task_possible(mg->op[l]); l--) {
        mg->one_task_from = l;
        rc = qf_scalar_create(&mg->one_task[l]);
    }
    if (!rc) rc = dense_coarsest(mg);
    for (int l = 0; l < p->levels - 1 && !rc; l++) {
        mg->ref[l] = (level_ref){mg, l, 0};
        rc = qf_precond_create(&mg->cycle[l], &cycle_ops, &mg->ref[l]);
    }
    mg->ref_schur = (level_ref){mg, 0, 1};
    if (!rc && qf_mg_params_schur_outer(p) && in_place_smoother(mg, 0))
        rc = qf_precond_create(&mg->cycle_schur, &cycle_schur_ops, &mg->ref_schur);
    if (!rc && place) rc = place_coarse_levels(mg);
    for (int r = 0; r < p->setup_refine && !rc; r++)
        for (int l = 0; l < p->levels - 1 && !rc; l++) rc = refine_level(mg, l);
    if (!rc && p->setup_refine) rc = dense_coarsest(mg); /* the refinement rebuilt the coarsest operator */
    for (int l = 0; l < p->levels - 1; l++) free_vectors(mg, l);
    if (rc) {
        qf_mg_destroy(mg);
        return QF_ERROR;
    }
    qf_mg_reset_stats(mg); /* the figures of the solves: the setup's K-cycles (refinement) not counted */
    mg->stats.levels = p->levels;
    mg->stats.setup_seconds = qf_wtime() - t0;
    *out = mg;
    return QF_SUCCESS;
}

void qf_mg_destroy(qf_mg *mg)
{
    if (!mg) return;
    qf_runtime_wait_all(); /* tasks still pending count into mg's scopes as they complete */
    qf_precond_destroy(mg->cycle_schur);
    for (int l = 0; l < QF_MG_MAX_LEVELS; l++) {
        qf_precond_destroy(mg->cycle[l]);
        qf_precond_destroy(mg->smoother[l]);
    }
    for (int l = 0; l < QF_MG_MAX_LEVELS; l++)
        if (mg->one_task[l]) qf_scalar_destroy(mg->one_task[l]);
    for (int l = QF_MG_MAX_LEVELS - 1; l >= 1; l--) qf_linop_destroy(mg->op[l]);
    for (int l = 0; l < QF_MG_MAX_LEVELS; l++) qf_transfer_destroy(mg->T[l]);
    free(mg);
}

qf_precond *qf_mg_precond(qf_mg *mg) { return mg->cycle[0]; }
qf_precond *qf_mg_precond_schur(qf_mg *mg) { return mg->cycle_schur; }
int qf_mg_params_schur_outer(const qf_mg_params *p)
{
    return p->smoother == QF_MG_SMOOTHER_MR && p->smoother_steps > 0 && p->smoother_prec != QF_HALF;
}
qf_linop *qf_mg_level_op(qf_mg *mg, int l) { return l >= 0 && l < mg->p.levels ? mg->op[l] : NULL; }
const qf_transfer *qf_mg_level_transfer(qf_mg *mg, int l) { return l >= 0 && l < mg->p.levels - 1 ? mg->T[l] : NULL; }

void qf_mg_get_stats(const qf_mg *mg, qf_mg_stats *s)
{
    *s = mg->stats;
    for (int l = 0; l < mg->p.levels; l++) {
        s->location[l] = mg->scope[l].where;
        s->measured[l] = mg->measured[l];
        for (int k = 0; k < 2; k++) s->ran[l][k] = __atomic_load_n(&mg->scope[l].ran[k], __ATOMIC_RELAXED);
    }
    s->dense_dim = mg->dense_dim;
    s->dense_residual = mg->dense_residual;
    s->dense_seconds = mg->dense_seconds;
    /* a level inside one-task solves: its figures from the tasks; below the top of a task, one solve
     * of it a cycle (an iteration) of the level above */
    double it[QF_MG_MAX_LEVELS] = {0}, sec[QF_MG_MAX_LEVELS] = {0};
    for (int l = mg->one_task_from; l < mg->p.levels; l++) {
        if (qf_scalar_get(mg->one_task[l], &it[l], &sec[l])) break;
        s->iterations[l] += (long)it[l];
        s->seconds[l] += sec[l];
        s->one_task[l] = it[l] > 0.0 || sec[l] > 0.0;
        if (l > mg->one_task_from) s->visits[l] += (long)it[l - 1];
    }
}

qf_task_scope *qf_mg_level_scope(qf_mg *mg, int l) { return l >= 0 && l < mg->p.levels ? &mg->scope[l] : NULL; }
void qf_mg_reset_stats(qf_mg *mg)
{
    double setup = mg->stats.setup_seconds;
    memset(&mg->stats, 0, sizeof mg->stats);
    mg->stats.setup_seconds = setup;
    mg->stats.levels = mg->p.levels;
    for (int l = 0; l < QF_MG_MAX_LEVELS; l++)
        for (int k = 0; k < 2; k++) __atomic_store_n(&mg->scope[l].ran[k], 0, __ATOMIC_RELAXED);
    for (int l = 0; l < QF_MG_MAX_LEVELS; l++)
        if (mg->one_task[l]) qf_scalar_set(mg->one_task[l], 0.0, 0.0);
}
