/*
 * check.c - the semantic checker's driver: declarations and C names, then the
 * passes of check.h, then every diagnostic printed in source order.
 *
 * Passes collect their diagnostics instead of printing them, because each pass
 * walks the whole program: printing at once would list, say, all unknown types
 * before the first malformed tag even when the tag comes first in the file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pipeline.h"

/* MARK: - Hash map */

static size_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a, 64-bit on every target */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

void smap_init(smap *m)
{
    memset(m, 0, sizeof *m);
}

void smap_init_for(smap *m, size_t n)
{
    memset(m, 0, sizeof *m);
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    m->cap = cap;
    m->keys = big_calloc(cap, sizeof *m->keys);
    m->vals = big_calloc(cap, sizeof *m->vals);
}

void smap_free(smap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t smap_slot(const smap *m, const char *key)
{
    size_t i = hash_str(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *smap_get(const smap *m, const char *key)
{
    if (m->cap == 0)
        return NULL;
    size_t i = smap_slot(m, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

static void smap_grow(smap *m)
{
    smap old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->keys = big_calloc(m->cap, sizeof *m->keys);
    m->vals = big_calloc(m->cap, sizeof *m->vals);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i]) {
            size_t j = smap_slot(m, old.keys[i]);
            m->keys[j] = old.keys[i];
            m->vals[j] = old.vals[i];
        }
    free(old.keys);
    free(old.vals);
}

void *smap_put(smap *m, const char *key, void *val)
{
    if (2 * (m->len + 1) > m->cap)
        smap_grow(m);
    size_t i = smap_slot(m, key);
    if (m->keys[i])
        return m->vals[i];
    m->keys[i] = key;
    m->vals[i] = val;
    m->len++;
    return NULL;
}

void smap_set(smap *m, const char *key, void *val)
{
    if (2 * (m->len + 1) > m->cap)
        smap_grow(m);
    size_t i = smap_slot(m, key);
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->len++;
    }
    m->vals[i] = val;
}

/* MARK: - Diagnostics, collected */

static int file_index(const checker *ck, const ast_file *f)
{
    for (size_t i = 0; i < ck->nscopes; i++)
        if (ck->scopes[i].file == f)
            return (int)i;
    return -1;
}

static void collect(checker *ck, src_loc loc, const char *msg, const src_loc *note_loc,
                    const char *note, bool warning)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        tagc_out_of_memory();
    }
    diag tmp;
    diag_init(&tmp, mem);
    if (warning)
        diag_warning(&tmp, loc, "%s", msg);
    else
        diag_error(&tmp, loc, "%s", msg);
    if (note_loc)
        diag_note(&tmp, *note_loc, "%s", note);
    if (fclose(mem) != 0 || !text) /* the stream's buffer could not grow */
        tagc_out_of_memory();
    if (ck->nmsgs == ck->capmsgs) {
        ck->capmsgs = ck->capmsgs ? 2 * ck->capmsgs : 32;
        ck->msgs = realloc(ck->msgs, ck->capmsgs * sizeof *ck->msgs);
        if (!ck->msgs) {
            tagc_out_of_memory();
        }
    }
    ck->msgs[ck->nmsgs] = (check_msg){loc, file_index(ck, loc.file), ck->nmsgs, warning, text};
    ck->nmsgs++;
}

void check_error(checker *ck, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    collect(ck, loc, buf, NULL, NULL, false);
}

void check_warning(checker *ck, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    collect(ck, loc, buf, NULL, NULL, true);
}

void check_error_note(checker *ck, src_loc loc, src_loc note_loc, const char *note,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    collect(ck, loc, buf, &note_loc, note, false);
}

const char *check_where(checker *ck, src_loc loc)
{
    const char *name = loc.file ? (loc.file->display ? loc.file->display : loc.file->path) : "?";
    return pool_printf(ck->pool, "%s:%d:%d", name, loc.line, loc.col);
}

