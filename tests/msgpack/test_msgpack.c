/*
 * test_msgpack.c - the generated MessagePack codecs and the runtime under them.
 *
 *   Round trips   every workload (seedwork/ and bench/ of the data folder) and a
 *                 document using every construct (sink.json): decoded from JSON,
 *                 encoded to MessagePack, decoded back: _equal, and the same bytes
 *                 when encoded again; the zero value of every named type.
 *   Formats       each integer boundary (±2^7, 2^8, 2^15, 2^16, 2^31, 2^32, 2^63,
 *                 2^64-1), each length boundary of str, bin, array, map (31, 255,
 *                 65535, 65536), floats, timestamps (32/64/96-bit, before 1970,
 *                 with nanoseconds), ext; every format read back into fields.
 *   Fixed buffers every size from 0 to the output's + 16 for every workload and
 *                 zero value: the growable encoding's bytes or TAGC_E_FULL (or the
 *                 error of a value met once the bytes before it fit), cut back,
 *                 nothing past cap (the writers' spill near a fixed buffer's end).
 *   Hostile input truncation at every byte offset, lengths claiming more than the
 *                 input holds, nesting bombs, wrong types, strict mode: each a
 *                 clear error with offset and path (run under ASan/UBSan).
 *
 * Environment: TAGC_DATA_DIR (data), TAGC_MSGPACK_TEST_DIR (this folder).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* MARK: - Helpers */

static char *load(const char *env, const char *rel, size_t *len)
{
    const char *dir = getenv(env);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", rel);
    char *s = read_file(path, len);
    cr_assert_not_null(s, "cannot read %s (set %s)", path, env);
    return s;
}

/* A MessagePack document built byte by byte, in any format the test wants. */
typedef struct mb {
    uint8_t *p;
    size_t len, cap;
} mb;

