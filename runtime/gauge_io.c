/* Front door of gauge-file I/O: format names, detection of a file's format from its first bytes,
 * dispatch to the per-format modules, and the checks every reader shares (dimension hints, closeness
 * to SU(3), stored plaquette and link trace), so that all formats are held to the same standard.
 * The measurement is a plain periodic loop over the global lattice, deliberately independent of the
 * block layout and of StarPU: it is the reference the rest of the code is tested against. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#endif
#include "gauge_io_internal.h"
#include "quarkflow/qf_lattice.h"
#include "su3.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const format_names[] = {"auto", "nersc", "milc", "scidac", "ildg", "bridge", "ddalpha"};
#define NFORMATS ((int)(sizeof format_names / sizeof format_names[0]))

const char *qf_gauge_format_name(qf_gauge_format f)
{
    return (int)f >= 0 && (int)f < NFORMATS ? format_names[f] : "unknown";
}

int qf_gauge_format_parse(const char *s, qf_gauge_format *f)
{
    if (!s) return qf_fail("no gauge format given: use nersc, milc, scidac, ildg, bridge, ddalpha or auto");
    char low[16];
    size_t n = strlen(s);
    if (n < sizeof low) {
        for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)s[i]);
        for (int i = 0; i < NFORMATS; i++)
            if (!strcmp(low, format_names[i])) {
                *f = (qf_gauge_format)i;
                return QF_SUCCESS;
            }
    }
    return qf_fail("unknown gauge format '%s': use nersc, milc, scidac, ildg, bridge, ddalpha or auto", s);
}

/* ---- shared checks ---- */

/* Message helper: "site (x,y,z,t)" of lexicographic index. */
static void site_name(int64_t site, const int dims[4], char *buf, size_t size)
{
    int x[4];
    qf_lex_coords(site, dims, x);
    snprintf(buf, size, "site (x,y,z,t) = (%d,%d,%d,%d)", x[0], x[1], x[2], x[3]);
}

/* Fails with a message naming the non-finite number v read for link mu of a site. */
static int fail_nonfinite(const int dims[4], int64_t site, int mu, double v)
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    char where[96];
    site_name(site, dims, where, sizeof where);
    return qf_fail("link U_%c at %s holds a non-finite number (%g): corrupt data, or wrong byte order or precision?",
                   axis[mu & 3], where, v);
}

void qf_gio_date(char *buf, size_t size)
{
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) {
        strftime(buf, size, "%a %b %e %H:%M:%S %Y UTC", &tmv);
    } else {
        snprintf(buf, size, "unknown date");
    }
}

int qf_gio_check_hint(const int dims[4], const int dims_hint[4], const char *source)
{
    if (!dims_hint) return QF_SUCCESS;
    int zeros = 0;
    for (int mu = 0; mu < 4; mu++) zeros += dims_hint[mu] == 0;
    if (zeros == 4) return QF_SUCCESS;
    if (zeros)
        return qf_fail("dimensions asked for are %d %d %d %d: give all four extents, or none to take them from the file",
                       dims_hint[0], dims_hint[1], dims_hint[2], dims_hint[3]);
    for (int mu = 0; mu < 4; mu++)
        if (dims_hint[mu] != dims[mu])
            return qf_fail("%s gives a %dx%dx%dx%d lattice but the dimensions asked for are %dx%dx%dx%d: "
                           "fix --dim or use the right file",
                           source, dims[0], dims[1], dims[2], dims[3], dims_hint[0], dims_hint[1], dims_hint[2],
                           dims_hint[3]);
    return QF_SUCCESS;
}

/* Rounding each stored number to float moves U U^dagger - 1 by a few float epsilons (6e-8), and
 * writers that evolve in single precision add drift of that order (the 32-bit samples sit between
 * 9e-8 and 5e-7); 1e-5 leaves a factor 20 above the worst sample while rejecting anything that is not
 * a gauge link (a wrong byte order, precision or layout, or a corrupted number, moves it by 1e-3 or
 * far more). In 64-bit the rounding is 1e-16 and the samples sit at 1e-15 (binary) and 2e-14
 * (Bridge++ text, 15 digits); 1e-10 leaves room for long double-precision evolution. */
/* Largest accepted deviation from SU(3) for links stored with this many bits. */
static double su3_tolerance(int precision_bits) { return precision_bits == 32 ? 1e-5 : 1e-10; }

/* Half a unit of the last printed digit, plus what the writer may legitimately have done
 * differently. In 32-bit a writer may have measured its double-precision links before rounding them
 * to float: each real or imaginary part (modulus <= 1) then moves by at most half an ulp, 3e-8, so a
 * link's Re Tr / 3 moves by at most 3e-8 and a plaquette's (four links, |Re Tr(dU W)| <=
 * |dU|_F |W|_F <= 3 * 4.2e-8 * 3^(1/2) each) by at most 3e-7; we allow 1e-7 and 1e-6.
 * t_nersc.cfg's LINK_TRACE is off by 4e-10, i.e. written by such a writer. In 64-bit only the
 * summation order differs (~1e-15 relative). */
