/* Codelet mg_coarse_exterior: the coarse operator's hops through the neighbours' faces, finishing the
 * sites that have one (kernels/mg.h). Buffers: RW out, R links, R faces (8), [R x], [R X^-1]. */
#include "codelets.h"
#include "cpu_versions.h"
#include "kernels/mg.h"

#if QF_HAVE_CUDA
void qf_mg_coarse_exterior_cuda(void *buffers[], void *cl_arg);
#endif

/* The block's face sites one at a time, all rows at once (kernels/mg.h), in a->prec and a->link_prec made
 * constants. */
static inline QF_HD_INLINE void exterior_block(const qf_coarse_args *a, void *out, const void *links,
                                               const void *const *faces, const void *x, const void *xinv)
{
    double h[4 * QF_MG_MAX_NVEC], v[4 * QF_MG_MAX_NVEC];
    int len = 4 * a->nvec, xs[QF_NDIM];
    for (int64_t i = 0, ns = qf_parity_nsites(a->ext, a->parity); i < ns; i++) {
        int64_t s = qf_parity_site(a->ext, a->parity, i);
        qf_block_site_coords(s, a->ext, xs);
        if (!qf_on_face(xs, a->ext)) continue;
        size_t so = qf_coarse_site_offset(s, a->nvec);
        for (int k = 0; k < len; k++) h[k] = qf_real_get(out, a->prec, so + (size_t)k);
        qf_coarse_hops_site(a, NULL, links, faces, xs, s, h);
        qf_coarse_finish_site(a, h, links, x, xinv, s, v);
        for (int k = 0; k < len; k++) qf_real_set(out, a->prec, so + (size_t)k, v[k]);
    }
}

static inline QF_HD_INLINE void exterior_run(const qf_coarse_args *a, void *out, const void *links,
                                             const void *const *faces, const void *x, const void *xinv)
{
    QF_WITH_FIELD_AND_STORED_PRECISION(a->prec, a->link_prec, P, PL, {
        qf_coarse_args b = *a;
        b.prec = P;
        b.link_prec = PL;
        exterior_block(&b, out, links, faces, x, xinv);
    });
}
QF_CPU_VERSIONS(exterior_run, exterior_run, (const qf_coarse_args *a, void *out, const void *links,
                                             const void *const *faces, const void *x, const void *xinv),
                (a, out, links, faces, x, xinv))

static void mg_coarse_exterior_cpu(void *buffers[], void *cl_arg)
{
    const qf_coarse_args *a = cl_arg;
    if (a->b == 0.0) return; /* the interior finished every site */
    const void *faces[QF_NDIRS];
    for (int d = 0; d < QF_NDIRS; d++) faces[d] = (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + d]);
    int k = 2 + QF_NDIRS;
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    const void *xinv = a->local_on != QF_CLOVER_NONE && a->local_inverse ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
    QF_CPU_CALL(exterior_run, (a, (void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                               faces, x, xinv));
}

static struct starpu_perfmodel mg_coarse_exterior_model = {.type = STARPU_HISTORY_BASED,
                                                           .symbol = "qf_mg_coarse_exterior"};

struct starpu_codelet qf_cl_mg_coarse_exterior = {
    .name = "mg_coarse_exterior",
    .cpu_funcs = {mg_coarse_exterior_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_coarse_exterior_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_coarse_exterior_model,
};