static void mb_put(mb *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        cr_assert_not_null(b->p);
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void mb_byte(mb *b, uint8_t c)
{
    mb_put(b, &c, 1);
}

/* A tag then n big-endian bytes of v. */
static void mb_be(mb *b, uint8_t tag, uint64_t v, int n)
{
    mb_byte(b, tag);
    for (int i = n - 1; i >= 0; i--)
        mb_byte(b, (uint8_t)(v >> (8 * i)));
}

static void mb_str(mb *b, const char *s)
{
    size_t n = strlen(s);
    mb_byte(b, (uint8_t)(0xa0 | n));
    mb_put(b, s, n);
}

static bool contains(const uint8_t *p, size_t n, const char *s, size_t sn)
{
    for (size_t i = 0; i + sn <= n; i++)
        if (memcmp(p + i, s, sn) == 0)
            return true;
    return false;
}

static void mb_free(mb *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* MARK: - Round trips */

/* A copy of the document m whose top-level map has its pairs in reverse order:
 * every key of the struct then misses the "expected next" compare and is
 * found by the generated decoder's lookup (tagc_mp_key_find). */
static void reverse_top_map(const uint8_t *m, size_t len, mb *out)
{
    size_t n, at[1024];
    tagc_arena a;
    tagc_mp_dec d;
    tagc_error err;
    tagc_arena_init(&a);
    tagc_mp_dec_init(&d, m, len, &a, &err, NULL);
    cr_assert_eq(tagc_mp_map_begin(&d, &n), 0);
    cr_assert(n < 1024);
    size_t head = (size_t)(d.p - (const char *)m);
    for (size_t i = 0; i < n; i++) {
        at[i] = (size_t)(d.p - (const char *)m);
        cr_assert_eq(tagc_mp_skip(&d), 0);
        cr_assert_eq(tagc_mp_skip(&d), 0);
    }
    at[n] = (size_t)(d.p - (const char *)m);
    mb_put(out, m, head);
    for (size_t i = n; i-- > 0;)
        mb_put(out, m + at[i], at[i + 1] - at[i]);
    tagc_arena_free(&a);
}


/* JSON -> v1 -> MessagePack m1 -> v2: equal; v2 -> m2 == m1; v2's JSON == v1's JSON. */
static void roundtrip(const codec *c, const char *json, size_t len, void (*fix)(void *v1, void *v2))
{
    tagc_arena a1, a2;
    tagc_error err;
    tagc_buf m1, m2, j1, j2;
    void *v1 = calloc(1, c->size), *v2 = calloc(1, c->size);
    tagc_arena_init(&a1);
    tagc_arena_init(&a2);
    tagc_buf_init(&m1);
    tagc_buf_init(&m2);
    tagc_buf_init(&j1);
    tagc_buf_init(&j2);
    int rc = c->decode_json(v1, json, len, &a1, &err);
    cr_assert_eq(rc, 0, "%s: JSON: %s at %zu %s", c->name, err.message, err.offset, err.path);
    cr_assert_eq(c->encode_mp(v1, &m1), 0, "%s: encode", c->name);
    rc = c->decode_mp(v2, m1.data, m1.len, &a2, &err, NULL);
    cr_assert_eq(rc, 0, "%s: msgpack: %s at %zu %s", c->name, err.message, err.offset, err.path);
    if (fix)
        fix(v1, v2);
    cr_assert(c->equal(v1, v2), "%s: decode(encode(v)) != v", c->name);
    cr_assert_eq(c->encode_mp(v2, &m2), 0);
    cr_assert_eq(m1.len, m2.len, "%s: %zu != %zu bytes", c->name, m1.len, m2.len);
    cr_assert(memcmp(m1.data, m2.data, m1.len) == 0, "%s: re-encoding differs", c->name);
    cr_assert_eq(c->encode_json(v1, &j1), 0);
    cr_assert_eq(c->encode_json(v2, &j2), 0);
    cr_assert(j1.len == j2.len && memcmp(j1.data, j2.data, j1.len) == 0, "%s: JSON differs", c->name);


    /* strict decoding accepts its own output; a fixed buffer of the exact size suffices */
    tagc_json_opts strict = {.strict = true};
    tagc_arena_reset(&a2);
    rc = c->decode_mp(v2, m1.data, m1.len, &a2, &err, &strict);
    cr_assert_eq(rc, 0, "%s: strict: %s at %zu %s", c->name, err.message, err.offset, err.path);
    uint8_t *mem = malloc(m1.len + 1);
    tagc_buf fixed;
    tagc_buf_init_fixed(&fixed, mem, m1.len);
    cr_assert_eq(c->encode_mp(v1, &fixed), 0);
    cr_assert(memcmp(mem, m1.data, m1.len) == 0);
    tagc_buf_init_fixed(&fixed, mem, m1.len - 1);
    cr_assert_eq(c->encode_mp(v1, &fixed), TAGC_E_FULL);
    cr_assert_eq(fixed.len, 0, "a failed encode leaves nothing written");
    free(mem);

    /* the same pairs in reverse order decode to the same value */
    if ((uint8_t)m1.data[0] >> 4 == 0x8 || (uint8_t)m1.data[0] == 0xde) {
        mb rev = {0};
        reverse_top_map(m1.data, m1.len, &rev);
        tagc_arena_reset(&a2); /* fix points v1 into a2 again */
        memset(v2, 0, c->size);
        rc = c->decode_mp(v2, rev.p, rev.len, &a2, &err, NULL);
        cr_assert_eq(rc, 0, "%s: reversed: %s at %zu %s", c->name, err.message, err.offset, err.path);
        if (fix)
            fix(v1, v2);
        cr_assert(c->equal(v1, v2), "%s: keys in reverse order decode to another value", c->name);
        mb_free(&rev);
    }

    tagc_buf_free(&m1);
    tagc_buf_free(&m2);
    tagc_buf_free(&j1);
    tagc_buf_free(&j2);
    tagc_arena_free(&a1);
    tagc_arena_free(&a2);
    free(v1);
    free(v2);
}

static void roundtrip_file(const char *type, const char *rel)
{
    size_t len;
    char *json = load("TAGC_DATA_DIR", rel, &len);
    roundtrip(find_codec(type), json, len, NULL);
    free(json);
}

Test(roundtrip, user) { roundtrip_file("user_user", "seedwork/user.json"); }
Test(roundtrip, order) { roundtrip_file("order_order", "seedwork/order.json"); }
Test(roundtrip, tree) { roundtrip_file("tree_node", "seedwork/tree.json"); }
Test(roundtrip, twitter) { roundtrip_file("twitter_search_result", "bench/twitter.json"); }
Test(roundtrip, canada) { roundtrip_file("canada_feature_collection", "bench/canada.json"); }
Test(roundtrip, citm) { roundtrip_file("citm_catalog", "bench/citm_catalog.json"); }

/* What MessagePack does not carry: json_only (msgpack:"-"). The raw text goes
 * as a bin (vmihailenco/msgpack's json.RawMessage), the same bytes. */
static void sink_fix(void *p1, void *p2)
{
    sink_sink *v1 = p1, *v2 = p2;
    cr_assert(tagc_raw_equal(&v1->raw, &v2->raw), "%s", v2->raw.ptr);
    cr_assert_eq(v2->json_only.len, 0);
    v1->json_only = v2->json_only;
}

Test(roundtrip, kitchen_sink)
{
    size_t len;
    char *json = load("TAGC_MSGPACK_TEST_DIR", "sink.json", &len);
    roundtrip(find_codec("sink_sink"), json, len, sink_fix);
    free(json);
}

Test(roundtrip, zero_value_of_every_type)
{
    for (size_t i = 0; i < N_CODECS; i++) {
        const codec *c = &all_codecs[i];
        void *v1 = calloc(1, c->size), *v2 = calloc(1, c->size);
        tagc_arena a;
        tagc_error err;
        tagc_buf out;
        tagc_arena_init(&a);
        tagc_buf_init(&out);
        c->init(v1);
        /* an int enum without a zero constant rejects its zero value, in JSON as here */
        cr_assert_eq(c->encode_json(v1, &out), 0, "%s", c->name);
        bool json_ok = c->decode_json(v2, (const char *)out.data, out.len, &a, &err) == 0;
        tagc_buf_reset(&out);
        cr_assert_eq(c->encode_mp(v1, &out), 0, "%s", c->name);
        if (!json_ok) {
            cr_assert_eq(c->decode_mp(v2, out.data, out.len, &a, &err, NULL), TAGC_E_ENUM, "%s", c->name);
            tagc_buf_free(&out);
            tagc_arena_free(&a);
            free(v1);
            free(v2);
            continue;
        }
        int rc = c->decode_mp(v2, out.data, out.len, &a, &err, NULL);
        cr_assert_eq(rc, 0, "%s: %s at %zu", c->name, err.message, err.offset);
        cr_assert(c->equal(v1, v2), "%s", c->name);
        tagc_buf_free(&out);
        tagc_arena_free(&a);
        free(v1);
        free(v2);
    }
}

Test(roundtrip, user_bytes)
{
    /* the exact bytes of a small value: map of 5; an int64 in int 64, as
     * vmihailenco/msgpack's default encoder writes it (docs/msgpack.md) */
    size_t len;
    char *json = load("TAGC_DATA_DIR", "seedwork/user.json", &len);
    user_user u;
    tagc_arena a;
    tagc_buf out;
    tagc_arena_init(&a);
    tagc_buf_init(&out);
    cr_assert_eq(user_user_decode_json(&u, json, len, &a, NULL, NULL), 0);
    cr_assert_eq(user_user_encode_msgpack(&u, &out), 0);
    static const uint8_t want[] = {
        0x85, 0xa2, 'i', 'd', 0xd3, 0, 0, 0, 0, 0, 0, 0x30, 0x39, /* 12345: int 64 */
        0xa4, 'n', 'a', 'm', 'e', 0xad, 'A', 'l', 'i', 'c', 'e', ' ', 'J', 'o', 'h', 'n', 's', 'o', 'n',
    };
    cr_assert(out.len > sizeof want && memcmp(out.data, want, sizeof want) == 0);
    /* meta.created_at 2024-01-15T10:30:00Z: timestamp 32 */
    static const uint8_t ts[] = {0xd6, 0xff, 0x65, 0xa5, 0x09, 0x28};
    bool found = false;
    for (size_t i = 0; i + sizeof ts <= out.len; i++)
        found |= memcmp(out.data + i, ts, sizeof ts) == 0;
    cr_assert(found, "timestamp 32 of 2024-01-15T10:30:00Z");
    tagc_buf_free(&out);
    tagc_arena_free(&a);
    free(json);
}

/* MARK: - Writing: the smallest format */

typedef struct int_case {
    int64_t v;
    uint8_t tag; /* first byte; for fixints, the value itself */
    size_t len;
} int_case;

Test(format, integers)
{
    static const int_case cases[] = {
        {0, 0x00, 1}, {127, 0x7f, 1}, {128, 0xcc, 2}, {255, 0xcc, 2}, {256, 0xcd, 3},
        {32767, 0xcd, 3}, {32768, 0xcd, 3}, {65535, 0xcd, 3}, {65536, 0xce, 5},
        {2147483647, 0xce, 5}, {2147483648LL, 0xce, 5}, {4294967295LL, 0xce, 5},
        {4294967296LL, 0xcf, 9}, {INT64_MAX, 0xcf, 9},
        {-1, 0xff, 1}, {-32, 0xe0, 1}, {-33, 0xd0, 2}, {-128, 0xd0, 2}, {-129, 0xd1, 3},
        {-32768, 0xd1, 3}, {-32769, 0xd2, 5}, {-65536, 0xd2, 5}, {INT32_MIN, 0xd2, 5},
        {(int64_t)INT32_MIN - 1, 0xd3, 9}, {-4294967296LL, 0xd3, 9}, {INT64_MIN, 0xd3, 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tagc_buf b;
        tagc_buf_init(&b);
        tagc_mp_write_int(&b, cases[i].v);
        cr_assert_eq(b.len, cases[i].len, "%lld: %zu bytes", (long long)cases[i].v, b.len);
        cr_assert_eq(b.data[0], cases[i].tag, "%lld: 0x%02x", (long long)cases[i].v, b.data[0]);
        tagc_mp_dec d;
        tagc_error err;
        int64_t x;
        tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
        cr_assert_eq(tagc_mp_read_int(&d, &x, INT64_MIN, INT64_MAX), 0);
        cr_assert_eq(x, cases[i].v);
        cr_assert_eq(tagc_mp_dec_finish(&d, 0), 0);
        tagc_buf_free(&b);
    }
    /* 2^64 - 1 */
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_mp_write_uint(&b, UINT64_MAX);
    cr_assert_eq(b.len, 9);
    cr_assert_eq(b.data[0], 0xcf);
    tagc_mp_dec d;
    tagc_error err;
    uint64_t u;
    int64_t s;
    tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_uint(&d, &u, UINT64_MAX), 0);
    cr_assert_eq(u, UINT64_MAX);
    tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_int(&d, &s, INT64_MIN, INT64_MAX), TAGC_E_RANGE);
    cr_assert_eq(err.offset, 0);
    tagc_buf_free(&b);
}

/* The head written for a length n by each writer. */
static void check_head(void (*w)(tagc_buf *, size_t), size_t n, uint8_t tag, size_t head)
{
    tagc_buf b;
    tagc_buf_init(&b);
    w(&b, n);
    cr_assert_eq(b.len, head, "n=%zu: head of %zu bytes", n, b.len);
    cr_assert_eq(b.data[0], tag, "n=%zu: 0x%02x", n, b.data[0]);
    tagc_buf_free(&b);
}

static char *big;
static void w_str(tagc_buf *b, size_t n) { tagc_mp_write_str(b, big, n); b->len -= n; }
static void w_bin(tagc_buf *b, size_t n) { tagc_mp_write_bin(b, (const uint8_t *)big, n); b->len -= n; }

Test(format, lengths)
{
    big = calloc(1, 70000);
    check_head(w_str, 0, 0xa0, 1);
    check_head(w_str, 31, 0xbf, 1);
    check_head(w_str, 32, 0xd9, 2);
    check_head(w_str, 255, 0xd9, 2);
    check_head(w_str, 256, 0xda, 3);
    check_head(w_str, 65535, 0xda, 3);
    check_head(w_str, 65536, 0xdb, 5);
    check_head(w_bin, 0, 0xc4, 2);
    check_head(w_bin, 31, 0xc4, 2);
    check_head(w_bin, 255, 0xc4, 2);
    check_head(w_bin, 256, 0xc5, 3);
    check_head(w_bin, 65535, 0xc5, 3);
    check_head(w_bin, 65536, 0xc6, 5);
    check_head(tagc_mp_write_array, 15, 0x9f, 1);
    check_head(tagc_mp_write_array, 16, 0xdc, 3);
    check_head(tagc_mp_write_array, 31, 0xdc, 3);
    check_head(tagc_mp_write_array, 255, 0xdc, 3);
    check_head(tagc_mp_write_array, 65535, 0xdc, 3);
    check_head(tagc_mp_write_array, 65536, 0xdd, 5);
    check_head(tagc_mp_write_map, 15, 0x8f, 1);
    check_head(tagc_mp_write_map, 16, 0xde, 3);
    check_head(tagc_mp_write_map, 31, 0xde, 3);
    check_head(tagc_mp_write_map, 255, 0xde, 3);
    check_head(tagc_mp_write_map, 65535, 0xde, 3);
    check_head(tagc_mp_write_map, 65536, 0xdf, 5);
    free(big);
}

/* Strings, []byte and slices of each boundary length through the generated code. */
Test(format, lengths_roundtrip)
{
    static const size_t lens[] = {0, 31, 32, 255, 256, 65535, 65536};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        size_t n = lens[k];
        sink_sink v, w;
        memset(&v, 0, sizeof v);
        char *s = malloc(n + 1);
        memset(s, 'x', n);
        s[n] = 0;
        v.scalars.s.ptr = s;
        v.scalars.s.len = n;
        v.blob.ptr = (uint8_t *)s;
        v.blob.len = n;
        int32_t *list = calloc(n + 1, sizeof *list);
        for (size_t i = 0; i < n; i++)
            list[i] = (int32_t)i - 100;
        v.list.ptr = list;
        v.list.len = n;
        tagc_str *keys = calloc(n + 1, sizeof *keys);
        int64_t *vals = calloc(n + 1, sizeof *vals);
        char (*kt)[8] = calloc(n + 1, 8);
        for (size_t i = 0; i < n; i++) {
            keys[i].len = (size_t)snprintf(kt[i], 8, "%zu", i);
            keys[i].ptr = kt[i];
            vals[i] = (int64_t)i;
        }
        v.by_name.keys = n ? keys : TAGC_EMPTY;
        v.by_name.vals = n ? vals : TAGC_EMPTY;
        v.by_name.len = n;
        tagc_buf out;
        tagc_arena a;
        tagc_error err;
        tagc_buf_init(&out);
        tagc_arena_init(&a);
        cr_assert_eq(sink_sink_encode_msgpack(&v, &out), 0);
        cr_assert_eq(sink_sink_decode_msgpack(&w, out.data, out.len, &a, &err), 0, "%zu: %s", n, err.message);
        /* the map comes back in stored order: the generated equal compares it in one pass */
        cr_assert_eq(w.by_name.len, n);
        for (size_t i = 0; i < n; i++)
            cr_assert(tagc_str_equal(&w.by_name.keys[i], &keys[i]) && w.by_name.vals[i] == vals[i]);
        cr_assert(sink_sink_equal(&v, &w), "length %zu", n);
        tagc_buf_free(&out);
        tagc_arena_free(&a);
        free(s);
        free(list);
        free(keys);
        free(vals);
        free(kt);
    }
}