double qf_gio_fact_tolerance(const char *printed, int precision_bits, int is_plaquette)
{
    double tol = precision_bits == 32 ? (is_plaquette ? 1e-6 : 1e-7) : 1e-12;
    if (printed) {
        int dec = qf_io_decimals(printed);
        if (dec < 0) dec = 0; /* "0e5" says no more than "0" */
        if (dec < 300) tol += 0.5 * pow(10.0, -dec);
    }
    return tol;
}

typedef struct {
    const double *links;
    int round32, two_row;
} link_view;

/* (double)(float)x through memory. GCC 12.2 at -O2 and -O3 silently drops the rounding when it is
 * written inline on the members of a qf_su3 that is loaded, rounded and stored (wrong code, not
 * undefined behaviour: a 30-line program without this project's headers shows it, and -O1, clang and
 * -fno-tree-sra do not); the writers' header facts then missed the rounding by ~1e-10. The volatile
 * store forces the conversion whatever the optimiser does. */
static double round_to_float(double x)
{
    volatile float f = (float)x;
    return f;
}

static qf_su3 view_link(const link_view *v, int64_t site, int mu)
{
    qf_su3 m = qf_su3_load(v->links, QF_DOUBLE, (size_t)site * 4 + (size_t)mu);
    if (v->round32)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) m.e[i][j] = qf_cmake(round_to_float(m.e[i][j].re), round_to_float(m.e[i][j].im));
    if (v->two_row) qf_su3_complete_row3(&m);
    return m;
}

/* Adds link mu of site s to the trace sum and the largest deviation from SU(3) (where: at). */
static void measure_link(const qf_su3 *u, int64_t at, double *trace, double *worst, int64_t *worst_at)
{
    *trace += qf_su3_retrace(u);
    /* qf_su3_unitarity_deviation compares with '>', which a NaN passes silently */
    int finite = 1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) finite &= isfinite(u->e[i][j].re) && isfinite(u->e[i][j].im);
    double dev = finite ? qf_su3_unitarity_deviation(u) : INFINITY;
    if (!(dev <= *worst)) {
        *worst = dev;
        *worst_at = at;
    }
}

/* Measurement of the field as a reader would see it after storing: with round32 every number rounded
 * to float, with two_row the third row rebuilt from the first two. The writers use it for the
 * header facts, so that a file agrees with what is read back from it. out: plaquette, spatial,
 * temporal, link trace, max unitarity deviation. */
static void measure_stored(const int dims[4], const double *links, int round32, int two_row, double out[5],
                    int64_t *worst_link)
{
    link_view v = {links, round32, two_row};
    int64_t vol = (int64_t)qf_io_volume(dims);
    int64_t stride[4] = {1, dims[0], (int64_t)dims[0] * dims[1], (int64_t)dims[0] * dims[1] * dims[2]};
    double space = 0.0, time_ = 0.0, trace = 0.0, worst = 0.0;
    int64_t worst_at = 0;
    int x[4] = {0, 0, 0, 0};
    for (int64_t s = 0; s < vol; s++) {
        qf_su3 u[4];
        for (int mu = 0; mu < 4; mu++) {
            u[mu] = view_link(&v, s, mu);
            measure_link(&u[mu], s * 4 + mu, &trace, &worst, &worst_at);
        }
        int64_t fwd[4];
        for (int mu = 0; mu < 4; mu++) fwd[mu] = x[mu] + 1 < dims[mu] ? s + stride[mu] : s - (int64_t)x[mu] * stride[mu];
        for (int mu = 0; mu < 4; mu++)
            for (int nu = mu + 1; nu < 4; nu++) {
                qf_su3 u_nu_xpmu = view_link(&v, fwd[mu], nu);
                qf_su3 u_mu_xpnu = view_link(&v, fwd[nu], mu);
                double p = qf_plaquette_site(&u[mu], &u_nu_xpmu, &u_mu_xpnu, &u[nu]);
                if (nu == 3) time_ += p;
                else space += p;
            }
        for (int mu = 0; mu < 4 && ++x[mu] == dims[mu]; mu++) x[mu] = 0;
    }
    double n3 = 3.0 * 3.0 * (double)vol; /* three planes of each kind, Re Tr / 3 */
    out[1] = space / n3;
    out[2] = time_ / n3;
    out[0] = 0.5 * (out[1] + out[2]);
    out[3] = trace / (3.0 * 4.0 * (double)vol);
    out[4] = worst;
    if (worst_link) *worst_link = worst_at;
}

void qf_gauge_measure_global(const int dims[4], const double *links, double *plaq, double *plaq_space,
                             double *plaq_time, double *link_trace, double *max_unitarity_deviation)
{
    double m[5];
    measure_stored(dims, links, 0, 0, m, NULL);
    if (plaq) *plaq = m[0];
    if (plaq_space) *plaq_space = m[1];
    if (plaq_time) *plaq_time = m[2];
    if (link_trace) *link_trace = m[3];
    if (max_unitarity_deviation) *max_unitarity_deviation = m[4];
}

