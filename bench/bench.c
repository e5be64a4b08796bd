/*
 * bench.c - tagc against hand-written cJSON, jansson, json-c and simdjson
 * (On-Demand and DOM, decode only) mappings of the same C structs (see
 * bench/README.md for the method).
 *
 *   bench [--quick] [--check-only] [--reps N] [--min-time SEC] [--json FILE]
 *         [--data DIR] [--workload NAME,...] [--contender NAME,...]
 *   bench --callgrind CONTENDER WORKLOAD decode|encode [N]
 *
 * Every run first checks that all contenders agree (values decoded equal,
 * documents encoded equal as trees) and exits 1 when one does not, so that
 * `bench --quick --check-only` is the smoke test CI runs. Then, unless
 * --check-only, it times each workload and direction, contenders and the
 * decoded copies interleaved, and prints a Markdown table on stdout (progress
 * goes to stderr).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>
#ifdef BENCH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_TOGGLE_COLLECT
#endif

#include "bench.h"
#include "stream_bench.h"

#ifndef BENCH_DATA_DIR
#define BENCH_DATA_DIR "data"
#endif

/* MARK: - workloads */

typedef struct workload {
    const char *name;
    const char *file; /* under the data directory */
    const char *what;
    size_t size; /* of the C value */
    bool (*equal)(const void *a, const void *b);
    int (*decode)(void *v, const char *src, size_t len, tagc_arena *a, tagc_error *e,
                  const tagc_json_opts *o);
    int (*encode)(const void *v, tagc_buf *out, const tagc_json_opts *o);
} workload;

#define WRAP(T)                                                                        \
    static bool eq_##T(const void *a, const void *b) { return T##_equal(a, b); }       \
    static int de_##T(void *v, const char *s, size_t n, tagc_arena *a, tagc_error *e,  \
                      const tagc_json_opts *o)                                         \
    {                                                                                  \
        return T##_decode_json(v, s, n, a, e, o);                                      \
    }                                                                                  \
    static int en_##T(const void *v, tagc_buf *b, const tagc_json_opts *o)             \
    {                                                                                  \
        return T##_encode_json(v, b, o);                                               \
    }
WRAP(user_user)
WRAP(order_order)
WRAP(tree_node)
WRAP(twitter_search_result)
WRAP(canada_feature_collection)
WRAP(citm_catalog)

#define WL(T) sizeof(T), eq_##T, de_##T, en_##T
static const workload workloads[W_COUNT] = {
    [W_USER] = {"user", "seedwork/user.json", "small", WL(user_user)},
    [W_ORDER] = {"order", "seedwork/order.json", "medium", WL(order_order)},
    [W_TREE] = {"tree", "seedwork/tree.json", "recursive", WL(tree_node)},
    [W_TWITTER] = {"twitter", "bench/twitter.json", "wide objects", WL(twitter_search_result)},
    [W_CANADA] = {"canada", "bench/canada.json", "floats", WL(canada_feature_collection)},
    [W_CITM] = {"citm", "bench/citm_catalog.json", "maps", WL(citm_catalog)},
};

/* MARK: - contenders */

enum { C_TAGC, C_TAGC_FAST, C_CJSON, C_JANSSON, C_JSONC, C_SJ_OD, C_SJ_DOM, C_COUNT };
static const char *const contender_names[C_COUNT] = {
    "tagc", "tagc-fast", "cJSON", "jansson", "json-c", "simdjson-ondemand", "simdjson-dom"};
static const bench_codec *const contender_codecs[C_COUNT] = {
    NULL, NULL, bench_cjson_codecs, bench_jansson_codecs, bench_jsonc_codecs,
    bench_simdjson_od_codecs, bench_simdjson_dom_codecs};

/* The peers: every contender that is not tagc ("× best peer" is the fastest of them). */
static bool is_peer(int c) { return c != C_TAGC && c != C_TAGC_FAST; }

static const tagc_json_opts fast_opts = {.no_html_escape = true, .unsorted_maps = true};

enum { DIR_DECODE, DIR_ENCODE, DIR_COUNT };
static const char *const dir_names[DIR_COUNT] = {"decode", "encode"};

/* tagc-fast differs from tagc only when encoding: its options are encode options.
 * simdjson only decodes (its encode entries are NULL). */
static bool runs(int c, int dir)
{
    if (dir == DIR_DECODE)
        return c != C_TAGC_FAST;
    return c == C_TAGC || c == C_TAGC_FAST || contender_codecs[c][0].encode != NULL;
}

static int op_decode(int c, int w, const char *src, size_t len, void *v, tagc_arena *a)
{
    tagc_error err;
    tagc_arena_reset(a);
    if (c == C_TAGC)
        return workloads[w].decode(v, src, len, a, &err, NULL);
    return contender_codecs[c][w].decode(src, len, v, a);
}

static int op_encode(int c, int w, const void *v, tagc_buf *out)
{
    tagc_buf_reset(out);
    if (c == C_TAGC)
        return workloads[w].encode(v, out, NULL);
    if (c == C_TAGC_FAST)
        return workloads[w].encode(v, out, &fast_opts);
    return contender_codecs[c][w].encode(v, out);
}

/* MARK: - utilities */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + BENCH_PADDING);
    for (;;) {
        if (buf == NULL)
            die("out of memory");
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap + BENCH_PADDING);
    }
    fclose(f);
    memset(buf + n, 0, BENCH_PADDING); /* n < cap: the padding fits */
    *len = n;
    return buf;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * The same document with every integer token whose magnitude is above 2^53 (and
 * fits int64) replaced by its value rounded through a double: what a decoder
 * that keeps numbers as doubles (cJSON) can give at best. Returns malloc'd text.
 */
static char *round_big_ints(const char *s, size_t n, size_t *out_len)
{
    char *out = malloc(n + n / 2 + 64), *o = out;
    size_t i = 0;
    if (out == NULL)
        die("out of memory");
    while (i < n) {
        char ch = s[i];
        if (ch == '"') {
            *o++ = s[i++];
            while (i < n && s[i] != '"') {
                if (s[i] == '\\' && i + 1 < n)
                    *o++ = s[i++];
                *o++ = s[i++];
            }
            if (i < n)
                *o++ = s[i++];
        } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
            size_t j = i;
            bool integer = true;
            while (j < n && strchr("+-.eE0123456789", s[j]) != NULL) {
                if (s[j] == '.' || s[j] == 'e' || s[j] == 'E')
                    integer = false;
                j++;
            }
            char tok[64];
            if (integer && j - i < sizeof tok) {
                memcpy(tok, s + i, j - i);
                tok[j - i] = 0;
                errno = 0;
                long long v = strtoll(tok, NULL, 10);
                if (errno == 0) {
                    o += sprintf(o, "%lld", (long long)bench_i64_via_double(v));
                    i = j;
                    continue;
                }
            }
            memcpy(o, s + i, j - i);
            o += j - i;
            i = j;
        } else {
            *o++ = s[i++];
        }
    }
    *out_len = (size_t)(o - out);
    return out;
}

