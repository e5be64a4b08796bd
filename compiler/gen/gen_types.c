/*
 * gen_types.c - C names and declarations of schema types, and the header's type
 * definitions in an order a C compiler accepts (see gen.h for the mapping).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* MARK: - Looking through types */

ast_type *ty_under(ast_type *t)
{
    while (t && t->kind == TK_NAMED)
        t = t->decl->type;
    return t;
}

const ast_decl *ty_enum(const ast_type *t)
{
    if (t->kind == TK_NAMED && decl_is_closed_enum(t->decl))
        return t->decl;
    return NULL;
}

bool ty_is_struct(ast_type *t)
{
    ast_type *u = ty_under(t);
    return u && u->kind == TK_STRUCT;
}

bool ty_is_composite(const ast_type *t)
{
    switch (t->kind) {
    case TK_SLICE:
        return !(t->elem->kind == TK_UINT8); /* []byte is tagc_bytes */
    case TK_ARRAY:
    case TK_PTR:
    case TK_MAP:
    case TK_STRUCT:
        return true;
    default:
        return false;
    }
}

/* MARK: - Names computed once */

/* The value g->memo holds for key: NULL until it is set through the slot. The
 * slot is valid until the next call. */
static void **memo_slot(gen *g, const void *key)
{
    if (2 * (g->memo_n + 1) > g->memo_cap) {
        gen_memo *old = g->memo;
        size_t old_cap = g->memo_cap;
        g->memo_cap = old_cap ? 2 * old_cap : 1024;
        g->memo = big_calloc(g->memo_cap, sizeof *g->memo);
        g->memo_n = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key)
                *memo_slot(g, old[i].key) = old[i].val;
        free(old);
    }
    size_t mask = g->memo_cap - 1;
    for (size_t i = hash_ptr(key) & mask;; i = (i + 1) & mask) {
        gen_memo *m = &g->memo[i];
        if (m->key == key)
            return &m->val;
        if (m->key == NULL) {
            m->key = key;
            g->memo_n++;
            return &m->val;
        }
    }
}

void **gen_memo_slot(gen *g, const void *key)
{
    return memo_slot(g, key);
}

/* The names of a composite type node, each computed when first asked for. */
typedef struct type_names {
    const char *short_name; /* ty_short */
    const char *fn;         /* ty_fn */
    const char *ptr_cname;  /* ty_cname of a pointer to a struct */
    size_t type_index;      /* ty_find: index + 1 in g->types; 0: not found yet */
} type_names;

static type_names *names_of(gen *g, const ast_type *t)
{
    void **slot = memo_slot(g, t);
    if (!*slot)
        *slot = pool_alloc(g->keep, sizeof(type_names));
    return *slot;
}

/* MARK: - Shapes the codecs share */

bool ty_is_signed_int(type_kind k)
{
    return k == TK_INT8 || k == TK_INT16 || k == TK_INT32 || k == TK_INT64 || k == TK_DURATION;
}

bool ty_is_unsigned_int(type_kind k)
{
    return k == TK_UINT8 || k == TK_UINT16 || k == TK_UINT32 || k == TK_UINT64;
}

bool ty_is_float(type_kind k)
{
    return k == TK_FLOAT32 || k == TK_FLOAT64;
}

const char *ty_int_reader(type_kind k, bool msgpack)
{
    static const char *const readers[2][8] = {
        {"tagc_json_read_i8", "tagc_json_read_i16", "tagc_json_read_i32", "tagc_json_read_i64",
         "tagc_json_read_u8", "tagc_json_read_u16", "tagc_json_read_u32", "tagc_json_read_u64"},
        {"tagc_mp_read_i8", "tagc_mp_read_i16", "tagc_mp_read_i32", "tagc_mp_read_i64",
         "tagc_mp_read_u8", "tagc_mp_read_u16", "tagc_mp_read_u32", "tagc_mp_read_u64"},
    };
    int i;
    switch (k) {
    case TK_INT8: i = 0; break;
    case TK_INT16: i = 1; break;
    case TK_INT32: i = 2; break;
    case TK_UINT8: i = 4; break;
    case TK_UINT16: i = 5; break;
    case TK_UINT32: i = 6; break;
    case TK_UINT64: i = 7; break;
    default: i = 3; break; /* int64, and time.Duration */
    }
    return readers[msgpack][i];
}

const char *ty_int_min(type_kind k)
{
    switch (k) {
    case TK_INT8: return "INT8_MIN";
    case TK_INT16: return "INT16_MIN";
    case TK_INT32: return "INT32_MIN";
    default: return "INT64_MIN";
    }
}

const char *ty_int_max(type_kind k)
{
    switch (k) {
    case TK_INT8: return "INT8_MAX";
    case TK_INT16: return "INT16_MAX";
    case TK_INT32: return "INT32_MAX";
    case TK_UINT8: return "UINT8_MAX";
    case TK_UINT16: return "UINT16_MAX";
    case TK_UINT32: return "UINT32_MAX";
    case TK_UINT64: return "UINT64_MAX";
    default: return "INT64_MAX";
    }
}

bool ty_null_keeps(type_kind k)
{
    return k == TK_BOOL || ty_is_signed_int(k) || ty_is_unsigned_int(k) || k == TK_FLOAT32 ||
           k == TK_FLOAT64 || k == TK_STRING || k == TK_TIME || k == TK_NUMBER;
}

bool ty_is_bytes(const ast_type *t)
{
    return t->kind == TK_SLICE && t->elem->kind == TK_UINT8;
}

bool ty_is_opt(ast_type *t)
{
    return t->kind == TK_PTR && !ty_is_struct(t->elem);
}

bool name_is_plain(const char *name)
{
    for (const char *c = name; *c; c++)
        if (*c < 0x20 || *c > 0x7e || *c == '"' || *c == '\\')
            return false;
    return true;
}

