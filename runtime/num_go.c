/*
 * num_go.c - floats as Go's strconv.ParseFloat reads them, for the `string`
 * option: Go 1.19's encoding/json hands the quoted text to strconv, whose
 * grammar is wider than JSON's ("1.", "00.5", "-.5", "1_000", "0x1p4", "-Inf").
 * Decimal text is rewritten in JSON's grammar and converted by num_read.c
 * (correctly rounded); hexadecimal text is exact binary, rounded here.
 */
#include <math.h>
#include <strings.h> /* strncasecmp */
#include <string.h>

#include "tagc.h"

static int lower(int c)
{
    return c | 0x20;
}

static bool is_hex(int c)
{
    return (c >= '0' && c <= '9') || (lower(c) >= 'a' && lower(c) <= 'f');
}

static int hex_val(int c)
{
    return c <= '9' ? c - '0' : lower(c) - 'a' + 10;
}

/* strconv's underscoreOK: '_' only between digits (or after a base prefix). */
static bool underscores_ok(const char *s, size_t n)
{
    char saw = '^';
    size_t i = 0;
    if (n >= 1 && (s[0] == '-' || s[0] == '+'))
        s++, n--;
    bool hex = false;
    if (n >= 2 && s[0] == '0' && (lower(s[1]) == 'b' || lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
        i = 2;
        saw = '0';
        hex = lower(s[1]) == 'x';
    }
    for (; i < n; i++) {
        if ((s[i] >= '0' && s[i] <= '9') || (hex && is_hex(s[i]))) {
            saw = '0';
            continue;
        }
        if (s[i] == '_') {
            if (saw != '0')
                return false;
            saw = '_';
            continue;
        }
        if (saw == '_')
            return false;
        saw = '!';
    }
    return saw != '_';
}

/* "inf" or "infinity" (any case) after an optional sign, or "nan" (any case,
 * no sign): strconv's special(). */
static bool infinity(const char *s, size_t n, double *out)
{
    if (n == 3 && strncasecmp(s, "nan", 3) == 0) {
        *out = NAN;
        return true;
    }
    bool neg = n > 0 && s[0] == '-', sign = n > 0 && (neg || s[0] == '+');
    if ((n - sign != 3 && n - sign != 8) || strncasecmp(s + sign, "infinity", n - sign) != 0)
        return false;
    *out = neg ? -HUGE_VAL : HUGE_VAL;
    return true;
}

/* m * 2^e (m != 0, sticky: nonzero bits below m) rounded to nearest even in a
 * binary format of `bits` significant bits and least normal exponent emin.
 * Returns false when it overflows the format's largest finite value. */
static bool round_binary(uint64_t m, bool sticky, int64_t e, int bits, int emin, double max,
                         double *out)
{
    while (!(m >> 63)) {
        m <<= 1;
        e--;
    }
    if (e > 4096) /* far past the largest float */
        return false;
    if (e < -4096) { /* far below the least subnormal */
        *out = 0;
        return true;
    }
    int64_t top = e + 63; /* value in [2^top, 2^(top+1)) */
    int64_t prec = bits;
    if (top < emin)
        prec = bits - (emin - top);
    if (prec < 0) { /* below half the least subnormal */
        *out = 0;
        return true;
    }
    int drop = (int)(64 - prec); /* 11..64 */
    uint64_t keep = drop == 64 ? 0 : m >> drop;
    uint64_t rem = drop == 64 ? m : m & ((UINT64_C(1) << drop) - 1);
    uint64_t half = UINT64_C(1) << (drop - 1);
    if (rem > half || (rem == half && (sticky || (keep & 1))))
        keep++;
    double v = ldexp((double)keep, (int)(e + drop)); /* exact: keep has at most bits + 1 bits */
    if (v > max)
        return false;
    *out = v;
    return true;
}

/* 0x mantissa p exponent, after the sign and prefix; *out unsigned. */
static int parse_hex(const char *s, size_t n, int bits, int emin, double max, double *out)
{
    uint64_t m = 0;
    bool sticky = false, digits = false, point = false;
    int64_t e = 0;
    size_t i = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '_')
            continue;
        if (c == '.') {
            if (point)
                break;
            point = true;
            continue;
        }
        if (!is_hex(c))
            break;
        digits = true;
        if (m >> 56 == 0) {
            m = m << 4 | (uint64_t)hex_val(c);
            if (point && e > -(INT64_C(1) << 40))
                e -= 4;
        } else {
            sticky |= c != '0';
            if (!point && e < INT64_C(1) << 40)
                e += 4;
        }
    }
    if (!digits || i >= n || lower(s[i]) != 'p')
        return TAGC_E_SYNTAX; /* Go: a hexadecimal mantissa requires a 'p' exponent */
    i++;
    bool eneg = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        eneg = s[i++] == '-';
    if (i >= n || s[i] < '0' || s[i] > '9')
        return TAGC_E_SYNTAX;
    int64_t x = 0;
    for (; i < n; i++) {
        if (s[i] == '_')
            continue;
        if (s[i] < '0' || s[i] > '9')
            return TAGC_E_SYNTAX;
        if (x < 100000000)
            x = x * 10 + (s[i] - '0');
    }
    e += eneg ? -x : x;
    if (m == 0) {
        *out = 0;
        return 0;
    }
    return round_binary(m, sticky, e, bits, emin, max, out) ? 0 : TAGC_E_RANGE;
}

