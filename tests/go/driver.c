/*
 * driver.c - checks the records of gen/main.go against the generated code.
 *
 * For each record: decode the document as its type (default options, the
 * input copied to a buffer of exactly its size so that a sanitizer sees any
 * read past the end), compare the verdict with Go's, and when both accept,
 * compare the encoder's bytes with json.Marshal's, the pretty output with
 * json.MarshalIndent's, the output without HTML escaping with an Encoder's
 * after SetEscapeHTML(false), and check that decoding tagc's own output gives
 * an _equal value.
 */
#include "driver.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const diff_class_names[DIFF_CLASSES] = {
    [DIFF_OUTPUT] = "output differs",
    [DIFF_GO_ACCEPTS] = "Go accepts, tagc rejects",
    [DIFF_GO_REJECTS] = "Go rejects, tagc accepts",
    [DIFF_ENCODE_ERROR] = "tagc cannot encode",
    [DIFF_GO_MARSHAL_ERROR] = "Go cannot encode, tagc does",
    [DIFF_INDENT] = "indented output differs",
    [DIFF_NOHTML] = "no_html_escape output differs",
    [DIFF_NOT_EQUAL] = "_equal or round trip fails",
    [DIFF_BY_DESIGN_ENUM] = "unknown enum value (by design)",
};

/* MARK: - records */

typedef struct record {
    char type[128];
    char kind;
    char cat[32];
    char verdict;
    const char *doc, *exp, *ind, *noh;
    size_t doc_len, exp_len, ind_len, noh_len;
} record;

/* Parses the record at *p (before end); advances *p. 1: a record, 0: end, -1: malformed. */
static int next_record(const char **p, const char *end, record *r)
{
    const char *s = *p;
    if (s == end)
        return 0;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (s[0] != '#' || nl == NULL || nl - s > 400)
        return -1;
    char line[416];
    memcpy(line, s + 1, (size_t)(nl - s - 1));
    line[nl - s - 1] = '\0';
    char kind[4], verdict[4];
    unsigned long long l[4];
    if (sscanf(line, "%127s %3s %31s %3s %llu %llu %llu %llu", r->type, kind, r->cat, verdict, &l[0],
               &l[1], &l[2], &l[3]) != 8)
        return -1;
    r->kind = kind[0];
    r->verdict = verdict[0];
    const char **bodies[4] = {&r->doc, &r->exp, &r->ind, &r->noh};
    size_t *lens[4] = {&r->doc_len, &r->exp_len, &r->ind_len, &r->noh_len};
    s = nl + 1;
    for (int i = 0; i < 4; i++) {
        if ((unsigned long long)(end - s) < l[i] + 1 || s[l[i]] != '\n')
            return -1;
        *bodies[i] = s;
        *lens[i] = (size_t)l[i];
        s += l[i] + 1;
    }
    *p = s;
    return 1;
}

/* MARK: - reporting */

#define MAX_KEYS 1024
#define EXAMPLES_PER_KEY 2
#define MAX_EXAMPLES 80
#define SHOW_MAX 600

typedef struct key_count {
    const char *type; /* registry name */
    int cls;
    char cat[32];
    size_t n;
} key_count;

typedef struct report {
    FILE *log;
    key_count keys[MAX_KEYS];
    size_t nkeys;
    size_t examples;
} report;