const char *ty_nonempty_cond(gen *g, ast_type *t, const char *lv)
{
    ast_type *u = ty_under(t);
    switch (u->kind) {
    case TK_BOOL:
        return lv;
    case TK_STRING:
        if (ty_enum(t))
            return pool_cat(g->pool, lv, " != 0");
        return pool_cat(g->pool, lv, ".len != 0");
    case TK_SLICE:
    case TK_MAP:
    case TK_RAW:
    case TK_NUMBER:
        return pool_cat(g->pool, lv, ".len != 0");
    case TK_ANY:
    case TK_PTR:
        return pool_cat(g->pool, lv, " != NULL");
    case TK_ARRAY:
        return u->array_len == 0 ? "false" : NULL;
    case TK_STRUCT:
    case TK_TIME:
        return NULL; /* never empty */
    case TK_CODEC: {
        /* Go's omitempty goes by the Go type's kind: a struct never empty, else its zero */
        const ast_type *go = u->decl->json_type ? ty_under(u->decl->json_type) : NULL;
        if (!go || go->kind == TK_STRUCT || go->kind == TK_TIME || go->kind == TK_ARRAY)
            return NULL;
        return pool_cat(g->pool, "!", gen_codec_zero_cond(g, u->decl, lv));
    }
    default:
        return pool_cat(g->pool, lv, " != 0"); /* numbers */
    }
}

/* Elements whose all-zero bytes are exactly Go's zero value (no pointers, no lengths). */
static bool zero_is_bitwise(ast_type *t)
{
    ast_type *u = ty_under(t);
    switch (u->kind) {
    case TK_BOOL: case TK_INT8: case TK_INT16: case TK_INT32: case TK_INT64:
    case TK_UINT8: case TK_UINT16: case TK_UINT32: case TK_UINT64:
    case TK_DURATION:
        return true; /* not floats: -0 is zero too */
    case TK_STRING:
        return ty_enum(t) != NULL; /* a closed enum's index */
    case TK_ARRAY:
        return zero_is_bitwise(u->elem);
    default:
        return false;
    }
}

enum { ZERO_UNROLL_MAX = 32 }; /* array elements tested one by one */

/* The //tagc:zero function of t's declared type (Go's IsZero), or NULL. */
static const char *zero_fn_of(const ast_type *t)
{
    return t && t->kind == TK_NAMED && t->decl ? t->decl->zero_fn : NULL;
}

static const char *zero_cond(gen *g, ast_type *t, const char *lv, bool time_method)
{
    const char *fn = zero_fn_of(t);
    if (fn) /* Go calls the type's IsZero */
        return pool_printf(g->pool, "%s(&%s)", fn, lv);
    ast_type *u = ty_under(t);
    switch (u->kind) {
    case TK_BOOL:
        return pool_cat(g->pool, "!", lv);
    case TK_STRING:
        return pool_cat(g->pool, lv, ty_enum(t) ? " == 0" : ".len == 0");
    case TK_SLICE: /* nil only: an empty slice is not zero */
    case TK_RAW:
        return pool_cat(g->pool, lv, ".ptr == NULL");
    case TK_NUMBER: /* a string */
        return pool_cat(g->pool, lv, ".len == 0");
    case TK_MAP:
        return pool_cat(g->pool, lv, ".keys == NULL");
    case TK_ANY:
        return pool_cat(g->pool, lv, " == NULL");
    case TK_PTR:
        if (ty_is_struct(u->elem) && zero_fn_of(u->elem)) /* nil, or its IsZero says so */
            return pool_printf(g->pool, "(%s == NULL || %s(%s))", lv, zero_fn_of(u->elem), lv);
        return pool_cat(g->pool, lv, ty_is_struct(u->elem) ? " == NULL" : ".has == false");
    case TK_TIME:
        /* Time.IsZero looks at the instant; the bits also hold the offset */
        return pool_cat(g->pool, "(", lv, ".sec == 0 && ", lv, ".nsec == 0",
                        time_method ? ")" : pool_cat(g->pool, " && ", lv, ".offset_min == 0)"));
    case TK_ARRAY: {
        if (u->array_len == 0)
            return "1";
        if (zero_is_bitwise(u->elem))
            return pool_cat(g->pool, "tagc_mem_is_zero(", lv, ", sizeof ", lv, ")");
        const char *all = NULL;
        for (int64_t i = 0; i < u->array_len && i < ZERO_UNROLL_MAX; i++) {
            const char *e = zero_cond(g, u->elem, pool_printf(g->pool, "%s[%lld]", lv, (long long)i), false);
            all = all ? pool_cat(g->pool, all, " && ", e) : e;
        }
        return pool_cat(g->pool, "(", all, ")");
    }
    case TK_STRUCT: {
        const char *all = NULL;
        for (ast_field *f = u->fields; f; f = f->next) {
            const char *m = pool_cat(g->pool, lv, ".", f->c_name);
            const char *e = ty_is_opt(f->type) ? pool_cat(g->pool, "!", lv, ".has_", f->c_name)
                                               : zero_cond(g, f->type, m, false);
            if (strcmp(e, "1") != 0)
                all = all ? pool_cat(g->pool, all, " && ", e) : e;
        }
        return all ? pool_cat(g->pool, "(", all, ")") : "1";
    }
    case TK_CODEC:
        return gen_codec_zero_cond(g, u->decl, lv);
    default:
        return pool_cat(g->pool, lv, " == 0"); /* numbers (-0 too; NaN is not), closed int enums */
    }
}

const char *ty_zero_cond(gen *g, ast_type *t, const char *lv)
{
    return zero_cond(g, t, lv, t->kind == TK_TIME); /* a defined type has no methods of time.Time */
}

