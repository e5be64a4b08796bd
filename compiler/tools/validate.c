/*
 * validate.c - `tagc validate [--format json|jsonl|msgpack] [--strict] FILE.tagc TYPE [DATA...]`.
 *
 * The decoder is an interpreter over the checked AST. Each function below
 * mirrors one generated function of gen_json.c or gen_msgpack.c (named in its
 * comment): the same runtime calls in the same order, the same checks (ranges
 * per integer width, enum values, map keys, strict mode, depth), the same error
 * paths. Only the values are not kept: they go to a scratch arena and the
 * interpreter forgets them, which changes no verdict (a decoder's result never
 * depends on what it decoded before, only on the input).
 *
 * JSONL and MessagePack input is streamed through the runtime's stream reader
 * (runtime/stream.c), one record at a time, so memory stays bounded by the
 * largest record (at most 64 MiB, the reader's max_record).
 */
#define _XOPEN_SOURCE 700

#include "validate.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

enum { EXIT_INVALID = 1, EXIT_USAGE = 2 };

#define CHUNK ((size_t)1 << 16)

/* MARK: - Struct shapes */

/* The fields of a struct on each wire, in the generated code's index order. */
typedef struct shape {
    const ast_type *st;
    const wire_field **json; /* wire fields with a JSON name */
    size_t *json_len;
    size_t njson;
    const wire_field **mp;   /* wire fields with a MessagePack name */
    size_t *mp_len;
    size_t nmp;
} shape;

struct validator {
    ast_program prog;
    const ast_decl *decl;
    unsigned profile; /* the runtime's TAGC_GO_* flags of prog.go */
    shape **shapes; /* open addressing by the struct's address */
    size_t cap, count;
    bool nomem;
};

static void shape_free(shape *s)
{
    if (!s)
        return;
    free(s->json);
    free(s->json_len);
    free(s->mp);
    free(s->mp_len);
    free(s);
}

static shape *shape_new(const ast_type *st)
{
    shape *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->st = st;
    size_t n = st->wire_count ? st->wire_count : 1;
    s->json = calloc(n, sizeof *s->json);
    s->json_len = calloc(n, sizeof *s->json_len);
    s->mp = calloc(n, sizeof *s->mp);
    s->mp_len = calloc(n, sizeof *s->mp_len);
    if (!s->json || !s->json_len || !s->mp || !s->mp_len) {
        shape_free(s);
        return NULL;
    }
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (w->json_name) {
            s->json_len[s->njson] = strlen(w->json_name);
            s->json[s->njson++] = w;
        }
        if (w->msgpack_name) {
            s->mp_len[s->nmp] = strlen(w->msgpack_name);
            s->mp[s->nmp++] = w;
        }
    }
    return s;
}

static const shape *shape_of(validator *v, const ast_type *st)
{
    if (v->cap) {
        for (size_t i = hash_ptr(st) & (v->cap - 1);; i = (i + 1) & (v->cap - 1)) {
            if (!v->shapes[i])
                break;
            if (v->shapes[i]->st == st)
                return v->shapes[i];
        }
    }
    if (2 * (v->count + 1) > v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        shape **t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        for (size_t i = 0; i < v->cap; i++) {
            if (!v->shapes[i])
                continue;
            size_t j = hash_ptr(v->shapes[i]->st) & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = v->shapes[i];
        }
        free(v->shapes);
        v->shapes = t;
        v->cap = cap;
    }
    shape *s = shape_new(st);
    if (!s)
        return NULL;
    size_t j = hash_ptr(st) & (v->cap - 1);
    while (v->shapes[j])
        j = (j + 1) & (v->cap - 1);
    v->shapes[j] = s;
    v->count++;
    return s;
}

/* MARK: - Shapes of types (as gen_json.c and gen_msgpack.c see them) */

static bool is_signed_int(type_kind k)
{
    return k == TK_INT8 || k == TK_INT16 || k == TK_INT32 || k == TK_INT64 || k == TK_DURATION;
}

static bool is_unsigned_int(type_kind k)
{
    return k == TK_UINT8 || k == TK_UINT16 || k == TK_UINT32 || k == TK_UINT64;
}

static int64_t int_min(type_kind k)
{
    switch (k) {
    case TK_INT8: return INT8_MIN;
    case TK_INT16: return INT16_MIN;
    case TK_INT32: return INT32_MIN;
    default: return INT64_MIN;
    }
}

static int64_t int_max(type_kind k)
{
    switch (k) {
    case TK_INT8: return INT8_MAX;
    case TK_INT16: return INT16_MAX;
    case TK_INT32: return INT32_MAX;
    default: return INT64_MAX;
    }
}

static uint64_t uint_max(type_kind k)
{
    switch (k) {
    case TK_UINT8: return UINT8_MAX;
    case TK_UINT16: return UINT16_MAX;
    case TK_UINT32: return UINT32_MAX;
    default: return UINT64_MAX;
    }
}

/* A builtin scalar whose null (nil) leaves the value unchanged. */
static bool null_keeps(type_kind k)
{
    return k == TK_BOOL || is_signed_int(k) || is_unsigned_int(k) || k == TK_FLOAT32 ||
           k == TK_FLOAT64 || k == TK_STRING || k == TK_TIME;
}

static bool is_bytes(const ast_type *t)
{
    return t->kind == TK_SLICE && t->elem->kind == TK_UINT8;
}

static bool is_opt(ast_type *t)
{
    return t->kind == TK_PTR && !ty_is_struct(t->elem);
}

static bool is_string_enum(const ast_type *t)
{
    const ast_decl *en = ty_enum(t);
    return en && en->enum_kind == ENUM_STRING;
}

/* <enum>_parse: the index of s among "" and the declared values, or -1. */
static long enum_parse(const ast_decl *en, const char *s, size_t len)
{
    if (len == 0)
        return 0;
    long i = 1;
    for (const enum_value *ev = en->values; ev; ev = ev->next) {
        if (ev->str[0] == '\0')
            continue;
        if (strlen(ev->str) == len && memcmp(ev->str, s, len) == 0)
            return i;
        i++;
    }
    return -1;
}

/* <enum>_known: a declared value or 0. x is the value's 64 bits. */
static bool enum_known(const ast_decl *en, uint64_t x)
{
    if (x == 0)
        return true;
    for (const enum_value *ev = en->values; ev; ev = ev->next)
        if ((uint64_t)ev->num == x)
            return true;
    return false;
}

/* Strict mode: whether the field must be present (JSON: not omitempty, and not
 * behind an embedded pointer, which a nil one hides). */
static bool json_required(const wire_field *w)
{
    if (wire_json_omittable(w))
        return false;
    for (size_t j = 0; j + 1 < w->path_len; j++)
        if (w->path[j]->type->kind == TK_PTR)
            return false;
    return true;
}

