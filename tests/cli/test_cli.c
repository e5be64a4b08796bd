/*
 * test_cli.c - runs the tagc program ($TAGC) as a user would: options, exit
 * status, outputs, depfile, and hostile inputs that must give a positioned
 * diagnostic and never a crash.
 *
 * Every test works in a fresh temporary directory (tagc runs there), into
 * which it writes its inputs. Expected positions are read off those inputs.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workdir.h"

typedef struct run_result {
    int status; /* exit status, or 128 + signal */
    char *out, *err;
    size_t out_len, err_len;
} run_result;

TestSuite(cli, .init = make_workdir, .fini = remove_workdir, .timeout = 120);

static void write_bytes(const char *name, const void *data, size_t len)
{
    FILE *f = fopen(path_in(name), "wb");
    cr_assert_not_null(f, "cannot write %s", name);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
}

static void write_text(const char *name, const char *text)
{
    write_bytes(name, text, strlen(text));
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Runs tagc with args (NULL-terminated) in the work directory. */
static run_result run_tagc(const char *const *args)
{
    const char *tagc = getenv("TAGC");
    cr_assert_not_null(tagc, "TAGC must name the tagc program");
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)tagc;
    for (; *args && argc < 63; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;

    char out_path[600], err_path[600];
    snprintf(out_path, sizeof out_path, "%s/.stdout", workdir);
    snprintf(err_path, sizeof err_path, "%s/.stderr", workdir);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || chdir(workdir) != 0)
            _exit(99);
        dup2(out, 1);
        dup2(err, 2);
        execv(tagc, argv);
        _exit(98);
    }
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    run_result r = { 0 };
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    r.out = read_all(out_path, &r.out_len);
    r.err = read_all(err_path, &r.err_len);
    cr_assert(r.out && r.err);
    unlink(out_path);
    unlink(err_path);
    /* whatever the input, a sanitizer report or a signal is a bug */
    cr_assert_lt(r.status, 3, "tagc died (status %d): %.2000s", r.status, r.err);
    cr_assert_null(strstr(r.err, "Sanitizer"), "%.4000s", r.err);
    cr_assert_null(strstr(r.err, "runtime error"), "%.4000s", r.err);
    return r;
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

#define RUN(...) run_tagc((const char *const[]){ __VA_ARGS__, NULL })

/* Asserts that stderr starts with the diagnostic `first` and the run failed with `status`. */
static void expect_error(run_result *r, int status, const char *first)
{
    cr_assert_eq(r->status, status, "status %d, stderr:\n%.4000s", r->status, r->err);
    cr_assert(strncmp(r->err, first, strlen(first)) == 0, "expected \"%s\" first in:\n%.4000s",
              first, r->err);
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static const char good_schema[] = "package shop\n"
                                  "type User struct {\n"
                                  "\tID   int64  `json:\"id\"`\n"
                                  "\tName string `json:\"name\"`\n"
                                  "}\n";

/* MARK: - Usage */

Test(cli, version_and_help)
{
    run_result r = RUN("--version");
    cr_assert_eq(r.status, 0);
    cr_assert_str_eq(r.out, "tagc " TAGC_VERSION_STRING "\n");
    run_free(&r);

    r = RUN("--help");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "Usage: tagc [options] FILE.tagc..."));
    cr_assert(strstr(r.out, "--depfile FILE"));
    cr_assert(strstr(r.out, "--out-dir DIR"));
    cr_assert_str_eq(r.err, "");
    run_free(&r);
}

Test(cli, usage_errors_exit_2)
{
    const char *const *cases[] = {
        (const char *const[]){ "--bogus", "a.tagc", NULL },
        (const char *const[]){ NULL },
        (const char *const[]){ "--check", NULL },
        (const char *const[]){ "a.tagc", "-o", NULL },
        (const char *const[]){ "a.tagc", "--depfile", NULL },
        (const char *const[]){ "validate", "a.tagc", "T", NULL },
        (const char *const[]){ "compat", "a.tagc", "b.tagc", NULL },
        (const char *const[]){ "--go", "1.25", "a.tagc", NULL },
        (const char *const[]){ "a.tagc", "--go", NULL },
    };
    write_text("a.tagc", good_schema);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_tagc(cases[i]);
        cr_assert_eq(r.status, 2, "case %zu: status %d", i, r.status);
        cr_assert(strncmp(r.err, "tagc: error: ", 13) == 0, "case %zu: %s", i, r.err);
        run_free(&r);
    }
    run_result r = RUN("--bogus", "a.tagc");
    cr_assert(strstr(r.err, "unknown option '--bogus'"));
    run_free(&r);
}

