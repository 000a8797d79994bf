/* Codelet blas_chain: the BLAS calls of a chain (qf_blas_chain_begin .. _end, tasks/blas.c) on a lattice
 * of one block in one process, as one task that runs each call's codelet function in turn on its
 * buffers: on a GPU the kernels queue on the worker's stream back to back, where as tasks of their own
 * StarPU would start each only once it had seen the last end, 15-17 us a dependent task on an H200
 * (bench/RESULTS.md, "What the runtime costs a task"). Only there: each reduction of such a lattice
 * is one task's alone (assigned, not a STARPU_REDUX sum of blocks), so a later call of the chain may
 * read it within the task. qf_blas_insert hands the calls here while a chain is open; a call that
 * cannot join (another lattice, several blocks or processes, a full chain) submits the chain so far and
 * is inserted itself, and so does any other task's insertion or host access (qf_task_hold), so tasks
 * reach StarPU in the order they were asked for. The buffers are the calls' handles, each once with
 * the union of its modes; each call's argument block points into them. */
#include "codelets.h"
#include "blas_launch.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define CHAIN_CALLS 8
#define CHAIN_BUFFERS 32
#define CHAIN_NAMES 64

typedef struct {
    struct starpu_codelet *cl;
    qf_blas_args args; /* buf: the chain task's buffers */
} chain_call;

typedef struct {
    int ncalls;
    chain_call call[CHAIN_CALLS];
} chain_args;

typedef struct {
    int open;
    const qf_lattice *lat;
    int block;
    int nbuf;
    struct starpu_data_descr d[CHAIN_BUFFERS];
    const char *name[CHAIN_CALLS];
    chain_args args;
} chain_state;

static _Thread_local chain_state chain;

static void blas_chain_cpu(void *buffers[], void *cl_arg)
{
    const chain_args *c = cl_arg;
    for (int k = 0; k < c->ncalls; k++) c->call[k].cl->cpu_funcs[0](buffers, (void *)&c->call[k].args);
}

#if QF_HAVE_CUDA
static void blas_chain_cuda(void *buffers[], void *cl_arg)
{
    const chain_args *c = cl_arg;
    for (int k = 0; k < c->ncalls; k++) c->call[k].cl->cuda_funcs[0](buffers, (void *)&c->call[k].args);
}
#endif

/* The calls' own footprints (blas_launch.h) over the chain's buffers: a chain of other calls on the
 * same fields is another entry of the model. */
static uint32_t blas_chain_footprint(struct starpu_task *task)
{
    const chain_args *c = task->cl_arg;
    uint32_t h = starpu_task_data_footprint(task);
    for (int k = 0; k < c->ncalls; k++) {
        const qf_blas_args *a = &c->call[k].args;
        h = starpu_hash_crc32c_string(c->call[k].cl->name, h);
        h = starpu_hash_crc32c_be((uint32_t)a->op, h);
        h = starpu_hash_crc32c_be((uint32_t)a->n, h);
        h = starpu_hash_crc32c_be((uint32_t)(a->b != 0.0), h);
    }
    return h;
}

static struct starpu_perfmodel blas_chain_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_blas_chain", .footprint = blas_chain_footprint};

struct starpu_codelet qf_cl_blas_chain = {
    .name = "blas_chain",
    .cpu_funcs = {blas_chain_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {blas_chain_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &blas_chain_model,
};

/* The task name of a chain, its calls' names joined by '+' ("dot+xpcw_ratio"), kept for the process
 * (StarPU and the traces hold the pointer): a solver's chains are a handful of names. */
static const char *chain_name(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char *names[CHAIN_NAMES];
    char joined[256] = "";
    for (int k = 0; k < chain.args.ncalls; k++) {
        size_t used = strlen(joined);
        snprintf(joined + used, sizeof joined - used, "%s%s", k ? "+" : "", chain.name[k]);
    }
    const char *found = qf_cl_blas_chain.name;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CHAIN_NAMES; i++) {
        if (!names[i]) names[i] = strdup(joined);
        if (names[i] && !strcmp(names[i], joined)) {
            found = names[i];
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

static int submit(void)
{
    chain_args *c = &chain.args;
    if (c->ncalls == 0) return QF_SUCCESS;
    int ret;
    const char *what;
    if (c->ncalls == 1) { /* its own task: the buffers are the call's, in its order */
        what = c->call[0].cl->name;
        ret = QF_TASK_INSERT_BLOCK(chain.lat, chain.block, c->call[0].cl, STARPU_DATA_MODE_ARRAY, chain.d, chain.nbuf,
                                   STARPU_NAME, chain.name[0], QF_ARGS(c->call[0].args), 0);
    } else {
        what = qf_cl_blas_chain.name;
        size_t bytes = offsetof(chain_args, call) + (size_t)c->ncalls * sizeof(chain_call);
        ret = QF_TASK_INSERT_BLOCK(chain.lat, chain.block, &qf_cl_blas_chain, STARPU_DATA_MODE_ARRAY, chain.d, chain.nbuf,
                                   STARPU_NAME, chain_name(), STARPU_CL_ARGS, qf_task_args_copy(c, bytes), bytes, 0);
    }
    c->ncalls = 0;
    chain.nbuf = 0;
    chain.lat = NULL;
    return qf_task_check(ret, what);
}

static void flush_held(void) { (void)submit(); }

int qf_blas_chain_open(void)
{
    if (chain.open)
        return qf_fail("qf_blas_chain_begin: a chain is already open on this thread; end it with qf_blas_chain_end");
    chain.open = 1;
    return QF_SUCCESS;
}

int qf_blas_chain_close(void)
{
    if (!chain.open) return qf_fail("qf_blas_chain_end without qf_blas_chain_begin");
    chain.open = 0;
    qf_task_hold(NULL);
    return submit();
}

/* The buffer of the chain that holds d's handle, added with d's mode or its mode widened. */
static int chain_buffer(const struct starpu_data_descr *d)
{
    for (int j = 0; j < chain.nbuf; j++)
        if (chain.d[j].handle == d->handle) {
            chain.d[j].mode = (enum starpu_data_access_mode)(chain.d[j].mode | d->mode); /* R and W give RW */
            return j;
        }
    chain.d[chain.nbuf] = *d;
    return chain.nbuf++;
}

int qf_blas_chain_add(struct starpu_codelet *cl, const qf_blas_args *args, const qf_blas_range *r,
                      const struct starpu_data_descr *d, int n)
{
    if (!chain.open) return 0;
    int alone = r->lat && r->lat->nblocks == 1 && !qf_runtime_mpi_active();
    int fits = chain.args.ncalls < CHAIN_CALLS && chain.nbuf + n <= CHAIN_BUFFERS;
    if (chain.args.ncalls > 0 && (!alone || !fits || r->lat != chain.lat || r->block != chain.block) && submit())
        return QF_ERROR;
    if (!alone) return 0; /* inserted as before, after the chain so far */
    chain.lat = r->lat;
    chain.block = r->block;
    chain_call *c = &chain.args.call[chain.args.ncalls];
    c->cl = cl;
    c->args = *args;
    int map[QF_BLAS_MAX_OPERANDS];
    for (int j = 0; j < n; j++) map[j] = chain_buffer(&d[j]);
    for (int k = 0; k < QF_BLAS_MAX_OPERANDS; k++) c->args.buf[k] = args->buf[k] < 0 ? -1 : map[args->buf[k]];
    chain.name[chain.args.ncalls++] = r->name;
    qf_task_hold(flush_held);
    return 1;
}