/* ---- parts ---- */

int qf_gio_part_resolve(qf_gio_part *part, const int dims[4])
{
    qf_gauge_part *b = &part->box;
    if (!b->ext[0] && !b->ext[1] && !b->ext[2] && !b->ext[3]) {
        for (int mu = 0; mu < 4; mu++) {
            b->lo[mu] = 0;
            b->ext[mu] = dims[mu];
        }
        return QF_SUCCESS;
    }
    for (int mu = 0; mu < 4; mu++)
        if (b->lo[mu] < 0 || b->ext[mu] < 1 || b->lo[mu] + b->ext[mu] > dims[mu])
            return qf_fail("the part [%d, %d) in direction %c lies outside the file's %d %d %d %d lattice", b->lo[mu],
                           b->lo[mu] + b->ext[mu], "xyzt"[mu], dims[0], dims[1], dims[2], dims[3]);
    return QF_SUCCESS;
}

uint64_t qf_gio_part_volume(const qf_gio_part *part) { return qf_io_volume(part->box.ext); }

int64_t qf_gio_part_index(const qf_gio_part *part, const int dims[4], int64_t site)
{
    int x[4];
    qf_lex_coords(site, dims, x);
    for (int mu = 0; mu < 4; mu++) {
        x[mu] -= part->box.lo[mu];
        if (x[mu] < 0 || x[mu] >= part->box.ext[mu]) return -1;
    }
    return qf_lex_index(x, part->box.ext);
}

static int part_is_whole(const qf_gio_part *part, const int dims[4])
{
    for (int mu = 0; mu < 4; mu++)
        if (part->box.lo[mu] || part->box.ext[mu] != dims[mu]) return 0;
    return 1;
}

void qf_gio_partial_init(qf_gio_partial *p)
{
    memset(p, 0, sizeof *p);
    p->bad_site = -1;
}

void qf_gio_partial_fail(qf_gio_partial *p)
{
    if (p->failed) return;
    p->failed = 1;
    snprintf(p->message, sizeof p->message, "%s", qf_last_error());
}

int qf_gio_combine(const qf_gio_part *part, qf_gio_partial *p, qf_gio_checksum_op op)
{
    const qf_gauge_part *b = &part->box;
    if (b->allgather && b->nreaders > 1) {
        qf_gio_partial *all = malloc((size_t)b->nreaders * sizeof *all);
        if (!all) return qf_fail("out of memory combining %d readers' checks", b->nreaders); /* never in practice: 1 KiB a reader */
        if (b->allgather(b->ctx, p, all, sizeof *p) != QF_SUCCESS) {
            free(all);
            return qf_fail_context("exchanging the readers' checks");
        }
        qf_gio_partial c;
        qf_gio_partial_init(&c);
        c.worst_link = all[0].worst_link;
        c.token = all[0].token;
        c.length = all[0].length;
        /* the first failed reader's message, naming it unless every reader failed alike */
        int first_failed = -1, alike = 1;
        for (int r = 0; r < b->nreaders; r++) {
            if (all[r].failed && first_failed < 0) first_failed = r;
            alike &= all[r].failed && !strcmp(all[r].message, all[0].message);
        }
        if (first_failed >= 0) {
            c.failed = 1;
            if (alike) snprintf(c.message, sizeof c.message, "%s", all[0].message);
            else {
                int n = snprintf(c.message, sizeof c.message, "part %d of %d: ", first_failed, b->nreaders);
                memcpy(c.message + n, all[first_failed].message, sizeof c.message - (size_t)n - 1);
                c.message[sizeof c.message - 1] = '\0';
            }
        }
        for (int r = 0; r < b->nreaders; r++) {
            const qf_gio_partial *q = &all[r];
            for (int k = 0; k < 2; k++) c.checksum[k] = op == QF_GIO_XOR ? c.checksum[k] ^ q->checksum[k] : c.checksum[k] + q->checksum[k];
            if (q->bad_site >= 0 && (c.bad_site < 0 || q->bad_site < c.bad_site)) {
                c.bad_site = q->bad_site;
                c.bad_index = q->bad_index;
                c.bad_value = q->bad_value;
            }
            c.trace_sum += q->trace_sum;
            if (!(q->worst <= c.worst)) {
                c.worst = q->worst;
                c.worst_link = q->worst_link;
            }
        }
        free(all);
        *p = c;
    }
    if (p->failed) return qf_fail("%s", p->message);
    return QF_SUCCESS;
}

/* The part as runs of consecutive lexicographic sites (file positions in natural order): a run spans
 * the part's x extent, and whole planes too when the part spans the lattice in the faster
 * directions. Runs come in the part's own lexicographic order, so run r holds the part's sites
 * r * len .. r * len + len - 1. */
