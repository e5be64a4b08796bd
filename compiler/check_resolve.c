/*
 * check_resolve.c - every type name becomes a builtin kind or a reference to
 * its declaration; array lengths are evaluated.
 *
 * Scope: a file sees its own types, then, unqualified, the types of the files
 * it imports directly (as if they were one package), and `pkg.Name` for an
 * imported file whose package is pkg. time.* and json.* need their Go import.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { ARRAY_LEN_MAX = 1 << 24 }; /* larger arrays belong in a slice */

static const struct {
    const char *name;
    type_kind kind;
} builtins[] = {
    {"bool", TK_BOOL},       {"string", TK_STRING},   {"int", TK_INT64},
    {"int8", TK_INT8},       {"int16", TK_INT16},     {"int32", TK_INT32},
    {"int64", TK_INT64},     {"uint", TK_UINT64},     {"uint8", TK_UINT8},
    {"uint16", TK_UINT16},   {"uint32", TK_UINT32},   {"uint64", TK_UINT64},
    {"byte", TK_UINT8},      {"rune", TK_INT32},      {"float32", TK_FLOAT32},
    {"float64", TK_FLOAT64}, {"any", TK_ANY},         {"interface{}", TK_ANY},
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

static bool has_import(const ast_file *f, const char *path)
{
    for (const ast_import *im = f->imports; im; im = im->next)
        if (im->path && strcmp(im->path, path) == 0)
            return true;
    return false;
}

ast_decl *check_lookup(checker *ck, ast_file *f, const char *qual, const char *name,
                       src_loc loc)
{
    if (qual) {
        for (ast_import *im = f->imports; im; im = im->next)
            if (im->target && im->target->package && strcmp(im->target->package, qual) == 0) {
                file_scope *sc = check_scope(ck, im->target);
                ast_decl *d = sc ? smap_get(&sc->decls, name) : NULL;
                if (d)
                    return d;
            }
        return NULL;
    }
    file_scope *own = check_scope(ck, f);
    ast_decl *d = own ? smap_get(&own->decls, name) : NULL;
    if (d)
        return d;
    for (ast_import *im = f->imports; im; im = im->next) {
        file_scope *sc = im->target ? check_scope(ck, im->target) : NULL;
        ast_decl *e = sc ? smap_get(&sc->decls, name) : NULL;
        if (!e || e == d)
            continue;
        if (d) {
            check_error(ck, loc, "ambiguous type \"%s\": declared at %s and at %s", name,
                        check_where(ck, d->loc), check_where(ck, e->loc));
            return d;
        }
        d = e;
    }
    return d;
}

/* MARK: - Suggestions for unknown names */

/* Edit distance, case-insensitive, a swap of neighbours counting one ("flaot"). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

typedef struct guess {
    const char *best;
    size_t dist;
} guess;

static void consider(guess *g, const char *want, const char *cand)
{
    size_t d = edit_distance(want, cand);
    if (d < g->dist) {
        g->dist = d;
        g->best = cand;
    }
}

static void consider_scope(guess *g, const char *want, const file_scope *sc)
{
    for (size_t i = 0; sc && i < sc->decls.cap; i++)
        if (sc->decls.keys[i])
            consider(g, want, sc->decls.keys[i]);
}

/* `unknown type "Strng" (did you mean "string"?)`, when something is close. */
static void report_unknown(checker *ck, ast_file *f, const ast_type *t, const char *shown)
{
    const char *want = t->name;
    const char *hint = NULL;
    if (!t->qualifier && (!strcmp(want, "Time") || !strcmp(want, "Duration")))
        hint = pool_printf(ck->pool, "time.%s", want);
    else if (!t->qualifier && !strcmp(want, "RawMessage"))
        hint = "json.RawMessage";
    else if (!t->qualifier) {
        guess g = {NULL, 99}; /* declared names first: they win ties */
        consider_scope(&g, want, check_scope(ck, f));
        for (ast_import *im = f->imports; im; im = im->next)
            if (im->target)
                consider_scope(&g, want, check_scope(ck, im->target));
        for (size_t i = 0; i < NBUILTINS - 1; i++)
            consider(&g, want, builtins[i].name);
        size_t len = strlen(want);
        if (g.best && g.dist <= (len >= 5 ? 2u : 1u))
            hint = g.best;
    }
    if (hint)
        check_error(ck, t->loc, "unknown type \"%s\" (did you mean \"%s\"?)", shown, hint);
    else
        check_error(ck, t->loc, "unknown type \"%s\"", shown);
}

/* MARK: - Names */

static void resolve_go_package(checker *ck, ast_file *f, ast_type *t, const char *shown)
{
    bool is_time = strcmp(t->qualifier, "time") == 0;
    const char *import = is_time ? "time" : "encoding/json";
    if (!has_import(f, import)) {
        check_error(ck, t->loc, "%s used without import \"%s\"", shown, import);
        t->kind = TK_ANY; /* keeps later passes quiet; the error stands */
        return;
    }
    if (is_time && strcmp(t->name, "Time") == 0)
        t->kind = TK_TIME;
    else if (is_time && strcmp(t->name, "Duration") == 0)
        t->kind = TK_DURATION;
    else if (!is_time && strcmp(t->name, "RawMessage") == 0)
        t->kind = TK_RAW;
    else if (!is_time && strcmp(t->name, "Number") == 0)
        t->kind = TK_NUMBER;
    else
        check_error(ck, t->loc, "unknown type \"%s\" (tagc knows %s)", shown,
                    is_time ? "time.Time and time.Duration" : "json.RawMessage and json.Number");
}

static bool imports_package(const ast_file *f, const char *pkg)
{
    for (const ast_import *im = f->imports; im; im = im->next)
        if (im->target && im->target->package && strcmp(im->target->package, pkg) == 0)
            return true;
    return false;
}

static void resolve_name(checker *ck, ast_file *f, ast_type *t)
{
    const char *shown = t->qualifier ? pool_printf(ck->pool, "%s.%s", t->qualifier, t->name)
                                     : t->name;
    if (t->qualifier && !imports_package(f, t->qualifier) &&
        (!strcmp(t->qualifier, "time") || !strcmp(t->qualifier, "json"))) {
        resolve_go_package(ck, f, t, shown);
        return;
    }
    if (!t->qualifier) {
        for (size_t i = 0; i < NBUILTINS; i++) /* the first byte rules most out without a call */
            if (t->name[0] == builtins[i].name[0] && strcmp(t->name, builtins[i].name) == 0) {
                t->kind = builtins[i].kind;
                return;
            }
        if (strcmp(t->name, "interface") == 0) {
            t->kind = TK_ANY;
            return;
        }
    }
    if (t->qualifier && !imports_package(f, t->qualifier)) {
        check_error(ck, t->loc, "unknown package \"%s\" in \"%s\" (no import has this package)",
                    t->qualifier, shown);
        return;
    }
    ast_decl *d = check_lookup(ck, f, t->qualifier, t->name, t->loc);
    if (!d) {
        report_unknown(ck, f, t, shown);
        return;
    }
    t->kind = TK_NAMED;
    t->decl = d;
}

/* MARK: - Array lengths */

/* Go's integer literal: decimal, 0x, 0o, 0b or a leading 0 (octal), with '_'
 * between digits. Returns false when malformed or above limit. */
static bool parse_go_int(const char *s, int64_t limit, int64_t *out, bool *too_big)
{
    int base = 10;
    *too_big = false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
        base = 8, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0' && s[1])
        base = 8, s += 1;
    if (*s == '_' && base != 10)
        s++; /* 0x_1F is valid Go */
    int64_t v = 0;
    bool digit_before = false;
    for (; *s; s++) {
        if (*s == '_') {
            if (!digit_before || !s[1] || s[1] == '_')
                return false;
            continue;
        }
        int d = isdigit((unsigned char)*s) ? *s - '0'
                : isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10
                                               : 99;
        if (d >= base)
            return false;
        digit_before = true;
        if (v > (limit - d) / base)
            *too_big = true;
        else
            v = v * base + d;
    }
    *out = v;
    return digit_before && !*too_big;
}

static void check_array_len(checker *ck, ast_type *t)
{
    const char *text = t->array_len_text;
    int64_t v = t->array_len;
    bool too_big = false;
    if (text && !parse_go_int(text, ARRAY_LEN_MAX, &v, &too_big)) {
        if (too_big)
            check_error(ck, t->loc, "array length %s is too large (at most %d)", text,
                        ARRAY_LEN_MAX);
        else
            check_error(ck, t->loc, "invalid array length \"%s\" (want a non-negative integer)",
                        text);
        t->array_len = 0;
        return;
    }
    if (!text && (v < 0 || v > ARRAY_LEN_MAX)) {
        check_error(ck, t->loc, "invalid array length %lld", (long long)v);
        v = 0;
    }
    t->array_len = v;
}

/* MARK: - The walk */

static void resolve_type(checker *ck, ast_file *f, ast_type *t)
{
    while (t) {
        switch (t->kind) {
        case TK_NAME:
            resolve_name(ck, f, t);
            return;
        case TK_ARRAY:
            check_array_len(ck, t);
            t = t->elem;
            break;
        case TK_SLICE:
        case TK_PTR:
            t = t->elem;
            break;
        case TK_MAP:
            resolve_type(ck, f, t->key);
            t = t->elem;
            break;
        case TK_STRUCT:
            for (ast_field *fl = t->fields; fl; fl = fl->next)
                resolve_type(ck, f, fl->type);
            return;
        default:
            return;
        }
    }
}

void check_resolve(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            resolve_type(ck, ck->scopes[i].file, d->type);
}
