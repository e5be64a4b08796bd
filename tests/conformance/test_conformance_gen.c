/*
 * test_conformance_gen.c - JSONTestSuite's test_parsing through GENERATED code
 * (schemas/kitchen_sink.tagc), where test_conformance.c drives the runtime's
 * readers directly:
 *
 *   Doc  (type Doc any): sink_doc_decode_json of each file as it is;
 *   Raw  (Sink.Raw json.RawMessage): sink_sink_decode_json of
 *        {"raw":<file>} - the file's bytes as the value of a struct member.
 *
 *   y_*  accepted by both; the Doc re-encodes to what tagc_json_write_any
 *        writes for the runtime's own tree (and to Go's bytes when
 *        TAGC_CONFORMANCE_REF is set); the Raw keeps the text verbatim, and the
 *        whole Sink re-encodes to JSON that cJSON parses, whose "raw" member is
 *        the same tree as cJSON's parse of the file itself (compared as cJSON
 *        prints them); the same holds for every i_ file cJSON accepts;
 *   n_*  rejected by both, with err.offset inside the input (for Raw: inside
 *        the file's part of it, never in the "{\"raw\":" prefix), line and
 *        column >= 1 and a path starting with "$";
 *   i_*  the generated code's verdict equals the runtime's (read_any for Doc,
 *        read_raw for Raw), and Go's when available.
 */
#include <criterion/criterion.h>

#include <cjson/cJSON.h>

#include "kitchen_sink.tagc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "{\"raw\":"
#define PREFIX_LEN (sizeof PREFIX - 1)

/* MARK: - Go reference (same format as test_conformance.c reads) */

typedef struct ref_entry {
    char *name;
    bool ok;
    char *out; /* Go's json.Marshal output, when ok */
    size_t out_len;
} ref_entry;

static ref_entry *refs;
static size_t nrefs;

