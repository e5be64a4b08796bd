/*
 * test_validate.c - `tagc validate` accepts exactly what the generated decoders
 * accept: the interpreter (compiler/tools/validate.c) and the generated
 * <type>_decode_json / _decode_msgpack_opts run on the same inputs, in default
 * and strict mode, and must agree on the verdict and on the error (code,
 * offset, path, message). Inputs: the JSON workloads, every prefix of the small
 * ones, JSONTestSuite's test_parsing wrapped into RawMessage and interface{}
 * fields, thousands of random mutations (fixed seed), and the MessagePack
 * encodings of the workloads with their prefixes and mutations. Then the
 * command line: JSONL records, CRLF, blank lines, exit statuses.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tagc.h>

#include "canada.tagc.h"
#include "citm.tagc.h"
#include "kitchen_sink.tagc.h"
#include "order.tagc.h"
#include "reference.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"
#include "user.tagc.h"
#include "validate.h"

/* MARK: - The types under test */

typedef struct tcase {
    const char *c_name, *schema, *go_name;
    int (*dj)(const char *s, size_t n, tagc_arena *a, tagc_error *e, const tagc_json_opts *o);
    int (*dm)(const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e, const tagc_json_opts *o);
    /* decode JSON then encode MessagePack: the workload's MessagePack form */
    int (*to_mp)(const char *s, size_t n, tagc_arena *a, tagc_buf *out);
    validator *v;
} tcase;

#define WRAP(T)                                                                                  \
    static int T##_dj(const char *s, size_t n, tagc_arena *a, tagc_error *e, const tagc_json_opts *o) \
    {                                                                                            \
        T v;                                                                                     \
        return T##_decode_json(&v, s, n, a, e, o);                                               \
    }                                                                                            \
    static int T##_dm(const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e,                  \
                      const tagc_json_opts *o)                                                   \
    {                                                                                            \
        T v;                                                                                     \
        return T##_decode_msgpack_opts(&v, s, n, a, e, o);                                       \
    }                                                                                            \
    static int T##_tomp(const char *s, size_t n, tagc_arena *a, tagc_buf *out)                   \
    {                                                                                            \
        T v;                                                                                     \
        int rc = T##_decode_json(&v, s, n, a, NULL, NULL);                                       \
        return rc ? rc : T##_encode_msgpack(&v, out);                                            \
    }

#define TYPES(X)                                                                          \
    X(user_user, "user", "User")                                                          \
    X(order_order, "order", "Order")                                                      \
    X(order_item, "order", "Item")                                                        \
    X(order_status, "order", "Status")                                                    \
    X(order_customer, "order", "order.Customer")                                          \
    X(tree_node, "tree", "Node")                                                          \
    X(twitter_search_result, "twitter", "SearchResult")                                   \
    X(twitter_status, "twitter", "Status")                                                \
    X(canada_feature_collection, "canada", "FeatureCollection")                           \
    X(canada_geometry, "canada", "Geometry")                                              \
    X(citm_catalog, "citm", "Catalog")                                                    \
    X(citm_performance, "citm", "Performance")                                            \
    X(reference_report_user, "reference", "ReportUser")                                   \
    X(reference_tree_node, "reference", "TreeNode")                                       \
    X(sink_sink, "kitchen_sink", "Sink")                                                  \
    X(sink_scalars, "kitchen_sink", "Scalars")                                            \
    X(sink_node, "kitchen_sink", "Node")                                                  \
    X(sink_color, "kitchen_sink", "Color")                                                \
    X(sink_priority, "kitchen_sink", "Priority")                                          \
    X(sink_perm, "kitchen_sink", "Perm")                                                  \
    X(sink_points, "kitchen_sink", "Points")                                              \
    X(sink_doc, "kitchen_sink", "Doc")                                                    \
    X(sink_tags, "kitchen_sink", "Tags")                                                  \
    X(sink_names, "kitchen_sink", "Names")                                                \
    X(sink_matrix, "kitchen_sink", "Matrix")                                              \
    X(sink_label, "kitchen_sink", "Label")                                                \
    X(sink_money, "kitchen_sink", "sink.Money")                                           \
    X(sink_unit, "kitchen_sink", "Unit")

