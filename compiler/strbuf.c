/*
 * strbuf.c - the growable, always NUL-terminated text the generators write into.
 */
#include "pipeline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_reserve(strbuf *sb, size_t extra)
{
    if (extra > SIZE_MAX - sb->len - 1)
        goto oom;
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *d = realloc(sb->data, cap);
    if (!d)
        goto oom;
    sb->data = d;
    sb->cap = cap;
    return;
oom:
    /* The generators have no error path for memory; neither does a compiler user. */
    fputs("tagc: out of memory\n", stderr);
    abort();
}

void sb_init(strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb_reserve(sb, 0);
    sb->data[0] = '\0';
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void sb_put(strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s)
{
    sb_put(sb, s, strlen(s));
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    sb_reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}
