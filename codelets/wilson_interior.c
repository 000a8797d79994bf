/* Codelet wilson_interior: the hops of one block whose sources lie in the block, finishing the sites
 * that have no face hop (kernels/wilson.h). Buffers (STARPU_VARIABLE_NBUFFERS): R input spinor,
 * R gauge, W out (RW for one parity, whose other half is kept), then R x if has_x, R clover if
 * clover_on. */
#include "codelets.h"
#include "kernels/simd.h"
#include "cpu_versions.h"
#include "site_plans.h"
#include "wilson_launch.h"

static void optional_buffers(void *buffers[], const qf_wilson_args *a, int first, const void **x, const void **clover)
{
    int k = first;
    *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    *clover = a->clover_on != QF_CLOVER_NONE ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
}

#if QF_HAVE_CUDA
static void wilson_interior_cuda(void *buffers[], void *cl_arg)
{
    const qf_wilson_args *a = (const qf_wilson_args *)cl_arg;
    const void *x, *clover;
    optional_buffers(buffers, a, QF_WILSON_INTERIOR_FIXED, &x, &clover);
    qf_wilson_interior_run_cuda(a, (void *)STARPU_VECTOR_GET_PTR(buffers[2]), (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                                (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), x, clover,
                                starpu_cuda_get_local_stream());
}
#endif

static inline QF_HD_INLINE void interior_run(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *in,
                                              const void *gauge, const void *x, const void *clover,
                                              const qf_wilson_nbrs *nbrs)
{
    qf_sites_key key =
        qf_sites_key_slices(qf_sites_key_make(QF_SITES_HOPS, a->ext, a->parity, a->wrap, 0, -1, -1), t_lo, t_hi);
    qf_sites_plan p = qf_sites_plan_of(&key, a->prec);
    QF_SIMD_SPECIALISE(qf_wilson_args, a, b, qf_wilson_interior_block_f8(out, in, gauge, x, clover, nbrs, &b, p.f8, p.n),
                       qf_wilson_interior_block_d4(out, in, gauge, x, clover, nbrs, &b, p.d4, p.n));
}
static inline void interior_scalar(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *in,
                                   const void *gauge, const void *x, const void *clover, const qf_wilson_nbrs *nbrs)
{
    int64_t first, end;
    qf_parity_slice_sites(a->ext, a->parity, t_lo, t_hi, &first, &end);
    for (int64_t i = first; i < end; i++) qf_wilson_interior_site(out, in, gauge, x, clover, nbrs, i, a);
}
QF_CPU_VERSIONS(interior_run, interior_scalar, (const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *in,
                                                const void *gauge, const void *x, const void *clover,
                                                const qf_wilson_nbrs *nbrs),
                (a, t_lo, t_hi, out, in, gauge, x, clover, nbrs))

void qf_wilson_interior_run_slices(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *in,
                                   const void *gauge, const void *x, const void *clover)
{
    QF_CPU_CALL(interior_run, (a, t_lo, t_hi, out, in, gauge, x, clover, NULL));
}

qf_wilson_args qf_wilson_direct_args(const qf_wilson_args *a)
{
    qf_wilson_args d = *a; /* every direction wraps: those of several blocks across to the neighbours */
    d.wrap = (1 << QF_NDIM) - 1;
    d.remote = d.wrap & ~a->wrap;
    return d;
}

void qf_wilson_hops_run(const qf_wilson_args *a, void *out, const void *in, const void *gauge, const void *x,
                        const void *clover, const qf_wilson_nbrs *nbrs)
{
    QF_CPU_CALL(interior_run, (a, 0, 0, out, in, gauge, x, clover, nbrs));
}

void qf_wilson_interior_run(const qf_wilson_args *a, void *out, const void *in, const void *gauge, const void *x,
                            const void *clover)
{
    qf_wilson_interior_run_slices(a, 0, 0, out, in, gauge, x, clover);
}

static void wilson_interior_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_args *a = (const qf_wilson_args *)cl_arg;
    const void *x, *clover;
    optional_buffers(buffers, a, QF_WILSON_INTERIOR_FIXED, &x, &clover);
    qf_wilson_interior_run(a, (void *)STARPU_VECTOR_GET_PTR(buffers[2]), (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                           (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), x, clover);
}

static struct starpu_perfmodel wilson_interior_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_interior"};

struct starpu_codelet qf_cl_wilson_interior = {
    .name = "wilson_interior",
    .cpu_funcs = {wilson_interior_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {wilson_interior_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &wilson_interior_model,
};

/* The Wilson stages of one hop (codelets.h), bound here beside the interior, whose arguments the exterior
 * and the fused block share. */
void qf_wilson_hop_args(const qf_lattice *lat, const qf_wilson_hop *h, qf_wilson_gather_args *g, qf_wilson_args *a)
{
    *g = (qf_wilson_gather_args){.parity = h->parity < 0 ? -1 : 1 - h->parity, .dagger = h->dagger, .prec = h->prec,
                                 .recon = h->recon};
    memcpy(g->ext, lat->block, sizeof g->ext);
    *a = (qf_wilson_args){.parity = h->parity, .dagger = h->dagger, .a = h->a, .b = h->b, .has_x = h->has_x,
                          .clover_on = h->clover_on, .prec = h->prec, .recon = h->recon};
    memcpy(a->ext, lat->block, sizeof a->ext);
    memcpy(a->global, lat->global, sizeof a->global);
    memcpy(a->phase, h->phase, sizeof a->phase);
    for (int mu = 0; mu < QF_NDIM; mu++) a->wrap |= (lat->blocks[mu] == 1) << mu;
    g->wrap = a->wrap;
}

qf_wilson_hop qf_wilson_hop_of(const qf_dirac_hop *h, const qf_dirac_params *p, int dagger)
{
    qf_wilson_hop w = {.parity = h->parity, .dagger = dagger, .a = h->a, .b = h->b, .has_x = h->x != QF_HOP_NONE,
                       .clover_on = h->clover_on, .prec = p->prec, .recon = p->recon};
    memcpy(w.phase, p->phase, sizeof w.phase);
    return w;
}

int qf_wilson_stages(const qf_lattice *lat, const qf_wilson_hop *h, const char *const names[5], qf_codelet_stage st[5])
{
    qf_wilson_gather_args g;
    qf_wilson_args a;
    qf_wilson_hop_args(lat, h, &g, &a);
    int origin = (int)offsetof(qf_wilson_args, origin);
    /* one hop on the fused stage's buffers (tasks/stencil.h): in, links, out, then x, the clover */
    int extra = 3;
    qf_wilson_block_args blk = {.nhops = 1,
                                .hop = {{.a = a,
                                         .src = 0,
                                         .dst = 2,
                                         .x = h->has_x ? extra : -1,
                                         .clover = h->clover_on != QF_CLOVER_NONE ? extra + (h->has_x != 0) : -1}}};
    int blk_origin = (int)(offsetof(qf_wilson_block_args, hop) + offsetof(qf_wilson_block_hop, a) +
                           offsetof(qf_wilson_args, origin));
    qf_wilson_args direct = qf_wilson_direct_args(&a);
    memset(st, 0, 5 * sizeof *st); /* a failed bind frees the ones before it */
    if (qf_codelet_stage_bind(&st[0], &qf_cl_wilson_gather, &g, sizeof g, -1, names[0]) ||
        qf_codelet_stage_bind(&st[1], &qf_cl_wilson_interior, &a, sizeof a, origin, names[1]) ||
        qf_codelet_stage_bind(&st[2], &qf_cl_wilson_exterior, &a, sizeof a, origin, names[2]) ||
        qf_codelet_stage_bind(&st[3], &qf_cl_wilson_block, &blk, sizeof blk, blk_origin, names[3]) ||
        qf_codelet_stage_bind(&st[4], &qf_cl_wilson_direct, &direct, sizeof direct, origin, names[4])) {
        qf_codelet_stages_free(st, 5);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}
