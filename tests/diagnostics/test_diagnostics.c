/*
 * test_diagnostics.c - runs the built tagc ($TAGC) with --check:
 *   - on each case of the corpus ($DIAG_DIR/NAME.tagc or NAME.go, or
 *     $DIAG_DIR/DIR/main.tagc or main.go for cases of several files), from the
 *     case's directory: stderr must be exactly NAME.expected, stdout empty, the
 *     exit status 1 (0 when NAME.expected is empty: a case that is accepted);
 *     a folder with main.expected and neither main.tagc nor main.go is a Go
 *     package, checked as `tagc --check .`; the cases in $DIAG_DIR/go1.26 run
 *     with `--go 1.26` (what only that profile reads), and so on;
 *   - on each schema of $SCHEMAS_DIR: no output, exit status 0;
 *   - on a generated schema of 2000 types (about 5 MB): exit status 0.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* MARK: - Running tagc */

typedef struct run_result {
    int status; /* exit status, or -1 if it did not exit normally */
    char *out, *err;
} run_result;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
        size_t got = fread(buf + n, 1, 4096, f);
        n += got;
        if (got < 4096)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Runs `$TAGC [--go GO] --check file` in dir, capturing both streams through
 * files. */
static run_result run_check(const char *dir, const char *go, const char *file)
{
    const char *tagc = getenv("TAGC");
    cr_assert_not_null(tagc, "TAGC is not set");
    char out_path[] = "/tmp/tagc-diag-out-XXXXXX", err_path[] = "/tmp/tagc-diag-err-XXXXXX";
    int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
    cr_assert(out_fd >= 0 && err_fd >= 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(dir) != 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
            _exit(127);
        if (go[0])
            execl(tagc, tagc, "--go", go, "--check", file, (char *)NULL);
        else
            execl(tagc, tagc, "--check", file, (char *)NULL);
        _exit(127);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    close(out_fd);
    close(err_fd);
    run_result r = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(out_path, NULL),
                    slurp(err_path, NULL)};
    unlink(out_path);
    unlink(err_path);
    return r;
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

/* MARK: - The corpus */

typedef struct diag_case {
    char dir[2048];  /* where tagc runs */
    char name[256];  /* NAME: runs NAME.tagc, compares with NAME.expected */
    char go[8];      /* the --go profile, or "" for the default */
} diag_case;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

static int cmp_case(const void *a, const void *b)
{
    const diag_case *x = a, *y = b;
    int c = strcmp(x->dir, y->dir);
    return c ? c : strcmp(x->name, y->name);
}

static void free_cases(struct criterion_test_params *ctp)
{
    cr_free(ctp->params);
}

/* Every NAME.tagc with a NAME.expected in dir; in subfolders, main.tagc. */
static size_t find_cases(const char *root, const char *go, diag_case *out, size_t max)
{
    DIR *d = opendir(root);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    char path[2048];
    struct stat sb;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", root, e->d_name);
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            char main_path[2100];
            snprintf(main_path, sizeof main_path, "%s/main.expected", path);
            if (access(main_path, R_OK) == 0) {
                snprintf(out[n].dir, sizeof out[n].dir, "%s", path);
                snprintf(out[n].name, sizeof out[n].name, "main");
                snprintf(out[n].go, sizeof out[n].go, "%s", go);
                n++;
            }
        } else if (has_suffix(e->d_name, ".expected")) {
            snprintf(out[n].dir, sizeof out[n].dir, "%s", root);
            snprintf(out[n].name, sizeof out[n].name, "%.*s",
                     (int)(strlen(e->d_name) - strlen(".expected")), e->d_name);
            snprintf(out[n].go, sizeof out[n].go, "%s", go);
            n++;
        }
    }
    closedir(d);
    qsort(out, n, sizeof *out, cmp_case);
    return n;
}

enum { MAX_CASES = 512 };

/* The corpus: the default profile's cases, then those of each profile's
 * folder (go1.26/ runs with --go 1.26, ...). */
static size_t all_cases(const char *root, diag_case *out, size_t max)
{
    if (!root)
        return 0;
    size_t n = find_cases(root, "", out, max);
    static const char *const profiles[] = {"1.19", "1.26", "1.27"};
    for (size_t i = 0; i < sizeof profiles / sizeof *profiles; i++) {
        char sub[2048];
        snprintf(sub, sizeof sub, "%s/go%s", root, profiles[i]);
        n += find_cases(sub, profiles[i], out + n, max - n);
    }
    return n;
}

ParameterizedTestParameters(diagnostics, corpus)
{
    const char *root = getenv("DIAG_DIR");
    diag_case *found = calloc(MAX_CASES, sizeof *found);
    size_t n = found ? all_cases(root, found, MAX_CASES) : 0;
    diag_case *cases = cr_malloc((n ? n : 1) * sizeof *cases);
    if (n)
        memcpy(cases, found, n * sizeof *cases);
    free(found);
    return cr_make_param_array(diag_case, cases, n, free_cases);
}

ParameterizedTest(diag_case *c, diagnostics, corpus, .timeout = 30)
{
    char file[300], expected_path[2400], go_path[2400];
    snprintf(go_path, sizeof go_path, "%s/%s.go", c->dir, c->name);
    snprintf(file, sizeof file, "%s.%s", c->name, access(go_path, R_OK) == 0 ? "go" : "tagc");
    char tagc_path[2400];
    snprintf(tagc_path, sizeof tagc_path, "%s/%s.tagc", c->dir, c->name);
    if (strcmp(c->name, "main") == 0 && access(go_path, R_OK) != 0 && access(tagc_path, R_OK) != 0)
        snprintf(file, sizeof file, "."); /* a folder of .go files: the package */
    snprintf(expected_path, sizeof expected_path, "%s/%s.expected", c->dir, c->name);
    char *expected = slurp(expected_path, NULL);
    cr_assert_not_null(expected, "cannot read %s", expected_path);
    run_result r = run_check(c->dir, c->go, file);
    int want = expected[0] ? 1 : 0;
    cr_expect_eq(r.status, want, "%s/%s: exit status %d", c->dir, file, r.status);
    cr_expect_str_empty(r.out, "%s/%s: stdout", c->dir, file);
    cr_expect_str_eq(r.err, expected, "%s/%s: stderr differs from %s", c->dir, file,
                     expected_path);
    run_free(&r);
    free(expected);
}

Test(diagnostics, corpus_is_large)
{
    diag_case *found = calloc(MAX_CASES, sizeof *found);
    size_t n = all_cases(getenv("DIAG_DIR"), found, MAX_CASES);
    cr_expect_geq(n, 45, "only %zu cases", n);
    free(found);
}

/* MARK: - The project's schemas */

Test(diagnostics, schemas_check_clean)
{
    const char *root = getenv("SCHEMAS_DIR");
    cr_assert_not_null(root, "SCHEMAS_DIR is not set");
    DIR *d = opendir(root);
    cr_assert_not_null(d, "cannot open %s", root);
    int seen = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!has_suffix(e->d_name, ".tagc"))
            continue;
        run_result r = run_check(root, "", e->d_name);
        cr_expect_eq(r.status, 0, "%s: exit status %d", e->d_name, r.status);
        cr_expect_str_empty(r.err, "%s: stderr", e->d_name);
        cr_expect_str_empty(r.out, "%s: stdout", e->d_name);
        run_free(&r);
        seen++;
    }
    closedir(d);
    cr_expect_geq(seen, 6);
}
