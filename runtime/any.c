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
 * limited by d->max_depth; the reader and the writer iterate over explicit
 * stacks, so nesting costs no C stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"
#include "any_frames.h"

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

/* A scalar at d->p into *out (null: NULL). 1 when d->p is '[' or '{' instead
 * (nothing read: the caller opens it), else 0 or the error. */
static int read_scalar(tagc_json_dec *d, tagc_any **out)
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
        return 1;
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

/* An array or object being read (the reader's explicit stack): a level of
 * nesting costs one of these, on the C stack for the first few and on the
 * heap after, and no C stack frame (tests/errors/test_stack.c). */
typedef struct read_frame {
    tagc_any *a;
    tagc_any **vals; /* an array's items, an object's values */
    tagc_str *keys;
    size_t len, cap, kcap;
    tagc_map_index ix;
    tagc_str key; /* an object's member being read (its path) */
} read_frame;

#define READ_LOCAL_FRAMES 4

typedef struct read_frames {
    read_frame *f;
    size_t n, cap;
    read_frame local[READ_LOCAL_FRAMES];
} read_frames;

static read_frame *read_push(read_frames *s)
{
    if (s->n == s->cap) {
        read_frame *f = any_frames_grow(s->f, s->local, s->n, &s->cap, sizeof *f);
        if (!f)
            return NULL;
        s->f = f;
    }
    return &s->f[s->n++];
}

/* The head of the next member of f (an object's key and ':', its slot); sets
 * *dst to where the member's value goes. */
static int read_member_head(tagc_json_dec *d, read_frame *f, tagc_any ***dst)
{
    int rc;
    if (f->a->kind == TAGC_ANY_ARRAY) {
        if (f->len == f->cap && !(f->vals = tagc_json_grow(d, f->vals, &f->cap, sizeof *f->vals)))
            return TAGC_E_NOMEM;
        *dst = &f->vals[f->len];
        return 0;
    }
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
    if (f->len == f->kcap && !(f->keys = tagc_json_grow(d, f->keys, &f->kcap, sizeof *f->keys)))
        return TAGC_E_NOMEM;
    if (f->len == f->cap && !(f->vals = tagc_json_grow(d, f->vals, &f->cap, sizeof *f->vals)))
        return TAGC_E_NOMEM;
    long at = tagc_map_slot_str(d, &f->ix, f->keys, f->len, key.ptr, key.len);
    if (at < 0)
        return (int)at;
    if ((size_t)at == f->len) {
        f->keys[f->len] = key; /* the index already points at entry len */
        f->vals[f->len] = NULL;
        f->len++;
    }
    f->key = key;
    *dst = &f->vals[at];
    return 0;
}

/* Stores what f read into its value. */
static void read_close(read_frame *f)
{
    tagc_any *a = f->a;
    if (a->kind == TAGC_ANY_ARRAY) {
        a->u.arr.items = f->vals;
        a->u.arr.len = f->len;
    } else {
        a->u.obj.keys = f->keys;
        a->u.obj.vals = f->vals;
        a->u.obj.len = f->len;
    }
}

/* Iterative: arrays and objects are frames of st. An error in a member's value
 * adds the member (index or key) of every open frame to the path; an error of
 * a frame's own syntax, every frame but that one (as the recursion did). */
