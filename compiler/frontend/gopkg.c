/*
 * gopkg.c - Go packages as tagc reads them: a directory named on the command
 * line stands for its package's files, and the .go files of one package (one
 * directory, one package clause) are one scope with one pair of outputs.
 *
 * A directory's files are those `go build` would compile on linux/amd64 with
 * Go 1.19: *.go but not *_test.go nor names starting with '_' or '.', no
 * _GOOS/_GOARCH suffix of another system, and a //go:build line (or, without
 * one, // +build lines) that holds. Files named one by one are all read.
 */
#define _XOPEN_SOURCE 700

#include "pipeline.h"
#include "oom.h"

#include <errno.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* MARK: - Build constraints */

static const char *const known_os[] = {
    "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
    "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "windows", "zos",
};
static const char *const known_arch[] = {
    "386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips",
    "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le",
    "riscv", "riscv64", "s390", "s390x", "sparc", "sparc64", "wasm",
};

static bool in_list(const char *s, size_t n, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(list[i]) == n && strncmp(list[i], s, n) == 0)
            return true;
    return false;
}

/* A build tag holds for linux/amd64, gc, Go 1.19 and nothing custom. */
static bool tag_holds(const char *s, size_t n)
{
    static const char *const yes[] = { "linux", "amd64", "unix", "gc", "cgo" };
    if (in_list(s, n, yes, sizeof yes / sizeof *yes))
        return true;
    if (n > 4 && strncmp(s, "go1.", 4) == 0) {
        int minor = atoi(s + 4);
        return minor >= 1 && minor <= 19;
    }
    return false;
}

typedef struct expr_in {
    const char *p, *end;
    bool bad;
} expr_in;

static void skip_space(expr_in *in)
{
    while (in->p < in->end && (*in->p == ' ' || *in->p == '\t'))
        in->p++;
}

static bool parse_or(expr_in *in);

static bool parse_unary(expr_in *in)
{
    skip_space(in);
    if (in->p < in->end && *in->p == '!') {
        in->p++;
        return !parse_unary(in);
    }
    if (in->p < in->end && *in->p == '(') {
        in->p++;
        bool v = parse_or(in);
        skip_space(in);
        if (in->p < in->end && *in->p == ')')
            in->p++;
        else
            in->bad = true;
        return v;
    }
    const char *s = in->p;
    while (in->p < in->end && (*in->p == '_' || *in->p == '.' || (*in->p >= 'a' && *in->p <= 'z') ||
                               (*in->p >= 'A' && *in->p <= 'Z') || (*in->p >= '0' && *in->p <= '9')))
        in->p++;
    if (in->p == s)
        in->bad = true;
    return tag_holds(s, (size_t)(in->p - s));
}

static bool parse_and(expr_in *in)
{
    bool v = parse_unary(in);
    for (;;) {
        skip_space(in);
        if (in->end - in->p < 2 || strncmp(in->p, "&&", 2) != 0)
            return v;
        in->p += 2;
        bool w = parse_unary(in);
        v = v && w;
    }
}

static bool parse_or(expr_in *in)
{
    bool v = parse_and(in);
    for (;;) {
        skip_space(in);
        if (in->end - in->p < 2 || strncmp(in->p, "||", 2) != 0)
            return v;
        in->p += 2;
        bool w = parse_and(in);
        v = v || w;
    }
}

/* `// +build a,b c`: space-separated alternatives of comma-joined tags. */
static bool plus_build_holds(const char *p, const char *end)
{
    bool any = false;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p == end)
            break;
        bool all = true;
        while (p < end && *p != ' ' && *p != '\t') {
            const char *s = p;
            while (p < end && *p != ',' && *p != ' ' && *p != '\t')
                p++;
            bool neg = *s == '!';
            bool v = tag_holds(s + neg, (size_t)(p - s - neg));
            all = all && (neg ? !v : v);
            if (p < end && *p == ',')
                p++;
        }
        any = any || all;
    }
    return any;
}

/* The constraints in the comments before the package clause. */
static bool constraints_hold(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    bool have_go_build = false, go_build = true, plus = true;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
            s++;
        const char *e = eol;
        while (e > s && (e[-1] == '\r' || e[-1] == ' '))
            e--;
        if (e - s >= 10 && strncmp(s, "//go:build", 10) == 0 && (e - s == 10 || s[10] == ' ')) {
            expr_in in = { s + 10, e, false };
            go_build = parse_or(&in);
            have_go_build = true;
        } else if (e - s >= 9 && strncmp(s, "// +build ", 9) == 0) {
            plus = plus && plus_build_holds(s + 9, e);
        } else if (s < e && strncmp(s, "//", 2) != 0) {
            break; /* the package clause (or a block comment): constraints end */
        }
        p = eol + 1;
    }
    return have_go_build ? go_build : plus;
}

