/*
 * load.c - reads the root files and, depth first, every .tagc file they import.
 *
 * A file is identified by its real path, so `a.tagc` and `./a.tagc` are one
 * file, loaded and parsed once. Files go into prog->files after their imports
 * (so an imported file always comes before its importers). Import paths are
 * relative to the importing file. Any other import is a Go package: "time"
 * and "encoding/json" are known, the others' types are resolved later (or
 * have no wire form); each import gets the name it is known by.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "pipeline.h"
#include "oom.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Import chains longer than this are surely a mistake, and the loader recurses. */
enum { MAX_IMPORT_DEPTH = 100 };

typedef struct seen_file {
    struct seen_file *next;
    const char *real;
    ast_file *file;
} seen_file;

typedef struct loader {
    ast_program *prog;
    diag *dg;
    seen_file *seen;
    ast_file **files_tail;
    ast_file *stack[MAX_IMPORT_DEPTH]; /* the files being loaded, for cycle messages */
    int depth;
    const char *const *roots; /* the paths named on the command line */
    int nroots;
    const char **root_dirs;   /* the real directory of each .go root (NULL: none), found
                               * once, on the first import that asks */
} loader;

/* Reads a whole file into the pool. Returns 0 or an errno value. A regular
 * file is read straight into its block (its size from fstat): no copies,
 * since each megabyte of memory touched for the first time costs page faults. */
