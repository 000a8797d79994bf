/* The Schwarz alternating procedure (SAP) as a preconditioner (qf_precond_sap in
 * include/quarkflow/qf_linop.h): Lüscher's multiplicative Schwarz smoother of DD-HMC and openQCD, the
 * domain-decomposed preconditioner of seed 001 made multiplicative over two colours of domains:
 *
 *   z = 0, s = r
 *   cycles times, for colour 0 then colour 1:
 *     z += S_colour s     (on each domain of the colour, mr_steps MR steps on the even-odd
 *                          preconditioned A with Dirichlet boundaries from zero, kernels/sap.h:
 *                          one task a block, no communication)
 *     s = r - A z         (the whole lattice, with its faces; not after the last sweep)
 *
 * The domain solves work in the cache and need no messages; the residual is the only step that
 * crosses domains. Written against the operator (qf_linop_domains) and BLAS interfaces. */
#include "krylov.h"

#include <stdlib.h>

typedef struct {
    qf_linop *A;
    qf_domains *D;
    int cycles, mr_steps;
} sap_precond;

static int sap_apply(void *ctx, qf_field *z, const qf_field *r, double *flops)
{
    sap_precond *S = ctx;
    qf_field *s = NULL;
    qf_sequence_begin();
    qf_linop_field_take(S->A, &s);
    qf_blas_axpby(0.0, NULL, 0.0, z, -1);
    const qf_field *rhs = r;
    for (int cy = 0; cy < S->cycles; cy++) {
        for (int colour = 0; colour < 2; colour++) {
            qf_domains_solve(S->D, colour, z, rhs);
            /* a colour's domain solves on half the sites: mr_steps even-odd operator applications, and the
             * preparation and reconstruction's one */
            *flops += 0.5 * (S->mr_steps + 1) * qf_linop_flops(S->A, 0);
            if (cy == S->cycles - 1 && colour == 1) break;
            *flops += qf_linop_flops(S->A, 0);
            qf_linop_apply(S->A, s, z);
            qf_blas_axpby(1.0, r, -1.0, s, -1);
            rhs = s;
        }
    }
    int rc = qf_sequence_end();
    qf_linop_field_give_back(S->A, s);
    return rc;
}

static void sap_destroy(void *ctx)
{
    sap_precond *S = ctx;
    qf_domains_destroy(S->D);
    free(S);
}

static const qf_precond_ops sap_ops = {.name = "Schwarz (SAP)", .apply = sap_apply, .destroy = sap_destroy};

int qf_precond_sap(qf_precond **K, qf_linop *A, const int dom[QF_NDIM], int cycles, int mr_steps)
{
    *K = NULL;
    if (cycles < 1) return qf_fail("a Schwarz smoother of %d cycles: give at least 1", cycles);
    sap_precond *S = calloc(1, sizeof *S);
    if (!S) return qf_fail("out of host memory creating a Schwarz smoother");
    *S = (sap_precond){.A = A, .cycles = cycles, .mr_steps = mr_steps};
    if (qf_linop_domains(A, dom, mr_steps, &S->D) || qf_precond_create(K, &sap_ops, S)) {
        sap_destroy(S);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}
