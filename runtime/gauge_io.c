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

void qf_gio_site_name(int64_t site, const int dims[4], char *buf, size_t size)
{
    int x[4];
    qf_lex_coords(site, dims, x);
    snprintf(buf, size, "site (x,y,z,t) = (%d,%d,%d,%d)", x[0], x[1], x[2], x[3]);
}

int qf_gio_fail_nonfinite(const int dims[4], int64_t site, int mu, double v)
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    char where[96];
    qf_gio_site_name(site, dims, where, sizeof where);
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
double qf_gio_su3_tolerance(int precision_bits) { return precision_bits == 32 ? 1e-5 : 1e-10; }

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

void qf_gio_measure(const int dims[4], const double *links, int round32, int two_row, double out[5],
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
            trace += qf_su3_retrace(&u[mu]);
            /* qf_su3_unitarity_deviation compares with '>', which a NaN passes silently */
            int finite = 1;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) finite &= isfinite(u[mu].e[i][j].re) && isfinite(u[mu].e[i][j].im);
            double dev = finite ? qf_su3_unitarity_deviation(&u[mu]) : INFINITY;
            if (!(dev <= worst)) {
                worst = dev;
                worst_at = s * 4 + mu;
            }
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
    qf_gio_measure(dims, links, 0, 0, m, NULL);
    if (plaq) *plaq = m[0];
    if (plaq_space) *plaq_space = m[1];
    if (plaq_time) *plaq_time = m[2];
    if (link_trace) *link_trace = m[3];
    if (max_unitarity_deviation) *max_unitarity_deviation = m[4];
}

int qf_gio_check_writable(const int dims[4], const double *links, int precision_bits, int two_row, double facts[5])
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    char where[96];
    uint64_t n = qf_io_volume(dims) * QF_GIO_SITE_REALS;
    for (uint64_t k = 0; k < n; k++) {
        double v = links[k];
        if (!isfinite(v) || (precision_bits == 32 && !isfinite((float)v))) {
            qf_gio_site_name((int64_t)(k / QF_GIO_SITE_REALS), dims, where, sizeof where);
            return qf_fail("link U_%c at %s holds %g, which is not finite%s: nothing written", axis[k / 18 % 4], where, v,
                           precision_bits == 32 && isfinite(v) ? " in 32-bit" : "");
        }
    }
    int64_t worst;
    qf_gio_measure(dims, links, precision_bits == 32, two_row, facts, &worst);
    double tol = qf_gio_su3_tolerance(precision_bits);
    if (!(facts[4] <= tol)) {
        qf_gio_site_name(worst / 4, dims, where, sizeof where);
        return qf_fail("link U_%c at %s deviates from SU(3) by %.3g (tolerance %.0e for %d-bit%s): the file would not "
                       "read back; reunitarise first",
                       axis[worst % 4], where, facts[4], tol, precision_bits, two_row ? " two-row" : "");
    }
    return QF_SUCCESS;
}

int qf_gio_finish(const double *links, qf_gauge_info *info, double plaquette_tol, double link_trace_tol)
{
    static const char axis[4] = {'x', 'y', 'z', 't'};
    double m[5];
    int64_t worst;
    qf_gio_measure(info->dims, links, 0, 0, m, &worst);
    info->plaquette = m[0];
    info->plaquette_space = m[1];
    info->plaquette_time = m[2];
    info->link_trace = m[3];
    info->max_unitarity_deviation = m[4];

    double tol = qf_gio_su3_tolerance(info->precision_bits);
    if (!(m[4] <= tol)) {
        char site[96];
        qf_gio_site_name(worst / 4, info->dims, site, sizeof site);
        return qf_fail("link U_%c at %s is not in SU(3): |U U^dagger - 1|, |det U - 1| up to %.3g, tolerance %.0e "
                       "for %d-bit data (corrupt data, or wrong byte order, precision or layout?)",
                       axis[worst % 4], site, m[4], tol, info->precision_bits);
    }
    if (info->has_plaquette && !(fabs(info->stored_plaquette - m[0]) <= plaquette_tol))
        return qf_fail("stored plaquette %.12g (Re Tr / 3) but the links give %.12g: difference %.3g exceeds the "
                       "tolerance %.3g (corrupt data or a different convention?)",
                       info->stored_plaquette, m[0], fabs(info->stored_plaquette - m[0]), plaquette_tol);
    if (info->has_link_trace && !(fabs(info->stored_link_trace - m[3]) <= link_trace_tol))
        return qf_fail("stored link trace %.12g (Re Tr / 3) but the links give %.12g: difference %.3g exceeds the "
                       "tolerance %.3g (corrupt data?)",
                       info->stored_link_trace, m[3], fabs(info->stored_link_trace - m[3]), link_trace_tol);
    return QF_SUCCESS;
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

int qf_gauge_read(const char *path, qf_gauge_format format, const int dims_hint[4], double **links,
                  qf_gauge_info *info)
{
    if (!path || !links || !info) return qf_fail("qf_gauge_read: path, links and info must not be NULL");
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
    case QF_GAUGE_NERSC: rc = qf_nersc_read(&f, dims_hint, links, info); break;
    case QF_GAUGE_MILC: rc = qf_milc_read(&f, dims_hint, links, info); break;
    case QF_GAUGE_SCIDAC:
    case QF_GAUGE_ILDG: rc = qf_lime_gauge_read(&f, format, dims_hint, links, info); break;
    case QF_GAUGE_BRIDGE: rc = qf_bridge_read(&f, dims_hint, links, info); break;
    case QF_GAUGE_DDALPHA: rc = qf_ddalpha_read(&f, dims_hint, links, info); break;
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

int qf_gauge_write(const char *path, qf_gauge_format format, const int dims[4], const double *links,
                   const qf_gauge_write_options *opt)
{
    static const qf_gauge_write_options defaults = {64, 0, NULL};
    if (!path || !dims || !links) return qf_fail("qf_gauge_write: path, dims and links must not be NULL");
    if (!opt) opt = &defaults;
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
    else
        rc = format == QF_GAUGE_NERSC ? qf_nersc_write(path, dims, links, opt) : qf_ildg_write(path, dims, links, opt);
    if (rc != QF_SUCCESS) return qf_fail_context("writing %s as %s", path, qf_gauge_format_name(format));
    return QF_SUCCESS;
}
