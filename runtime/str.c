/*
 * str.c - JSON string escaping and unescaping, UTF-8 validation.
 *
 * The wire contract is Go 1.19's encoding/json:
 *   - escaping follows encodeState.string (encode.go),
 *   - unescaping follows the scanner (scanner.go) plus unquote (decode.go),
 *   - UTF-8 decoding follows unicode/utf8.DecodeRune: an invalid sequence is
 *     always consumed one byte at a time, and each such byte becomes U+FFFD.
 *
 * Hot paths work on 8 bytes at a time (SWAR): a word of plain bytes is copied
 * (or skipped) with one test; only words that hold a byte needing attention
 * fall to the per-byte code, and only from that byte on.
 */
#include "tagc.h"
#include "cpu.h"

#include <stdint.h>
#include <string.h>

/* MARK: - SWAR helpers */

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

static inline uint64_t load64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Word tricks that depend on the first byte in memory being the least
 * significant one. Elsewhere the byte loops do the same work. */
#define TAGC_STR_LE 1

static inline uint32_t load32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The n bytes at s (1 <= n <= 8) as a word, zero above them; reads only s[0..n). */
static inline uint64_t load_upto8(const uint8_t *s, size_t n)
{
    if (n >= 4) /* two loads that overlap: the shared bytes are the same either way */
        return load32(s) | ((uint64_t)load32(s + n - 4) << (8 * (n - 4)));
    return s[0] | ((uint64_t)s[n / 2] << (8 * (n / 2))) | ((uint64_t)s[n - 1] << (8 * (n - 1)));
}
#else
#define TAGC_STR_LE 0
#endif

/* High bit set in each byte of v that is zero. The lowest flagged byte is
 * exact; bytes above a true hit may be flagged falsely (borrow), which is
 * harmless because we only ever act on the lowest one. Bytes >= 0x80 are
 * never flagged here: callers add `v & HIGHS` when they care about them. */
static inline uint64_t swar_zero(uint64_t v)
{
    return (v - ONES) & ~v & HIGHS;
}

/* Bytes equal to c. */
static inline uint64_t swar_eq(uint64_t v, uint8_t c)
{
    return swar_zero(v ^ (ONES * c));
}

/* Bytes < n (n <= 128), for bytes < 0x80. */
static inline uint64_t swar_lt(uint64_t v, uint8_t n)
{
    return (v - ONES * n) & ~v & HIGHS;
}

/* Index of the lowest-addressed flagged byte of a non-zero mask. */
static inline size_t swar_first(uint64_t mask)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(mask) >> 3;
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (size_t)__builtin_clzll(mask) >> 3;
#else
    /* Unknown byte order: report 0, so the caller handles the word bytewise
     * (correct, only slower). */
    (void)mask;
    return 0;
#endif
}

/* SSE2 (every x86-64) handles 16 bytes a step on the hottest loops; the SWAR
 * code is the portable path (-DTAGC_NO_SIMD builds it on x86, to test it). */
#if defined(__SSE2__) && defined(__GNUC__) && TAGC_STR_LE && !defined(TAGC_NO_SIMD)
#include <emmintrin.h>
#define TAGC_STR_SSE2 1

/* Bit i set when byte i needs escaping: < 0x20 or >= 0x80 (one signed compare:
 * bytes >= 0x80 are negative), '"', '\\', and with html '<' '>' '&'. */
static inline unsigned sse_esc_mask(__m128i v, bool html)
{
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    if (html) {
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
    }
    return (unsigned)_mm_movemask_epi8(m);
}

/* x86 with GCC or clang: a version for AVX (VEX encoding, pshufb) chosen at run
 * time; -DTAGC_STR_NO_AVX leaves it out (to test the SSE2 one) */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(TAGC_STR_NO_AVX)
#include <immintrin.h>
#define TAGC_STR_AVX 1
#else
#define TAGC_STR_AVX 0
#endif
#else
#define TAGC_STR_SSE2 0
#define TAGC_STR_AVX 0
#endif

/* MARK: - UTF-8 */

/*
 * Length (2..4) of the valid UTF-8 sequence at p (p[0] >= 0x80, n >= 1 bytes
 * available), or 0 when utf8.DecodeRune would return (RuneError, 1): stray
 * continuation bytes, C0/C1 and F5..FF leads, overlongs, surrogates
 * (ED A0..BF), values above U+10FFFF, truncated sequences.
 */
static inline size_t utf8_seq(const uint8_t *p, size_t n)
{
    uint8_t c = p[0];
    uint8_t lo = 0x80, hi = 0xBF;
    size_t sz;
    if (c >= 0xC2 && c <= 0xDF) {
        sz = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        sz = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        sz = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (n < sz)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    if (sz >= 3 && (p[2] < 0x80 || p[2] > 0xBF))
        return 0;
    if (sz == 4 && (p[3] < 0x80 || p[3] > 0xBF))
        return 0;
    return sz;
}

/* tagc_utf8_valid by sequences: runs of ASCII 16 (SSE2) or 8 bytes a step,
 * then utf8_seq for each multibyte one. */
static bool utf8_valid_seqs(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
#if TAGC_STR_SSE2
        while (n - i >= 16 && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i))) == 0)
            i += 16;
#endif
        while (n - i >= 8 && (load64(p + i) & HIGHS) == 0)
            i += 8;
        if (i >= n)
            break;
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = utf8_seq(p + i, n - i);
        if (k == 0)
            return false;
        i += k;
    }
    return true;
}

/* MARK: - Escaping */

static const char hexdig[16] = "0123456789abcdef";

/*
 * What Go writes for an ASCII byte: 0 when the byte goes out as itself, else the
 * character after the backslash ('u' meaning \u00XX). Entries for < > & are 'u'
 * and apply only with html; \b and \f only from Go 1.22 on (esc_char_of).
 */
static const uint8_t esc_ascii[128] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    0, 0, '"', 0, 0, 0, 'u' /* & */, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'u' /* < */, 0, 'u' /* > */, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};


/* esc_ascii's entry for c under esc: before Go 1.22 (no TAGC_ESC_SHORT_BF),
 * U+0008 and U+000C are \u0008 and \u000c too. */
static inline uint8_t esc_char_of(uint8_t c, unsigned esc)
{
    uint8_t e = esc_ascii[c];
    return (e == 'b' || e == 'f') && !(esc & TAGC_ESC_SHORT_BF) ? 'u' : e;
}

/* Bytes of a word that stop the plain run: >= 0x80, < 0x20, '"', '\\', and
 * with html '<' '>' '&'. */
static inline uint64_t esc_mask(uint64_t v, bool html)
{
    uint64_t m = (v & HIGHS) | swar_lt(v, 0x20) | swar_eq(v, '"') | swar_eq(v, '\\');
    if (html)
        m |= swar_eq(v, '<') | swar_eq(v, '>') | swar_eq(v, '&');
    return m;
}

static inline bool ascii_needs_esc(uint8_t c, bool html)
{
    uint8_t e = esc_ascii[c];
    if (e == 0)
        return false;
    if (!html && (c == '<' || c == '>' || c == '&'))
        return false;
    return true;
}

