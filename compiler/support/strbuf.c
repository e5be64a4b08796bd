/*
 * strbuf.c - the growable, always NUL-terminated text the generators write into.
 *
 * The generators write a few hundred megabytes of C for big schemas, a line at
 * a time, so formatting is done here rather than by vsnprintf: the
 * conversions the compiler uses (%s, %.*s, %c, %d, %i, %u, %zu, %ld, %lu,
 * %lld, %llu and %%, without flags or widths) are expanded straight into the
 * buffer; a format with any other conversion goes to vsnprintf whole, so the
 * text is always exactly what printf would write. Big blocks (big_alloc)
 * live here too: strbuf is the lowest module, and its buffers are the
 * biggest users.
 */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */

#include "pipeline.h"
#include "fmt.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* MARK: - Big blocks */

enum { HUGE_PAGE = 2 * 1024 * 1024, BIG_BLOCK = 1024 * 1024 };

static void *oom(void)
{
    /* The compiler has no error path for memory; neither does its user. */
    tagc_out_of_memory();
}

void *big_alloc(size_t size)
{
    if (size < BIG_BLOCK) {
        void *p = malloc(size ? size : 1);
        return p ? p : oom();
    }
    if (size > SIZE_MAX - HUGE_PAGE)
        return oom();
    size_t rounded = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, rounded);
    if (!p)
        return oom();
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

void *big_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return oom();
    void *p = big_alloc(n * size);
    memset(p, 0, n * size);
    return p;
}

/* MARK: - strbuf */

void sb_grow(strbuf *sb, size_t extra)
{
    if (extra > SIZE_MAX - sb->len - 1)
        oom();
    size_t need = sb->len + extra + 1;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *d;
    if (cap >= BIG_BLOCK) { /* a fresh big block: realloc would not mark it */
        d = big_alloc(cap);
        if (sb->data)
            memcpy(d, sb->data, sb->len + 1);
        free(sb->data);
    } else {
        d = realloc(sb->data, cap);
        if (!d)
            oom();
    }
    sb->data = d;
    sb->cap = cap;
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

/* Copies s[0..n), n <= 32, without a call: most pieces of a line (names,
 * the text between conversions) are that short, and memcpy's call and size
 * dispatch cost more than the copy. Two overlapping moves cover any n. */
static inline void copy_short(char *d, const char *s, size_t n)
{
    if (n > 16) {
        uint64_t a, b, y, z;
        memcpy(&a, s, 8);
        memcpy(&b, s + 8, 8);
        memcpy(&y, s + n - 16, 8);
        memcpy(&z, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + 8, &b, 8);
        memcpy(d + n - 16, &y, 8);
        memcpy(d + n - 8, &z, 8);
    } else if (n >= 8) {
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
    if (n <= 32)
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

/* A format is parsed into steps (fmt_parse), then expanded (fmt_run): the
 * parse, a memchr for each '%', is done once per format string when the
 * formats are cached (sb_vprintf_cached). */
enum fmt_conv {
    CV_END, /* the literal text after the last conversion */
    CV_S, CV_PREC_S, CV_C, CV_INT, CV_UINT, CV_LONG, CV_ULONG, CV_LLONG, CV_ULLONG, CV_SIZE,
    CV_PERCENT,
};

typedef struct fmt_step {
    uint32_t lit;  /* literal bytes before the conversion */
    uint8_t conv;  /* enum fmt_conv */
    uint8_t spec;  /* the conversion's bytes, '%' included */
} fmt_step;

enum { FMT_MAX_STEPS = 40 }; /* emit's formats take 31 arguments at most */

/* The conversion at q (after a '%'), its length (after the '%') in *len;
 * -1 when it is not one of the fast ones. */
static int fmt_conv_at(const char *q, const char *end, uint8_t *len)
{
    size_t left = (size_t)(end - q);
    char c0 = left > 0 ? q[0] : '\0', c1 = left > 1 ? q[1] : '\0', c2 = left > 2 ? q[2] : '\0';
    *len = 1;
    switch (c0) {
    case 's': return CV_S;
    case 'c': return CV_C;
    case 'd': case 'i': return CV_INT;
    case 'u': return CV_UINT;
    case '%': return CV_PERCENT;
    case '.':
        *len = 3;
        return c1 == '*' && c2 == 's' ? CV_PREC_S : -1;
    case 'z':
        *len = 2;
        return c1 == 'u' ? CV_SIZE : -1;
    case 'l':
        *len = 3;
        if (c1 == 'l' && (c2 == 'd' || c2 == 'i'))
            return CV_LLONG;
        if (c1 == 'l' && c2 == 'u')
            return CV_ULLONG;
        *len = 2;
        if (c1 == 'd' || c1 == 'i')
            return CV_LONG;
        if (c1 == 'u')
            return CV_ULONG;
        return -1;
    default:
        return -1;
    }
}

/* The steps of fmt[0..fmt_len) into steps[0..FMT_MAX_STEPS); the count, or 0
 * when fmt has another conversion or too many (vsnprintf formats it). */
static size_t fmt_parse(const char *fmt, size_t fmt_len, fmt_step *steps)
{
    const char *p = fmt, *end = fmt + fmt_len;
    for (size_t n = 0; n < FMT_MAX_STEPS; n++) {
        const char *pc = memchr(p, '%', (size_t)(end - p));
        steps[n].lit = (uint32_t)((pc ? pc : end) - p);
        if (!pc) {
            steps[n].conv = CV_END;
            steps[n].spec = 0;
            return n + 1;
        }
        uint8_t len;
        int conv = fmt_conv_at(pc + 1, end, &len);
        if (conv < 0 || (size_t)(pc - fmt) > UINT32_MAX)
            return 0;
        steps[n].conv = (uint8_t)conv;
        steps[n].spec = (uint8_t)(1 + len);
        p = pc + 1 + len;
    }
    return 0;
}

/* Expands fmt as parsed into steps, with the arguments in ap. Inlined in
 * its two callers: the call and va_list passing cost as much as a short line. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void fmt_run(strbuf *sb, const char *fmt, const fmt_step *steps, va_list ap)
{
    sb_reserve(sb, 0);
    cursor cur = {sb, sb->data + sb->len, sb->cap - sb->len};
    cursor *c = &cur;
    const char *p = fmt;
    for (const fmt_step *st = steps;; st++) {
        put_raw(c, p, st->lit);
        p += st->lit + st->spec;
        if (st->conv == CV_S) { /* most of them: tested before the switch's indirect jump */
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = null_text;
            put_raw(c, s, strlen(s));
            continue;
        }
        switch ((enum fmt_conv)st->conv) {
        case CV_END:
            sb->len = (size_t)(c->d - sb->data);
            *c->d = '\0';
            return;
        case CV_S: /* above */
            break;
        case CV_PREC_S: {
            int prec = va_arg(ap, int);
            const char *s = va_arg(ap, const char *);
            if (!s) /* glibc: "(null)" unless the precision cuts it */
                s = prec >= 0 && (size_t)prec < sizeof null_text - 1 ? "" : null_text;
            put_raw(c, s, prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
            break;
        }
        case CV_C: {
            char ch = (char)(unsigned char)va_arg(ap, int);
            put_raw(c, &ch, 1);
            break;
        }
        case CV_INT: put_signed(c, va_arg(ap, int)); break;
        case CV_UINT: put_int(c, va_arg(ap, unsigned int), false); break;
        case CV_LONG: put_signed(c, va_arg(ap, long)); break;
        case CV_ULONG: put_int(c, va_arg(ap, unsigned long), false); break;
        case CV_LLONG: put_signed(c, va_arg(ap, long long)); break;
        case CV_ULLONG: put_int(c, va_arg(ap, unsigned long long), false); break;
        case CV_SIZE: put_int(c, va_arg(ap, size_t), false); break;
        case CV_PERCENT: put_raw(c, "%", 1); break;
        }
    }
}

/* A format fmt_parse refuses: vsnprintf's, measured first. */
static void fmt_slow(strbuf *sb, const char *fmt, va_list ap)
{
    va_list measure;
    va_copy(measure, ap);
    int n = vsnprintf(NULL, 0, fmt, measure);
    va_end(measure);
    if (n > 0) {
        sb_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
        sb->len += (size_t)n;
    }
}

void sb_vprintf_n(strbuf *sb, const char *fmt, size_t fmt_len, va_list ap)
{
    fmt_step steps[FMT_MAX_STEPS];
    if (fmt_parse(fmt, fmt_len, steps) > 0)
        fmt_run(sb, fmt, steps, ap);
    else
        fmt_slow(sb, fmt, ap);
}

/* MARK: - Formats parsed once */

/* A format's steps, by the format's address: a hash table. */
typedef struct fmt_plan {
    const char *fmt; /* NULL: empty slot */
    fmt_step *steps; /* NULL: formatted by vsnprintf */
} fmt_plan;

struct fmt_cache {
    fmt_plan *slots;
    size_t n, cap;
};

fmt_cache *fmt_cache_new(void)
{
    fmt_cache *c = calloc(1, sizeof *c);
    if (!c)
        tagc_out_of_memory();
    return c;
}

void fmt_cache_free(fmt_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->cap; i++)
        free(c->slots[i].steps);
    free(c->slots);
    free(c);
}

