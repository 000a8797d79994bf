/* Gauge I/O against data written by other codes: reads every sample in DATA_DIR (shared/data) with
 * its reader and with format detection, and checks every fact that DATA_DIR/README.md lists for it
 * (MILC plaquettes, link traces, checksums, NERSC header facts, DDalphaAMG and Bridge++ plaquettes);
 * then writes NERSC (3x3 and two-row) and ILDG files in 32 and 64 bit and SciDAC colour vectors,
 * reads them back and demands bit-identical links (64 bit) or exactly the float-rounded input (32
 * bit), headers whose facts are those of the stored numbers, and the SciDAC checksums of the
 * MILC-written lat.sample.l4444 from our own ILDG copy of it. Formats without a sample are built from
 * the samples: little-endian NERSC (bytes reversed, CHECKSUM unchanged) and MILC with a site table.
 * Every file is also read in parts by several simulated readers (threads exchanging their checks,
 * as processes do through MPI): each part must hold exactly the whole read's links, every reader the
 * whole file's checksums and facts, and a corrupt file or one failing reader must fail them all with
 * the same message.
 * The writers must refuse non-SU(3), non-finite and unrepresentable input. The expected facts are
 * transcribed from README.md and the test confirms each transcription is still in README.md, so the
 * two cannot drift apart silently.
 *
 *   test_gauge_io DATA_DIR        one line per check, last line "N passed, M failed"; exit 1 on failure */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "quarkflow/qf_gauge_io.h"
#include "quarkflow/qf_lattice.h"
#include "io_util.h"
#include "su3.h"
#include "test_files.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int n_pass, n_fail;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok) n_pass++;
    else n_fail++;
    return ok;
}

/* Compares a computed number with one printed in README.md: half a unit of the last printed digit
 * plus `slack` (what the producing code may legitimately differ by; see each call). */
static int decimals(const char *s)
{
    const char *dot = strchr(s, '.');
    int d = 0;
    if (dot)
        for (const char *p = dot + 1; *p >= '0' && *p <= '9'; p++) d++;
    return d;
}

static void check_printed(const char *what, const char *file, double computed, const char *printed, double slack)
{
    double ref = strtod(printed, NULL);
    double tol = 0.5 * pow(10.0, -decimals(printed)) + slack;
    check(fabs(computed - ref) <= tol, "%s: %s computed %.17g, README %s (|diff| %.2g <= %.2g)", file, what, computed,
          printed, fabs(computed - ref), tol);
}

typedef struct {
    const char *file;
    qf_gauge_format format;
    int dims[4];
    int hint;                  /* the reader needs the dims (Bridge++) */
    int precision_bits, big_endian;
    const char *milc_space, *milc_time; /* MILC's printed plaquettes, Re Tr averaged, range [0,3] */
    const char *plaq;          /* printed plaquette in the file's own convention */
    double plaq_scale;         /* 3: range [0,3] (DDalphaAMG); 1: Re Tr / 3 */
    const char *link_trace;    /* Re Tr / 3 */
    const char *ck[2];         /* checksums as README prints them */
    double slack, trace_slack; /* how far the producer's plaquette and link trace may legitimately
                                  differ from ours */
} sample;

/* From DATA_DIR/README.md. Slack: MILC printed its numbers after computing them in double from the
 * very float values stored in the file, and DDalphaAMG and Bridge++ from the very doubles stored, so
 * only the summation order separates us (1e-12 is 1000x that). Bridge++ text holds 15 significant
 * digits, which moves a plaquette by < 1e-13. */
static const sample samples[] = {
    {"lat.sample.l8", QF_GAUGE_SCIDAC, {8, 8, 8, 8}, 0, 32, 1, "2.6203978710714737", "2.6214473754080179", NULL, 1,
     "0.96505885197378427", {"d2f7866d", "5f48ca3e"}, 1e-12, 1e-12},
    {"lat.sample.l4448", QF_GAUGE_MILC, {4, 4, 4, 8}, 0, 32, 1, "1.723748", "1.690586", NULL, 1, "0.06921659",
     {"13f3b413", "161f7dde"}, 1e-12, 1e-12},
    {"lat.sample.l4448.gf", QF_GAUGE_MILC, {4, 4, 4, 8}, 0, 32, 1, "1.7237483097967541", "1.6905860453290196", NULL, 1,
     "0.75146618382921793", {NULL, NULL}, 1e-12, 1e-12},
    {"lat.sample.l4444", QF_GAUGE_MILC, {4, 4, 4, 4}, 0, 32, 0, "1.794675", "1.774426", NULL, 1, NULL,
     {"2352c05", "d137321d"}, 1e-12, 1e-12},
    {"lat.sample.l4444.scidac", QF_GAUGE_SCIDAC, {4, 4, 4, 4}, 0, 32, 1, "1.794675", "1.774426", NULL, 1, NULL,
     {"37affb9c", "2fc07bbf"}, 1e-12, 1e-12},
    {"lat.sample.l4444.ildg", QF_GAUGE_ILDG, {4, 4, 4, 4}, 0, 32, 1, "1.794675", "1.774426", NULL, 1, NULL,
     {NULL, NULL}, 1e-12, 1e-12},
    {"lat.sample.l8888", QF_GAUGE_MILC, {8, 8, 8, 8}, 0, 32, 0, "1.779002", "1.782359", NULL, 1, NULL,
     {"4f9d000e", "8d72f72e"}, 1e-12, 1e-12},
    /* the NERSC header facts: 32-bit data whose writer (SZIN) measured before rounding to float, so
     * the numbers may move by up to 3e-7 (plaquette) and 3e-8 (link trace); see
     * qf_gio_fact_tolerance */
    {"t_nersc.cfg", QF_GAUGE_NERSC, {4, 4, 4, 4}, 0, 32, 1, NULL, NULL, "0.0382422893", 1, "0.4630322094",
     {"717938df", NULL}, 1e-6, 1e-7},
    {"conf_04040408.txt", QF_GAUGE_BRIDGE, {4, 4, 4, 8}, 1, 64, 0, NULL, NULL, "0.625129946974942", 1, NULL,
     {NULL, NULL}, 1e-12, 1e-12},
    {"4x4x4x4b6.0000id3n1", QF_GAUGE_DDALPHA, {4, 4, 4, 4}, 0, 64, 0, NULL, NULL, "1.786695869109205", 3, NULL,
     {NULL, NULL}, 1e-12, 1e-12},
    {"8x8x8x8b6.0000id3n1", QF_GAUGE_DDALPHA, {8, 8, 8, 8}, 0, 64, 0, NULL, NULL, "1.7772950976129867", 3, NULL,
     {NULL, NULL}, 1e-12, 1e-12},
};
#define NSAMPLES ((int)(sizeof samples / sizeof samples[0]))

static char *readme;

static void check_in_readme(const char *file, const char *fact)
{
    if (!fact) return;
    check(readme && strstr(readme, fact), "%s: fact '%s' is in README.md", file, fact);
}

static size_t volume(const int d[4]) { return (size_t)d[0] * d[1] * d[2] * d[3]; }

/* ---- reading in parts: threads stand in for processes ---- */

static const char *tmp_path(const char *name);

typedef struct {
    pthread_barrier_t barrier;
    unsigned char *slots;
} gather_shared;

typedef struct {
    gather_shared *shared;
    int rank;
    const char *path;
    qf_gauge_format format;
    const int *hint;
    qf_gauge_part part;
    double *links;
    qf_gauge_info info;
    int rc;
    char message[1024];
    /* writers: the whole field, from which each takes its part, and what to write */
    const double *whole;
    int spinor;    /* write a Dirac fermion (the first 24 reals of each site) instead of a gauge field */
    double plaquette;
    qf_gauge_write_options opt;
} part_reader;

