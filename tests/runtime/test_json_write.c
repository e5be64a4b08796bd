/*
 * test_json_write.c - runtime/json_write.c, runtime/any.c and runtime/json_skip.c:
 * numbers, []byte, time.Time, json.RawMessage compaction, indenting, map key
 * order, interface{} trees (decode, encode, equality) and the skipper.
 *
 * With Go installed, TAGC_JSON_WRITE_REF names the output of json_write_ref.go:
 * Go's own results for RawMessage marshalling, json.Indent and interface{} round
 * trips, which must match byte for byte.
 */
#include <criterion/criterion.h>

#include "tagc.h"
#include "test_profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MARK: - helpers */

#define EXPECT_BUF(b, s)                                                                     \
    cr_expect((b)->err == 0 && (b)->len == strlen(s) && memcmp((b)->data, (s), (b)->len) == 0, \
              "got [%.*s] (err %d), want [%s]", (int)(b)->len, (const char *)(b)->data,     \
              (b)->err, (s))

typedef struct ctx {
    tagc_arena arena;
    tagc_error err;
    tagc_json_dec d;
} ctx;

/* Decodes src as Go's interface{} (whole input); returns the code. */
static int any_decode(ctx *c, const char *src, size_t len, tagc_any **out, int max_depth)
{
    tagc_json_opts o = {0};
    o.max_depth = max_depth;
    tagc_json_dec_init(&c->d, src, len, &c->arena, &c->err, &o);
    return tagc_json_dec_finish(&c->d, tagc_json_read_any(&c->d, out));
}

static int skip_all(ctx *c, const char *src, size_t len, int max_depth)
{
    tagc_json_opts o = {0};
    o.max_depth = max_depth;
    tagc_json_dec_init(&c->d, src, len, &c->arena, &c->err, &o);
    return tagc_json_dec_finish(&c->d, tagc_json_skip(&c->d));
}

static ctx *ctx_new(void)
{
    ctx *c = calloc(1, sizeof *c);
    cr_assert(c != NULL);
    tagc_arena_init(&c->arena);
    return c;
}

static void ctx_free(ctx *c)
{
    tagc_arena_free(&c->arena);
    free(c);
}

/* MARK: - numbers */

Test(json_write, integers)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_json_write_i64(&b, INT64_MIN);
    tagc_buf_byte(&b, ' ');
    tagc_json_write_i64(&b, 0);
    tagc_buf_byte(&b, ' ');
    tagc_json_write_i64(&b, -42);
    tagc_buf_byte(&b, ' ');
    tagc_json_write_u64(&b, UINT64_MAX);
    EXPECT_BUF(&b, "-9223372036854775808 0 -42 18446744073709551615");
    tagc_buf_free(&b);
}

Test(json_write, floats)
{
    tagc_buf b;
    tagc_buf_init(&b);
    double v[] = {0.0, -0.0, 1.5, 1e21, 1e20, 1e-7, 1e-6, 5e-324, 1.7976931348623157e308, 0.1};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        if (i)
            tagc_buf_byte(&b, ',');
        tagc_json_write_f64(&b, v[i]);
    }
    EXPECT_BUF(&b, "0,-0,1.5,1e+21,100000000000000000000,1e-7,0.000001,5e-324,1.7976931348623157e+308,0.1");
    tagc_buf_reset(&b);
    tagc_json_write_f32(&b, 0.1f);
    tagc_buf_byte(&b, ',');
    tagc_json_write_f32(&b, 3.4028235e38f);
    EXPECT_BUF(&b, "0.1,3.4028235e+38");
    tagc_buf_free(&b);
}

Test(json_write, non_finite_floats_fail)
{
    double bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        tagc_buf b;
        tagc_buf_init(&b);
        tagc_buf_put(&b, "x", 1);
        tagc_json_write_f64(&b, bad[i]);
        cr_expect(b.err == TAGC_E_INVALID && b.len == 1);
        tagc_json_write_i64(&b, 1); /* sticky */
        cr_expect(b.err == TAGC_E_INVALID && b.len == 1);
        tagc_buf_reset(&b);
        tagc_json_write_f32(&b, (float)bad[i]);
        cr_expect(b.err == TAGC_E_INVALID && b.len == 0);
        tagc_buf_free(&b);
    }
}

