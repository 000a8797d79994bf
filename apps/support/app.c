/* The command line's support (app.h): the options every command accepts, errors and usage messages,
 * option parsing, random sources, the block grid, the runtime's start and stop. The commands and the
 * benchmark drivers build on it; it calls neither. */
#include "app.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

qf_app_globals qf_app;

const char qf_app_global_help[] =
    "Options of every command:\n"
    "  --sched NAME     StarPU scheduling policy (eager, prio, ws, lws, dm, dmda, ...; default STARPU_SCHED,\n"
    "                   else dmdas with CUDA workers and eager without; a name StarPU lacks is refused)\n"
    "  --ncpu N         CPU workers, at most the machine's cores (default STARPU_NCPU, else all cores;\n"
    "                   with CUDA workers one core less per GPU and one for the thread that submits\n"
    "                   the tasks; without them, one for that thread from 16 cores on)\n"
    "  --ncuda N        CUDA workers, at most the GPUs present (default STARPU_NCUDA or all GPUs)\n"
    "  --verbose        print the machine (workers, memory nodes, hwloc topology) at start\n"
    "  --trace DIR      record an FxT trace into DIR (convert with starpu_fxt_tool -i DIR/prof_file_*)\n"
    "  --watchdog S     when no task finishes for S seconds while tasks are pending, report the stall and\n"
    "                   exit with status 1 instead of hanging (default 300; 0: off)\n"
    "  --grid PX PY PZ PT  process grid under mpirun (default: the number of processes split over the\n"
    "                   largest extents, t first)\n"
    "  -h, --help       this help\n"
    "StarPU's environment variables keep working; FxT tracing is off unless STARPU_FXT_TRACE=1.\n";

int qf_app_error(void)
{
    fprintf(stderr, "quarkflow: error: %s\n", qf_last_error());
    return 1;
}

void qf_app_gauge_warning(const char *path, const qf_gauge_info *g)
{
    if (g->warning[0] && qf_app_launcher_rank() == 0) fprintf(stderr, "quarkflow: warning: %s: %s\n", path, g->warning);
}

int qf_app_gauge_dims(const char *command, const char *path, qf_gauge_format format, const int check[4],
                      const int tile[4], int dims[4])
{
    if (!path)
        return qf_app_tiled(tile) ? qf_app_usage_error(command, "--tile replicates a gauge file's field: give the file "
                                                                "(or --dim for a generated field of that size)")
                                  : 0;
    qf_gauge_info g;
    if (qf_gauge_read_header(path, format, check, &g)) return qf_app_error();
    for (int mu = 0; mu < 4; mu++) dims[mu] = g.dims[mu] * tile[mu];
    return 0;
}

int qf_app_gauge_load_tiled(qf_field *u, const char *path, qf_gauge_format format, const int tile[4],
                            qf_gauge_info *g)
{
    if (!qf_app_tiled(tile)) return qf_gauge_load(u, path, format, g);
    if (qf_runtime_nprocs() > 1)
        return qf_fail("--tile replicates the field through one process's memory: run it on one process");
    const qf_lattice *lat = qf_field_lattice(u);
    int dims[4];
    for (int mu = 0; mu < 4; mu++) dims[mu] = lat->global[mu] / tile[mu];
    qf_lattice small;
    qf_field *us = NULL;
    int64_t vs = qf_volume(dims), site = qf_field_site_reals(QF_FIELD_GAUGE);
    double *hs = malloc((size_t)vs * site * sizeof *hs), *h = malloc((size_t)lat->global_volume * site * sizeof *h);
    int rc = !hs || !h ? qf_fail("out of host memory tiling the gauge field") : QF_SUCCESS;
    rc = rc || qf_app_lattice(&small, dims, NULL, 1, NULL) || qf_field_create(&us, &small, QF_FIELD_GAUGE, QF_DOUBLE, 0) ||
         qf_gauge_load(us, path, format, g) || qf_field_export(us, hs);
    for (int64_t s = 0; s < lat->global_volume && !rc; s++) {
        int x[4];
        qf_lex_coords(s, lat->global, x);
        for (int mu = 0; mu < 4; mu++) x[mu] %= dims[mu];
        memcpy(h + s * site, hs + qf_lex_index(x, dims) * site, (size_t)site * sizeof *h);
    }
    rc = rc || qf_field_import(u, h);
    if (us) qf_field_destroy(us);
    free(hs);
    free(h);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_app_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "quarkflow %s: ", command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'quarkflow %s --help')\n", command);
    return 2;
}

