/*
 * cpu.h - the vector instructions this processor and its OS give the runtime,
 * found once at run time (cpu.c). Private to the runtime.
 */
#ifndef TAGC_CPU_H
#define TAGC_CPU_H

#include "tagc.h" /* TAGC_LIKELY */

/* Levels, each including the ones below. */
enum {
    TAGC_CPU_PLAIN = 0, /* no vector path (not x86, or capped by TAGC_CPU) */
    TAGC_CPU_SSE2 = 1,  /* every x86-64 */
    TAGC_CPU_AVX = 2,   /* VEX encoding, pshufb in three operands */
    TAGC_CPU_AVX2 = 3,  /* 32-byte integer vectors */
};

/* The level, computed on the first call: cpuid and xgetbv (the OS saves the
 * YMM registers), capped by the environment variable TAGC_CPU (plain, sse2,
 * avx or avx2) so that tests can run every path on one machine. */
int tagc_cpu_level(void);

/* The level once known, -1 before: what tagc_cpu reads in line (hidden: not
 * exported from the shared library, so read without the GOT). */
#if defined(__GNUC__)
__attribute__((visibility("hidden")))
#endif
extern int tagc_cpu_known;

/* tagc_cpu_level, in line once known (a load and a test; cpu.c sets it when
 * the library is loaded). */
static inline int tagc_cpu(void)
{
    int level = __atomic_load_n(&tagc_cpu_known, __ATOMIC_RELAXED);
    return TAGC_LIKELY(level >= 0) ? level : tagc_cpu_level();
}

#endif /* TAGC_CPU_H */
