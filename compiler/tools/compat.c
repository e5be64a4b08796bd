/*
 * compat.c - `tagc compat OLD.tagc NEW.tagc`: every change between two versions
 * of a schema that breaks an old reader of new data or a new reader of old
 * data, for JSON and for MessagePack separately.
 *
 * Types are matched by Go name; within a struct, fields by wire name (JSON:
 * exactly, else case-insensitively as the decoders match keys; MessagePack:
 * exactly), so a Go rename that keeps the wire name is no change. Reported:
 *   - a wire name removed (or renamed): old readers lose the field, and strict
 *     ones miss it;
 *   - a changed type, unless it is a widening a new reader of old data takes
 *     without loss (intN -> wider intM, uintN -> wider uintM or intM,
 *     float32 -> float64, small ints -> floats that hold them, an enum -> its
 *     base type, anything -> json.RawMessage or interface{}, [N]T -> []T or a
 *     longer array, integer map keys -> string keys);
 *   - a field that strict mode now requires (lost omitempty, or added without
 *     omitempty) or no longer requires (gained omitempty: new writers leave it
 *     out, which strict old readers reject);
 *   - for a closed enum (//tagc:closed): a removed value, or an open enum or
 *     another type that became one; a string enum that became an int enum
 *     and back (an open enum is its underlying type: any value reads);
 *   - JSON only: the `string` option added or removed;
 *   - a type with a C codec (//tagc:codec): what its declared wire shape lets
 *     through, against what the other side writes or reads (string|integer
 *     -> string breaks new readers of old integers); tagc cannot compare the
 *     C functions themselves.
 * Pointers are transparent (null/nil is read as the zero value either way).
 */
#define _XOPEN_SOURCE 700

#include "compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "tagc.h"

enum { EXIT_BREAKS = 1, EXIT_USAGE = 2 };

typedef enum wire_fmt { FMT_JSON, FMT_MSGPACK } wire_fmt;

typedef struct decl_pair {
    const ast_decl *o, *n;
} decl_pair;

typedef struct cctx {
    struct pool *pool;
    wire_fmt fmt;
    int breaks;
    const ast_program *oldp, *newp;
    decl_pair *seen; /* named pairs being compared (recursive types) */
    size_t nseen, capseen;
} cctx;

static const char *fmt_name(wire_fmt f)
{
    return f == FMT_JSON ? "json" : "msgpack";
}

static void report(cctx *c, src_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void report(cctx *c, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d:%d: error: [%s] ", loc.file ? loc.file->display : "?", loc.line, loc.col,
            fmt_name(c->fmt));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    c->breaks++;
}

/* MARK: - Types */

/* Go spelling of a type, for messages. */
static const char *tdesc(cctx *c, const ast_type *t)
{
    switch (t->kind) {
    case TK_NAMED: return t->decl->name;
    case TK_SLICE: return pool_printf(c->pool, "[]%s", tdesc(c, t->elem));
    case TK_ARRAY: return pool_printf(c->pool, "[%lld]%s", (long long)t->array_len, tdesc(c, t->elem));
    case TK_PTR: return pool_printf(c->pool, "*%s", tdesc(c, t->elem));
    case TK_MAP: return pool_printf(c->pool, "map[%s]%s", tdesc(c, t->key), tdesc(c, t->elem));
    case TK_STRUCT: return "struct{...}";
    case TK_CODEC: return t->decl->name;
    default: return type_kind_name(t->kind); /* a builtin: its Go name */
    }
}

static bool is_signed_int(type_kind k)
{
    return k == TK_INT8 || k == TK_INT16 || k == TK_INT32 || k == TK_INT64 || k == TK_DURATION;
}

static bool is_unsigned_int(type_kind k)
{
    return k == TK_UINT8 || k == TK_UINT16 || k == TK_UINT32 || k == TK_UINT64;
}

static int int_bits(type_kind k)
{
    switch (k) {
    case TK_INT8: case TK_UINT8: return 8;
    case TK_INT16: case TK_UINT16: return 16;
    case TK_INT32: case TK_UINT32: return 32;
    default: return 64;
    }
}