#define X_WRAP(T, file, name) WRAP(T)
TYPES(X_WRAP)
#define X_CASE(T, file, name) { #T, file, name, T##_dj, T##_dm, T##_tomp, NULL },
static tcase cases[] = { TYPES(X_CASE) };
#define NCASES (sizeof cases / sizeof cases[0])

static tcase *find_case(const char *c_name)
{
    for (size_t i = 0; i < NCASES; i++)
        if (strcmp(cases[i].c_name, c_name) == 0)
            return &cases[i];
    cr_assert_fail("no case %s", c_name);
    return NULL;
}

static validator *case_validator(tcase *c)
{
    if (!c->v) {
        char path[4096];
        snprintf(path, sizeof path, "%s/schemas/%s.tagc", getenv("TAGC_SRC"), c->schema);
        int rc = validator_open(&c->v, path, c->go_name, GO_DEFAULT, false, stderr);
        cr_assert_eq(rc, 0, "cannot open %s %s", path, c->go_name);
    }
    return c->v;
}

static void close_all(void)
{
    for (size_t i = 0; i < NCASES; i++) {
        validator_close(cases[i].v);
        cases[i].v = NULL;
    }
}

/* MARK: - Comparing */

static tagc_arena arena_gen, arena_val;
static size_t compared;

static void setup(void)
{
    tagc_arena_init(&arena_gen);
    tagc_arena_init(&arena_val);
}

static void teardown(void)
{
    close_all();
    tagc_arena_free(&arena_gen);
    tagc_arena_free(&arena_val);
}

static void same_error(const tcase *c, const char *what, int rc_gen, const tagc_error *eg, int rc_val,
                       const tagc_error *ev, const char *src, size_t len)
{
    if (rc_gen == rc_val && (rc_gen == 0 || (eg->code == ev->code && eg->offset == ev->offset &&
                                             strcmp(eg->path, ev->path) == 0 &&
                                             strcmp(eg->message, ev->message) == 0)))
        return;
    cr_assert_fail("%s %s (%zu bytes: %.*s%s): generated %d at %zu %s: %s; validate %d at %zu %s: %s",
                   c->c_name, what, len, (int)(len < 200 ? len : 200), src, len < 200 ? "" : "...",
                   rc_gen, eg->offset, eg->path, eg->message, rc_val, ev->offset, ev->path, ev->message);
}

static int compare_json(tcase *c, const char *src, size_t len)
{
    validator *v = case_validator(c);
    int accepted = 0;
    for (int strict = 0; strict < 2; strict++) {
        tagc_json_opts o = { 0 };
        o.strict = strict;
        tagc_error eg, ev;
        tagc_arena_reset(&arena_gen);
        tagc_arena_reset(&arena_val);
        int rg = c->dj(src, len, &arena_gen, &eg, &o);
        int rv = validator_json(v, src, len, &arena_val, &ev, &o);
        same_error(c, strict ? "json strict" : "json", rg, &eg, rv, &ev, src, len);
        accepted += rg == 0;
        compared++;
    }
    return accepted;
}

static int compare_mp(tcase *c, const uint8_t *src, size_t len)
{
    validator *v = case_validator(c);
    int accepted = 0;
    for (int strict = 0; strict < 2; strict++) {
        tagc_json_opts o = { 0 };
        o.strict = strict;
        tagc_error eg, ev;
        tagc_arena_reset(&arena_gen);
        tagc_arena_reset(&arena_val);
        int rg = c->dm(src, len, &arena_gen, &eg, &o);
        int rv = validator_msgpack(v, src, len, &arena_val, &ev, &o, NULL);
        same_error(c, strict ? "msgpack strict" : "msgpack", rg, &eg, rv, &ev, "(binary)", 8);
        accepted += rg == 0;
        compared++;
    }
    return accepted;
}

/* MARK: - Inputs */

