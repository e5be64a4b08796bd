/*
 * num_plain.h - the common float in line: the Eisel-Lemire step and, on
 * little-endian GNU C (swar.h's TAGC_SWAR, so not in -Os builds), the plain
 * float read and converted without a stack frame. Private to the runtime:
 * num_read.c (every float) and json_read.c (tagc_json_read_f64, the canada case).
 */
#ifndef TAGC_NUM_PLAIN_H
#define TAGC_NUM_PLAIN_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "num_tables.h"
#include "swar.h"
#include "tagc.h"

/* Clinger's fast path: one IEEE operation on exact operands is correctly
 * rounded only without extended precision (x87: FLT_EVAL_METHOD 2 would round twice). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define TAGC_EXACT_FAST_PATH 1
#else
#define TAGC_EXACT_FAST_PATH 0
#endif

static const double tagc_pow10_f64[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
/* MARK: - Eisel-Lemire */

static inline void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    unsigned __int128 r = (unsigned __int128)a * b;
    *hi = (uint64_t)(r >> 64);
    *lo = (uint64_t)r;
#else
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
#endif
}

static inline unsigned clz64(uint64_t x) /* x != 0 */
{
#if defined(__GNUC__)
    return (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    while (!(x & (1ULL << 63))) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* On success writes the IEEE bits to *bits. mantbits 52 or 23. man != 0. */
static inline bool eisel_lemire(uint64_t man, int64_t exp10, bool neg, bool f32, uint64_t *bits)
{
    if (exp10 < TAGC_EL_MIN || exp10 > TAGC_EL_MAX)
        return false;
    const uint64_t *pow = tagc_el_pow10[exp10 - TAGC_EL_MIN];
    const uint64_t mask = f32 ? 0x3FFFFFFFFFULL : 0x1FFULL;
    const unsigned shift = f32 ? 38 : 9;
    const unsigned mantbits = f32 ? 23 : 52;
    const uint64_t bias = f32 ? 127 : 1023;
    const uint64_t expmax = f32 ? 0xFF : 0x7FF;

    unsigned clz = clz64(man);
    man <<= clz;
    uint64_t ret_exp2 = (uint64_t)((((int64_t)217706 * exp10) >> 16) + 64 + (int64_t)bias) - clz;

    uint64_t xhi, xlo;
    mul64(man, pow[1], &xhi, &xlo);
    if ((xhi & mask) == mask && xlo + man < man) {
        uint64_t yhi, ylo;
        mul64(man, pow[0], &yhi, &ylo);
        uint64_t mhi = xhi, mlo = xlo + yhi;
        if (mlo < xlo)
            mhi++;
        if ((mhi & mask) == mask && mlo + 1 == 0 && ylo + man < man)
            return false;
        xhi = mhi;
        xlo = mlo;
    }
    uint64_t msb = xhi >> 63;
    uint64_t ret_man = xhi >> (msb + shift);
    ret_exp2 -= 1 ^ msb;
    if (xlo == 0 && (xhi & mask) == 0 && (ret_man & 3) == 1)
        return false; /* halfway ambiguity */
    ret_man += ret_man & 1;
    ret_man >>= 1;
    if (ret_man >> (mantbits + 1) > 0) {
        ret_man >>= 1;
        ret_exp2 += 1;
    }
    if (ret_exp2 - 1 >= expmax - 1)
        return false; /* subnormal, zero or infinity: the slow path decides */
    uint64_t b = ret_exp2 << mantbits | (ret_man & ((1ULL << mantbits) - 1));
    if (neg)
        b |= 1ULL << (f32 ? 31 : 63);
    *bits = b;
    return true;
}

/* MARK: - The plain float */

#if TAGC_SWAR
static const uint64_t tagc_plain_pow10[16] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                              1000000000, 10000000000, 100000000000, 1000000000000,
                                              10000000000000, 100000000000000, 1000000000000000};
#endif

#if TAGC_SWAR && defined(__SSE2__) && defined(__x86_64__) && !defined(TAGC_NO_SIMD) /* -DTAGC_NO_SIMD: the word path */
#include <emmintrin.h>
#define TAGC_PLAIN_SSE2 1

/* 32 bytes 0xFF then 32 zeros: 16 bytes loaded at 32 - n keep the first n. */
static const unsigned char tagc_plain_keep[64] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};

/* By npos (2..20, the positions a number uses): the weights of its t =
 * max(npos - 16, 0) fraction digits at bytes 16..19 as 16-bit words, 10^t,
 * and 15 + t. */
