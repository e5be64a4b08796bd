/*
 * stream_bench.c - the stream rows of the benchmark (see stream_bench.h and
 * bench/README.md, "Streams").
 *
 * Streams: bench/listings.ndjson of the data folder (data/seedwork/gen.py
 * listings; schemas/amazon.tagc, each line a []any), read 200 times over (the
 * file is 0.24 MB), and an
 * orders.jsonl of gen.py (schemas/order.tagc), 130000 orders (about 200 MB)
 * generated at bench time into a temporary file (--quick: 3000, about 5 MB).
 *
 * Rows (contenders), all reading the file with read(2) through tagc's stream
 * reader, so they differ only in how lines become structs:
 *   tagc stream     tagc_stream_next + the generated _decode_json per record
 *   tagc par. 1/2   tagc_jsonl_decode_parallel on 1 and 2 worker threads
 *   cJSON lines     cJSON_ParseWithLength per line + the hand-written mapping to
 *                   the same struct (bench/mappings.h; listings: below)
 * Each timed run is a child process (`bench --stream-child ...`): the parent
 * takes its wall time and, from wait4, its CPU time (user + system, all its
 * threads) and peak RSS. Peak RSS is the child's VmHWM (its own address space,
 * after exec), which it prints. The check decodes every record with every contender
 * in one lockstep pass and compares the values with the generated _equal.
 */
#define _DEFAULT_SOURCE
#include "stream_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "amazon.tagc.h"
#include "bench.h"

/* MARK: - the streams */

static int cj_amazon(const char *src, size_t len, void *value, tagc_arena *a);

TAGC_DECODE_FN(order_order)
TAGC_DECODE_FN(amazon_phone)

static bool eq_order(const void *a, const void *b) { return order_order_equal(a, b); }
static bool eq_phone(const void *a, const void *b) { return amazon_phone_equal(a, b); }
static int cj_order(const char *src, size_t len, void *value, tagc_arena *a)
{
    return bench_cjson_codecs[W_ORDER].decode(src, len, value, a);
}

typedef struct sdef {
    const char *name;
    const char *type; /* for the report */
    size_t value_size;
    tagc_decode_fn decode;
    int (*cjson)(const char *src, size_t len, void *value, tagc_arena *a);
    bool (*equal)(const void *a, const void *b);
    int repeat, quick_repeat; /* passes over the file */
} sdef;

enum { S_LISTINGS, S_ORDERS, S_COUNT };
static const sdef streams[S_COUNT] = {
    [S_LISTINGS] = {"listings", "amazon.Phone ([]any)", sizeof(amazon_phone), amazon_phone_decode_json_v,
                  cj_amazon, eq_phone, 200, 10},
    [S_ORDERS] = {"orders", "order.Order", sizeof(order_order), order_order_decode_json_v, cj_order,
                  eq_order, 1, 1},
};

enum { K_STREAM, K_PAR1, K_PAR2, K_CJSON, K_COUNT };
static const char *const kind_names[K_COUNT] = {"tagc stream", "tagc parallel, 1 worker",
                                                "tagc parallel, 2 workers", "cJSON lines"};
static const char *const kind_args[K_COUNT] = {"stream", "par1", "par2", "cjson"};

typedef struct srow {
    bool done;
    double wall, cpu; /* best of the runs */
    long rss_kb;      /* largest of the runs */
    unsigned long long records;
} srow;

static struct {
    bool sel[S_COUNT];
    bool sel_set;
    const char *orders_arg;
    char *orders_tmp; /* generated here, removed at exit */
    char path[S_COUNT][4096];
    unsigned long long bytes[S_COUNT]; /* per run: file size times passes */
    int repeat[S_COUNT];
    bool ready[S_COUNT];
    int reps;
    bool quick;
    srow rows[S_COUNT][K_COUNT];
} S = {.reps = 0};

/* MARK: - cJSON mapping of amazon.Phone */