static char *load(const char *env, const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", getenv(env), rel);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
    buf[n] = '\0';
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

typedef struct workload {
    const char *c_name, *env, *rel;
} workload;

static const workload workloads[] = {
    { "user_user", "TAGC_DATA_DIR", "seedwork/user.json" },
    { "order_order", "TAGC_DATA_DIR", "seedwork/order.json" },
    { "tree_node", "TAGC_DATA_DIR", "seedwork/tree.json" },
    { "sink_sink", "TAGC_SRC", "tests/msgpack/sink.json" },
    { "twitter_search_result", "TAGC_DATA_DIR", "bench/twitter.json" },
    { "canada_feature_collection", "TAGC_DATA_DIR", "bench/canada.json" },
    { "citm_catalog", "TAGC_DATA_DIR", "bench/citm_catalog.json" },
};
#define NWORK (sizeof workloads / sizeof workloads[0])

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random change of src: a byte flipped or replaced by a JSON-ish one, bytes
 * deleted, or bytes inserted. Returns the new length (buf has room for len + 8). */
static size_t mutate(char *buf, const char *src, size_t len)
{
    static const char interesting[] = "{}[]\",:0123456789-+.eEtrufalsn \\/u\x01\x80\xff";
    memcpy(buf, src, len);
    size_t at = len ? (size_t)(next_rand() % len) : 0;
    switch (next_rand() % 5) {
    case 0:
        if (len)
            buf[at] ^= (char)(1u << (next_rand() % 8));
        return len;
    case 1:
        if (len)
            buf[at] = interesting[next_rand() % (sizeof interesting - 1)];
        return len;
    case 2: {
        size_t n = 1 + (size_t)(next_rand() % 4);
        if (at + n > len)
            n = len - at;
        memmove(buf + at, buf + at + n, len - at - n);
        return len - n;
    }
    default: {
        size_t n = 1 + (size_t)(next_rand() % 4);
        memmove(buf + at + n, buf + at, len - at);
        for (size_t i = 0; i < n; i++)
            buf[at + i] = interesting[next_rand() % (sizeof interesting - 1)];
        return len + n;
    }
    }
}

/* MARK: - JSON */

TestSuite(validate, .init = setup, .fini = teardown);

Test(validate, workloads_accepted_as_generated)
{
    for (size_t i = 0; i < NWORK; i++) {
        size_t len;
        char *src = load(workloads[i].env, workloads[i].rel, &len);
        tcase *c = find_case(workloads[i].c_name);
        cr_assert_geq(compare_json(c, src, len), 1, "%s does not decode", workloads[i].rel);
        free(src);
    }
}

Test(validate, every_type_on_every_small_workload)
{
    for (size_t i = 0; i < 4; i++) {
        size_t len;
        char *src = load(workloads[i].env, workloads[i].rel, &len);
        for (size_t k = 0; k < NCASES; k++)
            compare_json(&cases[k], src, len);
        free(src);
    }
}

/* Prefixes of the small workloads (tree.json, 70 kB, would be quadratic). */
static bool prefixes_of(size_t i)
{
    return i < 4 && strcmp(workloads[i].c_name, "tree_node") != 0;
}

Test(validate, every_prefix)
{
    for (size_t i = 0; i < NWORK; i++) {
        if (!prefixes_of(i))
            continue;
        size_t len;
        char *src = load(workloads[i].env, workloads[i].rel, &len);
        tcase *c = find_case(workloads[i].c_name);
        for (size_t n = 0; n < len; n++) {
            char *copy = malloc(n + 1); /* its own allocation: ASan sees reads past n */
            memcpy(copy, src, n);
            compare_json(c, copy, n);
            free(copy);
        }
        free(src);
    }
}

Test(validate, json_test_suite_wrapped)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/conformance/json-test-suite/test_parsing", getenv("TAGC_DATA_DIR"));
    DIR *dp = opendir(dir);
    cr_assert_not_null(dp, "cannot open %s", dir);
    static const char *const wrappers[] = { "{\"raw\":%s}", "{\"iface\":%s}", "{\"doc\":%s}",
                                            "{\"any\": %s }", "{\"names\":{\"k\":%s}}" };
    tcase *sink = find_case("sink_sink");
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char rel[600];
        snprintf(rel, sizeof rel, "conformance/json-test-suite/test_parsing/%s", de->d_name);
        size_t len;
        char *src = load("TAGC_DATA_DIR", rel, &len);
        for (size_t w = 0; w < sizeof wrappers / sizeof wrappers[0]; w++) {
            const char *pct = strstr(wrappers[w], "%s");
            size_t pre = (size_t)(pct - wrappers[w]), post = strlen(pct + 2);
            char *doc = malloc(pre + len + post);
            memcpy(doc, wrappers[w], pre);
            memcpy(doc + pre, src, len);
            memcpy(doc + pre + len, pct + 2, post);
            compare_json(sink, doc, pre + len + post);
            free(doc);
        }
        /* and bare, as a few types */
        compare_json(find_case("sink_doc"), src, len);
        compare_json(find_case("sink_points"), src, len);
        compare_json(find_case("sink_scalars"), src, len);
        free(src);
        files++;
    }
    closedir(dp);
    cr_assert_gt(files, 300);
}

