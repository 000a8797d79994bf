/* Runtime start-up and shut-down: MPI first (when built with it), then StarPU, through StarPU-MPI when
 * there is more than one process; quarkflow's defaults are layered under the user's environment. */
#include "quarkflow/qf_runtime.h"
#include "quarkflow/qf_config.h"
#include "codelet_table.h"
#include "mpi_data.h"
#include "watchdog.h"

#include <starpu.h>
#include <starpu_heteroprio.h>
#if QF_HAVE_MPI
#include <starpu_mpi.h>
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int started, rank, nprocs = 1;
enum { FUSE_AUTO, FUSE_ALWAYS, FUSE_NEVER };
static int fuse_mode;   /* QF_STENCIL_FUSE */
static long last_level_cache; /* bytes, for qf_runtime_pair_hops */
static int direct_mode;       /* QF_STENCIL_DIRECT, as fuse_mode */
static int direct_hops;       /* qf_runtime_direct_hops */
static const char *default_policy; /* the policy quarkflow chose because the user named none */
static const char *default_policy_label; /* ... as qf_runtime_sched_name names it */
static int trace_window; /* FxT records only between qf_runtime_trace_begin and _end */
static int tracing;      /* a trace folder was given */
#if QF_HAVE_CUDA
int qf_cuda_device_count(void); /* cuda_devices.cu */
#endif
#if QF_HAVE_MPI
static int using_starpu_mpi;
static void finalize_mpi(void) { MPI_Finalize(); }
#endif

int qf_runtime_mpi_active(void)
{
#if QF_HAVE_MPI
    return using_starpu_mpi;
#else
    return 0;
#endif
}

qf_runtime_options qf_runtime_default_options(void)
{
    qf_runtime_options o = {NULL, -1, -1, NULL, 0, 0.0};
    return o;
}

static void set_int_env(const char *name, int value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%d", value);
    setenv(name, buf, 1);
}

/* StarPU budgets main memory by hwloc's figure for the NUMA node, and fails an allocation beyond it
 * with an assertion (StarPU allocates main memory also for the fields that live on GPUs, when it
 * partitions them). Some virtual machines show hwloc a fraction of their memory (a GPU node with
 * 125 GiB appeared to have 5.8 GiB): there, unless the user set a limit, StarPU's main-memory
 * allocations are left uncounted so that the system's memory is the limit. */
static double system_memory; /* bytes, when trust_system_memory took over from hwloc's figure */

static void trust_system_memory(void)
{
    if (getenv("STARPU_LIMIT_CPU_MEM") || getenv("STARPU_LIMIT_CPU_NUMA_MEM")) return;
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    starpu_ssize_t budget = starpu_memory_get_total(STARPU_MAIN_RAM);
    if (budget > 0 && phys > 0 && (double)budget < 0.5 * phys) {
        starpu_malloc_on_node_set_default_flags(STARPU_MAIN_RAM, STARPU_MALLOC_PINNED);
        system_memory = phys;
    }
}

/* How many CUDA workers StarPU will start: the devices, or fewer if STARPU_NCUDA says so. */
static int cuda_workers_expected(void)
{
#if QF_HAVE_CUDA
    int devices = qf_cuda_device_count();
    const char *n = getenv("STARPU_NCUDA");
    if (n && *n && atoi(n) >= 0 && atoi(n) < devices) return atoi(n);
    return devices;
#else
    return 0;
#endif
}

int qf_runtime_check_sched(const char *policy)
{
    /* StarPU itself only warns about a name it does not know and runs its default policy, which made
     * a typo in --sched look like a measurement of the policy asked for */
    if (policy && !strncmp(policy, "heft", 4)) return QF_SUCCESS; /* StarPU's old name of dmda */
    char known[1024] = "";
    size_t used = 0;
    for (struct starpu_sched_policy **p = starpu_sched_get_predefined_policies(); *p; p++) {
        if (!(*p)->policy_name) continue;
        if (policy && !strcmp(policy, (*p)->policy_name)) return QF_SUCCESS;
        if (used < sizeof known)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "", (*p)->policy_name);
    }
    return qf_fail("unknown scheduling policy '%s': StarPU %d.%d.%d has %s", policy ? policy : "", STARPU_MAJOR_VERSION,
                   STARPU_MINOR_VERSION, STARPU_RELEASE_VERSION, known);
}

