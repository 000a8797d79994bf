/* Which version of the CPU Dirac kernels runs (kernels/simd.h: built for x86-64-v4, x86-64-v3 and the
 * baseline when QF_CPU_DISPATCH is on): the best the CPU has, or the one QF_CPU_KERNELS names. Naming
 * one is how the tests run every version on a machine that has them all, and how a user compares
 * them; a version the CPU or the build lacks is refused at start-up, never replaced in silence. */
#include "quarkflow/qf_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(QF_CPU_DISPATCH) && defined(__x86_64__)
#define QF_CPU_VERSIONS_BUILT 1
#else
#define QF_CPU_VERSIONS_BUILT 0
#endif

static const char *const names[] = {"baseline", "avx2", "avx512"};
static const char *const targets[] = {"the target's baseline: a site at a time, in double", "x86-64-v3: AVX2, FMA",
                                       "x86-64-v4: AVX-512"};

static int level = -1; /* set once, before any kernel runs; read by every CPU worker after */

static qf_cpu_kernels_level best_level(void)
{
#if QF_CPU_VERSIONS_BUILT
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) return QF_CPU_KERNELS_AVX512;
    if (__builtin_cpu_supports("x86-64-v3")) return QF_CPU_KERNELS_AVX2;
#endif
    return QF_CPU_KERNELS_BASELINE;
}

int qf_cpu_kernels_select(void)
{
    qf_cpu_kernels_level best = best_level();
    const char *want = getenv("QF_CPU_KERNELS");
    if (!want || !*want || !strcmp(want, "auto")) {
        __atomic_store_n(&level, (int)best, __ATOMIC_RELEASE);
        return QF_SUCCESS;
    }
    for (int l = 0; l <= QF_CPU_KERNELS_AVX512; l++) {
        if (strcmp(want, names[l])) continue;
        if (l > (int)best)
            return qf_fail("QF_CPU_KERNELS=%s: %s has no kernels for %s (best here: %s); use %s or auto", want,
                           QF_CPU_VERSIONS_BUILT ? "this CPU" : "this build (not x86-64, or QF_CPU_DISPATCH off)",
                           targets[l], names[best], best == QF_CPU_KERNELS_BASELINE ? "baseline" : "a lower one");
        __atomic_store_n(&level, l, __ATOMIC_RELEASE);
        return QF_SUCCESS;
    }
    return qf_fail("QF_CPU_KERNELS=%s: unknown version of the CPU kernels (auto, avx512, avx2 or baseline)", want);
}

qf_cpu_kernels_level qf_cpu_kernels(void)
{
    int l = __atomic_load_n(&level, __ATOMIC_ACQUIRE);
    if (l < 0) { /* a program that calls the launchers without starting the runtime or selecting */
        if (qf_cpu_kernels_select()) {
            /* a kernel has no way to fail: running another version than asked for would be silent */
            fprintf(stderr, "quarkflow: error: %s\n", qf_last_error());
            exit(1);
        }
        l = __atomic_load_n(&level, __ATOMIC_ACQUIRE);
    }
    return (qf_cpu_kernels_level)l;
}

const char *qf_cpu_kernels_name(qf_cpu_kernels_level l) { return names[l]; }

const char *qf_cpu_kernels_target(qf_cpu_kernels_level l) { return targets[l]; }