const char *wire_present_cond(gen *g, const wire_field *w, const char *lv, bool msgpack)
{
    bool empty = msgpack ? w->msgpack_omitempty : w->json_omitempty;
    bool zero = msgpack ? w->msgpack_omitzero : w->json_omitzero;
    ast_type *t = w->field->type;
    if (!empty && !zero)
        return NULL;
    if (ty_is_opt(t)) { /* a has/value pair: nil is empty and zero; *time.Time has IsZero too */
        const char *has = wire_has_lvalue(g, lv, w->field);
        if (zero && t->elem->kind == TK_TIME)
            return pool_cat(g->pool, has, " && !", zero_cond(g, t->elem, lv, true));
        if (zero && ((ty_under(t->elem)->kind == TK_CODEC && ty_under(t->elem)->decl->codec->is_zero) ||
                     zero_fn_of(t->elem)))
            return pool_cat(g->pool, has, " && !", zero_cond(g, t->elem, lv, false));
        return has;
    }
    const char *nonempty = empty ? ty_nonempty_cond(g, t, lv) : NULL;
    const char *is_zero = zero ? ty_zero_cond(g, t, lv) : NULL;
    if ((nonempty && strcmp(nonempty, "false") == 0) || (is_zero && strcmp(is_zero, "1") == 0))
        return "false";
    const char *nonzero = is_zero ? pool_cat(g->pool, "!(", is_zero, ")") : NULL;
    if (nonempty && nonzero)
        return pool_cat(g->pool, "(", nonempty, ") && ", nonzero);
    return nonempty ? nonempty : nonzero;
}

bool wire_may_omit(gen *g, const wire_field *w, bool msgpack)
{
    if (msgpack ? w->msgpack_omitzero : w->json_omitzero)
        return true;
    if (!(msgpack ? w->msgpack_omitempty : w->json_omitempty))
        return false;
    return ty_is_opt(w->field->type) || ty_nonempty_cond(g, w->field->type, "x") != NULL;
}

void gen_required_check(gen *g, const char *fail, const char *keys, const uint64_t *required,
                        size_t words)
{
    for (size_t w = 0; w < words; w++) {
        if (required[w] == 0)
            continue;
        /* UINT64_C(0x<lower-case hex>): written here, the fast formatter has no %x */
        char mask[32], *p = mask + sizeof mask;
        *--p = '\0';
        *--p = ')';
        uint64_t v = required[w];
        do {
            *--p = "0123456789abcdef"[v & 15];
            v >>= 4;
        } while (v);
        p -= 11;
        memcpy(p, "UINT64_C(0x", 11);
        emit(g, 1, "if (d->strict && (~seen[%zu] & %s) != 0) /* a field without omitempty is missing */",
             w, p);
        emit(g, 2, "return %s(d, %s, %zu, ~seen[%zu] & %s);", fail, keys, w, w, p);
    }
}

const char *wire_lvalue(gen *g, const wire_field *w, size_t upto)
{
    /* made again by each codec: a memo of every field cost more (its table's
     * cache misses) than these few copies */
    const char *lv = pool_cat(g->pool, "v->", w->path[0]->c_name);
    for (size_t i = 1; i < upto; i++) {
        bool through_ptr = w->path[i - 1]->type->kind == TK_PTR;
        lv = pool_cat(g->pool, lv, through_ptr ? "->" : ".", w->path[i]->c_name);
    }
    return lv;
}

const char *wire_has_lvalue(gen *g, const char *lv, const ast_field *f)
{
    size_t n = strlen(lv) - strlen(f->c_name);
    return pool_cat(g->pool, pool_strndup(g->pool, lv, n), f->has_c_name);
}

static const char *builtin_cname(type_kind k)
{
    switch (k) {
    case TK_BOOL: return "bool";
    case TK_INT8: return "int8_t";
    case TK_INT16: return "int16_t";
    case TK_INT32: return "int32_t";
    case TK_INT64: return "int64_t";
    case TK_UINT8: return "uint8_t";
    case TK_UINT16: return "uint16_t";
    case TK_UINT32: return "uint32_t";
    case TK_UINT64: return "uint64_t";
    case TK_FLOAT32: return "float";
    case TK_FLOAT64: return "double";
    case TK_STRING: return "tagc_str";
    case TK_TIME: return "tagc_time";
    case TK_DURATION: return "int64_t";
    case TK_RAW: return "tagc_raw";
    case TK_NUMBER: return "tagc_number";
    case TK_ANY: return "tagc_any *";
    default: return NULL;
    }
}

static const char *builtin_short(type_kind k)
{
    switch (k) {
    case TK_BOOL: return "bool";
    case TK_INT8: return "int8";
    case TK_INT16: return "int16";
    case TK_INT32: return "int32";
    case TK_INT64: return "int64";
    case TK_UINT8: return "uint8";
    case TK_UINT16: return "uint16";
    case TK_UINT32: return "uint32";
    case TK_UINT64: return "uint64";
    case TK_FLOAT32: return "float32";
    case TK_FLOAT64: return "float64";
    case TK_STRING: return "string";
    case TK_TIME: return "time";
    case TK_DURATION: return "duration";
    case TK_RAW: return "raw";
    case TK_NUMBER: return "number";
    case TK_ANY: return "any";
    default: return NULL;
    }
}

/* A named type's C name without this file's package prefix, when it has it. */
static const char *strip_pkg(gen *g, const char *c_name)
{
    size_t n = g->pkg_len;
    if (strncmp(c_name, g->pkg, n) == 0 && c_name[n] == '_')
        return c_name + n + 1;
    return c_name;
}

/* ty_short of a slice, array, pointer or map: composed from its parts'. */
static const char *composite_short(gen *g, ast_type *t)
{
    switch (t->kind) {
    case TK_SLICE:
        return pool_cat(g->keep, ty_short(g, t->elem), "_slice");
    case TK_ARRAY:
        return pool_printf(g->keep, "%s_array%lld", ty_short(g, t->elem), (long long)t->array_len);
    case TK_PTR:
        return pool_cat(g->keep, ty_short(g, t->elem), ty_is_struct(t->elem) ? "_ptr" : "_opt");
    default: /* TK_MAP */
        return pool_cat(g->keep, ty_short(g, t->key), "_", ty_short(g, t->elem), "_map");
    }
}