static int cmp_msg(const void *pa, const void *pb)
{
    const check_msg *a = pa, *b = pb;
    if (a->file_index != b->file_index)
        return a->file_index < b->file_index ? -1 : 1;
    if (a->loc.line != b->loc.line)
        return a->loc.line < b->loc.line ? -1 : 1;
    if (a->loc.col != b->loc.col)
        return a->loc.col < b->loc.col ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Prints the collected diagnostics in order, each distinct one once. */
static int flush(checker *ck)
{
    if (ck->nmsgs)
        qsort(ck->msgs, ck->nmsgs, sizeof *ck->msgs, cmp_msg);
    int n = 0;
    for (size_t i = 0; i < ck->nmsgs; i++) {
        if (i == 0 || strcmp(ck->msgs[i].text, ck->msgs[i - 1].text) != 0) {
            fputs(ck->msgs[i].text, ck->dg->out ? ck->dg->out : stderr);
            if (ck->msgs[i].warning)
                ck->dg->warnings++;
            else
                n++;
        }
    }
    for (size_t i = 0; i < ck->nmsgs; i++)
        free(ck->msgs[i].text);
    free(ck->msgs);
    ck->dg->errors += n;
    return n;
}

/* MARK: - Declarations */

file_scope *check_scope(checker *ck, const ast_file *f)
{
    if (f && f->pkg) /* a file of a package: the package's scope */
        f = f->pkg;
    int i = file_index(ck, f);
    return i < 0 ? NULL : &ck->scopes[i];
}

/* Who took a C name first. */
typedef struct claim {
    src_loc loc;
    const char *what;
} claim;

static bool loc_before(const checker *ck, src_loc a, src_loc b)
{
    int fa = file_index(ck, a.file), fb = file_index(ck, b.file);
    if (fa != fb)
        return fa < fb;
    return a.line != b.line ? a.line < b.line : a.col < b.col;
}

void check_claim_c_name(checker *ck, const char *c_name, src_loc loc, const char *what)
{
    claim *c = pool_alloc(ck->pool, sizeof *c);
    *c = (claim){loc, what};
    const claim *prev = smap_put(&ck->c_names, c_name, c);
    if (!prev)
        return;
    /* Reported at whichever comes later in the source, naming the other. */
    const claim *first = loc_before(ck, loc, prev->loc) ? c : prev;
    const claim *second = first == c ? prev : c;
    check_error(ck, second->loc, "%s has the C name \"%s\", already used by %s at %s",
                second->what, c_name, first->what, check_where(ck, first->loc));
}

static bool is_ascii_ident(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

static const char *const builtin_types[] = {
    "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "byte", "rune", "float32", "float64", "any", "error", "uintptr",
    "complex64", "complex128",
};

static bool is_builtin_name(const char *s)
{
    for (size_t i = 0; i < sizeof builtin_types / sizeof builtin_types[0]; i++)
        if (strcmp(s, builtin_types[i]) == 0)
            return true;
    return false;
}

static void check_decl(checker *ck, file_scope *sc, ast_decl *d, bool lower)
{
    if (!is_ascii_ident(d->name)) {
        check_error(ck, d->loc, "type name \"%s\" is not ASCII: C names must be", d->name);
    } else if (is_builtin_name(d->name)) {
        check_error(ck, d->loc, "type \"%s\" shadows the predeclared type \"%s\"", d->name,
                    d->name);
    }
    if (strcmp(d->name, "_") == 0) {
        check_error(ck, d->loc, "a type cannot be named \"_\"");
        return;
    }
    d->c_name = c_safe_name(ck->pool, pool_printf(ck->pool, "%s_%s", sc->prefix,
                                                  c_snake_name(ck->pool, d->name)));
    size_t plen = d->loc.file && d->loc.file->path ? strlen(d->loc.file->path) : 0;
    bool go = plen > 3 && strcmp(d->loc.file->path + plen - 3, ".go") == 0;
    if (lower && go && smap_get(&ck->c_names, d->c_name)) /* .go files: Go's rule; .tagc: an error */
        d->c_name = pool_printf(ck->pool, "%s_", d->c_name);
    d->c_upper = c_upper_name(ck->pool, d->c_name);
    ast_decl *prev = smap_put(&sc->decls, d->name, d);
    if (prev) {
        check_error(ck, d->loc, "duplicate type \"%s\" (previous declaration at %s)", d->name,
                    check_where(ck, prev->loc));
        return;
    }
    check_claim_c_name(ck, d->c_name, d->loc, pool_printf(ck->pool, "type \"%s\"", d->name));
}

/* Package prefixes, type names and their C names; duplicates in a file. */
static void check_decls(checker *ck)
{
    for (size_t i = 0; i < ck->nscopes; i++) {
        file_scope *sc = &ck->scopes[i];
        ast_file *f = sc->file;
        const char *pkg = f->package ? f->package : "";
        if (!is_ascii_ident(pkg))
            check_error(ck, f->package_loc, "package name \"%s\" is not ASCII: C names must be",
                        pkg);
        const ast_file *pf = f->pkg ? f->pkg : f;
        sc->prefix = pf->c_prefix ? pf->c_prefix : c_snake_name(ck->pool, pkg);
        /* exported types claim their C names first: Go lets `digester` and
         * `Digester` live side by side, and the unexported one gets a
         * trailing underscore on a clash (digest_digester_) */
        for (int pass = 0; pass < 2; pass++)
            for (ast_decl *d = f->decls; d; d = d->next) {
                bool lower = !(d->name[0] >= 'A' && d->name[0] <= 'Z');
                if (lower != (pass == 1))
                    continue;
                check_decl(ck, sc, d, lower);
            }
    }
}

int check_program(ast_program *prog, diag *dg)
{
    checker ck = {0};
    ck.prog = prog;
    ck.pool = prog->pool;
    ck.dg = dg;
    smap_init(&ck.c_names);
    for (ast_file *f = prog->files; f; f = f->next)
        ck.nscopes++;
    ck.scopes = calloc(ck.nscopes ? ck.nscopes : 1, sizeof *ck.scopes);
    if (!ck.scopes) {
        tagc_out_of_memory();
    }
    size_t i = 0;
    for (ast_file *f = prog->files; f; f = f->next, i++)
        ck.scopes[i].file = f;

    check_go_directive(&ck); /* the profile every pass reads */
    check_decls(&ck);
    check_resolve(&ck);
    check_methods(&ck);
    check_recursion(&ck);
    check_fields(&ck);
    check_enums(&ck);
    check_directives(&ck);
    check_wire(&ck);
    check_nowire(&ck);

    for (i = 0; i < ck.nscopes; i++)
        smap_free(&ck.scopes[i].decls);
    free(ck.scopes);
    smap_free(&ck.c_names);
    smap_free(&ck.instances);
    return flush(&ck);
}
