/*
 * test_stream.c - JSON Lines and MessagePack sequences (runtime/stream.c).
 *
 *   Prefix        _decode_json_prefix / _decode_msgpack_prefix back to back.
 *   Reader        record boundaries at every position of small buffers and
 *                 short reads; CRLF, blank lines, a last line without LF;
 *                 overlong lines (growth, the limit, going on after it); a cut
 *                 last record; invalid UTF-8 and bad records in the middle,
 *                 reported with record, line and column and stepped over;
 *                 empty input; MessagePack sequences (cut, invalid).
 *   Writer        threshold flushes, a failed encode dropped.
 *   Bulk decoder  the same records, values and errors as the reader, in
 *                 order, for 0-3 threads and small chunks, on the listing
 *                 stream (bench/listings.ndjson, as interface{}) and on 20000
 *                 generated orders.
 *
 * Environment: TAGC_DATA_DIR (data), TAGC_GEN_PY (seedwork/gen.py).
 */
#define _GNU_SOURCE /* pthread_getattr_np: the workers' stack size */
#include <criterion/criterion.h>
#include <pthread.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tagc.h>

#include "kitchen_sink.tagc.h"
#include "order.tagc.h"

TAGC_DECODE_FN(order_order)
TAGC_DECODE_FN(sink_doc)

/* MARK: - Helpers */

/* A source over memory that returns at most step bytes a read. */
typedef struct mem_src {
    const char *p;
    size_t len, pos, step;
} mem_src;

static long mem_read(void *ctx, void *buf, size_t n)
{
    mem_src *m = ctx;
    size_t k = m->len - m->pos;
    if (k > n)
        k = n;
    if (m->step && k > m->step)
        k = m->step;
    memcpy(buf, m->p + m->pos, k);
    m->pos += k;
    return (long)k;
}

static long mem_write(void *ctx, const void *buf, size_t n)
{
    tagc_buf *b = ctx;
    tagc_buf_put(b, buf, n);
    return b->err ? -1 : (long)n;
}

static char *slurp(FILE *f, size_t *len)
{
    tagc_buf b;
    tagc_buf_init(&b);
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        tagc_buf_put(&b, tmp, n);
    tagc_buf_byte(&b, 0);
    cr_assert_eq(b.err, 0);
    *len = b.len - 1;
    return (char *)b.data;
}

static char *load(const char *env, const char *rel, size_t *len)
{
    const char *dir = getenv(env);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", rel);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s (set %s)", path, env);
    char *s = slurp(f, len);
    fclose(f);
    return s;
}

/* 20000 orders from gen.py, made once per process. */
static char *orders_jsonl(size_t *len)
{
    static char *cached;
    static size_t cached_len;
    if (!cached) {
        const char *gen = getenv("TAGC_GEN_PY");
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "python3 '%s' jsonl 20000", gen ? gen : "gen.py");
        FILE *f = popen(cmd, "r");
        cr_assert_not_null(f);
        cached = slurp(f, &cached_len);
        cr_assert_eq(pclose(f), 0, "%s failed", cmd);
        cr_assert_gt(cached_len, 1000000);
    }
    *len = cached_len;
    return cached;
}

/* What a reader yields, written down as text: "L<line>:<record>|" for each
 * record, "E<line>:<code>:<column>|" for each error. */
static char *read_all(const char *src, size_t len, size_t buf_size, size_t step,
                      size_t max_record, bool no_utf8)
{
    mem_src m = {src, len, 0, step};
    tagc_stream_opts o = {buf_size, max_record, no_utf8, 0};
    tagc_stream_reader r;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    tagc_buf out;
    tagc_buf_init(&out);
    const char *rec;
    size_t n;
    tagc_error err;
    int rc;
    char head[64];
    for (int guard = 0; guard < 100000; guard++) {
        rc = tagc_stream_next(&r, &rec, &n, &err);
        if (rc == 0)
            break;
        if (rc == 1) {
            snprintf(head, sizeof head, "L%llu:", (unsigned long long)r.line);
            tagc_buf_put(&out, head, strlen(head));
            tagc_buf_put(&out, rec, n);
        } else {
            snprintf(head, sizeof head, "E%u:%d:%u", err.line, rc, err.column);
            tagc_buf_put(&out, head, strlen(head));
            cr_assert_eq(err.line, r.line);
        }
        tagc_buf_byte(&out, '|');
    }
    cr_assert_eq(rc, 0);
    tagc_buf_byte(&out, 0);
    tagc_stream_reader_free(&r);
    return (char *)out.data;
}