Test(json_write, fixed_buffer_full)
{
    char mem[4];
    tagc_buf b;
    tagc_buf_init_fixed(&b, mem, sizeof mem);
    tagc_json_write_i64(&b, 1234); /* what fits is written, though the longest number would not */
    cr_expect(b.err == 0 && b.len == 4 && memcmp(mem, "1234", 4) == 0);
    tagc_json_write_i64(&b, 5);
    cr_expect(b.err == TAGC_E_FULL && b.len == 4, "a fifth byte must not fit in 4");
    tagc_buf_init_fixed(&b, mem, sizeof mem);
    tagc_json_write_bytes(&b, (const uint8_t *)"abc", 3, false);
    cr_expect(b.err == TAGC_E_FULL && b.len == 0);
}

/* MARK: - []byte and time */

Test(json_write, bytes)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_json_write_bytes(&b, NULL, 0, true);
    tagc_buf_byte(&b, ',');
    tagc_json_write_bytes(&b, (const uint8_t *)"", 0, false);
    tagc_buf_byte(&b, ',');
    tagc_json_write_bytes(&b, (const uint8_t *)"hello", 5, false);
    tagc_buf_byte(&b, ',');
    tagc_json_write_bytes(&b, (const uint8_t *)"\xff\xfe\x00", 3, false);
    tagc_buf_byte(&b, ',');
    tagc_json_write_bytes(&b, (const uint8_t *)"ab", 2, false);
    EXPECT_BUF(&b, "null,\"\",\"aGVsbG8=\",\"//4A\",\"YWI=\"");
    tagc_buf_free(&b);
}

Test(json_write, times)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_time zero = {0, 0, 0};
    tagc_json_write_time(&b, &zero, TAGC_GO_DEFAULT);
    tagc_buf_byte(&b, ',');
    tagc_time t = tagc_time_from_unix(1700000000, 120000000, 330);
    tagc_json_write_time(&b, &t, TAGC_GO_DEFAULT);
    EXPECT_BUF(&b, "\"0001-01-01T00:00:00Z\",\"2023-11-15T03:43:20.12+05:30\"");
    size_t len = b.len;
    tagc_time far = tagc_time_from_unix(253402300800LL, 0, 0); /* year 10000 */
    tagc_json_write_time(&b, &far, TAGC_GO_DEFAULT);
    cr_expect(b.err == TAGC_E_INVALID && b.len == len);
    tagc_buf_free(&b);
}

/* MARK: - RawMessage */

static void raw_case(const char *in, bool html, const char *want)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_buf_put(&b, "[", 1);
    tagc_raw r = {(char *)in, strlen(in)};
    tagc_json_write_raw_opts(&b, &r, html);
    if (want) {
        cr_expect(b.err == 0 && b.len == 1 + strlen(want) && memcmp(b.data + 1, want, b.len - 1) == 0,
                  "raw [%s] html=%d: got [%.*s] err %d, want [%s]", in, html, (int)b.len - 1,
                  (const char *)b.data + 1, b.err, want);
    } else {
        cr_expect(b.err == TAGC_E_INVALID && b.len == 1, "raw [%s] must be invalid (err %d)", in,
                  b.err);
    }
    tagc_buf_free(&b);
}

Test(json_write, raw)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_raw nil = {NULL, 0};
    tagc_json_write_raw(&b, &nil);
    EXPECT_BUF(&b, "null");
    tagc_buf_free(&b);

    raw_case(" { \"a\" : [ 1 , 2 ] , \"b c\" : \" x  y \" }\n", true, "{\"a\":[1,2],\"b c\":\" x  y \"}");
    raw_case("\"<a&b>\"", true, "\"\\u003ca\\u0026b\\u003e\"");
    raw_case("\"<a&b>\"", false, "\"<a&b>\"");
    raw_case("\"\xe2\x80\xa8\xe2\x80\xa9\"", true, "\"\\u2028\\u2029\"");
    raw_case("\"\xe2\x80\xa8\"", false, "\"\xe2\x80\xa8\"");
    raw_case("\"\\\" \\\\\"", true, "\"\\\" \\\\\"");
    raw_case("\"\xff\"", true, "\"\xff\""); /* invalid UTF-8 is kept as is */
    raw_case("null", true, "null");
    raw_case("[1,]", true, NULL);
    raw_case("[1] 2", true, NULL);
    raw_case("   ", true, NULL);
    raw_case("\"a\tb\"", true, NULL);
    raw_case("01", true, NULL);
}

