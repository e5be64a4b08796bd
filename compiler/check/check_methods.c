/*
 * check_methods.c - the methods that change what encoding/json does with a
 * type: MarshalJSON, UnmarshalJSON, MarshalText, UnmarshalText, and under
 * --go 1.27 MarshalJSONTo, UnmarshalJSONFrom and AppendText (json/v2's, which
 * Go 1.27's encoding/json calls; older releases ignore them).
 *
 * A declared type's method set is its own methods (declared in the files
 * read, value or pointer receiver) and those promoted from its embedded
 * fields, as in Go. Then, as Go does:
 *   - promoted from an embedded time.Time (and nothing of its own): the type
 *     is a time on the wire (`struct{ time.Time }` marshals as a time, its
 *     other fields never on the wire);
 *   - any other: Go calls the method, which tagc cannot translate: the type
 *     becomes a TK_NOWIRE "custom" (an error at the type when a wire field
 *     needs it, check_nowire.c), its type as written kept in json_type;
 *   - `type T time.Time` has no methods at all (a defined type does not
 *     inherit them): it marshals as `{}`, time.Time having no exported
 *     field, and decodes from an object: an empty struct.
 * And IsZero, which Go's omitzero calls (Go 1.24 on): recorded apart
 * (is_zero_method), as it changes no type, only omitzero (check_wire.c).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oom.h"

static unsigned method_bit(const char *name, go_profile go)
{
    if (go == GO_1_27) {
        if (!strcmp(name, "MarshalJSONTo"))
            return JM_MARSHAL_JSON_TO;
        if (!strcmp(name, "UnmarshalJSONFrom"))
            return JM_UNMARSHAL_JSON_FROM;
        if (!strcmp(name, "AppendText"))
            return JM_APPEND_TEXT;
    }
    if (!strcmp(name, "MarshalJSON"))
        return JM_MARSHAL_JSON;
    if (!strcmp(name, "UnmarshalJSON"))
        return JM_UNMARSHAL_JSON;
    if (!strcmp(name, "MarshalText"))
        return JM_MARSHAL_TEXT;
    if (!strcmp(name, "UnmarshalText"))
        return JM_UNMARSHAL_TEXT;
    return 0;
}

enum { TIME_METHODS = JM_MARSHAL_JSON | JM_UNMARSHAL_JSON | JM_MARSHAL_TEXT | JM_UNMARSHAL_TEXT };

typedef struct method_set {
    unsigned own;       /* declared with this type as receiver */
    unsigned promoted;  /* from embedded fields */
    bool from_time;     /* promoted ones come from an embedded time.Time */
} method_set;

static method_set set_of(checker *ck, ast_decl *d, int depth);

/* The methods an embedded field's type brings (Go: T's and *T's both). */
static unsigned embedded_methods(checker *ck, const ast_type *t, bool *time, int depth)
{
    if (t && t->kind == TK_PTR)
        t = t->elem;
    if (!t)
        return 0;
    if (t->kind == TK_TIME) {
        *time = true;
        return TIME_METHODS;
    }
    if (t->kind == TK_NAMED && t->decl && depth < 50) {
        method_set m = set_of(ck, t->decl, depth + 1);
        if (!m.own && m.from_time)
            *time = true;
        return m.own | m.promoted;
    }
    return 0;
}

static method_set set_of(checker *ck, ast_decl *d, int depth)
{
    method_set m = { d->json_methods, 0, false };
    const ast_type *t = d->type;
    if (!t || t->kind != TK_STRUCT)
        return m;
    /* Go promotes a method only from the shallowest depth where exactly
     * one embedded field has it; one level is what real types use */
    unsigned seen_once = 0, seen_twice = 0;
    bool time = true, any = false;
    for (const ast_field *f = t->fields; f; f = f->next) {
        if (!f->embedded)
            continue;
        bool is_time = false;
        unsigned bits = embedded_methods(ck, f->type, &is_time, depth);
        if (!bits)
            continue;
        seen_twice |= seen_once & bits;
        seen_once |= bits;
        time = time && is_time;
        any = true;
    }
    m.promoted = seen_once & ~seen_twice & ~m.own;
    m.from_time = any && time && m.promoted;
    return m;
}

