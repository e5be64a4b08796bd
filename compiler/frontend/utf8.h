/*
 * utf8.h - strict UTF-8 decoding, as Go's unicode/utf8 defines it, for the
 * lexer (which rejects invalid source) and diag.c (which echoes source lines).
 */
#ifndef TAGC_UTF8_H
#define TAGC_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one character at s (n > 0 bytes available). Returns its length in
 * bytes and sets *cp, or returns 0 when s does not start with valid UTF-8
 * (overlong forms, surrogates and values above U+10FFFF are invalid). */
static inline size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

#endif /* TAGC_UTF8_H */
