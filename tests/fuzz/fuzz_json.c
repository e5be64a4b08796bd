/*
 * fuzz_json.c - a libFuzzer target for one generated JSON decoder (FUZZ_TYPE,
 * from FUZZ_HEADER). Any input must either decode, or fail with a sane error;
 * what decodes must encode, decode again to an equal value, and encode again
 * to the same bytes. Strict mode must never accept what default mode rejects.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include FUZZ_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define T FUZZ_TYPE
#define DECODE CAT(FUZZ_TYPE, _decode_json)
#define ENCODE CAT(FUZZ_TYPE, _encode_json)
#define EQUAL CAT(FUZZ_TYPE, _equal)

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_json: %s\n", what);
        abort();
    }
}

static void check_error(const tagc_error *err, size_t size)
{
    check(err->code < 0, "failure without a negative code");
    check(err->offset <= size, "error offset past the input");
    check(err->line >= 1 && err->column >= 1, "error without a line and column");
    check(err->path[0] == '$', "error path does not start at $");
    check(memchr(err->message, 0, sizeof err->message) != NULL, "message not terminated");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tagc_arena arena;
    tagc_error err;
    tagc_buf out, again;
    T v, w;
    const char *src = (const char *)data;
    const tagc_json_opts strict = {.strict = true};

    tagc_arena_init_limit(&arena, 256u << 20);
    tagc_buf_init(&out);
    tagc_buf_init(&again);

    int rc = DECODE(&v, src, size, &arena, &err, NULL);
    if (rc != 0) {
        check_error(&err, size);
        check(DECODE(&w, src, size, &arena, &err, &strict) != 0, "strict accepted what default rejected");
        check_error(&err, size);
    } else {
        /* v -> out -> w -> again -> x: the encoding is a fixed point, and so is the value
         * after one trip (not before: a nil RawMessage comes back as the text null, as in Go). */
        T x;
        check(ENCODE(&v, &out, NULL) == 0, "a decoded value did not encode");
        check(DECODE(&w, (const char *)out.data, out.len, &arena, &err, NULL) == 0,
              "the encoding of a decoded value did not decode");
        check(ENCODE(&w, &again, NULL) == 0, "second encode failed");
        check(again.len == out.len && memcmp(again.data, out.data, out.len) == 0,
              "encode(decode(encode(v))) != encode(v)");
        check(DECODE(&x, (const char *)again.data, again.len, &arena, &err, NULL) == 0, "third decode failed");
        check(EQUAL(&w, &x), "decode(encode(w)) != w");
        /* What the encoder writes is complete: strict mode takes it too. */
        check(DECODE(&x, (const char *)out.data, out.len, &arena, &err, &strict) == 0,
              "strict mode rejected tagc's own output");
    }
    tagc_buf_free(&out);
    tagc_buf_free(&again);
    tagc_arena_free(&arena);
    return 0;
}