static tagc_any *any_of(const cJSON *j, tagc_arena *a, int *bad)
{
    if (cJSON_IsNull(j))
        return NULL;
    tagc_any *v = tagc_arena_alloc(a, sizeof *v);
    if (!v) {
        *bad = 1;
        return NULL;
    }
    memset(v, 0, sizeof *v);
    if (cJSON_IsBool(j)) {
        v->kind = TAGC_ANY_BOOL;
        v->u.b = cJSON_IsTrue(j);
    } else if (cJSON_IsNumber(j)) {
        v->kind = TAGC_ANY_NUMBER;
        v->u.num = j->valuedouble;
    } else if (cJSON_IsString(j)) {
        size_t n = strlen(j->valuestring);
        char *s = tagc_arena_alloc(a, n + 1);
        if (!s) {
            *bad = 1;
            return NULL;
        }
        memcpy(s, j->valuestring, n + 1);
        v->kind = TAGC_ANY_STRING;
        v->u.str.ptr = s;
        v->u.str.len = n;
    } else if (cJSON_IsArray(j) || cJSON_IsObject(j)) {
        size_t n = (size_t)cJSON_GetArraySize(j), i = 0;
        tagc_any **items = n ? tagc_arena_alloc(a, n * sizeof *items) : TAGC_EMPTY;
        tagc_str *keys = cJSON_IsObject(j) && n ? tagc_arena_alloc(a, n * sizeof *keys) : TAGC_EMPTY;
        if (!items || !keys) {
            *bad = 1;
            return NULL;
        }
        const cJSON *it;
        cJSON_ArrayForEach(it, j)
        {
            if (cJSON_IsObject(j)) { /* keys are unique in the data measured */
                size_t kn = strlen(it->string);
                char *k = tagc_arena_alloc(a, kn + 1);
                if (!k) {
                    *bad = 1;
                    return NULL;
                }
                memcpy(k, it->string, kn + 1);
                keys[i].ptr = k;
                keys[i].len = kn;
            }
            items[i++] = any_of(it, a, bad);
        }
        if (cJSON_IsArray(j)) {
            v->kind = TAGC_ANY_ARRAY;
            v->u.arr.items = items;
            v->u.arr.len = n;
        } else {
            v->kind = TAGC_ANY_OBJECT;
            v->u.obj.keys = keys;
            v->u.obj.vals = items;
            v->u.obj.len = n;
        }
    } else {
        *bad = 1;
    }
    return v;
}

/* A line into amazon_phone ([]any: ptr, len): null leaves it nil, an array
 * fills it (non-nil even when empty), anything else is an error (as Go says). */
static int cj_amazon(const char *src, size_t len, void *value, tagc_arena *a)
{
    amazon_phone *v = value;
    memset(v, 0, sizeof *v);
    cJSON *root = cJSON_ParseWithLength(src, len);
    if (!root)
        return -1;
    int bad = 0;
    if (cJSON_IsArray(root)) {
        size_t n = (size_t)cJSON_GetArraySize(root), i = 0;
        v->ptr = n ? tagc_arena_alloc(a, n * sizeof *v->ptr) : TAGC_EMPTY;
        if (!v->ptr) {
            cJSON_Delete(root);
            return -1;
        }
        const cJSON *it;
        cJSON_ArrayForEach(it, root)
        {
            v->ptr[i++] = any_of(it, a, &bad);
        }
        v->len = n;
    } else if (!cJSON_IsNull(root)) {
        bad = 1;
    }
    cJSON_Delete(root);
    return bad ? -1 : 0;
}

/* MARK: - the source: a file read with read(2), `passes` times over */

typedef struct src {
    int fd;
    int passes;       /* left, this one included */
    bool ended_nl;    /* the last byte handed out was a LF */
    bool owe_nl;      /* a LF between passes of a file without a final one */
    unsigned long long bytes;
} src;

static long src_read(void *ctx, void *buf, size_t n)
{
    src *s = ctx;
    for (;;) {
        if (s->owe_nl) {
            s->owe_nl = false;
            *(char *)buf = '\n';
            s->ended_nl = true;
            s->bytes++;
            return 1;
        }
        ssize_t got = read(s->fd, buf, n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got > 0) {
            s->ended_nl = ((const char *)buf)[got - 1] == '\n';
            s->bytes += (size_t)got;
            return (long)got;
        }
        if (s->passes <= 1)
            return 0;
        s->passes--;
        if (lseek(s->fd, 0, SEEK_SET) != 0)
            return -1;
        s->owe_nl = !s->ended_nl;
    }
}