typedef struct {
    uint64_t len, count;
    int merged, slow[4];
} part_runs;

static void part_runs_begin(part_runs *it, const qf_gio_part *part, const int dims[4])
{
    const int *ext = part->box.ext;
    memset(it, 0, sizeof *it);
    it->len = it->count = 1;
    for (int mu = 0; mu < 4; mu++) {
        if (mu == it->merged) {
            it->len *= (uint64_t)ext[mu];
            if (ext[mu] == dims[mu] && mu < 3) it->merged++;
        } else {
            it->count *= (uint64_t)ext[mu];
        }
    }
}

/* The first lexicographic site of the next run. */
static uint64_t part_runs_next(part_runs *it, const qf_gio_part *part, const int dims[4])
{
    int x[4];
    for (int mu = 0; mu < 4; mu++) x[mu] = part->box.lo[mu] + (mu > it->merged ? it->slow[mu] : 0);
    for (int mu = it->merged + 1; mu < 4 && ++it->slow[mu] == part->box.ext[mu]; mu++) it->slow[mu] = 0;
    return (uint64_t)qf_lex_index(x, dims);
}

static void note_nonfinite(qf_gio_partial *p, int64_t site, const double *v, int n)
{
    for (int j = 0; j < n; j++)
        if (!isfinite(v[j]) && (p->bad_site < 0 || site < p->bad_site)) {
            p->bad_site = site;
            p->bad_index = j;
            p->bad_value = v[j];
            return;
        }
}

void qf_gio_read_sites(qf_io_file *f, const qf_gio_layout *L, const int dims[4], const qf_gio_part *part,
                       double **out, qf_gio_partial *p)
{
    *out = NULL;
    if (p->failed) return;
    uint64_t pvol = qf_gio_part_volume(part);
    size_t reals = (size_t)L->site_reals;
    double *v = malloc((size_t)pvol * reals * sizeof *v);
    unsigned char *buf = malloc(QF_GIO_CHUNK_SITES * L->site_bytes);
    if (!v || !buf) {
        qf_fail("out of memory for %llu sites of a %dx%dx%dx%d field", (unsigned long long)pvol, dims[0], dims[1],
                dims[2], dims[3]);
        qf_gio_partial_fail(p);
        free(v);
        free(buf);
        return;
    }
    /* a site table scatters the part: the whole file is scanned and only the part's records kept */
    part_runs it;
    part_runs_begin(&it, part, dims);
    if (L->table) { /* one run: the whole file */
        it.len = qf_io_volume(dims);
        it.count = 1;
    }
    for (uint64_t r = 0; r < it.count && !p->failed; r++) {
        uint64_t first = L->table ? 0 : part_runs_next(&it, part, dims);
        for (uint64_t i = 0; i < it.len && !p->failed; i += QF_GIO_CHUNK_SITES) {
            size_t n = it.len - i < QF_GIO_CHUNK_SITES ? (size_t)(it.len - i) : QF_GIO_CHUNK_SITES;
            uint64_t pos = first + i;
            if (qf_io_read_at(f, L->data_off + pos * L->site_bytes, buf, n * L->site_bytes, L->what) != QF_SUCCESS) {
                qf_gio_partial_fail(p);
                break;
            }
            if (!L->table && L->checksum) L->checksum(L->ctx, p->checksum, buf, n, pos);
            for (size_t k = 0; k < n; k++) {
                int64_t site = L->table ? L->table[pos + k] : (int64_t)(pos + k);
                int64_t at = L->table ? qf_gio_part_index(part, dims, site) : (int64_t)(r * it.len + i + k);
                if (at < 0) continue;
                if (L->table && L->checksum) L->checksum(L->ctx, p->checksum, buf + k * L->site_bytes, 1, pos + k);
                double *dst = v + (size_t)at * reals;
                L->decode(L->ctx, buf + k * L->site_bytes, dst);
                note_nonfinite(p, site, dst, (int)reals);
            }
        }
    }
    free(buf);
    if (p->failed) {
        free(v);
        return;
    }
    *out = v;
}