/* The generated equal of a map: the same entries in any order, nothing else. */
Test(format, map_equal_in_any_order)
{
    static char ka[] = "abcd", kb[] = "cdab", ke[] = "e";
    static int64_t va[] = {1, 2, 3, 4};
    static const int64_t vb[] = {3, 4, 1, 2};
    tagc_str keys_a[4], keys_b[4];
    int64_t vals_b[4];
    for (int i = 0; i < 4; i++) {
        keys_a[i] = (tagc_str){&ka[i], 1};
        keys_b[i] = (tagc_str){&kb[i], 1};
        vals_b[i] = vb[i];
    }
    sink_sink v, w;
    memset(&v, 0, sizeof v);
    memset(&w, 0, sizeof w);
    v.by_name.keys = keys_a;
    v.by_name.vals = va;
    v.by_name.len = 4;
    w.by_name.keys = keys_b;
    w.by_name.vals = vals_b;
    w.by_name.len = 4;
    cr_assert(sink_sink_equal(&v, &w), "the same entries in another order");
    cr_assert(sink_sink_equal(&w, &v));
    vals_b[3] = 5; /* "b": 5 */
    cr_assert_not(sink_sink_equal(&v, &w), "a value differs");
    vals_b[3] = 2;
    keys_b[1] = (tagc_str){ke, 1}; /* "d" missing, "e" instead */
    cr_assert_not(sink_sink_equal(&v, &w), "a key differs");
    cr_assert_not(sink_sink_equal(&w, &v));
    keys_b[1] = (tagc_str){&kb[1], 1};
    w.by_name.len = 3;
    cr_assert_not(sink_sink_equal(&v, &w), "an entry fewer");
}

Test(format, floats)
{
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_mp_write_f32(&b, 1.5f);
    tagc_mp_write_f64(&b, 1.5);
    static const uint8_t want[] = {0xca, 0x3f, 0xc0, 0, 0, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(b.len, sizeof want);
    cr_assert(memcmp(b.data, want, sizeof want) == 0);
    /* float 32 and 64 and integers read into either width */
    tagc_mp_dec d;
    tagc_error err;
    float f;
    double x;
    tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_f64(&d, &x), 0);
    cr_assert_eq(x, 1.5);
    cr_assert_eq(tagc_mp_read_f32(&d, &f), 0);
    cr_assert_eq(f, 1.5f);
    tagc_buf_reset(&b);
    tagc_mp_write_int(&b, -7);
    tagc_mp_write_f64(&b, 1e300);
    tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_f32(&d, &f), 0);
    cr_assert_eq(f, -7.0f);
    cr_assert_eq(tagc_mp_read_f32(&d, &f), TAGC_E_RANGE, "1e300 does not fit a float");
    cr_assert_eq(err.offset, 1);
    tagc_buf_free(&b);
}

typedef struct ts_case {
    int64_t sec;
    int32_t nsec;
    uint8_t tag;
    size_t len;
} ts_case;

Test(format, timestamps)
{
    static const ts_case cases[] = {
        {0, 0, 0xd6, 6},                         /* 1970: timestamp 32 */
        {4294967295LL, 0, 0xd6, 6},              /* 2106-02-07T06:28:15Z */
        {4294967296LL, 0, 0xd7, 10},             /* one second later: timestamp 64 */
        {1, 1, 0xd7, 10},                        /* nanoseconds: timestamp 64 */
        {17179869183LL, 999999999, 0xd7, 10},    /* 2^34 - 1 */
        {17179869184LL, 0, 0xc7, 15},            /* 2^34: timestamp 96 */
        {-1, 999999999, 0xc7, 15},               /* before 1970 */
        {-14182940, 123456789, 0xc7, 15},        /* 1969-07-20T20:17:40.123456789Z */
        {TAGC_TIME_UNIX_OF_ZERO, 0, 0xc7, 15},   /* Go's zero time */
        {253402300799LL, 999999999, 0xc7, 15},   /* 9999-12-31T23:59:59.999999999Z */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tagc_time t = tagc_time_from_unix(cases[i].sec, cases[i].nsec, 0), r;
        tagc_buf b;
        tagc_buf_init(&b);
        tagc_mp_write_time(&b, &t);
        cr_assert_eq(b.len, cases[i].len, "%lld: %zu bytes", (long long)cases[i].sec, b.len);
        cr_assert_eq(b.data[0], cases[i].tag, "%lld", (long long)cases[i].sec);
        cr_assert_eq(b.data[b.len == 15 ? 2 : 1], 0xff, "ext type -1");
        tagc_mp_dec d;
        tagc_error err;
        tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
        cr_assert_eq(tagc_mp_read_time(&d, &r), 0, "%s", err.message);
        cr_assert(tagc_time_equal(&t, &r), "%lld", (long long)cases[i].sec);
        tagc_buf_free(&b);
    }
    /* the offset is not carried: the same instant comes back in UTC */
    tagc_time t = tagc_time_from_unix(1000, 5, 120), r;
    tagc_buf b;
    tagc_buf_init(&b);
    tagc_mp_write_time(&b, &t);
    tagc_mp_dec d;
    tagc_error err;
    tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_time(&d, &r), 0);
    cr_assert(r.sec == t.sec && r.nsec == 5 && r.offset_min == 0);
    /* nanoseconds out of range: cannot be encoded; in a timestamp 64: rejected */
    tagc_buf_reset(&b);
    t.nsec = 1000000000;
    tagc_mp_write_time(&b, &t);
    cr_assert_eq(b.err, TAGC_E_INVALID);
    static const uint8_t bad[] = {0xd7, 0xff, 0xff, 0xff, 0xff, 0xfc, 0, 0, 0, 0}; /* nsec 2^30-1 */
    tagc_mp_dec_init(&d, bad, sizeof bad, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_time(&d, &r), TAGC_E_RANGE);
    static const uint8_t other[] = {0xd6, 0x05, 0, 0, 0, 0}; /* ext 5 */
    tagc_mp_dec_init(&d, other, sizeof other, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_time(&d, &r), TAGC_E_TYPE);
    /* ext 13 (NodeJS's timestamps), which vmihailenco v5.4.1 reads as time.Time */
    static const uint8_t node[] = {0xd6, 0x0d, 0x65, 0xa5, 0x09, 0x28};
    tagc_mp_dec_init(&d, node, sizeof node, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_time(&d, &r), 0, "%s", err.message);
    cr_assert(r.sec == tagc_time_from_unix(0x65a50928, 0, 0).sec && r.nsec == 0);
    static const uint8_t len3[] = {0xc7, 0x03, 0xff, 0, 0, 0};
    tagc_mp_dec_init(&d, len3, sizeof len3, NULL, &err, NULL);
    cr_assert_eq(tagc_mp_read_time(&d, &r), TAGC_E_TYPE);
    tagc_buf_free(&b);
}

Test(format, ext)
{
    static const struct { size_t n; uint8_t tag; size_t head; } cases[] = {
        {1, 0xd4, 2}, {2, 0xd5, 2}, {4, 0xd6, 2}, {8, 0xd7, 2}, {16, 0xd8, 2},
        {0, 0xc7, 3}, {3, 0xc7, 3}, {255, 0xc7, 3}, {256, 0xc8, 4}, {65535, 0xc8, 4}, {65536, 0xc9, 6},
    };
    uint8_t *data = calloc(1, 70000);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tagc_buf b;
        tagc_buf_init(&b);
        tagc_mp_write_ext(&b, 42, data, cases[i].n);
        cr_assert_eq(b.len, cases[i].head + cases[i].n);
        cr_assert_eq(b.data[0], cases[i].tag);
        cr_assert_eq(b.data[cases[i].head - 1], 42);
        tagc_mp_dec d;
        tagc_error err;
        tagc_mp_dec_init(&d, b.data, b.len, NULL, &err, NULL);
        cr_assert_eq(tagc_mp_dec_finish(&d, tagc_mp_skip(&d)), 0);
        tagc_buf_free(&b);
    }
    free(data);
}