static bool is_bytes(const ast_type *t)
{
    return t->kind == TK_SLICE && t->elem->kind == TK_UINT8;
}

/* Pointers are transparent on the wire; named types other than closed enums
 * (open enums included: any value of their type) are their definition. */
static ast_type *strip(ast_type *t)
{
    for (;;) {
        if (t->kind == TK_PTR)
            t = t->elem;
        else if (t->kind == TK_NAMED && !decl_is_closed_enum(t->decl))
            t = t->decl->type;
        else
            return t;
    }
}

/* The JSON values the writers of t (stripped) write, as CW_* bits: what a
 * codec's wire shape is compared with. */
static unsigned shape_bits(const ast_type *t)
{
    type_kind k = t->kind;
    if (k == TK_CODEC)
        return t->decl->codec->wire;
    if (k == TK_NAMED) /* a closed enum */
        return t->decl->enum_kind == ENUM_STRING ? CW_STRING : CW_INTEGER;
    if (k == TK_STRING || k == TK_TIME || (k == TK_SLICE && t->elem->kind == TK_UINT8))
        return CW_STRING;
    if (is_signed_int(k) || is_unsigned_int(k))
        return CW_INTEGER;
    if (k == TK_FLOAT32 || k == TK_FLOAT64 || k == TK_NUMBER)
        return CW_NUMBER | CW_INTEGER;
    if (k == TK_BOOL)
        return CW_BOOLEAN;
    if (k == TK_STRUCT || k == TK_MAP)
        return CW_OBJECT;
    if (k == TK_SLICE || k == TK_ARRAY)
        return CW_ARRAY;
    return CW_ANY; /* json.RawMessage, interface{} */
}

static const char *shape_text(cctx *c, unsigned bits)
{
    static const char *const names[] = { "string", "integer", "number", "boolean", "object", "array", "null" };
    const char *s = "";
    for (int i = 0; i < 7; i++) {
        if (!(bits & (1u << i)) || (i == 1 && (bits & CW_NUMBER)))
            continue;
        s = pool_printf(c->pool, "%s%s%s", s, *s ? "|" : "", names[i]);
    }
    return bits == CW_ANY ? "any" : s;
}

static bool int_widens(type_kind o, type_kind n)
{
    if (is_signed_int(o) && is_signed_int(n))
        return int_bits(n) >= int_bits(o);
    if (is_unsigned_int(o) && is_unsigned_int(n))
        return int_bits(n) >= int_bits(o);
    if (is_unsigned_int(o) && is_signed_int(n))
        return int_bits(n) > int_bits(o);
    return false;
}

static bool compare_named(cctx *c, const ast_decl *od, const ast_decl *nd, const char *path, src_loc at);
static const ast_decl *find_decl(const ast_program *prog, const char *name);
static void compare_struct(cctx *c, ast_type *os, ast_type *ns, const char *path);

static bool type_compat(cctx *c, ast_type *o, ast_type *n, const char *path, src_loc at);

static void changed(cctx *c, ast_type *o, ast_type *n, const char *path, src_loc at)
{
    report(c, at, "%s: type changed from %s to %s", path, tdesc(c, o), tdesc(c, n));
}

/* Whether new readers of type n read what old writers of type o wrote, with the
 * same meaning; reports what breaks (at `at`, the new field or type). */