static int src_open(src *s, const char *path, int passes)
{
    memset(s, 0, sizeof *s);
    s->fd = open(path, O_RDONLY);
    s->passes = passes;
    s->ended_nl = true;
    return s->fd >= 0 ? 0 : -1;
}

/* MARK: - one run (the child) */

typedef struct tally {
    unsigned long long records, bad;
} tally;

static int count(void *ctx, const tagc_record *rec)
{
    tally *t = ctx;
    t->records++;
    t->bad += rec->rc != 0;
    return 0;
}

/* Decodes the whole stream with contender k; fills t. 0 or -1 (I/O). */
static int run_once(int si, int k, const char *path, int passes, tally *t)
{
    const sdef *d = &streams[si];
    src s;
    tagc_stream_reader r;
    tagc_error err;
    int rc = 0;
    if (src_open(&s, path, passes) != 0)
        return -1;
    if (tagc_stream_reader_init_fn(&r, src_read, &s, TAGC_STREAM_JSONL, NULL) != 0) {
        close(s.fd);
        return -1;
    }
    t->records = t->bad = 0;
    if (k == K_PAR1 || k == K_PAR2) {
        tagc_jsonl_parallel p = {k == K_PAR1 ? 1 : 2, 0, d->value_size, d->decode, NULL, count, t};
        rc = tagc_jsonl_decode_parallel(&r, &p, &err) == 0 ? 0 : -1;
    } else {
        tagc_arena arena;
        void *v = calloc(1, d->value_size);
        const char *rec;
        size_t len;
        int got;
        tagc_arena_init(&arena);
        while ((got = tagc_stream_next(&r, &rec, &len, &err)) != 0) {
            if (got < 0 && r.fatal) {
                rc = -1;
                break;
            }
            if (got == 1)
                got = k == K_STREAM ? d->decode(v, rec, len, &arena, &err, NULL)
                                    : d->cjson(rec, len, v, &arena);
            t->records++;
            t->bad += got != 0;
            tagc_arena_reset(&arena);
        }
        tagc_arena_free(&arena);
        free(v);
    }
    tagc_stream_reader_free(&r);
    close(s.fd);
    return rc;
}

static int find_stream(const char *s)
{
    for (int i = 0; i < S_COUNT; i++)
        if (strcmp(streams[i].name, s) == 0)
            return i;
    return -1;
}

int stream_bench_child(int argc, char **argv)
{
    /* STREAM KIND FILE PASSES */
    if (argc < 4)
        return 2;
    int si = find_stream(argv[0]), k = -1;
    for (int i = 0; i < K_COUNT; i++)
        if (strcmp(kind_args[i], argv[1]) == 0)
            k = i;
    if (si < 0 || k < 0)
        return 2;
    tally t;
    if (run_once(si, k, argv[2], atoi(argv[3]), &t) != 0)
        return 1;
    /* peak RSS of this program's own address space: wait4's ru_maxrss would
     * also count the parent's pages this process had between fork and exec */
    long hwm = 0;
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            hwm = atol(line + 6);
    if (f)
        fclose(f);
    printf("%llu %llu %ld\n", t.records, t.bad, hwm);
    return 0;
}

/* MARK: - options, loading */

bool stream_bench_arg(int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (*i + 1 >= argc)
        return false;
    if (strcmp(a, "--streams") == 0) {
        char *list = argv[++*i];
        for (int s = 0; s < S_COUNT; s++)
            S.sel[s] = false;
        S.sel_set = true;
        if (strcmp(list, "none") != 0) {
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                int s = find_stream(tok);
                if (s < 0) {
                    fprintf(stderr, "bench: unknown stream '%s' (listings, orders)\n", tok);
                    exit(2);
                }
                S.sel[s] = true;
            }
        }
        return true;
    }
    if (strcmp(a, "--stream-orders") == 0) {
        S.orders_arg = argv[++*i];
        return true;
    }
    if (strcmp(a, "--stream-reps") == 0) {
        S.reps = atoi(argv[++*i]);
        return true;
    }
    return false;
}

