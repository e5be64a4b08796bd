/*
 * pipeline.h - the passes of the compiler, as main.c wires them:
 *   load (lex + parse every file and its imports) -> check -> generate -> write.
 */
#ifndef TAGC_PIPELINE_H
#define TAGC_PIPELINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h> /* ssize_t */
#include "ast.h"
#include "diag.h"

/* load.c: parses each root file and, transitively, the .tagc files it imports
 * (paths relative to the importing file). Reports missing files, import cycles,
 * lexical and syntax errors. Returns the number of errors. */
int load_program(ast_program *prog, const char *const *paths, int npaths, diag *dg);

/* gopkg.c: Go packages. gopkg_expand replaces each directory among args by
 * its package's .go files (sorted; -1 after an error, printed); gopkg_merge
 * makes the .go roots of one directory and package one (ast_file.pkg,
 * .out_base); gopkg_file_builds: would `go build` compile this file? */
/* mapfile.c: reads prog->map_paths into prog->maps (errors: returned);
 * find_map: the mapping of path.name, marked used, or NULL. */
int load_maps(ast_program *prog, diag *dg);
const type_map *find_map(const ast_program *prog, const char *path, const char *name);

int gopkg_expand(const char *const *args, int nargs, char ***out, int *nout);
/* The files of dir's package, sorted, malloc'd (-1 if it cannot be read). */
int gopkg_list(const char *dir, char ***out, size_t *nout);
/* Makes files[0..n) (NULLs skipped) one package; returns its first file. */
ast_file *gopkg_merge_files(ast_program *prog, ast_file **files, size_t n);
void gopkg_merge(ast_program *prog);
bool gopkg_file_builds(const char *path);

/* parse.c (lexer.l + parser.y): parses one file's source into f. Returns errors. */
int parse_file(ast_program *prog, ast_file *f, diag *dg);

/* check.c: resolves names, builds enums, parses tags, computes C names and wire
 * fields, and reports every semantic error of SPEC section 1. Returns errors. */
int check_program(ast_program *prog, diag *dg);

/* names.c: Go name -> C snake_case ("HTTPCode" -> "http_code"), and upper case. */
char *c_snake_name(struct pool *p, const char *go_name);
char *c_upper_name(struct pool *p, const char *snake);

/* A hash of an address, for the tables keyed by node or format address
 * (murmur3's finaliser: addresses differ in their middle bits). */
static inline size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

/* strbuf.c: memory for blocks of a megabyte or more: 2 MB aligned and, on
 * Linux, marked for transparent huge pages (smaller ones: plain malloc).
 * Freed with free(); out of memory ends the program. On the VMs this runs on,
 * a 4 KB page touched for the first time costs ~15 us of fault handling: for
 * a big schema, 4 KB pages were ~15 % of the compiler's time. */
void *big_alloc(size_t size);
void *big_calloc(size_t n, size_t size);

/* A growable text the generators write into. With a flush function, the text
 * can be handed over in pieces (sb_flush) instead of held whole. */
