/*
 * test_codec.c - //tagc:codec: a named type read and written by C functions of
 * the user's, in every place the type can be used (a field, a pointer, a slice,
 * a slice of pointers, a map value, an array), through the generated JSON and
 * MessagePack codecs. Timestamp's codec is the example's (examples/timestamp/
 * gh_timestamp.c: go-github's, RFC 3339 strings or unix seconds); Money's is
 * below: a C struct of the test's own (money.h), JSON only.
 */
#define _POSIX_C_SOURCE 200809L /* strndup */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.tagc.h"
#include "ghm.go.h"
#include "mapped.tagc.h"

static tagc_arena arena;

static void setup(void) { tagc_arena_init(&arena); }
static void teardown(void) { tagc_arena_free(&arena); }

TestSuite(codec, .init = setup, .fini = teardown);

/* MARK: - Money: "12.34 EUR" <-> {1234, "EUR"} */

int money_json_read(tagc_json_dec *d, cdc_money *v)
{
    tagc_str s;
    int rc = tagc_json_read_str(d, &s);
    if (rc != 0)
        return rc;
    long long units;
    unsigned cents;
    char cur[4];
    char text[64];
    if (s.len >= sizeof text)
        return TAGC_E_RANGE; /* says nothing: the generated reader reports it */
    memcpy(text, s.ptr, s.len);
    text[s.len] = '\0';
    if (strcmp(text, "silent") == 0)
        return TAGC_E_SYNTAX; /* fails without an error of its own */
    if (sscanf(text, "%lld.%2u %3s", &units, &cents, cur) != 3)
        return tagc_json_fail(d, TAGC_E_SYNTAX, "Money: want \"12.34 EUR\"");
    v->cents = units * 100 + cents;
    memcpy(v->currency, cur, 4);
    return 0;
}

void money_json_write(tagc_buf *out, const cdc_money *v, const tagc_json_opts *o)
{
    char text[64];
    int n = snprintf(text, sizeof text, "%lld.%02lld %s", (long long)(v->cents / 100),
                     (long long)(v->cents % 100), v->currency);
    tagc_json_write_str(out, text, (size_t)n, !o->no_html_escape);
}

bool money_equal(const cdc_money *a, const cdc_money *b)
{
    return a->cents == b->cents && strncmp(a->currency, b->currency, 4) == 0;
}

/* MARK: - Helpers */

static char *event_json(const cdc_event *v)
{
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(cdc_event_encode_json(v, &out, NULL), 0);
    char *s = strndup((const char *)out.data, out.len);
    tagc_buf_free(&out);
    return s;
}

static void decode_event(cdc_event *v, const char *doc)
{
    tagc_error err;
    int rc = cdc_event_decode_json(v, doc, strlen(doc), &arena, &err, NULL);
    cr_assert_eq(rc, 0, "%s at %s (offset %zu)", err.message, err.path, err.offset);
}

/* MARK: - JSON */

Test(codec, both_payload_forms_everywhere)
{
    /* the integer form (unix seconds, then milliseconds past the year 3000) and
     * the string form, in each place a Timestamp can be */
    const char *doc = "{\"at\":1700000000,\"opt\":\"2023-11-14T22:13:20+01:00\","
                      "\"list\":[0,\"2001-02-03T04:05:06.5Z\",1700000000123],"
                      "\"ptrs\":[null,86400],\"by_name\":{\"b\":60,\"a\":\"1999-12-31T23:59:59Z\"},"
                      "\"pair\":[1,\"1970-01-01T00:00:02Z\"]}";
    cdc_event v;
    decode_event(&v, doc);
    cr_assert_eq(tagc_time_unix(&v.at), 1700000000);
    cr_assert(v.has_opt);
    cr_assert_eq(v.opt.offset_min, 60);
    cr_assert_eq(v.list.len, 3);
    cr_assert_eq(tagc_time_unix(&v.list.ptr[0]), 0);
    cr_assert_eq(v.list.ptr[1].nsec, 500000000);
    cr_assert_eq(tagc_time_unix(&v.list.ptr[2]), 1700000000);
    cr_assert_eq(v.list.ptr[2].nsec, 123000000);
    cr_assert_eq(v.ptrs.len, 2);
    cr_assert(!v.ptrs.ptr[0].has);
    cr_assert(v.ptrs.ptr[1].has);
    cr_assert_eq(tagc_time_unix(&v.ptrs.ptr[1].val), 86400);
    cr_assert_eq(v.by_name.len, 2);
    cr_assert_eq(tagc_time_unix(&v.by_name.vals[0]), 60);
    cr_assert_eq(tagc_time_unix(&v.pair[1]), 2);
    char *s = event_json(&v);
    /* written as RFC 3339 (time.Time's MarshalJSON), map keys sorted as Go does;
     * zero (omitzero, gh_timestamp_is_zero true) and zero_p (nil) left out;
     * empty (omitempty) kept: Go's omitempty never omits a struct */
    cr_assert_str_eq(s, "{\"at\":\"2023-11-14T22:13:20Z\",\"opt\":\"2023-11-14T22:13:20+01:00\","
                        "\"list\":[\"1970-01-01T00:00:00Z\",\"2001-02-03T04:05:06.5Z\","
                        "\"2023-11-14T22:13:20.123Z\"],\"ptrs\":[null,\"1970-01-02T00:00:00Z\"],"
                        "\"by_name\":{\"a\":\"1999-12-31T23:59:59Z\",\"b\":\"1970-01-01T00:01:00Z\"},"
                        "\"pair\":[\"1970-01-01T00:00:01Z\",\"1970-01-01T00:00:02Z\"],"
                        "\"empty\":\"0001-01-01T00:00:00Z\"}");
    /* and what it wrote reads back to an equal value */
    cdc_event w;
    decode_event(&w, s);
    cr_assert(cdc_event_equal(&v, &w));
    free(s);
}