void stream_bench_cleanup(void)
{
    if (S.orders_tmp) {
        unlink(S.orders_tmp);
        free(S.orders_tmp);
        S.orders_tmp = NULL;
    }
}

/* gen.py jsonl n > a temporary file; its path in S.orders_tmp. */
static bool gen_orders(const char *data_dir, int n)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096], cmd[8400];
    snprintf(path, sizeof path, "%s/tagc-bench-orders-XXXXXX", tmp);
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "bench: %s: %s\n", path, strerror(errno));
        return false;
    }
    close(fd);
    S.orders_tmp = strdup(path);
    fprintf(stderr, "bench: generating %d orders with gen.py into %s ...\n", n, path);
    snprintf(cmd, sizeof cmd, "python3 '%s/seedwork/gen.py' jsonl %d > '%s'", data_dir, n, path);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench: gen.py failed: %s\n", cmd);
        return false;
    }
    return true;
}

static unsigned long long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    unsigned long long nl = 0;
    if (n > 0) {
        fseek(f, -1, SEEK_END);
        nl = fgetc(f) != '\n';
    }
    fclose(f);
    return n > 0 ? (unsigned long long)n + nl : 0;
}

/* MARK: - the check */

typedef struct lockstep {
    const sdef *d;
    tagc_stream_reader *r; /* the same stream, one record at a time */
    void *v_stream, *v_cjson;
    tagc_arena a_stream, a_cjson;
    unsigned long long records, bad, differ;
    char first[200];
} lockstep;

static int compare(void *ctx, const tagc_record *rec)
{
    lockstep *L = ctx;
    const char *line;
    size_t len;
    tagc_error err;
    int got;
    L->records++;
    do
        got = tagc_stream_next(L->r, &line, &len, &err);
    while (got < 0 && !L->r->fatal && rec->rc == 0);
    tagc_arena_reset(&L->a_stream);
    tagc_arena_reset(&L->a_cjson);
    int rs = got == 1 ? L->d->decode(L->v_stream, line, len, &L->a_stream, &err, NULL) : -1;
    int rj = got == 1 ? L->d->cjson(line, len, L->v_cjson, &L->a_cjson) : -1;
    bool same;
    if (rec->rc != 0) {
        L->bad++;
        same = rs != 0 && rj != 0;
    } else {
        same = rs == 0 && rj == 0 && L->d->equal(rec->value, L->v_stream) &&
               L->d->equal(rec->value, L->v_cjson);
    }
    if (!same && L->differ++ == 0)
        snprintf(L->first, sizeof L->first,
                 "record %llu (line %llu): parallel rc %d, stream rc %d, cJSON rc %d%s",
                 (unsigned long long)rec->record, (unsigned long long)rec->line, rec->rc, rs, rj,
                 rec->rc == 0 && rs == 0 && rj == 0 ? ", values differ" : "");
    return 0;
}