int qf_app_int(const char *command, int argc, char **argv, int *i, int *out)
{
    if (*i + 1 >= argc) return qf_app_usage_error(command, "%s needs a value", argv[*i]);
    char *end;
    errno = 0;
    long v = strtol(argv[*i + 1], &end, 10);
    if (errno || *end || end == argv[*i + 1] || v < -1 || v > 1 << 30)
        return qf_app_usage_error(command, "%s: '%s' is not a number", argv[*i], argv[*i + 1]);
    *out = (int)v;
    *i += 1;
    return 0;
}

int qf_app_double(const char *command, int argc, char **argv, int *i, double *out)
{
    if (*i + 1 >= argc) return qf_app_usage_error(command, "%s needs a value", argv[*i]);
    char *end;
    errno = 0;
    double v = strtod(argv[*i + 1], &end);
    if (errno || *end || end == argv[*i + 1] || !isfinite(v))
        return qf_app_usage_error(command, "%s: '%s' is not a number", argv[*i], argv[*i + 1]);
    *out = v;
    *i += 1;
    return 0;
}

int qf_app_u64(const char *command, int argc, char **argv, int *i, uint64_t *out)
{
    if (*i + 1 >= argc) return qf_app_usage_error(command, "%s needs a value", argv[*i]);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(argv[*i + 1], &end, 10);
    if (errno || *end || end == argv[*i + 1] || argv[*i + 1][0] == '-')
        return qf_app_usage_error(command, "%s: '%s' is not a non-negative integer", argv[*i], argv[*i + 1]);
    *out = (uint64_t)v;
    *i += 1;
    return 0;
}

/* splitmix64: a small, well-mixed generator for sources (not for Monte Carlo, which uses Philox). */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The 24 Gaussian reals of global site `site`. splitmix64 is a counter (each draw adds the same
 * constant to the state), so site i's 24 draws start from the state s0 + 24 i gamma: any part of the
 * field comes out exactly as it does in the whole. */
static void random_site(double *psi, uint64_t seed, int64_t site)
{
    uint64_t s = (seed ^ 0x5eed5eed5eed5eedull) + (uint64_t)site * 24u * 0x9e3779b97f4a7c15ull;
    const double two_pi = 6.283185307179586476925286766559;
    for (int k = 0; k < 24; k += 2) {
        double u1 = ((double)(splitmix64(&s) >> 11) + 1.0) / 9007199254740993.0; /* (0, 1] */
        double u2 = (double)(splitmix64(&s) >> 11) / 9007199254740992.0;
        double r = sqrt(-log(u1));
        psi[k] = r * cos(two_pi * u2);
        psi[k + 1] = r * sin(two_pi * u2);
    }
}

void qf_app_random_spinor(double *psi, int64_t volume, uint64_t seed)
{
    for (int64_t i = 0; i < volume; i++) random_site(psi + 24 * i, seed, i);
}

void qf_app_random_spinor_local(double *psi, const qf_lattice *lat, uint64_t seed)
{
    for (int64_t i = 0; i < lat->local_volume; i++) random_site(psi + 24 * i, seed, qf_lattice_local_to_global(lat, i));
}

void qf_app_random_colour_vector(double *v, int64_t volume, uint64_t seed)
{
    double site[24];
    for (int64_t i = 0; i < volume; i++) {
        random_site(site, seed, i);
        memcpy(v + 6 * i, site, 6 * sizeof *v);
    }
}

