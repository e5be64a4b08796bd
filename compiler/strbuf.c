/*
 * strbuf.c - the growable, always NUL-terminated text the generators write into.
 *
 * The generators write a few hundred megabytes of C for big schemas, a line at
 * a time, so formatting is done here rather than by vsnprintf: the
 * conversions the compiler uses (%s, %.*s, %c, %d, %i, %u, %zu, %ld, %lu,
 * %lld, %llu and %%, without flags or widths) are expanded straight into the
 * buffer; a format with any other conversion goes to vsnprintf whole, so the
 * text is always exactly what printf would write.
 */
#include "pipeline.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_grow(strbuf *sb, size_t extra)
{
    if (extra > SIZE_MAX - sb->len - 1)
        goto oom;
    size_t need = sb->len + extra + 1;
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
    sb->flush = NULL;
    sb->flush_ctx = NULL;
    sb_grow(sb, 0);
    sb->data[0] = '\0';
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void sb_puts(strbuf *sb, const char *s)
{
    sb_put(sb, s, strlen(s));
}

void sb_flush(strbuf *sb)
{
    if (!sb->flush || sb->len == 0)
        return;
    sb->flush(sb->flush_ctx, sb);
    sb->len = 0;
    if (!sb->data) /* the flush function took the buffer and had none to give back */
        sb_grow(sb, 0);
    sb->data[0] = '\0';
}

/* MARK: - Formatting */

/* The formatting below writes through a cursor held in locals: d, where the
 * next byte goes, and room, the bytes free up to the end of the buffer. The
 * compiler keeps both in registers across the copies (sb->data and sb->len
 * would be reloaded after every memcpy call); sb->len is brought up to date
 * only to grow the buffer and at the end. */
typedef struct cursor {
    strbuf *sb;
    char *d;
    size_t room; /* > 0 always: the NUL's place */
} cursor;

/* Copies s[0..n), n <= 16, without a call: most pieces of a line (names,
 * the text between conversions) are that short, and memcpy's call and size
 * dispatch cost more than the copy. Two overlapping moves cover any n. */
static inline void copy_short(char *d, const char *s, size_t n)
{
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Appends s[0..n), without the NUL (there is room for it). */
static inline void put_raw(cursor *c, const char *s, size_t n)
{
    if (n >= c->room) {
        strbuf *sb = c->sb;
        sb->len = (size_t)(c->d - sb->data);
        sb_grow(sb, n);
        c->d = sb->data + sb->len;
        c->room = sb->cap - sb->len;
    }
    if (n <= 16)
        copy_short(c->d, s, n);
    else
        memcpy(c->d, s, n);
    c->d += n;
    c->room -= n;
}

/* Appends the decimal digits of v (negative when neg). */
static inline void put_int(cursor *c, unsigned long long v, bool neg)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (neg)
        *--p = '-';
    put_raw(c, p, (size_t)(tmp + sizeof tmp - p));
}

static inline void put_signed(cursor *c, long long v)
{
    /* the magnitude of LLONG_MIN does not fit a long long: negate as unsigned */
    put_int(c, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* printf's text for a %s argument that is NULL (glibc's). */
static const char null_text[] = "(null)";

/* Expands fmt[0..fmt_len) with the conversions above; false (and sb->len
 * unchanged) when fmt has another one. ap is consumed either way. */
static bool format_fast(strbuf *sb, const char *fmt, size_t fmt_len, va_list ap)
{
    size_t start = sb->len;
    sb_reserve(sb, 0);
    cursor cur = {sb, sb->data + sb->len, sb->cap - sb->len};
    cursor *c = &cur;
    const char *p = fmt;
    const char *fmt_end = fmt + fmt_len;
    for (;;) {
        /* the literal text up to the next '%' (memchr and memcpy: vector code) */
        const char *pc = memchr(p, '%', (size_t)(fmt_end - p));
        put_raw(c, p, (size_t)((pc ? pc : fmt_end) - p));
        if (!pc) {
            sb->len = (size_t)(c->d - sb->data);
            *c->d = '\0';
            return true;
        }
        const char *q = pc + 1; /* the conversion after '%' */
        if (*q == 's') { /* most of them: tested before the switch's indirect jump */
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = null_text;
            put_raw(c, s, strlen(s));
            p = q + 1;
            continue;
        }
        switch (*q) {
        case '.':
            if (q[1] != '*' || q[2] != 's')
                goto slow;
            {
                int prec = va_arg(ap, int);
                const char *s = va_arg(ap, const char *);
                if (!s) /* glibc: "(null)" unless the precision cuts it */
                    s = prec >= 0 && (size_t)prec < sizeof null_text - 1 ? "" : null_text;
                put_raw(c, s, prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
            }
            q += 2;
            break;
        case 'c': {
            char ch = (char)(unsigned char)va_arg(ap, int);
            put_raw(c, &ch, 1);
            break;
        }
        case 'd':
        case 'i':
            put_signed(c, va_arg(ap, int));
            break;
        case 'u':
            put_int(c, va_arg(ap, unsigned int), false);
            break;
        case 'z':
            if (q[1] != 'u')
                goto slow;
            put_int(c, va_arg(ap, size_t), false);
            q++;
            break;
        case 'l':
            if (q[1] == 'l' && (q[2] == 'd' || q[2] == 'i')) {
                put_signed(c, va_arg(ap, long long));
                q += 2;
            } else if (q[1] == 'l' && q[2] == 'u') {
                put_int(c, va_arg(ap, unsigned long long), false);
                q += 2;
            } else if (q[1] == 'd' || q[1] == 'i') {
                put_signed(c, va_arg(ap, long));
                q++;
            } else if (q[1] == 'u') {
                put_int(c, va_arg(ap, unsigned long), false);
                q++;
            } else {
                goto slow;
            }
            break;
        case '%':
            put_raw(c, "%", 1);
            break;
        default:
            goto slow;
        }
        p = q + 1;
    }
slow:
    sb->len = start;
    sb->data[start] = '\0';
    return false;
}

void sb_vprintf_n(strbuf *sb, const char *fmt, size_t fmt_len, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    if (!format_fast(sb, fmt, fmt_len, ap)) {
        va_list measure;
        va_copy(measure, again);
        int n = vsnprintf(NULL, 0, fmt, measure);
        va_end(measure);
        if (n > 0) {
            sb_reserve(sb, (size_t)n);
            vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, again);
            sb->len += (size_t)n;
        }
    }
    va_end(again);
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    sb_vprintf_n(sb, fmt, strlen(fmt), ap);
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}