/* MPI_Allgather between the threads: write the own slot, wait, copy all, wait (so that the next
 * exchange cannot overwrite a slot someone is still reading). */
static int thread_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    part_reader *r = ctx;
    memcpy(r->shared->slots + (size_t)r->rank * bytes, mine, bytes);
    pthread_barrier_wait(&r->shared->barrier);
    memcpy(all, r->shared->slots, (size_t)r->part.nreaders * bytes);
    pthread_barrier_wait(&r->shared->barrier);
    return QF_SUCCESS;
}

static void *part_reader_run(void *arg)
{
    part_reader *r = arg;
    if (r->whole) { /* a writer: its part of the whole field, then the common file */
        const qf_gauge_part *b = &r->part;
        int reals = r->spinor ? 24 : 72;
        size_t pv = (size_t)b->ext[0] * b->ext[1] * b->ext[2] * b->ext[3];
        double *mine = malloc(pv * (size_t)reals * sizeof *mine);
        for (size_t s = 0; s < pv; s++) {
            int x[4];
            qf_lex_coords((int64_t)s, b->ext, x);
            for (int mu = 0; mu < 4; mu++) x[mu] += b->lo[mu];
            memcpy(mine + s * (size_t)reals, r->whole + (size_t)qf_lex_index(x, r->info.dims) * 72, (size_t)reals * sizeof *mine);
        }
        r->rc = r->spinor ? qf_dirac_fermion_write_part(r->path, r->info.dims, mine, b, r->opt.precision_bits)
                          : qf_gauge_write_part(r->path, r->format, r->info.dims, mine, b, r->plaquette, &r->opt);
        free(mine);
    } else {
        r->rc = qf_gauge_read_part(r->path, r->format, r->hint, &r->part, &r->links, &r->info);
    }
    snprintf(r->message, sizeof r->message, "%s", r->rc ? qf_last_error() : "");
    return NULL;
}

/* Reads path with one reader per box of the grid procs (a cut at `cut` instead of the middle in
 * the directions where cut[mu] > 0, for unequal parts; bad_reader >= 0 gets a box outside the
 * lattice). Returns the number of readers; r[] receives their results. */
static int run_in_parts(const part_reader *job, const int dims[4], const int procs[4], const int cut[4], int bad_reader,
                        part_reader *r)
{
    int n = procs[0] * procs[1] * procs[2] * procs[3];
    gather_shared shared;
    shared.slots = malloc((size_t)n * 4096);
    pthread_barrier_init(&shared.barrier, NULL, (unsigned)n);
    pthread_t th[16];
    for (int k = 0; k < n; k++) {
        int c[4], rest = k;
        r[k] = *job;
        for (int mu = 0; mu < 4; mu++) {
            c[mu] = rest % procs[mu];
            rest /= procs[mu];
            int split = cut[mu] > 0 ? cut[mu] : dims[mu] / procs[mu];
            r[k].part.lo[mu] = procs[mu] == 1 ? 0 : c[mu] * split;
            r[k].part.ext[mu] = procs[mu] == 1 ? dims[mu] : c[mu] == 0 ? split : dims[mu] - split;
        }
        if (k == bad_reader) r[k].part.ext[0] = dims[0] + 1;
        r[k].part.nreaders = n;
        r[k].part.reader = k;
        r[k].part.allgather = thread_allgather;
        r[k].part.ctx = &r[k];
        r[k].shared = &shared;
        r[k].rank = k;
        pthread_create(&th[k], NULL, part_reader_run, &r[k]);
    }
    for (int k = 0; k < n; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&shared.barrier);
    free(shared.slots);
    return n;
}

static int read_in_parts(const char *path, qf_gauge_format format, const int *hint, const int dims[4],
                         const int procs[4], const int cut[4], int bad_reader, part_reader *r)
{
    part_reader job = {.path = path, .format = format, .hint = hint};
    return run_in_parts(&job, dims, procs, cut, bad_reader, r);
}

/* Writes u (dims, whole plaquette) in parts as format (bits, two_row; spinor: a Dirac fermion of the
 * first 24 reals a site) and requires the file to read back as the same write of the whole field does. */
static void check_write_parts(const char *label, const int dims[4], const double *u, double plaquette,
                              qf_gauge_format format, int bits, int two_row, int spinor)
{
    static const int grids[][4] = {{1, 1, 2, 2}, {2, 1, 1, 2}};
    char name[300];
    snprintf(name, sizeof name, "%s.parts.%s%d%s", label, spinor ? "fermion" : qf_gauge_format_name(format), bits,
             two_row ? "-2row" : "");
    const char *path = tmp_path(name), *whole_path = tmp_path("parts.whole");
    size_t vol = volume(dims);
    qf_gauge_write_options opt = {bits, two_row, "quarkflow-test"};
    double *spin = NULL;
    if (spinor) {
        spin = malloc(vol * 24 * sizeof *spin);
        for (size_t s = 0; s < vol; s++) memcpy(spin + 24 * s, u + 72 * s, 24 * sizeof *spin);
    }
    int rc = spinor ? qf_dirac_fermion_write(whole_path, dims, spin, bits) : qf_gauge_write(whole_path, format, dims, u, &opt);
    double *a = NULL;
    qf_gauge_info ia = {0};
    int ad[4], ab;
    if (!rc) rc = spinor ? qf_dirac_fermion_read(whole_path, dims, ad, &a, &ab) : qf_gauge_read(whole_path, format, NULL, &a, &ia);
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int cut[4] = {0, 0, 0, g == 1 ? 1 : 0};
        part_reader job = {.path = path, .format = format, .whole = u, .spinor = spinor, .plaquette = plaquette, .opt = opt};
        memcpy(job.info.dims, dims, sizeof job.info.dims);
        part_reader r[16];
        int n = run_in_parts(&job, dims, grids[g], cut, -1, r), ok = rc == QF_SUCCESS;
        for (int k = 0; k < n; k++) ok &= r[k].rc == QF_SUCCESS;
        double *b = NULL;
        qf_gauge_info ib = {0};
        int same = 0;
        if (ok) {
            int brc = spinor ? qf_dirac_fermion_read(path, dims, ad, &b, &ab) : qf_gauge_read(path, format, NULL, &b, &ib);
            same = brc == QF_SUCCESS && !memcmp(a, b, vol * (spinor ? 24 : 72) * sizeof *a) &&
                   ia.computed_checksum[0] == ib.computed_checksum[0] && ia.computed_checksum[1] == ib.computed_checksum[1];
            if (brc) printf("INFO: reading back: %s\n", qf_last_error());
        } else {
            printf("INFO: %s\n", rc ? qf_last_error() : r[0].message);
        }
        check(ok && same,
              "%s written by %d writers (grid %d %d %d %d%s) reads back as the whole field's write: the same numbers and "
              "checksums",
              name, n, grids[g][0], grids[g][1], grids[g][2], grids[g][3], g == 1 ? ", unequal t halves" : "");
        free(b);
    }
    free(a);
    free(spin);
}

/* Reads path in parts with several decompositions (halves in x: runs shorter than a row; quarters in
 * z and t; unequal halves; 16 parts) and compares every part with the whole read (u, whole). */
