/*
 * test_roundtrip.c - the workload documents through the generated JSON codecs.
 *
 * For each document (data/seedwork/{user,order,tree}.json and
 * bench/{twitter,canada,citm_catalog}.json of the data folder) and its schema
 * (schemas/NAME.tagc):
 *   - decode, encode: the output is the input as a parse tree (cJSON, an
 *     independent parser, compares them);
 *   - decode(encode(x)) _equal x;
 *   - pretty-printed, and without HTML escaping / map sorting: the same tree;
 *   - byte for byte what Go's encoding/json writes for the same declarations
 *     (references made by go_check/run.sh; skipped without Go). The seedwork
 *     files are themselves json.Marshal's output plus a newline, so they are
 *     compared with the input bytes even without Go;
 *   - a fixed buffer of exactly the output size suffices, one byte less is
 *     TAGC_E_FULL; strict decoding accepts every document (every key declared,
 *     every field without omitempty present); a reset arena decodes again.
 *
 * Environment: TAGC_DATA_DIR (the data folder), TAGC_GO_REF_DIR (where
 * the Go references are; unset: those comparisons are skipped).
 */
#include <criterion/criterion.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tagc.h>

#include "canada.tagc.h"
#include "citm.tagc.h"
#include "order.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"
#include "user.tagc.h"

/* MARK: - Workloads */

typedef int (*decode_fn)(void *v, const char *src, size_t len, tagc_arena *arena,
                         tagc_error *err, const tagc_json_opts *opts);
typedef int (*encode_fn)(const void *v, tagc_buf *out, const tagc_json_opts *opts);
typedef bool (*equal_fn)(const void *a, const void *b);

typedef struct workload {
    const char *name;  /* also the name of the Go reference files */
    const char *file;  /* under TAGC_DATA_DIR */
    size_t size;       /* of the root type */
    bool is_go_output; /* the file is json.Marshal's output followed by "\n" */
    decode_fn decode;
    encode_fn encode;
    equal_fn equal;
} workload;

/* Typed wrappers, so that every call goes through the function's own type. */
#define WORKLOAD(id, type, path, go_output)                                              \
    static int id##_decode(void *v, const char *src, size_t len, tagc_arena *arena,      \
                           tagc_error *err, const tagc_json_opts *opts)                  \
    {                                                                                    \
        return type##_decode_json((type *)v, src, len, arena, err, opts);                \
    }                                                                                    \
    static int id##_encode(const void *v, tagc_buf *out, const tagc_json_opts *opts)     \
    {                                                                                    \
        return type##_encode_json((const type *)v, out, opts);                           \
    }                                                                                    \
    static bool id##_equal(const void *a, const void *b)                                 \
    {                                                                                    \
        return type##_equal((const type *)a, (const type *)b);                           \
    }                                                                                    \
    static const workload id##_workload = {#id, path, sizeof(type), go_output,           \
                                           id##_decode, id##_encode, id##_equal};

WORKLOAD(user, user_user, "seedwork/user.json", true)
WORKLOAD(order, order_order, "seedwork/order.json", true)
WORKLOAD(tree, tree_node, "seedwork/tree.json", true)
WORKLOAD(twitter, twitter_search_result, "bench/twitter.json", false)
WORKLOAD(canada, canada_feature_collection, "bench/canada.json", false)
WORKLOAD(citm, citm_catalog, "bench/citm_catalog.json", false)

/* MARK: - Helpers */

/* The whole file, NUL-terminated; NULL if it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

static char *path_join(const char *dir, const char *name, const char *suffix)
{
    size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
    char *p = malloc(n);
    cr_assert_not_null(p);
    snprintf(p, n, "%s/%s%s", dir, name, suffix);
    return p;
}

/* A decoded document: its text, its value and the arena the value lives in. */
typedef struct doc {
    const workload *w;
    char *src;
    size_t len;
    void *val;
    tagc_arena arena;
} doc;

static void decode_or_fail(const workload *w, void *val, const char *src, size_t len,
                           tagc_arena *arena, const tagc_json_opts *opts, const char *what)
{
    tagc_error err;
    memset(&err, 0, sizeof err);
    int rc = w->decode(val, src, len, arena, &err, opts);
    cr_assert_eq(rc, 0, "%s: decoding %s: %s (%d) at %u:%u (offset %zu), %s: %s", w->name, what,
                 tagc_strerror(rc), rc, (unsigned)err.line, (unsigned)err.column, err.offset,
                 err.path, err.message);
}