Test(codec, omitzero_asks_the_codec)
{
    cdc_event v;
    cdc_event_init(&v);
    v.zero = tagc_time_from_unix(5, 0, 0);
    v.has_zero_p = true; /* a non-nil pointer to a zero Timestamp: IsZero is true, left out */
    char *s = event_json(&v);
    cr_assert(strstr(s, "\"zero\":\"1970-01-01T00:00:05Z\"") != NULL, "%s", s);
    cr_assert(strstr(s, "zero_p") == NULL, "%s", s);
    free(s);
}

Test(codec, failing_codec_has_position_and_path)
{
    const char *doc = "{\"at\":1,\"list\":[1,\n true]}";
    cdc_event v;
    tagc_error err;
    cr_assert_eq(cdc_event_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), TAGC_E_TYPE);
    cr_assert_str_eq(err.path, "$.list[1]");
    cr_assert_eq(err.offset, (size_t)(strstr(doc, "true") - doc));
    cr_assert_eq(err.line, 2);
    cr_assert_eq(err.column, 2);
    cr_assert(strstr(err.message, "Timestamp") != NULL, "%s", err.message);

    /* the codec's own error inside: a bad RFC 3339 string in a map value */
    const char *doc2 = "{\"by_name\":{\"k\":\"2023-13-01T00:00:00Z\"}}";
    int rc2 = cdc_event_decode_json(&v, doc2, strlen(doc2), &arena, &err, NULL);
    cr_assert_eq(rc2, TAGC_E_TYPE, "%d %s", rc2, err.message); /* tagc_json_read_time's code */
    cr_assert_str_eq(err.path, "$.by_name.k");
    cr_assert_eq(err.offset, (size_t)(strstr(doc2, "\"2023") - doc2));

    /* null for a Timestamp that is not a pointer reaches the codec, as Go's
     * UnmarshalJSON("null"), which go-github's rejects */
    const char *doc3 = "{\"pair\":[null,1]}";
    cr_assert_eq(cdc_event_decode_json(&v, doc3, strlen(doc3), &arena, &err, NULL), TAGC_E_TYPE);
    cr_assert_str_eq(err.path, "$.pair[0]");
}

Test(codec, silent_failure_gets_an_error_at_the_value)
{
    const char *doc = "{\"price\":\"1.00 EUR\",\"prices\":[\"2.50 USD\", \"silent\"]}";
    cdc_order v;
    tagc_error err;
    cr_assert_eq(cdc_order_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), TAGC_E_SYNTAX);
    cr_assert_str_eq(err.path, "$.prices[1]");
    cr_assert_eq(err.offset, (size_t)(strstr(doc, "\"silent") - doc));
    cr_assert_str_eq(err.message, "Money: money_json_read failed");
}

Test(codec, user_struct_type_and_equal)
{
    const char *doc = "{\"price\":\"12.34 EUR\",\"prices\":[\"0.05 USD\"]}";
    cdc_order a, b;
    tagc_error err;
    cr_assert_eq(cdc_order_decode_json(&a, doc, strlen(doc), &arena, &err, NULL), 0, "%s", err.message);
    cr_assert_eq(a.price.cents, 1234);
    cr_assert_str_eq(a.price.currency, "EUR");
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(cdc_order_encode_json(&a, &out, NULL), 0);
    /* tip: omitempty on a string-kind Go type with its all-zero C value: left out */
    cr_assert_eq(out.len, strlen(doc));
    cr_assert(memcmp(out.data, doc, out.len) == 0, "%.*s", (int)out.len, (const char *)out.data);
    tagc_buf_free(&out);
    cr_assert_eq(cdc_order_decode_json(&b, doc, strlen(doc), &arena, &err, NULL), 0);
    b.price.currency[3] = '\0';
    cr_assert(cdc_order_equal(&a, &b));
    b.prices.ptr[0].cents = 6;
    cr_assert(!cdc_order_equal(&a, &b)); /* money_equal, through the slice's equality */
}

