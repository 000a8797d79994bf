/* qf_scalar (include/quarkflow/qf_blas.h): complex doubles in StarPU variable handles, and their
 * arithmetic as scalar_op tasks. Nothing here waits except qf_scalar_get.
 *
 *   scalar_op         W or RW: out    R: a, b (the distinct ones)
 *   scalar_trisolve   RW: c_0 .. c_{m-1}    R: u_il (i < l < m)    W: status
 */
#include "scalar.h"
#include "tasks.h"

#include <math.h>

int qf_scalar_create(qf_scalar **out)
{
    if (!out) return qf_fail("qf_scalar_create: the place for the new scalar is NULL");
    *out = NULL;
    qf_scalar *s = calloc(1, sizeof *s);
    if (!s) return qf_fail("out of host memory allocating a scalar");
    starpu_variable_data_register(&s->h, -1, 0, 2 * sizeof(double));
    qf_set_sum_reduction(s->h);
    qf_data_set_owner(s->h, 0); /* scalar arithmetic runs on rank 0; StarPU-MPI sends the values */
    if (qf_scalar_set(s, 0.0, 0.0)) {
        starpu_data_unregister(s->h);
        free(s);
        return QF_ERROR;
    }
    *out = s;
    return QF_SUCCESS;
}

void qf_scalar_destroy(qf_scalar *s)
{
    if (!s) return;
    qf_task_release_held();
    /* StarPU owns the buffers: they go once the scalar's last task is done, without waiting here */
    starpu_data_unregister_submit(s->h);
    free(s);
}

int qf_scalar_set(qf_scalar *s, double re, double im)
{
    if (!s) return qf_fail("qf_scalar_set: the scalar is NULL");
    return qf_sequence_failed() ? QF_ERROR : qf_insert_scalar_set(s->h, re, im);
}

int qf_scalar_get(const qf_scalar *s, double *re, double *im)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!s) return qf_fail("qf_scalar_get: the scalar is NULL");
    double v[2];
    if (qf_data_read_doubles(s->h, v, 2)) return QF_ERROR;
    if (re) *re = v[0];
    if (im) *im = v[1];
    return QF_SUCCESS;
}

static int check_operands(const char *fn, const qf_scalar *out, const qf_scalar *a, const qf_scalar *b)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (!out) return qf_fail("%s: the output scalar is NULL", fn);
    if (!a) return qf_fail("%s: the scalar a is NULL", fn);
    if (!b) return qf_fail("%s: the scalar b is NULL", fn);
    return QF_SUCCESS;
}

int qf_scalar_mul(qf_scalar *out, const qf_scalar *a, const qf_scalar *b)
{
    if (check_operands("qf_scalar_mul", out, a, b)) return QF_ERROR;
    return qf_insert_scalar_mul(out->h, a->h, b->h);
}

int qf_scalar_div(qf_scalar *out, const qf_scalar *a, const qf_scalar *b)
{
    if (check_operands("qf_scalar_div", out, a, b)) return QF_ERROR;
    return qf_insert_scalar_div(out->h, a->h, b->h);
}

int qf_scalar_scale(qf_scalar *out, double s, const qf_scalar *a)
{
    if (check_operands("qf_scalar_scale", out, a, a)) return QF_ERROR;
    if (!isfinite(s)) return qf_fail("qf_scalar_scale: the factor %g is not a finite number", s);
    return qf_insert_scalar_scale(out->h, s, a->h);
}

int qf_scalar_trisolve(int m, qf_scalar *const *c, qf_scalar *const *u, int ld, qf_scalar *const *div, qf_scalar *status)
{
    if (qf_sequence_failed()) return QF_ERROR;
    if (m < 1 || m > qf_scalar_trisolve_max_order())
        return qf_fail("qf_scalar_trisolve: a system of order %d; keep between 1 and %d", m, qf_scalar_trisolve_max_order());
    if (!c || !u || !status || ld < m) return qf_fail("qf_scalar_trisolve: NULL operands or a row stride below m");
    int n = m + m * (m - 1) / 2 + (div ? m : 0) + 1;
    struct starpu_data_descr *d = malloc((size_t)n * sizeof *d);
    if (!d) return qf_fail("out of host memory submitting a back substitution of order %d", m);
    int k = 0, rc = QF_SUCCESS;
    for (int i = 0; i < m; i++) d[k++] = (struct starpu_data_descr){c[i] ? c[i]->h : NULL, STARPU_RW};
    for (int i = 0; i < m; i++)
        for (int l = i + 1; l < m; l++) d[k++] = (struct starpu_data_descr){u[i * ld + l] ? u[i * ld + l]->h : NULL, STARPU_R};
    for (int i = 0; div && i < m; i++) d[k++] = (struct starpu_data_descr){div[i] ? div[i]->h : NULL, STARPU_R};
    d[k++] = (struct starpu_data_descr){status->h, STARPU_W};
    /* the kernel finds each operand by position and writes c and status in place: those must be
     * distinct from every other operand */
    for (int a = 0; a < n && !rc; a++) {
        if (!d[a].handle) rc = qf_fail("qf_scalar_trisolve: operand %d is NULL", a);
        int last = a < m || a == n - 1 ? a : m; /* the earlier operands a pair with a written one */
        for (int b = 0; b < last && !rc; b++)
            if (d[a].handle == d[b].handle) rc = qf_fail("qf_scalar_trisolve: a scalar it writes is also another operand");
    }
    if (!rc) rc = qf_insert_scalar_trisolve(m, div != NULL, d);
    free(d);
    return rc;
}
