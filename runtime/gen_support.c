/*
 * gen_support.c - what generated code calls around the primitives: the entry
 * and exit of a decode or encode, growing decoded arrays, the keys of decoded
 * maps, the order map entries are written in, and strict-mode errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

const uint64_t tagc_empty_slot = 0;

/* max_depth spelled out: the encoders compare with it as it is (0 takes their slow path). */
const tagc_json_opts tagc_json_defaults = {.max_depth = TAGC_DEFAULT_MAX_DEPTH};

/* MARK: - Entry and exit */

void tagc_json_dec_init(tagc_json_dec *d, const char *src, size_t len, tagc_arena *arena,
                        tagc_error *err, const tagc_json_opts *opts)
{
    if (!opts)
        opts = &tagc_json_defaults;
    d->p = src;
    d->end = src + len;
    d->start = src;
    d->arena = arena;
    d->err = err;
    d->depth = 0;
    d->max_depth = opts->max_depth > 0 ? opts->max_depth : TAGC_DEFAULT_MAX_DEPTH;
    d->strict = opts->strict;
    d->use_number = opts->use_number;
    d->q_open = NULL;
    d->q_resume = NULL;
    d->q_end = NULL;
    d->key_at = src;
    d->first = false;
    d->key_len = 0;
    d->key = NULL;
    /* not learnt (ind_unit all ones: every depth but 0 misses); until then a bare newline */
    d->ind_pat[0] = UINT64_C(0x202020202020200a);
    d->ind_pat[1] = d->ind_pat[2] = d->ind_pat[3] = UINT64_C(0x2020202020202020);
    d->ind_unit = (size_t)-1;
    tagc_json_set_end(d, src + len); /* the compares miss until the unit is learnt */
#ifdef TAGC_INDENT_PREDICTED
    /* MarshalIndent's output opens with a newline and one unit of indent:
     * learnt here in a few instructions, rather than by the first indent's
     * miss (out of line, for any depth), which costs a small document more */
    if (len > 3 && src[1] == '\n' && (src[0] == '{' || src[0] == '[') && (src[2] == ' ' || src[2] == '\t')) {
        size_t w = 1;
        while (w + 2 < len && src[w + 2] == src[2])
            w++;
        if (w + 2 < len && (unsigned char)src[w + 2] > ' ')
            tagc_json_set_indent(d, src[2], w);
    }
#endif
    tagc_error_clear(err);
}

int tagc_json_dec_finish(tagc_json_dec *d, int rc)
{
    if (rc == 0) {
        tagc_json_ws(d);
        if (d->p != d->end)
            rc = tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '%c' after top-level value",
                                *d->p);
    }
    if (rc != 0) {
        if (d->err->code == 0) /* a failure that set no error: still report one */
            tagc_error_set(d->err, rc, (size_t)(d->p - d->start), "%s", tagc_strerror(rc));
        tagc_error_finish(d->err, d->start, (size_t)(d->end - d->start));
    }
    return rc;
}

int tagc_json_enc_finish(tagc_buf *out, size_t start, const tagc_json_opts *o)
{
    if (out->err == 0 && o->indent != NULL)
        tagc_json_indent(out, start, o->prefix ? o->prefix : "", o->indent);
    tagc_enc_done(out);
    if (out->err != 0) {
        if (start <= out->len)
            out->len = start; /* never a half-written document */
        return out->err;
    }
    return 0;
}

/* MARK: - Memory */

void *tagc_json_new(tagc_json_dec *d, size_t size)
{
    void *p = tagc_arena_alloc(d->arena, size);
    if (!p) {
        tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
        return NULL;
    }
    memset(p, 0, size);
    return p;
}

