/* The error channel: a per-thread message that the failing function fills in and callers extend, and
 * the per-thread sequences whose first failure stops every later submission (qf_defs.h). */
#include "quarkflow/qf_defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char qf_message[2048];
static _Thread_local int sequence_depth, sequence_failed; /* qf_sequence_begin */

const char *qf_last_error(void) { return qf_message[0] ? qf_message : "no error recorded"; }

void qf_sequence_begin(void)
{
    if (sequence_depth++ == 0) sequence_failed = 0;
}

int qf_sequence_failed(void) { return sequence_depth > 0 && sequence_failed; }

int qf_sequence_end(void)
{
    int failed = qf_sequence_failed();
    if (sequence_depth > 0 && --sequence_depth == 0) sequence_failed = 0;
    return failed ? QF_ERROR : QF_SUCCESS;
}

int qf_fail(const char *fmt, ...)
{
    if (sequence_depth > 0) sequence_failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(qf_message, sizeof qf_message, fmt, ap);
    va_end(ap);
    return QF_ERROR;
}

int qf_fail_context(const char *fmt, ...)
{
    char prefix[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    size_t np = strlen(prefix) + 2, nold = strlen(qf_message);
    if (np + nold + 1 > sizeof qf_message) nold = sizeof qf_message - np - 1;
    memmove(qf_message + np, qf_message, nold);
    qf_message[np + nold] = '\0';
    memcpy(qf_message, prefix, np - 2);
    qf_message[np - 2] = ':';
    qf_message[np - 1] = ' ';
    return QF_ERROR;
}

const char *qf_precision_name(qf_precision p)
{
    return p == QF_DOUBLE ? "double" : p == QF_SINGLE ? "single" : p == QF_HALF ? "half" : "unknown";
}

int qf_precision_check(qf_precision p, const char *what)
{
    if (p == QF_DOUBLE || p == QF_SINGLE || p == QF_HALF) return QF_SUCCESS;
    return qf_fail("unknown %s precision %d: use QF_DOUBLE, QF_SINGLE or QF_HALF", what, (int)p);
}

int qf_precision_check_full(qf_precision p, const char *what)
{
    if (p == QF_HALF)
        return qf_fail("%s precision half: half precision is kept for the Wilson-clover operator, its solvers' "
                       "sloppy fields and BLAS; give double or single here",
                       what);
    return qf_precision_check(p, what);
}

int qf_precision_parse(const char *s, qf_precision *p)
{
    if (!strcmp(s, "double")) { *p = QF_DOUBLE; return QF_SUCCESS; }
    if (!strcmp(s, "single") || !strcmp(s, "float")) { *p = QF_SINGLE; return QF_SUCCESS; }
    if (!strcmp(s, "half")) { *p = QF_HALF; return QF_SUCCESS; }
    return qf_fail("unknown precision '%s': use double, single or half", s);
}

const char *qf_recon_name(qf_recon r) { return r == QF_RECON_12 ? "12" : r == QF_RECON_8 ? "8" : "18"; }

int qf_recon_check(qf_recon r, const char *what)
{
    if (r == QF_RECON_18 || r == QF_RECON_12 || r == QF_RECON_8) return QF_SUCCESS;
    return qf_fail("unknown %s link reconstruction %d: use QF_RECON_18, QF_RECON_12 or QF_RECON_8", what, (int)r);
}

int qf_recon_parse(const char *s, qf_recon *r)
{
    if (!strcmp(s, "18")) { *r = QF_RECON_18; return QF_SUCCESS; }
    if (!strcmp(s, "12")) { *r = QF_RECON_12; return QF_SUCCESS; }
    if (!strcmp(s, "8")) { *r = QF_RECON_8; return QF_SUCCESS; }
    return qf_fail("unknown link reconstruction '%s': use 18 (whole links), 12 (two rows) or 8 (QUDA's 8 reals)", s);
}
