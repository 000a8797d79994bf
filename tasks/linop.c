/* The linear-operator interface (include/quarkflow/qf_linop.h): the container around an
 * implementation, with what every operator gets for free: argument checks, the pool of temporaries
 * (shared by an operator and the forms derived from it), and the derived forms themselves, the
 * even-odd Schur complement (from the implementation) and the normal operator A^dagger A (built here,
 * for any operator). A derived form remembers what it came from, so that its twin in another
 * precision is the same form of its origin's twin. */
#include "quarkflow/qf_linop.h"
#include "quarkflow/qf_blas.h"
#include "quarkflow/qf_multigrid.h"

#include <stdlib.h>

typedef struct {
    qf_field **f;
    int n, size;
} field_pool;

typedef enum { FORM_BASE = 0, FORM_SCHUR, FORM_NORMAL, NFORMS } linop_form;

struct qf_linop {
    const qf_linop_ops *ops;
    void *ctx;
    qf_linop_domain dom;
    field_pool *pool;           /* the base operator's own, shared by its derived forms */
    qf_linop *origin;           /* what a derived form was derived from (NULL for a base operator) */
    linop_form form;
    qf_linop *derived[NFORMS];  /* owned: the forms derived from this operator, built on request */
};

static void pool_free(field_pool *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) qf_field_destroy(p->f[i]);
    free(p->f);
    free(p);
}

static int create(qf_linop **out, const qf_linop_ops *ops, void *ctx, const qf_linop_domain *dom, qf_linop *origin,
                  linop_form form)
{
    *out = NULL;
    if (!ops || !ops->apply || !dom || !dom->lat)
        return qf_fail("qf_linop_create: an operator needs its apply function and its domain's lattice");
    if (dom->parity < -1 || dom->parity > 1)
        return qf_fail("qf_linop_create: parity %d: use -1 (all sites), 0 (even) or 1 (odd)", dom->parity);
    if ((ops->schur || ops->prepare || ops->reconstruct) && !(ops->schur && ops->prepare && ops->reconstruct))
        return qf_fail("qf_linop_create: operator %s: an even-odd form needs schur, prepare and reconstruct together",
                       ops->name ? ops->name : "?");
    qf_linop *A = calloc(1, sizeof *A);
    field_pool *pool = origin ? origin->pool : calloc(1, sizeof *pool);
    if (!A || !pool) {
        free(A);
        if (!origin) free(pool);
        return qf_fail("out of host memory creating the operator %s", ops->name ? ops->name : "?");
    }
    *A = (qf_linop){.ops = ops, .ctx = ctx, .dom = *dom, .pool = pool, .origin = origin, .form = form};
    *out = A;
    return QF_SUCCESS;
}

int qf_linop_create(qf_linop **A, const qf_linop_ops *ops, void *ctx, const qf_linop_domain *domain)
{
    return create(A, ops, ctx, domain, NULL, FORM_BASE);
}

void qf_linop_destroy(qf_linop *A)
{
    if (!A) return;
    for (int f = 0; f < NFORMS; f++) qf_linop_destroy(A->derived[f]);
    if (A->ops->destroy) A->ops->destroy(A->ctx);
    if (!A->origin) pool_free(A->pool);
    free(A);
}

const char *qf_linop_name(const qf_linop *A) { return A->ops->name ? A->ops->name : "operator"; }
int qf_linop_is_hermitian(const qf_linop *A) { return A->ops->hermitian; }
void *qf_linop_context(const qf_linop *A, const qf_linop_ops *ops) { return A && A->ops == ops ? A->ctx : NULL; }
const qf_linop_domain *qf_linop_get_domain(const qf_linop *A) { return &A->dom; }