const char *ty_short(gen *g, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED:
        return strip_pkg(g, t->decl->c_name);
    case TK_STRUCT:
        return strip_pkg(g, t->c_name);
    case TK_SLICE:
        if (t->elem->kind == TK_UINT8)
            return "bytes";
        /* fallthrough */
    case TK_ARRAY:
    case TK_PTR:
    case TK_MAP: {
        type_names *tn = names_of(g, t);
        if (!tn->short_name)
            tn->short_name = composite_short(g, t);
        return tn->short_name;
    }
    default:
        return builtin_short(t->kind);
    }
}

const char *ty_fn(gen *g, ast_type *t)
{
    if (t->kind == TK_NAMED)
        return t->decl->c_name;
    if (t->kind == TK_STRUCT)
        return t->c_name;
    type_names *tn = names_of(g, t);
    if (!tn->fn)
        tn->fn = pool_cat(g->keep, g->pkg, "_", ty_short(g, t));
    return tn->fn;
}

const char *ty_cname(gen *g, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED:
        return t->decl->c_name;
    case TK_STRUCT:
        return t->c_name;
    case TK_SLICE:
        if (t->elem->kind == TK_UINT8)
            return "tagc_bytes";
        return ty_fn(g, t);
    case TK_MAP:
        return ty_fn(g, t);
    case TK_PTR:
        if (ty_is_struct(t->elem)) {
            type_names *tn = names_of(g, t);
            if (!tn->ptr_cname)
                tn->ptr_cname = pool_cat(g->keep, ty_cname(g, t->elem), " *");
            return tn->ptr_cname;
        }
        return ty_fn(g, t);
    case TK_ARRAY:
        return NULL;
    case TK_CODEC:
        return t->decl->c_name;
    default:
        return builtin_cname(t->kind);
    }
}

const char *ty_decl(gen *g, ast_type *t, const char *name)
{
    if (t->kind == TK_ARRAY) {
        const char *inner = name[0] == '*' ? pool_printf(g->pool, "(%s)", name) : name;
        return ty_decl(g, t->elem, pool_printf(g->pool, "%s[%lld]", inner, (long long)t->array_len));
    }
    const char *c = ty_cname(g, t);
    size_t n = strlen(c);
    if (n && c[n - 1] == '*')
        return pool_cat(g->pool, c, name);
    return pool_cat(g->pool, c, " ", name);
}

const char *ty_const_decl(gen *g, ast_type *t, const char *name)
{
    if (t->kind == TK_ARRAY) {
        const char *inner = name[0] == '*' ? pool_printf(g->pool, "(%s)", name) : name;
        return ty_const_decl(g, t->elem, pool_printf(g->pool, "%s[%lld]", inner, (long long)t->array_len));
    }
    const char *c = ty_cname(g, t);
    size_t n = strlen(c);
    if (n && c[n - 1] == '*')
        return pool_cat(g->pool, c, "const ", name);
    return pool_cat(g->pool, "const ", c, " ", name);
}

/* A field's name and its place in declared order, sorted by the name. */
typedef struct named_index {
    const char *name;
    size_t len;
    size_t idx;
} named_index;

/* Length, then bytes, then declared order (a total order: the sort's result
 * does not depend on the algorithm, even with names repeated). */
static bool name_before(const named_index *x, const named_index *y)
{
    if (x->len != y->len)
        return x->len < y->len;
    int c = memcmp(x->name, y->name, x->len);
    return c != 0 ? c < 0 : x->idx < y->idx;
}

/* Sorts a[0..n) with name_before: a merge sort through tmp[0..n), the
 * comparison in line (qsort's call through a pointer cost more than it). */
