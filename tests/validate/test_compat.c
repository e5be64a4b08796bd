/*
 * test_compat.c - `tagc compat OLD NEW` on pairs of small schemas: each kind of
 * breaking change is reported once per wire format (or only for JSON), at the
 * right file and line, with exit 1; compatible changes (widenings, Go renames
 * that keep the wire name, added optional fields, added enum values) give
 * exit 0 and no output.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/tagc-compat-XXXXXX";

static void setup(void)
{
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* Runs `tagc compat old.tagc new.tagc` on the two bodies (after a package line). */
static int compat(const char *old_body, const char *new_body, char **err)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "package p\n\nimport \"time\"\n\n%s", old_body);
    write_file("old.tagc", buf);
    snprintf(buf, sizeof buf, "package p\n\nimport \"time\"\n\n%s", new_body);
    write_file("new.tagc", buf);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compat old.tagc new.tagc >out.txt 2>err.txt", tmpdir,
             getenv("TAGC"));
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    char path[512];
    snprintf(path, sizeof path, "%s/err.txt", tmpdir);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    size_t cap = 1 << 16, len = 0, n;
    *err = malloc(cap + 1);
    while ((n = fread(*err + len, 1, cap - len, fp)) > 0)
        len += n;
    (*err)[len] = '\0';
    fclose(fp);
    return WEXITSTATUS(st);
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Breaks with exactly the given lines (each expected as a substring of one line). */
static void expect_breaks(const char *old_body, const char *new_body, const char *const *lines, size_t nlines)
{
    char *err;
    int rc = compat(old_body, new_body, &err);
    cr_assert_eq(rc, 1, "exit %d, output:\n%s", rc, err);
    cr_assert_eq(count(err, "\n"), nlines, "expected %zu lines, got:\n%s", nlines, err);
    for (size_t i = 0; i < nlines; i++)
        cr_assert(strstr(err, lines[i]) != NULL, "missing \"%s\" in:\n%s", lines[i], err);
    free(err);
}

static void expect_compatible(const char *old_body, const char *new_body)
{
    char *err;
    int rc = compat(old_body, new_body, &err);
    cr_assert_eq(rc, 0, "exit %d, output:\n%s", rc, err);
    cr_assert_str_empty(err);
    free(err);
}

TestSuite(compat, .init = setup, .fini = teardown);

Test(compat, identical_and_compatible_changes)
{
    const char *old = "type T struct {\n"
                      "\tA int32 `json:\"a\"`\n"
                      "\tB float32 `json:\"b\"`\n"
                      "\tC uint16 `json:\"c\"`\n"
                      "\tD []int8 `json:\"d\"`\n"
                      "\tE string `json:\"e\"`\n"
                      "\tF [2]int `json:\"f\"`\n"
                      "\tG map[int32]string `json:\"g\"`\n"
                      "\tH int32 `json:\"h\"`\n"
                      "}\n";
    expect_compatible(old, old);
    const char *widened = "type T struct {\n"
                          "\tAlpha int64 `json:\"a\"`\n"           /* Go rename, wire name kept; widened */
                          "\tB *float64 `json:\"b\"`\n"            /* widened, through a pointer */
                          "\tC int32 `json:\"c\"`\n"               /* uint16 -> int32 */
                          "\tD []int16 `json:\"d\"`\n"
                          "\tE json.RawMessage `json:\"e\"`\n"     /* anything -> RawMessage */
                          "\tF []int `json:\"f\"`\n"               /* array -> slice */
                          "\tG map[string]string `json:\"g\"`\n"   /* int keys -> string keys */
                          "\tH float64 `json:\"h\"`\n"             /* int32 -> float64 */
                          "\tI string `json:\"i,omitempty\"`\n"    /* a new optional field */
                          "}\n";
    char *with_json = malloc(strlen(widened) + 64);
    strcpy(with_json, "import \"encoding/json\"\n\n");
    strcat(with_json, widened);
    /* the import must come first: put it in both */
    char *old_json = malloc(strlen(old) + 64);
    strcpy(old_json, "import \"encoding/json\"\n\n");
    strcat(old_json, old);
    expect_compatible(old_json, with_json);
    free(with_json);
    free(old_json);
}

