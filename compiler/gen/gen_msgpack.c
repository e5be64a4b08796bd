/*
 * gen_msgpack.c - the MessagePack back end: for every named type an exported
 * <type>_read_msgpack / <type>_write_msgpack pair, and static ones for the
 * composite types (slices, maps, arrays, pointers, anonymous structs) that a
 * field on the MessagePack wire reaches.
 *
 * Structs are maps keyed by each field's msgpack name (wire_field.msgpack_name).
 * They are written as straight-line code: the map head (constant unless some
 * field is conditional), then each key as its constant encoded bytes. Keys and
 * flat values (scalars, strings, times) come in runs: one tagc_mp_room check
 * for the most a run can take, then unchecked puts; no room (an error in out)
 * returns (a fixed buffer near its end is the runtime's business: see
 * tagc_mp_room). They are read with a loop over the
 * map's pairs that first compares the input with the encoded bytes of the key
 * expected next (declared order), then reads the key and looks it up by length
 * and bytes (MessagePack keys match exactly).
 * The `string` JSON option does not apply: numbers stay numbers.
 */
#include <string.h>

#include "gen.h"

/* MARK: - Shapes of types */

static size_t mp_wire_count(const ast_type *st)
{
    size_t n = 0;
    for (size_t i = 0; i < st->wire_count; i++)
        n += st->wire[i].msgpack_name != NULL;
    return n;
}

/*
 * The format of an integer type as vmihailenco/msgpack's default encoder writes
 * it: intN and uintN (time.Duration, rune and byte included) in their own width,
 * *code the format byte and the result its width in bytes; int and uint in
 * their smallest format (0). With --msgpack-compact-ints every one is 0.
 */
static int mp_int_width(const gen *g, ast_type *t, uint8_t *code)
{
    t = ty_under(t);
    *code = 0;
    if (g->opts->msgpack_compact_ints || !t)
        return 0;
    switch (t->kind) {
    case TK_INT8: *code = 0xd0; return 1;
    case TK_INT16: *code = 0xd1; return 2;
    case TK_INT32: *code = 0xd2; return 4;
    case TK_DURATION: *code = 0xd3; return 8;
    case TK_INT64:
        if (t->name && strcmp(t->name, "int") == 0)
            return 0;
        *code = 0xd3;
        return 8;
    case TK_UINT8: *code = 0xcc; return 1;
    case TK_UINT16: *code = 0xcd; return 2;
    case TK_UINT32: *code = 0xce; return 4;
    case TK_UINT64:
        if (t->name && strcmp(t->name, "uint") == 0)
            return 0;
        *code = 0xcf;
        return 8;
    default:
        return 0;
    }
}

/* The MessagePack encoding of a str: its head, then its bytes. */
static void str_bytes(strbuf *sb, const char *s, size_t n)
{
    unsigned char h[5];
    size_t hl;
    if (n < 32) {
        h[0] = (unsigned char)(0xa0 | n);
        hl = 1;
    } else if (n < 256) {
        h[0] = 0xd9;
        h[1] = (unsigned char)n;
        hl = 2;
    } else if (n < 65536) {
        h[0] = 0xda;
        h[1] = (unsigned char)(n >> 8);
        h[2] = (unsigned char)n;
        hl = 3;
    } else {
        h[0] = 0xdb;
        for (int i = 0; i < 4; i++)
            h[1 + i] = (unsigned char)(n >> (24 - 8 * i));
        hl = 5;
    }
    sb_put(sb, (const char *)h, hl);
    sb_put(sb, s, n);
}

/* The head of a map of n pairs. */
static void map_head_bytes(strbuf *sb, size_t n)
{
    unsigned char h[5];
    size_t hl;
    if (n < 16) {
        h[0] = (unsigned char)(0x80 | n);
        hl = 1;
    } else if (n < 65536) {
        h[0] = 0xde;
        h[1] = (unsigned char)(n >> 8);
        h[2] = (unsigned char)n;
        hl = 3;
    } else {
        h[0] = 0xdf;
        for (int i = 0; i < 4; i++)
            h[1 + i] = (unsigned char)(n >> (24 - 8 * i));
        hl = 5;
    }
    sb_put(sb, (const char *)h, hl);
}

/* MARK: - Which composites the MessagePack code calls */

static void mark_used(gen *g, ast_type *t);

static void mark_member(gen *g, ast_type *t)
{
    mark_used(g, ty_is_opt(t) ? t->elem : t);
}

static void mark_used(gen *g, ast_type *t)
{
    if (!ty_is_composite(t))
        return;
    gen_type *gt = ty_find(g, t);
    if (!gt || gt->on_msgpack)
        return;
    gt->on_msgpack = true;
    if (t->kind == TK_STRUCT) {
        for (size_t i = 0; i < t->wire_count; i++)
            if (t->wire[i].msgpack_name)
                mark_member(g, t->wire[i].field->type);
        return;
    }
    if (t->key)
        mark_used(g, t->key);
    if (t->kind == TK_PTR && ty_is_struct(t->elem))
        mark_used(g, t->elem);
    else
        mark_member(g, t->elem);
}

void gen_msgpack_mark(gen *g)
{
    for (ast_decl *d = g->file->decls; d; d = d->next) {
        ast_type *t = d->type;
        if (t->kind != TK_STRUCT) {
            mark_member(g, t);
            continue;
        }
        for (size_t i = 0; i < t->wire_count; i++)
            if (t->wire[i].msgpack_name)
                mark_member(g, t->wire[i].field->type);
    }
}

/* MARK: - Reading */

/* The function that reads a value of type t (called as fn(d, &lvalue)); *keeps:
 * nil leaves the lvalue as it is (the caller tests it), else fn reads nil itself. */
static const char *read_fn(gen *g, ast_type *t, bool *keeps)
{
    type_kind k = t->kind;
    *keeps = ty_null_keeps(k);
    if (ty_is_signed_int(k) || ty_is_unsigned_int(k))
        return ty_int_reader(k, true);
    if (k == TK_BOOL)
        return "tagc_mp_read_bool";
    if (k == TK_FLOAT32)
        return "tagc_mp_read_f32";
    if (k == TK_FLOAT64)
        return "tagc_mp_read_f64";
    if (k == TK_STRING || k == TK_NUMBER) /* json.Number: its text, a str (as vmihailenco) */
        return "tagc_mp_read_str";
    if (k == TK_TIME)
        return "tagc_mp_read_time";
    if (k == TK_RAW)
        return "tagc_mp_read_raw";
    if (k == TK_ANY)
        return "tagc_mp_read_any";
    if (ty_is_bytes(t))
        return "tagc_mp_read_bytes";
    return pool_cat(g->pool, ty_fn(g, t), "_read_msgpack");
}

/* Code that reads a value of type t into the lvalue lv; `fail` is the statement run with rc set. */
static void read_value(gen *g, int ind, ast_type *t, const char *lv, const char *fail)
{
    bool keeps;
    const char *fn = read_fn(g, t, &keeps);
    emit(g, ind, "if (%s(rc = %s(d, &%s)) != 0)", keeps ? "!tagc_mp_nil(d) && " : "", fn, lv);
    emit(g, ind + 1, "%s", fail);
}