/* Refuses worker counts the machine cannot honour: StarPU starts as many CPU workers as asked (up to
 * its STARPU_MAXCPUS, 128 workers on a 2-core machine), and without the CUDA devices asked for it
 * runs on the CPUs alone, both without a word. */
static int check_workers(const qf_runtime_options *opt)
{
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    if (opt->ncpu > 0 && ncores > 0 && opt->ncpu > ncores)
        return qf_fail("--ncpu %d: this machine has %ld cores; give at most %ld CPU workers (or leave --ncpu out for "
                       "one per core)",
                       opt->ncpu, ncores, ncores);
    /* the same count from StarPU's own variable, which --ncpu overrides */
    const char *env = getenv("STARPU_NCPU");
    char *end;
    long env_ncpu = env && *env ? strtol(env, &end, 10) : -1;
    if (opt->ncpu <= 0 && env_ncpu > 0 && *end == '\0' && ncores > 0 && env_ncpu > ncores)
        return qf_fail("STARPU_NCPU=%ld: this machine has %ld cores; set at most %ld CPU workers (or unset STARPU_NCPU "
                       "for one per core)",
                       env_ncpu, ncores, ncores);
#if QF_HAVE_CUDA
    int devices = qf_cuda_device_count();
    const char *where = "this machine has";
#else
    int devices = 0;
    const char *where = "quarkflow was built without CUDA (QF_ENABLE_CUDA=OFF) and uses";
#endif
    if (opt->ncuda > devices)
        return qf_fail("--ncuda %d: %s %d CUDA device%s; %s", opt->ncuda, where, devices, devices == 1 ? "" : "s",
                       devices ? "give at most that many (0: CPU workers only)" : "give --ncuda 0 or leave it out");
    return QF_SUCCESS;
}

/* StarPU's default gives every core without a CUDA worker a CPU worker, so the thread that submits
 * the tasks shares a core with a worker. On a node with GPUs that thread paces the GPU: a 32^4
 * propagator on 16 cores + 1 H100 took 10.8 s with 15 CPU workers (all idle), 7.2 s with 14 and 6.6 s
 * with none. On CPUs alone it paces the workers once there are many: on 16 cores a 16^4 mixed
 * BiCGStab took 0.51-0.52 s with 16 workers and 0.27-0.30 s with 15, a 32^4 one 2.99-3.01 s against
 * 2.67-2.87 s; on 8 cores the two counts were within 10% either way, and on 4 the fourth worker won
 * (bench/RESULTS.md, "The submitting thread's core on CPU-only nodes"). Unless the user set
 * STARPU_NCPU (or --ncpu), one core is left to it with CUDA workers, and without them from
 * QF_SUBMISSION_CORE_MIN_CORES cores on. */
enum { QF_SUBMISSION_CORE_MIN_CORES = 16 };

int qf_runtime_default_ncpu(long ncores, int ncuda)
{
    if (ncuda <= 0 && ncores < QF_SUBMISSION_CORE_MIN_CORES) return -1;
    long ncpu = ncores - (ncuda > 0 ? ncuda : 0) - 1;
    return ncpu > 1 ? (int)ncpu : 1;
}

/* The last-level cache assumed where the system does not say (qf_runtime_default_pair_hops). */
#define QF_PAIR_CACHE_UNKNOWN (32L << 20)

int qf_runtime_default_direct_hops(int ncpu, int ncuda) { return ncuda <= 0 && ncpu <= QF_DIRECT_MAX_CPU_WORKERS; }

int qf_runtime_default_pair_hops(int64_t bytes, long cache_bytes, int ncuda, int pass)
{
    return ncuda <= 0 && (pass || bytes > (cache_bytes > 0 ? cache_bytes : QF_PAIR_CACHE_UNKNOWN));
}

static void reserve_submission_core(int ncuda)
{
    if (getenv("STARPU_NCPU")) return;
    int ncpu = qf_runtime_default_ncpu(sysconf(_SC_NPROCESSORS_ONLN), ncuda);
    if (ncpu > 0) set_int_env("STARPU_NCPU", ncpu);
}

#if QF_HAVE_MPI
/* StarPU binds a process's workers from the node's first core on, so processes that share a node
 * (mpirun --bind-to none) would bind theirs to the same cores. Unless the user chose the binding
 * (STARPU_WORKERS_CPUID, _COREID, _GETBIND or _NOBIND), each process of a node takes its own slice
 * of the cores: workers on all but the last, StarPU-MPI's thread on the last; with fewer cores than
 * processes, nothing is bound. */
