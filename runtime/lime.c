/* LIME containers and the two lattice formats built on them: SciDAC/QIO (scidac-binary-data, as MILC
 * and Chroma write through QIO) and ILDG (ildg-binary-data), for gauge fields and for SciDAC colour
 * vectors and Wilson Dirac fermions. A LIME file is a chain of records, each a 144-byte header (magic 0x456789ab, u16 version 1,
 * u16 flags with message-begin/end bits, u64 payload length, 128-byte type name, all big-endian)
 * followed by the payload padded to a multiple of 8 bytes.
 *
 * The facts live in the XML records: scidac-private-file-xml holds the lattice dims,
 * scidac-private-record-xml the datatype, precision (F/D), colours, typesize and datacount,
 * (and spins for spinor types), ildg-format the field, precision (32/64) and lx ly lz lt; scidac-checksum holds suma/sumb, a CRC32
 * of each site's bytes rotated by the site's rank. Binary data are big-endian, sites in lexicographic
 * order (x fastest), per site `datacount` objects (for gauge fields the links mu = x y z t, each a
 * row-major 3x3 complex matrix; for Dirac fermions one object of 4 spins x 3 colours, colour fastest). Every record is checked against every other one that restates a
 * fact, because real files are often assembled by different tools. */
#include "gauge_io_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIME_MAGIC 0x456789abu
#define LIME_HEADER_BYTES 144u
#define LIME_TYPE_BYTES 128u
#define LIME_MB 0x8000u
#define LIME_ME 0x4000u
#define LIME_MAX_RECORDS 4096
#define LIME_MAX_XML (1u << 20)

typedef struct {
    uint64_t header_off, data_off, length;
    unsigned version, flags;
    char type[LIME_TYPE_BYTES + 1];
} lime_record;

static uint64_t pad8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

static int lime_scan(qf_io_file *f, lime_record **recs_out, int *n_out)
{
    *recs_out = NULL;
    *n_out = 0;
    if (f->size == 0) return qf_fail("file is empty (0 bytes): not a LIME file");
    lime_record *recs = NULL;
    int n = 0, cap = 0;
    uint64_t off = 0;
    while (off < f->size) {
        unsigned char h[LIME_HEADER_BYTES];
        char what[64];
        snprintf(what, sizeof what, "LIME record %d's header", n + 1);
        if (qf_io_read_at(f, off, h, sizeof h, what) != QF_SUCCESS) goto fail;
        uint32_t magic = qf_io_get_u32(h, 1);
        if (magic != LIME_MAGIC && n == 0) {
            qf_fail("first bytes 0x%08x are not the LIME magic number 0x%08x: not a LIME (SciDAC/ILDG) file", magic,
                    LIME_MAGIC);
            goto fail;
        }
        if (magic != LIME_MAGIC) {
            qf_fail("LIME record %d at byte %llu has magic 0x%08x instead of 0x%08x: corrupt file, or a wrong record "
                    "length before it",
                    n + 1, (unsigned long long)off, magic, LIME_MAGIC);
            goto fail;
        }
        lime_record r;
        r.header_off = off;
        r.version = (h[4] << 8) | h[5];
        r.flags = (h[6] << 8) | h[7];
        r.length = qf_io_get_u64(h + 8, 1);
        memcpy(r.type, h + 16, LIME_TYPE_BYTES);
        r.type[LIME_TYPE_BYTES] = '\0';
        if (r.version != 1) {
            qf_fail("LIME record %d at byte %llu has version %u; LIME files have version 1: corrupt record header",
                    n + 1, (unsigned long long)off, r.version);
            goto fail;
        }
        if (!memchr(h + 16, '\0', LIME_TYPE_BYTES)) {
            qf_fail("LIME record %d at byte %llu has an unterminated type name: corrupt record header", n + 1,
                    (unsigned long long)off);
            goto fail;
        }
        r.data_off = off + LIME_HEADER_BYTES;
        uint64_t left = f->size - r.data_off;
        if (r.length > left || pad8(r.length) > left) {
            qf_fail("LIME record %d (%s) declares a %llu-byte payload (%llu with padding) but only %llu bytes follow "
                    "its header: truncated, or corrupt record length?",
                    n + 1, r.type, (unsigned long long)r.length, (unsigned long long)pad8(r.length),
                    (unsigned long long)left);
            goto fail;
        }
        if (n == LIME_MAX_RECORDS) {
            qf_fail("more than %d LIME records: not a lattice file?", LIME_MAX_RECORDS);
            goto fail;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            lime_record *grown = realloc(recs, (size_t)cap * sizeof *recs);
            if (!grown) {
                qf_fail("out of memory listing LIME records");
                goto fail;
            }
            recs = grown;
        }
        recs[n++] = r;
        off = r.data_off + pad8(r.length);
    }
    *recs_out = recs;
    *n_out = n;
    return QF_SUCCESS;
fail:
    free(recs);
    return QF_ERROR;
}

static int find_record(const lime_record *recs, int n, const char *type, int from, int to)
{
    for (int i = from; i < to && i < n; i++)
        if (!strcmp(recs[i].type, type)) return i;
    return -1;
}

static int find_last_record(const lime_record *recs, int n, const char *type, int before)
{
    int found = -1;
    for (int i = 0; i < before && i < n; i++)
        if (!strcmp(recs[i].type, type)) found = i;
    return found;
}