/* MARK: - Prefix decoding */

Test(prefix, json_back_to_back)
{
    const char *src = "  {\"lat\":1,\"lon\":2}\n{\"lat\":3,\"lon\":4} \r\n\t{\"lat\":5,\"lon\":6}{\"lat\":7,\"lon\":8}";
    size_t len = strlen(src), off = 0, used;
    tagc_arena a;
    tagc_error e;
    tagc_arena_init(&a);
    double want = 1;
    int count = 0;
    while (off < len) {
        order_geo g;
        cr_assert_eq(order_geo_decode_json_prefix(&g, src + off, len - off, &used, &a, &e, NULL), 0,
                     "%s", e.message);
        cr_assert_gt(used, 0);
        cr_assert_eq(g.lat, want);
        cr_assert_eq(g.lon, want + 1);
        want += 2;
        off += used;
        count++;
    }
    cr_assert_eq(count, 4);
    cr_assert_eq(off, len);
    /* the whitespace after the value is used, the next value is not */
    order_geo g;
    cr_assert_eq(order_geo_decode_json_prefix(&g, "{\"lat\":1} \n x", 14, &used, &a, &e, NULL), 0);
    cr_assert_eq(used, 12);
    /* a bad value: used is 0, err says where */
    cr_assert_eq(order_geo_decode_json_prefix(&g, "\n{\"lat\":x}", 10, &used, &a, &e, NULL),
                 TAGC_E_SYNTAX);
    cr_assert_eq(used, 0);
    cr_assert_eq(e.line, 2);
    cr_assert_eq(e.column, 8);
    cr_assert_eq(order_geo_decode_json_prefix(&g, "  ", 2, &used, &a, &e, NULL), TAGC_E_EOF);
    /* NULL err and opts work as in _decode_json */
    cr_assert_eq(order_geo_decode_json_prefix(&g, "{}", 2, &used, &a, NULL, NULL), 0);
    tagc_arena_free(&a);
}

Test(prefix, msgpack_back_to_back)
{
    size_t olen;
    char *doc = load("TAGC_DATA_DIR", "seedwork/order.json", &olen);
    tagc_arena a;
    tagc_error e;
    tagc_arena_init(&a);
    order_order o, back;
    cr_assert_eq(order_order_decode_json(&o, doc, olen, &a, &e, NULL), 0);
    tagc_buf b;
    tagc_buf_init(&b);
    for (int i = 0; i < 5; i++) {
        o.id = i;
        cr_assert_eq(order_order_encode_msgpack(&o, &b), 0);
    }
    size_t off = 0, used;
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(order_order_decode_msgpack_prefix(&back, b.data + off, b.len - off, &used, &a,
                                                       &e, NULL),
                     0, "%s", e.message);
        o.id = i;
        cr_assert(order_order_equal(&o, &back));
        off += used;
    }
    cr_assert_eq(off, b.len);
    cr_assert_eq(order_order_decode_msgpack_prefix(&back, b.data, 10, &used, &a, &e, NULL),
                 TAGC_E_EOF);
    cr_assert_eq(used, 0);
    tagc_buf_free(&b);
    tagc_arena_free(&a);
    free(doc);
}

/* MARK: - JSONL reader */