int qf_gio_prepare_write(const int dims[4], const double *data, qf_gio_part *part, const qf_gio_layout *L,
                         int is_gauge, int precision_bits, int two_row, double plaquette, qf_gio_checksum_op op,
                         uint32_t checksum[2], double facts[5])
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    qf_gio_partial p;
    qf_gio_partial_init(&p);
    if (qf_gio_part_resolve(part, dims) != QF_SUCCESS) qf_gio_partial_fail(&p);
    unsigned char *rec = malloc(L->site_bytes);
    if (!rec && !p.failed) {
        qf_fail("out of memory");
        qf_gio_partial_fail(&p);
    }
    part_runs it;
    part_runs_begin(&it, part, dims);
    link_view view = {data, precision_bits == 32, two_row};
    int reals = L->site_reals;
    for (uint64_t r = 0; r < it.count && !p.failed; r++) {
        uint64_t first = part_runs_next(&it, part, dims);
        for (uint64_t i = 0; i < it.len; i++) {
            uint64_t at = r * it.len + i;
            const double *site = data + at * (uint64_t)reals;
            for (int j = 0; j < reals; j++) /* representable in the target precision */
                if (precision_bits == 32 && isfinite(site[j]) && !isfinite((float)site[j]) && p.bad_site < 0) {
                    p.bad_site = (int64_t)(first + i);
                    p.bad_index = j;
                    p.bad_value = site[j];
                }
            note_nonfinite(&p, (int64_t)(first + i), site, reals);
            if (is_gauge)
                for (int mu = 0; mu < 4; mu++) {
                    qf_su3 u = view_link(&view, (int64_t)at, mu);
                    measure_link(&u, (int64_t)(first + i) * 4 + mu, &p.trace_sum, &p.worst, &p.worst_link);
                }
            L->encode(L->ctx, site, rec);
            if (L->checksum) L->checksum(L->ctx, p.checksum, rec, 1, first + i);
        }
    }
    free(rec);
    if (qf_gio_combine(part, &p, op) != QF_SUCCESS) return QF_ERROR;
    char where[96];
    if (p.bad_site >= 0) {
        site_name(p.bad_site, dims, where, sizeof where);
        if (is_gauge)
            return qf_fail("link U_%c at %s holds %g, which is not finite%s: nothing written", axis[p.bad_index / 18 % 4],
                           where, p.bad_value, isfinite(p.bad_value) ? " in 32-bit" : "");
        return qf_fail("the number %d of %s is %g, not finite%s: nothing written", p.bad_index, where, p.bad_value,
                       isfinite(p.bad_value) ? " in 32-bit" : "");
    }
    double tol = su3_tolerance(precision_bits);
    if (is_gauge && !(p.worst <= tol)) {
        site_name(p.worst_link / 4, dims, where, sizeof where);
        return qf_fail("link U_%c at %s deviates from SU(3) by %.3g (tolerance %.0e for %d-bit%s): the file would not "
                       "read back; reunitarise first",
                       axis[p.worst_link % 4], where, p.worst, tol, precision_bits, two_row ? " two-row" : "");
    }
    checksum[0] = p.checksum[0];
    checksum[1] = p.checksum[1];
    if (is_gauge && part_is_whole(part, dims) && part->box.nreaders == 1) {
        measure_stored(dims, data, precision_bits == 32, two_row, facts, NULL);
    } else {
        facts[0] = facts[1] = facts[2] = plaquette;
        facts[3] = p.trace_sum / (3.0 * 4.0 * (double)qf_io_volume(dims));
        facts[4] = p.worst;
    }
    return QF_SUCCESS;
}

/* Writer 0's part of qf_gio_write_records: the temporary file with head, a hole where the records go,
 * and tail. */
static int create_file(qf_io_output *out, const char *path, int64_t *token, const void *head, size_t head_len,
                       const void *tail, size_t tail_len, uint64_t data_len)
{
    if (qf_io_output_create(out, path, token) != QF_SUCCESS) return QF_ERROR;
    if (qf_io_output_write_at(out, 0, head, head_len) != QF_SUCCESS ||
        qf_io_output_write_at(out, head_len + data_len, tail, tail_len) != QF_SUCCESS) {
        qf_io_output_abandon(out);
        return QF_ERROR;
    }
    return QF_SUCCESS;
}

/* Every writer's part: its records at their positions in the temporary file, then on disk. */
static int write_part_records(qf_io_output *out, size_t head_len, const qf_gio_layout *L, const int dims[4],
                              const qf_gio_part *part, const double *data)
{
    unsigned char *buf = malloc(QF_GIO_CHUNK_SITES * L->site_bytes);
    int rc = buf ? QF_SUCCESS : qf_fail("out of memory for the records to write");
    part_runs it;
    part_runs_begin(&it, part, dims);
    for (uint64_t r = 0; r < it.count && rc == QF_SUCCESS; r++) {
        uint64_t first = part_runs_next(&it, part, dims);
        for (uint64_t i = 0; i < it.len && rc == QF_SUCCESS; i += QF_GIO_CHUNK_SITES) {
            size_t n = it.len - i < QF_GIO_CHUNK_SITES ? (size_t)(it.len - i) : QF_GIO_CHUNK_SITES;
            for (size_t k = 0; k < n; k++)
                L->encode(L->ctx, data + (r * it.len + i + k) * (uint64_t)L->site_reals, buf + k * L->site_bytes);
            rc = qf_io_output_write_at(out, head_len + (first + i) * L->site_bytes, buf, n * L->site_bytes);
        }
    }
    free(buf);
    return rc == QF_SUCCESS ? qf_io_output_finish(out) : rc;
}

/* A step every writer takes: fails on all when any failed (rc: this writer's result). */
static int agree(const qf_gio_part *part, int rc, qf_gio_partial *p)
{
    if (rc != QF_SUCCESS) qf_gio_partial_fail(p);
    return qf_gio_combine(part, p, QF_GIO_SUM);
}