static int read_source(struct pool *pool, const char *path, char **out, size_t *out_len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return errno;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size < SIZE_MAX / 2) {
        size_t size = (size_t)st.st_size;
        char *text = pool_alloc_uninit(pool, size + 1);
        char extra;
        ssize_t got = read_full(fd, text, size);
        if (got == (ssize_t)size && read_full(fd, &extra, 1) == 0) {
            text[size] = '\0';
            close(fd);
            *out = text;
            *out_len = size;
            return 0;
        }
        if (got < 0) {
            int err = errno;
            close(fd);
            return err;
        }
        lseek(fd, 0, SEEK_SET); /* it changed while read: read it as a stream below */
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int err = 0;
    while (buf) {
        if (len == cap) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                err = ENOMEM;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read_full(fd, buf + len, cap - len);
        if (n < 0) {
            err = errno ? errno : EIO;
            break;
        }
        len += (size_t)n;
        if (len < cap)
            break; /* the end */
    }
    if (!buf)
        err = ENOMEM;
    close(fd);
    if (!err) {
        *out = pool_strndup(pool, buf, len);
        *out_len = len;
    }
    free(buf);
    return err;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The import path as seen from the current directory: relative to the importer's. */
static const char *resolve_import(struct pool *pool, const ast_file *importer, const char *path)
{
    const char *slash = strrchr(importer->path, '/');
    if (path[0] == '/' || !slash)
        return pool_strdup(pool, path);
    return pool_printf(pool, "%.*s%s", (int)(slash - importer->path + 1), importer->path, path);
}

static void report_cycle(loader *ld, const ast_import *im, const ast_file *target)
{
    strbuf sb;
    sb_init(&sb);
    int start = 0;
    while (start < ld->depth && ld->stack[start] != target)
        start++;
    for (int i = start; i < ld->depth; i++) {
        sb_puts(&sb, ld->stack[i]->display);
        sb_puts(&sb, " -> ");
    }
    sb_puts(&sb, target->display);
    diag_error(ld->dg, im->loc, "import cycle: %s", sb.data);
    sb_free(&sb);
}

static ast_file *load_file(loader *ld, const char *path, const ast_import *from);

/* The name a Go import is known by without an alias when its package is
 * not read: the last element of the path, a major version (/v2) or gopkg.in's
 * .v2 and a "go-" prefix dropped, cut at the first byte no identifier has
 * (what goimports assumes). */
static const char *assumed_name(struct pool *pool, const char *path)
{
    const char *end = path + strlen(path);
    const char *start = end;
    while (start > path && start[-1] != '/')
        start--;
    bool version = end - start >= 2 && start[0] == 'v' && strspn(start + 1, "0123456789") == (size_t)(end - start - 1);
    if (version && start > path) {
        end = start - 1;
        start = end;
        while (start > path && start[-1] != '/')
            start--;
    }
    if (end - start > 3 && strncmp(start, "go-", 3) == 0)
        start += 3;
    const char *p = start;
    while (p < end && (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                       (*p >= '0' && *p <= '9')))
        p++;
    return pool_strndup(pool, start, (size_t)(p - start));
}

/* A .go root whose directory is IMPORT/PATH's: its real path ends in
 * /IMPORT/PATH (a package named on the command line is the one imported). */
static const char *root_package_dir(loader *ld, const char *path)
{
    size_t n = strlen(path);
    if (!ld->root_dirs) {
        ld->root_dirs = pool_alloc(ld->prog->pool, (size_t)(ld->nroots + 1) * sizeof *ld->root_dirs);
        for (int i = 0; i < ld->nroots; i++) {
            const char *r = ld->roots[i];
            size_t rn = strlen(r);
            if (rn < 4 || strcmp(r + rn - 3, ".go") != 0)
                continue;
            errno = 0;
            char *real = realpath(r, NULL);
            if (!real && errno == ENOMEM)
                tagc_out_of_memory();
            char *slash = real ? strrchr(real, '/') : NULL;
            if (slash) {
                *slash = '\0'; /* its directory */
                ld->root_dirs[i] = pool_strdup(ld->prog->pool, real);
            }
            free(real);
        }
    }
    for (int i = 0; i < ld->nroots; i++) {
        const char *r = ld->roots[i], *real = ld->root_dirs[i];
        size_t dn = real ? strlen(real) : 0;
        bool match = real && dn > n && real[dn - n - 1] == '/' && strcmp(real + dn - n, path) == 0;
        if (match) { /* its directory as named, so that messages show the root's path */
            const char *rs = strrchr(r, '/');
            return rs ? pool_strndup(ld->prog->pool, r, (size_t)(rs - r)) : ".";
        }
    }
    return NULL;
}

/* The directory of a Go import path: a package named on the command line,
 * else by the -I mappings (first found), else NULL. */
static const char *package_dir(loader *ld, const char *path)
{
    struct pool *pool = ld->prog->pool;
    const char *root = root_package_dir(ld, path);
    if (root)
        return root;
    for (const import_dir *m = ld->prog->import_dirs; m; m = m->next) {
        const char *dir;
        if (m->prefix) {
            size_t n = strlen(m->prefix);
            if (strncmp(path, m->prefix, n) != 0 || (path[n] != '\0' && path[n] != '/'))
                continue;
            dir = pool_printf(pool, "%s%s", m->dir, path + n);
        } else {
            dir = pool_printf(pool, "%s/%s", m->dir, path);
        }
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return dir;
    }
    return NULL;
}

/* Reads the Go package in dir for the import im: one package, its first file
 * im's target. */
static void load_package(loader *ld, ast_import *im, const char *dir)
{
    char **paths = NULL;
    size_t n = 0;
    if (gopkg_list(dir, &paths, &n) != 0 || n == 0) {
        diag_error(ld->dg, im->loc, "no Go files to build in %s (the directory of \"%s\")", dir,
                   im->path);
        free(paths);
        return;
    }
    ast_file **files = calloc(n, sizeof *files);
    if (!files)
        tagc_out_of_memory();
    for (size_t i = 0; i < n; i++) {
        ast_file *g = load_file(ld, paths[i], im);
        if (g && g->load_state == 1) {
            report_cycle(ld, im, g);
            g = NULL;
        }
        files[i] = g;
        free(paths[i]);
    }
    free(paths);
    im->target = gopkg_merge_files(ld->prog, files, n);
    free(files);
    if (im->target && !im->name)
        im->pkg = im->target->package;
}

static void load_imports(loader *ld, ast_file *f)
{
    for (ast_import *im = f->imports; im; im = im->next) {
        bool alias = im->name && strcmp(im->name, "_") != 0 && strcmp(im->name, ".") != 0;
        im->pkg = alias ? im->name : im->name ? NULL : assumed_name(ld->prog->pool, im->path);
        if (!has_suffix(im->path, ".tagc") || strlen(im->path) == strlen(".tagc")) {
            /* a Go package: known (time, encoding/json), found by -I, or not read */
            const char *dir = strcmp(im->path, "time") && strcmp(im->path, "encoding/json")
                                  ? package_dir(ld, im->path) : NULL;
            if (dir)
                load_package(ld, im, dir);
            continue;
        }
        const char *path = resolve_import(ld->prog->pool, f, im->path);
        ast_file *target = load_file(ld, path, im);
        if (target && target->load_state == 1) {
            report_cycle(ld, im, target);
            continue; /* leave target NULL, so no later pass follows the cycle */
        }
        im->target = target;
        if (target && !alias && !im->name)
            im->pkg = target->package;
    }
}

/* Loads path once; reports a failure at the import `from` (NULL for a root). */
static ast_file *load_file(loader *ld, const char *path, const ast_import *from)
{
    struct pool *pool = ld->prog->pool;
    char *real = realpath(path, NULL);
    if (!real) {
        int err = errno;
        if (err == ENOMEM)
            tagc_out_of_memory();
        if (from)
            diag_error(ld->dg, from->loc, "cannot open %s: %s", path, strerror(err));
        else
            diag_error_file(ld->dg, path, "cannot open: %s", strerror(err));
        return NULL;
    }
    for (seen_file *s = ld->seen; s; s = s->next) {
        if (strcmp(s->real, real) == 0) {
            free(real);
            return s->file;
        }
    }
    if (ld->depth == MAX_IMPORT_DEPTH) {
        free(real);
        diag_error(ld->dg, from->loc, "imports nested too deeply (more than %d files)",
                   MAX_IMPORT_DEPTH);
        return NULL;
    }

    char *source = NULL;
    size_t len = 0;
    int err = read_source(pool, path, &source, &len);
    if (err) {
        if (err == ENOMEM)
            tagc_out_of_memory();
        free(real);
        if (from)
            diag_error(ld->dg, from->loc, "cannot read %s: %s", path, strerror(err));
        else
            diag_error_file(ld->dg, path, "cannot read: %s", strerror(err));
        return NULL;
    }
    ast_file *f = pool_alloc(pool, sizeof *f);
    f->path = pool_strdup(pool, path);
    f->display = f->path;
    f->source = source;
    f->source_len = len;
    seen_file *s = pool_alloc(pool, sizeof *s);
    s->real = pool_strdup(pool, real);
    s->file = f;
    s->next = ld->seen;
    ld->seen = s;
    free(real);

    f->load_state = 1;
    ld->stack[ld->depth++] = f;
    parse_file(ld->prog, f, ld->dg);
    load_imports(ld, f);
    ld->depth--;
    f->load_state = 2;
    *ld->files_tail = f;
    ld->files_tail = &f->next;
    return f;
}

int load_program(ast_program *prog, const char *const *paths, int npaths, diag *dg)
{
    if (!prog->pool)
        prog->pool = pool_new();
    int before = dg->errors;
    load_maps(prog, dg);
    loader ld = { .prog = prog, .dg = dg, .roots = paths, .nroots = npaths };
    ld.files_tail = &prog->files;
    while (*ld.files_tail)
        ld.files_tail = &(*ld.files_tail)->next;
    for (int i = 0; i < npaths; i++) {
        ast_file *f = load_file(&ld, paths[i], NULL);
        if (f)
            f->is_root = true;
    }
    gopkg_merge(prog);
    return dg->errors - before;
}