static const struct {
    int16_t mul[8];
    uint64_t pow, nf;
} tagc_plain_tail[21] __attribute__((aligned(16))) = {
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{0}, 1, 15},
    {{1}, 10, 16},
    {{10, 1}, 100, 17},
    {{100, 10, 1}, 1000, 18},
    {{1000, 100, 10, 1}, 10000, 19},
};

/*
 * The common float 32 bytes at a time (canada.json's are -65.613616999999977):
 * optional '-', 1 to 7 integer digits without a leading zero, optionally '.'
 * and at least one fraction digit, 19 digits at most (18 after a '-': the
 * number is 20 bytes at most), no exponent; the 32 bytes from p are inside the
 * input (the caller's test: plain_f64 makes it). Sets *man
 * and *nf (exact: value = man * 10^-*nf; *nf may count trailing zeros the
 * input does not have) and *neg, and returns the byte after the number; NULL
 * for everything else, which num_read.c's scan_float then reads. One SSE2
 * compare of the 32 bytes gives the integer digits' length and the number's
 * end (the first and second non-digit after the '-'); the digits are converted
 * together, the bytes before the '.' moved one byte right over it so that the
 * 20 positions read 0, the '-' as 0, the integer digits, the fraction: bytes
 * 0..15 eight at a time, 16..19 by weights from a table. next_tested: the
 * caller tests that the byte after the number is ',' or ']' (the in-line float
 * run), so the exponent test (an 'e' there) goes.
 */
static inline const char *plain_digits_sse2(const char *p, uint64_t *man_out, size_t *nf_out, uint64_t *neg_out,
                                            bool next_tested)
{
    uint64_t neg = *p == '-';
    /* the loads and the compare depend on p only, not on the sign: byte +
     * 0x50 is a digit's value + 0x80, < -118 as signed for a digit only */
    const __m128i bias = _mm_set1_epi8(0x50), lim = _mm_set1_epi8(-118), sign = _mm_set1_epi8(-128);
    __m128i x1 = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), bias);
    __m128i x2 = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)), bias);
    __m128i d1 = _mm_cmpgt_epi8(lim, x1);
    uint64_t m1 = (unsigned)_mm_movemask_epi8(d1) | neg; /* the digits and the '-' */
    uint64_t m2 = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(lim, x2));
    x1 = _mm_xor_si128(x1, sign); /* the digits' values */
    x2 = _mm_xor_si128(x2, sign);
    uint64_t nd = ~(m1 | m2 << 16); /* bits 32.. set */
    size_t f1 = (size_t)(unsigned)__builtin_ctzll(nd);             /* after the integer digits */
    size_t len = (size_t)(unsigned)__builtin_ctzll(nd & (nd - 1)); /* the second non-digit */
    size_t ni = f1 - neg;
    if (ni - 1 >= 7 || (p[neg] == '0' && ni > 1))
        return NULL; /* no digit, 8 or more, or a leading zero */
    size_t npos; /* positions used: the 0, the '-' as 0, the integer digits, the fraction */
    if (TAGC_LIKELY(p[f1] == '.')) {
        if (len == f1 + 1 || len > 20)
            return NULL; /* no fraction digit ("1." "1.e5"), or 20 digits or more (19 after '-') */
        npos = len;
    } else {
        len = f1;
        npos = f1 + 1;
    }
    if (!next_tested && (p[len] | 0x20) == 'e')
        return NULL;
    /* the non-digits (the '-', the '.', the end) as 0; positions 0..f1 take
     * bytes -1..f1-1 (the '.' is overwritten), then the fraction up to
     * position 15; everything from npos on is cleared */
    x1 = _mm_and_si128(x1, d1);
    __m128i sh = _mm_loadu_si128((const __m128i *)(const void *)(tagc_plain_keep + 31 - f1));
    __m128i b = _mm_xor_si128(x1, _mm_and_si128(_mm_xor_si128(x1, _mm_slli_si128(x1, 1)), sh));
    b = _mm_and_si128(b, _mm_loadu_si128((const __m128i *)(const void *)(tagc_plain_keep + 32 - npos)));
    /* pairs (d0 * 10 + d1 is the high byte of (d0 + 256 d1) * 0x0A01), fours;
     * the empty asm keeps gcc from turning the multiply into shifts and adds */
    __m128i m10 = _mm_set1_epi16(0x0A01);
    __asm__("" : "+x"(m10));
    b = _mm_madd_epi16(_mm_srli_epi16(_mm_mullo_epi16(b, m10), 8), _mm_set1_epi32(0x00010064));
    /* the t = npos - 16 (0 to 4) fraction digits at bytes 16.. as words, times
     * 10^(t-1) .. 1 and zeros past them: two sums of two */
    __m128i tw = _mm_unpacklo_epi8(x2, _mm_setzero_si128());
    tw = _mm_madd_epi16(tw, _mm_load_si128((const __m128i *)(const void *)tagc_plain_tail[npos].mul));
    /* eights of positions 0..15, and the tail's two sums added */
    b = _mm_madd_epi16(_mm_packs_epi32(b, tw), _mm_setr_epi16(10000, 1, 10000, 1, 1, 1, 0, 0));
    uint64_t ab = (uint64_t)_mm_cvtsi128_si64(b);
    uint64_t tail = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(b, 8));
    uint64_t v = (ab & 0xFFFFFFFFu) * 100000000u + (ab >> 32); /* positions 0..15, < 10^15 */
    v = v * tagc_plain_tail[npos].pow + tail;
    size_t nf = tagc_plain_tail[npos].nf - f1;
    *man_out = v;
    *nf_out = nf;
    *neg_out = neg;
    return p + len;
}