Test(jsonl, boundaries_everywhere)
{
    const char *src = "{\"a\":1}\n"
                      "\n"
                      "[1,2,3]\r\n"
                      "   \t\r\n"
                      "\"a long string of text that will not fit small buffers\"\n"
                      "\r\n"
                      "7\n"
                      "{\"last\":true}";
    const char *want = "L1:{\"a\":1}|L3:[1,2,3]|L5:\"a long string of text that will not fit "
                       "small buffers\"|L7:7|L8:{\"last\":true}|";
    for (size_t bs = 1; bs <= 80; bs++)
        for (size_t step = 1; step <= 9; step++) {
            char *got = read_all(src, strlen(src), bs, step, 0, false);
            cr_assert_str_eq(got, want, "buf %zu step %zu", bs, step);
            free(got);
        }
    /* the same with a final LF, and with CRLF everywhere */
    char *got = read_all("1\r\n2\r\n\r\n3\r\n", 11, 2, 1, 0, false);
    cr_assert_str_eq(got, "L1:1|L2:2|L4:3|");
    free(got);
}

Test(jsonl, empty_input)
{
    char *got = read_all("", 0, 4, 1, 0, false);
    cr_assert_str_eq(got, "");
    free(got);
    got = read_all("\n\r\n  \n\t", 7, 4, 1, 0, false);
    cr_assert_str_eq(got, "");
    free(got);
}

Test(jsonl, long_lines)
{
    size_t big = 200000;
    char *src = malloc(big + 64);
    cr_assert_not_null(src);
    size_t n = 0;
    n += (size_t)sprintf(src + n, "1\n\"");
    memset(src + n, 'x', big);
    n += big;
    n += (size_t)sprintf(src + n, "\"\r\n2\n");
    /* grows from 16 bytes to hold it */
    mem_src m = {src, n, 0, 4096};
    tagc_stream_opts o = {16, 0, false, 0};
    tagc_stream_reader r;
    const char *rec;
    size_t len;
    tagc_error err;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(len, big + 2);
    cr_assert_eq(r.line, 2);
    cr_assert_lt(r.cap, 2 * (big + 4) + 16, "buffer %zu for a line of %zu", r.cap, big);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(len, 1);
    cr_assert_eq(rec[0], '2');
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 0);
    tagc_stream_reader_free(&r);

    /* over the limit: an error naming the line, then the next line */
    for (size_t bs = 3; bs < 40; bs += 7) {
        char *got = read_all(src, n, bs, 13, 1000, false);
        cr_assert_str_eq(got, "L1:1|E2:-6:1|L3:2|", "buf %zu", bs);
        free(got);
    }
    m = (mem_src){src, n, 0, 0};
    o = (tagc_stream_opts){64, 1000, false, 0};
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), TAGC_E_FULL);
    cr_assert_eq(err.line, 2);
    cr_assert_eq(r.record, 2);
    cr_assert(strstr(err.message, "record 2 (line 2)") != NULL, "%s", err.message);
    cr_assert(strstr(err.message, "limit of 1000 bytes") != NULL, "%s", err.message);
    cr_assert_leq(r.cap, 1002);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(r.record, 3);
    cr_assert_eq(r.line, 3);
    tagc_stream_reader_free(&r);

    /* exactly at the limit (CR not counted) is fine; one more is not */
    char *got = read_all("12345\r\n123456\n12345", 19, 2, 1, 5, false);
    cr_assert_str_eq(got, "L1:12345|E2:-6:1|L3:12345|");
    free(got);
    free(src);
}