static void check_parts(const char *label, const char *path, qf_gauge_format format, const int *hint,
                        const double *u, const qf_gauge_info *whole)
{
    static const int grids[][4] = {{2, 1, 1, 1}, {1, 1, 2, 2}, {1, 1, 1, 2}, {2, 2, 2, 2}};
    const int *dims = whole->dims;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        const int *procs = grids[g];
        int cut[4] = {0, 0, 0, 0};
        if (g == 2) cut[3] = 1; /* t split as 1 + (T - 1) */
        part_reader r[16];
        int n = read_in_parts(path, format, hint, dims, procs, cut, -1, r);
        int ok = 1, same_links = 1, same_facts = 1;
        for (int k = 0; k < n; k++) {
            if (r[k].rc) {
                if (ok) printf("INFO: reader %d: %s\n", k, r[k].message);
                ok = 0;
                continue;
            }
            const qf_gauge_part *b = &r[k].part;
            size_t pv = (size_t)b->ext[0] * b->ext[1] * b->ext[2] * b->ext[3];
            for (size_t s = 0; s < pv && same_links; s++) {
                int x[4];
                qf_lex_coords((int64_t)s, b->ext, x);
                for (int mu = 0; mu < 4; mu++) x[mu] += b->lo[mu];
                same_links = !memcmp(r[k].links + s * 72, u + (size_t)qf_lex_index(x, dims) * 72, 72 * sizeof *u);
            }
            qf_gauge_info *i = &r[k].info;
            same_facts &= i->computed_checksum[0] == whole->computed_checksum[0] &&
                          i->computed_checksum[1] == whole->computed_checksum[1] &&
                          fabs(i->link_trace - whole->link_trace) <= 1e-14 &&
                          i->max_unitarity_deviation == whole->max_unitarity_deviation && isnan(i->plaquette) &&
                          qf_gauge_check_plaquette(i, whole->plaquette, whole->plaquette_space, whole->plaquette_time) ==
                              QF_SUCCESS;
            free(r[k].links);
        }
        check(ok && same_links && same_facts,
              "%s in %d parts (grid %d %d %d %d%s): every reader succeeds, holds exactly its box of the whole read, "
              "and finds the whole file's checksums, link trace and SU(3) deviation",
              label, n, procs[0], procs[1], procs[2], procs[3], g == 2 ? ", unequal t halves" : "");
    }
    /* one reader's own failure fails every reader */
    part_reader r[16];
    int procs[4] = {1, 1, 1, 2}, cut[4] = {0, 0, 0, 0};
    int n = read_in_parts(path, format, hint, dims, procs, cut, 1, r);
    int all_fail = 1;
    for (int k = 0; k < n; k++) {
        all_fail &= r[k].rc == QF_ERROR && strstr(r[k].message, "part 1 of 2") && strstr(r[k].message, "outside");
        free(r[k].links);
    }
    check(all_fail, "%s: a part outside the lattice on reader 1 fails both readers, naming part 1: %s", label,
          r[0].message);
}

/* A copy of path with one byte of its last site's record flipped, read in two parts: both readers
 * must fail with the same message containing `expect`. */
static void check_parts_corrupt(const char *label, const char *path, qf_gauge_format format, const int *hint,
                                const int dims[4], long record_bytes_from_end, const char *expect, const char *copy)
{
    FILE *in = fopen(path, "rb");
    FILE *out = fopen(copy, "wb");
    int c;
    long n = 0;
    while (in && out && (c = fgetc(in)) != EOF) {
        fputc(c, out);
        n++;
    }
    if (in) fclose(in);
    if (out) {
        fseek(out, n - record_bytes_from_end, SEEK_SET);
        fputc(0x5a, out);
        fclose(out);
    }
    part_reader r[16];
    int procs[4] = {1, 1, 1, 2}, cut[4] = {0, 0, 0, 0};
    int k, nr = read_in_parts(copy, format, hint, dims, procs, cut, -1, r);
    int same = 1;
    for (k = 0; k < nr; k++) {
        same &= r[k].rc == QF_ERROR && !strcmp(r[k].message, r[0].message) && strstr(r[k].message, expect);
        free(r[k].links);
    }
    check(same, "%s with a corrupt byte in the last part, read in 2 parts: both readers fail alike (%s)", label,
          r[0].message);
}

/* Reads one sample and checks its facts; returns the links (caller frees) or NULL. */
static double *check_sample(const char *dir, const sample *s, qf_gauge_info *info_out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, s->file);
    const int *hint = s->hint ? s->dims : NULL;
    double *u = NULL;
    qf_gauge_info info;
    int rc = qf_gauge_read(path, s->format, hint, &u, &info);
    if (!check(rc == QF_SUCCESS, "%s: read as %s%s%s", s->file, qf_gauge_format_name(s->format), rc ? ": " : "",
               rc ? qf_last_error() : ""))
        return NULL;
    check(info.format == s->format, "%s: info.format %s", s->file, qf_gauge_format_name(info.format));
    check(!memcmp(info.dims, s->dims, sizeof s->dims), "%s: dims %d %d %d %d, README %d %d %d %d", s->file, info.dims[0],
          info.dims[1], info.dims[2], info.dims[3], s->dims[0], s->dims[1], s->dims[2], s->dims[3]);
    check(info.precision_bits == s->precision_bits, "%s: precision %d bits, README %d", s->file, info.precision_bits,
          s->precision_bits);
    if (s->precision_bits != 64 || s->format == QF_GAUGE_DDALPHA)
        check(info.big_endian == s->big_endian, "%s: %s-endian as README says", s->file, info.big_endian ? "big" : "little");
    printf("INFO: %s: datatype '%s', plaquette (Re Tr/3) %.16f (space %.16f, time %.16f), link trace %.16f, "
           "max |U U^+ - 1| %.2g\n",
           s->file, info.datatype, info.plaquette, info.plaquette_space, info.plaquette_time, info.link_trace,
           info.max_unitarity_deviation);
    check(info.max_unitarity_deviation < (s->precision_bits == 32 ? 1e-5 : 1e-10), "%s: links in SU(3) (%.2g)", s->file,
          info.max_unitarity_deviation);
    check(!info.warning[0], "%s: no warning%s%s", s->file, info.warning[0] ? ": " : "", info.warning);
    /* plaquettes */
    if (s->milc_space) {
        check_in_readme(s->file, s->milc_space);
        check_in_readme(s->file, s->milc_time);
        check_printed("MILC spatial plaquette (3 x Re Tr/3)", s->file, 3.0 * info.plaquette_space, s->milc_space, s->slack);
        check_printed("MILC temporal plaquette (3 x Re Tr/3)", s->file, 3.0 * info.plaquette_time, s->milc_time, s->slack);
    }
    if (s->plaq) {
        check_in_readme(s->file, s->plaq);
        check_printed("plaquette", s->file, s->plaq_scale * info.plaquette, s->plaq, s->slack);
        if (info.has_plaquette)
            check(fabs(s->plaq_scale * info.stored_plaquette - strtod(s->plaq, NULL)) <=
                      0.5 * pow(10.0, -decimals(s->plaq)) + 1e-15,
                  "%s: plaquette stored in the file %.17g equals README %s", s->file, s->plaq_scale * info.stored_plaquette,
                  s->plaq);
    }
    if (s->format == QF_GAUGE_NERSC || s->format == QF_GAUGE_DDALPHA)
        check(info.has_plaquette, "%s: the file's stored plaquette was found and verified", s->file);
    if (s->link_trace) {
        check_in_readme(s->file, s->link_trace);
        check_printed("link trace (Re Tr/3)", s->file, info.link_trace, s->link_trace, s->trace_slack);
        if (info.has_link_trace)
            check(info.stored_link_trace == strtod(s->link_trace, NULL), "%s: LINK_TRACE in the header %.10f equals README %s",
                  s->file, info.stored_link_trace, s->link_trace);
    }
    /* checksums */
    int nck = s->ck[1] ? 2 : s->ck[0] ? 1 : 0;
    if (nck) {
        check(info.has_checksum == nck, "%s: the file carries %d checksum(s)", s->file, info.has_checksum);
        for (int i = 0; i < nck; i++) {
            check_in_readme(s->file, s->ck[i]);
            uint32_t want = (uint32_t)strtoul(s->ck[i], NULL, 16);
            check(info.stored_checksum[i] == want && info.computed_checksum[i] == want,
                  "%s: checksum %d stored %x, computed %x, README %s", s->file, i, info.stored_checksum[i],
                  info.computed_checksum[i], s->ck[i]);
        }
    } else if (info.has_checksum) {
        for (int i = 0; i < info.has_checksum; i++)
            check(info.stored_checksum[i] == info.computed_checksum[i], "%s: checksum %d stored %x = computed %x", s->file, i,
                  info.stored_checksum[i], info.computed_checksum[i]);
    }
    if (s->format == QF_GAUGE_NERSC) {
        check(!strcmp(info.datatype, "4D_SU3_GAUGE"), "%s: DATATYPE %s (two rows stored)", s->file, info.datatype);
        check_in_readme(s->file, "IEEE32BIG");
    }
    /* detection from content */
    double *v = NULL;
    qf_gauge_info ia;
    rc = qf_gauge_read(path, QF_GAUGE_AUTO, hint, &v, &ia);
    check(rc == QF_SUCCESS && ia.format == s->format, "%s: auto-detection picks %s (%s)", s->file,
          rc == QF_SUCCESS ? qf_gauge_format_name(ia.format) : "nothing", rc == QF_SUCCESS ? "ok" : qf_last_error());
    if (rc == QF_SUCCESS)
        check(!memcmp(u, v, volume(s->dims) * 72 * sizeof *u), "%s: auto-detected read gives the same links", s->file);
    free(v);
    check_parts(s->file, path, s->format, hint, u, &info);
    if (info_out) *info_out = info;
    return u;
}