/* MARK: - Reading every format into fields */

/* Decodes {key: <value bytes>} as sink_scalars; returns rc, fills *out and err. */
static int scalars_with(const char *key, const uint8_t *val, size_t n, sink_scalars *out, tagc_error *err)
{
    mb b = {0};
    mb_byte(&b, 0x81);
    mb_str(&b, key);
    mb_put(&b, val, n);
    tagc_arena a;
    tagc_arena_init(&a);
    int rc = sink_scalars_decode_msgpack(out, b.p, b.len, &a, err);
    tagc_arena_free(&a);
    mb_free(&b);
    return rc;
}

/* An integer of -2^63 .. 2^64-1 on every target (no __int128 on 32-bit ones):
 * a sign and a magnitude; zero is never negative. */
typedef struct wide {
    bool neg;
    uint64_t mag;
} wide;

static wide wide_s(int64_t v)
{
    return v < 0 ? (wide){true, (uint64_t)0 - (uint64_t)v} : (wide){false, (uint64_t)v};
}

static wide wide_u(uint64_t v)
{
    return (wide){false, v};
}

/* -1, 0, 1 as a < b, a == b, a > b */
static int wide_cmp(wide a, wide b)
{
    if (a.neg != b.neg)
        return a.neg ? -1 : 1;
    int c = a.mag < b.mag ? -1 : a.mag > b.mag;
    return a.neg ? -c : c;
}

static bool wide_in(wide v, wide lo, wide hi)
{
    return wide_cmp(v, lo) >= 0 && wide_cmp(v, hi) <= 0;
}

/* v + d for d = -1 or 1, within the range above */
static wide wide_add(wide v, int d)
{
    if (v.mag == 0)
        return d < 0 ? (wide){true, 1} : (wide){false, 1};
    if (v.neg == (d < 0))
        return (wide){v.neg, v.mag + 1};
    v.mag--;
    if (v.mag == 0)
        v.neg = false;
    return v;
}

static wide wide_neg(wide v)
{
    return (wide){v.mag != 0 && !v.neg, v.mag};
}

/* The two's complement bits of v (what a format of 8 bytes or fewer holds). */
static uint64_t wide_bits(wide v)
{
    return v.neg ? (uint64_t)0 - v.mag : v.mag;
}

/* Every way to write v: each integer format that can hold it. */
static size_t int_forms(wide v, uint8_t forms[][9], size_t *lens)
{
    size_t k = 0;
    uint64_t bits = wide_bits(v);
#define FORM(tag, n)                                              \
    do {                                                          \
        forms[k][0] = tag;                                        \
        for (int i = 0; i < n; i++)                               \
            forms[k][1 + i] = (uint8_t)(bits >> (8 * (n - 1 - i))); \
        lens[k++] = 1 + n;                                        \
    } while (0)
#define IN(lo, hi) wide_in(v, lo, hi)
    if (IN(wide_u(0), wide_u(127))) {
        forms[k][0] = (uint8_t)bits;
        lens[k++] = 1;
    }
    if (IN(wide_s(-32), wide_s(-1))) {
        forms[k][0] = (uint8_t)bits;
        lens[k++] = 1;
    }
    if (IN(wide_u(0), wide_u(UINT8_MAX))) FORM(0xcc, 1);
    if (IN(wide_u(0), wide_u(UINT16_MAX))) FORM(0xcd, 2);
    if (IN(wide_u(0), wide_u(UINT32_MAX))) FORM(0xce, 4);
    if (IN(wide_u(0), wide_u(UINT64_MAX))) FORM(0xcf, 8);
    if (IN(wide_s(INT8_MIN), wide_s(INT8_MAX))) FORM(0xd0, 1);
    if (IN(wide_s(INT16_MIN), wide_s(INT16_MAX))) FORM(0xd1, 2);
    if (IN(wide_s(INT32_MIN), wide_s(INT32_MAX))) FORM(0xd2, 4);
    if (IN(wide_s(INT64_MIN), wide_s(INT64_MAX))) FORM(0xd3, 8);
#undef IN
#undef FORM
    return k;
}

typedef struct int_field {
    const char *key;
    bool is_signed;
    uint64_t max;       /* the field's range: [-max-1, max] or [0, max] */
} int_field;

Test(read, every_integer_format_into_every_width)
{
    static const int_field fields[] = {
        {"i8", true, INT8_MAX}, {"i16", true, INT16_MAX}, {"i32", true, INT32_MAX},
        {"i64", true, INT64_MAX}, {"i", true, INT64_MAX}, {"r", true, INT32_MAX},
        {"u8", false, UINT8_MAX}, {"by", false, UINT8_MAX}, {"u16", false, UINT16_MAX},
        {"u32", false, UINT32_MAX}, {"u64", false, UINT64_MAX}, {"u", false, UINT64_MAX},
    };
    /* each boundary, and one either side */
    static const uint64_t base[] = {0, 1, 31, 32, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
                                    2147483647LL, 2147483648LL, 4294967295LL, 4294967296LL,
                                    9223372036854775807LL};
    wide values[200];
    size_t nv = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        values[nv++] = wide_u(base[i]);
        values[nv++] = wide_add(wide_u(base[i]), 1);
        values[nv++] = wide_neg(wide_u(base[i]));
        values[nv++] = wide_add(wide_neg(wide_u(base[i])), -1);
    }
    values[nv++] = wide_u(UINT64_MAX);
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        wide lo = fields[f].is_signed ? (wide){true, fields[f].max + 1} : wide_u(0);
        wide hi = wide_u(fields[f].max);
        for (size_t i = 0; i < nv; i++) {
            wide v = values[i];
            uint8_t forms[10][9];
            size_t lens[10];
            size_t nf = int_forms(v, forms, lens);
            for (size_t k = 0; k < nf; k++) {
                sink_scalars s;
                tagc_error err;
                int rc = scalars_with(fields[f].key, forms[k], lens[k], &s, &err);
                bool fits = wide_in(v, lo, hi);
                cr_assert_eq(rc, fits ? 0 : TAGC_E_RANGE, "%s <- %s%llu (format 0x%02x): %d",
                             fields[f].key, v.neg ? "-" : "", (unsigned long long)v.mag,
                             forms[k][0], rc);
                if (!fits) {
                    cr_assert_eq(err.offset, 2 + strlen(fields[f].key), "offset of the value");
                    char path[16];
                    snprintf(path, sizeof path, "$.%s", fields[f].key);
                    cr_assert_str_eq(err.path, path);
                    continue;
                }
                wide got;
                if (!strcmp(fields[f].key, "i8")) got = wide_s(s.i8);
                else if (!strcmp(fields[f].key, "i16")) got = wide_s(s.i16);
                else if (!strcmp(fields[f].key, "i32")) got = wide_s(s.i32);
                else if (!strcmp(fields[f].key, "i64")) got = wide_s(s.i64);
                else if (!strcmp(fields[f].key, "i")) got = wide_s(s.i);
                else if (!strcmp(fields[f].key, "r")) got = wide_s(s.r);
                else if (!strcmp(fields[f].key, "u8")) got = wide_u(s.u8);
                else if (!strcmp(fields[f].key, "by")) got = wide_u(s.by);
                else if (!strcmp(fields[f].key, "u16")) got = wide_u(s.u16);
                else if (!strcmp(fields[f].key, "u32")) got = wide_u(s.u32);
                else if (!strcmp(fields[f].key, "u64")) got = wide_u(s.u64);
                else got = wide_u(s.u);
                cr_assert(wide_cmp(got, v) == 0, "%s <- %s%llu", fields[f].key, v.neg ? "-" : "",
                          (unsigned long long)v.mag);
            }
        }
    }
}