static bool type_compat(cctx *c, ast_type *o0, ast_type *n0, const char *path, src_loc at)
{
    ast_type *o = o0, *n = n0;
    while (o->kind == TK_PTR)
        o = o->elem;
    while (n->kind == TK_PTR)
        n = n->elem;
    if (o->kind == TK_NAMED && n->kind == TK_NAMED && strcmp(o->decl->name, n->decl->name) == 0 &&
        find_decl(c->oldp, o->decl->name) == o->decl && find_decl(c->newp, n->decl->name) == n->decl)
        return true; /* the same type: compared on its own */
    if (o->kind == TK_NAMED && n->kind == TK_NAMED) /* with the set of pairs being compared */
        return compare_named(c, o->decl, n->decl, path, at);
    if (o->kind == TK_NAMED) /* an enum that became its base type, or a type's definition */
        return type_compat(c, o->decl->type, n0, path, at);
    if (n->kind == TK_NAMED && !decl_is_closed_enum(n->decl))
        return type_compat(c, o0, n->decl->type, path, at);
    o = strip(o);
    n = strip(n);
    bool json = c->fmt == FMT_JSON;
    if (o->kind == TK_CODEC || n->kind == TK_CODEC) {
        /* null/nil is the pointers' (transparent here) */
        unsigned ob = shape_bits(o) & ~(unsigned)CW_NULL, nb = shape_bits(n) & ~(unsigned)CW_NULL;
        if ((ob & ~nb) == 0)
            return true;
        if (o->kind == TK_CODEC && n->kind == TK_CODEC)
            report(c, at, "%s: the wire shape of %s (//tagc:codec) changed from %s to %s: new "
                          "readers reject what old writers wrote", path, n->decl->name,
                   shape_text(c, ob), shape_text(c, nb));
        else
            report(c, at, "%s: type changed from %s to %s: its wire shape %s does not take all that old "
                      "writers wrote (%s)", path, tdesc(c, o0), tdesc(c, n0), shape_text(c, nb),
               shape_text(c, ob));
        return false;
    }
    if (n->kind == TK_NAMED) {
        report(c, at, "%s: type changed from %s to closed enum %s (//tagc:closed): new readers reject "
                      "values outside it", path, tdesc(c, o0), n->decl->name);
        return false;
    }
    if (n->kind == TK_RAW || n->kind == TK_ANY)
        return true; /* any value */
    type_kind ok = o->kind, nk = n->kind;
    if (ok == nk && (ok == TK_BOOL || ok == TK_STRING || ok == TK_TIME || ok == TK_FLOAT64 || ok == TK_FLOAT32 ||
                     ok == TK_NUMBER))
        return true;
    if (nk == TK_NUMBER && json && (is_signed_int(ok) || is_unsigned_int(ok) || ok == TK_FLOAT64 || ok == TK_FLOAT32))
        return true; /* json.Number reads any JSON number */
    if ((is_signed_int(ok) || is_unsigned_int(ok)) && (is_signed_int(nk) || is_unsigned_int(nk))) {
        if (int_widens(ok, nk))
            return true;
        report(c, at, "%s: type changed from %s to %s: new readers reject values out of its range", path,
               tdesc(c, o0), tdesc(c, n0));
        return false;
    }
    if (nk == TK_FLOAT64 && (ok == TK_FLOAT32 || ((is_signed_int(ok) || is_unsigned_int(ok)) && int_bits(ok) <= 32)))
        return true;
    if (nk == TK_FLOAT32 && (is_signed_int(ok) || is_unsigned_int(ok)) && int_bits(ok) <= 16)
        return true;
    if (ok == TK_TIME && nk == TK_STRING && json)
        return true; /* the RFC 3339 text */
    if (is_bytes(o) || is_bytes(n)) {
        if (is_bytes(o) && is_bytes(n))
            return true;
        /* MessagePack reads str and bin alike into either */
        if (!json && (ok == TK_STRING || nk == TK_STRING))
            return true;
        changed(c, o0, n0, path, at);
        return false;
    }
    if ((ok == TK_SLICE || ok == TK_ARRAY) && (nk == TK_SLICE || nk == TK_ARRAY)) {
        if (nk == TK_ARRAY && (ok == TK_SLICE || n->array_len < o->array_len)) {
            report(c, at, "%s: type changed from %s to %s: new readers drop the elements that do not fit",
                   path, tdesc(c, o0), tdesc(c, n0));
            return false;
        }
        return type_compat(c, o->elem, n->elem, pool_printf(c->pool, "%s[]", path), at);
    }
    if (ok == TK_MAP && nk == TK_MAP) {
        bool good = true;
        ast_type *ko = strip(o->key), *kn = strip(n->key);
        /* integer keys are text on both wires: a string key takes them */
        if (!(kn->kind == TK_STRING && (is_signed_int(ko->kind) || is_unsigned_int(ko->kind))))
            good = type_compat(c, o->key, n->key, pool_printf(c->pool, "%s{key}", path), at);
        return type_compat(c, o->elem, n->elem, pool_printf(c->pool, "%s{}", path), at) && good;
    }
    if (ok == TK_STRUCT && nk == TK_STRUCT) {
        int before = c->breaks;
        compare_struct(c, o, n, path);
        return c->breaks == before;
    }
    changed(c, o0, n0, path, at);
    return false;
}

