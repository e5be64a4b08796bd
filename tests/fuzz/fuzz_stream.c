/*
 * fuzz_stream.c - a libFuzzer target for runtime/stream.c: a stream of order
 * records (order.tagc's Order), as JSON Lines or MessagePack values back to
 * back, read through a source that hands out a few bytes at a time into a
 * small buffer, each record decoded. JSONL is also decoded by the parallel
 * decoder (two workers, small chunks), which must hand over the same records
 * with the same results, in order.
 *
 * The first two input bytes are the knobs: byte 0 bit 0 MessagePack, bit 1
 * strict, bits 2-4 the read size; byte 1 bits 0-2 the first buffer size, bit 3
 * a small record limit, bits 4-6 the parallel chunk size.
 */
#include "order.tagc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RECORDS = 4096 };

static const size_t read_sizes[] = { 1, 2, 3, 7, 64, 1000, 4096, 1 << 16 };
static const size_t buf_sizes[] = { 1, 2, 5, 16, 100, 4096, 0, 0 };
static const size_t chunk_sizes[] = { 1, 8, 64, 300, 4096, 0, 0, 0 };

typedef struct source {
    const uint8_t *data;
    size_t size, at, step;
} source;

static long read_some(void *ctx, void *buf, size_t n)
{
    source *s = ctx;
    size_t k = s->size - s->at;
    if (k > n)
        k = n;
    if (k > s->step)
        k = s->step;
    memcpy(buf, s->data + s->at, k);
    s->at += k;
    return (long)k;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_stream: %s\n", what);
        abort();
    }
}

/* What the sequential pass saw, record by record, for the parallel one. */
typedef struct seen {
    int rc[MAX_RECORDS];
    uint64_t line[MAX_RECORDS];
    size_t n;      /* records decoded */
    bool complete; /* the stream ended without a fatal error, within MAX_RECORDS */
} seen;

typedef struct replay {
    const seen *want;
    size_t n;
} replay;

static int consume(void *ctx, const tagc_record *rec)
{
    replay *r = ctx;
    check(r->n < r->want->n, "parallel: more records than the sequential reader");
    check(rec->record == r->n + 1, "parallel: records out of order");
    check((rec->rc == 0) == (r->want->rc[r->n] == 0), "parallel: a record decoded differently");
    check(rec->line == r->want->line[r->n], "parallel: a record on another line");
    check(rec->rc == 0 ? rec->value != NULL : rec->value == NULL, "parallel: value and rc disagree");
    r->n++;
    return 0;
}

TAGC_DECODE_FN(order_order)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned k0 = data[0], k1 = data[1];
    data += 2, size -= 2;
    tagc_stream_format fmt = (k0 & 1) ? TAGC_STREAM_MSGPACK : TAGC_STREAM_JSONL;
    tagc_json_opts jopts = {.strict = (k0 & 2) != 0};
    tagc_stream_opts sopts = {
        .buf_size = buf_sizes[k1 & 7],
        .max_record = (k1 & 8) ? 256 : 0,
    };
    source src = {data, size, 0, read_sizes[(k0 >> 2) & 7]};

    tagc_stream_reader r;
    check(tagc_stream_reader_init_fn(&r, read_some, &src, fmt, &sopts) == 0, "reader init");
    tagc_arena arena;
    tagc_arena_init_limit(&arena, 64u << 20);
    static seen s;
    s.n = 0;
    s.complete = false;
    for (;;) {
        const char *rec;
        size_t len;
        tagc_error err;
        int rc = tagc_stream_next(&r, &rec, &len, &err);
        if (rc == 0) {
            s.complete = true;
            break;
        }
        if (rc < 0) {
            check(err.code == rc, "stream error without its code");
            if (r.fatal)
                break;
            if (s.n < MAX_RECORDS)
                s.rc[s.n] = rc, s.line[s.n] = r.line, s.n++;
            continue;
        }
        check(len <= size, "record longer than the input");
        order_order v;
        tagc_arena_reset(&arena);
        int drc = fmt == TAGC_STREAM_JSONL
                      ? order_order_decode_json(&v, rec, len, &arena, &err, &jopts)
                      : order_order_decode_msgpack_opts(&v, (const uint8_t *)rec, len, &arena, &err,
                                                        &jopts);
        if (drc != 0) {
            check(err.offset <= len, "error offset past the record");
            tagc_stream_locate(&r, &err);
        }
        if (s.n == MAX_RECORDS)
            break;
        s.rc[s.n] = drc, s.line[s.n] = r.line, s.n++;
    }
    tagc_stream_reader_free(&r);
    tagc_arena_free(&arena);

    if (fmt == TAGC_STREAM_JSONL && s.complete) {
        source again = {data, size, 0, src.step};
        check(tagc_stream_reader_init_fn(&r, read_some, &again, fmt, &sopts) == 0, "reader init");
        replay rp = {&s, 0};
        tagc_jsonl_parallel p = {
            .threads = 2,
            .chunk_size = chunk_sizes[(k1 >> 4) & 7],
            .value_size = sizeof(order_order),
            .decode = order_order_decode_json_v,
            .opts = &jopts,
            .consume = consume,
            .ctx = &rp,
        };
        tagc_error err;
        int rc = tagc_jsonl_decode_parallel(&r, &p, &err);
        check(rc == 0, "parallel decoder failed where the sequential reader did not");
        check(rp.n == s.n, "parallel: fewer records than the sequential reader");
        tagc_stream_reader_free(&r);
    }
    return 0;
}
