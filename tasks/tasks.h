/* Task-graph builders shared inside tasks/: each loops over blocks and inserts tasks. */
#ifndef QF_TASKS_H
#define QF_TASKS_H

#include "../codelets/codelets.h"
#include "../runtime/field_handles.h"

#include <stdlib.h>
#include <string.h>

/* The codelets read their argument block directly as cl_arg, so tasks carry a heap copy that StarPU
 * frees after the task (STARPU_CL_ARGS); STARPU_VALUE would pack it for starpu_codelet_unpack_args. */
#define QF_ARGS(a) STARPU_CL_ARGS, qf_args_copy(&(a), sizeof(a)), sizeof(a)
static inline void *qf_args_copy(const void *a, size_t n)
{
    void *p = malloc(n);
    if (p) memcpy(p, a, n);
    return p;
}

/* Checks starpu_task_insert's return value and turns it into a qf error naming the codelet. */
int qf_task_check(int ret, const char *what);

/* Submits face_copy tasks writing the side-`side` faces (whole sites) of every block and direction. */
int qf_tasks_copy_faces(const qf_field *f, int side);

/* A STARPU_REDUX accumulator of n doubles. */
int qf_accumulator_create(starpu_data_handle_t *h, double *storage, int n);
/* Waits for the accumulator's tasks, copies its n values out and unregisters it. */
int qf_accumulator_read(starpu_data_handle_t h, double *values, int n);

#endif