static void load(doc *d, const workload *w)
{
    const char *dir = getenv("TAGC_DATA_DIR");
    cr_assert_not_null(dir, "TAGC_DATA_DIR is not set");
    char *path = path_join(dir, w->file, "");
    d->w = w;
    d->src = read_file(path, &d->len);
    cr_assert_not_null(d->src, "cannot read %s", path);
    free(path);
    d->val = calloc(1, w->size);
    cr_assert_not_null(d->val);
    tagc_arena_init(&d->arena);
    decode_or_fail(w, d->val, d->src, d->len, &d->arena, NULL, "the input");
}

static void drop(doc *d)
{
    tagc_arena_free(&d->arena);
    free(d->val);
    free(d->src);
}

/* Encodes d's value with opts into a fresh growable buffer (caller frees). */
static void encode_or_fail(const doc *d, const tagc_json_opts *opts, tagc_buf *out)
{
    tagc_buf_init(out);
    int rc = d->w->encode(d->val, out, opts);
    cr_assert_eq(rc, 0, "%s: encode: %s (%d)", d->w->name, tagc_strerror(rc), rc);
    cr_assert_eq(out->err, 0, "%s: encode left the buffer in error %d", d->w->name, out->err);
    cr_assert_gt(out->len, 0);
}

/* a and b are the same JSON value, as cJSON parses them (object members as sets). */
static void assert_same_tree(const char *name, const char *a, size_t alen, const uint8_t *b,
                             size_t blen, const char *what)
{
    cJSON *ta = cJSON_ParseWithLength(a, alen);
    cJSON *tb = cJSON_ParseWithLength((const char *)b, blen);
    cr_assert_not_null(ta, "%s: cJSON rejects the input", name);
    cr_assert_not_null(tb, "%s: cJSON rejects the %s output: %.200s", name, what,
                       cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "");
    bool same = cJSON_Compare(ta, tb, true);
    cJSON_Delete(ta);
    cJSON_Delete(tb);
    cr_assert(same, "%s: the %s output is not the input's tree", name, what);
}

/* The offset of the first byte where a and b differ (or the shorter length). */
static size_t first_diff(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t i = 0;
    while (i < alen && i < blen && a[i] == b[i])
        i++;
    return i;
}

static void assert_same_bytes(const char *name, const uint8_t *want, size_t wlen,
                              const uint8_t *got, size_t glen, const char *what)
{
    size_t i = first_diff(want, wlen, got, glen);
    size_t from = i > 40 ? i - 40 : 0;
    cr_assert(i == wlen && i == glen,
              "%s: %s: %zu bytes expected, %zu written; first difference at %zu:\n"
              "  want ...%.*s\n  got  ...%.*s",
              name, what, wlen, glen, i, (int)((wlen - from) < 80 ? wlen - from : 80),
              (const char *)want + from, (int)((glen - from) < 80 ? glen - from : 80),
              (const char *)got + from);
}

/* Compares out with Go's reference file NAME.go<suffix>; skips without Go. */
static void assert_go_bytes(const doc *d, const tagc_buf *out, const char *suffix)
{
    const char *dir = getenv("TAGC_GO_REF_DIR");
    if (!dir || !*dir)
        cr_skip_test("Go references not built (no Go)");
    char *path = path_join(dir, d->w->name, suffix);
    size_t len = 0;
    char *want = read_file(path, &len);
    cr_assert_not_null(want, "cannot read the Go reference %s", path);
    assert_same_bytes(d->w->name, (const uint8_t *)want, len, out->data, out->len, path);
    free(want);
    free(path);
}

/* MARK: - The checks */

/* decode, encode: the input's tree; and, for files Go wrote, the input's bytes. */
static void check_tree(const workload *w)
{
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, NULL, &out);
    assert_same_tree(w->name, d.src, d.len, out.data, out.len, "compact");
    if (w->is_go_output) {
        size_t n = d.len;
        while (n > 0 && d.src[n - 1] == '\n')
            n--;
        assert_same_bytes(w->name, (const uint8_t *)d.src, n, out.data, out.len,
                          "the input without its newline");
    }
    tagc_buf_free(&out);
    drop(&d);
}

