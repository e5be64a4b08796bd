/*
 * fuzz_validate.c - a libFuzzer target for `tagc validate`'s interpreter
 * (compiler/tools/validate.c) on kitchen_sink.tagc's Sink, against the generated
 * decoder it must agree with. The first input byte picks the mode (bit 0:
 * MessagePack, else JSON; bit 1: strict; bit 2, MessagePack: a prefix, bytes
 * after the value allowed), the rest is the document. Both must accept or both
 * reject, with the same error code and offset.
 */
#include "validate.h"
#include "kitchen_sink.tagc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_SCHEMA
#error "FUZZ_SCHEMA: the path of schemas/kitchen_sink.tagc"
#endif

static validator *val;

static void check(int ok, const char *what, int a, int b)
{
    if (!ok) {
        fprintf(stderr, "fuzz_validate: %s (validate %d, generated %d)\n", what, a, b);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!val && validator_open(&val, FUZZ_SCHEMA, "Sink", GO_DEFAULT, false, stderr) != 0)
        abort();
    if (size == 0)
        return 0;
    unsigned mode = data[0];
    data++, size--;
    tagc_json_opts opts = {.strict = (mode & 2) != 0};
    tagc_arena arena;
    tagc_arena_init_limit(&arena, 64u << 20);
    tagc_error e1, e2;
    sink_sink v;
    int r1, r2;
    if (mode & 1) {
        size_t used1 = 0, used2 = 0;
        bool prefix = (mode & 4) != 0;
        r1 = validator_msgpack(val, data, size, &arena, &e1, &opts, prefix ? &used1 : NULL);
        tagc_arena_reset(&arena);
        r2 = prefix ? sink_sink_decode_msgpack_prefix(&v, data, size, &used2, &arena, &e2, &opts)
                    : sink_sink_decode_msgpack_opts(&v, data, size, &arena, &e2, &opts);
        if (r1 == 0 && r2 == 0)
            check(used1 == used2, "prefix lengths differ", (int)used1, (int)used2);
    } else {
        r1 = validator_json(val, (const char *)data, size, &arena, &e1, &opts);
        tagc_arena_reset(&arena);
        r2 = sink_sink_decode_json(&v, (const char *)data, size, &arena, &e2, &opts);
    }
    check(r1 == r2, "accept/reject or error code differs", r1, r2);
    if (r1 != 0)
        check(e1.offset == e2.offset, "error offsets differ", (int)e1.offset, (int)e2.offset);
    tagc_arena_free(&arena);
    return 0;
}