/* MARK: - indent */

static void indent_case(const char *in, const char *prefix, const char *ind, const char *want)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_buf_put(&b, "XY", 2);
    tagc_buf_put(&b, in, strlen(in));
    tagc_json_indent(&b, 2, prefix, ind);
    cr_expect(b.err == 0 && b.len == 2 + strlen(want) && memcmp(b.data, "XY", 2) == 0 &&
                  memcmp(b.data + 2, want, b.len - 2) == 0,
              "indent [%s]: got [%.*s], want [%s]", in, (int)b.len - 2, (const char *)b.data + 2,
              want);
    tagc_buf_free(&b);
}

Test(json_write, indent)
{
    indent_case("{\"a\":[1,2,{}],\"b\":{\"c\":[]},\"d\":\"x,:{[\\\"\"}", ">", "  ",
                "{\n>  \"a\": [\n>    1,\n>    2,\n>    {}\n>  ],\n>  \"b\": {\n>    \"c\": []\n>  },\n>  \"d\": \"x,:{[\\\"\"\n>}");
    indent_case("[]", "", "\t", "[]");
    indent_case("1", "p", "\t", "1");
    indent_case("[[1]]", "", "\t", "[\n\t[\n\t\t1\n\t]\n]");
}

/* MARK: - map key order */

Test(json_write, sort_str_keys)
{
    for (size_t n = 0; n < 200; n += 7) {
        tagc_str *keys = malloc((n + 1) * sizeof *keys);
        char (*txt)[8] = malloc((n + 1) * sizeof *txt);
        size_t *idx = malloc((n + 1) * sizeof *idx);
        cr_assert(keys && txt && idx);
        for (size_t i = 0; i < n; i++) {
            size_t k = (i * 37 + 11) % 53; /* duplicates and prefixes */
            size_t l = (size_t)snprintf(txt[i], sizeof txt[i], "%zu", k % 10 == 3 ? k / 10 : k);
            if (i % 5 == 0) {
                txt[i][l++] = (char)0xC3; /* a byte above 0x7f sorts last */
                txt[i][l] = 0;
            }
            keys[i].ptr = txt[i];
            keys[i].len = l;
        }
        tagc_sort_str_keys(keys, n, idx);
        bool *seen = calloc(n + 1, 1);
        for (size_t i = 0; i < n; i++) {
            cr_assert(idx[i] < n && !seen[idx[i]]);
            seen[idx[i]] = true;
            if (i) {
                const tagc_str *a = &keys[idx[i - 1]], *c = &keys[idx[i]];
                size_t m = a->len < c->len ? a->len : c->len;
                int r = memcmp(a->ptr, c->ptr, m);
                cr_expect(r < 0 || (r == 0 && a->len <= c->len), "n=%zu: order broken at %zu", n, i);
            }
        }
        free(seen);
        free(keys);
        free(txt);
        free(idx);
    }
}

/* MARK: - interface{} */

static void any_roundtrip(const char *in, const char *want, bool html, bool sorted)
{
    ctx *c = ctx_new();
    tagc_any *a = NULL;
    int rc = any_decode(c, in, strlen(in), &a, 0);
    cr_expect(rc == 0, "decode [%s]: %d %s", in, rc, c->err.message);
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_json_opts o = {0};
    o.no_html_escape = !html;
    o.unsorted_maps = !sorted;
    tagc_json_write_any(&b, a, &o);
    EXPECT_BUF(&b, want);
    /* decode the output again: an equal tree */
    tagc_any *a2 = NULL;
    ctx *c2 = ctx_new();
    cr_expect(any_decode(c2, (const char *)b.data, b.len, &a2, 0) == 0);
    cr_expect(tagc_any_equal(a, a2), "[%s] is not equal to its round trip", in);
    ctx_free(c2);
    tagc_buf_free(&b);
    ctx_free(c);
}