/* The seen-fields bitmap of one struct being read. */
typedef struct seen_set {
    uint64_t small[4];
    uint64_t *bits;
} seen_set;

static int seen_init(seen_set *s, tagc_json_dec *d, size_t n)
{
    size_t words = n ? (n + 63) / 64 : 1;
    if (words <= 4) {
        memset(s->small, 0, sizeof s->small);
        s->bits = s->small;
        return 0;
    }
    s->bits = tagc_json_new(d, words * sizeof *s->bits); /* zeroed */
    return s->bits ? 0 : TAGC_E_NOMEM;
}

/* The message of a value that is not one of the enum's. */
static const char *unknown_msg(char *buf, const ast_decl *en)
{
    snprintf(buf, TAGC_MESSAGE_MAX, "unknown %s value", en->name);
    return buf;
}

/* MARK: - JSON */

typedef struct jctx {
    validator *v;
    tagc_json_dec *d;
} jctx;

static int j_call(jctx *c, ast_type *t);

/* read_value: the value of type t. */
static int j_value(jctx *c, ast_type *t)
{
    tagc_json_dec *d = c->d;
    type_kind k = t->kind;
    if (null_keeps(k)) {
        if (tagc_json_null(d))
            return 0;
        if (is_signed_int(k)) {
            int64_t x;
            return tagc_json_read_int(d, &x, int_min(k), int_max(k));
        }
        if (is_unsigned_int(k)) {
            uint64_t x;
            return tagc_json_read_uint(d, &x, uint_max(k));
        }
        switch (k) {
        case TK_BOOL: {
            bool b;
            return tagc_json_read_bool(d, &b);
        }
        case TK_FLOAT32: {
            float f;
            return tagc_json_read_f32(d, &f);
        }
        case TK_FLOAT64: {
            double f;
            return tagc_json_read_f64(d, &f);
        }
        case TK_STRING: {
            tagc_str s;
            return tagc_json_read_str(d, &s);
        }
        default: {
            tagc_time tm;
            return tagc_json_read_time_as(d, &tm, c->v->profile);
        }
        }
    }
    if (k == TK_DURATION) {
        int64_t x;
        return tagc_json_null(d) ? 0 : tagc_json_read_i64(d, &x);
    }
    if (k == TK_RAW) {
        tagc_raw r = { 0 };
        return tagc_json_read_raw(d, &r);
    }
    if (k == TK_NUMBER) {
        tagc_number n = { 0 };
        return tagc_json_null(d) ? 0 : tagc_json_read_number(d, &n);
    }
    if (k == TK_ANY) {
        tagc_any *a = NULL;
        return tagc_json_read_any(d, &a);
    }
    if (is_bytes(t)) {
        tagc_bytes b = { 0 };
        return tagc_json_read_bytes_value(d, &b);
    }
    return j_call(c, t);
}

/* read_opt: a pointer to a non-struct. */
static int j_opt(jctx *c, ast_type *elem)
{
    if (tagc_json_null(c->d))
        return 0;
    return j_value(c, elem);
}

/* read_quoted: the `string` option (an unquoted null is handled by the caller). */
static int j_quoted(jctx *c, ast_type *t, bool has)
{
    tagc_json_dec *d = c->d;
    ast_type *u = ty_under(t);
    const ast_decl *en = ty_enum(t);
    int rc;
    if (u->kind == TK_NUMBER) {
        tagc_number n = { 0 };
        return (rc = tagc_json_read_number_quoted(d, &n, c->v->profile)) < 0 ? rc : 0;
    }
    if (u->kind == TK_STRING) {
        tagc_str q = { 0 };
        if ((rc = tagc_json_read_quoted_str(d, &q)) < 0)
            return rc;
        if (en && rc == 0 && enum_parse(en, q.ptr, q.len) < 0)
            return tagc_json_fail(d, TAGC_E_ENUM, "unknown %s value", en->name);
        return 0;
    }
    if ((rc = tagc_json_string_opt_begin(d, c->v->profile)) != 0)
        return rc;
    if (has) {
        if (!tagc_json_null(d) && (rc = j_value(c, t)) != 0)
            return rc;
    } else if ((rc = j_value(c, t)) != 0) {
        return rc;
    }
    return tagc_json_string_opt_end(d);
}

/* read_member: one field of a struct. */
static int j_member(jctx *c, const wire_field *w)
{
    ast_type *t = w->field->type;
    if (is_opt(t)) {
        if (w->json_string)
            return tagc_json_null(c->d) ? 0 : j_quoted(c, t->elem, true);
        return j_opt(c, t->elem);
    }
    if (w->json_string)
        return tagc_json_null(c->d) ? 0 : j_quoted(c, t, false);
    return j_value(c, t);
}

/* <struct>_read_json's keys: declared order first, then exactly, then Go's
 * folding: in declared order, or under Go 1.27 breadth first and never a
 * `case:strict` field (gen_json.c's fold order). */
static int j_field(const validator *v, const shape *s, const char *key, size_t len, size_t next)
{
    if (next < s->njson && s->json_len[next] == len && memcmp(key, s->json[next]->json_name, len) == 0)
        return (int)next;
    for (size_t i = 0; i < s->njson; i++)
        if (s->json_len[i] == len && memcmp(key, s->json[i]->json_name, len) == 0)
            return (int)i;
    bool go127 = v->prog.go == GO_1_27;
    size_t depths = 1;
    for (size_t i = 0; go127 && i < s->njson; i++)
        depths = s->json[i]->path_len > depths ? s->json[i]->path_len : depths;
    for (size_t depth = 1; depth <= depths; depth++)
        for (size_t i = 0; i < s->njson; i++) {
            const wire_field *w = s->json[i];
            if (go127 && (w->path_len != depth || w->field->tags.json_case_strict))
                continue;
            if (tagc_json_key_fold_eq(key, len, w->json_name, s->json_len[i]))
                return (int)i;
        }
    return -1;
}

/* gen_struct_read */
static int j_struct(jctx *c, ast_type *st)
{
    tagc_json_dec *d = c->d;
    const shape *s = shape_of(c->v, st);
    const char *key;
    size_t key_len;
    bool first = true;
    size_t next = 0;
    seen_set seen;
    int rc;

    if (!s)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    if (tagc_json_null(d))
        return 0;
    if ((rc = tagc_json_obj_begin(d)) != 0)
        return rc;
    if ((rc = seen_init(&seen, d, s->njson)) != 0)
        return rc;
    while ((rc = tagc_json_obj_next(d, &first, &key, &key_len)) > 0) {
        int field = j_field(c->v, s, key, key_len, next);
        if (field >= 0) {
            uint64_t bit = UINT64_C(1) << (field & 63);
            if (d->strict && (seen.bits[field >> 6] & bit) != 0)
                return tagc_json_duplicate_key(d, key, key_len);
            seen.bits[field >> 6] |= bit;
            next = (size_t)field + 1;
            const wire_field *w = s->json[field];
            if ((rc = j_member(c, w)) != 0)
                return tagc_json_fail_key(d, rc, w->json_name, s->json_len[field]);
        } else {
            if (d->strict && !st->json_unknown) /* a type that collects them keeps them */
                return tagc_json_unknown_key(d, key, key_len);
            if ((rc = tagc_json_skip(d)) != 0)
                return tagc_json_fail_key(d, rc, key, key_len);
        }
    }
    if (rc < 0)
        return rc;
    if (d->strict) {
        for (size_t i = 0; i < s->njson; i++)
            if (json_required(s->json[i]) && (seen.bits[i >> 6] & (UINT64_C(1) << (i & 63))) == 0)
                return tagc_json_missing_key(d, s->json[i]->json_name);
    }
    return 0;
}