/* decode(encode(x)) == x, and _equal is not trivially true. */
static void check_redecode(const workload *w)
{
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, NULL, &out);

    void *again = calloc(1, w->size);
    void *zero = calloc(1, w->size);
    cr_assert(again && zero);
    tagc_arena arena;
    tagc_arena_init(&arena);
    decode_or_fail(w, again, (const char *)out.data, out.len, &arena, NULL, "the output");
    cr_assert(w->equal(d.val, d.val), "%s: a value is not _equal to itself", w->name);
    cr_assert(w->equal(d.val, again), "%s: decode(encode(x)) is not _equal to x", w->name);
    cr_assert(w->equal(again, d.val), "%s: _equal is not symmetric", w->name);
    cr_assert(!w->equal(d.val, zero), "%s: the document is _equal to the zero value", w->name);

    /* and encoding the second value gives the same bytes */
    tagc_buf out2;
    tagc_buf_init(&out2);
    cr_assert_eq(w->encode(again, &out2, NULL), 0);
    assert_same_bytes(w->name, out.data, out.len, out2.data, out2.len, "encode(decode(encode(x)))");

    tagc_buf_free(&out2);
    tagc_arena_free(&arena);
    free(zero);
    free(again);
    tagc_buf_free(&out);
    drop(&d);
}

/* Pretty-printed as json.MarshalIndent(v, "", "  "). */
static void check_indent(const workload *w)
{
    const tagc_json_opts opts = {.indent = "  "};
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, &opts, &out);
    cr_assert_not_null(memchr(out.data, '\n', out.len), "%s: indented output on one line", w->name);
    assert_same_tree(w->name, d.src, d.len, out.data, out.len, "indented");
    tagc_buf_free(&out);
    drop(&d);
}

static void check_indent_go(const workload *w)
{
    const tagc_json_opts opts = {.indent = "  "};
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, &opts, &out);
    assert_go_bytes(&d, &out, ".go.indent.json");
    tagc_buf_free(&out);
    drop(&d);
}

/* The fast options: the same tree (these schemas have no maps in their data,
 * so unsorted_maps changes nothing; no_html_escape writes < > & raw, as Go's
 * Encoder with SetEscapeHTML(false)). */
static void check_fast(const workload *w)
{
    const tagc_json_opts opts = {.no_html_escape = true, .unsorted_maps = true};
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, &opts, &out);
    assert_same_tree(w->name, d.src, d.len, out.data, out.len, "no_html_escape/unsorted_maps");
    tagc_buf_free(&out);
    drop(&d);
}

static void check_fast_go(const workload *w)
{
    const tagc_json_opts opts = {.no_html_escape = true, .unsorted_maps = true};
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, &opts, &out);
    assert_go_bytes(&d, &out, ".go.nohtml.json");
    tagc_buf_free(&out);
    drop(&d);
}

static void check_go(const workload *w)
{
    doc d;
    tagc_buf out;
    load(&d, w);
    encode_or_fail(&d, NULL, &out);
    assert_go_bytes(&d, &out, ".go.json");
    tagc_buf_free(&out);
    drop(&d);
}

/* Encodes into a fixed buffer of cap bytes over mem (with 16 guard bytes after
 * it); returns the code and checks that nothing was written past cap. */
static int encode_fixed(const doc *d, uint8_t *mem, size_t cap, tagc_buf *fixed)
{
    memset(mem, 0xA5, cap + 16);
    tagc_buf_init_fixed(fixed, mem, cap);
    int rc = d->w->encode(d->val, fixed, NULL);
    cr_assert_leq(fixed->len, cap);
    for (size_t i = cap; i < cap + 16; i++)
        cr_assert_eq(mem[i], 0xA5, "%s: byte %zu past a buffer of %zu written", d->w->name, i, cap);
    return rc;
}

/* A fixed buffer with room to spare gives the same bytes; one of exactly the
 * output size is enough too; one byte less is TAGC_E_FULL. */
