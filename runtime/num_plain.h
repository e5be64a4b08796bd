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

/*
 * The common float a word at a time (canada.json's are -65.613616999999977):
 * optional '-', 1 to 7 integer digits without a leading zero, optionally '.'
 * and 1 to 15 fraction digits, 19 digits at most, no exponent, 32 bytes of
 * input left. Sets *man (exact: nothing dropped; value = man * 10^-*nf) and
 * *neg, and returns the byte after the number; NULL for everything else, which
 * num_read.c's scan_float then reads. The fraction is read from two words at
 * once, measured and converted without a loop.
 */
static inline const char *plain_float_digits(const char *p, const char *end, uint64_t *man_out, unsigned *nf_out,
                                             bool *neg_out)
{
    if (end - p < 32)
        return NULL;
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
    if (*q == 'e' || *q == 'E')
        return NULL;
    *man_out = man;
    *nf_out = nf;
    *neg_out = neg;
    return q;
}

/*
 * The double of the plain float at p, or NULL when it is not one or its
 * rounding needs more than one Eisel-Lemire product (the general path then
 * decides). No out-of-line call, so no stack frame.
 */
static inline const char *plain_f64(const char *p, const char *end, double *out)
{
    uint64_t man;
    unsigned nf;
    bool neg;
    const char *q = plain_float_digits(p, end, &man, &nf, &neg);
    if (q == NULL)
        return NULL;
    /* exact operands (man < 2^53, 10^nf for nf <= 15): one correctly rounded
     * division; zero is exact under x87 too */
    if (man >> 53 == 0 && (TAGC_EXACT_FAST_PATH || man == 0)) {
        double f = (double)man / tagc_pow10_f64[nf];
        *out = neg ? -f : f;
        return q;
    }
    uint64_t bits;
    if (!eisel_lemire(man, -(int64_t)nf, neg, false, &bits))
        return NULL;
    memcpy(out, &bits, sizeof bits);
    return q;
}
#endif

#endif /* TAGC_NUM_PLAIN_H */