int qf_gio_write_records(const char *path, const void *head, size_t head_len, const void *tail, size_t tail_len,
                         const qf_gio_layout *L, const int dims[4], const qf_gio_part *part, const double *data)
{
    qf_gio_partial p;
    qf_gio_partial_init(&p);
    qf_io_output out = QF_IO_OUTPUT_INIT;
    int first = part->box.reader == 0;
    uint64_t data_len = qf_io_volume(dims) * L->site_bytes;
    int rc = first ? create_file(&out, path, &p.token, head, head_len, tail, tail_len, data_len) : QF_SUCCESS;
    /* every writer takes writer 0's temporary file and its header's length (the creation dates might
     * differ) */
    p.length = (int64_t)head_len;
    if (agree(part, rc, &p) != QF_SUCCESS) {
        qf_io_output_abandon(&out);
        return QF_ERROR;
    }
    head_len = (size_t)p.length;
    if (!first) rc = qf_io_output_join(&out, path, p.token);
    if (rc == QF_SUCCESS) rc = write_part_records(&out, head_len, L, dims, part, data);
    if (agree(part, rc, &p) != QF_SUCCESS) {
        qf_io_output_abandon(&out);
        return QF_ERROR;
    }
    return agree(part, first ? qf_io_output_commit(&out) : QF_SUCCESS, &p);
}

/* Links read with the wrong extents (a header permuted at the same volume, which MILC, SciDAC, ILDG
 * and Bridge++ cannot detect) no longer close into plaquettes and average like independent random
 * SU(3) matrices: 0 +- 0.236 / sqrt(6 V), since Re Tr / 3 of a random SU(3) matrix has variance 1/18;
 * lat.sample.l4448 (4 4 4 8) read as 8 4 4 4 gives 0.0043. The stored fields in shared/data lie at
 * 0.57 to 0.87 (MILC, SciDAC, ILDG, Bridge++ and DDalphaAMG samples), except t_nersc.cfg at 0.038, a
 * strong-coupling field (near beta / 18 for small beta) that stores its plaquette. 0.05 is 8
 * standard deviations of random links on 4^4 and more; it stays a warning, because a hot start or a
 * field at beta below about 1 lies under it too. A permutation that leaves most planes intact (4 4 8 4
 * read as 4 4 4 8) keeps a plausible plaquette and goes unnoticed. */
#define QF_GIO_RANDOM_PLAQUETTE 0.05

/* What a file without a stored plaquette cannot confirm about its extents. */
static const char *unverified_extents(const qf_gauge_info *info)
{
    switch (info->format) {
    case QF_GAUGE_MILC: return "a MILC v5 file's size and checksums do not depend on the order of its extents";
    case QF_GAUGE_SCIDAC:
    case QF_GAUGE_ILDG: return "a LIME file's record lengths and SciDAC checksums do not depend on the order of its extents";
    case QF_GAUGE_BRIDGE: return "a Bridge++ text file has no header: the extents are those of --dim, and only their "
                                 "product is checked";
    default: return "the file stores no plaquette, and its size and checksum do not depend on the order of its extents";
    }
}

int qf_gauge_check_plaquette(qf_gauge_info *info, double plaquette, double plaquette_space, double plaquette_time)
{
    info->plaquette = plaquette;
    info->plaquette_space = plaquette_space;
    info->plaquette_time = plaquette_time;
    if (!info->has_plaquette && fabs(plaquette) < QF_GIO_RANDOM_PLAQUETTE)
        snprintf(info->warning, sizeof info->warning,
                 "plaquette %.4f (Re Tr / 3) is what random links give, as links read with permuted extents do: are "
                 "the extents %d %d %d %d right? (%s; a hot start or a field at beta below about 1 also lies under "
                 "%.2f)",
                 plaquette, info->dims[0], info->dims[1], info->dims[2], info->dims[3], unverified_extents(info),
                 QF_GIO_RANDOM_PLAQUETTE);
    if (info->has_plaquette && !(fabs(info->stored_plaquette - plaquette) <= info->plaquette_tolerance))
        return qf_fail("stored plaquette %.12g (Re Tr / 3) but the links give %.12g: difference %.3g exceeds the "
                       "tolerance %.3g (corrupt data or a different convention?)",
                       info->stored_plaquette, plaquette, fabs(info->stored_plaquette - plaquette),
                       info->plaquette_tolerance);
    return QF_SUCCESS;
}

