/*
 * test_big_schema.c - the generated schema of 2000 struct types (about 6 MB)
 * that scripts/gen_big_schema.py writes (meson runs it; BIG_SCHEMA is its
 * path; bench/run.py times tagc on the same file): fields of every kind,
 * references forward and back, embedded structs, enums and anonymous structs.
 * `tagc --check` must accept it, and `tagc` must generate its C, in
 * reasonable time (the test's timeout): the compiler has no quadratic step.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs tagc with args (NULL-terminated, after argv[0]); returns its stderr's
 * start in head and its wait status. */
static int run_tagc(char *const *args, char *head, size_t head_size)
{
    const char *tagc = getenv("TAGC");
    cr_assert_not_null(tagc, "TAGC is not set");
    char *argv[8] = {(char *)tagc};
    for (int i = 0; args[i]; i++) {
        cr_assert_lt(i + 1, 7);
        argv[i + 1] = args[i];
    }
    char err_path[] = "/tmp/tagc-big-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    cr_assert(err_fd >= 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (dup2(err_fd, 2) < 0)
            _exit(127);
        execv(tagc, argv);
        _exit(127);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    ssize_t n = pread(err_fd, head, head_size - 1, 0);
    head[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    return st;
}

static char *big_schema(void)
{
    char *path = getenv("BIG_SCHEMA");
    cr_assert_not_null(path, "BIG_SCHEMA is not set");
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0, "%s: no such file", path);
    cr_expect_gt(sb.st_size, 4 * 1000 * 1000, "only %lld bytes", (long long)sb.st_size);
    return path;
}

Test(big_schema, two_thousand_types_check_clean, .timeout = 120)
{
    char head[512];
    int st = run_tagc((char *[]){"--check", big_schema(), NULL}, head, sizeof head);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tagc failed: %s", head);
    cr_expect_str_empty(head);
}

Test(big_schema, two_thousand_types_generate, .timeout = 240)
{
    char dir_tmpl[] = "/tmp/tagc-big-XXXXXX";
    char *dir = mkdtemp(dir_tmpl);
    cr_assert_not_null(dir);
    char head[512];
    int st = run_tagc((char *[]){"-o", dir, big_schema(), NULL}, head, sizeof head);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tagc failed: %s", head);
    cr_expect_str_empty(head);

    char path[64];
    struct stat sb;
    snprintf(path, sizeof path, "%s/big.tagc.h", dir);
    cr_expect(stat(path, &sb) == 0 && sb.st_size > 1000 * 1000, "%s missing or small", path);
    unlink(path);
    snprintf(path, sizeof path, "%s/big.tagc.c", dir);
    cr_expect(stat(path, &sb) == 0 && sb.st_size > 10 * 1000 * 1000, "%s missing or small", path);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0, "%s: files left behind", dir);
}

/* Writes dir/name: a schema of one struct with n int fields; returns the path. */
static char *write_wide_schema(const char *dir, const char *name, size_t n)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    cr_assert_not_null(path);
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("package wide\n\ntype Wide struct {\n", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "\tF%zu int\n", i);
    fputs("}\n", f);
    cr_assert_eq(fclose(f), 0);
    return path;
}

/* The generated key tables index a struct's fields with uint16_t: 65535 fields
 * check clean, one more is an error at the struct. */
Test(big_schema, widest_struct, .timeout = 120)
{
    char dir_tmpl[] = "/tmp/tagc-wide-XXXXXX";
    char *dir = mkdtemp(dir_tmpl);
    cr_assert_not_null(dir);
    char *ok = write_wide_schema(dir, "ok.tagc", 65535), *bad = write_wide_schema(dir, "bad.tagc", 65536);
    char head[512];
    int st = run_tagc((char *[]){"--check", ok, NULL}, head, sizeof head);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "65535 fields rejected: %s", head);
    st = run_tagc((char *[]){"--check", bad, NULL}, head, sizeof head);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "65536 fields accepted");
    cr_expect(strstr(head, "bad.tagc:3:11: error: struct has 65536 fields on the wire; at most 65535 are supported") != NULL,
              "%s", head);
    unlink(ok);
    unlink(bad);
    free(ok);
    free(bad);
    cr_expect_eq(rmdir(dir), 0);
}
