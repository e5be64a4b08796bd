/*
 * test_profiles.c - code of three wire profiles in one program (p119, p126,
 * p127: the same record generated with tagc --go 1.19, 1.26 and 1.27). Each
 * writes and reads as its Go release does: the rows of docs/profiles.md.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "p119.tagc.h"
#include "p126.tagc.h"
#include "p127.tagc.h"

/* The record every profile writes: a string with U+0008, U+000C and a byte of
 * invalid UTF-8, a time, and RawMessage text holding U+2028. */
#define REC_STRING "a\b\f\xff"
#define REC_RAW "\"\xe2\x80\xa8\""

#define ENCODE(prefix, t, opts, out)                                                              \
    do {                                                                                           \
        prefix##_rec v;                                                                           \
        prefix##_rec_init(&v);                                                                    \
        v.s = (tagc_str){REC_STRING, sizeof REC_STRING - 1};                                      \
        v.t = (t);                                                                                 \
        v.raw = (tagc_raw){REC_RAW, sizeof REC_RAW - 1};                                          \
        rc = prefix##_rec_encode_json(&v, (out), (opts));                                         \
    } while (0)

static void expect(tagc_buf *b, const char *want)
{
    cr_assert_eq(b->len, strlen(want), "got [%.*s], want [%s]", (int)b->len, (const char *)b->data, want);
    cr_assert(memcmp(b->data, want, b->len) == 0, "got [%.*s], want [%s]", (int)b->len, (const char *)b->data,
              want);
}

Test(profiles, strings_and_raw_text)
{
    tagc_json_opts no_html = {.no_html_escape = true};
    tagc_time t = tagc_time_from_unix(0, 0, 0);
    tagc_buf b;
    int rc;
    tagc_buf_init(&b);

    ENCODE(p119, t, &no_html, &b);
    cr_assert_eq(rc, 0);
    expect(&b, "{\"s\":\"a\\u0008\\u000c\\ufffd\",\"t\":\"1970-01-01T00:00:00Z\",\"raw\":\"\xe2\x80\xa8\"}");

    tagc_buf_reset(&b);
    ENCODE(p126, t, &no_html, &b);
    cr_assert_eq(rc, 0);
    expect(&b, "{\"s\":\"a\\b\\f\\ufffd\",\"t\":\"1970-01-01T00:00:00Z\",\"raw\":\"\xe2\x80\xa8\"}");

    tagc_buf_reset(&b);
    ENCODE(p127, t, &no_html, &b);
    cr_assert_eq(rc, 0);
    expect(&b, "{\"s\":\"a\\b\\f\xef\xbf\xbd\",\"t\":\"1970-01-01T00:00:00Z\",\"raw\":\"\\u2028\"}");
    tagc_buf_free(&b);
}

Test(profiles, zone_offset_of_24_hours)
{
    tagc_time t = tagc_time_from_unix(0, 0, 24 * 60);
    tagc_buf b;
    int rc;
    tagc_buf_init(&b);
    ENCODE(p119, t, NULL, &b);
    cr_assert_eq(rc, 0);
    expect(&b, "{\"s\":\"a\\u0008\\u000c\\ufffd\",\"t\":\"1970-01-02T00:00:00+24:00\",\"raw\":\"\\u2028\"}");
    tagc_buf_reset(&b);
    ENCODE(p126, t, NULL, &b);
    cr_assert_eq(rc, TAGC_E_INVALID, "Go 1.20 on: Marshal fails (rc %d)", rc);
    tagc_buf_reset(&b);
    ENCODE(p127, t, NULL, &b);
    cr_assert_eq(rc, TAGC_E_INVALID, "Go 1.20 on: Marshal fails (rc %d)", rc);
    tagc_buf_free(&b);
}

#define DECODE(prefix, text)                                                                       \
    do {                                                                                           \
        prefix##_rec v;                                                                           \
        rc = prefix##_rec_decode_json(&v, (text), strlen(text), &arena, &err, NULL);             \
    } while (0)

Test(profiles, time_text_go_1_20_rejects)
{
    static const char *const lenient[] = {
        "{\"t\":\"2006-01-02T15:04:05+99:99\"}", /* zone hour over 24 */
        "{\"t\":\"2006-01-02T15:04:05+-1:00\"}", /* a sign inside the offset */
        "{\"t\":\"2006-01-02T15:04:.5Z\"}",      /* a fraction for the seconds */
    };
    tagc_arena arena;
    tagc_error err;
    int rc;
    tagc_arena_init(&arena);
    for (size_t i = 0; i < sizeof lenient / sizeof lenient[0]; i++) {
        DECODE(p119, lenient[i]);
        cr_assert_eq(rc, 0, "Go 1.19 reads %s (rc %d)", lenient[i], rc);
        DECODE(p126, lenient[i]);
        cr_assert_eq(rc, TAGC_E_TYPE, "Go 1.20 on rejects %s (rc %d)", lenient[i], rc);
        cr_assert_str_eq(err.path, "$.t");
        DECODE(p127, lenient[i]);
        cr_assert_eq(rc, TAGC_E_TYPE, "Go 1.20 on rejects %s (rc %d)", lenient[i], rc);
    }
    DECODE(p126, "{\"t\":\"2006-01-02T15:04:05+24:00\"}"); /* hr > 24 is the error: 24 reads */
    cr_assert_eq(rc, 0);
    tagc_arena_free(&arena);
}
