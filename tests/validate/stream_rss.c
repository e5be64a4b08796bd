/*
 * stream_rss.c - `tagc validate --format jsonl|msgpack` on a stream far larger
 * than memory, through a pipe, at constant memory.
 *
 * This process is the generator: it writes orders (schemas/order.tagc, made by
 * data/seedwork/gen.py once, then repeated) into a pipe that is the
 * standard input of `tagc validate`, with a few bad records at known places
 * (near the start, in the middle, the very last one). Nothing is written to
 * disk. Then it checks, from wait4's rusage of the validate process alone, that
 * its peak RSS stayed under a limit, and that validate reported exactly the bad
 * records, at the right line (JSONL) or offset (MessagePack): the last one
 * proves that it read the whole stream, record count included.
 *
 * Environment:
 *   TAGC                  the tagc to run
 *   TAGC_SRC              the source tree (for schemas/order.tagc)
 *   TAGC_GEN_PY           data/seedwork/gen.py
 *   TAGC_STREAM_MB        JSONL megabytes to stream (default 2048: 2 GB)
 *   TAGC_STREAM_MP_MB     MessagePack megabytes (default: a quarter of the JSONL's)
 *   TAGC_STREAM_MAX_RSS_KB  peak RSS limit of validate in KiB (default 16384;
 *                         0: not checked, as under sanitizers)
 *
 * Prints the throughput of validate (MB/s of wall time, and of its CPU time).
 * wait4's ru_maxrss also counts the pages this process had when it forked
 * (before exec), so the figure checked is an upper bound of validate's own.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "order.tagc.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void die(const char *what)
{
    perror(what);
    exit(99);
}

static double env_num(const char *name, double dflt)
{
    const char *s = getenv(name);
    return s && *s ? atof(s) : dflt;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes all of p[0..n) to fd; false when the reader went away. */
static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        c += w;
        n -= (size_t)w;
    }
    return 1;
}

typedef struct bad_at {
    unsigned long long where; /* JSONL: line; MessagePack: offset */
} bad_at;

typedef struct run_result {
    int status;
    long maxrss_kb;
    double wall, cpu;
    char *err; /* validate's stderr */
} run_result;

/*
 * Streams `total` bytes into `tagc validate --format FORMAT order.tagc Order`:
 * the block repeated, and bad[i] written where *pos reaches each of the bad
 * places (the caller's feed function decides). Returns validate's result.
 */
typedef struct feed {
    const char *block;
    size_t block_len;
    size_t block_records; /* JSONL: lines in block */
    const char *bad;      /* one bad record (JSONL: with its LF) */
    size_t bad_len;
    unsigned long long total; /* bytes to write at least */
    int jsonl;
    /* out: where the bad records went (line numbers or offsets) */
    unsigned long long bad_where[3];
    int nbad;
    unsigned long long bytes, records;
} feed;

static void pump(int fd, feed *f)
{
    unsigned long long half = f->total / 2;
    int middle_done = 0;
    f->bytes = f->records = 0;
    f->nbad = 0;
    for (int first = 1;; first = 0) {
        if (!write_all(fd, f->block, f->block_len))
            return;
        f->bytes += f->block_len;
        f->records += f->block_records;
        if (first || (!middle_done && f->bytes >= half) || f->bytes >= f->total) {
            f->bad_where[f->nbad++] = f->jsonl ? f->records + 1 : f->bytes;
            if (!write_all(fd, f->bad, f->bad_len))
                return;
            f->bytes += f->bad_len;
            f->records++;
            if (!first)
                middle_done = 1;
            if (f->bytes >= f->total)
                return;
        }
    }
}

static run_result run_validate(const char *tagc, const char *schema, feed *f)
{
    int pfd[2];
    run_result res = {0};
    FILE *errf = tmpfile();
    if (!errf)
        die("tmpfile");
    if (pipe(pfd) != 0)
        die("pipe");
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        dup2(pfd[0], 0);
        close(pfd[0]);
        close(pfd[1]);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(fileno(errf), 2);
        execl(tagc, tagc, "validate", "--format", f->jsonl ? "jsonl" : "msgpack", schema, "Order",
              (char *)NULL);
        _exit(127);
    }
    close(pfd[0]);
    pump(pfd[1], f);
    close(pfd[1]);
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid)
        die("wait4");
    res.wall = now() - t0;
    res.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    res.maxrss_kb = ru.ru_maxrss;
    res.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
              (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    long n = ftell(errf);
    res.err = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    rewind(errf);
    if (n > 0 && fread(res.err, 1, (size_t)n, errf) != (size_t)n)
        die("fread");
    fclose(errf);
    return res;
}

static void report(const char *what, const feed *f, const run_result *r, long max_rss)
{
    printf("%s: %llu records, %.1f MB through a pipe: exit %d, %.1f s wall (%.0f MB/s), "
           "%.1f s CPU (%.0f MB/s), peak RSS %ld KiB (limit %s%ld)\n",
           what, f->records, (double)f->bytes / 1e6, r->status, r->wall,
           (double)f->bytes / 1e6 / r->wall, r->cpu, (double)f->bytes / 1e6 / (r->cpu > 0 ? r->cpu : 1e-9),
           r->maxrss_kb, max_rss ? "" : "not checked, ", max_rss);
    fflush(stdout);
    CHECK(max_rss == 0 || r->maxrss_kb < max_rss, "%s: peak RSS %ld KiB, limit %ld KiB", what,
          r->maxrss_kb, max_rss);
    CHECK(r->status == 1, "%s: exit status %d, expected 1 (invalid records); stderr:\n%.2000s", what,
          r->status, r->err);
}

