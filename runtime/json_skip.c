/*
 * json_skip.c - the validating skipper (tagc_json_skip) and json.RawMessage
 * (tagc_json_read_raw).
 *
 * The skipper accepts exactly what Go 1.19's scanner (scanner.go) accepts for
 * one value: RFC 8259 grammar, strings without raw control characters and with
 * valid escapes, invalid UTF-8 accepted (Go replaces it when decoding; here
 * nothing is decoded). It is iterative: the kind of each open container is one
 * bit of a stack that lives on the C stack up to 1024 levels and in malloc'd
 * memory beyond (only for documents nested that deep, with a max_depth raised
 * to allow it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

/* MARK: - SWAR helpers (as in str.c) */

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

static inline uint64_t load64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Bytes < n among bytes < 0x80 (bytes >= 0x80 never flagged); the lowest flag is exact. */
static inline uint64_t swar_lt(uint64_t v, uint8_t n)
{
    return (v - ONES * n) & ~v & HIGHS;
}

static inline uint64_t swar_eq(uint64_t v, uint8_t c)
{
    uint64_t x = v ^ (ONES * c);
    return (x - ONES) & ~x & HIGHS;
}

static inline size_t swar_first(uint64_t mask)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(mask) >> 3;
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (size_t)__builtin_clzll(mask) >> 3;
#else
    (void)mask;
    return 0; /* unknown byte order: the caller rechecks bytewise */
#endif
}

static inline bool is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* A character for an error message, as Go's quoteChar shows it. */
static const char *show(char c, char tmp[8])
{
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7f)
        snprintf(tmp, 8, "'%c'", u);
    else
        snprintf(tmp, 8, "'\\x%02x'", u);
    return tmp;
}

/* MARK: - Pieces */

/* Skips a string body: p is just after the opening quote. Returns the byte after
 * the closing quote, or NULL with *bad set to the offending byte (== end: input
 * ended). */