static void machine_line(char *dst, size_t cap)
{
    char model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p++;
                while (*p == ' ')
                    p++;
                p[strcspn(p, "\n")] = 0;
                snprintf(model, sizeof model, "%s", p);
            }
            break;
        }
    }
    if (f)
        fclose(f);
    snprintf(dst, cap,
             "%s, %ld cores; gcc %s; cJSON %s, jansson %s, json-c %s, simdjson %s (kernel %s), "
             "msgpack-c %s",
             model, sysconf(_SC_NPROCESSORS_ONLN), __VERSION__, cJSON_Version(),
             bench_jansson_version(), bench_jsonc_version(), bench_simdjson_version(),
             bench_simdjson_kernel(), bench_msgpackc_version());
}

/* MARK: - document variants */

/*
 * Each JSON workload is decoded from its file and from three copies made at
 * bench time from tagc's encoding of the value (which is Go's json.Marshal
 * output, byte for byte): that compact text itself (left out when the file is
 * already exactly that), and its MarshalIndent copies with two spaces and with
 * a tab (go_indent below). The copies are decode only.
 */
enum { V_FILE, V_MIN, V_IND2, V_TAB, V_COUNT };
static const char *const variant_suffix[V_COUNT] = {"", "-min", "-indent2", "-tab"};

/* A malloc'd copy of src[0..n) followed by BENCH_PADDING zero bytes. */
static char *padded_copy(const char *src, size_t n)
{
    char *p = malloc(n + BENCH_PADDING);
    if (p == NULL) {
        fputs("bench: out of memory\n", stderr);
        exit(2);
    }
    memcpy(p, src, n);
    memset(p + n, 0, BENCH_PADDING);
    return p;
}

/*
 * What Go's json.Indent(dst, src, "", indent) makes of src, compact JSON
 * (json.MarshalIndent is Marshal followed by that): a newline and one indent
 * per level after '{', '[' and ',', "": "" for ':', the closing bracket on its
 * own line; an empty object or array stays "{}" / "[]"; strings are copied
 * as they are. Returns malloc'd, padded text.
 */
static char *go_indent(const char *src, size_t n, const char *indent, size_t *out_len)
{
    size_t il = strlen(indent), cap = n + 64, len = 0, depth = 0;
    char *out = malloc(cap);
    bool need_indent = false; /* after '{' or '[': a newline unless it closes at once */
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        size_t room = 2 + il * (depth + 1) + 2;
        if (out == NULL || len + room + BENCH_PADDING > cap) {
            cap = cap * 2 + room;
            out = realloc(out, cap);
            if (out == NULL) {
                fputs("bench: out of memory\n", stderr);
                exit(2);
            }
        }
        if (need_indent && c != '}' && c != ']') {
            need_indent = false;
            out[len++] = '\n';
            for (size_t d = 0; d < depth; d++, len += il)
                memcpy(out + len, indent, il);
        }
        if (c == '"') { /* copy the string, escapes and all */
            size_t j = i + 1;
            while (j < n && src[j] != '"')
                j += src[j] == '\\' ? 2 : 1;
            size_t sl = j + 1 - i;
            if (len + sl + BENCH_PADDING > cap) {
                cap = cap * 2 + sl;
                out = realloc(out, cap);
                if (out == NULL)
                    exit(2);
            }
            memcpy(out + len, src + i, sl);
            len += sl;
            i = j;
        } else if (c == '{' || c == '[') {
            out[len++] = c;
            depth++;
            need_indent = true;
        } else if (c == '}' || c == ']') {
            depth--;
            if (need_indent) {
                need_indent = false; /* {} and [] stay as they are */
            } else {
                out[len++] = '\n';
                for (size_t d = 0; d < depth; d++, len += il)
                    memcpy(out + len, indent, il);
            }
            out[len++] = c;
        } else if (c == ',') {
            out[len++] = ',';
            out[len++] = '\n';
            for (size_t d = 0; d < depth; d++, len += il)
                memcpy(out + len, indent, il);
        } else if (c == ':') {
            out[len++] = ':';
            out[len++] = ' ';
        } else {
            out[len++] = c;
        }
    }
    memset(out + len, 0, BENCH_PADDING);
    *out_len = len;
    return out;
}

/* MARK: - per-workload state and the checks */

typedef struct wstate {
    bool selected, loaded;
    char *doc; /* = vdoc[V_FILE] */
    size_t len;
    char *vdoc[V_COUNT]; /* NULL: no such variant */
    size_t vlen[V_COUNT];
    tagc_arena ref_arena, norm_arena;
    void *ref;  /* tagc's decode: the reference value */
    void *norm; /* ref with int64 rounded through double (cJSON's best) */
    bool norm_differs;
} wstate;

static wstate ws[W_COUNT];
static const char *data_dir;

/* POSIX cksum's CRC of a document (what `cksum FILE` prints, with its size):
 * figures of two machines compare only when their documents are the same. */
static unsigned long posix_cksum(const unsigned char *p, size_t n)
{
    unsigned long crc = 0;
    size_t len = n;
    for (size_t i = 0;; i++) {
        unsigned byte;
        if (i < n)
            byte = p[i];
        else if (len) /* then the length, low byte first, as POSIX says */
            byte = len & 0xff, len >>= 8;
        else
            break;
        crc ^= (unsigned long)byte << 24;
        for (int k = 0; k < 8; k++)
            crc = (crc & 0x80000000ul ? (crc << 1) ^ 0x04C11DB7ul : crc << 1) & 0xFFFFFFFFul;
    }
    return ~crc & 0xFFFFFFFFul;
}

/* The documents section: each workload's file, size and checksum, and the
 * listing stream's (data/README.md says where each comes from). */