Test(jsonl, bad_records_in_the_middle)
{
    const char *src = "{\"id\":1}\n"
                      "{\"id\":2,\"notes\":\"caf\xff\"}\n"
                      "{\"id\":3,\"status\":\"paid\",}\n"
                      "\n"
                      "{\"id\":\"four\"}\n"
                      "{\"id\":5}\n"
                      "{\"id\":6,\"notes\":\"cut";
    mem_src m = {src, strlen(src), 0, 5};
    tagc_stream_opts o = {8, 0, false, 0};
    tagc_stream_reader r;
    tagc_arena a;
    tagc_arena_init(&a);
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    const char *rec;
    size_t len;
    tagc_error err;
    int rc;
    char log[1024] = "";
    while ((rc = tagc_stream_next(&r, &rec, &len, &err)) != 0) {
        char item[256];
        if (rc == 1) {
            order_order v;
            rc = order_order_decode_json(&v, rec, len, &a, &err, NULL);
            if (rc == 0) {
                snprintf(item, sizeof item, "ok%lld@%llu ", (long long)v.id,
                         (unsigned long long)r.line);
                strcat(log, item);
                continue;
            }
            tagc_stream_locate(&r, &err);
        }
        snprintf(item, sizeof item, "err%d@%u:%u ", rc, err.line, err.column);
        strcat(log, item);
        cr_assert(strncmp(err.message, "record ", 7) == 0, "%s", err.message);
    }
    cr_assert_str_eq(log, "ok1@1 err-1@2:21 err-1@3:25 err-3@5:7 ok5@6 err-2@7:21 ",
                     "got %s", log);
    tagc_stream_reader_free(&r);

    /* the UTF-8 check off: line 2 decodes (as Go does, with U+FFFD) */
    m = (mem_src){src, strlen(src), 0, 0};
    o.no_utf8_check = true;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    order_order v;
    cr_assert_eq(order_order_decode_json(&v, rec, len, &a, &err, NULL), 0);
    cr_assert_str_eq(v.notes.ptr, "caf\xef\xbf\xbd");
    tagc_stream_reader_free(&r);
    tagc_arena_free(&a);
}

Test(jsonl, fd_and_file)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs("1\n2\n\n3", f);
    fflush(f);
    rewind(f);
    tagc_stream_reader r;
    const char *rec;
    size_t len;
    int sum = 0;
    cr_assert_eq(tagc_stream_reader_init_file(&r, f, TAGC_STREAM_JSONL, NULL), 0);
    while (tagc_stream_next(&r, &rec, &len, NULL) == 1)
        sum += rec[0] - '0';
    cr_assert_eq(sum, 6);
    tagc_stream_reader_free(&r);
    rewind(f);
    cr_assert_eq(tagc_stream_reader_init_fd(&r, fileno(f), TAGC_STREAM_JSONL, NULL), 0);
    sum = 0;
    while (tagc_stream_next(&r, &rec, &len, NULL) == 1)
        sum += rec[0] - '0';
    cr_assert_eq(sum, 6);
    cr_assert_eq(r.line, 4);
    tagc_stream_reader_free(&r);
    fclose(f);
}

/* MARK: - MessagePack sequences */

/* n orders as a MessagePack sequence, written through a stream writer. */
static tagc_buf mp_orders(int n, order_order *o)
{
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_stream_writer w;
    tagc_stream_writer_init_fn(&w, mem_write, &out, TAGC_STREAM_MSGPACK);
    w.threshold = 1000;
    for (int i = 0; i < n; i++) {
        o->id = i;
        cr_assert_eq(order_order_encode_msgpack(o, &w.buf), 0);
        cr_assert_eq(tagc_stream_writer_end_record(&w), 0);
        cr_assert_lt(w.buf.len, 1000 + 4096);
    }
    cr_assert_eq(tagc_stream_writer_close(&w), 0);
    cr_assert_eq(w.records, (uint64_t)n);
    cr_assert_eq(w.bytes, out.len);
    return out;
}

