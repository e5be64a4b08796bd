/*
 * test_ws.c - whitespace in the JSON reader (json_read.c, tagc.h): the skip
 * that every token boundary uses, and the places where MarshalIndent puts it.
 *
 *   skip:    tagc_json_skip_ws against a byte-at-a-time reference, on random
 *            runs of the four JSON whitespace bytes and of bytes that are not
 *            (a control byte, a letter, a byte >= 0x80), each run in a buffer
 *            of exactly its size (ASan sees any read past the end), from every
 *            offset: the newline+indent path, the SSE2 path and the tail.
 *   members: an object read the way generated code reads it (obj_next_key
 *            with the expected key, the null test, the value) from compact
 *            text and from MarshalIndent copies with two spaces, a tab and
 *            deep indents (more than 8 and 16 bytes), CRLF, and whitespace
 *            before ':' and ','; the same values every time.
 *            The expected key compared in place for every length, every byte
 *            of it changed, the input cut after every byte.
 *   errors:  a control byte inside an indent is still a syntax error.
 *   literals: the in-line null, true and false against the out-of-line reads.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

static const char *ref_skip(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static unsigned next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 32);
}

Test(skip, matches_reference)
{
    static const char ws[] = {' ', '\t', '\n', '\r'};
    static const char other[] = {'x', '"', 0x01, 0x1f, (char)0x80, (char)0xff, 0};
    for (int iter = 0; iter < 40000; iter++) {
        size_t n = next_rand() % 48;
        char *buf = malloc(n ? n : 1);
        cr_assert(buf != NULL);
        /* mostly an indent run (newline then one fill byte), sometimes random */
        char fill = next_rand() % 2 ? ' ' : '\t';
        bool indent = next_rand() % 4 != 0;
        for (size_t i = 0; i < n; i++) {
            unsigned r = next_rand() % 32;
            if (indent)
                buf[i] = i == 0 ? '\n' : r == 0 ? other[next_rand() % sizeof other]
                                       : r == 1 ? ws[next_rand() % 4] : fill;
            else
                buf[i] = r < 24 ? ws[r % 4] : other[r % sizeof other];
        }
        for (size_t off = 0; off <= n; off++) {
            const char *got = tagc_json_skip_ws(buf + off, buf + n);
            const char *want = ref_skip(buf + off, buf + n);
            cr_assert_eq(got, want, "length %zu, offset %zu: skipped to %td, expected %td", n, off,
                         got - buf, want - buf);
        }
        free(buf);
    }
}

/* {"a":..,"b":..,"c":..} read as generated code does; a and c integers, b a
 * string or null. Returns rc; the values through the pointers. */
static int read_abc(const char *text, int64_t *a, tagc_str *b, int64_t *c, bool *b_null)
{
    /* as the generator writes them: the compact text, then the space indented input has */
    static const tagc_json_key keys[] = {{"\"a\": " TAGC_JSON_KEY_PAD, 4},
                                         {"\"b\": " TAGC_JSON_KEY_PAD, 4},
                                         {"\"c\": " TAGC_JSON_KEY_PAD, 4},
                                         {NULL, 0}};
    static tagc_arena arena;
    tagc_error err;
    tagc_json_dec d;
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1); /* exactly its size: ASan sees reads past the end */
    memcpy(copy, text, len);
    tagc_arena_reset(&arena);
    tagc_json_dec_init(&d, copy, len, &arena, &err, NULL);
    int next = 0, rc;
    tagc_json_ws(&d);
    if ((rc = tagc_json_obj_begin_inline(&d)) != 0)
        goto out;
    d.first = true;
    while ((rc = tagc_json_obj_next_key(&d, &keys[next])) > 0) {
        int field = rc == 2 ? next : d.key_len == 1 ? d.key[0] - 'a' : -1;
        cr_assert(field >= 0 && field < 3, "unexpected key in %s", text);
        next = field + 1;
        if (field == 1) {
            *b_null = tagc_json_null(&d);
            if (!*b_null && (rc = tagc_json_read_str(&d, b)) != 0)
                goto out;
        } else if (!tagc_json_null(&d) &&
                   (rc = tagc_json_read_int(&d, field == 0 ? a : c, INT64_MIN, INT64_MAX)) != 0) {
            goto out;
        }
    }
out:
    rc = tagc_json_dec_finish(&d, rc);
    if (rc == 0 && b->ptr != NULL) { /* the string lives in the arena, the input is freed */
        char *s = tagc_arena_alloc(&arena, b->len + 1);
        memcpy(s, b->ptr, b->len + 1);
        b->ptr = s;
    }
    free(copy);
    return rc;
}

