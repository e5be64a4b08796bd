/*
 * json_write.c - writing numbers and the runtime's value types as Go 1.19's
 * encoding/json does; json.RawMessage compaction; pretty-printing (json.Indent);
 * the order of string map keys.
 */
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

/* MARK: - Numbers */

/* Numbers are formatted straight into the buffer when it has room for the
 * longest text (floats: for the formatter's scratch too, TAGC_F64_ROOM), else
 * through a copy on the stack: so a fixed buffer with room for the actual text
 * never fails. */
static bool has_room(const tagc_buf *b, size_t n)
{
    return b->err == 0 && b->cap - b->len >= n;
}

void tagc_json_write_i64(tagc_buf *b, int64_t v)
{
    char tmp[TAGC_I64_MAX_CHARS];
    if (TAGC_LIKELY(has_room(b, TAGC_I64_MAX_CHARS)))
        b->len += tagc_fmt_i64((char *)b->data + b->len, v);
    else
        tagc_buf_put(b, tmp, tagc_fmt_i64(tmp, v));
}

void tagc_json_write_u64(tagc_buf *b, uint64_t v)
{
    char tmp[TAGC_I64_MAX_CHARS];
    if (TAGC_LIKELY(has_room(b, TAGC_I64_MAX_CHARS)))
        b->len += tagc_fmt_u64((char *)b->data + b->len, v);
    else
        tagc_buf_put(b, tmp, tagc_fmt_u64(tmp, v));
}

void tagc_json_write_f64(tagc_buf *b, double v)
{
    char tmp[TAGC_F64_MAX_CHARS];
    if (TAGC_UNLIKELY(v != v || v - v != 0)) { /* NaN or +-Inf: Go's UnsupportedValueError */
        tagc_buf_fail(b, TAGC_E_INVALID);
        return;
    }
    if (TAGC_LIKELY(has_room(b, TAGC_F64_ROOM)))
        b->len += tagc_fmt_f64_room((char *)b->data + b->len, v);
    else
        tagc_buf_put(b, tmp, tagc_fmt_f64(tmp, v));
}

void tagc_json_write_f32(tagc_buf *b, float v)
{
    char tmp[TAGC_F64_MAX_CHARS];
    if (TAGC_UNLIKELY(v != v || v - v != 0)) {
        tagc_buf_fail(b, TAGC_E_INVALID);
        return;
    }
    if (TAGC_LIKELY(has_room(b, TAGC_F64_ROOM)))
        b->len += tagc_fmt_f32_room((char *)b->data + b->len, v);
    else
        tagc_buf_put(b, tmp, tagc_fmt_f32(tmp, v));
}

/* tagc_put_f64 and tagc_put_f32 are in num_write.c. */

/* MARK: - []byte and time.Time */

void tagc_json_write_bytes(tagc_buf *b, const uint8_t *p, size_t n, bool nil)
{
    if (nil) {
        tagc_buf_put(b, "null", 4);
        return;
    }
    size_t m = tagc_base64_encoded_len(n);
    if (TAGC_UNLIKELY(m + 2 < m)) {
        tagc_buf_fail(b, TAGC_E_NOMEM);
        return;
    }
    if (TAGC_UNLIKELY(tagc_buf_reserve(b, m + 2) != 0))
        return;
    char *d = (char *)b->data + b->len;
    d[0] = '"';
    if (n)
        tagc_base64_encode(d + 1, p, n);
    d[m + 1] = '"';
    b->len += m + 2;
}

uint8_t *tagc_put_time(tagc_buf *b, uint8_t *p, const tagc_time *t, unsigned profile)
{
    size_t n = tagc_time_format((char *)p + 1, t, profile);
    if (n == 0) { /* Go's MarshalJSON fails */
        tagc_buf_fail(b, TAGC_E_INVALID);
        return p;
    }
    p[0] = '"';
    p[n + 1] = '"';
    return p + n + 2;
}

