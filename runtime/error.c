/* The error channel: a per-thread message that the failing function fills in and callers extend. */
#include "quarkflow/qf_defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char qf_message[2048];

const char *qf_last_error(void) { return qf_message[0] ? qf_message : "no error recorded"; }

int qf_fail(const char *fmt, ...)
{
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

const char *qf_precision_name(qf_precision p) { return p == QF_DOUBLE ? "double" : "single"; }

int qf_precision_parse(const char *s, qf_precision *p)
{
    if (!strcmp(s, "double")) { *p = QF_DOUBLE; return QF_SUCCESS; }
    if (!strcmp(s, "single") || !strcmp(s, "float")) { *p = QF_SINGLE; return QF_SUCCESS; }
    return qf_fail("unknown precision '%s': use double or single", s);
}