Test(compat, removed_and_renamed_wire_names)
{
    const char *lines[] = {
        "old.tagc:7:2: error: [json] T.b: field B removed or renamed",
        "old.tagc:7:2: error: [msgpack] T.b: field B removed or renamed",
        "old.tagc:8:2: error: [json] T.c: field C removed or renamed",
        "old.tagc:8:2: error: [msgpack] T.c: field C removed or renamed",
        "new.tagc:7:2: error: [json] T.cc: new field required",
        "new.tagc:7:2: error: [msgpack] T.cc: new field required",
    };
    expect_breaks("type T struct {\n\tA int `json:\"a\"`\n\tB int `json:\"b\"`\n\tC int `json:\"c\"`\n}\n",
                  "type T struct {\n\tA int `json:\"a\"`\n\tC int `json:\"cc\"`\n}\n", lines, 6);
}

Test(compat, case_only_rename_is_fine_in_json_only)
{
    const char *lines[] = {
        "old.tagc:6:2: error: [msgpack] T.userId: field UserID removed or renamed",
        "new.tagc:6:2: error: [msgpack] T.userID: new field required",
    };
    expect_breaks("type T struct {\n\tUserID int `json:\"userId\"`\n}\n",
                  "type T struct {\n\tUserID int `json:\"userID\"`\n}\n", lines, 2);
}

Test(compat, changed_types)
{
    const char *lines[] = {
        "new.tagc:6:2: error: [json] T.a: type changed from int64 to int32",
        "new.tagc:6:2: error: [msgpack] T.a: type changed from int64 to int32",
        "new.tagc:7:2: error: [json] T.b: type changed from float64 to float32",
        "new.tagc:7:2: error: [msgpack] T.b: type changed from float64 to float32",
        "new.tagc:8:2: error: [json] T.c: type changed from string to int64",
        "new.tagc:8:2: error: [msgpack] T.c: type changed from string to int64",
        "new.tagc:9:2: error: [json] T.d: type changed from int32 to uint64",
        "new.tagc:9:2: error: [msgpack] T.d: type changed from int32 to uint64",
        "new.tagc:10:2: error: [json] T.e: type changed from string to []uint8",
        "new.tagc:11:2: error: [json] T.f[]: type changed from int8 to string",
        "new.tagc:11:2: error: [msgpack] T.f[]: type changed from int8 to string",
        "new.tagc:12:13: error: [json] T.g.x: type changed from bool to string",
        "new.tagc:12:13: error: [msgpack] T.g.x: type changed from bool to string",
        "new.tagc:13:2: error: [msgpack] T.h: type changed from time.Time to string",
    };
    expect_breaks("type T struct {\n"
                  "\tA int64 `json:\"a\"`\n"
                  "\tB float64 `json:\"b\"`\n"
                  "\tC string `json:\"c\"`\n"
                  "\tD int32 `json:\"d\"`\n"
                  "\tE string `json:\"e\"`\n"
                  "\tF []int8 `json:\"f\"`\n"
                  "\tG struct { X bool `json:\"x\"` } `json:\"g\"`\n"
                  "\tH time.Time `json:\"h\"`\n"
                  "}\n",
                  "type T struct {\n"
                  "\tA int32 `json:\"a\"`\n"
                  "\tB float32 `json:\"b\"`\n"
                  "\tC int64 `json:\"c\"`\n"
                  "\tD uint64 `json:\"d\"`\n"
                  "\tE []byte `json:\"e\"`\n"
                  "\tF []string `json:\"f\"`\n"
                  "\tG struct { X string `json:\"x\"` } `json:\"g\"`\n"
                  "\tH string `json:\"h\"`\n" /* JSON: the RFC 3339 text reads as a string */
                  "}\n",
                  lines, 14);
}

