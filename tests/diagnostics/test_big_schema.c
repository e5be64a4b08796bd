/*
 * test_big_schema.c - a generated schema of 2000 struct types (about 5 MB):
 * fields of every kind, references forward and back, embedded structs, enums
 * and anonymous structs. `tagc --check` must accept it, and in reasonable
 * time (the test's timeout), since the checker's lookups are hashed.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { NTYPES = 2000, NFIELDS = 30 };

static const char *const scalars[] = {"int64", "string", "bool", "float64", "uint32",
                                      "int8", "[]string", "*float64", "map[string]int32",
                                      "[4]uint16", "time.Time", "[]byte"};

static void write_type(FILE *f, int i)
{
    fprintf(f, "// T%04d is generated type number %d: fields of every kind.\n", i, i);
    if (i % 10 == 0) {
        fprintf(f, "type State%04d string\n\nconst (\n", i);
        for (int k = 0; k < 5; k++)
            fprintf(f, "\tState%04dValue%d State%04d = \"value-%d\"\n", i, k, i, k);
        fprintf(f, ")\n\n");
    }
    fprintf(f, "type T%04d struct {\n\tBase\n", i);
    fprintf(f, "\tID%04d int64 `json:\"id_%04d\" msgpack:\"id\"`\n", i, i);
    for (int k = 0; k < NFIELDS; k++)
        fprintf(f, "\tField%02dOfType%04d %-18s `json:\"field_%02d_of_type_%04d,omitempty\"`\n", k,
                i, scalars[(i + k) % (sizeof scalars / sizeof scalars[0])], k, i);
    fprintf(f, "\tPrev *T%04d `json:\"prev,omitempty\"`\n", (i + NTYPES - 1) % NTYPES);
    fprintf(f, "\tNext []T%04d `json:\"next\"`\n", (i + 1) % NTYPES);
    fprintf(f, "\tByName map[string]*T%04d `json:\"by_name\"`\n", (i * 7) % NTYPES);
    if (i % 10 == 0)
        fprintf(f, "\tState State%04d `json:\"state\"`\n", i);
    fprintf(f, "\tInner struct {\n\t\tA int `json:\"a\"`\n\t\tB []string `json:\"b\"`\n"
               "\t} `json:\"inner\"`\n}\n\n");
}

static char *generate(void)
{
    char dir_tmpl[] = "/tmp/tagc-big-XXXXXX";
    char *dir = mkdtemp(dir_tmpl);
    cr_assert_not_null(dir);
    char *path = malloc(strlen(dir) + 16);
    cr_assert_not_null(path);
    sprintf(path, "%s/big.tagc", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "package big\n\nimport \"time\"\n\n"
               "type Base struct {\n\tKind string `json:\"kind\"`\n\tAt time.Time `json:\"at\"`\n}\n\n");
    for (int i = 0; i < NTYPES; i++)
        write_type(f, i);
    fclose(f);
    return path;
}

Test(big_schema, two_thousand_types_check_clean, .timeout = 120)
{
    char *path = generate();
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0);
    cr_expect_gt(sb.st_size, 4 * 1000 * 1000, "only %lld bytes", (long long)sb.st_size);

    const char *tagc = getenv("TAGC");
    cr_assert_not_null(tagc, "TAGC is not set");
    char err_path[] = "/tmp/tagc-big-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    cr_assert(err_fd >= 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (dup2(err_fd, 2) < 0)
            _exit(127);
        execl(tagc, tagc, "--check", path, (char *)NULL);
        _exit(127);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    char head[512] = "";
    ssize_t n = pread(err_fd, head, sizeof head - 1, 0);
    head[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tagc failed: %s", head);
    cr_expect_str_empty(head);

    unlink(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
    free(path);
}
