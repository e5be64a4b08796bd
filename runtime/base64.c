/*
 * base64.c - []byte in JSON: Go's base64.StdEncoding (standard alphabet, '='
 * padding, not Strict).
 *
 * Decoding mirrors encoding/base64 (Go 1.19) Decode/decodeQuantum exactly:
 *   - '\r' and '\n' are skipped anywhere, including inside and after padding;
 *   - padding is required: the input must be whole quanta of 4 symbols
 *     ("QQ" alone is an error), "=" can only stand in the 3rd/4th symbol, "=="
 *     must be complete, and nothing but newlines may follow padding;
 *   - the unused low bits of the last symbol are NOT checked ("QR==" decodes to
 *     "A"), because StdEncoding is not Strict.
 */
#include "tagc.h"

static const char b64_alphabet[64] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Symbol value, or 0xFF for anything else. */
static const uint8_t b64_value[256] = {
#define XX 0xFF
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, 62, XX, XX, XX, 63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, XX, XX, XX, XX, XX, XX,
    XX, 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, XX, XX, XX, XX, XX,
    XX, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
#undef XX
};

size_t tagc_base64_encoded_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void tagc_base64_encode(char *dst, const uint8_t *src, size_t n)
{
    size_t i = 0;
    while (n - i >= 3) {
        uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
        dst[0] = b64_alphabet[v >> 18];
        dst[1] = b64_alphabet[(v >> 12) & 63];
        dst[2] = b64_alphabet[(v >> 6) & 63];
        dst[3] = b64_alphabet[v & 63];
        dst += 4;
        i += 3;
    }
    size_t rem = n - i;
    if (rem == 0)
        return;
    uint32_t v = (uint32_t)src[i] << 16;
    if (rem == 2)
        v |= (uint32_t)src[i + 1] << 8;
    dst[0] = b64_alphabet[v >> 18];
    dst[1] = b64_alphabet[(v >> 12) & 63];
    dst[2] = rem == 2 ? b64_alphabet[(v >> 6) & 63] : '=';
    dst[3] = '=';
}

static inline bool is_nl(uint8_t c)
{
    return c == '\n' || c == '\r';
}

/*
 * Go's decodeQuantum: one quantum from s[*si..n), written to dst. Returns the
 * number of bytes written (0..3), or -1 on corrupt input. *si advances past the
 * quantum (and past padding and trailing newlines). *done is set once padding
 * has been read (the input must end there) or the input ran out.
 */
static int decode_quantum(uint8_t *dst, const uint8_t *s, size_t n, size_t *si, bool *done)
{
    uint8_t dbuf[4] = {0, 0, 0, 0};
    int dlen = 4;
    size_t i = *si;
    for (int j = 0; j < 4; j++) {
        if (i == n) {
            if (j == 0) {
                *si = i;
                *done = true;
                return 0;
            }
            return -1; /* a partial quantum without padding */
        }
        uint8_t in = s[i++];
        uint8_t out = b64_value[in];
        if (out != 0xFF) {
            dbuf[j] = out;
            continue;
        }
        if (is_nl(in)) {
            j--;
            continue;
        }
        if (in != '=')
            return -1;
        /* Padding. */
        if (j < 2)
            return -1;
        if (j == 2) {
            /* "==" expected: the first '=' is consumed. */
            while (i < n && is_nl(s[i]))
                i++;
            if (i == n || s[i] != '=')
                return -1;
            i++;
        }
        while (i < n && is_nl(s[i]))
            i++;
        if (i < n)
            return -1; /* trailing garbage after padding */
        dlen = j;
        *done = true;
        break;
    }
    uint32_t v = (uint32_t)dbuf[0] << 18 | (uint32_t)dbuf[1] << 12 | (uint32_t)dbuf[2] << 6 | dbuf[3];
    /* dlen is 2, 3 or 4 here; trailing bits are not checked (not Strict). */
    dst[0] = (uint8_t)(v >> 16);
    if (dlen >= 3)
        dst[1] = (uint8_t)(v >> 8);
    if (dlen == 4)
        dst[2] = (uint8_t)v;
    *si = i;
    return dlen - 1;
}

long tagc_base64_decode(uint8_t *dst, const char *src, size_t n)
{
    const uint8_t *s = (const uint8_t *)src;
    size_t si = 0, w = 0;
    for (;;) {
        /* Fast path: four plain symbols. */
        while (n - si >= 4) {
            uint8_t a = b64_value[s[si]], b = b64_value[s[si + 1]];
            uint8_t c = b64_value[s[si + 2]], d = b64_value[s[si + 3]];
            if ((a | b | c | d) & 0x80)
                break;
            uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | d;
            dst[w] = (uint8_t)(v >> 16);
            dst[w + 1] = (uint8_t)(v >> 8);
            dst[w + 2] = (uint8_t)v;
            w += 3;
            si += 4;
        }
        if (si == n)
            return (long)w;
        bool done = false;
        int k = decode_quantum(dst + w, s, n, &si, &done);
        if (k < 0)
            return -1;
        w += (size_t)k;
        if (done)
            return (long)w;
    }
}
