/* Codelet mg_schur_invert: the inverse of the coarsest multigrid level's even-odd Schur complement as a
 * dense matrix (kernels/coarse_dense.h), which the one-task coarsest solve applies in place of its GCR
 * iterations. The matrix is assembled from the links and X^-1 in double, inverted in double, checked
 * on a test vector and stored row-major in the inverse's precision. On a CPU core: Gauss-Jordan with
 * partial pivoting (qf_mg_invert, as the local terms), O(n^3) on one core, so meant for the small n of
 * CPU-only runs; on a GPU (mg_schur_invert.cu) a blocked inversion through cuBLAS.
 * Buffers: R links, R X^-1 (of the coarsest operator, one block), W inverse (n^2 complex numbers in
 * prec), SCRATCH (qf_schur_scratch_count complex doubles), W check (1 double: |Ahat Ahat^-1 v - v| / |v|
 * for the test vector v, infinite where the matrix is singular). */
#include "codelets.h"
#include "kernels/coarse_dense.h"

#include <math.h>
#include <string.h>

#if QF_HAVE_CUDA
void qf_mg_schur_invert_cuda(void *buffers[], void *cl_arg);
#endif

static void mg_schur_invert_cpu(void *buffers[], void *cl_arg)
{
    const qf_schur_dense_args *a = cl_arg;
    const void *links = (const void *)STARPU_VECTOR_GET_PTR(buffers[0]);
    const void *xinv = (const void *)STARPU_VECTOR_GET_PTR(buffers[1]);
    void *inv = (void *)STARPU_VECTOR_GET_PTR(buffers[2]);
    qf_complex *wm = (qf_complex *)STARPU_VECTOR_GET_PTR(buffers[3]);
    double *check = (double *)STARPU_VARIABLE_GET_PTR(buffers[4]);
    int n2 = 2 * a->nvec, d[QF_SCHUR_MAX_PAIRS];
    size_t w[QF_SCHUR_MAX_PAIRS];
    int64_t half = qf_volume(a->ext) / 2, n = qf_schur_dense_dim(a);
    qf_complex *m = wm + qf_schur_w_count(a), *work = m + n * n, *mi = work + n * n, *v = mi + n * n, *t = v + n;
    for (int64_t o = 0; o < half; o++)
        for (int dir = 0; dir < QF_NDIRS; dir++)
            for (int k = 0; k < n2; k++)
                for (int c = 0; c < n2; c++)
                    wm[qf_schur_w_offset(a, o, dir) + (size_t)k * n2 + c] = qf_schur_w_entry(a, links, xinv, o, dir, k, c);
    for (int64_t s = 0; s < half; s++)
        for (int64_t z = 0; z < half; z++) {
            int np = qf_schur_pairs(a, s, z, d, w);
            for (int r = 0; r < n2; r++)
                for (int c = 0; c < n2; c++)
                    m[(s * n2 + r) * n + z * n2 + c] = qf_schur_dense_entry(a, links, wm, s, z, r, c, np, d, w);
        }
    memcpy(work, m, (size_t)(n * n) * sizeof *m);
    int singular = qf_mg_invert(work, mi, (int)n);
    /* |Ahat (Ahat^-1 v) - v| / |v| */
    double rr = 0.0, vv = 0.0;
    for (int64_t j = 0; j < n; j++) v[j] = qf_schur_test_entry(j);
    for (int64_t i = 0; i < n; i++) {
        t[i] = qf_cmake(0.0, 0.0);
        for (int64_t j = 0; j < n; j++) t[i] = qf_cmadd(t[i], mi[i * n + j], v[j]);
    }
    for (int64_t i = 0; i < n; i++) {
        qf_complex u = qf_cscale(-1.0, v[i]);
        for (int64_t j = 0; j < n; j++) u = qf_cmadd(u, m[i * n + j], t[j]);
        rr += qf_cnorm2(u);
        vv += qf_cnorm2(v[i]);
    }
    *check = singular || !isfinite(rr) ? INFINITY : sqrt(rr / vv);
    for (int64_t e = 0; e < n * n; e++) {
        qf_real_set(inv, a->prec, 2 * (size_t)e, mi[e].re);
        qf_real_set(inv, a->prec, 2 * (size_t)e + 1, mi[e].im);
    }
}

static struct starpu_perfmodel mg_schur_invert_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_schur_invert"};

struct starpu_codelet qf_cl_mg_schur_invert = {
    .name = "mg_schur_invert",
    .cpu_funcs = {mg_schur_invert_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_schur_invert_cuda},
#endif
    .nbuffers = 5,
    .modes = {STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W},
    .model = &mg_schur_invert_model,
};

int qf_insert_mg_schur_invert(const qf_field *links, const qf_field *xinv, int nvec, starpu_data_handle_t inverse,
                              qf_precision prec, starpu_data_handle_t check)
{
    qf_schur_dense_args a = {.nvec = nvec, .link_prec = links->prec, .prec = prec};
    memcpy(a.ext, links->lat->block, sizeof a.ext);
    starpu_data_handle_t scratch;
    starpu_vector_data_register(&scratch, -1, 0, (uint32_t)qf_schur_scratch_count(&a), sizeof(qf_complex));
    int ret = QF_TASK_INSERT(&qf_cl_mg_schur_invert, STARPU_R, qf_field_block(links, 0), STARPU_R,
                             qf_field_block(xinv, 0), STARPU_W, inverse, STARPU_SCRATCH, scratch, STARPU_W, check,
                             STARPU_NAME, "schur_inv", QF_ARGS(a), 0);
    starpu_data_unregister_submit(scratch);
    return qf_task_check(ret, "mg_schur_invert");
}
