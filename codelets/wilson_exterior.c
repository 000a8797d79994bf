/* Codelet wilson_exterior: adds the hops that come through the neighbours' faces to the partial sums
 * of one block's face sites and finishes them (kernels/wilson.h). Buffers (STARPU_VARIABLE_NBUFFERS):
 * RW out, R gauge, R the eight neighbour faces (k = 2 mu: the -mu neighbour's side-1 face; k = 2 mu
 * + 1: the +mu neighbour's side-0 face), then R x if has_x, R clover if clover_on. */
#include "codelets.h"
#include "kernels/simd.h"
#include "cpu_versions.h"
#include "site_plans.h"
#include "wilson_launch.h"

static void buffer_pointers(void *buffers[], const qf_wilson_args *a, const void *face[QF_WILSON_NFACES],
                            const void **x, const void **clover)
{
    for (int k = 0; k < QF_WILSON_NFACES; k++) face[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    int k = QF_WILSON_EXTERIOR_FIXED;
    *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k++]) : NULL;
    *clover = a->clover_on != QF_CLOVER_NONE ? (const void *)STARPU_VECTOR_GET_PTR(buffers[k]) : NULL;
}

#if QF_HAVE_CUDA
static void wilson_exterior_cuda(void *buffers[], void *cl_arg)
{
    const qf_wilson_args *a = (const qf_wilson_args *)cl_arg;
    const void *face[QF_WILSON_NFACES], *x, *clover;
    buffer_pointers(buffers, a, face, &x, &clover);
    qf_wilson_exterior_run_cuda(a, (void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                                x, clover, face, starpu_cuda_get_local_stream());
}
#endif

static inline QF_HD_INLINE void exterior_run(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *gauge,
                                              const void *x, const void *clover,
                                              const void *const nbr_face[QF_WILSON_NFACES])
{
    qf_sites_key key = qf_sites_key_slices(qf_sites_key_make(QF_SITES_FACES, a->ext, a->parity, a->wrap,
                                                             a->parity < 0 ? -1 : 1 - a->parity, -1, -1),
                                           t_lo, t_hi);
    qf_sites_plan p = qf_sites_plan_of(&key, a->prec);
    QF_SIMD_SPECIALISE(qf_wilson_args, a, b, qf_wilson_exterior_block_f8(out, gauge, x, clover, nbr_face, &b, p.f8, p.n),
                       qf_wilson_exterior_block_d4(out, gauge, x, clover, nbr_face, &b, p.d4, p.n));
}
static inline void exterior_scalar(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *gauge,
                                   const void *x, const void *clover, const void *const nbr_face[QF_WILSON_NFACES])
{
    int64_t first, end;
    qf_parity_slice_sites(a->ext, a->parity, t_lo, t_hi, &first, &end);
    for (int64_t i = first; i < end; i++) qf_wilson_exterior_site(out, gauge, x, clover, nbr_face, i, a);
}
QF_CPU_VERSIONS(exterior_run, exterior_scalar, (const qf_wilson_args *a, int t_lo, int t_hi, void *out,
                                                const void *gauge, const void *x, const void *clover,
                                                const void *const nbr_face[QF_WILSON_NFACES]),
                (a, t_lo, t_hi, out, gauge, x, clover, nbr_face))

void qf_wilson_exterior_run_slices(const qf_wilson_args *a, int t_lo, int t_hi, void *out, const void *gauge,
                                   const void *x, const void *clover, const void *const nbr_face[QF_WILSON_NFACES])
{
    QF_CPU_CALL(exterior_run, (a, t_lo, t_hi, out, gauge, x, clover, nbr_face));
}

void qf_wilson_exterior_run(const qf_wilson_args *a, void *out, const void *gauge, const void *x, const void *clover,
                            const void *const nbr_face[QF_WILSON_NFACES])
{
    qf_wilson_exterior_run_slices(a, 0, 0, out, gauge, x, clover, nbr_face);
}

static void wilson_exterior_cpu(void *buffers[], void *cl_arg)
{
    const qf_wilson_args *a = (const qf_wilson_args *)cl_arg;
    const void *face[QF_WILSON_NFACES], *x, *clover;
    buffer_pointers(buffers, a, face, &x, &clover);
    qf_wilson_exterior_run(a, (void *)STARPU_VECTOR_GET_PTR(buffers[0]), (const void *)STARPU_VECTOR_GET_PTR(buffers[1]),
                           x, clover, face);
}

static struct starpu_perfmodel wilson_exterior_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_exterior"};

struct starpu_codelet qf_cl_wilson_exterior = {
    .name = "wilson_exterior",
    .cpu_funcs = {wilson_exterior_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {wilson_exterior_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &wilson_exterior_model,
};
