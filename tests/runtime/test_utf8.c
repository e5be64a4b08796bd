/*
 * test_utf8.c - tagc_utf8_valid against the reference of utf8_ref.h, Go's
 * unicode/utf8.Valid (decode each sequence, then check its value: no
 * overlongs, surrogates or values above U+10FFFF, nothing cut by the end).
 *
 * The runtime checks UTF-8 by blocks (runtime/str.c): 32 bytes a step with
 * AVX2 (texts of 35 bytes and more), 16 with AVX (19 and more), the last block
 * overlapping the one before; a sequence at a time otherwise. meson runs this
 * file four ways: as the machine is, with TAGC_CPU=avx and TAGC_CPU=sse2, and
 * as utf8_plain (-DTAGC_NO_SIMD, TAGC_CPU=plain). The generators put every
 * kind of sequence, valid or not, at every offset of texts of every length up
 * to 100 (so at every place of a block, across block ends, and cut by the end
 * of the text), after ASCII or multibyte text.
 *
 * Each text is checked from a malloc'd block of exactly its length, so that
 * the sanitizers catch a read past either end.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "tagc.h"
#include "utf8_ref.h"

/* MARK: - Checking */

typedef struct stats {
    size_t cases, valid, failures;
} stats;

static void check(stats *st, const uint8_t *src, size_t n)
{
    uint8_t *s = malloc(n ? n : 1);
    cr_assert_not_null(s);
    if (n)
        memcpy(s, src, n);
    bool want = ref_valid(s, n), got = tagc_utf8_valid((const char *)s, n);
    /* again between bytes that would change the answer if read: leads before
     * (ASCII after them is an error), continuation bytes after (they would
     * complete a sequence cut by the end) */
    static uint8_t guarded[3 + 4000 + 3];
    cr_assert(n <= 4000);
    memcpy(guarded, "\xF0\xF0\xF0", 3);
    if (n)
        memcpy(guarded + 3, s, n);
    memcpy(guarded + 3 + n, "\x80\x80\x80", 3);
    if (tagc_utf8_valid((const char *)guarded + 3, n) != got)
        got = !want;
    st->cases++;
    st->valid += want;
    if (got != want && st->failures++ < 20) {
        char h[2 * 400 + 1];
        size_t o = 0;
        for (size_t i = 0; i < n && i < 400; i++)
            o += (size_t)snprintf(h + o, sizeof h - o, "%02x", s[i]);
        h[o] = 0;
        cr_log_error("tagc_utf8_valid = %d, want %d (%zu bytes): %s", got, want, n, h);
    }
    free(s);
}

static void done(const stats *st, const char *what)
{
    cr_log_info("%s: %zu texts, %zu valid (level %d)", what, st->cases, st->valid, tagc_cpu_level());
    cr_assert_eq(st->failures, 0, "%s: %zu of %zu texts differ from utf8.Valid", what, st->failures, st->cases);
    /* both answers are well represented */
    cr_assert(st->valid > st->cases / 50 && st->valid < st->cases - st->cases / 50, "%s: %zu of %zu valid", what,
              st->valid, st->cases);
}

/* Valid characters of every length, and ones at the edges of the ranges. */
static const char *const fills[] = {
    "a",
    "\xE4\xB8\x96",             /* CJK */
    "\xC3\xA9",                 /* Latin-1 */
    "\xF0\x9F\x98\x80",         /* emoji */
};

/* Writes n bytes of whole characters: fill repeated, ASCII where the next one
 * does not fit (kind 4: 1, 2, 3 and 4 bytes in turn; 5: ASCII ending with a
 * 2-byte character, so that a block of ASCII is followed by one to check). */
static void fill_text(uint8_t *d, size_t n, int kind)
{
    size_t i = 0, c = 0;
    if (kind == 5) {
        fill_text(d, n, 0);
        if (n >= 2)
            memcpy(d + n - 2, fills[2], 2);
        return;
    }
    while (i < n) {
        const char *f = kind < 4 ? fills[kind] : fills[c++ % 4];
        size_t k = strlen(f);
        if (k > n - i) {
            d[i] = (uint8_t)('A' + i % 26);
            i++;
            continue;
        }
        memcpy(d + i, f, k);
        i += k;
    }
}