/* Exact length of the escaped text of s, without quotes (esc: TAGC_ESC_ flags). */
static size_t escaped_len(const uint8_t *s, size_t len, unsigned esc)
{
    bool html = esc & TAGC_ESC_HTML;
    size_t i = 0, out = 0;
    while (i < len) {
        if (len - i >= 8) {
            uint64_t m = esc_mask(load64(s + i), html);
            if (m == 0) {
                i += 8;
                out += 8;
                continue;
            }
            size_t k = swar_first(m);
            i += k;
            out += k;
        }
        uint8_t c = s[i];
        if (c < 0x80) {
            if (!ascii_needs_esc(c, html))
                out += 1;
            else if (esc_char_of(c, esc) != 'u')
                out += 2;
            else
                out += 6;
            i++;
            continue;
        }
        size_t k = utf8_seq(s + i, len - i);
        if (k == 0) {
            out += esc & TAGC_ESC_RAW_FFFD ? 3 : 6;
            i++;
        } else if (k == 3 && c == 0xE2 && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9)) {
            out += 6;
            i += 3;
        } else {
            out += k;
            i += k;
        }
    }
    return out;
}

/* Writes what Go makes of the character at s[*i] (i < len): an ASCII byte as
 * itself or escaped, a UTF-8 sequence as itself (U+2028/U+2029 escaped), an
 * invalid byte as \ufffd or, with TAGC_ESC_RAW_FFFD, as the UTF-8 of U+FFFD;
 * advances *i past it. Room: 6 bytes. */
static inline uint8_t *escape_char(uint8_t *d, const uint8_t *s, size_t *i, size_t len, unsigned esc)
{
    uint8_t c = s[*i];
    if (c < 0x80) {
        uint8_t e = esc_char_of(c, esc);
        (*i)++;
        if (!ascii_needs_esc(c, esc & TAGC_ESC_HTML)) {
            *d = c;
            return d + 1;
        }
        d[0] = '\\';
        if (e != 'u') {
            d[1] = e;
            return d + 2;
        }
        d[1] = 'u';
        d[2] = '0';
        d[3] = '0';
        d[4] = (uint8_t)hexdig[c >> 4];
        d[5] = (uint8_t)hexdig[c & 15];
        return d + 6;
    }
    size_t k = utf8_seq(s + *i, len - *i);
    if (k == 0) {
        (*i)++;
        if (esc & TAGC_ESC_RAW_FFFD) { /* exactly 3 bytes: the room may be exact */
            memcpy(d, "\xEF\xBF\xBD", 3);
            return d + 3;
        }
        memcpy(d, "\\ufffd", 6);
        return d + 6;
    }
    const uint8_t *p = s + *i;
    *i += k;
    if (k == 3 && c == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
        memcpy(d, p[2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
        return d + 6;
    }
    d[0] = c;
    d[1] = p[1];
    if (k >= 3)
        d[2] = p[2];
    if (k == 4)
        d[3] = p[3];
    return d + k;
}

#if TAGC_STR_SSE2
/* The r bytes at s (0 <= r < 16), zero above them; reads only inside
 * [s - before, s + r), where before bytes of the string precede s. */
static inline __m128i sse_load_tail(const uint8_t *s, size_t r, size_t before)
{
    uint64_t lo = 0, hi = 0;
    if (r > 8) {
        lo = load64(s);
        hi = load64(s + r - 8) >> (8 * (16 - r));
    } else if (r == 8) {
        lo = load64(s);
    } else if (r > 0) {
        lo = before + r >= 8 ? load64(s + r - 8) >> (8 * (8 - r)) : load_upto8(s, r);
    }
    return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* UTF-8 problems in a block of 16 bytes, one bit per byte. */
typedef struct utf8_flags {
    /* the character starting at the byte cannot be copied as it is: a stray
     * continuation byte, or C0, C1, F5..FF */
    unsigned here;
    /* the character holding the byte before cannot: a continuation byte missing
     * at this byte, a second byte out of range (overlong, surrogate, above
     * U+10FFFF), the A8/A9 of U+2028/U+2029 (which Go escapes) */
    unsigned prev;
    /* a lead whose sequence goes on past the 16 bytes */
    unsigned cut;
} utf8_flags;

/*
 * The flags of the block v, given p1, p2, p3: the bytes 1, 2 and 3 places before
 * each of its bytes (zero before the first character checked). Bytewise
 * compares; as signed bytes, continuation bytes 80..BF are the ones below -64.
 */
static inline utf8_flags sse_utf8_flags(__m128i v, __m128i p1, __m128i p2, __m128i p3)
{
    const __m128i zero = _mm_setzero_si128();
    __m128i cont = _mm_cmplt_epi8(v, _mm_set1_epi8((char)0xC0));
    /* must be a continuation: 1 after a lead C0+, 2 after E0+, 3 after F0+
     * (each difference is at most 0x40, so positive as a signed byte) */
    __m128i need = _mm_or_si128(_mm_or_si128(_mm_subs_epu8(p1, _mm_set1_epi8((char)0xBF)),
                                             _mm_subs_epu8(p2, _mm_set1_epi8((char)0xDF))),
                                _mm_subs_epu8(p3, _mm_set1_epi8((char)0xEF)));
    need = _mm_cmpgt_epi8(need, zero);
    /* second bytes out of range: E0 80..9F, ED A0..BF, F0 80..8F, F4 90..BF (a
     * second byte that is no continuation at all is missing anyway) */
    __m128i lt_a0 = _mm_cmplt_epi8(v, _mm_set1_epi8((char)0xA0));
    __m128i lt_90 = _mm_cmplt_epi8(v, _mm_set1_epi8((char)0x90));
    __m128i range = _mm_or_si128(
        _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xE0)), lt_a0),
                     _mm_andnot_si128(lt_a0, _mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xED)))),
        _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xF0)), lt_90),
                     _mm_andnot_si128(lt_90, _mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xF4)))));
    /* E2 80 A8, E2 80 A9 */
    __m128i ls = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(p2, _mm_set1_epi8((char)0xE2)),
                                             _mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0x80))),
                               _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFE)), _mm_set1_epi8((char)0xA8)));
    /* C0, C1, F5..FF */
    __m128i bad = _mm_or_si128(_mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFE)), _mm_set1_epi8((char)0xC0)),
                               _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8((char)0xF5)), v));
    /* F0+ at 13, E0+ at 14, C0+ at 15 */
    __m128i cut = _mm_subs_epu8(v, _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, (char)0xEF,
                                                 (char)0xDF, (char)0xBF));
    utf8_flags f;
    f.here = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(need, cont), bad));
    f.prev = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(cont, need), _mm_or_si128(range, ls)));
    f.cut = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(cut, zero));
    return f;
}

typedef utf8_flags (*utf8_flags_fn)(__m128i v, __m128i p1, __m128i p2, __m128i p3);

#if TAGC_STR_AVX
/*
 * The same flags with table lookups (pshufb), after Keiser and Lemire,
 * "Validating UTF-8 in less than one instruction per byte" (2021), as simdutf
 * does it: three 16-entry tables, indexed by the high and low nibble of the byte
 * before and the high nibble of the byte, have a bit set for each kind of error
 * that pair of nibbles allows; a bit set in all three is an error of that pair
 * (a missing or stray continuation byte, an overlong, a surrogate, a value above
 * U+10FFFF). A third or fourth byte must be a continuation byte exactly when the
 * byte 2 or 3 places back is an E0+ or F0+ lead. Every error is flagged at the
 * second byte of its pair or later, so all of them go to prev (a stray
 * continuation byte then sends the character before it through escape_char too,
 * which is slower but the same output). Compiled for AVX: the three-operand
 * encoding; the loop that calls it is compiled twice (see escape_into).
 */
