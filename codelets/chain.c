/* Codelet chain: the tasks a solver submits between qf_chain_begin and qf_chain_end (qf_blas.h,
 * tasks/blas.c) on a lattice of one block in one process, as one task that calls each task's codelet
 * function in turn on its buffers: on a GPU their kernels queue on the worker's stream back to back,
 * where as tasks of their own StarPU would start each only once it had seen the last end, 15-17 us a
 * dependent task on an H200 (bench/RESULTS.md, "What the runtime costs a task"). The codelets that
 * join chains use nothing but their buffers, their argument block and the worker's stream: the BLAS
 * codelets (qf_blas_insert), the fused one-block operator (wilson_block, tasks/dirac.c), the one-block
 * hop of any stencil (its fused stage: tasks/stencil.c) and precision conversions (convert). Only on
 * such a lattice: each reduction there is one task's alone (assigned, not a STARPU_REDUX sum of
 * blocks), so a later task of the chain may read it within the chain. A task that cannot join
 * (another lattice, several blocks or processes, a full chain) submits the chain so far and is inserted
 * itself; so does any other insertion or host access (qf_task_hold) and a change of placement scope, so
 * tasks reach StarPU in the order and under the scope they were asked for. The chain's buffers are its
 * tasks' handles, each once with the union of its modes. */
#include "codelets.h"

#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A solver's iterations between two residual checks (qf_krylov_next_iteration): ten BiCGStab
 * iterations are 80 tasks, 17 KB of arguments and about 17 distinct buffers */
#define CHAIN_CALLS 80
#define CHAIN_BUFFERS 48 /* below 256: a call's buffer indices are bytes */
#define CALL_BUFFERS 32
#define CHAIN_BYTES 40960
#define CHAIN_NAMES 64

/* A task of the chain, recorded in the chain's stream followed by its argument block. */
typedef struct {
    struct starpu_codelet *cl;
    uint32_t footprint;
    int nbuf;
    uint8_t buf[CALL_BUFFERS]; /* the task's buffers among the chain's, in its own order */
    size_t bytes;              /* of its argument block */
} chain_call;

/* The chain task's argument block: its tasks' records one after the other, each aligned, so that a
 * chain carries only what its tasks use. */
typedef struct {
    int ncalls;
    alignas(max_align_t) unsigned char stream[CHAIN_BYTES];
} chain_args;

typedef struct {
    int depth; /* chains nest: the outermost end submits */
    const qf_lattice *lat;
    int block;
    int nbuf;
    size_t used; /* bytes of args.stream */
    struct starpu_data_descr d[CHAIN_BUFFERS]; /* a chain of one: its task's own, in order */
    const char *name[CHAIN_CALLS];
    chain_args args;
} chain_state;

static _Thread_local chain_state chain;

static size_t aligned(size_t n) { return (n + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t); }
/* The stream's record at byte at, its argument block, and the bytes of a record with args bytes. */
static const chain_call *call_at(const chain_args *c, size_t at) { return (const chain_call *)(c->stream + at); }
static const void *call_args(const chain_call *k) { return (const unsigned char *)k + aligned(sizeof *k); }
static size_t record_bytes(size_t bytes) { return aligned(sizeof(chain_call)) + aligned(bytes); }

static void run(void *buffers[], const chain_args *c, int cuda)
{
    size_t at = 0;
    for (int k = 0; k < c->ncalls; k++) {
        const chain_call *call = call_at(c, at);
        at += record_bytes(call->bytes);
        void *sub[CALL_BUFFERS];
        for (int j = 0; j < call->nbuf; j++) sub[j] = buffers[call->buf[j]];
#if QF_HAVE_CUDA
        if (cuda) {
            call->cl->cuda_funcs[0](sub, (void *)call_args(call));
            continue;
        }
#endif
        (void)cuda;
        call->cl->cpu_funcs[0](sub, (void *)call_args(call));
    }
}

static void chain_cpu(void *buffers[], void *cl_arg) { run(buffers, cl_arg, 0); }

#if QF_HAVE_CUDA
static void chain_cuda(void *buffers[], void *cl_arg) { run(buffers, cl_arg, 1); }
#endif

/* The tasks' codelets and own footprints over the chain's buffers: a chain of other tasks on the same
 * fields is another entry of the model. */
static uint32_t chain_footprint(struct starpu_task *task)
{
    const chain_args *c = task->cl_arg;
    uint32_t h = starpu_task_data_footprint(task);
    size_t at = 0;
    for (int k = 0; k < c->ncalls; k++) {
        const chain_call *call = call_at(c, at);
        h = starpu_hash_crc32c_be(call->footprint, starpu_hash_crc32c_string(call->cl->name, h));
        at += record_bytes(call->bytes);
    }
    return h;
}

static struct starpu_perfmodel chain_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "qf_chain", .footprint = chain_footprint};

