/*
 * test_farray.c - the float64 array readers (json_read.c): tagc_json_read_f64_array
 * ([n]float64) and tagc_json_read_f64_array_slice ([][n]float64), against copies of the
 * generated loops they replace (ref_* below: the generator's code before the
 * eleventh pass, element by element on the public primitives).
 *
 * Every document is read by both, from a buffer of exactly its size (ASan
 * sees any read past the end), as the only element of an outer array (so that
 * MarshalIndent's unit is learnt before the value, as in a real document):
 * the same rc, error code, offset, path and message, the same end position
 * and depth, the same values bit for bit (a null element keeps the one there,
 * a repeated key decodes into the old elements), the same nil/empty slice.
 * Documents: random values of plain floats and of every token the in-line
 * path refuses (exponents, 1e400, -0, leading zeros, 8 integer digits, 16+
 * fraction digits, null, other kinds, broken numbers and literals), with 0 to
 * 4 elements, compact, as MarshalIndent writes them (two spaces, a tab) and
 * with whitespace of other shapes; each also cut at every byte and with one
 * byte replaced; at depth limits that fail at the array and at its elements.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

/* MARK: - The generated loops, as they were */

static int ref_array(tagc_json_dec *d, double *v, size_t n)
{
    size_t i = 0;
    int rc;

    if (tagc_json_null(d))
        return 0;
    if ((rc = tagc_json_arr_begin_inline(d)) != 0)
        return rc;
    d->first = true;
    while ((rc = tagc_json_arr_next_inline(d)) > 0) {
        if (i < n) {
            if (!tagc_json_null(d) && (rc = tagc_json_read_f64(d, &v[i])) != 0)
                return tagc_json_fail_index(d, rc, i);
        } else if ((rc = tagc_json_skip(d)) != 0) {
            return tagc_json_fail_index(d, rc, i);
        }
        i++;
    }
    if (rc < 0)
        return rc;
    for (; i < n; i++)
        memset(&v[i], 0, sizeof v[i]);
    return 0;
}

static int ref_array_slice(tagc_json_dec *d, double **io_ptr, size_t *io_len, size_t n)
{
    double *ptr = NULL;
    size_t len = 0;
    int rc;

    if (tagc_json_null(d)) {
        *io_ptr = NULL;
        *io_len = 0;
        return 0;
    }
    if ((rc = tagc_json_arr_begin_inline(d)) != 0)
        return rc;
    d->first = true;
    while ((rc = tagc_json_arr_next_inline(d)) > 0) {
        if (tagc_json_slice_full(len) && (ptr = tagc_json_grow_len(d, ptr, len, n * sizeof *ptr)) == NULL)
            return TAGC_E_NOMEM;
        if (len < *io_len)
            memcpy(&ptr[len * n], &(*io_ptr)[len * n], n * sizeof *ptr);
        else
            memset(&ptr[len * n], 0, n * sizeof *ptr);
        if ((rc = ref_array(d, &ptr[len * n], n)) != 0)
            return tagc_json_fail_index(d, rc, len);
        len++;
    }
    if (rc < 0)
        return rc;
    *io_ptr = len > 0 ? ptr : TAGC_EMPTY;
    *io_len = len;
    return 0;
}

/* MARK: - Running both */

enum kind { FIXED, RING };

typedef struct result {
    int rc;
    tagc_error err;
    ptrdiff_t pos;
    int depth;
    double vals[64];
    size_t len;
    int nil; /* 0 NULL, 1 TAGC_EMPTY, 2 elements */
} result;

static tagc_arena arena;
static const double sentinel[8] = {7.25, -3.5, 1e10, 0.125, -0.0, 42, 2.5, -9};

/* text as the one element of an outer array; n: the fixed length; old: a
 * repeated key's slice of old_len elements (of n floats for RING) */