#define KL_TOO_SHORT 0x01u  /* lead followed by a lead or ASCII */
#define KL_TOO_LONG 0x02u   /* ASCII followed by a continuation */
#define KL_OVERLONG_3 0x04u /* E0 80..9F */
#define KL_TOO_LARGE 0x08u  /* F4 90..BF, F5+ 90..BF */
#define KL_SURROGATE 0x10u  /* ED A0..BF */
#define KL_OVERLONG_2 0x20u /* C0, C1 and a continuation */
#define KL_TOO_LARGE_1000 0x40u /* F5+ 80..8F */
#define KL_OVERLONG_4 0x40u /* F0 80..8F */
#define KL_TWO_CONTS 0x80u  /* continuation after continuation: an error unless a 3rd or 4th byte */
#define KL_CARRY (KL_TOO_SHORT | KL_TOO_LONG | KL_TWO_CONTS)
#define KL_CONT_HIGH (KL_TOO_LONG | KL_OVERLONG_2 | KL_TWO_CONTS)

/* The three tables, 16 entries each (also for the 32-byte version: the same in both lanes). */
#define KL_BYTE_1_HIGH \
        /* 0_______: ASCII */ \
        KL_TOO_LONG, KL_TOO_LONG, KL_TOO_LONG, KL_TOO_LONG, KL_TOO_LONG, KL_TOO_LONG, KL_TOO_LONG, KL_TOO_LONG, \
        /* 10______: continuation */ \
        (char)KL_TWO_CONTS, (char)KL_TWO_CONTS, (char)KL_TWO_CONTS, (char)KL_TWO_CONTS, \
        /* 1100____, 1101____, 1110____, 1111____: leads */ \
        KL_TOO_SHORT | KL_OVERLONG_2, KL_TOO_SHORT, KL_TOO_SHORT | KL_OVERLONG_3 | KL_SURROGATE, \
        KL_TOO_SHORT | KL_TOO_LARGE | KL_TOO_LARGE_1000 | KL_OVERLONG_4
#define KL_BYTE_1_LOW \
        (char)(KL_CARRY | KL_OVERLONG_3 | KL_OVERLONG_2 | KL_OVERLONG_4), /* ____0000 */ \
        (char)(KL_CARRY | KL_OVERLONG_2),                                  /* ____0001 */ \
        (char)KL_CARRY, (char)KL_CARRY,                                    /* ____001_ */ \
        (char)(KL_CARRY | KL_TOO_LARGE),                                   /* ____0100 */ \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000),               /* ____0101 */ \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000),               /* ____011_ */ \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), /* ____1___ */ \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000 | KL_SURROGATE), /* ____1101 */ \
        (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000), (char)(KL_CARRY | KL_TOO_LARGE | KL_TOO_LARGE_1000)
#define KL_BYTE_2_HIGH \
        /* ________ 0_______: ASCII */ \
        KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT, \
        KL_TOO_SHORT, \
        /* ________ 1000____, 1001____, 101_____ */ \
        (char)(KL_CONT_HIGH | KL_OVERLONG_3 | KL_TOO_LARGE_1000 | KL_OVERLONG_4), \
        (char)(KL_CONT_HIGH | KL_OVERLONG_3 | KL_TOO_LARGE), (char)(KL_CONT_HIGH | KL_SURROGATE | KL_TOO_LARGE), \
        (char)(KL_CONT_HIGH | KL_SURROGATE | KL_TOO_LARGE), \
        /* ________ 11______: lead */ \
        KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT, KL_TOO_SHORT

/* Bytes not zero where v (p1, p2, p3: the bytes 1, 2, 3 places before each of
 * its bytes, zero before the text) is not valid UTF-8: the error of a pair, or a
 * third or fourth byte that is or is not a continuation byte when it should be
 * the other. */
__attribute__((target("avx"))) static inline __m128i kl_utf8_err(__m128i v, __m128i p1, __m128i p2, __m128i p3)
{
    const __m128i low4 = _mm_set1_epi8(0x0F);
    const __m128i byte_1_high = _mm_setr_epi8(KL_BYTE_1_HIGH);
    const __m128i byte_1_low = _mm_setr_epi8(KL_BYTE_1_LOW);
    const __m128i byte_2_high = _mm_setr_epi8(KL_BYTE_2_HIGH);
    __m128i pair = _mm_and_si128(
        _mm_and_si128(_mm_shuffle_epi8(byte_1_high, _mm_and_si128(_mm_srli_epi16(p1, 4), low4)),
                      _mm_shuffle_epi8(byte_1_low, _mm_and_si128(p1, low4))),
        _mm_shuffle_epi8(byte_2_high, _mm_and_si128(_mm_srli_epi16(v, 4), low4)));
    /* the high bit set when 2 places after an E0+ lead or 3 after an F0+ one */
    __m128i must23 = _mm_or_si128(_mm_subs_epu8(p2, _mm_set1_epi8((char)(0xE0 - 0x80))),
                                  _mm_subs_epu8(p3, _mm_set1_epi8((char)(0xF0 - 0x80))));
    return _mm_xor_si128(_mm_and_si128(must23, _mm_set1_epi8((char)0x80)), pair);
}

/* Bit i set when byte i of a block of 16 is a lead whose sequence goes on past
 * the block: F0+ at 13, E0+ at 14, C0+ at 15. */
__attribute__((target("avx"))) static inline unsigned kl_utf8_cut(__m128i v)
{
    __m128i cut = _mm_subs_epu8(v, _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, (char)0xEF,
                                                 (char)0xDF, (char)0xBF));
    return (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(cut, _mm_setzero_si128()));
}

__attribute__((target("avx"))) static inline utf8_flags kl_utf8_flags(__m128i v, __m128i p1, __m128i p2,
                                                                        __m128i p3)
{
    __m128i err = kl_utf8_err(v, p1, p2, p3);
    /* E2 80 A8, E2 80 A9 */
    __m128i ls = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(p2, _mm_set1_epi8((char)0xE2)),
                                             _mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0x80))),
                               _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFE)), _mm_set1_epi8((char)0xA8)));
    utf8_flags f;
    f.here = 0;
    f.prev = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(ls, _mm_cmpeq_epi8(err, _mm_setzero_si128()))) ^ 0xFFFFu;
    f.cut = kl_utf8_cut(v);
    return f;
}
#endif

/* v shifted up by k bytes, the bytes of w's top in the gap: bytes k places back. */
#define SSE_BACK(v, w, k) _mm_or_si128(_mm_slli_si128((v), (k)), _mm_srli_si128((w), 16 - (k)))

