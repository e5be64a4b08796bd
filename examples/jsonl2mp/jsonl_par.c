/*
 * jsonl_par - throughput and peak memory of decoding a JSON Lines file of
 * orders (schemas/order.tagc), the figures of docs/streams.md.
 *
 *   jsonl_par FILE THREADS [CHUNK_KIB]
 *
 * THREADS >= 1: tagc_jsonl_decode_parallel on that many workers; 0: the same
 * in the calling thread; -1: the one-record-at-a-time reader and a decode call
 * per record (a streaming pass). Prints records, errors, seconds, MB/s and the
 * peak RSS (getrusage).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "order.tagc.h"

TAGC_DECODE_FN(order_order)

typedef struct tally {
    unsigned long long records, errors, items;
} tally;

static int count(void *ctx, const tagc_record *rec)
{
    tally *t = ctx;
    t->records++;
    if (rec->rc)
        t->errors++;
    else
        t->items += ((const order_order *)rec->value)->items.len;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE THREADS [CHUNK_KIB]\n", argv[0]);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    int threads = atoi(argv[2]);
    size_t chunk = argc > 3 ? (size_t)atol(argv[3]) << 10 : 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tagc_stream_reader r;
    tally t = {0, 0, 0};
    tagc_error err;
    if (tagc_stream_reader_init_fd(&r, fd, TAGC_STREAM_JSONL, NULL) != 0)
        return 2;
    if (threads >= 0) {
        tagc_jsonl_parallel p = {threads, chunk, sizeof(order_order), order_order_decode_json_v,
                                 NULL, count, &t};
        if (tagc_jsonl_decode_parallel(&r, &p, &err) != 0) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
    } else {
        tagc_arena arena;
        tagc_arena_init(&arena);
        const char *rec;
        size_t len;
        int rc;
        order_order o;
        while ((rc = tagc_stream_next(&r, &rec, &len, &err)) != 0) {
            if (rc == 1)
                rc = order_order_decode_json(&o, rec, len, &arena, &err, NULL);
            t.records++;
            if (rc)
                t.errors++;
            else
                t.items += o.items.len;
            tagc_arena_reset(&arena);
        }
        tagc_arena_free(&arena);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double mb = (double)lseek(fd, 0, SEEK_CUR) / 1e6;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("threads %d: %llu records (%llu errors, %llu items), %.1f MB in %.3f s: %.0f MB/s, "
           "CPU %.3f s, peak RSS %ld KiB\n",
           threads, t.records, t.errors, t.items, mb, secs, mb / secs,
           (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
           ru.ru_maxrss);
    tagc_stream_reader_free(&r);
    close(fd);
    return 0;
}