static void print_documents(FILE *f, const bool *wsel)
{
    fprintf(f, "## Documents\n\n| workload | file | bytes | cksum |\n| --- | --- | ---: | ---: |\n");
    for (int w = 0; w < W_COUNT; w++)
        if (wsel[w] && ws[w].loaded)
            fprintf(f, "| %s | %s | %zu | %lu |\n", workloads[w].name, workloads[w].file, ws[w].len,
                    posix_cksum((const unsigned char *)ws[w].doc, ws[w].len));
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/bench/listings.ndjson", data_dir);
    char *doc = read_file(path, &len);
    if (doc)
        fprintf(f, "| listings (stream) | bench/listings.ndjson | %zu | %lu |\n", len,
                posix_cksum((const unsigned char *)doc, len));
    free(doc);
    fprintf(f, "\n");
}

static bool load_workload(int w)
{
    wstate *s = &ws[w];
    char path[4096];
    tagc_error err;
    snprintf(path, sizeof path, "%s/%s", data_dir, workloads[w].file);
    s->doc = read_file(path, &s->len);
    if (s->doc == NULL) {
        fprintf(stderr, "bench: %s: %s (skipping %s)\n", path, strerror(errno), workloads[w].name);
        return false;
    }
    tagc_arena_init(&s->ref_arena);
    tagc_arena_init(&s->norm_arena);
    s->ref = calloc(1, workloads[w].size);
    s->norm = calloc(1, workloads[w].size);
    int rc = workloads[w].decode(s->ref, s->doc, s->len, &s->ref_arena, &err, NULL);
    if (rc != 0) {
        fprintf(stderr, "bench: %s: tagc cannot decode it: %s at %u:%u %s: %s\n", path,
                tagc_strerror(rc), err.line, err.column, err.path, err.message);
        return false;
    }
    tagc_buf b;
    tagc_buf_init(&b);
    size_t nlen;
    if (workloads[w].encode(s->ref, &b, NULL) != 0)
        die("%s: tagc cannot encode the reference value", workloads[w].name);
    char *ntext = round_big_ints((const char *)b.data, b.len, &nlen);
    if (workloads[w].decode(s->norm, ntext, nlen, &s->norm_arena, &err, NULL) != 0)
        die("%s: rounded document does not decode: %s", workloads[w].name, err.message);
    s->norm_differs = !workloads[w].equal(s->ref, s->norm);
    free(ntext);
    s->vdoc[V_FILE] = s->doc;
    s->vlen[V_FILE] = s->len;
    if (b.len != s->len || memcmp(b.data, s->doc, s->len) != 0) {
        s->vdoc[V_MIN] = padded_copy((const char *)b.data, b.len);
        s->vlen[V_MIN] = b.len;
    }
    s->vdoc[V_IND2] = go_indent((const char *)b.data, b.len, "  ", &s->vlen[V_IND2]);
    s->vdoc[V_TAB] = go_indent((const char *)b.data, b.len, "\t", &s->vlen[V_TAB]);
    tagc_buf_free(&b);
    s->loaded = true;
    return true;
}

typedef struct check {
    char decode[96];
    char encode[96];
    bool ok;
} check;

static check checks[W_COUNT][V_COUNT][C_COUNT];

/* Checks every contender on workload w (every variant when decoding); returns
 * false when one disagrees. */
static bool check_workload(int w, const bool *csel)
{
    wstate *s = &ws[w];
    const workload *wl = &workloads[w];
    bool all_ok = true;
    cJSON *input_tree = cJSON_ParseWithLength(s->doc, s->len);
    if (input_tree == NULL)
        die("%s: cJSON cannot parse the input", wl->name);

    for (int vi = 0; vi < V_COUNT; vi++)
    for (int c = 0; c < C_COUNT; c++) {
        check *ck = &checks[w][vi][c];
        ck->ok = true;
        if (!csel[c] || s->vdoc[vi] == NULL)
            continue;
        /* decode: the value equals tagc's (cJSON: up to its int64 rounding) */
        if (!runs(c, DIR_DECODE)) {
            snprintf(ck->decode, sizeof ck->decode, "(same as tagc)");
        } else {
            tagc_arena a;
            void *v = calloc(1, wl->size);
            tagc_arena_init(&a);
            int rc = op_decode(c, w, s->vdoc[vi], s->vlen[vi], v, &a);
            if (rc != 0) {
                snprintf(ck->decode, sizeof ck->decode, "FAILED (rc %d)", rc);
                ck->ok = false;
            } else if (wl->equal(v, s->ref)) {
                snprintf(ck->decode, sizeof ck->decode, "equal");
            } else if (c == C_CJSON && s->norm_differs && wl->equal(v, s->norm)) {
                snprintf(ck->decode, sizeof ck->decode, "equal up to int64 > 2^53 rounded");
            } else {
                snprintf(ck->decode, sizeof ck->decode, "DIFFERENT value");
                ck->ok = false;
            }
            tagc_arena_free(&a);
            free(v);
        }
        /* encode: the document, parsed, equals the input parsed (cJSON_Compare);
         * and tagc decodes it back to the very same value (exact) or not */
        if (vi != V_FILE) {
            snprintf(ck->encode, sizeof ck->encode, "(decode only)");
        } else if (!runs(c, DIR_ENCODE)) {
            snprintf(ck->encode, sizeof ck->encode, "(no encoder)");
        } else {
            tagc_buf out;
            tagc_buf_init(&out);
            int rc = op_encode(c, w, s->ref, &out);
            if (rc != 0) {
                snprintf(ck->encode, sizeof ck->encode, "FAILED (rc %d)", rc);
                ck->ok = false;
            } else {
                cJSON *t = cJSON_ParseWithLength((const char *)out.data, out.len);
                bool same_tree = t != NULL && cJSON_Compare(t, input_tree, true);
                cJSON_Delete(t);
                tagc_arena a;
                tagc_error err;
                void *v = calloc(1, wl->size);
                tagc_arena_init(&a);
                bool exact = wl->decode(v, (const char *)out.data, out.len, &a, &err, NULL) == 0 &&
                             wl->equal(v, s->ref);
                bool bytes = out.len == s->len && memcmp(out.data, s->doc, s->len) == 0;
                tagc_arena_free(&a);
                free(v);
                if (!same_tree) {
                    snprintf(ck->encode, sizeof ck->encode, "DIFFERENT document");
                    ck->ok = false;
                } else {
                    snprintf(ck->encode, sizeof ck->encode, "equal tree%s%s",
                             exact ? ", exact round trip" : ", NOT exact (floats rounded)",
                             bytes ? ", same bytes as input" : "");
                }
            }
            tagc_buf_free(&out);
        }
        if (!ck->ok)
            all_ok = false;
    }
    cJSON_Delete(input_tree);
    return all_ok;
}