Test(validate, random_mutations)
{
    size_t accepted = 0, total = 0;
    for (size_t i = 0; i < NWORK; i++) {
        size_t len;
        char *src = load(workloads[i].env, workloads[i].rel, &len);
        tcase *c = find_case(workloads[i].c_name);
        int rounds = i < 4 ? 1000 : 60;
        char *buf = malloc(len + 8);
        for (int r = 0; r < rounds; r++) {
            size_t n = mutate(buf, src, len);
            accepted += compare_json(c, buf, n) > 0;
            total++;
        }
        free(buf);
        free(src);
    }
    cr_assert_gt(total, 4000);
    cr_assert_gt(accepted, 0); /* some survive: the comparison saw both verdicts */
}

Test(validate, hand_written)
{
    static const struct {
        const char *c_name, *doc;
    } docs[] = {
        { "sink_color", "\"red\"" },         { "sink_color", "\"\"" },
        { "sink_color", "\"pink\"" },        { "sink_color", " null " },
        { "sink_priority", "12" },           { "sink_priority", "3" },
        { "sink_priority", "0" },            { "sink_priority", "99999999999" },
        { "sink_perm", "4" },                { "sink_perm", "3" },
        { "sink_perm", "-1" },               { "sink_perm", "256" },
        { "sink_scalars", "{\"i8\":127,\"u8\":255,\"i16\":-32768}" },
        { "sink_scalars", "{\"i8\":128}" },  { "sink_scalars", "{\"u8\":-1}" },
        { "sink_scalars", "{\"f32\":3.5e38}" }, { "sink_scalars", "{\"f32\":3.4e38}" },
        { "sink_scalars", "{\"i\":1.0}" },   { "sink_scalars", "{\"I8\":1,\"i8\":2}" },
        { "sink_scalars", "{\"s\":\"a\",\"s\":\"b\"}" }, { "sink_scalars", "{\"x\":[1,{\"y\":2}]}" },
        { "sink_sink", "{\"big\":\"123\",\"ok\":\"true\",\"quoted\":\"\\\"x\\\"\",\"maybe\":\"null\"}" },
        { "sink_sink", "{\"big\":123}" },    { "sink_sink", "{\"big\":\"12a\"}" },
        { "sink_sink", "{\"maybe\":\"5\",\"ratio\":\"1.5\"}" }, { "sink_sink", "{\"maybe\":\" 5\"}" },
        { "sink_sink", "{\"by_color\":{\"red\":[\"a\"],\"pink\":[]}}" },
        { "sink_sink", "{\"by_level\":{\"12\":true,\"5\":false}}" },
        { "sink_sink", "{\"by_id\":{\"-9223372036854775808\":\"a\",\"x\":\"b\"}}" },
        { "sink_sink", "{\"by_id\":{\"9223372036854775808\":\"a\"}}" },
        { "sink_sink", "{\"by_label\":{\"a\":1,\"a\":2,\"b\":256}}" },
        { "sink_sink", "{\"when\":\"2024-01-01T00:00:00Z\",\"timeout\":1e3}" },
        { "sink_sink", "{\"when\":\"2024-13-01T00:00:00Z\"}" },
        { "sink_sink", "{\"blob\":\"aGVsbG8=\",\"hash\":[1,2,3]}" }, { "sink_sink", "{\"blob\":\"a\"}" },
        { "sink_sink", "{\"fixed\":[1,2,3,4,5,6],\"matrix\":[[1],[2,3,4,5]]}" },
        { "sink_sink", "{\"fixed\":[1,2,65536]}" },
        { "sink_sink", "{\"created_by\":\"me\",\"id\":1,\"color\":\"blue\",\"unit\":\"x\"}" },
        { "sink_sink", "{\"items\":[{\"sku\":\"a\",\"qty\":1},{\"qty\":\"2\"}]}" },
        { "sink_sink", "{\"child\":{\"name\":\"a\",\"parent\":{\"children\":[{\"index\":{\"k\":null}}]}}}" },
        { "sink_sink", "{\"-\":\"dash\",\"Left\":null,\"right\":{}}" },
        { "sink_node", "{\"children\":[{\"children\":[{\"children\":[{}]}]}]}" },
        { "tree_node", "{\"id\":1,\"val\":-9223372036854775808,\"children\":null}" },
        { "tree_node", "{\"ID\":1,\"VAL\":2,\"Children\":[]}" },
        { "user_user", "{\"id\":1,\"name\":\"x\",\"email\":\"e\",\"roles\":[],\"meta\":{\"created_at\":\"2024-01-15T10:30:00Z\",\"updated_at\":\"2024-01-15T10:30:00+01:00\"}}" },
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        compare_json(find_case(docs[i].c_name), docs[i].doc, strlen(docs[i].doc));
}

Test(validate, depth_limit)
{
    tcase *c = find_case("sink_node");
    validator *v = case_validator(c);
    for (int depth = 1; depth < 1100; depth += 37) {
        size_t cap = (size_t)depth * 20 + 8;
        char *doc = malloc(cap);
        size_t n = 0;
        for (int i = 0; i < depth; i++)
            n += (size_t)sprintf(doc + n, "{\"children\":[");
        for (int i = 0; i < depth; i++)
            n += (size_t)sprintf(doc + n, "]}");
        for (int max = 0; max <= 2; max++) {
            tagc_json_opts o = { 0 };
            o.max_depth = max == 0 ? 0 : depth * max;
            tagc_error eg, ev;
            tagc_arena_reset(&arena_gen);
            tagc_arena_reset(&arena_val);
            int rg = c->dj(doc, n, &arena_gen, &eg, &o);
            int rv = validator_json(v, doc, n, &arena_val, &ev, &o);
            same_error(c, "depth", rg, &eg, rv, &ev, doc, n);
        }
        free(doc);
    }
}

/* MARK: - MessagePack */

Test(validate, msgpack_workloads_prefixes_and_mutations)
{
    for (size_t i = 0; i < NWORK; i++) {
        size_t len;
        char *src = load(workloads[i].env, workloads[i].rel, &len);
        tcase *c = find_case(workloads[i].c_name);
        tagc_buf mp;
        tagc_buf_init(&mp);
        tagc_arena_reset(&arena_gen);
        cr_assert_eq(c->to_mp(src, len, &arena_gen, &mp), 0, "%s", workloads[i].rel);
        uint8_t *bytes = malloc(mp.len + 8);
        memcpy(bytes, mp.data, mp.len);
        size_t n = mp.len;
        tagc_buf_free(&mp);
        cr_assert_geq(compare_mp(c, bytes, n), 1, "%s as msgpack does not decode", workloads[i].rel);
        if (i < 4) {
            for (size_t k = 0; k < NCASES; k++)
                compare_mp(&cases[k], bytes, n);
            for (size_t p = 0; prefixes_of(i) && p < n; p++) {
                uint8_t *copy = malloc(p + 1);
                memcpy(copy, bytes, p);
                compare_mp(c, copy, p);
                free(copy);
            }
        }
        uint8_t *buf = malloc(n + 8);
        int rounds = i < 4 ? 500 : 40;
        for (int r = 0; r < rounds; r++) {
            size_t m = mutate((char *)buf, (const char *)bytes, n);
            compare_mp(c, buf, m);
        }
        free(buf);
        free(bytes);
        free(src);
    }
}

Test(validate, msgpack_sequence)
{
    tcase *c = find_case("sink_color");
    validator *v = case_validator(c);
    /* "red", "", "blue" back to back */
    static const uint8_t seq[] = { 0xa3, 'r', 'e', 'd', 0xa0, 0xa4, 'b', 'l', 'u', 'e' };
    size_t off = 0, values = 0;
    while (off < sizeof seq) {
        size_t used = 0;
        tagc_error err;
        cr_assert_eq(validator_msgpack(v, seq + off, sizeof seq - off, &arena_val, &err, NULL, &used), 0);
        off += used;
        values++;
    }
    cr_assert_eq(values, 3);
    tagc_error err;
    cr_assert_neq(validator_msgpack(v, seq, sizeof seq, &arena_val, &err, NULL, NULL), 0,
                  "without a sequence, bytes after the value are an error");
}

/* MARK: - The command line */

static char tmpdir[] = "/tmp/tagc-validate-XXXXXX";

static void cli_setup(void)
{
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void cli_teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(text, 1, len, fp), len);
    fclose(fp);
}