/*
 * Writes the escaped text of s at d (room already ensured); returns the end;
 * utf8_flags_of checks the UTF-8 (a constant: each caller gets its own copy).
 *
 * 16 bytes a step. A block of plain ASCII, or of valid UTF-8 that Go writes as
 * it is, is copied whole, even when its last character goes on in the next
 * block: the blocks from `start` on are checked as one text (each block sees
 * the 3 bytes before it), and the next block's check covers the rest of that
 * character. At the first byte that cannot be copied, the output goes back to
 * the start of the character it belongs to, that character goes through
 * escape_char, and a new run starts after it. The last step takes the rest of
 * the string, zero above it: the zeros count as control characters, so the
 * first of them ends the copy (and a character cut by the end is missing its
 * continuation bytes there).
 *
 * slack: the room is the worst case (6 bytes per input byte) and 16 bytes more,
 * so the whole 16 bytes can be stored where only the first ones are kept.
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint8_t *escape_blocks(uint8_t *d, const uint8_t *s, size_t len, unsigned esc, bool slack,
                                     utf8_flags_fn utf8_flags_of)
{
    size_t i = 0, start = 0;
    unsigned cut = 0; /* the previous block ends inside a character */
    if (len == 0) /* s may be NULL */
        return d;
    for (;;) {
        size_t r = len - i;
        bool whole = r >= 16;
        __m128i v = whole ? _mm_loadu_si128((const __m128i *)(const void *)(s + i)) : sse_load_tail(s + i, r, i);
        unsigned here = sse_esc_mask(v, esc & TAGC_ESC_HTML), prev = 0;
        if (TAGC_LIKELY((here | cut) == 0)) { /* plain ASCII */
            if (slack)
                _mm_storeu_si128((__m128i *)(void *)d, v);
            else
                memcpy(d, s + i, 16);
            d += 16;
            i += 16;
            continue;
        }
        unsigned hi = (unsigned)_mm_movemask_epi8(v);
        here &= ~hi;
        if ((hi | cut) != 0) {
            __m128i p1, p2, p3;
            if (i == start) { /* nothing before counts */
                p1 = _mm_slli_si128(v, 1);
                p2 = _mm_slli_si128(v, 2);
                p3 = _mm_slli_si128(v, 3);
            } else if (whole) {
                p1 = _mm_loadu_si128((const __m128i *)(const void *)(s + i - 1));
                p2 = _mm_loadu_si128((const __m128i *)(const void *)(s + i - 2));
                p3 = _mm_loadu_si128((const __m128i *)(const void *)(s + i - 3));
            } else { /* i - start >= 16 */
                __m128i w = _mm_slli_si128(_mm_cvtsi32_si128((int)load32(s + i - 4)), 12);
                p1 = SSE_BACK(v, w, 1);
                p2 = SSE_BACK(v, w, 2);
                p3 = SSE_BACK(v, w, 3);
            }
            utf8_flags f = utf8_flags_of(v, p1, p2, p3);
            here |= f.here;
            prev = f.prev;
            cut = f.cut;
        }
        if ((here | prev) == 0) { /* valid UTF-8 (a tail has a flag at its end) */
            if (slack)
                _mm_storeu_si128((__m128i *)(void *)d, v);
            else
                memcpy(d, s + i, 16);
            d += 16;
            i += 16;
            continue;
        }
        /* b: where the copy stops */
        size_t eh = (size_t)__builtin_ctz(here | 0x10000u), ep = (size_t)__builtin_ctz(prev | 0x10000u);
        size_t b = i + eh;
        if (ep <= eh) {
            b = i + ep; /* back to the lead of the character before */
            while (b > start && (s[--b] & 0xC0) == 0x80) {
            }
        }
        if (b >= i) {
            if (slack)
                _mm_storeu_si128((__m128i *)(void *)d, v);
            else
                memcpy(d, s + i, b - i);
            d += b - i;
        } else {
            d -= i - b; /* the character began in the block before */
        }
        i = b;
        if (i >= len)
            break;
        d = escape_char(d, s, &i, len, esc);
        start = i;
        cut = 0;
    }
    return d;
}
#undef SSE_BACK

#if TAGC_STR_AVX
__attribute__((target("avx"))) static uint8_t *escape_blocks_avx(uint8_t *d, const uint8_t *s, size_t len,
                                                                   unsigned esc, bool slack)
{
    return escape_blocks(d, s, len, esc, slack, kl_utf8_flags);
}
#endif

/* Writes the escaped text of s at d (room already ensured); returns the end.
 * With AVX (checked at run time) the UTF-8 check uses table lookups. */
static uint8_t *escape_into(uint8_t *d, const uint8_t *s, size_t len, unsigned esc, bool slack)
{
#if TAGC_STR_AVX
    if (tagc_cpu() >= TAGC_CPU_AVX)
        return escape_blocks_avx(d, s, len, esc, slack);
#endif
    return escape_blocks(d, s, len, esc, slack, sse_utf8_flags);
}
#else
/* Writes the escaped text of s at d (room already ensured); returns the end.
 * slack: the room is the worst case (6 bytes per input byte) and 16 bytes more,
 * so a whole 8- or 4-byte word can be stored where only its first bytes are
 * kept (no memcpy of a variable length, no byte loop for short strings). */
static uint8_t *escape_into(uint8_t *d, const uint8_t *s, size_t len, unsigned esc, bool slack)
{
    size_t i = 0;
    while (i < len) {
        /* Plain run: 8 bytes a step (SWAR). */
        while (len - i >= 8) {
            uint64_t v = load64(s + i);
            uint64_t m = esc_mask(v, esc & TAGC_ESC_HTML);
            if (m == 0) {
                memcpy(d, &v, 8);
                d += 8;
                i += 8;
                continue;
            }
            size_t k = swar_first(m);
            if (slack)
                memcpy(d, &v, 8);
            else
                memcpy(d, s + i, k);
            d += k;
            i += k;
            break;
        }
        if (i >= len)
            break;
#if TAGC_STR_LE
        if (slack && len - i < 8) {
            /* Fewer than 8 bytes left (all of a short string, or the tail of a
             * longer one): one word of them, the rest of it zero, stored whole. */
            size_t r = len - i;
            uint64_t v = len >= 8 ? load64(s + len - 8) >> (8 * (8 - r)) : load_upto8(s + i, r);
            size_t k = swar_first(esc_mask(v, esc & TAGC_ESC_HTML)); /* the zero bytes above stop it at r */
            memcpy(d, &v, 8);
            if (k >= r) {
                d += r;
                break;
            }
            d += k;
            i += k;
        }
#endif
        if (s[i] < 0x80) {
            d = escape_char(d, s, &i, len, esc);
            continue;
        }
        /* A run of non-ASCII text (CJK, emoji), sequence after sequence. */
        do {
#if TAGC_STR_LE
            if (slack && len - i >= 4) {
                /* The common sequences, tested on one word and copied as one: 2
                 * bytes (C2..DF lead), 3 bytes (E1..EF lead but E0 and ED, whose
                 * second byte has a narrower range, and not U+2028/U+2029, which
                 * Go escapes), 4 bytes (F1..F3 lead, or F0 with 90..BF next). */
                uint32_t w = load32(s + i);
                size_t k = 0;
                if ((w & 0xC0E0u) == 0x80C0u && (w & 0x1Eu) != 0)
                    k = 2;
                else if ((w & 0xC0C0F0u) == 0x8080E0u && (w & 0xFFu) != 0xE0u && (w & 0xFFu) != 0xEDu &&
                         (w & 0xFEFFFFu) != 0xA880E2u)
                    k = 3;
                else if ((w & 0xC0C0C0F8u) == 0x808080F0u &&
                         ((w & 0xFFu) - 0xF1u < 3u || ((w & 0xFFu) == 0xF0u && (w & 0xFF00u) >= 0x9000u)))
                    k = 4;
                if (k != 0) {
                    memcpy(d, &w, 4);
                    d += k;
                    i += k;
                    continue;
                }
            }
#endif
            d = escape_char(d, s, &i, len, esc);
        } while (i < len && s[i] >= 0x80);
    }
    return d;
}
#endif

/* Strings up to this length reserve their worst case (6 bytes per input byte)
 * at once; longer ones are measured first so a growable buffer does not balloon. */
#define TAGC_ESC_WORST_CASE_MAX ((size_t)1 << 20)

