/*
 * gen_json.c - the JSON back end: for every named type an exported
 * <type>_read_json / <type>_write_json pair, and static ones for the composite
 * types (slices, maps, arrays, pointers, anonymous structs) a file uses.
 *
 * Structs are written as straight-line code with each key a constant; they are
 * read with a loop over the object's members that tries the declared order
 * first, then the key's length and bytes, then Go's case-insensitive match.
 */
#include <string.h>

#include "gen.h"

/* MARK: - Shapes of types */

/* MARK: - Reading */

/* The function that reads a value of type t (called as fn(d, &lvalue)); *keeps:
 * null leaves the lvalue as it is (the caller tests it), else fn reads null itself. */
static const char *read_fn(gen *g, ast_type *t, bool *keeps)
{
    type_kind k = t->kind;
    *keeps = ty_null_keeps(k);
    if (ty_is_signed_int(k) || ty_is_unsigned_int(k))
        return ty_int_reader(k, false);
    if (k == TK_BOOL)
        return "tagc_json_read_bool";
    if (k == TK_FLOAT32)
        return "tagc_json_read_f32";
    if (k == TK_FLOAT64)
        return "tagc_json_read_f64";
    if (k == TK_STRING)
        return "tagc_json_read_str";
    if (k == TK_TIME) /* Go 1.20 parses times more strictly */
        return g->opts->go == GO_1_19   ? "tagc_json_read_time_go119"
               : g->opts->go == GO_1_27 ? "tagc_json_read_time_go127"
                                        : "tagc_json_read_time";
    if (k == TK_RAW)
        return "tagc_json_read_raw";
    if (k == TK_NUMBER)
        return "tagc_json_read_number";
    if (k == TK_ANY)
        return "tagc_json_read_any";
    if (ty_is_bytes(t))
        return "tagc_json_read_bytes_value";
    return pool_cat(g->pool, ty_fn(g, t), "_read_json");
}

/* Code that reads a value of type t into the lvalue lv; `fail` is the statement run with rc set. */
static void read_value(gen *g, int ind, ast_type *t, const char *lv, const char *fail)
{
    bool keeps;
    const char *fn = read_fn(g, t, &keeps);
    emit(g, ind, "if (%s(rc = %s(d, &%s)) != 0)", keeps ? "!tagc_json_null(d) && " : "", fn, lv);
    emit(g, ind + 1, "%s", fail);
}

/* A pointer to a non-struct: `has` says whether it is set, `val` holds the value. */
static void read_opt(gen *g, int ind, ast_type *elem, const char *has, const char *val,
                     const char *fail)
{
    bool keeps;
    const char *fn = read_fn(g, elem, &keeps);
    emit(g, ind, "if (tagc_json_null(d)) {");
    emit(g, ind + 1, "%s = false;", has);
    emit(g, ind + 1, "memset(&%s, 0, sizeof %s);", val, val);
    emit(g, ind, "} else {");
    emit(g, ind + 1, "%s = true;", has);
    emit(g, ind + 1, "if ((rc = %s(d, &%s)) != 0)", fn, val);
    emit(g, ind + 2, "%s", fail);
    emit(g, ind, "}");
}

/* The `string` option: the scalar's JSON text inside a JSON string. `has` is the
 * flag of a pointer field (NULL otherwise): "null" in quotes makes it nil, as in Go.
 * An unquoted null is handled by the caller. */
static void read_quoted(gen *g, int ind, ast_type *t, const char *lv, const char *has, const char *fail)
{
    ast_type *u = ty_under(t);
    const ast_decl *en = ty_enum(t);
    if (u->kind == TK_NUMBER) { /* returns 1 for "null" in quotes */
        emit(g, ind, "if ((rc = tagc_json_read_number_quoted(d, &%s, GO_PROFILE)) < 0)", lv);
        emit(g, ind + 1, "%s", fail);
        if (has)
            emit(g, ind, "%s = rc == 0;", has);
        return;
    }
    if (u->kind == TK_STRING) {
        /* read_quoted_str returns 1 for "null" in quotes */
        const char *dst = lv;
        if (en) {
            emit(g, ind, "tagc_str q = {0};");
            dst = "q";
        }
        emit(g, ind, "if ((rc = tagc_json_read_quoted_str(d, &%s)) < 0)", dst);
        emit(g, ind + 1, "%s", fail);
        if (en) {
            emit(g, ind, "if (rc == 0 && !%s_parse(q.ptr, q.len, &%s)) {", en->c_name, lv);
            emit(g, ind + 1, "rc = tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\");", en->name);
            emit(g, ind + 1, "%s", fail);
            emit(g, ind, "}");
        }
        if (has)
            emit(g, ind, "%s = rc == 0;", has);
        return;
    }
    emit(g, ind, "if ((rc = tagc_json_string_opt_begin(d, GO_PROFILE)) != 0)");
    emit(g, ind + 1, "%s", fail);
    if (has) {
        emit(g, ind, "%s = !tagc_json_null(d);", has);
        emit(g, ind, "if (%s)", has);
        emit(g, ind, "{");
        read_value(g, ind + 1, t, lv, fail);
        emit(g, ind, "}");
    } else {
        read_value(g, ind, t, lv, fail);
    }
    emit(g, ind, "if ((rc = tagc_json_string_opt_end(d)) != 0)");
    emit(g, ind + 1, "%s", fail);
}

static void read_member(gen *g, int ind, const wire_field *w, const char *fail)
{
    /* Embedded pointers on the way are allocated first, as Go does. */
    for (size_t i = 1; i < w->path_len; i++) {
        if (w->path[i - 1]->type->kind != TK_PTR)
            continue;
        const char *p = wire_lvalue(g, w, i);
        emit(g, ind, "if (%s == NULL && (%s = tagc_json_new(d, sizeof *%s)) == NULL)", p, p, p);
        emit(g, ind + 1, "return TAGC_E_NOMEM;");
    }
    const char *lv = wire_lvalue(g, w, w->path_len);
    ast_type *t = w->field->type;
    if (ty_is_opt(t)) {
        const char *has = wire_has_lvalue(g, lv, w->field);
        if (w->json_string) {
            emit(g, ind, "memset(&%s, 0, sizeof %s);", lv, lv);
            emit(g, ind, "%s = false;", has);
            emit(g, ind, "if (!tagc_json_null(d)) {");
            read_quoted(g, ind + 1, t->elem, lv, has, fail);
            emit(g, ind, "}");
        } else {
            read_opt(g, ind, t->elem, has, lv, fail);
        }
    } else if (w->json_string) {
        emit(g, ind, "if (!tagc_json_null(d)) {");
        read_quoted(g, ind + 1, t, lv, NULL, fail);
        emit(g, ind, "}");
    } else {
        read_value(g, ind, t, lv, fail);
    }
}

static size_t json_wire_count(const ast_type *st)
{
    size_t n = 0;
    for (size_t i = 0; i < st->wire_count; i++)
        n += st->wire[i].json_name != NULL;
    return n;
}

/* The tables of a struct's keys: <fn>_json_keys, in declared order as compact
 * JSON writes them, for the in-place check of the key expected next
 * (tagc_json_obj_next_key), and <fn>_json_sorted, the field indexes by name for
 * the lookup of any other key (tagc_json_key_find). */
static void gen_fold_order(gen *g, const char *fn, const ast_type *st);

