/*
 * main.c - the tagc command line (SPEC section 4): options, then the pipeline
 * load -> check -> generate -> write, each stage stopping on errors.
 *
 * Exit status: 0 success, 1 errors in the input (including a missing or cyclic
 * import), 2 bad usage, I/O failure (including a root file that cannot be read)
 * or out of memory (oom.c).
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "pipeline.h"
#include "compat.h"
#include "validate.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TAGC_VERSION_STRING
#define TAGC_VERSION_STRING "unknown"
#endif

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "Usage: tagc [options] FILE.tagc... | FILE.go... | DIR...\n"
    "       tagc validate [--format json|jsonl|msgpack] [--strict] FILE.tagc TYPE [DATA...]\n"
    "       tagc compat OLD.tagc NEW.tagc\n"
    "       tagc --version | --help\n"
    "\n"
    "Generates C types and codecs from Go struct declarations: for each FILE.tagc\n"
    "named on the command line, FILE.tagc.h and FILE.tagc.c in the output directory.\n"
    "Imported schemas are read and checked but not generated: name them too.\n"
    "The .go files of one directory and package (or a DIR: the files go build\n"
    "would compile) are one package: PACKAGE.go.h and PACKAGE.go.c.\n"
    "\n"
    "validate: does each DATA file (or stdin) decode as TYPE, exactly as the generated\n"
    "  decoder decides? Rejections: DATA:LINE:COL: error: PATH: MESSAGE; exit 1.\n"
    "compat: lists the changes from OLD to NEW that break old readers of new data\n"
    "  or new readers of old data, for JSON and MessagePack; exit 1 if any.\n"
    "  See 'tagc validate --help' and 'tagc compat --help'.\n"
    "\n"
    "Options:\n"
    "  -o, --out-dir DIR   write the generated files into DIR (default: .)\n"
    "  --json, --no-json   generate the JSON encoders and decoders (default: on)\n"
    "  --msgpack, --no-msgpack\n"
    "                      generate the MessagePack codecs (default: on)\n"
    "  --msgpack-compact-ints\n"
    "                      write every integer in its smallest MessagePack format\n"
    "                      (vmihailenco/msgpack's UseCompactInts(true), tinylib/msgp);\n"
    "                      default: int8..int64, uint8..uint64 in their own width,\n"
    "                      int and uint smallest, as vmihailenco/msgpack's default\n"
    "  --go VERSION        write and read the bytes of that Go's encoding/json:\n"
    "                      1.27 (the default: Go 1.27), 1.26 (Go 1.22-1.26, and\n"
    "                      1.27 under GOEXPERIMENT=nojsonv2) or 1.19 (Go 1.19-1.21)\n"
    "  --msgpack-sort-keys write map keys sorted (vmihailenco's SetSortMapKeys(true));\n"
    "                      default: in stored order\n"
    "  --depfile FILE      write a Make-style depfile listing every schema read\n"
    "  -I, --import-dir IMPORT/PATH=DIR | DIR\n"
    "                      where the Go packages imported are: IMPORT/PATH/x is in\n"
    "                      DIR/x; a bare DIR is a root (DIR/IMPORT/PATH, as GOPATH/src)\n"
    "  --map FILE          types of Go packages not read, and what they are on the wire\n"
    "                      (lines: IMPORT/PATH.Type WIRE-TYPE, or codec SETTINGS\n"
    "                      for C functions of yours; see tagc(1))\n"
    "  --check             parse and check only; write nothing\n"
    "  --emit-json-schema DIR\n"
    "                      write DIR/<Type>.schema.json (JSON Schema 2020-12) for\n"
    "                      every type instead of C; --strict adds the strict-mode\n"
    "                      <Type>.strict.schema.json\n"
    "  --version           print the version and exit\n"
    "  -h, --help          print this help and exit\n"
    "\n"
    "Exit status: 0 success; 1 errors in the schemas (a missing or cyclic import\n"
    "included); 2 bad usage, an I/O failure (a FILE that cannot be read included)\n"
    "or out of memory.\n"
    "Unchanged outputs are not rewritten, so their modification times are kept.\n";

typedef struct options {
    const char *out_dir;
    const char *depfile;
    bool check_only;
    const char *schema_dir; /* --emit-json-schema */
    bool schema_strict;
    gen_opts gen;
    bool go_given; /* --go */
    const char **files;
    int nfiles;
    const char **imports; /* -I values */
    int nimports;
    const char **maps;    /* --map files, NULL-terminated */
    int nmaps;
} options;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("tagc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'tagc --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* MARK: - Subcommands (validate.c, compat.c) */

static const struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
} subcommands[] = {
    { "validate", cmd_validate },
    { "compat", cmd_compat },
};