static void check_fixed(const workload *w)
{
    doc d;
    tagc_buf out, fixed;
    load(&d, w);
    encode_or_fail(&d, NULL, &out);
    size_t n = out.len;
    uint8_t *mem = malloc(n + 64 + 16);
    cr_assert_not_null(mem);
    int rc;

    rc = encode_fixed(&d, mem, n + 64, &fixed);
    cr_assert_eq(rc, 0, "%s: fixed buffer of %zu + 64 bytes: %s (%d)", w->name, n,
                 tagc_strerror(rc), rc);
    assert_same_bytes(w->name, out.data, out.len, fixed.data, fixed.len, "fixed buffer");

    rc = encode_fixed(&d, mem, n, &fixed);
    cr_assert_eq(rc, 0, "%s: fixed buffer of exactly the output size (%zu bytes): %s (%d)",
                 w->name, n, tagc_strerror(rc), rc);
    assert_same_bytes(w->name, out.data, out.len, fixed.data, fixed.len, "exact fixed buffer");

    rc = encode_fixed(&d, mem, n - 1, &fixed);
    cr_assert_eq(rc, TAGC_E_FULL, "%s: one byte short: %s (%d)", w->name, tagc_strerror(rc), rc);

    free(mem);
    tagc_buf_free(&out);
    drop(&d);
}

/* Strict decoding accepts the documents: every key is declared, none repeats,
 * and every field without omitempty is present. */
static void check_strict(const workload *w)
{
    const tagc_json_opts opts = {.strict = true};
    doc d;
    load(&d, w);
    void *v = calloc(1, w->size);
    cr_assert_not_null(v);
    tagc_arena arena;
    tagc_arena_init(&arena);
    decode_or_fail(w, v, d.src, d.len, &arena, &opts, "the input, strictly");
    cr_assert(w->equal(v, d.val), "%s: strict and lax decoding differ", w->name);
    tagc_arena_free(&arena);
    free(v);
    drop(&d);
}

/* An arena reset between two decodes: the second value is whole. */
static void check_arena_reuse(const workload *w)
{
    doc d;
    tagc_buf first, second;
    load(&d, w);
    encode_or_fail(&d, NULL, &first);
    tagc_arena_reset(&d.arena);
    decode_or_fail(w, d.val, d.src, d.len, &d.arena, NULL, "the input after a reset");
    encode_or_fail(&d, NULL, &second);
    assert_same_bytes(w->name, first.data, first.len, second.data, second.len,
                      "after an arena reset");
    tagc_buf_free(&first);
    tagc_buf_free(&second);
    drop(&d);
}

/* MARK: - Tests: every check for every workload */