/* Any string, any buffer: the worst case reserved (then whole-word stores) or,
 * in a fixed buffer short of it, the exact length. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void write_str_any(tagc_buf *b, const uint8_t *src, size_t len, unsigned esc)
{
    size_t need;
    bool slack = false;
    if (len <= TAGC_ESC_WORST_CASE_MAX && (b->cap - b->len >= len * 6 + 2 + 16 || !b->fixed)) {
        /* Worst case fits already, or the buffer can grow to it; 16 bytes more
         * for whole-word stores past the end. */
        need = len * 6 + 2 + 16;
        slack = true;
    } else {
        /* Fixed buffer short of the worst case, or a huge string: exact size. */
        need = escaped_len(src, len, esc);
        if (need > SIZE_MAX - 2) {
            tagc_buf_fail(b, TAGC_E_NOMEM);
            return;
        }
        need += 2;
    }
    if (tagc_buf_reserve(b, need) != 0)
        return;
    uint8_t *d = b->data + b->len;
    *d++ = '"';
    d = escape_into(d, src, len, esc, slack);
    *d++ = '"';
    b->len = (size_t)(d - b->data);
}

/*
 * Short strings (keys, names, enum values, most of what records hold) take a
 * path of their own, kept small so that its callers pay for no more than it
 * uses: both words of the string tested at once (SSE2, else SWAR) and, when
 * nothing needs escaping, the quotes and words stored whole. The rest goes to
 * write_str_any.
 */
void tagc_json_write_str(tagc_buf *b, const char *s, size_t len, unsigned esc)
{
    const uint8_t *src = (const uint8_t *)s;
    if (TAGC_UNLIKELY(b->err != 0))
        return;
#if TAGC_STR_LE
    if (len - 1 < 16 && b->cap - b->len >= 18) {
        uint64_t lo, hi = 0;
        bool plain;
        if (len > 8) {
            lo = load64(src);
            hi = load64(src + len - 8) >> (8 * (16 - len));
        } else {
            lo = load_upto8(src, len);
        }
#if TAGC_STR_SSE2
        /* the zero bytes past the string count as controls: the first byte
         * flagged is at len when all of the string is plain */
        unsigned m = sse_esc_mask(_mm_set_epi64x((long long)hi, (long long)lo), esc & TAGC_ESC_HTML) | 0x10000u;
        plain = (size_t)__builtin_ctz(m) >= len;
#else
        if (len > 8) {
            uint64_t m = esc_mask(hi, esc & TAGC_ESC_HTML);
            plain = esc_mask(lo, esc & TAGC_ESC_HTML) == 0 && (m == 0 || swar_first(m) >= len - 8);
        } else {
            uint64_t m = esc_mask(lo, esc & TAGC_ESC_HTML);
            plain = m == 0 || swar_first(m) >= len;
        }
#endif
        if (plain) {
            uint8_t *d = b->data + b->len;
            d[0] = '"';
            memcpy(d + 1, &lo, 8);
            memcpy(d + 9, &hi, 8);
            d[len + 1] = '"';
            b->len += len + 2;
            return;
        }
    }
#endif
    write_str_any(b, src, len, esc);
}

/* MARK: - Scanning and unescaping */

/*
 * The string scanner: from p (after the opening quote) to the closing quote,
 * NULL when the input ends first; *needs_unescape when a backslash or a byte
 * that is not printable ASCII came before it. Written once for any block
 * width: blk_special(q) has bit i set for byte q[i] that is '"', '\\', a
 * control or >= 0x80, blk_quote(q) for '"' or '\\' alone; W is the width (16
 * with SSE2, 32 with AVX2, 0 for SWAR only). SWAR does the tail.
 */
typedef uint32_t (*scan_blk_fn)(const char *q);

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline const char *scan_str(const char *p, const char *end, bool *needs_unescape,
                                   scan_blk_fn blk_special, scan_blk_fn blk_quote, ptrdiff_t W)
{
    const char *q = p;
    /* Phase 1: plain printable ASCII so far. */
    for (;;) {
        while (W != 0 && end - q >= W) {
            uint32_t m = blk_special(q);
            if (m != 0) {
                q += __builtin_ctz(m);
                goto special1;
            }
            q += W;
        }
        while (end - q >= 8) {
            uint64_t v = load64(q);
            uint64_t m = (v & HIGHS) | swar_lt(v, 0x20) | swar_eq(v, '"') | swar_eq(v, '\\');
            if (m != 0) {
                q += swar_first(m);
                break;
            }
            q += 8;
        }
        if (q >= end)
            return NULL;
    special1:;
        uint8_t c = (uint8_t)*q;
        if (c == '"') {
            *needs_unescape = false;
            return q;
        }
        if (c == '\\' || c < 0x20 || c >= 0x80)
            break;
        q++;
    }
    /* Phase 2: only quotes and backslashes matter now. */
    *needs_unescape = true;
    for (;;) {
        while (W != 0 && end - q >= W) {
            uint32_t m = blk_quote(q);
            if (m != 0) {
                q += __builtin_ctz(m);
                goto special2;
            }
            q += W;
        }
        while (end - q >= 8) {
            uint64_t v = load64(q);
            uint64_t m = swar_eq(v, '"') | swar_eq(v, '\\');
            if (m != 0) {
                q += swar_first(m);
                break;
            }
            q += 8;
        }
        if (q >= end)
            return NULL;
    special2:;
        char c = *q;
        if (c == '"')
            return q;
        if (c == '\\') {
            if (end - q < 2)
                return NULL;
            q += 2;
        } else {
            q++;
        }
    }
}

#if TAGC_STR_SSE2
static inline uint32_t blk16_special(const char *q)
{
    return sse_esc_mask(_mm_loadu_si128((const __m128i *)(const void *)q), false);
}

static inline uint32_t blk16_quote(const char *q)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return (uint32_t)_mm_movemask_epi8(m);
}
#define SCAN_SSE2 blk16_special, blk16_quote, 16
#else
#define SCAN_SSE2 NULL, NULL, 0
#endif

#if TAGC_STR_AVX
/* AVX2: 32 bytes a step, for processors that have it (tagc_cpu, once). */
__attribute__((target("avx2"))) static inline uint32_t blk32_special(const char *q)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)q);
    __m256i m = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v); /* < 0x20 or >= 0x80 (signed) */
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
    return (uint32_t)_mm256_movemask_epi8(m);
}

__attribute__((target("avx2"))) static inline uint32_t blk32_quote(const char *q)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)q);
    __m256i m = _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
                                _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
    return (uint32_t)_mm256_movemask_epi8(m);
}

__attribute__((target("avx2"))) static const char *scan_str_avx2(const char *p, const char *end,
                                                                   bool *needs_unescape)
{
    return scan_str(p, end, needs_unescape, blk32_special, blk32_quote, 32);
}
#endif

const char *tagc_json_scan_str(const char *p, const char *end, bool *needs_unescape)
{
#if TAGC_STR_AVX
    /* a string shorter than a block gains nothing from the wider path */
    if (end - p >= 64 && tagc_cpu() >= TAGC_CPU_AVX2)
        return scan_str_avx2(p, end, needs_unescape);
#endif
    return scan_str(p, end, needs_unescape, SCAN_SSE2);
}

