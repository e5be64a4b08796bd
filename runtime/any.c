/*
 * any.c - interface{} / any: decoding JSON into a tagc_any tree as Go's
 * json.Unmarshal does into an interface{}, writing it back as json.Marshal
 * does, and deep equality.
 *
 * Decoding (Go's decode.go valueInterface/arrayInterface/objectInterface):
 * null is a NULL tree, numbers are float64 (out of range: TAGC_E_RANGE, where
 * Go returns an UnmarshalTypeError), strings are unescaped (invalid UTF-8 and
 * lone surrogates become U+FFFD), objects keep each key once, in first-seen
 * order, holding the last value given for it (Go's map assignment). Nesting is
 * limited by d->max_depth; the reader recurses once per level.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

static inline bool is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int nomem(tagc_json_dec *d)
{
    return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
}

/* Reports the syntax error in the value at d->p (the skipper finds and describes it). */
static int syntax_error(tagc_json_dec *d)
{
    int rc = tagc_json_skip(d);
    if (rc == 0) /* the value is fine: what follows it is not */
        rc = tagc_json_fail(d, d->p >= d->end ? TAGC_E_EOF : TAGC_E_SYNTAX,
                            d->p >= d->end ? "unexpected end of JSON input"
                                           : "invalid character after value");
    return rc;
}

static int expect_fail(tagc_json_dec *d, const char *what)
{
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of JSON input");
    unsigned char c = (unsigned char)*d->p;
    if (c >= 0x20 && c < 0x7f)
        return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '%c' %s", c, what);
    return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '\\x%02x' %s", c, what);
}

/* A string at d->p (the opening quote), unescaped into the arena, NUL-terminated. */
static int read_string(tagc_json_dec *d, tagc_str *out)
{
    const char *body = d->p + 1;
    bool needs_unescape;
    const char *q = tagc_json_scan_str(body, d->end, &needs_unescape);
    if (!q)
        return syntax_error(d);
    size_t n = (size_t)(q - body);
    char *s;
    if (!needs_unescape) {
        if (!(s = tagc_arena_alloc(d->arena, n + 1)))
            return nomem(d);
        memcpy(s, body, n);
    } else {
        /* Room: n bytes unless invalid UTF-8 grows into U+FFFD. */
        size_t room = tagc_utf8_valid(body, n) ? n : TAGC_UNESCAPE_MAX(n);
        if (!(s = tagc_arena_alloc(d->arena, room + 1)))
            return nomem(d);
        size_t bad = 0;
        long r = tagc_json_unescape(s, body, n, &bad);
        if (r < 0) {
            /* Point at the problem; the skipper describes it (control character,
             * bad escape) exactly as it would anywhere else. */
            return syntax_error(d);
        }
        n = (size_t)r;
    }
    s[n] = 0;
    out->ptr = s;
    out->len = n;
    d->p = q + 1;
    return 0;
}

static int read_value(tagc_json_dec *d, tagc_any **out);

static int read_array(tagc_json_dec *d, tagc_any *a)
{
    tagc_any **items = NULL;
    size_t len = 0, cap = 0;
    int rc;
    d->p++; /* '[' */
    while (d->p < d->end && is_ws(*d->p))
        d->p++;
    if (d->p < d->end && *d->p == ']') {
        d->p++;
    } else {
        for (;;) {
            if (len == cap && !(items = tagc_json_grow(d, items, &cap, sizeof *items)))
                return TAGC_E_NOMEM;
            if ((rc = read_value(d, &items[len])) != 0)
                return tagc_json_fail_index(d, rc, len);
            len++;
            while (d->p < d->end && is_ws(*d->p))
                d->p++;
            if (d->p < d->end && *d->p == ',') {
                d->p++;
                continue;
            }
            if (d->p < d->end && *d->p == ']') {
                d->p++;
                break;
            }
            return expect_fail(d, "after array element");
        }
    }
    a->kind = TAGC_ANY_ARRAY;
    a->u.arr.items = items;
    a->u.arr.len = len;
    return 0;
}