/* A field an operator reads or writes: of its domain's shape, precision and lattice. */
static int check_operand(const qf_linop *A, const qf_field *f, const char *role)
{
    if (!f) return qf_fail("operator %s: the %s field is NULL", qf_linop_name(A), role);
    const qf_field_shape *fs = qf_field_get_shape(f);
    if (!qf_field_shape_same_sites(fs, &A->dom.shape) || qf_field_precision(f) != A->dom.prec ||
        !qf_lattice_same(qf_field_lattice(f), A->dom.lat))
        return qf_fail("operator %s acts on %s fields (%d reals a site) in %s precision on its own lattice; the %s field "
                       "is a %s field (%d) in %s precision%s",
                       qf_linop_name(A), qf_field_kind_name(A->dom.shape.kind), A->dom.shape.site_reals,
                       qf_precision_name(A->dom.prec), role, qf_field_kind_name(fs->kind), fs->site_reals,
                       qf_precision_name(qf_field_precision(f)),
                       qf_lattice_same(qf_field_lattice(f), A->dom.lat) ? "" : " on another lattice");
    return QF_SUCCESS;
}

static int apply(qf_linop *A, int dagger, qf_field *out, const qf_field *in)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (check_operand(A, out, "output") || check_operand(A, in, "input")) return QF_ERROR;
    if (out == in) return qf_fail("operator %s: the input and output are the same field", qf_linop_name(A));
    return A->ops->apply(A->ctx, dagger, out, in);
}

int qf_linop_apply(qf_linop *A, qf_field *out, const qf_field *in) { return apply(A, 0, out, in); }
int qf_linop_apply_dagger(qf_linop *A, qf_field *out, const qf_field *in) { return apply(A, 1, out, in); }

double qf_linop_flops(const qf_linop *A, int dagger) { return A->ops->flops ? A->ops->flops(A->ctx, dagger) : 0.0; }

/* ---- derived forms ---- */

static int derive(qf_linop *A, linop_form form, qf_linop **out);

int qf_linop_in_precision(qf_linop *A, qf_precision prec, qf_linop **twin)
{
    *twin = A;
    if (prec == A->dom.prec) return QF_SUCCESS;
    if (A->origin) { /* the same form of the origin's twin */
        qf_linop *origin_twin;
        return qf_linop_in_precision(A->origin, prec, &origin_twin) || derive(origin_twin, A->form, twin) ? QF_ERROR
                                                                                                          : QF_SUCCESS;
    }
    if (!A->ops->in_precision)
        return qf_fail("operator %s exists in %s precision only, not in %s: solve in its own precision",
                       qf_linop_name(A), qf_precision_name(A->dom.prec), qf_precision_name(prec));
    if (A->ops->in_precision(A->ctx, prec, twin)) return QF_ERROR;
    if (qf_linop_get_domain(*twin)->prec != prec)
        return qf_fail("operator %s: its twin in %s precision is in %s", qf_linop_name(A), qf_precision_name(prec),
                       qf_precision_name(qf_linop_get_domain(*twin)->prec));
    return QF_SUCCESS;
}

int qf_linop_has_even_odd(const qf_linop *A) { return A->ops->schur != NULL; }

static int no_even_odd(const qf_linop *A)
{
    return qf_fail("operator %s has no even-odd form: solve on the full lattice (even_odd 0, --full)",
                   qf_linop_name(A));
}

int qf_linop_schur(qf_linop *A, qf_linop **schur)
{
    *schur = NULL;
    return qf_linop_has_even_odd(A) ? derive(A, FORM_SCHUR, schur) : no_even_odd(A);
}

int qf_linop_prepare(qf_linop *A, qf_field *bhat, const qf_field *b)
{
    if (!qf_linop_has_even_odd(A)) return no_even_odd(A);
    return check_operand(A, bhat, "prepared source") || check_operand(A, b, "source") ? QF_ERROR
                                                                                      : A->ops->prepare(A->ctx, bhat, b);
}

int qf_linop_has_schur_image(const qf_linop *A) { return qf_linop_has_even_odd(A) && A->ops->schur_image; }

