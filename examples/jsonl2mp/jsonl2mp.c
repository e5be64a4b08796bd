/*
 * jsonl2mp - converts a JSON Lines file of orders (schemas/order.tagc) to a
 * MessagePack sequence, and back, at constant memory.
 *
 *   jsonl2mp to-mp    IN.jsonl OUT.mp      ("-" is stdin / stdout)
 *   jsonl2mp to-jsonl IN.mp    OUT.jsonl
 *
 * Bad records are reported on stderr (record, line, column, path) and skipped;
 * the exit status is then 1. When stderr is a terminal, a progress line shows
 * the records done and the throughput.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "order.tagc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct progress {
    bool tty;
    double start, last;
} progress;

static void show(progress *p, const tagc_stream_reader *r, bool done)
{
    if (!p->tty)
        return;
    double t = now();
    if (!done && t - p->last < 0.2)
        return;
    p->last = t;
    double mb = (double)(r->base + r->start) / 1e6;
    double secs = t - p->start > 1e-9 ? t - p->start : 1e-9;
    fprintf(stderr, "\r%llu records, %.1f MB, %.1f MB/s%s", (unsigned long long)r->records, mb,
            mb / secs, done ? "\n" : "");
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "to-mp") != 0 && strcmp(argv[1], "to-jsonl") != 0)) {
        fprintf(stderr, "usage: %s to-mp IN.jsonl OUT.mp | to-jsonl IN.mp OUT.jsonl\n", argv[0]);
        return 2;
    }
    bool to_mp = strcmp(argv[1], "to-mp") == 0;
    const char *in_name = argv[2], *out_name = argv[3];
    int in = strcmp(in_name, "-") == 0 ? 0 : open(in_name, O_RDONLY);
    int out = strcmp(out_name, "-") == 0 ? 1 : open(out_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) {
        perror(in < 0 ? in_name : out_name);
        return 2;
    }
    tagc_stream_reader r;
    tagc_stream_writer w;
    if (tagc_stream_reader_init_fd(&r, in, to_mp ? TAGC_STREAM_JSONL : TAGC_STREAM_MSGPACK, NULL)) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    tagc_stream_writer_init_fd(&w, out, to_mp ? TAGC_STREAM_MSGPACK : TAGC_STREAM_JSONL);
    tagc_arena arena;
    tagc_arena_init(&arena);
    progress pg = {isatty(2) == 1, now(), 0};
    int status = 0, rc;
    const char *rec;
    size_t len;
    tagc_error err;
    order_order o;
    while ((rc = tagc_stream_next(&r, &rec, &len, &err)) != 0) {
        if (rc == 1) {
            rc = to_mp ? order_order_decode_json(&o, rec, len, &arena, &err, NULL)
                       : order_order_decode_msgpack(&o, (const uint8_t *)rec, len, &arena, &err);
            if (rc != 0)
                tagc_stream_locate(&r, &err);
        }
        if (rc == 0) {
            if (to_mp)
                order_order_encode_msgpack(&o, &w.buf);
            else
                order_order_encode_json(&o, &w.buf, NULL);
            rc = tagc_stream_writer_end_record(&w);
            if (rc == TAGC_E_IO)
                break;
            if (rc != 0)
                fprintf(stderr, "%s: record %llu: cannot encode: %s\n", in_name,
                        (unsigned long long)r.record, tagc_strerror(rc));
        } else {
            if (pg.tty)
                fputc('\n', stderr);
            if (to_mp)
                fprintf(stderr, "%s:%u:%u: %s: %s\n", in_name, err.line, err.column, err.path,
                        err.message);
            else
                fprintf(stderr, "%s: offset %zu: %s: %s\n", in_name, err.offset, err.path,
                        err.message);
            status = 1;
            if (r.fatal)
                break;
        }
        tagc_arena_reset(&arena);
        show(&pg, &r, false);
    }
    show(&pg, &r, true);
    if (tagc_stream_writer_close(&w) != 0) {
        perror(out_name);
        status = 2;
    }
    tagc_arena_free(&arena);
    tagc_stream_reader_free(&r);
    if (out != 1 && close(out) != 0) {
        perror(out_name);
        status = 2;
    }
    if (in != 0)
        close(in);
    return status;
}
