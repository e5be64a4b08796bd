/*
 * gen_build.c - the header's helpers for building values by hand: for each
 * slice type, <slice>_alloc and <slice>_append; for each map type, <map>_put.
 * They are static inline (the header is all a C or C++ user includes) and typed
 * wrappers of the runtime's tagc_slice_grow (docs/mapping.md, "Building values").
 * Slices of arrays ([][2]float64) and maps of arrays get none: a C function
 * cannot return a pointer to an array without a declarator nobody would read.
 */
#include <string.h>

#include "gen.h"

/* "T *" for a C type name, "T **" when it is a pointer already ("T *"). */
static const char *ptr_to(gen *g, const char *cname)
{
    size_t n = strlen(cname);
    return pool_cat(g->pool, cname, n && cname[n - 1] == '*' ? "*" : " *");
}

static void slice_helpers(gen *g, const char *name, ast_type *elem)
{
    const char *ptr = ptr_to(g, ty_cname(g, elem));
    emit(g, 0, "static inline int %s_alloc(%s *s, tagc_arena *arena, size_t n)", name, name);
    emit(g, 0, "{");
    emit(g, 1, "%sp = (%s)tagc_slice_grow(arena, NULL, 0, n, sizeof *p);", ptr, ptr);
    emit(g, 1, "if (!p)");
    emit(g, 2, "return TAGC_E_NOMEM;");
    emit(g, 1, "s->ptr = p;");
    emit(g, 1, "s->len = n;");
    emit(g, 1, "return 0;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    emit(g, 0, "static inline %s%s_append(%s *s, tagc_arena *arena)", ptr, name, name);
    emit(g, 0, "{");
    emit(g, 1, "%sp = (%s)tagc_slice_grow(arena, s->ptr, s->len, 1, sizeof *p);", ptr, ptr);
    emit(g, 1, "if (!p)");
    emit(g, 2, "return NULL;");
    emit(g, 1, "s->ptr = p;");
    emit(g, 1, "return &p[s->len++];");
    emit(g, 0, "}");
}

static void map_helpers(gen *g, const char *name, ast_type *key, ast_type *val)
{
    const char *kptr = ptr_to(g, ty_cname(g, key));
    const char *vptr = ptr_to(g, ty_cname(g, val));
    bool str_key = !ty_enum(key) && ty_under(key)->kind == TK_STRING;
    emit(g, 0, "static inline %s%s_put(%s *m, tagc_arena *arena, %s)", vptr, name, name,
         ty_decl(g, key, "key"));
    emit(g, 0, "{");
    emit(g, 1, "for (size_t i = 0; i < m->len; i++)");
    if (str_key)
        emit(g, 2, "if (tagc_str_equal(&m->keys[i], &key))");
    else
        emit(g, 2, "if (m->keys[i] == key)");
    emit(g, 3, "return &m->vals[i];");
    emit(g, 1, "%skeys = (%s)tagc_slice_grow(arena, m->keys, m->len, 1, sizeof *keys);", kptr, kptr);
    emit(g, 1, "if (!keys)");
    emit(g, 2, "return NULL;");
    emit(g, 1, "m->keys = keys; /* one slot more than len: harmless if vals fails */");
    emit(g, 1, "%svals = (%s)tagc_slice_grow(arena, m->vals, m->len, 1, sizeof *vals);", vptr, vptr);
    emit(g, 1, "if (!vals)");
    emit(g, 2, "return NULL;");
    emit(g, 1, "m->vals = vals;");
    emit(g, 1, "keys[m->len] = key;");
    emit(g, 1, "return &vals[m->len++];");
    emit(g, 0, "}");
}

/* What every helper does, said once per header rather than above each of them. */
static void build_contract(gen *g)
{
    emit(g, 0, "/* MARK: - Building values (docs/mapping.md, \"Building values\")");
    emit(g, 0, " *");
    emit(g, 0, " * <slice>_alloc(s, arena, n): n zeroed elements in arena (n == 0: an empty");
    emit(g, 0, " *     non-nil slice, []); 0 or TAGC_E_NOMEM.");
    emit(g, 0, " * <slice>_append(s, arena): a zeroed element appended to s (nil, or stored");
    emit(g, 0, " *     anywhere: it moves into arena unless it can grow in place); NULL when out");
    emit(g, 0, " *     of memory, s unchanged.");
    emit(g, 0, " * <map>_put(m, arena, key): the value of key in m, the one there or a zeroed one");
    emit(g, 0, " *     added at the end (maps keep insertion order); NULL when out of memory. The");
    emit(g, 0, " *     key is looked for from the start and stored as it is (copy its text first");
    emit(g, 0, " *     if it must outlive its buffer).");
    emit(g, 0, " * Each is a typed wrapper of tagc_slice_grow (<tagc.h>). */");
}

void gen_build_helpers(gen *g)
{
    bool any = false;
    for (size_t i = 0; i < g->ntypes; i++) {
        ast_type *t = g->types[i].type;
        bool slice = t->kind == TK_SLICE && !ty_is_bytes(t) && ty_under(t->elem)->kind != TK_ARRAY;
        bool map = t->kind == TK_MAP && ty_under(t->elem)->kind != TK_ARRAY;
        if (!slice && !map)
            continue;
        if (!any)
            build_contract(g);
        any = true;
        const char *name = g->types[i].name;
        const char *guard = pool_cat(g->pool, c_upper_name(g->pool, name), "_BUILD_DEFINED");
        emit(g, 0, "%s", "");
        emit(g, 0, "#ifndef %s", guard);
        emit(g, 0, "#define %s", guard);
        if (slice)
            slice_helpers(g, name, t->elem);
        else
            map_helpers(g, name, t->key, t->elem);
        emit(g, 0, "#endif");
    }
    if (any)
        emit(g, 0, "%s", "");
}
