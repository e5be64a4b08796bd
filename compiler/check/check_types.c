/*
 * check_types.c - small questions about resolved types, asked by the passes.
 */
#include <string.h>

#include "check.h"

enum { NAMED_CHAIN_MAX = 1000 }; /* longer chains are cycles (reported apart) */

const ast_type *type_underlying(const ast_type *t)
{
    for (int i = 0; t && t->kind == TK_NAMED; i++) {
        if (i == NAMED_CHAIN_MAX || !t->decl)
            return NULL;
        t = t->decl->type;
    }
    return t;
}

bool type_is_integer(type_kind k)
{
    return k >= TK_INT8 && k <= TK_UINT64;
}

bool type_is_quotable(const ast_type *t)
{
    if (t && t->kind == TK_PTR) /* Go looks through one unnamed pointer */
        t = t->elem;
    t = type_underlying(t);
    if (!t)
        return false;
    return (t->kind >= TK_BOOL && t->kind <= TK_STRING) || t->kind == TK_DURATION ||
           t->kind == TK_NUMBER; /* a string kind in Go */
}

bool go_exported(const char *name)
{
    return name && name[0] >= 'A' && name[0] <= 'Z';
}

static void put_type(struct pool *p, char **out, const ast_type *t, int depth)
{
    const char *s;
    if (!t) {
        *out = pool_printf(p, "%s?", *out);
        return;
    }
    if (depth > 50) { /* deep enough for a message */
        *out = pool_printf(p, "%s...", *out);
        return;
    }
    switch (t->kind) {
    case TK_NAME:
        if (t->qualifier)
            *out = pool_printf(p, "%s%s.%s", *out, t->qualifier, t->name);
        else
            *out = pool_printf(p, "%s%s", *out, t->name);
        return;
    case TK_NAMED:
        if (t->qualifier)
            *out = pool_printf(p, "%s%s.%s", *out, t->qualifier, t->decl->name);
        else
            *out = pool_printf(p, "%s%s", *out, t->decl->name);
        return;
    case TK_SLICE:
        *out = pool_printf(p, "%s[]", *out);
        put_type(p, out, t->elem, depth + 1);
        return;
    case TK_ARRAY:
        *out = pool_printf(p, "%s[%s]", *out, t->array_len_text ? t->array_len_text : "?");
        put_type(p, out, t->elem, depth + 1);
        return;
    case TK_PTR:
        *out = pool_printf(p, "%s*", *out);
        put_type(p, out, t->elem, depth + 1);
        return;
    case TK_MAP:
        *out = pool_printf(p, "%smap[", *out);
        put_type(p, out, t->key, depth + 1);
        *out = pool_printf(p, "%s]", *out);
        put_type(p, out, t->elem, depth + 1);
        return;
    case TK_STRUCT:
        *out = pool_printf(p, "%sstruct{...}", *out);
        return;
    case TK_NOWIRE: /* qualifier: as written (parser.y) */
        *out = pool_printf(p, "%s%s", *out, t->qualifier ? t->qualifier : t->name);
        return;
    default: /* a builtin: as written when known ("byte", "interface{}") */
        if (t->name && t->qualifier)
            s = pool_printf(p, "%s.%s", t->qualifier, t->name);
        else
            s = t->name ? t->name : type_kind_name(t->kind);
        *out = pool_printf(p, "%s%s", *out, s);
        return;
    }
}

const char *type_text(struct pool *p, const ast_type *t)
{
    char *out = pool_strdup(p, "");
    put_type(p, &out, t, 0);
    return out;
}