Test(json_write, any_roundtrips)
{
    any_roundtrip("null", "null", true, true);
    any_roundtrip(" [true,false,null, 1 ,-0,1e2,\"x\"] ", "[true,false,null,1,-0,100,\"x\"]", true, true);
    any_roundtrip("{\"b\":1,\"a\":2,\"b\":3}", "{\"a\":2,\"b\":3}", true, true);
    any_roundtrip("{\"b\":1,\"a\":2,\"b\":3}", "{\"b\":3,\"a\":2}", true, false); /* first position, last value */
    any_roundtrip("{\"<\":\"&\"}", "{\"\\u003c\":\"\\u0026\"}", true, true);
    any_roundtrip("{\"<\":\"&\"}", "{\"<\":\"&\"}", false, true);
    any_roundtrip("\"\\ud83d\\ude00\\u00e9\\n\"", "\"\xf0\x9f\x98\x80\xc3\xa9\\n\"", true, true);
    any_roundtrip("\"\xff\"", "\"\xef\xbf\xbd\"", true, true);
    any_roundtrip("[[],{},[{}]]", "[[],{},[{}]]", true, true);
}

Test(json_write, any_large_object_duplicates)
{
    /* enough keys to use the hash index; every key given twice */
    tagc_buf in;
    tagc_buf_init(&in);
    tagc_buf_byte(&in, '{');
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 300; i++) {
            char t[48];
            int n = snprintf(t, sizeof t, "%s\"k%d\":%d", pass || i ? "," : "", (i * 7919) % 300,
                             pass * 1000 + i);
            tagc_buf_put(&in, t, (size_t)n);
        }
    tagc_buf_byte(&in, '}');
    ctx *c = ctx_new();
    tagc_any *a = NULL;
    cr_assert(any_decode(c, (const char *)in.data, in.len, &a, 0) == 0);
    cr_assert(a && a->kind == TAGC_ANY_OBJECT && a->u.obj.len == 300);
    for (size_t i = 0; i < 300; i++) {
        cr_expect(a->u.obj.vals[i]->u.num == 1000 + (double)i, "key %zu keeps the last value", i);
        char t[16];
        snprintf(t, sizeof t, "k%zu", (i * 7919) % 300);
        cr_expect(strcmp(a->u.obj.keys[i].ptr, t) == 0, "first-seen order at %zu", i);
    }
    /* equality: keys as sets, values deep */
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_json_write_any(&out, a, NULL); /* sorted */
    tagc_any *b = NULL;
    ctx *c2 = ctx_new();
    cr_assert(any_decode(c2, (const char *)out.data, out.len, &b, 0) == 0);
    cr_expect(tagc_any_equal(a, b));
    b->u.obj.vals[17]->u.num += 1;
    cr_expect(!tagc_any_equal(a, b));
    ctx_free(c2);
    ctx_free(c);
    tagc_buf_free(&out);
    tagc_buf_free(&in);
}

Test(json_write, any_equal)
{
    ctx *c = ctx_new();
    tagc_any *x[6];
    const char *src[6] = {"{\"a\":1,\"b\":[1,2]}", "{\"b\":[1,2],\"a\":1}", "{\"b\":[1,2],\"a\":2}",
                          "{\"b\":[1,2],\"c\":1}", "[1,2]", "{\"a\":1}"};
    for (int i = 0; i < 6; i++)
        cr_assert(any_decode(c, src[i], strlen(src[i]), &x[i], 0) == 0);
    cr_expect(tagc_any_equal(x[0], x[1]));
    cr_expect(!tagc_any_equal(x[0], x[2]));
    cr_expect(!tagc_any_equal(x[0], x[3]));
    cr_expect(!tagc_any_equal(x[0], x[4]));
    cr_expect(!tagc_any_equal(x[0], x[5]));
    cr_expect(tagc_any_equal(NULL, NULL));
    cr_expect(!tagc_any_equal(NULL, x[0]));
    ctx_free(c);
}