struct starpu_codelet qf_cl_chain = {
    .name = "chain",
    .cpu_funcs = {chain_cpu},
#if QF_HAVE_CUDA
    .cuda_funcs = {chain_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &chain_model,
};

/* The shortest period of the chain's task names: a run of m iterations of p tasks each is m p tasks of
 * period p (p = n where none repeats). */
static int name_period(void)
{
    int n = chain.args.ncalls;
    for (int p = 1; p < n; p++) {
        int repeats = n % p == 0;
        for (int k = p; k < n && repeats; k++) repeats = !strcmp(chain.name[k], chain.name[k - p]);
        if (repeats) return p;
    }
    return n;
}

/* The task name of a chain, its tasks' names joined by '+' ("dot+xpcw_ratio"), a repeated run as its
 * count and one period ("9x(block:Mhat:single+dot+...)": nine BiCGStab iterations, where joined they
 * ran past 512 characters), kept for the process (StarPU and the traces hold the pointer): a solver's
 * chains are a handful of names. */
static const char *chain_name(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char *names[CHAIN_NAMES];
    char joined[512] = "";
    int n = chain.args.ncalls, p = name_period();
    if (p < n) snprintf(joined, sizeof joined, "%dx(", n / p);
    for (int k = 0; k < p; k++) {
        size_t used = strlen(joined);
        snprintf(joined + used, sizeof joined - used, "%s%s", k ? "+" : "", chain.name[k]);
    }
    if (p < n) {
        size_t used = strlen(joined);
        snprintf(joined + used, sizeof joined - used, ")");
    }
    const char *found = qf_cl_chain.name;
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

/* A task of its own: on block `block` of lat, or, without a lattice (scalars only), where a task whose
 * cost is its latency goes (QF_TASK_INSERT_LATENCY). */
static int insert_task(struct starpu_codelet *cl, const qf_lattice *lat, int block, const struct starpu_data_descr *d,
                       int n, const char *name, const void *args, size_t bytes)
{
    void *copy = qf_task_args_copy(args, bytes);
    int ret = lat ? QF_TASK_INSERT_BLOCK(lat, block, cl, STARPU_DATA_MODE_ARRAY, d, n, STARPU_NAME, name, STARPU_CL_ARGS,
                                         copy, bytes, 0)
                  : QF_TASK_INSERT_LATENCY(cl, STARPU_DATA_MODE_ARRAY, d, n, STARPU_NAME, name, STARPU_CL_ARGS, copy,
                                           bytes, 0);
    return qf_task_check(ret, cl->name);
}

static int submit(void)
{
    chain_args *c = &chain.args;
    qf_task_hold(NULL); /* the insertion below must not flush this chain again */
    if (c->ncalls == 0) return QF_SUCCESS;
    const chain_call *first = call_at(c, 0);
    int rc = c->ncalls == 1 /* a task of its own, as it would have been inserted */
                 ? insert_task(first->cl, chain.lat, chain.block, chain.d, chain.nbuf, chain.name[0], call_args(first),
                               first->bytes)
                 : insert_task(&qf_cl_chain, chain.lat, chain.block, chain.d, chain.nbuf, chain_name(), c,
                               offsetof(chain_args, stream) + chain.used);
    c->ncalls = 0;
    chain.nbuf = 0;
    chain.used = 0;
    chain.lat = NULL;
    return rc;
}

static void flush_held(void) { (void)submit(); }

int qf_chain_open(void)
{
    chain.depth++;
    return QF_SUCCESS;
}

int qf_chain_close(void)
{
    if (chain.depth == 0) return qf_fail("qf_chain_end without qf_chain_begin");
    return --chain.depth > 0 ? QF_SUCCESS : submit();
}

/* The buffer of the chain that holds d's handle, added with d's mode or its mode widened: R and W give
 * RW, but a handle that the chain's first access to it writes whole (W) stays W, since nothing in the
 * chain reads what it held before (a scalar created in the chain and read later in it is not fetched,
 * nor is it RW before anything has written it). */
static int chain_buffer(const struct starpu_data_descr *d)
{
    for (int j = 0; j < chain.nbuf; j++)
        if (chain.d[j].handle == d->handle) {
            if (chain.d[j].mode != STARPU_W) chain.d[j].mode = (enum starpu_data_access_mode)(chain.d[j].mode | d->mode);
            return j;
        }
    chain.d[chain.nbuf] = *d;
    return chain.nbuf++;
}

int qf_chain_insert(struct starpu_codelet *cl, const qf_lattice *lat, int block, const struct starpu_data_descr *d,
                    int n, const char *name, const void *args, size_t bytes, uint32_t footprint)
{
    /* a CUDA function that waits for its own kernels would hold the chain's stream: not in a chain */
    int async = !cl->cuda_funcs[0] || (cl->cuda_flags[0] & STARPU_CUDA_ASYNC);
    int joins = chain.depth > 0 && (!lat || lat->nblocks == 1) && !qf_runtime_mpi_active() && n <= CALL_BUFFERS &&
                record_bytes(bytes) <= CHAIN_BYTES && async;
    /* a task on scalars alone runs where the chain's block does; a chain of such tasks only takes the block
     * of the first that has one, or goes where a latency task goes */
    int fits = chain.args.ncalls < CHAIN_CALLS && chain.nbuf + n <= CHAIN_BUFFERS &&
               chain.used + record_bytes(bytes) <= CHAIN_BYTES &&
               (!lat || !chain.lat || (lat == chain.lat && block == chain.block));
    if (chain.args.ncalls > 0 && (!joins || !fits) && submit()) return QF_ERROR;
    if (!joins) return insert_task(cl, lat, block, d, n, name, args, bytes); /* after the chain so far */
    if (lat) {
        chain.lat = lat;
        chain.block = block;
    }
    chain_call *c = (chain_call *)(chain.args.stream + chain.used);
    c->cl = cl;
    c->footprint = footprint;
    c->nbuf = n;
    for (int j = 0; j < n; j++) c->buf[j] = (uint8_t)chain_buffer(&d[j]);
    c->bytes = bytes;
    memcpy((unsigned char *)c + aligned(sizeof *c), args, bytes); /* where call_args finds it */
    chain.used += record_bytes(bytes);
    chain.name[chain.args.ncalls++] = name;
    qf_task_hold(flush_held);
    return QF_SUCCESS;
}