/* name_GOOS.go, name_GOARCH.go, name_GOOS_GOARCH.go of another system. */
static bool name_holds(const char *name)
{
    size_t n = strlen(name) - 3; /* without .go */
    const char *parts[2];
    size_t lens[2];
    int k = 0;
    const char *end = name + n;
    for (const char *p = end; p > name && k < 2; p--) {
        if (p[-1] != '_')
            continue;
        parts[k] = p;
        lens[k] = (size_t)(end - p);
        end = p - 1;
        k++;
    }
    /* parts[0] is the last element, parts[1] the one before */
    if (k >= 1 && in_list(parts[0], lens[0], known_arch, sizeof known_arch / sizeof *known_arch)) {
        if (strncmp(parts[0], "amd64", lens[0]) != 0 || lens[0] != 5)
            return false;
        if (k == 2 && in_list(parts[1], lens[1], known_os, sizeof known_os / sizeof *known_os))
            return lens[1] == 5 && strncmp(parts[1], "linux", 5) == 0;
        return true;
    }
    if (k >= 1 && in_list(parts[0], lens[0], known_os, sizeof known_os / sizeof *known_os))
        return lens[0] == 5 && strncmp(parts[0], "linux", 5) == 0;
    return true;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (errno == ENOMEM)
            tagc_out_of_memory();
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap ? 2 * cap : 8192;
            char *b = realloc(buf, cap);
            if (!b)
                tagc_out_of_memory();
            buf = b;
        }
        size_t got = fread(buf + n, 1, 4096, fp);
        n += got;
        if (got < 4096)
            break;
    }
    fclose(fp);
    *len = n;
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool gopkg_file_builds(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (name[0] == '_' || name[0] == '.' || !has_suffix(name, ".go") || has_suffix(name, "_test.go"))
        return false;
    if (!name_holds(name))
        return false;
    size_t len = 0;
    char *text = read_all(path, &len);
    if (!text)
        return true; /* the loader reports it */
    bool ok = constraints_hold(text, len);
    free(text);
    return ok;
}

/* MARK: - Directories */

int gopkg_list(const char *dir, char ***out, size_t *nout)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t cap = 16, n = 0;
    char **files = malloc(cap * sizeof *files);
    if (!files)
        tagc_out_of_memory();
    size_t dn = strlen(dir);
    const char *sep = dn && dir[dn - 1] == '/' ? "" : "/";
    for (struct dirent *e; files && (e = readdir(d));) {
        size_t len = dn + strlen(sep) + strlen(e->d_name) + 1;
        char *path = malloc(len);
        if (!path)
            tagc_out_of_memory();
        if (strcmp(dir, ".") == 0 || strcmp(dir, "./") == 0)
            snprintf(path, len, "%s", e->d_name); /* as Go shows them */
        else
            snprintf(path, len, "%s%s%s", dir, sep, e->d_name);
        if (!gopkg_file_builds(path)) {
            free(path);
            continue;
        }
        if (n == cap) {
            char **more = realloc(files, (cap *= 2) * sizeof *files);
            if (!more)
                tagc_out_of_memory();
            files = more;
        }
        files[n++] = path;
    }
    closedir(d);
    if (!files)
        return -1;
    qsort(files, n, sizeof *files, cmp_str);
    *out = files;
    *nout = n;
    return 0;
}

int gopkg_expand(const char *const *args, int nargs, char ***out, int *nout)
{
    size_t cap = (size_t)nargs + 16, n = 0;
    char **files = malloc(cap * sizeof *files);
    if (!files)
        tagc_out_of_memory();
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        char **list = NULL;
        size_t nlist = 0;
        /* a directory called *.tagc is not a package: main reports it */
        if (stat(args[i], &st) != 0 || !S_ISDIR(st.st_mode) || has_suffix(args[i], ".tagc")) {
            list = malloc(sizeof *list);
            if (!list || !(list[nlist++] = strdup(args[i])))
                tagc_out_of_memory();
        } else if (gopkg_list(args[i], &list, &nlist) != 0 || nlist == 0) {
            fprintf(stderr, "tagc: error: %s '%s'\n",
                    list ? "no Go files to build in directory" : "cannot read directory", args[i]);
            free(list);
            list = NULL;
        }
        if (!list) {
            for (size_t k = 0; k < n; k++)
                free(files[k]);
            free(files);
            return -1;
        }
        if (n + nlist > cap) {
            cap = 2 * (n + nlist);
            char **more = realloc(files, cap * sizeof *files);
            if (!more)
                tagc_out_of_memory();
            files = more;
        }
        memcpy(files + n, list, nlist * sizeof *list);
        n += nlist;
        free(list);
    }
    *out = files;
    *nout = (int)n;
    return 0;
}