static inline const char *plain_float_digits(const char *p, uint64_t *man_out, unsigned *nf_out, bool *neg_out,
                                             bool next_tested)
{
    size_t nf;
    uint64_t neg;
    const char *q = plain_digits_sse2(p, man_out, &nf, &neg, next_tested);
    *nf_out = (unsigned)nf;
    *neg_out = neg != 0;
    return q;
}
#elif TAGC_SWAR
#define TAGC_PLAIN_SSE2 0

/*
 * The common float a word at a time (canada.json's are -65.613616999999977):
 * optional '-', 1 to 7 integer digits without a leading zero, optionally '.'
 * and 1 to 15 fraction digits, 19 digits at most, no exponent; the 32 bytes
 * from p are inside the input (the caller's test). Sets *man (exact: nothing
 * dropped; value = man * 10^-*nf) and *neg, and returns the byte after the
 * number; NULL for everything else, which num_read.c's scan_float then reads.
 * next_tested: as plain_digits_sse2's. The fraction is read from two words at
 * once, measured and converted without a loop.
 */
static inline const char *plain_float_digits(const char *p, uint64_t *man_out, unsigned *nf_out, bool *neg_out,
                                             bool next_tested)
{
    bool neg = *p == '-';
    const char *ds = p + neg, *q = ds;
    uint64_t man = 0;
    /* the few integer digits by a byte loop: its exit is predicted, where a
     * length taken from a word would delay everything after it */
    for (unsigned c; q < ds + 8 && (c = (unsigned)(unsigned char)*q - '0') < 10; q++)
        man = man * 10 + c;
    unsigned ni = (unsigned)(q - ds);
    if (ni - 1 >= 7 || (ni > 1 && *ds == '0'))
        return NULL; /* no digit, 8 or more, or a leading zero */
    unsigned nf = 0;
    if (*q == '.') {
        uint64_t w1 = load8(q + 1), w2 = load8(q + 9);
        unsigned k1 = tagc_digit_run(w1), k2 = tagc_digit_run(w2);
        uint64_t frac;
        if (k1 < 8) {
            if (k1 == 0)
                return NULL;
            nf = k1;
            frac = tagc_digits_value(w1, k1);
        } else {
            if (k2 == 8)
                return NULL;
            nf = 8 + k2;
            frac = tagc_digits_value(w1, 8) * tagc_plain_pow10[k2] + (k2 != 0 ? tagc_digits_value(w2, k2) : 0);
        }
        if (ni + nf > 19)
            return NULL;
        man = man * tagc_plain_pow10[nf] + frac;
        q += 1 + nf;
    }
    if (!next_tested && (*q == 'e' || *q == 'E'))
        return NULL;
    *man_out = man;
    *nf_out = nf;
    *neg_out = neg;
    return q;
}

#endif

#if TAGC_SWAR
/* For nf = 0..19: the high 64 bits of 10^-nf (tagc_el_pow10's rows; the
 * tests compare) and ((217706 * -nf) >> 16) + 1023 + 64 - 2, Eisel-Lemire's
 * binary exponent for 10^-nf less the 1 taken when the product's top bit is
 * clear and the 1 of the mantissa's implicit bit, which the addition below
 * puts back. */