/* MARK: - measuring */

typedef struct result {
    bool done;
    double sec_per_op; /* median */
    double min_sec, max_sec;
    double allocs_per_op;
    int reps;
} result;

static result results[W_COUNT][V_COUNT][DIR_COUNT][C_COUNT];

/* One op of contender c; value/out are scratch space. */
typedef struct runner {
    int c, w, v, dir; /* v: the document variant (JSON decode) */
    tagc_arena arena;
    tagc_buf out;
    void *value;
} runner;

static void runner_init(runner *r, int c, int w, int dir)
{
    r->c = c;
    r->w = w;
    r->v = V_FILE;
    r->dir = dir;
    tagc_arena_init(&r->arena);
    tagc_buf_init(&r->out);
    r->value = calloc(1, workloads[w].size);
}

static void runner_free(runner *r)
{
    tagc_arena_free(&r->arena);
    tagc_buf_free(&r->out);
    free(r->value);
}

static inline void runner_op(runner *r)
{
    int rc;
    if (r->dir == DIR_DECODE)
        rc = op_decode(r->c, r->w, ws[r->w].vdoc[r->v], ws[r->w].vlen[r->v], r->value, &r->arena);
    else
        rc = op_encode(r->c, r->w, ws[r->w].ref, &r->out);
    if (rc != 0)
        die("%s %s %s failed while timing (rc %d)", contender_names[r->c], workloads[r->w].name,
            dir_names[r->dir], rc);
}

/*
 * Times rows rs[0..n), each an op of one contender on one document: a warm-up
 * (arena and buffer reach their size), allocations per op counted over
 * alloc_ops ops, a batch calibrated to take about min_time, then reps rounds
 * that run every row once each (the first one rotating), and each row's
 * median into *out[i].
 */
static void time_rows(runner *rs, int n, void (*op)(runner *), result **out, int alloc_ops, int reps,
                      double min_time)
{
    static double samples[V_COUNT * C_COUNT][64];
    long batch[V_COUNT * C_COUNT];

    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            op(&rs[i]);
        size_t before = bench_alloc_calls;
        for (int k = 0; k < alloc_ops; k++)
            op(&rs[i]);
        out[i]->allocs_per_op = (double)(bench_alloc_calls - before) / alloc_ops;
        long ops = 1;
        double t;
        for (;;) {
            double t0 = cpu_now();
            for (long k = 0; k < ops; k++)
                op(&rs[i]);
            t = cpu_now() - t0;
            if (t >= min_time / 8 || ops > (1L << 40))
                break;
            ops *= 2;
        }
        double per = t / (double)ops;
        batch[i] = (long)ceil(min_time / (per > 0 ? per : 1e-9));
        if (batch[i] < 1)
            batch[i] = 1;
    }
    for (int rep = 0; rep < reps; rep++) {
        for (int j = 0; j < n; j++) {
            int i = (j + rep) % n; /* rotate who goes first */
            long ops = 0;
            double t0 = cpu_now(), t;
            do {
                for (long k = 0; k < batch[i]; k++)
                    op(&rs[i]);
                ops += batch[i];
                t = cpu_now() - t0;
            } while (t < min_time);
            samples[i][rep] = t / (double)ops;
        }
    }
    for (int i = 0; i < n; i++) {
        result *r = out[i];
        qsort(samples[i], (size_t)reps, sizeof(double), cmp_double);
        r->sec_per_op = reps % 2 ? samples[i][reps / 2]
                                 : (samples[i][reps / 2 - 1] + samples[i][reps / 2]) / 2;
        r->min_sec = samples[i][0];
        r->max_sec = samples[i][reps - 1];
        r->reps = reps;
        r->done = true;
        runner_free(&rs[i]);
    }
}

/*
 * Times one workload and direction: every selected contender on every
 * variant in vs[0..nv) (decode: the file and its minified and indented
 * copies), all of them interleaved in each of the reps rounds, so that the
 * ratios between contenders and between a document's copies come from the
 * same moments of a shared machine.
 */
static void measure(int w, const int *vs, int nv, int dir, const bool *csel, int reps, double min_time)
{
    static runner rs[V_COUNT * C_COUNT];
    result *out[V_COUNT * C_COUNT];
    int n = 0;

    for (int k = 0; k < nv; k++)
        for (int c = 0; c < C_COUNT; c++) {
            if (!csel[c] || !runs(c, dir))
                continue;
            runner_init(&rs[n], c, w, dir);
            rs[n].v = vs[k];
            out[n++] = &results[w][vs[k]][dir][c];
        }
    time_rows(rs, n, runner_op, out, ws[w].len > 100000 ? 3 : 20, reps, min_time);
}

/* MARK: - output */

static void fmt_time(char *dst, size_t cap, double sec)
{
    double us = sec * 1e6;
    if (us < 10)
        snprintf(dst, cap, "%.3f", us);
    else if (us < 100)
        snprintf(dst, cap, "%.2f", us);
    else if (us < 1000)
        snprintf(dst, cap, "%.1f", us);
    else
        snprintf(dst, cap, "%.0f", us);
}

static void print_checks(FILE *f, const bool *csel)
{
    fprintf(f, "| workload | contender | decode: value vs tagc's | encode: document vs input |\n");
    fprintf(f, "| --- | --- | --- | --- |\n");
    for (int w = 0; w < W_COUNT; w++) {
        if (!ws[w].loaded)
            continue;
        for (int v = 0; v < V_COUNT; v++)
            for (int c = 0; c < C_COUNT; c++)
                if (csel[c] && ws[w].vdoc[v])
                    fprintf(f, "| %s%s | %s | %s | %s |\n", workloads[w].name, variant_suffix[v],
                            contender_names[c], checks[w][v][c].decode, checks[w][v][c].encode);
    }
}