Test(json_write, any_errors)
{
    struct {
        const char *in;
        int code;
        size_t off;
    } cases[] = {
        {"[1,]", TAGC_E_SYNTAX, 3},       {"{\"a\" 1}", TAGC_E_SYNTAX, 5},
        {"[1e400]", TAGC_E_RANGE, 1},     {"-", TAGC_E_EOF, 1},
        {"[\"a\x01\"]", TAGC_E_SYNTAX, 3}, {"\"\\x\"", TAGC_E_SYNTAX, 2},
        {"[tru]", TAGC_E_SYNTAX, 4},      {"[", TAGC_E_EOF, 1},
        {"{\"a\":1,}", TAGC_E_SYNTAX, 7}, {"1.", TAGC_E_EOF, 2},
        {"1.e", TAGC_E_SYNTAX, 2},        {"[1]x", TAGC_E_SYNTAX, 3},
        {"\"\\u12", TAGC_E_EOF, 5},       {"\"\\u12x4\"", TAGC_E_SYNTAX, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ctx *c = ctx_new();
        tagc_any *a = (tagc_any *)1;
        int rc = any_decode(c, cases[i].in, strlen(cases[i].in), &a, 0);
        cr_expect(rc == cases[i].code && c->err.offset == cases[i].off,
                  "[%s]: got %d at %zu (%s), want %d at %zu", cases[i].in, rc, c->err.offset,
                  c->err.message, cases[i].code, cases[i].off);
        if (cases[i].code != TAGC_E_RANGE) { /* the skipper agrees */
            rc = skip_all(c, cases[i].in, strlen(cases[i].in), 0);
            cr_expect(rc == cases[i].code && c->err.offset == cases[i].off,
                      "skip [%s]: got %d at %zu (%s), want %d at %zu", cases[i].in, rc,
                      c->err.offset, c->err.message, cases[i].code, cases[i].off);
        }
        ctx_free(c);
    }
}

/* MARK: - depth */

static char *nested(size_t n, size_t *len)
{
    char *s = malloc(4 * n + 8);
    cr_assert(s != NULL);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 2) {
            s[k++] = '[';
        } else {
            memcpy(s + k, "{\"\":", 4);
            k += 4;
        }
    }
    s[k++] = '1';
    for (size_t i = n; i-- > 0;)
        s[k++] = i % 2 ? ']' : '}';
    *len = k;
    return s;
}

Test(json_write, depth_limits)
{
    size_t len;
    ctx *c = ctx_new();
    char *s = nested(1000, &len);
    tagc_any *a;
    tagc_raw r;
    cr_expect(any_decode(c, s, len, &a, 0) == 0);
    cr_expect(skip_all(c, s, len, 0) == 0);
    cr_expect(any_decode(c, s, len, &a, 999) == TAGC_E_DEPTH);
    cr_expect(skip_all(c, s, len, 999) == TAGC_E_DEPTH);
    free(s);
    s = nested(1001, &len);
    cr_expect(any_decode(c, s, len, &a, 0) == TAGC_E_DEPTH);
    cr_expect(skip_all(c, s, len, 0) == TAGC_E_DEPTH);
    free(s);
    /* deeper than the skipper's on-stack bits */
    s = nested(5000, &len);
    cr_expect(skip_all(c, s, len, 5000) == 0);
    cr_expect(skip_all(c, s, len, 4999) == TAGC_E_DEPTH);
    tagc_json_dec_init(&c->d, s, len, &c->arena, &c->err, &(tagc_json_opts){.max_depth = 5000});
    cr_expect(tagc_json_dec_finish(&c->d, tagc_json_read_raw(&c->d, &r)) == 0);
    cr_expect(r.len == len && memcmp(r.ptr, s, len) == 0 && r.ptr[len] == 0);
    s[len - 1] = ']'; /* mismatched bracket deep down */
    cr_expect(skip_all(c, s, len, 5000) == TAGC_E_SYNTAX && c->err.offset == len - 1);
    free(s);
    ctx_free(c);
}