static const struct {
    uint64_t hi, exp2;
} tagc_plain_pow[20] = {
    {UINT64_C(0x8000000000000000), 1085},
    {UINT64_C(0xCCCCCCCCCCCCCCCC), 1081},
    {UINT64_C(0xA3D70A3D70A3D70A), 1078},
    {UINT64_C(0x83126E978D4FDF3B), 1075},
    {UINT64_C(0xD1B71758E219652B), 1071},
    {UINT64_C(0xA7C5AC471B478423), 1068},
    {UINT64_C(0x8637BD05AF6C69B5), 1065},
    {UINT64_C(0xD6BF94D5E57A42BC), 1061},
    {UINT64_C(0xABCC77118461CEFC), 1058},
    {UINT64_C(0x89705F4136B4A597), 1055},
    {UINT64_C(0xDBE6FECEBDEDD5BE), 1051},
    {UINT64_C(0xAFEBFF0BCB24AAFE), 1048},
    {UINT64_C(0x8CBCCC096F5088CB), 1045},
    {UINT64_C(0xE12E13424BB40E13), 1041},
    {UINT64_C(0xB424DC35095CD80F), 1038},
    {UINT64_C(0x901D7CF73AB0ACD9), 1035},
    {UINT64_C(0xE69594BEC44DE15B), 1031},
    {UINT64_C(0xB877AA3236A4B449), 1028},
    {UINT64_C(0x9392EE8E921D5D07), 1025},
    {UINT64_C(0xEC1E4A7DB69561A5), 1021},
};

/*
 * eisel_lemire for the plain float's magnitude: man != 0, man < 10^19,
 * exponent -nf with nf <= 19, so the result is a normal double and the range
 * checks go; the exponent from a table, the mantissa's carry into the
 * exponent by addition. Gives up (false) where the first product does not
 * decide (about 1 in 512: eisel_lemire would take the second product there)
 * and where eisel_lemire gives up; otherwise bit-identical to it.
 */
static inline bool el_plain(uint64_t man, size_t nf, uint64_t *bits)
{
    unsigned clz = clz64(man);
    uint64_t e = tagc_plain_pow[nf].exp2 - clz;
    man <<= clz;
    uint64_t xhi, xlo;
    mul64(man, tagc_plain_pow[nf].hi, &xhi, &xlo);
    uint64_t low = xhi & 0x1FF;
    if (TAGC_UNLIKELY(low == 0x1FF && xlo + man < man))
        return false;
    uint64_t msb = xhi >> 63;
    e += msb;
    uint64_t ret_man = xhi >> (msb + 9); /* 54 bits */
    if (TAGC_UNLIKELY((xlo | low) == 0 && (ret_man & 3) == 1))
        return false; /* halfway ambiguity */
    ret_man = (ret_man + 1) >> 1; /* 2^52 <= ret_man <= 2^53: the carry moves into the exponent */
    *bits = (e << 52) + ret_man;
    return true;
}

/*
 * The double of the plain float at p, or NULL when it is not one or its
 * rounding needs more than one Eisel-Lemire product (the general path then
 * decides). No out-of-line call, so no stack frame.
 */
static inline const char *plain_f64_at(const char *p, double *out, bool next_tested)
{
    uint64_t man;
#if TAGC_PLAIN_SSE2
    size_t nf;
    uint64_t neg;
    const char *q = plain_digits_sse2(p, &man, &nf, &neg, next_tested);
#else
    unsigned nf;
    bool neg;
    const char *q = plain_float_digits(p, &man, &nf, &neg, next_tested);
#endif
    if (q == NULL)
        return NULL;
    /* exact operands (man < 2^53, 10^nf for nf <= 22): one correctly rounded
     * division; zero is exact under x87 too. The sign is or-ed into the bits. */
    uint64_t bits;
    if (man >> 53 == 0 && (TAGC_EXACT_FAST_PATH || man == 0)) {
        double f = (double)man / tagc_pow10_f64[nf];
        memcpy(&bits, &f, sizeof bits);
    } else if (!el_plain(man, nf, &bits)) {
        return NULL;
    }
    bits |= (uint64_t)neg << 63;
    memcpy(out, &bits, sizeof bits);
    return q;
}

/* plain_f64_at where the 32 bytes from p are not known to be in the input */
static inline const char *plain_f64(const char *p, const char *end, double *out)
{
    return end - p >= 32 ? plain_f64_at(p, out, false) : NULL;
}
#endif

#endif /* TAGC_NUM_PLAIN_H */
