/*
 * failmalloc.c - an LD_PRELOAD library that makes one allocation fail.
 *
 * TAGC_FAIL_ALLOC=N: the Nth call (counting from 1) of malloc, calloc,
 * realloc, aligned_alloc, posix_memalign or memalign returns NULL (ENOMEM),
 * every other one succeeds. TAGC_ALLOC_COUNT=FILE: at exit, the number of
 * calls is written to FILE. Every caller counts, the C library's own
 * (fopen, realpath, thread start) included: glibc lets malloc be replaced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc's own allocator, under the names it exports for wrappers like this */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static atomic_long calls;
static long fail_at = -1; /* -1: not read yet; 0: never fail */

/* getenv does not allocate: safe from the first malloc on */
static long env_long(const char *name)
{
    const char *s = getenv(name);
    long v = 0;
    for (; s && *s >= '0' && *s <= '9'; s++)
        v = v * 10 + (*s - '0');
    return v;
}

static int should_fail(void)
{
    if (fail_at < 0)
        fail_at = env_long("TAGC_FAIL_ALLOC");
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (n == fail_at) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t size)
{
    return should_fail() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    return should_fail() ? NULL : __libc_realloc(p, size);
}

void *aligned_alloc(size_t align, size_t size)
{
    return should_fail() ? NULL : __libc_memalign(align, size);
}

void *memalign(size_t align, size_t size)
{
    return should_fail() ? NULL : __libc_memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    if (should_fail())
        return ENOMEM;
    void *p = __libc_memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void free(void *p)
{
    __libc_free(p);
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("TAGC_ALLOC_COUNT");
    if (!path)
        return;
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", atomic_load(&calls));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, text, (size_t)n);
        (void)w;
        close(fd);
    }
}