Test(json_write, read_raw)
{
    ctx *c = ctx_new();
    const char *in = " \t null \n";
    tagc_raw r;
    tagc_json_dec_init(&c->d, in, strlen(in), &c->arena, &c->err, NULL);
    cr_expect(tagc_json_dec_finish(&c->d, tagc_json_read_raw(&c->d, &r)) == 0);
    cr_expect(r.len == 4 && memcmp(r.ptr, "null", 5) == 0);
    in = "{\"a\" : [1, \"\\u00e9\"] }";
    tagc_json_dec_init(&c->d, in, strlen(in), &c->arena, &c->err, NULL);
    cr_expect(tagc_json_dec_finish(&c->d, tagc_json_read_raw(&c->d, &r)) == 0);
    cr_expect(r.len == strlen(in) && strcmp(r.ptr, in) == 0);
    ctx_free(c);
}

/* MARK: - against Go */

static size_t unhex(const char *h, char *out)
{
    if (strcmp(h, "-") == 0) {
        out[0] = 0;
        return 0;
    }
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(h + 2 * i, "%2x", &v);
        out[i] = (char)v;
    }
    out[n] = 0;
    return n;
}

Test(json_write, go_reference)
{
    const char *path = getenv("TAGC_JSON_WRITE_REF");
    if (!path || !*path) {
        cr_skip_test("Go not available (TAGC_JSON_WRITE_REF unset)");
        return;
    }
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    size_t nraw = 0, nany = 0, nindent = 0;
    tagc_buf b;
    tagc_buf_init(&b);
    while (getline(&line, &cap, f) > 0) {
        char *kind = strtok(line, " \n");
        char *f1 = strtok(NULL, " \n");
        char *f2 = strtok(NULL, " \n");
        char *f3 = strtok(NULL, " \n");
        cr_assert(kind && f1 && f2 && f3);
        char *in = malloc(strlen(f1) / 2 + 2), *want = malloc(strlen(f3) / 2 + 2);
        cr_assert(in && want);
        size_t in_len = unhex(f1, in);
        bool err = strcmp(f3, "ERR") == 0;
        size_t want_len = err ? 0 : unhex(f3, want);
        tagc_buf_reset(&b);
        if (strcmp(kind, "indent") == 0) {
            char *pre = malloc(strlen(f2) / 2 + 2), *ind;
            char *f4 = strtok(NULL, " \n");
            cr_assert(pre && f4);
            unhex(f2, pre);
            ind = malloc(strlen(f3) / 2 + 2);
            cr_assert(ind != NULL);
            unhex(f3, ind);
            free(want);
            want = malloc(strlen(f4) / 2 + 2);
            cr_assert(want != NULL);
            want_len = unhex(f4, want);
            err = false;
            tagc_buf_put(&b, in, in_len);
            tagc_json_indent(&b, 0, pre, ind);
            free(pre);
            free(ind);
            nindent++;
        } else if (strcmp(kind, "raw") == 0) {
            if (in_len == 0) { /* Go fails on an empty non-nil RawMessage; tagc writes null */
                free(in);
                free(want);
                continue;
            }
            tagc_raw r = {in, in_len};
            tagc_json_write_raw_opts(&b, &r, test_go_profile() | (f2[0] == '1' ? TAGC_ESC_HTML : 0));
            nraw++;
        } else {
            ctx *c = ctx_new();
            tagc_any *a = NULL;
            tagc_json_opts o = {0};
            o.no_html_escape = f2[0] != '1';
            if (any_decode(c, in, in_len, &a, 0) != 0)
                tagc_buf_fail(&b, c->err.code);
            else
                tagc_json_write_any_as(&b, a, &o, test_go_profile());
            ctx_free(c);
            nany++;
        }
        if (err)
            cr_expect(b.err != 0, "%s [%s] html=%s: Go fails, tagc wrote [%.*s]", kind, in, f2,
                      (int)b.len, (const char *)b.data);
        else
            cr_expect(b.err == 0 && b.len == want_len && memcmp(b.data, want, want_len) == 0,
                      "%s [%s] %s: got [%.*s] (err %d), Go [%s]", kind, in, f2, (int)b.len,
                      (const char *)b.data, b.err, want);
        free(in);
        free(want);
    }
    cr_expect(nraw > 50 && nany > 50 && nindent > 50, "too few reference lines");
    free(line);
    fclose(f);
    tagc_buf_free(&b);
}