/* Writes bytes readably: printable ASCII and UTF-8 as is, the rest as \xNN. */
static void show(FILE *f, const char *label, const void *p, size_t n)
{
    const unsigned char *s = p;
    fprintf(f, "    %-6s (%zu bytes) ", label, n);
    size_t m = n < SHOW_MAX ? n : SHOW_MAX;
    for (size_t i = 0; i < m; i++) {
        unsigned char c = s[i];
        if (c == '\n')
            fputs("\\n", f);
        else if (c == '\r')
            fputs("\\r", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else if (c >= 0x80 && !tagc_utf8_valid((const char *)s + i, 1)) {
            /* keep valid multi-byte sequences, escape stray bytes */
            size_t k = 1;
            while (k < 4 && i + k < m && (s[i + k] & 0xc0) == 0x80)
                k++;
            if (tagc_utf8_valid((const char *)s + i, k)) {
                fwrite(s + i, 1, k, f);
                i += k - 1;
            } else {
                fprintf(f, "\\x%02x", c);
            }
        } else
            fputc(c, f);
    }
    if (m < n)
        fputs(" ...", f);
    fputc('\n', f);
}

/* Counts a mismatch; returns true when an example should be written. */
static bool count(report *rep, diff_summary *sum, const diff_type *t, int cls, const record *r)
{
    sum->classes[cls]++;
    if (cls != DIFF_BY_DESIGN_ENUM)
        sum->failures++;
    key_count *k = NULL;
    for (size_t i = 0; i < rep->nkeys; i++) {
        key_count *c = &rep->keys[i];
        if (c->type == t->name && c->cls == cls && strcmp(c->cat, r->cat) == 0) {
            k = c;
            break;
        }
    }
    if (k == NULL && rep->nkeys < MAX_KEYS) {
        k = &rep->keys[rep->nkeys++];
        k->type = t->name;
        k->cls = cls;
        snprintf(k->cat, sizeof k->cat, "%s", r->cat);
        k->n = 0;
    }
    if (k == NULL)
        return false;
    k->n++;
    if (cls == DIFF_BY_DESIGN_ENUM || k->n > EXAMPLES_PER_KEY || rep->examples >= MAX_EXAMPLES)
        return false;
    rep->examples++;
    fprintf(rep->log, "MISMATCH %s [%s] %s (record %s %c):\n", t->name, r->cat, diff_class_names[cls],
            r->kind == 'V' ? "value" : "mutation", r->verdict);
    return true;
}

static void show_err(FILE *f, int rc, const tagc_error *e)
{
    fprintf(f, "    tagc   error %d (%s) at offset %zu, %u:%u, path %s: %s\n", rc, tagc_strerror(rc),
            e->offset, e->line, e->column, e->path, e->message);
}

/* MARK: - checks */

static const diff_type *find_type(const char *name, const diff_type *last)
{
    if (last != NULL && strcmp(last->name, name) == 0)
        return last;
    for (size_t i = 0; i < diff_types_len; i++)
        if (strcmp(diff_types[i].name, name) == 0)
            return &diff_types[i];
    return NULL;
}

typedef struct ctx {
    report *rep;
    diff_summary *sum;
    tagc_arena arena;
    tagc_buf out;
    unsigned checks;
    bool trace;
} ctx;

static void check_output(ctx *c, const diff_type *t, const record *r, const void *v, int cls,
                         const tagc_json_opts *o, const char *want, size_t want_len)
{
    tagc_buf_reset(&c->out);
    int rc = t->encode(v, &c->out, o);
    if (rc != 0) {
        if (count(c->rep, c->sum, t, DIFF_ENCODE_ERROR, r)) {
            show(c->rep->log, "input", r->doc, r->doc_len);
            show(c->rep->log, "go", want, want_len);
            fprintf(c->rep->log, "    tagc   encode error %d (%s)\n", rc, tagc_strerror(rc));
        }
        return;
    }
    if (c->out.len != want_len || memcmp(c->out.data, want, want_len) != 0) {
        if (count(c->rep, c->sum, t, cls, r)) {
            show(c->rep->log, "input", r->doc, r->doc_len);
            show(c->rep->log, "go", want, want_len);
            show(c->rep->log, "tagc", c->out.data, c->out.len);
        }
    }
}

/* Decodes tagc's own encoding of v into w: 0, or the decode error (in *err). */
static int redecode(ctx *c, const diff_type *t, const void *v, void *w, tagc_error *err, char **text,
                    size_t *len)
{
    tagc_buf_reset(&c->out);
    int rc = t->encode(v, &c->out, NULL);
    if (rc != 0)
        return rc;
    free(*text);
    *text = malloc(c->out.len ? c->out.len : 1);
    if (*text == NULL)
        abort();
    memcpy(*text, c->out.data, c->out.len);
    *len = c->out.len;
    t->init(w);
    tagc_error_clear(err);
    return t->decode(w, *text, *len, &c->arena, err, NULL);
}

/*
 * _equal: v equals itself, and encode/decode reaches a fixed point: with
 * v2 = decode(encode(v)) and v3 = decode(encode(v2)), v2 equals v3. (v and v2
 * may differ as they do in Go: a json.RawMessage keeps its text verbatim, and
 * a nil one comes back as the text null.)
 */
static void check_equal(ctx *c, const diff_type *t, const record *r, const void *v, void *v2)
{
    char *text = NULL;
    size_t len = 0;
    tagc_error err;
    void *v3 = malloc(t->size);
    if (v3 == NULL)
        abort();
    const char *what = NULL;
    int rc = 0;
    if (!t->equal(v, v)) {
        what = "_equal(v, v) is false";
    } else if ((rc = redecode(c, t, v, v2, &err, &text, &len)) != 0) {
        what = "tagc rejects its own output";
    } else if ((rc = redecode(c, t, v2, v3, &err, &text, &len)) != 0) {
        what = "tagc rejects its own output (second round)";
    } else if (!t->equal(v2, v3)) {
        what = "v2 = decode(encode(v)) and decode(encode(v2)) are not _equal";
    }
    if (what != NULL) {
        int cls = rc == TAGC_E_ENUM || (rc != 0 && err.code == TAGC_E_ENUM) ? DIFF_BY_DESIGN_ENUM
                                                                           : DIFF_NOT_EQUAL;
        if (count(c->rep, c->sum, t, cls, r)) {
            show(c->rep->log, "input", r->doc, r->doc_len);
            if (text != NULL)
                show(c->rep->log, "tagc", text, len);
            fprintf(c->rep->log, "    %s\n", what);
            if (rc != 0)
                show_err(c->rep->log, rc, &err);
        }
    }
    free(text);
    free(v3);
}

static void check_record(ctx *c, const diff_type *t, const record *r, size_t seq)
{
    bool is_value = r->kind == 'V';
    if (is_value && !(c->checks & (DIFF_CHECK_VALUES | DIFF_CHECK_INDENT | DIFF_CHECK_NOHTML |
                                   DIFF_CHECK_EQUAL)))
        return;
    if (!is_value && !(c->checks & (DIFF_CHECK_VERDICTS | DIFF_CHECK_MUTATED | DIFF_CHECK_INDENT |
                                    DIFF_CHECK_NOHTML | DIFF_CHECK_EQUAL)))
        return;
    bool verdicts = c->checks & (is_value ? DIFF_CHECK_VALUES : DIFF_CHECK_VERDICTS);
    bool output = c->checks & (is_value ? DIFF_CHECK_VALUES : DIFF_CHECK_MUTATED);

    c->sum->records++;
    if (r->verdict != 'R')
        c->sum->accepted++;
    if (c->trace) {
        fprintf(c->rep->log, "record %zu:\n", seq);
        show(c->rep->log, t->name, r->doc, r->doc_len);
        fflush(c->rep->log);
    }

    /* the input in a buffer of exactly its size */
    char *doc = malloc(r->doc_len ? r->doc_len : 1);
    void *v = malloc(t->size);
    void *v2 = malloc(t->size);
    if (doc == NULL || v == NULL || v2 == NULL) {
        fprintf(c->rep->log, "out of memory\n");
        abort();
    }
    memcpy(doc, r->doc, r->doc_len);
    tagc_arena_reset(&c->arena);
    t->init(v);
    tagc_error err;
    tagc_error_clear(&err);
    int rc = t->decode(v, doc, r->doc_len, &c->arena, &err, NULL);

    if (r->verdict == 'R') {
        if (rc == 0 && verdicts && count(c->rep, c->sum, t, DIFF_GO_REJECTS, r)) {
            show(c->rep->log, "input", r->doc, r->doc_len);
            tagc_buf_reset(&c->out);
            if (t->encode(v, &c->out, NULL) == 0)
                show(c->rep->log, "tagc", c->out.data, c->out.len);
        }
        goto done;
    }
    if (rc != 0) {
        int cls = err.code == TAGC_E_ENUM || rc == TAGC_E_ENUM ? DIFF_BY_DESIGN_ENUM : DIFF_GO_ACCEPTS;
        if (verdicts && count(c->rep, c->sum, t, cls, r)) {
            show(c->rep->log, "input", r->doc, r->doc_len);
            show(c->rep->log, "go", r->exp, r->exp_len);
            show_err(c->rep->log, rc, &err);
        }
        goto done;
    }
    if (r->verdict == 'E') {
        tagc_buf_reset(&c->out);
        if (output && t->encode(v, &c->out, NULL) == 0 &&
            count(c->rep, c->sum, t, DIFF_GO_MARSHAL_ERROR, r)) {
            show(c->rep->log, "input", r->doc, r->doc_len);
            show(c->rep->log, "tagc", c->out.data, c->out.len);
        }
        goto done;
    }
    if (output)
        check_output(c, t, r, v, DIFF_OUTPUT, NULL, r->exp, r->exp_len);
    /* The formatting options are checked where the default output agrees
     * (the other checks report the rest). */
    if (c->checks & (DIFF_CHECK_INDENT | DIFF_CHECK_NOHTML)) {
        tagc_buf_reset(&c->out);
        if (t->encode(v, &c->out, NULL) != 0 || c->out.len != r->exp_len ||
            memcmp(c->out.data, r->exp, r->exp_len) != 0)
            goto equal;
    }
    if (c->checks & DIFF_CHECK_INDENT) {
        tagc_json_opts o = {0};
        o.prefix = seq % 2 ? "> " : "";
        o.indent = seq % 2 ? "\t" : "  ";
        check_output(c, t, r, v, DIFF_INDENT, &o, r->ind, r->ind_len);
    }
    if (c->checks & DIFF_CHECK_NOHTML) {
        tagc_json_opts o = {0};
        o.no_html_escape = true;
        check_output(c, t, r, v, DIFF_NOHTML, &o, r->noh, r->noh_len);
    }
equal:
    if (c->checks & DIFF_CHECK_EQUAL)
        check_equal(c, t, r, v, v2);
done:
    free(v2);
    free(v);
    free(doc);
}

static char *read_file(const char *path, size_t *len, FILE *log)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(log, "go_diff: cannot open %s\n", path);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2);
        if (nb == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool bad = buf == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(log, "go_diff: cannot read %s\n", path);
        return NULL;
    }
    *len = n;
    return buf;
}