/* Payload of an XML record as a NUL-terminated string (trailing NULs that writers add included). */
static int read_xml(qf_io_file *f, const lime_record *r, char **out)
{
    *out = NULL;
    if (r->length > LIME_MAX_XML)
        return qf_fail("%s record is %llu bytes, more than the %u an XML record may have: corrupt record length?",
                       r->type, (unsigned long long)r->length, LIME_MAX_XML);
    char *s = malloc((size_t)r->length + 1);
    if (!s) return qf_fail("out of memory");
    if (qf_io_read_at(f, r->data_off, s, (size_t)r->length, r->type) != QF_SUCCESS) {
        free(s);
        return QF_ERROR;
    }
    s[r->length] = '\0';
    *out = s;
    return QF_SUCCESS;
}

static int xml_long(const char *xml, const char *record, const char *tag, long lo, long hi, long *v)
{
    char buf[64];
    if (qf_io_xml_get(xml, tag, buf, sizeof buf) != 0) return qf_fail("%s record has no <%s> element", record, tag);
    if (qf_io_parse_long(buf, v) != QF_SUCCESS || *v < lo || *v > hi)
        return qf_fail("%s record: <%s> is '%s', not a number between %ld and %ld", record, tag, buf, lo, hi);
    return QF_SUCCESS;
}

static int xml_dims(const char *xml, const char *record, int dims[4])
{
    char buf[256];
    if (qf_io_xml_get(xml, "dims", buf, sizeof buf) != 0) return qf_fail("%s record has no <dims> element", record);
    char *p = buf;
    for (int mu = 0; mu < 4; mu++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > (1 << 20))
            return qf_fail("%s record: <dims> '%s' does not hold four extents between 1 and %d", record, buf, 1 << 20);
        dims[mu] = (int)v;
        p = end;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p) return qf_fail("%s record: <dims> '%s' holds more than four extents: only 4-d lattices are supported", record, buf);
    return QF_SUCCESS;
}

static int same_dims(const int a[4], const int b[4]) { return !memcmp(a, b, 4 * sizeof a[0]); }

/* QDP/USQCD datatype names spell precision and colours too ("QDP_F3_ColorMatrix"): they must agree
 * with <precision> and with 3 colours. Names without that token are accepted on the other fields. */
static int check_datatype_name(const char *dt, const char *kind, char precision)
{
    const char *k = strstr(dt, kind);
    if (k - dt < 3 || k[-1] != '_') return QF_SUCCESS;
    const char *tok = k - 1;
    while (tok > dt && tok[-1] != '_') tok--;
    if ((*tok != 'F' && *tok != 'D') || !(tok[1] >= '0' && tok[1] <= '9')) return QF_SUCCESS;
    if (*tok != precision)
        return qf_fail("scidac-private-record-xml: datatype '%s' says precision %c but <precision> says %c: inconsistent "
                       "record",
                       dt, *tok, precision);
    if (tok[1] != '3' || tok + 2 != k - 1)
        return qf_fail("scidac-private-record-xml: datatype '%s' is not a 3-colour field", dt);
    return QF_SUCCESS;
}

/* What a lattice field record says about itself, gathered from the XML records around it. */
typedef struct {
    int dims[4];
    int bytes;           /* 4 or 8 a real */
    int reals_per_site;  /* datacount x reals per object */
    uint64_t data_off, data_len;
    int has_checksum;
    uint32_t suma, sumb;
    char datatype[64];
} lime_field;

/* kind: "ColorMatrix" with datacount 4 for gauge fields, "ColorVector" with datacount 1 for colour
 * vectors, "DiracFermion" with datacount 1 for Wilson colour-spinors. spins_want: the <spins> the
 * record must state when it has that element (QIO writes it for spinor types; 0: not checked).
 * ildg: take the ildg-binary-data record and ildg-format (the SciDAC records are optional there but
 * checked when present). */