static void share_cores(void)
{
    static const char *const chosen[] = {"STARPU_WORKERS_CPUID", "STARPU_WORKERS_COREID", "STARPU_WORKERS_GETBIND",
                                         "STARPU_WORKERS_NOBIND"};
    MPI_Comm node; /* collective: every process splits, whatever its environment says */
    int local_rank, local_size;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) != MPI_SUCCESS) return;
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_size(node, &local_size);
    MPI_Comm_free(&node);
    for (unsigned k = 0; k < sizeof chosen / sizeof chosen[0]; k++)
        if (getenv(chosen[k])) return;
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    int per = ncores > 0 ? (int)(ncores / local_size) : 0;
    if (per < 2) {
        setenv("STARPU_WORKERS_NOBIND", "1", 0);
        return;
    }
    char list[4096] = "";
    size_t used = 0;
    for (int c = local_rank * per; c < (local_rank + 1) * per - 1 && used < sizeof list - 16; c++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%d ", c);
    setenv("STARPU_WORKERS_CPUID", list, 0);
    if (!getenv("STARPU_MPI_THREAD_CPUID")) set_int_env("STARPU_MPI_THREAD_CPUID", (local_rank + 1) * per - 1);
    if (!getenv("STARPU_NCPU")) set_int_env("STARPU_NCPU", per - 1);
}
#endif

/* heteroprio's buckets are the tasks' priorities: 1 for the Dirac operator's face work (gathers and
 * exteriors, on the critical path of every application), 0 for the rest (interiors, BLAS, scalars);
 * the workers take face work first. CPU workers only: see qf_runtime_init. */
static void heteroprio_buckets(unsigned ctx)
{
    starpu_heteroprio_set_nb_prios(ctx, STARPU_CPU_IDX, 2);
    starpu_heteroprio_set_mapping(ctx, STARPU_CPU_IDX, 0, 1);
    starpu_heteroprio_set_mapping(ctx, STARPU_CPU_IDX, 1, 0);
}

#if QF_HAVE_MPI
/* MPI (unless the program started it), this process's rank, and the node's cores shared out. */
static int start_mpi(int *argc, char ***argv)
{
    int mpi_ready = 0;
    MPI_Initialized(&mpi_ready);
    if (!mpi_ready) {
        int provided;
        if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
            return qf_fail("MPI_Init_thread failed: check the MPI installation (mpirun --version)");
        if (provided < MPI_THREAD_SERIALIZED)
            return qf_fail("the MPI library provides thread level %d but StarPU-MPI needs MPI_THREAD_SERIALIZED; "
                           "use an MPI built with thread support",
                           provided);
        /* at exit, not at qf_runtime_shutdown: StarPU may be started again (bench sched), MPI may not */
        atexit(finalize_mpi);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    /* StarPU-MPI reserves a core for its progression thread: worth it only with messages to send. */
    using_starpu_mpi = nprocs > 1;
    if (using_starpu_mpi) share_cores();
    return QF_SUCCESS;
}
#endif

/* StarPU, with StarPU-MPI on top when several processes run. */
static int start_starpu(struct starpu_conf *conf, int *argc, char ***argv)
{
    /* StarPU 1.3 allocates unpinned host buffers with plain malloc, 16 bytes past a page, so that the
     * CPU kernels' vector loads straddle cache lines: that cost the task graph's hop on two-row links
     * 1.3-1.5x in double (bench/RESULTS.md, "Host blocks on cache lines"). 64 bytes: a cache line. */
    starpu_malloc_set_align(64);
#if QF_HAVE_MPI
    if (using_starpu_mpi) {
        int ret = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, conf);
        if (!ret) qf_mpi_data_start();
        return ret;
    }
#endif
    (void)argc;
    (void)argv;
    return starpu_init(conf);
}