void *tagc_json_grow(tagc_json_dec *d, void *ptr, size_t *cap, size_t elem_size)
{
    size_t old = *cap;
    size_t want = old ? old * 2 : 4;
    if (want > SIZE_MAX / elem_size / 2) {
        tagc_json_fail(d, TAGC_E_NOMEM, "array too large");
        return NULL;
    }
    void *p = old == 0 ? tagc_arena_alloc(d->arena, want * elem_size) /* nothing to keep */
                       : tagc_arena_grow(d->arena, ptr, old * elem_size, want * elem_size);
    if (!p) {
        tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
        return NULL;
    }
    *cap = want;
    return p;
}

void *tagc_json_grow_len(tagc_json_dec *d, void *ptr, size_t len, size_t elem_size)
{
    size_t cap = len; /* full: the capacity is the length */
    return tagc_json_grow(d, ptr, &cap, elem_size);
}

/* MARK: - Map keys */

/* Maps up to this many entries are searched linearly; larger ones get a hash index. */
#define LINEAR_KEYS 16

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 0x100000001b3u;
    return h;
}

static uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 33; /* murmur3's finaliser */
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53u;
    x ^= x >> 33;
    return x;
}

static uint64_t int_key_at(const void *keys, size_t key_size, bool is_signed, size_t i)
{
    const uint8_t *p = (const uint8_t *)keys + i * key_size;
    switch (key_size) {
    case 1: return is_signed ? (uint64_t)(int64_t) * (const int8_t *)p : *(const uint8_t *)p;
    case 2: return is_signed ? (uint64_t)(int64_t) * (const int16_t *)p : *(const uint16_t *)p;
    case 4: return is_signed ? (uint64_t)(int64_t) * (const int32_t *)p : *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

/* Makes the index hold entries [0, n) with room for more. */
static int index_rebuild(tagc_json_dec *d, tagc_map_index *ix, size_t n, const tagc_str *skeys,
                         const void *ikeys, size_t key_size, bool is_signed)
{
    size_t cap = 64;
    while (cap < 4 * (n + 1))
        cap *= 2;
    uint32_t *slots = tagc_arena_alloc(d->arena, cap * sizeof *slots);
    if (!slots)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    memset(slots, 0, cap * sizeof *slots);
    for (size_t i = 0; i < n; i++) {
        uint64_t h = skeys ? hash_bytes(skeys[i].ptr, skeys[i].len)
                           : hash_u64(int_key_at(ikeys, key_size, is_signed, i));
        size_t s = (size_t)h & (cap - 1);
        while (slots[s])
            s = (s + 1) & (cap - 1);
        slots[s] = (uint32_t)(i + 1);
    }
    ix->slots = slots;
    ix->cap = cap;
    return 0;
}

long tagc_map_slot_str(tagc_json_dec *d, tagc_map_index *ix, const tagc_str *keys, size_t n,
                       const char *key, size_t key_len)
{
    if (ix->cap == 0 && n < LINEAR_KEYS) {
        for (size_t i = 0; i < n; i++)
            if (keys[i].len == key_len && memcmp(keys[i].ptr, key, key_len) == 0)
                return (long)i;
        return (long)n;
    }
    if (n >= UINT32_MAX - 1)
        return tagc_json_fail(d, TAGC_E_NOMEM, "map too large");
    if (ix->cap < 2 * (n + 1)) {
        int rc = index_rebuild(d, ix, n, keys, NULL, 0, false);
        if (rc)
            return rc;
    }
    size_t s = (size_t)hash_bytes(key, key_len) & (ix->cap - 1);
    while (ix->slots[s]) {
        size_t i = ix->slots[s] - 1;
        if (keys[i].len == key_len && memcmp(keys[i].ptr, key, key_len) == 0)
            return (long)i;
        s = (s + 1) & (ix->cap - 1);
    }
    ix->slots[s] = (uint32_t)(n + 1); /* the caller appends the key as entry n */
    return (long)n;
}

long tagc_map_slot_int(tagc_json_dec *d, tagc_map_index *ix, const void *keys, size_t key_size,
                       bool is_signed, size_t n, uint64_t key)
{
    if (ix->cap == 0 && n < LINEAR_KEYS) {
        for (size_t i = 0; i < n; i++)
            if (int_key_at(keys, key_size, is_signed, i) == key)
                return (long)i;
        return (long)n;
    }
    if (n >= UINT32_MAX - 1)
        return tagc_json_fail(d, TAGC_E_NOMEM, "map too large");
    if (ix->cap < 2 * (n + 1)) {
        int rc = index_rebuild(d, ix, n, NULL, keys, key_size, is_signed);
        if (rc)
            return rc;
    }
    size_t s = (size_t)hash_u64(key) & (ix->cap - 1);
    while (ix->slots[s]) {
        size_t i = ix->slots[s] - 1;
        if (int_key_at(keys, key_size, is_signed, i) == key)
            return (long)i;
        s = (s + 1) & (ix->cap - 1);
    }
    ix->slots[s] = (uint32_t)(n + 1);
    return (long)n;
}

/* Errors about a map key point at its opening quote. */
int tagc_json_key_error(tagc_json_dec *d, int code, const char *msg)
{
    d->p = d->key_at;
    return tagc_json_fail(d, code, "%s", msg);
}

/* Go's strconv.ParseInt(key, 10, 64) / ParseUint, then the field's range. */
int tagc_json_key_int(tagc_json_dec *d, const char *key, size_t len, int64_t *out, int64_t min,
                      int64_t max)
{
    size_t i = 0;
    bool neg = false;
    uint64_t v = 0, limit;
    if (len > 0 && (key[0] == '+' || key[0] == '-')) {
        neg = key[0] == '-';
        i = 1;
    }
    if (i == len)
        return tagc_json_key_error(d, TAGC_E_TYPE, "map key is not an integer");
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < len; i++) {
        unsigned c = (unsigned char)key[i] - '0';
        if (c > 9)
            return tagc_json_key_error(d, TAGC_E_TYPE, "map key is not an integer");
        if (v > (limit - c) / 10)
            return tagc_json_key_error(d, TAGC_E_RANGE, "map key out of range");
        v = v * 10 + c;
    }
    int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;
    if (neg && v == (uint64_t)INT64_MAX + 1)
        x = INT64_MIN;
    if (x < min || x > max)
        return tagc_json_key_error(d, TAGC_E_RANGE, "map key out of range");
    *out = x;
    return 0;
}

int tagc_json_key_uint(tagc_json_dec *d, const char *key, size_t len, uint64_t *out, uint64_t max)
{
    uint64_t v = 0;
    if (len == 0)
        return tagc_json_key_error(d, TAGC_E_TYPE, "map key is not an integer");
    for (size_t i = 0; i < len; i++) {
        unsigned c = (unsigned char)key[i] - '0';
        if (c > 9)
            return tagc_json_key_error(d, TAGC_E_TYPE, "map key is not an unsigned integer");
        if (v > (UINT64_MAX - c) / 10)
            return tagc_json_key_error(d, TAGC_E_RANGE, "map key out of range");
        v = v * 10 + c;
    }
    if (v > max)
        return tagc_json_key_error(d, TAGC_E_RANGE, "map key out of range");
    *out = v;
    return 0;
}

void tagc_json_write_int_key(tagc_buf *b, int64_t v)
{
    char tmp[TAGC_I64_MAX_CHARS + 2];
    tmp[0] = '"';
    size_t n = tagc_fmt_i64(tmp + 1, v);
    tmp[n + 1] = '"';
    tagc_buf_put(b, tmp, n + 2);
}

void tagc_json_write_uint_key(tagc_buf *b, uint64_t v)
{
    char tmp[TAGC_I64_MAX_CHARS + 2];
    tmp[0] = '"';
    size_t n = tagc_fmt_u64(tmp + 1, v);
    tmp[n + 1] = '"';
    tagc_buf_put(b, tmp, n + 2);
}

/* MARK: - The order of map entries */

typedef int (*key_cmp)(const void *ctx, size_t a, size_t b);

typedef struct str_ctx {
    const tagc_str *keys;
} str_ctx;

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn)
{
    size_t n = an < bn ? an : bn;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c;
    return an < bn ? -1 : an > bn;
}