/* --go names the profile; the generated files say which made them. */
Test(cli, go_profile)
{
    write_text("shop.tagc", good_schema);
    run_result r = RUN("--go=2", "shop.tagc");
    expect_error(&r, 2, "tagc: error: option '--go' needs a Go release tagc matches: 1.27 (the default), 1.26 or 1.19");
    run_free(&r);
    const char *const profiles[][2] = {{NULL, "1.27"}, {"1.26", "1.26"}, {"1.27", "1.27"}, {"1.19", "1.19"}};
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        const char *v = profiles[i][0], *want = profiles[i][1];
        r = v ? RUN("--go", v, "-o", "out", "shop.tagc") : RUN("-o", "out", "shop.tagc");
        cr_assert_eq(r.status, 0, "%s", r.err);
        run_free(&r);
        char line[64], define[64];
        snprintf(line, sizeof line, "(tagc --go %s)", want);
        snprintf(define, sizeof define, "#define GO_PROFILE TAGC_GO_1_%s", want + 2);
        size_t n;
        char *h = read_all(path_in("out/shop.tagc.h"), &n), *c = read_all(path_in("out/shop.tagc.c"), &n);
        cr_assert(strstr(h, line), "%s not in the header:\n%.400s", line, h);
        cr_assert(strstr(c, line) && strstr(c, define), "%s, %s not in the source", line, define);
        free(h);
        free(c);
    }
    /* Go 1.19 has no omitzero: a warning, and the field is always written */
    write_text("z.tagc", "package z\ntype T struct {\n\tN int `json:\"n,omitzero\"`\n}\n");
    r = RUN("--go", "1.19", "-o", "out", "z.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "z.tagc:3:15: warning: Go 1.19 has no omitzero"), "%s", r.err);
    run_free(&r);
    r = RUN("-o", "out", "z.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
    /* a package names its profile with //tagc:go; --go wins over it */
    write_text("d.tagc", "//tagc:go 1.26\npackage d\ntype T struct {\n\tN int `json:\"n,case:strict\"`\n}\n");
    r = RUN("-o", "out", "d.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "warning: json tag option \"case:strict\" is ignored before Go 1.27"), "%s", r.err);
    run_free(&r);
    size_t dn;
    char *dc = read_all(path_in("out/d.tagc.c"), &dn);
    cr_assert(strstr(dc, "#define GO_PROFILE TAGC_GO_1_26"), "%.600s", dc);
    free(dc);
    r = RUN("--go", "1.27", "-o", "out", "d.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
    dc = read_all(path_in("out/d.tagc.c"), &dn);
    cr_assert(strstr(dc, "#define GO_PROFILE TAGC_GO_1_27"), "%.600s", dc);
    free(dc);
    write_text("e.tagc", "//tagc:go 1.20\npackage e\n//tagc:go 1.26\n//tagc:go 1.19\n");
    r = RUN("--check", "e.tagc");
    expect_error(&r, 1, "e.tagc:1:1: error: //tagc:go: expected a Go release tagc matches: 1.27, 1.26 or 1.19");
    cr_assert(strstr(r.err, "e.tagc:4:1: error: //tagc:go 1.19: the package already says //tagc:go 1.26 (at e.tagc:3:1)"),
              "%s", r.err);
    run_free(&r);
    /* validate and compat take --go too, and refuse an unknown one */
    r = RUN("validate", "--go", "1.18", "z.tagc", "T");
    expect_error(&r, 2, "tagc validate: error: option '--go' needs a Go release tagc matches: 1.27");
    run_free(&r);
    r = RUN("compat", "--go", "2", "z.tagc", "z.tagc");
    expect_error(&r, 2, "tagc compat: error: option '--go' needs a Go release tagc matches: 1.27");
    run_free(&r);
    /* a name differing in case from a case:strict field: an unknown key under 1.27 only */
    write_text("s.tagc", "package s\ntype T struct {\n\tN int `json:\"n,case:strict\"`\n}\n");
    write_text("s.json", "{\"N\":1}");
    r = RUN("validate", "--strict", "s.tagc", "T", "s.json");
    expect_error(&r, 1, "s.json:1:2: error: $: unknown key \"N\"");
    run_free(&r);
    r = RUN("validate", "--strict", "--go", "1.26", "s.tagc", "T", "s.json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    /* float map keys (Go 1.27): strconv.ParseFloat's text, "null" as 0; not under 1.26 */
    write_text("f.tagc", "package f\ntype T struct {\n\tM map[float64]int `json:\"m\"`\n}\n");
    write_text("f.json", "{\"m\":{\"1e3\":1,\"+5\":2,\"null\":3,\"0x1p4\":4,\"1_0\":5}}");
    r = RUN("validate", "f.tagc", "T", "f.json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    write_text("f.json", "{\"m\":{\"1.5\":1,\" 1\":2}}");
    r = RUN("validate", "f.tagc", "T", "f.json");
    expect_error(&r, 1, "f.json:1:15: error: $.m[\" 1\"]: map key is not a float");
    run_free(&r);
    r = RUN("validate", "--go", "1.26", "f.tagc", "T", "f.json");
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.err, "f.tagc:3:8: error: unsupported map key type float64"), "%s", r.err);
    run_free(&r);
    /* an option Go 1.27 honours: read under --go 1.27, a warning where Go ignores it;
     * format:, which Go 1.27 fails to marshal, an error */
    write_text("c.tagc", "package c\ntype T struct {\n\tN int `json:\"n,case:strict\"`\n}\n");
    r = RUN("--go", "1.27", "--check", "c.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
    r = RUN("--go", "1.26", "--check", "c.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "c.tagc:3:17: warning: json tag option \"case:strict\" is ignored before Go 1.27"),
              "%s", r.err);
    run_free(&r);
    write_text("f.tagc", "package f\ntype T struct {\n\tN int `json:\"n,format:RFC3339\"`\n}\n");
    r = RUN("--go", "1.27", "--check", "f.tagc");
    expect_error(&r, 1, "f.tagc:3:17: error: json tag option \"format:RFC3339\": Go 1.27's encoding/json fails");
    run_free(&r);
}

/* A generated header stops the build against a tagc.h of another version. */
Test(cli, version_guard)
{
    write_text("v.tagc", good_schema);
    run_result r = RUN("-o", "out", "v.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    mkdir(path_in("other"), 0755);
    write_text("other/tagc.h", "#define TAGC_VERSION_NUMBER 99999\n");
    write_text("use.c", "#include \"out/v.tagc.h\"\nint main(void) { return 0; }\n");
    const char *cc = getenv("CC");
    cr_assert(cc && *cc, "CC is not set");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s -fsyntax-only -Iother use.c 2> cc.err", path_in("."), cc);
    cr_assert_neq(system(cmd), 0, "a tagc.h of another version compiled");
    char *err = read_all(path_in("cc.err"), NULL);
    cr_assert(err && strstr(err, "v.tagc.h was generated by tagc " TAGC_VERSION_STRING
                                 ", for its runtime: this tagc.h is of another version"),
              "%s", err ? err : "(no cc.err)");
    free(err);
}

Test(cli, unreadable_root_is_io_error)
{
    run_result r = RUN("--check", "nope.tagc");
    expect_error(&r, 2, "tagc: error: cannot open 'nope.tagc': No such file or directory\n");
    run_free(&r);
    mkdir(path_in("dir.tagc"), 0755);
    r = RUN("--check", "dir.tagc");
    expect_error(&r, 2, "tagc: error: cannot open 'dir.tagc': Is a directory\n");
    run_free(&r);
}

/* MARK: - Imports */

Test(cli, missing_import_is_input_error)
{
    write_text("a.tagc", "package a\n\nimport \"missing.tagc\"\n");
    run_result r = RUN("--check", "a.tagc");
    expect_error(&r, 1, "a.tagc:3:8: error: cannot open missing.tagc: No such file or directory\n"
                        "    import \"missing.tagc\"\n"
                        "           ^\n");
    run_free(&r);
}

/* A Go import no wire type uses is fine (Go's packages are read only when
 * a wire field needs one of their types); a cycle of .tagc files is not. */
Test(cli, go_import_and_cycle)
{
    write_text("a.tagc", "package a\nimport \"fmt\"\nimport \"sub/b.tagc\"\n");
    mkdir(path_in("sub"), 0755);
    write_text("sub/b.tagc", "package b\nimport \"../a.tagc\"\n");
    run_result r = RUN("--check", "a.tagc");
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, "sub/b.tagc:2:8: error: import cycle: a.tagc -> sub/b.tagc -> a.tagc\n"),
              "%s", r.err);
    cr_assert_eq(count_of(r.err, "error:"), 1, "%s", r.err);
    run_free(&r);
}