Test(read, wide_formats)
{
    /* str8/16/32 keys and values, bin8/16/32, array16/32, map16/32 */
    mb b = {0};
    mb_be(&b, 0xdf, 4, 4);                 /* map 32 of 4 */
    mb_be(&b, 0xd9, 3, 1);                 /* str 8 key */
    mb_put(&b, "i64", 3);
    mb_be(&b, 0xd3, 5, 8);                 /* int 64: 5 */
    mb_be(&b, 0xda, 1, 2);                 /* str 16 key */
    mb_put(&b, "s", 1);
    mb_be(&b, 0xdb, 2, 4);                 /* str 32 value */
    mb_put(&b, "ok", 2);
    mb_str(&b, "b");
    mb_byte(&b, 0xc3);
    mb_str(&b, "f64");
    mb_be(&b, 0xca, 0x40400000, 4);        /* float 32: 3 into a float64 field */
    sink_scalars s;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    cr_assert_eq(sink_scalars_decode_msgpack(&s, b.p, b.len, &a, &err), 0, "%s", err.message);
    cr_assert(s.i64 == 5 && s.s.len == 2 && !strcmp(s.s.ptr, "ok") && s.b && s.f64 == 3.0);
    mb_free(&b);

    /* bin 8/16/32 into []byte, and str into []byte */
    static const uint8_t heads[][5] = {{0xc4, 3}, {0xc5, 0, 3}, {0xc6, 0, 0, 0, 3}, {0xa3}};
    static const size_t hl[] = {2, 3, 5, 1};
    for (size_t i = 0; i < 4; i++) {
        sink_sink v;
        mb_byte(&b, 0x81);
        mb_str(&b, "blob");
        mb_put(&b, heads[i], hl[i]);
        mb_put(&b, "\x01\x02\x03", 3);
        cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), 0, "%s", err.message);
        cr_assert(v.blob.len == 3 && v.blob.ptr[2] == 3);
        mb_free(&b);
    }
    /* array 16/32 into a slice, map 16 into a map and a struct */
    for (int w = 0; w < 2; w++) {
        sink_sink v;
        mb_be(&b, 0xde, 2, 2);
        mb_str(&b, "list");
        if (w == 0)
            mb_be(&b, 0xdc, 2, 2);
        else
            mb_be(&b, 0xdd, 2, 4);
        mb_byte(&b, 0x01);
        mb_byte(&b, 0xff);
        mb_str(&b, "by_name");
        mb_be(&b, w == 0 ? 0xde : 0xdf, 1, w == 0 ? 2 : 4);
        mb_str(&b, "k");
        mb_byte(&b, 0x07);
        cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), 0, "%s", err.message);
        cr_assert(v.list.len == 2 && v.list.ptr[0] == 1 && v.list.ptr[1] == -1);
        cr_assert(v.by_name.len == 1 && v.by_name.vals[0] == 7);
        mb_free(&b);
    }
    tagc_arena_free(&a);
}

Test(read, nil)
{
    /* nil into pointer, slice, map, any, []byte, raw: nil; into a scalar: unchanged (zero) */
    static const char *keys[] = {"child", "list", "by_name", "iface", "blob", "raw", "id", "when",
                                 "scalars", "fixed", "score", "color"};
    mb b = {0};
    mb_byte(&b, (uint8_t)(0x80 | (sizeof keys / sizeof keys[0])));
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        mb_str(&b, keys[i]);
        mb_byte(&b, 0xc0);
    }
    sink_sink v, zero;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), 0, "%s", err.message);
    cr_assert(sink_sink_equal(&v, &zero));
    mb_free(&b);
    tagc_arena_free(&a);
}

Test(read, unknown_keys_skipped)
{
    /* every kind of value under an unknown key, ext and fixext included */
    mb b = {0};
    mb_be(&b, 0xde, 12, 2);
    mb_str(&b, "amount");
    mb_byte(&b, 0x05);
    static const uint8_t fixexts[] = {0xd4, 0xd5, 0xd6, 0xd7, 0xd8};
    for (int i = 0; i < 5; i++) {
        mb_str(&b, "x");
        mb_byte(&b, fixexts[i]);
        mb_byte(&b, 7);
        for (int j = 0; j < (1 << i); j++)
            mb_byte(&b, 0xee);
    }
    mb_str(&b, "e8");
    mb_be(&b, 0xc7, 2, 1);
    mb_put(&b, "\x07zz", 3);
    mb_str(&b, "e16");
    mb_be(&b, 0xc8, 1, 2);
    mb_put(&b, "\x07z", 2);
    mb_str(&b, "e32");
    mb_be(&b, 0xc9, 0, 4);
    mb_byte(&b, 0x07);
    mb_str(&b, "nest");
    mb_put(&b, "\x92\x81\xa1k\x91\xc0\xcb\0\0\0\0\0\0\0\0", 15);
    mb_str(&b, "bin");
    mb_put(&b, "\xc4\x01z", 3);
    mb_str(&b, "currency");
    mb_str(&b, "EUR");
    sink_money m;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    cr_assert_eq(sink_money_decode_msgpack(&m, b.p, b.len, &a, &err), 0, "%s at %zu", err.message, err.offset);
    cr_assert(m.amount == 5 && !strcmp(m.currency.ptr, "EUR"));
    /* strict: the first unknown key is an error */
    tagc_json_opts strict = {.strict = true};
    cr_assert_eq(sink_money_decode_msgpack_opts(&m, b.p, b.len, &a, &err, &strict), TAGC_E_UNKNOWN_KEY);
    cr_assert(strstr(err.message, "\"x\"") != NULL, "%s", err.message);
    mb_free(&b);
    tagc_arena_free(&a);
}

Test(read, strict)
{
    tagc_json_opts strict = {.strict = true};
    sink_money m;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    mb b = {0};
    mb_byte(&b, 0x81);
    mb_str(&b, "amount");
    mb_byte(&b, 1);
    cr_assert_eq(sink_money_decode_msgpack(&m, b.p, b.len, &a, &err), 0);
    cr_assert_eq(sink_money_decode_msgpack_opts(&m, b.p, b.len, &a, &err, &strict), TAGC_E_MISSING);
    cr_assert(strstr(err.message, "currency") != NULL, "%s", err.message);
    mb_free(&b);
    mb_byte(&b, 0x83);
    mb_str(&b, "amount");
    mb_byte(&b, 1);
    mb_str(&b, "currency");
    mb_str(&b, "A");
    mb_str(&b, "amount");
    mb_byte(&b, 2);
    cr_assert_eq(sink_money_decode_msgpack(&m, b.p, b.len, &a, &err), 0);
    cr_assert_eq(m.amount, 2, "the last of a repeated key wins");
    cr_assert_eq(sink_money_decode_msgpack_opts(&m, b.p, b.len, &a, &err, &strict), TAGC_E_DUP_KEY);
    mb_free(&b);
    tagc_arena_free(&a);
}

Test(read, maps_with_integer_and_enum_keys)
{
    /* integer keys: written as their decimal text; read from text or any integer format */
    sink_sink v;
    mb b = {0};
    mb_byte(&b, 0x83);
    mb_str(&b, "by_id");
    mb_byte(&b, 0x83);
    mb_byte(&b, 0xff); /* -1 */
    mb_str(&b, "a");
    mb_be(&b, 0xcf, 9223372036854775807ULL, 8);
    mb_str(&b, "b");
    mb_str(&b, "-9223372036854775808");
    mb_str(&b, "c");
    mb_str(&b, "by_color");
    mb_byte(&b, 0x81);
    mb_str(&b, "blue");
    mb_byte(&b, 0x90);
    mb_str(&b, "by_level");
    mb_byte(&b, 0x81);
    mb_be(&b, 0xd0, 12, 1);
    mb_byte(&b, 0xc3);
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), 0, "%s", err.message);
    cr_assert(v.by_id.len == 3 && v.by_id.keys[0] == -1 && v.by_id.keys[1] == INT64_MAX &&
              v.by_id.keys[2] == INT64_MIN);
    cr_assert(v.by_color.len == 1 && v.by_color.keys[0] == SINK_COLOR_BLUE && v.by_color.vals[0].len == 0 &&
              v.by_color.vals[0].ptr != NULL);
    cr_assert(v.by_level.len == 1 && v.by_level.keys[0] == SINK_PRIORITY_URGENT && v.by_level.vals[0]);
    mb_free(&b);
    /* a key out of range, an unknown enum name: errors with the path */
    mb_byte(&b, 0x81);
    mb_str(&b, "by_level");
    mb_byte(&b, 0x81);
    mb_be(&b, 0xce, 1u << 31, 4);
    mb_byte(&b, 0xc3);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), TAGC_E_RANGE);
    cr_assert_str_eq(err.path, "$.by_level[0]");
    mb_free(&b);
    mb_byte(&b, 0x81);
    mb_str(&b, "by_color");
    mb_byte(&b, 0x81);
    mb_str(&b, "mauve");
    mb_byte(&b, 0xc0);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), TAGC_E_ENUM);
    cr_assert_str_eq(err.path, "$.by_color.mauve");
    cr_assert_eq(err.offset, 11);
    mb_free(&b);
    tagc_arena_free(&a);
}