int tagc_go_parse_float(const char *s, size_t n, int bits, char *scratch, double *out)
{
    double max = bits == 32 ? 3.40282346638528859811704183484516925440e+38 : 1.79769313486231570815e+308;
    if (n == 0)
        return TAGC_E_SYNTAX;
    if (infinity(s, n, out))
        return 0;
    if (memchr(s, '_', n) && !underscores_ok(s, n))
        return TAGC_E_SYNTAX;
    size_t i = 0;
    bool neg = false;
    if (s[0] == '+' || s[0] == '-')
        neg = s[i++] == '-';
    if (n - i >= 2 && s[i] == '0' && lower(s[i + 1]) == 'x') {
        int rc = parse_hex(s + i + 2, n - i - 2, bits == 32 ? 24 : 53, bits == 32 ? -126 : -1022, max, out);
        if (rc == 0 && neg)
            *out = -*out;
        return rc;
    }
    /* decimal: rewritten as JSON has it (no '_', one leading zero, digits on
     * both sides of the point) in scratch, which has room for n + 2 bytes */
    char *t = scratch;
    if (neg)
        *t++ = '-';
    size_t int_digits = 0, frac_digits = 0;
    bool point = false;
    char *int_start = t;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '_')
            continue;
        if (c == '.' && !point) {
            point = true;
            if (int_digits == 0)
                *t++ = '0';
            *t++ = '.';
            continue;
        }
        if (c < '0' || c > '9')
            break;
        if (!point) {
            if (int_digits == 1 && *int_start == '0')
                t--; /* a leading zero */
            else
                int_digits++;
            *t++ = c;
        } else {
            frac_digits++;
            *t++ = c;
        }
    }
    if (int_digits == 0 && frac_digits == 0)
        return TAGC_E_SYNTAX;
    if (point && frac_digits == 0)
        t--; /* "1." is 1 */
    if (i < n) {
        if (lower(s[i]) != 'e')
            return TAGC_E_SYNTAX;
        *t++ = 'e';
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            *t++ = s[i++];
        if (i >= n || s[i] < '0' || s[i] > '9')
            return TAGC_E_SYNTAX;
        for (; i < n; i++) {
            if (s[i] == '_')
                continue;
            if (s[i] < '0' || s[i] > '9')
                return TAGC_E_SYNTAX;
            *t++ = s[i];
        }
    }
    size_t len = (size_t)(t - scratch);
    if (bits == 32) {
        float f;
        int rc = tagc_parse_f32(scratch, len, &f);
        if (rc == 0)
            *out = f;
        return rc;
    }
    return tagc_parse_f64(scratch, len, out);
}

int tagc_json_read_quoted_float(tagc_json_dec *d, int bits, double *out)
{
    const char *s = d->p;
    size_t n = (size_t)(d->end - d->p);
    char local[256];
    char *scratch = local;
    if (n > sizeof local - 2 && (scratch = tagc_json_new(d, n + 2)) == NULL)
        return TAGC_E_NOMEM;
    /* encoding/json's own test before strconv: a number starts with '-' or a digit */
    int rc = n > 0 && (d->q_strconv || s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
                 ? tagc_go_parse_float(s, n, bits, scratch, out)
                 : TAGC_E_SYNTAX;
    if (rc == TAGC_E_RANGE)
        return tagc_json_fail(d, rc, "number %.*s out of range for float%d", (int)(n > 40 ? 40 : n), s, bits);
    if (rc != 0)
        return tagc_json_fail(d, rc, "invalid use of ,string option: %.*s is not a float", (int)(n > 40 ? 40 : n), s);
    d->p = d->end;
    return 0;
}

/* Decimal digits of s[0..n) (at least one, leading zeros allowed) into *mag;
 * TAGC_E_RANGE past UINT64_MAX. */
static int go_digits(const char *s, size_t n, uint64_t *mag)
{
    uint64_t v = 0;
    if (n == 0)
        return TAGC_E_SYNTAX;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return TAGC_E_SYNTAX;
        unsigned dgt = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - dgt) / 10)
            return TAGC_E_RANGE;
        v = v * 10 + dgt;
    }
    *mag = v;
    return 0;
}

int tagc_go_parse_int(const char *s, size_t n, int64_t *out)
{
    bool neg = n > 0 && (s[0] == '-' || s[0] == '+');
    uint64_t mag;
    int rc = go_digits(s + neg, n - neg, &mag);
    if (rc != 0)
        return rc;
    neg = neg && s[0] == '-';
    if (mag > (uint64_t)INT64_MAX + neg)
        return TAGC_E_RANGE;
    *out = neg ? (mag == 0 ? 0 : -(int64_t)(mag - 1) - 1) : (int64_t)mag;
    return 0;
}

int tagc_go_parse_uint(const char *s, size_t n, uint64_t *out)
{
    return go_digits(s, n, out);
}