/* Decodes every JSONL line of src as an order, encodes it as MessagePack. */
static size_t to_msgpack(const char *src, size_t len, tagc_buf *mp)
{
    tagc_arena arena;
    tagc_arena_init(&arena);
    size_t n = 0, off = 0;
    while (off < len) {
        const char *nl = memchr(src + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - src) : len;
        order_order o;
        tagc_error err;
        if (end > off) {
            if (order_order_decode_json(&o, src + off, end - off, &arena, &err, NULL) != 0) {
                fprintf(stderr, "gen.py record does not decode: %s\n", err.message);
                exit(99);
            }
            order_order_encode_msgpack(&o, mp);
            n++;
        }
        tagc_arena_reset(&arena);
        off = end + 1;
    }
    tagc_arena_free(&arena);
    return n;
}

int main(void)
{
    const char *tagc = getenv("TAGC"), *src = getenv("TAGC_SRC"), *gen = getenv("TAGC_GEN_PY");
    if (!tagc || !src || !gen) {
        fprintf(stderr, "TAGC, TAGC_SRC and TAGC_GEN_PY must be set\n");
        return 99;
    }
    if (access(gen, R_OK) != 0) {
        printf("%s not found: skipped\n", gen);
        return 77;
    }
    signal(SIGPIPE, SIG_IGN);
    double mb = env_num("TAGC_STREAM_MB", 2048);
    double mp_mb = env_num("TAGC_STREAM_MP_MB", mb / 4);
    long max_rss = (long)env_num("TAGC_STREAM_MAX_RSS_KB", 16384);
    char schema[4096], cmd[4200];
    snprintf(schema, sizeof schema, "%s/schemas/order.tagc", src);

    /* 500 orders (about 800 KB) from gen.py: the block that is repeated */
    snprintf(cmd, sizeof cmd, "python3 '%s' jsonl 500", gen);
    FILE *p = popen(cmd, "r");
    if (!p)
        die("popen");
    size_t cap = 1 << 20, len = 0, got;
    char *block = malloc(cap);
    while (block && (got = fread(block + len, 1, cap - len, p)) > 0) {
        len += got;
        if (len == cap)
            block = realloc(block, cap *= 2);
    }
    if (!block || pclose(p) != 0 || len == 0) {
        fprintf(stderr, "gen.py failed\n");
        return 99;
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += block[i] == '\n';
    if (block[len - 1] != '\n') {
        fprintf(stderr, "gen.py output does not end with a line end\n");
        return 99;
    }

    /* JSONL: the block again and again; a bad record after the first block, in the middle, last */
    static const char bad_line[] = "{\"id\":\"bad\",\"items\":[]}\n";
    feed f = {block, len, lines, bad_line, sizeof bad_line - 1,
              (unsigned long long)(mb * 1e6), 1, {0}, 0, 0, 0};
    run_result r = run_validate(tagc, schema, &f);
    report("jsonl", &f, &r, max_rss);
    char want[8192] = "";
    for (int i = 0; i < f.nbad; i++) {
        size_t at = strlen(want);
        snprintf(want + at, sizeof want - at, "<stdin>:%llu:7: error: $.id: expected number, found string\n",
                 f.bad_where[i]);
    }
    CHECK(f.nbad == 3, "jsonl: %d bad records written", f.nbad);
    CHECK(strcmp(r.err, want) == 0, "jsonl: validate said:\n%.2000s\nexpected:\n%s", r.err, want);
    free(r.err);

    /* MessagePack: the same orders as a sequence; a bad value: {"id": "x"} */
    tagc_buf mp;
    tagc_buf_init(&mp);
    size_t nmp = to_msgpack(block, len, &mp);
    static const char bad_mp[] = {(char)0x81, (char)0xa2, 'i', 'd', (char)0xa1, 'x'};
    feed g = {(const char *)mp.data, mp.len, nmp, bad_mp, sizeof bad_mp,
              (unsigned long long)(mp_mb * 1e6), 0, {0}, 0, 0, 0};
    r = run_validate(tagc, schema, &g);
    report("msgpack", &g, &r, max_rss);
    want[0] = '\0';
    for (int i = 0; i < g.nbad; i++) {
        size_t at = strlen(want);
        snprintf(want + at, sizeof want - at,
                 "<stdin>: offset %llu: error: $.id: expected integer, found str\n",
                 g.bad_where[i] + 4);
    }
    CHECK(g.nbad == 3, "msgpack: %d bad values written", g.nbad);
    CHECK(strcmp(r.err, want) == 0, "msgpack: validate said:\n%.2000s\nexpected:\n%s", r.err, want);
    free(r.err);
    tagc_buf_free(&mp);
    free(block);
    if (failures)
        printf("%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