static bool check_stream(FILE *f, int si)
{
    const sdef *d = &streams[si];
    src s1, s2;
    tagc_stream_reader r1, r2;
    tagc_error err;
    lockstep L;
    memset(&L, 0, sizeof L);
    L.d = d;
    L.r = &r2;
    if (src_open(&s1, S.path[si], 1) != 0 || src_open(&s2, S.path[si], 1) != 0) {
        fprintf(stderr, "bench: %s: %s\n", S.path[si], strerror(errno));
        return false;
    }
    tagc_stream_reader_init_fn(&r1, src_read, &s1, TAGC_STREAM_JSONL, NULL);
    tagc_stream_reader_init_fn(&r2, src_read, &s2, TAGC_STREAM_JSONL, NULL);
    L.v_stream = calloc(1, d->value_size);
    L.v_cjson = calloc(1, d->value_size);
    tagc_arena_init(&L.a_stream);
    tagc_arena_init(&L.a_cjson);
    /* small chunks, so that even the small stream is cut into many */
    tagc_jsonl_parallel p = {2, 16 << 10, d->value_size, d->decode, NULL, compare, &L};
    int rc = tagc_jsonl_decode_parallel(&r1, &p, &err);
    const char *line;
    size_t len;
    bool extra = tagc_stream_next(&r2, &line, &len, &err) != 0;
    bool ok = rc == 0 && L.differ == 0 && !extra && L.records > 0;
    fprintf(f, "| %s (%s, %.1f MB) | %llu | %llu | %s |\n", d->name, d->type,
            (double)s1.bytes / 1e6, L.records, L.bad,
            ok ? "equal (tagc stream, parallel on 2 workers, cJSON lines)"
               : rc != 0 ? "FAILED (parallel decoder)" : extra ? "DIFFERENT record count" : L.first);
    tagc_arena_free(&L.a_stream);
    tagc_arena_free(&L.a_cjson);
    free(L.v_stream);
    free(L.v_cjson);
    tagc_stream_reader_free(&r1);
    tagc_stream_reader_free(&r2);
    close(s1.fd);
    close(s2.fd);
    return ok;
}

bool stream_bench_check(FILE *f, const char *exe, const char *data_dir, bool quick)
{
    (void)exe;
    bool ok = true;
    S.quick = quick;
    if (S.reps <= 0)
        S.reps = quick ? 1 : 3;
    if (!S.sel_set)
        for (int s = 0; s < S_COUNT; s++)
            S.sel[s] = true;
    for (int si = 0; si < S_COUNT; si++) {
        if (!S.sel[si])
            continue;
        if (si == S_LISTINGS) {
            snprintf(S.path[si], sizeof S.path[si], "%s/bench/listings.ndjson", data_dir);
        } else if (S.orders_arg) {
            snprintf(S.path[si], sizeof S.path[si], "%s", S.orders_arg);
        } else {
            if (!gen_orders(data_dir, quick ? 3000 : 130000)) {
                ok = false;
                continue;
            }
            snprintf(S.path[si], sizeof S.path[si], "%s", S.orders_tmp);
        }
        unsigned long long size = file_size(S.path[si]);
        if (size == 0) {
            fprintf(stderr, "bench: %s: empty or unreadable\n", S.path[si]);
            ok = false;
            continue;
        }
        S.repeat[si] = quick ? streams[si].quick_repeat : streams[si].repeat;
        S.bytes[si] = size * (unsigned long long)S.repeat[si];
        S.ready[si] = true;
    }
    fprintf(f, "\n## Stream checks\n\n");
    fprintf(f, "| stream | records | bad records | every record decoded by every contender |\n");
    fprintf(f, "| --- | ---: | ---: | --- |\n");
    for (int si = 0; si < S_COUNT; si++)
        if (S.ready[si] && !check_stream(f, si))
            ok = false;
    fflush(f);
    return ok;
}

