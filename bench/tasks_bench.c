/* quarkflow bench tasks: what the runtime costs a task, on each worker type, against the same kernel
 * called without it. The kernel only waits a given time (qf_runtime_probe_tasks, qf_direct_probe), so
 * that a chain of such tasks shows how much of a kernel's speed the task graph keeps at that kernel's
 * length: the graph / direct ratio that bench dslash measures for Mhat, for any length, and the floor
 * under it, a host that launches each kernel when it sees the one before it end. */
#include "app.h"
#include "qf_bench.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: quarkflow bench tasks [options]\n"
    "\n"
    "Times what the runtime (StarPU) costs a task. The tasks run a kernel that only waits a given time\n"
    "(a CPU core spinning on its clock; one GPU warp on the GPU's timer, launched asynchronously on the\n"
    "CUDA worker's stream as every quarkflow CUDA codelet is), placed on one worker type, and read a\n"
    "number of buffers as a Dirac task reads its links and clover fields. For each worker type and\n"
    "kernel length, microseconds a task:\n"
    "  chained       every task reads and writes one buffer, so each starts when the last has ended (a\n"
    "                solver's operator applications and updates wait for each other like this)\n"
    "  independent   each task its own buffer (64 in turn): tasks may overlap on several workers\n"
    "  direct        the same kernel without the runtime, one call after the other (CUDA: queued back\n"
    "                to back on one stream, waited for once)\n"
    "  direct, wait  CUDA: each call launched when the host has seen the last one end (polling its\n"
    "                event, as StarPU's CUDA driver does): the least any runtime pays that starts a\n"
    "                task once it sees its predecessor end\n"
    "and the ratios direct / chained (the share of the kernels' speed a chain of tasks keeps, bench\n"
    "dslash's 'task graph / direct' for a kernel of that length) and direct / direct-wait (the most\n"
    "any such runtime could keep). Best of the rounds.\n"
    "\n"
    "Options:\n"
    "  --wait-us LIST   kernel lengths in microseconds, comma-separated (default 0,10,40,100)\n"
    "  --tasks N        tasks a measurement (default 2000)\n"
    "  --buffers B      buffers a task, 1 to 16 (default 6)\n"
    "  --workers LIST   cpu, cuda or both (default: every type that runs)\n"
    "  --rounds R       rounds of each measurement (default 3)\n"
    "\n"
    "--ncpu, --ncuda and --sched choose the workers and the policy as for every command. One process.\n"
    "Results: bench/RESULTS.md.\n\n";

#define MAX_WAITS 16

typedef struct {
    double wait_us[MAX_WAITS];
    int nwait, ntasks, nbuffers, rounds, kinds[2]; /* kinds[qf_worker_kind]: asked for */
    int kinds_given;
} options;

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    const double waits[] = {0, 10, 40, 100};
    o->nwait = 4;
    memcpy(o->wait_us, waits, sizeof waits);
    o->ntasks = 2000;
    o->nbuffers = 6;
    o->rounds = 3;
    const char *cmd = "bench tasks";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--wait-us")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "--wait-us needs a comma-separated list of microseconds");
            char list[256], *end;
            snprintf(list, sizeof list, "%s", argv[++i]);
            o->nwait = 0;
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                double w = strtod(tok, &end);
                if (*end || end == tok || !(w >= 0.0 && w <= 1e5) || o->nwait == MAX_WAITS)
                    return qf_app_usage_error(cmd, "--wait-us '%s': give up to %d lengths from 0 to 1e5 microseconds",
                                              argv[i], MAX_WAITS);
                o->wait_us[o->nwait++] = w;
            }
        } else if (!strcmp(a, "--tasks")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->ntasks);
            if (!rc && o->ntasks < 10) return qf_app_usage_error(cmd, "--tasks %d: at least 10", o->ntasks);
        } else if (!strcmp(a, "--buffers")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->nbuffers);
            if (!rc && (o->nbuffers < 1 || o->nbuffers > 16))
                return qf_app_usage_error(cmd, "--buffers %d: give 1 to 16", o->nbuffers);
        } else if (!strcmp(a, "--rounds")) {
            rc = qf_app_int(cmd, argc, argv, &i, &o->rounds);
            if (!rc && (o->rounds < 1 || o->rounds > 100)) return qf_app_usage_error(cmd, "--rounds %d: give 1 to 100", o->rounds);
        } else if (!strcmp(a, "--workers")) {
            if (i + 1 >= argc) return qf_app_usage_error(cmd, "--workers needs cpu, cuda or cpu,cuda");
            char list[64];
            snprintf(list, sizeof list, "%s", argv[++i]);
            o->kinds[0] = o->kinds[1] = 0;
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                if (!strcmp(tok, "cpu")) o->kinds[QF_WORKER_CPU] = 1;
                else if (!strcmp(tok, "cuda")) o->kinds[QF_WORKER_CUDA] = 1;
                else return qf_app_usage_error(cmd, "--workers '%s': give cpu, cuda or cpu,cuda", argv[i]);
            }
            o->kinds_given = 1;
        } else {
            return qf_app_usage_error(cmd, "%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument", a);
        }
        if (rc) return rc;
    }
    return 0;
}

