/* Many masses of the asqtad operator at once (qf_staggered.h: qf_asqtad_multimass), as MILC's
 * multi-mass inverters solve them: M(m)^dag M(m) = 4m^2 - D^2 is block-diagonal in parity, so one
 * multi-shift CG on the even sites and one on the odd sites (shifts 4 m_i^2 of -D_pq D_qp) give every
 * y_i = (M_i^dag M_i)^-1 b, and x_i = M_i^dag y_i solves M_i x_i = b with y_i's residual. */
#include "krylov.h"
#include "quarkflow/qf_runtime.h"
#include "quarkflow/qf_staggered.h"

#include <math.h>

int qf_asqtad_multimass(qf_asqtad *op, int n, const double *masses, qf_field *const *x, const qf_field *b,
                        const qf_solver_params *p, qf_solver_result *res)
{
    if (!op || !masses || !x || !b || !p || !res) return qf_fail("qf_asqtad_multimass: an argument is NULL");
    if (n < 1 || n > QF_MULTISHIFT_MAX) return qf_fail("asqtad multi-mass solve of %d masses: give 1 to %d", n, QF_MULTISHIFT_MAX);
    double shift[QF_MULTISHIFT_MAX], tol[QF_MULTISHIFT_MAX];
    for (int i = 0; i < n; i++) {
        if (!(masses[i] > 0.0 && masses[i] < 1e150))
            return qf_fail("asqtad mass %g (mass %d of the multi-mass solve): masses are finite and above 0", masses[i], i);
        shift[i] = 4.0 * masses[i] * masses[i];
        tol[i] = p->tol;
    }
    qf_linop *A[2] = {NULL, NULL};
    qf_field *y[QF_MULTISHIFT_MAX] = {NULL}, *t = NULL;
    qf_solver_result part[2][QF_MULTISHIFT_MAX];
    double t0 = qf_wtime(), bnorm = 0.0;
    int rc = qf_asqtad_parity_linop(op, 0, &A[0]) || qf_asqtad_parity_linop(op, 1, &A[1]) || qf_linop_field_take(A[0], &t) ||
             qf_krylov_norm(b, -1, &bnorm);
    for (int i = 0; i < n && !rc; i++) rc = qf_linop_field_take(A[0], &y[i]) || qf_blas_axpby(0.0, NULL, 0.0, y[i], -1);
    /* the even sites of y from the even multi-shift solve, the odd ones from the odd */
    for (int par = 0; par < 2 && !rc; par++) rc = qf_multishift_cg(A[par], n, shift, tol, y, b, p, part[par]);
    for (int i = 0; i < n && !rc; i++) {
        double rn = 0.0;
        rc = qf_asqtad_apply_m(op, masses[i], 1, x[i], y[i]) || qf_asqtad_apply_m(op, masses[i], 0, t, x[i]) ||
             qf_blas_axpby(1.0, b, -1.0, t, -1) || qf_krylov_norm(t, -1, &rn);
        res[i] = (qf_solver_result){.iterations = part[0][i].iterations + part[1][i].iterations,
                                    .updates = part[0][i].updates + part[1][i].updates,
                                    .residual = bnorm > 0.0 ? rn / bnorm : 0.0,
                                    .flops = part[0][0].flops + part[1][0].flops};
        res[i].converged = !rc && res[i].residual <= 1.5 * p->tol;
        if (!rc && !res[i].converged)
            rc = qf_fail("asqtad multi-mass solve: mass %g reached a true residual |b - M x| / |b| of %.3e, not %.3e",
                         masses[i], res[i].residual, p->tol);
    }
    double seconds = qf_wtime() - t0;
    for (int i = 0; i < n; i++) res[i].seconds = seconds;
    for (int i = 0; i < n; i++) qf_linop_field_give_back(A[0], y[i]);
    qf_linop_field_give_back(A[0], t);
    qf_linop_destroy(A[0]);
    qf_linop_destroy(A[1]);
    return rc ? QF_ERROR : QF_SUCCESS;
}