static void expect_abc(const char *text, bool null_b)
{
    int64_t a = 0, c = 0;
    tagc_str b = {0};
    bool b_null = false;
    int rc = read_abc(text, &a, &b, &c, &b_null);
    cr_assert_eq(rc, 0, "%s: rc %d", text, rc);
    cr_expect_eq(a, -12, "%s", text);
    cr_expect_eq(c, 345678, "%s", text);
    cr_expect_eq(b_null, null_b, "%s", text);
    if (!null_b)
        cr_expect(b.len == 5 && memcmp(b.ptr, "x\ty z", 5) == 0, "%s", text);
}

/* tagc_json_obj_next_key on one member of text: rc, and where d.p is after it
 * (not inlined: gcc 12's -Wuse-after-free misreads it inside the caller's loop) */
__attribute__((noinline)) static int next_key_at(const char *text, size_t *at)
{
    static const tagc_json_key key = {"\"abc\": " TAGC_JSON_KEY_PAD, 6};
    static tagc_arena arena;
    tagc_error err;
    tagc_json_dec d;
    size_t len = strlen(text);
    char *copy = malloc(len); /* exactly its size: ASan sees reads past the end */
    memcpy(copy, text, len);
    tagc_json_dec_init(&d, copy, len, &arena, &err, NULL);
    int rc = tagc_json_obj_begin_inline(&d);
    cr_assert_eq(rc, 0, "%s", text);
    d.first = true;
    rc = tagc_json_obj_next_key(&d, &key);
    cr_assert(rc < 1 || (d.key_len == 3 && memcmp(d.key, strstr(text, "ab"), 3) == 0), "%s: key", text);
    *at = (size_t)(d.p - copy);
    free(copy);
    tagc_arena_reset(&arena);
    return rc;
}

/* The key, its colon and MarshalIndent's space compared in place as one text
 * (text[len] is ' '); without the space, or cut short, the general path's. */
