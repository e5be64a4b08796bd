/*
 * test_number.c - json.Number (number.tagc): text kept verbatim, through JSON
 * and MessagePack, and the cases Go 1.19 decides (checked with a Go program;
 * tests/go compares random ones): a string holding a valid number decodes,
 * another is an error at the string; "" encodes as 0; an invalid text does not
 * encode (Go: "invalid number literal").
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "number.tagc.h"

static tagc_arena arena;

static void setup(void) { tagc_arena_init(&arena); }
static void teardown(void) { tagc_arena_free(&arena); }

TestSuite(number, .init = setup, .fini = teardown);

static char *encode(const num_n *v, int *rc)
{
    tagc_buf out;
    tagc_buf_init(&out);
    *rc = num_n_encode_json(v, &out, NULL);
    char *s = strndup((const char *)out.data, out.len);
    tagc_buf_free(&out);
    return s;
}

Test(number, verbatim_round_trip)
{
    const char *doc = "{\"n\":123456789012345678901234567890.5e-3,\"q\":\"-0\",\"p\":1e999,"
                      "\"s\":[-0,\"7\",0.10]}";
    num_n v;
    tagc_error err;
    cr_assert_eq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0, "%s", err.message);
    int rc;
    char *s = encode(&v, &rc);
    cr_assert_eq(rc, 0);
    /* a string holding a number encodes as the number, as in Go */
    cr_expect_str_eq(s, "{\"n\":123456789012345678901234567890.5e-3,\"q\":\"-0\",\"p\":1e999,"
                        "\"s\":[-0,7,0.10]}");
    free(s);

    tagc_buf mp;
    tagc_buf_init(&mp);
    cr_assert_eq(num_n_encode_msgpack(&v, &mp), 0);
    num_n back;
    cr_assert_eq(num_n_decode_msgpack(&back, mp.data, mp.len, &arena, &err), 0, "%s", err.message);
    cr_expect(num_n_equal(&v, &back));
    tagc_buf_free(&mp);
}

Test(number, rejected_with_position_and_path)
{
    static const struct {
        const char *doc, *path;
        size_t offset;
    } cases[] = {
        {"{\"n\":\"1x\"}", "$.n", 5},       /* Go: invalid number literal */
        {"{\"n\":\"\"}", "$.n", 5},
        {"{\"n\":\" 1\"}", "$.n", 5},
        {"{\"n\":true}", "$.n", 5},          /* Go: cannot unmarshal bool */
        {"{\"s\":[1,\"0x10\"]}", "$.s[1]", 8},
        {"{\"q\":12}", "$.q", 5},            /* Go: invalid use of ,string */
        {"{\"q\":\" 12\"}", "$.q", 5},
        {"{\"q\":\"\"}", "$.q", 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        num_n v;
        tagc_error err;
        int rc = num_n_decode_json(&v, cases[i].doc, strlen(cases[i].doc), &arena, &err, NULL);
        cr_expect_eq(rc, TAGC_E_TYPE, "%s: %d", cases[i].doc, rc);
        cr_expect_str_eq(err.path, cases[i].path, "%s", cases[i].doc);
        cr_expect_eq(err.offset, cases[i].offset, "%s: offset %zu", cases[i].doc, err.offset);
    }
}

Test(number, string_option_as_go_1_27)
{
    num_n v;
    tagc_error err;
    /* Go 1.27 (the default profile): a valid JSON number inside the quotes */
    const char *doc = "{\"q\":\"12\",\"p\":null}";
    cr_assert_eq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0, "%s", err.message);
    cr_expect(v.q.len == 2 && memcmp(v.q.ptr, "12", 2) == 0);
    /* and nothing else (go1.27.3 says "invalid syntax" to each): a quoted string inside,
     * "null" and text that is no number, which Go 1.19 - 1.26 keep */
    doc = "{\"q\":\"\\\"12\\\"\"}";
    cr_expect_neq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0);
    doc = "{\"q\":\"null\"}";
    cr_expect_neq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0);
    cr_expect_str_eq(err.path, "$.q");
    doc = "{\"q\":\"1x\"}";
    cr_expect_neq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0);
}

Test(number, empty_is_zero)
{
    num_n v;
    num_n_init(&v);
    int rc;
    char *s = encode(&v, &rc);
    cr_assert_eq(rc, 0);
    cr_expect_str_eq(s, "{\"n\":0,\"q\":\"0\",\"p\":null,\"s\":null}");
    free(s);
}

/* tagc_json_opts.use_number: interface{} numbers keep their text, as with Go's
 * Decoder.UseNumber (Go 1.19 re-encodes {"a":12345678901234567890,"b":1.5}
 * from such a decode byte for byte). Without it they are float64, as in Go. */
Test(number, use_number_for_interfaces)
{
    const char *doc = "{\"a\":{\"x\":12345678901234567890,\"y\":[1.50,-0,1e400]}}";
    tagc_json_opts opts = {.use_number = true};
    num_n v;
    tagc_error err;
    cr_assert_eq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, &opts), 0, "%s", err.message);
    cr_assert_not_null(v.a);
    int rc;
    char *s = encode(&v, &rc);
    cr_assert_eq(rc, 0);
    cr_expect(strstr(s, "\"a\":{\"x\":12345678901234567890,\"y\":[1.50,-0,1e400]}") != NULL, "%s", s);
    free(s);
    num_n back;
    cr_assert_eq(num_n_decode_json(&back, doc, strlen(doc), &arena, &err, &opts), 0);
    cr_expect(num_n_equal(&v, &back));
    /* MessagePack: each number a str of its text */
    tagc_buf mp;
    tagc_buf_init(&mp);
    cr_assert_eq(num_n_encode_msgpack(&v, &mp), 0);
    cr_expect(mp.len > 0);
    tagc_buf_free(&mp);

    /* the default: float64, so 1e400 is out of range and 2^64+ loses digits */
    doc = "{\"a\":12345678901234567890}";
    cr_assert_eq(num_n_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0);
    s = encode(&v, &rc);
    cr_expect(strstr(s, "\"a\":12345678901234567000") != NULL, "%s", s);
    free(s);
}
