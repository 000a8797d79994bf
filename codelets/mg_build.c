/* Codelet mg_build: one fine block's contributions to the Galerkin coarse operator D_c = R D P, from the
 * fine operator's links and local term and the near-null vectors (kernels/mg.h), for the aggregates of
 * the block, in double. The CPU sums site by site: for every fine site and term m, the 2 nsite N
 * entries of M_m P_chi' V_l(y) once, then their products with conj(V_k(x)) into the target matrix.
 * Buffers: R V, R links, [R clover], R V faces (8), [R gauge faces (4)], W partial. */
#include "codelets.h"
#include "cpu_team.h"
#include "cpu_versions.h"
#include "mg_coarse_run.h"

#include <stdlib.h>
#include <string.h>

#if QF_HAVE_CUDA
void qf_mg_build_cuda(void *buffers[], void *cl_arg);
#endif

/* The buffers of a build task in the order of codelets.h. */
typedef struct {
    const void *v, *links, *clover, *vface[QF_NDIRS], *gface[QF_NDIM];
    void *partial;
} build_buffers;

static void buffers_of(void *buffers[], const qf_mg_build_args *a, build_buffers *b)
{
    int k = 0;
    b->v = (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    b->links = (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    b->clover = a->has_clover ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    for (int d = 0; d < QF_NDIRS; d++) b->vface[d] = (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]);
    for (int mu = 0; mu < QF_NDIM; mu++)
        b->gface[mu] = a->source == QF_MG_SOURCE_WILSON ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    b->partial = (void *)STARPU_VECTOR_GET_PTR(buffers[k]);
}

/* Site by site, for the aggregates [a0, a1) of the block: each fine site's terms applied to the vectors
 * once (e), then added into the aggregate's matrices row by row. A row of e is kept as the two real
 * vectors E1 = (re, im) and E2 = (-im, re) over the 2N columns, so that conj(V_k(x)[i]) times the row
 * is two contiguous multiply-adds a real of the partial matrix row (vectorised, per CPU version). The
 * sites are taken in the block's order whatever the range, so that an aggregate's sums do not depend
 * on how the aggregates are shared. */
static inline QF_HD_INLINE void build_block(const qf_mg_build_args *a, build_buffers b, double *e1, double *e2,
                                            qf_complex *vx, int64_t a0, int64_t a1)
{
    const qf_mg_geom *g = &a->g;
    int n = g->nvec, len = 4 * n, ns = g->nsite, h = ns / 2, x[QF_NDIM];
    double *partial = b.partial;
    size_t p0 = qf_mg_partial_offset(n, a0, 0, 0, 0);
    memset(partial + p0, 0, (qf_mg_partial_offset(n, a1, 0, 0, 0) - p0) * sizeof(double));
    for (int64_t fs = 0, nf = qf_volume(g->fext); fs < nf; fs++) {
        qf_block_site_coords(fs, g->fext, x);
        int64_t ai = qf_mg_aggregate_of(g, x);
        if (ai < a0 || ai >= a1) continue;
        for (int k = 0; k < n; k++)
            for (int i = 0; i < ns; i++) {
                size_t o = qf_mg_v_offset(g, fs, k, i);
                vx[i * n + k] = qf_cconj(qf_cmake(qf_real_get(b.v, g->prec, o), qf_real_get(b.v, g->prec, o + 1)));
            }
        for (int m = 0; m < QF_MG_NMAT; m++) {
            const void *src;
            int64_t ys = qf_mg_source_site(g, x, m, b.v, b.vface, &src);
            qf_mg_term term = qf_mg_term_at(a, x, m, b.links, b.gface);
            /* row i, column (cs, l): (M_m P_cs V_l(y))[i] */
            for (int cs = 0; cs < 2; cs++)
                for (int i = 0; i < ns; i++)
                    for (int l = 0; l < n; l++) {
                        qf_complex t = qf_mg_term_entry(a, &term, fs, m, b.links, b.clover, i, cs, src,
                                                        qf_mg_v_offset(g, ys, l, 0));
                        size_t o = (size_t)i * len + 2 * (size_t)(cs * n + l);
                        e1[o] = t.re;
                        e1[o + 1] = t.im;
                        e2[o] = -t.im;
                        e2[o + 1] = t.re;
                    }
            int target = qf_mg_source_in_aggregate(g, x, m) ? QF_MG_LOCAL : m;
            for (int chi = 0; chi < 2; chi++)
                for (int k = 0; k < n; k++) {
                    double *row = partial + qf_mg_partial_offset(n, ai, target, chi * n + k, 0);
                    for (int i = chi * h; i < chi * h + h; i++) {
                        double cr = vx[i * n + k].re, ci = vx[i * n + k].im;
                        const double *r1 = e1 + (size_t)i * len, *r2 = e2 + (size_t)i * len;
                        for (int c = 0; c < len; c++) row[c] += cr * r1[c] + ci * r2[c];
                    }
                }
        }
    }
}

/* the fields' and the links' precisions as constants, so that the loads specialise */
static inline QF_HD_INLINE void build_run(const qf_mg_build_args *a, build_buffers b, double *e1, double *e2,
                                          qf_complex *vx, int64_t a0, int64_t a1)
{
    QF_WITH_PRECISION(a->g.prec, P, QF_WITH_PRECISION(a->link_prec, L, {
        qf_mg_build_args c = *a;
        c.g.prec = P;
        c.link_prec = L;
        build_block(&c, b, e1, e2, vx, a0, a1);
    }));
}
QF_CPU_VERSIONS(build_run, build_run,
                (const qf_mg_build_args *a, build_buffers b, double *e1, double *e2, qf_complex *vx, int64_t a0,
                 int64_t a1),
                (a, b, e1, e2, vx, a0, a1))

typedef struct {
    const qf_mg_build_args *a;
    build_buffers b;
} build_job;

/* the aggregates [a0, a1), with this part's own rows of e */
static void build_part(void *arg, int64_t a0, int64_t a1)
{
    const build_job *j = arg;
    size_t row = (size_t)j->a->g.nsite * 4 * j->a->g.nvec;
    double *e1 = malloc(2 * row * sizeof *e1);
    qf_complex *vx = malloc((size_t)j->a->g.nsite * j->a->g.nvec * sizeof *vx);
    STARPU_ASSERT_MSG(e1 && vx, "mg_build: out of host memory");
    QF_CPU_CALL(build_run, (j->a, j->b, e1, e1 + row, vx, a0, a1));
    free(e1);
    free(vx);
}

static void mg_build_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_build_args *a = cl_arg;
    build_job j = {.a = a};
    buffers_of(buffers, a, &j.b);
    int apb[QF_NDIM];
    qf_mg_apb(&a->g, apb);
    qf_cpu_team_range(a->team, qf_volume(apb), build_part, &j);
}