Test(members, indented_key_with_space)
{
    static const struct {
        const char *text;
        int rc;    /* 2: compared in place, 1: the general path's */
        size_t at; /* d.p after the key; (size_t)-1: not checked */
    } cases[] = {
        {"{\"abc\":1}", 2, 7},
        {"{\n  \"abc\": 1}", 2, 11},
        {"{\n\t\"abc\": 1}", 2, 10},
        /* no space, another byte: the general path, which stops after the colon */
        {"{\n  \"abc\":1}", 1, 10},
        {"{\n  \"abc\":\n1}", 1, 10},
        {"{\n  \"abc\":\t1}", 1, 10},
        /* two spaces: in place, the value's whitespace skip takes the second */
        {"{\n  \"abc\":  1}", 2, 11},
        /* the input ends after the colon (general path) or the space (in place) */
        {"{\n  \"abc\":", 1, 10},
        {"{\n  \"abc\": ", 2, 11},
        /* another key of the same length */
        {"{\n  \"abd\": 1}", 1, (size_t)-1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t at;
        cr_expect_eq(next_key_at(cases[i].text, &at), cases[i].rc, "%s", cases[i].text);
        if (cases[i].at != (size_t)-1)
            cr_expect_eq(at, cases[i].at, "%s: at %zu", cases[i].text, at);
    }
}

/* obj_next_key with the expected key `"name":` (its text padded as the
 * generator pads it) on text[0..len), in a buffer of exactly len bytes */
static int key_rc(const char *name, const char *text, size_t len, size_t *at)
{
    static tagc_arena arena;
    char key_text[64];
    size_t n = (size_t)snprintf(key_text, sizeof key_text, "\"%s\": ", name) - 1;
    memset(key_text + n + 1, 0, sizeof key_text - n - 1); /* TAGC_JSON_KEY_PAD */
    tagc_json_key key = {key_text, n};
    tagc_error err;
    tagc_json_dec d;
    char *copy = malloc(len);
    memcpy(copy, text, len);
    tagc_json_dec_init(&d, copy, len, &arena, &err, NULL);
    int rc = tagc_json_obj_begin_inline(&d);
    cr_assert_eq(rc, 0, "%.*s", (int)len, text);
    d.first = true;
    /* the member before it, whose indent teaches the unit (predicted from then on) */
    static const tagc_json_key pre = {"\"pre\": " TAGC_JSON_KEY_PAD, 6};
    rc = tagc_json_obj_next_key(&d, &pre);
    cr_assert_eq(rc, 2, "%.*s: pre", (int)len, text);
    cr_assert_eq(tagc_json_skip(&d), 0, "%.*s: pre's value", (int)len, text);
    rc = tagc_json_obj_next_key(&d, &key);
    *at = (size_t)(d.p - copy);
    if (rc == 2)
        cr_expect(d.key_len == strlen(name) && memcmp(d.key, name, d.key_len) == 0 && d.key_at == d.key - 1,
                  "%.*s: the key read", (int)len, text);
    free(copy);
    tagc_arena_reset(&arena);
    return rc;
}

/* The in-place compare (one 16-byte compare up to 16 bytes, words beyond;
 * far from the end and within 48 bytes of it) for names of 1 to 30 bytes,
 * compact and indented: the key taken in place
 * exactly when the input holds its text whole; any byte of it changed, the
 * general path's (which reads the other key); the input cut after any byte,
 * in place only when what is left still holds the text. */
Test(members, expected_key_every_length)
{
    /* a member after it, so that the whole text is also read more than 48 bytes
     * from the end (tagc.h TAGC_IND_READ: no end tests there) */
#define TAIL "\"pad\":\"0123456789012345678901234567890123456789012345678901234567\""
    static const char *const fmt[] = {"{\"pre\":0,\"%s\":1," TAIL "}",
                                      "{\n  \"pre\": 0,\n  \"%s\": 1,\n  " TAIL "\n}",
                                      "{\n\t\"pre\": 0,\n\t\"%s\": 1,\n\t" TAIL "\n}"};
#undef TAIL
    for (size_t len = 1; len <= 30; len++) {
        char name[32];
        for (size_t i = 0; i < len; i++)
            name[i] = (char)('a' + i % 26);
        name[len] = 0;
        for (size_t f = 0; f < 3; f++) {
            char text[160];
            size_t tl = (size_t)snprintf(text, sizeof text, fmt[f], name), at;
            size_t key_at = (size_t)(strstr(text, name) - 1 - text);
            size_t after = key_at + len + 3 + (f > 0); /* past the colon, and the space */
            cr_expect_eq(key_rc(name, text, tl, &at), 2, "%s", text);
            cr_expect_eq(at, after, "%s: at %zu", text, at);
            for (size_t i = key_at; i < after; i++) { /* one byte of the key text changed */
                char m[160];
                memcpy(m, text, tl);
                m[i] = m[i] == 'z' ? 'y' : (char)(m[i] + 1);
                cr_expect_neq(key_rc(name, m, tl, &at), 2, "%s: byte %zu changed", m, i);
            }
            for (size_t cut = key_at; cut < tl; cut++) /* the input ends after byte cut */
                cr_expect_eq(key_rc(name, text, cut, &at) == 2, cut >= after, "%s cut at %zu", text, cut);
        }
    }
}

Test(members, compact_and_indented)
{
    expect_abc("{\"a\":-12,\"b\":\"x\\ty z\",\"c\":345678}", false);
    expect_abc("{\n  \"a\": -12,\n  \"b\": \"x\\ty z\",\n  \"c\": 345678\n}", false);
    expect_abc("{\n\t\"a\": -12,\n\t\"b\": \"x\\ty z\",\n\t\"c\": 345678\n}", false);
    expect_abc("{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n}", true);
    expect_abc("{\n\t\"a\": -12,\n\t\"b\": null,\n\t\"c\": 345678\n}", true);
    /* the predicted indent before a key, then other whitespace (the hit tests
     * no token there: the key's '"' is the test, the general path the rest) */
    static const char *const extra[] = {" ", "\t", "\r", "\n", "\r\n", "\n  ", "  \n\t"};
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
        char text[160];
        snprintf(text, sizeof text, "{\n  \"a\": -12,\n  %s\"b\": null,\n  %s\"c\": 345678\n}", extra[i], extra[i]);
        expect_abc(text, true);
        snprintf(text, sizeof text, "{\n\t\"a\": -12,\n\t%s\"b\": \"x\\ty z\",\n\t%s\"c\": 345678\n}", extra[i],
                 extra[i]);
        expect_abc(text, false);
    }
    /* deep indents: one, two and three 8-byte steps */
    expect_abc("{\n          \"a\": -12,\n                  \"b\": null,\n"
               "                          \"c\": 345678\n                }", true);
    expect_abc("{\n\t\t\t\t\t\t\t\t\t\"a\": -12,\n\t\t\t\t\t\t\t\t\t\"b\": \"x\\ty z\",\n"
               "\t\t\t\t\t\t\t\t\t\"c\": 345678\n\t\t\t\t\t\t\t\t}", false);
    /* CRLF, mixed runs, whitespace around ':' and ',', several spaces after ':' */
    expect_abc("{\r\n  \"a\": -12,\r\n  \"b\":   null ,\r\n \t \"c\" :\n345678\r\n}", true);
    expect_abc(" \n { \"a\" : -12 , \"b\" :\t\"x\\ty z\" , \"c\" : 345678 } \n ", false);
    /* indented members with no space, two spaces or a tab after ':' */
    expect_abc("{\n  \"a\":-12,\n  \"b\":  \"x\\ty z\",\n  \"c\":\t345678\n}", false);
    expect_abc("{\n  \"a\": -12,\n  \"b\":  null,\n  \"c\": \n 345678}", true);
    /* the end of the input right after an indent */
    expect_abc("{\"a\":-12,\"b\":null,\"c\":345678}\n                 ", true);
}