/* Reads an element of a slice, array or map. */
static int j_elem(jctx *c, ast_type *elem)
{
    return is_opt(elem) ? j_opt(c, elem->elem) : j_value(c, elem);
}

/* gen_slice_read */
static int j_slice(jctx *c, ast_type *t)
{
    tagc_json_dec *d = c->d;
    bool first = true;
    size_t len = 0;
    int rc;
    if (tagc_json_null(d))
        return 0;
    if ((rc = tagc_json_arr_begin(d)) != 0)
        return rc;
    while ((rc = tagc_json_arr_next(d, &first)) > 0) {
        if ((rc = j_elem(c, t->elem)) != 0)
            return tagc_json_fail_index(d, rc, len);
        len++;
    }
    return rc < 0 ? rc : 0;
}

/* gen_array_read */
static int j_array(jctx *c, ast_type *t)
{
    tagc_json_dec *d = c->d;
    bool first = true;
    size_t i = 0;
    int rc;
    if (tagc_json_null(d))
        return 0;
    if ((rc = tagc_json_arr_begin(d)) != 0)
        return rc;
    while ((rc = tagc_json_arr_next(d, &first)) > 0) {
        if ((int64_t)i < t->array_len) {
            if ((rc = j_elem(c, t->elem)) != 0)
                return tagc_json_fail_index(d, rc, i);
        } else if ((rc = tagc_json_skip(d)) != 0) {
            return tagc_json_fail_index(d, rc, i);
        }
        i++;
    }
    return rc < 0 ? rc : 0;
}

/* The keys of a map being read, as the generated code keeps them for its index:
 * strings, or integers (enum indexes and values) as 64-bit words. */
typedef struct map_keys {
    tagc_str *strs;
    int64_t *ints;
    size_t len, cap;
    tagc_map_index ix;
} map_keys;

/* Finds or adds a key; returns its entry (len when new) or a negative code. */
static long keys_slot(tagc_json_dec *d, map_keys *m, bool str_key, bool is_signed, const char *key,
                      size_t key_len, uint64_t k)
{
    long at;
    if (str_key)
        at = tagc_map_slot_str(d, &m->ix, m->strs, m->len, key, key_len);
    else
        at = tagc_map_slot_int(d, &m->ix, m->ints, sizeof *m->ints, is_signed, m->len, k);
    if (at < 0 || (size_t)at != m->len)
        return at;
    if (m->len == m->cap) {
        size_t cap2 = m->cap;
        void *p = str_key ? tagc_json_grow(d, m->strs, &cap2, sizeof *m->strs)
                          : tagc_json_grow(d, m->ints, &cap2, sizeof *m->ints);
        if (!p)
            return TAGC_E_NOMEM;
        if (str_key)
            m->strs = p;
        else
            m->ints = p;
        m->cap = cap2;
    }
    if (str_key) {
        char *copy = tagc_json_new(d, key_len + 1);
        if (!copy)
            return TAGC_E_NOMEM;
        memcpy(copy, key, key_len);
        m->strs[m->len].ptr = copy;
        m->strs[m->len].len = key_len;
    } else {
        m->ints[m->len] = (int64_t)k;
    }
    m->len++;
    return at;
}

/* gen_map_read with read_map_key */
static int j_map(jctx *c, ast_type *t)
{
    tagc_json_dec *d = c->d;
    ast_type *kt = t->key;
    ast_type *u = ty_under(kt);
    const ast_decl *en = ty_enum(kt);
    bool str_enum = is_string_enum(kt);
    bool str_key = u->kind == TK_STRING && !str_enum;
    map_keys m = { 0 };
    char msg[TAGC_MESSAGE_MAX];
    const char *key;
    size_t key_len;
    bool first = true;
    int rc;

    if (tagc_json_null(d))
        return 0;
    if ((rc = tagc_json_obj_begin(d)) != 0)
        return rc;
    while ((rc = tagc_json_obj_next(d, &first, &key, &key_len)) > 0) {
        uint64_t k = 0;
        bool is_signed = true;
        if (str_enum) {
            long idx = enum_parse(en, key, key_len);
            if (idx < 0)
                return tagc_json_fail_key(d, tagc_json_key_error(d, TAGC_E_ENUM, unknown_msg(msg, en)), key,
                                          key_len);
            k = (uint64_t)idx;
        } else if (u->kind == TK_FLOAT32 || u->kind == TK_FLOAT64) {
            double x;
            if ((rc = tagc_json_key_float(d, key, key_len, u->kind == TK_FLOAT32 ? 32 : 64, &x)) != 0)
                return tagc_json_fail_key(d, rc, key, key_len);
            k = tagc_f64_bits(x == 0 ? 0 : x); /* 0 and -0: one key */
            is_signed = false;
        } else if (is_unsigned_int(u->kind)) {
            if ((rc = tagc_json_key_uint(d, key, key_len, &k, uint_max(u->kind))) != 0)
                return tagc_json_fail_key(d, rc, key, key_len);
            is_signed = false;
        } else if (!str_key) {
            int64_t x;
            if ((rc = tagc_json_key_int(d, key, key_len, &x, int_min(u->kind), int_max(u->kind))) != 0)
                return tagc_json_fail_key(d, rc, key, key_len);
            k = (uint64_t)x;
        }
        if (en && en->enum_kind == ENUM_INT && !enum_known(en, k))
            return tagc_json_fail_key(d, tagc_json_key_error(d, TAGC_E_ENUM, unknown_msg(msg, en)), key,
                                      key_len);
        long at = keys_slot(d, &m, str_key, is_signed, key, key_len, k);
        if (at < 0)
            return (int)at;
        if ((rc = j_elem(c, t->elem)) != 0)
            return tagc_json_fail_key(d, rc, key, key_len);
    }
    return rc < 0 ? rc : 0;
}