Test(msgpack_seq, boundaries_everywhere)
{
    size_t olen;
    char *doc = load("TAGC_DATA_DIR", "seedwork/order.json", &olen);
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    order_order o, back;
    cr_assert_eq(order_order_decode_json(&o, doc, olen, &a, &err, NULL), 0);
    tagc_buf seq = mp_orders(12, &o);
    size_t steps[] = {1, 3, 64, 1000, 0};
    for (size_t bs = 1; bs <= 3000; bs = bs * 3 + 1)
        for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
            mem_src m = {(const char *)seq.data, seq.len, 0, steps[k]};
            tagc_stream_opts opt = {bs, 0, false, 0};
            tagc_stream_reader r;
            cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_MSGPACK, &opt), 0);
            const char *rec;
            size_t len;
            int i = 0, rc;
            while ((rc = tagc_stream_next(&r, &rec, &len, &err)) == 1) {
                cr_assert_eq(order_order_decode_msgpack(&back, (const uint8_t *)rec, len, &a, &err),
                             0, "%s", err.message);
                o.id = i++;
                cr_assert(order_order_equal(&o, &back));
                cr_assert_eq(r.record, (uint64_t)i);
            }
            cr_assert_eq(rc, 0);
            cr_assert_eq(i, 12);
            tagc_stream_reader_free(&r);
        }
    /* empty */
    mem_src m = {"", 0, 0, 0};
    tagc_stream_reader r;
    const char *rec;
    size_t len;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_MSGPACK, NULL), 0);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 0);
    tagc_stream_reader_free(&r);

    /* the last value cut short: reported once, with its record and offset */
    size_t one = seq.len / 12;
    m = (mem_src){(const char *)seq.data, seq.len - 5, 0, 7};
    tagc_stream_opts opt = {16, 0, false, 0};
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_MSGPACK, &opt), 0);
    int good = 0, rc;
    while ((rc = tagc_stream_next(&r, &rec, &len, &err)) == 1)
        good++;
    cr_assert_eq(good, 11);
    cr_assert_eq(rc, TAGC_E_EOF);
    cr_assert(strstr(err.message, "record 12") != NULL, "%s", err.message);
    cr_assert_geq(err.offset, 11 * one - 200);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 0);
    tagc_stream_reader_free(&r);

    /* an invalid byte between values: sticky */
    tagc_buf bad;
    tagc_buf_init(&bad);
    tagc_buf_put(&bad, seq.data, one);
    tagc_buf_byte(&bad, 0xc1);
    tagc_buf_put(&bad, seq.data, one);
    m = (mem_src){(const char *)bad.data, bad.len, 0, 0};
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_MSGPACK, &opt), 0);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), 1);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), TAGC_E_SYNTAX);
    cr_assert_eq(err.offset, one);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), TAGC_E_SYNTAX);
    tagc_stream_reader_free(&r);

    /* a value over the limit */
    m = (mem_src){(const char *)seq.data, seq.len, 0, 0};
    opt.max_record = one / 2;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_MSGPACK, &opt), 0);
    cr_assert_eq(tagc_stream_next(&r, &rec, &len, &err), TAGC_E_FULL);
    cr_assert_leq(r.cap, one / 2 + 1);
    tagc_stream_reader_free(&r);

    tagc_buf_free(&bad);
    tagc_buf_free(&seq);
    tagc_arena_free(&a);
    free(doc);
}

/* MARK: - Writer */

Test(writer, jsonl_threshold_and_failures)
{
    tagc_buf out;
    tagc_buf_init(&out);
    tagc_stream_writer w;
    tagc_stream_writer_init_fn(&w, mem_write, &out, TAGC_STREAM_JSONL);
    w.threshold = 100;
    order_geo g = {1.5, -2};
    for (int i = 0; i < 10; i++) {
        cr_assert_eq(order_geo_encode_json(&g, &w.buf, NULL), 0);
        cr_assert_eq(tagc_stream_writer_end_record(&w), 0);
        cr_assert_lt(w.buf.len, 100);
    }
    cr_assert_gt(out.len, 0);
    /* a value that cannot be encoded: the record is dropped, the stream goes on */
    g.lat = NAN;
    order_geo_encode_json(&g, &w.buf, NULL);
    cr_assert_eq(tagc_stream_writer_end_record(&w), TAGC_E_INVALID);
    g.lat = 3;
    cr_assert_eq(order_geo_encode_json(&g, &w.buf, NULL), 0);
    cr_assert_eq(tagc_stream_writer_end_record(&w), 0);
    cr_assert_eq(tagc_stream_writer_close(&w), 0);
    cr_assert_eq(w.records, 11);
    tagc_buf_byte(&out, 0);
    const char *want1 = "{\"lat\":1.5,\"lon\":-2}\n";
    cr_assert_eq(out.len - 1, 10 * strlen(want1) + strlen("{\"lat\":3,\"lon\":-2}\n"));
    cr_assert_str_eq((char *)out.data + 10 * strlen(want1), "{\"lat\":3,\"lon\":-2}\n");
    tagc_buf_free(&out);
}