/* MARK: - Outputs */

static time_t mtime_of(const char *name)
{
    struct stat st;
    cr_assert_eq(stat(path_in(name), &st), 0, "no %s", name);
    return st.st_mtime;
}

static void set_old_mtime(const char *name)
{
    struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
    cr_assert_eq(utimensat(AT_FDCWD, path_in(name), ts, 0), 0);
}

Test(cli, outputs_not_rewritten_when_unchanged)
{
    write_text("shop.tagc", good_schema);
    run_result r = RUN("-o", "out", "shop.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    size_t h_len = 0, c_len = 0;
    char *h = read_all(path_in("out/shop.tagc.h"), &h_len);
    char *c = read_all(path_in("out/shop.tagc.c"), &c_len);
    cr_assert(h && c && h_len > 0 && c_len > 0);
    set_old_mtime("out/shop.tagc.h");
    set_old_mtime("out/shop.tagc.c");

    r = RUN("--out-dir=out", "shop.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    cr_assert_eq(mtime_of("out/shop.tagc.h"), 1000000000);
    cr_assert_eq(mtime_of("out/shop.tagc.c"), 1000000000);
    char *h2 = read_all(path_in("out/shop.tagc.h"), NULL);
    cr_assert_str_eq(h, h2);
    free(h2);

    /* a new field changes both outputs: they are replaced */
    write_text("shop.tagc", "package shop\ntype User struct {\n\tID int64 `json:\"id\"`\n"
                            "\tAge int32 `json:\"age\"`\n}\n");
    r = RUN("-o", "out", "shop.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    cr_assert_neq(mtime_of("out/shop.tagc.h"), 1000000000);
    cr_assert_neq(mtime_of("out/shop.tagc.c"), 1000000000);
    free(h);
    free(c);
}

/* The .h and .c are made at once, on two threads; when the header cannot be
 * written, the source is not replaced either (no new .c beside an old .h). */
Test(cli, unwritable_header_leaves_source_alone)
{
    write_text("shop.tagc", good_schema);
    mkdir(path_in("out"), 0755);
    mkdir(path_in("out/shop.tagc.h"), 0755); /* a directory: the rename onto it fails */
    write_text("out/shop.tagc.c", "old\n");
    run_result r = RUN("-o", "out", "shop.tagc");
    expect_error(&r, 2, "out/shop.tagc.h: error: cannot write: Is a directory");
    cr_assert_eq(count_of(r.err, "error:"), 1, "%s", r.err);
    run_free(&r);
    char *c = read_all(path_in("out/shop.tagc.c"), NULL);
    cr_assert_str_eq(c, "old\n");
    free(c);
    /* nothing else: no temporary file left behind */
    DIR *dir = opendir(path_in("out"));
    cr_assert_not_null(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(dir));)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(dir);
    cr_assert_eq(entries, 2);
}

/* A schema that is not a regular file (a pipe: no size to read it at once)
 * is read as a stream, and gives the same output as the file. */
Test(cli, schema_from_a_pipe)
{
    size_t big = 300000; /* more than a pipe holds and than the stream's first buffer */
    const char *head = "package shop\n// ", *tail = "\ntype User struct {\n\tID int64 `json:\"id\"`\n}\n";
    size_t len = strlen(head) + big + strlen(tail);
    char *text = malloc(len + 1);
    cr_assert_not_null(text);
    strcpy(text, head);
    memset(text + strlen(head), 'x', big);
    strcpy(text + strlen(head) + big, tail);
    mkdir(path_in("file"), 0755);
    mkdir(path_in("pipe"), 0755);
    write_text("file/shop.tagc", text);
    run_result r = RUN("-o", "from_file", "file/shop.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);

    cr_assert_eq(mkfifo(path_in("pipe/shop.tagc"), 0644), 0);
    pid_t writer = fork();
    cr_assert_neq(writer, -1);
    if (writer == 0) {
        FILE *f = fopen(path_in("pipe/shop.tagc"), "wb");
        size_t ok = f ? fwrite(text, 1, len, f) : 0;
        _exit(f && ok == len && fclose(f) == 0 ? 0 : 1);
    }
    r = RUN("-o", "from_pipe", "pipe/shop.tagc");
    int ws;
    cr_assert_eq(waitpid(writer, &ws, 0), writer);
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    const char *outputs[] = {"shop.tagc.h", "shop.tagc.c"};
    for (int i = 0; i < 2; i++) {
        char from_file[64], from_pipe[64];
        snprintf(from_file, sizeof from_file, "from_file/%s", outputs[i]);
        snprintf(from_pipe, sizeof from_pipe, "from_pipe/%s", outputs[i]);
        char *a = read_all(path_in(from_file), NULL), *b = read_all(path_in(from_pipe), NULL);
        cr_assert(a && b);
        cr_assert_str_eq(a, b);
        free(a);
        free(b);
    }
    free(text);
}

Test(cli, check_writes_nothing)
{
    write_text("shop.tagc", good_schema);
    run_result r = RUN("--check", "-o", "out", "--depfile", "d.d", "shop.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
    struct stat st;
    cr_assert_neq(stat(path_in("out"), &st), 0);
    cr_assert_neq(stat(path_in("d.d"), &st), 0);
}

/* A directory is its Go package: the files go build would compile, one
 * header and source named after the package, every file read in the depfile. */
Test(cli, go_package_directory)
{
    mkdir(path_in("pkg"), 0755);
    write_text("pkg/b.go", "package shop\n\ntype User struct {\n\tName string `json:\"name\"`\n}\n"
                           "\nfunc (u User) Hello() string { return \"}\" }\n");
    write_text("pkg/a.go", "package shop\n\ntype Order struct {\n\tBuyer User `json:\"buyer\"`\n}\n");
    write_text("pkg/a_test.go", "package shop\nnot Go\n");
    write_text("pkg/gen.go", "//go:build ignore\n\npackage main\nnot Go either\n");
    write_text("pkg/x_darwin.go", "package shop\ntype Order struct{}\n");
    run_result r = RUN("-o", "out", "--depfile", "deps.d", "pkg");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char *dep = read_all(path_in("deps.d"), NULL);
    cr_assert_not_null(dep);
    cr_assert_str_eq(dep, "out/shop.go.h out/shop.go.c: pkg/a.go pkg/b.go\n"
                          "pkg/a.go:\n"
                          "pkg/b.go:\n");
    free(dep);
    char *c = read_all(path_in("out/shop.go.c"), NULL);
    cr_assert_not_null(c);
    cr_assert(strstr(c, "#include \"shop.go.h\""), "%s", c);
    free(c);
    char *h = read_all(path_in("out/shop.go.h"), NULL);
    cr_assert(h && strstr(h, "shop_user") && strstr(h, "shop_order"));
    free(h);
}

/* -I finds an imported Go package (a prefix mapped to a directory, or a
 * root as GOPATH/src); --map says what a type of a package not read is on
 * the wire; the depfile names every file read, the mapping file included. */
Test(cli, go_imports_by_dir_and_map)
{
    mkdir(path_in("src"), 0755);
    mkdir(path_in("src/example.com"), 0755);
    mkdir(path_in("src/example.com/meta"), 0755);
    mkdir(path_in("api"), 0755);
    write_text("src/example.com/meta/types.go",
               "package meta\n\ntype ObjectMeta struct {\n\tName string `json:\"name\"`\n}\n");
    write_text("api/pod.go", "package api\n\nimport (\n\tmetav1 \"example.com/meta\"\n"
                             "\t\"github.com/google/uuid\"\n)\n\n"
                             "type Pod struct {\n\tmetav1.ObjectMeta `json:\"metadata\"`\n"
                             "\tUID uuid.UUID `json:\"uid\"`\n}\n");
    write_text("wire.map", "# types tagc does not read\ngithub.com/google/uuid.UUID  string\n");
    const char *roots[] = { "src", "example.com=src/example.com" };
    for (size_t i = 0; i < 2; i++) {
        run_result r = RUN("-o", "out", "--depfile", "deps.d", "-I", roots[i], "--map", "wire.map",
                           "api");
        cr_assert_eq(r.status, 0, "-I %s: %s", roots[i], r.err);
        run_free(&r);
        char *dep = read_all(path_in("deps.d"), NULL);
        cr_assert_not_null(dep);
        cr_assert_str_eq(dep, "out/api.go.h out/api.go.c: api/pod.go src/example.com/meta/types.go "
                              "wire.map\n"
                              "api/pod.go:\n"
                              "src/example.com/meta/types.go:\n"
                              "wire.map:\n");
        free(dep);
        char *h = read_all(path_in("out/api.go.h"), NULL);
        cr_assert(h && strstr(h, "#include \"meta.go.h\"") && strstr(h, "meta_object_meta object_meta;") &&
                  strstr(h, "tagc_str uid;"), "%s", h);
        free(h);
    }
    /* without the map: the error names the import path and the way out */
    run_result r = RUN("--check", "-I", "src", "api");
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, "api/pod.go:10:2: error: field \"UID\" is on the wire, but its type "
                            "uuid.UUID is from package \"github.com/google/uuid\", which tagc has "
                            "not read: name the package's directory with -I "
                            "github.com/google/uuid=DIR, or say what uuid.UUID is on the wire in a "
                            "mapping file (--map FILE)"), "%s", r.err);
    run_free(&r);
    /* a bad mapping line, at its position */
    write_text("bad.map", "github.com/google/uuid.UUID  uuid\n");
    r = RUN("--check", "--map", "bad.map", "api");
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, "bad.map:1:30: error: unknown wire type \"uuid\""), "%s", r.err);
    run_free(&r);
}