int qf_linop_schur_image(qf_linop *A, qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w)
{
    if (!qf_linop_has_schur_image(A))
        return qf_fail("operator %s has no image of its even-odd solution (schur_image)", qf_linop_name(A));
    return check_operand(A, az, "image") || check_operand(A, b, "source") || check_operand(A, bhat, "prepared source") ||
                   check_operand(A, w, "Schur image")
               ? QF_ERROR
               : A->ops->schur_image(A->ctx, az, b, bhat, w);
}

int qf_linop_has_prepare_defect(const qf_linop *A) { return qf_linop_has_even_odd(A) && A->ops->prepare_defect; }

int qf_linop_prepare_defect(qf_linop *A, qf_field *bhat, const qf_field *r, const qf_field *z)
{
    if (!qf_linop_has_prepare_defect(A))
        return qf_fail("operator %s has no source preparation of a defect (prepare_defect)", qf_linop_name(A));
    return check_operand(A, bhat, "prepared defect") || check_operand(A, r, "residual") ||
                   check_operand(A, z, "correction")
               ? QF_ERROR
               : A->ops->prepare_defect(A->ctx, bhat, r, z);
}

int qf_linop_schur_image_asymmetric(qf_field *az, const qf_field *b, const qf_field *bhat, const qf_field *w)
{
    return qf_blas_copy(az, b, -1) || qf_blas_axpbypcw(1.0, w, 1.0, az, -1.0, bhat, 0)
               ? QF_ERROR
               : QF_SUCCESS;
}

int qf_linop_reconstruct(qf_linop *A, qf_field *x, const qf_field *x_even, const qf_field *b)
{
    if (!qf_linop_has_even_odd(A)) return no_even_odd(A);
    return check_operand(A, x, "solution") || check_operand(A, x_even, "even-site solution") ||
                   check_operand(A, b, "source")
               ? QF_ERROR
               : A->ops->reconstruct(A->ctx, x, x_even, b);
}

/* A^dagger A through one pooled temporary: hermitian, so its dagger is itself. */
static int normal_apply(void *ctx, int dagger, qf_field *out, const qf_field *in)
{
    (void)dagger;
    qf_linop *A = ctx;
    qf_field *t = NULL;
    int rc = qf_linop_field_take(A, &t) || qf_linop_apply(A, t, in) || qf_linop_apply_dagger(A, out, t);
    qf_linop_field_give_back(A, t);
    return rc ? QF_ERROR : QF_SUCCESS;
}

static double normal_flops(const void *ctx, int dagger)
{
    (void)dagger;
    return qf_linop_flops(ctx, 0) + qf_linop_flops(ctx, 1);
}

static const qf_linop_ops normal_ops = {.name = "A^dag A", .apply = normal_apply, .flops = normal_flops, .hermitian = 1};

int qf_linop_normal(qf_linop *A, qf_linop **normal) { return derive(A, FORM_NORMAL, normal); }

static int derive(qf_linop *A, linop_form form, qf_linop **out)
{
    *out = A->derived[form];
    if (*out) return QF_SUCCESS;
    qf_linop *d = NULL;
    if (form == FORM_SCHUR) {
        if (A->ops->schur(A->ctx, &d)) return QF_ERROR;
        if (!qf_field_shape_same_sites(&qf_linop_get_domain(d)->shape, &A->dom.shape) ||
            qf_linop_get_domain(d)->prec != A->dom.prec ||
            !qf_lattice_same(qf_linop_get_domain(d)->lat, A->dom.lat)) {
            qf_linop_destroy(d);
            return qf_fail("operator %s: its Schur complement acts on other fields than it does", qf_linop_name(A));
        }
        /* the implementation made it: it joins this operator's pool and remembers where it came from */
        pool_free(d->pool);
        d->pool = A->pool;
        d->origin = A;
        d->form = FORM_SCHUR;
    } else if (create(&d, &normal_ops, A, &A->dom, A, FORM_NORMAL)) {
        return QF_ERROR;
    }
    *out = A->derived[form] = d;
    return QF_SUCCESS;
}

/* ---- temporaries ---- */