/* Two declarations of the same wire position: enums by their values, others by their definition. */
static bool compare_named(cctx *c, const ast_decl *od, const ast_decl *nd, const char *path, src_loc at)
{
    for (size_t i = 0; i < c->nseen; i++)
        if (c->seen[i].o == od && c->seen[i].n == nd)
            return true; /* being compared further up */
    if (c->nseen == c->capseen) {
        size_t cap = c->capseen ? c->capseen * 2 : 16;
        decl_pair *p = realloc(c->seen, cap * sizeof *p);
        if (!p)
            tagc_out_of_memory();
        c->seen = p;
        c->capseen = cap;
    }
    c->seen[c->nseen++] = (decl_pair){ od, nd };
    int before = c->breaks;
    if (decl_is_closed_enum(nd) && od->enum_kind != ENUM_NONE && !od->enum_closed) {
        report(c, nd->loc, "%s: enum %s became closed (//tagc:closed): new readers reject values "
                           "outside it", path, nd->name);
    } else if (decl_is_closed_enum(od) && decl_is_closed_enum(nd)) {
        if (od->enum_kind != nd->enum_kind) {
            report(c, nd->loc, "%s: %s enum %s became %s enum", path,
                   od->enum_kind == ENUM_STRING ? "string" : "int", od->name,
                   nd->enum_kind == ENUM_STRING ? "string" : "int");
        } else {
            for (const enum_value *ov = od->values; ov; ov = ov->next) {
                bool kept = od->enum_kind == ENUM_STRING ? ov->str[0] == '\0' : ov->num == 0;
                for (const enum_value *nv = nd->values; nv && !kept; nv = nv->next)
                    kept = od->enum_kind == ENUM_STRING ? strcmp(ov->str, nv->str) == 0 : ov->num == nv->num;
                if (kept)
                    continue;
                if (od->enum_kind == ENUM_STRING)
                    report(c, ov->loc, "%s: value %s = \"%s\" removed from closed enum %s: new readers "
                                       "reject it", path, ov->name, ov->str, nd->name);
                else
                    report(c, ov->loc, "%s: value %s = %lld removed from closed enum %s: new readers "
                                       "reject it", path, ov->name, (long long)ov->num, nd->name);
            }
        }
    } else if (od->enum_kind != ENUM_NONE || (nd->enum_kind != ENUM_NONE && !nd->enum_closed)) {
        /* to or from an open enum (any value of its type), or from a closed one */
        type_compat(c, od->type, nd->type, path, at);
    } else if (nd->enum_kind != ENUM_NONE) {
        report(c, at, "%s: type changed from %s to closed enum %s (//tagc:closed): new readers reject "
                      "values outside it", path, tdesc(c, od->type), nd->name);
    } else if (od->type->kind == TK_STRUCT && nd->type->kind == TK_STRUCT) {
        compare_struct(c, od->type, nd->type, path);
    } else {
        type_compat(c, od->type, nd->type, path, at);
    }
    c->nseen--;
    return c->breaks == before;
}

/* MARK: - Structs */

static const char *wire_name(const cctx *c, const wire_field *w)
{
    return c->fmt == FMT_JSON ? w->json_name : w->msgpack_name;
}

/* Whether strict readers require the field (as the generated decoders decide). */
static bool required(const cctx *c, const wire_field *w)
{
    if (c->fmt == FMT_MSGPACK)
        return !wire_msgpack_omittable(w);
    if (wire_json_omittable(w))
        return false;
    for (size_t j = 0; j + 1 < w->path_len; j++)
        if (w->path[j]->type->kind == TK_PTR)
            return false; /* a nil embedded pointer hides it */
    return true;
}