static void sort_names(named_index *a, named_index *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_names(a, tmp, h);
    sort_names(a + h, tmp, n - h);
    if (!name_before(&a[h], &a[h - 1]))
        return; /* in order already */
    memcpy(tmp, a, h * sizeof *a);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        a[k++] = name_before(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
    while (i < h)
        a[k++] = tmp[i++];
}

/* Appends the decimal digits of v at d; returns the end. */
static char *put_decimal(char *d, size_t v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(d, p, n);
    return d + n;
}

void gen_name_order(gen *g, const char *table, const char *const *names, size_t n)
{
    named_index *sorted = pool_alloc_uninit(g->pool, 2 * (n ? n : 1) * sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = (named_index){names[i], strlen(names[i]), i};
    sort_names(sorted, sorted + n, n);
    if (n > 16) /* 16 a line */
        emit(g, 0, "static const uint16_t %s[] = {", table);
    char line[16 * 22 + 1]; /* 16 numbers and their ", " */
    char *d = line;
    for (size_t i = 0; i < n; i++) {
        if (i % 16 > 0) {
            memcpy(d, ", ", 2);
            d += 2;
        }
        d = put_decimal(d, sorted[i].idx);
        *d = '\0';
        if (n > 16 && (i % 16 == 15 || i + 1 == n)) {
            emit(g, 1, "%s,", line);
            d = line;
        }
    }
    *d = '\0';
    if (n <= 16)
        emit(g, 0, "static const uint16_t %s[] = {%s};", table, line);
    else
        emit(g, 0, "};");
}

/* MARK: - The composites a file uses */

/* g->types by name: an open-addressing table of indexes (+ 1) into g->types. */
static size_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a, 64-bit on every target */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

static size_t *type_slot(const gen *g, const char *name)
{
    size_t mask = g->type_slots_cap - 1;
    for (size_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
        size_t k = g->type_slots[i];
        if (k == 0 || strcmp(g->types[k - 1].name, name) == 0)
            return &g->type_slots[i];
    }
}

static gen_type *find_type(const gen *g, const char *name)
{
    if (g->type_slots_cap == 0)
        return NULL;
    size_t k = *type_slot(g, name);
    return k ? &g->types[k - 1] : NULL;
}

/* Indexes g->types[g->ntypes - 1], just added. */
static void index_type(gen *g)
{
    if (2 * g->ntypes > g->type_slots_cap) {
        free(g->type_slots);
        g->type_slots_cap = g->type_slots_cap ? 2 * g->type_slots_cap : 64;
        g->type_slots = big_calloc(g->type_slots_cap, sizeof *g->type_slots);
        for (size_t i = 0; i + 1 < g->ntypes; i++)
            *type_slot(g, g->types[i].name) = i + 1;
    }
    *type_slot(g, g->types[g->ntypes - 1].name) = g->ntypes;
}

static bool have_type(gen *g, const char *name)
{
    return find_type(g, name) != NULL;
}

static void collect(gen *g, ast_type *t);

/* A struct member `*T` (T not a struct) is a has_/value pair: only T needs helpers. */
static void collect_fields(gen *g, ast_type *st)
{
    for (ast_field *f = st->fields; f; f = f->next) {
        ast_type *t = f->type;
        collect(g, t->kind == TK_PTR && !ty_is_struct(t->elem) ? t->elem : t);
    }
}

gen_type *ty_find(gen *g, ast_type *t)
{
    /* g->types is complete when this is first called (after collect): an
     * index found stays right */
    type_names *tn = names_of(g, t);
    if (!tn->type_index) {
        gen_type *gt = find_type(g, ty_fn(g, t));
        if (!gt)
            return NULL;
        tn->type_index = (size_t)(gt - g->types) + 1;
    }
    return &g->types[tn->type_index - 1];
}

/* Marks the composites that code for a value of type t calls: on the wire
 * (wire) or in equality (!wire). A member `*T` (T not a struct) is handled
 * inline as a has_/value pair, so only T's helpers are called. */
static void mark_used(gen *g, ast_type *t, bool wire);

static void mark_member(gen *g, ast_type *t, bool wire)
{
    mark_used(g, t->kind == TK_PTR && !ty_is_struct(t->elem) ? t->elem : t, wire);
}

static void mark_used(gen *g, ast_type *t, bool wire)
{
    if (!ty_is_composite(t))
        return;
    gen_type *gt = ty_find(g, t);
    if (!gt || (wire ? gt->on_wire : gt->compared))
        return;
    if (wire)
        gt->on_wire = true;
    else
        gt->compared = true;
    if (t->kind == TK_STRUCT) {
        if (wire) {
            for (size_t i = 0; i < t->wire_count; i++)
                if (t->wire[i].json_name)
                    mark_member(g, t->wire[i].field->type, wire);
        } else {
            for (ast_field *f = t->fields; f; f = f->next)
                mark_member(g, f->type, wire);
        }
        return;
    }
    if (t->key)
        mark_used(g, t->key, wire);
    if (t->kind == TK_PTR && ty_is_struct(t->elem))
        mark_used(g, t->elem, wire); /* the struct's own functions */
    else
        mark_member(g, t->elem, wire);
}

static void collect(gen *g, ast_type *t)
{
    if (!ty_is_composite(t))
        return;
    if (t->kind == TK_STRUCT) {
        collect_fields(g, t);
    } else {
        if (t->key)
            collect(g, t->key);
        collect(g, t->elem);
    }
    const char *name = ty_fn(g, t);
    if (have_type(g, name))
        return;
    if (g->ntypes == g->captypes) {
        g->captypes = g->captypes ? g->captypes * 2 : 16;
        g->types = realloc(g->types, g->captypes * sizeof *g->types);
        if (!g->types)
            tagc_out_of_memory();
    }
    g->types[g->ntypes++] = (gen_type){.type = t, .name = name};
    index_type(g);
}

void gen_init(gen *g, const ast_program *prog, const ast_file *f, const gen_opts *o, strbuf *out)
{
    memset(g, 0, sizeof *g);
    g->prog = prog;
    g->file = f;
    g->opts = o;
    g->out = out;
    g->pool = pool_new();
    g->keep = pool_new();
    g->pkg = f->c_prefix ? pool_strdup(g->keep, f->c_prefix) : c_snake_name(g->keep, f->package);
    g->pkg_len = strlen(g->pkg);
    g->fmts = fmt_cache_new();
    for (ast_decl *d = f->decls; d; d = d->next) {
        if (d->type->kind == TK_STRUCT) /* the named struct itself is not a composite */
            collect_fields(g, d->type);
        else
            collect(g, d->type);
    }
    for (ast_decl *d = f->decls; d; d = d->next) {
        ast_type *t = d->type;
        if (t->kind != TK_STRUCT) {
            mark_member(g, t, true);
            mark_member(g, t, false);
            continue;
        }
        for (size_t i = 0; i < t->wire_count; i++)
            if (t->wire[i].json_name)
                mark_member(g, t->wire[i].field->type, true);
        for (ast_field *fl = t->fields; fl; fl = fl->next)
            mark_member(g, fl->type, false);
    }
}

void gen_done(gen *g)
{
    free(g->types);
    free(g->type_slots);
    free(g->memo);
    fmt_cache_free(g->fmts);
    pool_free(g->pool);
    pool_free(g->keep);
}

pool_mark gen_mark(gen *g)
{
    return pool_get_mark(g->pool);
}

void gen_release(gen *g, pool_mark m)
{
    pool_release(g->pool, m);
}

/* MARK: - Emitting text */

/* Starts a line: flushes g->out if it is between functions and full enough,
 * then writes the indentation, with room for `len` more bytes, the newline
 * and the NUL. Returns where the text goes. */
#if defined(__GNUC__)
__attribute__((always_inline)) /* the two callers are most of the compiler's lines */
#endif
static inline char *line_start(gen *g, int ind, size_t len)
{
    strbuf *out = g->out;
    if (!g->in_fn && out->len >= EMIT_FLUSH_AT)
        sb_flush(out);
    size_t pad = ind > 0 ? 4 * (size_t)ind : 0;
    sb_reserve(out, pad + 8 + len + 1); /* 8: the last spaces may overshoot by 4 */
    char *d = out->data + out->len;
    for (size_t i = 0; i < pad; i += 8)
        memcpy(d + i, "        ", 8);
    out->len += pad;
    return d + pad;
}

void emit_text(gen *g, int ind, const char *text, size_t len)
{
    char *d = line_start(g, ind, len);
    memcpy(d, text, len);
    d[len] = '\n';
    d[len + 1] = '\0';
    strbuf *out = g->out;
    out->len += len + 1;
    /* a `{` or `}` line in column 0 opens or closes a function */
    if (ind == 0 && len == 1) {
        if (text[0] == '{') {
            g->in_fn = true;
            g->fn_body = out->len;
        } else if (text[0] == '}') {
            g->in_fn = false;
        }
    }
}

void emit_fmt(gen *g, int ind, const char *fmt, size_t fmt_len, ...)
{
    va_list ap;
    va_start(ap, fmt_len);
    if (fmt_len == 2 && fmt[0] == '%' && fmt[1] == 's') { /* a line made elsewhere, or a blank one */
        const char *text = va_arg(ap, const char *);
        va_end(ap);
        emit_text(g, ind, text, strlen(text));
        return;
    }
    line_start(g, ind, fmt_len);
    strbuf *out = g->out;
    sb_vprintf_cached(out, g->fmts, fmt, ap);
    va_end(ap);
    sb_reserve(out, 1);
    out->data[out->len++] = '\n';
    out->data[out->len] = '\0';
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether the identifier `name` appears as a whole word in text[0..n). */
static bool uses_word(const char *text, size_t n, const char *name)
{
    size_t len = strlen(name);
    const char *end = text + n;
    /* memchr to each place the first letter is: most of the body is skipped with vector code */
    for (const char *p = text; (p = memchr(p, name[0], (size_t)(end - p))) && (size_t)(end - p) >= len; p++)
        if (memcmp(p, name, len) == 0 && (p == text || !is_ident_char(p[-1])) &&
            (p + len == end || !is_ident_char(p[len])))
            return true;
    return false;
}

void mark_unused(gen *g, size_t body, const char *params)
{
    if (!g->in_fn || body < g->fn_body || body > g->out->len) {
        /* the body may have been flushed already: a generator bug */
        fputs("tagc: internal error: mark_unused outside the function being generated\n", stderr);
        abort();
    }
    char name[32];
    for (const char *p = params; *p;) {
        size_t n = strcspn(p, " ");
        if (n && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            if (!uses_word(g->out->data + body, g->out->len - body, name)) {
                char line[48];
                int len = snprintf(line, sizeof line, "    (void)%s;\n", name);
                sb_put(g->out, line, (size_t)len); /* make room, then move it to the top */
                memmove(g->out->data + body + len, g->out->data + body, g->out->len - body - (size_t)len);
                memcpy(g->out->data + body, line, (size_t)len);
            }
        }
        p += n;
        while (*p == ' ')
            p++;
    }
}

/* The length of each byte in a C string literal: 1 as is, 2 escaped with a
 * backslash (" and \), 4 in octal (controls, non-ASCII, and ? for trigraphs). */
static const unsigned char lit_len[256] = {
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
};

/* Whether the 8 bytes in x all stand as they are in a C literal (lit_len 1:
 * 0x20..0x7e but '"', '?' and '\\'), tested together: most keys and names are
 * such bytes, and a byte at a time costs a table load, an add and a branch. */
static bool plain8(uint64_t x)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7, low = ~high;
    /* bit 7 of each byte: that byte is >= 0x20, >= 0x7f (no carry crosses a byte) */
    uint64_t ge20 = (((x & low) + 0x60 * ones) | x) & high;
    uint64_t ge7f = (((x & low) + ones) | x) & high;
    if ((ge20 & ~ge7f) != high)
        return false;
    /* bit 7 of each byte: that byte is not '"', '?' or '\\' (nonzero after the xor) */
    uint64_t q = x ^ ('"' * ones), m = x ^ ('?' * ones), b = x ^ ('\\' * ones);
    uint64_t nonzero = (((q & low) + low) | q) & (((m & low) + low) | m) & (((b & low) + low) | b);
    return (nonzero & high) == high;
}

/* The bytes c_literal writes for u[0..n), quotes excepted. */
static size_t literal_len(const unsigned char *u, size_t n)
{
    size_t len = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, u + i, 8);
        if (plain8(x)) {
            len += 8;
            continue;
        }
        for (size_t j = i; j < i + 8; j++)
            len += lit_len[u[j]];
    }
    for (; i < n; i++)
        len += lit_len[u[i]];
    return len;
}