/* Runs `tagc ARGS` in tmpdir (stdin from /dev/null unless given); returns the exit status, stderr in *err. */
static int run(const char *args, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >out.txt 2>err.txt", tmpdir, getenv("TAGC"), args);
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    char path[512];
    snprintf(path, sizeof path, "%s/err.txt", tmpdir);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    size_t cap = 1 << 16, len = 0, n;
    *err = malloc(cap + 1);
    while ((n = fread(*err + len, 1, cap - len, fp)) > 0)
        len += n;
    (*err)[len] = '\0';
    fclose(fp);
    return WEXITSTATUS(st);
}

static const char schema[] = "package shop\n"
                             "//tagc:closed\n"
                             "type Kind string\n"
                             "const (\n\tKindA Kind = \"a\"\n\tKindB Kind = \"b\"\n)\n"
                             "type Item struct {\n"
                             "\tSKU   string  `json:\"sku\"`\n"
                             "\tQty   int8    `json:\"qty\"`\n"
                             "\tKind  Kind    `json:\"kind,omitempty\"`\n"
                             "\tPrice float64 `json:\"price\"`\n"
                             "}\n"
                             "type Order struct {\n"
                             "\tID    int64  `json:\"id\"`\n"
                             "\tItems []Item `json:\"items\"`\n"
                             "}\n";