int qf_runtime_init(const qf_runtime_options *opt, int *argc, char ***argv)
{
    qf_runtime_options defaults = qf_runtime_default_options();
    if (!opt) opt = &defaults;
    if (started) return qf_fail("the runtime is already started");
    if (opt->sched && qf_runtime_check_sched(opt->sched)) return qf_fail_context("--sched");
    const char *env_policy = getenv("STARPU_SCHED");
    if (!opt->sched && env_policy && *env_policy && qf_runtime_check_sched(env_policy))
        return qf_fail_context("STARPU_SCHED in the environment");
    if (check_workers(opt)) return QF_ERROR;
    const char *fuse = getenv("QF_STENCIL_FUSE");
    if (fuse && *fuse && strcmp(fuse, "auto") && strcmp(fuse, "always") && strcmp(fuse, "never"))
        return qf_fail("QF_STENCIL_FUSE=%s in the environment: use auto (fuse the stages of a one-block lattice, "
                       "whose fused tasks share the CPU cores among a team of threads; run both hops of the "
                       "even-odd operator as one task a block where only CPU workers run and its fields exceed the "
                       "last-level cache), always or never",
                       fuse);
    fuse_mode = !fuse || !*fuse || !strcmp(fuse, "auto") ? FUSE_AUTO : !strcmp(fuse, "always") ? FUSE_ALWAYS : FUSE_NEVER;
    const char *direct = getenv("QF_STENCIL_DIRECT");
    if (direct && *direct && strcmp(direct, "auto") && strcmp(direct, "always") && strcmp(direct, "never"))
        return qf_fail("QF_STENCIL_DIRECT=%s in the environment: use auto (a hop of a block reads its neighbours' "
                       "blocks directly where only a few CPU workers run), always or never (gathers, interiors and "
                       "exteriors)",
                       direct);
    direct_mode = !direct || !*direct || !strcmp(direct, "auto") ? FUSE_AUTO
                  : !strcmp(direct, "always")                   ? FUSE_ALWAYS
                                                                 : FUSE_NEVER;
    last_level_cache = sysconf(_SC_LEVEL3_CACHE_SIZE);

    /* Tracing costs about 5x in task overhead: off unless the user asks for it. */
    tracing = trace_window = 0;
    if (opt->trace_dir) {
        if (mkdir(opt->trace_dir, 0777) && errno != EEXIST)
            return qf_fail("cannot create the trace folder %s: %s", opt->trace_dir, strerror(errno));
        setenv("STARPU_FXT_TRACE", "1", 1);
        setenv("STARPU_FXT_PREFIX", opt->trace_dir, 1);
        trace_window = opt->trace_window;
        tracing = 1;
        starpu_fxt_autostart_profiling(!trace_window);
    } else {
        setenv("STARPU_FXT_TRACE", "0", 0);
    }
    if (opt->sched) setenv("STARPU_SCHED", opt->sched, 1);
    if (opt->ncpu >= 0) set_int_env("STARPU_NCPU", opt->ncpu);
    if (opt->ncuda >= 0) set_int_env("STARPU_NCUDA", opt->ncuda);
    if (opt->watchdog_s < 0.0) return qf_fail("watchdog %g s: give a positive time, or 0 for none", opt->watchdog_s);
    if (qf_cpu_kernels_select()) return QF_ERROR;
    qf_watchdog_configure(opt->watchdog_s);
    /* Our tasks are short; StarPU's default of printing a warning per uncalibrated model is noise. */
    setenv("STARPU_SILENT", "1", 0);
    /* StarPU keeps a share of a GPU's buffers clean (STARPU_MINIMUM_CLEAN_BUFFERS, default 5%, up to
     * STARPU_TARGET_CLEAN_BUFFERS, 10%) by copying dirty ones home in idle time. Our host-backed fields
     * (links, clover term, sources, solutions, 0.1-0.6 GB each at 32^4) were copied so during the first
     * solve after a multigrid setup, at about 1 GB/s, while the tasks reading them waited: 1.50-1.54 s
     * against 0.62-0.64 s on an H100 at 32^4 (bench/RESULTS.md). An evicted buffer is still written
     * home when memory runs short, so nothing is lost; a user's own setting is kept. */
    setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
    setenv("STARPU_TARGET_CLEAN_BUFFERS", "0", 0);

    struct starpu_conf conf;
    starpu_conf_init(&conf);
    const char *policy = getenv("STARPU_SCHED");
    default_policy = default_policy_label = NULL;
    int ncuda_expected = cuda_workers_expected();
    if (!(policy && *policy)) {
        /* StarPU's default, lws, hands GPU-sized blocks to CPU cores as readily as to the GPU (17x
         * slower on an H100 node, bench/RESULTS.md); dmdas places tasks by their calibrated models.
         * Without GPUs, eager's one queue feeds many cores faster than lws's stealing: 15 workers on
         * a 16-core node ran solves 1.08-1.36x, multigrid 1.16-1.30x and Mhat 1.11-1.18x faster, 2
         * workers the same (bench/RESULTS.md, "The CPU-only default policy"). */
        default_policy = ncuda_expected > 0 ? "dmdas" : "eager";
        default_policy_label = ncuda_expected > 0 ? "dmdas (quarkflow's default with CUDA workers)"
                                                  : "eager (quarkflow's default without CUDA workers)";
        conf.sched_policy_name = default_policy;
    }
    int heteroprio = policy && !strcmp(policy, "heteroprio");
    if (heteroprio) conf.sched_policy_init = heteroprio_buckets;
#if QF_HAVE_MPI
    if (start_mpi(argc, argv)) return QF_ERROR;
#endif
    reserve_submission_core(ncuda_expected);
    /* starpu_conf_init read STARPU_NCPU before share_cores or reserve_submission_core set it; without
     * it in conf, StarPU-MPI reserves one more core for its thread (8 processes on 16 cores then got
     * no worker at all), although the slice already gives that thread a core of its own */
    const char *ncpu_env = getenv("STARPU_NCPU");
    if (ncpu_env && *ncpu_env) conf.ncpus = atoi(ncpu_env);
    int ret = start_starpu(&conf, argc, argv);
    if (ret == -ENODEV)
        return qf_fail("StarPU found no worker to run tasks on: check STARPU_NCPU / STARPU_NCUDA (or --ncpu / --ncuda)");
    if (ret) return qf_fail("StarPU failed to start (error %d): %s", ret, strerror(-ret));
    started = 1;
    if (heteroprio && starpu_cuda_worker_get_count() > 0) {
        /* seen on an H100 node: an assertion in heteroprio.c at the first pinned host allocation */
        qf_runtime_shutdown();
        return qf_fail("StarPU 1.3.10's heteroprio scheduler aborts on the CUDA-only tasks StarPU submits itself "
                       "(pinned host allocations): use heteroprio with CPU workers only (--ncuda 0), or dmdas on GPU "
                       "nodes");
    }
    trust_system_memory();
    direct_hops = direct_mode == FUSE_AUTO ? qf_runtime_default_direct_hops((int)starpu_cpu_worker_get_count(),
                                                                            (int)starpu_cuda_worker_get_count())
                                           : direct_mode == FUSE_ALWAYS;
    qf_placement_start();
    qf_codelet_hooks_start();
    qf_watchdog_install();
    return QF_SUCCESS;
}

