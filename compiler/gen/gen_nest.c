/*
 * gen_nest.c - how deep a type's values nest on the wire, for the encoders'
 * nesting limit (runtime tagc.h, "Encoder nesting").
 *
 * A type's nesting is the most JSON objects and arrays (MessagePack maps and
 * arrays) one of its values opens, one inside the other: a struct, slice,
 * array or map opens one level around its contents; pointers, named types and
 * embedded structs open none; []byte and scalars none. It is unbounded (-1)
 * for a type that reaches itself (a recursive type), any, json.RawMessage,
 * and what contains them. Only the writers of unbounded types count levels at
 * run time; the values of bounded nesting they hold are covered by a margin,
 * so no value nests past the limit unseen, and the hot path of a schema without
 * recursion pays nothing.
 */
#include <stdint.h>
#include <string.h>

#include "gen.h"

/* Memo values: NULL unknown, VISITING on the walk's stack, else nesting + 2. */
#define VISITING ((void *)(intptr_t)1)

static int nesting_of(gen *g, ast_type *t);

/* A named type: memoised by its declaration (a key no other memo uses). */
static int decl_nesting(gen *g, ast_decl *d)
{
    const void *key = &d->enum_kind;
    void **slot = gen_memo_slot(g, key);
    if (*slot == VISITING)
        return -1; /* it reaches itself */
    if (*slot != NULL)
        return (int)((intptr_t)*slot - 2);
    *slot = VISITING;
    int n = d->enum_kind != ENUM_NONE ? 0 : nesting_of(g, d->type);
    *gen_memo_slot(g, key) = (void *)(intptr_t)(n + 2); /* the walk may have moved the slot */
    return n;
}

/* 1 + n, unbounded staying unbounded. */
static int around(int n)
{
    return n < 0 ? -1 : n + 1;
}

static int nesting_of(gen *g, ast_type *t)
{
    switch (t->kind) {
    case TK_ANY:
    case TK_RAW:
        return -1;
    case TK_NAMED:
        return decl_nesting(g, t->decl);
    case TK_PTR:
        return nesting_of(g, t->elem);
    case TK_SLICE:
        return ty_is_bytes(t) ? 0 : around(nesting_of(g, t->elem));
    case TK_ARRAY:
    case TK_MAP:
        return around(nesting_of(g, t->elem));
    case TK_STRUCT: {
        int most = 0;
        for (size_t i = 0; i < t->wire_count; i++) {
            const wire_field *w = &t->wire[i];
            if (!w->json_name && !w->msgpack_name)
                continue;
            int n = nesting_of(g, w->field->type);
            if (n < 0)
                return -1;
            if (n > most)
                most = n;
        }
        return most + 1;
    }
    default:
        return 0;
    }
}

int ty_nesting(gen *g, ast_type *t)
{
    return nesting_of(g, t);
}

bool ty_nest_counts(gen *g, ast_type *t)
{
    return nesting_of(g, t) < 0;
}

int ty_nest_margin(gen *g, const ast_type *st, bool msgpack)
{
    int most = 0;
    for (size_t i = 0; i < st->wire_count; i++) {
        const wire_field *w = &st->wire[i];
        if (!(msgpack ? w->msgpack_name : w->json_name))
            continue;
        int n = nesting_of(g, w->field->type);
        if (n > most)
            most = n;
    }
    return most;
}

const char *ty_go_name(gen *g, ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED:
        return pool_printf(g->pool, "%s.%s", t->decl->file->package, t->decl->name);
    case TK_PTR:
        return pool_printf(g->pool, "*%s", ty_go_name(g, t->elem));
    case TK_SLICE:
        return pool_printf(g->pool, "[]%s", ty_go_name(g, t->elem));
    case TK_ARRAY:
        return pool_printf(g->pool, "[%lld]%s", (long long)t->array_len, ty_go_name(g, t->elem));
    case TK_MAP:
        return pool_printf(g->pool, "map[%s]%s", ty_go_name(g, t->key), ty_go_name(g, t->elem));
    case TK_STRUCT:
        return "struct {...}";
    case TK_ANY:
        return "interface {}";
    case TK_RAW:
        return "json.RawMessage";
    case TK_TIME:
        return "time.Time";
    default:
        return t->name ? t->name : "?";
    }
}

void gen_nest_enter(gen *g, int ind, const char *limit, int margin, const char *v, const char *go_type)
{
    emit(g, ind, "if (!tagc_enc_enter(out, %s, %d, %s, %s)) /* a level that recursion repeats */", limit,
         margin, v, c_literal(g, go_type, strlen(go_type)));
    emit(g, ind + 1, "return;");
}

void gen_nest_leave(gen *g, int ind)
{
    emit(g, ind, "tagc_enc_leave(out);");
}

const char *gen_nest_type_lit(gen *g, const char *go_type)
{
    return c_literal(g, go_type, strlen(go_type));
}

void gen_nest_after(gen *g, int ind, ast_type *t, const char *check, const char *cleanup)
{
    if (!ty_nest_counts(g, t))
        return;
    if (!cleanup) {
        emit(g, ind, "if (%s)", check);
        emit(g, ind + 1, "return;");
        return;
    }
    emit(g, ind, "if (%s) {", check);
    emit(g, ind + 1, "%s", cleanup);
    emit(g, ind + 1, "return;");
    emit(g, ind, "}");
}