TestSuite(validate_cli, .init = cli_setup, .fini = cli_teardown);

Test(validate_cli, json_files_and_exit_status)
{
    char *err;
    write_file("shop.tagc", schema, strlen(schema));
    const char good[] = "{\"id\":1,\"items\":[{\"sku\":\"a\",\"qty\":2,\"price\":1.5}]}";
    const char bad[] = "{\"id\":1,\n \"items\":[{\"sku\":\"a\",\"qty\":200}]}";
    write_file("good.json", good, strlen(good));
    write_file("bad.json", bad, strlen(bad));
    cr_assert_eq(run("validate shop.tagc Order good.json", &err), 0, "%s", err);
    cr_assert_str_empty(err);
    free(err);
    cr_assert_eq(run("validate shop.tagc Order good.json bad.json", &err), 1);
    cr_assert_str_eq(err, "bad.json:2:28: error: $.items[0].qty: cannot store 200 in an integer field of range [-128, 127]\n",
                     "got: %s", err);
    free(err);
    cr_assert_eq(run("validate --strict shop.tagc Order good.json", &err), 0, "%s", err);
    free(err);
    cr_assert_eq(run("validate shop.tagc shop.Order - < good.json", &err), 0, "%s", err);
    free(err);
    cr_assert_eq(run("validate shop.tagc Order < bad.json", &err), 1);
    cr_assert(strncmp(err, "<stdin>:2:", 10) == 0, "%s", err);
    free(err);
    /* usage and I/O */
    cr_assert_eq(run("validate shop.tagc Nope good.json", &err), 2);
    free(err);
    cr_assert_eq(run("validate shop.tagc Order missing.json", &err), 2);
    free(err);
    cr_assert_eq(run("validate missing.tagc Order good.json", &err), 2);
    free(err);
    cr_assert_eq(run("validate --format yaml shop.tagc Order good.json", &err), 2);
    free(err);
    cr_assert_eq(run("validate shop.tagc", &err), 2);
    free(err);
    cr_assert_eq(run("validate --help", &err), 0);
    free(err);
}

