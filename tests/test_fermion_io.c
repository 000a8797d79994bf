/* SciDAC/USQCD Dirac-fermion files (qf_dirac_fermion_read / _write): round trips in 32 and 64 bit
 * (bit-identical, after rounding to float for 32 bit), the records a reader from another code needs,
 * and rejection of corrupted, truncated, mislabelled and mistyped files with a message naming the
 * cause. Needs no StarPU.
 *
 *   test_fermion_io DATA_DIR            the tests (DATA_DIR: the sample files, for a colour vector)
 *   test_fermion_io --norm FILE         reads FILE and prints "dims X Y Z T bits B norm2 N" (the cli
 *                                       tests use it to check what `quarkflow apply` wrote) */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include "quarkflow/qf_gauge_io.h"
#include "check.h"
#include "test_files.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[4096];

static const char *tmp_path(const char *name)
{
    static char buf[2][8192];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static size_t volume(const int d[4]) { return (size_t)d[0] * d[1] * d[2] * d[3]; }

/* Random doubles with full 53-bit mantissas, some of them far from 1, so that a lost bit shows. */
static double *random_field(const int dims[4], uint64_t seed)
{
    size_t n = volume(dims) * 24;
    double *v = malloc(n * sizeof *v);
    uint64_t s = seed;
    for (size_t k = 0; k < n; k++) {
        s += 0x9e3779b97f4a7c15ull;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        double u = (double)(z >> 11) / 9007199254740992.0 - 0.5;
        v[k] = k % 7 == 3 ? u * 1e5 : u;
    }
    return v;
}

static unsigned char *find(unsigned char *b, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (!memcmp(b + i, needle, m)) return b + i;
    return NULL;
}

static void round_trip(const int dims[4], const double *psi, int bits)
{
    char name[64];
    snprintf(name, sizeof name, "psi%d.lime", bits);
    const char *path = tmp_path(name);
    int rc = qf_dirac_fermion_write(path, dims, psi, bits);
    CHECK(rc == QF_SUCCESS, "write %s: %s", name, rc ? qf_last_error() : "");
    if (rc) return;
    int d[4] = {0}, pb = 0;
    double *w = NULL;
    rc = qf_dirac_fermion_read(path, NULL, d, &w, &pb);
    CHECK(rc == QF_SUCCESS, "read back %s: %s", name, rc ? qf_last_error() : "");
    if (rc) return;
    CHECK(pb == bits && !memcmp(d, dims, sizeof d), "%s: %d bit, %dx%dx%dx%d", name, pb, d[0], d[1], d[2], d[3]);
    size_t n = volume(dims) * 24, bad = 0;
    for (size_t k = 0; k < n; k++) {
        double want = bits == 32 ? (double)(float)psi[k] : psi[k];
        bad += memcmp(&want, &w[k], sizeof want) != 0;
    }
    CHECK(bad == 0, "%s: read back bit-identical to the %sinput (%zu of %zu differ)", name,
          bits == 32 ? "float-rounded " : "", bad, n);
    free(w);

    /* the facts another code's reader (QIO, Chroma, QUDA) looks for */
    size_t size;
    unsigned char *b = qf_test_read_file(path, &size);
    char want[64];
    snprintf(want, sizeof want, "<datatype>USQCD_%c3_DiracFermion</datatype>", bits == 32 ? 'F' : 'D');
    CHECK(b && find(b, size, want), "%s: record says %s", name, want);
    snprintf(want, sizeof want, "<typesize>%d</typesize>", bits == 32 ? 96 : 192);
    CHECK(b && find(b, size, "<spins>4</spins>") && find(b, size, "<colors>3</colors>") && find(b, size, want) &&
              find(b, size, "<datacount>1</datacount>") && find(b, size, "scidac-checksum"),
          "%s: spins 4, colors 3, %s, datacount 1, a scidac-checksum record", name, want);
    CHECK(b && size % 8 == 0 && size > volume(dims) * 24 * (size_t)bits / 8, "%s: %zu bytes, LIME-padded", name, size);
    free(b);

    /* dims hint */
    int hint[4] = {dims[0], dims[1], dims[2], dims[3]};
    rc = qf_dirac_fermion_read(path, hint, d, &w, NULL);
    CHECK(rc == QF_SUCCESS, "%s: read with the matching dims hint: %s", name, rc ? qf_last_error() : "");
    free(w);
    hint[3] += 2;
    w = NULL;
    rc = qf_dirac_fermion_read(path, hint, d, &w, NULL);
    CHECK(rc != QF_SUCCESS && w == NULL, "%s: a wrong dims hint is rejected", name);
}

/* Writes a modified copy of `path` and checks that reading it fails with a message containing `expect`. */
static void expect_reject(const char *path, const char *label, const char *needle, const char *replacement,
                          long truncate_by, int flip_middle, const char *expect)
{
    size_t size;
    unsigned char *b = qf_test_read_file(path, &size);
    if (!b) {
        CHECK(0, "%s: cannot read %s", label, path);
        return;
    }
    if (needle) {
        unsigned char *p = find(b, size, needle);
        CHECK(p != NULL && strlen(needle) == strlen(replacement), "%s: '%s' found in the file", label, needle);
        if (p) memcpy(p, replacement, strlen(replacement));
    }
    if (flip_middle) b[size / 2] ^= 0x10; /* inside the binary data */
    if (truncate_by) size -= (size_t)truncate_by;
    const char *bad = tmp_path("bad.lime");
    qf_test_write_file(bad, b, size);
    free(b);
    int d[4];
    double *w = NULL;
    int rc = qf_dirac_fermion_read(bad, NULL, d, &w, NULL);
    const char *msg = rc ? qf_last_error() : "";
    CHECK(rc != QF_SUCCESS && w == NULL && strstr(msg, expect) && strstr(msg, bad), "%s: rejected with '%s' (got: %s)",
          label, expect, rc ? msg : "accepted");
    free(w);
}

static int print_norm(const char *path)
{
    int d[4], bits;
    double *psi;
    if (qf_dirac_fermion_read(path, NULL, d, &psi, &bits)) {
        fprintf(stderr, "error: %s\n", qf_last_error());
        return 1;
    }
    double n2 = 0.0;
    for (size_t k = 0; k < volume(d) * 24; k++) n2 += psi[k] * psi[k];
    printf("dims %d %d %d %d bits %d norm2 %.15e\n", d[0], d[1], d[2], d[3], bits, n2);
    free(psi);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--norm")) return print_norm(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR | --norm FILE\n", argv[0]);
        return 2;
    }
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_fermion_io.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        printf("FAIL: cannot create a temporary folder %s\n", tmpdir);
        return 1;
    }

    /* 4x2x6x8: every extent different, so a swapped axis shows */
    const int dims[4] = {4, 2, 6, 8};
    double *psi = random_field(dims, 7);
    round_trip(dims, psi, 64);
    round_trip(dims, psi, 32);

    char good[8192];
    snprintf(good, sizeof good, "%s", tmp_path("psi64.lime"));
    expect_reject(good, "flipped data bit", NULL, NULL, 0, 1, "checksum mismatch");
    expect_reject(good, "edited suma", "<suma>", "<sumA>", 0, 0, "suma");
    expect_reject(good, "truncated", NULL, NULL, 300, 0, "bytes");
    expect_reject(good, "spins 2", "<spins>4</spins>", "<spins>2</spins>", 0, 0, "spins is 2");
    expect_reject(good, "typesize", "<typesize>192</typesize>", "<typesize>196</typesize>", 0, 0, "typesize is 196");
    expect_reject(good, "precision letter", "<precision>D</precision>", "<precision>F</precision>", 0, 0,
                  "precision D but <precision> says F");
    expect_reject(good, "colour vector datatype", "USQCD_D3_DiracFermion", "USQCD_D3_ColorVectorX", 0, 0,
                  "not a DiracFermion field");
    expect_reject(good, "colors 2", "<colors>3</colors>", "<colors>2</colors>", 0, 0, "colors is 2");
    expect_reject(good, "datacount", "<datacount>1</datacount>", "<datacount>2</datacount>", 0, 0, "datacount is 2");
    expect_reject(good, "dims", "<dims>4 2 6 8 </dims>", "<dims>4 2 6 4 </dims>", 0, 0, "needs");
    expect_reject(good, "not LIME", "\x45\x67\x89\xab", "GIF8", 0, 0, "not the LIME magic");

    /* a missing file and a file of another kind */
    int d[4];
    double *w = NULL;
    int rc = qf_dirac_fermion_read(tmp_path("no-such-file"), NULL, d, &w, NULL);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "no-such-file"), "missing file rejected (%s)",
          rc ? qf_last_error() : "accepted");
    char path[4096];
    snprintf(path, sizeof path, "%s/ksvector.src.sample.l8", argv[1]);
    rc = qf_dirac_fermion_read(path, NULL, d, &w, NULL);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "ColorVector") && strstr(qf_last_error(), "DiracFermion"),
          "a SciDAC colour vector is not read as a Dirac fermion (%s)", rc ? qf_last_error() : "accepted");
    rc = qf_colour_vector_read(good, NULL, d, &w, NULL);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "not a ColorVector field"),
          "a Dirac fermion is not read as a colour vector (%s)", rc ? qf_last_error() : "accepted");
    snprintf(path, sizeof path, "%s/lat.sample.l4444.scidac", argv[1]);
    rc = qf_dirac_fermion_read(path, NULL, d, &w, NULL);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "ColorMatrix"), "a SciDAC gauge field is not read as a Dirac fermion (%s)",
          rc ? qf_last_error() : "accepted");

    /* a FIFO or a directory is refused at once; the alarm ends the test if opening the FIFO waits
     * for a writer, as it did before the reader opened without blocking */
    const char *fifo = tmp_path("psi.fifo");
    rc = mkfifo(fifo, 0600);
    CHECK(rc == 0, "made the FIFO %s", fifo);
    alarm(20);
    rc = qf_dirac_fermion_read(fifo, NULL, d, &w, NULL);
    alarm(0);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "psi.fifo") && strstr(qf_last_error(), "a FIFO (named pipe), not a regular file"),
          "a FIFO is refused without waiting for a writer (%s)", rc ? qf_last_error() : "accepted");
    unlink(fifo);
    rc = qf_dirac_fermion_read(tmpdir, NULL, d, &w, NULL);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "a directory, not a regular file"), "a directory is refused (%s)",
          rc ? qf_last_error() : "accepted");

    /* the output file: a write-protected target is refused and left alone (the Dirac-fermion writer
     * creates its files as the gauge writers do; test_gauge_io checks the rest) */
    const char *protected_target = tmp_path("protected.lime");
    FILE *fp = fopen(protected_target, "w");
    if (fp) fclose(fp);
    chmod(protected_target, 0444);
    rc = qf_dirac_fermion_write(protected_target, dims, psi, 64);
    struct stat st;
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "write-protected") && stat(protected_target, &st) == 0 &&
              st.st_size == 0,
          "a write-protected target is refused and left as it was (%s)", rc ? qf_last_error() : "replaced");
    unlink(protected_target);

    /* the writer's gates */
    psi[100] = NAN;
    rc = qf_dirac_fermion_write(tmp_path("nan.lime"), dims, psi, 64);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "not finite") && access(tmp_path("nan.lime"), F_OK) != 0,
          "a NaN is refused and nothing written (%s)", rc ? qf_last_error() : "accepted");
    psi[100] = 1e300;
    rc = qf_dirac_fermion_write(tmp_path("big.lime"), dims, psi, 32);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "32-bit"), "1e300 is refused in 32 bit (%s)",
          rc ? qf_last_error() : "accepted");
    psi[100] = 0.0;
    rc = qf_dirac_fermion_write(tmp_path("p16.lime"), dims, psi, 16);
    CHECK(rc != QF_SUCCESS && strstr(qf_last_error(), "32 or 64"), "16 bit refused (%s)", rc ? qf_last_error() : "accepted");
    const int zero[4] = {4, 0, 4, 4};
    rc = qf_dirac_fermion_write(tmp_path("zero.lime"), zero, psi, 64);
    CHECK(rc != QF_SUCCESS, "extent 0 refused (%s)", rc ? qf_last_error() : "accepted");
    free(psi);

    /* tidy up */
    const char *names[] = {"psi64.lime", "psi32.lime", "bad.lime"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) unlink(tmp_path(names[k]));
    rmdir(tmpdir);
    return qf_check_summary();
}