/* Each of bad[0..n) read by read_abc is TAGC_E_SYNTAX. */
static void expect_abc_syntax_errors(const char *const *bad, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t a = 0, c = 0;
        tagc_str b = {0};
        bool b_null = false;
        int rc = read_abc(bad[i], &a, &b, &c, &b_null);
        cr_expect_eq(rc, TAGC_E_SYNTAX, "case %zu: rc %d", i, rc);
    }
}

Test(members, control_byte_in_indent_is_an_error)
{
    static const char *const bad[] = {
        "{\n  \x01\"a\": -12}",
        "{\n  \"a\": -12,\n          \x1f\"b\": null}",
        "{\n  \"a\":\x01-12}",
        "{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n \x0b}",
        "{\n\t\t\t\t\t\t\t\t\t\t\x7f\"a\": 1}",
        /* a control byte where an indent could start, last in the input (the fuzzer's
         * \0{\0: the indent learner read the byte after it) */
        "{\x01",
        "{\"a\": -12,\x01",
    };
    expect_abc_syntax_errors(bad, sizeof bad / sizeof bad[0]);
}

/* [[..], ..] of integers read as generated code reads an array of arrays
 * (null test, then the element); the values summed, the count in *n. */
static int read_ints(const char *text, int64_t *sum, size_t *n, size_t *err_off)
{
    static tagc_arena arena;
    tagc_error err;
    tagc_json_dec d;
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1); /* exactly its size: ASan sees reads past the end */
    memcpy(copy, text, len);
    tagc_arena_reset(&arena);
    tagc_json_dec_init(&d, copy, len, &arena, &err, NULL);
    int rc = 0;
    *sum = 0;
    *n = 0;
    if (tagc_json_null(&d))
        goto out;
    if ((rc = tagc_json_arr_begin_inline(&d)) != 0)
        goto out;
    d.first = true; /* as generated code: the state of the array opened last */
    while ((rc = tagc_json_arr_next_inline(&d)) > 0) {
        if (tagc_json_null(&d))
            continue;
        if ((rc = tagc_json_arr_begin_inline(&d)) != 0)
            goto out;
        d.first = true;
        while ((rc = tagc_json_arr_next_inline(&d)) > 0) {
            int64_t v = 0;
            if (!tagc_json_null(&d) && (rc = tagc_json_read_int(&d, &v, INT64_MIN, INT64_MAX)) != 0)
                goto out;
            *sum += v;
            ++*n;
        }
        if (rc < 0)
            goto out;
    }
out:
    rc = tagc_json_dec_finish(&d, rc);
    *err_off = rc != 0 ? err.offset : 0;
    free(copy);
    return rc;
}

static void expect_ints(const char *text, int64_t sum, size_t n)
{
    int64_t got = 0;
    size_t got_n = 0, off = 0;
    int rc = read_ints(text, &got, &got_n, &off);
    cr_assert_eq(rc, 0, "%s: rc %d at %zu", text, rc, off);
    cr_expect_eq(got, sum, "%s: sum %lld", text, (long long)got);
    cr_expect_eq(got_n, n, "%s: %zu elements", text, got_n);
}