/* <enum>_read_json */
static int j_enum(jctx *c, const ast_decl *en)
{
    tagc_json_dec *d = c->d;
    const char *at;
    int rc;
    if (tagc_json_null(d))
        return 0;
    if (en->enum_kind == ENUM_STRING) {
        tagc_str s;
        at = d->p;
        if ((rc = tagc_json_read_str(d, &s)) != 0)
            return rc;
        if (enum_parse(en, s.ptr, s.len) < 0) {
            d->p = at;
            return tagc_json_fail(d, TAGC_E_ENUM, "unknown %s value", en->name);
        }
        return 0;
    }
    type_kind k = en->type->kind;
    uint64_t x;
    tagc_json_ws(d);
    at = d->p;
    if (is_unsigned_int(k)) {
        if ((rc = tagc_json_read_uint(d, &x, uint_max(k))) != 0)
            return rc;
    } else {
        int64_t sx;
        if ((rc = tagc_json_read_int(d, &sx, int_min(k), int_max(k))) != 0)
            return rc;
        x = (uint64_t)sx;
    }
    if (!enum_known(en, x)) {
        d->p = at;
        return tagc_json_fail(d, TAGC_E_ENUM, "unknown %s value", en->name);
    }
    return 0;
}

/* The CW_* bit of the JSON value starting with byte b (a number: CW_INTEGER
 * until its text says otherwise); 0 when no value starts so. */
static unsigned json_shape(char b)
{
    switch (b) {
    case '"': return CW_STRING;
    case '{': return CW_OBJECT;
    case '[': return CW_ARRAY;
    case 't': case 'f': return CW_BOOLEAN;
    case 'n': return CW_NULL;
    default: return b == '-' || (b >= '0' && b <= '9') ? CW_INTEGER : 0;
    }
}

static const char *shape_name(unsigned bit)
{
    switch (bit) {
    case CW_STRING: return "a string";
    case CW_INTEGER: return "an integer";
    case CW_NUMBER: return "a number";
    case CW_BOOLEAN: return "a boolean";
    case CW_OBJECT: return "an object";
    case CW_ARRAY: return "an array";
    default: return "null";
    }
}

/* A //tagc:codec type: one JSON value of its declared wire shape (its C code is
 * the user's: what the shape says is all that is known of it). */
static int j_codec(jctx *c, const ast_decl *decl)
{
    tagc_json_dec *d = c->d;
    tagc_json_ws(d);
    const char *at = d->p;
    unsigned got = at < d->end ? json_shape(*at) : 0;
    int rc = tagc_json_skip(d);
    if (rc != 0)
        return rc;
    if (got == CW_INTEGER)
        for (const char *p = at; p < d->p; p++)
            if (*p == '.' || *p == 'e' || *p == 'E')
                got = CW_NUMBER;
    if (decl->codec->wire & got)
        return 0;
    d->p = at;
    return tagc_json_fail(d, TAGC_E_TYPE, "%s: expected %s (its codec's wire shape), found %s",
                          decl->name, decl->codec->wire_text, shape_name(got));
}

/* <fn>_read_json for a named or composite type. */
static int j_call(jctx *c, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED: {
        const ast_decl *decl = t->decl;
        if (decl_is_closed_enum(decl))
            return j_enum(c, decl);
        if (decl->codec)
            return j_codec(c, decl);
        if (decl->type->kind == TK_STRUCT)
            return j_struct(c, decl->type);
        return is_opt(decl->type) ? j_opt(c, decl->type->elem) : j_value(c, decl->type);
    }
    case TK_STRUCT:
        return j_struct(c, t);
    case TK_SLICE:
        return j_slice(c, t);
    case TK_ARRAY:
        return j_array(c, t);
    case TK_MAP:
        return j_map(c, t);
    case TK_PTR:
        if (ty_is_struct(t->elem))
            return tagc_json_null(c->d) ? 0 : j_call(c, t->elem);
        return j_opt(c, t->elem);
    default:
        return j_value(c, t);
    }
}

int validator_json(validator *v, const char *src, size_t len, tagc_arena *arena,
                   tagc_error *err, const tagc_json_opts *opts)
{
    tagc_json_dec d;
    tagc_error local;
    tagc_json_dec_init(&d, src, len, arena, err ? err : &local, opts);
    jctx c = { v, &d };
    ast_type named = { 0 };
    named.kind = TK_NAMED;
    named.decl = (ast_decl *)v->decl;
    return tagc_json_dec_finish(&d, j_call(&c, &named));
}

/* MARK: - MessagePack */

static int m_call(jctx *c, ast_type *t);

/* read_value (gen_msgpack.c) */
static int m_value(jctx *c, ast_type *t)
{
    tagc_mp_dec *d = c->d;
    type_kind k = t->kind;
    if (null_keeps(k) || k == TK_DURATION) {
        if (tagc_mp_nil(d))
            return 0;
        if (is_signed_int(k)) {
            int64_t x;
            return tagc_mp_read_int(d, &x, int_min(k), int_max(k));
        }
        if (is_unsigned_int(k)) {
            uint64_t x;
            return tagc_mp_read_uint(d, &x, uint_max(k));
        }
        switch (k) {
        case TK_BOOL: {
            bool b;
            return tagc_mp_read_bool(d, &b);
        }
        case TK_FLOAT32: {
            float f;
            return tagc_mp_read_f32(d, &f);
        }
        case TK_FLOAT64: {
            double f;
            return tagc_mp_read_f64(d, &f);
        }
        case TK_STRING: {
            tagc_str s;
            return tagc_mp_read_str(d, &s);
        }
        default: {
            tagc_time tm;
            return tagc_mp_read_time(d, &tm);
        }
        }
    }
    if (k == TK_RAW) {
        tagc_raw r = { 0 };
        return tagc_mp_read_raw(d, &r);
    }
    if (k == TK_NUMBER) { /* its text, a str */
        tagc_str s;
        return tagc_mp_read_str(d, &s);
    }
    if (k == TK_ANY) {
        tagc_any *a = NULL;
        return tagc_mp_read_any(d, &a);
    }
    if (is_bytes(t)) {
        tagc_bytes b = { 0 };
        return tagc_mp_read_bytes(d, &b);
    }
    return m_call(c, t);
}

/* read_opt, and read_elem */
static int m_opt(jctx *c, ast_type *elem)
{
    return tagc_mp_nil(c->d) ? 0 : m_value(c, elem);
}

static int m_elem(jctx *c, ast_type *elem)
{
    return is_opt(elem) ? m_opt(c, elem->elem) : m_value(c, elem);
}

/* <struct>_read_msgpack's keys: they match exactly (and names are unique). */
static int m_field(const shape *s, const char *key, size_t len)
{
    for (size_t i = 0; i < s->nmp; i++)
        if (s->mp_len[i] == len && memcmp(key, s->mp[i]->msgpack_name, len) == 0)
            return (int)i;
    return -1;
}

