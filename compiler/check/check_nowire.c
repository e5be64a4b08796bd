/*
 * check_nowire.c - what tagc reads but cannot put on the wire (func and chan
 * types, interfaces with methods, error, complex numbers) stays off it.
 *
 * Go's rule, followed here: such a type is an error only where a field on the
 * wire needs it (Go's encoding/json fails there at run time; tagc fails at
 * compile time, at that field). A field on no wire (unexported, or `json:"-"`)
 * of such a type is left out of the C struct, with a note in the header; a
 * declared type with no wire form is left out of the C output.
 */
#include <string.h>

#include "check.h"

enum { NAMED_CHAIN_MAX = 1000 };

/* The part of t with no wire form (NULL if none), looking through pointers,
 * slices, arrays, maps and named types but not into structs (their fields
 * are checked where they are declared). *via is the first named type passed. */
static const ast_type *find_nowire(const ast_type *t, const ast_decl **via)
{
    for (int i = 0; t && i < NAMED_CHAIN_MAX; i++) {
        switch (t->kind) {
        case TK_NOWIRE:
            return t;
        case TK_NAMED:
            if (via && !*via)
                *via = t->decl;
            t = t->decl ? t->decl->type : NULL;
            break;
        case TK_MAP: {
            const ast_type *k = find_nowire(t->key, via);
            if (k)
                return k;
            t = t->elem;
            break;
        }
        case TK_PTR:
        case TK_SLICE:
        case TK_ARRAY:
            t = t->elem;
            break;
        default:
            return NULL;
        }
    }
    return NULL;
}

static void mark_wire(ast_type *t);

static void mark_struct(ast_type *st)
{
    for (size_t i = 0; i < st->wire_count; i++)
        st->wire[i].field->on_wire = true;
    for (ast_field *f = st->fields; f; f = f->next)
        mark_wire(f->type);
}

/* Marks the wire fields of every struct in t, anonymous ones included. */
static void mark_wire(ast_type *t)
{
    while (t) {
        switch (t->kind) {
        case TK_STRUCT:
            mark_struct(t);
            return;
        case TK_PTR:
        case TK_ARRAY:
        case TK_SLICE:
        case TK_MAP:
            t = t->elem;
            break;
        default:
            return;
        }
    }
}

static void check_struct(checker *ck, ast_type *st);

/* Once per type, at the type: the first wire field that needs it in a note. */
static void report_custom(checker *ck, ast_decl *d, const ast_field *f)
{
    if (d->check_state == 3)
        return;
    d->check_state = 3; /* reported (the other passes are done with it) */
    static const char *const all[] = { "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText",
                                       "MarshalJSONTo", "UnmarshalJSONFrom", "AppendText" };
    const char *names[sizeof all / sizeof *all];
    int n = 0;
    unsigned bits = d->json_own ? d->json_own : d->json_methods;
    for (int i = 0; i < (int)(sizeof all / sizeof *all); i++)
        if (bits & (1u << i))
            names[n++] = all[i];
    char list[160] = "";
    for (int i = 0; i < n; i++) {
        strcat(list, i == 0 ? "" : i == n - 1 ? " and " : ", ");
        strcat(list, names[i]);
    }
    const char *where = d->json_own && d->json_method
                            ? pool_printf(ck->pool, " (declared at %s)", check_where(ck, d->json_method->loc))
                            : ", promoted from an embedded field";
    check_error_note(ck, d->loc, f->loc,
                     pool_printf(ck->pool, "field \"%s\" puts it on the wire", f->name),
                     "type %s has %s%s%s: %s encoding/json calls %s, and tagc cannot "
                     "translate a method; %s needs a C codec of its own (a `//tagc:codec` "
                     "comment before its declaration), or the fields of this type `json:\"-\"`",
                     d->name, d->json_own ? "its own " : "", list, where,
                     (bits & JM_GO_1_27) ? "Go 1.27's" : "Go's",
                     n > 1 ? "them" : "it", d->name);
}

static void check_type(checker *ck, ast_type *t)
{
    while (t) {
        switch (t->kind) {
        case TK_STRUCT:
            check_struct(ck, t);
            return;
        case TK_PTR:
        case TK_ARRAY:
        case TK_SLICE:
        case TK_MAP:
            t = t->elem;
            break;
        default:
            return;
        }
    }
}

/* Errors at wire fields that need what has no wire form; the other fields
 * of such types leave the C struct for its omitted list. */
static void check_struct(checker *ck, ast_type *st)
{
    ast_field **link = &st->fields, **omit_tail = &st->omitted;
    while (*link) {
        ast_field *f = *link;
        const ast_decl *via = NULL;
        const ast_type *nw = find_nowire(f->type, &via);
        if (nw && f->on_wire) {
            const char *shown = type_text(ck->pool, f->type);
            if (nw->custom)
                report_custom(ck, nw->decl, f);
            else if (nw->unread)
                check_error(ck, f->loc, "field \"%s\" is on the wire, but its type %s is %s: %s; "
                                        "or tag the field `json:\"-\"` to leave it out",
                            f->name, shown, nw->name, nw->why);
            else if (via)
                check_error(ck, f->loc,
                            "field \"%s\" is on the wire, but its type %s is %s (type %s declared at %s), "
                            "which has no wire form: %s; tag it `json:\"-\"` to leave it out",
                            f->name, shown, nw->name, via->name, check_where(ck, via->loc),
                            nw->why);
            else
                check_error(ck, f->loc,
                            "field \"%s\" is on the wire, but its type %s is %s, which has no "
                            "wire form: %s; tag it `json:\"-\"` to leave it out",
                            f->name, shown, nw->name, nw->why);
        } else if (nw) {
            f->left_out = via ? pool_printf(ck->pool, "%s %s (%s is %s), on no wire", f->name,
                                            type_text(ck->pool, f->type), via->name, nw->name)
                              : pool_printf(ck->pool, "%s %s (%s), on no wire", f->name,
                                            type_text(ck->pool, f->type), nw->name);
            *link = f->next;
            f->next = NULL;
            *omit_tail = f;
            omit_tail = &f->next;
            continue;
        }
        check_type(ck, f->type);
        link = &f->next;
    }
}

void check_nowire(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            mark_wire(d->type);
    for (size_t i = 0; i < ck->nscopes; i++) {
        ast_file *file = ck->scopes[i].file;
        ast_decl **link = &file->decls, **nowire_tail = &file->nowire_decls;
        while (*link) {
            ast_decl *d = *link;
            if (find_nowire(d->type, NULL)) {
                *link = d->next;
                d->next = NULL;
                *nowire_tail = d;
                nowire_tail = &d->next;
                continue;
            }
            check_type(ck, d->type);
            link = &d->next;
        }
    }
}
