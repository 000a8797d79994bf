/* Codelet mg_coarse_interior: the coarse operator's hops inside one coarse block (kernels/mg.h): sites
 * without a face hop are finished, the others keep their partial hop sum for mg_coarse_exterior.
 * Where the block is the whole lattice (wrap: the fused one-block hop) the task is a serial step of
 * whatever applies the operator (the setup's inverse iteration on a coarse level, a coarse solve as a
 * task graph), the other CPU workers waiting for it, so on CPUs its sites are shared among the CPU
 * team (cpu_team.h); each site is one thread's, so the result does not depend on the team.
 * Buffers: R in, R links, W|RW out, [R x], [R X^-1]. */
#include "codelets.h"
#include "cpu_team.h"
#include "cpu_versions.h"
#include "mg_coarse_run.h"

#include <string.h>

#if QF_HAVE_CUDA
void qf_mg_coarse_interior_cuda(void *buffers[], void *cl_arg);
#endif

/* The block's output sites first .. end - 1 one at a time, all rows at once (kernels/mg.h:
 * qf_coarse_hops_site), in a->prec and a->link_prec, which the caller has made constants
 * (QF_WITH_FIELD_AND_STORED_PRECISION). */
static inline QF_HD_INLINE void interior_block(const qf_coarse_args *a, const void *in, const void *links, void *out,
                                               const void *x, const void *xinv, int64_t first, int64_t end)
{
    double h[4 * QF_MG_MAX_NVEC], v[4 * QF_MG_MAX_NVEC];
    int len = 4 * a->nvec, xs[QF_NDIM];
    for (int64_t i = first; i < end; i++) {
        int64_t s = qf_parity_site(a->ext, a->parity, i);
        qf_block_site_coords(s, a->ext, xs);
        for (int k = 0; k < len; k++) h[k] = 0.0;
        if (a->b != 0.0) qf_coarse_hops_site(a, in, links, NULL, xs, s, h);
        const double *o = h;
        if (!qf_coarse_partial(a, xs)) {
            qf_coarse_finish_site(a, h, links, x, xinv, s, v);
            o = v;
        }
        size_t so = qf_coarse_site_offset(s, a->nvec);
        for (int k = 0; k < len; k++) qf_real_set(out, a->prec, so + (size_t)k, o[k]);
    }
}

static inline QF_HD_INLINE void interior_run(const qf_coarse_args *a, const void *in, const void *links, void *out,
                                             const void *x, const void *xinv, int64_t first, int64_t end)
{
    QF_WITH_FIELD_AND_STORED_PRECISION(a->prec, a->link_prec, P, PL, {
        qf_coarse_args b = *a;
        b.prec = P;
        b.link_prec = PL;
        interior_block(&b, in, links, out, x, xinv, first, end);
    });
}
QF_CPU_VERSIONS(interior_run, interior_run, (const qf_coarse_args *a, const void *in, const void *links, void *out,
                                             const void *x, const void *xinv, int64_t first, int64_t end),
                (a, in, links, out, x, xinv, first, end))

void qf_coarse_interior_range_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                  const void *xinv, int64_t first, int64_t end)
{
    QF_CPU_CALL(interior_run, (a, in, links, out, x, xinv, first, end));
}

void qf_coarse_interior_run_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                const void *xinv)
{
    qf_coarse_interior_range_cpu(a, in, links, out, x, xinv, 0, qf_parity_nsites(a->ext, a->parity));
}

typedef struct {
    const qf_coarse_args *a;
    const void *in, *links, *x, *xinv;
    void *out;
} interior_share;

static void interior_part(void *p, int64_t first, int64_t end)
{
    const interior_share *s = p;
    qf_coarse_interior_range_cpu(s->a, s->in, s->links, s->out, s->x, s->xinv, first, end);
}

void qf_coarse_interior_team_cpu(const qf_coarse_args *a, const void *in, const void *links, void *out, const void *x,
                                 const void *xinv)
{
    interior_share s = {.a = a, .in = in, .links = links, .x = x, .xinv = xinv, .out = out};
    qf_cpu_team_range(1, qf_parity_nsites(a->ext, a->parity), interior_part, &s);
}

static void mg_coarse_interior_cpu(void *buffers[], void *cl_arg)
{
    const qf_coarse_args *a = cl_arg;
    int k = 3;
    const void *in = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    const void *xinv = a->local_on != QF_CLOVER_NONE && a->local_inverse ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
    if (a->wrap) qf_coarse_interior_team_cpu(a, in, links, out, x, xinv);
    else qf_coarse_interior_run_cpu(a, in, links, out, x, xinv);
}

static struct starpu_perfmodel mg_coarse_interior_model = {.type = STARPU_HISTORY_BASED,
                                                           .symbol = "qf_mg_coarse_interior"};

struct starpu_codelet qf_cl_mg_coarse_interior = {
    .name = "mg_coarse_interior",
    .cpu_funcs = {mg_coarse_interior_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_coarse_interior_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_coarse_interior_model,
};

int qf_coarse_stages(const qf_lattice *lat, const qf_coarse_hop *h, const char *const names[4], qf_codelet_stage st[4])
{
    /* the gather packs the sites the hops read: the other parity */
    qf_coarse_gather_args g = {.parity = h->parity < 0 ? -1 : 1 - h->parity, .nvec = h->nvec, .prec = h->prec};
    qf_coarse_args a = {.parity = h->parity, .dagger = h->dagger, .a = h->a, .b = h->b, .has_x = h->has_x,
                        .local_on = h->local_on, .local_inverse = h->local_inverse, .nvec = h->nvec, .prec = h->prec,
                        .link_prec = h->link_prec};
    memcpy(g.ext, lat->block, sizeof g.ext);
    memcpy(a.ext, lat->block, sizeof a.ext);
    qf_coarse_args wrap = a; /* the fused stage: a one-block lattice's hop, every hop wrapping, no faces */
    wrap.wrap = 1;
    memset(st, 0, 4 * sizeof *st); /* so that a failed bind frees only what was bound */
    if (qf_codelet_stage_bind(&st[0], &qf_cl_mg_coarse_gather, &g, sizeof g, -1, names[0]) ||
        qf_codelet_stage_bind(&st[1], &qf_cl_mg_coarse_interior, &a, sizeof a, -1, names[1]) ||
        qf_codelet_stage_bind(&st[2], &qf_cl_mg_coarse_exterior, &a, sizeof a, -1, names[2]) ||
        qf_codelet_stage_bind(&st[3], &qf_cl_mg_coarse_interior, &wrap, sizeof wrap, -1, names[3])) {
        qf_codelet_stages_free(st, 4);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}