static void gen_key_tables(gen *g, const char *fn, const ast_type *st)
{
    const char **names = pool_alloc(g->pool, st->wire_count * sizeof *names);
    size_t n = 0;
    emit(g, 0, "/* The keys in declared order as compact JSON has them (len bytes; indented");
    emit(g, 0, " * JSON's space after the colon follows): the key expected next is compared in");
    emit(g, 0, " * place before any lookup. */");
    emit(g, 0, "static const tagc_json_key %s_json_keys[] = {", fn);
    for (size_t i = 0; i < st->wire_count; i++) {
        const char *name = st->wire[i].json_name;
        if (!name)
            continue;
        names[n++] = name;
        if (name_is_plain(name)) { /* len: the compact text; the space after it is MarshalIndent's;
                                      the pad: 16 bytes can be read (tagc.h) */
            const char *text = pool_printf(g->pool, "\"%s\": ", name);
            emit(g, 1, "{%s TAGC_JSON_KEY_PAD, %zu},", c_literal(g, text, strlen(text)), strlen(text) - 1);
        } else { /* the input may have it escaped */
            const char *text = pool_printf(g->pool, "\"%s\":", name);
            emit(g, 1, "{%s, 0}, /* not compared in place */", c_literal(g, text, strlen(text)));
        }
    }
    emit(g, 1, "{NULL, 0}, /* after the last field */");
    emit(g, 0, "};");
    if (n > 0) {
        emit(g, 0, "/* The fields by name (length, then bytes), for tagc_json_key_find. */");
        gen_name_order(g, pool_printf(g->pool, "%s_json_sorted", fn), names, n);
    }
    emit(g, 0, "%s", "");
    gen_fold_order(g, fn, st);
}

/* Whether wire field a comes before b breadth first: shallower, then in
 * declared order (the order of their paths' indexes). */
static bool bfs_before(const wire_field *a, const wire_field *b)
{
    return a->path_len != b->path_len ? a->path_len < b->path_len : a < b;
}

/* Go 1.27 matches a name that differs only in case with the fields taken
 * breadth first, and never a `case:strict` one (json/v2's byFoldedName), where
 * Go 1.26 takes them in declared order: <fn>_json_fold lists them when that
 * differs (tagc_json_key_find). */
static bool needs_fold_order(const ast_type *st)
{
    const wire_field *prev = NULL;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->json_name)
            continue;
        if (w->field->tags.json_case_strict || (prev && bfs_before(w, prev)))
            return true;
        prev = w;
    }
    return false;
}

static bool uses_fold_order(const gen *g, const ast_type *st)
{
    return g->opts->go == GO_1_27 && needs_fold_order(st);
}

static void gen_fold_order(gen *g, const char *fn, const ast_type *st)
{
    if (!uses_fold_order(g, st))
        return;
    size_t n = 0, *order = pool_alloc(g->pool, (st->wire_count + 1) * sizeof *order);
    for (size_t i = 0, idx = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->json_name)
            continue;
        if (!w->field->tags.json_case_strict) { /* insertion sort: a few fields */
            size_t k = n++;
            while (k > 0 && bfs_before(w, &st->wire[order[k - 1] >> 16]))
                order[k] = order[k - 1], k--;
            order[k] = i << 16 | idx;
        }
        idx++;
    }
    emit(g, 0, "/* The fields a name differing in case may match, in Go 1.27's order. */");
    const char *list = "";
    for (size_t i = 0; i < n; i++)
        list = pool_printf(g->pool, "%s%zu, ", list, order[i] & 0xFFFF);
    emit(g, 0, "static const uint16_t %s_json_fold[] = {%sUINT16_MAX};", fn, list);
    emit(g, 0, "%s", "");
}

static void gen_struct_read(gen *g, const char *fn, const char *ctype, const ast_type *st,
                            bool exported)
{
    size_t n = json_wire_count(st);
    size_t words = n ? (n + 63) / 64 : 1;
    gen_key_tables(g, fn, st);
    emit(g, 0, "%sint %s_read_json(tagc_json_dec *d, %s *v)", exported ? "" : "static ", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "int next = 0; /* the field expected next, in declared order */");
    if (n == 0) /* no key on the wire: v is left as it is (struct{}) */
        emit(g, 1, "(void)v;");
    emit(g, 1, "uint64_t seen[%zu] = {0};", words);
    emit(g, 1, "int field;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_json_null(d))");
    emit(g, 2, "return 0;");
    emit(g, 1, "if ((rc = tagc_json_obj_begin_inline(d)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "d->first = true; /* the key and this state are d's: no locals a level */");
    emit(g, 1, "while ((rc = tagc_json_obj_next_key(d, &%s_json_keys[next])) > 0) {", fn);
    if (n > 0)
        emit(g, 2, "field = rc == 2 ? next : tagc_json_key_find(%s_json_keys, %s_json_sorted, %zu, %s, d->key, d->key_len);",
             fn, fn, n, uses_fold_order(g, st) ? pool_printf(g->pool, "%s_json_fold", fn) : "NULL");
    else
        emit(g, 2, "field = -1; /* no fields */");
    emit(g, 2, "if (field >= 0) {");
    emit(g, 3, "if (d->strict) { /* seen is only read in strict mode */");
    emit(g, 4, "uint64_t bit = UINT64_C(1) << (field & 63);");
    emit(g, 4, "if ((seen[field >> 6] & bit) != 0)");
    emit(g, 5, "return tagc_json_duplicate_key(d, d->key, d->key_len);");
    emit(g, 4, "seen[field >> 6] |= bit;");
    emit(g, 3, "}");
    emit(g, 3, "next = field + 1;");
    emit(g, 2, "}");
    emit(g, 2, "switch (field) {");
    size_t idx = 0;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->json_name)
            continue;
        emit(g, 2, "case %zu: /* %s */", idx, c_literal(g, w->json_name, strlen(w->json_name)));
        read_member(g, 3, w, "goto fail;");
        emit(g, 3, "break;");
        idx++;
    }
    emit(g, 2, "default:");
    if (st->json_unknown) { /* kept, in strict mode too: the type asks for them */
        const char *m = pool_cat(g->pool, "v->", st->json_unknown->c_name);
        emit(g, 3, "if ((rc = tagc_json_collect_member(d, &%s.keys, &%s.vals, &%s.len, d->key, d->key_len)) != 0)",
             m, m, m);
        emit(g, 4, "return tagc_json_fail_key(d, rc, d->key, d->key_len);");
        emit(g, 3, "break;");
    }
    emit(g, 3, "if (d->strict)");
    emit(g, 4, "return tagc_json_unknown_key(d, d->key, d->key_len);");
    emit(g, 3, "if ((rc = tagc_json_skip(d)) != 0)");
    emit(g, 4, "return tagc_json_fail_key(d, rc, d->key, d->key_len);");
    emit(g, 2, "}");
    emit(g, 1, "}");
    emit(g, 1, "if (rc < 0)");
    emit(g, 2, "return rc;");
    /* strict: every field without omitempty must be there */
    uint64_t *required = pool_alloc(g->pool, words * sizeof *required);
    memset(required, 0, words * sizeof *required);
    idx = 0;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->json_name)
            continue;
        bool behind_ptr = false; /* a nil embedded pointer hides its fields */
        for (size_t j = 0; j + 1 < w->path_len; j++)
            behind_ptr |= w->path[j]->type->kind == TK_PTR;
        if (!wire_json_omittable(w) && !behind_ptr)
            required[idx >> 6] |= UINT64_C(1) << (idx & 63);
        idx++;
    }
    gen_required_check(g, "tagc_json_missing_field", pool_printf(g->pool, "%s_json_keys", fn), required, words);
    emit(g, 1, "return 0;");
    if (n > 0) {
        emit(g, 0, "fail: /* rc from the value of field */");
        emit(g, 1, "return tagc_json_fail_field(d, rc, &%s_json_keys[field]);", fn);
    }
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* [n]float64 (n >= 1) and [][n]float64: read by one runtime call
 * (tagc_json_read_f64_array, _array_slice), the loops below with plain floats
 * and indents in line. */
static bool is_f64_array(const ast_type *t)
{
    return t->kind == TK_ARRAY && t->array_len >= 1 && t->elem->kind == TK_FLOAT64;
}