static int locate_field(qf_io_file *f, const lime_record *recs, int n, int ildg, const char *kind,
                        long datacount_want, int reals_per_object, int spins_want, lime_field *fld)
{
    const char *bin_type = ildg ? "ildg-binary-data" : "scidac-binary-data";
    memset(fld, 0, sizeof *fld);
    int bin = find_record(recs, n, bin_type, 0, n);
    if (bin < 0) {
        const char *other = ildg ? "scidac-binary-data" : "ildg-binary-data";
        if (find_record(recs, n, other, 0, n) >= 0)
            return qf_fail("no %s record, but a %s one: this is %s file, read it as %s", bin_type, other,
                           ildg ? "a SciDAC" : "an ILDG", ildg ? "scidac" : "ildg");
        return qf_fail("no %s record among the file's %d LIME records", bin_type, n);
    }
    char *pfile = NULL, *prec = NULL, *ifmt = NULL, *cks = NULL;
    int rc = QF_SUCCESS;
    int i_pfile = find_record(recs, n, "scidac-private-file-xml", 0, bin);
    int i_prec = find_last_record(recs, n, "scidac-private-record-xml", bin);
    int i_ifmt = ildg ? find_last_record(recs, n, "ildg-format", bin) : -1;
    int next_bin = find_record(recs, n, bin_type, bin + 1, n);
    int i_cks = find_record(recs, n, "scidac-checksum", bin + 1, next_bin < 0 ? n : next_bin);

    if (!ildg && i_pfile < 0) rc = qf_fail("no scidac-private-file-xml record before the data: cannot tell the lattice size");
    else if (!ildg && i_prec < 0) rc = qf_fail("no scidac-private-record-xml record before the data: cannot tell the precision");
    else if (ildg && i_ifmt < 0) rc = qf_fail("no ildg-format record before the ildg-binary-data: not an ILDG file");
    else if (!ildg && i_cks < 0)
        rc = qf_fail("no scidac-checksum record after the scidac-binary-data: truncated file? (QIO always writes one)");
    if (rc == QF_SUCCESS && i_pfile >= 0) rc = read_xml(f, &recs[i_pfile], &pfile);
    if (rc == QF_SUCCESS && i_prec >= 0) rc = read_xml(f, &recs[i_prec], &prec);
    if (rc == QF_SUCCESS && i_ifmt >= 0) rc = read_xml(f, &recs[i_ifmt], &ifmt);
    if (rc == QF_SUCCESS && i_cks >= 0) rc = read_xml(f, &recs[i_cks], &cks);

    int pdims[4] = {0, 0, 0, 0}, have_pdims = 0;
    if (rc == QF_SUCCESS && pfile) {
        long spacetime, volfmt;
        char buf[16];
        rc = xml_long(pfile, "scidac-private-file-xml", "spacetime", 1, 16, &spacetime);
        if (rc == QF_SUCCESS && spacetime != 4)
            rc = qf_fail("scidac-private-file-xml: spacetime is %ld, only 4-d lattices are supported", spacetime);
        if (rc == QF_SUCCESS) rc = xml_dims(pfile, "scidac-private-file-xml", pdims);
        have_pdims = rc == QF_SUCCESS;
        if (rc == QF_SUCCESS && qf_io_xml_get(pfile, "volfmt", buf, sizeof buf) == 0) {
            if (qf_io_parse_long(buf, &volfmt) != QF_SUCCESS || volfmt != 0)
                rc = qf_fail("scidac-private-file-xml: volfmt '%s' is not 0 (single file): multi- and part-file "
                             "QIO volumes are not supported",
                             buf);
        }
    }
    int sbytes = 0;
    long sdatacount = 0, stypesize = 0;
    if (rc == QF_SUCCESS && prec) {
        char dt[64], pr[8];
        long colors, global;
        const char *rn = "scidac-private-record-xml";
        if (qf_io_xml_get(prec, "datatype", dt, sizeof dt) != 0) rc = qf_fail("%s record has no <datatype>", rn);
        else if (!strstr(dt, kind))
            rc = qf_fail("%s: datatype '%s' is not a %s field", rn, dt, kind);
        else if (qf_io_xml_get(prec, "precision", pr, sizeof pr) != 0 || (strcmp(pr, "F") && strcmp(pr, "D")))
            rc = qf_fail("%s: precision is not F or D", rn);
        else
            sbytes = pr[0] == 'F' ? 4 : 8;
        if (rc == QF_SUCCESS) rc = check_datatype_name(dt, kind, pr[0]);
        if (rc == QF_SUCCESS) snprintf(fld->datatype, sizeof fld->datatype, "%s", dt);
        if (rc == QF_SUCCESS) rc = xml_long(prec, rn, "colors", 1, 1000, &colors);
        if (rc == QF_SUCCESS && colors != 3) rc = qf_fail("%s: colors is %ld, only 3 is supported", rn, colors);
        if (rc == QF_SUCCESS && spins_want && qf_io_xml_get(prec, "spins", dt, sizeof dt) == 0) {
            long spins;
            rc = xml_long(prec, rn, "spins", 0, 1000, &spins);
            if (rc == QF_SUCCESS && spins != spins_want)
                rc = qf_fail("%s: spins is %ld but a %s field has %d", rn, spins, kind, spins_want);
        }
        if (rc == QF_SUCCESS) rc = xml_long(prec, rn, "datacount", 1, 1000, &sdatacount);
        if (rc == QF_SUCCESS && sdatacount != datacount_want)
            rc = qf_fail("%s: datacount is %ld but a %s field has %ld", rn, sdatacount, kind, datacount_want);
        if (rc == QF_SUCCESS) rc = xml_long(prec, rn, "typesize", 1, 1 << 20, &stypesize);
        if (rc == QF_SUCCESS && stypesize != (long)reals_per_object * sbytes)
            rc = qf_fail("%s: typesize is %ld but a %s in precision %c has %d bytes", rn, stypesize, kind,
                         sbytes == 4 ? 'F' : 'D', reals_per_object * sbytes);
        if (rc == QF_SUCCESS && qf_io_xml_get(prec, "globaldata", dt, sizeof dt) == 0 &&
            (qf_io_parse_long(dt, &global) != QF_SUCCESS || global != 0))
            rc = qf_fail("%s: globaldata is '%s', not 0: the record is not a lattice field", rn, dt);
        /* later QIO versions say the same with <recordtype> (0: field, 1: global, 2: hypercube) */
        if (rc == QF_SUCCESS && qf_io_xml_get(prec, "recordtype", dt, sizeof dt) == 0 &&
            (qf_io_parse_long(dt, &global) != QF_SUCCESS || global != 0))
            rc = qf_fail("%s: recordtype is '%s', not 0: the record is not a whole lattice field", rn, dt);
        /* QIO record format 1.1 restates the dims */
        int rdims[4];
        if (rc == QF_SUCCESS && qf_io_xml_get(prec, "dims", dt, sizeof dt) == 0) {
            rc = xml_dims(prec, rn, rdims);
            if (rc == QF_SUCCESS && have_pdims && !same_dims(rdims, pdims))
                rc = qf_fail("%s gives dims %d %d %d %d but scidac-private-file-xml %d %d %d %d: inconsistent file", rn,
                             rdims[0], rdims[1], rdims[2], rdims[3], pdims[0], pdims[1], pdims[2], pdims[3]);
        }
    }
    if (rc == QF_SUCCESS && ildg) {
        char field[64];
        long p;
        const char *rn = "ildg-format";
        if (qf_io_xml_get(ifmt, "field", field, sizeof field) != 0) rc = qf_fail("%s record has no <field>", rn);
        else if (strcmp(field, "su3gauge")) rc = qf_fail("%s: field is '%s', not su3gauge", rn, field);
        if (rc == QF_SUCCESS) rc = xml_long(ifmt, rn, "precision", 1, 1000, &p);
        if (rc == QF_SUCCESS && p != 32 && p != 64) rc = qf_fail("%s: precision is %ld, not 32 or 64", rn, p);
        if (rc == QF_SUCCESS) fld->bytes = (int)p / 8;
        static const char *const tags[4] = {"lx", "ly", "lz", "lt"};
        for (int mu = 0; mu < 4 && rc == QF_SUCCESS; mu++) {
            long v;
            rc = xml_long(ifmt, rn, tags[mu], 1, 1 << 20, &v);
            fld->dims[mu] = (int)v;
        }
        if (rc == QF_SUCCESS && have_pdims && !same_dims(fld->dims, pdims))
            rc = qf_fail("ildg-format gives lx ly lz lt = %d %d %d %d but scidac-private-file-xml dims %d %d %d %d: "
                         "inconsistent file",
                         fld->dims[0], fld->dims[1], fld->dims[2], fld->dims[3], pdims[0], pdims[1], pdims[2], pdims[3]);
        if (rc == QF_SUCCESS && sbytes && sbytes != fld->bytes)
            rc = qf_fail("ildg-format gives precision %d but scidac-private-record-xml %c: inconsistent file",
                         8 * fld->bytes, sbytes == 4 ? 'F' : 'D');
        if (rc == QF_SUCCESS) snprintf(fld->datatype, sizeof fld->datatype, "ildg-binary-data %d", 8 * fld->bytes);
    } else if (rc == QF_SUCCESS) {
        memcpy(fld->dims, pdims, sizeof pdims);
        fld->bytes = sbytes;
        char dt[64];
        snprintf(dt, sizeof dt, "%s", fld->datatype);
        snprintf(fld->datatype, sizeof fld->datatype, "scidac-binary-data %.40s", dt);
    }
    if (rc == QF_SUCCESS && cks) {
        char a[32], b[32];
        if (qf_io_xml_get(cks, "suma", a, sizeof a) != 0 || qf_io_xml_get(cks, "sumb", b, sizeof b) != 0 ||
            qf_io_parse_hex32(a, &fld->suma) != QF_SUCCESS || qf_io_parse_hex32(b, &fld->sumb) != QF_SUCCESS)
            rc = qf_fail("scidac-checksum record does not hold hexadecimal <suma> and <sumb>: corrupt record");
        fld->has_checksum = 1;
    }
    free(pfile);
    free(prec);
    free(ifmt);
    free(cks);
    if (rc != QF_SUCCESS) return rc;

    fld->reals_per_site = (int)datacount_want * reals_per_object;
    if (qf_io_check_dims(fld->dims, (uint64_t)fld->reals_per_site * 8, ildg ? "the ildg-format record" :
                         "the scidac-private-file-xml record") != QF_SUCCESS)
        return QF_ERROR;
    uint64_t need = qf_io_volume(fld->dims) * (uint64_t)fld->reals_per_site * (uint64_t)fld->bytes;
    if (recs[bin].length != need)
        return qf_fail("%s record holds %llu bytes but a %dx%dx%dx%d %s field in %d-bit needs %llu: corrupt record length "
                       "or dims?",
                       bin_type, (unsigned long long)recs[bin].length, fld->dims[0], fld->dims[1], fld->dims[2],
                       fld->dims[3], kind, 8 * fld->bytes, (unsigned long long)need);
    fld->data_off = recs[bin].data_off;
    fld->data_len = need;
    return QF_SUCCESS;
}