static bool ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

/* The field of st that reads key `name` (exactly, then JSON's folding), or NULL. */
static const wire_field *find_field(const cctx *c, const ast_type *st, const char *name)
{
    for (size_t i = 0; i < st->wire_count; i++) {
        const char *w = wire_name(c, &st->wire[i]);
        if (w && strcmp(w, name) == 0)
            return &st->wire[i];
    }
    if (c->fmt != FMT_JSON)
        return NULL;
    for (size_t i = 0; i < st->wire_count; i++) {
        const char *w = wire_name(c, &st->wire[i]);
        if (w && ascii(w) && tagc_json_key_fold_eq(name, strlen(name), w, strlen(w)))
            return &st->wire[i];
    }
    return NULL;
}

static void compare_struct(cctx *c, ast_type *os, ast_type *ns, const char *path)
{
    for (size_t i = 0; i < os->wire_count; i++) {
        const wire_field *ow = &os->wire[i];
        const char *name = wire_name(c, ow);
        if (!name)
            continue;
        const char *fpath = pool_printf(c->pool, "%s.%s", path, name);
        const wire_field *nw = find_field(c, ns, name);
        if (!nw) {
            report(c, ow->field->loc, "%s: field %s removed or renamed: old readers no longer receive it%s",
                   fpath, ow->field->name, required(c, ow) ? ", and strict ones reject new data" : "");
            continue;
        }
        src_loc at = nw->field->loc;
        bool ro = required(c, ow), rn = required(c, nw);
        if (!ro && rn)
            report(c, at, "%s: became required in strict mode (lost omitempty): strict new readers reject "
                   "old data without it", fpath);
        else if (ro && !rn)
            report(c, at, "%s: no longer required (omitempty): new writers may leave it out, which strict "
                   "old readers reject", fpath);
        if (c->fmt == FMT_JSON && ow->json_string != nw->json_string)
            report(c, at, "%s: `string` option %s: the value is %s", fpath,
                   nw->json_string ? "added" : "removed", nw->json_string ? "quoted now" : "no longer quoted");
        type_compat(c, ow->field->type, nw->field->type, fpath, at);
    }
    for (size_t i = 0; i < ns->wire_count; i++) {
        const wire_field *nw = &ns->wire[i];
        const char *name = wire_name(c, nw);
        if (!name || find_field(c, os, name) || !required(c, nw))
            continue;
        /* matched the other way round (case-insensitively) counts too */
        bool matched = false;
        for (size_t j = 0; j < os->wire_count && !matched; j++) {
            const char *on = wire_name(c, &os->wire[j]);
            matched = on && find_field(c, ns, on) == nw;
        }
        if (!matched)
            report(c, nw->field->loc, "%s.%s: new field required in strict mode (no omitempty): strict new "
                   "readers reject old data without it", path, name);
    }
}

/* MARK: - Programs */

/* The declaration named like d in prog: the root file's first, then the imports'. */
static const ast_decl *find_decl(const ast_program *prog, const char *name)
{
    for (int pass = 0; pass < 2; pass++)
        for (const ast_file *f = prog->files; f; f = f->next) {
            if (f->is_root != (pass == 0))
                continue;
            for (const ast_decl *d = f->decls; d; d = d->next)
                if (strcmp(d->name, name) == 0)
                    return d;
        }
    return NULL;
}

static int load(ast_program *prog, const char *path, go_profile go, bool go_given)
{
    FILE *fp = fopen(path, "rb");
    int err = fp ? 0 : errno;
    struct stat st;
    if (fp && fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))
        err = EISDIR;
    if (fp)
        fclose(fp);
    if (err == ENOMEM)
        tagc_out_of_memory();
    if (err) {
        fprintf(stderr, "tagc: error: cannot open '%s': %s\n", path, strerror(err));
        return EXIT_USAGE;
    }
    prog->pool = pool_new();
    prog->go = go;
    prog->go_given = go_given;
    diag dg;
    diag_init(&dg, stderr);
    const char *paths[1] = { path };
    if (load_program(prog, paths, 1, &dg) > 0 || check_program(prog, &dg) > 0)
        return EXIT_USAGE; /* the schemas must compile to be compared */
    return 0;
}