static ast_type *empty_struct(checker *ck, src_loc loc)
{
    return ast_type_new(ck->pool, TK_STRUCT, loc);
}

/* IsZero declared with d as receiver, or promoted from one embedded declared
 * type that has it (Go promotes it from a single embedded field). */
static const ast_method *is_zero_of(ast_decl *d, int depth)
{
    if (d->is_zero_method || depth > 50 || !d->type || d->type->kind != TK_STRUCT)
        return d->is_zero_method;
    const ast_method *found = NULL;
    int n = 0;
    for (const ast_field *f = d->type->fields; f; f = f->next) {
        const ast_type *t = f->type && f->type->kind == TK_PTR ? f->type->elem : f->type;
        if (!f->embedded || !t || t->kind != TK_NAMED || !t->decl)
            continue;
        const ast_method *m = is_zero_of(t->decl, depth + 1);
        if (m) {
            found = m;
            n++;
        }
    }
    return n == 1 ? found : NULL;
}

static void find_is_zero(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++) {
        file_scope *sc = check_scope(ck, ck->scopes[i].file);
        for (const ast_method *m = ck->scopes[i].file->methods; m; m = m->next) {
            ast_decl *d = m->recv && !strcmp(m->name, "IsZero") ? smap_get(&sc->decls, m->recv) : NULL;
            if (d && d->is_alias && d->type && d->type->kind == TK_NAMED)
                d = d->type->decl;
            if (d && !d->is_alias && !d->is_zero_method)
                d->is_zero_method = m;
        }
    }
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            if (!d->is_zero_method)
                d->is_zero_method = is_zero_of(d, 0);
}

void check_methods(checker *ck)
{
    find_is_zero(ck); /* before types change below: from the types as written */
    /* own methods, by receiver type */
    for (size_t i = 0; i < ck->nscopes; i++) {
        file_scope *sc = check_scope(ck, ck->scopes[i].file);
        for (const ast_method *m = ck->scopes[i].file->methods; m; m = m->next) {
            unsigned bit = m->recv ? method_bit(m->name, ck->prog->go) : 0;
            ast_decl *d = bit ? smap_get(&sc->decls, m->recv) : NULL;
            if (d && d->is_alias && d->type && d->type->kind == TK_NAMED)
                d = d->type->decl; /* a method of an alias is its type's */
            if (!d || d->is_alias)
                continue;
            d->json_methods |= bit;
            if (!d->json_method || m->loc.line < d->json_method->loc.line)
                d->json_method = m;
        }
    }
    /* `type T time.Time`: no methods, an empty struct on the wire (Go) */
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            if (d->type && d->type->kind == TK_TIME && !d->json_methods)
                d->type = empty_struct(ck, d->type->loc);
    /* what the method sets make of each type: all computed first, from the
     * types as written and the own methods only, then applied */
    size_t n = 0;
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            n++;
    method_set *sets = calloc(n ? n : 1, sizeof *sets);
    if (!sets)
        tagc_out_of_memory();
    size_t k = 0;
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            sets[k++] = set_of(ck, d, 0);
    k = 0;
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next) {
            method_set m = sets[k++];
            if (!m.own && !m.promoted)
                continue;
            d->json_own = m.own;
            d->json_methods = m.own | m.promoted;
            d->json_type = d->type;
            if (!m.own && m.from_time) {
                ast_type *t = ast_type_new(ck->pool, TK_TIME, d->type->loc);
                t->name = "time.Time";
                d->type = t;
                continue;
            }
            ast_type *t = ast_type_new(ck->pool, TK_NOWIRE, d->loc);
            t->custom = true;
            t->decl = d;
            t->name = "a type with its own encoding/json methods";
            t->why = "Go's encoding/json calls them, and tagc cannot translate a method";
            d->type = t;
        }
    free(sets);
}