#define ROUNDTRIP_TESTS(id)                                                        \
    Test(id, tree) { check_tree(&id##_workload); }                                 \
    Test(id, redecode) { check_redecode(&id##_workload); }                         \
    Test(id, indent) { check_indent(&id##_workload); }                             \
    Test(id, indent_go) { check_indent_go(&id##_workload); }                       \
    Test(id, fast_opts) { check_fast(&id##_workload); }                            \
    Test(id, fast_opts_go) { check_fast_go(&id##_workload); }                      \
    Test(id, go_bytes) { check_go(&id##_workload); }                               \
    Test(id, fixed_buffer) { check_fixed(&id##_workload); }                        \
    Test(id, strict) { check_strict(&id##_workload); }                             \
    Test(id, arena_reuse) { check_arena_reuse(&id##_workload); }

ROUNDTRIP_TESTS(user)
ROUNDTRIP_TESTS(order)
ROUNDTRIP_TESTS(tree)
ROUNDTRIP_TESTS(twitter)
ROUNDTRIP_TESTS(canada)
ROUNDTRIP_TESTS(citm)

/* MARK: - Spot checks of decoded values (the trees above compare whole documents) */

Test(twitter, values)
{
    doc d;
    load(&d, &twitter_workload);
    const twitter_search_result *r = d.val;
    cr_assert_eq(r->statuses.len, 100);
    cr_assert_eq(r->search_metadata.count, 100);
    cr_assert_eq(r->search_metadata.max_id, INT64_C(505874924095815700));
    cr_assert_str_eq(r->search_metadata.max_id_str.ptr, "505874924095815681");

    /* the file's ids above 2^53 are as JavaScript prints them (17 digits, data/README.md);
     * id_str keeps the exact one */
    const twitter_status *s = &r->statuses.ptr[0];
    cr_assert_eq(s->id, INT64_C(505874924095815700));
    cr_assert_str_eq(s->id_str.ptr, "505874924095815681");
    cr_assert_not(s->has_in_reply_to_status_id);
    cr_assert(s->has_in_reply_to_user_id);
    cr_assert_eq(s->in_reply_to_user_id, INT64_C(866260188));
    cr_assert_null(s->retweeted_status);
    cr_assert_null(s->geo);
    cr_assert_null(s->place);
    cr_assert_null(s->contributors.ptr, "contributors: null is a nil slice");
    cr_assert_not_null(s->entities.symbols.ptr, "symbols: [] is an empty, non-nil slice");
    cr_assert_eq(s->entities.symbols.len, 0);
    cr_assert_null(s->entities.media.ptr, "media: absent stays nil");

    size_t retweets = 0, sensitive = 0, media = 0;
    for (size_t i = 0; i < r->statuses.len; i++) {
        const twitter_status *t = &r->statuses.ptr[i];
        retweets += t->retweeted_status != NULL;
        sensitive += t->has_possibly_sensitive;
        cr_assert(!t->has_possibly_sensitive || !t->possibly_sensitive);
        media += t->entities.media.len;
    }
    cr_assert_eq(retweets, 73);
    cr_assert_eq(sensitive, 15);
    cr_assert_eq(media, 6);
    drop(&d);
}

Test(citm, values)
{
    doc d;
    load(&d, &citm_workload);
    const citm_catalog *c = d.val;
    cr_assert_eq(c->events.len, 184);
    cr_assert_eq(c->performances.len, 243);
    cr_assert_eq(c->area_names.len, 17);
    cr_assert_not_null(c->block_names.keys, "blockNames: {} is an empty, non-nil map");
    cr_assert_eq(c->block_names.len, 0);
    cr_assert_eq(c->venue_names.len, 1);
    cr_assert_str_eq(c->venue_names.keys[0].ptr, "PLEYEL_PLEYEL");
    cr_assert_str_eq(c->venue_names.vals[0].ptr, "Salle Pleyel");
    /* maps keep the document's order: the first event as written */
    cr_assert_str_eq(c->events.keys[0].ptr, "138586341");
    const citm_event *e = &c->events.vals[0];
    cr_assert_eq(e->id, INT64_C(138586341));
    cr_assert_str_eq(e->name.ptr, "30th Anniversary Tour");
    cr_assert_not(e->has_description);
    cr_assert_eq(e->topic_ids.len, 2);
    cr_assert_eq(e->topic_ids.ptr[1], INT64_C(107888604));
    size_t prices = 0, no_logo = 0;
    for (size_t i = 0; i < c->performances.len; i++) {
        prices += c->performances.ptr[i].prices.len;
        no_logo += !c->performances.ptr[i].has_logo;
    }
    cr_assert_eq(prices, 907);
    cr_assert_eq(no_logo, 135);
    const citm_area *a = &c->performances.ptr[0].seat_categories.ptr[0].areas.ptr[0];
    cr_assert_eq(a->area_id, INT64_C(205705999));
    cr_assert_not_null(a->block_ids.ptr, "blockIds: [] is an empty, non-nil slice");
    drop(&d);
}

Test(canada, values)
{
    doc d;
    load(&d, &canada_workload);
    const canada_feature_collection *fc = d.val;
    cr_assert_str_eq(fc->type.ptr, "FeatureCollection");
    cr_assert_eq(fc->features.len, 1);
    const canada_geometry *g = &fc->features.ptr[0].geometry;
    cr_assert_str_eq(g->type.ptr, "Polygon");
    cr_assert_eq(g->coordinates.len, 480);
    size_t points = 0;
    for (size_t i = 0; i < g->coordinates.len; i++)
        points += g->coordinates.ptr[i].len;
    cr_assert_eq(points, 55563);
    /* the first point, [-65.613616999999977,43.420273000000009], correctly rounded.
     * The literals go through double objects: compared directly, x87
     * (FLT_EVAL_METHOD 2) would keep them at long double precision. */
    static const double first[2] = {-65.613616999999977, 43.420273000000009};
    cr_assert_eq(g->coordinates.ptr[0].ptr[0][0], first[0]);
    cr_assert_eq(g->coordinates.ptr[0].ptr[0][1], first[1]);
    drop(&d);
}
