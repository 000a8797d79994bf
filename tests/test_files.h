/* Whole files in and out of memory, for the I/O tests that read samples, damage copies of them and
 * write them back. */
#ifndef QF_TEST_FILES_H
#define QF_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>

/* The file's bytes in malloc'ed memory with a NUL after them (so text can be searched), *size (may
 * be NULL) their number; NULL and size 0 when the file cannot be read. */
static inline unsigned char *qf_test_read_file(const char *path, size_t *size)
{
    if (size) *size = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    long n = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
    unsigned char *b = n >= 0 && fseek(fp, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    if (!b) return NULL;
    b[n] = 0;
    if (size) *size = (size_t)n;
    return b;
}

/* Writes n bytes to path (replacing it); 0, or -1 when that fails. */
static inline int qf_test_write_file(const char *path, const void *b, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp) return -1;
    int ok = fwrite(b, 1, n, fp) == n;
    return fclose(fp) == 0 && ok ? 0 : -1;
}

#endif