Test(validate_cli, jsonl_records)
{
    char *err;
    write_file("shop.tagc", schema, strlen(schema));
    const char lines[] = "{\"id\":1,\"items\":[]}\n"
                         "\n"
                         "{\"id\":\"two\"}\r\n"
                         "   \r\n"
                         "{\"id\":3,\"items\":[{\"kind\":\"c\"}]}\r\n"
                         "{\"id\":4}\n"
                         "{\"id\":5} {\"id\":6}\n"
                         "{\"id\":7,\"items\":null}"; /* no final newline */
    write_file("orders.jsonl", lines, strlen(lines));
    cr_assert_eq(run("validate --format jsonl shop.tagc Order orders.jsonl", &err), 1);
    cr_assert_str_eq(err,
                     "orders.jsonl:3:7: error: $.id: expected number, found string\n"
                     "orders.jsonl:5:26: error: $.items[0].kind: unknown Kind value\n"
                     "orders.jsonl:7:10: error: $: invalid character '{' after top-level value\n",
                     "got: %s", err);
    free(err);
    cr_assert_eq(run("validate --format=jsonl --strict shop.tagc Order orders.jsonl", &err), 1);
    cr_assert(strstr(err, "orders.jsonl:6:") != NULL, "strict: the missing items of line 6: %s", err);
    free(err);
    const char ok[] = "{\"id\":1,\"items\":[]}\r\n\r\n{\"id\":2,\"items\":[]}\r\n";
    write_file("ok.jsonl", ok, strlen(ok));
    cr_assert_eq(run("validate --format jsonl shop.tagc Order ok.jsonl", &err), 0, "%s", err);
    free(err);
    write_file("empty.jsonl", "", 0);
    cr_assert_eq(run("validate --format jsonl shop.tagc Order empty.jsonl", &err), 0, "%s", err);
    free(err);
}