/* Kept out of read_value (and so out of the frame that arrays repeat a level). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int read_object(tagc_json_dec *d, tagc_any *a)
{
    tagc_str *keys = NULL;
    tagc_any **vals = NULL;
    size_t len = 0, kcap = 0, vcap = 0;
    tagc_map_index ix = {NULL, 0};
    int rc;
    d->p++; /* '{' */
    while (d->p < d->end && is_ws(*d->p))
        d->p++;
    if (d->p < d->end && *d->p == '}') {
        d->p++;
    } else {
        for (;;) {
            while (d->p < d->end && is_ws(*d->p))
                d->p++;
            if (d->p >= d->end || *d->p != '"')
                return expect_fail(d, "looking for beginning of object key string");
            tagc_str key;
            if ((rc = read_string(d, &key)) != 0)
                return rc;
            while (d->p < d->end && is_ws(*d->p))
                d->p++;
            if (d->p >= d->end || *d->p != ':')
                return expect_fail(d, "after object key");
            d->p++;
            if (len == kcap && !(keys = tagc_json_grow(d, keys, &kcap, sizeof *keys)))
                return TAGC_E_NOMEM;
            if (len == vcap && !(vals = tagc_json_grow(d, vals, &vcap, sizeof *vals)))
                return TAGC_E_NOMEM;
            long at = tagc_map_slot_str(d, &ix, keys, len, key.ptr, key.len);
            if (at < 0)
                return (int)at;
            if ((size_t)at == len) {
                keys[len] = key; /* the index already points at entry len */
                vals[len] = NULL;
                len++;
            }
            if ((rc = read_value(d, &vals[at])) != 0)
                return tagc_json_fail_key(d, rc, key.ptr, key.len);
            while (d->p < d->end && is_ws(*d->p))
                d->p++;
            if (d->p < d->end && *d->p == ',') {
                d->p++;
                continue;
            }
            if (d->p < d->end && *d->p == '}') {
                d->p++;
                break;
            }
            return expect_fail(d, "after object key:value pair");
        }
    }
    a->kind = TAGC_ANY_OBJECT;
    a->u.obj.keys = keys;
    a->u.obj.vals = vals;
    a->u.obj.len = len;
    return 0;
}

static int read_value(tagc_json_dec *d, tagc_any **out)
{
    int rc;
    tagc_any *a;
    *out = NULL;
    while (d->p < d->end && is_ws(*d->p))
        d->p++;
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of JSON input");
    const char *p = d->p;
    switch (*p) {
    case 'n':
        if (d->end - p >= 4 && memcmp(p, "null", 4) == 0) {
            d->p += 4;
            return 0;
        }
        return syntax_error(d);
    case 't':
    case 'f': {
        bool v = *p == 't';
        size_t n = v ? 4 : 5;
        if ((size_t)(d->end - p) < n || memcmp(p, v ? "true" : "false", n) != 0)
            return syntax_error(d);
        if (!(a = tagc_arena_alloc(d->arena, sizeof *a)))
            return nomem(d);
        a->kind = TAGC_ANY_BOOL;
        a->u.b = v;
        d->p += n;
        *out = a;
        return 0;
    }
    case '"':
        if (!(a = tagc_arena_alloc(d->arena, sizeof *a)))
            return nomem(d);
        if ((rc = read_string(d, &a->u.str)) != 0)
            return rc;
        a->kind = TAGC_ANY_STRING;
        *out = a;
        return 0;
    case '[':
    case '{':
        if (d->depth >= d->max_depth)
            return tagc_json_fail(d, TAGC_E_DEPTH, "exceeded max depth %d", d->max_depth);
        if (!(a = tagc_arena_alloc(d->arena, sizeof *a)))
            return nomem(d);
        d->depth++;
        rc = *p == '[' ? read_array(d, a) : read_object(d, a);
        d->depth--;
        if (rc != 0)
            return rc;
        *out = a;
        return 0;
    default: {
        size_t n = tagc_json_number_len(p, d->end);
        if (n == 0)
            return syntax_error(d);
        if (d->use_number) { /* the text, as Go's UseNumber keeps it in a json.Number */
            char *t;
            if (!(a = tagc_arena_alloc(d->arena, sizeof *a)) || !(t = tagc_arena_alloc(d->arena, n + 1)))
                return nomem(d);
            memcpy(t, p, n);
            t[n] = '\0';
            a->kind = TAGC_ANY_NUMBER_TEXT;
            a->u.str = (tagc_str){t, n};
            d->p += n;
            *out = a;
            return 0;
        }
        double v;
        if ((rc = tagc_parse_f64(p, n, &v)) != 0)
            return tagc_json_fail(d, rc, "cannot unmarshal number %.*s into a float64",
                                  (int)(n > 40 ? 40 : n), p);
        if (!(a = tagc_arena_alloc(d->arena, sizeof *a)))
            return nomem(d);
        a->kind = TAGC_ANY_NUMBER;
        a->u.num = v;
        d->p += n;
        *out = a;
        return 0;
    }
    }
}