static int read_value(tagc_json_dec *d, tagc_any **out)
{
    read_frames st;
    st.f = st.local;
    st.n = 0;
    st.cap = READ_LOCAL_FRAMES;
    tagc_any **dst = out;
    int rc;
    bool in_member; /* rc is from a member's value (else from the frame's own syntax) */
    for (;;) {
        /* a value into *dst: a scalar, or an array or object opened */
        in_member = true;
        rc = read_scalar(d, dst);
        if (rc == 1) {
            rc = 0;
            bool arr = *d->p == '[';
            tagc_any *a;
            read_frame *f;
            if (d->depth >= d->max_depth) {
                rc = tagc_json_fail(d, TAGC_E_DEPTH, "exceeded max depth %d", d->max_depth);
                goto fail;
            }
            if (!(a = tagc_arena_alloc(d->arena, sizeof *a)) || !(f = read_push(&st))) {
                rc = nomem(d);
                goto fail;
            }
            d->depth++;
            *f = (read_frame){a, NULL, NULL, 0, 0, 0, {NULL, 0}, {NULL, 0}};
            a->kind = arr ? TAGC_ANY_ARRAY : TAGC_ANY_OBJECT;
            d->p++;
            while (d->p < d->end && is_ws(*d->p))
                d->p++;
            in_member = false;
            if (d->p < d->end && *d->p == (arr ? ']' : '}')) {
                d->p++;
                read_close(f);
                st.n--;
                d->depth--;
                *dst = a;
            } else {
                *dst = a; /* filled as its members are read */
                if ((rc = read_member_head(d, f, &dst)) != 0)
                    goto fail;
                continue;
            }
        }
        if (rc != 0)
            goto fail;
        /* the member is read: the next one, or close the frames that end */
        in_member = false;
        for (;;) {
            if (st.n == 0)
                goto done;
            read_frame *f = &st.f[st.n - 1];
            bool arr = f->a->kind == TAGC_ANY_ARRAY;
            if (arr)
                f->len++;
            while (d->p < d->end && is_ws(*d->p))
                d->p++;
            if (d->p < d->end && *d->p == ',') {
                d->p++;
                if ((rc = read_member_head(d, f, &dst)) != 0)
                    goto fail;
                break;
            }
            if (d->p < d->end && *d->p == (arr ? ']' : '}')) {
                d->p++;
                read_close(f);
                st.n--;
                d->depth--;
                continue;
            }
            rc = expect_fail(d, arr ? "after array element" : "after object key:value pair");
            goto fail;
        }
    }
fail:
    for (size_t i = st.n; i-- > 0;) {
        read_frame *f = &st.f[i];
        if (in_member || i + 1 < st.n)
            rc = f->a->kind == TAGC_ANY_ARRAY ? tagc_json_fail_index(d, rc, f->len)
                                              : tagc_json_fail_key(d, rc, f->key.ptr, f->key.len);
        d->depth--;
    }
    st.n = 0;
done:
    if (st.f != st.local)
        free(st.f);
    return rc;
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

/* Writes a scalar, or opens an array or object: its bracket, and a frame on st
 * (the members follow from write_any's loop). Objects and arrays count levels
 * (tagc_enc_enter): deeper than max, or a cycle, is an error with the path. */
static void write_one(tagc_buf *b, const tagc_any *a, int max, unsigned esc, bool sorted, any_frames *st)
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
        tagc_json_write_str(b, a->u.str.ptr, a->u.str.len, esc);
        return;
    case TAGC_ANY_ARRAY:
    case TAGC_ANY_OBJECT: {
        if (!tagc_enc_enter(b, max, 0, a, any_type))
            return;
        any_frame *f = any_frames_push(st, a);
        if (!f) {
            tagc_buf_fail(b, TAGC_E_NOMEM); /* unwinds as a failed member would */
            return;
        }
        if (a->kind == TAGC_ANY_OBJECT) {
            size_t n = a->u.obj.len;
            f->cur = n; /* next_key's "none yet" */
            if (sorted && n > SMALL_OBJECT) {
                f->order = n <= SIZE_MAX / sizeof *f->order ? malloc(n * sizeof *f->order) : NULL;
                if (!f->order) { /* the stored order would differ from Go's */
                    st->n--;
                    tagc_buf_fail(b, TAGC_E_NOMEM);
                    return;
                }
                tagc_sort_str_keys(a->u.obj.keys, n, f->order);
            }
        }
        tagc_buf_byte(b, a->kind == TAGC_ANY_ARRAY ? '[' : '{');
        return;
    }
    }
    tagc_buf_fail(b, TAGC_E_INVALID); /* not a kind */
}

/* Iterative: nesting costs frames of st, not of the C stack. A failure unwinds
 * through every open frame (tagc_enc_failed_*: the path, a cycle). */
static void write_any(tagc_buf *b, const tagc_any *a, int max, unsigned esc, bool sorted)
{
    any_frames st;
    any_frames_init(&st);
    bool more = true; /* a is a value to write */
    while (more) {
        write_one(b, a, max, esc, sorted, &st);
        more = false;
        while (st.n > 0 && !more) { /* the next member of the innermost open value */
            any_frame *f = &st.f[st.n - 1];
            const tagc_any *v = f->a;
            bool arr = v->kind == TAGC_ANY_ARRAY;
            if (f->next > 0) { /* the member written last: did it fail? */
                bool failed = arr ? tagc_enc_failed_index(b, v, any_type, f->cur)
                                  : tagc_enc_failed_key(b, v, any_type, v->u.obj.keys[f->cur].ptr,
                                                        v->u.obj.keys[f->cur].len);
                if (failed) {
                    free(f->order);
                    st.n--;
                    continue;
                }
            }
            size_t n = arr ? v->u.arr.len : v->u.obj.len;
            if (f->next == n) {
                tagc_buf_byte(b, arr ? ']' : '}');
                free(f->order);
                st.n--;
                tagc_enc_leave(b);
                continue;
            }
            size_t k = f->next++;
            if (k)
                tagc_buf_byte(b, ',');
            if (arr) {
                f->cur = k;
                a = v->u.arr.items[k];
            } else {
                const tagc_str *keys = v->u.obj.keys;
                f->cur = f->order ? f->order[k] : sorted ? next_key(keys, n, f->cur) : k;
                tagc_json_write_str(b, keys[f->cur].ptr, keys[f->cur].len, esc);
                tagc_buf_byte(b, ':');
                a = v->u.obj.vals[f->cur];
            }
            more = true;
        }
    }
    any_frames_free(&st);
}

void tagc_json_write_any_as(tagc_buf *b, const tagc_any *a, const tagc_json_opts *o, unsigned profile)
{
    if (!o)
        o = &tagc_json_defaults;
    write_any(b, a, o->max_depth, tagc_json_esc(o, profile), !o->unsorted_maps);
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