static void gen_slice_read(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s *v)", fn, ctype);
    emit(g, 0, "{");
    if (is_f64_array(t->elem)) {
        emit(g, 1, "double *ptr = (double *)(void *)v->ptr;");
        emit(g, 1, "size_t len = v->len;");
        emit(g, 1, "int rc = tagc_json_read_f64_array_slice(d, &ptr, &len, %lld); /* the loop, floats in line */",
             (long long)t->elem->array_len);
        /* each element is read as the [n]float64 reader reads one, which may be used nowhere else */
        emit(g, 1, "(void)%s_read_json; /* each element is read as it reads one */", ty_fn(g, t->elem));
        emit(g, 0, "%s", "");
        emit(g, 1, "v->ptr = (%s)(void *)ptr;", ty_decl(g, t->elem, "(*)"));
        emit(g, 1, "v->len = len;");
        emit(g, 1, "return rc;");
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    emit(g, 1, "%s = NULL;", ty_decl(g, t->elem, "*ptr"));
    emit(g, 1, "size_t len = 0; /* the capacity follows from it: tagc_json_slice_full */");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_json_null(d)) {");
    emit(g, 2, "v->ptr = NULL;");
    emit(g, 2, "v->len = 0;");
    emit(g, 2, "return 0;");
    emit(g, 1, "}");
    emit(g, 1, "if ((rc = tagc_json_arr_begin_inline(d)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "d->first = true; /* d's: no locals a level */");
    emit(g, 1, "while ((rc = tagc_json_arr_next_inline(d)) > 0) {");
    emit(g, 2, "if (tagc_json_slice_full(len) && (ptr = tagc_json_grow_len(d, ptr, len, sizeof *ptr)) == NULL)");
    emit(g, 3, "return TAGC_E_NOMEM;");
    emit(g, 2, "if (len < v->len) /* a repeated key: Go decodes into the elements already there */");
    emit(g, 3, "memcpy(&ptr[len], &v->ptr[len], sizeof ptr[len]);");
    emit(g, 2, "else");
    emit(g, 3, "memset(&ptr[len], 0, sizeof ptr[len]);");
    if (ty_is_opt(t->elem))
        read_opt(g, 2, t->elem->elem, "ptr[len].has", "ptr[len].val",
                 "return tagc_json_fail_index(d, rc, len);");
    else
        read_value(g, 2, t->elem, "ptr[len]", "return tagc_json_fail_index(d, rc, len);");
    emit(g, 2, "len++;");
    emit(g, 1, "}");
    emit(g, 1, "if (rc < 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "v->ptr = len > 0 ? ptr : TAGC_EMPTY; /* [] is empty, not nil */");
    emit(g, 1, "v->len = len;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_array_read(gen *g, const char *fn, ast_type *t)
{
    long long n = (long long)t->array_len;
    emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s)", fn, ty_decl(g, t, "(*v)"));
    emit(g, 0, "{");
    if (is_f64_array(t)) {
        emit(g, 1, "return tagc_json_read_f64_array(d, *v, %lld); /* the loop, floats in line */", n);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    emit(g, 1, "size_t i = 0;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_json_null(d))");
    emit(g, 2, "return 0;");
    emit(g, 1, "if ((rc = tagc_json_arr_begin_inline(d)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "d->first = true; /* d's: no locals a level */");
    emit(g, 1, "while ((rc = tagc_json_arr_next_inline(d)) > 0) {");
    emit(g, 2, "if (i < %lld) {", n);
    if (ty_is_opt(t->elem))
        read_opt(g, 3, t->elem->elem, "(*v)[i].has", "(*v)[i].val", "return tagc_json_fail_index(d, rc, i);");
    else
        read_value(g, 3, t->elem, "(*v)[i]", "return tagc_json_fail_index(d, rc, i);");
    emit(g, 2, "} else if ((rc = tagc_json_skip(d)) != 0) { /* Go reads and drops the extra ones */");
    emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
    emit(g, 2, "}");
    emit(g, 2, "i++;");
    emit(g, 1, "}");
    emit(g, 1, "if (rc < 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "for (; i < %lld; i++) /* and zeroes the missing ones */", n);
    emit(g, 2, "memset(&(*v)[i], 0, sizeof (*v)[i]);");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_ptr_read(gen *g, const char *fn, ast_type *t)
{
    const char *elem = ty_cname(g, t->elem);
    emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s **v)", fn, elem);
    emit(g, 0, "{");
    emit(g, 1, "if (tagc_json_null(d)) {");
    emit(g, 2, "*v = NULL;");
    emit(g, 2, "return 0;");
    emit(g, 1, "}");
    emit(g, 1, "if (*v == NULL && (*v = tagc_json_new(d, sizeof **v)) == NULL)");
    emit(g, 2, "return TAGC_E_NOMEM;");
    emit(g, 1, "return %s_read_json(d, *v);", ty_fn(g, t->elem));
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_opt_read(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s *v)", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    read_opt(g, 1, t->elem, "v->has", "v->val", "return rc;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* Keys of string enums are stored as their enum value. */
static bool is_string_enum(const ast_type *kt)
{
    const ast_decl *en = ty_enum(kt);
    return en && en->enum_kind == ENUM_STRING;
}

/* The call that finds (or adds) a key in the map being built: `str` is the key's
 * text for string keys, `num` its value for integer and enum keys. */
static const char *slot_call(gen *g, ast_type *kt, const char *str, const char *str_len, const char *num)
{
    ast_type *u = ty_under(kt);
    if (ty_is_float(u->kind)) /* by their bits, but 0 and -0 are one key */
        return pool_printf(g->pool, "(%s != 0 ? tagc_map_slot_int(d, &ix, keys, sizeof *keys, false, len, tagc_f%d_bits(%s))"
                                    " : zero >= 0 ? zero : (zero = (long)len))",
                           num, u->kind == TK_FLOAT32 ? 32 : 64, num);
    if (u->kind == TK_STRING && !is_string_enum(kt))
        return pool_printf(g->pool, "tagc_map_slot_str(d, &ix, keys, len, %s, %s)", str, str_len);
    if (ty_is_unsigned_int(u->kind))
        return pool_printf(g->pool, "tagc_map_slot_int(d, &ix, keys, sizeof *keys, false, len, (uint64_t)%s)", num);
    return pool_printf(g->pool, "tagc_map_slot_int(d, &ix, keys, sizeof *keys, true, len, (uint64_t)(int64_t)%s)", num);
}

static void emit_map_grow(gen *g, int ind)
{
    emit(g, ind, "if (len == cap) {");
    emit(g, ind + 1, "size_t vcap = cap;");
    emit(g, ind + 1, "if ((keys = tagc_json_grow(d, keys, &cap, sizeof *keys)) == NULL ||");
    emit(g, ind + 1, "    (vals = tagc_json_grow(d, vals, &vcap, sizeof *vals)) == NULL)");
    emit(g, ind + 2, "return TAGC_E_NOMEM;");
    emit(g, ind, "}");
}

/* Reads the key text (key, key_len) of a map of key type kt; sets `at`, adding the key when new. */
static void read_map_key(gen *g, int ind, ast_type *kt)
{
    ast_type *u = ty_under(kt);
    const ast_decl *en = ty_enum(kt);
    bool str_key = u->kind == TK_STRING && !is_string_enum(kt);
    if (is_string_enum(kt)) {
        emit(g, ind, "%s k;", en->c_name);
        emit(g, ind, "if (!%s_parse(key, key_len, &k))", en->c_name);
        emit(g, ind + 1, "return tagc_json_fail_key(d, tagc_json_key_error(d, TAGC_E_ENUM, \"unknown %s value\"), key, key_len);", en->name);
    } else if (ty_is_float(u->kind)) { /* Go 1.27 */
        emit(g, ind, "double k;");
        emit(g, ind, "if ((rc = tagc_json_key_float(d, key, key_len, %d, &k)) != 0)", u->kind == TK_FLOAT32 ? 32 : 64);
        emit(g, ind + 1, "return tagc_json_fail_key(d, rc, key, key_len);");
    } else if (ty_is_unsigned_int(u->kind)) {
        emit(g, ind, "uint64_t k;");
        emit(g, ind, "if ((rc = tagc_json_key_uint(d, key, key_len, &k, %s)) != 0)", ty_int_max(u->kind));
        emit(g, ind + 1, "return tagc_json_fail_key(d, rc, key, key_len);");
    } else if (!str_key) {
        emit(g, ind, "int64_t k;");
        emit(g, ind, "if ((rc = tagc_json_key_int(d, key, key_len, &k, %s, %s)) != 0)",
             ty_int_min(u->kind), ty_int_max(u->kind));
        emit(g, ind + 1, "return tagc_json_fail_key(d, rc, key, key_len);");
    }
    if (en && en->enum_kind == ENUM_INT) {
        emit(g, ind, "if (!%s_is_known(k))", en->c_name);
        emit(g, ind + 1, "return tagc_json_fail_key(d, tagc_json_key_error(d, TAGC_E_ENUM, \"unknown %s value\"), key, key_len);", en->name);
    }
    emit(g, ind, "if ((at = %s) < 0)", slot_call(g, kt, "key", "key_len", "k"));
    emit(g, ind + 1, "return (int)at;");
    emit(g, ind, "if ((size_t)at == len) { /* a new key */");
    emit_map_grow(g, ind + 1);
    if (str_key) {
        emit(g, ind + 1, "if ((keys[len].ptr = tagc_json_new(d, key_len + 1)) == NULL)");
        emit(g, ind + 2, "return TAGC_E_NOMEM;");
        emit(g, ind + 1, "memcpy(keys[len].ptr, key, key_len);");
        emit(g, ind + 1, "keys[len].len = key_len;");
    } else {
        emit(g, ind + 1, "keys[len] = (%s)k;", ty_cname(g, kt));
    }
    emit(g, ind + 1, "len++;");
    emit(g, ind, "}");
}

static void gen_map_read(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s *v)", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "%s = NULL;", ty_decl(g, t->key, "*keys"));
    emit(g, 1, "%s = NULL;", ty_decl(g, t->elem, "*vals"));
    emit(g, 1, "size_t len = 0, cap = 0;");
    emit(g, 1, "tagc_map_index ix = {0};");
    emit(g, 1, "const char *key;");
    emit(g, 1, "size_t key_len;");
    emit(g, 1, "bool first = true;");
    emit(g, 1, "long at;");
    if (ty_is_float(ty_under(t->key)->kind))
        emit(g, 1, "long zero = -1; /* the entry of 0 or -0, which Go takes for one key */");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_json_null(d)) {");
    emit(g, 2, "v->keys = NULL;");
    emit(g, 2, "v->vals = NULL;");
    emit(g, 2, "v->len = 0;");
    emit(g, 2, "return 0;");
    emit(g, 1, "}");
    emit(g, 1, "if ((rc = tagc_json_obj_begin_inline(d)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "for (size_t i = 0; i < v->len; i++) { /* a repeated key: Go adds to the map already there */");
    emit_map_grow(g, 2);
    emit(g, 2, "keys[len] = v->keys[i];");
    emit(g, 2, "memcpy(&vals[len], &v->vals[i], sizeof vals[len]);");
    emit(g, 2, "if ((at = %s) < 0)", slot_call(g, t->key, "keys[len].ptr", "keys[len].len", "keys[len]"));
    emit(g, 3, "return (int)at;");
    emit(g, 2, "len++;");
    emit(g, 1, "}");
    emit(g, 1, "while ((rc = tagc_json_obj_next(d, &first, &key, &key_len)) > 0) {");
    read_map_key(g, 2, t->key);
    emit(g, 2, "/* a repeated key: the last value wins, in the first one's place */");
    emit(g, 2, "memset(&vals[at], 0, sizeof vals[at]);");
    const char *fail = "return tagc_json_fail_key(d, rc, key, key_len);";
    if (ty_is_opt(t->elem))
        read_opt(g, 2, t->elem->elem, "vals[at].has", "vals[at].val", fail);
    else
        read_value(g, 2, t->elem, "vals[at]", fail);
    emit(g, 1, "}");
    emit(g, 1, "if (rc < 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "v->keys = len > 0 ? keys : TAGC_EMPTY; /* {} is empty, not nil */");
    emit(g, 1, "v->vals = len > 0 ? vals : TAGC_EMPTY;");
    emit(g, 1, "v->len = len;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* MARK: - Writing */

/* A key as Go writes it, quotes and colon included: "name": (escaped as a string). */
static void json_key_text(strbuf *sb, const char *name, size_t len, bool html)
{
    static const char hex[] = "0123456789abcdef";
    sb_put(sb, "\"", 1);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            sb_put(sb, esc, 2);
        } else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&'))) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            sb_put(sb, esc, 6);
        } else {
            sb_put(sb, (const char *)&c, 1);
        }
    }
    sb_put(sb, "\":", 2);
}

/* Code that writes the value of type t at lvalue lv. */
static void write_value(gen *g, int ind, ast_type *t, const char *lv)
{
    type_kind k = t->kind;
    if (k == TK_BOOL)
        emit(g, ind, "tagc_json_write_bool(out, %s);", lv);
    else if (ty_is_signed_int(k))
        emit(g, ind, "tagc_json_write_i64(out, %s);", lv);
    else if (ty_is_unsigned_int(k))
        emit(g, ind, "tagc_json_write_u64(out, %s);", lv);
    else if (k == TK_FLOAT64)
        emit(g, ind, "tagc_json_write_f64(out, %s);", lv);
    else if (k == TK_FLOAT32)
        emit(g, ind, "tagc_json_write_f32(out, %s);", lv);
    else if (k == TK_STRING)
        emit(g, ind, "tagc_json_write_str(out, %s.ptr, %s.len, tagc_json_esc(o, GO_PROFILE));", lv, lv);
    else if (k == TK_TIME)
        emit(g, ind, "tagc_json_write_time(out, &%s, GO_PROFILE);", lv);
    else if (k == TK_RAW)
        emit(g, ind, "tagc_json_write_raw_in(out, &%s, tagc_json_esc(o, GO_PROFILE), o->max_depth);", lv);
    else if (k == TK_NUMBER)
        emit(g, ind, "tagc_json_write_number(out, &%s);", lv);
    else if (k == TK_ANY)
        emit(g, ind, "tagc_json_write_any_as(out, %s, o, GO_PROFILE);", lv);
    else if (ty_is_bytes(t))
        emit(g, ind, "tagc_json_write_bytes(out, %s.ptr, %s.len, %s.ptr == NULL);", lv, lv, lv);
    else if (k == TK_PTR && ty_is_struct(t->elem))
        emit(g, ind, "%s_write_json(out, %s, o);", ty_fn(g, t), lv);
    else
        emit(g, ind, "%s_write_json(out, &%s, o);", ty_fn(g, t), lv);
}

static void write_opt(gen *g, int ind, ast_type *elem, const char *has, const char *val)
{
    emit(g, ind, "if (!%s)", has);
    emit(g, ind + 1, "tagc_buf_put(out, \"null\", 4);");
    emit(g, ind, "else");
    write_value(g, ind + 1, elem, val);
}

static void write_quoted(gen *g, int ind, ast_type *t, const char *lv)
{
    ast_type *u = ty_under(t);
    const ast_decl *en = ty_enum(t);
    if (u->kind == TK_STRING && en) {
        emit(g, ind, "if ((size_t)%s >= %s_names_len)", lv, en->c_name);
        emit(g, ind + 1, "tagc_buf_fail(out, TAGC_E_INVALID);");
        emit(g, ind, "else");
        emit(g, ind + 1, "tagc_json_write_quoted_str(out, %s_names[%s].ptr, %s_names[%s].len, tagc_json_esc(o, GO_PROFILE));",
             en->c_name, lv, en->c_name, lv);
        return;
    }
    if (u->kind == TK_STRING) {
        emit(g, ind, "tagc_json_write_quoted_str(out, %s.ptr, %s.len, tagc_json_esc(o, GO_PROFILE));", lv, lv);
        return;
    }
    if (u->kind == TK_NUMBER) {
        emit(g, ind, "tagc_json_write_number_quoted(out, &%s);", lv);
        return;
    }
    emit(g, ind, "tagc_buf_byte(out, '\"');");
    write_value(g, ind, t, lv);
    emit(g, ind, "tagc_buf_byte(out, '\"');");
}

/* MARK: - Runs of bounded writes */

/*
 * Keys, punctuation and scalars (numbers, booleans, times) have a bounded
 * length, so a stretch of them between two values of unbounded length (strings,
 * slices, nested structs) is written as a run (tagc_run_open in tagc.h): one
 * room check for all of it, then tagc_put_* calls that do not check. The
 * bounds below are those of tagc.h (TAGC_I64_MAX_CHARS and so on).
 */
#define RUN_MAX 192 /* TAGC_RUN_MAX */

typedef struct wrun {
    int ind;
    strbuf text;  /* constant bytes not yet written */
    strbuf body;  /* the lines of the run so far */
    strbuf bound_text; /* run_end's: the bound as C */
    size_t bound; /* bytes the run may write, for RUN_MAX */
    size_t fixed; /* of which constant text */
    int n_int, n_float, n_time, n_bool;
    int values;   /* scalars in the run */
    bool used;    /* a run was emitted: the function needs `run` and `p` */
} wrun;

static void run_init(wrun *r, int ind)
{
    memset(r, 0, sizeof *r);
    r->ind = ind;
    sb_init(&r->text);
    sb_init(&r->body);
    sb_init(&r->bound_text);
}

/* 'c' for a printable byte, NULL when it needs an escape. */
static const char *c_char_literal(gen *g, unsigned char c)
{
    if (c < 0x20 || c >= 0x7F || c == '\'' || c == '\\')
        return NULL;
    return pool_printf(g->pool, "'%c'", c);
}

static void run_line(gen *g, wrun *r, const char *line)
{
    for (int i = 0; i < r->ind; i++)
        sb_puts(&r->body, "    ");
    sb_puts(&r->body, line);
    sb_put(&r->body, "\n", 1);
    (void)g;
}

/* The constant text collected so far becomes one tagc_put. */
static void run_flush_text(gen *g, wrun *r)
{
    if (r->text.len == 1 && c_char_literal(g, (unsigned char)r->text.data[0]))
        run_line(g, r, pool_printf(g->pool, "p = tagc_put_byte(p, %s);",
                                   c_char_literal(g, (unsigned char)r->text.data[0])));
    else if (r->text.len > 0)
        run_line(g, r, pool_printf(g->pool, "p = tagc_put(p, %s, %zu);",
                                   c_literal(g, r->text.data, r->text.len), r->text.len));
    r->text.len = 0;
}

/* Adds " + n * room" (n > 1), " + room" (n == 1) to a run's bound. */
static void bound_term(strbuf *bound, int n, const char *room)
{
    if (n > 1)
        sb_printf(bound, " + %d * %s", n, room);
    else if (n == 1)
        sb_printf(bound, " + %s", room);
}

/* Writes out the run collected (nothing if empty): a run without scalars is a
 * plain tagc_buf_put of its text. */
static void run_end(gen *g, wrun *r)
{
    if (r->values == 0) {
        if (r->text.len == 1 && c_char_literal(g, (unsigned char)r->text.data[0]))
            emit(g, r->ind, "tagc_buf_byte(out, %s);", c_char_literal(g, (unsigned char)r->text.data[0]));
        else if (r->text.len > 0)
            emit(g, r->ind, "tagc_buf_put(out, %s, %zu);", c_literal(g, r->text.data, r->text.len),
                 r->text.len);
    } else {
        run_flush_text(g, r);
        strbuf *bound = &r->bound_text;
        bound->len = 0;
        sb_printf(bound, "%zu", r->fixed);
        bound_term(bound, r->n_int, "TAGC_I64_MAX_CHARS");
        bound_term(bound, r->n_float, "TAGC_F64_ROOM");
        bound_term(bound, r->n_time, "TAGC_TIME_ROOM");
        bound_term(bound, r->n_bool, "TAGC_BOOL_ROOM");
        emit(g, r->ind, "p = tagc_run_open(out, &run, %s);", bound->data);
        sb_put(g->out, r->body.data, r->body.len);
        emit(g, r->ind, "tagc_run_close(out, &run, p);");
        r->used = true;
    }
    r->text.len = 0;
    r->body.len = 0;
    r->bound = r->fixed = 0;
    r->n_int = r->n_float = r->n_time = r->n_bool = r->values = 0;
}

static void run_text(gen *g, wrun *r, const char *s, size_t n)
{
    if (r->bound + n > RUN_MAX)
        run_end(g, r);
    sb_put(&r->text, s, n);
    r->bound += n;
    r->fixed += n;
}

/* The room a scalar of type t takes in a run, 0 when t is not one. */
static size_t run_room(const ast_type *t)
{
    type_kind k = t->kind;
    if (k == TK_BOOL)
        return 5; /* TAGC_BOOL_ROOM */
    if (ty_is_signed_int(k) || ty_is_unsigned_int(k))
        return 20; /* TAGC_I64_MAX_CHARS */
    if (ty_is_float(k))
        return 49; /* TAGC_F64_ROOM */
    if (k == TK_TIME)
        return 42; /* TAGC_TIME_ROOM */
    return 0;
}

/* The name tagc.h gives that room. */
static const char *run_room_name(const ast_type *t)
{
    type_kind k = t->kind;
    if (k == TK_BOOL)
        return "TAGC_BOOL_ROOM";
    if (ty_is_float(k))
        return "TAGC_F64_ROOM";
    if (k == TK_TIME)
        return "TAGC_TIME_ROOM";
    return "TAGC_I64_MAX_CHARS";
}

/* Adds the scalar at lv (run_room(t) != 0) to the run. */
static void run_value(gen *g, wrun *r, const ast_type *t, const char *lv)
{
    size_t room = run_room(t);
    type_kind k = t->kind;
    if (r->bound + room > RUN_MAX)
        run_end(g, r);
    run_flush_text(g, r);
    const char *line;
    if (k == TK_BOOL) {
        line = pool_printf(g->pool, "p = tagc_put_bool(p, %s);", lv);
        r->n_bool++;
    } else if (ty_is_signed_int(k)) {
        line = pool_printf(g->pool, "p = tagc_put_i64(p, %s);", lv);
        r->n_int++;
    } else if (ty_is_unsigned_int(k)) {
        line = pool_printf(g->pool, "p = tagc_put_u64(p, %s);", lv);
        r->n_int++;
    } else if (k == TK_FLOAT64) {
        line = pool_printf(g->pool, "p = tagc_put_f64(out, p, %s);", lv);
        r->n_float++;
    } else if (k == TK_FLOAT32) {
        line = pool_printf(g->pool, "p = tagc_put_f32(out, p, %s);", lv);
        r->n_float++;
    } else {
        line = pool_printf(g->pool, "p = tagc_put_time(out, p, &%s, GO_PROFILE);", lv);
        r->n_time++;
    }
    run_line(g, r, line);
    r->bound += room;
    r->values++;
}

static void run_free(wrun *r)
{
    sb_free(&r->text);
    sb_free(&r->body);
    sb_free(&r->bound_text);
}

/* Declares what runs use at the top of the function body that starts at body. */
static void declare_run(gen *g, size_t body, bool blank)
{
    static const char decl[] = "    tagc_run run;\n    uint8_t *p;\n\n";
    size_t len = sizeof decl - (blank ? 1 : 2);
    sb_put(g->out, decl, len); /* make room, then move it to the top */
    memmove(g->out->data + body + len, g->out->data + body, g->out->len - body - len);
    memcpy(g->out->data + body, decl, len);
}

static void gen_struct_write(gen *g, const char *fn, const char *ctype, const ast_type *st,
                             bool exported, const char *go_type)
{
    emit(g, 0, "%svoid %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)",
         exported ? "" : "static ", fn, ctype);
    emit(g, 0, "{");
    /* Until a field that is always written, whether a comma is due is known only at run time. */
    bool need_sep = false;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->json_name)
            continue;
        bool always = !wire_may_omit(g, w, false);
        for (size_t j = 0; j + 1 < w->path_len; j++)
            always &= w->path[j]->type->kind != TK_PTR;
        if (!always)
            need_sep = true;
        if (always)
            break;
    }
    size_t body = g->out->len;
    if (need_sep)
        emit(g, 1, "uint8_t sep = '{'; /* the byte before the next key */");
    /* a recursive type: its writer counts levels (gen_nest.c) */
    bool counts = ty_nest_counts(g, (ast_type *)st);
    const char *type_lit = gen_nest_type_lit(g, go_type);
    if (counts)
        gen_nest_enter(g, 1, "o->max_depth", ty_nest_margin(g, st, false), "v", go_type);
    /* Fields always written go into runs (keys with the values that are
     * scalars); conditional ones are written with checked calls. */
    wrun run;
    run_init(&run, 1);
    strbuf key, key_plain; /* each field's, with and without the HTML escapes */
    sb_init(&key);
    sb_init(&key_plain);
    bool opened = false; /* a field that is always written has been written */
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->json_name)
            continue;
        int ind = 1;
        /* embedded pointers on the way: nil ones hide their fields */
        const char *guard = NULL;
        for (size_t j = 1; j < w->path_len; j++) {
            if (w->path[j - 1]->type->kind != TK_PTR)
                continue;
            const char *p = pool_printf(g->pool, "%s != NULL", wire_lvalue(g, w, j));
            guard = guard ? pool_printf(g->pool, "%s && %s", guard, p) : p;
        }
        const char *lv = wire_lvalue(g, w, w->path_len);
        ast_type *t = w->field->type;
        /* omitempty, omitzero: when the value is written */
        const char *present = wire_present_cond(g, w, lv, false);
        if (present && strcmp(present, "false") == 0)
            continue; /* a zero-length array with omitempty: never written */
        const char *cond = guard;
        if (present)
            cond = cond ? pool_printf(g->pool, "%s && %s", cond, present) : present;
        if (cond) {
            run_end(g, &run);
            emit(g, ind, "if (%s) {", cond);
            ind++;
        }
        /* the key, with its separator */
        size_t len = strlen(w->json_name);
        key.len = key_plain.len = 0;
        json_key_text(&key, w->json_name, len, true);
        json_key_text(&key_plain, w->json_name, len, false);
        bool html_differs = key.len != key_plain.len;
        const char *comment = c_literal(g, w->json_name, strlen(w->json_name));
        bool in_run = !cond && !html_differs && !(need_sep && !opened);
        size_t room = !ty_is_opt(t) && !w->json_string ? run_room(t) : 0;
        if (in_run) {
            if (run.bound + 1 + key.len + room > RUN_MAX)
                run_end(g, &run); /* a key goes in the same run as its value */
            run_text(g, &run, opened ? "," : "{", 1);
            run_text(g, &run, key.data, key.len);
        } else if (!opened) {
            run_end(g, &run);
            emit(g, ind, "tagc_buf_byte(out, %s);", need_sep ? "sep" : "'{'");
            if (need_sep && (cond || i + 1 < st->wire_count))
                emit(g, ind, "sep = ',';");
            if (html_differs)
                emit(g, ind, "tagc_buf_put(out, o->no_html_escape ? %s : %s, %zu); /* %s */",
                     c_literal(g, key_plain.data, key_plain.len), c_literal(g, key.data, key.len),
                     key.len, comment);
            else
                emit(g, ind, "tagc_buf_put(out, %s, %zu);", c_literal(g, key.data, key.len), key.len);
        } else {
            run_end(g, &run);
            if (html_differs) {
                emit(g, ind, "if (o->no_html_escape)");
                emit(g, ind + 1, "tagc_buf_put(out, %s, %zu);", c_literal(g, pool_printf(g->pool, ",%.*s", (int)key_plain.len, key_plain.data), key_plain.len + 1), key_plain.len + 1);
                emit(g, ind, "else");
                emit(g, ind + 1, "tagc_buf_put(out, %s, %zu);", c_literal(g, pool_printf(g->pool, ",%.*s", (int)key.len, key.data), key.len + 1), key.len + 1);
            } else {
                const char *k = pool_printf(g->pool, ",%.*s", (int)key.len, key.data);
                emit(g, ind, "tagc_buf_put(out, %s, %zu);", c_literal(g, k, key.len + 1), key.len + 1);
            }
        }
        if (in_run && room != 0) {
            run_value(g, &run, t, lv);
        } else {
            run_end(g, &run);
            if (ty_is_opt(t) && wire_json_omittable(w)) { /* written when set: never null */
                if (w->json_string)
                    write_quoted(g, ind, t->elem, lv);
                else
                    write_value(g, ind, t->elem, lv);
            } else if (ty_is_opt(t)) {
                const char *has = wire_has_lvalue(g, lv, w->field);
                if (w->json_string) {
                    emit(g, ind, "if (!%s) {", has);
                    emit(g, ind + 1, "tagc_buf_put(out, \"null\", 4);");
                    emit(g, ind, "} else {");
                    write_quoted(g, ind + 1, t->elem, lv);
                    emit(g, ind, "}");
                } else {
                    write_opt(g, ind, t->elem, has, lv);
                }
            } else if (w->json_string) {
                write_quoted(g, ind, t, lv);
            } else {
                write_value(g, ind, t, lv);
            }
            if (counts)
                gen_nest_after(g, ind, ty_is_opt(t) ? t->elem : t,
                               pool_printf(g->pool, "tagc_enc_failed_key(out, v, %s, %s, %zu)", type_lit,
                                           c_literal(g, w->json_name, len), len),
                               NULL);
        }
        if (cond)
            emit(g, ind - 1, "}");
        else
            opened = true;
    }
    const char *um = st->json_unknown ? pool_cat(g->pool, "v->", st->json_unknown->c_name) : NULL;
    if (um) { /* the unknown members kept, after the fields */
        run_end(g, &run);
        const char *sep_now = !opened && need_sep ? "sep" : !opened ? "'{'" : "','";
        emit(g, 1, "%stagc_json_write_members(out, %s.keys, %s.vals, %s.len, %s, tagc_json_esc(o, GO_PROFILE), o->max_depth);",
             opened ? "" : (need_sep ? "sep = " : "uint8_t sep = "), um, um, um, sep_now);
        if (!opened) {
            emit(g, 1, "if (sep == '{') /* nothing was written */");
            emit(g, 2, "tagc_buf_byte(out, '{');");
        }
        emit(g, 1, "tagc_buf_byte(out, '}');");
    } else if (!opened && need_sep) {
        run_end(g, &run);
        emit(g, 1, "if (sep == '{') /* nothing was written */");
        emit(g, 2, "tagc_buf_byte(out, '{');");
        emit(g, 1, "tagc_buf_byte(out, '}');");
    } else if (!opened) {
        run_text(g, &run, "{}", 2);
    } else {
        run_text(g, &run, "}", 1);
    }
    run_end(g, &run);
    if (counts)
        gen_nest_leave(g, 1);
    run_free(&run);
    sb_free(&key);
    sb_free(&key_plain);
    mark_unused(g, body, "v o");
    if (run.used)
        declare_run(g, body, !need_sep);
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_slice_write(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", fn, ctype);
    emit(g, 0, "{");
    size_t body = g->out->len;
    emit(g, 1, "if (v->ptr == NULL) {");
    emit(g, 2, "tagc_buf_put(out, \"null\", 4);");
    emit(g, 2, "return;");
    emit(g, 1, "}");
    bool counts = ty_nest_counts(g, t);
    const char *go_type = ty_go_name(g, t);
    if (counts)
        gen_nest_enter(g, 1, "o->max_depth", 0, "v", go_type);
    emit(g, 1, "tagc_buf_byte(out, '[');");
    emit(g, 1, "for (size_t i = 0; i < v->len; i++) {");
    bool scalars = !ty_is_opt(t->elem) && run_room(t->elem) != 0;
    if (scalars) { /* a run per element */
        wrun run;
        run_init(&run, 2);
                emit(g, 2, "p = tagc_run_open(out, &run, 1 + %s);", run_room_name(t->elem));
        emit(g, 2, "if (i > 0)");
        emit(g, 3, "p = tagc_put_byte(p, ',');");
        run_value(g, &run, t->elem, "v->ptr[i]");
        sb_put(g->out, run.body.data, run.body.len);
        emit(g, 2, "tagc_run_close(out, &run, p);");
        run_free(&run);
    } else {
        emit(g, 2, "if (i > 0)");
        emit(g, 3, "tagc_buf_byte(out, ',');");
        if (ty_is_opt(t->elem))
            write_opt(g, 2, t->elem->elem, "v->ptr[i].has", "v->ptr[i].val");
        else
            write_value(g, 2, t->elem, "v->ptr[i]");
        if (counts)
            gen_nest_after(g, 2, ty_is_opt(t->elem) ? t->elem->elem : t->elem,
                           pool_printf(g->pool, "tagc_enc_failed_index(out, v, %s, i)",
                                       gen_nest_type_lit(g, go_type)),
                           NULL);
    }
    emit(g, 1, "}");
    emit(g, 1, "tagc_buf_byte(out, ']');");
    if (counts)
        gen_nest_leave(g, 1);
    mark_unused(g, body, "o");
    if (scalars)
        declare_run(g, body, true);
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_array_write(gen *g, const char *fn, ast_type *t)
{
    emit(g, 0, "static void %s_write_json(tagc_buf *out, %s, const tagc_json_opts *o)", fn,
         ty_const_decl(g, t, "(*v)"));
    emit(g, 0, "{");
    size_t body = g->out->len;
    size_t room = ty_is_opt(t->elem) ? 0 : run_room(t->elem);
    if (room != 0 && t->array_len > 0 && (unsigned long long)t->array_len <= (RUN_MAX - 2) / (room + 1)) {
        /* a short array of scalars: one run for all of it */
        wrun run;
        run_init(&run, 2);
        emit(g, 1, "p = tagc_run_open(out, &run, %lld * (1 + %s) + 1);", (long long)t->array_len,
             run_room_name(t->elem));
        emit(g, 1, "p = tagc_put_byte(p, '[');");
        if (t->elem->kind == TK_FLOAT64) { /* two at a time (tagc.h) */
            emit(g, 1, "p = tagc_put_f64s(out, p, *v, %lld);", (long long)t->array_len);
        } else {
            emit(g, 1, "for (size_t i = 0; i < %lld; i++) {", (long long)t->array_len);
            emit(g, 2, "if (i > 0)");
            emit(g, 3, "p = tagc_put_byte(p, ',');");
            run_value(g, &run, t->elem, "(*v)[i]");
            sb_put(g->out, run.body.data, run.body.len);
            emit(g, 1, "}");
        }
        emit(g, 1, "p = tagc_put_byte(p, ']');");
        emit(g, 1, "tagc_run_close(out, &run, p);");
        run_free(&run);
        mark_unused(g, body, "o");
        declare_run(g, body, true);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    bool counts = ty_nest_counts(g, t);
    const char *go_type = ty_go_name(g, t);
    if (counts)
        gen_nest_enter(g, 1, "o->max_depth", 0, "v", go_type);
    emit(g, 1, "tagc_buf_byte(out, '[');");
    emit(g, 1, "for (size_t i = 0; i < %lld; i++) {", (long long)t->array_len);
    emit(g, 2, "if (i > 0)");
    emit(g, 3, "tagc_buf_byte(out, ',');");
    if (ty_is_opt(t->elem))
        write_opt(g, 2, t->elem->elem, "(*v)[i].has", "(*v)[i].val");
    else
        write_value(g, 2, t->elem, "(*v)[i]");
    if (counts)
        gen_nest_after(g, 2, ty_is_opt(t->elem) ? t->elem->elem : t->elem,
                       pool_printf(g->pool, "tagc_enc_failed_index(out, v, %s, i)",
                                   gen_nest_type_lit(g, go_type)),
                       NULL);
    emit(g, 1, "}");
    emit(g, 1, "tagc_buf_byte(out, ']');");
    if (counts)
        gen_nest_leave(g, 1);
    mark_unused(g, body, "o");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_ptr_write(gen *g, const char *fn, ast_type *t)
{
    emit(g, 0, "static void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", fn,
         ty_cname(g, t->elem));
    emit(g, 0, "{");
    emit(g, 1, "if (v == NULL)");
    emit(g, 2, "tagc_buf_put(out, \"null\", 4);");
    emit(g, 1, "else");
    emit(g, 2, "%s_write_json(out, v, o);", ty_fn(g, t->elem));
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_opt_write(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", fn, ctype);
    emit(g, 0, "{");
    size_t body = g->out->len;
    write_opt(g, 1, t->elem, "v->has", "v->val");
    mark_unused(g, body, "o");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_map_write(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    ast_type *ku = ty_under(t->key);
    const ast_decl *en = ty_enum(t->key);
    bool f32 = ku->kind == TK_FLOAT32, is_float = ty_is_float(ku->kind);
    emit(g, 0, "static void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "tagc_order ord;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (v->keys == NULL) {");
    emit(g, 2, "tagc_buf_put(out, \"null\", 4);");
    emit(g, 2, "return;");
    emit(g, 1, "}");
    if (en && en->enum_kind == ENUM_STRING)
        emit(g, 1, "tagc_order_names(out, &ord, v->keys, sizeof *v->keys, %s_names, %s_names_len, v->len, !o->unsorted_maps);",
             en->c_name, en->c_name);
    else if (ku->kind == TK_STRING)
        emit(g, 1, "tagc_order_str(out, &ord, v->keys, v->len, !o->unsorted_maps);");
    else if (is_float)
        emit(g, 1, "tagc_order_float(out, &ord, v->keys, %s, v->len, !o->unsorted_maps);", f32 ? "true" : "false");
    else
        emit(g, 1, "tagc_order_int(out, &ord, v->keys, sizeof *v->keys, %s, v->len, !o->unsorted_maps);",
             ty_is_unsigned_int(ku->kind) ? "false" : "true");
    bool counts = ty_nest_counts(g, t);
    const char *type_lit = gen_nest_type_lit(g, ty_go_name(g, t));
    if (counts) {
        emit(g, 1, "if (!tagc_enc_enter(out, o->max_depth, 0, v, %s)) { /* a level that recursion repeats */", type_lit);
        emit(g, 2, "tagc_order_free(&ord);");
        emit(g, 2, "return;");
        emit(g, 1, "}");
    }
    emit(g, 1, "tagc_buf_byte(out, '{');");
    emit(g, 1, "for (size_t k = 0; k < v->len; k++) {");
    emit(g, 2, "size_t i = tagc_order_at(&ord, k);");
    emit(g, 2, "if (k > 0)");
    emit(g, 3, "tagc_buf_byte(out, ',');");
    if (en && en->enum_kind == ENUM_STRING)
        emit(g, 2, "%s_write_json(out, &v->keys[i], o);", en->c_name);
    else if (ku->kind == TK_STRING)
        emit(g, 2, "tagc_json_write_str(out, v->keys[i].ptr, v->keys[i].len, tagc_json_esc(o, GO_PROFILE));");
    else if (is_float)
        emit(g, 2, "tagc_json_write_f%d_key(out, v->keys[i]);", f32 ? 32 : 64);
    else if (ty_is_unsigned_int(ku->kind))
        emit(g, 2, "tagc_json_write_uint_key(out, (uint64_t)v->keys[i]);");
    else
        emit(g, 2, "tagc_json_write_int_key(out, (int64_t)v->keys[i]);");
    emit(g, 2, "tagc_buf_byte(out, ':');");
    if (ty_is_opt(t->elem))
        write_opt(g, 2, t->elem->elem, "v->vals[i].has", "v->vals[i].val");
    else
        write_value(g, 2, t->elem, "v->vals[i]");
    if (counts) {
        const char *check;
        if (ku->kind == TK_STRING && !(en && en->enum_kind == ENUM_STRING))
            check = pool_printf(g->pool, "tagc_enc_failed_key(out, v, %s, v->keys[i].ptr, v->keys[i].len)", type_lit);
        else if (is_float)
            check = pool_printf(g->pool, "tagc_enc_failed_float(out, v, %s, v->keys[i], %s)", type_lit, f32 ? "true" : "false");
        else if (ty_is_unsigned_int(ku->kind))
            check = pool_printf(g->pool, "tagc_enc_failed_uint(out, v, %s, (uint64_t)v->keys[i])", type_lit);
        else
            check = pool_printf(g->pool, "tagc_enc_failed_int(out, v, %s, (int64_t)v->keys[i])", type_lit);
        gen_nest_after(g, 2, ty_is_opt(t->elem) ? t->elem->elem : t->elem, check, "tagc_order_free(&ord);");
    }
    emit(g, 1, "}");
    emit(g, 1, "tagc_buf_byte(out, '}');");
    emit(g, 1, "tagc_order_free(&ord);");
    if (counts)
        gen_nest_leave(g, 1);
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* MARK: - Enums */

static void gen_enum_json(gen *g, const ast_decl *d)
{
    const char *fn = d->c_name;
    if (d->enum_kind == ENUM_STRING) {
        emit(g, 0, "int %s_read_json(tagc_json_dec *d, %s *v)", fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "tagc_str s;");
        emit(g, 1, "const char *at;");
        emit(g, 1, "int rc;");
        emit(g, 0, "%s", "");
        emit(g, 1, "if (tagc_json_null(d))");
        emit(g, 2, "return 0;");
        emit(g, 1, "at = d->p;");
        emit(g, 1, "if ((rc = tagc_json_read_str(d, &s)) != 0)");
        emit(g, 2, "return rc;");
        emit(g, 1, "if (!%s_parse(s.ptr, s.len, v)) {", fn);
        emit(g, 2, "d->p = at;");
        emit(g, 2, "return tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\");", d->name);
        emit(g, 1, "}");
        emit(g, 1, "return 0;");
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        emit(g, 0, "void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "if ((size_t)*v >= %s_names_len) {", fn);
        emit(g, 2, "tagc_buf_fail(out, TAGC_E_INVALID);");
        emit(g, 2, "return;");
        emit(g, 1, "}");
        emit(g, 1, "tagc_json_write_str(out, %s_names[*v].ptr, %s_names[*v].len, tagc_json_esc(o, GO_PROFILE));", fn, fn);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    type_kind k = d->type->kind;
    bool is_u = ty_is_unsigned_int(k);
    const char *xt = is_u ? "uint64_t" : "int64_t";
    emit(g, 0, "int %s_read_json(tagc_json_dec *d, %s *v)", fn, fn);
    emit(g, 0, "{");
    emit(g, 1, "%s x;", xt);
    emit(g, 1, "const char *at;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_json_null(d))");
    emit(g, 2, "return 0;");
    emit(g, 1, "tagc_json_ws(d);");
    emit(g, 1, "at = d->p;");
    if (is_u)
        emit(g, 1, "if ((rc = tagc_json_read_uint(d, &x, %s)) != 0)", ty_int_max(k));
    else
        emit(g, 1, "if ((rc = tagc_json_read_int(d, &x, %s, %s)) != 0)", ty_int_min(k), ty_int_max(k));
    emit(g, 2, "return rc;");
    emit(g, 1, "if (!%s_is_known(x)) {", fn);
    emit(g, 2, "d->p = at;");
    emit(g, 2, "return tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\");", d->name);
    emit(g, 1, "}");
    emit(g, 1, "*v = (%s)x;", fn);
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    emit(g, 0, "void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", fn, fn);
    emit(g, 0, "{");
    size_t body = g->out->len;
    emit(g, 1, "tagc_json_write_%s(out, (%s)*v);", is_u ? "u64" : "i64", is_u ? "uint64_t" : "int64_t");
    mark_unused(g, body, "o");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* MARK: - Per file */

void gen_named_json(gen *g, const ast_decl *d)
{
    if (d->codec) {
        gen_codec_json(g, d);
        return;
    }
    if (decl_is_closed_enum(d)) {
        gen_enum_json(g, d);
        return;
    }
    if (d->type->kind == TK_STRUCT) {
        gen_struct_write(g, d->c_name, d->c_name, d->type, true,
                         pool_printf(g->pool, "%s.%s", d->file->package, d->name));
        gen_struct_read(g, d->c_name, d->c_name, d->type, true);
        return;
    }
    /* a named non-struct type: the code of the type it is defined as */
    emit(g, 0, "void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o)", d->c_name, d->c_name);
    emit(g, 0, "{");
    size_t body = g->out->len;
    if (ty_is_opt(d->type))
        write_opt(g, 1, d->type->elem, "v->has", "v->val");
    else
        write_value(g, 1, d->type, "(*v)");
    mark_unused(g, body, "o");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    emit(g, 0, "int %s_read_json(tagc_json_dec *d, %s *v)", d->c_name, d->c_name);
    emit(g, 0, "{");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    if (ty_is_opt(d->type))
        read_opt(g, 1, d->type->elem, "v->has", "v->val", "return rc;");
    else
        read_value(g, 1, d->type, "(*v)", "return rc;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

void gen_composite_json(gen *g, const gen_type *gt)
{
    ast_type *t = gt->type;
    const char *fn = gt->name;
    switch (t->kind) {
    case TK_STRUCT:
        gen_struct_write(g, fn, fn, t, false, "struct {...}");
        gen_struct_read(g, fn, fn, t, false);
        break;
    case TK_SLICE:
        gen_slice_write(g, fn, fn, t);
        gen_slice_read(g, fn, fn, t);
        break;
    case TK_ARRAY:
        gen_array_write(g, fn, t);
        gen_array_read(g, fn, t);
        break;
    case TK_MAP:
        gen_map_write(g, fn, fn, t);
        gen_map_read(g, fn, fn, t);
        break;
    case TK_PTR:
        if (ty_is_struct(t->elem)) {
            gen_ptr_write(g, fn, t);
            gen_ptr_read(g, fn, t);
        } else {
            gen_opt_write(g, fn, fn, t);
            gen_opt_read(g, fn, fn, t);
        }
        break;
    default:
        break;
    }
}

static void composite_prototypes(gen *g, const gen_type *gt)
{
    ast_type *t = gt->type;
    const char *fn = gt->name;
    if (t->kind == TK_ARRAY) {
        emit(g, 0, "static void %s_write_json(tagc_buf *out, %s, const tagc_json_opts *o);", fn,
             ty_const_decl(g, t, "(*v)"));
        emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s);", fn, ty_decl(g, t, "(*v)"));
    } else if (t->kind == TK_PTR && ty_is_struct(t->elem)) {
        emit(g, 0, "static void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o);", fn,
             ty_cname(g, t->elem));
        emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s **v);", fn, ty_cname(g, t->elem));
    } else {
        emit(g, 0, "static void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o);", fn, fn);
        emit(g, 0, "static int %s_read_json(tagc_json_dec *d, %s *v);", fn, fn);
    }
}

void gen_json_prototypes(gen *g, bool exported)
{
    if (exported) {
        for (ast_decl *d = g->file->decls; d; d = d->next) {
            emit(g, 0, "void %s_write_json(tagc_buf *out, const %s *v, const tagc_json_opts *o);", d->c_name, d->c_name);
            emit(g, 0, "int %s_read_json(tagc_json_dec *d, %s *v);", d->c_name, d->c_name);
        }
        return;
    }
    for (size_t i = 0; i < g->ntypes; i++)
        if (g->types[i].on_wire)
            composite_prototypes(g, &g->types[i]);
    if (g->ntypes)
        emit(g, 0, "%s", "");
}