typedef struct strbuf {
    char *data;
    size_t len, cap;
    /* takes data[0..len): it may keep the buffer itself and leave another
     * (or data NULL, cap 0) in its place; sb_flush then empties sb */
    void (*flush)(void *ctx, struct strbuf *sb);
    void *flush_ctx;
} strbuf;
void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
/* Makes room for len + extra bytes and the NUL (out of line: the rare case). */
void sb_grow(strbuf *sb, size_t extra);
/* Room for extra more bytes and the NUL. */
static inline void sb_reserve(strbuf *sb, size_t extra)
{
    if (extra >= sb->cap - sb->len)
        sb_grow(sb, extra);
}
/* Appends s[0..n); inline, since the generators call it for every piece of a line. */
static inline void sb_put(strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}
void sb_puts(strbuf *sb, const char *s);
void sb_printf(strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* The same, for a format whose length (strlen(fmt)) is known already. */
void sb_vprintf_n(strbuf *sb, const char *fmt, size_t fmt_len, va_list ap);
/* Hands data[0..len) to flush (if set) and empties sb. */
void sb_flush(strbuf *sb);

/* "1.27", "1.26", "1.19": the --go value; go_profile_c its runtime flags' macro. */
const char *go_profile_name(go_profile p);
const char *go_profile_c(go_profile p);
/* The profile --go VALUE names; false for an unknown VALUE. */
bool go_profile_parse(const char *value, go_profile *out);

typedef struct gen_opts {
    bool json;
    bool msgpack;
    go_profile go;
    /* MessagePack writers (docs/msgpack.md): every integer in its smallest format,
     * as vmihailenco/msgpack's UseCompactInts(true) and tinylib/msgp do (else an
     * intN/uintN field in its own width, as vmihailenco's default encoder) */
    bool msgpack_compact_ints;
    /* maps and interface{} objects with their keys sorted, as vmihailenco's
     * SetSortMapKeys(true) (else in stored order) */
    bool msgpack_sort_keys;
} gen_opts;

/* gen_c.c: the header and source for one file (NAME.tagc.h, NAME.tagc.c), each
 * appended to its strbuf, and handed to its flush function a piece at a time.
 * Two threads share the work (ordered.c): the second makes the header, then
 * both make the source's functions. The generators only read the AST; each
 * thread has its own generator state. */
void gen_files(const ast_program *prog, const ast_file *f, const gen_opts *o, strbuf *h,
               strbuf *c);

/* ordered.c: tasks 0..ntasks-1 run on this thread and a second one; out gets
 * their text in task order, and is flushed (sb_flush) whenever it holds
 * ORDERED_FLUSH_AT bytes or more. Without a second thread, this one does
 * everything. */
enum { ORDERED_FLUSH_AT = 128 * 1024 };
typedef struct ordered_job {
    size_t ntasks;
    void (*run)(void *ctx, size_t task, strbuf *out); /* appends task's text to out */
    void *ctx[2];                    /* run's ctx on this thread, on the second */
    void (*helper_first)(void *arg); /* what the second thread does before it takes tasks, or NULL */
    void *helper_first_arg;
} ordered_job;
void ordered_run(const ordered_job *job, strbuf *out);

/* io.c: write_all writes data[0..len) whole, 0 or -1 (errno set); read_full
 * reads up to len bytes, fewer only at the end of the file, -1 on error. */
int write_all(int fd, const char *data, size_t len);
ssize_t read_full(int fd, char *buf, size_t len);

/* tmpfiles.c: the temporary output files, removed on every way out.
 * tmpfile_claim gives a buffer holding "PATH.tmpXXXXXX" (NULL, errno set: none
 * free); tmpfile_create makes the file, as mkstemp; tmpfile_release takes it
 * off the list (the caller has renamed or removed the file). tmpfiles_remove_all unlinks every
 * listed file (async-signal-safe). tmpfiles_catch_signals makes SIGINT, SIGTERM,
 * SIGHUP, SIGPIPE and SIGQUIT remove them before the program ends as it would
 * have, and makes a write over `ulimit -f` fail with EFBIG (SIGXFSZ ignored). */
char *tmpfile_claim(const char *path);
int tmpfile_create(char *name); /* mkstemp(name), on the list; -1 once the program is ending */
void tmpfile_release(char *name);
void tmpfiles_remove_all(void);
void tmpfiles_catch_signals(void);

/* emit.c: writes data to path through a temporary file in the same directory and
 * a rename, and leaves path untouched when it already holds exactly data.
 * Returns 0, or -1 after reporting the I/O error. */
int emit_file(const char *path, const char *data, size_t len, diag *dg);

/* The same, with the data given in pieces: emit_open, emit_flush for each piece
 * (a strbuf flush function: ctx is the emit_stream; the pieces are written by
 * a thread while the next is generated), then emit_close, which waits for
 * them and returns 0, or -1 after reporting the first I/O error. */
typedef struct emit_writer emit_writer;
typedef struct emit_stream {
    const char *path;
    diag *dg;
    int old_fd;    /* the existing file, while the pieces so far equal its start; else -1 */
    int fd;        /* the temporary file, once the content differs; else -1 */
    char *tmp;     /* its name (a tmpfile_claim slot); NULL: none */
    bool tmp_made;
    bool finished; /* emit_finish is done: the temporary file is complete, or there is none */
    size_t len;    /* bytes given so far */
    char *cmp;     /* a piece of the old file, to compare */
    size_t cmp_cap;
    int err;       /* errno of the first failure */
    emit_writer *writer; /* the thread that writes the pieces; NULL: none could be started */
} emit_stream;
void emit_open(emit_stream *s, const char *path, diag *dg);
void emit_flush(void *stream, strbuf *sb);
int emit_close(emit_stream *s);
/* emit_close in two steps, for files that change together (a .h and its .c):
 * emit_finish waits for the pieces and completes the temporary file (0, or -1
 * after reporting the error and removing it); emit_commit renames it over path
 * (0, or -1 after reporting). Nothing is renamed until every file is finished. */
int emit_finish(emit_stream *s);
int emit_commit(emit_stream *s);
/* Ends a stream without touching path: its temporary file, if any, is removed. */
void emit_discard(emit_stream *s);

/* depfile.c: Make syntax: targets, colon, every file read; an empty rule per input. */
int write_depfile(const char *path, const char *const *targets, int ntargets,
                  const ast_program *prog, diag *dg);

/* gen_json_schema.c: DIR/<Type>.schema.json (and, when strict, <Type>.strict.schema.json)
 * for every named type of the root files: JSON Schema 2020-12 of what the generated
 * decoder accepts (docs/json-schema.md); a depfile when depfile is not NULL.
 * Returns 0, or -1 after reporting the I/O error. */
int gen_json_schemas(const ast_program *prog, const char *dir, bool strict, const char *depfile,
                     diag *dg);
/* One type's document (as in <Type>.schema.json, or .strict.schema.json), into out:
 * what gen_json_schemas writes, without the files (the fuzz target's entry point). */
void gen_json_schema_text(const ast_program *prog, const ast_decl *d, bool strict, strbuf *out);

#endif /* TAGC_PIPELINE_H */