/* Writes byte c as a C literal has it at d; returns the end. */
static char *literal_byte(char *d, unsigned char c)
{
    unsigned char k = lit_len[c];
    if (k == 1) {
        *d++ = (char)c;
    } else if (k == 2) {
        d[0] = '\\';
        d[1] = (char)c;
        d += 2;
    } else { /* octal: never swallows a following digit beyond 3 */
        d[0] = '\\';
        d[1] = (char)('0' + (c >> 6));
        d[2] = (char)('0' + ((c >> 3) & 7));
        d[3] = (char)('0' + (c & 7));
        d += 4;
    }
    return d;
}

const char *c_literal(gen *g, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = 2 + literal_len(u, n);
    char *r = pool_alloc_uninit(g->pool, len + 1);
    char *d = r;
    *d++ = '"';
    if (len == n + 2) { /* nothing to escape */
        memcpy(d, s, n);
        d += n;
    } else {
        /* JSON text has a quote in every key: eight bytes at a time, as in
         * literal_len, those with an escape a byte at a time */
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t x;
            memcpy(&x, u + i, 8);
            if (plain8(x)) {
                memcpy(d, &x, 8);
                d += 8;
                continue;
            }
            for (size_t j = i; j < i + 8; j++)
                d = literal_byte(d, u[j]);
        }
        for (; i < n; i++)
            d = literal_byte(d, u[i]);
    }
    *d++ = '"';
    *d = '\0';
    return r;
}

