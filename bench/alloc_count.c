/*
 * alloc_count.c - counts heap allocations of the whole bench process.
 *
 * The bench executable defines malloc, calloc, realloc and free itself. The
 * dynamic linker resolves every caller's malloc (the executable's own code,
 * libtagc, and the shared libcjson, libjansson and libjson-c) to the first
 * definition in search order, which is the executable's, so these wrappers see
 * every allocation. They count and forward to glibc's allocator through its
 * exported __libc_* entry points: no LD_PRELOAD, no hooks (glibc 2.34 removed
 * __malloc_hook), no change to the allocator being measured. glibc-specific;
 * elsewhere define BENCH_NO_ALLOC_COUNT and the allocs/op column reads 0.
 *
 * Counted: every call of malloc, calloc and realloc (a realloc that moves or
 * grows a block is an allocation in the sense that matters for speed). free,
 * posix_memalign and friends are not counted.
 */
#include <stddef.h>

size_t bench_alloc_calls;

#if !defined(BENCH_NO_ALLOC_COUNT) && defined(__linux__)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

void *malloc(size_t size)
{
    bench_alloc_calls++;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    bench_alloc_calls++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    bench_alloc_calls++;
    return __libc_realloc(p, size);
}

void free(void *p)
{
    __libc_free(p);
}
#endif
