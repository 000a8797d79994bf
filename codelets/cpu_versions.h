/* The versions of the CPU codelet functions that run the batch kernels (kernels/simd.h), and the
 * call that picks one at run time: the codelet layer's part of the CPU kernels, since the choice is
 * the runtime's (qf_cpu_kernels, runtime/cpu_kernels.c) and the kernels never see the runtime. */
#ifndef QF_CPU_VERSIONS_H
#define QF_CPU_VERSIONS_H

#include "quarkflow/qf_runtime.h" /* qf_cpu_kernels */

/* The CPU codelet functions that run the batch kernels are compiled for the target's baseline and, on
 * x86-64 with QF_CPU_DISPATCH (the CMake option of that name), also for x86-64-v3 (AVX2, FMA),
 * whose 256-bit registers hold one batch, and for x86-64-v4 (AVX-512), which keeps the batch in
 * 256-bit registers but has 32 of them instead of 16: the hop sum (24 vectors) no longer spills as
 * much (one 16x8x8x8 block on the Zen 4 VM: interior 62 -> 53 ns a site in the cache, 88 -> 82 out of
 * it). One binary then uses AVX-512 or AVX2 and FMA where they exist and runs on any x86-64.
 *
 * QF_CPU_VERSIONS(body, scalar, params, args) defines body_v4 and body_v3, each compiling the static
 * inline function body (every kernel it calls is QF_HD_INLINE, so inlined and compiled for the
 * version's target), and body_base, which runs scalar instead: the scalar kind's loop, one site at a
 * time in double as a CUDA thread runs it. Emulated on the baseline's 16-byte registers, the batch
 * kinds ran 1.6x slower than that (one 16x8x8x8 block's hop in the cache: 864 against 495-536 ns a
 * site on the VM, `QF_CPU_KERNELS=baseline quarkflow bench kernels`) and took 80% of the kernel
 * files' compile time (wilson_interior.c: 261 of 322 s alone; the four files and their dependants
 * now build in 1 minute on two cores instead of 5). QF_CPU_CALL(body, args) calls the version qf_cpu_kernels() names:
 * the best the CPU runs, or the one QF_CPU_KERNELS asks for, so that tests run every version on one
 * machine. */
#if defined(QF_CPU_DISPATCH) && defined(__x86_64__)
#define QF_CPU_VERSIONS(body, scalar, params, args)                                                            \
    __attribute__((noinline, target("arch=x86-64-v4"))) static void body##_v4 params { body args; }             \
    __attribute__((noinline, target("arch=x86-64-v3"))) static void body##_v3 params { body args; }             \
    __attribute__((noinline)) static void body##_base params { scalar args; }
#define QF_CPU_CALL(body, args)                                                                                \
    do {                                                                                                       \
        switch (qf_cpu_kernels()) {                                                                            \
        case QF_CPU_KERNELS_AVX512: body##_v4 args; break;                                                     \
        case QF_CPU_KERNELS_AVX2: body##_v3 args; break;                                                       \
        default: body##_base args; break;                                                                      \
        }                                                                                                      \
    } while (0)
#else
#define QF_CPU_VERSIONS(body, scalar, params, args)
#define QF_CPU_CALL(body, args) body args
#endif

#endif