static const char *skip_string(const char *p, const char *end, const char **bad)
{
    for (;;) {
        while (end - p >= 8) {
            uint64_t v = load64(p);
            uint64_t m = swar_lt(v, 0x20) | swar_eq(v, '"') | swar_eq(v, '\\');
            if (m != 0) {
                p += swar_first(m);
                break;
            }
            p += 8;
        }
        if (p >= end) {
            *bad = end;
            return NULL;
        }
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p + 1;
        if (c < 0x20) {
            *bad = p;
            return NULL;
        }
        if (c != '\\') {
            p++;
            continue;
        }
        if (end - p < 2) {
            *bad = end;
            return NULL;
        }
        switch (p[1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            p += 2;
            continue;
        case 'u':
            for (int i = 2; i < 6; i++) {
                if (p + i >= end) {
                    *bad = end;
                    return NULL;
                }
                if (hexval((unsigned char)p[i]) < 0) {
                    *bad = p + i;
                    return NULL;
                }
            }
            p += 6;
            continue;
        default:
            *bad = p + 1;
            return NULL;
        }
    }
}

/* The offending byte of text at p that is not a valid number (tagc_json_number_len
 * returned 0, or the number is followed by a '.', 'e' or 'E' that does not continue
 * it). Walks the grammar; end means the input ended inside the number. */
static const char *number_bad(const char *p, const char *end)
{
#define DIGIT(q) ((q) < end && *(q) >= '0' && *(q) <= '9')
    if (p < end && *p == '-')
        p++;
    if (!DIGIT(p))
        return p;
    if (*p == '0')
        p++;
    else
        while (DIGIT(p))
            p++;
    if (p < end && *p == '.') {
        p++;
        if (!DIGIT(p))
            return p;
        while (DIGIT(p))
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (!DIGIT(p))
            return p;
        while (DIGIT(p))
            p++;
    }
    return p;
#undef DIGIT
}

/* MARK: - The skipper */

#define LOCAL_LEVELS 1024 /* container kinds held on the C stack */

/* Bit stack of container kinds: 1 = object, 0 = array. */
typedef struct kind_stack {
    uint64_t local[LOCAL_LEVELS / 64];
    uint64_t *bits;
    size_t cap; /* levels */
} kind_stack;

static int skip_fail(tagc_json_dec *d, const char *at, const char *what)
{
    char tmp[8];
    d->p = at;
    if (at >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of JSON input");
    return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character %s %s", show(*at, tmp), what);
}

/* A literal: true, false or null, at p (whose first byte matched). */
static const char *skip_literal(const char *p, const char *end, const char *lit, size_t n,
                                const char **bad)
{
    for (size_t i = 1; i < n; i++) {
        if (p + i >= end) {
            *bad = end;
            return NULL;
        }
        if (p[i] != lit[i]) {
            *bad = p + i;
            return NULL;
        }
    }
    return p + n;
}

int tagc_json_skip(tagc_json_dec *d)
{
    const char *p = d->p, *end = d->end, *bad = NULL;
    const char *what = "looking for beginning of value";
    kind_stack st;
    st.bits = st.local;
    st.cap = LOCAL_LEVELS;
    size_t lvl = 0; /* open containers of this skip */
    long room = (long)d->max_depth - (long)d->depth; /* containers we may still open */
    int rc = 0;

value:
    while (p < end && is_ws(*p))
        p++;
    if (p >= end)
        goto fail;
    switch (*p) {
    case '{':
    case '[': {
        if ((long)lvl + 1 > room) {
            d->p = p;
            rc = tagc_json_fail(d, TAGC_E_DEPTH, "exceeded max depth %d", d->max_depth);
            goto out;
        }
        if (lvl == st.cap) {
            size_t ncap = st.cap * 2;
            uint64_t *nb = malloc(ncap / 8);
            if (!nb) {
                d->p = p;
                rc = tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
                goto out;
            }
            memcpy(nb, st.bits, st.cap / 8);
            if (st.bits != st.local)
                free(st.bits);
            st.bits = nb;
            st.cap = ncap;
        }
        uint64_t bit = UINT64_C(1) << (lvl & 63);
        bool obj = *p == '{';
        if (obj)
            st.bits[lvl >> 6] |= bit;
        else
            st.bits[lvl >> 6] &= ~bit;
        lvl++;
        p++;
        while (p < end && is_ws(*p))
            p++;
        if (p < end && *p == (obj ? '}' : ']')) {
            p++;
            lvl--;
            goto after;
        }
        if (obj)
            goto key;
        goto value;
    }
    case '"':
        p = skip_string(p + 1, end, &bad);
        if (!p)
            goto fail_str;
        goto after;
    case 't':
        p = skip_literal(p, end, "true", 4, &bad);
        goto lit;
    case 'f':
        p = skip_literal(p, end, "false", 5, &bad);
        goto lit;
    case 'n':
        p = skip_literal(p, end, "null", 4, &bad);
    lit:
        if (!p) {
            p = bad;
            what = "in literal";
            goto fail;
        }
        goto after;
    default: {
        size_t n = tagc_json_number_len(p, end);
        if (n == 0) {
            if (*p != '-' && (*p < '0' || *p > '9'))
                goto fail;
            p = number_bad(p, end);
            what = "in numeric literal";
            goto fail;
        }
        p += n;
        goto after;
    }
    }

key:
    /* after '{' or ',' in an object */
    while (p < end && is_ws(*p))
        p++;
    if (p >= end || *p != '"') {
        what = "looking for beginning of object key string";
        goto fail;
    }
    p = skip_string(p + 1, end, &bad);
    if (!p)
        goto fail_str;
    while (p < end && is_ws(*p))
        p++;
    if (p >= end || *p != ':') {
        what = "after object key";
        goto fail;
    }
    p++;
    goto value;

after:
    if (lvl == 0)
        goto out;
    while (p < end && is_ws(*p))
        p++;
    if (p >= end)
        goto fail;
    if ((st.bits[(lvl - 1) >> 6] >> ((lvl - 1) & 63)) & 1) {
        if (*p == ',') {
            p++;
            goto key;
        }
        if (*p == '}') {
            p++;
            lvl--;
            goto after;
        }
        what = "after object key:value pair";
        goto fail;
    }
    if (*p == ',') {
        p++;
        goto value;
    }
    if (*p == ']') {
        p++;
        lvl--;
        goto after;
    }
    what = "after array element";
    goto fail;

fail_str:
    what = bad < end && (unsigned char)*bad < 0x20 ? "in string literal" : "in string escape code";
    p = bad;
fail:
    rc = skip_fail(d, p, what);
    goto out;

out:
    if (rc == 0)
        d->p = p;
    if (st.bits != st.local)
        free(st.bits);
    return rc;
}

/* MARK: - json.RawMessage */

int tagc_json_read_raw(tagc_json_dec *d, tagc_raw *out)
{
    tagc_json_ws(d);
    const char *start = d->p;
    int rc = tagc_json_skip(d);
    if (rc != 0)
        return rc;
    size_t n = (size_t)(d->p - start);
    char *s = tagc_arena_alloc(d->arena, n + 1);
    if (!s) {
        d->p = start;
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    }
    memcpy(s, start, n);
    s[n] = 0;
    out->ptr = s;
    out->len = n;
    return 0;
}