static long fail_write(void *ctx, const void *buf, size_t n)
{
    (void)ctx;
    (void)buf;
    (void)n;
    return -1;
}

Test(writer, io_error_is_sticky)
{
    tagc_stream_writer w;
    tagc_stream_writer_init_fn(&w, fail_write, NULL, TAGC_STREAM_JSONL);
    w.threshold = 1;
    tagc_buf_put(&w.buf, "1", 1);
    cr_assert_eq(tagc_stream_writer_end_record(&w), TAGC_E_IO);
    tagc_buf_put(&w.buf, "2", 1);
    cr_assert_eq(tagc_stream_writer_end_record(&w), TAGC_E_IO);
    cr_assert_eq(tagc_stream_writer_close(&w), TAGC_E_IO);
}

/* MARK: - Bulk decoder */

typedef int (*enc_fn)(const void *v, tagc_buf *out);
static int enc_order(const void *v, tagc_buf *out)
{
    return order_order_encode_json(v, out, NULL);
}
static int enc_doc(const void *v, tagc_buf *out)
{
    return sink_doc_encode_json(v, out, NULL);
}

/* Each record as "line:record:" + its JSON (or "!code@line:column") + "\n". */
typedef struct collect {
    tagc_buf out;
    enc_fn enc;
    uint64_t last;
    long stop_at;
    long bad;
} collect;

static void note(collect *c, uint64_t line, uint64_t record, int rc, const tagc_error *e,
                 const void *v)
{
    char head[96];
    snprintf(head, sizeof head, "%llu:%llu:", (unsigned long long)line, (unsigned long long)record);
    tagc_buf_put(&c->out, head, strlen(head));
    if (rc == 0) {
        cr_assert_eq(c->enc(v, &c->out), 0);
    } else {
        snprintf(head, sizeof head, "!%d@%u:%u/%zu", rc, e->line, e->column, e->offset);
        tagc_buf_put(&c->out, head, strlen(head));
    }
    tagc_buf_byte(&c->out, '\n');
}

static int consume(void *ctx, const tagc_record *rec)
{
    collect *c = ctx;
    cr_assert_eq(rec->record, c->last + 1, "out of order");
    c->last = rec->record;
    if (rec->rc)
        cr_assert_eq(rec->err->line, rec->line);
    note(c, rec->line, rec->record, rec->rc, rec->err, rec->value);
    return c->stop_at && (long)rec->record == c->stop_at ? 7 : 0;
}

/* Counts records (c->last) and failed ones (c->bad). */
static int consume_count(void *ctx, const tagc_record *rec)
{
    collect *c = ctx;
    c->last = rec->record;
    c->bad += rec->rc != 0;
    return 0;
}

/* The reader and a decode call per record. */
static void single(const char *src, size_t len, tagc_decode_fn dec, size_t size, enc_fn enc,
                   size_t max_record, tagc_buf *out)
{
    mem_src m = {src, len, 0, 0};
    tagc_stream_opts o = {0, max_record, false, 0};
    tagc_stream_reader r;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    collect c = {.enc = enc};
    tagc_buf_init(&c.out);
    tagc_arena a;
    tagc_arena_init(&a);
    void *v = malloc(size);
    const char *rec;
    size_t n;
    tagc_error e;
    int rc;
    while ((rc = tagc_stream_next(&r, &rec, &n, &e)) != 0) {
        if (rc == 1) {
            rc = dec(v, rec, n, &a, &e, NULL);
            if (rc)
                tagc_stream_locate(&r, &e);
        }
        note(&c, r.line, r.record, rc, &e, v);
        tagc_arena_reset(&a);
    }
    free(v);
    tagc_arena_free(&a);
    tagc_stream_reader_free(&r);
    *out = c.out;
}