/* A pointer to a non-struct: nil clears it, anything else sets it. */
static void read_opt(gen *g, int ind, ast_type *elem, const char *has, const char *val,
                     const char *fail)
{
    bool keeps;
    const char *fn = read_fn(g, elem, &keeps);
    emit(g, ind, "if (tagc_mp_nil(d)) {");
    emit(g, ind + 1, "%s = false;", has);
    emit(g, ind + 1, "memset(&%s, 0, sizeof %s);", val, val);
    emit(g, ind, "} else {");
    emit(g, ind + 1, "%s = true;", has);
    emit(g, ind + 1, "if ((rc = %s(d, &%s)) != 0)", fn, val);
    emit(g, ind + 2, "%s", fail);
    emit(g, ind, "}");
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
    if (ty_is_opt(t))
        read_opt(g, ind, t->elem, wire_has_lvalue(g, lv, w->field), lv, fail);
    else
        read_value(g, ind, t, lv, fail);
}

/* The tables of a struct's keys: <fn>_msgpack_keys, the encoded keys in declared
 * order (the key expected next is compared in place), and <fn>_msgpack_sorted,
 * the field indexes by name for the lookup of any other key. */
static void gen_key_tables(gen *g, const char *fn, const ast_type *st)
{
    const char **names = pool_alloc(g->pool, st->wire_count * sizeof *names);
    size_t n = 0;
    strbuf enc; /* each key's encoding */
    sb_init(&enc);
    emit(g, 0, "/* The keys in declared order, encoded: the key expected next is compared in");
    emit(g, 0, " * place before any lookup. */");
    emit(g, 0, "static const tagc_mp_key %s_msgpack_keys[] = {", fn);
    for (size_t i = 0; i < st->wire_count; i++) {
        const char *name = st->wire[i].msgpack_name;
        if (!name)
            continue;
        names[n++] = name;
        enc.len = 0;
        str_bytes(&enc, name, strlen(name));
        emit(g, 1, "{%s, %zu},", c_literal(g, enc.data, enc.len), enc.len);
    }
    sb_free(&enc);
    emit(g, 1, "{NULL, 0}, /* after the last field */");
    emit(g, 0, "};");
    emit(g, 0, "/* The fields by name (length, then bytes), for tagc_mp_key_find. */");
    gen_name_order(g, pool_printf(g->pool, "%s_msgpack_sorted", fn), names, n);
    emit(g, 0, "%s", "");
}

static void gen_struct_read(gen *g, const char *fn, const char *ctype, const ast_type *st,
                            bool exported)
{
    size_t n = mp_wire_count(st);
    size_t words = n ? (n + 63) / 64 : 1;
    if (n > 0)
        gen_key_tables(g, fn, st);
    emit(g, 0, "%sint %s_read_msgpack(tagc_mp_dec *d, %s *v)", exported ? "" : "static ", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "const char *key;");
    emit(g, 1, "size_t key_len, n;");
    emit(g, 1, "int next = 0; /* the field expected next, in declared order */");
    if (n > 0)
        emit(g, 1, "const tagc_mp_key *keys = %s_msgpack_keys;", fn);
    else /* no key on the wire: v is left as it is (struct{}) */
        emit(g, 1, "(void)v;\n    (void)next;");
    emit(g, 1, "uint64_t seen[%zu] = {0};", words);
    emit(g, 1, "int field;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_mp_nil(d))");
    emit(g, 2, "return 0;");
    emit(g, 1, "if ((rc = tagc_mp_map_begin(d, &n)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "for (size_t i = 0; i < n; i++) {");
    if (n > 0) {
        emit(g, 2, "switch (next) { /* first the key expected next, compared as its encoded bytes */");
        for (size_t i = 0; i < n; i++)
            emit(g, 2, "case %zu: field = tagc_mp_key_at(d, keys, %zu, &key, &key_len); break;", i, i);
        emit(g, 2, "default: field = -1;");
        emit(g, 2, "}");
        emit(g, 2, "if (field < 0) { /* any other key: read, then looked up */");
        emit(g, 3, "if ((rc = tagc_mp_read_key(d, &key, &key_len)) != 0)");
        emit(g, 4, "return rc;");
        emit(g, 3, "field = tagc_mp_key_find(keys, %s_msgpack_sorted, %zu, key, key_len);", fn, n);
        emit(g, 2, "}");
    } else {
        emit(g, 2, "if ((rc = tagc_mp_read_key(d, &key, &key_len)) != 0)");
        emit(g, 3, "return rc;");
        emit(g, 2, "field = -1; /* no fields */");
    }
    emit(g, 2, "if (field >= 0) {");
    emit(g, 3, "uint64_t bit = UINT64_C(1) << (field & 63);");
    emit(g, 3, "if (d->strict && (seen[field >> 6] & bit) != 0)");
    emit(g, 4, "return tagc_json_duplicate_key(d, key, key_len);");
    emit(g, 3, "seen[field >> 6] |= bit;");
    emit(g, 3, "next = field + 1;");
    emit(g, 2, "}");
    emit(g, 2, "switch (field) {");
    size_t idx = 0;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->msgpack_name)
            continue;
        emit(g, 2, "case %zu: /* %s */", idx, c_literal(g, w->msgpack_name, strlen(w->msgpack_name)));
        read_member(g, 3, w, "goto fail;");
        emit(g, 3, "break;");
        idx++;
    }
    emit(g, 2, "default:");
    emit(g, 3, "if (d->strict)");
    emit(g, 4, "return tagc_json_unknown_key(d, key, key_len);");
    emit(g, 3, "if ((rc = tagc_mp_skip(d)) != 0) /* validated, then dropped */");
    emit(g, 4, "goto fail;");
    emit(g, 2, "}");
    emit(g, 1, "}");
    emit(g, 1, "tagc_mp_end(d);");
    /* strict: every field without omitempty must be there */
    uint64_t *required = pool_alloc(g->pool, words * sizeof *required);
    memset(required, 0, words * sizeof *required);
    idx = 0;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->msgpack_name)
            continue;
        if (!wire_msgpack_omittable(w))
            required[idx >> 6] |= UINT64_C(1) << (idx & 63);
        idx++;
    }
    gen_required_check(g, "tagc_mp_missing_field", "keys", required, words);
    emit(g, 1, "return 0;");
    emit(g, 0, "fail: /* rc from the value of key */");
    emit(g, 1, "return tagc_json_fail_key(d, rc, key, key_len);");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* Reads element lv of a slice, array or map. */
static void read_elem(gen *g, int ind, ast_type *elem, const char *lv, const char *fail)
{
    if (ty_is_opt(elem))
        read_opt(g, ind, elem->elem, pool_printf(g->pool, "%s.has", lv),
                 pool_printf(g->pool, "%s.val", lv), fail);
    else
        read_value(g, ind, elem, lv, fail);
}

