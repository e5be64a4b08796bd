/*
 * test_codec_tools.c - `tagc validate` and `--emit-json-schema` on a type with a
 * C codec (//tagc:codec): they go by its declared wire shape (string|integer for
 * examples/timestamp's Timestamp) and run no user code. ($TAGC: the tagc built;
 * $TIMESTAMP_DIR: examples/timestamp.)
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char tmpdir[] = "/tmp/tagc-codec-XXXXXX";

static void setup(void) { cr_assert_not_null(mkdtemp(tmpdir)); }

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(codec_tools, .init = setup, .fini = teardown);

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "%s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

/* `tagc validate [FLAGS] github.tagc PushEvent` on text (written to a file): exit status, stderr. */
static int validate(const char *flags, const char *text, size_t len, char **err)
{
    char path[512], cmd[2048];
    snprintf(path, sizeof path, "%s/doc", tmpdir);
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    fwrite(text, 1, len, fp);
    fclose(fp);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' validate %s '%s/github.tagc' PushEvent doc 2>err.txt",
             tmpdir, getenv("TAGC"), flags, getenv("TIMESTAMP_DIR"));
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    snprintf(path, sizeof path, "%s/err.txt", tmpdir);
    *err = slurp(path);
    return WEXITSTATUS(st);
}

Test(codec_tools, validate_goes_by_the_wire_shape)
{
    char *err;
    const char *ints = "{\"repository\":{\"created_at\":1393347547,\"pushed_at\":-5}}";
    cr_assert_eq(validate("", ints, strlen(ints), &err), 0, "%s", err);
    const char *strs = "{\"repository\":{\"created_at\":\"2014-02-25T16:59:07Z\",\"pushed_at\":null}}";
    cr_assert_eq(validate("", strs, strlen(strs), &err), 0, "%s", err);
    const char *num = "{\"repository\":{\n\"pushed_at\": 1.5}}";
    cr_assert_eq(validate("", num, strlen(num), &err), 1);
    cr_assert_str_eq(err, "doc:2:14: error: $.repository.pushed_at: Timestamp: expected "
                          "string|integer (its codec's wire shape), found a number\n");
    const char *obj = "{\"commits\":[{\"timestamp\":{}}]}";
    cr_assert_eq(validate("", obj, strlen(obj), &err), 1);
    cr_assert(strstr(err, "$.commits[0].timestamp: Timestamp: expected string|integer") != NULL, "%s", err);
    /* within the shape, only the codec knows: a string that is no time passes */
    const char *notime = "{\"repository\":{\"pushed_at\":\"yesterday\"}}";
    cr_assert_eq(validate("", notime, strlen(notime), &err), 0, "%s", err);
}

Test(codec_tools, validate_msgpack_shapes)
{
    char *err;
    /* {"repository": {"pushed_at": 60}}, then the same with the timestamp extension, then a float */
    static const uint8_t as_int[] = {0x81, 0xaa, 'r', 'e', 'p', 'o', 's', 'i', 't', 'o', 'r', 'y',
                                     0x81, 0xa9, 'p', 'u', 's', 'h', 'e', 'd', '_', 'a', 't', 0x3c};
    cr_assert_eq(validate("--format msgpack", (const char *)as_int, sizeof as_int, &err), 0, "%s", err);
    uint8_t as_ext[sizeof as_int + 5];
    memcpy(as_ext, as_int, sizeof as_int - 1);
    static const uint8_t ext[] = {0xd6, 0xff, 0, 0, 0, 60};
    memcpy(as_ext + sizeof as_int - 1, ext, sizeof ext);
    cr_assert_eq(validate("--format msgpack", (const char *)as_ext, sizeof as_ext, &err), 0, "%s", err);
    uint8_t as_float[sizeof as_int + 8];
    memcpy(as_float, as_int, sizeof as_int - 1);
    static const uint8_t f64[] = {0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0};
    memcpy(as_float + sizeof as_int - 1, f64, sizeof f64);
    cr_assert_eq(validate("--format msgpack", (const char *)as_float, sizeof as_float, &err), 1);
    cr_assert(strstr(err, "offset 23") && strstr(err, "$.repository.pushed_at: Timestamp: expected "
                                                      "string|integer"), "%s", err);
}

Test(codec_tools, json_schema_has_the_shape)
{
    char cmd[2048], path[512];
    snprintf(cmd, sizeof cmd, "'%s' --no-json --no-msgpack --emit-json-schema '%s' -o '%s' '%s/github.tagc'",
             getenv("TAGC"), tmpdir, tmpdir, getenv("TIMESTAMP_DIR"));
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/Timestamp.schema.json", tmpdir);
    char *s = slurp(path);
    cr_assert(strstr(s, "\"$comment\": \"a C codec (//tagc:codec): wire string|integer\"") != NULL, "%s", s);
    cr_assert(strstr(s, "\"type\": [\"string\", \"integer\"]") != NULL, "%s", s);
    cr_assert(strstr(s, "null") == NULL, "%s", s); /* not declared: the codec's reader rejects it */
    snprintf(path, sizeof path, "%s/PushEventRepository.schema.json", tmpdir);
    s = slurp(path);
    /* a *Timestamp field: nil is Go's, so null is in (anyOf the codec's and null) */
    const char *f = strstr(s, "\"pushed_at\": {");
    cr_assert_not_null(f, "%s", s);
    const char *any = strstr(f, "\"anyOf\""), *ref = strstr(f, "\"$ref\": \"#/$defs/Timestamp\"");
    const char *null = strstr(f, "{\"type\": \"null\"}"), *next = strstr(f, "\"updated_at\"");
    cr_assert(any && ref && null && next && any < ref && ref < null && null < next, "%s", f);
}