Test(elements, compact_and_indented)
{
    expect_ints("[[1,2],[3,null,4],[],null,[5]]", 15, 6);
    expect_ints("[\n  [\n    1,\n    2\n  ],\n  [\n    3,\n    null,\n    4\n  ],\n  [],\n  null,\n"
                "  [\n    5\n  ]\n]", 15, 6);
    expect_ints("[\n\t[\n\t\t1,\n\t\t2\n\t],\n\t[\n\t\t3,\n\t\tnull,\n\t\t4\n\t],\n\t[],\n\tnull,\n"
                "\t[\n\t\t5\n\t]\n]", 15, 6);
    /* indents of one, two, three and four 8-byte steps (the last is the skip's) */
    expect_ints("[\n      [\n              1,\n                      2\n"
                "                              ]\n]", 3, 2);
    expect_ints("[\n                              [\n                              7\n"
                "                              ,8]\n                                ]", 15, 2);
    /* CRLF, spaces before ',' and ']', whitespace at the very end */
    expect_ints("[\r\n  [ 1 , 2 ] ,\r\n  [\t3\t]\r\n]\n", 6, 3);
    expect_ints("[[1,2]]\n                                       ", 3, 2);
}

Test(elements, errors_after_indents)
{
    static const struct {
        const char *text;
        int rc;
        size_t off;
    } bad[] = {
        {"[\n  [\n    1,\n    ]\n]", TAGC_E_SYNTAX, 17},   /* trailing comma */
        {"[\n  [\n    1\n    2\n  ]\n]", TAGC_E_SYNTAX, 16}, /* no comma */
        {"[\n  [\n    \x01" "1\n  ]\n]", TAGC_E_SYNTAX, 10}, /* control byte in an indent */
        {"[\n  [\n    1\n  \x0b]\n]", TAGC_E_SYNTAX, 14},
        {"[\n  [\n    1,\n                            ", TAGC_E_EOF, 41},
        {"[\n  [\n    1\n                            ", TAGC_E_EOF, 40},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t sum;
        size_t n, off = 0;
        int rc = read_ints(bad[i].text, &sum, &n, &off);
        cr_expect_eq(rc, bad[i].rc, "case %zu: rc %d", i, rc);
        cr_expect_eq(off, bad[i].off, "case %zu: offset %zu, expected %zu", i, off, bad[i].off);
    }
}

/* Long enough that the readers predict the indent (tagc_json_skip_indent_at
 * needs 33 bytes after the newline): 40 arrays of 1..6 integers, indented by
 * depth × unit bytes of fill; with mutate, some newlines get another indent
 * (a width off by one to three, the other indent byte in it, a '\r' before
 * the newline): all valid, so the sum and count stay. */
static size_t gen_ints_n(char *out, int arrays, unsigned unit, char fill, bool mutate, int64_t *sum, size_t *n)
{
    size_t len = 0;
    *sum = 0;
    *n = 0;
#define NEWLINE(depth)                                                                   \
    do {                                                                                 \
        unsigned w_ = (depth) * unit, r_ = mutate ? next_rand() % 16 : 15;               \
        if (r_ == 0)                                                                     \
            out[len++] = '\r';                                                           \
        out[len++] = '\n';                                                               \
        if (r_ == 1 || r_ == 2)                                                          \
            w_ += 1 + next_rand() % 3;                                                   \
        else if (r_ == 3 && w_ > 0)                                                      \
            w_ -= 1 + next_rand() % w_;                                                  \
        for (unsigned i_ = 0; i_ < w_; i_++)                                             \
            out[len++] = r_ == 4 && i_ == w_ / 2 ? (fill == ' ' ? '\t' : ' ') : fill;    \
    } while (0)
    out[len++] = '[';
    for (int i = 0; i < arrays; i++) {
        NEWLINE(1);
        out[len++] = '[';
        int k = 1 + (int)(next_rand() % 6);
        for (int j = 0; j < k; j++) {
            NEWLINE(2);
            int v = (int)(next_rand() % 1000);
            len += (size_t)sprintf(out + len, "%d", v);
            *sum += v;
            ++*n;
            if (j + 1 < k)
                out[len++] = ',';
        }
        NEWLINE(1);
        out[len++] = ']';
        if (i + 1 < arrays)
            out[len++] = ',';
    }
    NEWLINE(0);
    out[len++] = ']';
#undef NEWLINE
    out[len] = 0;
    return len;
}

static size_t gen_ints(char *out, unsigned unit, char fill, bool mutate, int64_t *sum, size_t *n)
{
    return gen_ints_n(out, 40, unit, fill, mutate, sum, n);
}