void tagc_json_write_time(tagc_buf *b, const tagc_time *t, unsigned profile)
{
    char tmp[TAGC_TIME_MAX_CHARS + 2];
    if (TAGC_LIKELY(has_room(b, TAGC_TIME_MAX_CHARS + 2))) { /* straight into the buffer */
        char *d = (char *)b->data + b->len;
        size_t n = tagc_time_format(d + 1, t, profile);
        if (n == 0) {
            tagc_buf_fail(b, TAGC_E_INVALID);
            return;
        }
        d[0] = '"';
        d[n + 1] = '"';
        b->len += n + 2;
        return;
    }
    size_t n = tagc_time_format(tmp + 1, t, profile);
    if (n == 0) { /* Go's MarshalJSON fails */
        tagc_buf_fail(b, TAGC_E_INVALID);
        return;
    }
    tmp[0] = '"';
    tmp[n + 1] = '"';
    tagc_buf_put(b, tmp, n + 2);
}

/* MARK: - json.RawMessage */

static inline bool is_ws(uint8_t c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Go's compact(dst, src, escape): src must be one valid JSON value with optional
 * whitespace around it; whitespace outside strings is dropped; with TAGC_ESC_HTML,
 * < > & become \u003c \u003e \u0026; with it or TAGC_ESC_RAW_LS, U+2028/U+2029
 * become \u2028/\u2029. */
static void compact(tagc_buf *b, const char *src, size_t n, unsigned esc, int max_depth)
{
    bool html = esc & TAGC_ESC_HTML, ls = esc & (TAGC_ESC_HTML | TAGC_ESC_RAW_LS);
    tagc_json_dec d;
    tagc_error err;
    memset(&d, 0, sizeof d);
    d.p = src;
    d.end = src + n;
    d.start = src;
    d.ind_lim = src; /* no indent compare in line */
    d.arena = NULL; /* the skipper allocates nothing */
    d.err = &err;
    d.max_depth = max_depth;
    tagc_json_ws(&d);
    if (tagc_json_skip(&d) != 0) {
        tagc_buf_fail(b, err.code == TAGC_E_DEPTH ? TAGC_E_DEPTH : TAGC_E_INVALID);
        return;
    }
    tagc_json_ws(&d);
    if (d.p != d.end) {
        tagc_buf_fail(b, TAGC_E_INVALID);
        return;
    }
    /* Valid. Copy in runs, breaking them at whitespace outside strings and at
     * bytes to escape. */
    const uint8_t *s = (const uint8_t *)src, *e = s + n, *run = s;
    bool in_str = false;
    for (const uint8_t *q = s; q < e; q++) {
        uint8_t c = *q;
        if (in_str) {
            if (c == '\\') {
                q++; /* the escaped byte (the rest of \uXXXX is plain hex) */
                continue;
            }
            if (c == '"') {
                in_str = false;
                continue;
            }
            if (c == 0xE2 && ls) {
                if (e - q < 3 || q[1] != 0x80 || (q[2] & ~1u) != 0xA8)
                    continue;
                tagc_buf_put(b, run, (size_t)(q - run));
                tagc_buf_put(b, q[2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
                q += 2;
                run = q + 1;
                continue;
            }
            if (!html || (c != '<' && c != '>' && c != '&'))
                continue;
            tagc_buf_put(b, run, (size_t)(q - run));
            tagc_buf_put(b, c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026", 6);
            run = q + 1;
            continue;
        }
        if (c == '"') {
            in_str = true;
        } else if (is_ws(c)) {
            tagc_buf_put(b, run, (size_t)(q - run));
            run = q + 1;
        }
    }
    tagc_buf_put(b, run, (size_t)(e - run));
}

void tagc_json_write_raw_in(tagc_buf *b, const tagc_raw *r, unsigned esc, int max_depth)
{
    if (r->ptr == NULL || r->len == 0) {
        tagc_buf_put(b, "null", 4);
        return;
    }
    if (b->err)
        return;
    size_t start = b->len;
    int room = (max_depth > 0 ? max_depth : TAGC_DEFAULT_MAX_DEPTH) - b->depth;
    compact(b, r->ptr, r->len, esc, room > 0 ? room : 0);
    if (b->err && start <= b->len)
        b->len = start;
}

void tagc_json_write_raw_opts(tagc_buf *b, const tagc_raw *r, unsigned esc)
{
    tagc_json_write_raw_in(b, r, esc, 0);
}

void tagc_json_write_raw(tagc_buf *b, const tagc_raw *r)
{
    tagc_json_write_raw_opts(b, r, TAGC_ESC_HTML);
}

/* MARK: - Indenting */

/* '\n', prefix, depth times indent. */
static void newline(tagc_buf *b, const char *prefix, size_t plen, const char *indent, size_t ilen,
                    size_t depth)
{
    if (ilen && depth > (SIZE_MAX - 1 - plen) / ilen) {
        tagc_buf_fail(b, TAGC_E_NOMEM);
        return;
    }
    size_t n = 1 + plen + depth * ilen;
    if (tagc_buf_reserve(b, n) != 0)
        return;
    uint8_t *d = b->data + b->len;
    *d++ = '\n';
    memcpy(d, prefix, plen);
    d += plen;
    for (size_t i = 0; i < depth; i++, d += ilen)
        memcpy(d, indent, ilen);
    b->len += n;
}

void tagc_json_indent(tagc_buf *b, size_t from, const char *prefix, const char *indent)
{
    if (b->err || from >= b->len)
        return;
    if (!prefix)
        prefix = "";
    if (!indent)
        indent = "";
    size_t n = b->len - from;
    uint8_t *src = malloc(n);
    if (!src) {
        tagc_buf_fail(b, TAGC_E_NOMEM);
        return;
    }
    memcpy(src, b->data + from, n);
    b->len = from;
    size_t plen = strlen(prefix), ilen = strlen(indent); /* once per document */
    size_t depth = 0;
    bool need_indent = false;
    const uint8_t *e = src + n;
    for (const uint8_t *q = src; q < e && !b->err;) {
        uint8_t c = *q;
        if (is_ws(c)) {
            q++;
            continue;
        }
        if (need_indent && c != '}' && c != ']') {
            need_indent = false;
            depth++;
            newline(b, prefix, plen, indent, ilen, depth);
        }
        switch (c) {
        case '{':
        case '[':
            need_indent = true; /* delayed: empty {} and [] stay compact */
            tagc_buf_byte(b, c);
            q++;
            break;
        case ',':
            tagc_buf_byte(b, c);
            newline(b, prefix, plen, indent, ilen, depth);
            q++;
            break;
        case ':':
            tagc_buf_put(b, ": ", 2);
            q++;
            break;
        case '}':
        case ']':
            if (need_indent) {
                need_indent = false;
            } else {
                if (depth)
                    depth--;
                newline(b, prefix, plen, indent, ilen, depth);
            }
            tagc_buf_byte(b, c);
            q++;
            break;
        case '"': {
            const uint8_t *r = q + 1;
            while (r < e && *r != '"')
                r += *r == '\\' ? 2 : 1;
            if (r < e)
                r++;
            else
                r = e;
            tagc_buf_put(b, q, (size_t)(r - q));
            q = r;
            break;
        }
        default: { /* a number or literal: up to the next punctuation */
            const uint8_t *r = q + 1;
            while (r < e && *r != ',' && *r != '}' && *r != ']' && *r != ':' && !is_ws(*r))
                r++;
            tagc_buf_put(b, q, (size_t)(r - q));
            q = r;
            break;
        }
        }
    }
    free(src);
}

/* MARK: - Map key order */

static inline int str_cmp(const tagc_str *a, const tagc_str *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

static void sift(const tagc_str *k, size_t *idx, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && str_cmp(&k[idx[child]], &k[idx[child + 1]]) < 0)
            child++;
        if (str_cmp(&k[idx[root]], &k[idx[child]]) >= 0)
            return;
        size_t t = idx[root];
        idx[root] = idx[child];
        idx[child] = t;
        root = child;
    }
}

void tagc_sort_str_keys(const tagc_str *keys, size_t n, size_t *idx)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    if (n < 2)
        return;
    if (n <= 8) { /* insertion sort for the common small maps */
        for (size_t i = 1; i < n; i++) {
            size_t t = idx[i], j = i;
            while (j > 0 && str_cmp(&keys[idx[j - 1]], &keys[t]) > 0) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = t;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;)
        sift(keys, idx, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        size_t t = idx[0];
        idx[0] = idx[end];
        idx[end] = t;
        sift(keys, idx, 0, end);
    }
}