/* MARK: - Type definitions in dependency order */

/* Items already defined, by address (decls and composite types): a hash set. */
typedef struct defined_set {
    const void **slots; /* NULL = empty */
    size_t n, cap;
} defined_set;

static const void **defined_slot(const defined_set *s, const void *p)
{
    size_t mask = s->cap - 1;
    for (size_t i = hash_ptr(p) & mask;; i = (i + 1) & mask)
        if (s->slots[i] == NULL || s->slots[i] == p)
            return &s->slots[i];
}

static bool defined_has(defined_set *s, const void *p)
{
    return s->cap && *defined_slot(s, p) != NULL;
}

static void defined_add(defined_set *s, const void *p)
{
    if (2 * (s->n + 1) > s->cap) {
        defined_set old = *s;
        s->cap = old.cap ? 2 * old.cap : 64;
        s->slots = calloc(s->cap, sizeof *s->slots);
        if (!s->slots)
            tagc_out_of_memory();
        for (size_t i = 0; i < old.cap; i++)
            if (old.slots[i])
                *defined_slot(s, old.slots[i]) = old.slots[i];
        free(old.slots);
    }
    const void **slot = defined_slot(s, p);
    if (*slot == NULL) {
        *slot = p;
        s->n++;
    }
}

static void define_decl(gen *g, defined_set *s, ast_decl *d);
static void define_composite(gen *g, defined_set *s, ast_type *t);

/* Makes sure t is complete before it is used by value. */
static void need_complete(gen *g, defined_set *s, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED:
        if (t->decl->file == g->file)
            define_decl(g, s, t->decl);
        return;
    case TK_ARRAY:
        need_complete(g, s, t->elem);
        return;
    case TK_PTR:
        if (ty_is_struct(t->elem))
            return; /* a pointer to a declared struct */
        define_composite(g, s, ty_find(g, t)->type);
        return;
    case TK_SLICE:
        if (t->elem->kind == TK_UINT8)
            return;
        /* fallthrough */
    case TK_MAP:
    case TK_STRUCT:
        define_composite(g, s, ty_find(g, t)->type);
        return;
    default:
        return;
    }
}

/* Makes sure t is declared before a pointer to it is used. */
static void need_declared(gen *g, defined_set *s, ast_type *t)
{
    if (t->kind == TK_STRUCT || (t->kind == TK_NAMED && ty_under(t)->kind == TK_STRUCT))
        return; /* forward-declared at the top of the header */
    need_complete(g, s, t);
}

static void define_fields(gen *g, ast_type *st, int ind)
{
    for (ast_field *f = st->fields; f; f = f->next) {
        ast_type *t = f->type;
        if (t->kind == TK_PTR && !ty_is_struct(t->elem)) {
            emit(g, ind, "bool %s;", f->has_c_name);
            emit(g, ind, "%s;", ty_decl(g, t->elem, f->c_name));
        } else {
            emit(g, ind, "%s;", ty_decl(g, t, f->c_name));
        }
    }
    /* the Go fields with no C form that no wire needs (check_nowire.c) */
    for (const ast_field *f = st->omitted; f; f = f->next)
        emit(g, ind, "/* left out: %s */", f->left_out);
}

static void define_struct(gen *g, defined_set *s, ast_type *st, const char *c_name)
{
    for (ast_field *f = st->fields; f; f = f->next)
        need_complete(g, s, f->type->kind == TK_PTR && !ty_is_struct(f->type->elem) ? f->type->elem
                                                                                     : f->type);
    emit(g, 0, "struct %s {", c_name);
    define_fields(g, st, 1);
    if (!st->fields)
        emit(g, 1, "char unused_; /* C has no empty structs */");
    emit(g, 0, "};");
    emit(g, 0, "%s", "");
}

static void define_composite(gen *g, defined_set *s, ast_type *t)
{
    if (defined_has(s, t) || t->kind == TK_ARRAY || (t->kind == TK_PTR && ty_is_struct(t->elem)))
        return; /* arrays and pointers to structs need no typedef */
    defined_add(s, t);
    const char *name = ty_fn(g, t);
    const char *upper = c_upper_name(g->pool, name);
    switch (t->kind) {
    case TK_STRUCT:
        define_struct(g, s, t, name);
        return;
    case TK_SLICE:
        need_declared(g, s, t->elem);
        emit(g, 0, "#ifndef %s_DEFINED", upper);
        emit(g, 0, "#define %s_DEFINED", upper);
        emit(g, 0, "typedef struct %s {", name);
        emit(g, 1, "%s; /* NULL: nil */", ty_decl(g, t->elem, "*ptr"));
        emit(g, 1, "size_t len;");
        emit(g, 0, "} %s;", name);
        break;
    case TK_MAP:
        need_declared(g, s, t->key);
        need_declared(g, s, t->elem);
        emit(g, 0, "#ifndef %s_DEFINED", upper);
        emit(g, 0, "#define %s_DEFINED", upper);
        emit(g, 0, "typedef struct %s {", name);
        emit(g, 1, "%s; /* NULL: nil; in insertion order */", ty_decl(g, t->key, "*keys"));
        emit(g, 1, "%s;", ty_decl(g, t->elem, "*vals"));
        emit(g, 1, "size_t len;");
        emit(g, 0, "} %s;", name);
        break;
    case TK_PTR: /* a pointer to a non-struct, outside a struct member */
        need_complete(g, s, t->elem);
        emit(g, 0, "#ifndef %s_DEFINED", upper);
        emit(g, 0, "#define %s_DEFINED", upper);
        emit(g, 0, "typedef struct %s {", name);
        emit(g, 1, "bool has; /* false: nil */");
        emit(g, 1, "%s;", ty_decl(g, t->elem, "val"));
        emit(g, 0, "} %s;", name);
        break;
    default:
        return;
    }
    emit(g, 0, "#endif");
    emit(g, 0, "%s", "");
}

/* A closed enum is a C enum: a string one's constants are the indexes of its
 * names table ("" first, Go's zero value), an int one's are its values. */
