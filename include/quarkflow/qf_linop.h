/* Linear operators and preconditioners as the solvers see them: what the Krylov methods, the solve
 * driver and (later) multigrid need of an operator, and nothing about how it is built.
 *
 * A qf_linop A acts on fields of one shape and precision on one lattice, on the sites of one parity
 * (0: even, 1: odd) or on all sites (-1); it applies A and A^dagger as task graphs, counts its flops by
 * QUDA's rules, hands out pooled temporaries of its operands' shape, and gives its twin in another
 * precision (mixed-precision solvers). A full-lattice operator may also have an even-odd form: the
 * Schur complement on the even sites with the source preparation and the solution reconstruction
 * (qf_solve's even_odd). The Wilson-clover operator implements it (qf_dirac_linop); so can any
 * operator built from task graphs, through qf_linop_ops.
 *
 * A qf_precond K maps a residual r to an approximate solution z of A z = r (flexible GCR's
 * preconditioner): n MR steps (qf_precond_mr), Schwarz cycles (qf_precond_sap), and any K given
 * through qf_precond_ops. */
#ifndef QF_LINOP_H
#define QF_LINOP_H

#include "qf_field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qf_linop qf_linop;
typedef struct qf_transfer qf_transfer; /* qf_multigrid.h */
typedef struct qf_domains qf_domains;

/* The fields an operator acts on: their lattice (which must outlive the operator), shape and
 * precision, and the sites it reads and writes (-1 all, 0 even, 1 odd; the other parity of its
 * output keeps its values). */
typedef struct {
    const qf_lattice *lat;
    qf_field_shape shape;
    qf_precision prec;
    int parity;
} qf_linop_domain;

/* An implementation. ctx is its state, passed back to every function. */
typedef struct {
    const char *name; /* for messages: "M", "Mhat", "diagonal" */
    /* out = A in (dagger 0) or A^dagger in (dagger 1): submits tasks, waits for none */
    int (*apply)(void *ctx, int dagger, qf_field *out, const qf_field *in);
    /* flops of one application by QUDA's counts (0 if unknown) */
    double (*flops)(const void *ctx, int dagger);
    /* Optional: the same operator in precision prec; the implementation owns the twin and keeps it at
     * least as long as ctx. NULL: the operator exists in its own precision only. */
    int (*in_precision)(void *ctx, qf_precision prec, qf_linop **twin);
    /* Optional even-odd form of a full-lattice operator: its Schur complement on the even sites (a new
     * operator that the caller owns), the source bhat_e of the Schur system from b, and the full
     * solution x from the even-site solution x_even and b. NULL: none. */
    int (*schur)(void *ctx, qf_linop **schur);
    int (*prepare)(void *ctx, qf_field *bhat, const qf_field *b);
    int (*reconstruct)(void *ctx, qf_field *x, const qf_field *x_even, const qf_field *b);
    /* Optional, with the even-odd form: az = A x for the x that reconstruct makes from x_even and b,
     * given bhat (prepare's of b) and w = Ahat x_even, without applying A: A x = b on the odd sites,
     * and on the even ones w + b - bhat in the asymmetric Schur form. NULL: not available. */
    int (*schur_image)(void *ctx, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w);
    /* Optional, with the even-odd form: bhat = prepare(r - A z) from z's even sites alone (what prepare(r)
     * minus Ahat z_e gives, as z_o drops out), cheaper than those two. NULL: not available. */
    int (*prepare_defect)(void *ctx, qf_field *bhat, const qf_field *r, const qf_field *z);
    /* Optional: the Galerkin coarse operator R A P for the transfer T (qf_multigrid.h), a new operator
     * that the caller owns. NULL: A cannot be coarsened. */
    int (*coarsen)(void *ctx, const qf_transfer *T, qf_linop **coarse);
    /* Optional: the domain solves of Schwarz methods on the domains of extents dom (qf_linop_domains), a
     * new object that the caller owns. NULL: A has none. */
    int (*domains)(void *ctx, const int dom[QF_NDIM], int mr_steps, qf_domains **D);
    /* Optional: frees ctx when the operator is destroyed. */
    void (*destroy)(void *ctx);
    /* 1: A is hermitian and positive definite (A^dagger = A, what plain CG needs); 0: not known to be. */
    int hermitian;
} qf_linop_ops;

