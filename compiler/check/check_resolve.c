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
#include "pipeline.h"

enum { ARRAY_LEN_MAX = 1 << 24 }; /* larger arrays belong in a slice */
enum { INST_DEPTH_MAX = 64 };       /* generic instantiations inside instantiations */

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

static bool has_tagc_suffix(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && strcmp(path + n - 5, ".tagc") == 0;
}

/* The import of f known as pkg (NULL if none). */
static ast_import *find_import(const ast_file *f, const char *pkg)
{
    for (ast_import *im = f->imports; im; im = im->next)
        if (im->pkg && strcmp(im->pkg, pkg) == 0)
            return im;
    return NULL;
}

ast_decl *check_lookup(checker *ck, ast_file *f, const char *qual, const char *name,
                       src_loc loc)
{
    if (qual) {
        for (ast_import *im = f->imports; im; im = im->next)
            if (im->target && im->pkg && strcmp(im->pkg, qual) == 0) {
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
        /* a .tagc import is seen unqualified too (as if one package); a Go
         * package only when dot-imported */
        bool seen = im->target && (has_tagc_suffix(im->path) ||
                                   (im->name && strcmp(im->name, ".") == 0));
        file_scope *sc = seen ? check_scope(ck, im->target) : NULL;
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

static void resolve_go_package(checker *ck, ast_type *t, const char *shown, bool is_time)
{
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

/* A type mapped by a --map line: the builtin it names, shown as written. */
static void map_type(checker *ck, ast_type *t, const type_map *m, const char *shown)
{
    (void)ck;
    const char *w = m->wire;
    if (!strcmp(w, "time.Time"))
        t->kind = TK_TIME;
    else if (!strcmp(w, "time.Duration"))
        t->kind = TK_DURATION;
    else if (!strcmp(w, "json.RawMessage"))
        t->kind = TK_RAW;
    else if (!strcmp(w, "interface{}"))
        t->kind = TK_ANY;
    else
        for (size_t i = 0; i < NBUILTINS; i++)
            if (!strcmp(w, builtins[i].name))
                t->kind = builtins[i].kind;
    (void)shown; /* t keeps its qualifier and name: messages show it as written */
}

/* A type mapped to a codec (`--map PATH.Name codec SETTINGS`): a declaration of the
 * using package, once per package, that check_codec.c makes a TK_CODEC; its
 * generated functions (gen_codec.c) live with that package's code. */
static void map_codec(checker *ck, ast_file *f, ast_type *t, const type_map *m)
{
    ast_file *home = f->pkg ? f->pkg : f;
    const char *key = pool_printf(ck->pool, "%s:map:%s.%s", home->path, m->path, m->name);
    ast_decl *d = smap_get(&ck->instances, key);
    if (!d) {
        file_scope *sc = check_scope(ck, home);
        d = pool_alloc(ck->pool, sizeof *d);
        d->name = m->name;
        d->loc = m->loc;
        d->file = home;
        d->c_name = c_safe_name(ck->pool, pool_printf(ck->pool, "%s_%s", sc->prefix,
                                                      c_snake_name(ck->pool, m->name)));
        d->c_upper = c_upper_name(ck->pool, d->c_name);
        d->type = ast_type_new(ck->pool, TK_STRUCT, m->loc); /* until check_codec.c's */
        smap_put(&ck->instances, key, d);
        check_claim_c_name(ck, d->c_name, m->loc,
                           pool_printf(ck->pool, "type \"%s\" (mapped to a codec)", m->name));
        ast_directive dv = { NULL, m->loc, m->codec };
        check_codec_directive(ck, &dv, m->codec, d);
        ast_decl **link = &home->decls;
        while (*link)
            link = &(*link)->next;
        *link = d;
    }
    t->kind = TK_NAMED;
    t->decl = d;
}

/* A type of a Go package tagc has not read: fine until a wire field needs it. */
static void unread_package(checker *ck, ast_type *t, const ast_import *im, const char *shown)
{
    t->kind = TK_NOWIRE;
    t->unread = true;
    t->why = pool_printf(ck->pool,
                         "name the package's directory with -I %s=DIR, or say what %s is on the "
                         "wire in a mapping file (--map FILE)",
                         im->path, shown);
    t->qualifier = shown; /* as written, for messages */
    t->name = pool_printf(ck->pool, "from package \"%s\", which tagc has not read", im->path);
}

static void resolve_type(checker *ck, ast_file *f, ast_type *t);

/* MARK: - Generic types */

/* A copy of t with each type parameter replaced by its argument. */
static ast_type *instantiate(checker *ck, const ast_type *t, const char **params,
                             ast_type **args, int depth)
{
    if (!t || depth > 1000)
        return NULL;
    if (t->kind == TK_NAME && !t->qualifier && !t->args)
        for (int i = 0; params[i]; i++)
            if (strcmp(params[i], t->name) == 0)
                return args[i]; /* shared, as `A, B T` share T */
    ast_type *c = pool_alloc(ck->pool, sizeof *c);
    *c = *t;
    c->elem = instantiate(ck, t->elem, params, args, depth + 1);
    c->key = instantiate(ck, t->key, params, args, depth + 1);
    ast_type_arg **at = &c->args;
    for (const ast_type_arg *a = t->args; a; a = a->next) {
        *at = pool_alloc(ck->pool, sizeof **at);
        (*at)->type = instantiate(ck, a->type, params, args, depth + 1);
        at = &(*at)->next;
    }
    ast_field **ft = &c->fields;
    for (const ast_field *f = t->fields; f; f = f->next) {
        ast_field *g = pool_alloc(ck->pool, sizeof *g);
        *g = *f;
        g->next = NULL;
        g->type = instantiate(ck, f->type, params, args, depth + 1);
        *ft = g;
        ft = &g->next;
    }
    return c;
}

/* `Page[User]`: one declaration per distinct instantiation, named
 * Page[User] in messages and <pkg>_page_user in C. */
static ast_decl *instance_of(checker *ck, ast_file *f, ast_type *t, ast_decl *g)
{
    int n = 0, want = 0;
    for (ast_type_arg *a = t->args; a; a = a->next) {
        resolve_type(ck, f, a->type);
        n++;
    }
    while (g->type_params[want])
        want++;
    if (n != want) {
        check_error(ck, t->loc, "generic type %s needs %d type argument%s, not %d", g->name, want,
                    want == 1 ? "" : "s", n);
        return NULL;
    }
    char *key = pool_printf(ck->pool, "%s[", g->name);
    char *c_name = pool_printf(ck->pool, "%s", g->c_name);
    ast_type **args = pool_alloc(ck->pool, (size_t)n * sizeof *args);
    int i = 0;
    for (ast_type_arg *a = t->args; a; a = a->next, i++) {
        const char *text = type_text(ck->pool, a->type);
        key = pool_printf(ck->pool, "%s%s%s", key, i ? ", " : "", text);
        /* the argument as words: "[]User" -> "user", "map[string]int" -> "map_string_int" */
        char *snake = c_snake_name(ck->pool, text), *o = snake;
        for (const char *p = snake; *p; p++) {
            bool word = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');
            if (word)
                *o++ = *p;
            else if (o > snake && o[-1] != '_')
                *o++ = '_';
        }
        while (o > snake && o[-1] == '_')
            o--;
        *o = '\0';
        c_name = pool_printf(ck->pool, "%s_%s", c_name, snake);
        args[i] = a->type;
    }
    key = pool_printf(ck->pool, "%s]", key);
    const char *full = pool_printf(ck->pool, "%s.%s", g->file->path, key);
    ast_decl *d = smap_get(&ck->instances, full);
    if (d)
        return d;
    d = pool_alloc(ck->pool, sizeof *d);
    d->name = key;
    d->loc = g->loc;
    d->file = g->file;
    d->generic = g;
    d->c_name = c_name;
    d->c_upper = c_upper_name(ck->pool, c_name);
    d->type = instantiate(ck, g->type, g->type_params, args, 0);
    smap_put(&ck->instances, full, d);
    check_claim_c_name(ck, c_name, t->loc, pool_printf(ck->pool, "type \"%s\"", key));
    if (ck->inst_depth >= INST_DEPTH_MAX) { /* P[T] holding a P[P[T]]: Go rejects it too */
        check_error(ck, t->loc, "instantiation cycle: %s instantiates %s without end", g->name,
                    g->name);
        d->type = ast_type_new(ck->pool, TK_ANY, g->loc);
        return NULL;
    }
    ck->inst_depth++;
    resolve_type(ck, (ast_file *)g->loc.file, d->type);
    ck->inst_depth--;
    ast_decl **link = &g->file->decls; /* generated with the generic type's package */
    while (*link)
        link = &(*link)->next;
    *link = d;
    return d;
}

static void resolve_name(checker *ck, ast_file *f, ast_type *t)
{
    const char *shown = t->qualifier ? pool_printf(ck->pool, "%s.%s", t->qualifier, t->name)
                                     : t->name;
    if (t->qualifier) {
        ast_import *im = find_import(f, t->qualifier);
        if (!im) {
            bool is_time = !strcmp(t->qualifier, "time");
            if (is_time || !strcmp(t->qualifier, "json")) {
                check_error(ck, t->loc, "%s used without import \"%s\"", shown,
                            is_time ? "time" : "encoding/json");
                t->kind = TK_ANY; /* keeps later passes quiet; the error stands */
            } else {
                check_error(ck, t->loc, "unknown package \"%s\" in \"%s\" (no import has this package)",
                            t->qualifier, shown);
            }
            return;
        }
        const type_map *m = find_map(ck->prog, im->path, t->name);
        if (m && m->codec) { /* C functions of the user's (--map ... codec ...) */
            map_codec(ck, f, t, m);
            return;
        }
        if (m) { /* the user's word for what it is on the wire (--map) */
            map_type(ck, t, m, shown);
            return;
        }
        if (!im->target) {
            if (!strcmp(im->path, "time") || !strcmp(im->path, "encoding/json"))
                resolve_go_package(ck, t, shown, !strcmp(im->path, "time"));
            else
                unread_package(ck, t, im, shown);
            return;
        }
    } else {
        for (size_t i = 0; i < NBUILTINS; i++) /* the first byte rules most out without a call */
            if (t->name[0] == builtins[i].name[0] && strcmp(t->name, builtins[i].name) == 0) {
                t->kind = builtins[i].kind;
                return;
            }
        if (strcmp(t->name, "interface") == 0) {
            t->kind = TK_ANY;
            return;
        }
        if (!check_lookup(ck, f, NULL, t->name, t->loc)) { /* predeclared, with no wire form */
            const char *what = !strcmp(t->name, "error") ? "the interface error"
                               : !strcmp(t->name, "complex64") || !strcmp(t->name, "complex128")
                                   ? "a complex number type"
                                   : NULL;
            if (what) {
                t->kind = TK_NOWIRE;
                t->why = what[0] == 't' ? "Go's encoding/json cannot decode into it"
                                        : "Go's encoding/json cannot encode it";
                t->qualifier = t->name; /* as written */
                t->name = what;
                return;
            }
            for (ast_import *im = f->imports; im; im = im->next)
                if (im->name && !strcmp(im->name, ".") && !im->target) {
                    unread_package(ck, t, im, shown); /* perhaps of a dot import */
                    return;
                }
        }
    }
    ast_decl *d = check_lookup(ck, f, t->qualifier, t->name, t->loc);
    if (!d) {
        report_unknown(ck, f, t, shown);
        return;
    }
    if (d->type_params && !t->args) {
        check_error(ck, t->loc, "generic type %s used without instantiation (write %s[...])",
                    shown, shown);
        t->kind = TK_ANY;
        return;
    }
    if (t->args && !d->type_params) {
        check_error(ck, t->loc, "%s is not a generic type", shown);
        t->kind = TK_ANY;
        return;
    }
    if (t->args) {
        d = instance_of(ck, f, t, d);
        if (!d) {
            t->kind = TK_ANY;
            return;
        }
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

/* The value of the integer constant `name` of f's package, as Go's rules
 * give it (iota, a spec repeating the one before it); false if it is not one
 * tagc can evaluate. */
static bool const_value(checker *ck, const ast_file *f, const char *name, int64_t *out, int depth);

static bool eval_int(checker *ck, const ast_file *f, const const_expr *e, int iota, int64_t *out,
                     int depth)
{
    int64_t a = 0, b = 0;
    bool too_big = false;
    if (!e || depth > 100)
        return false;
    switch (e->kind) {
    case CE_INT:
        return parse_go_int(e->text, INT64_MAX, out, &too_big);
    case CE_IOTA:
        *out = iota;
        return true;
    case CE_NAME:
        return const_value(ck, f, e->text, out, depth + 1);
    case CE_PAREN:
        return eval_int(ck, f, e->a, iota, out, depth + 1);
    case CE_NEG:
        if (!eval_int(ck, f, e->a, iota, &a, depth + 1))
            return false;
        *out = -a;
        return true;
    default:
        break;
    }
    if (!eval_int(ck, f, e->a, iota, &a, depth + 1) || !eval_int(ck, f, e->b, iota, &b, depth + 1))
        return false;
    if (a < -ARRAY_LEN_MAX || a > ARRAY_LEN_MAX || b < -ARRAY_LEN_MAX || b > ARRAY_LEN_MAX)
        return false; /* far beyond any array length: no overflow below */
    switch (e->kind) {
    case CE_ADD: *out = a + b; return true;
    case CE_SUB: *out = a - b; return true;
    case CE_MUL: *out = a * b; return true;
    case CE_SHL: *out = b >= 0 && b < 30 ? a << b : -1; return b >= 0 && b < 30;
    default: return false;
    }
}

static bool const_value(checker *ck, const ast_file *f, const char *name, int64_t *out, int depth)
{
    if (f->pkg)
        f = f->pkg;
    for (const const_block *b = f->consts; b; b = b->next) {
        const const_expr *last = NULL;
        for (const const_spec *s = b->specs; s; s = s->next) {
            if (s->value)
                last = s->value;
            if (strcmp(s->name, name) == 0)
                return eval_int(ck, f, last, s->iota, out, depth + 1);
        }
    }
    return false;
}

static void check_array_len(checker *ck, ast_file *f, ast_type *t)
{
    if (t->array_len_name) {
        int64_t v = 0;
        bool local = !strchr(t->array_len_name, '.');
        if (!local || !const_value(ck, f, t->array_len_name, &v, 0)) {
            check_error(ck, t->loc, "array length %s is not a constant tagc can evaluate (want an "
                                    "integer constant of this package)", t->array_len_name);
            v = 0;
        } else if (v < 0 || v > ARRAY_LEN_MAX) {
            check_error(ck, t->loc, "array length %s = %lld is out of range (0 to %d)",
                        t->array_len_name, (long long)v, ARRAY_LEN_MAX);
            v = 0;
        }
        t->array_len = v;
        return;
    }
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
            check_array_len(ck, f, t);
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

/* MARK: - Aliases */

/* What an alias stands for, resolved (following aliases of aliases). */
static const ast_type *alias_target(const ast_decl *d)
{
    const ast_type *t = d->type;
    for (int i = 0; t && t->kind == TK_NAMED && t->decl && t->decl->is_alias && i < 100; i++)
        t = t->decl->type;
    return t && t->kind == TK_NAMED && t->decl && t->decl->is_alias ? NULL : t;
}

/* Every use of an alias becomes a use of what it stands for. */
static void replace_aliases(checker *ck, ast_type *t, int depth)
{
    while (t && depth < 10000) {
        if (t->kind == TK_NAMED && t->decl && t->decl->is_alias) {
            const ast_type *to = alias_target(t->decl);
            if (!to) {
                check_error(ck, t->decl->loc, "invalid recursive type alias %s", t->decl->name);
                t->kind = TK_ANY; /* the error stands; later passes stay quiet */
                return;
            }
            src_loc loc = t->loc;
            *t = *to; /* shares the target's parts, as `A, B T` share T */
            t->loc = loc;
            if (t->kind == TK_STRUCT)
                return; /* its fields are walked where it is declared */
        }
        switch (t->kind) {
        case TK_MAP:
            replace_aliases(ck, t->key, depth + 1);
            t = t->elem;
            break;
        case TK_ARRAY:
        case TK_SLICE:
        case TK_PTR:
            t = t->elem;
            break;
        case TK_STRUCT:
            for (ast_field *f = t->fields; f; f = f->next)
                replace_aliases(ck, f->type, depth + 1);
            return;
        default:
            return;
        }
        depth++;
    }
}

void check_resolve(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            /* with its own file's imports (d->file is its package's first file);
             * a generic type only through its instantiations */
            if (!d->type_params && !d->generic)
                resolve_type(ck, (ast_file *)d->loc.file, d->type);
    /* aliases: their uses become the types they stand for; they themselves
     * (and generic types: their instantiations are) are no types to generate */
    for (size_t i = 0; i < ck->nscopes; i++)
        for (ast_decl *d = ck->scopes[i].file->decls; d; d = d->next)
            if (!d->is_alias)
                replace_aliases(ck, d->type, 0);
    for (size_t i = 0; i < ck->nscopes; i++) {
        ast_file *f = ck->scopes[i].file;
        ast_decl **link = &f->decls, **tail = &f->nowire_decls;
        while (*tail)
            tail = &(*tail)->next;
        while (*link) {
            ast_decl *d = *link;
            if (!d->is_alias && !d->type_params) {
                link = &d->next;
                continue;
            }
            *link = d->next; /* kept with the types that have no C of their own */
            d->next = NULL;
            *tail = d;
            tail = &d->next;
        }
    }
}
