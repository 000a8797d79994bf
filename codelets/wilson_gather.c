/* Codelet wilson_gather: packs the eight spin-projected half-spinor faces of one block, the side-1
 * ones multiplied by U^dagger (kernels/wilson.h). Buffers: R spinor, R gauge, W faces (mu, side). */
#include "codelets.h"
#include "kernels/simd.h"
#include "cpu_versions.h"
#include "site_plans.h"
#include "wilson_launch.h"

#if QF_HAVE_CUDA
static void wilson_gather_cuda(void *buffers[], void *cl_arg)
{
    void *face[QF_WILSON_NFACES];
    for (int k = 0; k < QF_WILSON_NFACES; k++) face[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    qf_wilson_gather_run_cuda((const qf_wilson_gather_args *)cl_arg, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                              (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), face, starpu_cuda_get_local_stream());
}
#endif

/* One plan a face the gather packs, none in the directions in which the block wraps. */
static inline QF_HD_INLINE void gather_run(const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                                            void *const face[QF_WILSON_NFACES])
{
    const qf_sites_f8 *p8[QF_WILSON_NFACES] = {0};
    const qf_sites_d4 *p4[QF_WILSON_NFACES] = {0};
    int64_t n[QF_WILSON_NFACES] = {0};
    for (int k = 0; k < QF_WILSON_NFACES; k++) {
        if (a->wrap >> (k / 2) & 1) continue;
        qf_sites_key key = qf_sites_key_make(QF_SITES_ENTRIES, a->ext, a->parity, 0, a->parity, k / 2, k % 2);
        qf_sites_plan p = qf_sites_plan_of(&key, a->prec);
        p8[k] = p.f8;
        p4[k] = p.d4;
        n[k] = p.n;
    }
    QF_SIMD_SPECIALISE(qf_wilson_gather_args, a, b, qf_wilson_gather_block_f8(spinor, gauge, face, &b, p8, n),
                       qf_wilson_gather_block_d4(spinor, gauge, face, &b, p4, n));
}
static inline void gather_scalar(const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                                 void *const face[QF_WILSON_NFACES])
{
    for (int64_t t = 0, n = qf_wilson_gather_total(a); t < n; t++) qf_wilson_gather_site(spinor, gauge, face, t, a);
}
QF_CPU_VERSIONS(gather_run, gather_scalar, (const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                                            void *const face[QF_WILSON_NFACES]), (a, spinor, gauge, face))

void qf_wilson_gather_run(const qf_wilson_gather_args *a, const void *spinor, const void *gauge,
                          void *const face[QF_WILSON_NFACES])
{
    QF_CPU_CALL(gather_run, (a, spinor, gauge, face));
}

static void wilson_gather_cpu(void *buffers[], void *cl_arg)
{
    void *face[QF_WILSON_NFACES];
    for (int k = 0; k < QF_WILSON_NFACES; k++) face[k] = (void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    qf_wilson_gather_run((const qf_wilson_gather_args *)cl_arg, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                         (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), face);
}

static struct starpu_perfmodel wilson_gather_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_gather"};

struct starpu_codelet qf_cl_wilson_gather = {
    .name = "wilson_gather",
    .cpu_funcs = {wilson_gather_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {wilson_gather_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* 10 buffers: modes given at insertion */
    .model = &wilson_gather_model,
};