Test(compat, omitempty_lost_and_gained)
{
    const char *lines[] = {
        "new.tagc:6:2: error: [json] T.a: became required in strict mode (lost omitempty)",
        "new.tagc:6:2: error: [msgpack] T.a: became required in strict mode (lost omitempty)",
        "new.tagc:7:2: error: [json] T.b: no longer required (omitempty)",
        "new.tagc:7:2: error: [msgpack] T.b: no longer required (omitempty)",
        "new.tagc:8:2: error: [msgpack] T.c: became required in strict mode",
    };
    expect_breaks("type T struct {\n"
                  "\tA int `json:\"a,omitempty\"`\n"
                  "\tB int `json:\"b\"`\n"
                  "\tC int `json:\"c,omitempty\" msgpack:\"c,omitempty\"`\n"
                  "}\n",
                  "type T struct {\n"
                  "\tA int `json:\"a\"`\n"
                  "\tB int `json:\"b,omitempty\"`\n"
                  "\tC int `json:\"c,omitempty\" msgpack:\"c\"`\n"
                  "}\n",
                  lines, 5);
}

Test(compat, closed_enum_values)
{
    const char *lines[] = {
        "old.tagc:10:2: error: [json] S: value SB = \"b\" removed from closed enum S: new readers reject it",
        "old.tagc:10:2: error: [msgpack] S: value SB = \"b\" removed from closed enum S: new readers reject it",
        "old.tagc:18:2: error: [json] L: value LTwo = 2 removed from closed enum L: new readers reject it",
        "old.tagc:18:2: error: [msgpack] L: value LTwo = 2 removed from closed enum L: new readers reject it",
        "new.tagc:22:2: error: [json] T.plain: type changed from string to closed enum S (//tagc:closed): "
        "new readers reject values outside it",
        "new.tagc:22:2: error: [msgpack] T.plain: type changed from string to closed enum S (//tagc:closed): "
        "new readers reject values outside it",
    };
    const char *old = "//tagc:closed\ntype S string\n\nconst (\n\tSA S = \"a\"\n\tSB S = \"b\"\n)\n\n"
                      "//tagc:closed\ntype L int\n\nconst (\n\tLOne L = 1\n\tLTwo L = 2\n)\n\n"
                      "type T struct {\n\tPlain string `json:\"plain\"`\n\tE S `json:\"e\"`\n}\n";
    const char *new = "//tagc:closed\ntype S string\n\nconst (\n\tSA S = \"a\"\n\tSC S = \"c\"\n)\n\n"
                      "//tagc:closed\ntype L int\n\nconst (\n\tLOne L = 1\n\tLThree L = 3\n)\n\n"
                      "type T struct {\n\tPlain S `json:\"plain\"`\n\tE string `json:\"e\"`\n}\n";
    /* line numbers: the bodies start at line 5 */
    expect_breaks(old, new, lines, 6);
}

/* Open enums (the default, as in Go) read any value of their type: removing a
 * constant, or a string field becoming one, breaks nothing; closing one does. */
Test(compat, open_enum_values)
{
    const char *lines[] = {
        "new.tagc:13:6: error: [json] K: enum K became closed (//tagc:closed): new readers reject values "
        "outside it",
        "new.tagc:13:6: error: [msgpack] K: enum K became closed (//tagc:closed): new readers reject values "
        "outside it",
        "new.tagc:21:2: error: [json] T.n: type changed from string to int64",
        "new.tagc:21:2: error: [msgpack] T.n: type changed from string to int64",
    };
    const char *old = "type S string\n\nconst (\n\tSA S = \"a\"\n\tSB S = \"b\"\n)\n\n"
                      "type K string\n\nconst KA K = \"a\"\n\n"
                      "type T struct {\n\tPlain string `json:\"plain\"`\n\tE S `json:\"e\"`\n"
                      "\tK K `json:\"k\"`\n\tN S `json:\"n\"`\n}\n";
    const char *new = "type S string\n\nconst (\n\tSA S = \"a\"\n\tSC S = \"c\"\n)\n\n"
                      "//tagc:closed\ntype K string\n\nconst KA K = \"a\"\n\n"
                      "type T struct {\n\tPlain S `json:\"plain\"`\n\tE string `json:\"e\"`\n"
                      "\tK K `json:\"k\"`\n\tN int64 `json:\"n\"`\n}\n";
    expect_breaks(old, new, lines, 4);
}