/* MARK: - Options */

/* Matches `--name VALUE`, `--name=VALUE` (and `-o VALUE`, `-oVALUE` for short). */
static int option_value(int argc, char **argv, int *i, const char *long_name,
                        const char *short_name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(long_name);
    const char *inline_value = NULL;
    if (strncmp(a, long_name, n) == 0 && (a[n] == '\0' || a[n] == '=')) {
        inline_value = a[n] == '=' ? a + n + 1 : NULL;
    } else if (short_name && strncmp(a, short_name, 2) == 0) {
        inline_value = a[2] ? a + 2 : NULL;
    } else {
        return 0;
    }
    if (inline_value) {
        *value = inline_value;
        return 1;
    }
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

/* Returns -1 to go on, else the exit status (after --help, --version or an error). */
static int parse_options(int argc, char **argv, options *o)
{
    o->out_dir = ".";
    o->gen.json = o->gen.msgpack = true;
    o->gen.go = GO_DEFAULT;
    o->files = calloc((size_t)argc, sizeof *o->files);
    o->imports = calloc((size_t)argc, sizeof *o->imports);
    o->maps = calloc((size_t)argc + 1, sizeof *o->maps);
    if (!o->files || !o->imports || !o->maps)
        tagc_out_of_memory();
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            o->files[o->nfiles++] = a;
            continue;
        }
        int r;
        const char *value;
        if (strcmp(a, "--") == 0)
            only_files = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            puts("tagc " TAGC_VERSION_STRING);
            return 0;
        } else if (strcmp(a, "--json") == 0)
            o->gen.json = true;
        else if (strcmp(a, "--no-json") == 0)
            o->gen.json = false;
        else if (strcmp(a, "--msgpack") == 0)
            o->gen.msgpack = true;
        else if (strcmp(a, "--no-msgpack") == 0)
            o->gen.msgpack = false;
        else if (strcmp(a, "--msgpack-compact-ints") == 0)
            o->gen.msgpack_compact_ints = true;
        else if (strcmp(a, "--msgpack-sort-keys") == 0)
            o->gen.msgpack_sort_keys = true;
        else if (strcmp(a, "--check") == 0)
            o->check_only = true;
        else if (strcmp(a, "--strict") == 0)
            o->schema_strict = true;
        else if ((r = option_value(argc, argv, &i, "--go", NULL, &value)) != 0) {
            if (r < 0 || !go_profile_parse(value, &o->gen.go))
                return usage_error("option '--go' needs a Go release tagc matches: %s",
                                   "1.27 (the default), 1.26 or 1.19");
            o->go_given = true;
        } else if ((r = option_value(argc, argv, &i, "--emit-json-schema", NULL, &o->schema_dir)) != 0) {
            if (r < 0)
                return usage_error("option '%s' needs a directory", a);
        }
        else if ((r = option_value(argc, argv, &i, "--out-dir", "-o", &o->out_dir)) != 0) {
            if (r < 0)
                return usage_error("option '%s' needs a directory", a);
        } else if ((r = option_value(argc, argv, &i, "--depfile", NULL, &o->depfile)) != 0) {
            if (r < 0)
                return usage_error("option '%s' needs a file name", a);
        } else if ((r = option_value(argc, argv, &i, "--import-dir", "-I", &o->imports[o->nimports])) != 0) {
            if (r < 0)
                return usage_error("option '%s' needs IMPORT/PATH=DIR or DIR", a);
            o->nimports++;
        } else if ((r = option_value(argc, argv, &i, "--map", NULL, &o->maps[o->nmaps])) != 0) {
            if (r < 0)
                return usage_error("option '%s' needs a file name", a);
            o->nmaps++;
        } else
            return usage_error("unknown option '%s'", a);
    }
    if (o->nfiles == 0)
        return usage_error("%s", "no input files");
    if (o->schema_strict && !o->schema_dir)
        return usage_error("%s", "--strict needs --emit-json-schema");
    return -1;
}

/* MARK: - Generation */

typedef struct root {
    const char *arg;   /* as named on the command line */
    char *real;        /* its real path: how it is found among the loaded files */
    char *out_h, *out_c;
    bool duplicate;    /* the same file named twice: generated once */
    bool go;           /* a .go file: outputs per package, PACKAGE.go.h and .c */
} root;