/* ---- round trips ---- */

static char tmpdir[4096];
static int ntmp;
static char tmpfiles[160][sizeof tmpdir + 300];

static const char *tmp_path(const char *name)
{
    if (ntmp == 160) {
        fprintf(stderr, "test_gauge_io: more than 160 temporary files\n");
        exit(2);
    }
    snprintf(tmpfiles[ntmp], sizeof tmpfiles[ntmp], "%s/%.256s", tmpdir, name);
    return tmpfiles[ntmp++];
}

/* (double)(float)x through memory: GCC 12.2 -O2 drops the round trip when it is written inline on
 * qf_su3 members (see round_to_float in runtime/gauge_io.c). */
static double round_to_float(double x)
{
    volatile float f = (float)x;
    return f;
}

/* What a reader must return after a write: float-rounded in 32 bit, row 3 rebuilt for two-row. */
static double *expected_after_write(const int dims[4], const double *u, int bits, int two_row)
{
    size_t n = volume(dims) * 4;
    double *e = malloc(n * 18 * sizeof *e);
    for (size_t k = 0; k < n; k++) {
        qf_su3 m = qf_su3_load(u, QF_DOUBLE, k);
        if (bits == 32)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) m.e[i][j] = qf_cmake(round_to_float(m.e[i][j].re), round_to_float(m.e[i][j].im));
        if (two_row) qf_su3_complete_row3(&m);
        qf_su3_store(e, QF_DOUBLE, k, &m);
    }
    return e;
}

static void round_trip(const char *label, const int dims[4], const double *u, qf_gauge_format fmt, int bits, int two_row)
{
    char name[256];
    snprintf(name, sizeof name, "%s.%s%d%s", label, qf_gauge_format_name(fmt), bits, two_row ? "-2row" : "");
    const char *path = tmp_path(name);
    qf_gauge_write_options opt = {bits, two_row, "quarkflow-test"};
    int rc = qf_gauge_write(path, fmt, dims, u, &opt);
    if (!check(rc == QF_SUCCESS, "write %s (%s, %d bit%s)%s%s", name, qf_gauge_format_name(fmt), bits,
               two_row ? ", two rows" : "", rc ? ": " : "", rc ? qf_last_error() : ""))
        return;
    double *v = NULL;
    qf_gauge_info info;
    rc = qf_gauge_read(path, QF_GAUGE_AUTO, NULL, &v, &info);
    if (!check(rc == QF_SUCCESS, "read back %s%s%s", name, rc ? ": " : "", rc ? qf_last_error() : "")) return;
    check(info.format == fmt && info.precision_bits == bits && !memcmp(info.dims, dims, 4 * sizeof(int)),
          "%s: detected as %s, %d bit, %dx%dx%dx%d", name, qf_gauge_format_name(info.format), info.precision_bits,
          info.dims[0], info.dims[1], info.dims[2], info.dims[3]);
    if (fmt == QF_GAUGE_NERSC) {
        check(!strcmp(info.datatype, two_row ? "4D_SU3_GAUGE" : "4D_SU3_GAUGE_3x3") && info.has_plaquette &&
                  info.has_link_trace && info.has_checksum == 1,
              "%s: header has DATATYPE %s, PLAQUETTE, LINK_TRACE and CHECKSUM", name, info.datatype);
        /* the writer measures the numbers as stored (rounded, row 3 rebuilt) with the reader's own
         * loop, so only the 15 printed decimals separate the two */
        double dp = fabs(info.stored_plaquette - info.plaquette), dt = fabs(info.stored_link_trace - info.link_trace);
        check(dp <= 1e-15 && dt <= 1e-15, "%s: PLAQUETTE and LINK_TRACE are those of the stored numbers (|diff| %.2g, %.2g "
              "<= 1e-15)", name, dp, dt);
    }
    else
        check(info.has_checksum == 2, "%s: SciDAC checksum record present and verified (%x %x)", name,
              info.stored_checksum[0], info.stored_checksum[1]);
    double *e = expected_after_write(dims, u, bits, two_row);
    size_t n = volume(dims) * 72, bad = 0;
    for (size_t k = 0; k < n; k++) bad += memcmp(&e[k], &v[k], sizeof(double)) != 0;
    check(bad == 0, "%s: read back bit-identical to the %sinput%s (%zu of %zu numbers differ)", name,
          bits == 32 ? "float-rounded " : "", two_row ? " with row 3 rebuilt" : "", bad, n);
    if (bits == 64 && !two_row) check(!memcmp(u, v, n * sizeof *u), "%s: identical to the input itself", name);
    check_parts(name, path, fmt, NULL, v, &info);
    check_write_parts(label, dims, u, info.plaquette, fmt, bits, two_row, 0);
    if (fmt == QF_GAUGE_ILDG) check_write_parts(label, dims, u, info.plaquette, fmt, bits, 0, 1);
    free(e);
    free(v);
}

static void vector_round_trip(const char *label, const int dims[4], const double *vec, int bits)
{
    char name[256];
    snprintf(name, sizeof name, "%s.vec%d", label, bits);
    const char *path = tmp_path(name);
    int rc = qf_colour_vector_write(path, dims, vec, bits);
    if (!check(rc == QF_SUCCESS, "write colour vector %s%s%s", name, rc ? ": " : "", rc ? qf_last_error() : "")) return;
    int d[4], pb;
    double *w = NULL;
    rc = qf_colour_vector_read(path, NULL, d, &w, &pb);
    if (!check(rc == QF_SUCCESS, "read back %s%s%s", name, rc ? ": " : "", rc ? qf_last_error() : "")) return;
    check(pb == bits && !memcmp(d, dims, sizeof d), "%s: %d bit, %dx%dx%dx%d", name, pb, d[0], d[1], d[2], d[3]);
    size_t n = volume(dims) * 6, bad = 0;
    for (size_t k = 0; k < n; k++) {
        double want = bits == 32 ? round_to_float(vec[k]) : vec[k];
        bad += memcmp(&want, &w[k], sizeof want) != 0;
    }
    check(bad == 0, "%s: read back bit-identical to the %sinput (%zu of %zu differ)", name, bits == 32 ? "float-rounded " : "",
          bad, n);
    free(w);
}