/* A string enum's constants: the indexes of its names table, "" (Go's zero
 * value) first, as index 0, whether declared or not. */
static void string_enum_constants(gen *g, const ast_decl *d)
{
    bool has_empty = false;
    for (enum_value *v = d->values; v; v = v->next)
        has_empty |= v->str[0] == '\0';
    if (!has_empty)
        emit(g, 1, "%s__EMPTY = 0, /* \"\": Go's zero value */", d->c_upper);
    int i = 1; /* names[0] is "" */
    for (enum_value *v = d->values; v; v = v->next)
        if (v->str[0] == '\0')
            emit(g, 1, "%s = 0, /* \"\" */", v->c_name);
    for (enum_value *v = d->values; v; v = v->next)
        if (v->str[0] != '\0')
            emit(g, 1, "%s = %d, /* %s */", v->c_name, i++, c_literal(g, v->str, strlen(v->str)));
}

static void define_closed_enum(gen *g, ast_decl *d)
{
    emit(g, 0, "/* %s: %s enum, closed (//tagc:closed): decoding rejects other values */", d->name,
         d->enum_kind == ENUM_STRING ? "string" : "int");
    emit(g, 0, "typedef enum %s {", d->c_name);
    if (d->enum_kind == ENUM_STRING) {
        string_enum_constants(g, d);
    } else {
        for (enum_value *v = d->values; v; v = v->next)
            emit(g, 1, "%s = %lld,", v->c_name, (long long)v->num);
    }
    emit(g, 0, "} %s;", d->c_name);
    emit(g, 0, "%s", "");
}

/* An int constant as C: INT64_MIN has no literal. */
static const char *int_literal(gen *g, int64_t v)
{
    if (v == INT64_MIN)
        return "(-9223372036854775807 - 1)";
    return pool_printf(g->pool, "%lld", (long long)v);
}

/*
 * An open enum (the default, as in Go) is its underlying type: a field holds
 * any string or integer. Its constants name the declared values: an int
 * enum's are values of the type, a string enum's are the indexes of its names
 * table (<t>_value), whose text <t>_of gives: `v.status = shop_status_of(SHOP_STATUS_PAID)`.
 */
static void define_open_enum(gen *g, ast_decl *d)
{
    emit(g, 0, "/* %s: %s enum, open: it holds any %s, as in Go; the declared values follow */",
         d->name, d->enum_kind == ENUM_STRING ? "string" : "int",
         d->enum_kind == ENUM_STRING ? "string" : "integer of its type");
    emit(g, 0, "typedef %s;", ty_decl(g, d->type, d->c_name));
    if (d->enum_kind == ENUM_INT) {
        for (enum_value *v = d->values; v; v = v->next)
            emit(g, 0, "#define %s ((%s)%s)", v->c_name, d->c_name, int_literal(g, v->num));
        emit(g, 0, "%s", "");
        return;
    }
    emit(g, 0, "typedef enum %s_value {", d->c_name);
    string_enum_constants(g, d);
    emit(g, 0, "} %s_value;", d->c_name);
    emit(g, 0, "%s", "");
}

/* `type Old New`, New a struct (through any chain of such types): the C name
 * of that struct, so that Old is `typedef struct new old;` with the forward
 * declarations (a pointer to Old may come before New's definition); or NULL. */
static const char *defined_struct_of(const ast_decl *d)
{
    if (d->codec || d->enum_kind != ENUM_NONE)
        return NULL;
    const ast_type *t = d->type;
    for (int depth = 0; t && t->kind == TK_NAMED && t->decl && depth < 64; depth++) {
        const ast_decl *n = t->decl;
        if (n->codec || n->enum_kind != ENUM_NONE || !n->type)
            return NULL;
        if (n->type->kind == TK_STRUCT)
            return n->c_name;
        t = n->type;
    }
    return NULL;
}

static void define_decl(gen *g, defined_set *s, ast_decl *d)
{
    if (defined_has(s, d))
        return;
    defined_add(s, d);
    if (decl_is_closed_enum(d)) {
        define_closed_enum(g, d);
        return;
    }
    if (d->enum_kind != ENUM_NONE) {
        define_open_enum(g, d);
        return;
    }
    if (d->codec) {
        gen_codec_typedef(g, d);
        return;
    }
    if (d->type->kind == TK_STRUCT) {
        define_struct(g, s, d->type, d->c_name);
        return;
    }
    need_complete(g, s, d->type);
    if (defined_struct_of(d))
        return; /* typedef'd with the forward declarations */
    emit(g, 0, "/* %s */", d->name);
    emit(g, 0, "typedef %s;", ty_decl(g, d->type, d->c_name));
    emit(g, 0, "%s", "");
}

void gen_type_definitions(gen *g)
{
    defined_set s = {0};
    bool any = false;
    for (ast_decl *d = g->file->decls; d; d = d->next)
        if (d->type->kind == TK_STRUCT && (any = true))
            emit(g, 0, "typedef struct %s %s;", d->c_name, d->c_name);
    for (ast_decl *d = g->file->decls; d; d = d->next)
        if (defined_struct_of(d) && (any = true))
            emit(g, 0, "typedef struct %s %s; /* %s */", defined_struct_of(d), d->c_name, d->name);
    for (size_t i = 0; i < g->ntypes; i++)
        if (g->types[i].type->kind == TK_STRUCT && (any = true))
            emit(g, 0, "typedef struct %s %s;", g->types[i].name, g->types[i].name);
    if (any)
        emit(g, 0, "%s", "");
    for (ast_decl *d = g->file->decls; d; d = d->next)
        if (d->enum_kind != ENUM_NONE)
            define_decl(g, &s, d);
    for (ast_decl *d = g->file->decls; d; d = d->next)
        define_decl(g, &s, d);
    for (size_t i = 0; i < g->ntypes; i++)
        define_composite(g, &s, g->types[i].type);
    free(s.slots);
}