Test(elements, predicted_indents)
{
    static char doc[40 * 7 * 48 + 64];
    static const unsigned units[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 20};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        for (int t = 0; t < 2; t++) {
            char fill = t ? '\t' : ' ';
            for (int round = 0; round < 20; round++) {
                int64_t sum;
                size_t n;
                size_t len = gen_ints(doc, units[u], fill, round > 0, &sum, &n);
                cr_assert_lt(len, sizeof doc);
                expect_ints(doc, sum, n);
                /* one byte of one indent that is not whitespace: the error is there */
                size_t nl[2048], k = 0;
                for (size_t i = 0; i < len && k < 2048; i++)
                    if (doc[i] == '\n' && i + 1 < len && (doc[i + 1] == ' ' || doc[i + 1] == '\t'))
                        nl[k++] = i;
                cr_assert(k > 0);
                size_t at = nl[next_rand() % k] + 1;
                while (doc[at + 1] == ' ' || doc[at + 1] == '\t')
                    if (next_rand() % 2 == 0)
                        break;
                    else
                        at++;
                char keep = doc[at];
                doc[at] = round % 2 ? '\x01' : '#';
                int64_t s2;
                size_t n2, off = 0;
                int rc = read_ints(doc, &s2, &n2, &off);
                cr_expect_eq(rc, TAGC_E_SYNTAX, "unit %u fill %d round %d: bad byte at %zu: rc %d", units[u],
                             t, round, at, rc);
                cr_expect_eq(off, at, "unit %u fill %d round %d: error at %zu, expected %zu", units[u], t,
                             round, off, at);
                doc[at] = keep;
            }
        }
    }
}

Test(members, predicted_indents)
{
    /* whitespace after the '}' keeps 33 bytes after every newline (the
     * prediction's window); the first indent sets the unit */
#define PAD "\n                                        "
    expect_abc("{\n  \"a\": -12,\n  \"b\": \"x\\ty z\",\n  \"c\": 345678\n}" PAD, false);
    expect_abc("{\n\t\"a\": -12,\n\t\"b\": null,\n\t\"c\": 345678\n}" PAD, true);
    /* widths that change after the unit is learnt, mixed bytes, CRLF */
    expect_abc("{\n  \"a\": -12,\n   \"b\": null,\n \"c\": 345678\n  }" PAD, true);
    expect_abc("{\n  \"a\": -12,\n \t\"b\": \"x\\ty z\",\n\t\t\"c\": 345678\n\t}" PAD, false);
    expect_abc("{\n  \"a\": -12,\r\n  \"b\": null,\n\n  \"c\": 345678\n}" PAD, true);
    expect_abc("{\n\"a\": -12,\n\"b\": null,\n\"c\": 345678\n}" PAD, true);
    /* the first indent, learnt by tagc_json_dec_init, not followed by a token or mixed */
    expect_abc("{\n  \n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n}" PAD, true);
    expect_abc("{\n \t\"a\": -12,\n \t\"b\": null,\n  \"c\": 345678\n}" PAD, true);
    expect_abc("{\n    \"a\": -12,\n  \"b\": null,\n      \"c\": 345678\n}" PAD, true);
    /* indents across the 8-, 16- and 32-byte steps */
    expect_abc("{\n               \"a\": -12,\n                \"b\": null,\n"
               "                                 \"c\": 345678\n       }" PAD, true);
    expect_abc("{\n                \"a\": -12,\n                \"b\": \"x\\ty z\",\n"
               "                \"c\": 345678\n}" PAD, false);
    /* whitespace after the predicted indent before the '}' (whose compare
     * does not test the byte after the indent: the '}' test fails) */
    expect_abc("{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n\t}" PAD, true);
    expect_abc("{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n\r}" PAD, true);
    expect_abc("{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n \n}" PAD, true);
    /* the end of the input inside an indent */
    expect_abc("{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n}\n                                   ", true);
    static const char *const bad[] = {
        "{\n  \"a\": -12,\n x\"b\": null,\n  \"c\": 345678\n}" PAD,
        "{\n  \"a\": -12,\n \x01\"b\": null,\n  \"c\": 345678\n}" PAD,
        "{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n#}" PAD,
        "{\n                \"a\": -12,\n               \x1f\"b\": null}" PAD,
        "{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n \x01}" PAD,
        "{\n  \"a\": -12,\n  \"b\": null,\n  \"c\": 345678\n\n\x01}" PAD,
    };
    expect_abc_syntax_errors(bad, sizeof bad / sizeof bad[0]);
#undef PAD
}