static void parallel(const char *src, size_t len, tagc_decode_fn dec, size_t size, enc_fn enc,
                     size_t max_record, int threads, size_t chunk, size_t step, tagc_buf *out)
{
    mem_src m = {src, len, 0, step};
    tagc_stream_opts o = {0, max_record, false, 0};
    tagc_stream_reader r;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, &o), 0);
    collect c = {.enc = enc};
    tagc_buf_init(&c.out);
    tagc_jsonl_parallel p = {threads, chunk, size, dec, NULL, consume, &c};
    tagc_error e;
    cr_assert_eq(tagc_jsonl_decode_parallel(&r, &p, &e), 0, "%s", e.message);
    tagc_stream_reader_free(&r);
    *out = c.out;
}

static void agree(const char *src, size_t len, tagc_decode_fn dec, size_t size, enc_fn enc,
                  size_t max_record, size_t min_records)
{
    tagc_buf want;
    single(src, len, dec, size, enc, max_record, &want);
    size_t lines = 0;
    for (size_t i = 0; i < want.len; i++)
        lines += want.data[i] == '\n';
    cr_assert_geq(lines, min_records);
    struct {
        int threads;
        size_t chunk, step;
    } runs[] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {2, 4096, 1000}, {3, 100, 77},
                {1, 1, 0}, {0, 333, 0}};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        tagc_buf got;
        parallel(src, len, dec, size, enc, max_record, runs[i].threads, runs[i].chunk, runs[i].step,
                 &got);
        cr_assert_eq(got.len, want.len, "threads %d chunk %zu: %zu bytes, want %zu",
                     runs[i].threads, runs[i].chunk, got.len, want.len);
        cr_assert(want.len == 0 || memcmp(got.data, want.data, want.len) == 0, "threads %d chunk %zu differ",
                  runs[i].threads, runs[i].chunk);
        tagc_buf_free(&got);
    }
    tagc_buf_free(&want);
}

Test(parallel, listings_ndjson_as_any, .timeout = 120)
{
    size_t len;
    char *src = load("TAGC_DATA_DIR", "bench/listings.ndjson", &len);
    agree(src, len, sink_doc_decode_json_v, sizeof(sink_doc), enc_doc, 0, 700);
    free(src);
}

Test(parallel, generated_orders, .timeout = 300)
{
    size_t len;
    char *src = orders_jsonl(&len);
    agree(src, len, order_order_decode_json_v, sizeof(order_order), enc_order, 0, 20000);
}

Test(parallel, bad_records_in_order)
{
    const char *src = "{\"id\":1}\r\n"
                      "\n"
                      "{\"id\":2,\"notes\":\"caf\xff\"}\n"
                      "{\"id\":\"three\"}\n"
                      "{\"id\":4,\"notes\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n"
                      "{\"id\":5}\n"
                      "   \n"
                      "{\"id\":6,\"notes\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n"
                      "{\"id\":7}\n"
                      "{\"id\":8,";
    agree(src, strlen(src), order_order_decode_json_v, sizeof(order_order), enc_order, 60, 8);
    tagc_buf got;
    parallel(src, strlen(src), order_order_decode_json_v, sizeof(order_order), enc_order, 60, 2, 16,
             3, &got);
    tagc_buf_byte(&got, 0);
    cr_assert(strstr((char *)got.data, "3:2:!-1@3:") != NULL, "%s", (char *)got.data);
    cr_assert(strstr((char *)got.data, "5:4:!-6@5:1") != NULL, "%s", (char *)got.data);
    cr_assert(strstr((char *)got.data, "10:8:!-2@10:") != NULL, "%s", (char *)got.data);
    tagc_buf_free(&got);
    /* empty and blank input */
    agree("", 0, order_order_decode_json_v, sizeof(order_order), enc_order, 0, 0);
    agree("\n\n \r\n", 5, order_order_decode_json_v, sizeof(order_order), enc_order, 0, 0);
}