static void print_table(FILE *f, const bool *csel)
{
    fprintf(f, "| workload | direction | contender | µs/op | MB/s | vs cJSON | × best peer | "
               "time vs -min | ns/added B | allocs/op |\n");
    fprintf(f, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (int w = 0; w < W_COUNT; w++)
    for (int v = 0; v < V_COUNT; v++) {
        for (int dir = 0; dir < DIR_COUNT; dir++) {
            const result *base = &results[w][v][dir][C_CJSON];
            double best = 0; /* the fastest peer's time */
            for (int c = 0; c < C_COUNT; c++)
                if (is_peer(c) && results[w][v][dir][c].done &&
                    (best == 0 || results[w][v][dir][c].sec_per_op < best))
                    best = results[w][v][dir][c].sec_per_op;
            for (int c = 0; c < C_COUNT; c++) {
                const result *r = &results[w][v][dir][c];
                if (!csel[c] || !r->done)
                    continue;
                const result *m = &results[w][V_MIN][dir][c]; /* an indented copy against it */
                char t[32], ratio[32], vbest[32], vmin[32], added[32];
                fmt_time(t, sizeof t, r->sec_per_op);
                if (base->done)
                    snprintf(ratio, sizeof ratio, "%.2f×", base->sec_per_op / r->sec_per_op);
                else
                    snprintf(ratio, sizeof ratio, "—");
                if (best > 0)
                    snprintf(vbest, sizeof vbest, "%.2f×", best / r->sec_per_op);
                else
                    snprintf(vbest, sizeof vbest, "—");
                if ((v == V_IND2 || v == V_TAB) && m->done && ws[w].vlen[v] > ws[w].vlen[V_MIN]) {
                    snprintf(vmin, sizeof vmin, "%+.0f %%", 100.0 * (r->sec_per_op / m->sec_per_op - 1));
                    /* the same difference in absolute terms: what a byte of indent costs */
                    snprintf(added, sizeof added, "%.3f",
                             (r->sec_per_op - m->sec_per_op) * 1e9 / (double)(ws[w].vlen[v] - ws[w].vlen[V_MIN]));
                } else {
                    snprintf(vmin, sizeof vmin, "—");
                    snprintf(added, sizeof added, "—");
                }
                fprintf(f, "| %s%s (%zu B) | %s | %s | %s | %.1f | %s | %s | %s | %s | %.*f |\n",
                        workloads[w].name, variant_suffix[v], ws[w].vlen[v], dir_names[dir],
                        contender_names[c], t, (double)ws[w].vlen[v] / r->sec_per_op / 1e6,
                        ratio, vbest, vmin, added,
                        r->allocs_per_op == floor(r->allocs_per_op) ? 0 : 1, r->allocs_per_op);
            }
        }
    }
}

static void mp_write_json(FILE *f);

static void write_json(const char *path, const bool *csel, const char *machine, int reps,
                       double min_time, bool checks_ok)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        die("%s: %s", path, strerror(errno));
    fprintf(f, "{\"machine\": \"%s\", \"reps\": %d, \"min_time\": %g, \"checks_ok\": %s,\n", machine,
            reps, min_time, checks_ok ? "true" : "false");
    fprintf(f, " \"documents\": [");
    const char *sep = "";
    for (int w = 0; w < W_COUNT; w++)
        if (ws[w].loaded) {
            fprintf(f, "%s\n  {\"workload\": \"%s\", \"file\": \"%s\", \"bytes\": %zu, \"cksum\": %lu}", sep,
                    workloads[w].name, workloads[w].file, ws[w].len,
                    posix_cksum((const unsigned char *)ws[w].doc, ws[w].len));
            sep = ",";
        }
    fprintf(f, "],\n \"checks\": [");
    sep = "";
    for (int w = 0; w < W_COUNT; w++) {
        if (!ws[w].loaded)
            continue;
        for (int v = 0; v < V_COUNT; v++)
            for (int c = 0; c < C_COUNT; c++) {
                if (!csel[c] || ws[w].vdoc[v] == NULL)
                    continue;
                const check *ck = &checks[w][v][c];
                fprintf(f, "%s\n  {\"workload\": \"%s%s\", \"contender\": \"%s\", "
                           "\"decode\": \"%s\", \"encode\": \"%s\", \"ok\": %s}",
                        sep, workloads[w].name, variant_suffix[v], contender_names[c], ck->decode,
                        ck->encode, ck->ok ? "true" : "false");
                sep = ",";
            }
    }
    fprintf(f, "],\n \"results\": [");
    sep = "";
    for (int w = 0; w < W_COUNT; w++)
    for (int v = 0; v < V_COUNT; v++)
        for (int dir = 0; dir < DIR_COUNT; dir++)
            for (int c = 0; c < C_COUNT; c++) {
                const result *r = &results[w][v][dir][c];
                if (!r->done)
                    continue;
                fprintf(f, "%s\n  {\"workload\": \"%s%s\", \"bytes\": %zu, \"direction\": \"%s\", "
                           "\"contender\": \"%s\", \"sec_per_op\": %.9g, \"min_sec\": %.9g, "
                           "\"max_sec\": %.9g, \"reps\": %d, \"allocs_per_op\": %g}",
                        sep, workloads[w].name, variant_suffix[v], ws[w].vlen[v], dir_names[dir],
                        contender_names[c],
                        r->sec_per_op, r->min_sec, r->max_sec, r->reps, r->allocs_per_op);
                sep = ",";
            }
    fprintf(f, "]");
    stream_bench_json(f);
    mp_write_json(f);
    fprintf(f, "}\n");
    fclose(f);
}

/* MARK: - main */

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(names[i], s) == 0)
            return i;
    return -1;
}

static const char *workload_name(int w) { return workloads[w].name; }

static int find_workload(const char *s)
{
    for (int w = 0; w < W_COUNT; w++)
        if (strcmp(workload_name(w), s) == 0)
            return w;
    return -1;
}

/* "twitter-indent2" and the like: the workload, and its variant in *v. */
static int find_workload_variant(const char *s, int *v)
{
    for (int w = 0; w < W_COUNT; w++) {
        size_t n = strlen(workload_name(w));
        if (strncmp(workload_name(w), s, n) != 0)
            continue;
        for (int i = 0; i < V_COUNT; i++)
            if (strcmp(s + n, variant_suffix[i]) == 0) {
                *v = i;
                return w;
            }
    }
    return -1;
}

/* "a,b,c" into sel[] */
static void select_list(char *list, bool *sel, int n, int (*find)(const char *), const char *what)
{
    for (int i = 0; i < n; i++)
        sel[i] = false;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int i = find(tok);
        if (i < 0)
            die("unknown %s '%s'", what, tok);
        sel[i] = true;
    }
}

static int find_contender(const char *s) { return find_name(contender_names, C_COUNT, s); }

/* MARK: - MessagePack rows */

/*
 * tagc's generated <type>_encode_msgpack / _decode_msgpack against a
 * hand-written msgpack-c mapping (m_msgpackc.c) of the same structs, for the
 * workloads that have one. The input document of each is tagc's MessagePack of
 * the value tagc decoded from the JSON workload.
 */
