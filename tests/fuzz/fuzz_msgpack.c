/*
 * fuzz_msgpack.c - a libFuzzer target for one generated MessagePack decoder
 * (FUZZ_TYPE, from FUZZ_HEADER). Any input must decode or fail with a sane
 * error; what decodes must encode, and the encoding must be a fixed point.
 * Strict mode must never accept what default mode rejects.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include FUZZ_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define T FUZZ_TYPE
#define DECODE CAT(FUZZ_TYPE, _decode_msgpack_opts)
#define ENCODE CAT(FUZZ_TYPE, _encode_msgpack)
#define EQUAL CAT(FUZZ_TYPE, _equal)

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_msgpack: %s\n", what);
        abort();
    }
}

static void check_error(const tagc_error *err, size_t size)
{
    check(err->code < 0, "failure without a negative code");
    check(err->offset <= size, "error offset past the input");
    check(err->path[0] == '$', "error path does not start at $");
    check(memchr(err->message, 0, sizeof err->message) != NULL, "message not terminated");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tagc_arena arena;
    tagc_error err;
    tagc_buf out, again;
    T v, w, x;
    const tagc_json_opts strict = {.strict = true};

    tagc_arena_init_limit(&arena, 256u << 20);
    tagc_buf_init(&out);
    tagc_buf_init(&again);
    if (DECODE(&v, data, size, &arena, &err, NULL) != 0) {
        check_error(&err, size);
        check(DECODE(&w, data, size, &arena, &err, &strict) != 0, "strict accepted what default rejected");
    } else {
        check(ENCODE(&v, &out) == 0, "a decoded value did not encode");
        check(DECODE(&w, out.data, out.len, &arena, &err, NULL) == 0, "the encoding did not decode");
        check(ENCODE(&w, &again) == 0, "second encode failed");
        check(again.len == out.len && memcmp(again.data, out.data, out.len) == 0,
              "encode(decode(encode(v))) != encode(v)");
        check(DECODE(&x, again.data, again.len, &arena, &err, NULL) == 0, "third decode failed");
        check(EQUAL(&w, &x), "decode(encode(w)) != w");
    }
    tagc_buf_free(&out);
    tagc_buf_free(&again);
    tagc_arena_free(&arena);
    return 0;
}
