/*
 * num_read.c - the JSON number grammar, exact integers, correctly rounded floats.
 *
 * Floats follow Go's strconv.ParseFloat (atof.go) step by step, so the result is
 * Go's, which is the correctly rounded one (round half to even):
 *   1. Clinger's fast path: mantissa exact in the float and |exp10| small, one
 *      IEEE multiplication or division (needs FLT_EVAL_METHOD == 0);
 *   2. Eisel-Lemire with the 128-bit table tagc_el_pow10 (num_tables.h, made by
 *      tools/gen_num_tables.py); it gives up on the rare ambiguous cases;
 *   3. Go's "decimal" algorithm: the digits (at most 800 kept, plus a sticky bit
 *      for the rest) shifted by powers of two until the binary exponent is
 *      known, then rounded. Unlike Go 1.19 the position of the decimal point is
 *      counted past the 800th digit too (Go misplaces it for inputs with more
 *      than 800 integer digits that reach this path).
 * The plain float of a document (canada's -65.613616999999977) takes steps 1 and
 * 2 in line, from num_plain.h, in tagc_json_read_f64 and tagc_json_scan_f64.
 * float32 is rounded directly from the decimal text, never through a double.
 * No libc conversions: results do not depend on the locale.
 */
#include "tagc.h"

#include <float.h>
#include <string.h>

#include "num_plain.h"
#include "num_tables.h"
#include "swar.h"

/* MARK: - Grammar */

size_t tagc_json_number_len(const char *p, const char *end)
{
    const char *q = p;
    if (q < end && *q == '-')
        q++;
    if (q >= end)
        return 0;
    if (*q == '0') {
        q++;
    } else if (IS_DIGIT(*q)) {
        q++;
        while (q < end && IS_DIGIT(*q))
            q++;
    } else {
        return 0;
    }
    if (q < end && *q == '.') {
        q++;
        if (q >= end || !IS_DIGIT(*q))
            return 0;
        q++;
        while (q < end && IS_DIGIT(*q))
            q++;
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if (q >= end || !IS_DIGIT(*q))
            return 0;
        q++;
        while (q < end && IS_DIGIT(*q))
            q++;
    }
    return (size_t)(q - p);
}

/* MARK: - Integers */

/*
 * Checks the integer part of p[0..n): sets *neg, and *ds and *de around its digits. Returns 0
 * when that is the whole text, TAGC_E_TYPE when a valid fraction or exponent
 * follows, TAGC_E_SYNTAX otherwise.
 */
static int scan_int(const char *p, size_t n, bool *neg, const char **ds, const char **de)
{
    const char *q = p, *end = p + n;
    *neg = false;
    if (q < end && *q == '-') {
        *neg = true;
        q++;
    }
    if (q >= end)
        return TAGC_E_SYNTAX;
    *ds = q;
    if (*q == '0') {
        q++;
    } else if (IS_DIGIT(*q)) {
        q++;
        while (q < end && IS_DIGIT(*q))
            q++;
    } else {
        return TAGC_E_SYNTAX;
    }
    *de = q;
    if (q == end)
        return 0;
    return tagc_json_number_len(p, end) == n ? TAGC_E_TYPE : TAGC_E_SYNTAX;
}