enum { MC_TAGC, MC_MSGPACKC, MC_COUNT };
static const char *const mp_contender_names[MC_COUNT] = {"tagc", "msgpack-c"};

typedef struct mp_workload {
    int (*decode)(void *v, const uint8_t *src, size_t len, tagc_arena *a, tagc_error *e);
    int (*encode)(const void *v, tagc_buf *out);
} mp_workload;

#define WRAP_MP(T)                                                                     \
    static int mde_##T(void *v, const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e) \
    {                                                                                  \
        return T##_decode_msgpack(v, s, n, a, e);                                      \
    }                                                                                  \
    static int men_##T(const void *v, tagc_buf *b) { return T##_encode_msgpack(v, b); }
WRAP_MP(user_user)
WRAP_MP(order_order)
WRAP_MP(tree_node)

static const mp_workload mp_workloads[W_COUNT] = {
    [W_USER] = {mde_user_user, men_user_user},
    [W_ORDER] = {mde_order_order, men_order_order},
    [W_TREE] = {mde_tree_node, men_tree_node},
};

static bool mpsel[MC_COUNT];  /* contenders of the MessagePack rows */
static tagc_buf mp_docs[W_COUNT]; /* the input documents */
static bool mp_loaded[W_COUNT];
static check mp_checks[W_COUNT][MC_COUNT];
static result mp_results[W_COUNT][DIR_COUNT][MC_COUNT];

static bool mp_has(int w) { return mp_workloads[w].decode != NULL; }

static int mp_find_contender(const char *s) { return find_name(mp_contender_names, MC_COUNT, s); }

/* --contender: the MessagePack contenders named in list; names that only
 * MessagePack knows (msgpack-c) are taken out of it for the JSON selection. */
static void mp_select(char *list)
{
    char out[1024] = "";
    for (int i = 0; i < MC_COUNT; i++)
        mpsel[i] = false;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int i = mp_find_contender(tok);
        if (i >= 0)
            mpsel[i] = true;
        if (find_contender(tok) >= 0 || i < 0) {
            if (strlen(out) + strlen(tok) + 2 > sizeof out)
                die("--contender list too long");
            strcat(strcat(out, *out ? "," : ""), tok);
        }
    }
    strcpy(list, out);
}

static int mp_op_decode(int c, int w, const uint8_t *src, size_t len, void *v, tagc_arena *a)
{
    tagc_error err;
    tagc_arena_reset(a);
    if (c == MC_TAGC)
        return mp_workloads[w].decode(v, src, len, a, &err);
    return bench_msgpackc_codecs[w].decode((const char *)src, len, v, a);
}

static int mp_op_encode(int c, int w, const void *v, tagc_buf *out)
{
    tagc_buf_reset(out);
    if (c == MC_TAGC)
        return mp_workloads[w].encode(v, out);
    return bench_msgpackc_codecs[w].encode(v, out);
}

/* tagc's MessagePack of the reference value: the input document. */
static bool mp_load(int w)
{
    if (!ws[w].loaded || !mp_has(w))
        return false;
    tagc_buf_init(&mp_docs[w]);
    if (mp_workloads[w].encode(ws[w].ref, &mp_docs[w]) != 0)
        die("%s: tagc cannot encode the reference value as MessagePack", workloads[w].name);
    mp_loaded[w] = true;
    return true;
}

/* Decode: each contender's value of the document equals the reference value.
 * Encode: each contender's bytes for the reference value are tagc's bytes, or
 * at least tagc decodes them back to the reference value. */
static bool mp_check_workload(int w)
{
    const workload *wl = &workloads[w];
    const tagc_buf *doc = &mp_docs[w];
    bool all_ok = true;
    for (int c = 0; c < MC_COUNT; c++) {
        check *ck = &mp_checks[w][c];
        ck->ok = true;
        if (!mpsel[c])
            continue;
        tagc_arena a;
        void *v = calloc(1, wl->size);
        tagc_arena_init(&a);
        int rc = mp_op_decode(c, w, doc->data, doc->len, v, &a);
        if (rc != 0) {
            snprintf(ck->decode, sizeof ck->decode, "FAILED (rc %d)", rc);
            ck->ok = false;
        } else if (wl->equal(v, ws[w].ref)) {
            snprintf(ck->decode, sizeof ck->decode, "equal");
        } else {
            snprintf(ck->decode, sizeof ck->decode, "DIFFERENT value");
            ck->ok = false;
        }
        tagc_arena_free(&a);
        free(v);

        tagc_buf out;
        tagc_buf_init(&out);
        rc = mp_op_encode(c, w, ws[w].ref, &out);
        if (rc != 0) {
            snprintf(ck->encode, sizeof ck->encode, "FAILED (rc %d)", rc);
            ck->ok = false;
        } else if (out.len == doc->len && memcmp(out.data, doc->data, doc->len) == 0) {
            snprintf(ck->encode, sizeof ck->encode, "same bytes as tagc");
        } else {
            tagc_error err;
            v = calloc(1, wl->size);
            tagc_arena_init(&a);
            bool same = mp_workloads[w].decode(v, out.data, out.len, &a, &err) == 0 &&
                        wl->equal(v, ws[w].ref);
            tagc_arena_free(&a);
            free(v);
            if (same) {
                snprintf(ck->encode, sizeof ck->encode, "other bytes, tagc decodes them equal");
            } else {
                snprintf(ck->encode, sizeof ck->encode, "DIFFERENT document");
                ck->ok = false;
            }
        }
        tagc_buf_free(&out);
        if (!ck->ok)
            all_ok = false;
    }
    return all_ok;
}

/* The MessagePack rows time with the JSON rows' runner (c indexes the MessagePack contenders). */
static inline void mp_runner_op(runner *r)
{
    int rc;
    if (r->dir == DIR_DECODE)
        rc = mp_op_decode(r->c, r->w, mp_docs[r->w].data, mp_docs[r->w].len, r->value, &r->arena);
    else
        rc = mp_op_encode(r->c, r->w, ws[r->w].ref, &r->out);
    if (rc != 0)
        die("%s %s msgpack %s failed while timing (rc %d)", mp_contender_names[r->c],
            workloads[r->w].name, dir_names[r->dir], rc);
}