int qf_gio_finish(const double *links, qf_gauge_info *info, const qf_gio_part *part, qf_gio_partial *p,
                  double plaquette_tol, double link_trace_tol)
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    char site[96];
    info->plaquette_tolerance = plaquette_tol;
    info->link_trace_tolerance = link_trace_tol;
    if (p->bad_site >= 0) return fail_nonfinite(info->dims, p->bad_site, p->bad_index / 18, p->bad_value);

    /* the part's links: trace and deviation from SU(3), combined over the readers */
    qf_gio_partial m;
    qf_gio_partial_init(&m);
    m.worst_link = 0;
    uint64_t pvol = qf_gio_part_volume(part);
    for (uint64_t s = 0; s < pvol; s++) {
        int x[4];
        qf_lex_coords((int64_t)s, part->box.ext, x);
        for (int mu = 0; mu < 4; mu++) x[mu] += part->box.lo[mu];
        int64_t g = qf_lex_index(x, info->dims);
        for (int mu = 0; mu < 4; mu++) {
            qf_su3 u = qf_su3_load(links, QF_DOUBLE, (size_t)s * 4 + (size_t)mu);
            measure_link(&u, g * 4 + mu, &m.trace_sum, &m.worst, &m.worst_link);
        }
    }
    if (qf_gio_combine(part, &m, QF_GIO_SUM) != QF_SUCCESS) return QF_ERROR;
    info->link_trace = m.trace_sum / (3.0 * 4.0 * (double)qf_io_volume(info->dims));
    info->max_unitarity_deviation = m.worst;

    double tol = su3_tolerance(info->precision_bits);
    if (!(m.worst <= tol)) {
        site_name(m.worst_link / 4, info->dims, site, sizeof site);
        return qf_fail("link U_%c at %s is not in SU(3): |U U^dagger - 1|, |det U - 1| up to %.3g, tolerance %.0e "
                       "for %d-bit data (corrupt data, or wrong byte order, precision or layout?)",
                       axis[m.worst_link % 4], site, m.worst, tol, info->precision_bits);
    }
    if (info->has_link_trace && !(fabs(info->stored_link_trace - info->link_trace) <= link_trace_tol))
        return qf_fail("stored link trace %.12g (Re Tr / 3) but the links give %.12g: difference %.3g exceeds the "
                       "tolerance %.3g (corrupt data?)",
                       info->stored_link_trace, info->link_trace, fabs(info->stored_link_trace - info->link_trace),
                       link_trace_tol);
    if (!part_is_whole(part, info->dims)) {
        info->plaquette = info->plaquette_space = info->plaquette_time = NAN;
        return QF_SUCCESS;
    }
    double w[5];
    measure_stored(info->dims, links, 0, 0, w, NULL);
    return qf_gauge_check_plaquette(info, w[0], w[1], w[2]);
}

/* ---- detection and dispatch ---- */

static int is_text_byte(unsigned char c)
{
    return isdigit(c) || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E' || c == ' ' || c == '\t' ||
           c == '\n' || c == '\r';
}

static int detect(qf_io_file *f, qf_gauge_format *format)
{
    unsigned char head[24];
    size_t n = f->size < sizeof head ? (size_t)f->size : sizeof head;
    if (n == 0) return qf_fail("file is empty (0 bytes): not a gauge configuration");
    if (qf_io_read_at(f, 0, head, n, "format detection") != QF_SUCCESS) return QF_ERROR;
    if (n >= 4 && qf_io_get_u32(head, 1) == 0x456789abu) return qf_lime_detect(f, format);
    if (n >= 12 && !memcmp(head, "BEGIN_HEADER", 12)) {
        *format = QF_GAUGE_NERSC;
        return QF_SUCCESS;
    }
    if (n >= 4 && (qf_io_get_u32(head, 1) == 20103u || qf_io_get_u32(head, 0) == 20103u)) {
        *format = QF_GAUGE_MILC;
        return QF_SUCCESS;
    }
    /* DDalphaAMG has no magic number: four small positive little-endian extents are its signature
     * (text and the other headers give huge or negative numbers there) */
    if (n >= 16) {
        int plausible = 1;
        for (int i = 0; i < 4; i++) {
            uint32_t d = qf_io_get_u32(head + 4 * i, 0);
            if (d < 1 || d > (1u << 20)) plausible = 0;
        }
        if (plausible) {
            *format = QF_GAUGE_DDALPHA;
            return QF_SUCCESS;
        }
    }
    int text = 1;
    for (size_t i = 0; i < n; i++) text &= is_text_byte(head[i]);
    if (text) {
        *format = QF_GAUGE_BRIDGE;
        return QF_SUCCESS;
    }
    return qf_fail("not a recognised gauge file (first bytes %02x %02x %02x %02x): none of the NERSC, MILC, LIME "
                   "(SciDAC/ILDG), DDalphaAMG or Bridge++ text signatures; give the format explicitly if you know it",
                   head[0], n > 1 ? head[1] : 0, n > 2 ? head[2] : 0, n > 3 ? head[3] : 0);
}