int tagc_json_read_any(tagc_json_dec *d, tagc_any **out)
{
    tagc_any *a = NULL;
    int rc = read_value(d, &a);
    *out = rc == 0 ? a : NULL;
    return rc;
}

/* MARK: - Writing */

/* The Go type of any's values, as the cycle message names it. */
static const char any_type[] = "interface {}";

static int key_cmp(const tagc_str *a, const tagc_str *b);
static void write_any(tagc_buf *b, const tagc_any *a, int max, bool html, bool sorted);

/* The Go type vmihailenco decodes a TAGC_ANY_MP_NUMBER's format to, as its
 * format byte: a fixint is an int8 (0xd0). */
static uint8_t mp_go_type(uint8_t format)
{
    return format == 0x00 || format == 0xe0 ? 0xd0 : format;
}

/* A TAGC_ANY_MP_NUMBER as JSON: an integer in decimal, a float 32 as Go formats one. */
static void write_mp_number(tagc_buf *b, uint8_t format, uint64_t bits)
{
    if (format == 0xca) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        tagc_json_write_f32(b, f);
    } else if (format == 0xe0 || (format >= 0xd0 && format <= 0xd3)) {
        tagc_json_write_i64(b, (int64_t)bits);
    } else {
        tagc_json_write_u64(b, bits);
    }
}

/* The entry whose key comes after keys[prev] in Go's order (prev == n: the
 * first): small objects are sorted as they are written, with no index. */
static size_t next_key(const tagc_str *keys, size_t n, size_t prev)
{
    size_t best = n;
    for (size_t i = 0; i < n; i++)
        if ((prev == n || key_cmp(&keys[i], &keys[prev]) > 0) &&
            (best == n || key_cmp(&keys[i], &keys[best]) < 0))
            best = i;
    return best;
}

/* Objects of up to this many keys are written in order by next_key. */
#define SMALL_OBJECT 8

/* An object's members. Kept out of write_any, and with no index array on the
 * stack: a level of nesting costs only the frames of the two (tests/errors/test_stack.c). */
static void write_object(tagc_buf *b, const tagc_any *a, int max, bool html, bool sorted)
{
    const tagc_str *keys = a->u.obj.keys;
    size_t n = a->u.obj.len;
    size_t *idx = NULL;
    if (sorted && n > SMALL_OBJECT) {
        idx = n <= SIZE_MAX / sizeof *idx ? malloc(n * sizeof *idx) : NULL;
        if (!idx) { /* the stored order would differ from Go's */
            tagc_buf_fail(b, TAGC_E_NOMEM);
            return;
        }
        tagc_sort_str_keys(keys, n, idx);
    }
    tagc_buf_byte(b, '{');
    size_t i = n;
    for (size_t k = 0; k < n; k++) {
        i = idx ? idx[k] : sorted ? next_key(keys, n, i) : k;
        if (k)
            tagc_buf_byte(b, ',');
        tagc_json_write_str(b, keys[i].ptr, keys[i].len, html);
        tagc_buf_byte(b, ':');
        write_any(b, a->u.obj.vals[i], max, html, sorted);
        if (tagc_enc_failed_key(b, a, any_type, keys[i].ptr, keys[i].len))
            break;
    }
    tagc_buf_byte(b, '}');
    free(idx);
}

/* Objects and arrays count levels (tagc_enc_enter): deeper than max, or a
 * cycle, is an error with the path. */
static void write_any(tagc_buf *b, const tagc_any *a, int max, bool html, bool sorted)
{
    if (b->err)
        return;
    if (!a) {
        tagc_buf_put(b, "null", 4);
        return;
    }
    switch (a->kind) {
    case TAGC_ANY_NULL:
        tagc_buf_put(b, "null", 4);
        return;
    case TAGC_ANY_BOOL:
        tagc_json_write_bool(b, a->u.b);
        return;
    case TAGC_ANY_NUMBER:
        tagc_json_write_f64(b, a->u.num);
        return;
    case TAGC_ANY_NUMBER_TEXT:
        tagc_json_write_number(b, &a->u.str);
        return;
    case TAGC_ANY_MP_NUMBER: /* as Go's JSON of the typed value vmihailenco decodes */
        write_mp_number(b, a->u.mp.format, a->u.mp.bits);
        return;
    case TAGC_ANY_STRING:
        tagc_json_write_str(b, a->u.str.ptr, a->u.str.len, html);
        return;
    case TAGC_ANY_ARRAY:
        if (!tagc_enc_enter(b, max, 0, a, any_type))
            return;
        tagc_buf_byte(b, '[');
        for (size_t i = 0; i < a->u.arr.len; i++) {
            if (i)
                tagc_buf_byte(b, ',');
            write_any(b, a->u.arr.items[i], max, html, sorted);
            if (tagc_enc_failed_index(b, a, any_type, i))
                return;
        }
        tagc_buf_byte(b, ']');
        tagc_enc_leave(b);
        return;
    case TAGC_ANY_OBJECT:
        if (!tagc_enc_enter(b, max, 0, a, any_type))
            return;
        write_object(b, a, max, html, sorted);
        if (b->err == 0)
            tagc_enc_leave(b);
        return;
    }
    tagc_buf_fail(b, TAGC_E_INVALID); /* not a kind */
}