/* The value of a hex digit, -1 for any other byte. */
static const int8_t hex_digit[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     0,  1,  2,  3,  4,  5,  6,  7,  8,  9, -1, -1, -1, -1, -1, -1,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

static inline int hexval(uint8_t c)
{
    return hex_digit[c];
}

/* Go's getu4: the value of "\uXXXX" at p (n bytes available), or -1. The four
 * digits looked up at once: any invalid one makes the OR negative. */
static inline long getu4(const uint8_t *p, size_t n)
{
    if (n < 6 || p[0] != '\\' || p[1] != 'u')
        return -1;
    int a = hex_digit[p[2]], b = hex_digit[p[3]], c = hex_digit[p[4]], e = hex_digit[p[5]];
    if ((a | b | c | e) < 0)
        return -1;
    return (long)a << 12 | b << 8 | c << 4 | e;
}

static inline uint8_t *put_utf8(uint8_t *d, uint32_t r)
{
    if (r < 0x80) {
        *d++ = (uint8_t)r;
    } else if (r < 0x800) {
        *d++ = (uint8_t)(0xC0 | (r >> 6));
        *d++ = (uint8_t)(0x80 | (r & 0x3F));
    } else if (r < 0x10000) {
        *d++ = (uint8_t)(0xE0 | (r >> 12));
        *d++ = (uint8_t)(0x80 | ((r >> 6) & 0x3F));
        *d++ = (uint8_t)(0x80 | (r & 0x3F));
    } else {
        *d++ = (uint8_t)(0xF0 | (r >> 18));
        *d++ = (uint8_t)(0x80 | ((r >> 12) & 0x3F));
        *d++ = (uint8_t)(0x80 | ((r >> 6) & 0x3F));
        *d++ = (uint8_t)(0x80 | (r & 0x3F));
    }
    return d;
}

/* The escape at s[*pi] (a backslash; n bytes in all): writes its character at d
 * and returns the end, *pi past the escape; NULL for a bad one, *bad_at set. */
static inline uint8_t *unescape_esc(uint8_t *d, const uint8_t *s, size_t n, size_t *pi, size_t *bad_at)
{
    size_t i = *pi;
    if (i + 1 >= n) {
        *bad_at = n;
        return NULL;
    }
    uint8_t e = s[i + 1];
    switch (e) {
    case '"':
    case '\\':
    case '/':
        *d++ = e;
        *pi = i + 2;
        return d;
    case 'b':
        *d++ = '\b';
        *pi = i + 2;
        return d;
    case 'f':
        *d++ = '\f';
        *pi = i + 2;
        return d;
    case 'n':
        *d++ = '\n';
        *pi = i + 2;
        return d;
    case 'r':
        *d++ = '\r';
        *pi = i + 2;
        return d;
    case 't':
        *d++ = '\t';
        *pi = i + 2;
        return d;
    case 'u':
        break;
    default:
        *bad_at = i + 1;
        return NULL;
    }
    /* \uXXXX: four hex digits required (the scanner's rule); the first that
     * is missing or not one is the error */
    long r = getu4(s + i, n - i);
    if (r < 0) {
        for (size_t j = 2;; j++) {
            if (i + j >= n) {
                *bad_at = n;
                return NULL;
            }
            if (hexval(s[i + j]) < 0) {
                *bad_at = i + j;
                return NULL;
            }
        }
    }
    i += 6;
    *pi = i;
    if (r >= 0xD800 && r < 0xE000) {
        /* As Go's unquote: a high surrogate pairs with an immediately
         * following \u low surrogate; anything else gives U+FFFD and the
         * following escape (if any) is then read on its own. */
        long r1 = getu4(s + i, n - i);
        if (r < 0xDC00 && r1 >= 0xDC00 && r1 < 0xE000) {
            uint32_t cp = 0x10000 + (((uint32_t)r - 0xD800) << 10) + ((uint32_t)r1 - 0xDC00);
            *pi = i + 6;
            return put_utf8(d, cp);
        }
        r = 0xFFFD;
    }
    return put_utf8(d, (uint32_t)r);
}

#if TAGC_STR_LE
/* The first three bytes of w (memory order) are a valid UTF-8 sequence with a
 * lead byte E1-EC or EE-EF (most of CJK): those take any continuation bytes,
 * so one mask test decides; E0 and ED (overlong and surrogate ranges) are left
 * to utf8_seq. */
static inline bool utf8_plain3(uint32_t w)
{
    return (w & 0xC0C0F0u) == 0x8080E0u && (w & 0x0Fu) != 0 && (w & 0xFFu) != 0xEDu;
}
#endif

#if TAGC_STR_SSE2
/* The first 15 bytes of v are five sequences that utf8_plain3 accepts (a run of
 * CJK text): the masks of lead and continuation bytes, E0 and ED excluded. */
static inline bool utf8_plain3x5(__m128i v)
{
#define L3 (char)0xF0, (char)0xC0, (char)0xC0
#define W3 (char)0xE0, (char)0x80, (char)0x80
#define F3 (char)0xFF, 0, 0
    const __m128i mask = _mm_setr_epi8(L3, L3, L3, L3, L3, 0);
    const __m128i want = _mm_setr_epi8(W3, W3, W3, W3, W3, 0);
    const __m128i leads = _mm_setr_epi8(F3, F3, F3, F3, F3, 0);
#undef L3
#undef W3
#undef F3
    __m128i ok = _mm_cmpeq_epi8(_mm_and_si128(v, mask), want);
    __m128i edge = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE0)),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xED)));
    return _mm_movemask_epi8(_mm_andnot_si128(_mm_and_si128(edge, leads), ok)) == 0xFFFF;
}
#endif

/* Unescaping by words: plain runs 16 bytes a step with SSE2, else 8 (SWAR);
 * non-ASCII a sequence at a time. */
static long unescape_words(char *dst, const char *body, size_t body_len, size_t *bad_at)
{
    const uint8_t *s = (const uint8_t *)body;
    uint8_t *d = (uint8_t *)dst;
    size_t n = body_len, i = 0;
    while (i < n) {
        /* Plain run: printable ASCII other than '"' and '\\'. */
#if TAGC_STR_SSE2
        while (n - i >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            unsigned m = sse_esc_mask(v, false);
            if (m != 0) {
                size_t k = (size_t)__builtin_ctz(m);
                memcpy(d, s + i, k);
                d += k;
                i += k;
                goto special;
            }
            _mm_storeu_si128((__m128i *)(void *)d, v);
            d += 16;
            i += 16;
        }
#endif
        while (n - i >= 8) {
            uint64_t v = load64(s + i);
            uint64_t m = (v & HIGHS) | swar_lt(v, 0x20) | swar_eq(v, '"') | swar_eq(v, '\\');
            if (m == 0) {
                memcpy(d, &v, 8);
                d += 8;
                i += 8;
                continue;
            }
            size_t k = swar_first(m);
            memcpy(d, s + i, k);
            d += k;
            i += k;
            break;
        }
        if (i >= n)
            break;
#if TAGC_STR_SSE2
    special:;
#endif
        uint8_t c = s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            *d++ = c;
            i++;
            continue;
        }
        if (c >= 0x80) {
            /* A run of non-ASCII text (CJK, emoji): sequence after sequence,
             * without going back to the plain-run loop between them. */
            do {
#if TAGC_STR_SSE2
                if (n - i >= 16) {
                    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
                    if (utf8_plain3x5(v)) {
                        /* the 16th byte is stored too, within the 16 bytes
                         * the plain-run loop may store at this point */
                        _mm_storeu_si128((__m128i *)(void *)d, v);
                        d += 15;
                        i += 15;
                        continue;
                    }
                }
#endif
#if TAGC_STR_LE
                if (n - i >= 4 && utf8_plain3(load32(s + i))) {
                    memcpy(d, s + i, 3);
                    d += 3;
                    i += 3;
                    continue;
                }
#endif
                size_t k = utf8_seq(s + i, n - i);
                if (k == 0) {
                    memcpy(d, "\xEF\xBF\xBD", 3); /* U+FFFD for each bad byte */
                    d += 3;
                    i++;
                    continue;
                }
                d[0] = s[i];
                d[1] = s[i + 1];
                if (k >= 3)
                    d[2] = s[i + 2];
                if (k == 4)
                    d[3] = s[i + 3];
                d += k;
                i += k;
            } while (i < n && s[i] >= 0x80);
            continue;
        }
        if (c != '\\') { /* a control character or an unescaped quote */
            *bad_at = i;
            return TAGC_E_SYNTAX;
        }
        d = unescape_esc(d, s, n, &i, bad_at);
        if (d == NULL)
            return TAGC_E_SYNTAX;
    }
    return (long)(d - (uint8_t *)dst);
}

