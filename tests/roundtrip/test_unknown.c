/*
 * test_unknown.c - a map[string]json.RawMessage tagged `json:",embed"` (Go 1.27's
 * fallback, the default profile) gets the members no other field takes; the
 * encoder writes them after the fields as Go 1.27 writes that map: sorted by
 * key, a repeated key's last value, each value a json.RawMessage (compacted,
 * HTML-escaped). Strict mode keeps them too: the type asks for them. (go_diff
 * checks the same against go1.27.3 on random documents.)
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "unknown.tagc.h"

static tagc_arena arena;

static void setup(void) { tagc_arena_init(&arena); }
static void teardown(void) { tagc_arena_free(&arena); }

TestSuite(unknown, .init = setup, .fini = teardown);

static char *pod_json(const unk_pod *v)
{
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(unk_pod_encode_json(v, &out, NULL), 0);
    char *s = strndup((const char *)out.data, out.len);
    tagc_buf_free(&out);
    return s;
}

Test(unknown, members_kept_byte_for_byte)
{
    const char *doc = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\": { \"x\" : [1, 2.50, \"<&>\"] },"
                      "\"Name\":\"p\",\"status\":null,\"apiVersion\":\"v2\",\"n\":-0.0e+00}";
    tagc_json_opts modes[2] = {{0}, {.strict = true}};
    for (int m = 0; m < 2; m++) {
        unk_pod v;
        tagc_error err;
        cr_assert_eq(unk_pod_decode_json(&v, doc, strlen(doc), &arena, &err, &modes[m]), 0, "%s",
                     err.message);
        cr_expect_eq(v.extra.len, 5, "repeated keys kept apart: %zu", v.extra.len);
        char *s = pod_json(&v);
        /* the fields first (Name matched case-insensitively), then the other
         * members by key, apiVersion's last value, each compacted and escaped */
        cr_expect_str_eq(s, "{\"kind\":\"Pod\",\"name\":\"p\",\"apiVersion\":\"v2\",\"n\":-0.0e+00,"
                            "\"spec\":{\"x\":[1,2.50,\"\\u003c\\u0026\\u003e\"]},\"status\":null}");
        /* and again: a fixed point */
        unk_pod w;
        cr_assert_eq(unk_pod_decode_json(&w, s, strlen(s), &arena, &err, &modes[m]), 0, "%s", err.message);
        char *s2 = pod_json(&w);
        cr_expect_str_eq(s2, s);
        /* (not unk_pod_equal: map equality matches a repeated key's first entry) */
        free(s);
        free(s2);
    }
}

Test(unknown, equal_after_round_trip)
{
    const char *doc = "{\"kind\":\"Pod\",\"b\":[true],\"a\":{}}";
    unk_pod v, w;
    tagc_error err;
    cr_assert_eq(unk_pod_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0);
    char *s = pod_json(&v);
    cr_expect_str_eq(s, "{\"kind\":\"Pod\",\"a\":{},\"b\":[true]}");
    cr_assert_eq(unk_pod_decode_json(&w, s, strlen(s), &arena, &err, NULL), 0);
    cr_expect(unk_pod_equal(&v, &w));
    free(s);
}

Test(unknown, none_and_only_unknown)
{
    unk_pod v;
    tagc_error err;
    const char *doc = "{\"kind\":\"x\"}";
    cr_assert_eq(unk_pod_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0);
    char *s = pod_json(&v);
    cr_expect_str_eq(s, "{\"kind\":\"x\"}");
    free(s);

    unk_bag b;
    doc = "{\"a\":1,\"b\\u00e9\":{}}";
    cr_assert_eq(unk_bag_decode_json(&b, doc, strlen(doc), &arena, &err, NULL), 0);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(unk_bag_encode_json(&b, &out, NULL), 0);
    cr_expect(out.len == strlen("{\"a\":1,\"b\xc3\xa9\":{}}") &&
              memcmp(out.data, "{\"a\":1,\"b\xc3\xa9\":{}}", out.len) == 0,
              "%.*s", (int)out.len, out.data);
    tagc_buf_reset(&out);
    unk_bag_init(&b);
    cr_assert_eq(unk_bag_encode_json(&b, &out, NULL), 0);
    cr_expect(out.len == 2 && memcmp(out.data, "{}", 2) == 0);
    tagc_buf_free(&out);
}

Test(unknown, bad_values_still_rejected)
{
    unk_pod v;
    tagc_error err;
    const char *doc = "{\"kind\":\"x\",\"spec\":[1,]}";
    cr_expect_eq(unk_pod_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), TAGC_E_SYNTAX);
    cr_expect_str_eq(err.path, "$.spec"); /* as for a json.RawMessage field */
}
