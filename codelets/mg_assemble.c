/* Codelet mg_assemble: a coarse block's links from the build partials of its fine blocks, in the coarse
 * operator's precision, and the inverse of each site's local term X (Gauss-Jordan in double, in the
 * scratch buffer), counting the sites where X is singular (kernels/mg.h).
 * Buffers: R partial[j] (j < nfine), W links, W X^-1, SCRATCH, REDUX (or W) accumulator of 1 double. */
#include "codelets.h"
#include "cpu_team.h"
#include "kernels/mg.h"

#if QF_HAVE_CUDA
void qf_mg_assemble_cuda(void *buffers[], void *cl_arg);
#endif

typedef struct {
    const qf_mg_assemble_args *a;
    void **buffers;
    int64_t bad; /* a count: the parts' order does not matter */
} assemble_job;

/* the coarse sites [first, end): each has its own rows of links, X^-1 and scratch */
static void assemble_part(void *arg, int64_t first, int64_t end)
{
    assemble_job *job = arg;
    const qf_mg_assemble_args *a = job->a;
    void **buffers = job->buffers;
    int nf = a->nfine, n = a->nvec, n2 = 2 * n, j;
    void *links = (void *)STARPU_VECTOR_GET_PTR(buffers[nf]);
    void *xinv = (void *)STARPU_VECTOR_GET_PTR(buffers[nf + 1]);
    qf_complex *work = (qf_complex *)STARPU_VECTOR_GET_PTR(buffers[nf + 2]);
    int64_t bad = 0;
    qf_mg_geom g = {.nvec = n};
    for (int mu = 0; mu < QF_NDIM; mu++) g.fext[mu] = a->apb[mu], g.agg[mu] = 1; /* aggregates as sites */
    for (int64_t s = first; s < end; s++) {
        int64_t ai = qf_mg_coarse_site_source(&g, a->cext, a->ratio, s, &j);
        const double *p = (const double *)STARPU_VECTOR_GET_PTR(buffers[j]) + qf_mg_partial_offset(n, ai, 0, 0, 0);
        size_t lo = qf_coarse_matrix_offset(s, 0, n);
        for (size_t i = 0, nr = (size_t)QF_MG_NMAT * 2 * n2 * n2; i < nr; i++) qf_real_set(links, a->prec, lo + i, p[i]);
        qf_complex *m = work + (size_t)s * 2 * n2 * n2, *inv = m + (size_t)n2 * n2;
        const double *x = p + (size_t)QF_MG_LOCAL * 2 * n2 * n2;
        for (int i = 0; i < n2 * n2; i++) m[i] = qf_cmake(x[2 * i], x[2 * i + 1]);
        bad += qf_mg_invert(m, inv, n2);
        for (int i = 0; i < n2 * n2; i++) {
            qf_real_set(xinv, a->prec, (size_t)2 * ((size_t)s * n2 * n2 + i), inv[i].re);
            qf_real_set(xinv, a->prec, (size_t)2 * ((size_t)s * n2 * n2 + i) + 1, inv[i].im);
        }
    }
    __atomic_fetch_add(&job->bad, bad, __ATOMIC_RELAXED);
}

static void mg_assemble_cpu(void *buffers[], void *cl_arg)
{
    const qf_mg_assemble_args *a = cl_arg;
    assemble_job j = {a, buffers, 0};
    qf_cpu_team_range(a->team, qf_volume(a->cext), assemble_part, &j);
    *(double *)STARPU_VARIABLE_GET_PTR(buffers[a->nfine + 3]) += (double)j.bad;
}

static struct starpu_perfmodel mg_assemble_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_mg_assemble"};

struct starpu_codelet qf_cl_mg_assemble = {
    .name = "mg_assemble",
    .cpu_funcs = {mg_assemble_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_mg_assemble_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &mg_assemble_model,
};

int qf_coarse_link_matrices(void) { return QF_MG_NMAT; }

int qf_insert_mg_assemble(qf_field *links, qf_field *xinv, int c, const qf_lattice *fine, const int agg[QF_NDIM],
                          int nvec, const starpu_data_handle_t *partial, starpu_data_handle_t scratch,
                          struct starpu_data_descr singular)
{
    const qf_lattice *cl = links->lat;
    qf_mg_assemble_args a = {.nvec = nvec, .prec = links->prec, .team = qf_cpu_team_shares(cl)};
    qf_lattice_coarse_ratio(cl, fine, a.ratio);
    a.nfine = (int)qf_volume(a.ratio);
    for (int mu = 0; mu < QF_NDIM; mu++) {
        a.cext[mu] = cl->block[mu];
        a.apb[mu] = fine->block[mu] / agg[mu];
    }
    int members[QF_MG_MAX_FINE_BLOCKS];
    struct starpu_data_descr d[QF_MG_MAX_FINE_BLOCKS + 4];
    qf_lattice_coarse_members(cl, fine, c, members);
    for (int j = 0; j < a.nfine; j++) d[j] = (struct starpu_data_descr){partial[members[j]], STARPU_R};
    d[a.nfine] = (struct starpu_data_descr){qf_field_block(links, c), STARPU_W};
    d[a.nfine + 1] = (struct starpu_data_descr){qf_field_block(xinv, c), STARPU_W};
    d[a.nfine + 2] = (struct starpu_data_descr){scratch, STARPU_SCRATCH};
    d[a.nfine + 3] = singular;
    int ret =
        QF_TASK_INSERT_BLOCK(links->lat, c, &qf_cl_mg_assemble, STARPU_DATA_MODE_ARRAY, d, a.nfine + 4, QF_ARGS(a), 0);
    return qf_task_check(ret, "mg_assemble");
}