/* As measure(), for the MessagePack contenders. */
static void mp_measure(int w, int dir, int reps, double min_time)
{
    runner rs[MC_COUNT];
    result *out[MC_COUNT];
    int n = 0;

    for (int c = 0; c < MC_COUNT; c++) {
        if (!mpsel[c])
            continue;
        runner_init(&rs[n], c, w, dir);
        out[n++] = &mp_results[w][dir][c];
    }
    time_rows(rs, n, mp_runner_op, out, 20, reps, min_time);
}

static void mp_print_checks(FILE *f)
{
    fprintf(f, "| workload | contender | decode: value vs tagc's | encode: bytes vs tagc's |\n");
    fprintf(f, "| --- | --- | --- | --- |\n");
    for (int w = 0; w < W_COUNT; w++) {
        if (!mp_loaded[w])
            continue;
        for (int c = 0; c < MC_COUNT; c++)
            if (mpsel[c])
                fprintf(f, "| %s | %s | %s | %s |\n", workloads[w].name, mp_contender_names[c],
                        mp_checks[w][c].decode, mp_checks[w][c].encode);
    }
}

static void mp_print_table(FILE *f)
{
    fprintf(f, "| workload | direction | contender | µs/op | MB/s | vs msgpack-c | allocs/op |\n");
    fprintf(f, "| --- | --- | --- | ---: | ---: | ---: | ---: |\n");
    for (int w = 0; w < W_COUNT; w++) {
        for (int dir = 0; dir < DIR_COUNT; dir++) {
            const result *base = &mp_results[w][dir][MC_MSGPACKC];
            for (int c = 0; c < MC_COUNT; c++) {
                const result *r = &mp_results[w][dir][c];
                if (!mpsel[c] || !r->done)
                    continue;
                char t[32], ratio[32];
                fmt_time(t, sizeof t, r->sec_per_op);
                if (base->done)
                    snprintf(ratio, sizeof ratio, "%.2f×", base->sec_per_op / r->sec_per_op);
                else
                    snprintf(ratio, sizeof ratio, "—");
                fprintf(f, "| %s (%zu B) | %s | %s | %s | %.1f | %s | %.*f |\n", workloads[w].name,
                        mp_docs[w].len, dir_names[dir], mp_contender_names[c], t,
                        (double)mp_docs[w].len / r->sec_per_op / 1e6, ratio,
                        r->allocs_per_op == floor(r->allocs_per_op) ? 0 : 1, r->allocs_per_op);
            }
        }
    }
}

/* The "msgpack_checks" and "msgpack_results" members of --json's object. */
static void mp_write_json(FILE *f)
{
    const char *sep = "";
    fprintf(f, ",\n \"msgpack_checks\": [");
    for (int w = 0; w < W_COUNT; w++) {
        if (!mp_loaded[w])
            continue;
        for (int c = 0; c < MC_COUNT; c++) {
            if (!mpsel[c])
                continue;
            fprintf(f, "%s\n  {\"workload\": \"%s\", \"contender\": \"%s\", \"decode\": \"%s\", "
                       "\"encode\": \"%s\", \"ok\": %s}",
                    sep, workloads[w].name, mp_contender_names[c], mp_checks[w][c].decode,
                    mp_checks[w][c].encode, mp_checks[w][c].ok ? "true" : "false");
            sep = ",";
        }
    }
    fprintf(f, "],\n \"msgpack_results\": [");
    sep = "";
    for (int w = 0; w < W_COUNT; w++)
        for (int dir = 0; dir < DIR_COUNT; dir++)
            for (int c = 0; c < MC_COUNT; c++) {
                const result *r = &mp_results[w][dir][c];
                if (!r->done)
                    continue;
                fprintf(f, "%s\n  {\"workload\": \"%s\", \"bytes\": %zu, \"direction\": \"%s\", "
                           "\"contender\": \"%s\", \"sec_per_op\": %.9g, \"min_sec\": %.9g, "
                           "\"max_sec\": %.9g, \"reps\": %d, \"allocs_per_op\": %g}",
                        sep, workloads[w].name, mp_docs[w].len, dir_names[dir],
                        mp_contender_names[c], r->sec_per_op, r->min_sec, r->max_sec, r->reps,
                        r->allocs_per_op);
                sep = ",";
            }
    fprintf(f, "]");
}

/* bench --callgrind CONTENDER WORKLOAD msgpack-decode|msgpack-encode [N] */
static int mp_callgrind_main(int argc, char **argv)
{
    int c = mp_find_contender(argv[0]), w = find_workload(argv[1]);
    int dir = find_name(dir_names, DIR_COUNT, argv[2] + strlen("msgpack-"));
    long n = argc > 3 ? atol(argv[3]) : 10;
    if (c < 0 || w < 0 || dir < 0 || n < 1 || !mp_has(w))
        die("--callgrind: bad MessagePack contender, workload or direction");
    if (!load_workload(w) || !mp_load(w))
        return 2;
    runner r;
    runner_init(&r, c, w, dir);
    mp_runner_op(&r);
    mp_runner_op(&r);
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
    for (long i = 0; i < n; i++)
        mp_runner_op(&r);
    CALLGRIND_TOGGLE_COLLECT;
    printf("%s %s msgpack-%s %ld ops\n", mp_contender_names[c], workloads[w].name, dir_names[dir],
           n);
    runner_free(&r);
    return 0;
}