/* gen_struct_read (gen_msgpack.c) */
static int m_struct(jctx *c, ast_type *st)
{
    tagc_mp_dec *d = c->d;
    const shape *s = shape_of(c->v, st);
    const char *key;
    size_t key_len, n;
    seen_set seen;
    int rc;

    if (!s)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    if (tagc_mp_nil(d))
        return 0;
    if ((rc = tagc_mp_map_begin(d, &n)) != 0)
        return rc;
    if ((rc = seen_init(&seen, d, s->nmp)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if ((rc = tagc_mp_read_key(d, &key, &key_len)) != 0)
            return rc;
        int field = m_field(s, key, key_len);
        if (field >= 0) {
            uint64_t bit = UINT64_C(1) << (field & 63);
            if (d->strict && (seen.bits[field >> 6] & bit) != 0)
                return tagc_json_duplicate_key(d, key, key_len);
            seen.bits[field >> 6] |= bit;
            const wire_field *w = s->mp[field];
            ast_type *t = w->field->type;
            rc = is_opt(t) ? m_opt(c, t->elem) : m_value(c, t);
            if (rc != 0)
                return tagc_json_fail_key(d, rc, w->msgpack_name, s->mp_len[field]);
        } else {
            if (d->strict)
                return tagc_json_unknown_key(d, key, key_len);
            if ((rc = tagc_mp_skip(d)) != 0)
                return tagc_json_fail_key(d, rc, key, key_len);
        }
    }
    tagc_mp_end(d);
    if (d->strict) {
        for (size_t i = 0; i < s->nmp; i++)
            if (!wire_msgpack_omittable(s->mp[i]) && (seen.bits[i >> 6] & (UINT64_C(1) << (i & 63))) == 0)
                return tagc_json_missing_key(d, s->mp[i]->msgpack_name);
    }
    return 0;
}

/* gen_slice_read and gen_array_read (gen_msgpack.c) */
static int m_list(jctx *c, ast_type *t, bool array)
{
    tagc_mp_dec *d = c->d;
    size_t n;
    int rc;
    if (tagc_mp_nil(d))
        return 0;
    if ((rc = tagc_mp_arr_begin(d, &n)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (!array || (int64_t)i < t->array_len)
            rc = m_elem(c, t->elem);
        else
            rc = tagc_mp_skip(d);
        if (rc != 0)
            return tagc_json_fail_index(d, rc, i);
    }
    tagc_mp_end(d);
    return 0;
}

/* gen_map_read (gen_msgpack.c) */
static int m_map(jctx *c, ast_type *t)
{
    tagc_mp_dec *d = c->d;
    ast_type *u = ty_under(t->key);
    const ast_decl *en = ty_enum(t->key);
    bool str_enum = en && en->enum_kind == ENUM_STRING;
    bool str_key = u->kind == TK_STRING && !str_enum;
    map_keys m = { 0 };
    char msg[TAGC_MESSAGE_MAX];
    size_t n;
    int rc;

    if (tagc_mp_nil(d))
        return 0;
    if ((rc = tagc_mp_map_begin(d, &n)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        const char *key = NULL;
        size_t key_len = 0;
        char num[TAGC_F64_MAX_CHARS];
        uint64_t k = 0;
        bool is_signed = true;
        long at;
        if (str_key || str_enum) {
            const char *key_at = d->p;
            if ((rc = tagc_mp_read_str_ref(d, &key, &key_len)) != 0)
                return tagc_json_fail_index(d, rc, i);
            if (str_enum) {
                long idx = enum_parse(en, key, key_len);
                if (idx < 0) {
                    d->p = key_at;
                    return tagc_json_fail_key(d, tagc_json_fail(d, TAGC_E_ENUM, "%s", unknown_msg(msg, en)),
                                              key, key_len);
                }
                k = (uint64_t)idx;
            }
        } else {
            const char *key_at = d->p;
            double x = 0;
            bool f32 = u->kind == TK_FLOAT32;
            if (f32 || u->kind == TK_FLOAT64) {
                float x32;
                if ((rc = f32 ? tagc_mp_read_f32(d, &x32) : tagc_mp_read_f64(d, &x)) != 0)
                    return tagc_json_fail_index(d, rc, i);
                x = f32 ? (double)x32 : x;
                k = tagc_f64_bits(x == 0 ? 0 : x); /* 0 and -0: one key */
                is_signed = false;
            } else if (is_unsigned_int(u->kind)) {
                if ((rc = tagc_mp_key_uint(d, &k, uint_max(u->kind))) != 0)
                    return tagc_json_fail_index(d, rc, i);
                is_signed = false;
            } else {
                int64_t x;
                if ((rc = tagc_mp_key_int(d, &x, int_min(u->kind), int_max(u->kind))) != 0)
                    return tagc_json_fail_index(d, rc, i);
                k = (uint64_t)x;
            }
            if (en && !enum_known(en, k)) {
                d->p = key_at;
                return tagc_json_fail_index(d, tagc_json_fail(d, TAGC_E_ENUM, "%s", unknown_msg(msg, en)), i);
            }
            key = num;
            key_len = f32 || u->kind == TK_FLOAT64 ? tagc_fmt_key_f64(num, x, f32)
                      : is_signed                  ? tagc_fmt_i64(num, (int64_t)k)
                                                   : tagc_fmt_u64(num, k);
        }
        at = keys_slot(d, &m, str_key, is_signed, key, key_len, k);
        if (at < 0)
            return (int)at;
        if ((rc = m_elem(c, t->elem)) != 0)
            return tagc_json_fail_key(d, rc, key, key_len);
    }
    tagc_mp_end(d);
    return 0;
}

/* <enum>_read_msgpack */
static int m_enum(jctx *c, const ast_decl *en)
{
    tagc_mp_dec *d = c->d;
    const char *at;
    int rc;
    if (tagc_mp_nil(d))
        return 0;
    at = d->p;
    if (en->enum_kind == ENUM_STRING) {
        const char *s;
        size_t n;
        if ((rc = tagc_mp_read_str_ref(d, &s, &n)) != 0)
            return rc;
        if (enum_parse(en, s, n) < 0) {
            d->p = at;
            return tagc_json_fail(d, TAGC_E_ENUM, "unknown %s value", en->name);
        }
        return 0;
    }
    type_kind k = en->type->kind;
    uint64_t x;
    if (is_unsigned_int(k)) {
        if ((rc = tagc_mp_read_uint(d, &x, uint_max(k))) != 0)
            return rc;
    } else {
        int64_t sx;
        if ((rc = tagc_mp_read_int(d, &sx, int_min(k), int_max(k))) != 0)
            return rc;
        x = (uint64_t)sx;
    }
    if (!enum_known(en, x)) {
        d->p = at;
        return tagc_json_fail(d, TAGC_E_ENUM, "unknown %s value", en->name);
    }
    return 0;
}

/* The CW_* bit of the MessagePack value starting with byte b; CW_ANY for an
 * extension (the timestamp one among them: the codec's own terms). */
static unsigned mp_shape(uint8_t b)
{
    if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3))
        return CW_INTEGER;
    if ((b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb) || (b >= 0xc4 && b <= 0xc6))
        return CW_STRING; /* str, and bin (a []byte's) */
    if ((b >= 0x80 && b <= 0x8f) || b == 0xde || b == 0xdf)
        return CW_OBJECT;
    if ((b >= 0x90 && b <= 0x9f) || b == 0xdc || b == 0xdd)
        return CW_ARRAY;
    if (b == 0xca || b == 0xcb)
        return CW_NUMBER;
    if (b == 0xc2 || b == 0xc3)
        return CW_BOOLEAN;
    if (b == 0xc0)
        return CW_NULL;
    return CW_ANY; /* ext 0xc7..0xc9, 0xd4..0xd8; 0xc1 never used: skip's error */
}

static int m_codec(jctx *c, const ast_decl *decl)
{
    tagc_mp_dec *d = c->d;
    const char *at = d->p;
    unsigned got = at < d->end ? mp_shape((uint8_t)*at) : 0;
    int rc = tagc_mp_skip(d);
    if (rc != 0)
        return rc;
    if (decl->codec->wire & got)
        return 0;
    d->p = at;
    return tagc_json_fail(d, TAGC_E_TYPE, "%s: expected %s (its codec's wire shape), found %s",
                          decl->name, decl->codec->wire_text, shape_name(got));
}

/* <fn>_read_msgpack for a named or composite type. */
static int m_call(jctx *c, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED: {
        const ast_decl *decl = t->decl;
        if (decl_is_closed_enum(decl))
            return m_enum(c, decl);
        if (decl->codec)
            return m_codec(c, decl);
        if (decl->type->kind == TK_STRUCT)
            return m_struct(c, decl->type);
        return is_opt(decl->type) ? m_opt(c, decl->type->elem) : m_value(c, decl->type);
    }
    case TK_STRUCT:
        return m_struct(c, t);
    case TK_SLICE:
        return m_list(c, t, false);
    case TK_ARRAY:
        if (ty_under(t->elem)->kind == TK_UINT8 && !ty_enum(t->elem)) { /* gen_array_read's [N]byte */
            uint8_t bytes[256], *buf = t->array_len <= 256 ? bytes : malloc((size_t)t->array_len);
            if (!buf)
                return TAGC_E_NOMEM;
            int rc = tagc_mp_nil(c->d) ? 0 : tagc_mp_read_byte_array(c->d, buf, (size_t)t->array_len);
            if (buf != bytes)
                free(buf);
            return rc;
        }
        return m_list(c, t, true);
    case TK_MAP:
        return m_map(c, t);
    case TK_PTR:
        if (ty_is_struct(t->elem))
            return tagc_mp_nil(c->d) ? 0 : m_call(c, t->elem);
        return m_opt(c, t->elem);
    default:
        return m_value(c, t);
    }
}

