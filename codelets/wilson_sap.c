/* Codelet wilson_sap: one colour's domain solves of a Schwarz sweep on one block (kernels/sap.h):
 * even-odd MR steps on each domain of the colour for M_d e = r, and x += e there. Buffers
 * (STARPU_VARIABLE_NBUFFERS): R links in domain layout, R r, RW x, W rho, W q, W e (work fields, domain
 * layout), then R A and R A^-1 in domain layout if the operator has a clover term. */
#include "codelets.h"
#include "blas_launch.h"
#include "cpu_versions.h"
#include "kernels/sap.h"
#include "wilson_launch.h"

#if QF_HAVE_CUDA
void qf_wilson_sap_cuda(void *buffers[], void *cl_arg);
#endif

/* The MR step's sums over the n units of a domain's even half, in QF_BLAS_LANES lanes (blas_launch.h):
 * loops that vectorise without reassociating a sum. */
static inline QF_HD_INLINE void sap_dots(const void *q, const void *rho, int64_t n, qf_precision prec, double d[3])
{
    double lane[3][QF_BLAS_LANES] = {{0.0}};
    QF_BLAS_FOR_LANES(0, n, k, j, {
        double dk[3] = {0.0, 0.0, 0.0};
        qf_sap_unit_dots(q, rho, k, prec, dk);
        for (int i = 0; i < 3; i++) lane[i][j] += dk[i];
    });
    for (int i = 0; i < 3; i++) d[i] = qf_blas_lanes_sum(lane[i]);
}

/* The domains one at a time, each in the cache while its MR steps run; the hops and the clover term
 * are the operator's best CPU kernels on the domain. */
static inline QF_HD_INLINE void sap_block(const qf_sap_args *a, const void *links, const void *clover,
                                          const void *clover_inv, const void *r, void *x, void *rho, void *q, void *e)
{
    int64_t vd = qf_volume(a->g.dom), nd = qf_domain_count(&a->g), half = vd / 2;
    int64_t site[QF_SAP_MAX_DOMAIN_SITES]; /* block storage index of domain 0's sites */
    for (int64_t s = 0; s < vd; s++) site[s] = qf_domain_block_site(&a->g, 0, s);
    qf_wilson_args hop[4];
    for (int k = 0; k < 4; k++) hop[k] = qf_sap_hop(a, k);
    const void *hop_clover[4] = {NULL, clover_inv, clover, clover_inv};
    qf_clover_apply_args u = {.parity = 1, .a = 0.0, .b = 1.0, .prec = a->op.prec};
    memcpy(u.ext, a->g.dom, sizeof u.ext);
    QF_WITH_PRECISION(a->op.prec, P, {
        for (int64_t j = 0; j < nd; j++) {
            if (qf_domain_colour(&a->g, j) != a->colour) continue;
            int64_t shift = qf_domain_shift(&a->g, j);
            void *rj = (void *)qf_domain_records(rho, j, vd, QF_SPINOR_REALS, P);
            void *qj = (void *)qf_domain_records(q, j, vd, QF_SPINOR_REALS, P);
            void *ej = (void *)qf_domain_records(e, j, vd, QF_SPINOR_REALS, P);
            const void *uj = qf_domain_records(links, j, vd, QF_LINKS_REALS, P);
            const void *cj[4];
            for (int k = 0; k < 4; k++)
                cj[k] = hop_clover[k] ? qf_domain_records(hop_clover[k], j, vd, QF_CLOVER_REALS, P) : NULL;
            for (int64_t s = 0; s < vd; s++) qf_sap_site_begin(rj, ej, s, half, r, site[s] + shift, P);
            if (clover) qf_clover_apply_run_cpu(&u, rj, rj, rj, cj[QF_SAP_ODD]);
            qf_wilson_interior_run(&hop[QF_SAP_PREPARE], rj, rj, uj, rj, NULL);
            for (int k = 0; k < a->mr_steps; k++) {
                qf_wilson_interior_run(&hop[QF_SAP_ODD], qj, rj, uj, NULL, cj[QF_SAP_ODD]);
                qf_wilson_interior_run(&hop[QF_SAP_EVEN], qj, qj, uj, rj, cj[QF_SAP_EVEN]);
                double d[3], alpha[2];
                sap_dots(qj, rj, half * QF_SAP_UNITS, P, d);
                qf_sap_alpha(d, alpha);
                for (int64_t n = 0; n < half * QF_SAP_UNITS; n++) qf_sap_unit_update(ej, rj, qj, n, P, alpha);
            }
            qf_wilson_interior_run(&hop[QF_SAP_RECONSTRUCT], ej, ej, uj, rj, cj[QF_SAP_RECONSTRUCT]);
            for (int64_t s = 0; s < vd; s++) qf_sap_site_add(x, site[s] + shift, ej, s, P);
        }
    });
}
QF_CPU_VERSIONS(sap_block, sap_block,
                (const qf_sap_args *a, const void *links, const void *clover, const void *clover_inv, const void *r,
                 void *x, void *rho, void *q, void *e),
                (a, links, clover, clover_inv, r, x, rho, q, e))