static int callgrind_main(int argc, char **argv)
{
    if (argc < 3)
        die("usage: bench --callgrind CONTENDER WORKLOAD decode|encode [N]");
    if (strncmp(argv[2], "msgpack-", 8) == 0)
        return mp_callgrind_main(argc, argv);
    int vi = V_FILE, c = find_contender(argv[0]), w = find_workload_variant(argv[1], &vi);
    int dir = find_name(dir_names, DIR_COUNT, argv[2]);
    long n = argc > 3 ? atol(argv[3]) : 10;
    if (c < 0 || w < 0 || dir < 0 || n < 1 || !runs(c, dir) || (vi != V_FILE && dir != DIR_DECODE))
        die("--callgrind: bad contender, workload or direction");
    if (!load_workload(w))
        return 2;
    if (ws[w].vdoc[vi] == NULL)
        die("--callgrind: %s has no such variant", workloads[w].name);
    runner r;
    runner_init(&r, c, w, dir);
    r.v = vi;
    runner_op(&r); /* warm up: arena, buffer and library state reach their size */
    runner_op(&r);
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
    for (long i = 0; i < n; i++)
        runner_op(&r);
    CALLGRIND_TOGGLE_COLLECT;
    printf("%s %s %s %ld ops\n", contender_names[c], workloads[w].name, dir_names[dir], n);
    runner_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    bool quick = false, check_only = false;
    int reps = 7;
    double min_time = 0.2;
    const char *json_path = NULL;
    bool wsel[W_COUNT], csel[C_COUNT];
    for (int i = 0; i < W_COUNT; i++)
        wsel[i] = true;
    for (int i = 0; i < C_COUNT; i++)
        csel[i] = true;
    for (int i = 0; i < MC_COUNT; i++)
        mpsel[i] = true;
    data_dir = getenv("TAGC_BENCH_DATA") ? getenv("TAGC_BENCH_DATA") : BENCH_DATA_DIR;
    bool reps_set = false, min_set = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--callgrind") == 0)
            return callgrind_main(argc - i - 1, argv + i + 1);
        else if (strcmp(a, "--stream-child") == 0)
            return stream_bench_child(argc - i - 1, argv + i + 1);
        else if (stream_bench_arg(argc, argv, &i))
            continue;
        else if (strcmp(a, "--quick") == 0)
            quick = true;
        else if (strcmp(a, "--check-only") == 0)
            check_only = true;
        else if (strcmp(a, "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]), reps_set = true;
        else if (strcmp(a, "--min-time") == 0 && i + 1 < argc)
            min_time = atof(argv[++i]), min_set = true;
        else if (strcmp(a, "--json") == 0 && i + 1 < argc)
            json_path = argv[++i];
        else if (strcmp(a, "--data") == 0 && i + 1 < argc)
            data_dir = argv[++i];
        else if (strcmp(a, "--workload") == 0 && i + 1 < argc)
            select_list(argv[++i], wsel, W_COUNT, find_workload, "workload");
        else if (strcmp(a, "--contender") == 0 && i + 1 < argc)
            mp_select(argv[i + 1]), select_list(argv[++i], csel, C_COUNT, find_contender, "contender");
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: bench [--quick] [--check-only] [--reps N] [--min-time SEC] [--json FILE]\n"
                   "             [--data DIR] [--workload user,order,tree,twitter,canada,citm]\n"
                   "             [--contender tagc,tagc-fast,cJSON,jansson,json-c,simdjson-ondemand,\n"
                   "                          simdjson-dom,msgpack-c]\n"
                   "             [--streams listings,orders|none] [--stream-orders FILE] [--stream-reps N]\n"
                   "       bench --callgrind CONTENDER WORKLOAD decode|encode [N]\n"
                   "       bench --callgrind tagc|msgpack-c WORKLOAD msgpack-decode|msgpack-encode [N]\n");
            return 0;
        } else
            die("unknown argument '%s' (try --help)", a);
    }
    if (quick) {
        if (!reps_set)
            reps = 3;
        if (!min_set)
            min_time = 0.02;
    }
    if (reps < 1 || reps > 64 || !(min_time > 0))
        die("--reps must be 1..64 and --min-time positive");

    char machine[512];
    machine_line(machine, sizeof machine);
    fprintf(stderr, "bench: %s\n", machine);

    bool ok = true;
    int loaded = 0;
    for (int w = 0; w < W_COUNT; w++) {
        if (!wsel[w])
            continue;
        if (!load_workload(w)) {
            ok = false;
            continue;
        }
        loaded++;
        if (!check_workload(w, csel)) {
            fprintf(stderr, "bench: %s: contenders DISAGREE\n", workloads[w].name);
            ok = false;
        }
    }
    if (loaded == 0)
        die("no workload could be loaded (data directory %s)", data_dir);
    bool any_mp = false;
    for (int c = 0; c < MC_COUNT; c++)
        any_mp |= mpsel[c];
    for (int w = 0; w < W_COUNT && any_mp; w++) {
        if (wsel[w] && mp_load(w) && !mp_check_workload(w)) {
            fprintf(stderr, "bench: %s: MessagePack contenders DISAGREE\n", workloads[w].name);
            ok = false;
        }
    }

    print_documents(stdout, wsel);
    printf("## Checks\n\n");
    print_checks(stdout, csel);
    atexit(stream_bench_cleanup);
    if (!stream_bench_check(stdout, "/proc/self/exe", data_dir, quick))
        ok = false;
    if (any_mp) {
        printf("\n### MessagePack\n\n");
        mp_print_checks(stdout);
    }
    printf("\nAll contenders agree: %s\n", ok ? "yes" : "NO");
    fflush(stdout);

    if (!check_only && ok) {
        for (int w = 0; w < W_COUNT; w++) {
            if (!ws[w].loaded)
                continue;
            for (int dir = 0; dir < DIR_COUNT; dir++) {
                int vs[V_COUNT], nv = 0; /* decode: every copy; encode: the value once */
                for (int v = 0; v < V_COUNT; v++)
                    if (ws[w].vdoc[v] != NULL && (v == V_FILE || dir == DIR_DECODE))
                        vs[nv++] = v;
                fprintf(stderr, "bench: timing %s %s (%d cop%s) ...\n", workloads[w].name, dir_names[dir], nv,
                        nv == 1 ? "y" : "ies");
                measure(w, vs, nv, dir, csel, reps, min_time);
            }
        }
        printf("\n## Results\n\n%s\n\nCPU time per operation, median of %d runs of at least %g s "
               "each, contenders and a document's copies interleaved; MB/s of input document bytes; \"vs cJSON\" = cJSON's "
               "time / this contender's time (higher is faster); \"× best peer\" = the fastest "
               "other library's time / this contender's time; allocs/op = malloc + calloc + "
               "realloc calls.\n\n",
               machine, reps, min_time);
        print_table(stdout, csel);
        if (any_mp) {
            for (int w = 0; w < W_COUNT; w++) {
                if (!mp_loaded[w])
                    continue;
                for (int dir = 0; dir < DIR_COUNT; dir++) {
                    fprintf(stderr, "bench: timing %s msgpack %s ...\n", workloads[w].name,
                            dir_names[dir]);
                    mp_measure(w, dir, reps, min_time);
                }
            }
            printf("\n### MessagePack\n\n\"vs msgpack-c\" = msgpack-c's time / this contender's "
                   "time; MB/s of MessagePack input bytes.\n\n");
            mp_print_table(stdout);
        }
        stream_bench_time(stdout, "/proc/self/exe");
    }
    if (json_path)
        write_json(json_path, csel, machine, reps, min_time, ok);
    return ok ? 0 : 1;
}