/* Creates an operator from an implementation (ops must outlive it). */
int qf_linop_create(qf_linop **A, const qf_linop_ops *ops, void *ctx, const qf_linop_domain *domain);
/* Frees the operator, its pool, the forms derived from it (Schur, normal) and ctx (ops->destroy). */
void qf_linop_destroy(qf_linop *A);

const char *qf_linop_name(const qf_linop *A);
/* Whether A is hermitian positive definite by its implementation's word (qf_linop_ops.hermitian); the
 * normal operator A^dagger A is. */
int qf_linop_is_hermitian(const qf_linop *A);
/* A's ctx when A was created with ops (an implementation recognising its own operators), else NULL. */
void *qf_linop_context(const qf_linop *A, const qf_linop_ops *ops);
const qf_linop_domain *qf_linop_get_domain(const qf_linop *A);

/* out = A in and out = A^dagger in; out and in distinct fields of the operator's domain. */
int qf_linop_apply(qf_linop *A, qf_field *out, const qf_field *in);
int qf_linop_apply_dagger(qf_linop *A, qf_field *out, const qf_field *in);
/* Flops of one application of A (dagger 0) or A^dagger (dagger 1) on the whole domain. */
double qf_linop_flops(const qf_linop *A, int dagger);

/* A itself when prec is its precision, otherwise its twin in prec (built on the first request and
 * kept as long as A); fails with a message when the operator has no such twin. A derived form's
 * twin is the same form of the twin of the operator it was derived from. */
int qf_linop_in_precision(qf_linop *A, qf_precision prec, qf_linop **twin);

/* Even-odd form: whether A has one; its Schur complement Ahat on the even sites (built on the first
 * request, owned by A); bhat_e from b; the full solution x from x_even (the Schur system's solution)
 * and b. */
int qf_linop_has_even_odd(const qf_linop *A);
int qf_linop_schur(qf_linop *A, qf_linop **schur);
int qf_linop_prepare(qf_linop *A, qf_field *bhat, const qf_field *b);
int qf_linop_reconstruct(qf_linop *A, qf_field *x, const qf_field *x_even, const qf_field *b);
/* Whether A has schur_image, and az = A x of the reconstructed x from b, bhat = prepare(b) and
 * w = Ahat x_even (qf_linop_ops.schur_image): the image an even-odd smoother gets for a few vector
 * passes instead of an application of A. */
int qf_linop_has_schur_image(const qf_linop *A);
int qf_linop_schur_image(qf_linop *A, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w);
/* Whether A has prepare_defect, and bhat = prepare(r - A z) whatever z's odd sites
 * (qf_linop_ops.prepare_defect): the source of an even-odd smoother that corrects z in place. */
int qf_linop_has_prepare_defect(const qf_linop *A);
int qf_linop_prepare_defect(qf_linop *A, qf_field *bhat, const qf_field *r, const qf_field *z);
/* schur_image for an implementation whose Schur form is the asymmetric one: az = b, then
 * az_e += w - bhat (three vector passes). */
int qf_linop_schur_image_asymmetric(qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w);

/* Domain solves for Schwarz methods (solvers/sap.c). Domains of extents dom tile every block of A's
 * lattice and are coloured like a chessboard (neighbouring domains differ in colour: the lattice holds
 * an even number of domains in every direction). qf_domains_solve adds to x, on the domains of one
 * colour, the result of mr_steps minimal-residual steps from zero on the even-odd preconditioned
 * operator of A restricted to each domain with Dirichlet boundaries (hops that leave the domain
 * dropped) for the right-hand side r there, its odd sites reconstructed (openQCD's block solver): one
 * task a block, no communication. qf_linop_domains fails with a message when A has no domain solves or dom
 * does not suit its lattice. */
