/*
 * test_escape.c - tagc_json_write_str against a reference escaper written here,
 * byte by byte, from Go 1.19's rules (encoding/json encodeState.string and
 * unicode/utf8.DecodeRune), on many generated strings: random bytes, random
 * valid UTF-8 of every length with the boundary code points, surrogates,
 * overlongs, sequences cut at every position and at the end of the string,
 * U+2028/U+2029, every ASCII byte, html on and off, lengths 0..100 and long
 * strings. The runtime escapes 16 bytes a step, so the generators put the
 * interesting bytes at every offset of a block and across block boundaries.
 *
 * Each string is in a malloc'd block of exactly its length (sanitizers catch a
 * read past it) and is written three ways: into a growable buffer, into a fixed
 * buffer of exactly the output's size, and into one a byte short (TAGC_E_FULL).
 * TAGC_ESCAPE_ITERS scales the random part (default 1; less under sanitizers).
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"
#include "utf8_ref.h"

/* MARK: - Reference */

/* Go's encodeState.string, without the quotes; returns the length written. */
static size_t ref_escape(uint8_t *out, const uint8_t *s, size_t n, bool html)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        if (c < 0x80) {
            bool safe = c >= 0x20 && c != '"' && c != '\\' && !(html && (c == '<' || c == '>' || c == '&'));
            if (safe) {
                out[o++] = c;
            } else if (c == '"' || c == '\\') {
                out[o++] = '\\';
                out[o++] = c;
            } else if (c == '\n' || c == '\r' || c == '\t') {
                out[o++] = '\\';
                out[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
            } else {
                o += (size_t)sprintf((char *)out + o, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
            }
            i++;
            continue;
        }
        uint32_t cp;
        size_t k = ref_decode(s + i, n - i, &cp);
        if (k == 0) {
            memcpy(out + o, "\\ufffd", 6);
            o += 6;
            i++;
        } else if (cp == 0x2028 || cp == 0x2029) {
            o += (size_t)sprintf((char *)out + o, "\\u%04x", (unsigned)cp);
            i += k;
        } else {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        }
    }
    return o;
}

/* MARK: - Checking one string */

typedef struct stats {
    size_t cases, failures;
    tagc_buf grow;
} stats;

static void hexdump(char *dst, size_t cap, const uint8_t *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 3 < cap; i++)
        o += (size_t)snprintf(dst + o, cap - o, "%02x", p[i]);
    dst[o] = 0;
}

static void report(stats *st, const char *what, const uint8_t *s, size_t n, bool html)
{
    if (st->failures++ < 20) {
        char h[512];
        hexdump(h, sizeof h, s, n);
        cr_log_error("%s (html=%d, %zu bytes): %s", what, html, n, h);
    }
}

static void check(stats *st, const uint8_t *src, size_t n, bool html)
{
    /* an exact copy, so that a read past its end is caught */
    uint8_t *s = malloc(n ? n : 1);
    cr_assert_not_null(s);
    if (n)
        memcpy(s, src, n);
    uint8_t *want = malloc(n * 6 + 2);
    cr_assert_not_null(want);
    want[0] = '"';
    size_t wlen = ref_escape(want + 1, s, n, html) + 2;
    want[wlen - 1] = '"';
    st->cases++;

    tagc_buf *g = &st->grow;
    tagc_buf_reset(g);
    tagc_buf_put(g, "[", 1);
    tagc_json_write_str(g, (const char *)s, n, html);
    if (g->err != 0 || g->len != wlen + 1 || memcmp(g->data + 1, want, wlen) != 0)
        report(st, "growable buffer differs", s, n, html);

    uint8_t *mem = malloc(wlen);
    cr_assert_not_null(mem);
    tagc_buf fb;
    tagc_buf_init_fixed(&fb, mem, wlen);
    tagc_json_write_str(&fb, (const char *)s, n, html);
    if (fb.err != 0 || fb.len != wlen || memcmp(mem, want, wlen) != 0)
        report(st, "exact fixed buffer differs", s, n, html);
    tagc_buf_init_fixed(&fb, mem, wlen - 1);
    tagc_json_write_str(&fb, (const char *)s, n, html);
    if (fb.err != TAGC_E_FULL || fb.len != 0)
        report(st, "short fixed buffer not full", s, n, html);
    free(mem);

    if (tagc_utf8_valid((const char *)s, n) != ref_valid(s, n))
        report(st, "utf8_valid differs", s, n, html);
    free(want);
    free(s);
}