/* Sequences valid and not (each also cut short by the generators). */
static const char *const pieces[] = {
    /* valid, at the edges of each length and range */
    "\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xE0\xBF\xBF", "\xE1\x80\x80", "\xEC\xBF\xBF", "\xED\x80\x80",
    "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF", "\xEF\xBF\xBD", "\xE2\x80\xA8", "\xF0\x90\x80\x80",
    "\xF0\xBF\xBF\xBF", "\xF1\x80\x80\x80", "\xF3\xBF\xBF\xBF", "\xF4\x80\x80\x80", "\xF4\x8F\xBF\xBF",
    /* stray continuation bytes, leads that never start a character */
    "\x80", "\xBF", "\x80\x80", "\xC0", "\xC1", "\xF5", "\xF7", "\xF8", "\xFE", "\xFF",
    /* overlongs */
    "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xE0\x9F\xBF", "\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF",
    /* surrogates, above U+10FFFF */
    "\xED\xA0\x80", "\xED\xAF\xBF", "\xED\xB0\x80", "\xED\xBF\xBF", "\xF4\x90\x80\x80", "\xF4\xBF\xBF\xBF",
    "\xF5\x80\x80\x80", "\xF7\xBF\xBF\xBF",
    /* a continuation byte missing (ASCII or a lead in its place), one too many */
    "\xC2\x41", "\xE4\x41\x80", "\xE4\xB8\x41", "\xF0\x9F\x41\x80", "\xF0\x9F\x98\x41", "\xC2\xC2\x80",
    "\xE4\xB8\xE4\xB8\x96", "\xC2\x80\x80", "\xE4\xB8\x96\x80", "\xF0\x9F\x98\x80\x80",
};
#define NPIECES (sizeof pieces / sizeof pieces[0])

/* MARK: - Every length, every position */

/* Texts of 0..100 bytes of each kind of fill; the text itself, then each piece
 * written over it at every position (cut by the end of the text there). */
Test(utf8, every_length_every_position)
{
    stats st = {0};
    uint8_t t[128];
    for (size_t n = 0; n <= 100; n++) {
        for (int kind = 0; kind < 5; kind++) {
            fill_text(t, n, kind);
            check(&st, t, n);
            cr_assert(ref_valid(t, n));
            for (size_t j = 0; j < n; j++) {
                for (size_t p = 0; p < NPIECES; p++) {
                    uint8_t u[128];
                    memcpy(u, t, n);
                    size_t k = strlen(pieces[p]);
                    memcpy(u + j, pieces[p], k < n - j ? k : n - j);
                    check(&st, u, n);
                }
            }
        }
    }
    done(&st, "every position");
}

/* Each piece, and each of its prefixes, after `off` bytes of whole characters
 * (ASCII, or CJK with ASCII to make up the length), followed by 0..40 bytes of
 * ASCII, 2-byte characters, or ASCII and one 2-byte character at the end
 * (0..8 bytes, then every 4th): so every sequence starts at every offset of a
 * block, crosses every block end, and ends the text. */
Test(utf8, sequences_across_block_ends)
{
    stats st = {0};
    uint8_t t[200];
    for (size_t p = 0; p < NPIECES; p++) {
        size_t plen = strlen(pieces[p]);
        for (size_t k = 1; k <= plen; k++) {
            for (size_t off = 0; off <= 99; off++) {
                for (int before = 0; before < 2; before++) {
                    for (size_t after = 0; after <= 40; after += after < 8 ? 1 : 4) {
                        for (int kind = 0; kind <= 5; kind += kind == 0 ? 2 : 3) {
                            fill_text(t, off, before);
                            memcpy(t + off, pieces[p], k);
                            fill_text(t + off + k, after, kind);
                            check(&st, t, off + k + after);
                        }
                    }
                }
            }
        }
    }
    done(&st, "across block ends");
}

/* MARK: - Exhaustive short sequences */

/* Every 1- and 2-byte string, and every 3- and 4-byte string over the bytes at
 * the edges of the ranges, alone and at places of texts of 20, 40 and 80 bytes
 * of ASCII: the start, across the end of a 16- and a 32-byte block, the end
 * (4-byte strings: in the 40-byte text at the start, across 16, at the end). */
static const uint8_t edges[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1,
                                0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3,
                                0xF4, 0xF5, 0xF7, 0xF8, 0xFF};
#define NEDGES (sizeof edges / sizeof edges[0])