/* MARK: - MessagePack */

Test(codec, msgpack_round_trip_and_both_forms)
{
    const char *doc = "{\"at\":1700000000,\"list\":[\"2001-02-03T04:05:06.5Z\"],\"pair\":[1,2]}";
    cdc_event v, w;
    decode_event(&v, doc);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(cdc_event_encode_msgpack(&v, &out), 0);
    tagc_error err;
    cr_assert_eq(cdc_event_decode_msgpack(&w, out.data, out.len, &arena, &err), 0, "%s", err.message);
    cr_assert(cdc_event_equal(&v, &w));
    tagc_buf_free(&out);

    /* {"at": 60} and {"at": "1970-01-01T00:01:00Z"} read the same */
    static const uint8_t as_int[] = {0x81, 0xa2, 'a', 't', 0x3c};
    static const uint8_t as_str[] = {0x81, 0xa2, 'a', 't', 0xb4, '1', '9', '7', '0', '-', '0', '1',
                                     '-', '0', '1', 'T', '0', '0', ':', '0', '1', ':', '0', '0', 'Z'};
    cr_assert_eq(cdc_event_decode_msgpack(&v, as_int, sizeof as_int, &arena, &err), 0, "%s", err.message);
    cr_assert_eq(cdc_event_decode_msgpack(&w, as_str, sizeof as_str, &arena, &err), 0, "%s", err.message);
    cr_assert_eq(tagc_time_unix(&v.at), 60);
    cr_assert(cdc_timestamp_equal(&v.at, &w.at));

    /* a failing codec: the path and the offset of the value */
    static const uint8_t bad[] = {0x81, 0xa4, 'l', 'i', 's', 't', 0x92, 0x01, 0xc3};
    cr_assert_neq(cdc_event_decode_msgpack(&v, bad, sizeof bad, &arena, &err), 0);
    cr_assert_str_eq(err.path, "$.list[1]");
    cr_assert_eq(err.offset, 8);
}

Test(codec, no_msgpack_codec_is_an_error_not_a_crash)
{
    cdc_order v;
    cdc_order_init(&v);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(cdc_order_encode_msgpack(&v, &out), TAGC_E_INVALID);
    tagc_buf_free(&out);
    static const uint8_t doc[] = {0x81, 0xa5, 'p', 'r', 'i', 'c', 'e', 0xa0};
    tagc_error err;
    cr_assert_eq(cdc_order_decode_msgpack(&v, doc, sizeof doc, &arena, &err), TAGC_E_TYPE);
    cr_assert_str_eq(err.path, "$.price");
}

/* MARK: - A Go type with its own UnmarshalJSON */

Test(codec, type_with_go_methods_takes_the_codec)
{
    /* without the //tagc:codec line, methods.go is an error (Go calls the method) */
    const char *doc = "{\"pushed_at\":1700000000}";
    ghm_repo v;
    tagc_error err;
    cr_assert_eq(ghm_repo_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0, "%s", err.message);
    cr_assert(v.has_pushed_at);
    cr_assert_eq(tagc_time_unix(&v.pushed_at), 1700000000);
}

/* MARK: - A type of a package tagc does not read, given its codec by --map */

Test(codec, mapped_type_takes_the_codec)
{
    const char *doc = "{\"created_at\":\"2014-02-25T16:59:07Z\",\"pushed_at\":1502894151,"
                      "\"history\":[60,\"1970-01-01T00:02:00Z\"]}";
    mapped_repo v;
    tagc_error err;
    cr_assert_eq(mapped_repo_decode_json(&v, doc, strlen(doc), &arena, &err, NULL), 0, "%s", err.message);
    cr_assert_eq(tagc_time_unix(&v.pushed_at), 1502894151);
    cr_assert_eq(v.history.len, 2);
    cr_assert_eq(tagc_time_unix(&v.history.ptr[1]), 120);
    tagc_buf out;
    tagc_buf_init(&out);
    cr_assert_eq(mapped_repo_encode_json(&v, &out, NULL), 0);
    const char *want = "{\"created_at\":\"2014-02-25T16:59:07Z\",\"pushed_at\":\"2017-08-16T14:35:51Z\","
                       "\"history\":[\"1970-01-01T00:01:00Z\",\"1970-01-01T00:02:00Z\"]}";
    cr_assert_eq(out.len, strlen(want));
    cr_assert(memcmp(out.data, want, out.len) == 0, "%.*s", (int)out.len, (const char *)out.data);
    tagc_buf_free(&out);
    const char *bad = "{\"history\":[1,{}]}";
    cr_assert_eq(mapped_repo_decode_json(&v, bad, strlen(bad), &arena, &err, NULL), TAGC_E_TYPE);
    cr_assert_str_eq(err.path, "$.history[1]");
}
