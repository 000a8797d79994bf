/* Scalar accumulators: variable handles reduced with STARPU_REDUX through the sum_zero / sum_add
 * codelets, read by the host only where an algorithm must look at the number. */
#include "tasks.h"

int qf_accumulator_create(starpu_data_handle_t *h, double *storage, int n)
{
    for (int i = 0; i < n; i++) storage[i] = 0.0;
    starpu_variable_data_register(h, STARPU_MAIN_RAM, (uintptr_t)storage, (size_t)n * sizeof(double));
    starpu_data_set_reduction_methods(*h, &qf_cl_sum_add, &qf_cl_sum_zero);
    return QF_SUCCESS;
}

int qf_accumulator_read(starpu_data_handle_t h, double *values, int n)
{
    if (starpu_data_acquire(h, STARPU_R)) {
        starpu_data_unregister(h);
        return qf_fail("could not read back a reduction result");
    }
    const double *p = (const double *)starpu_data_get_local_ptr(h);
    for (int i = 0; i < n; i++) values[i] = p[i];
    starpu_data_release(h);
    starpu_data_unregister(h);
    return QF_SUCCESS;
}
