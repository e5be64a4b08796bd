/*
 * cpu.c - tagc_cpu_level (cpu.h): cpuid once, instead of gcc's
 * __builtin_cpu_supports, which links libgcc's whole CPU model table (4.5 KB of
 * .text, more than this file's own job needs).
 */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>

static int probe(void)
{
    unsigned a, b, c, d;
    int level = TAGC_CPU_PLAIN;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return level;
    if (d & (1u << 26))
        level = TAGC_CPU_SSE2;
    /* AVX: the CPU has it (ECX 28) and the OS saves XMM and YMM (OSXSAVE, ECX
     * 27, then XCR0 bits 1 and 2) */
    if ((c & (1u << 28)) && (c & (1u << 27))) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        (void)hi;
        if ((lo & 6u) == 6u) {
            level = TAGC_CPU_AVX;
            if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5)))
                level = TAGC_CPU_AVX2;
        }
    }
    return level;
}
#else
static int probe(void)
{
    return TAGC_CPU_PLAIN;
}
#endif

/* TAGC_CPU caps the level (an unknown name caps nothing). */
static int cap(int level)
{
    static const char *const names[] = {"plain", "sse2", "avx", "avx2"};
    const char *s = getenv("TAGC_CPU");
    if (s == NULL)
        return level;
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(s, names[i]) == 0)
            return i < level ? i : level;
    return level;
}

/* Threads that race compute the same value. */
int tagc_cpu_known = -1;

/* Known from the start where the compiler runs constructors: then the hot
 * paths read tagc_cpu_known alone (tagc_cpu's test stays for the rest). */
#if defined(__GNUC__)
__attribute__((constructor)) static void at_load(void)
{
    (void)tagc_cpu_level();
}
#endif

int tagc_cpu_level(void)
{
    int level = __atomic_load_n(&tagc_cpu_known, __ATOMIC_RELAXED);
    if (level < 0) {
        level = cap(probe());
        __atomic_store_n(&tagc_cpu_known, level, __ATOMIC_RELAXED);
    }
    return level;
}