/* MARK: - One package, one scope */

/* v1, v2, v1beta1, v2alpha3: a version, as Kubernetes and OCI name packages. */
static bool version_name(const char *s)
{
    if (s[0] != 'v' || !(s[1] >= '0' && s[1] <= '9'))
        return false;
    s++;
    while (*s >= '0' && *s <= '9')
        s++;
    if (!*s)
        return true;
    if (strncmp(s, "alpha", 5) == 0)
        s += 5;
    else if (strncmp(s, "beta", 4) == 0)
        s += 4;
    else
        return false;
    if (!(*s >= '0' && *s <= '9'))
        return false;
    while (*s >= '0' && *s <= '9')
        s++;
    return !*s;
}

/* A package's C prefix and outputs: its name, except that a version name
 * (package v1) takes its directory's parent's too, so that k8s's core/v1 and
 * meta/v1 are core_v1 and meta_v1, not two v1 (types and files clashing). */
static void name_package(ast_program *prog, ast_file *f)
{
    if (f->out_base || !f->package)
        return;
    const char *prefix = c_snake_name(prog->pool, f->package);
    char *real = version_name(f->package) ? realpath(f->path, NULL) : NULL;
    if (real) { /* the real path: the name does not depend on where tagc runs */
        const char *end = strrchr(real, '/'); /* the package's directory ends here */
        const char *dir_end = end, *start = NULL;
        if (end) { /* the directory's own name, then its parent's */
            const char *p = end;
            while (p > real && p[-1] != '/')
                p--;
            dir_end = p > real ? p - 1 : NULL;
        }
        if (dir_end) {
            start = dir_end;
            while (start > real && start[-1] != '/')
                start--;
        }
        if (start && dir_end > start && !(dir_end - start == 1 && *start == '.')) {
            char *parent = c_snake_name(prog->pool, pool_strndup(prog->pool, start, (size_t)(dir_end - start)));
            for (char *q = parent; *q; q++)
                if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')))
                    *q = '_';
            prefix = pool_printf(prog->pool, "%s_%s", parent, prefix);
            f->c_prefix = prefix;
        }
        free(real);
    }
    f->out_base = pool_printf(prog->pool, "%s.go", prefix);
}

/* Makes g a file of f's package: f holds every declaration, const block and
 * method (g keeps its imports: those are per file in Go). */
static void merge_into(ast_file *f, ast_file *g)
{
    g->pkg = f;
    ast_decl **d = &f->decls;
    while (*d)
        d = &(*d)->next;
    *d = g->decls;
    for (ast_decl *e = g->decls; e; e = e->next)
        e->file = f; /* generated with the package; e->loc.file is where it is written */
    const_block **c = &f->consts;
    while (*c)
        c = &(*c)->next;
    *c = g->consts;
    ast_method **m = &f->methods;
    while (*m)
        m = &(*m)->next;
    *m = g->methods;
    g->decls = NULL;
    g->consts = NULL;
    g->methods = NULL;
}

ast_file *gopkg_merge_files(ast_program *prog, ast_file **files, size_t n)
{
    ast_file *first = NULL;
    for (size_t i = 0; i < n; i++) {
        ast_file *g = files[i];
        if (!g)
            continue;
        if (g->pkg) /* already merged (named and imported): its package's first file */
            return g->pkg;
        if (!first) {
            first = g;
            name_package(prog, g);
            continue;
        }
        if (g != first && g->package && first->package && !strcmp(g->package, first->package))
            merge_into(first, g);
    }
    return first;
}

/* The .go roots of one directory and one package become one, named after
 * the package. */
void gopkg_merge(ast_program *prog)
{
    for (ast_file *f = prog->files; f; f = f->next) {
        if (!f->is_root || f->pkg || !has_suffix(f->path, ".go") || !f->package)
            continue;
        name_package(prog, f);
        const char *slash = strrchr(f->path, '/');
        size_t dir_len = slash ? (size_t)(slash - f->path) : 0;
        for (ast_file *g = f->next; g; g = g->next) {
            if (!g->is_root || g->pkg || g->out_base || !has_suffix(g->path, ".go") ||
                !g->package || strcmp(g->package, f->package) != 0)
                continue;
            const char *gs = strrchr(g->path, '/');
            size_t glen = gs ? (size_t)(gs - g->path) : 0;
            if (glen != dir_len || strncmp(f->path, g->path, dir_len) != 0)
                continue;
            merge_into(f, g);
        }
    }
}