Test(compat, string_option_is_json_only)
{
    const char *lines[] = {
        "new.tagc:6:2: error: [json] T.n: `string` option added",
        "new.tagc:7:2: error: [json] T.m: `string` option removed",
    };
    expect_breaks("type T struct {\n\tN int64 `json:\"n\"`\n\tM int64 `json:\"m,string\"`\n}\n",
                  "type T struct {\n\tN int64 `json:\"n,string\"`\n\tM int64 `json:\"m\"`\n}\n", lines, 2);
}

Test(compat, recursive_types_and_nested_named)
{
    /* a recursive type compared with itself, and a type used under another name */
    expect_compatible("type N struct {\n\tKids []N `json:\"kids\"`\n\tUp *N `json:\"up\"`\n}\n",
                      "type N struct {\n\tKids []N `json:\"kids\"`\n\tUp *N `json:\"up\"`\n}\n");
    const char *lines[] = {
        "new.tagc:6:2: error: [json] T.x.v: type changed from int64 to int8",
        "new.tagc:6:2: error: [msgpack] T.x.v: type changed from int64 to int8",
    };
    expect_breaks("type A struct {\n\tV int64 `json:\"v\"`\n\tSelf *A `json:\"self,omitempty\" msgpack:\",omitempty\"`\n}\n\n"
                  "type T struct {\n\tX A `json:\"x\"`\n}\n",
                  "type B struct {\n\tV int8 `json:\"v\"`\n\tSelf *B `json:\"self,omitempty\" msgpack:\",omitempty\"`\n}\n\n"
                  "type T struct {\n\tX B `json:\"x\"`\n}\n",
                  lines, 2);
}

Test(compat, usage_and_io)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compat only_one.tagc >/dev/null 2>&1", tmpdir, getenv("TAGC"));
    int st = system(cmd);
    cr_assert_eq(WEXITSTATUS(st), 2);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compat missing.tagc missing2.tagc >/dev/null 2>&1", tmpdir,
             getenv("TAGC"));
    st = system(cmd);
    cr_assert_eq(WEXITSTATUS(st), 2);
    snprintf(cmd, sizeof cmd, "'%s' compat --help >/dev/null", getenv("TAGC"));
    st = system(cmd);
    cr_assert_eq(WEXITSTATUS(st), 0);
}

/* //tagc:codec: the declared wire shapes are compared, not the C functions. */
Test(compat, codec_wire_shapes)
{
    const char *wide = "//tagc:codec ctype=tagc_time json=ts_json wire=string|integer\n"
                       "type TS struct{ time.Time }\n"
                       "type T struct {\n\tA TS `json:\"a\"`\n\tB *TS `json:\"b\"`\n}\n";
    const char *narrow = "//tagc:codec ctype=tagc_time json=ts_json wire=string\n"
                         "type TS struct{ time.Time }\n"
                         "type T struct {\n\tA TS `json:\"a\"`\n\tB *TS `json:\"b\"`\n}\n";
    expect_compatible(wide, wide);
    expect_compatible(narrow, wide); /* widened: old strings still read */
    const char *lines[] = {
        "[json] TS: the wire shape of TS (//tagc:codec) changed from string|integer to string",
        "[msgpack] TS: the wire shape of TS (//tagc:codec) changed from string|integer to string",
    };
    expect_breaks(wide, narrow, lines, 2);
    /* a plain type that becomes a codec one, and back */
    const char *plain = "type T struct {\n\tA string `json:\"a\"`\n\tB *int64 `json:\"b\"`\n}\n";
    expect_compatible(plain, wide);
    const char *back[] = {
        "[json] T.a: type changed from TS to string: its wire shape string does not take all that old writers wrote (string|integer)",
        "[msgpack] T.a: type changed from TS to string",
        "[json] T.b: type changed from TS to *int64: its wire shape integer does not take all",
        "[msgpack] T.b: type changed from TS to *int64",
    };
    expect_breaks(wide, plain, back, 4);
}