/* ---- extents a format cannot verify ---- */

/* Replaces the first `from` in b by `to`, of the same length; 0 if absent. */
static int patch(unsigned char *b, size_t n, const char *from, const char *to)
{
    size_t len = strlen(from);
    for (size_t i = 0; i + len <= n; i++)
        if (!memcmp(b + i, from, len)) {
            memcpy(b + i, to, len);
            return 1;
        }
    return 0;
}

/* Reads path (extents `hint` for Bridge++ text) and requires success with the 8 4 4 4 extents it
 * claims, a plaquette of random links, and a warning that names the extents and what the format
 * (`format_words`) cannot verify. */
static void check_permuted_read(const char *label, const char *path, const int *hint, const char *format_words)
{
    double *v = NULL;
    qf_gauge_info info;
    int rc = qf_gauge_read(path, QF_GAUGE_AUTO, hint, &v, &info);
    check(rc == QF_SUCCESS && info.dims[0] == 8 && info.dims[3] == 4 && fabs(info.plaquette) < 0.05 &&
              strstr(info.warning, "are the extents 8 4 4 4 right?") && strstr(info.warning, format_words),
          "%s, read as 8 4 4 4: passes the format's checks, but its plaquette %.4f draws a warning: %s", label,
          info.plaquette, rc ? qf_last_error() : info.warning[0] ? info.warning : "(none)");
    free(v);
}

/* A 4 4 4 8 field read as 8 4 4 4 in every format that cannot tell (MILC, ILDG and Bridge++ text):
 * the sizes and checksums agree, and only the plaquette shows the damage. */
static void check_permuted_extents(const char *dir, const double *l4448)
{
    char path[4096];
    size_t n;
    snprintf(path, sizeof path, "%s/lat.sample.l4448", dir);
    unsigned char *b = qf_test_read_file(path, &n);
    if (check(n == 96 + 512 * 288, "lat.sample.l4448 loaded (%zu bytes)", n)) {
        qf_io_put_u32(b + 4, 8, 1); /* big-endian dims x y z t at bytes 4..19 */
        qf_io_put_u32(b + 16, 4, 1);
        const char *p = tmp_path("l4448.as8444.milc");
        qf_test_write_file(p, b, n);
        check_permuted_read("lat.sample.l4448 (MILC)", p, NULL, "MILC v5 file's size and checksums do not depend");
    }
    free(b);

    const int dims[4] = {4, 4, 4, 8};
    qf_gauge_write_options opt = {32, 0, NULL}; /* MILC's links are SU(3) to float precision only */
    const char *p = tmp_path("l4448.as8444.ildg");
    b = qf_gauge_write(p, QF_GAUGE_ILDG, dims, l4448, &opt) == QF_SUCCESS ? qf_test_read_file(p, &n) : NULL;
    if (check(b && patch(b, n, "<dims>4 4 4 8 </dims>", "<dims>8 4 4 4 </dims>") && patch(b, n, "<lx>4</lx>", "<lx>8</lx>") &&
                  patch(b, n, "<lt>8</lt>", "<lt>4</lt>"),
              "lat.sample.l4448 written as ILDG, its extents rewritten as 8 4 4 4")) {
        /* quarkflow's own file stores its plaquette, which refuses the permuted read */
        qf_test_write_file(p, b, n);
        double *v = NULL;
        qf_gauge_info info;
        check(qf_gauge_read(p, QF_GAUGE_AUTO, NULL, &v, &info) == QF_ERROR && strstr(qf_last_error(), "stored plaquette"),
              "quarkflow's ILDG file read as 8 4 4 4: its stored plaquette refuses it: %s", qf_last_error());
        free(v);
        /* another writer's file (no <creator>quarkflow</creator>) has no plaquette to check: a warning */
        if (check(patch(b, n, "<creator>quarkflow</creator>", "<creator>elsewhere</creator>"), "creator rewritten")) {
            qf_test_write_file(p, b, n);
            check_permuted_read("lat.sample.l4448 (ILDG)", p, NULL, "LIME file's record lengths and SciDAC checksums");
        }
    }
    free(b);
    /* quarkflow's ILDG file with its stored plaquette changed or damaged */
    b = qf_gauge_write(p, QF_GAUGE_ILDG, dims, l4448, &opt) == QF_SUCCESS ? qf_test_read_file(p, &n) : NULL;
    /* the sample's plaquette is 0.569...: 0.669 is far off, x.669 no number */
    if (check(b && patch(b, n, "<plaquette>0.5", "<plaquette>0.6"), "quarkflow's ILDG file stores its plaquette 0.5...")) {
        qf_test_write_file(p, b, n);
        double *v = NULL;
        qf_gauge_info info;
        check(qf_gauge_read(p, QF_GAUGE_AUTO, NULL, &v, &info) == QF_ERROR && strstr(qf_last_error(), "stored plaquette"),
              "a changed stored plaquette in quarkflow's ILDG file is refused: %s", qf_last_error());
        free(v);
        v = NULL;
        check(patch(b, n, "<plaquette>0.6", "<plaquette>x.6"), "plaquette damaged");
        qf_test_write_file(p, b, n);
        check(qf_gauge_read(p, QF_GAUGE_AUTO, NULL, &v, &info) == QF_ERROR && strstr(qf_last_error(), "not a number"),
              "a damaged stored plaquette in quarkflow's ILDG file is refused: %s", qf_last_error());
        free(v);
    }
    free(b);

    snprintf(path, sizeof path, "%s/conf_04040408.txt", dir);
    const int hint[4] = {8, 4, 4, 4};
    check_permuted_read("conf_04040408.txt (Bridge++)", path, hint, "Bridge++ text file has no header");
}

/* ---- output files ---- */

/* Names in the temporary folder that a writer's temporary file would have (NAME.tmp-N). */
static int count_temporaries(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) n += strstr(e->d_name, ".tmp-") != NULL;
    if (d) closedir(d);
    return n;
}

static void put_text(const char *path, const char *text, mode_t mode)
{
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
    chmod(path, mode);
}

/* Whether the file holds exactly text. */
static int holds_text(const char *path, const char *text)
{
    char *s = (char *)qf_test_read_file(path, NULL);
    int same = s && !strcmp(s, text);
    free(s);
    return same;
}

/* A lone writer that plays writer 0 of two: the other writer agrees with everything. The third call
 * comes once the temporary file is complete, before its rename: there the process gets the signal. */
static int interrupt_signal, allgather_calls;

static int lone_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    (void)ctx;
    memcpy(all, mine, bytes);
    memcpy((char *)all + bytes, mine, bytes);
    if (++allgather_calls == 3) raise(interrupt_signal);
    return QF_SUCCESS;
}

/* The writers' temporary files and targets: a symlink planted at the first temporary name is not
 * followed, a write-protected target or a directory is refused and left alone, an existing target
 * keeps its mode, and neither a failed nor an interrupted write leaves a temporary file. */
