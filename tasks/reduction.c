/* Sums over blocks into double-array handles (scalars, accumulators), inside the task graph. One
 * process: the block tasks add into the target in STARPU_REDUX mode (sum_zero / sum_add as StarPU's
 * init and reduction). Several: each process's block tasks add into a partial sum of its own (REDUX),
 * and rank 0, which owns every target, adds the processes' partials in rank order (StarPU-MPI sends
 * each 16 bytes or so), so that the sum follows the same graph on any number of processes. */
#include "tasks.h"

int qf_block_sum_begin(qf_block_sum *r, starpu_data_handle_t target, size_t bytes, const qf_lattice *lat, int assign_one)
{
    r->target = target;
    r->lat = lat;
    r->partial = NULL;
    r->assign = assign_one && lat->nblocks == 1;
    if (r->assign) return QF_SUCCESS;
    if (!qf_runtime_mpi_active()) return qf_insert_sum_zero(target);
    r->partial = calloc((size_t)lat->nprocs, sizeof *r->partial);
    if (!r->partial) return qf_fail("out of host memory for a reduction's partial sums");
    for (int p = 0; p < lat->nprocs; p++) {
        starpu_variable_data_register(&r->partial[p], -1, 0, bytes);
        qf_set_sum_reduction(r->partial[p]);
        qf_data_set_owner(r->partial[p], p);
        if (qf_insert_sum_zero(r->partial[p])) return QF_ERROR;
    }
    return QF_SUCCESS;
}

starpu_data_handle_t qf_block_sum_operand(const qf_block_sum *r, int b, enum starpu_data_access_mode *mode)
{
    *mode = r->assign ? STARPU_W : STARPU_REDUX;
    return r->partial ? r->partial[qf_lattice_block_owner(r->lat, b)] : r->target;
}

struct starpu_data_descr qf_block_sum_descr(const qf_block_sum *r, int b)
{
    struct starpu_data_descr d;
    d.handle = qf_block_sum_operand(r, b, &d.mode);
    return d;
}

int qf_block_sum_end(qf_block_sum *r)
{
    if (!r->partial) return QF_SUCCESS;
    int rc = qf_insert_sum_zero(r->target);
    for (int p = 0; p < r->lat->nprocs; p++) {
        if (!rc)
            rc = qf_insert_sum_add(r->target, r->partial[p]);
        starpu_data_unregister_submit(r->partial[p]);
    }
    free(r->partial);
    r->partial = NULL;
    return rc;
}

int qf_block_sum_begin_host(qf_block_sum *r, int n, const qf_lattice *lat)
{
    starpu_data_handle_t h;
    starpu_variable_data_register(&h, -1, 0, (size_t)n * sizeof(double)); /* the sum's sum_zero task sets it */
    qf_set_sum_reduction(h);
    qf_data_set_owner(h, 0);
    int rc = qf_block_sum_begin(r, h, (size_t)n * sizeof(double), lat, 0);
    if (rc) starpu_data_unregister(h);
    return rc;
}

int qf_block_sum_read(qf_block_sum *r, double *values, int n)
{
    int rc = qf_block_sum_end(r);
    rc = qf_data_read_doubles(r->target, values, n) || rc;
    starpu_data_unregister(r->target);
    return rc;
}

int qf_data_read_doubles(starpu_data_handle_t h, double *values, int n)
{
    int published = qf_data_publish_read(h, values, n);
    if (published) return published > 0 ? QF_SUCCESS : qf_fail("could not read back a reduction result or scalar");
    qf_task_release_held();
    qf_data_share(h); /* every process takes the same decisions from it */
    if (starpu_data_acquire(h, STARPU_R)) return qf_fail("could not read back a reduction result or scalar");
    const double *p = (const double *)starpu_data_get_local_ptr(h);
    for (int i = 0; i < n; i++) values[i] = p[i];
    starpu_data_release(h);
    return QF_SUCCESS;
}