Test(read, any_and_raw)
{
    /* MessagePack that Python might write: integer map keys (in a RawMessage), bin,
     * timestamps, float 32 */
    mb b = {0};
    mb_byte(&b, 0x82);
    mb_str(&b, "iface");
    mb_byte(&b, 0x84);
    mb_str(&b, "1");
    mb_str(&b, "one");
    mb_str(&b, "bin");
    mb_put(&b, "\xc4\x02hi", 4);
    mb_str(&b, "t");
    mb_put(&b, "\xd6\xff\x00\x00\x00\x00", 6);
    mb_str(&b, "f");
    mb_put(&b, "\xca\x3f\xc0\x00\x00", 5);
    mb_str(&b, "raw");
    mb_byte(&b, 0x84);
    mb_byte(&b, 0x01);
    mb_str(&b, "one");
    mb_str(&b, "bin");
    mb_put(&b, "\xc4\x02hi", 4);
    mb_str(&b, "t");
    mb_put(&b, "\xd6\xff\x00\x00\x00\x00", 6);
    mb_str(&b, "a");
    mb_put(&b, "\x93\xc0\xc2\xd0\x80", 5);
    sink_sink v;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), 0, "%s", err.message);
    cr_assert_str_eq(v.raw.ptr, "{\"1\":\"one\",\"bin\":\"aGk=\",\"t\":\"1970-01-01T00:00:00Z\",\"a\":[null,false,-128]}");
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_json_opts unsorted = {.unsorted_maps = true};
    tagc_json_write_any(&out, v.iface, &unsorted);
    cr_assert(out.len == 57 && !memcmp(out.data, "{\"1\":\"one\",\"bin\":\"hi\",\"t\":\"1970-01-01T00:00:00Z\",\"f\":1.5}", 57),
              "%.*s", (int)out.len, out.data);
    /* raw re-encoded: a bin of its JSON text (vmihailenco/msgpack's RawMessage);
     * tagc_mp_write_raw_value gives the MessagePack of its JSON */
    tagc_buf_reset(&out);
    tagc_mp_write_raw(&out, &v.raw);
    cr_assert_eq(out.err, 0);
    cr_assert(out.data[0] == 0xc4 && out.data[1] == v.raw.len && !memcmp(out.data + 2, v.raw.ptr, v.raw.len));
    tagc_buf_reset(&out);
    tagc_mp_write_raw_value(&out, &v.raw);
    cr_assert_eq(out.err, 0);
    cr_assert_eq(out.data[0], 0x84);
    /* a bin that is not JSON is no json.RawMessage, at the bin's offset */
    mb_free(&b);
    mb_byte(&b, 0x81);
    mb_str(&b, "raw");
    mb_put(&b, "\xc4\x03{1}", 5);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), TAGC_E_INVALID);
    cr_assert_eq(err.offset, 5);
    cr_assert_str_eq(err.path, "$.raw");
    tagc_buf_free(&out);
    /* an integer key in an interface{} map: vmihailenco's map[string]interface{}
     * rejects it, so does tagc, at the key */
    mb_free(&b);
    mb_byte(&b, 0x81);
    mb_str(&b, "iface");
    mb_put(&b, "\x81\x01\xa3one", 6);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), TAGC_E_TYPE);
    cr_assert_eq(err.offset, 8);
    cr_assert_str_eq(err.path, "$.iface");
    /* an ext other than a timestamp has no interface{} form */
    mb_free(&b);
    mb_byte(&b, 0x81);
    mb_str(&b, "iface");
    mb_put(&b, "\x91\xd4\x05\x00", 4);
    cr_assert_eq(sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err), TAGC_E_TYPE);
    cr_assert_str_eq(err.path, "$.iface[0]");
    cr_assert_eq(err.offset, 8);
    mb_free(&b);
    tagc_arena_free(&a);
}

/* MARK: - Encoding failures */

Test(write, failures_leave_nothing)
{
    sink_sink v;
    tagc_buf out;
    memset(&v, 0, sizeof v);
    tagc_buf_init(&out);
    tagc_buf_put(&out, "keep", 4);
    v.color = (sink_color)99;
    cr_assert_eq(sink_sink_encode_msgpack(&v, &out), TAGC_E_INVALID);
    cr_assert_eq(out.len, 4);
    tagc_buf_free(&out);
    tagc_buf_init(&out);
    v.color = SINK_COLOR_RED;
    v.when.nsec = -1;
    cr_assert_eq(sink_sink_encode_msgpack(&v, &out), TAGC_E_INVALID);
    cr_assert_eq(out.len, 0);
    v.when.nsec = 0;
    static char bad[] = "{\"a\":";
    v.raw.ptr = bad;
    v.raw.len = 5;
    cr_assert_eq(sink_sink_encode_msgpack(&v, &out), TAGC_E_INVALID, "raw that is not JSON");
    tagc_buf_free(&out);
}

/* MARK: - Fixed buffers */

#define CANARY 0xa5
#define GUARD 1024 /* bytes past cap checked untouched */

/*
 * Encodes v into a fixed buffer of every size from 0 to want->len + 16 after a
 * 3-byte prefix (every step-th size between the first and last 1024 when step
 * > 1). Enough room: want's bytes. Less: TAGC_E_FULL, or `late` once n >=
 * late_at (a value that cannot be encoded, reached when the bytes before it
 * fit), with the buffer cut back to the prefix. Never a byte past cap.
 */
static void fixed_sizes(const codec *c, const void *v, const tagc_buf *want, int late,
                        size_t late_at, size_t step)
{
    size_t top = want->len + 16;
    uint8_t *mem = malloc(3 + top + GUARD);
    cr_assert_not_null(mem);
    for (size_t n = 0; n <= top; n += (n < 1024 || n + 1024 >= want->len) ? 1 : step) {
        size_t cap = 3 + n, end = 3 + top + GUARD;
        size_t guard_end = cap + GUARD < end ? cap + GUARD : end;
        memset(mem + cap, CANARY, guard_end - cap);
        tagc_buf b;
        tagc_buf_init_fixed(&b, mem, cap);
        tagc_buf_put(&b, "pre", 3);
        int rc = c->encode_mp(v, &b);
        if (late == 0 && n >= want->len) {
            cr_assert_eq(rc, 0, "%s in %zu bytes: %d", c->name, n, rc);
            cr_assert_eq(b.len, cap - n + want->len, "%s in %zu bytes", c->name, n);
            cr_assert(memcmp(mem + 3, want->data, want->len) == 0, "%s in %zu bytes: other bytes",
                      c->name, n);
        } else {
            int code = late != 0 && n >= late_at ? late : TAGC_E_FULL;
            cr_assert_eq(rc, code, "%s in %zu of %zu bytes: %d, not %d", c->name, n, want->len, rc, code);
            cr_assert_eq(b.err, code);
            cr_assert_eq(b.len, 3, "%s in %zu bytes: cut back to the prefix", c->name, n);
        }
        cr_assert(memcmp(mem, "pre", 3) == 0);
        cr_assert_null(b.spill, "%s in %zu bytes: spill left", c->name, n);
        for (size_t i = cap; i < guard_end; i++)
            cr_assert_eq(mem[i], CANARY, "%s in %zu bytes: byte %zu past cap written", c->name, n, i - cap);
    }
    free(mem);
}

/* A document decoded from JSON, and its MessagePack in a growable buffer. */
typedef struct doc {
    const codec *c;
    void *v;
    tagc_arena a;
    tagc_buf mp;
} doc;

static void doc_load(doc *d, const char *type, const char *env, const char *rel)
{
    size_t len;
    char *json = load(env, rel, &len);
    tagc_error err;
    d->c = find_codec(type);
    d->v = calloc(1, d->c->size);
    tagc_arena_init(&d->a);
    tagc_buf_init(&d->mp);
    cr_assert_eq(d->c->decode_json(d->v, json, len, &d->a, &err), 0, "%s: %s", rel, err.message);
    cr_assert_eq(d->c->encode_mp(d->v, &d->mp), 0);
    free(json);
}

static void doc_free(doc *d)
{
    tagc_buf_free(&d->mp);
    tagc_arena_free(&d->a);
    free(d->v);
}

static void fixed_sizes_of(const char *type, const char *env, const char *rel, size_t step)
{
    doc d;
    doc_load(&d, type, env, rel);
    fixed_sizes(d.c, d.v, &d.mp, 0, 0, step);
    doc_free(&d);
}

Test(fixed, every_size_of_every_workload, .timeout = 600)
{
    fixed_sizes_of("user_user", "TAGC_DATA_DIR", "seedwork/user.json", 1);
    fixed_sizes_of("order_order", "TAGC_DATA_DIR", "seedwork/order.json", 1);
    fixed_sizes_of("tree_node", "TAGC_DATA_DIR", "seedwork/tree.json", 1);
    fixed_sizes_of("sink_sink", "TAGC_MSGPACK_TEST_DIR", "sink.json", 1);
    fixed_sizes_of("twitter_search_result", "TAGC_DATA_DIR", "bench/twitter.json", 211);
    fixed_sizes_of("canada_feature_collection", "TAGC_DATA_DIR", "bench/canada.json", 4099);
    fixed_sizes_of("citm_catalog", "TAGC_DATA_DIR", "bench/citm_catalog.json", 1009);
}

Test(fixed, every_size_of_every_zero_value)
{
    for (size_t i = 0; i < N_CODECS; i++) {
        const codec *c = &all_codecs[i];
        void *v = calloc(1, c->size);
        tagc_buf want;
        c->init(v);
        tagc_buf_init(&want);
        cr_assert_eq(c->encode_mp(v, &want), 0, "%s", c->name);
        fixed_sizes(c, v, &want, 0, 0, 1);
        tagc_buf_free(&want);
        free(v);
    }
}

/* The offset just after the first copy of key (a str of plain bytes) in m. */
static size_t after_key(const tagc_buf *m, const char *key)
{
    uint8_t enc[32];
    size_t n = strlen(key);
    enc[0] = (uint8_t)(0xa0 | n);
    memcpy(enc + 1, key, n);
    for (size_t i = 0; i + n + 1 <= m->len; i++)
        if (memcmp(m->data + i, enc, n + 1) == 0)
            return i + n + 1;
    cr_assert_fail("no key %s", key);
    return 0;
}

