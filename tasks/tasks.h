/* Task-graph builders shared inside tasks/: each loops over blocks and inserts tasks. */
#ifndef QF_TASKS_H
#define QF_TASKS_H

#include "codelets.h"
#include "field_handles.h"
#include "mpi_data.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Submits face_copy tasks writing the side-`side` faces (whole sites) of every block and direction;
 * refuses a field whose faces hold less than a whole site. */
int qf_tasks_copy_faces(const qf_field *f, int side);

/* A sum over a lattice's blocks into target (bytes of doubles) inside the graph (reduction.c):
 * begin, then each block's task names qf_block_sum_operand(b) with the mode it returns (REDUX: the
 * codelet adds; W: it assigns, when assign_one was asked for and the lattice has one block), then
 * end. */
typedef struct {
    starpu_data_handle_t target, *partial;
    const qf_lattice *lat;
    int assign;
} qf_block_sum;
int qf_block_sum_begin(qf_block_sum *r, starpu_data_handle_t target, size_t bytes, const qf_lattice *lat, int assign_one);
starpu_data_handle_t qf_block_sum_operand(const qf_block_sum *r, int b, enum starpu_data_access_mode *mode);
/* The same as the operand of an insert helper (codelets.h). */
struct starpu_data_descr qf_block_sum_descr(const qf_block_sum *r, int b);
int qf_block_sum_end(qf_block_sum *r);

/* The same into n doubles that the host reads (observables, failure counts): begin_host makes the
 * target; read ends the sum, copies the n values out on every process and unregisters the target. */
int qf_block_sum_begin_host(qf_block_sum *r, int n, const qf_lattice *lat);
int qf_block_sum_read(qf_block_sum *r, double *values, int n);

/* Waits for h, a variable of doubles owned by rank 0, and copies its first n values out, on every
 * process. */
int qf_data_read_doubles(starpu_data_handle_t h, double *values, int n);

/* Refuses a parity other than 0 (even sites), 1 (odd) or -1 (all), naming fn (tasks/blas.c). */
int qf_check_parity(const char *fn, int parity);

#endif