/* Best of the rounds of a task run, in us a task; *mean the mean. */
static int time_tasks(const options *o, qf_worker_kind kind, int chained, double wait_us, double *best, double *mean)
{
    qf_task_probe p = {.kind = kind, .chained = chained, .nbuffers = o->nbuffers, .ntasks = o->ntasks, .wait_us = wait_us};
    *best = *mean = 0.0;
    for (int r = 0; r < o->rounds; r++) {
        qf_task_probe_result res;
        if (qf_runtime_probe_tasks(&p, &res)) return QF_ERROR;
        double us = res.total_s / (double)o->ntasks * 1e6;
        if (r == 0 || us < *best) *best = us;
        *mean += us / o->rounds;
    }
    return QF_SUCCESS;
}

static int time_direct(const options *o, qf_worker_kind kind, int wait_each, double wait_us, double *best)
{
    for (int r = 0; r < o->rounds; r++) {
        double s;
        if (qf_direct_probe(kind, wait_each, o->ntasks, wait_us, &s)) return QF_ERROR;
        double us = s / (double)o->ntasks * 1e6;
        if (r == 0 || us < *best) *best = us;
    }
    return QF_SUCCESS;
}

static int run_kind(const options *o, qf_worker_kind kind)
{
    const int cuda = kind == QF_WORKER_CUDA;
    printf("\n%s workers (%d):\n", cuda ? "CUDA" : "CPU", cuda ? qf_runtime_ncuda_workers() : qf_runtime_ncpu_workers());
    printf("| kernel us | chained us a task (mean) | independent us a task | direct us | direct, wait us | direct / "
           "direct-wait | direct / chained | runtime's cost a chained task, us |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int w = 0; w < o->nwait; w++) {
        double wait = o->wait_us[w], chained, chained_mean, indep, indep_mean, direct = 0.0, direct_wait = 0.0;
        if (time_tasks(o, kind, 1, wait, &chained, &chained_mean) || time_tasks(o, kind, 0, wait, &indep, &indep_mean) ||
            time_direct(o, kind, 0, wait, &direct) || (cuda && time_direct(o, kind, 1, wait, &direct_wait)))
            return QF_ERROR;
        char waited[64] = "- | -";
        if (cuda) snprintf(waited, sizeof waited, "%.2f | %.3f", direct_wait, direct / direct_wait);
        printf("| %.1f | %.2f (%.2f) | %.2f | %.2f | %s | %.3f | %.2f |\n", wait, chained, chained_mean, indep, direct, waited,
               direct / chained, chained - direct);
        fflush(stdout);
    }
    return QF_SUCCESS;
}

int qf_bench_tasks(int argc, char **argv)
{
    if (qf_app_help_requested(argc, argv, 1, help)) return 0;
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (qf_app_start(&argc, &argv)) return qf_app_error();
    rc = qf_app_single_process("bench tasks");
    const int have[2] = {qf_runtime_ncpu_workers() > 0, qf_runtime_ncuda_workers() > 0};
    for (int k = 0; k < 2 && !rc; k++) {
        if (!o.kinds_given) o.kinds[k] = have[k];
        if (o.kinds[k] && !have[k])
            rc = qf_fail("bench tasks: --workers asks for %s workers, and none runs (--ncpu, --ncuda)", k ? "CUDA" : "CPU");
    }
    if (!rc) {
        printf("bench tasks   a task's cost in the runtime: %d tasks a measurement, %d buffers a task, best of %d rounds; "
               "scheduler %s, %d CPU and %d CUDA workers\n",
               o.ntasks, o.nbuffers, o.rounds, qf_runtime_sched_name(), qf_runtime_ncpu_workers(), qf_runtime_ncuda_workers());
        for (int k = 0; k < 2 && !rc; k++)
            if (o.kinds[k]) rc = run_kind(&o, (qf_worker_kind)k);
    }
    qf_app_stop();
    return rc ? qf_app_error() : 0;
}