/* The indents the in-line compare leaves to tagc_json_skip_indent_learn: the
 * first one when tagc_json_dec_init has not learnt the unit, and those within
 * TAGC_IND_READ (48) bytes of the end of the input, checked there against the
 * prediction by a byte loop. Documents of
 * 1..3 arrays, so that most indents are near the end, widths across 0..60
 * (the loop's limit is 32), both fills, mutated indents (not the learnt unit,
 * mixed bytes, '\r'), whitespace after the value; every prefix is an EOF at
 * its end, every indent byte near the end turned into '#' a syntax error
 * there, into the other indent byte or '\r' still the same values. */
Test(elements, indents_near_the_end)
{
    static char doc[3 * 7 * 64 + 64];
    static const char *const tails[] = {"", " ", "\n", "\r\n\t", "\n                                  "};
    for (unsigned unit = 0; unit <= 20; unit++) {
        for (int t = 0; t < 2; t++) {
            char fill = t ? '\t' : ' ';
            for (int round = 0; round < 12; round++) {
                int64_t sum, s2;
                size_t n, n2, off;
                size_t len = gen_ints_n(doc, 1 + round % 3, unit, fill, round >= 3, &sum, &n);
                const char *tail = tails[round % 5];
                cr_assert_lt(len + strlen(tail), sizeof doc);
                strcpy(doc + len, tail);
                len += strlen(tail);
                expect_ints(doc, sum, n);
                for (size_t cut = 0; cut < len; cut++) {
                    char keep = doc[cut];
                    doc[cut] = 0;
                    int rc = read_ints(doc, &s2, &n2, &off);
                    doc[cut] = keep;
                    if (strspn(doc + cut, " \t\r\n") == len - cut) { /* only whitespace cut off */
                        cr_expect_eq(rc, 0, "unit %u: cut at %zu of %zu: rc %d", unit, cut, len, rc);
                        continue;
                    }
                    cr_expect_eq(rc, TAGC_E_EOF, "unit %u fill %d round %d: cut at %zu: rc %d", unit, t, round,
                                 cut, rc);
                    cr_expect_eq(off, cut, "unit %u fill %d round %d: cut at %zu: error at %zu", unit, t,
                                 round, cut, off);
                }
                for (size_t at = len > 48 ? len - 48 : 1; at < len; at++) {
                    if (doc[at] != ' ' && doc[at] != '\t')
                        continue;
                    size_t nl = at;
                    while (nl > 0 && (doc[nl - 1] == ' ' || doc[nl - 1] == '\t'))
                        nl--;
                    if (nl == 0 || doc[nl - 1] != '\n')
                        continue;
                    char keep = doc[at];
                    doc[at] = keep == ' ' ? '\t' : ' ';
                    expect_ints(doc, sum, n);
                    doc[at] = '\r';
                    expect_ints(doc, sum, n);
                    doc[at] = '#';
                    int rc = read_ints(doc, &s2, &n2, &off);
                    doc[at] = keep;
                    bool in_tail = at >= len - strlen(tail); /* after the value: the finish's error */
                    cr_expect_eq(rc, TAGC_E_SYNTAX, "unit %u fill %d round %d: '#' at %zu: rc %d", unit, t,
                                 round, at, rc);
                    cr_expect_eq(off, at, "unit %u fill %d round %d%s: '#' at %zu: error at %zu", unit, t,
                                 round, in_tail ? " (tail)" : "", at, off);
                }
            }
        }
    }
}

/* The same for members: an object of three, every width 0..40 of both fills
 * with nothing after it (every indent is within 32 bytes of the end, or the
 * first), every prefix an EOF at its end, a '#' in any indent a syntax error. */
Test(members, indents_near_the_end)
{
    static char doc[512];
    for (unsigned w = 0; w <= 40; w++) {
        for (int t = 0; t < 3; t++) {
            char fill = t == 1 ? '\t' : ' ';
            char ind[64];
            memset(ind, fill, w);
            if (t == 2 && w > 1)
                ind[w / 2] = '\t'; /* mixed: never the learnt unit */
            ind[w] = 0;
            snprintf(doc, sizeof doc, "{\n%s\"a\": -12,\n%s\"b\": null,\n%s\"c\": 345678\n}", ind, ind, ind);
            expect_abc(doc, true);
            size_t len = strlen(doc);
            for (size_t cut = 0; cut < len; cut++) {
                char keep = doc[cut];
                int64_t a = 0, c = 0;
                tagc_str b = {0};
                bool b_null = false;
                doc[cut] = 0;
                int rc = read_abc(doc, &a, &b, &c, &b_null);
                doc[cut] = keep;
                cr_expect_eq(rc, TAGC_E_EOF, "width %u kind %d: cut at %zu: rc %d", w, t, cut, rc);
            }
            for (size_t at = 1; at < len; at++) {
                if (doc[at] != ' ' && doc[at] != '\t')
                    continue;
                size_t nl = at;
                while (doc[nl - 1] == ' ' || doc[nl - 1] == '\t')
                    nl--;
                if (doc[nl - 1] != '\n')
                    continue;
                char keep = doc[at];
                int64_t a = 0, c = 0;
                tagc_str b = {0};
                bool b_null = false;
                doc[at] = '#';
                int rc = read_abc(doc, &a, &b, &c, &b_null);
                doc[at] = keep;
                cr_expect_eq(rc, TAGC_E_SYNTAX, "width %u kind %d: '#' at %zu: rc %d", w, t, at, rc);
            }
        }
    }
}