int qf_linop_field_take(qf_linop *A, qf_field **f)
{
    field_pool *p = A->pool;
    if (p->n > 0) {
        *f = p->f[--p->n];
        return QF_SUCCESS;
    }
    return qf_field_create_shaped(f, A->dom.lat, &A->dom.shape, A->dom.prec, QF_FIELD_SCRATCH);
}

void qf_linop_field_give_back(qf_linop *A, qf_field *f)
{
    if (!f) return;
    field_pool *p = A->pool;
    if (qf_field_lattice(f) != A->dom.lat || !qf_field_shape_same_sites(qf_field_get_shape(f), &A->dom.shape) ||
        qf_field_precision(f) != A->dom.prec) { /* not of the pool's shape */
        qf_field_destroy(f);
        return;
    }
    if (p->n == p->size) {
        int n = p->size ? 2 * p->size : 16;
        qf_field **grown = realloc(p->f, (size_t)n * sizeof *grown);
        if (!grown) { /* no room to keep it: it goes */
            qf_field_destroy(f);
            return;
        }
        p->f = grown;
        p->size = n;
    }
    p->f[p->n++] = f;
}

/* ---- multigrid ---- */

int qf_linop_coarsen(qf_linop *A, const qf_transfer *T, qf_linop **Ac)
{
    *Ac = NULL;
    if (qf_sequence_failed()) return QF_ERROR;
    if (!A->ops->coarsen || A->origin)
        return qf_fail("operator %s cannot build a Galerkin coarse operator: multigrid needs the full-lattice "
                       "Wilson-clover operator or a coarse operator",
                       qf_linop_name(A));
    qf_field_shape fs = qf_transfer_fine_shape(T);
    if (A->dom.parity != -1 || !qf_lattice_same(qf_transfer_fine_lattice(T), A->dom.lat) ||
        !qf_field_shape_same_sites(&fs, &A->dom.shape))
        return qf_fail("operator %s acts on %s fields of its own lattice on %s sites, but the transfer maps %s fields "
                       "of another lattice: make the transfer on the operator's lattice and shape",
                       qf_linop_name(A), qf_field_kind_name(A->dom.shape.kind), A->dom.parity < 0 ? "all" : "one parity's",
                       qf_field_kind_name(fs.kind));
    return A->ops->coarsen(A->ctx, T, Ac);
}

/* ---- Schwarz domains ---- */

struct qf_domains {
    const qf_domains_ops *ops;
    void *ctx;
};

int qf_domains_create(qf_domains **D, const qf_domains_ops *ops, void *ctx)
{
    *D = NULL;
    if (!ops || !ops->solve) return qf_fail("qf_domains_create: domain solves need their solve function");
    if (!(*D = malloc(sizeof **D))) return qf_fail("out of host memory creating Schwarz domains");
    **D = (qf_domains){.ops = ops, .ctx = ctx};
    return QF_SUCCESS;
}

void qf_domains_destroy(qf_domains *D)
{
    if (!D) return;
    if (D->ops->destroy) D->ops->destroy(D->ctx);
    free(D);
}

int qf_linop_domains(qf_linop *A, const int dom[QF_NDIM], int mr_steps, qf_domains **D)
{
    *D = NULL;
    if (qf_sequence_failed()) return QF_ERROR;
    if (!A->ops->domains || A->origin || A->dom.parity != -1)
        return qf_fail("operator %s has no Schwarz domain solves: the Schwarz smoother needs the full-lattice "
                       "Wilson-clover operator (use MR smoothing on coarse levels)",
                       qf_linop_name(A));
    if (mr_steps < 1) return qf_fail("Schwarz domain solves of %d MR steps: give at least 1", mr_steps);
    return A->ops->domains(A->ctx, dom, mr_steps, D);
}

int qf_domains_solve(qf_domains *D, int colour, qf_field *x, const qf_field *r)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!x || !r || x == r) return qf_fail("Schwarz domain solves need two distinct fields");
    return D->ops->solve(D->ctx, colour & 1, x, r);
}