static int cmp_str(const void *ctx, size_t a, size_t b)
{
    const tagc_str *k = ((const str_ctx *)ctx)->keys;
    return cmp_bytes(k[a].ptr, k[a].len, k[b].ptr, k[b].len);
}

typedef struct int_ctx {
    const void *keys;
    size_t key_size;
    bool is_signed;
} int_ctx;

/* Go sorts integer map keys by their decimal text ("10" before "9"). */
static int cmp_int(const void *ctx, size_t a, size_t b)
{
    const int_ctx *c = ctx;
    char ta[TAGC_I64_MAX_CHARS], tb[TAGC_I64_MAX_CHARS];
    uint64_t va = int_key_at(c->keys, c->key_size, c->is_signed, a);
    uint64_t vb = int_key_at(c->keys, c->key_size, c->is_signed, b);
    size_t na = c->is_signed ? tagc_fmt_i64(ta, (int64_t)va) : tagc_fmt_u64(ta, va);
    size_t nb = c->is_signed ? tagc_fmt_i64(tb, (int64_t)vb) : tagc_fmt_u64(tb, vb);
    return cmp_bytes(ta, na, tb, nb);
}

typedef struct names_ctx {
    const void *keys;
    size_t key_size;
    const tagc_str *names;
    size_t n_names;
} names_ctx;

