/*
 * test_conformance.c - JSONTestSuite's test_parsing against the runtime's
 * generic readers: tagc_json_read_any (interface{}), tagc_json_read_raw
 * (json.RawMessage) and tagc_json_skip.
 *
 *   y_*  must be accepted (and only whitespace may follow the value);
 *   n_*  must be rejected, with an offset inside the file;
 *   i_*  (implementation-defined) must get Go's verdict.
 *
 * With Go installed, TAGC_CONFORMANCE_REF names the output of conformance_ref.go:
 * Go's json.Unmarshal verdict for every file and, when it accepts, json.Marshal
 * of the decoded interface{}; then every verdict must match Go's and every
 * accepted file must re-encode (tagc_json_write_any) to Go's exact bytes.
 * The i_* table is printed (as Markdown, for docs/conformance.md).
 */
#include <criterion/criterion.h>

#include "tagc.h"
#include "test_profile.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_entry {
    char name[128];
    bool ok;
    char *out; /* Go's json.Marshal output (NUL-terminated), when ok */
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
    ssize_t n;
    while ((n = getline(&line, &lcap, f)) > 0) {
        char *name = strtok(line, " \n");
        char *verdict = strtok(NULL, " \n");
        char *hex = strtok(NULL, " \n");
        if (!name || !verdict || !hex)
            continue;
        if (nrefs == cap) {
            cap = cap ? cap * 2 : 512;
            refs = realloc(refs, cap * sizeof *refs);
            cr_assert(refs != NULL);
        }
        ref_entry *r = &refs[nrefs++];
        snprintf(r->name, sizeof r->name, "%s", name);
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

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert(buf != NULL);
    cr_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct result {
    int rc_any, rc_raw, rc_skip;
    size_t off_any, off_raw, off_skip;
} result;

static void run_one(const char *src, size_t len, tagc_buf *out, result *res)
{
    tagc_arena arena;
    tagc_error err;
    tagc_json_dec d;
    tagc_arena_init(&arena);

    tagc_any *any = NULL;
    tagc_json_dec_init(&d, src, len, &arena, &err, NULL);
    res->rc_any = tagc_json_dec_finish(&d, tagc_json_read_any(&d, &any));
    res->off_any = err.offset;
    if (res->rc_any == 0) {
        tagc_buf_reset(out);
        tagc_json_write_any_as(out, any, NULL, test_go_profile());
    }

    tagc_raw raw = {NULL, 0};
    tagc_json_dec_init(&d, src, len, &arena, &err, NULL);
    res->rc_raw = tagc_json_dec_finish(&d, tagc_json_read_raw(&d, &raw));
    res->off_raw = err.offset;
    if (res->rc_raw == 0) {
        /* verbatim: the input minus surrounding whitespace */
        size_t a = 0, b = len;
        while (a < b && strchr(" \t\r\n", src[a]) && src[a])
            a++;
        while (b > a && strchr(" \t\r\n", src[b - 1]) && src[b - 1])
            b--;
        cr_expect(raw.len == b - a && memcmp(raw.ptr, src + a, raw.len) == 0 &&
                      raw.ptr[raw.len] == 0,
                  "read_raw did not keep the text verbatim");
    }

    tagc_json_dec_init(&d, src, len, &arena, &err, NULL);
    res->rc_skip = tagc_json_dec_finish(&d, tagc_json_skip(&d));
    res->off_skip = err.offset;
    tagc_arena_free(&arena);
}

Test(conformance, json_test_suite)
{
    const char *dir = getenv("TAGC_CONFORMANCE_DIR");
    cr_assert(dir != NULL, "TAGC_CONFORMANCE_DIR not set");
    const char *ref = getenv("TAGC_CONFORMANCE_REF");
    if (ref && *ref)
        load_refs(ref);
    else
        printf("Go not available: verdicts are not compared with Go\n");

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
        names[n++] = strdup(de->d_name);
    }
    closedir(dh);
    qsort(names, n, sizeof *names, cmp_names);
    cr_assert(n > 300, "only %zu files in %s", n, dir);

    tagc_buf out;
    tagc_buf_init(&out);
    size_t y = 0, nn = 0, ii = 0, go_checked = 0;
    printf("| file | tagc | Go |\n| --- | --- | --- |\n");
    for (size_t k = 0; k < n; k++) {
        const char *name = names[k];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        size_t len;
        char *src = read_file(path, &len);
        result r;
        run_one(src, len, &out, &r);
        const ref_entry *g = nrefs ? find_ref(name) : NULL;
        if (nrefs)
            cr_expect(g != NULL, "%s: no Go reference line", name);

        if (name[0] == 'y') {
            y++;
            cr_expect(r.rc_any == 0, "%s: read_any rejected it (%d at %zu)", name, r.rc_any,
                      r.off_any);
            cr_expect(r.rc_raw == 0, "%s: read_raw rejected it (%d at %zu)", name, r.rc_raw,
                      r.off_raw);
            cr_expect(r.rc_skip == 0, "%s: skip rejected it (%d at %zu)", name, r.rc_skip,
                      r.off_skip);
        } else if (name[0] == 'n') {
            nn++;
            cr_expect(r.rc_any < 0 && r.off_any <= len, "%s: read_any accepted it (%d at %zu)",
                      name, r.rc_any, r.off_any);
            cr_expect(r.rc_raw < 0 && r.off_raw <= len, "%s: read_raw accepted it (%d at %zu)",
                      name, r.rc_raw, r.off_raw);
            cr_expect(r.rc_skip < 0 && r.off_skip <= len, "%s: skip accepted it (%d at %zu)",
                      name, r.rc_skip, r.off_skip);
        } else if (name[0] == 'i') {
            ii++;
            printf("| `%s` | %s | %s |\n", name, r.rc_any == 0 ? "accept" : "reject",
                   g ? (g->ok ? "accept" : "reject") : "?");
        }
        /* The skipper and RawMessage validate syntax only: they agree with each
         * other, and with read_any except where a number overflows float64. */
        cr_expect((r.rc_raw == 0) == (r.rc_skip == 0), "%s: raw and skip disagree", name);
        if (r.rc_any != TAGC_E_RANGE)
            cr_expect((r.rc_any == 0) == (r.rc_skip == 0), "%s: any (%d) and skip (%d) disagree",
                      name, r.rc_any, r.rc_skip);
        if (g) {
            go_checked++;
            cr_expect((r.rc_any == 0) == g->ok, "%s: tagc %s, Go %s", name,
                      r.rc_any == 0 ? "accepts" : "rejects", g->ok ? "accepts" : "rejects");
            if (g->ok && r.rc_any == 0)
                cr_expect(out.err == 0 && out.len == g->out_len &&
                              memcmp(out.data, g->out, out.len) == 0,
                          "%s: re-encoded differently from Go:\n tagc %.*s\n   Go %s", name,
                          (int)(out.len > 300 ? 300 : out.len), (const char *)out.data,
                          g->out);
        }
        free(src);
        free(names[k]);
    }
    printf("%zu y_, %zu n_, %zu i_ files; %zu compared with Go\n", y, nn, ii, go_checked);
    tagc_buf_free(&out);
    free(names);
    for (size_t i = 0; i < nrefs; i++)
        free(refs[i].out);
    free(refs);
}
