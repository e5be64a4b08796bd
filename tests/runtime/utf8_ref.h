/*
 * utf8_ref.h - what test_escape.c and test_utf8.c check the runtime against:
 * Go's utf8.DecodeRune and utf8.Valid, written by decoding each sequence and
 * checking its value (no overlongs, surrogates or values above U+10FFFF,
 * nothing cut by the end), not by the byte ranges the runtime tests; and the
 * tests' random numbers.
 */
#ifndef TAGC_TEST_UTF8_REF_H
#define TAGC_TEST_UTF8_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* utf8.DecodeRune: the length of the valid sequence at p (n bytes left), or 0
 * for (RuneError, 1). */
static inline size_t ref_decode(const uint8_t *p, size_t n, uint32_t *cp)
{
    uint8_t c = p[0];
    size_t k;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        k = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        k = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        k = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < k)
        return 0;
    for (size_t j = 1; j < k; j++) {
        if ((p[j] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (p[j] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return k;
}

/* utf8.Valid */
static inline bool ref_valid(const uint8_t *s, size_t n)
{
    uint32_t cp;
    for (size_t i = 0, k; i < n; i += k)
        if ((k = ref_decode(s + i, n - i, &cp)) == 0)
            return false;
    return true;
}

/* xorshift64*, the same sequence in every run */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static inline uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 32);
}

#endif