static char *out_path(const char *dir, const char *input, const char *ext)
{
    const char *slash = strrchr(input, '/');
    const char *base = slash ? slash + 1 : input;
    size_t n = strlen(base);
    bool tagc = (n > 5 && strcmp(base + n - 5, ".tagc") == 0) ||
                (n > 3 && strcmp(base + n - 3, ".go") == 0); /* NAME.go.h, as gen_c includes it */
    size_t dn = strlen(dir);
    const char *sep = dn > 0 && dir[dn - 1] == '/' ? "" : "/";
    size_t size = dn + strlen(sep) + n + sizeof ".tagc" + strlen(ext) + 1;
    char *p = malloc(size);
    if (p)
        snprintf(p, size, "%s%s%s%s%s", dir, sep, base, tagc ? "" : ".tagc", ext);
    return p;
}

/* Roots must be readable files: anything else is an I/O error (status 2). */
static int prepare_roots(const options *o, root *roots)
{
    for (int i = 0; i < o->nfiles; i++) {
        root *r = &roots[i];
        r->arg = o->files[i];
        struct stat st;
        int err = stat(r->arg, &st) == 0 ? 0 : errno;
        if (!err && S_ISDIR(st.st_mode)) {
            err = EISDIR; /* directories were replaced by their files (gopkg_expand) */
        } else if (!err && S_ISREG(st.st_mode)) {
            FILE *fp = fopen(r->arg, "rb");
            err = fp ? 0 : errno;
            if (err == ENOMEM)
                tagc_out_of_memory();
            if (fp)
                fclose(fp);
        } else if (!err && access(r->arg, R_OK) != 0) {
            err = errno; /* a pipe is not opened twice: its writer would see the first close */
        }
        if (err) {
            fprintf(stderr, "tagc: error: cannot open '%s': %s\n", r->arg, strerror(err));
            return EXIT_USAGE;
        }
        errno = 0;
        r->real = realpath(r->arg, NULL);
        if (!r->real && errno != ENOMEM) {
            fprintf(stderr, "tagc: error: '%s': %s\n", r->arg, strerror(errno));
            return EXIT_USAGE;
        }
        size_t alen = strlen(r->arg);
        r->go = alen > 3 && strcmp(r->arg + alen - 3, ".go") == 0;
        if (r->go && r->real) /* named after its package, once loaded */
            continue;
        r->out_h = out_path(o->out_dir, r->arg, ".h");
        r->out_c = out_path(o->out_dir, r->arg, ".c");
        if (!r->real || !r->out_h || !r->out_c)
            tagc_out_of_memory();
        for (int j = 0; j < i; j++) {
            if (roots[j].go || strcmp(roots[j].out_h, r->out_h) != 0)
                continue;
            if (strcmp(roots[j].real, r->real) != 0) {
                fprintf(stderr, "tagc: error: '%s' and '%s' would both write %s\n",
                        roots[j].arg, r->arg, r->out_h);
                return EXIT_USAGE;
            }
            r->duplicate = true;
        }
    }
    return 0;
}

static const ast_file *find_root(const ast_program *prog, const root *r)
{
    for (const ast_file *f = prog->files; f; f = f->next) {
        if (!f->is_root)
            continue;
        char *real = realpath(f->path, NULL);
        if (!real && errno == ENOMEM)
            tagc_out_of_memory();
        bool same = real && strcmp(real, r->real) == 0;
        free(real);
        if (same)
            return f;
    }
    return NULL;
}