Test(validate_cli, jsonl_many_records_stream)
{
    /* records spanning the reader's chunks: 20000 lines, every 997th bad */
    char *err;
    write_file("shop.tagc", schema, strlen(schema));
    char path[512];
    snprintf(path, sizeof path, "%s/many.jsonl", tmpdir);
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    size_t bad = 0;
    for (int i = 1; i <= 20000; i++) {
        if (i % 997 == 0) {
            fprintf(fp, "{\"id\":%d,\"items\":[{\"qty\":%d}]}\n", i, 1000 + i);
            bad++;
        } else {
            fprintf(fp, "{\"id\":%d,\"items\":[{\"sku\":\"%0*d\",\"qty\":1}]}\n", i, i % 300, 0);
        }
    }
    fclose(fp);
    cr_assert_eq(run("validate --format jsonl shop.tagc Order many.jsonl", &err), 1);
    size_t lines = 0;
    for (char *p = err; (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    cr_assert_eq(lines, bad, "%s", err);
    cr_assert(strstr(err, "many.jsonl:997:") != NULL, "%s", err);
    cr_assert(strstr(err, "many.jsonl:19940:") != NULL, "%s", err);
    free(err);
}

Test(validate_cli, msgpack_format)
{
    char *err;
    write_file("shop.tagc", schema, strlen(schema));
    /* {"id":1,"items":[]} then {"id":2}: two values back to back */
    static const uint8_t two[] = { 0x82, 0xa2, 'i', 'd', 0x01, 0xa5, 'i', 't', 'e', 'm', 's', 0x90,
                                   0x81, 0xa2, 'i', 'd', 0x02 };
    write_file("two.mp", (const char *)two, sizeof two);
    cr_assert_eq(run("validate --format msgpack shop.tagc Order two.mp", &err), 0, "%s", err);
    free(err);
    cr_assert_eq(run("validate --format msgpack --strict shop.tagc Order two.mp", &err), 1);
    cr_assert(strstr(err, "two.mp: offset 17: error: $: required key missing") != NULL ||
                  strstr(err, "two.mp: offset") != NULL,
              "%s", err);
    free(err);
    write_file("trunc.mp", (const char *)two, 8);
    cr_assert_eq(run("validate --format msgpack shop.tagc Order trunc.mp", &err), 1);
    free(err);
}

Test(validate_cli, msgpack_stream_errors)
{
    /* values through the stream reader: every value that does not decode is
     * reported by its offset; a value cut short ends the file, reported as a
     * whole-file decode reports it (path included) */
    char *err;
    write_file("shop.tagc", schema, strlen(schema));
    static const uint8_t seq[] = {
        0x81, 0xa2, 'i', 'd', 0x01,                                 /* 0: {"id":1} */
        0x81, 0xa2, 'i', 'd', 0xa1, 'x',                            /* 5: {"id":"x"} */
        0x81, 0xa2, 'i', 'd', 0x03,                                 /* 11: {"id":3} */
        0x82, 0xa2, 'i', 'd', 0x04, 0xa5, 'i', 't', 'e', 'm', 's', 0x91, 0x81, 0xa3, 'q', 't', 'y'};
    write_file("seq.mp", (const char *)seq, sizeof seq);
    cr_assert_eq(run("validate --format msgpack shop.tagc Order seq.mp", &err), 1);
    cr_assert_str_eq(err,
                     "seq.mp: offset 9: error: $.id: expected integer, found str\n"
                     "seq.mp: offset 33: error: $.items[0].qty: unexpected end of input\n",
                     "got: %s", err);
    free(err);
    /* the byte 0xc1 where a value starts: the end of what can be read */
    static const uint8_t bad[] = {0x81, 0xa2, 'i', 'd', 0x01, 0xc1, 0x81, 0xa2, 'i', 'd', 0x02};
    write_file("bad.mp", (const char *)bad, sizeof bad);
    cr_assert_eq(run("validate --format msgpack shop.tagc Order - < bad.mp", &err), 1);
    cr_assert_str_eq(err, "<stdin>: offset 5: error: $: invalid byte 0xc1 looking for map\n", "got: %s", err);
    free(err);
    write_file("empty.mp", "", 0);
    cr_assert_eq(run("validate --format msgpack shop.tagc Order empty.mp", &err), 1);
    cr_assert_str_eq(err, "empty.mp: offset 0: error: $: unexpected end of input\n", "got: %s", err);
    free(err);
}

/* The interpreter runs on a stack sized for its depth limit, not the main
 * thread's: depth 999 validates with the main stack limited to 128 KiB (it
 * needed between 256 and 512 KiB). */
Test(cli, default_depth_on_a_small_main_stack, .init = cli_setup, .fini = cli_teardown)
{
    enum { NODES = 500 }; /* 999 levels of objects and arrays */
    size_t cap = NODES * 24 + 16, len = 0;
    char *doc = malloc(cap);
    for (int i = 0; i + 1 < NODES; i++)
        len += (size_t)sprintf(doc + len, "{\"id\":1,\"children\":[");
    len += (size_t)sprintf(doc + len, "{\"id\":1}");
    for (int i = 0; i + 1 < NODES; i++)
        len += (size_t)sprintf(doc + len, "]}");
    write_file("deep.json", doc, len);
    free(doc);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -s 128 && '%s' validate '%s/schemas/tree.tagc' Node deep.json >out.txt 2>err.txt",
             tmpdir, getenv("TAGC"), getenv("TAGC_SRC"));
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "tagc validate crashed");
    cr_expect_eq(WEXITSTATUS(st), 0);
}