Test(fixed, a_time_that_cannot_be_encoded_after_the_bytes_before_it)
{
    /* writing one value at a time: TAGC_E_FULL while the bytes before the time do
     * not fit, then TAGC_E_INVALID; in a run of its own and after a string */
    doc d;
    doc_load(&d, "sink_sink", "TAGC_MSGPACK_TEST_DIR", "sink.json");
    sink_sink *v = d.v;
    cr_assert_not_null(v->audit);
    v->when.nsec = -1;
    fixed_sizes(d.c, v, &d.mp, TAGC_E_INVALID, after_key(&d.mp, "when"), 1);
    v->when.nsec = 0;
    v->audit->created_at.nsec = 1000000000;
    fixed_sizes(d.c, v, &d.mp, TAGC_E_INVALID, after_key(&d.mp, "created_at"), 1);
    doc_free(&d);
}

Test(fixed, a_nil_string_pointer_counts_no_bytes)
{
    /* a *string that is not set but keeps a long value: nil is written, and an
     * exact-size buffer still takes the document */
    doc d;
    doc_load(&d, "twitter_search_result", "TAGC_DATA_DIR", "bench/twitter.json");
    twitter_search_result *v = d.v;
    size_t long_len = 2 * d.mp.len;
    char *stale = calloc(1, long_len);
    cr_assert(v->statuses.len > 0);
    for (size_t i = 0; i < v->statuses.len; i++) {
        twitter_status *s = &v->statuses.ptr[i];
        if (s->has_in_reply_to_screen_name)
            continue;
        s->in_reply_to_screen_name.ptr = stale;
        s->in_reply_to_screen_name.len = long_len;
    }
    uint8_t *mem = malloc(d.mp.len);
    tagc_buf b;
    tagc_buf_init_fixed(&b, mem, d.mp.len);
    cr_assert_eq(d.c->encode_mp(v, &b), 0);
    cr_assert(b.len == d.mp.len && memcmp(mem, d.mp.data, b.len) == 0);
    free(mem);
    free(stale);
    doc_free(&d);
}

Test(write, omitempty_and_names)
{
    /* renamed: msgpack:"r,omitempty"; json_only: msgpack:"-"; mp_only: msgpack only */
    sink_sink v;
    memset(&v, 0, sizeof v);
    tagc_buf out, with;
    tagc_buf_init(&out);
    tagc_buf_init(&with);
    cr_assert_eq(sink_sink_encode_msgpack(&v, &out), 0);
    v.renamed.ptr = (char *)"R";
    v.renamed.len = 1;
    v.json_only.ptr = (char *)"J";
    v.json_only.len = 1;
    cr_assert_eq(sink_sink_encode_msgpack(&v, &with), 0);
    cr_assert_eq(with.len, out.len + 4, "\\xa1r\\xa1R added");
    cr_assert(contains(with.data, with.len, "\xa1r\xa1R", 4));
    cr_assert(!contains(with.data, with.len, "json_only", 9));
    cr_assert(contains(with.data, with.len, "\xa7mp_only", 8));
    tagc_buf_free(&out);
    tagc_buf_free(&with);
}

/* MARK: - Hostile input */

/* The MessagePack of a workload document. */
static void encoded(const char *type, const char *env, const char *rel, tagc_buf *out)
{
    const codec *c = find_codec(type);
    size_t len;
    char *json = load(env, rel, &len);
    void *v = calloc(1, c->size);
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    tagc_buf_init(out);
    cr_assert_eq(c->decode_json(v, json, len, &a, &err), 0);
    cr_assert_eq(c->encode_mp(v, out), 0);
    tagc_arena_free(&a);
    free(v);
    free(json);
}

static void truncations(const char *type, const char *env, const char *rel, size_t step)
{
    const codec *c = find_codec(type);
    tagc_buf m;
    encoded(type, env, rel, &m);
    void *v = calloc(1, c->size);
    tagc_arena a;
    tagc_arena_init(&a);
    for (size_t n = 0; n < m.len; n += (n + step < m.len ? step : 1)) {
        tagc_error err;
        /* a copy of exactly n bytes, so that ASan sees any read past the end */
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, m.data, n);
        int rc = c->decode_mp(v, cut, n, &a, &err, NULL);
        cr_assert_eq(rc, TAGC_E_EOF, "%s cut at %zu: %d %s", type, n, rc, err.message);
        cr_assert_eq(err.code, TAGC_E_EOF);
        cr_assert(err.offset <= n, "%s cut at %zu: offset %zu", type, n, err.offset);
        cr_assert_eq(err.path[0], '$');
        cr_assert(c->equal(v, v));
        free(cut);
        tagc_arena_reset(&a);
    }
    tagc_arena_free(&a);
    tagc_buf_free(&m);
    free(v);
}

Test(hostile, truncation_at_every_offset)
{
    truncations("user_user", "TAGC_DATA_DIR", "seedwork/user.json", 1);
    truncations("order_order", "TAGC_DATA_DIR", "seedwork/order.json", 1);
    truncations("sink_sink", "TAGC_MSGPACK_TEST_DIR", "sink.json", 1);
    truncations("tree_node", "TAGC_DATA_DIR", "seedwork/tree.json", 7);
}

typedef struct claim_case {
    const char *key;
    uint8_t head[6];
    size_t head_len;
} claim_case;

Test(hostile, lengths_claiming_more_than_the_input)
{
    static const claim_case cases[] = {
        {"s", {0xdb, 0xff, 0xff, 0xff, 0xff}, 5},      /* str 32 */
        {"s", {0xda, 0xff, 0xff}, 3},                  /* str 16 */
        {"s", {0xd9, 0xff}, 2},                        /* str 8 */
        {"s", {0xbf}, 1},                              /* fixstr */
        {"blob", {0xc6, 0xff, 0xff, 0xff, 0xff}, 5},   /* bin 32 */
        {"list", {0xdd, 0xff, 0xff, 0xff, 0xff}, 5},   /* array 32 */
        {"list", {0xdc, 0xff, 0xff}, 3},               /* array 16 */
        {"by_name", {0xdf, 0xff, 0xff, 0xff, 0xff}, 5}, /* map 32 */
        {"iface", {0xdd, 0xff, 0xff, 0xff, 0xff}, 5},  /* array 32 into interface{} */
        {"raw", {0xdf, 0xff, 0xff, 0xff, 0xff}, 5},    /* map 32 into json.RawMessage */
        {"zz", {0xc9, 0xff, 0xff, 0xff, 0xff, 0x01}, 6}, /* ext 32, skipped */
        {"when", {0xc9, 0xff, 0xff, 0xff, 0xff, 0xff}, 6}, /* ext 32 as a time */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mb b = {0};
        mb_byte(&b, 0x81);
        mb_str(&b, cases[i].key);
        size_t at = b.len;
        mb_put(&b, cases[i].head, cases[i].head_len);
        mb_put(&b, "\x01\x02\x03\x04", 4);
        sink_sink v;
        tagc_arena a;
        tagc_error err;
        tagc_arena_init_limit(&a, 1 << 20); /* nothing big may be allocated */
        int rc = sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err);
        cr_assert_eq(rc, TAGC_E_EOF, "case %zu: %d %s", i, rc, err.message);
        cr_assert_eq(err.offset, at, "case %zu: offset %zu", i, err.offset);
        if (strcmp(cases[i].key, "zz") != 0) {
            char path[32];
            snprintf(path, sizeof path, "$.%s", cases[i].key);
            cr_assert_str_eq(err.path, path);
        }
        cr_assert(strstr(err.message, "more than the input holds") != NULL, "%s", err.message);
        tagc_arena_free(&a);
        mb_free(&b);
    }
    /* a map claiming 2^32-1 pairs at the top */
    static const uint8_t top[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 'a', 0x01};
    user_user u;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init_limit(&a, 1 << 20);
    cr_assert_eq(user_user_decode_msgpack(&u, top, sizeof top, &a, &err), TAGC_E_EOF);
    cr_assert_eq(err.offset, 0);
    tagc_arena_free(&a);
}

/* n nested arrays (0x91 ... 0x90) under key `key` of a struct. */
static void bomb(mb *b, const char *key, size_t n)
{
    mb_byte(b, 0x81);
    mb_str(b, key);
    for (size_t i = 0; i < n; i++)
        mb_byte(b, 0x91);
    mb_byte(b, 0x90);
}

Test(hostile, nesting_bombs)
{
    static const char *keys[] = {"iface", "raw", "zz", "pairs"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        mb b = {0};
        bomb(&b, keys[i], 1000000);
        sink_sink v;
        tagc_arena a;
        tagc_error err;
        tagc_arena_init(&a);
        int rc = sink_sink_decode_msgpack(&v, b.p, b.len, &a, &err);
        cr_assert(rc == TAGC_E_DEPTH || (rc == TAGC_E_TYPE && !strcmp(keys[i], "pairs")), "%s: %d %s", keys[i],
                  rc, err.message);
        tagc_arena_free(&a);
        mb_free(&b);
    }
    /* a tree nested deeper than the limit; then within a lower limit it fails, above it passes */
    mb b = {0};
    size_t depth = 5000;
    for (size_t i = 0; i < depth; i++) {
        mb_byte(&b, 0x81);
        mb_str(&b, "children");
        mb_byte(&b, 0x91);
    }
    mb_byte(&b, 0x80);
    tree_node t;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    cr_assert_eq(tree_node_decode_msgpack(&t, b.p, b.len, &a, &err), TAGC_E_DEPTH);
    cr_assert(strncmp(err.path, "$.children[0].children[0]", 25) == 0, "%s", err.path);
    tagc_json_opts deep = {.max_depth = 20000};
    cr_assert_eq(tree_node_decode_msgpack_opts(&t, b.p, b.len, &a, &err, &deep), 0, "%s", err.message);
    tagc_json_opts shallow = {.max_depth = 3};
    cr_assert_eq(tree_node_decode_msgpack_opts(&t, b.p, b.len, &a, &err, &shallow), TAGC_E_DEPTH);
    tagc_arena_free(&a);
    mb_free(&b);
}

