/* Plots through gnuplot (app.h), for trace gantt and the benchmarks' --plot: gnuplot runs on a script
 * file without a shell, and every file name reaches the script quoted, so that no name can run as
 * gnuplot code. */
#include "app.h"

#include <ctype.h>
#include <limits.h>
#include <sys/stat.h>

int qf_app_gnuplot(const char *script, const char *picture)
{
    char arg[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(arg, sizeof arg, "%s%s", script[0] == '-' ? "./" : "", script); /* not an option of gnuplot's */
    snprintf(log, sizeof log, "%s.log", script);
    const char *argv[] = {"gnuplot", arg, NULL};
    qf_program_status status = qf_run_program(argv, NULL, log);
    if (status == QF_PROGRAM_NOT_FOUND)
        return qf_fail("gnuplot is not installed (Debian: apt-get install gnuplot-nox; tools/install-deps.sh does): "
                       "%s is the script it would run",
                       script);
    if (status != QF_PROGRAM_OK) return qf_fail_context("gnuplot failed on %s", script);
    struct stat st;
    if (stat(picture, &st) != 0 || st.st_size == 0) return qf_fail("gnuplot wrote no %s (see %s)", picture, log);
    return QF_SUCCESS;
}

FILE *qf_app_plot_data(const char *picture)
{
    char dat[PATH_MAX + 8];
    snprintf(dat, sizeof dat, "%s.dat", picture);
    FILE *f = fopen(dat, "w");
    if (!f) qf_fail("cannot write %s", dat);
    return f;
}

int qf_app_plot_script(const char *picture, const char *script)
{
    char dat[PATH_MAX + 8], gp[PATH_MAX + 8], picture_string[2 * PATH_MAX + 24], dat_string[2 * PATH_MAX + 24];
    snprintf(dat, sizeof dat, "%s.dat", picture);
    snprintf(gp, sizeof gp, "%s.gp", picture);
    if (qf_app_gnuplot_string(picture, picture_string, sizeof picture_string) ||
        qf_app_gnuplot_string(dat, dat_string, sizeof dat_string))
        return QF_ERROR;
    FILE *g = fopen(gp, "w");
    if (!g) return qf_fail("cannot write %s", gp);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    fprintf(g, script, picture_string, dat_string);
#pragma GCC diagnostic pop
    fclose(g);
    return qf_app_gnuplot(gp, picture);
}

int qf_app_gnuplot_string(const char *s, char *out, size_t size)
{
    size_t k = 0;
    out[k++] = '\'';
    for (const char *c = s; *c; c++) {
        if (iscntrl((unsigned char)*c))
            return qf_fail("the file name '%s' holds a control character, which a gnuplot script cannot hold: choose "
                           "another name",
                           s);
        if (k + 4 > size) return qf_fail("the file name '%.64s...' is too long for a gnuplot script", s);
        if (*c == '\'') out[k++] = '\'';
        out[k++] = *c;
    }
    out[k++] = '\'';
    out[k] = 0;
    return QF_SUCCESS;
}
