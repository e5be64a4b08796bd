/*
 * check_fields.c - every struct's fields: names (Go and C), tags, embedded
 * fields, the `string` option; every map's key type; names for anonymous
 * structs (<enclosing C name>_<field C name>).
 */
#include <string.h>

#include "check.h"

static void walk_type(checker *ck, ast_type *t, const char *anon_name);

static bool type_is_float(const ast_type *k)
{
    const ast_type *u = type_underlying(k);
    return u && (u->kind == TK_FLOAT32 || u->kind == TK_FLOAT64);
}

/* A map key of a declared type with its own JSON methods is, to Go's
 * encoding/json, its type as written: keys call no MarshalJSON or UnmarshalJSON
 * (only the text methods, which still need a codec). */
static ast_type *key_as_go_reads(ast_type *k)
{
    const ast_decl *d = k && k->kind == TK_NAMED ? k->decl : NULL;
    if (!d || !d->json_type || !d->type || d->type->kind != TK_NOWIRE ||
        (d->json_methods & (JM_MARSHAL_TEXT | JM_UNMARSHAL_TEXT | JM_APPEND_TEXT)))
        return k;
    return d->json_type;
}

/* Go's map keys: strings and integers, and floats from Go 1.27 on. */
static bool key_type_ok(const checker *ck, const ast_type *k)
{
    const ast_type *u = type_underlying(k);
    return u && (u->kind == TK_STRING || type_is_integer(u->kind) || u->kind == TK_DURATION ||
                 (ck->prog->go == GO_1_27 && type_is_float(k)));
}

/* `Base`, `*Base`, `pkg.Base`: a declared type or a pointer to one (Go's rule). */
static void check_embedded(checker *ck, const ast_field *f)
{
    const ast_type *t = f->type;
    bool ptr = t && t->kind == TK_PTR;
    if (ptr)
        t = t->elem;
    if (!t || t->kind == TK_NAME || t->kind == TK_NOWIRE || t->kind == TK_TIME)
        return; /* unresolved: already reported; no wire form: check_nowire.c's;
                 * time.Time: a struct in Go, its methods promoted (check_methods.c) */
    if (t->kind == TK_PTR) {
        check_error(ck, f->loc, "embedded field type cannot be a pointer to a pointer");
        return;
    }
    if (t->kind != TK_NAMED) {
        check_error(ck, f->loc, "embedded field type must be a declared type or a pointer to one, "
                                "not %s", type_text(ck->pool, f->type));
        return;
    }
    const ast_type *u = type_underlying(t);
    if (u && u->kind == TK_PTR)
        check_error(ck, f->loc, "embedded field type cannot be a pointer (%s is %s)",
                    t->decl->name, type_text(ck->pool, u));
}

/* The C struct holds `bool has_x; T x;` for *T when T is not a struct. */
static bool needs_has_member(const ast_type *t)
{
    if (!t || t->kind != TK_PTR)
        return false;
    const ast_type *u = type_underlying(t->elem);
    return u && u->kind != TK_STRUCT;
}

static void claim_member(checker *ck, smap *members, ast_field *f, const char *c_name)
{
    ast_field *prev = smap_put(members, c_name, f);
    if (prev)
        check_error(ck, f->loc, "field \"%s\" needs the C member name \"%s\", already used by "
                                "field \"%s\" at %s",
                    f->name, c_name, prev->name, check_where(ck, prev->loc));
}

static bool is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