static int make_out_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    if (mkdir(dir, 0777) != 0) {
        fprintf(stderr, "tagc: error: cannot create directory '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* Writes r's .h and .c, each a piece at a time while it is generated (by two
 * threads: gen_files), as one change: both temporary files are complete before
 * either is renamed, so a failed write (EFBIG, ENOSPC) leaves the old pair. The
 * two renames run with signals blocked, so that a signal cannot fall between. */
static int generate_file(const ast_program *prog, const ast_file *f, const gen_opts *o,
                         const root *r, diag *dg)
{
    emit_stream h, c;
    emit_open(&h, r->out_h, dg);
    emit_open(&c, r->out_c, dg);
    strbuf hb, cb;
    sb_init(&hb);
    sb_init(&cb);
    hb.flush = cb.flush = emit_flush;
    hb.flush_ctx = &h;
    cb.flush_ctx = &c;
    gen_files(prog, f, o, &hb, &cb);
    sb_flush(&hb);
    sb_flush(&cb);
    sb_free(&hb);
    sb_free(&cb);
    int hf = emit_finish(&h);
    int cf = hf == 0 ? emit_finish(&c) : -1;
    if (hf != 0 || cf != 0) {
        emit_discard(&h);
        emit_discard(&c);
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* the threads are done: this is the only one */
    int rc = emit_commit(&h);
    if (rc == 0)
        rc = emit_commit(&c);
    else
        emit_discard(&c);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int generate(const ast_program *prog, const options *o, root *roots, diag *dg)
{
    if (make_out_dir(o->out_dir) != 0)
        return EXIT_USAGE;
    for (int i = 0; i < o->nfiles; i++) {
        root *r = &roots[i];
        if (r->duplicate)
            continue;
        const ast_file *f = find_root(prog, r);
        if (!f) {
            fprintf(stderr, "tagc: error: '%s' was not loaded\n", r->arg);
            return EXIT_USAGE;
        }
        if (r->go) { /* one pair of outputs per package, from its first file */
            if (f->pkg || !f->out_base) {
                r->duplicate = true;
                continue;
            }
            r->out_h = out_path(o->out_dir, f->out_base, ".h");
            r->out_c = out_path(o->out_dir, f->out_base, ".c");
            if (!r->out_h || !r->out_c)
                return EXIT_USAGE;
            for (int j = 0; j < i; j++)
                if (!roots[j].duplicate && roots[j].out_h && !strcmp(roots[j].out_h, r->out_h)) {
                    fprintf(stderr, "tagc: error: '%s' and '%s' would both write %s (two packages "
                                    "%s: compile them into different directories with -o)\n",
                            roots[j].arg, r->arg, r->out_h, f->package);
                    return EXIT_USAGE;
                }
        }
        if (generate_file(prog, f, &o->gen, r, dg) != 0)
            return EXIT_USAGE;
    }
    if (o->depfile) {
        const char **targets = calloc((size_t)o->nfiles * 2, sizeof *targets);
        if (!targets)
            tagc_out_of_memory();
        int n = 0;
        for (int i = 0; i < o->nfiles; i++) {
            if (roots[i].duplicate)
                continue;
            targets[n++] = roots[i].out_h;
            targets[n++] = roots[i].out_c;
        }
        int rc = write_depfile(o->depfile, targets, n, prog, dg);
        free(targets);
        if (rc != 0)
            return EXIT_USAGE;
    }
    return 0;
}

static int cmd_generate(int argc, char **argv)
{
    options o = { 0 };
    int status = parse_options(argc, argv, &o);
    root *roots = NULL;
    ast_program prog = { 0 };
    char **expanded = NULL;
    int nexpanded = 0;
    if (status >= 0)
        goto done;
    if (gopkg_expand(o.files, o.nfiles, &expanded, &nexpanded) != 0) {
        status = EXIT_USAGE;
        goto done;
    }
    free(o.files);
    o.files = (const char **)expanded;
    o.nfiles = nexpanded;
    roots = calloc((size_t)o.nfiles, sizeof *roots);
    if (!roots)
        tagc_out_of_memory();
    if ((status = prepare_roots(&o, roots)) != 0) {
        status = EXIT_USAGE;
        goto done;
    }

    tmpfiles_catch_signals();
    diag dg;
    diag_init(&dg, stderr);
    prog.pool = pool_new();
    import_dir **tail = &prog.import_dirs;
    for (int i = 0; i < o.nimports; i++) {
        import_dir *m = pool_alloc(prog.pool, sizeof *m);
        const char *eq = strchr(o.imports[i], '=');
        m->prefix = eq ? pool_strndup(prog.pool, o.imports[i], (size_t)(eq - o.imports[i])) : NULL;
        m->dir = eq ? eq + 1 : o.imports[i];
        *tail = m;
        tail = &m->next;
    }
    prog.map_paths = o.maps;
    prog.go = o.gen.go;
    prog.go_given = o.go_given;
    if (load_program(&prog, o.files, o.nfiles, &dg) > 0 || check_program(&prog, &dg) > 0) {
        status = EXIT_INPUT;
        goto done;
    }
    if (o.check_only)
        status = 0;
    else if (o.schema_dir)
        status = gen_json_schemas(&prog, o.schema_dir, o.schema_strict, o.depfile, &dg) ? EXIT_USAGE : 0;
    else {
        o.gen.go = prog.go; /* a //tagc:go directive's, when --go was not given */
        status = generate(&prog, &o, roots, &dg);
    }

done:
    ast_program_free(&prog);
    for (int i = 0; roots && i < o.nfiles; i++) {
        free(roots[i].real);
        free(roots[i].out_h);
        free(roots[i].out_c);
    }
    free(roots);
    free(o.imports);
    free(o.maps);
    if (expanded) {
        for (int i = 0; i < nexpanded; i++)
            free(expanded[i]);
        free(expanded);
    } else {
        free(o.files);
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
            if (strcmp(argv[1], subcommands[i].name) == 0)
                return subcommands[i].run(argc - 1, argv + 1);
    }
    return cmd_generate(argc, argv);
}