/* Value of the digits [ds, de) when it is at most max, else TAGC_E_RANGE. */
static inline int digits_u64(const char *ds, const char *de, uint64_t max, uint64_t *out)
{
    size_t nd = (size_t)(de - ds);
    if (nd > 20)
        return TAGC_E_RANGE;
    uint64_t v = 0;
    size_t i = 0, fast = nd < 19 ? nd : 19;
#if TAGC_SWAR
    for (; i + 8 <= fast; i += 8)
        v = v * 100000000 + parse_8digits(load8(ds + i));
#endif
    for (; i < fast; i++)
        v = v * 10 + (uint64_t)(ds[i] - '0');
    if (i < nd) {
        uint64_t d = (uint64_t)(ds[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return TAGC_E_RANGE;
        v = v * 10 + d;
    }
    if (v > max)
        return TAGC_E_RANGE;
    *out = v;
    return 0;
}

int tagc_parse_u64(const char *p, size_t n, uint64_t *out)
{
    bool neg;
    const char *ds, *de;
    int rc = scan_int(p, n, &neg, &ds, &de);
    if (rc != 0)
        return rc;
    if (neg) /* Go's ParseUint rejects any sign, "-0" too */
        return TAGC_E_RANGE;
    return digits_u64(ds, de, UINT64_MAX, out);
}

int tagc_parse_i64(const char *p, size_t n, int64_t *out)
{
    bool neg;
    const char *ds, *de;
    int rc = scan_int(p, n, &neg, &ds, &de);
    if (rc != 0)
        return rc;
    uint64_t mag;
    rc = digits_u64(ds, de, neg ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1, &mag);
    if (rc != 0)
        return rc;
    /* -(2^63) wraps to INT64_MIN without signed overflow */
    *out = neg ? (int64_t)(0u - mag) : (int64_t)mag;
    return 0;
}

/* MARK: - Float scanning */

/* Go's readFloat for the JSON grammar: the first 19 significant digits in man,
 * value = man * 10^exp (exactly unless trunc: nonzero digits were dropped). */
typedef struct num_scan {
    uint64_t man;
    int64_t exp;
    bool neg;
    bool trunc;
} num_scan;

#define MAX_EXP_DIGITS_VALUE 10000 /* as Go: bigger exponents only need to be "big" */

/* Scans the longest JSON number at p (before end) into *s, as tagc_json_number_len
 * measures it: returns the byte after it, or NULL when the grammar breaks (where
 * tagc_json_number_len returns 0). One pass: grammar and digits together. */
static const char *scan_float(const char *p, const char *end, num_scan *s)
{
    const char *q = p;
    uint64_t man = 0;
    int64_t nd = 0;     /* significant digits seen */
    int ndman = 0;      /* digits in man */
    int64_t dp = 0;     /* decimal point, relative to the first significant digit */
    bool trunc = false;

    s->neg = false;
    if (q < end && *q == '-') {
        s->neg = true;
        q++;
    }
    if (q >= end)
        return NULL;
    if (*q == '0') {
        q++;
    } else if (IS_DIGIT(*q)) {
        /* no leading zeros here: every digit is significant. A plain byte
         * loop: measured faster here than 8-digit SWAR on the 17-19 character
         * numbers of canada.json (docs/performance.md) */
        const char *ds = q;
        const char *stop = (size_t)(end - q) > 19 ? q + 19 : end;
        for (unsigned c; q < stop && (c = (unsigned)(unsigned char)*q - '0') < 10; q++)
            man = man * 10 + c;
        ndman = (int)(q - ds);
        while (q < end && IS_DIGIT(*q)) {
            if (*q != '0')
                trunc = true;
            q++;
        }
        nd = (int64_t)(q - ds);
    } else {
        return NULL;
    }
    dp = nd;
    if (q < end && *q == '.') {
        q++;
        if (q >= end || !IS_DIGIT(*q))
            return NULL;
        if (nd == 0) {
            /* 0.000ddd: leading zeros move the point */
            const char *zs = q;
            while (q < end && *q == '0')
                q++;
            dp = -(int64_t)(q - zs);
        }
        const char *ds = q;
        const char *ms = q, *stop = (size_t)(end - q) > (size_t)(19 - ndman) ? q + (19 - ndman) : end;
#if TAGC_INLINE_INT
        /* fraction digits a word at a time (canada's have 15 to 17): the
         * digits of each word up to the first other byte in one step */
        while (stop - q >= 8) {
            static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
            uint64_t w = load8(q);
            unsigned k = tagc_digit_run(w);
            if (k == 0)
                break;
            man = man * pow10[k] + tagc_digits_value(w, k);
            q += k;
            if (k < 8)
                break;
        }
#endif
        for (unsigned c; q < stop && (c = (unsigned)(unsigned char)*q - '0') < 10; q++)
            man = man * 10 + c;
        ndman += (int)(q - ms);
        while (q < end && IS_DIGIT(*q)) {
            if (*q != '0')
                trunc = true;
            q++;
        }
        nd += (int64_t)(q - ds);
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        bool eneg = false;
        if (q < end && (*q == '+' || *q == '-')) {
            eneg = *q == '-';
            q++;
        }
        if (q >= end || !IS_DIGIT(*q))
            return NULL;
        int64_t e = 0;
        while (q < end && IS_DIGIT(*q)) {
            if (e < MAX_EXP_DIGITS_VALUE)
                e = e * 10 + (*q - '0');
            q++;
        }
        dp += eneg ? -e : e;
    }
    s->man = man;
    s->exp = man != 0 ? dp - ndman : 0;
    s->trunc = trunc;
    return q;
}

/* MARK: - Clinger's fast path */

static const float tagc_pow10_f32[11] = {
    1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

static inline bool atof64_exact(uint64_t man, int64_t exp, bool neg, double *out)
{
    if (!TAGC_EXACT_FAST_PATH || man >> 52 != 0)
        return false;
    double f = (double)man;
    if (neg)
        f = -f;
    if (exp == 0) {
        *out = f;
        return true;
    }
    if (exp > 0 && exp <= 15 + 22) {
        if (exp > 22) {
            f *= tagc_pow10_f64[exp - 22];
            exp = 22;
        }
        if (f > 1e15 || f < -1e15)
            return false;
        *out = f * tagc_pow10_f64[exp];
        return true;
    }
    if (exp < 0 && exp >= -22) {
        *out = f / tagc_pow10_f64[-exp];
        return true;
    }
    return false;
}

static inline bool atof32_exact(uint64_t man, int64_t exp, bool neg, float *out)
{
    if (!TAGC_EXACT_FAST_PATH || man >> 23 != 0)
        return false;
    float f = (float)man;
    if (neg)
        f = -f;
    if (exp == 0) {
        *out = f;
        return true;
    }
    if (exp > 0 && exp <= 7 + 10) {
        if (exp > 10) {
            f *= tagc_pow10_f32[exp - 10];
            exp = 10;
        }
        if (f > 1e7f || f < -1e7f)
            return false;
        *out = f * tagc_pow10_f32[exp];
        return true;
    }
    if (exp < 0 && exp >= -10) {
        *out = f / tagc_pow10_f32[-exp];
        return true;
    }
    return false;
}

/* MARK: - Go's decimal (slow path) */

#define DEC_DIGITS 800
#define DEC_MAX_SHIFT 60

typedef struct decimal {
    uint8_t d[DEC_DIGITS]; /* digit values 0-9, big-endian */
    int nd;                /* digits used */
    int dp;                /* decimal point: value = 0.d[0..nd) * 10^dp */
    bool trunc;            /* nonzero digits dropped beyond d[nd) */
} decimal;

static void dec_trim(decimal *a)
{
    while (a->nd > 0 && a->d[a->nd - 1] == 0)
        a->nd--;
    if (a->nd == 0)
        a->dp = 0;
}

/* From text already checked by scan_float. */
static void dec_set(decimal *b, const char *p, size_t n)
{
    const char *q = p, *end = p + n;
    int64_t dp = 0, seen = 0; /* seen: significant digits, all of them */
    bool sawdot = false;
    b->nd = 0;
    b->trunc = false;
    if (q < end && *q == '-')
        q++;
    for (; q < end; q++) {
        char c = *q;
        if (c == '.') {
            sawdot = true;
            dp = seen;
            continue;
        }
        if (!IS_DIGIT(c))
            break;
        if (c == '0' && seen == 0) {
            dp--;
            continue;
        }
        seen++;
        if (b->nd < DEC_DIGITS)
            b->d[b->nd++] = (uint8_t)(c - '0');
        else if (c != '0')
            b->trunc = true;
    }
    if (!sawdot)
        dp = seen;
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        bool eneg = false;
        if (q < end && (*q == '+' || *q == '-')) {
            eneg = *q == '-';
            q++;
        }
        int64_t e = 0;
        for (; q < end && IS_DIGIT(*q); q++)
            if (e < MAX_EXP_DIGITS_VALUE)
                e = e * 10 + (*q - '0');
        dp += eneg ? -e : e;
    }
    /* far outside any float's range either way; keeps dp an int */
    if (dp > 100000)
        dp = 100000;
    if (dp < -100000)
        dp = -100000;
    b->dp = (int)dp;
    dec_trim(b);
}

static void dec_right_shift(decimal *a, unsigned k)
{
    int r = 0, w = 0;
    uint64_t n = 0;
    for (; (n >> k) == 0; r++) {
        if (r >= a->nd) {
            if (n == 0) {
                a->nd = 0;
                return;
            }
            while ((n >> k) == 0) {
                n *= 10;
                r++;
            }
            break;
        }
        n = n * 10 + a->d[r];
    }
    a->dp -= r - 1;
    uint64_t mask = ((uint64_t)1 << k) - 1;
    for (; r < a->nd; r++) {
        uint64_t c = a->d[r];
        uint64_t dig = n >> k;
        n &= mask;
        a->d[w++] = (uint8_t)dig;
        n = n * 10 + c;
    }
    while (n > 0) {
        uint64_t dig = n >> k;
        n &= mask;
        if (w < DEC_DIGITS)
            a->d[w++] = (uint8_t)dig;
        else if (dig > 0)
            a->trunc = true;
        n *= 10;
    }
    a->nd = w;
    dec_trim(a);
}

/* Go's leftcheats: new digits when shifting left by k, and 5^k to compare. */
static const struct {
    int delta;
    const char *cutoff;
} dec_leftcheats[DEC_MAX_SHIFT + 1] = {
    {0, ""},
    {1, "5"},
    {1, "25"},
    {1, "125"},
    {2, "625"},
    {2, "3125"},
    {2, "15625"},
    {3, "78125"},
    {3, "390625"},
    {3, "1953125"},
    {4, "9765625"},
    {4, "48828125"},
    {4, "244140625"},
    {4, "1220703125"},
    {5, "6103515625"},
    {5, "30517578125"},
    {5, "152587890625"},
    {6, "762939453125"},
    {6, "3814697265625"},
    {6, "19073486328125"},
    {7, "95367431640625"},
    {7, "476837158203125"},
    {7, "2384185791015625"},
    {7, "11920928955078125"},
    {8, "59604644775390625"},
    {8, "298023223876953125"},
    {8, "1490116119384765625"},
    {9, "7450580596923828125"},
    {9, "37252902984619140625"},
    {9, "186264514923095703125"},
    {10, "931322574615478515625"},
    {10, "4656612873077392578125"},
    {10, "23283064365386962890625"},
    {10, "116415321826934814453125"},
    {11, "582076609134674072265625"},
    {11, "2910383045673370361328125"},
    {11, "14551915228366851806640625"},
    {12, "72759576141834259033203125"},
    {12, "363797880709171295166015625"},
    {12, "1818989403545856475830078125"},
    {13, "9094947017729282379150390625"},
    {13, "45474735088646411895751953125"},
    {13, "227373675443232059478759765625"},
    {13, "1136868377216160297393798828125"},
    {14, "5684341886080801486968994140625"},
    {14, "28421709430404007434844970703125"},
    {14, "142108547152020037174224853515625"},
    {15, "710542735760100185871124267578125"},
    {15, "3552713678800500929355621337890625"},
    {15, "17763568394002504646778106689453125"},
    {16, "88817841970012523233890533447265625"},
    {16, "444089209850062616169452667236328125"},
    {16, "2220446049250313080847263336181640625"},
    {16, "11102230246251565404236316680908203125"},
    {17, "55511151231257827021181583404541015625"},
    {17, "277555756156289135105907917022705078125"},
    {17, "1387778780781445675529539585113525390625"},
    {18, "6938893903907228377647697925567626953125"},
    {18, "34694469519536141888238489627838134765625"},
    {18, "173472347597680709441192448139190673828125"},
    {19, "867361737988403547205962240695953369140625"},
};

static bool dec_prefix_less(const decimal *a, const char *s)
{
    for (int i = 0; s[i] != 0; i++) {
        if (i >= a->nd)
            return true;
        uint8_t c = (uint8_t)(s[i] - '0');
        if (a->d[i] != c)
            return a->d[i] < c;
    }
    return false;
}

static void dec_left_shift(decimal *a, unsigned k)
{
    int delta = dec_leftcheats[k].delta;
    if (dec_prefix_less(a, dec_leftcheats[k].cutoff))
        delta--;
    int r = a->nd, w = a->nd + delta;
    uint64_t n = 0;
    for (r--; r >= 0; r--) {
        n += (uint64_t)a->d[r] << k;
        uint64_t quo = n / 10, rem = n - 10 * quo;
        w--;
        if (w < DEC_DIGITS)
            a->d[w] = (uint8_t)rem;
        else if (rem != 0)
            a->trunc = true;
        n = quo;
    }
    while (n > 0) {
        uint64_t quo = n / 10, rem = n - 10 * quo;
        w--;
        if (w < DEC_DIGITS)
            a->d[w] = (uint8_t)rem;
        else if (rem != 0)
            a->trunc = true;
        n = quo;
    }
    a->nd += delta;
    if (a->nd >= DEC_DIGITS)
        a->nd = DEC_DIGITS;
    a->dp += delta;
    dec_trim(a);
}

static void dec_shift(decimal *a, int k)
{
    if (a->nd == 0)
        return;
    if (k > 0) {
        while (k > DEC_MAX_SHIFT) {
            dec_left_shift(a, DEC_MAX_SHIFT);
            k -= DEC_MAX_SHIFT;
        }
        dec_left_shift(a, (unsigned)k);
    } else if (k < 0) {
        while (k < -DEC_MAX_SHIFT) {
            dec_right_shift(a, DEC_MAX_SHIFT);
            k += DEC_MAX_SHIFT;
        }
        dec_right_shift(a, (unsigned)-k);
    }
}

static bool dec_should_round_up(const decimal *a, int nd)
{
    if (nd < 0 || nd >= a->nd)
        return false;
    if (a->d[nd] == 5 && nd + 1 == a->nd) {
        if (a->trunc)
            return true;
        return nd > 0 && (a->d[nd - 1] & 1) != 0;
    }
    return a->d[nd] >= 5;
}

static uint64_t dec_rounded_integer(const decimal *a)
{
    if (a->dp > 20)
        return UINT64_MAX;
    int i;
    uint64_t n = 0;
    for (i = 0; i < a->dp && i < a->nd; i++)
        n = n * 10 + a->d[i];
    for (; i < a->dp; i++)
        n *= 10;
    if (dec_should_round_up(a, a->dp))
        n++;
    return n;
}

static const int dec_powtab[9] = {1, 3, 6, 9, 13, 16, 19, 23, 26};

/* Go's decimal.floatBits: IEEE bits (sign not included); *overflow on infinity. */
static uint64_t dec_float_bits(decimal *d, unsigned mantbits, unsigned expbits, int bias, bool *overflow)
{
    int exp;
    uint64_t mant;
    *overflow = false;
    if (d->nd == 0)
        return 0;
    if (d->dp > 310)
        goto overflow;
    if (d->dp < -330)
        return 0;
    exp = 0;
    while (d->dp > 0) {
        int n = d->dp >= 9 ? 27 : dec_powtab[d->dp];
        dec_shift(d, -n);
        exp += n;
    }
    while (d->dp < 0 || (d->dp == 0 && d->d[0] < 5)) {
        int n = -d->dp >= 9 ? 27 : dec_powtab[-d->dp];
        dec_shift(d, n);
        exp -= n;
    }
    exp--;
    if (exp < bias + 1) {
        int n = bias + 1 - exp;
        dec_shift(d, -n);
        exp += n;
    }
    if (exp - bias >= (1 << expbits) - 1)
        goto overflow;
    dec_shift(d, (int)(1 + mantbits));
    mant = dec_rounded_integer(d);
    if (mant == (uint64_t)2 << mantbits) {
        mant >>= 1;
        exp++;
        if (exp - bias >= (1 << expbits) - 1)
            goto overflow;
    }
    if ((mant & ((uint64_t)1 << mantbits)) == 0)
        exp = bias;
    return (mant & (((uint64_t)1 << mantbits) - 1)) |
           ((uint64_t)((exp - bias) & ((1 << expbits) - 1)) << mantbits);
overflow:
    *overflow = true;
    return (uint64_t)((1 << expbits) - 1) << mantbits;
}

/* MARK: - Floats */

/* The IEEE bits of text p[0..n) by Go's decimal algorithm, sign included;
 * TAGC_E_RANGE on overflow. Out of line: its 800-digit buffer would otherwise
 * give every number's conversion a large stack frame. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int slow_bits(const char *p, size_t n, bool neg, bool f32, uint64_t *bits)
{
    decimal d;
    bool ovf;
    dec_set(&d, p, n);
    uint64_t b = f32 ? dec_float_bits(&d, 23, 8, -127, &ovf) : dec_float_bits(&d, 52, 11, -1023, &ovf);
    if (ovf)
        return TAGC_E_RANGE;
    if (neg)
        b |= 1ULL << (f32 ? 31 : 63);
    *bits = b;
    return 0;
}

/* The double of a scanned number (text p[0..n) for the slow path). */
static inline int scan_to_f64(const num_scan *sp, const char *p, size_t n, double *out)
{
    num_scan s = *sp;
    double f;
    if (s.man == 0) {
        *out = s.neg ? -0.0 : 0.0;
        return 0;
    }
    if (!s.trunc && atof64_exact(s.man, s.exp, s.neg, &f)) {
        *out = f;
        return 0;
    }
    uint64_t bits, bits_up;
    if (eisel_lemire(s.man, s.exp, s.neg, false, &bits)) {
        /* digits were dropped: the answer is sure when man and man+1 agree */
        if (!s.trunc || (eisel_lemire(s.man + 1, s.exp, s.neg, false, &bits_up) && bits == bits_up)) {
            memcpy(out, &bits, sizeof bits);
            return 0;
        }
    }
    int rc = slow_bits(p, n, s.neg, false, &bits);
    if (rc == 0)
        memcpy(out, &bits, sizeof bits);
    return rc;
}

static inline int scan_to_f32(const num_scan *sp, const char *p, size_t n, float *out)
{
    num_scan s = *sp;
    float f;
    if (s.man == 0) {
        *out = s.neg ? -0.0f : 0.0f;
        return 0;
    }
    if (!s.trunc && atof32_exact(s.man, s.exp, s.neg, &f)) {
        *out = f;
        return 0;
    }
    uint64_t bits, bits_up;
    uint32_t b32;
    if (eisel_lemire(s.man, s.exp, s.neg, true, &bits)) {
        if (!s.trunc || (eisel_lemire(s.man + 1, s.exp, s.neg, true, &bits_up) && bits == bits_up)) {
            b32 = (uint32_t)bits;
            memcpy(out, &b32, sizeof b32);
            return 0;
        }
    }
    int rc = slow_bits(p, n, s.neg, true, &bits);
    if (rc == 0) {
        b32 = (uint32_t)bits;
        memcpy(out, &b32, sizeof b32);
    }
    return rc;
}

/* float32's conversion: one out-of-line copy for tagc_parse_f32, tagc_json_scan_f32 and
 * scan_general (no benchmark row reads float32; inlined, each had its own Eisel-Lemire). */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__) /* -Os: the compiler chooses */
__attribute__((noinline))
#endif
static int scan_to_f32_out(const num_scan *sp, const char *p, size_t n, float *out)
{
    return scan_to_f32(sp, p, n, out);
}

int tagc_parse_f64(const char *p, size_t n, double *out)
{
    num_scan s;
    if (TAGC_UNLIKELY(scan_float(p, p + n, &s) != p + n))
        return TAGC_E_SYNTAX;
    return scan_to_f64(&s, p, n, out);
}

int tagc_parse_f32(const char *p, size_t n, float *out)
{
    num_scan s;
    if (TAGC_UNLIKELY(scan_float(p, p + n, &s) != p + n))
        return TAGC_E_SYNTAX;
    return scan_to_f32_out(&s, p, n, out);
}

/* MARK: - In-place reading (json_read.c) */

/* Everything but the common float, out of line so that the common one needs
 * no large frame. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static size_t scan_general(const char *p, const char *end, bool f32, void *out, int *rc)
{
    num_scan s;
    const char *q = scan_float(p, end, &s);
    if (q == NULL)
        return 0;
    *rc = f32 ? scan_to_f32_out(&s, p, (size_t)(q - p), out) : scan_to_f64(&s, p, (size_t)(q - p), out);
    return (size_t)(q - p);
}

size_t tagc_json_scan_f64(const char *p, const char *end, double *out, int *rc)
{
#if TAGC_SWAR
    const char *q = plain_f64(p, end, out);
    if (TAGC_LIKELY(q != NULL)) {
        *rc = 0;
        return (size_t)(q - p);
    }
#endif
    return scan_general(p, end, false, out, rc);
}

size_t tagc_json_scan_f32(const char *p, const char *end, float *out, int *rc)
{
#if TAGC_SWAR
    num_scan s;
    unsigned nf;
    const char *q = end - p >= 32 ? plain_float_digits(p, &s.man, &nf, &s.neg, false) : NULL;
    if (TAGC_LIKELY(q != NULL)) {
        s.exp = -(int64_t)nf;
        s.trunc = false;
        *rc = scan_to_f32_out(&s, p, (size_t)(q - p), out);
        return (size_t)(q - p);
    }
#endif
    return scan_general(p, end, true, out, rc);
}