/* MARK: - timing */

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One child run; false when it failed. */
static bool time_child(const char *exe, int si, int k, srow *row)
{
    int pfd[2];
    char passes[32];
    snprintf(passes, sizeof passes, "%d", S.repeat[si]);
    if (pipe(pfd) != 0)
        return false;
    double t0 = mono();
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        execl(exe, exe, "--stream-child", streams[si].name, kind_args[k], S.path[si], passes,
              (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    char out[128] = "";
    size_t n = 0;
    ssize_t got;
    while (n < sizeof out - 1 && (got = read(pfd[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)got;
    out[n] = '\0';
    close(pfd[0]);
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid)
        return false;
    double wall = mono() - t0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return false;
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    char *end;
    unsigned long long records = strtoull(out, &end, 10);
    strtoull(end, &end, 10); /* bad records */
    long hwm = strtol(end, NULL, 10);
    if (hwm > 0)
        ru.ru_maxrss = hwm; /* the child's own (VmHWM), see stream_bench_child */
    if (!row->done || wall < row->wall)
        row->wall = wall;
    if (!row->done || cpu < row->cpu)
        row->cpu = cpu;
    if (ru.ru_maxrss > row->rss_kb)
        row->rss_kb = ru.ru_maxrss;
    row->records = records;
    row->done = true;
    return true;
}

void stream_bench_time(FILE *f, const char *exe)
{
    bool any = false;
    for (int si = 0; si < S_COUNT; si++) {
        if (!S.ready[si])
            continue;
        any = true;
        fprintf(stderr, "bench: timing stream %s (%.1f MB, %d runs of each row) ...\n",
                streams[si].name, (double)S.bytes[si] / 1e6, S.reps);
        for (int rep = 0; rep < S.reps; rep++)
            for (int j = 0; j < K_COUNT; j++) {
                int k = (j + rep) % K_COUNT; /* rotate who goes first */
                if (!time_child(exe, si, k, &S.rows[si][k]))
                    fprintf(stderr, "bench: stream %s, %s: the run failed\n", streams[si].name,
                            kind_names[k]);
            }
    }
    if (!any)
        return;
    fprintf(f, "\n## Streams\n\n");
    fprintf(f, "Each row decodes the whole stream in a fresh process (best of %d runs): wall "
               "time, CPU time of all its threads (user + system, from wait4), peak RSS (VmHWM). "
               "\"vs 1 worker\": wall time of the 1-worker run / this row's; \"CPU vs stream\": "
               "this row's CPU time / tagc stream's; \"vs cJSON\": cJSON's CPU time / this "
               "row's.\n\n",
            S.reps);
    fprintf(f, "| stream | contender | records | wall s | MB/s | CPU s | MB/s of CPU | vs 1 worker "
               "| CPU vs stream | vs cJSON | peak RSS |\n");
    fprintf(f, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (int si = 0; si < S_COUNT; si++) {
        if (!S.ready[si])
            continue;
        const srow *one = &S.rows[si][K_PAR1], *st = &S.rows[si][K_STREAM], *cj = &S.rows[si][K_CJSON];
        double mb = (double)S.bytes[si] / 1e6;
        for (int k = 0; k < K_COUNT; k++) {
            const srow *r = &S.rows[si][k];
            if (!r->done)
                continue;
            char vs1[32] = "—", vsst[32] = "—", vscj[32] = "—";
            if ((k == K_PAR1 || k == K_PAR2) && one->done)
                snprintf(vs1, sizeof vs1, "%.2f×", one->wall / r->wall);
            if (st->done)
                snprintf(vsst, sizeof vsst, "%.2f", r->cpu / st->cpu);
            if (cj->done)
                snprintf(vscj, sizeof vscj, "%.2f×", cj->cpu / r->cpu);
            fprintf(f, "| %s (%.1f MB%s) | %s | %llu | %.3f | %.0f | %.3f | %.0f | %s | %s | %s | %.1f MiB |\n",
                    streams[si].name, mb, S.repeat[si] > 1 ? ", file read repeatedly" : "",
                    kind_names[k], r->records, r->wall, mb / r->wall, r->cpu, mb / r->cpu, vs1, vsst,
                    vscj, (double)r->rss_kb / 1024.0);
        }
    }
    fflush(f);
}

void stream_bench_json(FILE *f)
{
    fprintf(f, ",\n \"streams\": [");
    const char *sep = "";
    for (int si = 0; si < S_COUNT; si++)
        for (int k = 0; k < K_COUNT; k++) {
            const srow *r = &S.rows[si][k];
            if (!S.ready[si] || !r->done)
                continue;
            fprintf(f, "%s\n  {\"stream\": \"%s\", \"bytes\": %llu, \"passes\": %d, \"contender\": \"%s\", "
                       "\"records\": %llu, \"wall_sec\": %.6f, \"cpu_sec\": %.6f, \"peak_rss_kb\": %ld}",
                    sep, streams[si].name, S.bytes[si], S.repeat[si], kind_names[k], r->records,
                    r->wall, r->cpu, r->rss_kb);
            sep = ",";
        }
    fprintf(f, "]");
}