#if TAGC_STR_AVX
/*
 * Unescaping by blocks of W bytes (16 with SSE2, 32 with AVX2): a block of
 * printable ASCII, or of valid UTF-8, is stored whole; the first byte that is
 * not (a backslash, a control, a quote, invalid UTF-8) ends the copy there and
 * goes through the byte code, and a new run starts after it. As in
 * escape_blocks, the blocks are checked as one text (each block sees the 3
 * bytes before it, zero before the body), a character may go on into the next
 * block (its check covers the rest), and at a UTF-8 error the copy goes back to
 * the lead of the character it belongs to (not before the run's start): the
 * byte code then decides that character as Go does (the whole sequence, or
 * U+FFFD for its first byte). The context of a run is the 3 bytes before it
 * when they are whole characters (escapes, ASCII, valid UTF-8: as good as the
 * start of the text), else zeros: a byte taken as U+FFFD must not count as a
 * lead (E0 80 80 is three U+FFFD, and the second 80 would pass as the third
 * byte of E0 80).
 * The last block is the rest of the input, zero above it: the zeros are
 * controls, so the first one ends the copy, and a character cut by the end is
 * missing its continuation bytes there.
 */
typedef struct unesc_flags {
    uint32_t stop;             /* '"', '\\', controls (and the zeros past the end) */
    uint32_t here, prev, cut;  /* as utf8_flags; all 0 for ASCII after a whole character */
} unesc_flags;

/* The block at q (r bytes left, before bytes of the body before q), stored at
 * d when store; ctx: the bytes before q are the UTF-8 check's context (else
 * zeros: the start of the body); cut: the flags' cut of the block before. */
typedef unesc_flags (*unesc_blk_fn)(uint8_t *d, const uint8_t *q, size_t r, size_t before, bool ctx,
                                    uint32_t cut, bool store);

/* n < 32 bytes from s to d, without a call. */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline long unescape_blocks(char *dst, const char *body, size_t n, size_t *bad_at, unesc_blk_fn blk,
                                   size_t W)
{
    const uint8_t *s = (const uint8_t *)body;
    uint8_t *d = (uint8_t *)dst, *d0 = d;
    const uint64_t none = (uint64_t)1 << W; /* no flag in the block */
    size_t i = 0, start = 0;
    uint32_t cut = 0;
    bool ctx = false; /* the bytes before i are the check's context */
    size_t clean = 0; /* no byte from here to i was taken as U+FFFD */
    for (;;) {
        /* Whole stores stay within the first n bytes of dst (the room when the
         * body is valid UTF-8, which any.c counts on) while the output is not
         * longer than the input. */
        bool store = (size_t)(d - d0) + W <= n;
        unesc_flags f = blk(d, s + i, n - i, i, ctx, cut, store);
        if (TAGC_LIKELY((f.stop | f.here | f.prev) == 0)) { /* a tail always has a stop */
            if (!store)
                memcpy(d, s + i, W);
            d += W;
            i += W;
            cut = f.cut;
            ctx = true;
            continue;
        }
        size_t st = (size_t)__builtin_ctzll(f.stop | none), eh = W, ep = W;
        if ((f.here | f.prev) != 0) {
            eh = (size_t)__builtin_ctzll(f.here | none);
            ep = (size_t)__builtin_ctzll(f.prev | none);
        }
        bool utf = eh <= st || ep <= st;
        size_t b = i + st; /* where the copy stops */
        if (utf) {
            b = i + eh;
            if (ep <= eh) {
                b = i + ep; /* back to the lead of the character before */
                while (b > start && (s[--b] & 0xC0) == 0x80) {
                }
            }
        }
        if (b >= i) {
            if (!store)
                copy_short(d, s + i, b - i);
            d += b - i;
        } else {
            d -= i - b; /* the character began in the block before */
        }
        i = b;
        if (i >= n)
            break;
        uint8_t c = s[i];
        if (c >= 0x80) {
            size_t k = utf8_seq(s + i, n - i);
            if (k == 0) {
                memcpy(d, "\xEF\xBF\xBD", 3); /* U+FFFD for the bad byte */
                d += 3;
                i++;
                clean = i;
            } else {
                memcpy(d, s + i, k);
                d += k;
                i += k;
            }
        } else if (c == '\\') {
            d = unescape_esc(d, s, n, &i, bad_at);
            if (d == NULL)
                return TAGC_E_SYNTAX;
        } else if (c < 0x20 || c == '"') {
            *bad_at = i;
            return TAGC_E_SYNTAX;
        } else { /* an ASCII byte before a UTF-8 error */
            *d++ = c;
            i++;
        }
        start = i;
        cut = 0;
        ctx = i >= 4 && i - clean >= 3;
    }
    return (long)(d - d0);
}

/* kl_utf8_err and kl_utf8_cut for 32 bytes, the tables in both lanes. */
__attribute__((target("avx2"))) static inline __m256i kl_utf8_err32(__m256i v, __m256i p1, __m256i p2, __m256i p3)
{
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i byte_1_high = _mm256_setr_epi8(KL_BYTE_1_HIGH, KL_BYTE_1_HIGH);
    const __m256i byte_1_low = _mm256_setr_epi8(KL_BYTE_1_LOW, KL_BYTE_1_LOW);
    const __m256i byte_2_high = _mm256_setr_epi8(KL_BYTE_2_HIGH, KL_BYTE_2_HIGH);
    __m256i pair = _mm256_and_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(byte_1_high, _mm256_and_si256(_mm256_srli_epi16(p1, 4), low4)),
                         _mm256_shuffle_epi8(byte_1_low, _mm256_and_si256(p1, low4))),
        _mm256_shuffle_epi8(byte_2_high, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4)));
    __m256i must23 = _mm256_or_si256(_mm256_subs_epu8(p2, _mm256_set1_epi8((char)(0xE0 - 0x80))),
                                     _mm256_subs_epu8(p3, _mm256_set1_epi8((char)(0xF0 - 0x80))));
    return _mm256_xor_si256(_mm256_and_si256(must23, _mm256_set1_epi8((char)0x80)), pair);
}

/* F0+ at 29, E0+ at 30, C0+ at 31 */
__attribute__((target("avx2"))) static inline uint32_t kl_utf8_cut32(__m256i v)
{
    __m256i cut = _mm256_subs_epu8(v, _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                       (char)0xEF, (char)0xDF, (char)0xBF));
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(cut, _mm256_setzero_si256()));
}