static struct starpu_perfmodel mg_build_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_build"};

struct starpu_codelet qf_cl_mg_build = {
    .name = "mg_build",
    .cpu_funcs = {mg_build_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_build_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_build_model,
};

size_t qf_mg_partial_doubles(const qf_lattice *fine, const int agg[QF_NDIM], int nvec)
{
    int apb = 1;
    for (int mu = 0; mu < QF_NDIM; mu++) apb *= fine->block[mu] / agg[mu];
    return qf_mg_partial_offset(nvec, apb, 0, 0, 0);
}

int qf_insert_mg_build(const qf_field *v, int b, const int agg[QF_NDIM], int nvec, const qf_coarse_source *src,
                       starpu_data_handle_t partial)
{
    const qf_lattice *fl = v->lat;
    qf_mg_build_args a = {.g = qf_mg_transfer_geom(v, agg, nvec),
                          .source = src->wilson ? QF_MG_SOURCE_WILSON : QF_MG_SOURCE_COARSE,
                          .has_clover = src->clover != NULL,
                          .kappa = src->kappa,
                          .link_prec = src->links->prec,
                          .team = qf_cpu_team_shares(fl)};
    memcpy(a.phase, src->phase, sizeof a.phase);
    memcpy(a.global, fl->global, sizeof a.global);
    qf_lattice_block_origin(fl, b, a.origin);
    struct starpu_data_descr d[3 + QF_NDIRS + QF_NDIM + 1];
    int n = 0;
    d[n++] = (struct starpu_data_descr){qf_field_block(v, b), STARPU_R};
    d[n++] = (struct starpu_data_descr){qf_field_block(src->links, b), STARPU_R};
    if (src->clover) d[n++] = (struct starpu_data_descr){qf_field_block(src->clover, b), STARPU_R};
    for (int k = 0; k < QF_NDIRS; k++) {
        int mu = k / 2, fwd = k & 1;
        int nb = qf_block_neighbour(b, fl->blocks, mu, fwd ? 1 : -1);
        d[n++] = (struct starpu_data_descr){qf_field_face(v, nb, mu, fwd ? 0 : 1), STARPU_R};
    }
    for (int mu = 0; src->wilson && mu < QF_NDIM; mu++)
        d[n++] = (struct starpu_data_descr){qf_field_face(src->links, qf_block_neighbour(b, fl->blocks, mu, -1), mu, 1),
                                            STARPU_R};
    d[n++] = (struct starpu_data_descr){partial, STARPU_W};
    int ret = QF_TASK_INSERT_BLOCK(v->lat, b, &qf_cl_mg_build, STARPU_DATA_MODE_ARRAY, d, n, QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_build");
}