/* k8s's core/v1 and meta/v1 are both package v1: a version name takes its
 * parent directory's too (core_v1, meta_v1), so they compile together. */
Test(cli, version_packages_named_by_parent)
{
    mkdir(path_in("k8s.io"), 0755);
    mkdir(path_in("k8s.io/meta"), 0755);
    mkdir(path_in("k8s.io/meta/v1"), 0755);
    mkdir(path_in("k8s.io/core"), 0755);
    mkdir(path_in("k8s.io/core/v1"), 0755);
    write_text("k8s.io/meta/v1/types.go", "package v1\n\ntype List struct {\n\tKind string `json:\"kind\"`\n}\n");
    write_text("k8s.io/core/v1/types.go", "package v1\n\nimport metav1 \"k8s.io/meta/v1\"\n\n"
                                          "type List struct {\n\tMeta metav1.List `json:\"meta\"`\n}\n");
    run_result r = RUN("-o", "out", "-I", ".", "k8s.io/core/v1", "k8s.io/meta/v1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    /* without -I too: the package named on the command line whose directory
     * ends in the import path is the one imported */
    r = RUN("-o", "out2", "--depfile", "d2", "k8s.io/core/v1", "k8s.io/meta/v1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char *dep = read_all(path_in("d2"), NULL);
    cr_assert(dep && strstr(dep, "k8s.io/meta/v1/types.go k8s.io/core/v1/types.go\n"), "%s",
              dep ? dep : "(none)");
    free(dep);
    char *h = read_all(path_in("out/core_v1.go.h"), NULL);
    cr_assert(h && strstr(h, "#include \"meta_v1.go.h\"") && strstr(h, "meta_v1_list meta;") &&
                  strstr(h, "struct core_v1_list {"), "%s", h ? h : "(none)");
    free(h);
    char *m = read_all(path_in("out/meta_v1.go.h"), NULL);
    cr_assert(m && strstr(m, "struct meta_v1_list {"));
    free(m);
}

/* Fields on no wire whose types have no C form are left out, with a note. */
Test(cli, fields_off_the_wire_left_out)
{
    write_text("svc.go", "package svc\n\nimport \"net/http\"\n\n"
                         "type Client struct {\n\tName string `json:\"name\"`\n"
                         "\tclient *http.Client\n\tResp *http.Response `json:\"-\"`\n"
                         "\tdone chan struct{}\n}\n");
    run_result r = RUN("-o", "out", "svc.go");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char *h = read_all(path_in("out/svc.go.h"), NULL);
    cr_assert_not_null(h);
    cr_assert(strstr(h, "struct svc_client {\n    tagc_str name;\n"
                        "    /* left out: client *http.Client (from package \"net/http\", which "
                        "tagc has not read), on no wire */\n"
                        "    /* left out: Resp *http.Response (from package \"net/http\", which "
                        "tagc has not read), on no wire */\n"
                        "    /* left out: done chan struct{} (a channel type), on no wire */\n};"),
              "%s", h);
    free(h);
}

Test(cli, depfile_lists_every_schema)
{
    mkdir(path_in("sub dir"), 0755);
    write_text("sub dir/common.tagc", "package common\ntype Base struct {\n\tID int64 `json:\"id\"`\n}\n");
    write_text("main.tagc", "package shop\n"
                            "import \"sub dir/common.tagc\"\n"
                            "type Order struct {\n"
                            "\tcommon.Base\n"
                            "\tTotal int64 `json:\"total\"`\n"
                            "}\n");
    run_result r = RUN("-o", "out", "--depfile", "deps.d", "main.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char *dep = read_all(path_in("deps.d"), NULL);
    cr_assert_not_null(dep);
    cr_assert_str_eq(dep, "out/main.tagc.h out/main.tagc.c: main.tagc sub\\ dir/common.tagc\n"
                          "main.tagc:\n"
                          "sub\\ dir/common.tagc:\n");
    free(dep);

    /* GNU make, the reference, reads it back to the same file names */
    write_text("Makefile", "include deps.d\nout/main.tagc.h:\n\t@echo '[$^]'\n");
    char cmd[700];
    snprintf(cmd, sizeof cmd, "make -s -B -C '%s' -f Makefile out/main.tagc.h", workdir);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char line[256] = "";
    cr_assert_not_null(fgets(line, sizeof line, p));
    cr_assert_eq(pclose(p), 0);
    cr_assert_str_eq(line, "[main.tagc sub dir/common.tagc]\n");
}

Test(cli, depfile_escapes_dollar_and_hash)
{
    write_text("a$b#c.tagc", good_schema);
    run_result r = RUN("-o", "o", "--depfile", "d.d", "a$b#c.tagc");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char *dep = read_all(path_in("d.d"), NULL);
    cr_assert_str_eq(dep, "o/a$$b\\#c.tagc.h o/a$$b\\#c.tagc.c: a$$b\\#c.tagc\na$$b\\#c.tagc:\n");
    free(dep);
}

/* MARK: - Hostile input: a positioned diagnostic, status 1, never a crash */

Test(cli, empty_file)
{
    write_text("empty.tagc", "");
    run_result r = RUN("--check", "empty.tagc");
    expect_error(&r, 1, "empty.tagc:1:1: error: expected 'package', found end of file\n");
    run_free(&r);
}

Test(cli, binary_garbage)
{
    unsigned char buf[1 << 16];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof buf; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (unsigned char)(x >> 16);
    }
    write_bytes("garbage.tagc", buf, sizeof buf);
    run_result r = RUN("--check", "garbage.tagc");
    cr_assert_eq(r.status, 1);
    cr_assert(strncmp(r.err, "garbage.tagc:", 13) == 0, "%.2000s", r.err);
    int line, col;
    char kind[8];
    cr_assert_eq(sscanf(r.err + 13, "%d:%d: %7[a-z]:", &line, &col, kind), 3, "%.2000s", r.err);
    cr_assert_str_eq(kind, "error");
    cr_assert_lt(count_of(r.err, ": error: "), 52, "errors are capped");
    run_free(&r);
}

Test(cli, ten_megabyte_line)
{
    enum { FIELDS = 1500000 };
    static const char head[] = "package p\ntype T struct {";
    size_t len = strlen(head) + FIELDS * 7 + 10;
    char *src = malloc(len);
    size_t n = 0;
    memcpy(src, head, strlen(head));
    n += strlen(head);
    for (int i = 0; i < FIELDS; i++, n += 7)
        memcpy(src + n, " A int;", 7);
    memcpy(src + n, " ?\n}\n", 5);
    n += 5;
    write_bytes("long.tagc", src, n);
    free(src);
    run_result r = RUN("--check", "long.tagc");
    char want[128];
    /* "type T struct {" is 15 bytes, each field 7, then a space: '?' is at 15 + 7n + 2 */
    snprintf(want, sizeof want, "long.tagc:2:%d: error: expected identifier, '*' or '}', found '?'\n",
             15 + 7 * FIELDS + 2);
    expect_error(&r, 1, want);
    cr_assert_lt(r.err_len, 1024, "the source line is shown cut: %zu bytes", r.err_len);
    cr_assert(strstr(r.err, "A int; ?\n"), "%s", r.err);
    run_free(&r);
}

Test(cli, ten_megabyte_identifier)
{
    size_t n = 10 * 1024 * 1024;
    char *src = malloc(n + 32);
    strcpy(src, "package p\ntype ");
    size_t at = strlen(src);
    memset(src + at, 'a', n);
    memcpy(src + at + n, " int x\n", 7);
    write_bytes("id.tagc", src, at + n + 7);
    free(src);
    run_result r = RUN("--check", "id.tagc");
    char want[128];
    snprintf(want, sizeof want, "id.tagc:2:%zu: error: ", 6 + n + 5);
    expect_error(&r, 1, want);
    cr_assert_lt(r.err_len, 1024);
    run_free(&r);
}

static void write_nested(const char *name, int depth)
{
    size_t cap = 32 + (size_t)depth * 14;
    char *src = malloc(cap);
    size_t n = (size_t)snprintf(src, cap, "package p\ntype T ");
    for (int i = 0; i < depth; i++)
        n += (size_t)snprintf(src + n, cap - n, "struct { A ");
    n += (size_t)snprintf(src + n, cap - n, "int");
    for (int i = 0; i < depth; i++)
        n += (size_t)snprintf(src + n, cap - n, " }");
    n += (size_t)snprintf(src + n, cap - n, "\n");
    write_bytes(name, src, n);
    free(src);
}

Test(cli, ten_thousand_nested_structs)
{
    write_nested("deep.tagc", 10000);
    run_result r = RUN("--check", "deep.tagc");
    cr_assert_eq(r.status, 1);
    cr_assert(strncmp(r.err, "deep.tagc:2:", 12) == 0, "%.1000s", r.err);
    cr_assert(strstr(r.err, ": error: nesting too deep\n"), "%.1000s", r.err);
    cr_assert_eq(count_of(r.err, "error:"), 1);
    run_free(&r);
}

/* Needs the checker: a deep but legal schema goes through every pass. */
Test(cli, thousand_nested_structs_compile)
{
    write_nested("deep.tagc", 1000);
    run_result r = RUN("-o", "out", "deep.tagc");
    cr_assert_eq(r.status, 0, "%.2000s", r.err);
    run_free(&r);
}

Test(cli, unterminated_comment_string_and_tag)
{
    struct {
        const char *src, *want;
    } cases[] = {
        { "package p\ntype T int\n/* never closed\n\ntype U int\n",
          "t.tagc:3:1: error: comment not terminated\n" },
        { "package p\ntype T struct {\n\tA int \"json:\\\"a\\\"\n}\n",
          "t.tagc:3:8: error: string literal not terminated\n" },
        { "package p\ntype T struct {\n\tA int `json:\"a\"\n}\n",
          "t.tagc:3:8: error: raw string literal not terminated\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text("t.tagc", cases[i].src);
        run_result r = RUN("--check", "t.tagc");
        expect_error(&r, 1, cases[i].want);
        run_free(&r);
    }
}

Test(cli, invalid_utf8_and_nul)
{
    static const char src[] = "package p\n"
                              "type A\xc0\xaf struct{}\n"                 /* overlong: 2:7 */
                              "type B struct { X int `json:\"\xed\xa0\x80\"` }\n" /* surrogate: 3:30 */
                              "const C = \"ok\xff\"\n"                    /* 4:14 */
                              "type D\xce\xbb int\n"                      /* U+03BB: 5:7 */
                              "type E struct {\n\tF\0 int\n}\n";          /* NUL: 7:3 */
    write_bytes("u.tagc", src, sizeof src - 1);
    run_result r = RUN("--check", "u.tagc");
    cr_assert_eq(r.status, 1);
    const char *want[] = {
        "u.tagc:2:7: error: invalid UTF-8 encoding\n",
        "u.tagc:3:30: error: invalid UTF-8 encoding in raw string\n",
        "u.tagc:4:14: error: invalid UTF-8 encoding in string literal\n",
        "u.tagc:5:7: error: invalid character U+03BB '\xce\xbb'; identifiers must be ASCII\n",
        "u.tagc:7:3: error: invalid NUL character\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert(strstr(r.err, want[i]), "missing %s in:\n%s", want[i], r.err);
    run_free(&r);
}