static void check_field(checker *ck, ast_field *f, smap *names, smap *members,
                        const char *prefix)
{
    f->exported = go_exported(f->name);
    f->c_name = c_member_name(ck->pool, f->name);
    check_parse_tag(ck, f);
    if (strcmp(f->name, "_") == 0) {
        check_error(ck, f->loc, "blank field \"_\" is not supported (a C member needs a name)");
    } else if (!is_ascii(f->name)) {
        check_error(ck, f->loc, "field name \"%s\" is not ASCII: C names must be", f->name);
    } else {
        ast_field *prev = smap_put(names, f->name, f);
        if (prev) {
            check_error(ck, f->loc, "duplicate field \"%s\" (previous declaration at %s)",
                        f->name, check_where(ck, prev->loc));
        } else {
            claim_member(ck, members, f, f->c_name);
        }
    }
    if (f->embedded)
        check_embedded(ck, f);
    const ast_type *t = f->type;
    bool promoted = f->embedded && !f->tags.json_name;
    bool resolved = t && t->kind != TK_NAME && !(t->kind == TK_PTR && t->elem->kind == TK_NAME);
    if (resolved && f->tags.json_string && !f->tags.json_skip && !promoted &&
        (f->exported || f->embedded) && !type_is_quotable(t))
        check_error(ck, f->tag_loc,
                    "\"string\" option on field \"%s\" of type %s (it applies to strings, "
                    "numbers and booleans)",
                    f->name, type_text(ck->pool, t));
    /* the name of an anonymous struct in the field's type, made only when there is one */
    const ast_type *st = f->type;
    while (st && (st->kind == TK_PTR || st->kind == TK_ARRAY || st->kind == TK_SLICE ||
                  st->kind == TK_MAP))
        st = st->elem; /* as walk_type goes */
    bool anon = st && st->kind == TK_STRUCT;
    walk_type(ck, f->type,
              anon ? c_safe_name(ck->pool, pool_printf(ck->pool, "%s_%s", prefix, f->c_name)) : prefix);
}

static void check_struct(checker *ck, ast_type *st, const char *prefix)
{
    size_t n = 0, ptrs = 0;
    for (const ast_field *f = st->fields; f; f = f->next, n++)
        ptrs += f->type && f->type->kind == TK_PTR;
    smap names, members; /* sized once: only a pointer field may claim a second member name */
    smap_init_for(&names, n);
    smap_init_for(&members, n + ptrs);
    for (ast_field *f = st->fields; f; f = f->next)
        check_field(ck, f, &names, &members, prefix);
    /* then the presence flags, after every field's own name: `HasMerged bool` beside
     * `Merged *time.Time` makes the flag has_merged_ (the field's names are the user's) */
    for (ast_field *f = st->fields; f; f = f->next) {
        if (!needs_has_member(f->type) || !f->c_name)
            continue;
        const char *has = pool_printf(ck->pool, "has_%s", f->c_name);
        while (smap_get(&members, has))
            has = pool_cat(ck->pool, has, "_");
        claim_member(ck, &members, f, has);
        f->has_c_name = has;
    }
    smap_free(&names);
    smap_free(&members);
}

/* Checks t; an anonymous struct found in it is called anon_name. */
static void walk_type(checker *ck, ast_type *t, const char *anon_name)
{
    while (t) {
        switch (t->kind) {
        case TK_STRUCT:
            if (t->c_name)
                return; /* `A, B struct{...}`: one type, named after A */
            t->c_name = anon_name;
            check_claim_c_name(ck, anon_name, t->loc, "anonymous struct");
            check_struct(ck, t, anon_name);
            return;
        case TK_PTR:
            if (t->elem && t->elem->kind == TK_PTR)
                check_error(ck, t->loc, "pointer to pointer %s is not supported",
                            type_text(ck->pool, t));
            t = t->elem;
            break;
        case TK_ARRAY:
        case TK_SLICE:
            t = t->elem;
            break;
        case TK_MAP:
            t->key = key_as_go_reads(t->key);
            if (t->key && t->key->kind != TK_NAME && !key_type_ok(ck, t->key))
                check_error(ck, t->key->loc,
                            "unsupported map key type %s (want a string or integer type%s)",
                            type_text(ck->pool, t->key),
                            type_is_float(t->key) ? ", or a float under --go 1.27: Go 1.26 and older "
                                                    "refuse float keys"
                                                  : "");
            t = t->elem; /* a valid key holds no struct to name */
            break;
        default:
            return;
        }
    }
}

void check_fields(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next) {
            if (d->type && d->type->kind == TK_STRUCT)
                check_struct(ck, d->type, d->c_name);
            else
                walk_type(ck, d->type, pool_printf(ck->pool, "%s_elem", d->c_name));
        }
}