static void run(enum kind k, bool ref, const char *text, size_t tlen, size_t n, size_t old_len, int max_depth,
                result *r)
{
    tagc_json_dec d;
    tagc_json_opts o = {0};
    char *buf = malloc(tlen ? tlen : 1);
    cr_assert(buf != NULL);
    memcpy(buf, text, tlen);
    o.max_depth = max_depth;
    memset(r, 0, sizeof *r);
    tagc_arena_reset(&arena);
    tagc_json_dec_init(&d, buf, tlen, &arena, &r->err, &o);
    double fixed[8];
    memcpy(fixed, sentinel, sizeof fixed);
    size_t per = k == RING ? n : 1;
    double *old = NULL;
    if (old_len != (size_t)-1) {
        old = old_len ? tagc_arena_alloc(&arena, old_len * per * sizeof *old) : TAGC_EMPTY;
        for (size_t i = 0; i < old_len * per; i++)
            old[i] = sentinel[i % 8] + (double)i;
    }
    double *ptr = old;
    size_t len = old_len == (size_t)-1 ? 0 : old_len;
    int rc;
    tagc_json_ws(&d);
    if ((rc = tagc_json_arr_begin_inline(&d)) != 0)
        goto out;
    d.first = true;
    if ((rc = tagc_json_arr_next_inline(&d)) <= 0) /* an error, or a byte replaced by ']' */
        goto out;
    switch (k) {
    case FIXED: rc = ref ? ref_array(&d, fixed, n) : tagc_json_read_f64_array(&d, fixed, n); break;
    case RING: rc = ref ? ref_array_slice(&d, &ptr, &len, n) : tagc_json_read_f64_array_slice(&d, &ptr, &len, n); break;
    }
    if (rc != 0) {
        rc = tagc_json_fail_index(&d, rc, 0);
        goto out;
    }
    rc = tagc_json_arr_next_inline(&d);
    if (rc > 0)
        rc = tagc_json_fail(&d, TAGC_E_SYNTAX, "a second element");
out:
    rc = tagc_json_dec_finish(&d, rc);
    r->rc = rc;
    r->pos = d.p - buf;
    r->depth = d.depth;
    if (k == FIXED) {
        memcpy(r->vals, fixed, sizeof fixed);
    } else {
        r->len = len;
        r->nil = ptr == NULL ? 0 : ptr == TAGC_EMPTY ? 1 : 2;
        if (ptr != NULL && len * per <= 64)
            memcpy(r->vals, ptr, len * per * sizeof *ptr);
    }
    free(buf);
}

static long compared;

static void compare1(enum kind k, const char *text, size_t tlen, size_t n, size_t old_len, int max_depth)
{
    result a, b;
    run(k, true, text, tlen, n, old_len, max_depth, &a);
    run(k, false, text, tlen, n, old_len, max_depth, &b);
    const char *what = k == FIXED ? "[n]float64" : "[][n]float64";
    cr_assert_eq(b.rc, a.rc, "%s n=%zu old=%td depth %d: rc %d, want %d in\n%.*s\n(%s %s)", what, n,
                 (ptrdiff_t)old_len, max_depth, b.rc, a.rc, (int)tlen, text, a.err.path, a.err.message);
    if (a.rc != 0) {
        cr_assert_eq(b.err.code, a.err.code, "%s: code in %.*s", what, (int)tlen, text);
        cr_assert_eq(b.err.offset, a.err.offset, "%s: offset %zu, want %zu in\n%.*s", what, b.err.offset,
                     a.err.offset, (int)tlen, text);
        cr_assert_str_eq(b.err.path, a.err.path, "%s: path in %.*s", what, (int)tlen, text);
        cr_assert_str_eq(b.err.message, a.err.message, "%s: message in %.*s", what, (int)tlen, text);
    }
    cr_assert_eq(b.pos, a.pos, "%s: ends at %td, want %td in\n%.*s", what, b.pos, a.pos, (int)tlen, text);
    cr_assert_eq(b.depth, a.depth, "%s: depth in %.*s", what, (int)tlen, text);
    cr_assert_eq(b.len, a.len, "%s: len %zu, want %zu in\n%.*s", what, b.len, a.len, (int)tlen, text);
    cr_assert_eq(b.nil, a.nil, "%s: nil/empty in %.*s", what, (int)tlen, text);
    cr_assert(memcmp(b.vals, a.vals, sizeof a.vals) == 0, "%s: values differ in\n%.*s", what, (int)tlen, text);
    compared++;
}

/* as it is, and followed by 256 spaces: the in-line path reads a point only
 * with F64_ARRAY_NEED(n) bytes after it, so most of a small document's points
 * take it only then */
static void compare(enum kind k, const char *text, size_t tlen, size_t n, size_t old_len, int max_depth)
{
    static char padded[8192];
    compare1(k, text, tlen, n, old_len, max_depth);
    cr_assert(tlen + 256 <= sizeof padded);
    memcpy(padded, text, tlen);
    memset(padded + tlen, ' ', 256);
    compare1(k, padded, tlen + 256, n, old_len, max_depth);
}

/* MARK: - Documents */

static uint64_t rng = 0x2545F4914F6CDD1Du;
static unsigned next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 32);
}