/* Opens, detects and dispatches; part->header_only stops after the header. */
static int read_file(const char *path, qf_gauge_format format, const int dims_hint[4], qf_gio_part *part,
                     double **links, qf_gauge_info *info)
{
    if (!path || !links || !info) return qf_fail("reading a gauge file: path, links and info must not be NULL");
    *links = NULL;
    memset(info, 0, sizeof *info);
    if ((int)format < 0 || (int)format >= NFORMATS) return qf_fail("%s: unknown gauge format code %d", path, (int)format);
    qf_io_file f;
    if (qf_io_open(&f, path) != QF_SUCCESS) return qf_fail_context("%s", path);
    int rc = QF_SUCCESS;
    if (format == QF_GAUGE_AUTO) {
        rc = detect(&f, &format);
        if (rc != QF_SUCCESS) {
            qf_io_close(&f);
            return qf_fail_context("%s", path);
        }
    }
    switch (format) {
    case QF_GAUGE_NERSC: rc = qf_nersc_read(&f, dims_hint, part, links, info); break;
    case QF_GAUGE_MILC: rc = qf_milc_read(&f, dims_hint, part, links, info); break;
    case QF_GAUGE_SCIDAC:
    case QF_GAUGE_ILDG: rc = qf_lime_gauge_read(&f, format, dims_hint, part, links, info); break;
    case QF_GAUGE_BRIDGE: rc = qf_bridge_read(&f, dims_hint, part, links, info); break;
    case QF_GAUGE_DDALPHA: rc = qf_ddalpha_read(&f, dims_hint, part, links, info); break;
    default: rc = qf_fail("unknown gauge format code %d", (int)format); break;
    }
    qf_io_close(&f);
    info->format = format;
    if (rc != QF_SUCCESS) {
        free(*links);
        *links = NULL;
        return qf_fail_context("%s (read as %s)", path, qf_gauge_format_name(format));
    }
    return QF_SUCCESS;
}

int qf_gauge_read(const char *path, qf_gauge_format format, const int dims_hint[4], double **links,
                  qf_gauge_info *info)
{
    qf_gio_part whole = qf_gio_whole(0);
    return read_file(path, format, dims_hint, &whole, links, info);
}

int qf_gauge_read_part(const char *path, qf_gauge_format format, const int dims_hint[4], const qf_gauge_part *part,
                       double **links, qf_gauge_info *info)
{
    if (!part) return qf_gauge_read(path, format, dims_hint, links, info);
    if (part->nreaders < 1 || (part->nreaders > 1 && !part->allgather))
        return qf_fail("reading %s in parts: %d readers%s; give nreaders >= 1 and, for several, an allgather",
                       path ? path : "(null)", part->nreaders, part->nreaders > 1 ? " without an allgather" : "");
    qf_gio_part p = {*part, 0};
    return read_file(path, format, dims_hint, &p, links, info);
}

int qf_gauge_read_header(const char *path, qf_gauge_format format, const int dims_hint[4], qf_gauge_info *info)
{
    qf_gio_part header = qf_gio_whole(1);
    double *links;
    return read_file(path, format, dims_hint, &header, &links, info);
}

int qf_gauge_write(const char *path, qf_gauge_format format, const int dims[4], const double *links,
                   const qf_gauge_write_options *opt)
{
    return qf_gauge_write_part(path, format, dims, links, NULL, 0.0, opt);
}

int qf_gauge_write_part(const char *path, qf_gauge_format format, const int dims[4], const double *links,
                        const qf_gauge_part *part, double plaquette, const qf_gauge_write_options *opt)
{
    static const qf_gauge_write_options defaults = {64, 0, NULL};
    if (!path || !dims || !links) return qf_fail("qf_gauge_write: path, dims and links must not be NULL");
    if (!opt) opt = &defaults;
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    int rc;
    if (opt->precision_bits != 32 && opt->precision_bits != 64)
        rc = qf_fail("precision %d bits: write 32 or 64", opt->precision_bits);
    else if (format != QF_GAUGE_NERSC && format != QF_GAUGE_ILDG)
        rc = qf_fail("writing %s files is not supported: write nersc or ildg", qf_gauge_format_name(format));
    else if (opt->two_row && format != QF_GAUGE_NERSC)
        rc = qf_fail("two_row storage exists only in the NERSC format (4D_SU3_GAUGE), not in %s",
                     qf_gauge_format_name(format));
    else if (qf_io_check_dims(dims, 4 * 18 * 8, "the dimensions given") != QF_SUCCESS)
        rc = QF_ERROR;
    else if (p.box.nreaders < 1 || (p.box.nreaders > 1 && !p.box.allgather))
        rc = qf_fail("writing in parts: %d writers%s; give nreaders >= 1 and, for several, an allgather", p.box.nreaders,
                     p.box.nreaders > 1 ? " without an allgather" : "");
    else
        rc = format == QF_GAUGE_NERSC ? qf_nersc_write(path, dims, links, &p, plaquette, opt)
                                      : qf_ildg_write(path, dims, links, &p, plaquette, opt);
    if (rc != QF_SUCCESS) return qf_fail_context("writing %s as %s", path, qf_gauge_format_name(format));
    return QF_SUCCESS;
}