static void placed(stats *st, const uint8_t *seq, size_t k, bool many)
{
    static const size_t lens[] = {20, 40, 80};
    uint8_t t[80];
    check(st, seq, k);
    for (size_t l = many ? 0 : 1; l < (many ? 3u : 2u); l++) {
        size_t n = lens[l];
        /* 16 - k + 1 and 32 - k + 1: the sequence's last byte in the next block */
        size_t at[] = {0, 15, 16 - k + 1, 31, 32 - k + 1, n - k};
        for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
            if (!many && a != 0 && a != 2 && a != 5)
                continue;
            if (at[a] + k > n)
                continue;
            fill_text(t, n, 0);
            memcpy(t + at[a], seq, k);
            check(st, t, n);
        }
    }
}

Test(utf8, exhaustive_short)
{
    stats st = {0};
    uint8_t s[4];
    for (unsigned a = 0; a < 256; a++) {
        s[0] = (uint8_t)a;
        placed(&st, s, 1, true);
        for (unsigned b = 0; b < 256; b++) {
            s[1] = (uint8_t)b;
            placed(&st, s, 2, true);
        }
    }
    for (size_t a = 0; a < NEDGES; a++)
        for (size_t b = 0; b < NEDGES; b++)
            for (size_t c = 0; c < NEDGES; c++) {
                s[0] = edges[a], s[1] = edges[b], s[2] = edges[c];
                placed(&st, s, 3, true);
                for (size_t d = 0; d < NEDGES; d++) {
                    s[3] = edges[d];
                    placed(&st, s, 4, false);
                }
            }
    done(&st, "exhaustive");
}

/* MARK: - Random and long texts */

/* Texts of 0..299 bytes (some of 3000): runs of ASCII and of each fill, and
 * now and then a piece or a random byte. */
Test(utf8, random_texts)
{
    stats st = {0};
    static uint8_t t[3100];
    for (int iter = 0; iter < 100000; iter++) {
        size_t n = iter % 200 == 0 ? 3000 : rnd() % 300, i = 0;
        while (i < n) {
            uint32_t r = rnd() % 100;
            size_t run = 1 + rnd() % 70;
            if (run > n - i)
                run = n - i;
            if (r < 85) {
                fill_text(t + i, run, (int)(rnd() % 5));
                i += run;
            } else if (r < 97) {
                const char *p = pieces[rnd() % NPIECES];
                size_t k = strlen(p);
                if (k > n - i)
                    k = n - i;
                memcpy(t + i, p, k);
                i += k;
            } else {
                t[i++] = (uint8_t)rnd();
            }
        }
        check(&st, t, n);
    }
    done(&st, "random");
}

/* 100 000 bytes of CJK with ASCII runs: valid; then one bad byte at each of a
 * few hundred places (a stray continuation byte, a lead cut short, a surrogate). */
Test(utf8, long_texts)
{
    size_t n = 100000;
    uint8_t *t = malloc(n);
    cr_assert_not_null(t);
    for (size_t i = 0; i < n;) {
        size_t run = 1 + rnd() % 200;
        if (run > n - i)
            run = n - i;
        fill_text(t + i, run, (i / 200) % 3 == 0 ? 0 : 1);
        i += run;
    }
    cr_assert(ref_valid(t, n));
    cr_assert(tagc_utf8_valid((const char *)t, n));
    for (int k = 0; k < 300; k++) {
        size_t at = k < 3 ? (size_t[]){0, n / 2, n - 1}[k] : rnd() % n;
        uint8_t old[3];
        size_t m = n - at < 3 ? n - at : 3;
        memcpy(old, t + at, m);
        static const char *const bad[] = {"\x80", "\xE4", "\xED\xA0\x80"};
        const char *b = bad[k % 3];
        memcpy(t + at, b, strlen(b) < m ? strlen(b) : m);
        bool want = ref_valid(t, n);
        cr_assert_eq(tagc_utf8_valid((const char *)t, n), want, "bad byte at %zu (%d)", at, k);
        memcpy(t + at, old, m);
    }
    free(t);
}

/* meson runs this file with TAGC_CPU set; the level must obey it. */
Test(utf8, level_obeys_tagc_cpu)
{
    static const char *const names[] = {"plain", "sse2", "avx", "avx2"};
    const char *s = getenv("TAGC_CPU");
    int level = tagc_cpu_level();
    cr_log_info("TAGC_CPU=%s: level %d", s ? s : "(unset)", level);
    for (int i = 0; s != NULL && i < 4; i++)
        if (strcmp(s, names[i]) == 0)
            cr_expect(level <= i, "TAGC_CPU=%s but level %d", s, level);
}
