/*
 * gen_enum.c - what both codecs need of an enum: a string enum's table of names
 * and its parser, an int enum's test of known values. Emitted once per enum,
 * whichever codecs are generated.
 */
#include <string.h>

#include "gen.h"

static size_t enum_name_count(const ast_decl *d)
{
    size_t count = 1;
    for (enum_value *v = d->values; v; v = v->next)
        count += v->str[0] != '\0';
    return count;
}

/* The names table and parser of a string enum: names[value] is each value's
 * text, "" (Go's zero value) first. */
static void gen_enum_names(gen *g, const ast_decl *d)
{
    const char *fn = d->c_name;
    emit(g, 0, "const tagc_str %s_names[] = {", fn);
    emit(g, 1, "{(char *)\"\", 0},");
    for (enum_value *v = d->values; v; v = v->next) {
        if (v->str[0] == '\0')
            continue;
        size_t len = strlen(v->str);
        emit(g, 1, "{(char *)%s, %zu},", c_literal(g, v->str, len), len);
    }
    emit(g, 0, "};");
    emit(g, 0, "const size_t %s_names_len = %zu;", fn, enum_name_count(d));
    emit(g, 0, "%s", "");
    emit(g, 0, "bool %s_parse(const char *s, size_t len, %s *out)", fn, fn);
    emit(g, 0, "{");
    emit(g, 1, "for (size_t i = 0; i < %zu; i++) {", enum_name_count(d));
    emit(g, 2, "if (%s_names[i].len == len && memcmp(%s_names[i].ptr, s, len) == 0) {", fn, fn);
    emit(g, 3, "*out = (%s)i;", fn);
    emit(g, 3, "return true;");
    emit(g, 2, "}");
    emit(g, 1, "}");
    emit(g, 1, "return false;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

/* Whether x is a value of an int enum: a declared one, or 0 (Go's zero value). */
static void gen_enum_known(gen *g, const ast_decl *d)
{
    bool is_u = ty_is_unsigned_int(d->type->kind);
    emit(g, 0, "/* Whether x is a value of %s: a declared one, or 0 (Go's zero value). */", d->name);
    emit(g, 0, "bool %s_known(%s x)", d->c_name, is_u ? "uint64_t" : "int64_t");
    emit(g, 0, "{");
    emit(g, 1, "switch (x) {");
    bool has_zero = false;
    for (enum_value *v = d->values; v; v = v->next)
        has_zero |= v->num == 0;
    if (!has_zero)
        emit(g, 1, "case 0:");
    for (enum_value *v = d->values; v; v = v->next) {
        bool dup = false; /* C rejects repeated case labels */
        for (enum_value *w = d->values; w != v; w = w->next)
            dup |= w->num == v->num;
        if (dup)
            continue;
        if (is_u)
            emit(g, 1, "case %lluu: /* %s */", (unsigned long long)v->num, v->name);
        else
            emit(g, 1, "case %lld: /* %s */", (long long)v->num, v->name);
    }
    emit(g, 2, "return true;");
    emit(g, 1, "default:");
    emit(g, 2, "return false;");
    emit(g, 1, "}");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

void gen_enum_prototypes(gen *g, const ast_decl *d)
{
    if (d->enum_kind == ENUM_INT)
        emit(g, 0, "bool %s_known(%s x);", d->c_name,
             ty_is_unsigned_int(d->type->kind) ? "uint64_t" : "int64_t");
    if (d->enum_kind == ENUM_STRING) {
        emit(g, 0, "bool %s_parse(const char *s, size_t len, %s *out);", d->c_name, d->c_name);
        emit(g, 0, "extern const tagc_str %s_names[]; /* the text of each value */", d->c_name);
        emit(g, 0, "extern const size_t %s_names_len;", d->c_name);
    }
}

void gen_enum_functions(gen *g, const ast_decl *d)
{
    if (d->enum_kind == ENUM_STRING)
        gen_enum_names(g, d);
    else if (d->enum_kind == ENUM_INT)
        gen_enum_known(g, d);
}