/* One bool field's value read as generated code reads it (the null test, then
 * the bool), in line or by the out-of-line functions the in-line paths stand
 * in for, from a buffer of exactly the text's size. */
typedef struct {
    int rc, code;
    size_t offset, end;
    int value; /* -1 null (the bool left as it was), else the bool */
    char message[sizeof ((tagc_error *)0)->message];
} literal_read;

static void read_literal(const char *text, size_t len, bool in_line, literal_read *r)
{
    static tagc_arena arena;
    tagc_error err;
    tagc_json_dec d;
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    tagc_arena_reset(&arena);
    tagc_json_dec_init(&d, copy, len, &arena, &err, NULL);
    bool b = false, null = in_line ? tagc_json_null(&d) : tagc_json_null_slow(&d);
    int rc = 0;
    if (!null)
        rc = in_line ? tagc_json_read_bool(&d, &b) : tagc_json_read_bool_slow(&d, &b);
    rc = tagc_json_dec_finish(&d, rc);
    r->rc = rc;
    r->code = err.code;
    r->offset = rc != 0 ? err.offset : 0;
    r->end = (size_t)(d.p - copy);
    r->value = null ? -1 : b;
    snprintf(r->message, sizeof r->message, "%s", rc != 0 ? err.message : "");
    free(copy);
}

/* tagc_json_null's in-line null and tagc_json_read_bool's in-line true and
 * false give what tagc_json_null_slow and tagc_json_read_bool_slow give: the
 * same rc, error, end and value, for literals whole, cut at every byte, with a
 * byte changed after them, and after whitespace. */
Test(literals, in_line_as_out_of_line)
{
    static const char *const texts[] = {
        "true", "false", "null", "tru", "fals", "nul", "truex", "falsex", "nullx", "falsf",
        "fAlse", "tRue", "nuLl", "t", "f", "n", "", "1", "\"true\"", " true", " false", " null",
        "\ttrue", "\n  false", "\n  null", "true ", "false\n", "null\t", "true,", "false}", "null]",
        "truefalse", "nullnull", "false false", "  null", " nul", " fals",
    };
    long compared = 0;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t len = strlen(texts[i]);
        for (size_t cut = 0; cut <= len; cut++) {
            literal_read a, b;
            read_literal(texts[i], cut, false, &a);
            read_literal(texts[i], cut, true, &b);
            const char *t = texts[i];
            cr_assert_eq(b.rc, a.rc, "'%.*s': rc %d, want %d", (int)cut, t, b.rc, a.rc);
            cr_assert_eq(b.code, a.code, "'%.*s': code", (int)cut, t);
            cr_assert_eq(b.offset, a.offset, "'%.*s': offset %zu, want %zu", (int)cut, t, b.offset, a.offset);
            cr_assert_str_eq(b.message, a.message, "'%.*s': message", (int)cut, t);
            cr_assert_eq(b.end, a.end, "'%.*s': end %zu, want %zu", (int)cut, t, b.end, a.end);
            cr_assert_eq(b.value, a.value, "'%.*s': value %d, want %d", (int)cut, t, b.value, a.value);
            compared++;
        }
    }
    /* the literals themselves, as a check that the two agree on something */
    literal_read r;
    read_literal("false", 5, true, &r);
    cr_assert(r.rc == 0 && r.value == 0 && r.end == 5);
    read_literal("true", 4, true, &r);
    cr_assert(r.rc == 0 && r.value == 1 && r.end == 4);
    read_literal("null", 4, true, &r);
    cr_assert(r.rc == 0 && r.value == -1 && r.end == 4);
    cr_assert_gt(compared, 200);
}