int validator_msgpack(validator *v, const uint8_t *src, size_t len, tagc_arena *arena,
                      tagc_error *err, const tagc_json_opts *opts, size_t *used)
{
    tagc_mp_dec d;
    tagc_error local;
    tagc_mp_dec_init(&d, src, len, arena, err ? err : &local, opts);
    jctx c = { v, &d };
    ast_type named = { 0 };
    named.kind = TK_NAMED;
    named.decl = (ast_decl *)v->decl;
    int rc = m_call(&c, &named);
    if (rc == 0 && used) {
        *used = (size_t)(d.p - d.start);
        return 0;
    }
    return tagc_mp_dec_finish(&d, rc);
}

/* MARK: - Loading the schema */

void validator_close(validator *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->cap; i++)
        shape_free(v->shapes[i]);
    free(v->shapes);
    ast_program_free(&v->prog);
    free(v);
}

/* The declaration named `name` ("T" or "pkg.T"): in the root file first, then in
 * the imported ones (NULL with *ambiguous set when two of those have one). */
static const ast_decl *find_decl(const ast_program *prog, const char *name, bool *ambiguous)
{
    const char *dot = strrchr(name, '.');
    const char *base = dot ? dot + 1 : name;
    const ast_decl *found = NULL;
    *ambiguous = false;
    for (int pass = 0; pass < 2 && !found; pass++) {
        for (const ast_file *f = prog->files; f; f = f->next) {
            if (f->is_root != (pass == 0))
                continue;
            if (dot && (!f->package || strlen(f->package) != (size_t)(dot - name) ||
                        memcmp(f->package, name, (size_t)(dot - name)) != 0))
                continue;
            for (const ast_decl *d = f->decls; d; d = d->next) {
                if (strcmp(d->name, base) != 0)
                    continue;
                if (found && found != d)
                    *ambiguous = true;
                found = d;
            }
        }
    }
    return *ambiguous ? NULL : found;
}

/* The runtime's flags for a profile (tagc.h), as the generated GO_PROFILE. */
static unsigned runtime_profile(go_profile go)
{
    return go == GO_1_27 ? TAGC_GO_1_27 : go == GO_1_19 ? TAGC_GO_1_19 : TAGC_GO_1_26;
}

int validator_open(validator **out, const char *path, const char *type_name, go_profile go,
                   bool go_given, FILE *diag_out)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    int err = fp ? 0 : errno;
    struct stat st;
    if (fp && fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))
        err = EISDIR;
    if (fp)
        fclose(fp);
    if (err == ENOMEM)
        tagc_out_of_memory();
    if (err) {
        fprintf(diag_out, "tagc: error: cannot open '%s': %s\n", path, strerror(err));
        return EXIT_USAGE;
    }
    validator *v = calloc(1, sizeof *v);
    if (!v)
        tagc_out_of_memory();
    v->prog.pool = pool_new();
    v->prog.go = go;
    v->prog.go_given = go_given;
    diag dg;
    diag_init(&dg, diag_out);
    const char *paths[1] = { path };
    if (load_program(&v->prog, paths, 1, &dg) > 0 || check_program(&v->prog, &dg) > 0) {
        validator_close(v);
        return EXIT_INVALID;
    }
    v->profile = runtime_profile(v->prog.go); /* a //tagc:go directive's, without --go */
    bool ambiguous;
    v->decl = find_decl(&v->prog, type_name, &ambiguous);
    if (!v->decl) {
        fprintf(diag_out, "tagc: error: %s type '%s' in '%s' or its imports\n",
                ambiguous ? "more than one" : "no", type_name, path);
        if (ambiguous)
            fputs("tagc: note: name it with its package: pkg.Type\n", diag_out);
        validator_close(v);
        return EXIT_USAGE;
    }
    *out = v;
    return 0;
}