static const tagc_str *name_of(const names_ctx *c, size_t i)
{
    static const tagc_str none = {NULL, 0};
    uint64_t v = int_key_at(c->keys, c->key_size, false, i);
    return v < c->n_names ? &c->names[v] : &none; /* not a value: the encoder fails on it */
}

static int cmp_names(const void *ctx, size_t a, size_t b)
{
    const tagc_str *na = name_of(ctx, a), *nb = name_of(ctx, b);
    return cmp_bytes(na->ptr, na->len, nb->ptr, nb->len);
}

static void sift_down(size_t *idx, size_t root, size_t n, key_cmp cmp, const void *ctx)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && cmp(ctx, idx[child], idx[child + 1]) < 0)
            child++;
        if (cmp(ctx, idx[root], idx[child]) >= 0)
            return;
        size_t t = idx[root];
        idx[root] = idx[child];
        idx[child] = t;
        root = child;
    }
}

/* Heap sort: O(n log n) on hostile input, and no memory beyond idx. */
static void order_sort(tagc_buf *b, tagc_order *ord, size_t n, bool sorted, key_cmp cmp,
                       const void *ctx)
{
    ord->idx = NULL;
    if (!sorted || n < 2)
        return;
    size_t *idx = n <= sizeof ord->stack / sizeof ord->stack[0] ? ord->stack
                  : n <= SIZE_MAX / sizeof *idx                  ? malloc(n * sizeof *idx)
                                                                 : NULL;
    if (!idx) { /* the stored order would differ from Go's output: an error */
        tagc_buf_fail(b, TAGC_E_NOMEM);
        return;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(idx, i, n, cmp, ctx);
    for (size_t end = n - 1; end > 0; end--) {
        size_t t = idx[0];
        idx[0] = idx[end];
        idx[end] = t;
        sift_down(idx, 0, end, cmp, ctx);
    }
    ord->idx = idx;
}

void tagc_order_str(tagc_buf *b, tagc_order *ord, const tagc_str *keys, size_t n, bool sorted)
{
    str_ctx c = {keys};
    order_sort(b, ord, n, sorted, cmp_str, &c);
}

void tagc_order_int(tagc_buf *b, tagc_order *ord, const void *keys, size_t key_size, bool is_signed,
                    size_t n, bool sorted)
{
    int_ctx c = {keys, key_size, is_signed};
    order_sort(b, ord, n, sorted, cmp_int, &c);
}

void tagc_order_names(tagc_buf *b, tagc_order *ord, const void *keys, size_t key_size, const tagc_str *names,
                      size_t n_names, size_t n, bool sorted)
{
    names_ctx c = {keys, key_size, names, n_names};
    order_sort(b, ord, n, sorted, cmp_names, &c);
}

void tagc_order_free(tagc_order *ord)
{
    if (ord->idx && ord->idx != ord->stack)
        free(ord->idx);
    ord->idx = NULL;
}

/* MARK: - Strict mode */

/* Errors about a key point at its opening quote. */
static int fail_at_key(tagc_json_dec *d, int code, const char *what, const char *key, size_t len)
{
    d->p = d->key_at;
    return tagc_json_fail(d, code, "%s \"%.*s\"", what, (int)(len > 64 ? 64 : len), key);
}

int tagc_json_unknown_key(tagc_json_dec *d, const char *key, size_t len)
{
    return fail_at_key(d, TAGC_E_UNKNOWN_KEY, "unknown key", key, len);
}

int tagc_json_duplicate_key(tagc_json_dec *d, const char *key, size_t len)
{
    return fail_at_key(d, TAGC_E_DUP_KEY, "duplicate key", key, len);
}

/* The name in a key table's entry: its text between the quotes. */
static size_t key_name_len(const tagc_json_key *k)
{
    return (k->len != 0 ? k->len : strlen(k->text)) - 3;
}

static int missing_name(tagc_json_dec *d, const char *name, size_t len)
{
    d->p--; /* at the closing brace */
    return tagc_json_fail(d, TAGC_E_MISSING, "required key \"%.*s\" is missing", (int)len, name);
}

int tagc_json_missing_key(tagc_json_dec *d, const char *key)
{
    return missing_name(d, key, strlen(key));
}

/* The lowest field of word whose bit is set in bits (not 0). */
static size_t first_field(size_t word, uint64_t bits)
{
    size_t i = 0;
    while ((bits & 1) == 0) {
        bits >>= 1;
        i++;
    }
    return word * 64 + i;
}

int tagc_json_missing_field(tagc_json_dec *d, const tagc_json_key *keys, size_t word, uint64_t missing)
{
    const tagc_json_key *k = &keys[first_field(word, missing)];
    return missing_name(d, k->text + 1, key_name_len(k));
}

int tagc_mp_missing_field(tagc_mp_dec *d, const tagc_mp_key *keys, size_t word, uint64_t missing)
{
    const tagc_mp_key *k = &keys[first_field(word, missing)];
    size_t h = tagc_mp_key_head(k->enc);
    return missing_name(d, k->enc + h, k->len - h);
}

int tagc_json_fail_field(tagc_json_dec *d, int rc, const tagc_json_key *key)
{
    return tagc_json_fail_key(d, rc, key->text + 1, key_name_len(key));
}

/* MARK: - The `string` option on strings, and []byte */

void tagc_json_write_quoted_str(tagc_buf *b, const char *s, size_t len, unsigned esc)
{
    /* As Go: the inner encoding escapes HTML, the outer one need not. */
    tagc_buf inner;
    tagc_buf_init(&inner);
    tagc_json_write_str(&inner, s, len, esc);
    if (inner.err)
        tagc_buf_fail(b, inner.err);
    else
        tagc_json_write_str(b, (const char *)inner.data, inner.len, esc & ~TAGC_ESC_HTML);
    tagc_buf_free(&inner);
}

int tagc_json_read_quoted_str(tagc_json_dec *d, tagc_str *out)
{
    tagc_str outer;
    int rc;
    tagc_json_ws(d);
    const char *at = d->p;
    if ((rc = tagc_json_read_str(d, &outer)) != 0)
        return rc;
    if (outer.len == 4 && memcmp(outer.ptr, "null", 4) == 0)
        return 1; /* "null" in quotes is null, as in Go */
    /* The content must be exactly one JSON string. */
    tagc_json_dec inner = *d;
    inner.p = outer.ptr;
    inner.end = outer.ptr + outer.len;
    inner.start = outer.ptr;
    inner.ind_lim = inner.start; /* no indent compare in line */
    tagc_str s;
    if (outer.len == 0 || outer.ptr[0] != '"' || tagc_json_read_str(&inner, &s) != 0 ||
        inner.p != inner.end) {
        d->p = at;
        tagc_error_clear(d->err);
        return tagc_json_fail(d, TAGC_E_TYPE, "invalid use of ,string option: not a quoted string");
    }
    *out = s;
    return 0;
}

int tagc_json_read_bytes_value(tagc_json_dec *d, tagc_bytes *out)
{
    int rc;
    if (tagc_json_null(d)) {
        out->ptr = NULL;
        out->len = 0;
        return 0;
    }
    if (d->p < d->end && *d->p == '[') { /* Go also takes an array of numbers */
        uint8_t *ptr = NULL;
        size_t len = 0, cap = 0;
        bool first = true;
        if ((rc = tagc_json_arr_begin(d)) != 0)
            return rc;
        while ((rc = tagc_json_arr_next(d, &first)) > 0) {
            if (len == cap && (ptr = tagc_json_grow(d, ptr, &cap, 1)) == NULL)
                return TAGC_E_NOMEM;
            ptr[len] = 0;
            if (!tagc_json_null(d) && (rc = tagc_json_read_u8(d, &ptr[len])) != 0)
                return tagc_json_fail_index(d, rc, len);
            len++;
        }
        if (rc < 0)
            return rc;
        out->ptr = len ? ptr : TAGC_EMPTY;
        out->len = len;
        return 0;
    }
    if ((rc = tagc_json_read_bytes(d, &out->ptr, &out->len)) != 0)
        return rc;
    if (out->ptr == NULL)
        out->ptr = TAGC_EMPTY; /* "" is an empty slice, not nil */
    return 0;
}

/* MARK: - Struct keys */

int tagc_json_key_find(const tagc_json_key *keys, const uint16_t *sorted, size_t n, const uint16_t *fold,
                       const char *key, size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const tagc_json_key *k = &keys[sorted[mid]];
        size_t klen = key_name_len(k);
        int c = klen != len ? (klen < len ? -1 : 1) : memcmp(k->text + 1, key, len);
        if (c == 0)
            return sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = 0; fold ? fold[i] != UINT16_MAX : i < n; i++) {
        size_t j = fold ? fold[i] : i;
        if (tagc_json_key_fold_eq(key, len, keys[j].text + 1, key_name_len(&keys[j])))
            return (int)j;
    }
    return -1;
}