static int cublas_started;

void qf_runtime_cublas_init(void)
{
#if QF_HAVE_CUDA
    if (!cublas_started && started && starpu_cuda_worker_get_count() > 0) {
        starpu_cublas_init();
        cublas_started = 1;
    }
#endif
}

void qf_runtime_shutdown(void)
{
    if (!started) return;
    qf_runtime_wait_all();
#if QF_HAVE_CUDA
    if (cublas_started) starpu_cublas_shutdown();
    cublas_started = 0;
#endif
    qf_placement_stop();
    qf_codelet_hooks_stop();
    qf_watchdog_release();
#if QF_HAVE_MPI
    if (using_starpu_mpi) starpu_mpi_shutdown();
    else starpu_shutdown();
#else
    starpu_shutdown();
#endif
    started = 0;
}

void qf_runtime_trace_begin(void)
{
    if (trace_window) starpu_fxt_start_profiling();
}

void qf_runtime_trace_event(const char *what)
{
    if (tracing) starpu_fxt_trace_user_event_string(what);
}

void qf_runtime_trace_end(void)
{
    if (!trace_window) return;
    qf_runtime_wait_all(); /* the window holds its tasks whole */
    starpu_fxt_stop_profiling();
}

void qf_runtime_barrier(void)
{
#if QF_HAVE_MPI
    if (nprocs > 1) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

int qf_runtime_rank(void) { return rank; }
int qf_runtime_fuse_blocks(void) { return fuse_mode != FUSE_NEVER; }
int qf_runtime_direct_hops(const qf_lattice *lat) { return lat->nblocks > 1 && lat->nprocs == 1 && direct_hops; }
int qf_runtime_pair_hops(int64_t bytes, int pass)
{
    if (fuse_mode != FUSE_AUTO) return fuse_mode == FUSE_ALWAYS;
    return qf_runtime_default_pair_hops(bytes, last_level_cache, (int)starpu_cuda_worker_get_count(), pass);
}
int qf_runtime_nprocs(void) { return nprocs; }
int qf_runtime_ncpu_workers(void) { return (int)starpu_cpu_worker_get_count(); }
int qf_runtime_ncuda_workers(void) { return (int)starpu_cuda_worker_get_count(); }
void qf_runtime_wait_all(void)
{
    qf_task_release_held();
    starpu_task_wait_for_all();
}
void qf_runtime_pause(void) { starpu_pause(); }
void qf_runtime_resume(void) { starpu_resume(); }
double qf_wtime(void) { return starpu_timing_now() * 1e-6; }

const char *qf_runtime_sched_name(void)
{
    const char *s = getenv("STARPU_SCHED");
    if (s && *s) return s;
    return default_policy_label ? default_policy_label : "lws (StarPU's default)";
}

void qf_runtime_print_machine(FILE *out)
{
    unsigned nw = starpu_worker_get_count();
    fprintf(out, "StarPU workers: %u (%d CPU, %d CUDA), scheduler %s\n", nw, qf_runtime_ncpu_workers(),
            qf_runtime_ncuda_workers(), qf_runtime_sched_name());
    for (unsigned w = 0; w < nw; w++) {
        char name[128];
        starpu_worker_get_name((int)w, name, sizeof name);
        fprintf(out, "  worker %2u: %-24s memory node %u\n", w, name, starpu_worker_get_memory_node(w));
    }
    unsigned nn = starpu_memory_nodes_get_count();
    fprintf(out, "Memory nodes: %u\n", nn);
    for (unsigned n = 0; n < nn; n++) {
        char name[128];
        starpu_memory_node_get_name(n, name, sizeof name);
        starpu_ssize_t total = starpu_memory_get_total(n);
        if (n == STARPU_MAIN_RAM && system_memory > 0)
            fprintf(out, "  node %u: %-12s %.1f GiB (hwloc shows StarPU %.1f GiB: not counted, the system's memory is the limit)\n",
                    n, name, system_memory / (1024.0 * 1024 * 1024), total / (1024.0 * 1024 * 1024));
        else if (total > 0)
            fprintf(out, "  node %u: %-12s %.1f GiB available to StarPU\n", n, name, total / (1024.0 * 1024 * 1024));
        else
            fprintf(out, "  node %u: %-12s (no limit set)\n", n, name);
    }
    fprintf(out, "Topology (hwloc, as StarPU binds workers):\n");
    starpu_topology_print(out);
}

void qf_runtime_print_build(FILE *out)
{
    fprintf(out, "quarkflow %s\n", QF_VERSION);
    fprintf(out, "  StarPU      %d.%d.%d (FxT tracing %s)\n", STARPU_MAJOR_VERSION, STARPU_MINOR_VERSION,
            STARPU_RELEASE_VERSION,
#ifdef STARPU_USE_FXT
            "available"
#else
            "not built in"
#endif
    );
    fprintf(out, "  CUDA        %s\n", QF_HAVE_CUDA ? "codelets built (" QF_CUDA_ARCHITECTURES ")" : "not built");
    fprintf(out, "  MPI         %s\n", QF_HAVE_MPI ? "StarPU-MPI" : "not built (single process)");
    if (qf_cpu_kernels_select()) {
        fprintf(out, "  CPU kernels none: %s\n", qf_last_error());
    } else {
        qf_cpu_kernels_level cpu = qf_cpu_kernels();
        fprintf(out, "  CPU kernels %s (%s; QF_CPU_KERNELS=avx512|avx2|baseline|auto)\n", qf_cpu_kernels_name(cpu),
                qf_cpu_kernels_target(cpu));
    }
    fprintf(out, "  max CPUs    %d, max CUDA devices %d\n", STARPU_MAXCPUS,
#ifdef STARPU_MAXCUDADEVS
            STARPU_MAXCUDADEVS
#else
            0
#endif
    );
}

int qf_runtime_cpu_worker_core(int k)
{
    int ids[STARPU_NMAXWORKERS];
    int n = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids, STARPU_NMAXWORKERS);
    return k >= 0 && k < n ? starpu_worker_get_bindid(ids[k]) : -1;
}

void qf_runtime_bind_thread(int core, const char *name)
{
    if (core >= 0) starpu_bind_thread_on(core, 0, name);
}

int qf_runtime_cuda_device(void)
{
    int w = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
    return w >= 0 ? starpu_worker_get_devid(w) : -1;
}