/* The flags of 32 bytes for reading (U+2028/U+2029 not flagged). */
__attribute__((target("avx2"))) static inline void kl_utf8_flags32(unesc_flags *f, __m256i v, __m256i p1,
                                                                    __m256i p2, __m256i p3)
{
    __m256i err = kl_utf8_err32(v, p1, p2, p3);
    f->prev = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(err, _mm256_setzero_si256()));
    f->cut = kl_utf8_cut32(v);
}

/* v's bytes k places back (1 <= k <= 3), the top of w (the 32 bytes before) in the gap. */
#define AVX_BACK(v, w, k) _mm256_alignr_epi8((v), _mm256_permute2x128_si256((w), (v), 0x21), 16 - (k))

__attribute__((target("avx2"))) static inline unesc_flags unesc_blk32(uint8_t *d, const uint8_t *q, size_t r,
                                                                       size_t before, bool ctx, uint32_t cut,
                                                                       bool store)
{
    bool whole = r >= 32;
    __m256i v;
    if (whole) {
        v = _mm256_loadu_si256((const __m256i *)(const void *)q);
    } else if (r >= 16) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)q);
        v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), sse_load_tail(q + 16, r - 16, before + 16), 1);
    } else {
        v = _mm256_zextsi128_si256(sse_load_tail(q, r, before));
    }
    if (store)
        _mm256_storeu_si256((__m256i *)(void *)d, v);
    __m256i stops = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v); /* v <= 0x1F */
    stops = _mm256_or_si256(stops, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
    stops = _mm256_or_si256(stops, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
    unesc_flags f = {(uint32_t)_mm256_movemask_epi8(stops), 0, 0, 0};
    if (((uint32_t)_mm256_movemask_epi8(v) | cut) != 0) {
        __m256i p1, p2, p3;
        if (ctx && whole) {
            p1 = _mm256_loadu_si256((const __m256i *)(const void *)(q - 1));
            p2 = _mm256_loadu_si256((const __m256i *)(const void *)(q - 2));
            p3 = _mm256_loadu_si256((const __m256i *)(const void *)(q - 3));
        } else {
            __m256i w = _mm256_setzero_si256();
            if (ctx)
                w = _mm256_inserti128_si256(w, _mm_slli_si128(_mm_cvtsi32_si128((int)load32(q - 4)), 12), 1);
            p1 = AVX_BACK(v, w, 1);
            p2 = AVX_BACK(v, w, 2);
            p3 = AVX_BACK(v, w, 3);
        }
        kl_utf8_flags32(&f, v, p1, p2, p3);
    }
    return f;
}
#undef AVX_BACK

__attribute__((target("avx2"))) static long unescape_avx2(char *dst, const char *body, size_t n, size_t *bad_at)
{
    return unescape_blocks(dst, body, n, bad_at, unesc_blk32, 32);
}
#endif

long tagc_json_unescape(char *dst, const char *body, size_t body_len, size_t *bad_at)
{
#if TAGC_STR_AVX
    /* shorter bodies gain nothing from the 32-byte blocks */
    if (body_len >= 32 && tagc_cpu() >= TAGC_CPU_AVX2)
        return unescape_avx2(dst, body, body_len, bad_at);
#endif
    return unescape_words(dst, body, body_len, bad_at);
}

/* MARK: - UTF-8 validation by blocks */

#if TAGC_STR_AVX && !defined(__OPTIMIZE_SIZE__)
/*
 * tagc_utf8_valid with kl_utf8_err, W = 16 (AVX) or 32 (AVX2) bytes a step,
 * each block checked with the 3 bytes before it (zero before the text). A block
 * of ASCII is skipped (2 W bytes a step) unless the one before ends inside a
 * character (cut). The last block is the last W bytes, overlapping the one
 * before (checking a byte again with the same context gives the same answer),
 * and must not end inside a character. The text has at least W + 3 bytes (the
 * last block's context; shorter ones go to the narrower path).
 */
__attribute__((target("avx"))) static bool utf8_valid_avx(const uint8_t *p, size_t n)
{
    unsigned cut = 0;
    for (size_t i = 0;; i += 16) {
        if (cut == 0)
            while (n - i >= 32 && _mm_movemask_epi8(_mm_or_si128(
                                      _mm_loadu_si128((const __m128i *)(const void *)(p + i)),
                                      _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16)))) == 0)
                i += 32;
        if (i == n)
            return cut == 0;
        bool last = n - i <= 16;
        if (last)
            i = n - 16;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        if (((unsigned)_mm_movemask_epi8(v) | cut) != 0) {
            __m128i p1, p2, p3;
            if (i == 0) {
                p1 = _mm_slli_si128(v, 1);
                p2 = _mm_slli_si128(v, 2);
                p3 = _mm_slli_si128(v, 3);
            } else {
                p1 = _mm_loadu_si128((const __m128i *)(const void *)(p + i - 1));
                p2 = _mm_loadu_si128((const __m128i *)(const void *)(p + i - 2));
                p3 = _mm_loadu_si128((const __m128i *)(const void *)(p + i - 3));
            }
            __m128i err = kl_utf8_err(v, p1, p2, p3);
            if (!_mm_testz_si128(err, err))
                return false;
            cut = kl_utf8_cut(v);
        }
        if (last)
            return cut == 0;
    }
}

__attribute__((target("avx2"))) static bool utf8_valid_avx2(const uint8_t *p, size_t n)
{
    if (n < 32 + 3)
        return utf8_valid_avx(p, n);
    uint32_t cut = 0;
    for (size_t i = 0;; i += 32) {
        if (cut == 0)
            while (n - i >= 64 && _mm256_movemask_epi8(_mm256_or_si256(
                                      _mm256_loadu_si256((const __m256i *)(const void *)(p + i)),
                                      _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32)))) == 0)
                i += 64;
        if (i == n)
            return cut == 0;
        bool last = n - i <= 32;
        if (last)
            i = n - 32;
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        if (((uint32_t)_mm256_movemask_epi8(v) | cut) != 0) {
            __m256i p1, p2, p3;
            if (i == 0) { /* v's bytes k places back, zero before the text */
                __m256i back = _mm256_permute2x128_si256(v, v, 0x08); /* zero, then v's low half */
                p1 = _mm256_alignr_epi8(v, back, 15);
                p2 = _mm256_alignr_epi8(v, back, 14);
                p3 = _mm256_alignr_epi8(v, back, 13);
            } else {
                p1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + i - 1));
                p2 = _mm256_loadu_si256((const __m256i *)(const void *)(p + i - 2));
                p3 = _mm256_loadu_si256((const __m256i *)(const void *)(p + i - 3));
            }
            __m256i err = kl_utf8_err32(v, p1, p2, p3);
            if (!_mm256_testz_si256(err, err))
                return false;
            cut = kl_utf8_cut32(v);
        }
        if (last)
            return cut == 0;
    }
}
#endif

bool tagc_utf8_valid(const char *s, size_t n)
{
    const uint8_t *p = (const uint8_t *)s;
#if TAGC_STR_AVX && !defined(__OPTIMIZE_SIZE__)
    if (n >= 16 + 3) {
        int level = tagc_cpu();
        if (level >= TAGC_CPU_AVX2)
            return utf8_valid_avx2(p, n);
        if (level >= TAGC_CPU_AVX)
            return utf8_valid_avx(p, n);
    }
#endif
    return utf8_valid_seqs(p, n);
}