/* suma / sumb: each site's CRC32 rotated by its rank, XORed, so that parts combine in any order. */
static void lime_checksum(const void *ctx, uint32_t sum[2], const unsigned char *bytes, size_t nsites, uint64_t first_pos)
{
    const lime_field *fld = ctx;
    qf_scidac_sum s = {0, 0};
    qf_io_scidac_checksum_add(&s, bytes, (size_t)fld->reals_per_site * (size_t)fld->bytes, nsites, first_pos);
    sum[0] ^= s.suma;
    sum[1] ^= s.sumb;
}

static void lime_decode(const void *ctx, const unsigned char *record, double *out)
{
    const lime_field *fld = ctx;
    for (int k = 0; k < fld->reals_per_site; k++) {
        const unsigned char *q = record + (size_t)k * (size_t)fld->bytes;
        out[k] = fld->bytes == 4 ? qf_io_get_f32(q, 1) : qf_io_get_f64(q, 1);
    }
}

/* Reads the part's sites of the binary record into doubles and verifies the SciDAC checksum (over all
 * readers' parts) when the file has one; non-finite numbers are left in *p for the caller. */
static int read_field_data(qf_io_file *f, const lime_field *fld, qf_gio_part *part, double **out, qf_gio_partial *p)
{
    qf_gio_partial_init(p);
    if (qf_gio_part_resolve(part, fld->dims) != QF_SUCCESS) qf_gio_partial_fail(p);
    qf_gio_layout layout = {fld->data_off, (size_t)fld->reals_per_site * (size_t)fld->bytes, fld->reals_per_site, NULL,
                            lime_checksum, lime_decode, fld, "the binary data", NULL};
    qf_gio_read_sites(f, &layout, fld->dims, part, out, p);
    /* a non-finite number is reported only after the checksum: corruption is the likelier cause */
    int rc = qf_gio_combine(part, p, QF_GIO_XOR);
    if (rc == QF_SUCCESS && fld->has_checksum && (p->checksum[0] != fld->suma || p->checksum[1] != fld->sumb))
        rc = qf_fail("checksum mismatch: scidac-checksum stores suma %08x sumb %08x but the binary data give %08x %08x: "
                     "corrupt data",
                     fld->suma, fld->sumb, p->checksum[0], p->checksum[1]);
    if (rc != QF_SUCCESS) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

int qf_lime_detect(qf_io_file *f, qf_gauge_format *format)
{
    lime_record *recs;
    int n;
    if (lime_scan(f, &recs, &n) != QF_SUCCESS) return QF_ERROR;
    int ildg = find_record(recs, n, "ildg-binary-data", 0, n) >= 0;
    int scidac = find_record(recs, n, "scidac-binary-data", 0, n) >= 0;
    free(recs);
    if (ildg) *format = QF_GAUGE_ILDG;
    else if (scidac) *format = QF_GAUGE_SCIDAC;
    else return qf_fail("LIME file with neither an ildg-binary-data nor a scidac-binary-data record: not a lattice field");
    return QF_SUCCESS;
}

/* The facts quarkflow's writer puts into the user file XML (scidac-file-xml with
 * <creator>quarkflow</creator>): the plaquette and link trace as printed, which the reader verifies
 * as it does NERSC's. Other writers' XML is left alone: its tags and conventions are theirs. */
typedef struct {
    char plaquette[64], link_trace[64];
} own_facts;

static int read_own_facts(qf_io_file *f, const lime_record *recs, int n, own_facts *facts)
{
    memset(facts, 0, sizeof *facts);
    int i = find_record(recs, n, "scidac-file-xml", 0, n);
    char *xml, creator[64];
    if (i < 0) return QF_SUCCESS;
    if (read_xml(f, &recs[i], &xml) != QF_SUCCESS) return QF_ERROR;
    if (qf_io_xml_get(xml, "creator", creator, sizeof creator) == 0 && !strcmp(creator, "quarkflow")) {
        if (qf_io_xml_get(xml, "plaquette", facts->plaquette, sizeof facts->plaquette) != 0) facts->plaquette[0] = 0;
        if (qf_io_xml_get(xml, "linktrace", facts->link_trace, sizeof facts->link_trace) != 0) facts->link_trace[0] = 0;
    }
    free(xml);
    return QF_SUCCESS;
}

/* A fact as the file printed it: 1 and *v, 0 when absent; refused when present but not a number. */
static int own_fact(const char *printed, const char *tag, double *v, int *have)
{
    *have = printed[0] != 0;
    if (*have && qf_io_parse_double(printed, v) != QF_SUCCESS)
        return qf_fail("scidac-file-xml written by quarkflow: <%s> is '%s', not a number: damaged record", tag, printed);
    return QF_SUCCESS;
}

int qf_lime_gauge_read(qf_io_file *f, qf_gauge_format format, const int dims_hint[4], qf_gio_part *part,
                       double **links, qf_gauge_info *info)
{
    *links = NULL;
    lime_record *recs;
    int n;
    if (lime_scan(f, &recs, &n) != QF_SUCCESS) return QF_ERROR;
    lime_field fld;
    own_facts facts;
    int ildg = format == QF_GAUGE_ILDG;
    int rc = locate_field(f, recs, n, ildg, "ColorMatrix", 4, 18, 0, &fld);
    if (rc == QF_SUCCESS) rc = read_own_facts(f, recs, n, &facts);
    free(recs);
    if (rc == QF_SUCCESS) rc = own_fact(facts.plaquette, "plaquette", &info->stored_plaquette, &info->has_plaquette);
    if (rc == QF_SUCCESS) rc = own_fact(facts.link_trace, "linktrace", &info->stored_link_trace, &info->has_link_trace);
    if (rc != QF_SUCCESS) return rc;
    if (qf_gio_check_hint(fld.dims, dims_hint, ildg ? "the ildg-format record" : "the scidac-private-file-xml record") !=
        QF_SUCCESS)
        return QF_ERROR;
    info->format = format;
    memcpy(info->dims, fld.dims, sizeof fld.dims);
    info->precision_bits = 8 * fld.bytes;
    info->big_endian = 1;
    snprintf(info->datatype, sizeof info->datatype, "%s", fld.datatype);
    info->has_checksum = fld.has_checksum ? 2 : 0;
    info->stored_checksum[0] = fld.suma;
    info->stored_checksum[1] = fld.sumb;
    if (part->header_only) return QF_SUCCESS;
    double *u;
    qf_gio_partial p;
    rc = read_field_data(f, &fld, part, &u, &p);
    info->computed_checksum[0] = p.checksum[0];
    info->computed_checksum[1] = p.checksum[1];
    double plaq_tol = info->has_plaquette ? qf_gio_fact_tolerance(facts.plaquette, info->precision_bits, 1) : 0.0;
    double trace_tol = info->has_link_trace ? qf_gio_fact_tolerance(facts.link_trace, info->precision_bits, 0) : 0.0;
    if (rc == QF_SUCCESS && qf_gio_finish(u, info, part, &p, plaq_tol, trace_tol) != QF_SUCCESS) {
        free(u);
        rc = QF_ERROR;
    }
    if (rc != QF_SUCCESS) return QF_ERROR;
    *links = u;
    return QF_SUCCESS;
}

/* The SciDAC fields of plain numbers a site, read and written without the checks of gauge fields:
 * colour vectors (MILC's ksvector files), Wilson Dirac fermions (4 spins, as Chroma and QUDA write them
 * through QIO), and colour matrices of any kind (4 a site: the asqtad fat and Naik links, not SU(3)). */
typedef struct {
    int reals;            /* of one object */
    int datacount;        /* objects a site */
    int nspins;           /* stated as <spins> (spinor types), 0 for none */
    const char *kind;     /* the datatype's field name */
    const char *name;     /* for messages */
    const char *datatype; /* written: printf pattern of the datatype with the precision letter */
} spin_colour_kind;

static const spin_colour_kind colour_vector_kind = {6, 1, 0, "ColorVector", "colour vector", "QDP_%c3_ColorVector"};
static const spin_colour_kind dirac_fermion_kind = {24, 1, 4, "DiracFermion", "Dirac fermion", "USQCD_%c3_DiracFermion"};
static const spin_colour_kind colour_matrices_kind = {18, 4, 0, "ColorMatrix", "colour-matrix field",
                                                      "QDP_%c3_ColorMatrix"};

static int spin_colour_read(const spin_colour_kind *k, const char *path, const int dims_hint[4], qf_gio_part *part,
                            int dims[4], double **out, int *precision_bits)
{
    *out = NULL;
    qf_io_file f;
    if (qf_io_open(&f, path) != QF_SUCCESS) return qf_fail_context("%s", path);
    lime_record *recs = NULL;
    int n = 0, rc = QF_SUCCESS;
    unsigned char magic[4];
    lime_field fld;
    rc = qf_io_read_at(&f, 0, magic, sizeof magic, "the LIME magic number");
    if (rc == QF_SUCCESS && qf_io_get_u32(magic, 1) != LIME_MAGIC)
        rc = qf_fail("first bytes %02x %02x %02x %02x are not the LIME magic number: not a SciDAC file", magic[0],
                     magic[1], magic[2], magic[3]);
    if (rc == QF_SUCCESS) rc = lime_scan(&f, &recs, &n);
    if (rc == QF_SUCCESS)
        rc = locate_field(&f, recs, n, 0, k->kind, k->datacount, k->reals, k->nspins, &fld);
    free(recs);
    if (rc == QF_SUCCESS) rc = qf_gio_check_hint(fld.dims, dims_hint, "the scidac-private-file-xml record");
    double *v = NULL;
    qf_gio_partial p;
    if (rc == QF_SUCCESS) rc = read_field_data(&f, &fld, part, &v, &p);
    if (rc == QF_SUCCESS && p.bad_site >= 0) {
        rc = qf_fail("non-finite number (%g) at site %lld: corrupt data?", p.bad_value, (long long)p.bad_site);
        free(v);
        v = NULL;
    }
    qf_io_close(&f);
    if (rc != QF_SUCCESS) return qf_fail_context("%s (read as a SciDAC %s)", path, k->name);
    memcpy(dims, fld.dims, sizeof fld.dims);
    if (precision_bits) *precision_bits = 8 * fld.bytes;
    *out = v;
    return QF_SUCCESS;
}

int qf_colour_vector_read(const char *path, const int dims_hint[4], int dims[4], double **vec, int *precision_bits)
{
    return qf_colour_vector_read_part(path, dims_hint, NULL, dims, vec, precision_bits);
}

int qf_colour_vector_read_part(const char *path, const int dims_hint[4], const qf_gauge_part *part, int dims[4],
                               double **vec, int *precision_bits)
{
    if (!path || !dims || !vec) return qf_fail("qf_colour_vector_read: path, dims and vec must not be NULL");
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    return spin_colour_read(&colour_vector_kind, path, dims_hint, &p, dims, vec, precision_bits);
}

int qf_colour_matrices_read_part(const char *path, const int dims_hint[4], const qf_gauge_part *part, int dims[4],
                                 double **m, int *precision_bits)
{
    if (!path || !dims || !m) return qf_fail("qf_colour_matrices_read: path, dims and m must not be NULL");
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    return spin_colour_read(&colour_matrices_kind, path, dims_hint, &p, dims, m, precision_bits);
}

int qf_dirac_fermion_read(const char *path, const int dims_hint[4], int dims[4], double **psi, int *precision_bits)
{
    return qf_dirac_fermion_read_part(path, dims_hint, NULL, dims, psi, precision_bits);
}

int qf_dirac_fermion_read_part(const char *path, const int dims_hint[4], const qf_gauge_part *part, int dims[4],
                               double **psi, int *precision_bits)
{
    if (!path || !dims || !psi) return qf_fail("qf_dirac_fermion_read: path, dims and psi must not be NULL");
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    return spin_colour_read(&dirac_fermion_kind, path, dims_hint, &p, dims, psi, precision_bits);
}

/* ---- writing ---- */

/* The records around the binary data are composed in memory (they are small) and written by writer 0;
 * the data in between come from every writer's part (qf_gio_write_records). */
typedef struct {
    unsigned char *p;
    size_t n, cap;
    int failed;
} lime_buf;

static void buf_put(lime_buf *b, const void *data, size_t len)
{
    if (b->failed) return;
    if (b->n + len > b->cap) {
        size_t cap = 2 * (b->n + len) + 1024;
        unsigned char *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    if (len) memcpy(b->p + b->n, data, len);
    b->n += len;
}

static void buf_zeros(lime_buf *b, size_t len)
{
    static const unsigned char zeros[8] = {0};
    buf_put(b, zeros, len);
}

static void put_record_header(lime_buf *b, const char *type, uint64_t length, unsigned flags)
{
    unsigned char h[LIME_HEADER_BYTES] = {0};
    qf_io_put_u32(h, LIME_MAGIC, 1);
    qf_io_put_u16(h + 4, 1, 1);
    qf_io_put_u16(h + 6, (uint16_t)flags, 1);
    qf_io_put_u64(h + 8, length, 1);
    memcpy(h + 16, type, strlen(type));
    buf_put(b, h, sizeof h);
}

/* XML records carry their terminating NUL, as QIO writes them. */
static void put_text_record(lime_buf *b, const char *type, const char *text, unsigned flags)
{
    uint64_t len = strlen(text) + 1;
    put_record_header(b, type, len, flags);
    buf_put(b, text, (size_t)len);
    buf_zeros(b, (size_t)(pad8(len) - len));
}

typedef struct {
    const char *datatype;     /* QDP_F3_ColorMatrix ... */
    int reals_per_object, datacount, bytes;
    int spins;                /* > 0: stated as <spins> (spinor types) */
    const char *user_file_xml, *user_record_xml;
    int ildg;
    const char *lfn;
} field_desc;

static void lime_encode(const void *ctx, const double *in, unsigned char *record)
{
    const lime_field *fld = ctx;
    for (int k = 0; k < fld->reals_per_site; k++) {
        if (fld->bytes == 4) qf_io_put_f32(record + 4 * k, (float)in[k], 1);
        else qf_io_put_f64(record + 8 * k, in[k], 1);
    }
}

/* The record layout of a field described by d, for the writers. */
static qf_gio_layout write_layout(const field_desc *d, lime_field *fld)
{
    memset(fld, 0, sizeof *fld);
    fld->bytes = d->bytes;
    fld->reals_per_site = d->reals_per_object * d->datacount;
    qf_gio_layout layout = {.site_bytes = (size_t)fld->reals_per_site * (size_t)fld->bytes,
                            .site_reals = fld->reals_per_site, .checksum = lime_checksum, .encode = lime_encode,
                            .ctx = fld};
    return layout;
}

/* The file around data (this writer's part): checksum is the data's (qf_gio_prepare_write). */
static int write_field(const char *path, const int dims[4], const double *data, const field_desc *d,
                       const qf_gio_layout *layout, const qf_gio_part *part, const uint32_t checksum[2])
{
    char date[64], xml[2048];
    qf_gio_date(date, sizeof date);
    lime_buf head = {0}, tail = {0};
    snprintf(xml, sizeof xml,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacFile><version>1.1</version><spacetime>4</spacetime>"
             "<dims>%d %d %d %d </dims><volfmt>0</volfmt></scidacFile>",
             dims[0], dims[1], dims[2], dims[3]);
    put_text_record(&head, "scidac-private-file-xml", xml, LIME_MB);
    put_text_record(&head, "scidac-file-xml", d->user_file_xml, LIME_ME);
    char spins[48] = "";
    if (d->spins > 0) snprintf(spins, sizeof spins, "<spins>%d</spins>", d->spins);
    snprintf(xml, sizeof xml,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacRecord><version>1.0</version><date>%s</date>"
             "<globaldata>0</globaldata><datatype>%s</datatype><precision>%c</precision><colors>3</colors>"
             "%s<typesize>%d</typesize><datacount>%d</datacount></scidacRecord>",
             date, d->datatype, d->bytes == 4 ? 'F' : 'D', spins, d->reals_per_object * d->bytes, d->datacount);
    put_text_record(&head, "scidac-private-record-xml", xml, LIME_MB);
    put_text_record(&head, "scidac-record-xml", d->user_record_xml, 0);
    if (d->ildg) {
        snprintf(xml, sizeof xml,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
                 "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                 "xsi:schemaLocation=\"http://www.lqcd.org/ildg/filefmt.xsd\"><version>1.0</version>"
                 "<field>su3gauge</field><precision>%d</precision><lx>%d</lx><ly>%d</ly><lz>%d</lz><lt>%d</lt>"
                 "</ildgFormat>",
                 8 * d->bytes, dims[0], dims[1], dims[2], dims[3]);
        put_text_record(&head, "ildg-format", xml, 0);
        put_text_record(&head, "ildg-data-lfn", d->lfn, 0);
    }
    uint64_t len = qf_io_volume(dims) * layout->site_bytes;
    put_record_header(&head, d->ildg ? "ildg-binary-data" : "scidac-binary-data", len, 0);
    buf_zeros(&tail, (size_t)(pad8(len) - len));
    snprintf(xml, sizeof xml,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacChecksum><version>1.0</version><suma>%x</suma>"
             "<sumb>%x</sumb></scidacChecksum>",
             checksum[0], checksum[1]);
    put_text_record(&tail, "scidac-checksum", xml, LIME_ME);
    int rc = head.failed || tail.failed
                 ? qf_fail("out of memory")
                 : qf_gio_write_records(path, head.p, head.n, tail.p, tail.n, layout, dims, part, data);
    free(head.p);
    free(tail.p);
    return rc;
}

int qf_ildg_write(const char *path, const int dims[4], const double *links, qf_gio_part *part, double plaquette,
                  const qf_gauge_write_options *opt)
{
    char ens[600], file_xml[1024], lfn[1100];
    if (qf_io_xml_escape(opt->ensemble_id ? opt->ensemble_id : "unknown", ens, sizeof ens) != QF_SUCCESS)
        return qf_fail_context("ensemble_id");
    field_desc d = {opt->precision_bits == 32 ? "QDP_F3_ColorMatrix" : "QDP_D3_ColorMatrix", 18, 4, opt->precision_bits / 8,
                    0, file_xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>gauge field written by quarkflow</info>",
                    1, lfn};
    lime_field fld;
    qf_gio_layout layout = write_layout(&d, &fld);
    double m[5];
    uint32_t sum[2];
    if (qf_gio_prepare_write(dims, links, part, &layout, 1, opt->precision_bits, 0, plaquette, QF_GIO_XOR, sum, m) !=
        QF_SUCCESS)
        return QF_ERROR;
    snprintf(file_xml, sizeof file_xml,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info><creator>quarkflow</creator><ensemble_id>%s</ensemble_id>"
             "<plaquette>%.15f</plaquette><linktrace>%.15f</linktrace></info>",
             ens, m[0], m[3]);
    snprintf(lfn, sizeof lfn, "lfn://quarkflow/%s", ens);
    return write_field(path, dims, links, &d, &layout, part, sum);
}

static int spin_colour_write(const spin_colour_kind *k, const char *path, const int dims[4], const double *data,
                             qf_gio_part *part, int precision_bits)
{
    int rc = QF_SUCCESS, reals = k->reals * k->datacount;
    if (precision_bits != 32 && precision_bits != 64) rc = qf_fail("precision %d bits: write 32 or 64", precision_bits);
    else if (qf_io_check_dims(dims, (uint64_t)reals * 8, "the dimensions given") != QF_SUCCESS) rc = QF_ERROR;
    if (rc == QF_SUCCESS) {
        char datatype[64], record_xml[160];
        snprintf(datatype, sizeof datatype, k->datatype, precision_bits == 32 ? 'F' : 'D');
        snprintf(record_xml, sizeof record_xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>%s field</info>",
                 k->name);
        field_desc d = {datatype, k->reals, k->datacount, precision_bits / 8, k->nspins,
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info><creator>quarkflow</creator></info>",
                        record_xml, 0, NULL};
        lime_field fld;
        qf_gio_layout layout = write_layout(&d, &fld);
        double facts[5];
        uint32_t sum[2];
        rc = qf_gio_prepare_write(dims, data, part, &layout, 0, precision_bits, 0, 0.0, QF_GIO_XOR, sum, facts);
        if (rc == QF_SUCCESS) rc = write_field(path, dims, data, &d, &layout, part, sum);
    }
    if (rc != QF_SUCCESS) return qf_fail_context("writing %s %s", k->name, path);
    return QF_SUCCESS;
}

int qf_colour_vector_write(const char *path, const int dims[4], const double *vec, int precision_bits)
{
    return qf_colour_vector_write_part(path, dims, vec, NULL, precision_bits);
}

int qf_colour_vector_write_part(const char *path, const int dims[4], const double *vec, const qf_gauge_part *part,
                                int precision_bits)
{
    if (!path || !dims || !vec) return qf_fail("qf_colour_vector_write: path, dims and vec must not be NULL");
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    return spin_colour_write(&colour_vector_kind, path, dims, vec, &p, precision_bits);
}

int qf_colour_matrices_write_part(const char *path, const int dims[4], const double *m, const qf_gauge_part *part,
                                  int precision_bits)
{
    if (!path || !dims || !m) return qf_fail("qf_colour_matrices_write: path, dims and m must not be NULL");
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    return spin_colour_write(&colour_matrices_kind, path, dims, m, &p, precision_bits);
}

int qf_dirac_fermion_write(const char *path, const int dims[4], const double *psi, int precision_bits)
{
    return qf_dirac_fermion_write_part(path, dims, psi, NULL, precision_bits);
}

int qf_dirac_fermion_write_part(const char *path, const int dims[4], const double *psi, const qf_gauge_part *part,
                                int precision_bits)
{
    if (!path || !dims || !psi) return qf_fail("qf_dirac_fermion_write: path, dims and psi must not be NULL");
    qf_gio_part p = qf_gio_whole(0);
    if (part) p.box = *part;
    return spin_colour_write(&dirac_fermion_kind, path, dims, psi, &p, precision_bits);
}