int qf_linop_domains(qf_linop *A, const int dom[QF_NDIM], int mr_steps, qf_domains **D);
int qf_domains_solve(qf_domains *D, int colour, qf_field *x, const qf_field *r);
void qf_domains_destroy(qf_domains *D);
/* For implementations: a qf_domains from its solve and destroy functions (ops must outlive it). */
typedef struct {
    int (*solve)(void *ctx, int colour, qf_field *x, const qf_field *r);
    void (*destroy)(void *ctx);
} qf_domains_ops;
int qf_domains_create(qf_domains **D, const qf_domains_ops *ops, void *ctx);

/* The hermitian normal operator A^dagger A on A's domain (built on the first request, owned by A). */
int qf_linop_normal(qf_linop *A, qf_linop **normal);

/* Temporaries of the operator's domain for callers that need them again and again (the solvers): taken
 * from a pool that the operator and the forms derived from it share, and given back to it instead of
 * destroyed, so that repeated solves allocate nothing (a GPU allocation of a 32^4 field has cost over
 * 100 ms). A field taken holds undefined values; fields of another shape given back are destroyed. */
int qf_linop_field_take(qf_linop *A, qf_field **f);
void qf_linop_field_give_back(qf_linop *A, qf_field *f);

typedef struct qf_precond qf_precond;

typedef struct {
    const char *name; /* for messages: "MR(4)", "multigrid" */
    /* z = K r, on the sites of the operator the preconditioner was made for; adds the flops of the
     * operator applications it made to *flops */
    int (*apply)(void *ctx, qf_field *z, const qf_field *r, double *flops);
    /* Optional: z = K r as apply, and az = A z for the operator A the preconditioner was made for,
     * which some preconditioners know from their own residual (MR, the multigrid K-cycle), so that
     * flexible GCR need not apply A to z. */
    int (*apply_image)(void *ctx, qf_field *z, qf_field *az, const qf_field *r, double *flops);
    void (*destroy)(void *ctx); /* optional */
} qf_precond_ops;

int qf_precond_create(qf_precond **K, const qf_precond_ops *ops, void *ctx);
void qf_precond_destroy(qf_precond *K);
const char *qf_precond_name(const qf_precond *K);
/* K's ctx when K was created with ops (an implementation recognising its own preconditioners), else NULL. */
void *qf_precond_context(const qf_precond *K, const qf_precond_ops *ops);
/* z = K r; z and r distinct fields; *flops (may be NULL) grows by the flops K spent. */
int qf_precond_apply(qf_precond *K, qf_field *z, const qf_field *r, double *flops);
/* Whether K has apply_image; z = K r and az = A z (three distinct fields besides r). */
int qf_precond_has_image(const qf_precond *K);
int qf_precond_apply_image(qf_precond *K, qf_field *z, qf_field *az, const qf_field *r, double *flops);

/* K = n minimal-residual steps on A z = r from z = 0 (the cheap smoother of GCR-DD and multigrid);
 * A must outlive K. */
int qf_precond_mr(qf_precond **K, qf_linop *A, int steps);
/* K = cycles of the Schwarz alternating procedure on the full-lattice operator A (solvers/sap.c): on
 * domains of extents dom of colour 0, then 1, mr_steps even-odd MR steps on A with Dirichlet boundaries
 * (qf_linop_domains), the
 * residual updated on the whole lattice between the two (qf_linop_domains says which A and dom
 * suit); A must outlive K. */
int qf_precond_sap(qf_precond **K, qf_linop *A, const int dom[QF_NDIM], int cycles, int mr_steps);

#ifdef __cplusplus
}
#endif
#endif