void qf_app_random_colour_vector_local(double *v, const qf_lattice *lat, uint64_t seed)
{
    double site[24];
    for (int64_t i = 0; i < lat->local_volume; i++) {
        random_site(site, seed, qf_lattice_local_to_global(lat, i));
        memcpy(v + 6 * i, site, 6 * sizeof *v);
    }
}

int qf_app_dims(const char *command, int argc, char **argv, int *i, int out[4])
{
    if (qf_parse_dims(argv + *i + 1, argc - *i - 1, out, argv[*i]))
        return qf_app_usage_error(command, "%s", qf_last_error());
    *i += 4;
    return 0;
}

int qf_app_check_output(const char *option, const char *path)
{
    if (!*path) return qf_fail("%s needs a file name", option);
    struct stat st;
    int exists = !stat(path, &st);
    const char *slash = strrchr(path, '/');
    if ((slash && !slash[1]) || (exists && S_ISDIR(st.st_mode)))
        return qf_fail("%s %s: that is a folder; give a file name", option, path);
    if (exists && access(path, W_OK))
        return qf_fail("%s %s: the file exists and is write-protected: remove it or choose another name", option, path);
    /* The writers create the file, or a temporary beside it that replaces it, in its folder: a probe
     * created and removed there also finds what access() does not (root, for whom it allows every
     * folder, under /proc, say). */
    int folder_len = slash ? (int)(slash - path) + 1 : 0;
    char folder[PATH_MAX], probe[PATH_MAX];
    snprintf(folder, sizeof folder, "%.*s", folder_len > 1 ? folder_len - 1 : 1, slash ? path : ".");
    int probe_len = snprintf(probe, sizeof probe, "%.*s.quarkflow-probe-%ld", folder_len, path, (long)getpid());
    if (probe_len >= (int)sizeof probe)
        return qf_fail("%s %s: the path is longer than the system allows (%d)", option, path, PATH_MAX);
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        int e = errno;
        return qf_fail("%s %s: cannot create files in the folder %s (%s): %s", option, path, folder, strerror(e),
                       e == ENOENT && stat(folder, &st) ? "create it first"
                       : e == ENOTDIR                   ? "a part of the path is not a folder"
                                                        : "choose a writable folder");
    }
    close(fd);
    unlink(probe);
    return QF_SUCCESS;
}

int qf_app_help_requested(int argc, char **argv, int first, const char *help)
{
    for (int i = first; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(help, stdout);
            fputs(qf_app_global_help, stdout);
            return 1;
        }
    return 0;
}

static int app_lattice(qf_lattice *lat, const int dims[4], const int blocks_opt[4], int min_block_extent,
                       const qf_solver_params *sp, int spread)
{
    static const int one_block[4] = {1, 1, 1, 1};
    int blocks[4], procs[4];
    if (qf_app.grid[0] > 0) memcpy(procs, qf_app.grid, sizeof procs);
    else if (qf_lattice_default_procs(dims, qf_runtime_nprocs(), procs)) return QF_ERROR;
    /* the process grid alone first (qf_lattice_init checks it): its local extents size the blocks */
    qf_lattice parts;
    if (qf_lattice_init(&parts, dims, procs, one_block, qf_runtime_rank(), qf_runtime_nprocs(), min_block_extent))
        return QF_ERROR;
    const int *local = parts.local;
    if (blocks_opt && blocks_opt[0] > 0) {
        memcpy(blocks, blocks_opt, sizeof blocks);
    } else {
        /* CPUs only, one process, up to 2^15 sites a worker: one block, whose tasks share their loops
         * among the CPU team (codelets/cpu_team.h): the Wilson hops in one pass without faces through
         * memory, the BLAS in chunks (H200 node, 15 workers: 16^4 propagators 1.8-2.3x and 24^4
         * BiCGStab 1.2-1.5x faster than on the block grid below, heatbath and 32^4 solves alike;
         * bench/RESULTS.md). Otherwise on CPUs, or asked to spread (bench sched): up to four blocks
         * a worker, so that the scheduler can balance them, but none under 8192 sites, below which
         * StarPU's per-task cost eats the kernels' time (16 cores at 16^4: 64 blocks of 1024 sites
         * kept 0.17 of the triad, 16 blocks 0.44). With GPUs: one block a GPU, whose kernels need
         * large blocks to fill the device; blocks sized for CPU cores would leave the GPU idle and
         * send every face over PCIe (a 32^4 solve on an H100 node ran 20x slower with 61 blocks than
         * with 2) */
        int ncuda = qf_runtime_ncuda_workers(), ncpu = qf_runtime_ncpu_workers();
        int64_t volume = (int64_t)local[0] * local[1] * local[2] * local[3];
        int64_t per_worker = ncpu > 0 ? volume / ((int64_t)ncpu * 8192) : 1;
        per_worker = per_worker < 1 ? 1 : per_worker > 4 ? 4 : per_worker;
        int one = ncuda == 0 && qf_runtime_nprocs() == 1 && !spread && volume <= (int64_t)ncpu * 32768;
        int target = ncuda > 0 ? ncuda : one ? 1 : (int)per_worker * ncpu, multiple[4];
        if (sp) qf_app_solver_block_multiple(sp, multiple);
        if (qf_lattice_default_blocks(local, target > 0 ? target : 1, min_block_extent, sp ? multiple : NULL, blocks))
            return QF_ERROR;
    }
    return qf_lattice_init(lat, dims, procs, blocks, qf_runtime_rank(), qf_runtime_nprocs(), min_block_extent);
}

