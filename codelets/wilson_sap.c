/* Codelet wilson_sap: one colour's domain solves of a Schwarz sweep on one block (kernels/sap.h):
 * MR steps on each domain of the colour for M_d e = r, and x += e there. Buffers (STARPU_VARIABLE_NBUFFERS):
 * R links in domain layout, R r, RW x, W rho, W q, W e (work fields, domain layout), then R clover term
 * in domain layout if the operator has one. */
#include "codelets.h"
#include "kernels/sap.h"
#include "wilson_launch.h"

#if QF_HAVE_CUDA
void qf_wilson_sap_cuda(void *buffers[], void *cl_arg);
#endif

/* The domains one at a time, each in the cache while its MR steps run; the domain operator is the
 * interior kernel's best CPU version. */
static void sap_block(const qf_sap_args *a, const void *links, const void *clover, const void *r, void *x, void *rho,
                      void *q, void *e)
{
    int64_t vd = qf_volume(a->g.dom), nd = qf_domain_count(&a->g);
    QF_WITH_PRECISION(a->op.prec, P, {
        for (int64_t j = 0; j < nd; j++) {
            if (qf_domain_colour(&a->g, j) != a->colour) continue;
            void *rj = (void *)qf_domain_records(rho, j, vd, QF_SPINOR_REALS, P);
            void *qj = (void *)qf_domain_records(q, j, vd, QF_SPINOR_REALS, P);
            void *ej = (void *)qf_domain_records(e, j, vd, QF_SPINOR_REALS, P);
            const void *uj = qf_domain_records(links, j, vd, QF_LINKS_REALS, P);
            const void *cj = clover ? qf_domain_records(clover, j, vd, QF_CLOVER_REALS, P) : NULL;
            for (int64_t s = 0; s < vd; s++) qf_sap_site_begin(rj, ej, s, r, qf_domain_block_site(&a->g, j, s), P);
            for (int k = 0; k < a->mr_steps; k++) {
                qf_wilson_interior_run(&a->op, qj, rj, uj, rj, cj);
                double d[3] = {0.0, 0.0, 0.0};
                for (int64_t s = 0; s < vd; s++) qf_sap_site_dots(qj, rj, s, P, d);
                for (int64_t s = 0; s < vd; s++) qf_sap_site_update(ej, rj, qj, s, P, d);
            }
            for (int64_t s = 0; s < vd; s++) qf_sap_site_add(x, qf_domain_block_site(&a->g, j, s), ej, s, P);
        }
    });
}

static void wilson_sap_cpu(void *buffers[], void *cl_arg)
{
    const qf_sap_args *a = cl_arg;
    sap_block(a, (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
              a->op.clover_on != QF_CLOVER_NONE ? (const void *)STARPU_VECTOR_GET_PTR(buffers[6]) : NULL,
              (const void *)STARPU_VECTOR_GET_PTR(buffers[1]), (void *)STARPU_VECTOR_GET_PTR(buffers[2]),
              (void *)STARPU_VECTOR_GET_PTR(buffers[3]), (void *)STARPU_VECTOR_GET_PTR(buffers[4]),
              (void *)STARPU_VECTOR_GET_PTR(buffers[5]));
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
    qf_sap_args a = {.colour = colour, .mr_steps = sp->mr_steps};
    memcpy(a.g.ext, lat->block, sizeof a.g.ext);
    memcpy(a.g.dom, sp->dom, sizeof a.g.dom);
    qf_lattice_block_origin(lat, b, a.g.origin);
    a.op = (qf_wilson_args){.parity = -1,
                            .a = 1.0,
                            .b = -sp->kappa,
                            .has_x = 1,
                            .dirichlet = 1,
                            .prec = x->prec,
                            .clover_on = sp->clover ? QF_CLOVER_X : QF_CLOVER_NONE};
    memcpy(a.op.ext, sp->dom, sizeof a.op.ext);
    struct starpu_data_descr d[7] = {
        {qf_field_block(sp->links, b), STARPU_R},   {qf_field_block(r, b), STARPU_R},
        {qf_field_block(x, b), STARPU_RW},          {qf_field_block(sp->work[0], b), STARPU_W},
        {qf_field_block(sp->work[1], b), STARPU_W}, {qf_field_block(sp->work[2], b), STARPU_W}};
    int n = 6;
    if (sp->clover) d[n++] = (struct starpu_data_descr){qf_field_block(sp->clover, b), STARPU_R};
    int ret = QF_TASK_INSERT_BLOCK(lat, b, &qf_cl_wilson_sap, STARPU_DATA_MODE_ARRAY, d, n, STARPU_NAME, "sap",
                                   QF_ARGS(a), 0);
    return qf_task_check(ret, "wilson_sap");
}