static int cmp_keys(const void *a, const void *b)
{
    const key_count *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls - y->cls;
    int c = strcmp(x->type, y->type);
    return c != 0 ? c : strcmp(x->cat, y->cat);
}

int diff_run(const char *path, unsigned checks, const char *label, diff_summary *sum, FILE *log)
{
    memset(sum, 0, sizeof *sum);
    size_t len;
    char *data = read_file(path, &len, log);
    if (data == NULL)
        return -1;
    report *rep = calloc(1, sizeof *rep);
    if (rep == NULL) {
        free(data);
        return -1;
    }
    rep->log = log;
    ctx c = {.rep = rep, .sum = sum, .checks = checks, .trace = getenv("TAGC_GO_DIFF_TRACE") != NULL};
    tagc_arena_init(&c.arena);
    tagc_buf_init(&c.out);

    const char *only = getenv("TAGC_GO_DIFF_TYPE"); /* debugging: one type only */
    const char *p = data, *end = data + len;
    const diff_type *t = NULL;
    record r;
    int st;
    size_t seq = 0;
    while ((st = next_record(&p, end, &r)) == 1) {
        const diff_type *nt = find_type(r.type, t);
        if (nt == NULL) {
            sum->unknown_types++;
        } else {
            t = nt;
            if (only == NULL || strcmp(only, t->name) == 0)
                check_record(&c, t, &r, seq);
        }
        seq++;
    }
    if (st < 0)
        fprintf(log, "go_diff: %s: malformed record after %zu records\n", path, seq);

    qsort(rep->keys, rep->nkeys, sizeof rep->keys[0], cmp_keys);
    fprintf(log, "go_diff: %s: %zu documents (%zu accepted by Go), %zu mismatches\n", label,
            sum->records, sum->accepted, sum->failures);
    for (int k = 0; k < DIFF_CLASSES; k++)
        if (sum->classes[k])
            fprintf(log, "  %-32s %zu\n", diff_class_names[k], sum->classes[k]);
    for (size_t i = 0; i < rep->nkeys; i++)
        fprintf(log, "    %-28s %-22s %-12s %zu\n", diff_class_names[rep->keys[i].cls],
                rep->keys[i].type, rep->keys[i].cat, rep->keys[i].n);
    if (sum->unknown_types)
        fprintf(log, "go_diff: %zu records of types missing from the registry\n", sum->unknown_types);

    tagc_buf_free(&c.out);
    tagc_arena_free(&c.arena);
    free(rep);
    free(data);
    return st < 0 ? -1 : 0;
}
