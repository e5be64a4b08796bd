/*
 * test_enums.c - open enums (the default, as in Go: a named string or integer
 * type with constants still holds any value of its type) and closed ones
 * (//tagc:closed), through the generated JSON and MessagePack codecs and the
 * helpers of their constants. Schemas: order's Status (open string enum),
 * common's Unit (open string enum), kitchen_sink's Perm (open uint8 flags),
 * Color and Priority (closed). tests/go checks the bytes against Go on random
 * unlisted values.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kitchen_sink.tagc.h"
#include "order.tagc.h"

static tagc_arena arena;

static void setup(void) { tagc_arena_init(&arena); }
static void teardown(void) { tagc_arena_free(&arena); }

TestSuite(enums, .init = setup, .fini = teardown);

static bool str_is(tagc_str s, const char *want)
{
    return s.len == strlen(want) && (s.len == 0 || memcmp(s.ptr, want, s.len) == 0);
}

/* The document decoded into an Order, encoded back (Go's bytes: the fields in
 * order, zero values written). */
static char *order_round_trip(const char *doc, order_order *o, const tagc_json_opts *opts)
{
    tagc_error err;
    int rc = order_order_decode_json(o, doc, strlen(doc), &arena, &err, opts);
    cr_assert_eq(rc, 0, "%s: %s at %zu", doc, err.message, err.offset);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(order_order_encode_json(o, &out, NULL), 0);
    char *s = strndup((const char *)out.data, out.len);
    tagc_buf_free(&out);
    return s;
}

Test(enums, open_string_keeps_unlisted_values)
{
    static const struct {
        const char *in, *text, *out;
    } cases[] = {
        {"\"refunded\"", "refunded", "\"refunded\""},
        {"\"Paid\"", "Paid", "\"Paid\""}, /* not the constant "paid": a value of its own */
        {"\"r\\u00e9f<und>\"", "r\xc3\xa9" "f<und>", "\"r\xc3\xa9" "f\\u003cund\\u003e\""},
        {"\"paid\"", "paid", "\"paid\""},
        {"\"\"", "", "\"\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char doc[128];
        snprintf(doc, sizeof doc, "{\"status\":%s}", cases[i].in);
        order_order o;
        char *out = order_round_trip(doc, &o, NULL);
        cr_expect(str_is(o.status, cases[i].text), "%s: status %.*s", doc, (int)o.status.len,
                  o.status.ptr);
        char want[128];
        snprintf(want, sizeof want, "\"status\":%s,", cases[i].out);
        cr_expect(strstr(out, want) != NULL, "%s: %s has no %s", doc, out, want);
        free(out);
    }
    /* strict mode rejects unknown keys, not values an open enum does not list */
    tagc_json_opts strict = {.strict = true};
    order_order o;
    tagc_error err;
    const char *doc = "{\"id\":1,\"status\":\"lost\",\"customer\":{\"id\":1,\"name\":\"\",\"email\":\"\","
                      "\"vip\":false,\"address\":{\"street\":\"\",\"city\":\"\",\"zip\":\"\",\"country\":\"\","
                      "\"geo\":{\"lat\":0,\"lon\":0}}},\"items\":[],\"total\":0,\"currency\":\"\","
                      "\"discount\":null,\"notes\":\"\",\"created_at\":0,\"updated_at\":0,\"risk_score\":0,"
                      "\"attempts\":0}";
    cr_expect_eq(order_order_decode_json(&o, doc, strlen(doc), &arena, &err, &strict), 0, "%s",
                 err.message);
}

Test(enums, open_string_helpers)
{
    order_status s = order_status_of(ORDER_STATUS_PAID);
    cr_expect(str_is(s, "paid"));
    cr_expect(order_status_is_known(s));
    cr_expect_str_eq(order_status_name(s), "StatusPaid");
    order_status_value k = ORDER_STATUS__EMPTY;
    cr_expect(order_status_parse("shipped", 7, &k));
    cr_expect_eq(k, ORDER_STATUS_SHIPPED);
    cr_expect(!order_status_parse("lost", 4, &k));
    order_status lost = {(char *)"lost", 4};
    cr_expect(!order_status_is_known(lost));
    cr_expect_null(order_status_name(lost));
    order_status empty = {0};
    cr_expect(order_status_is_known(empty), "\"\" is Go's zero value");
    cr_expect(str_is(order_status_of(ORDER_STATUS__EMPTY), ""));
    cr_expect(str_is(order_status_of((order_status_value)99), ""), "out of range: the zero value");
    cr_expect_eq(order_status_names_len, 5);

    /* set from a constant, encoded as its text */
    order_order o;
    order_order_init(&o);
    o.status = order_status_of(ORDER_STATUS_DELIVERED);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(order_order_encode_json(&o, &out, NULL), 0);
    char *text = strndup((const char *)out.data, out.len);
    cr_expect(strstr(text, "\"status\":\"delivered\"") != NULL, "%s", text);
    free(text);
    tagc_buf_free(&out);
}

Test(enums, open_int_and_string_msgpack)
{
    sink_sink v, back;
    sink_sink_init(&v);
    v.perm = (sink_perm)(SINK_PERM_READ | SINK_PERM_WRITE); /* no constant: flags combined */
    v.unit = (sink_unit){(char *)"oz", 2};
    v.color = SINK_COLOR_GREEN;
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(sink_sink_encode_msgpack(&v, &out), 0);
    tagc_error err;
    cr_assert_eq(sink_sink_decode_msgpack(&back, out.data, out.len, &arena, &err), 0, "%s", err.message);
    cr_expect_eq(back.perm, 3);
    cr_expect(str_is(back.unit, "oz"));
    cr_expect(sink_sink_equal(&v, &back));
    tagc_buf_free(&out);

    cr_expect(!sink_perm_is_known(3));
    cr_expect(sink_perm_is_known(0), "0 is Go's zero value");
    cr_expect(sink_perm_is_known(SINK_PERM_EXEC));
    cr_expect_str_eq(sink_perm_name(SINK_PERM_WRITE), "PermWrite");
    cr_expect_null(sink_perm_name(3));
}

Test(enums, open_int_json)
{
    sink_sink v;
    tagc_error err;
    const char *doc = "{\"perm\":255,\"unit\":\"st\"}";
    cr_assert_eq(sink_sink_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0, "%s", err.message);
    cr_expect_eq(v.perm, 255);
    cr_expect(str_is(v.unit, "st"));
    /* the range of the underlying type still holds */
    doc = "{\"perm\":256}";
    cr_expect_eq(sink_sink_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), TAGC_E_RANGE);
    cr_expect_str_eq(err.path, "$.perm");
}

Test(enums, closed_rejects_unlisted_values)
{
    sink_sink v;
    tagc_error err;
    const char *doc = "{\"color\":\"mauve\"}";
    cr_expect_eq(sink_sink_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), TAGC_E_ENUM);
    cr_expect_str_eq(err.path, "$.color");
    doc = "{\"priority\":5}";
    cr_expect_eq(sink_sink_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), TAGC_E_ENUM);
    cr_expect_str_eq(err.path, "$.priority");
    cr_expect(sink_color_is_known(SINK_COLOR_BLUE));
    cr_expect(!sink_color_is_known((sink_color)7));
    cr_expect_str_eq(sink_color_name(SINK_COLOR_RED), "ColorRed");
    cr_expect_null(sink_color_name(SINK_COLOR__EMPTY));
    cr_expect(sink_priority_is_known(12));
    cr_expect_str_eq(sink_priority_name(SINK_PRIORITY_URGENT), "PriorityUrgent");
    cr_expect_null(sink_priority_name(5));
}
