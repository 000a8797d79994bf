/* Trace files after a run with a trace folder: StarPU's FxT records become paje.trace (ViTE),
 * dag.dot and tasks.rec through StarPU's own converter, starpu_fxt_tool (run without a shell, so that
 * the folder's name is only a name), and the task colours StarPU 1.3.10 writes out of Paje's range
 * are mended. */
#include "quarkflow/qf_runtime.h"
#include "io_util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* starpu_fxt_tool: beside this program (a GPU pack), in StarPU's own bin folder, or (its bare name)
 * on PATH, which qf_run_program searches. */
static void find_fxt_tool(char *path, size_t len)
{
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k > 0) {
        self[k] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            snprintf(path, len, "%s/starpu_fxt_tool", self);
            if (access(path, X_OK) == 0) return;
        }
    }
    snprintf(path, len, "%s/starpu_fxt_tool", QF_STARPU_BINDIR);
    if (access(path, X_OK) == 0) return;
    snprintf(path, len, "starpu_fxt_tool");
}

static int is_fxt_record(const struct dirent *e) { return !strncmp(e->d_name, "prof_file_", strlen("prof_file_")); }

/* StarPU 1.3.10 writes a codelet's color (0xRRGGBB) into paje.trace as "R G B" in 0..255, where
 * Paje and ViTE read 0..1; the state definitions ("6" lines) are rescaled. The mended file replaces
 * the old one as every output file does (io_util.h): a trace folder may be shared, and a fixed
 * temporary name in it could be a planted link. */
static int fix_paje_colours(const char *paje)
{
    FILE *in = fopen(paje, "r");
    if (!in) return qf_fail("cannot read %s: %s", paje, strerror(errno));
    qf_io_output o = QF_IO_OUTPUT_INIT;
    int64_t token;
    int rc = qf_io_output_create(&o, paje, &token);
    char line[4096], chunk[1 << 16];
    size_t used = 0;
    uint64_t off = 0;
    while (!rc && fgets(line, sizeof line, in)) {
        const char *text = line;
        char fixed[sizeof line + 64];
        char *q = line[0] == '6' && line[1] == '\t' ? strchr(line, '"') : NULL;
        double r, g, b;
        if (q && sscanf(q, "\"%lf %lf %lf\"", &r, &g, &b) == 3 && (r > 1.0 || g > 1.0 || b > 1.0)) {
            *q = 0;
            snprintf(fixed, sizeof fixed, "%s\"%.6f %.6f %.6f\"\n", line, r / 255.0, g / 255.0, b / 255.0);
            text = fixed;
        }
        size_t len = strlen(text);
        if (used + len > sizeof chunk) {
            rc = qf_io_output_write_at(&o, off, chunk, used);
            off += used;
            used = 0;
        }
        memcpy(chunk + used, text, len);
        used += len;
    }
    if (!rc && ferror(in)) rc = qf_fail("reading %s failed", paje);
    fclose(in);
    rc = rc || qf_io_output_write_at(&o, off, chunk, used) || qf_io_output_finish(&o) || qf_io_output_commit(&o);
    if (rc) qf_io_output_abandon(&o);
    return rc ? QF_ERROR : QF_SUCCESS;
}

int qf_runtime_trace_convert(const char *dir)
{
    char tool[PATH_MAX + 32], log[PATH_MAX + 32], paje[PATH_MAX + 32];
    find_fxt_tool(tool, sizeof tool);
    /* the records in name order, as the shell's prof_file_* gave them */
    struct dirent **records;
    int n = scandir(dir, &records, is_fxt_record, alphasort);
    if (n < 0) return qf_fail("cannot read the trace folder %s (%s)", dir, strerror(errno));
    if (n == 0) {
        free(records);
        return qf_fail("no FxT records (prof_file_*) in %s: was StarPU built with FxT (quarkflow info says) and did "
                       "the run end normally?",
                       dir);
    }
    const char **argv = malloc(((size_t)n + 3) * sizeof *argv);
    qf_program_status status = QF_PROGRAM_FAILED;
    if (argv) {
        argv[0] = tool;
        argv[1] = "-i";
        for (int k = 0; k < n; k++) argv[k + 2] = records[k]->d_name;
        argv[n + 2] = NULL;
        snprintf(log, sizeof log, "%s/fxt_tool.log", dir);
        status = qf_run_program(argv, dir, log);
        free(argv);
    } else {
        qf_fail("out of host memory converting the FxT records of %s", dir);
    }
    for (int k = 0; k < n; k++) free(records[k]);
    free(records);
    if (status == QF_PROGRAM_NOT_FOUND)
        return qf_fail("FxT records in %s/prof_file_*; starpu_fxt_tool was not found: run it there (-i prof_file_*) to "
                       "make paje.trace for ViTE",
                       dir);
    if (status != QF_PROGRAM_OK) return qf_fail_context("starpu_fxt_tool failed on %s/prof_file_*", dir);
    snprintf(paje, sizeof paje, "%s/paje.trace", dir);
    if (fix_paje_colours(paje))
        return qf_fail_context("could not rescale the task colours of %s (ViTE may show them white)", paje);
    return QF_SUCCESS;
}