Test(hostile, wrong_types)
{
    user_user u;
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    mb b = {0};
    mb_byte(&b, 0x82);
    mb_str(&b, "id");
    mb_byte(&b, 1);
    mb_str(&b, "roles");
    mb_byte(&b, 0x92);
    mb_str(&b, "x");
    mb_byte(&b, 0x2a);
    cr_assert_eq(user_user_decode_msgpack(&u, b.p, b.len, &a, &err), TAGC_E_TYPE);
    cr_assert_str_eq(err.path, "$.roles[1]");
    cr_assert_eq(err.offset, b.len - 1);
    cr_assert_str_eq(err.message, "expected str, found integer");
    mb_free(&b);

    static const struct { const uint8_t *p; size_t n; int rc; size_t off; const char *path; } cases[] = {
        {(const uint8_t *)"\x91\x01", 2, TAGC_E_TYPE, 0, "$"},                   /* array for a struct */
        {(const uint8_t *)"\x81\x01\x01", 3, TAGC_E_TYPE, 1, "$"},               /* integer key */
        {(const uint8_t *)"\x81\xa2id\xa1x", 6, TAGC_E_TYPE, 4, "$.id"},         /* str for an int */
        {(const uint8_t *)"\x81\xa2id\xcb\0\0\0\0\0\0\0\0", 13, TAGC_E_TYPE, 4, "$.id"}, /* float */
        {(const uint8_t *)"\x81\xa2id\xc1", 5, TAGC_E_SYNTAX, 4, "$.id"},       /* never used */
        {(const uint8_t *)"\x81\xa2id\x01\x01", 6, TAGC_E_SYNTAX, 5, "$"},       /* trailing byte */
        {(const uint8_t *)"\x81\xa4meta\x81\xaa" "created_at\xa1x", 20, TAGC_E_TYPE, 18, "$.meta.created_at"},
        {(const uint8_t *)"\x81\xa4name\xc3", 7, TAGC_E_TYPE, 6, "$.name"},      /* bool for a string */
        {(const uint8_t *)"\x81\xa2zz\xc1", 5, TAGC_E_SYNTAX, 4, "$.zz"},       /* 0xc1 in a skipped value */
        {(const uint8_t *)"", 0, TAGC_E_EOF, 0, "$"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = user_user_decode_msgpack(&u, cases[i].p, cases[i].n, &a, &err);
        cr_assert_eq(rc, cases[i].rc, "case %zu: %d %s", i, rc, err.message);
        cr_assert_eq(err.offset, cases[i].off, "case %zu: offset %zu", i, err.offset);
        cr_assert_str_eq(err.path, cases[i].path, "case %zu", i);
        cr_assert(err.message[0] != 0);
    }
    tagc_arena_free(&a);
}

Test(hostile, random_mutations)
{
    tagc_buf m;
    encoded("sink_sink", "TAGC_MSGPACK_TEST_DIR", "sink.json", &m);
    uint64_t seed = 0x9e3779b97f4a7c15u;
    tagc_arena a;
    tagc_arena_init_limit(&a, 64 << 20);
    uint8_t *copy = malloc(m.len);
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(copy, m.data, m.len);
        int flips = 1 + iter % 4;
        for (int k = 0; k < flips; k++) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            copy[(seed >> 8) % m.len] = (uint8_t)seed;
        }
        sink_sink v;
        tagc_error err;
        int rc = sink_sink_decode_msgpack(&v, copy, m.len, &a, &err);
        if (rc != 0) {
            cr_assert(err.code == rc && err.offset <= m.len && err.path[0] == '$');
        } else {
            tagc_buf again;
            tagc_buf_init(&again);
            sink_sink_encode_msgpack(&v, &again); /* may fail (e.g. NaN in raw): must not crash */
            tagc_buf_free(&again);
        }
        tagc_arena_reset(&a);
    }
    free(copy);
    tagc_arena_free(&a);
    tagc_buf_free(&m);
}

/* MARK: - Key lookup */

/* tagc_mp_key_find against a linear scan: every name of a table sorted as the
 * generator sorts it (length, then bytes) is found, and near misses are not. */
Test(keys, binary_search_finds_every_name)
{
    static const char *names[] = {"id", "a", "b", "zz", "name", "Name", "nam", "names", "\xff", "\x01x",
                                  "field_01_of_type_0001", "field_02_of_type_0001",
                                  "a_name_of_exactly_thirty_two_by", "a_name_longer_than_thirty_two_bytes"};
    enum { N = sizeof names / sizeof names[0] };
    tagc_mp_key keys[N + 1];
    char enc[N][64];
    uint16_t sorted[N];
    for (size_t i = 0; i < N; i++) {
        size_t n = strlen(names[i]), h = n < 32 ? 1 : 2;
        enc[i][0] = (char)(n < 32 ? 0xa0 | n : 0xd9);
        enc[i][1] = (char)n; /* overwritten by the name for a fixstr */
        memcpy(enc[i] + h, names[i], n);
        keys[i].enc = enc[i];
        keys[i].len = h + n;
        sorted[i] = (uint16_t)i;
    }
    keys[N].enc = NULL;
    keys[N].len = 0;
    for (size_t i = 1; i < N; i++) /* insertion sort by (length, bytes) */
        for (size_t j = i; j > 0; j--) {
            const char *x = names[sorted[j - 1]], *y = names[sorted[j]];
            size_t lx = strlen(x), ly = strlen(y);
            if (lx < ly || (lx == ly && memcmp(x, y, lx) < 0))
                break;
            uint16_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(tagc_mp_key_find(keys, sorted, N, names[i], strlen(names[i])), (int)i, "%s", names[i]);
    static const char *misses[] = {"", "c", "ID", "nama", "namf", "field_01_of_type_0002", "\xfe", "zzz"};
    for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++)
        cr_assert_eq(tagc_mp_key_find(keys, sorted, N, misses[i], strlen(misses[i])), -1, "%s", misses[i]);
    cr_assert_eq(tagc_mp_key_find(keys, sorted, 0, "id", 2), -1);
}

Test(read, any_numbers_keep_their_format)
{
    /* vmihailenco decodes a number in an interface{} by its format (a fixint is
     * an int8, 0xcc..0xd3 uint8..int64, 0xca float32): tagc keeps the format, so
     * Go's bytes come back byte for byte, and 64-bit integers exactly */
    static const uint8_t doc[] = "\x81\xa5iface\x9a"
                                 "\x05\xfb\xd0\x05\xd1\x00\x05\xcc\xff\xcd\x01\x00"
                                 "\xcf\xff\xff\xff\xff\xff\xff\xff\xff"
                                 "\xd3\x80\x00\x00\x00\x00\x00\x00\x00"
                                 "\xca\x3f\xc0\x00\x00\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00";
    size_t n = sizeof doc - 1, head = 8; /* the array's elements start at 8 */
    sink_sink v;
    tagc_arena a;
    tagc_error err;
    tagc_buf out;
    tagc_arena_init(&a);
    tagc_buf_init(&out);
    cr_assert_eq(sink_sink_decode_msgpack(&v, doc, n, &a, &err), 0, "%s", err.message);
    cr_assert_eq(v.iface->u.arr.len, 10);
    cr_assert_eq(v.iface->u.arr.items[0]->kind, TAGC_ANY_MP_NUMBER);
    cr_assert_eq(v.iface->u.arr.items[9]->kind, TAGC_ANY_NUMBER, "a float 64 is a Go float64, as from JSON");
    tagc_mp_write_any(&out, v.iface);
    cr_assert(out.len == n - head + 1 && !memcmp(out.data + 1, doc + head, n - head), "the same bytes");
    tagc_buf_reset(&out);
    tagc_json_write_any(&out, v.iface, NULL);
    static const char js[] = "[5,-5,5,5,255,256,18446744073709551615,-9223372036854775808,1.5,1.5]";
    cr_assert(out.len == sizeof js - 1 && !memcmp(out.data, js, out.len), "%.*s", (int)out.len, out.data);
    /* equal when Go's values are: a fixint and an int 8 are both int8(5); an int 16 is not */
    tagc_any **x = v.iface->u.arr.items;
    cr_assert(tagc_any_equal(x[0], x[2]));
    cr_assert(!tagc_any_equal(x[2], x[3]));
    cr_assert(!tagc_any_equal(x[8], x[9]), "float32(1.5) is not float64(1.5) to Go either");
    cr_assert(!tagc_mp_any_empty(x[0]));
    tagc_buf_free(&out);
    tagc_arena_free(&a);
}
