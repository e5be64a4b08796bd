/*
 * gen_enum.c - the helpers of an enum's declared values, for every codec and
 * for the user, emitted once per enum whichever codecs are generated:
 *
 *   string enum   <t>_names[] (the text of each constant, "" first),
 *                 <t>_parse (text -> constant), <t>_is_known, <t>_name
 *                 (the Go constant's name), and for an open enum <t>_of
 *                 (constant -> value)
 *   int enum      <t>_is_known, <t>_name
 *
 * An open enum's value is its underlying type (tagc_str, an integer); a closed
 * one's is the C enum (see gen_types.c).
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

/* The C type of a string enum's constants: the enum itself when closed. */
static const char *constant_type(gen *g, const ast_decl *d)
{
    return d->enum_closed ? d->c_name : pool_cat(g->pool, d->c_name, "_value");
}

/* The type <t>_is_known and <t>_name take: an int enum's test runs on the
 * 64-bit value the codecs read, before it is narrowed. */
static const char *arg_type(const ast_decl *d)
{
    if (d->enum_kind == ENUM_STRING)
        return d->c_name;
    return ty_is_unsigned_int(d->type->kind) ? "uint64_t" : "int64_t";
}

/* The names table and parser of a string enum: names[k] is constant k's
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
    emit(g, 0, "bool %s_parse(const char *s, size_t len, %s *out)", fn, constant_type(g, d));
    emit(g, 0, "{");
    emit(g, 1, "for (size_t i = 0; i < %zu; i++) {", enum_name_count(d));
    emit(g, 2, "if (%s_names[i].len == len && (len == 0 || memcmp(%s_names[i].ptr, s, len) == 0)) {", fn, fn);
    emit(g, 3, "*out = (%s)i;", constant_type(g, d));
    emit(g, 3, "return true;");
    emit(g, 2, "}");
    emit(g, 1, "}");
    emit(g, 1, "return false;");
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
    if (d->enum_closed) {
        emit(g, 0, "bool %s_is_known(%s v)", fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "return (size_t)v < %s_names_len;", fn);
        emit(g, 0, "}");
    } else {
        emit(g, 0, "bool %s_is_known(%s v)", fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "%s_value k;", fn);
        emit(g, 1, "return %s_parse(v.ptr, v.len, &k);", fn);
        emit(g, 0, "}");
        emit(g, 0, "%s", "");
        emit(g, 0, "%s %s_of(%s_value k)", fn, fn, fn);
        emit(g, 0, "{");
        emit(g, 1, "return (size_t)k < %s_names_len ? %s_names[k] : %s_names[0];", fn, fn, fn);
        emit(g, 0, "}");
    }
    emit(g, 0, "%s", "");
}

/* Whether x is a value of an int enum: a declared one, or 0 (Go's zero value). */
static void gen_enum_known(gen *g, const ast_decl *d)
{
    bool is_u = ty_is_unsigned_int(d->type->kind);
    emit(g, 0, "/* Whether x is a value of %s: a declared one, or 0 (Go's zero value). */", d->name);
    emit(g, 0, "bool %s_is_known(%s x)", d->c_name, arg_type(d));
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
        else if (v->num == INT64_MIN)
            emit(g, 1, "case INT64_MIN: /* %s */", v->name);
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

/* <t>_name: the Go name of the (first) constant of a value, NULL for none. */
static void gen_enum_go_name(gen *g, const ast_decl *d)
{
    const char *fn = d->c_name;
    emit(g, 0, "const char *%s_name(%s v)", fn, arg_type(d));
    emit(g, 0, "{");
    if (d->enum_kind == ENUM_STRING) {
        if (d->enum_closed)
            emit(g, 1, "%s k = v;", fn);
        else
            emit(g, 1, "%s_value k;", fn);
        if (!d->enum_closed)
            emit(g, 1, "if (!%s_parse(v.ptr, v.len, &k))", fn);
        if (!d->enum_closed)
            emit(g, 2, "return NULL;");
        emit(g, 1, "switch ((int)k) {");
        int i = 1;
        for (enum_value *v = d->values; v; v = v->next)
            if (v->str[0] == '\0')
                emit(g, 1, "case 0:");
        for (enum_value *v = d->values; v; v = v->next)
            if (v->str[0] == '\0')
                emit(g, 2, "return \"%s\";", v->name);
        for (enum_value *v = d->values; v; v = v->next)
            if (v->str[0] != '\0') {
                emit(g, 1, "case %d:", i++);
                emit(g, 2, "return \"%s\";", v->name);
            }
        emit(g, 1, "default:");
        emit(g, 2, "return NULL;");
        emit(g, 1, "}");
    } else {
        bool is_u = ty_is_unsigned_int(d->type->kind);
        emit(g, 1, "switch (v) {");
        for (enum_value *v = d->values; v; v = v->next) {
            bool dup = false;
            for (enum_value *w = d->values; w != v; w = w->next)
                dup |= w->num == v->num;
            if (dup)
                continue;
            if (is_u)
                emit(g, 1, "case %lluu:", (unsigned long long)v->num);
            else if (v->num == INT64_MIN)
                emit(g, 1, "case INT64_MIN:");
            else
                emit(g, 1, "case %lld:", (long long)v->num);
            emit(g, 2, "return \"%s\";", v->name);
        }
        emit(g, 1, "default:");
        emit(g, 2, "return NULL;");
        emit(g, 1, "}");
    }
    emit(g, 0, "}");
    emit(g, 0, "%s", "");
}

void gen_enum_prototypes(gen *g, const ast_decl *d)
{
    const char *fn = d->c_name;
    if (d->enum_kind == ENUM_NONE)
        return;
    if (d->enum_kind == ENUM_STRING) {
        emit(g, 0, "bool %s_parse(const char *s, size_t len, %s *out);", fn, constant_type(g, d));
        emit(g, 0, "extern const tagc_str %s_names[]; /* the text of each constant */", fn);
        emit(g, 0, "extern const size_t %s_names_len;", fn);
        if (!d->enum_closed)
            emit(g, 0, "%s %s_of(%s_value k); /* the value of constant k */", fn, fn, fn);
    }
    emit(g, 0, "bool %s_is_known(%s v); /* a declared value, or Go's zero value */", fn, arg_type(d));
    emit(g, 0, "const char *%s_name(%s v); /* its Go constant's name, or NULL */", fn, arg_type(d));
}

void gen_enum_functions(gen *g, const ast_decl *d)
{
    if (d->enum_kind == ENUM_STRING)
        gen_enum_names(g, d);
    else if (d->enum_kind == ENUM_INT)
        gen_enum_known(g, d);
    gen_enum_go_name(g, d);
}