int qf_app_lattice(qf_lattice *lat, const int dims[4], const int blocks_opt[4], int min_block_extent,
                   const qf_solver_params *sp)
{
    return app_lattice(lat, dims, blocks_opt, min_block_extent, sp, 0);
}

int qf_app_lattice_spread(qf_lattice *lat, const int dims[4], const int blocks_opt[4], int min_block_extent)
{
    return app_lattice(lat, dims, blocks_opt, min_block_extent, NULL, 1);
}

int qf_app_start(int *argc, char ***argv)
{
    if (qf_runtime_init(&qf_app.runtime, argc, argv)) return QF_ERROR;
    /* every process runs the same command; rank 0 speaks for them (errors still come from any) */
    if (qf_runtime_rank() != 0 && !freopen("/dev/null", "w", stdout))
        return qf_fail("cannot silence the standard output of rank %d", qf_runtime_rank());
    if (qf_app.verbose && qf_runtime_rank() == 0) qf_runtime_print_machine(stdout);
    /* on a mixed node, a fresh machine's first runs are the calibration's (issue 20): say so */
    int total = 0, missing;
    char names[512];
    if (qf_runtime_rank() == 0 && qf_runtime_ncuda_workers() > 0 && qf_runtime_ncpu_workers() > 0 &&
        !strncmp(qf_runtime_sched_name(), "dm", 2) &&
        (missing = qf_runtime_models_missing(&total, names, sizeof names)) > 0)
        fprintf(stderr,
                "quarkflow: note: %d of %d codelets have no calibrated performance model on this machine yet (%s): "
                "the scheduler calibrates them in the first runs by timing tasks on every worker type (on the CPU "
                "cores only tasks of up to 4 MiB whose data are all on the host; the others stay on the GPUs), "
                "which may make those runs a little slower; run a short job of the same size first, or use the "
                "GPU alone (--ncpu 0)\n",
                missing, total, names);
    return QF_SUCCESS;
}

void qf_app_stop(void)
{
    int rank = qf_runtime_rank();
    qf_runtime_shutdown(); /* writes the FxT records */
    qf_runtime_barrier();  /* every process's records, before rank 0 merges them */
    if (qf_app.runtime.trace_dir && rank == 0) qf_app_trace_finish(qf_app.runtime.trace_dir);
}

/* Under mpirun every process runs the whole command, and some commands print (a gauge file's facts)
 * before MPI starts: the launcher's rank variable silences the others' standard output from the
 * outset (qf_app_start does it again from MPI's rank, for other launchers). */
int qf_app_launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
    for (unsigned k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        const char *v = getenv(vars[k]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