static void gen_slice_read(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s *v)", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "%s = NULL;", ty_decl(g, t->elem, "*ptr"));
    emit(g, 1, "size_t n;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_mp_nil(d)) {");
    emit(g, 2, "v->ptr = NULL;");
    emit(g, 2, "v->len = 0;");
    emit(g, 2, "return 0;");
    emit(g, 1, "}");
    emit(g, 1, "if ((rc = tagc_mp_arr_begin(d, &n)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "/* n is at most the bytes left: every element takes one at least */");
    emit(g, 1, "if (n > 0 && (n > SIZE_MAX / sizeof *ptr || (ptr = tagc_json_new(d, n * sizeof *ptr)) == NULL))");
    emit(g, 2, "return TAGC_E_NOMEM;");
    emit(g, 1, "for (size_t i = 0; i < n; i++) {");
    read_elem(g, 2, t->elem, "ptr[i]", "return tagc_json_fail_index(d, rc, i);");
    emit(g, 1, "}");
    emit(g, 1, "tagc_mp_end(d);");
    emit(g, 1, "v->ptr = n > 0 ? ptr : TAGC_EMPTY; /* an empty array is empty, not nil */");
    emit(g, 1, "v->len = n;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* [N]byte: a bin, as vmihailenco/msgpack writes it (tinylib/msgp: an array) */
static bool is_byte_array(ast_type *t)
{
    return t->kind == TK_ARRAY && ty_under(t->elem)->kind == TK_UINT8 && !ty_enum(t->elem);
}

static void gen_array_read(gen *g, const char *fn, ast_type *t)
{
    long long len = (long long)t->array_len;
    if (is_byte_array(t)) {
        emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s)", fn, ty_decl(g, t, "(*v)"));
        emit(g, 0, "{");
        emit(g, 1, "if (tagc_mp_nil(d))");
        emit(g, 2, "return 0;");
        emit(g, 1, "return tagc_mp_read_byte_array(d, (uint8_t *)*v, %lld); /* a bin, or an array */", len);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s)", fn, ty_decl(g, t, "(*v)"));
    emit(g, 0, "{");
    emit(g, 1, "size_t n, i;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_mp_nil(d))");
    emit(g, 2, "return 0;");
    emit(g, 1, "if ((rc = tagc_mp_arr_begin(d, &n)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "for (i = 0; i < n; i++) {");
    emit(g, 2, "if (i < %lld) {", len);
    read_elem(g, 3, t->elem, "(*v)[i]", "return tagc_json_fail_index(d, rc, i);");
    emit(g, 2, "} else if ((rc = tagc_mp_skip(d)) != 0) { /* extra ones are read and dropped */");
    emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
    emit(g, 2, "}");
    emit(g, 1, "}");
    emit(g, 1, "tagc_mp_end(d);");
    emit(g, 1, "for (; i < %lld; i++) /* and missing ones are zero */", len);
    emit(g, 2, "memset(&(*v)[i], 0, sizeof (*v)[i]);");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_ptr_read(gen *g, const char *fn, ast_type *t)
{
    const char *elem = ty_cname(g, t->elem);
    emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s **v)", fn, elem);
    emit(g, 0, "{");
    emit(g, 1, "if (tagc_mp_nil(d)) {");
    emit(g, 2, "*v = NULL;");
    emit(g, 2, "return 0;");
    emit(g, 1, "}");
    emit(g, 1, "if (*v == NULL && (*v = tagc_json_new(d, sizeof **v)) == NULL)");
    emit(g, 2, "return TAGC_E_NOMEM;");
    emit(g, 1, "return %s_read_msgpack(d, *v);", ty_fn(g, t->elem));
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_opt_read(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s *v)", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    read_opt(g, 1, t->elem, "v->has", "v->val", "return rc;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* An int enum key must be a value of the enum (as in JSON). */
static void known_key(gen *g, const ast_decl *en)
{
    if (!en)
        return;
    emit(g, 2, "if (!%s_is_known(k)) {", en->c_name);
    emit(g, 3, "d->p = key_at;");
    emit(g, 3, "return tagc_json_fail_index(d, tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\"), i);",
         en->name);
    emit(g, 2, "}");
}

static void gen_map_read(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    ast_type *ku = ty_under(t->key);
    const ast_decl *en = ty_enum(t->key);
    bool str_enum = en && en->enum_kind == ENUM_STRING;
    bool str_key = ku->kind == TK_STRING && !str_enum;
    bool f32 = ku->kind == TK_FLOAT32, is_float = ty_is_float(ku->kind);
    emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s *v)", fn, ctype);
    emit(g, 0, "{");
    emit(g, 1, "%s = NULL;", ty_decl(g, t->key, "*keys"));
    emit(g, 1, "%s = NULL;", ty_decl(g, t->elem, "*vals"));
    emit(g, 1, "size_t n, len = 0;");
    emit(g, 1, "tagc_map_index ix = {0};");
    if (str_key || str_enum) {
        emit(g, 1, "const char *key;");
        emit(g, 1, "size_t key_len;");
    } else {
        emit(g, 1, "char key[%s]; /* the key's text, for error paths */", is_float ? "TAGC_F64_MAX_CHARS" : "TAGC_I64_MAX_CHARS");
    }
    emit(g, 1, "long at;");
    if (is_float)
        emit(g, 1, "long zero = -1; /* the entry of 0 or -0, which Go takes for one key */");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_mp_nil(d)) {");
    emit(g, 2, "v->keys = NULL;");
    emit(g, 2, "v->vals = NULL;");
    emit(g, 2, "v->len = 0;");
    emit(g, 2, "return 0;");
    emit(g, 1, "}");
    emit(g, 1, "if ((rc = tagc_mp_map_begin(d, &n)) != 0)");
    emit(g, 2, "return rc;");
    emit(g, 1, "/* n is at most half the bytes left: every pair takes two at least */");
    emit(g, 1, "if (n > 0 && (n > SIZE_MAX / sizeof *vals ||");
    emit(g, 1, "              (keys = tagc_json_new(d, n * sizeof *keys)) == NULL ||");
    emit(g, 1, "              (vals = tagc_json_new(d, n * sizeof *vals)) == NULL))");
    emit(g, 2, "return TAGC_E_NOMEM;");
    emit(g, 1, "for (size_t i = 0; i < n; i++) {");
    const char *fail;
    if (str_key) {
        emit(g, 2, "if ((rc = tagc_mp_read_str_ref(d, &key, &key_len)) != 0)");
        emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
        emit(g, 2, "at = tagc_map_slot_str(d, &ix, keys, len, key, key_len);");
        fail = "return tagc_json_fail_key(d, rc, key, key_len);";
    } else if (str_enum) {
        emit(g, 2, "%s k;", en->c_name);
        emit(g, 2, "const char *key_at = d->p;");
        emit(g, 2, "if ((rc = tagc_mp_read_str_ref(d, &key, &key_len)) != 0)");
        emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
        emit(g, 2, "if (!%s_parse(key, key_len, &k)) {", en->c_name);
        emit(g, 3, "d->p = key_at;");
        emit(g, 3, "return tagc_json_fail_key(d, tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\"), key, key_len);",
             en->name);
        emit(g, 2, "}");
        emit(g, 2, "at = tagc_map_slot_int(d, &ix, keys, sizeof *keys, true, len, (uint64_t)(int64_t)k);");
        fail = "return tagc_json_fail_key(d, rc, key, key_len);";
    } else if (is_float) { /* Go 1.27's JSON has them; vmihailenco writes a float */
        emit(g, 2, "%s k;", f32 ? "float" : "double");
        emit(g, 2, "if ((rc = tagc_mp_read_f%d(d, &k)) != 0)", f32 ? 32 : 64);
        emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
        emit(g, 2, "if (k != 0)");
        emit(g, 3, "at = tagc_map_slot_int(d, &ix, keys, sizeof *keys, false, len, tagc_f%d_bits(k));", f32 ? 32 : 64);
        emit(g, 2, "else if ((at = zero) < 0) /* 0 and -0: one key, as in Go */");
        emit(g, 3, "at = zero = (long)len;");
        fail = f32 ? "return tagc_json_fail_key(d, rc, key, tagc_fmt_key_f64(key, k, true));"
                   : "return tagc_json_fail_key(d, rc, key, tagc_fmt_key_f64(key, k, false));";
    } else if (ty_is_unsigned_int(ku->kind)) {
        emit(g, 2, "uint64_t k;");
        if (en)
            emit(g, 2, "const char *key_at = d->p;");
        emit(g, 2, "if ((rc = tagc_mp_key_uint(d, &k, %s)) != 0)", ty_int_max(ku->kind));
        emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
        known_key(g, en);
        emit(g, 2, "at = tagc_map_slot_int(d, &ix, keys, sizeof *keys, false, len, k);");
        fail = "return tagc_json_fail_key(d, rc, key, tagc_fmt_u64(key, k));";
    } else {
        emit(g, 2, "int64_t k;");
        if (en)
            emit(g, 2, "const char *key_at = d->p;");
        emit(g, 2, "if ((rc = tagc_mp_key_int(d, &k, %s, %s)) != 0)", ty_int_min(ku->kind), ty_int_max(ku->kind));
        emit(g, 3, "return tagc_json_fail_index(d, rc, i);");
        known_key(g, en);
        emit(g, 2, "at = tagc_map_slot_int(d, &ix, keys, sizeof *keys, true, len, (uint64_t)k);");
        fail = "return tagc_json_fail_key(d, rc, key, tagc_fmt_i64(key, k));";
    }
    emit(g, 2, "if (at < 0)");
    emit(g, 3, "return (int)at;");
    emit(g, 2, "if ((size_t)at == len) { /* a new key */");
    if (str_key) {
        emit(g, 3, "if ((keys[len].ptr = tagc_json_new(d, key_len + 1)) == NULL)");
        emit(g, 4, "return TAGC_E_NOMEM;");
        emit(g, 3, "memcpy(keys[len].ptr, key, key_len);");
        emit(g, 3, "keys[len].len = key_len;");
    } else {
        emit(g, 3, "keys[len] = (%s)k;", ty_cname(g, t->key));
    }
    emit(g, 3, "len++;");
    emit(g, 2, "}");
    emit(g, 2, "/* a repeated key: the last value wins, in the first one's place */");
    emit(g, 2, "memset(&vals[at], 0, sizeof vals[at]);");
    read_elem(g, 2, t->elem, "vals[at]", fail);
    emit(g, 1, "}");
    emit(g, 1, "tagc_mp_end(d);");
    emit(g, 1, "v->keys = len > 0 ? keys : TAGC_EMPTY; /* an empty map is empty, not nil */");
    emit(g, 1, "v->vals = len > 0 ? vals : TAGC_EMPTY;");
    emit(g, 1, "v->len = len;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* MARK: - Writing */

/* Code that writes the value of type t at lvalue lv. */
static void write_value(gen *g, int ind, ast_type *t, const char *lv)
{
    type_kind k = t->kind;
    uint8_t code;
    int width = mp_int_width(g, t, &code);
    if (k == TK_BOOL)
        emit(g, ind, "tagc_mp_write_bool(out, %s);", lv);
    else if (width && (ty_is_signed_int(k) || ty_is_unsigned_int(k)))
        emit(g, ind, "tagc_mp_write_sized(out, 0x%x, (uint64_t)%s, %d);", (unsigned)code, lv, width);
    else if (ty_is_signed_int(k))
        emit(g, ind, "tagc_mp_write_int(out, %s);", lv);
    else if (ty_is_unsigned_int(k))
        emit(g, ind, "tagc_mp_write_uint(out, %s);", lv);
    else if (k == TK_FLOAT64)
        emit(g, ind, "tagc_mp_write_f64(out, %s);", lv);
    else if (k == TK_FLOAT32)
        emit(g, ind, "tagc_mp_write_f32(out, %s);", lv);
    else if (k == TK_STRING || k == TK_NUMBER)
        emit(g, ind, "tagc_mp_write_str(out, %s.ptr, %s.len);", lv, lv);
    else if (k == TK_TIME)
        emit(g, ind, "tagc_mp_write_time(out, &%s);", lv);
    else if (k == TK_RAW)
        emit(g, ind, "tagc_mp_write_raw(out, &%s);", lv);
    else if (k == TK_ANY)
        emit(g, ind, "tagc_mp_write_any%s(out, %s);", g->opts->msgpack_sort_keys ? "_sorted" : "", lv);
    else if (ty_is_bytes(t))
        emit(g, ind, "tagc_mp_write_bytes(out, &%s);", lv);
    else if (k == TK_PTR && ty_is_struct(t->elem))
        emit(g, ind, "%s_write_msgpack(out, %s);", ty_fn(g, t), lv);
    else
        emit(g, ind, "%s_write_msgpack(out, &%s);", ty_fn(g, t), lv);
}

static void write_opt(gen *g, int ind, ast_type *elem, const char *has, const char *val)
{
    emit(g, ind, "if (!%s)", has);
    emit(g, ind + 1, "tagc_mp_write_nil(out);");
    emit(g, ind, "else");
    write_value(g, ind + 1, elem, val);
}

static void write_elem(gen *g, int ind, ast_type *elem, const char *lv)
{
    if (ty_is_opt(elem))
        write_opt(g, ind, elem->elem, pool_printf(g->pool, "%s.has", lv), pool_printf(g->pool, "%s.val", lv));
    else
        write_value(g, ind, elem, lv);
}

static const char *mp_nonempty_cond(gen *g, const wire_field *w, const char *lv);

/*
 * A struct as vmihailenco/msgpack v5.4.1's isEmptyValue has it: empty when it
 * would write no field (each one has omitempty and is empty; struct{} always).
 * NULL: never empty (a field without omitempty, or one promoted through an
 * embedded pointer, whose rules are the writer's own).
 */
static const char *mp_struct_nonempty_cond(gen *g, ast_type *st, const char *lv)
{
    const char *cond = NULL;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!w->msgpack_name)
            continue;
        if (!w->msgpack_omitempty || w->msgpack_omitzero)
            return NULL;
        const char *flv = lv;
        for (size_t j = 0; j < w->path_len; j++) {
            if (j > 0 && w->path[j - 1]->type->kind == TK_PTR)
                return NULL;
            flv = pool_cat(g->pool, flv, ".", w->path[j]->c_name);
        }
        const char *c = mp_nonempty_cond(g, w, flv);
        if (c == NULL)
            return NULL;
        if (strcmp(c, "false") != 0)
            cond = cond ? pool_printf(g->pool, "%s || %s", cond, c) : c;
    }
    return cond ? pool_printf(g->pool, "(%s)", cond) : "false";
}

/*
 * omitempty as vmihailenco/msgpack's isEmptyValue: JSON's rule, and also a zero
 * time.Time (its IsZero), through a *time.Time too, an interface{} that holds
 * false, 0, "" or an empty array or object, and (v5.4.1) a struct that would
 * write no field.
 */
static const char *mp_nonempty_cond(gen *g, const wire_field *w, const char *lv)
{
    ast_type *t = w->field->type;
    if (ty_is_opt(t)) {
        const char *has = wire_has_lvalue(g, lv, w->field);
        if (ty_under(t->elem)->kind == TK_TIME)
            return pool_printf(g->pool, "%s && (%s.sec != 0 || %s.nsec != 0)", has, lv, lv);
        return has;
    }
    switch (ty_under(t)->kind) {
    case TK_TIME:
        return pool_printf(g->pool, "(%s.sec != 0 || %s.nsec != 0)", lv, lv);
    case TK_ANY:
        return pool_printf(g->pool, "!tagc_mp_any_empty(%s)", lv);
    case TK_STRUCT:
        return mp_struct_nonempty_cond(g, ty_under(t), lv);
    default:
        return ty_nonempty_cond(g, t, lv);
    }
}

/*
 * When field w is written: NULL if always, else a C condition. *never: omitted
 * always. A field promoted through embedded pointers is left out when one is
 * NULL, unless the struct writes such fields as nil (msgpack_nil_promoted):
 * then *guard is the condition for its value (else nil is written).
 */
static const char *field_cond(gen *g, const ast_type *st, const wire_field *w, bool *never,
                              const char **guard_out)
{
    const char *guard = NULL;
    *never = false;
    *guard_out = NULL;
    for (size_t j = 1; j < w->path_len; j++) {
        if (w->path[j - 1]->type->kind != TK_PTR)
            continue;
        const char *p = pool_printf(g->pool, "%s != NULL", wire_lvalue(g, w, j));
        guard = guard ? pool_printf(g->pool, "%s && %s", guard, p) : p;
    }
    if (guard && st->msgpack_nil_promoted) {
        *guard_out = guard;
        guard = NULL;
    }
    const char *lv = wire_lvalue(g, w, w->path_len);
    /* omitempty as vmihailenco/msgpack has it (a zero time, an empty interface{}
     * are empty), omitzero as Go 1.24's: when the value is written */
    const char *present = w->msgpack_omitempty && !w->msgpack_omitzero
                              ? mp_nonempty_cond(g, w, lv)
                              : wire_present_cond(g, w, lv, true);
    if (present && strcmp(present, "false") == 0) {
        *never = true; /* a zero-length array with omitempty */
        return NULL;
    }
    if (present)
        return guard ? pool_printf(g->pool, "%s && %s", guard, present) : present;
    return guard;
}

/*
 * Flat values: the ones written without a call that reserves for itself, whose
 * size has a bound known before writing them: a constant (*fixed) plus, for
 * strings, their length (*var, a C expression, or NULL).
 */
static bool flat_bound(gen *g, ast_type *t, const char *lv, size_t *fixed, const char **var)
{
    type_kind k = t->kind;
    *var = NULL;
    if (k == TK_BOOL)
        *fixed = 1;
    else if (ty_is_signed_int(k) || ty_is_unsigned_int(k)) {
        uint8_t code;
        int width = mp_int_width(g, t, &code);
        *fixed = width ? 1 + (size_t)width : 9;
    } else if (k == TK_FLOAT64)
        *fixed = 9;
    else if (k == TK_FLOAT32)
        *fixed = 5;
    else if (k == TK_TIME)
        *fixed = 15;
    else if (k == TK_STRING || k == TK_NUMBER) {
        *fixed = 5;
        *var = pool_printf(g->pool, "%s.len", lv);
    } else
        return false;
    return true;
}

/* A field's value: flat when its type (or, for *T, T) is. */
static bool flat_member(gen *g, ast_type *t, const char *lv, size_t *fixed, const char **var)
{
    if (ty_is_opt(t))
        return flat_bound(g, t->elem, lv, fixed, var); /* and nil takes 1 */
    return flat_bound(g, t, lv, fixed, var);
}

/* The unchecked write of a flat value (see flat_bound). */
static void put_value(gen *g, int ind, ast_type *t, const char *lv)
{
    type_kind k = t->kind;
    uint8_t code;
    int width = mp_int_width(g, t, &code);
    if (k == TK_BOOL)
        emit(g, ind, "p = tagc_mp_put_bool(p, %s);", lv);
    else if (width && (ty_is_signed_int(k) || ty_is_unsigned_int(k)))
        emit(g, ind, "p = tagc_mp_put_sized(p, 0x%x, (uint64_t)%s, %d);", (unsigned)code, lv, width);
    else if (ty_is_signed_int(k))
        emit(g, ind, "p = tagc_mp_put_int(p, %s);", lv);
    else if (ty_is_unsigned_int(k))
        emit(g, ind, "p = tagc_mp_put_uint(p, %s);", lv);
    else if (k == TK_FLOAT64)
        emit(g, ind, "p = tagc_mp_put_f64(p, %s);", lv);
    else if (k == TK_FLOAT32)
        emit(g, ind, "p = tagc_mp_put_f32(p, %s);", lv);
    else if (k == TK_STRING || k == TK_NUMBER)
        emit(g, ind, "p = tagc_mp_put_str(p, %s.ptr, %s.len);", lv, lv);
    else
        emit(g, ind, "p = tagc_mp_put_time(out, p, &%s);", lv);
}

/* has: the flag of a *T field (NULL: T, or a *T written only when set). */
static void put_member(gen *g, int ind, ast_type *t, const char *has, const char *lv)
{
    if (ty_is_opt(t))
        t = t->elem;
    if (!has) {
        put_value(g, ind, t, lv);
        return;
    }
    emit(g, ind, "if (!%s)", has);
    emit(g, ind + 1, "p = tagc_mp_put_nil(p);");
    emit(g, ind, "else");
    put_value(g, ind + 1, t, lv);
}

/* The checked write of a field's value (has: as for put_member). */
static void write_member(gen *g, int ind, ast_type *t, const char *has, const char *lv)
{
    if (ty_is_opt(t) && has)
        write_opt(g, ind, t->elem, has, lv);
    else
        write_value(g, ind, ty_is_opt(t) ? t->elem : t, lv);
}

/* One field of a struct as the writer sees it. */
typedef struct mp_field {
    const wire_field *w;
    const char *cond;  /* NULL: always written */
    const char *key;   /* its key's bytes as a C literal (the map head before the first) */
    size_t key_len;
    const char *comment; /* after the key's write: "" when the literal says it all */
    const char *lv, *has;
    const char *guard; /* NULL, or when the value is written (else nil: see field_cond) */
    bool flat;         /* the value goes in the run (else it is a call after it) */
    size_t fixed;      /* bound of key and value (flat) or key alone */
    const char *var;
} mp_field;

/* The checked write of a field's value; nil behind a NULL embedded pointer. */
static void write_guarded(gen *g, int ind, const mp_field *f)
{
    ast_type *t = f->w->field->type;
    if (!f->guard) {
        write_member(g, ind, t, f->has, f->lv);
        return;
    }
    emit(g, ind, "if (!(%s)) {", f->guard);
    emit(g, ind + 1, "tagc_mp_write_nil(out); /* behind a NULL embedded pointer */");
    emit(g, ind, "} else {");
    write_member(g, ind + 1, t, f->has, f->lv);
    emit(g, ind, "}");
}

/*
 * A run of fields: their keys and flat values written after one room check,
 * unchecked. When there is no room (an error recorded in out) the writer
 * returns: everything after it would write nothing. A run without values is
 * the key of the call after it, a checked write.
 */
static void emit_run(gen *g, const mp_field *f, size_t n, bool *told)
{
    if (n == 0)
        return;
    bool any_value = false;
    size_t fixed = 0;
    const char *var = NULL;
    for (size_t i = 0; i < n; i++) {
        any_value |= f[i].flat;
        fixed += f[i].fixed;
        if (f[i].var)
            var = var ? pool_printf(g->pool, "%s + %s", var, f[i].var) : f[i].var;
    }
    if (!any_value) {
        for (size_t i = 0; i < n; i++) /* one key: the run ends with the field after it */
            emit(g, 1, "tagc_buf_put(out, %s, %zu);%s", f[i].key, f[i].key_len, f[i].comment);
        return;
    }
    /* the comments once a function */
    emit(g, 1, "p = tagc_mp_room(out, %zu, %s);%s", fixed, var ? var : "0",
         *told ? "" : " /* room for the most these fields take */");
    emit(g, 1, "if (p == NULL)");
    emit(g, 2, "return;%s", *told ? "" : " /* out holds an error */");
    for (size_t i = 0; i < n; i++) {
        int in = 1;
        if (f[i].cond) {
            emit(g, in, "if (%s) {", f[i].cond);
            in++;
        }
        emit(g, in, "p = tagc_mp_put(p, %s, %zu);%s", f[i].key, f[i].key_len, f[i].comment);
        if (f[i].flat && f[i].guard) {
            emit(g, in, "if (!(%s)) {", f[i].guard);
            emit(g, in + 1, "p = tagc_mp_put_nil(p); /* behind a NULL embedded pointer */");
            emit(g, in, "} else {");
            put_member(g, in + 1, f[i].w->field->type, f[i].has, f[i].lv);
            emit(g, in, "}");
        } else if (f[i].flat) {
            put_member(g, in, f[i].w->field->type, f[i].has, f[i].lv);
        }
        if (f[i].cond)
            emit(g, 1, "}");
    }
    emit(g, 1, "tagc_mp_done(out, p);");
    *told = true;
}

static void gen_struct_write(gen *g, const char *fn, const char *ctype, const ast_type *st,
                             bool exported, const char *go_type)
{
    /* a struct that writes no field: omitempty leaves it out everywhere it may be */
    const char *nonempty = exported ? NULL : mp_struct_nonempty_cond(g, (ast_type *)st, "(*v)");
    bool maybe_unused = nonempty && strcmp(nonempty, "false") == 0;
    emit(g, 0, "%svoid %s_write_msgpack(tagc_buf *out, const %s *v)",
         exported ? "" : maybe_unused ? "TAGC_MAYBE_UNUSED static " : "static ", fn, ctype);
    emit(g, 0, "{");
    size_t body = g->out->len;
    /* the fields written, in order */
    mp_field *fs = pool_alloc(g->pool, (st->wire_count + 1) * sizeof *fs);
    size_t nf = 0, always = 0, conditional = 0;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        bool never;
        if (!w->msgpack_name)
            continue;
        const char *guard;
        const char *cond = field_cond(g, st, w, &never, &guard);
        if (never)
            continue;
        mp_field *f = &fs[nf++];
        memset(f, 0, sizeof *f);
        f->w = w;
        f->cond = cond;
        f->guard = guard;
        f->lv = wire_lvalue(g, w, w->path_len);
        if (ty_is_opt(w->field->type) && !wire_msgpack_omittable(w)) /* else cond has it */
            f->has = wire_has_lvalue(g, f->lv, w->field);
        if (cond)
            conditional++;
        else
            always++;
    }
    bool head_const = conditional == 0 && nf > 0;
    for (size_t i = 0; i < nf; i++) {
        mp_field *f = &fs[i];
        const char *name = f->w->msgpack_name;
        size_t len = strlen(name);
        strbuf key;
        sb_init(&key);
        if (i == 0 && head_const)
            map_head_bytes(&key, always);
        str_bytes(&key, name, len);
        f->key = c_literal(g, key.data, key.len);
        f->key_len = key.len;
        if (i == 0 && head_const)
            f->comment = pool_printf(g->pool, " /* map of %zu, %s */", always, c_literal(g, name, len));
        else if (!name_is_plain(name))
            f->comment = pool_printf(g->pool, " /* %s */", c_literal(g, name, len));
        else
            f->comment = "";
        sb_free(&key);
        size_t vfixed = 0;
        f->flat = flat_member(g, f->w->field->type, f->lv, &vfixed, &f->var);
        /* var counts the strings written (a fixed buffer's room is checked against it):
         * not the one of an omitted field, one behind a NULL pointer or a nil *string */
        const char *when = f->cond;
        if (f->guard)
            when = when ? pool_printf(g->pool, "(%s) && %s", when, f->guard) : f->guard;
        if (f->has)
            when = when ? pool_printf(g->pool, "(%s) && %s", when, f->has) : f->has;
        if (f->var && when && strcmp(when, pool_printf(g->pool, "%s != 0", f->var)) != 0)
            f->var = pool_printf(g->pool, "(%s ? %s : 0)", when, f->var);
        f->fixed = f->key_len + (f->flat ? vfixed : 0);
    }
    bool any_flat = false;
    for (size_t i = 0; i < nf; i++)
        any_flat |= fs[i].flat;
    if (any_flat)
        emit(g, 1, "uint8_t *p;");
    /* a recursive type: its writer counts levels (gen_nest.c) */
    bool counts = nf > 0 && ty_nest_counts(g, (ast_type *)st);
    const char *type_lit = gen_nest_type_lit(g, go_type);
    if (conditional) {
        emit(g, 1, "size_t n = %zu; /* the fields always written, then the others present */", always);
        for (size_t i = 0; i < nf; i++) {
            if (fs[i].cond) {
                emit(g, 1, "n += %s;", fs[i].cond);
            }
        }
        emit(g, 0, "%s", "");
        if (counts)
            gen_nest_enter(g, 1, "out->max_depth", ty_nest_margin(g, st, true), "v", go_type);
        emit(g, 1, "tagc_mp_write_map(out, n);");
    } else if (nf == 0) {
        emit(g, 1, "tagc_buf_byte(out, 0x80); /* an empty map */");
    } else {
        if (any_flat)
            emit(g, 0, "%s", "");
        if (counts)
            gen_nest_enter(g, 1, "out->max_depth", ty_nest_margin(g, st, true), "v", go_type);
    }
    /* runs: flat fields, and the key of a non-flat one that is always written */
    bool told = false; /* a run's comments were written */
    size_t start = 0;
    for (size_t i = 0; i < nf; i++) {
        mp_field *f = &fs[i];
        if (f->flat)
            continue;
        ast_type *t = f->w->field->type;
        const char *check = NULL; /* a recursive type's early return */
        if (counts) {
            const char *name = f->w->msgpack_name;
            check = pool_printf(g->pool, "tagc_enc_failed_key(out, v, %s, %s, %zu)", type_lit,
                                c_literal(g, name, strlen(name)), strlen(name));
        }
        if (!f->cond) {
            emit_run(g, fs + start, i + 1 - start, &told);
            write_guarded(g, 1, f);
            if (counts)
                gen_nest_after(g, 1, ty_is_opt(t) ? t->elem : t, check, NULL);
        } else {
            emit_run(g, fs + start, i - start, &told);
            emit(g, 1, "if (%s) {", f->cond);
            emit(g, 2, "tagc_buf_put(out, %s, %zu);%s", f->key, f->key_len, f->comment);
            write_guarded(g, 2, f);
            if (counts)
                gen_nest_after(g, 2, ty_is_opt(t) ? t->elem : t, check, NULL);
            emit(g, 1, "}");
        }
        start = i + 1;
    }
    emit_run(g, fs + start, nf - start, &told);
    if (counts)
        gen_nest_leave(g, 1);
    mark_unused(g, body, "v");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_slice_write(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    size_t each;
    const char *var;
    const char *elv = "v->ptr[i]";
    bool opt = ty_is_opt(t->elem);
    bool flat = flat_member(g, t->elem, opt ? "v->ptr[i].val" : elv, &each, &var);
    emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, const %s *v)", fn, ctype);
    emit(g, 0, "{");
    if (flat) {
        if (var)
            emit(g, 1, "size_t var = 0; /* the bytes of the strings */");
        emit(g, 1, "uint8_t *p;");
        emit(g, 0, "%s", "");
    }
    emit(g, 1, "if (v->ptr == NULL) {");
    emit(g, 2, "tagc_mp_write_nil(out);");
    emit(g, 2, "return;");
    emit(g, 1, "}");
    if (!flat) {
        bool counts = ty_nest_counts(g, t);
        const char *go_type = ty_go_name(g, t);
        if (counts)
            gen_nest_enter(g, 1, "out->max_depth", 0, "v", go_type);
        emit(g, 1, "tagc_mp_write_array(out, v->len);");
        emit(g, 1, "for (size_t i = 0; i < v->len; i++) {");
        write_elem(g, 2, t->elem, elv);
        if (counts)
            gen_nest_after(g, 2, opt ? t->elem->elem : t->elem,
                           pool_printf(g->pool, "tagc_enc_failed_index(out, v, %s, i)",
                                       gen_nest_type_lit(g, go_type)),
                           NULL);
        emit(g, 1, "}");
        if (counts)
            gen_nest_leave(g, 1);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    if (var) {
        emit(g, 1, "for (size_t i = 0; i < v->len && var <= UINT32_MAX; i++)");
        if (opt) /* a nil *string writes no bytes */
            emit(g, 2, "var += v->ptr[i].has ? %s : 0;", var);
        else
            emit(g, 2, "var += %s;", var);
    }
    emit(g, 1, "p = tagc_mp_room_n(out, 5, %zu, v->len, %s); /* room for the most the elements take */",
         each, var ? "var" : "0");
    emit(g, 1, "if (p == NULL)");
    emit(g, 2, "return; /* out holds an error */");
    emit(g, 1, "p = tagc_mp_put_array(p, v->len);");
    emit(g, 1, "for (size_t i = 0; i < v->len; i++) {");
    if (opt)
        put_member(g, 2, t->elem, "v->ptr[i].has", "v->ptr[i].val");
    else
        put_value(g, 2, t->elem, elv);
    emit(g, 1, "}");
    emit(g, 1, "tagc_mp_done(out, p);");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_array_write(gen *g, const char *fn, ast_type *t)
{
    emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, %s)", fn, ty_const_decl(g, t, "(*v)"));
    emit(g, 0, "{");
    if (is_byte_array(t)) {
        emit(g, 1, "tagc_mp_write_bin(out, (const uint8_t *)*v, %lld); /* as vmihailenco/msgpack */",
             (long long)t->array_len);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    bool counts = ty_nest_counts(g, t);
    const char *go_type = ty_go_name(g, t);
    if (counts)
        gen_nest_enter(g, 1, "out->max_depth", 0, "v", go_type);
    emit(g, 1, "tagc_mp_write_array(out, %lld);", (long long)t->array_len);
    emit(g, 1, "for (size_t i = 0; i < %lld; i++) {", (long long)t->array_len);
    write_elem(g, 2, t->elem, "(*v)[i]");
    if (counts)
        gen_nest_after(g, 2, ty_is_opt(t->elem) ? t->elem->elem : t->elem,
                       pool_printf(g->pool, "tagc_enc_failed_index(out, v, %s, i)",
                                   gen_nest_type_lit(g, go_type)),
                       NULL);
    emit(g, 1, "}");
    if (counts)
        gen_nest_leave(g, 1);
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_ptr_write(gen *g, const char *fn, ast_type *t)
{
    emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, const %s *v)", fn, ty_cname(g, t->elem));
    emit(g, 0, "{");
    emit(g, 1, "if (v == NULL)");
    emit(g, 2, "tagc_mp_write_nil(out);");
    emit(g, 1, "else");
    emit(g, 2, "%s_write_msgpack(out, v);", ty_fn(g, t->elem));
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_opt_write(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, const %s *v)", fn, ctype);
    emit(g, 0, "{");
    write_opt(g, 1, t->elem, "v->has", "v->val");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

static void gen_map_write(gen *g, const char *fn, const char *ctype, ast_type *t)
{
    ast_type *ku = ty_under(t->key);
    const ast_decl *en = ty_enum(t->key);
    uint8_t key_code;
    int key_width = mp_int_width(g, t->key, &key_code);
    /* integer keys are integers, as vmihailenco/msgpack writes them */
    bool str_enum = en && en->enum_kind == ENUM_STRING;
    bool is_float = ty_is_float(ku->kind);
    /* --msgpack-sort-keys: string and integer keys sorted (string enums and floats:
     * stored order, as vmihailenco's SetSortMapKeys leaves them) */
    bool sorted = g->opts->msgpack_sort_keys && !str_enum && !is_float;
    if (sorted)
        emit(g, 0, "/* Entries with their keys sorted (--msgpack-sort-keys). */");
    else
        emit(g, 0, "/* Entries in stored order (Go's msgp writes Go's random map order). */");
    emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, const %s *v)", fn, ctype);
    emit(g, 0, "{");
    if (sorted)
        emit(g, 1, "size_t *order;");
    emit(g, 1, "if (v->keys == NULL) {");
    emit(g, 2, "tagc_mp_write_nil(out);");
    emit(g, 2, "return;");
    emit(g, 1, "}");
    bool counts = ty_nest_counts(g, t);
    const char *type_lit = gen_nest_type_lit(g, ty_go_name(g, t));
    if (counts)
        gen_nest_enter(g, 1, "out->max_depth", 0, "v", ty_go_name(g, t));
    if (sorted && ku->kind == TK_STRING)
        emit(g, 1, "order = tagc_mp_order_str(out, v->keys, v->len);");
    else if (sorted)
        emit(g, 1, "order = tagc_mp_order_int(out, v->keys, sizeof *v->keys, %s, v->len);",
             ty_is_unsigned_int(ku->kind) ? "false" : "true");
    emit(g, 1, "tagc_mp_write_map(out, v->len);");
    if (sorted) {
        emit(g, 1, "for (size_t n = 0; n < v->len; n++) {");
        emit(g, 2, "size_t i = order ? order[n] : n;");
    } else {
        emit(g, 1, "for (size_t i = 0; i < v->len; i++) {");
    }
    if (str_enum)
        emit(g, 2, "%s_write_msgpack(out, &v->keys[i]);", en->c_name);
    else if (ku->kind == TK_STRING)
        emit(g, 2, "tagc_mp_write_str(out, v->keys[i].ptr, v->keys[i].len);");
    else if (is_float)
        emit(g, 2, "tagc_mp_write_f%d(out, v->keys[i]);", ku->kind == TK_FLOAT32 ? 32 : 64);
    else if (key_width)
        emit(g, 2, "tagc_mp_write_sized(out, 0x%x, (uint64_t)v->keys[i], %d);", (unsigned)key_code,
             key_width);
    else if (ty_is_unsigned_int(ku->kind))
        emit(g, 2, "tagc_mp_write_uint(out, (uint64_t)v->keys[i]);");
    else
        emit(g, 2, "tagc_mp_write_int(out, (int64_t)v->keys[i]);");
    write_elem(g, 2, t->elem, "v->vals[i]");
    if (counts) {
        const char *check;
        if (ku->kind == TK_STRING && !(en && en->enum_kind == ENUM_STRING))
            check = pool_printf(g->pool, "tagc_enc_failed_key(out, v, %s, v->keys[i].ptr, v->keys[i].len)", type_lit);
        else if (is_float)
            check = pool_printf(g->pool, "tagc_enc_failed_float(out, v, %s, v->keys[i], %s)", type_lit,
                                ku->kind == TK_FLOAT32 ? "true" : "false");
        else if (ty_is_unsigned_int(ku->kind))
            check = pool_printf(g->pool, "tagc_enc_failed_uint(out, v, %s, (uint64_t)v->keys[i])", type_lit);
        else
            check = pool_printf(g->pool, "tagc_enc_failed_int(out, v, %s, (int64_t)v->keys[i])", type_lit);
        gen_nest_after(g, 2, ty_is_opt(t->elem) ? t->elem->elem : t->elem, check,
                       sorted ? "tagc_mp_order_free(order);" : NULL);
    }
    emit(g, 1, "}");
    if (counts)
        gen_nest_leave(g, 1);
    if (sorted)
        emit(g, 1, "tagc_mp_order_free(order);");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* MARK: - Enums */

static void gen_enum_msgpack(gen *g, const ast_decl *d)
{
    const char *fn = d->c_name;
    if (d->enum_kind == ENUM_STRING) {
        emit(g, 0, "int %s_read_msgpack(tagc_mp_dec *d, %s *v)", fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "const char *s;");
        emit(g, 1, "size_t n;");
        emit(g, 1, "const char *at;");
        emit(g, 1, "int rc;");
        emit(g, 0, "%s", "");
        emit(g, 1, "if (tagc_mp_nil(d))");
        emit(g, 2, "return 0;");
        emit(g, 1, "at = d->p;");
        emit(g, 1, "if ((rc = tagc_mp_read_str_ref(d, &s, &n)) != 0)");
        emit(g, 2, "return rc;");
        emit(g, 1, "if (!%s_parse(s, n, v)) {", fn);
        emit(g, 2, "d->p = at;");
        emit(g, 2, "return tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\");", d->name);
        emit(g, 1, "}");
        emit(g, 1, "return 0;");
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        emit(g, 0, "void %s_write_msgpack(tagc_buf *out, const %s *v)", fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "if ((size_t)*v >= %s_names_len) {", fn);
        emit(g, 2, "tagc_buf_fail(out, TAGC_E_INVALID);");
        emit(g, 2, "return;");
        emit(g, 1, "}");
        emit(g, 1, "tagc_mp_write_str(out, %s_names[*v].ptr, %s_names[*v].len);", fn, fn);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        return;
    }
    type_kind k = d->type->kind;
    bool is_u = ty_is_unsigned_int(k);
    emit(g, 0, "int %s_read_msgpack(tagc_mp_dec *d, %s *v)", fn, fn);
    emit(g, 0, "{");
    emit(g, 1, "%s x;", is_u ? "uint64_t" : "int64_t");
    emit(g, 1, "const char *at;");
    emit(g, 1, "int rc;");
    emit(g, 0, "%s", "");
    emit(g, 1, "if (tagc_mp_nil(d))");
    emit(g, 2, "return 0;");
    emit(g, 1, "at = d->p;");
    if (is_u)
        emit(g, 1, "if ((rc = tagc_mp_read_uint(d, &x, %s)) != 0)", ty_int_max(k));
    else
        emit(g, 1, "if ((rc = tagc_mp_read_int(d, &x, %s, %s)) != 0)", ty_int_min(k), ty_int_max(k));
    emit(g, 2, "return rc;");
    emit(g, 1, "if (!%s_is_known(x)) {", fn);
    emit(g, 2, "d->p = at;");
    emit(g, 2, "return tagc_json_fail(d, TAGC_E_ENUM, \"unknown %s value\");", d->name);
    emit(g, 1, "}");
    emit(g, 1, "*v = (%s)x;", fn);
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    uint8_t code;
    int width = mp_int_width(g, d->type, &code);
    emit(g, 0, "void %s_write_msgpack(tagc_buf *out, const %s *v)", fn, fn);
    emit(g, 0, "{");
    if (width)
        emit(g, 1, "tagc_mp_write_sized(out, 0x%x, (uint64_t)*v, %d);", (unsigned)code, width);
    else
        emit(g, 1, "tagc_mp_write_%s(out, (%s)*v);", is_u ? "uint" : "int", is_u ? "uint64_t" : "int64_t");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* MARK: - Per file */

void gen_named_msgpack(gen *g, const ast_decl *d)
{
    if (d->codec) {
        gen_codec_msgpack(g, d);
        return;
    }
    if (decl_is_closed_enum(d)) {
        gen_enum_msgpack(g, d);
        return;
    }
    if (d->type->kind == TK_STRUCT) {
        gen_struct_write(g, d->c_name, d->c_name, d->type, true,
                         pool_printf(g->pool, "%s.%s", d->file->package, d->name));
        gen_struct_read(g, d->c_name, d->c_name, d->type, true);
        return;
    }
    /* a named non-struct type: the code of the type it is defined as */
    emit(g, 0, "void %s_write_msgpack(tagc_buf *out, const %s *v)", d->c_name, d->c_name);
    emit(g, 0, "{");
    if (ty_is_opt(d->type))
        write_opt(g, 1, d->type->elem, "v->has", "v->val");
    else
        write_value(g, 1, d->type, "(*v)");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    emit(g, 0, "int %s_read_msgpack(tagc_mp_dec *d, %s *v)", d->c_name, d->c_name);
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

void gen_composite_msgpack(gen *g, const gen_type *gt)
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
        emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, %s);", fn, ty_const_decl(g, t, "(*v)"));
        emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s);", fn, ty_decl(g, t, "(*v)"));
    } else if (t->kind == TK_PTR && ty_is_struct(t->elem)) {
        emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, const %s *v);", fn, ty_cname(g, t->elem));
        emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s **v);", fn, ty_cname(g, t->elem));
    } else {
        emit(g, 0, "static void %s_write_msgpack(tagc_buf *out, const %s *v);", fn, fn);
        emit(g, 0, "static int %s_read_msgpack(tagc_mp_dec *d, %s *v);", fn, fn);
    }
}

void gen_msgpack_prototypes(gen *g, bool exported)
{
    if (exported) {
        for (ast_decl *d = g->file->decls; d; d = d->next) {
            emit(g, 0, "void %s_write_msgpack(tagc_buf *out, const %s *v);", d->c_name, d->c_name);
            emit(g, 0, "int %s_read_msgpack(tagc_mp_dec *d, %s *v);", d->c_name, d->c_name);
        }
        return;
    }
    gen_msgpack_mark(g);
    bool any = false;
    for (size_t i = 0; i < g->ntypes; i++) {
        if (g->types[i].on_msgpack) {
            composite_prototypes(g, &g->types[i]);
            any = true;
        }
    }
    if (any)
        emit(g, 0, "%s", "");
}
