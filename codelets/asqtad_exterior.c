/* Codelet asqtad_exterior: the asqtad operator's hops through the neighbours' faces, finishing the sites
 * that have one (kernels/staggered.h). Buffers: RW out, R asqtad links, R faces (set k, mu: the
 * mu-backward neighbour's side 1, the mu-forward neighbour's side 0), [R x]. */
#include "codelets.h"
#include "kernels/staggered.h"

#if QF_HAVE_CUDA
void qf_asqtad_exterior_cuda(void *buffers[], void *cl_arg);
#endif

static void asqtad_exterior_cpu(void *buffers[], void *cl_arg)
{
    const qf_asqtad_args *a = cl_arg;
    const void *faces[QF_ASQTAD_FACE_SETS * QF_NDIRS];
    for (int k = 0; k < QF_ASQTAD_FACE_SETS * QF_NDIRS; k++) faces[k] = (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + k]);
    void *out = (void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    const void *x = a->has_x ? (const void *)STARPU_VECTOR_GET_PTR(buffers[2 + QF_ASQTAD_FACE_SETS * QF_NDIRS]) : NULL;
    QF_WITH_PRECISION(a->prec, P, {
        qf_asqtad_args b = *a;
        b.prec = P;
        for (int64_t i = 0, n = qf_parity_nsites(b.ext, b.parity); i < n; i++) qf_asqtad_exterior_site(&b, links, faces, out, x, i);
    });
}

static struct starpu_perfmodel asqtad_exterior_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_asqtad_exterior"};

struct starpu_codelet qf_cl_asqtad_exterior = {
    .name = "asqtad_exterior",
    .cpu_funcs = {asqtad_exterior_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_asqtad_exterior_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &asqtad_exterior_model,
};