void tagc_json_write_any(tagc_buf *b, const tagc_any *a, const tagc_json_opts *o)
{
    if (!o)
        o = &tagc_json_defaults;
    write_any(b, a, o->max_depth, !o->no_html_escape, !o->unsorted_maps);
}

/* MARK: - Equality */

static bool key_eq(const tagc_str *a, const tagc_str *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
}

static int key_cmp(const tagc_str *a, const tagc_str *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Objects by search: for each key of a, its value in b. Quadratic, no memory. */
static bool obj_equal_scan(const tagc_any *a, const tagc_any *b)
{
    size_t n = a->u.obj.len;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < n && !key_eq(&a->u.obj.keys[i], &b->u.obj.keys[j]))
            j++;
        if (j == n || !tagc_any_equal(a->u.obj.vals[i], b->u.obj.vals[j]))
            return false;
    }
    return true;
}

/* Objects: same key set, equal values. Keys are unique within each object.
 * Keys in the same order (values decoded from the same text, or copies) are
 * compared in one pass; else small objects are searched, big ones sorted. When
 * the memory to sort is not there, the search gives the answer (slowly): an
 * equality never depends on memory. */
static bool obj_equal(const tagc_any *a, const tagc_any *b)
{
    size_t n = a->u.obj.len;
    if (n != b->u.obj.len)
        return false;
    size_t same = 0;
    while (same < n && key_eq(&a->u.obj.keys[same], &b->u.obj.keys[same]))
        same++;
    if (same == n) {
        for (size_t i = 0; i < n; i++)
            if (!tagc_any_equal(a->u.obj.vals[i], b->u.obj.vals[i]))
                return false;
        return true;
    }
    size_t *ia = n > 16 && n <= SIZE_MAX / (2 * sizeof *ia) ? malloc(2 * n * sizeof *ia) : NULL;
    if (!ia)
        return obj_equal_scan(a, b);
    size_t *ib = ia + n;
    tagc_sort_str_keys(a->u.obj.keys, n, ia);
    tagc_sort_str_keys(b->u.obj.keys, n, ib);
    bool eq = true;
    for (size_t k = 0; k < n && eq; k++)
        eq = key_cmp(&a->u.obj.keys[ia[k]], &b->u.obj.keys[ib[k]]) == 0 &&
             tagc_any_equal(a->u.obj.vals[ia[k]], b->u.obj.vals[ib[k]]);
    free(ia);
    return eq;
}

bool tagc_any_equal(const tagc_any *a, const tagc_any *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TAGC_ANY_NULL:
        return true;
    case TAGC_ANY_BOOL:
        return a->u.b == b->u.b;
    case TAGC_ANY_NUMBER:
        return tagc_f64_equal(a->u.num, b->u.num);
    case TAGC_ANY_MP_NUMBER: /* the same Go type (a fixint is an int8) and value */
        return mp_go_type(a->u.mp.format) == mp_go_type(b->u.mp.format) &&
               a->u.mp.bits == b->u.mp.bits;
    case TAGC_ANY_STRING:
    case TAGC_ANY_NUMBER_TEXT:
        return key_eq(&a->u.str, &b->u.str);
    case TAGC_ANY_ARRAY:
        if (a->u.arr.len != b->u.arr.len)
            return false;
        for (size_t i = 0; i < a->u.arr.len; i++)
            if (!tagc_any_equal(a->u.arr.items[i], b->u.arr.items[i]))
                return false;
        return true;
    case TAGC_ANY_OBJECT:
        return obj_equal(a, b);
    }
    return false;
}