static void check_output_files(const int dims[4], const double *u)
{
    qf_gauge_write_options opt = {64, 0, NULL};
    double *v = NULL;
    qf_gauge_info info;

    const char *target = tmp_path("planted.nersc"), *victim = tmp_path("victim.txt");
    char name[64];
    snprintf(name, sizeof name, "planted.nersc.tmp-%lld", (long long)getpid());
    const char *planted = tmp_path(name);
    put_text(victim, "precious\n", 0644);
    int rc = symlink(victim, planted) == 0 ? qf_gauge_write(target, QF_GAUGE_NERSC, dims, u, &opt) : QF_ERROR;
    struct stat st;
    check(rc == QF_SUCCESS && holds_text(victim, "precious\n") && lstat(planted, &st) == 0 && S_ISLNK(st.st_mode) &&
              qf_gauge_read(target, QF_GAUGE_NERSC, NULL, &v, &info) == QF_SUCCESS,
          "a symlink planted at the temporary name %s is not followed: the file it points to is unchanged, the link "
          "is left alone and the output reads back%s%s",
          name, rc ? ": " : "", rc ? qf_last_error() : "");
    free(v);
    unlink(planted);

    const char *protected_target = tmp_path("protected.nersc");
    put_text(protected_target, "old\n", 0444);
    rc = qf_gauge_write(protected_target, QF_GAUGE_NERSC, dims, u, &opt);
    check(rc == QF_ERROR && strstr(qf_last_error(), "protected.nersc exists and is write-protected (mode 0444)") &&
              holds_text(protected_target, "old\n") && count_temporaries() == 0,
          "a write-protected target is refused and left as it was: %s", qf_last_error());

    const char *folder = tmp_path("folder.nersc");
    rc = mkdir(folder, 0755) == 0 ? qf_gauge_write(folder, QF_GAUGE_NERSC, dims, u, &opt) : QF_SUCCESS;
    check(rc == QF_ERROR && strstr(qf_last_error(), "folder.nersc is a directory, not a regular file") &&
              count_temporaries() == 0,
          "a directory as the output is refused: %s", qf_last_error());
    rmdir(folder);

    mode_t old_umask = umask(022);
    const char *kept = tmp_path("mode.nersc");
    put_text(kept, "old\n", 0640);
    rc = qf_gauge_write(kept, QF_GAUGE_NERSC, dims, u, &opt);
    if (stat(kept, &st) != 0) st.st_mode = 0;
    check(rc == QF_SUCCESS && (st.st_mode & 07777) == 0640,
          "a replaced target keeps its mode 0640 (now %04o; a new file would get 0644 under umask 022)",
          (unsigned)(st.st_mode & 07777));
    umask(old_umask);

    /* a file size limit makes the writes fail once the temporary file exists */
    struct rlimit limit, small;
    fflush(stdout);
    getrlimit(RLIMIT_FSIZE, &limit);
    small = limit;
    small.rlim_cur = 20000;
    signal(SIGXFSZ, SIG_IGN);
    rc = setrlimit(RLIMIT_FSIZE, &small) == 0 ? qf_gauge_write(tmp_path("too-large.nersc"), QF_GAUGE_NERSC, dims, u, &opt)
                                               : QF_SUCCESS;
    setrlimit(RLIMIT_FSIZE, &limit);
    signal(SIGXFSZ, SIG_DFL);
    check(rc == QF_ERROR && strstr(qf_last_error(), "File too large") && count_temporaries() == 0 &&
              access(tmp_path("too-large.nersc"), F_OK) != 0,
          "a write that fails midway leaves neither the file nor a temporary one: %s", qf_last_error());

    /* a signal that ends the process during the write removes the temporary file */
    static const int signals[2] = {SIGTERM, SIGINT};
    for (int k = 0; k < 2; k++) {
        const char *p = tmp_path(k ? "interrupted-int.nersc" : "interrupted-term.nersc");
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            signal(signals[k], SIG_DFL); /* as in a foreground process, whatever started the test */
            interrupt_signal = signals[k];
            qf_gauge_part part = {.nreaders = 2, .reader = 0, .allgather = lone_allgather};
            qf_gauge_write_part(p, QF_GAUGE_NERSC, dims, u, &part, 0.5, &opt);
            _exit(0); /* the signal did not end the write */
        }
        int status = 0;
        waitpid(child, &status, 0);
        check(WIFSIGNALED(status) && WTERMSIG(status) == signals[k] && access(p, F_OK) != 0 && count_temporaries() == 0,
              "%s during a write ends the process as before (%s %d) and leaves no temporary file (%d left)",
              k ? "SIGINT" : "SIGTERM", WIFSIGNALED(status) ? "signal" : "exit status",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), count_temporaries());
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", dir);
    readme = (char *)qf_test_read_file(path, NULL);
    check(readme != NULL, "README.md in %s is readable (the facts below are transcribed from it)", dir);

    double *field[NSAMPLES] = {0};
    qf_gauge_info infos[NSAMPLES];
    for (int i = 0; i < NSAMPLES; i++) field[i] = check_sample(dir, &samples[i], &infos[i]);

    /* lat.sample.l4444, .scidac and .ildg hold the same field: same numbers, whatever the container */
    int i_milc = 3, i_scidac = 4, i_ildg = 5;
    if (field[i_milc] && field[i_scidac] && field[i_ildg]) {
        size_t n = 256 * 72 * sizeof(double);
        check(!memcmp(field[i_milc], field[i_scidac], n), "lat.sample.l4444 (MILC, little-endian) and .scidac (big-endian) "
                                                          "hold bit-identical links");
        check(!memcmp(field[i_milc], field[i_ildg], n), "lat.sample.l4444 (MILC) and .ildg hold bit-identical links");
    }

    /* CRC-32 as SciDAC uses it: the standard check value of "123456789" */
    check(qf_io_crc32(0, "123456789", 9) == 0xcbf43926u, "CRC-32 of \"123456789\" is cbf43926 (IEEE check value)");

    /* the colour vector */
    snprintf(path, sizeof path, "%s/ksvector.src.sample.l8", dir);
    int vd[4], vbits = 0;
    double *vec = NULL;
    int rc = qf_colour_vector_read(path, NULL, vd, &vec, &vbits);
    check(rc == QF_SUCCESS, "ksvector.src.sample.l8: read as a SciDAC colour vector, checksum verified%s%s", rc ? ": " : "",
          rc ? qf_last_error() : "");
    if (rc == QF_SUCCESS) {
        check(vd[0] == 8 && vd[1] == 8 && vd[2] == 8 && vd[3] == 8 && vbits == 32,
              "ksvector.src.sample.l8: 8x8x8x8, 32 bit as README says (%dx%dx%dx%d, %d bit)", vd[0], vd[1], vd[2], vd[3], vbits);
        double norm = 0.0;
        for (size_t k = 0; k < 4096 * 6; k++) norm += vec[k] * vec[k];
        check(norm > 0.0 && isfinite(norm), "ksvector.src.sample.l8: finite, non-zero source (|v|^2 = %.6g)", norm);
        int hint[4] = {8, 8, 8, 8};
        double *w = NULL;
        check(qf_colour_vector_read(path, hint, vd, &w, NULL) == QF_SUCCESS, "ksvector.src.sample.l8: read with matching "
                                                                            "dims 8 8 8 8");
        free(w);
    }

    /* round trips */
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_gauge_io.XXXXXX", base && *base ? base : "/tmp");
    if (!check(mkdtemp(tmpdir) != NULL, "temporary folder %s", tmpdir)) goto done;
    /* DDalphaAMG 4^4 and Bridge++ 4x4x4x8 are genuine double-precision fields; 4x4x4x8 also catches
     * a swapped axis. lat.sample.l4444 is float-exact, so its 32-bit ILDG copy must reproduce the
     * sample's own SciDAC checksums. */
    const int src[2] = {9, 8};
    for (int k = 0; k < 2; k++) {
        const sample *s = &samples[src[k]];
        if (!field[src[k]]) continue;
        for (int bits = 32; bits <= 64; bits += 32) {
            round_trip(s->file, s->dims, field[src[k]], QF_GAUGE_NERSC, bits, 0);
            round_trip(s->file, s->dims, field[src[k]], QF_GAUGE_NERSC, bits, 1);
            round_trip(s->file, s->dims, field[src[k]], QF_GAUGE_ILDG, bits, 0);
        }
    }
    /* NERSC little-endian: the files just written with every number byte-reversed and FLOATING_POINT
     * changed must read the same links with the CHECKSUM untouched, since NERSC sums the 32-bit words
     * as numbers in the file's own byte order (for doubles: both halves, in either order). */
    {
        static const char *const names[4] = {"4x4x4x4b6.0000id3n1.nersc64", "4x4x4x4b6.0000id3n1.nersc32-2row",
                                             "conf_04040408.txt.nersc64-2row", "conf_04040408.txt.nersc32"};
        for (int k = 0; k < 4; k++) {
            char big[sizeof tmpdir + 300];
            snprintf(big, sizeof big, "%s/%s", tmpdir, names[k]);
            char *text = (char *)qf_test_read_file(big, NULL);
            if (!check(text != NULL, "%s written above", names[k])) continue;
            FILE *fp = fopen(big, "rb");
            fseek(fp, 0, SEEK_END);
            size_t n = (size_t)ftell(fp);
            fclose(fp);
            char *end = strstr(text, "END_HEADER\n"), *fpkey = strstr(text, "FLOATING_POINT = IEEE");
            size_t data = (size_t)(end - text) + 11;
            int w = fpkey[21] == '6' ? 8 : 4;
            const char *little = tmp_path(k < 2 ? "nersc-little-a" : "nersc-little-b");
            FILE *o = fopen(little, "wb");
            fwrite(text, 1, (size_t)(fpkey - text) + 23, o); /* up to "IEEE32"/"IEEE64" */
            fputs("LITTLE", o);
            fwrite(fpkey + 26, 1, data - (size_t)(fpkey + 26 - text), o); /* after "BIG" */
            for (size_t i = data; i + (size_t)w <= n; i += (size_t)w)
                for (int b = w - 1; b >= 0; b--) fputc(text[i + (size_t)b], o);
            fclose(o);
            double *a = NULL, *b = NULL;
            qf_gauge_info ia, ib;
            int ra = qf_gauge_read(big, QF_GAUGE_NERSC, NULL, &a, &ia);
            int rb = qf_gauge_read(little, QF_GAUGE_AUTO, NULL, &b, &ib);
            check(ra == QF_SUCCESS && rb == QF_SUCCESS && !ib.big_endian && ib.stored_checksum[0] == ia.stored_checksum[0] &&
                      !memcmp(a, b, volume(ia.dims) * 72 * sizeof *a),
                  "%s as IEEE%dLITTLE: same links, same CHECKSUM %08x%s%s", names[k], 8 * w, ib.stored_checksum[0],
                  rb ? ": " : "", rb ? qf_last_error() : "");
            free(a);
            free(b);
            free(text);
        }
    }
    /* corrupt data read in parts: every reader fails with the same message */
    {
        char path[4096];
        snprintf(path, sizeof path, "%s/lat.sample.l4448", dir);
        check_parts_corrupt("lat.sample.l4448", path, QF_GAUGE_MILC, NULL, samples[1].dims, 5, "checksum mismatch",
                            tmp_path("l4448.corrupt"));
        snprintf(path, sizeof path, "%s/t_nersc.cfg", dir);
        check_parts_corrupt("t_nersc.cfg", path, QF_GAUGE_NERSC, NULL, samples[7].dims, 5, "checksum mismatch",
                            tmp_path("t_nersc.corrupt"));
        /* DDalphaAMG has no checksum: the last byte is the sign and exponent of the last number */
        snprintf(path, sizeof path, "%s/4x4x4x4b6.0000id3n1", dir);
        check_parts_corrupt("4x4x4x4b6.0000id3n1", path, QF_GAUGE_DDALPHA, NULL, samples[9].dims, 1, "not in SU(3)",
                            tmp_path("ddalpha.corrupt"));
    }
    if (field[i_milc]) {
        const char *p = tmp_path("l4444.ildg32");
        qf_gauge_write_options opt = {32, 0, NULL};
        double *v = NULL;
        qf_gauge_info info;
        if (check(qf_gauge_write(p, QF_GAUGE_ILDG, samples[i_milc].dims, field[i_milc], &opt) == QF_SUCCESS,
                  "write lat.sample.l4444 as 32-bit ILDG") &&
            check(qf_gauge_read(p, QF_GAUGE_ILDG, NULL, &v, &info) == QF_SUCCESS, "read it back"))
            check(info.stored_checksum[0] == 0x37affb9cu && info.stored_checksum[1] == 0x2fc07bbfu,
                  "our ILDG copy of lat.sample.l4444 carries the SciDAC checksums of the MILC-written one: %x %x "
                  "(README 37affb9c 2fc07bbf)",
                  info.stored_checksum[0], info.stored_checksum[1]);
        free(v);
    }
    if (vec) {
        vector_round_trip("ksvector", vd, vec, 32);
        vector_round_trip("ksvector", vd, vec, 64);
        /* a genuinely double vector: the first row of the DDalphaAMG links at each site */
        if (field[9]) {
            double *dv = malloc(256 * 6 * sizeof *dv);
            for (size_t k = 0; k < 256; k++) memcpy(dv + 6 * k, field[9] + 72 * k, 6 * sizeof *dv);
            vector_round_trip("ddalpha-row", samples[9].dims, dv, 64);
            vector_round_trip("ddalpha-row", samples[9].dims, dv, 32);
            free(dv);
        }
    }

    /* MILC's other site order: order = 1 puts a table of V site indices after the 88-byte header
     * and the records in table order (MILC io_lat4.c r_serial). No sample has one, so build one from
     * lat.sample.l4448 with the sites permuted, checksums over the words in file order. */
    if (field[1]) {
        snprintf(path, sizeof path, "%s/lat.sample.l4448", dir);
        FILE *fp = fopen(path, "rb");
        size_t vol = 512, rec = 288, n = 96 + vol * rec;
        unsigned char *in = malloc(n), *out = malloc(88 + 4 * vol + 8 + vol * rec);
        if (fp && fread(in, 1, n, fp) == n) {
            memcpy(out, in, 88);
            qf_io_put_u32(out + 84, 1, 1);
            unsigned char *data = out + 88 + 4 * vol + 8;
            for (size_t i = 0; i < vol; i++) {
                size_t site = (i * 7 + 3) % vol; /* 7 is prime to 512: a permutation */
                qf_io_put_u32(out + 88 + 4 * i, (uint32_t)site, 1);
                memcpy(data + i * rec, in + 96 + site * rec, rec);
            }
            qf_milc_sum sum = {0, 0};
            qf_io_milc_checksum_add(&sum, data, vol * rec / 4, 0, 1);
            qf_io_put_u32(out + 88 + 4 * vol, sum.sum29, 1);
            qf_io_put_u32(out + 88 + 4 * vol + 4, sum.sum31, 1);
            const char *p = tmp_path("l4448.sitetable");
            FILE *o = fopen(p, "wb");
            if (o) {
                fwrite(out, 1, 88 + 4 * vol + 8 + vol * rec, o);
                fclose(o);
            }
            double *v = NULL;
            qf_gauge_info info;
            rc = qf_gauge_read(p, QF_GAUGE_AUTO, NULL, &v, &info);
            check(rc == QF_SUCCESS && !memcmp(v, field[1], vol * 72 * sizeof *v),
                  "MILC v5 with a site table (order 1, sites permuted) reads the same links as lat.sample.l4448%s%s",
                  rc ? ": " : "", rc ? qf_last_error() : "");
            if (rc == QF_SUCCESS) check_parts("l4448.sitetable", p, QF_GAUGE_AUTO, NULL, v, &info);
            free(v);
        }
        if (fp) fclose(fp);
        free(in);
        free(out);
    }

    /* the writer refuses what it cannot store faithfully */
    if (field[9]) { /* in parts: a bad link in writer 1's part stops both writers alike, and leaves no file */
        double *bad = malloc(256 * 72 * sizeof *bad);
        memcpy(bad, field[9], 256 * 72 * sizeof *bad);
        for (int r = 0; r < 18; r++) bad[72 * 200 + 18 * 3 + r] *= 1.01; /* site 200: t = 3 */
        const char *p = tmp_path("refused.parts.nersc");
        part_reader job = {.path = p, .format = QF_GAUGE_NERSC, .whole = bad, .opt = {64, 0, NULL}};
        memcpy(job.info.dims, samples[9].dims, sizeof job.info.dims);
        part_reader r[16];
        int procs[4] = {1, 1, 1, 2}, cut[4] = {0, 0, 0, 0};
        int n = run_in_parts(&job, samples[9].dims, procs, cut, -1, r), alike = 1;
        for (int k = 0; k < n; k++)
            alike &= r[k].rc == QF_ERROR && !strcmp(r[k].message, r[0].message) && strstr(r[k].message, "SU(3)");
        char left[sizeof tmpdir + 64];
        snprintf(left, sizeof left, "ls %s | grep -q refused.parts", tmpdir);
        check(alike && access(p, F_OK) != 0 && system(left) != 0,
              "2 writers: a link 1%% off SU(3) in writer 1's part stops both alike and leaves no file: %s", r[0].message);
        free(bad);
    }
    if (field[9]) {
        const int *dims = samples[9].dims;
        double *bad = malloc(256 * 72 * sizeof *bad);
        memcpy(bad, field[9], 256 * 72 * sizeof *bad);
        for (int r = 0; r < 18; r++) bad[72 * 17 + 18 * 2 + r] *= 1.01;
        qf_gauge_write_options opt = {64, 0, NULL};
        const char *p = tmp_path("refused.nersc");
        rc = qf_gauge_write(p, QF_GAUGE_NERSC, dims, bad, &opt);
        check(rc == QF_ERROR && access(p, F_OK) != 0, "writer refuses a link 1%% off SU(3) and leaves no file: %s",
              qf_last_error());
        opt.two_row = 1;
        rc = qf_gauge_write(p, QF_GAUGE_NERSC, dims, bad, &opt);
        check(rc == QF_ERROR, "two-row writer refuses it too (row 3 could not be rebuilt): %s", qf_last_error());
        opt.two_row = 0;
        memcpy(bad, field[9], 256 * 72 * sizeof *bad);
        bad[72 * 100 + 7] = NAN;
        rc = qf_gauge_write(p, QF_GAUGE_ILDG, dims, bad, &opt);
        check(rc == QF_ERROR, "ILDG writer refuses a NaN: %s", qf_last_error());
        opt.precision_bits = 32;
        bad[72 * 100 + 7] = 1e300; /* finite in double, infinite in float */
        rc = qf_gauge_write(p, QF_GAUGE_NERSC, dims, bad, &opt);
        check(rc == QF_ERROR, "32-bit writer refuses a number that overflows float: %s", qf_last_error());
        opt.precision_bits = 64;
        opt.precision_bits = 16;
        rc = qf_gauge_write(p, QF_GAUGE_NERSC, dims, field[9], &opt);
        check(rc == QF_ERROR, "writer refuses 16-bit: %s", qf_last_error());
        opt.precision_bits = 64;
        rc = qf_gauge_write(p, QF_GAUGE_MILC, dims, field[9], &opt);
        check(rc == QF_ERROR, "writer refuses MILC output: %s", qf_last_error());
        opt.two_row = 1;
        rc = qf_gauge_write(p, QF_GAUGE_ILDG, dims, field[9], &opt);
        check(rc == QF_ERROR, "writer refuses two-row ILDG: %s", qf_last_error());
        opt.two_row = 0;
        opt.ensemble_id = "bad\nid";
        rc = qf_gauge_write(p, QF_GAUGE_NERSC, dims, field[9], &opt);
        check(rc == QF_ERROR, "writer refuses a newline in ensemble_id: %s", qf_last_error());
        rc = qf_gauge_write(p, QF_GAUGE_ILDG, dims, field[9], &opt);
        check(rc == QF_ERROR, "ILDG writer too: %s", qf_last_error());
        free(bad);
    }

    if (field[9]) check_output_files(samples[9].dims, field[9]);
    if (field[1]) check_permuted_extents(dir, field[1]);

    /* input that is not a regular file is refused at once: a FIFO (the alarm ends the test if opening
     * it waits for a writer, as it did before the readers opened without blocking), a directory and a
     * device, by the header reader as well as the full one */
    {
        const char *fifo = tmp_path("gauge.fifo");
        double *v = NULL;
        qf_gauge_info info;
        check(mkfifo(fifo, 0600) == 0, "made the FIFO %s", fifo);
        alarm(20);
        rc = qf_gauge_read(fifo, QF_GAUGE_AUTO, NULL, &v, &info);
        int header_rc = qf_gauge_read_header(fifo, QF_GAUGE_NERSC, NULL, &info);
        alarm(0);
        check(rc == QF_ERROR && header_rc == QF_ERROR && strstr(qf_last_error(), "gauge.fifo") &&
                  strstr(qf_last_error(), "a FIFO (named pipe), not a regular file"),
              "a FIFO is refused without waiting for a writer: %s", qf_last_error());
        rc = qf_gauge_read(tmpdir, QF_GAUGE_AUTO, NULL, &v, &info);
        check(rc == QF_ERROR && strstr(qf_last_error(), "a directory, not a regular file"), "a directory is refused: %s",
              qf_last_error());
        rc = qf_gauge_read("/dev/null", QF_GAUGE_MILC, NULL, &v, &info);
        check(rc == QF_ERROR && strstr(qf_last_error(), "a character device, not a regular file"),
              "/dev/null is refused: %s", qf_last_error());
    }

    /* format names */
    for (int f = QF_GAUGE_AUTO; f <= QF_GAUGE_DDALPHA; f++) {
        qf_gauge_format g;
        check(qf_gauge_format_parse(qf_gauge_format_name((qf_gauge_format)f), &g) == QF_SUCCESS && g == (qf_gauge_format)f,
              "format name '%s' parses back", qf_gauge_format_name((qf_gauge_format)f));
    }
    {
        qf_gauge_format g;
        int prc = qf_gauge_format_parse("lime", &g);
        check(prc == QF_ERROR && strstr(qf_last_error(), "lime"), "unknown format name refused: %s", qf_last_error());
    }

    for (int k = 0; k < ntmp; k++) unlink(tmpfiles[k]);
    check(rmdir(tmpdir) == 0, "temporary folder removed (no stray files left by the writers)");
done:
    for (int i = 0; i < NSAMPLES; i++) free(field[i]);
    free(vec);
    free(readme);
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