/* mostly plain floats, which the in-line path takes */
static const char *const plain[] = {
    "-65.613616999999977", "43.420273000000009", "1.5", "0", "-0", "-0.0", "0.1", "7", "1234567.123456789012",
    "-0.000001", "9007199.254740993", "123456.5", "-1"};
/* and what it refuses (or the general path rejects) */
static const char *const other[] = {
    "1e5", "1E-5", "-2.5e+3", "1e400", "-1e400", "4.9e-324", "1.7976931348623157e308", "01", "00.5", "-01.5",
    "1.", ".5", "-", "+1", "12345678.5", "0.12345678901234567", "1.1234567890123456", "123456789012345678901234",
    "null", "nul", "nulx", "true", "\"s\"", "\"1.5\"", "[]", "[1,2]", "{}", "{\"a\":1}", "1.5x", "NaN", "-x",
    "1.5.5", "2]", "\x01"};

typedef struct sbuf {
    char s[4096];
    size_t n;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    cr_assert(b->n + n < sizeof b->s);
    memcpy(b->s + b->n, s, n);
    b->n += n;
}
static void puts_(sbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* the whitespace style: 0 compact, 1 MarshalIndent "  ", 2 MarshalIndent "\t",
 * 3 MarshalIndent with random other whitespace now and then */
static void newline(sbuf *b, int style, int depth)
{
    if (style == 0)
        return;
    if (style == 3 && next_rand() % 6 == 0) {
        static const char *const ws[] = {"", " ", "\n", "\r\n", "\n ", "\n\t", " \n    ", "\n                    ",
                                         "\n   "};
        puts_(b, ws[next_rand() % (sizeof ws / sizeof *ws)]);
        return;
    }
    puts_(b, "\n");
    for (int i = 0; i < depth; i++)
        puts_(b, style == 2 ? "\t" : "  ");
}

static void scalar(sbuf *b)
{
    unsigned r = next_rand() % 16;
    puts_(b, r < 12 ? plain[next_rand() % (sizeof plain / sizeof *plain)]
                    : other[next_rand() % (sizeof other / sizeof *other)]);
}

/* an array of floats at depth (its elements at depth + 1), or sometimes not an array */
static void float_array(sbuf *b, int style, int depth, unsigned max_elems)
{
    unsigned r = next_rand() % 32;
    if (r == 0) {
        puts_(b, "null");
        return;
    }
    if (r == 1) {
        scalar(b);
        return;
    }
    unsigned k = next_rand() % 8 < 6 ? max_elems / 2 : next_rand() % (max_elems + 1);
    puts_(b, "[");
    for (unsigned i = 0; i < k; i++) {
        if (i > 0)
            puts_(b, ",");
        newline(b, style, depth + 1);
        scalar(b);
    }
    if (k > 0)
        newline(b, style, depth);
    puts_(b, "]");
}

static void ring(sbuf *b, int style, int depth, size_t n)
{
    if (next_rand() % 32 == 0) {
        puts_(b, next_rand() % 2 ? "null" : "[]");
        return;
    }
    unsigned k = next_rand() % 6;
    puts_(b, "[");
    for (unsigned i = 0; i < k; i++) {
        if (i > 0)
            puts_(b, ",");
        newline(b, style, depth + 1);
        float_array(b, style, depth + 1, (unsigned)n * 2);
    }
    if (k > 0)
        newline(b, style, depth);
    puts_(b, "]");
}

/* the document: "[" value "]" as MarshalIndent writes the outer array too */
static void document(sbuf *b, enum kind k, int style, size_t n)
{
    b->n = 0;
    puts_(b, "[");
    newline(b, style, 1);
    if (k == RING)
        ring(b, style, 1, n);
    else
        float_array(b, style, 1, (unsigned)n * 2);
    newline(b, style, 0);
    puts_(b, "]");
}

static void compare_all(enum kind k, const sbuf *b, size_t n, size_t old_len, bool cuts)
{
    compare(k, b->s, b->n, n, old_len, 0);
    compare(k, b->s, b->n, n, old_len, 2); /* the value's '[' is the limit */
    if (k == RING)
        compare(k, b->s, b->n, n, old_len, 3); /* its elements' '[' are */
    if (cuts)
        for (size_t cut = 0; cut < b->n; cut++)
            compare(k, b->s, cut, n, old_len, 0);
    /* one byte replaced */
    static const char repl[] = {',', ']', '[', ' ', '\n', 'n', '-', '.', 'e', '0', '9', '"', '\x80'};
    sbuf c = *b;
    for (int t = 0; t < 4 && b->n > 0; t++) {
        size_t at = next_rand() % b->n;
        c.s[at] = repl[next_rand() % sizeof repl];
        compare(k, c.s, c.n, n, old_len, 0);
        c.s[at] = b->s[at];
    }
}

static void random_documents(enum kind k, int count)
{
    sbuf b;
    for (int i = 0; i < count; i++) {
        size_t n = 1 + next_rand() % 4;
        int style = (int)(next_rand() % 4);
        size_t old_len = next_rand() % 3 == 0 ? (size_t)-1 : next_rand() % 4;
        document(&b, k, style, n);
        compare_all(k, &b, n, old_len, i % 8 == 0);
    }
}

Test(farray, fixed_random)
{
    random_documents(FIXED, 6000);
}

Test(farray, ring_random)
{
    random_documents(RING, 4000);
}

/* The shapes one at a time, each also cut at every byte. */
Test(farray, edges)
{
    static const char *const fixed2[] = {
        "[[1.5,2.5]]", "[[1.5,2.5,3.5]]", "[[1.5]]", "[[]]", "[null]", "[[null,2.5]]", "[[1.5,null]]",
        "[[1e5,2.5]]", "[[1.5,1e400]]", "[[-0,-0.0]]", "[[01,2]]", "[[1.5 ,2.5]]", "[[1.5, 2.5]]",
        "[[ 1.5,2.5]]", "[[1.5,2.5 ]]", "[[1.5,2.5,]]", "[[1.5,,2.5]]", "[[1.5;2.5]]", "[[1.5,2.5}]",
        "[\n  [\n    1.5,\n    2.5\n  ]\n]", "[\n  [\n    1.5,\n    2.5,\n    3.5\n  ]\n]",
        "[\n  [\n    1.5\n  ]\n]", "[\n  [\n    1.5,\n    2.5\n   ]\n]", "[\n  [\n    1.5,\n     2.5\n  ]\n]",
        "[\n\t[\n\t\t1.5,\n\t\t2.5\n\t]\n]", "[\n  [\n    1.5,\n    null\n  ]\n]",
        "[\n  [\n    1.5,\n    2.5\r\n  ]\n]", "[\n  [\n    1.5,\n    \"x\"\n  ]\n]",
        "[[12345678.5,0.1234567890123456789]]", "[[1.5,2.5]", "[[1.5,2.5", "[[1.5,", "[[-", "[[1.5,2.5]x]",
        "[[true,2.5]]", "[[{},[]]]", "[[1.5,2.5],[1,2]]",
    };
    for (size_t i = 0; i < sizeof fixed2 / sizeof *fixed2; i++) {
        size_t len = strlen(fixed2[i]);
        for (size_t n = 1; n <= 3; n++) {
            compare(FIXED, fixed2[i], len, n, (size_t)-1, 0);
            compare(FIXED, fixed2[i], len, n, (size_t)-1, 2);
            for (size_t cut = 0; cut < len; cut++)
                compare(FIXED, fixed2[i], cut, n, (size_t)-1, 0);
        }
    }
    static const char *const rings[] = {
        "[[[1.5,2.5],[3.5,4.5]]]", "[[]]", "[null]", "[[null]]", "[[[1.5,2.5],null,[3.5,4.5]]]",
        "[[[1.5,2.5], [3.5,4.5]]]", "[[[1.5,2.5] ,[3.5,4.5]]]", "[[[1.5,2.5],[3.5]]]",
        "[[[1.5,2.5],[3.5,4.5,5.5],[6.5,7.5]]]", "[[[1.5,2.5],[null,4.5]]]", "[[[1.5,2.5],[3.5,4.5]],]",
        "[[[1.5,2.5],,[3.5,4.5]]]", "[[[1.5,2.5][3.5,4.5]]]", "[[[1.5,2.5],[3.5,4.5]",
        "[\n  [\n    [\n      -65.613616999999977,\n      43.420273000000009\n    ],\n    [\n      -65.6,\n      43.4\n    ]\n  ]\n]",
        "[\n  [\n    [\n      1,\n      2\n    ],\n    [\n      1e5,\n      2\n    ],\n    [\n      3,\n      4\n    ]\n  ]\n]",
        "[\n  [\n    [\n      1,\n      2\n    ],\n   [\n      3,\n      4\n    ]\n  ]\n]",
        "[\n  [\n    [\n      1,\n      2\n    ],\n    null,\n    [\n      3,\n      4\n    ]\n  ]\n]",
        "[\n\t[\n\t\t[\n\t\t\t1,\n\t\t\t2\n\t\t],\n\t\t[\n\t\t\t3,\n\t\t\t4\n\t\t]\n\t]\n]",
    };
    for (size_t i = 0; i < sizeof rings / sizeof *rings; i++) {
        size_t len = strlen(rings[i]);
        for (size_t n = 1; n <= 3; n++)
            for (size_t old = 0; old <= 4; old++) {
                size_t old_len = old == 4 ? (size_t)-1 : old;
                for (int md = 2; md <= 4; md++)
                    compare(RING, rings[i], len, n, old_len, md == 4 ? 0 : md);
                for (size_t cut = 0; cut < len; cut++)
                    compare(RING, rings[i], cut, n, old_len, 0);
            }
    }
}

/* The in-line path is taken at all (a breakage of it must not go unseen as
 * long-running general reads): canada's shapes read with the right values. */
Test(farray, values)
{
    static const char text[] = "[\n  [\n    [\n      -65.613616999999977,\n      43.420273000000009\n    ],\n"
                               "    [\n      -0,\n      1e400\n    ]\n  ]\n]";
    result r;
    run(RING, false, text, strlen(text), 2, (size_t)-1, 0, &r);
    cr_assert_eq(r.rc, TAGC_E_RANGE, "rc %d", r.rc);
    cr_assert_str_eq(r.err.path, "$[0][1][1]");
    run(RING, false, text, 80, 2, (size_t)-1, 0, &r);
    cr_assert_eq(r.rc, TAGC_E_EOF);
    static const char ok[] = "[[[-65.613616999999977,43.420273000000009],[-0,1.5]]]";
    run(RING, false, ok, strlen(ok), 2, (size_t)-1, 0, &r);
    cr_assert_eq(r.rc, 0);
    cr_assert_eq(r.len, 2);
    /* the casts round the literals to double: with x87's FLT_EVAL_METHOD 2 they are long double */
    cr_assert(r.vals[0] == (double)-65.613616999999977 && r.vals[1] == (double)43.420273000000009 && r.vals[3] == 1.5);
    cr_assert(r.vals[2] == 0 && signbit(r.vals[2]));
    cr_log_info("compared %ld documents", compared);
}

/* Long enough for the in-line run (F64_ARRAY_NEED): an indented ring of eight
 * points, and at every indent other whitespace or a byte after the predicted
 * indent (before an element, before a point's ']', before the next point after
 * ','): the in-line path's hits test no token there, and leave such input to
 * plain_f64, the ']' test or the general step. Two spaces and tabs; n 1..3. */
Test(farray, indent_then_other_bytes)
{
    static const char *const after[] = {" ", "\t", "\r", "\n", "\r\n", "  ", "x", ",", "]"};
    sbuf b;
    for (int style = 1; style <= 2; style++) {
        b.n = 0;
        puts_(&b, "[");
        newline(&b, style, 1);
        puts_(&b, "[");
        for (int i = 0; i < 8; i++) {
            if (i > 0)
                puts_(&b, ",");
            newline(&b, style, 2);
            puts_(&b, "[");
            newline(&b, style, 3);
            puts_(&b, i % 2 ? "-65.613616999999977" : "43.5");
            puts_(&b, ",");
            newline(&b, style, 3);
            puts_(&b, i % 3 ? "1.25" : "-0.000123");
            newline(&b, style, 2);
            puts_(&b, "]");
        }
        newline(&b, style, 1);
        puts_(&b, "]");
        newline(&b, style, 0);
        puts_(&b, "]");
        for (size_t n = 1; n <= 3; n++)
            compare(RING, b.s, b.n, n, (size_t)-1, 0);
        for (size_t at = 0; at < b.n; at++) {
            if (b.s[at] != '\n')
                continue;
            size_t end = at + 1;
            while (end < b.n && (b.s[end] == ' ' || b.s[end] == '\t'))
                end++;
            for (size_t a = 0; a < sizeof after / sizeof *after; a++) {
                sbuf c;
                size_t alen = strlen(after[a]);
                memcpy(c.s, b.s, end);
                memcpy(c.s + end, after[a], alen);
                memcpy(c.s + end + alen, b.s + end, b.n - end);
                c.n = b.n + alen;
                for (size_t n = 1; n <= 3; n++)
                    compare(RING, c.s, c.n, n, n == 2 ? 1 : (size_t)-1, 0);
            }
        }
    }
}