/* MARK: - Unknown members kept (Go 1.27's json:",embed" map) */

int tagc_json_collect_member(tagc_json_dec *d, tagc_str **keys, tagc_raw **vals, size_t *len,
                             const char *key, size_t key_len)
{
    tagc_raw r = {0};
    int rc = tagc_json_read_raw(d, &r);
    if (rc != 0)
        return rc;
    size_t n = *len;
    if ((n & (n - 1)) == 0) { /* 0 or a power of two: the arrays are full, double them */
        size_t cap = n ? 2 * n : 1;
        if (cap > SIZE_MAX / sizeof(tagc_raw))
            return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
        tagc_str *k = tagc_arena_alloc(d->arena, cap * sizeof *k);
        tagc_raw *v = tagc_arena_alloc(d->arena, cap * sizeof *v);
        if (k == NULL || v == NULL)
            return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
        if (n) {
            memcpy(k, *keys, n * sizeof *k);
            memcpy(v, *vals, n * sizeof *v);
        }
        *keys = k;
        *vals = v;
    }
    char *text = tagc_arena_alloc(d->arena, key_len + 1);
    if (text == NULL)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    if (key_len)
        memcpy(text, key, key_len);
    text[key_len] = '\0';
    (*keys)[n] = (tagc_str){text, key_len};
    (*vals)[n] = r;
    *len = n + 1;
    return 0;
}