static const char compat_usage[] =
    "Usage: tagc compat [--go VERSION] OLD.tagc NEW.tagc\n"
    "Lists every change from OLD to NEW that breaks an old reader of new data or a\n"
    "new reader of old data, for JSON and for MessagePack separately, one line each:\n"
    "  FILE:LINE:COL: error: [json|msgpack] Type.field: what changed\n"
    "(at the change in NEW, or in OLD for what was removed). Types are matched by\n"
    "Go name, fields by wire name: renaming a Go field and keeping its tag is fine.\n"
    "Breaking: a removed or renamed wire name; a changed type (widenings such as\n"
    "int32 -> int64 or float32 -> float64 are safe); a field that strict mode now\n"
    "requires or no longer requires (omitempty lost or gained, a new field without\n"
    "omitempty); a value removed from a closed enum (//tagc:closed), or an enum\n"
    "that became closed (enums are open by default, as in Go: any value of their\n"
    "type reads); the JSON `string` option added or removed.\n"
    "--go VERSION reads both schemas as `tagc --go VERSION` does (their tags'\n"
    "options): 1.27 (the default), 1.26 or 1.19.\n"
    "Exit status: 0 compatible (no output); 1 breaking changes; 2 bad usage, a file\n"
    "that cannot be read, or a schema with errors.\n";

int cmd_compat(int argc, char **argv)
{
    const char *files[2];
    int nfiles = 0;
    bool only_files = false;
    go_profile go = GO_DEFAULT;
    bool go_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && strcmp(a, "--") == 0) {
            only_files = true;
        } else if (!only_files && (strcmp(a, "--go") == 0 || strncmp(a, "--go=", 5) == 0)) {
            const char *val = a[4] == '=' ? a + 5 : i + 1 < argc ? argv[++i] : "";
            if (!go_profile_parse(val, &go)) {
                fputs("tagc compat: error: option '--go' needs a Go release tagc matches: 1.27 (the "
                      "default), 1.26 or 1.19\nTry 'tagc compat --help' for more information.\n", stderr);
                return EXIT_USAGE;
            }
            go_given = true;
        } else if (!only_files && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            fputs(compat_usage, stdout);
            return 0;
        } else if (!only_files && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "tagc compat: error: unknown option '%s'\nTry 'tagc compat --help' for more "
                    "information.\n", a);
            return EXIT_USAGE;
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            nfiles = 3;
        }
    }
    if (nfiles != 2) {
        fputs("tagc compat: error: expected two schemas, OLD.tagc NEW.tagc\nTry 'tagc compat --help' for "
              "more information.\n", stderr);
        return EXIT_USAGE;
    }
    ast_program oldp = { 0 }, newp = { 0 };
    int status = load(&oldp, files[0], go, go_given);
    if (status == 0)
        status = load(&newp, files[1], go, go_given);
    if (status == 0) {
        cctx c = { 0 };
        c.pool = pool_new();
        c.oldp = &oldp;
        c.newp = &newp;
        for (int f = 0; f < 2; f++) {
            c.fmt = f == 0 ? FMT_JSON : FMT_MSGPACK;
            for (const ast_file *file = newp.files; file; file = file->next)
                for (const ast_decl *nd = file->decls; nd; nd = nd->next) {
                    if (find_decl(&newp, nd->name) != nd)
                        continue; /* a name shadowed by the root file's */
                    const ast_decl *od = find_decl(&oldp, nd->name);
                    if (od)
                        compare_named(&c, od, nd, nd->name, nd->loc);
                }
        }
        status = c.breaks ? EXIT_BREAKS : 0;
        free(c.seen);
        pool_free(c.pool);
    }
    ast_program_free(&oldp);
    ast_program_free(&newp);
    return status;
}