/* MARK: - The command */

typedef enum data_format { FMT_JSON, FMT_JSONL, FMT_MSGPACK } data_format;

typedef struct vrun {
    validator *v;
    data_format format;
    tagc_json_opts opts;
    tagc_arena arena;
    int status; /* the exit status so far */
} vrun;

static const char validate_usage[] =
    "Usage: tagc validate [--format json|jsonl|msgpack] [--strict] [--max-depth N]\n"
    "                     [--go VERSION] FILE.tagc TYPE [DATA...]\n"
    "Checks that each DATA file (or standard input when none, or '-') decodes as\n"
    "TYPE, the Go name of a type of FILE.tagc or of a schema it imports ('Order' or\n"
    "'pkg.Order'): exactly what the generated decoder of TYPE accepts.\n"
    "\n"
    "  --format json       one JSON document per file (default)\n"
    "  --format jsonl      one JSON document per line; blank lines are skipped\n"
    "  --format msgpack    MessagePack values back to back (one or more per file)\n"
    "  --strict            reject unknown and duplicate keys, and missing fields\n"
    "                      without omitempty (the decoders' strict option)\n"
    "  --max-depth N       nesting limit (default 1000)\n"
    "  --go VERSION        accept what the code of `tagc --go VERSION` accepts:\n"
    "                      1.27 (the default), 1.26 or 1.19\n"
    "\n"
    "Each rejection is reported as 'DATA:LINE:COL: error: PATH: MESSAGE' (for\n"
    "jsonl, LINE is the record's line; for msgpack, 'DATA: offset N: ...').\n"
    "Exit status: 0 all valid; 1 a document is invalid (or the schema has errors);\n"
    "2 bad usage, unknown TYPE, or a file that cannot be read.\n";

static void report(const char *name, uint32_t line, uint32_t col, const tagc_error *err)
{
    if (err->code == TAGC_E_NOMEM)
        tagc_out_of_memory(); /* the machine's failure, not the document's: exit 2 */
    fprintf(stderr, "%s:%u:%u: error: %s: %s\n", name, (unsigned)line, (unsigned)col, err->path,
            err->message);
}

/* A MessagePack value's rejection, at its offset in the file. */
static void report_offset(const char *name, size_t offset, const tagc_error *err)
{
    if (err->code == TAGC_E_NOMEM)
        tagc_out_of_memory();
    fprintf(stderr, "%s: offset %zu: error: %s: %s\n", name, offset, err->path, err->message);
}

/* Reads all of fp. Returns 0 or an errno value. */
static int read_all(FILE *fp, char **out, size_t *out_len)
{
    size_t cap = CHUNK, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        if (len == cap) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                return ENOMEM;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0) {
            if (ferror(fp)) {
                int e = errno ? errno : EIO;
                free(buf);
                return e;
            }
            break;
        }
    }
    *out = buf;
    *out_len = len;
    return 0;
}

static void check_json(vrun *r, const char *name, const char *src, size_t len)
{
    tagc_error err;
    tagc_arena_reset(&r->arena);
    if (validator_json(r->v, src, len, &r->arena, &err, &r->opts) != 0) {
        report(name, err.line, err.column, &err);
        if (r->status == 0)
            r->status = EXIT_INVALID;
    }
}

static void invalid(vrun *r)
{
    if (r->status == 0)
        r->status = EXIT_INVALID;
}

/* The reader's message without the "record R (line L): " it starts with: the
 * report says where already. */
static const char *reader_message(const tagc_error *err)
{
    const char *m = err->message;
    if (strncmp(m, "record ", 7) == 0) {
        const char *colon = strstr(m, ": ");
        if (colon)
            return colon + 2;
    }
    return m;
}

/* An error of the stream itself, not of a record's decoding: I/O and memory
 * make the file unreadable (status 2), the rest is an invalid file. */
static int stream_error(vrun *r, const char *name, const tagc_stream_reader *rd, int rc,
                        const tagc_error *err, int saved_errno)
{
    if (rc == TAGC_E_NOMEM)
        tagc_out_of_memory();
    if (rc == TAGC_E_IO)
        return saved_errno ? saved_errno : EIO;
    if (rd->format == TAGC_STREAM_JSONL)
        fprintf(stderr, "%s:%u:%u: error: %s\n", name, (unsigned)err->line, (unsigned)err->column,
                reader_message(err));
    else
        fprintf(stderr, "%s: offset %zu: error: %s: %s\n", name, err->offset, err->path,
                reader_message(err));
    invalid(r);
    return 0;
}

/* JSONL: one record a line, through the runtime's stream reader (stream.c):
 * memory is bounded by the longest line (the reader's max_record, 64 MiB).
 * Lines are not checked for UTF-8 here: the generated decoders accept invalid
 * UTF-8 in strings (replaced by U+FFFD as Go does), and validate's verdict is
 * theirs. Returns 0 or an errno value. */
static int check_jsonl(vrun *r, const char *name, tagc_stream_reader *rd)
{
    const char *rec;
    size_t len;
    tagc_error err;
    int rc;
    while ((rc = tagc_stream_next(rd, &rec, &len, &err)) != 0) {
        if (rc < 0) {
            int e = stream_error(r, name, rd, rc, &err, errno);
            if (e || rd->fatal)
                return e;
            continue; /* a line over the limit: go on with the next one */
        }
        tagc_arena_reset(&r->arena);
        if (validator_json(r->v, rec, len, &r->arena, &err, &r->opts) != 0) {
            report(name, (uint32_t)rd->line, err.column, &err);
            invalid(r);
        }
    }
    return 0;
}

/* MessagePack: values back to back. The reader finds where each value ends
 * (validating every length); each is then decoded as TYPE, and every value that
 * does not decode is reported (by offset in the file). A value whose end cannot
 * be found (cut short, an invalid byte) ends the file. Returns 0 or an errno. */
static int check_msgpack(vrun *r, const char *name, tagc_stream_reader *rd)
{
    const char *rec;
    size_t len;
    tagc_error err;
    int rc;
    bool any = false;
    while ((rc = tagc_stream_next(rd, &rec, &len, &err)) != 0) {
        size_t used = 0;
        tagc_arena_reset(&r->arena);
        if (rc < 0) {
            int saved = errno;
            if (rc != TAGC_E_IO && rc != TAGC_E_NOMEM && rc != TAGC_E_FULL && rd->offset >= rd->base &&
                rd->offset - rd->base <= rd->len) {
                /* the decoder's own word on what is left, as a whole-file decode
                 * says it: a wrong type may come before the framing error */
                size_t at = (size_t)(rd->offset - rd->base);
                tagc_error derr;
                if (validator_msgpack(r->v, (const uint8_t *)rd->buf + at, rd->len - at, &r->arena,
                                      &derr, &r->opts, &used) != 0) {
                    report_offset(name, (size_t)rd->offset + derr.offset, &derr);
                    invalid(r);
                    return 0;
                }
            }
            return stream_error(r, name, rd, rc, &err, saved);
        }
        any = true;
        if (validator_msgpack(r->v, (const uint8_t *)rec, len, &r->arena, &err, &r->opts, &used) != 0) {
            report_offset(name, (size_t)rd->offset + err.offset, &err);
            invalid(r);
        }
    }
    if (!any) { /* an empty file is one missing value */
        tagc_arena_reset(&r->arena);
        if (validator_msgpack(r->v, (const uint8_t *)"", 0, &r->arena, &err, &r->opts, NULL) != 0) {
            report_offset(name, err.offset, &err);
            invalid(r);
        }
    }
    return 0;
}

