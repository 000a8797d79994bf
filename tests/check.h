/* A minimal test harness: CHECK counts and reports, qf_check_summary prints "N passed, M failed"
 * and gives the exit status. */
#ifndef QF_TEST_CHECK_H
#define QF_TEST_CHECK_H

#include <stdio.h>

static int qf_checks_passed, qf_checks_failed;

#define CHECK(cond, ...)                                                                                           \
    do {                                                                                                           \
        if (cond) {                                                                                                \
            qf_checks_passed++;                                                                                    \
        } else {                                                                                                   \
            qf_checks_failed++;                                                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                            \
            printf(__VA_ARGS__);                                                                                   \
            printf("\n");                                                                                          \
        }                                                                                                          \
    } while (0)

static inline int qf_check_summary(void)
{
    printf("%d passed, %d failed\n", qf_checks_passed, qf_checks_failed);
    return qf_checks_failed ? 1 : 0;
}

#endif