Test(parallel, consumer_stops)
{
    size_t len;
    char *src = orders_jsonl(&len);
    for (int threads = 0; threads <= 2; threads++) {
        mem_src m = {src, len, 0, 0};
        tagc_stream_reader r;
        cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, NULL), 0);
        collect c = {.enc = enc_order, .stop_at = 1234};
        tagc_buf_init(&c.out);
        tagc_jsonl_parallel p = {threads, 8192, sizeof(order_order), order_order_decode_json_v, NULL,
                                 consume, &c};
        cr_assert_eq(tagc_jsonl_decode_parallel(&r, &p, NULL), 7);
        cr_assert_eq(c.last, 1234);
        tagc_buf_free(&c.out);
        tagc_stream_reader_free(&r);
    }
}

Test(parallel, from_a_pipe, .timeout = 120)
{
    const char *gen = getenv("TAGC_GEN_PY");
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "python3 '%s' jsonl 3000", gen ? gen : "gen.py");
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    tagc_stream_reader r;
    cr_assert_eq(tagc_stream_reader_init_file(&r, f, TAGC_STREAM_JSONL, NULL), 0);
    collect c = {.enc = enc_order};
    tagc_buf_init(&c.out);
    tagc_jsonl_parallel p = {2, 65536, sizeof(order_order), order_order_decode_json_v, NULL, consume,
                             &c};
    cr_assert_eq(tagc_jsonl_decode_parallel(&r, &p, NULL), 0);
    cr_assert_eq(c.last, 3000);
    cr_assert_eq(pclose(f), 0);
    tagc_buf_free(&c.out);
    tagc_stream_reader_free(&r);
}

/* The workers' stack fits the depth limit they decode at (TAGC_STACK_NEED),
 * whatever the platform's default (musl: 128 KiB, glibc: 8 MiB). */
static size_t least_stack = SIZE_MAX;
static pthread_mutex_t least_mu = PTHREAD_MUTEX_INITIALIZER;

static int decode_noting_stack(void *v, const char *src, size_t len, tagc_arena *arena,
                               tagc_error *err, const tagc_json_opts *opts)
{
    pthread_attr_t attr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstacksize(&attr, &size);
        pthread_attr_destroy(&attr);
    }
    pthread_mutex_lock(&least_mu);
    if (size < least_stack)
        least_stack = size;
    pthread_mutex_unlock(&least_mu);
    return sink_doc_decode_json_v(v, src, len, arena, err, opts);
}

Test(parallel, worker_stack_fits_the_depth)
{
    enum { DEPTH = 20000 }; /* TAGC_STACK_NEED(20000) is past glibc's default 8 MiB */
    char *line = malloc(2 * DEPTH + 2);
    memset(line, '[', DEPTH);
    memset(line + DEPTH, ']', DEPTH);
    line[2 * DEPTH] = '\n';
    mem_src m = {line, 2 * DEPTH + 1, 0, 0};
    tagc_stream_reader r;
    cr_assert_eq(tagc_stream_reader_init_fn(&r, mem_read, &m, TAGC_STREAM_JSONL, NULL), 0);
    collect c = {.enc = NULL};
    tagc_buf_init(&c.out);
    tagc_json_opts o = {0};
    o.max_depth = DEPTH;
    tagc_jsonl_parallel p = {2, 8192, sizeof(sink_doc), decode_noting_stack, &o, consume_count, &c};
    cr_assert_eq(tagc_jsonl_decode_parallel(&r, &p, NULL), 0);
    cr_expect_eq(c.last, 1);
    cr_expect_eq(c.bad, 0, "the deep line decodes");
    cr_expect(least_stack >= TAGC_STACK_NEED(DEPTH), "worker stack %zu, need %zu", least_stack,
              (size_t)TAGC_STACK_NEED(DEPTH));
    tagc_buf_free(&c.out);
    tagc_stream_reader_free(&r);
    free(line);
}