static void wilson_sap_cpu(void *buffers[], void *cl_arg)
{
    const qf_sap_args *a = cl_arg;
    int clover = a->op.clover_on != QF_CLOVER_NONE;
    QF_CPU_CALL(sap_block, (a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
                            clover ? (const void *)STARPU_VECTOR_GET_PTR(buffers[6]) : NULL,
                            clover ? (const void *)STARPU_VECTOR_GET_PTR(buffers[7]) : NULL,
                            (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
                            (void *)STARPU_VECTOR_GET_PTR(buffers[3]), (void *)STARPU_VECTOR_GET_PTR(buffers[4]),
                            (void *)STARPU_VECTOR_GET_PTR(buffers[5])));
}

static struct starpu_perfmodel wilson_sap_model = {.type = STARPU_HISTORY_BASED, .symbol = "qf_wilson_sap"};

struct starpu_codelet qf_cl_wilson_sap = {
    .name = "wilson_sap",
    .cpu_funcs = {wilson_sap_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {qf_wilson_sap_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &wilson_sap_model,
};

int qf_insert_wilson_sap(const qf_wilson_sap_spec *sp, int b, int colour, qf_field *x, const qf_field *r)
{
    const qf_lattice *lat = x->lat;
    qf_sap_args a = {.kappa = sp->kappa, .colour = colour, .mr_steps = sp->mr_steps};
    memcpy(a.g.ext, lat->block, sizeof a.g.ext);
    memcpy(a.g.dom, sp->dom, sizeof a.g.dom);
    qf_lattice_block_origin(lat, b, a.g.origin);
    a.op = (qf_wilson_args){.dirichlet = 1, .prec = x->prec, .clover_on = sp->clover ? QF_CLOVER_X : QF_CLOVER_NONE};
    memcpy(a.op.ext, sp->dom, sizeof a.op.ext);
    struct starpu_data_descr d[8] = {
        {qf_field_block(sp->links, b), STARPU_R},   {qf_field_block(r, b), STARPU_R},
        {qf_field_block(x, b), STARPU_RW},          {qf_field_block(sp->work[0], b), STARPU_W},
        {qf_field_block(sp->work[1], b), STARPU_W}, {qf_field_block(sp->work[2], b), STARPU_W}};
    int n = 6;
    if (sp->clover) {
        d[n++] = (struct starpu_data_descr){qf_field_block(sp->clover, b), STARPU_R};
        d[n++] = (struct starpu_data_descr){qf_field_block(sp->clover_inv, b), STARPU_R};
    }
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_wilson_sap, STARPU_DATA_MODE_ARRAY, d, n, STARPU_NAME, "sap",
                                   QF_ARGS(a), 0);
    return qf_task_check(ret, "wilson_sap");
}