static int hexv(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static void load_refs(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    size_t cap = 0;
    char *line = NULL;
    size_t lcap = 0;
    while (getline(&line, &lcap, f) > 0) {
        char *save = NULL;
        char *name = strtok_r(line, " \n", &save);
        char *verdict = strtok_r(NULL, " \n", &save);
        char *hex = strtok_r(NULL, " \n", &save);
        if (!name || !verdict || !hex)
            continue;
        if (nrefs == cap) {
            cap = cap ? cap * 2 : 512;
            refs = realloc(refs, cap * sizeof *refs);
            cr_assert(refs != NULL);
        }
        ref_entry *r = &refs[nrefs++];
        r->name = strdup(name);
        cr_assert(r->name != NULL);
        r->ok = strcmp(verdict, "ok") == 0;
        r->out = NULL;
        r->out_len = 0;
        if (r->ok) {
            size_t hl = strlen(hex) / 2;
            r->out = malloc(hl + 1);
            cr_assert(r->out != NULL);
            for (size_t i = 0; i < hl; i++)
                r->out[i] = (char)(hexv(hex[2 * i]) * 16 + hexv(hex[2 * i + 1]));
            r->out[hl] = 0;
            r->out_len = hl;
        }
    }
    free(line);
    fclose(f);
}

static const ref_entry *find_ref(const char *name)
{
    for (size_t i = 0; i < nrefs; i++)
        if (strcmp(refs[i].name, name) == 0)
            return &refs[i];
    return NULL;
}

static void free_refs(void)
{
    for (size_t i = 0; i < nrefs; i++) {
        free(refs[i].name);
        free(refs[i].out);
    }
    free(refs);
    refs = NULL;
    nrefs = 0;
}

/* MARK: - Files */

/* The file's bytes at PREFIX_LEN of a buffer of PREFIX + file + "}" + NUL. */
static char *read_wrapped(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    cr_assert(fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f);
    cr_assert(n >= 0);
    cr_assert(fseek(f, 0, SEEK_SET) == 0);
    char *buf = malloc(PREFIX_LEN + (size_t)n + 2);
    cr_assert(buf != NULL);
    memcpy(buf, PREFIX, PREFIX_LEN);
    cr_assert(fread(buf + PREFIX_LEN, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    buf[PREFIX_LEN + (size_t)n] = '}';
    buf[PREFIX_LEN + (size_t)n + 1] = 0;
    *len = (size_t)n;
    return buf;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **list_files(const char *dir, size_t *count)
{
    DIR *dh = opendir(dir);
    cr_assert(dh != NULL, "cannot open %s", dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dh)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 512;
            names = realloc(names, cap * sizeof *names);
            cr_assert(names != NULL);
        }
        names[n] = strdup(de->d_name);
        cr_assert(names[n] != NULL);
        n++;
    }
    closedir(dh);
    qsort(names, n, sizeof *names, cmp_names);
    *count = n;
    return names;
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* MARK: - Checks */

static void check_error(const char *name, const char *what, const tagc_error *err, int rc,
                        size_t lo, size_t hi)
{
    cr_expect(rc < 0, "%s (%s): rc %d", name, what, rc);
    cr_expect_eq(err->code, rc, "%s (%s): err.code %d, rc %d", name, what, err->code, rc);
    cr_expect(err->offset >= lo && err->offset <= hi,
              "%s (%s): error offset %zu outside [%zu, %zu]", name, what, err->offset, lo, hi);
    cr_expect(err->line >= 1 && err->column >= 1, "%s (%s): line %u column %u", name, what,
              err->line, err->column);
    cr_expect(err->path[0] == '$', "%s (%s): path \"%s\"", name, what, err->path);
    cr_expect(err->message[0] != 0, "%s (%s): no message", name, what);
}

typedef struct counts {
    size_t y, n, i, go_checked, cjson_compared, cjson_skipped;
} counts;

/* The file through Doc (type Doc any). */
static void run_doc(const char *name, const char *src, size_t len, const ref_entry *g,
                    tagc_buf *out, tagc_buf *rt_out, counts *c)
{
    tagc_arena arena;
    tagc_error err;
    tagc_arena_init(&arena);

    sink_doc doc;
    int rc = sink_doc_decode_json(&doc, src, len, &arena, &err, NULL);

    /* the runtime's own reader, for comparison */
    tagc_json_dec d;
    tagc_error rt_err;
    tagc_any *any = NULL;
    tagc_json_dec_init(&d, src, len, &arena, &rt_err, NULL);
    int rt_rc = tagc_json_dec_finish(&d, tagc_json_read_any(&d, &any));

    cr_expect_eq(rc, rt_rc, "%s: Doc gives %d, tagc_json_read_any %d", name, rc, rt_rc);
    if (rc != 0 && rt_rc != 0)
        cr_expect_eq(err.offset, rt_err.offset, "%s: Doc error at %zu, read_any at %zu", name,
                     err.offset, rt_err.offset);

    tagc_buf_reset(out);
    if (rc == 0) {
        int erc = sink_doc_encode_json(&doc, out, NULL);
        cr_expect_eq(erc, 0, "%s: Doc encode failed (%d)", name, erc);
        cr_expect_eq(out->err, 0);
        if (rt_rc == 0) {
            tagc_buf_reset(rt_out);
            tagc_json_write_any(rt_out, any, NULL);
            cr_expect(out->len == rt_out->len && memcmp(out->data, rt_out->data, out->len) == 0,
                      "%s: Doc re-encoded differently from tagc_json_write_any", name);
            cr_expect(sink_doc_equal(&doc, &any), "%s: Doc and read_any trees differ", name);
        }
        cJSON *j = cJSON_ParseWithLength((const char *)out->data, out->len);
        cr_expect(j != NULL, "%s: cJSON cannot parse the Doc re-encoding: %.*s", name,
                  (int)(out->len > 200 ? 200 : out->len), (const char *)out->data);
        cJSON_Delete(j);
    }

    if (name[0] == 'y') {
        cr_expect_eq(rc, 0, "%s: Doc rejected it (%d at %zu: %s)", name, rc, err.offset,
                     err.message);
    } else if (name[0] == 'n') {
        check_error(name, "Doc", &err, rc, 0, len);
    }
    if (g) {
        c->go_checked++;
        cr_expect((rc == 0) == g->ok, "%s: Doc %s, Go %s", name, rc == 0 ? "accepts" : "rejects",
                  g->ok ? "accepts" : "rejects");
        if (g->ok && rc == 0)
            cr_expect(out->len == g->out_len && memcmp(out->data, g->out, out->len) == 0,
                      "%s: Doc re-encoded differently from Go:\n tagc %.*s\n   Go %s", name,
                      (int)(out->len > 300 ? 300 : out->len), (const char *)out->data, g->out);
    }
    tagc_arena_free(&arena);
}

/* The file as the json.RawMessage member of a Sink: {"raw":<file>}. */
static void run_raw(const char *name, const char *wrapped, size_t len, tagc_buf *out,
                    counts *c)
{
    const char *src = wrapped + PREFIX_LEN;
    size_t wlen = PREFIX_LEN + len + 1;
    tagc_arena arena;
    tagc_error err;
    tagc_arena_init(&arena);

    sink_sink s;
    int rc = sink_sink_decode_json(&s, wrapped, wlen, &arena, &err, NULL);

    /* the runtime's reader of the file alone */
    tagc_json_dec d;
    tagc_error rt_err;
    tagc_raw rt_raw = {NULL, 0};
    tagc_json_dec_init(&d, src, len, &arena, &rt_err, NULL);
    int rt_rc = tagc_json_dec_finish(&d, tagc_json_read_raw(&d, &rt_raw));
    cr_expect((rc == 0) == (rt_rc == 0), "%s: Sink.raw %s it, tagc_json_read_raw %s", name,
              rc == 0 ? "accepts" : "rejects", rt_rc == 0 ? "accepts" : "rejects");

    if (rc == 0) {
        /* verbatim: the file minus surrounding whitespace */
        size_t a = 0, b = len;
        while (a < b && is_ws(src[a]))
            a++;
        while (b > a && is_ws(src[b - 1]))
            b--;
        cr_expect(s.raw.ptr != NULL && s.raw.len == b - a &&
                      memcmp(s.raw.ptr, src + a, s.raw.len) == 0 && s.raw.ptr[s.raw.len] == 0,
                  "%s: Sink.raw is not the text verbatim: %.*s", name,
                  (int)(s.raw.len > 200 ? 200 : s.raw.len), s.raw.ptr ? s.raw.ptr : "");

        tagc_buf_reset(out);
        int erc = sink_sink_encode_json(&s, out, NULL);
        cr_expect_eq(erc, 0, "%s: Sink encode failed (%d)", name, erc);
        /* cJSON's tree of the file itself; cJSON rejects some i_ files (lone
         * surrogate escapes), which the verbatim raw then carries into the Sink */
        cJSON *orig = cJSON_ParseWithLength(src, len);
        if (orig || name[0] == 'y') {
            cJSON *j = cJSON_ParseWithLength((const char *)out->data, out->len);
            cr_expect(j != NULL, "%s: cJSON cannot parse the Sink re-encoding", name);
            const cJSON *jraw = j ? cJSON_GetObjectItemCaseSensitive(j, "raw") : NULL;
            cr_expect(j == NULL || jraw != NULL, "%s: no \"raw\" member in the Sink re-encoding",
                      name);
            if (orig && jraw) {
                /* compared as cJSON prints them: keeps member order and duplicate
                 * keys, and prints numbers out of double's range alike */
                char *want = cJSON_PrintUnformatted(orig);
                char *got = cJSON_PrintUnformatted(jraw);
                cr_assert(want != NULL && got != NULL);
                c->cjson_compared++;
                cr_expect_str_eq(got, want, "%s: Sink.raw re-encoded to a different value", name);
                cJSON_free(want);
                cJSON_free(got);
            }
            cJSON_Delete(j);
        }
        if (!orig)
            c->cjson_skipped++;
        cJSON_Delete(orig);
    }

    if (name[0] == 'y') {
        cr_expect_eq(rc, 0, "%s: Sink.raw rejected it (%d at %zu: %s, %s)", name, rc, err.offset,
                     err.path, err.message);
    } else if (name[0] == 'n') {
        /* the prefix is valid: the error is in the file's bytes or the closing '}' */
        check_error(name, "Sink.raw", &err, rc, PREFIX_LEN, wlen);
    }
    tagc_arena_free(&arena);
}

Test(conformance_gen, json_test_suite_through_generated_code)
{
    const char *dir = getenv("TAGC_CONFORMANCE_DIR");
    cr_assert(dir != NULL, "TAGC_CONFORMANCE_DIR not set");
    const char *ref = getenv("TAGC_CONFORMANCE_REF");
    if (ref && *ref)
        load_refs(ref);
    else
        printf("Go not available: verdicts are not compared with Go\n");

    size_t n;
    char **names = list_files(dir, &n);
    cr_assert(n > 300, "only %zu files in %s", n, dir);

    tagc_buf out, rt_out;
    tagc_buf_init(&out);
    tagc_buf_init(&rt_out);
    counts c = {0};
    for (size_t k = 0; k < n; k++) {
        const char *name = names[k];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        size_t len;
        char *wrapped = read_wrapped(path, &len);
        const ref_entry *g = nrefs ? find_ref(name) : NULL;
        if (nrefs)
            cr_expect(g != NULL, "%s: no Go reference line", name);
        c.y += name[0] == 'y';
        c.n += name[0] == 'n';
        c.i += name[0] == 'i';
        run_doc(name, wrapped + PREFIX_LEN, len, g, &out, &rt_out, &c);
        run_raw(name, wrapped, len, &out, &c);
        free(wrapped);
        free(names[k]);
    }
    printf("generated code: %zu y_, %zu n_, %zu i_ files; %zu Doc verdicts compared with Go; "
           "%zu Sink.raw values compared with cJSON (%zu files cJSON itself rejects)\n",
           c.y, c.n, c.i, c.go_checked, c.cjson_compared, c.cjson_skipped);
    cr_expect(c.y > 90 && c.n > 180, "too few y_/n_ files: %zu, %zu", c.y, c.n);
    tagc_buf_free(&out);
    tagc_buf_free(&rt_out);
    free(names);
    free_refs();
}