static void check_file(vrun *r, const char *path)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    struct stat st;
    int err = fp ? 0 : errno;
    if (fp && !is_stdin && fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))
        err = EISDIR;
    if (!err) {
        if (r->format == FMT_JSON) {
            char *src = NULL;
            size_t len = 0;
            if ((err = read_all(fp, &src, &len)) == 0)
                check_json(r, name, src, len);
            free(src);
        } else {
            tagc_stream_reader rd;
            tagc_stream_opts so = { 0 };
            so.no_utf8_check = true;
            so.max_depth = r->opts.max_depth;
            tagc_stream_format f = r->format == FMT_JSONL ? TAGC_STREAM_JSONL : TAGC_STREAM_MSGPACK;
            if (tagc_stream_reader_init_fd(&rd, fileno(fp), f, &so) != 0)
                err = ENOMEM;
            else if (f == TAGC_STREAM_JSONL)
                err = check_jsonl(r, name, &rd);
            else
                err = check_msgpack(r, name, &rd);
            tagc_stream_reader_free(&rd);
        }
    }
    if (fp && !is_stdin)
        fclose(fp);
    if (err == ENOMEM)
        tagc_out_of_memory(); /* fopen, the reader's buffers, the whole file */
    if (err) {
        fprintf(stderr, "tagc: error: cannot read '%s': %s\n", name, strerror(err));
        r->status = EXIT_USAGE;
    }
}

static int validate_usage_error(const char *fmt, const char *arg)
{
    fputs("tagc validate: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'tagc validate --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* The files to check, for the thread that checks them. */
typedef struct vfiles {
    vrun *r;
    const char **names; /* none: stdin */
    int n;
} vfiles;

static void check_files(vfiles *f)
{
    if (f->n == 0)
        check_file(f->r, "-");
    for (int i = 0; i < f->n; i++)
        check_file(f->r, f->names[i]);
}

static void *check_files_thread(void *arg)
{
    check_files(arg);
    return NULL;
}

/* The interpreter recurses once or twice a level of nesting, with frames
 * bigger than the generated code's (measured: about 300 bytes a level at
 * depth 1000, which needs between 256 and 512 KiB), so it runs on a thread
 * whose stack fits its depth limit, not on whatever the main thread has. */
#define VALIDATE_STACK_PER_LEVEL 1024
/* Never less than a usual main thread's (ASan's frames are several times bigger). */
#define VALIDATE_STACK_MIN (8u << 20)

static bool run_on_stack(vfiles *f)
{
    int depth = f->r->opts.max_depth > 0 ? f->r->opts.max_depth : TAGC_DEFAULT_MAX_DEPTH;
    size_t size = TAGC_STACK_BASE + (size_t)depth * VALIDATE_STACK_PER_LEVEL;
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0)
        return false;
    bool ok = pthread_attr_setstacksize(&attr, size > VALIDATE_STACK_MIN ? size : VALIDATE_STACK_MIN) == 0 &&
              pthread_create(&t, &attr, check_files_thread, f) == 0;
    pthread_attr_destroy(&attr);
    if (ok)
        pthread_join(t, NULL);
    return ok;
}

int cmd_validate(int argc, char **argv)
{
    vrun r = { 0 };
    go_profile go = GO_DEFAULT;
    bool go_given = false;
    const char **args = calloc((size_t)argc + 1, sizeof *args);
    int nargs = 0;
    bool only_args = false;
    if (!args)
        tagc_out_of_memory();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (only_args || a[0] != '-' || a[1] == '\0') {
            args[nargs++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(validate_usage, stdout);
            free(args);
            return 0;
        } else if (strcmp(a, "--strict") == 0) {
            r.opts.strict = true;
        } else if (strcmp(a, "--go") == 0 || strncmp(a, "--go=", 5) == 0) {
            val = a[4] == '=' ? a + 5 : i + 1 < argc ? argv[++i] : "";
            if (!go_profile_parse(val, &go)) {
                free(args);
                return validate_usage_error("option '--go' needs a Go release tagc matches: %s",
                                            "1.27 (the default), 1.26 or 1.19");
            }
            go_given = true;
        } else if (strcmp(a, "--format") == 0 || strncmp(a, "--format=", 9) == 0 ||
                   strcmp(a, "--max-depth") == 0 || strncmp(a, "--max-depth=", 12) == 0) {
            const char *eq = strchr(a, '=');
            if (eq) {
                val = eq + 1;
            } else if (i + 1 < argc) {
                val = argv[++i];
            } else {
                free(args);
                return validate_usage_error("option '%s' needs a value", a);
            }
            if (a[2] == 'f') {
                if (strcmp(val, "json") == 0)
                    r.format = FMT_JSON;
                else if (strcmp(val, "jsonl") == 0 || strcmp(val, "ndjson") == 0)
                    r.format = FMT_JSONL;
                else if (strcmp(val, "msgpack") == 0)
                    r.format = FMT_MSGPACK;
                else {
                    free(args);
                    return validate_usage_error("unknown format '%s' (json, jsonl or msgpack)", val);
                }
            } else {
                char *endp;
                errno = 0;
                long n = strtol(val, &endp, 10);
                if (errno || *endp || endp == val || n < 1 || n > 1000000) {
                    free(args);
                    return validate_usage_error("bad depth '%s'", val);
                }
                r.opts.max_depth = (int)n;
            }
        } else {
            free(args);
            return validate_usage_error("unknown option '%s'", a);
        }
    }
    if (nargs < 2) {
        free(args);
        return validate_usage_error("%s", nargs == 0 ? "no schema file" : "no type name");
    }
    int status = validator_open(&r.v, args[0], args[1], go, go_given, stderr);
    if (status != 0) {
        free(args);
        return status;
    }
    tagc_arena_init(&r.arena);
    vfiles job = {&r, args + 2, nargs - 2};
    if (!run_on_stack(&job))
        check_files(&job); /* no such thread: on this one */
    tagc_arena_free(&r.arena);
    validator_close(r.v);
    free(args);
    return r.status;
}