static fmt_plan *fmt_slot(fmt_cache *c, const char *fmt)
{
    size_t mask = c->cap - 1;
    for (size_t i = hash_ptr(fmt) & mask;; i = (i + 1) & mask) {
        fmt_plan *pl = &c->slots[i];
        if (pl->fmt == fmt || pl->fmt == NULL)
            return pl;
    }
}

/* The plan of a format not seen before: parsed, and added. */
static fmt_plan *fmt_add(fmt_cache *c, const char *fmt)
{
    if (2 * (c->n + 1) > c->cap) {
        fmt_cache old = *c;
        c->cap = old.cap ? 2 * old.cap : 512;
        c->slots = calloc(c->cap, sizeof *c->slots);
        if (!c->slots)
            tagc_out_of_memory();
        for (size_t i = 0; i < old.cap; i++)
            if (old.slots[i].fmt)
                *fmt_slot(c, old.slots[i].fmt) = old.slots[i];
        free(old.slots);
    }
    fmt_plan *pl = fmt_slot(c, fmt);
    fmt_step steps[FMT_MAX_STEPS];
    size_t n = fmt_parse(fmt, strlen(fmt), steps);
    *pl = (fmt_plan){fmt, NULL};
    if (n > 0) {
        pl->steps = malloc(n * sizeof *steps);
        if (!pl->steps)
            tagc_out_of_memory();
        memcpy(pl->steps, steps, n * sizeof *steps);
    }
    c->n++;
    return pl;
}

void sb_vprintf_cached(strbuf *sb, fmt_cache *c, const char *fmt, va_list ap)
{
    fmt_plan *pl = c->cap ? fmt_slot(c, fmt) : NULL;
    if (!pl || !pl->fmt)
        pl = fmt_add(c, fmt);
    if (pl->steps)
        fmt_run(sb, fmt, pl->steps, ap);
    else
        fmt_slow(sb, fmt, ap);
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