static void check_both(stats *st, const uint8_t *s, size_t n)
{
    check(st, s, n, false);
    check(st, s, n, true);
}

/* MARK: - Generators */

static size_t put_utf8(uint8_t *d, uint32_t cp)
{
    if (cp < 0x80) {
        d[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (uint8_t)(0xC0 | cp >> 6);
        d[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) { /* also surrogates, encoded as if they were characters */
        d[0] = (uint8_t)(0xE0 | cp >> 12);
        d[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        d[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (uint8_t)(0xF0 | cp >> 18); /* also above U+10FFFF (F4 90.., F5..F7) */
    d[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    d[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    d[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* Code points at the edges of each length and of the special cases. */
static const uint32_t edge_cps[] = {
    0x00,    0x1F,    0x20,    0x22,    0x26,    0x3C,    0x3E,    0x5C,    0x7E,     0x7F,     0x80,
    0xFF,    0x7FF,   0x800,   0xFFF,   0x1000,  0xD7FF,  0xE000,  0xFFFD,  0xFFFE,   0xFFFF,   0x10000,
    0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF, 0x2027,  0x2028,  0x2029,  0x202A,   0x3042,   0x1F600,
};

/* One piece of text: a valid character (mostly), or one of the ways UTF-8 goes wrong. */
static size_t piece(uint8_t *d)
{
    uint32_t k = rnd() % 100;
    if (k < 25) /* ASCII, every byte */
        return put_utf8(d, rnd() % 128);
    if (k < 30) { /* printable ASCII without quote and backslash, so that runs get long */
        uint32_t c = 0x20 + rnd() % 95;
        return put_utf8(d, c == '"' || c == '\\' ? 'a' : c);
    }
    if (k < 40)
        return put_utf8(d, edge_cps[rnd() % (sizeof edge_cps / sizeof edge_cps[0])]);
    if (k < 50)
        return put_utf8(d, 0x80 + rnd() % (0x800 - 0x80));
    if (k < 70)
        return put_utf8(d, 0x800 + rnd() % (0x10000 - 0x800)); /* CJK and friends; surrogates too */
    if (k < 75)
        return put_utf8(d, 0x10000 + rnd() % (0x110000 - 0x10000));
    if (k < 77)
        return put_utf8(d, 0x110000 + rnd() % 0x100000); /* above U+10FFFF */
    if (k < 80) /* surrogate */
        return put_utf8(d, 0xD800 + rnd() % 0x800);
    if (k < 84) { /* overlong forms of a small value */
        uint32_t v = rnd() % 0x800, len = 2 + rnd() % 3;
        if (len == 2) {
            v &= 0x7F;
            d[0] = (uint8_t)(0xC0 | v >> 6), d[1] = (uint8_t)(0x80 | (v & 0x3F));
        } else if (len == 3) {
            d[0] = 0xE0, d[1] = (uint8_t)(0x80 | v >> 6), d[2] = (uint8_t)(0x80 | (v & 0x3F));
        } else {
            d[0] = 0xF0, d[1] = 0x80, d[2] = (uint8_t)(0x80 | v >> 6), d[3] = (uint8_t)(0x80 | (v & 0x3F));
        }
        return len;
    }
    if (k < 92) { /* a valid sequence cut short */
        uint8_t t[4];
        size_t n = put_utf8(t, 0x80 + rnd() % (0x110000 - 0x80));
        size_t cut = 1 + rnd() % (n - 1);
        memcpy(d, t, cut);
        return cut;
    }
    if (k < 96) { /* a stray continuation byte */
        d[0] = (uint8_t)(0x80 + rnd() % 64);
        return 1;
    }
    d[0] = (uint8_t)(0x80 + rnd() % 128); /* any byte >= 0x80 */
    return 1;
}

/* MARK: - Tests */

static long iters(void)
{
    const char *e = getenv("TAGC_ESCAPE_ITERS");
    long n = e ? atol(e) : 1;
    return n > 0 ? n : 1;
}

Test(escape, every_ascii_byte_and_edge_code_point)
{
    stats st = {0};
    tagc_buf_init(&st.grow);
    uint8_t s[64];
    for (int c = 0; c < 256; c++) {
        /* alone, and at every offset of a longer string of plain text or of CJK */
        for (size_t at = 0; at < 40; at++) {
            for (int bg = 0; bg < 2; bg++) {
                size_t n = 0;
                while (n < at)
                    n += bg ? put_utf8(s + n, 0x3042) : put_utf8(s + n, 'a');
                n = at; /* a CJK background may end mid-character: that is tested too */
                s[n++] = (uint8_t)c;
                check_both(&st, s, n);
                for (size_t j = 0; j < 8; j++)
                    s[n++] = 'z';
                check_both(&st, s, n);
            }
        }
    }
    for (size_t e = 0; e < sizeof edge_cps / sizeof edge_cps[0]; e++) {
        for (size_t at = 0; at < 40; at++) {
            size_t n = 0;
            while (n < at)
                n += put_utf8(s + n, 0x4E00 + (uint32_t)n);
            n = at;
            size_t k = put_utf8(s + n, edge_cps[e]);
            /* the whole character, then each of its prefixes at the end */
            for (size_t cut = k; cut >= 1; cut--)
                check_both(&st, s, n + cut);
            s[n + k] = 'x';
            check_both(&st, s, n + k + 1);
        }
    }
    tagc_buf_free(&st.grow);
    cr_log_info("escape edges: %zu cases", st.cases);
    cr_assert_eq(st.failures, 0, "%zu of %zu cases differ from the reference", st.failures, st.cases);
}

Test(escape, random_bytes)
{
    stats st = {0};
    tagc_buf_init(&st.grow);
    uint8_t s[128];
    long total = 20000 * iters();
    for (long it = 0; it < total; it++) {
        size_t n = rnd() % 101;
        uint32_t mode = rnd() % 3;
        for (size_t j = 0; j < n; j++) {
            uint32_t r = rnd();
            /* uniform bytes, or mostly high bytes (more chances of valid UTF-8) */
            s[j] = mode == 0 ? (uint8_t)r : mode == 1 ? (uint8_t)(0x80 | r) : (uint8_t)(r % 3 ? 0x80 | (r >> 8) : r >> 16);
        }
        check(&st, s, n, rnd() & 1);
    }
    tagc_buf_free(&st.grow);
    cr_log_info("random bytes: %zu cases", st.cases);
    cr_assert_eq(st.failures, 0, "%zu of %zu cases differ from the reference", st.failures, st.cases);
}

Test(escape, random_text)
{
    stats st = {0};
    tagc_buf_init(&st.grow);
    uint8_t s[2100];
    long total = 30000 * iters();
    for (long it = 0; it < total; it++) {
        /* lengths 0..100 mostly, some up to 2000 */
        size_t want = it % 16 == 0 ? rnd() % 2001 : rnd() % 101;
        /* mostly valid text of one kind, with a few other pieces */
        uint32_t base = rnd() % 4;
        uint32_t odd = rnd() % 40;
        size_t n = 0;
        while (n < want) {
            uint8_t t[4];
            size_t k;
            if (rnd() % 40 < odd)
                k = piece(t);
            else if (base == 0)
                k = put_utf8(t, 0x20 + rnd() % 95);
            else if (base == 1)
                k = put_utf8(t, 0x3040 + rnd() % 0x6000);
            else if (base == 2)
                k = put_utf8(t, rnd() % 4 ? 0x3040 + rnd() % 0x100 : 0x20 + rnd() % 95);
            else
                k = put_utf8(t, 0x10000 + rnd() % 0x100000);
            if (n + k > want)
                break;
            memcpy(s + n, t, k);
            n += k;
        }
        check(&st, s, n, rnd() & 1);
        /* and cut at a random place (often inside a character) */
        if (n > 0)
            check(&st, s, rnd() % n, rnd() & 1);
    }
    tagc_buf_free(&st.grow);
    cr_log_info("random text: %zu cases", st.cases);
    cr_assert_eq(st.failures, 0, "%zu of %zu cases differ from the reference", st.failures, st.cases);
}

Test(escape, one_bad_piece_everywhere)
{
    /* long runs of valid 2-, 3- and 4-byte text, each bad piece at every
     * position across three 16-byte blocks */
    static const struct {
        uint8_t b[4];
        size_t n;
    } bad[] = {
        {{0xE2, 0x80, 0xA8}, 3}, {{0xE2, 0x80, 0xA9}, 3}, {{0xE2, 0x80, 0xA7}, 3}, {{0xE2, 0x80, 0xAA}, 3},
        {{0xED, 0xA0, 0x80}, 3}, {{0xED, 0xBF, 0xBF}, 3}, {{0xED, 0x9F, 0xBF}, 3}, {{0xE0, 0x9F, 0xBF}, 3},
        {{0xE0, 0xA0, 0x80}, 3}, {{0xF0, 0x8F, 0xBF, 0xBF}, 4}, {{0xF0, 0x90, 0x80, 0x80}, 4},
        {{0xF4, 0x8F, 0xBF, 0xBF}, 4}, {{0xF4, 0x90, 0x80, 0x80}, 4}, {{0xC0, 0x80}, 2}, {{0xC1, 0xBF}, 2},
        {{0xC2, 0x80}, 2}, {{0xF5, 0x80, 0x80, 0x80}, 4}, {{0xFF}, 1}, {{0x80}, 1}, {{0xBF}, 1}, {{0xE3}, 1},
        {{0xE3, 0x81}, 2}, {{0xF0, 0x9F}, 2}, {{0xF0, 0x9F, 0x98}, 3}, {{'"'}, 1}, {{'\\'}, 1}, {{'<'}, 1},
        {{'&'}, 1}, {{'\n'}, 1}, {{0x1F}, 1}, {{0x7F}, 1}, {{0}, 1},
    };
    static const uint32_t bgs[] = {'a', 0xE9, 0x3042, 0x1F600};
    stats st = {0};
    tagc_buf_init(&st.grow);
    uint8_t s[128];
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        size_t blen = bad[b].n;
        for (size_t g = 0; g < sizeof bgs / sizeof bgs[0]; g++) {
            for (size_t at = 0; at < 50; at++) {
                size_t n = 0;
                while (n < at)
                    n += put_utf8(s + n, bgs[g]);
                n = at;
                memcpy(s + n, bad[b].b, blen);
                size_t end = n + blen;
                check_both(&st, s, end);
                while (end < 80)
                    end += put_utf8(s + end, bgs[g]);
                check_both(&st, s, end);
            }
        }
    }
    tagc_buf_free(&st.grow);
    cr_log_info("bad pieces: %zu cases", st.cases);
    cr_assert_eq(st.failures, 0, "%zu of %zu cases differ from the reference", st.failures, st.cases);
}

Test(escape, empty_string_from_null)
{
    /* a zero-length tagc_str may have a NULL pointer (the fuzzer found this) */
    for (int html = 0; html < 2; html++) {
        tagc_buf b;
        tagc_buf_init(&b);
        tagc_json_write_str(&b, NULL, 0, html);
        cr_assert_eq(b.err, 0);
        cr_assert_eq(b.len, 2);
        cr_assert_eq(memcmp(b.data, "\"\"", 2), 0);
        tagc_buf_free(&b);
    }
}

/* MARK: - The run-time choice of path */

#include "cpu.h"

/* meson runs this file twice: as is (the best path of the machine) and with
 * TAGC_CPU=sse2 (the SSE2 path even on an AVX machine); the level must obey. */
Test(cpu, level_obeys_tagc_cpu)
{
    const char *s = getenv("TAGC_CPU");
    int level = tagc_cpu_level();
    cr_expect(level >= TAGC_CPU_PLAIN && level <= TAGC_CPU_AVX2);
    if (s != NULL && strcmp(s, "sse2") == 0)
        cr_expect(level <= TAGC_CPU_SSE2, "TAGC_CPU=sse2 but level %d", level);
    if (s != NULL && strcmp(s, "plain") == 0)
        cr_expect_eq(level, TAGC_CPU_PLAIN);
    cr_expect_eq(tagc_cpu_level(), level, "computed once");
}
