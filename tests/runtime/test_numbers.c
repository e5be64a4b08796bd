/*
 * test_numbers.c - runtime/num_write.c and runtime/num_read.c.
 *
 * References, never our own output:
 *   - float formatting: Go 1.19's json.Marshal, vectors made by numbers_ref.go
 *     (path in TAGC_NUMBERS_REF; skipped when Go is not installed);
 *   - float parsing: libc strtod/strtof in the C locale (correctly rounded in glibc),
 *     and the exact decimal expansions printed by glibc's printf;
 *   - integers: snprintf and strtoll/strtoull;
 *   - the number grammar: a POSIX regex of RFC 8259's grammar.
 */
#include <criterion/criterion.h>

#include "tagc.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MARK: - helpers */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static unsigned rndn(unsigned n)
{
    return (unsigned)(rnd() % n);
}

/* The random loops' length: n, or n / TAGC_TEST_FRACTION where scripts/test.sh sets it (the
   sanitized builds: their checks need the paths, not millions of draws; the plain and i686
   builds run every draw). */
static int iters(int n)
{
    static int k; /* read once: the loops' conditions call this */
    if (k == 0) {
        const char *f = getenv("TAGC_TEST_FRACTION");
        k = f && atoi(f) > 1 ? atoi(f) : 1;
    }
    return n / k;
}

static uint64_t bits64(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double f64_from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint32_t bits32(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static void c_locale(void)
{
    setlocale(LC_ALL, "C");
}

/* Copies s to an exact-size heap block so that ASan catches any read past n. */
static char *exact_copy(const char *s, size_t n)
{
    char *p = malloc(n ? n : 1);
    cr_assert(p != NULL);
    memcpy(p, s, n);
    return p;
}

/* Checks tagc_parse_f64 on s against strtod. Returns 1 on a mismatch (and reports it). */
static int check_f64(const char *s)
{
    size_t n = strlen(s);
    errno = 0;
    double want = strtod(s, NULL);
    bool ovf = isinf(want);
    char *p = exact_copy(s, n);
    double got = 12345.0;
    int rc = tagc_parse_f64(p, n, &got);
    free(p);
    if (ovf) {
        if (rc != TAGC_E_RANGE) {
            cr_log_error("parse_f64(\"%.200s\"): rc %d, want TAGC_E_RANGE", s, rc);
            return 1;
        }
        return 0;
    }
    if (rc != 0 || bits64(got) != bits64(want)) {
        cr_log_error("parse_f64(\"%.200s\") (%zu chars): rc %d, %a, want %a", s, n, rc, got, want);
        return 1;
    }
    return 0;
}

static int check_f32(const char *s)
{
    size_t n = strlen(s);
    errno = 0;
    float want = strtof(s, NULL);
    bool ovf = isinf(want);
    char *p = exact_copy(s, n);
    float got = 12345.0f;
    int rc = tagc_parse_f32(p, n, &got);
    free(p);
    if (ovf) {
        if (rc != TAGC_E_RANGE) {
            cr_log_error("parse_f32(\"%.200s\"): rc %d, want TAGC_E_RANGE", s, rc);
            return 1;
        }
        return 0;
    }
    if (rc != 0 || bits32(got) != bits32(want)) {
        cr_log_error("parse_f32(\"%.200s\") (%zu chars): rc %d, %a, want %a", s, n, rc, (double)got,
                     (double)want);
        return 1;
    }
    return 0;
}

/* MARK: - integer formatting */

static void check_fmt_u64(uint64_t v)
{
    char want[32], got[TAGC_I64_MAX_CHARS + 1];
    int wn = snprintf(want, sizeof want, "%" PRIu64, v);
    size_t n = tagc_fmt_u64(got, v);
    got[n] = 0;
    cr_assert_eq(n, (size_t)wn, "fmt_u64(%" PRIu64 ") length %zu", v, n);
    cr_assert_str_eq(got, want);
}

static void check_fmt_i64(int64_t v)
{
    char want[32], got[TAGC_I64_MAX_CHARS + 1];
    int wn = snprintf(want, sizeof want, "%" PRId64, v);
    size_t n = tagc_fmt_i64(got, v);
    got[n] = 0;
    cr_assert_eq(n, (size_t)wn, "fmt_i64(%" PRId64 ") length %zu", v, n);
    cr_assert_str_eq(got, want);
}

Test(fmt_int, boundaries)
{
    uint64_t p = 1;
    for (int i = 0; i < 20; i++) {
        check_fmt_u64(p);
        check_fmt_u64(p - 1);
        check_fmt_u64(p + 1);
        check_fmt_i64((int64_t)(p - 1));
        check_fmt_i64(-(int64_t)(p - 1));
        check_fmt_i64(-(int64_t)(p - 1) - 1);
        if (i < 19)
            p *= 10;
    }
    check_fmt_u64(0);
    check_fmt_u64(UINT64_MAX);
    check_fmt_u64(UINT64_MAX - 1);
    check_fmt_i64(0);
    check_fmt_i64(INT64_MAX);
    check_fmt_i64(INT64_MIN);
    check_fmt_i64(INT64_MIN + 1);
}

Test(fmt_int, random)
{
    for (int i = 0; i < iters(1000000); i++) {
        uint64_t v = rnd() >> rndn(64);
        check_fmt_u64(v);
        check_fmt_i64((int64_t)v);
        check_fmt_i64((int64_t)(rnd() >> rndn(64)) * (rndn(2) ? -1 : 1));
    }
}

/* MARK: - float formatting vs Go */

/* Go 1.26's strconv (Dragonbox) writes float32 ±2^-12 as ±0.00024414063 where
 * every other Go release writes the nearest-even ±0.00024414062: the only two of
 * the 2^32 float32 values on which Go 1.26.8 and 1.27.3 differ (all of them
 * compared; no float64 power of two differs either). tagc writes what the
 * other releases write (docs/profiles.md): against Go 1.26.x, those two are
 * the expected difference. */
static bool go126_f32_quirk(char kind, uint64_t bits, const char *go, const char *ours)
{
    const char *name = getenv("TAGC_GO_NAME");
    if (kind != 'f' || name == NULL || strcmp(name, "go1.26") != 0)
        return false;
    if (bits == 0x39800000)
        return strcmp(go, "0.00024414063") == 0 && strcmp(ours, "0.00024414062") == 0;
    if (bits == 0xb9800000)
        return strcmp(go, "-0.00024414063") == 0 && strcmp(ours, "-0.00024414062") == 0;
    return false;
}

Test(fmt_float, go_reference)
{
    const char *path = getenv("TAGC_NUMBERS_REF");
    if (path == NULL || *path == 0)
        cr_skip_test("TAGC_NUMBERS_REF not set (Go not found): no Go reference vectors");
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot open %s", path);
    char line[256];
    long lines = 0, bad = 0, n64 = 0, n32 = 0, quirks = 0;
    while (fgets(line, sizeof line, f)) {
        char kind, hex[32], text[128];
        if (sscanf(line, "%c %31s %127s", &kind, hex, text) != 3)
            continue;
        lines++;
        uint64_t b = strtoull(hex, NULL, 16);
        char out[TAGC_F64_MAX_CHARS + 1];
        size_t n;
        if (kind == 'd') {
            double d;
            memcpy(&d, &b, sizeof d);
            n = tagc_fmt_f64(out, d);
            n64++;
        } else {
            uint32_t u = (uint32_t)b;
            float x;
            memcpy(&x, &u, sizeof x);
            n = tagc_fmt_f32(out, x);
            n32++;
        }
        cr_assert_leq(n, (size_t)TAGC_F64_MAX_CHARS);
        out[n] = 0;
        if (strcmp(out, text) != 0 && go126_f32_quirk(kind, b, text, out))
            quirks++;
        else if (strcmp(out, text) != 0 && bad++ < 20)
            cr_log_error("%s %s: Go writes %s, tagc writes %s", kind == 'd' ? "float64" : "float32", hex,
                         text, out);
    }
    fclose(f);
    cr_assert_gt(n64, 100000, "too few float64 vectors in %s", path);
    cr_assert_gt(n32, 100000, "too few float32 vectors in %s", path);
    if (quirks)
        cr_log_info("float32 ±2^-12: Go 1.26's ±0.00024414063, tagc's ±0.00024414062 (%ld vectors)", quirks);
    cr_assert_eq(bad, 0, "%ld of %ld values formatted differently from Go", bad, lines);
}

/* MARK: - round trips */

Test(fmt_float, roundtrip_f64)
{
    c_locale();
    char buf[TAGC_F64_MAX_CHARS + 1];
    for (int i = 0; i < iters(1000000); i++) {
        uint64_t b = rnd();
        if (i % 4 == 1)
            b &= 0x800FFFFFFFFFFFFFULL >> rndn(52); /* subnormals */
        double x;
        memcpy(&x, &b, sizeof x);
        if (!isfinite(x))
            continue;
        size_t n = tagc_fmt_f64(buf, x);
        buf[n] = 0;
        double y = 0, z = strtod(buf, NULL);
        cr_assert_eq(tagc_json_number_len(buf, buf + n), n, "not a JSON number: %s", buf);
        cr_assert_eq(tagc_parse_f64(buf, n, &y), 0, "%s", buf);
        cr_assert_eq(bits64(y), b, "%s parses back as %a, not %a", buf, y, x);
        cr_assert_eq(bits64(z), b, "%s strtod gives %a, not %a", buf, z, x);
    }
}

Test(fmt_float, roundtrip_f32)
{
    c_locale();
    char buf[TAGC_F64_MAX_CHARS + 1];
    for (int i = 0; i < iters(1000000); i++) {
        uint32_t b = (uint32_t)rnd();
        if (i % 4 == 1)
            b &= 0x807FFFFFu >> rndn(23);
        float x;
        memcpy(&x, &b, sizeof x);
        if (!isfinite(x))
            continue;
        size_t n = tagc_fmt_f32(buf, x);
        buf[n] = 0;
        float y = 0, z = strtof(buf, NULL);
        cr_assert_eq(tagc_json_number_len(buf, buf + n), n, "not a JSON number: %s", buf);
        cr_assert_eq(tagc_parse_f32(buf, n, &y), 0, "%s", buf);
        cr_assert_eq(bits32(y), b, "%s parses back as %a, not %a", buf, (double)y, (double)x);
        cr_assert_eq(bits32(z), b, "%s strtof gives %a, not %a", buf, (double)z, (double)x);
    }
}

/* Shortest: one digit fewer never round-trips (checked with printf's correctly
 * rounded %.*e, the nearest decimal of that length). */
Test(fmt_float, shortest_f64)
{
    c_locale();
    char buf[TAGC_F64_MAX_CHARS + 1], shorter[64];
    for (int i = 0; i < iters(200000); i++) {
        uint64_t b = rnd() & 0x7FFFFFFFFFFFFFFFULL;
        double x;
        memcpy(&x, &b, sizeof x);
        if (!isfinite(x) || x == 0)
            continue;
        size_t n = tagc_fmt_f64(buf, x);
        buf[n] = 0;
        int digits = 0;
        for (const char *p = buf; *p && *p != 'e'; p++)
            digits += (*p >= '0' && *p <= '9');
        /* leading zeros of 0.000ddd are not significant */
        for (const char *p = buf; *p == '0' || *p == '.'; p++)
            digits -= *p == '0';
        /* nor trailing zeros of an integer */
        if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
            for (const char *p = buf + n - 1; p > buf && *p == '0'; p--)
                digits--;
        if (digits <= 1)
            continue;
        snprintf(shorter, sizeof shorter, "%.*e", digits - 2, x);
        cr_assert_neq(bits64(strtod(shorter, NULL)), b, "%s is not shortest: %s round-trips", buf, shorter);
    }
}

/* MARK: - float formatting vs printf and strtod */

/*
 * An independent reference for tagc_fmt_f64/f32 on many values: glibc's printf
 * gives the correctly rounded decimal of any length, strtod/strtof say whether
 * it round-trips. For tagc's digit count n: the nearest n-digit decimal must be
 * tagc's digits when it round-trips (Go: the closest of the shortest), and no
 * (n-1)-digit decimal may round-trip (the shortest). Where the binade changes
 * (a significand of all zero bits) the interval below is half as wide, so the
 * nearest decimal can fall out of it while its neighbour above is in: those
 * two are checked too. The text is then laid out the way Go's encoding/json
 * does, with plain loops.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FMT_REF_VALUES 150000
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define FMT_REF_VALUES 150000
#endif
#endif
#ifndef FMT_REF_VALUES
#define FMT_REF_VALUES 1000000
#endif

/* %.*e of |x| with prec digits: the digits (no point) and the exponent of the first. */
static void nearest_digits(double x, int prec, char *dig, int *exp10)
{
    char s[64];
    snprintf(s, sizeof s, "%.*e", prec - 1, fabs(x));
    int k = 0;
    const char *p = s;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            dig[k++] = *p;
    dig[k] = 0;
    *exp10 = atoi(p + 1);
}

/* The next decimal of the same length up (9.99 -> 10.0, exponent + 1). */
static void next_digits(char *dig, int *exp10)
{
    int i = (int)strlen(dig) - 1;
    while (i >= 0 && dig[i] == '9')
        dig[i--] = '0';
    if (i >= 0) {
        dig[i]++;
    } else {
        dig[0] = '1';
        ++*exp10;
    }
}

static bool round_trips(const char *dig, int exp10, double x, bool f32)
{
    char s[64];
    snprintf(s, sizeof s, "%c.%se%d", dig[0], dig + 1, exp10);
    if (f32)
        return bits32(strtof(s, NULL)) == bits32((float)fabs(x));
    return bits64(strtod(s, NULL)) == bits64(fabs(x));
}

/* Go's layout of 0.DIGITS * 10^(exp10 + 1), written with loops. */
static void go_layout(char *out, bool neg, const char *dig, int exp10)
{
    int n = (int)strlen(dig);
    while (n > 1 && dig[n - 1] == '0')
        n--;
    char *p = out;
    if (neg)
        *p++ = '-';
    if (exp10 < -6 || exp10 >= 21) {
        *p++ = dig[0];
        if (n > 1) {
            *p++ = '.';
            for (int i = 1; i < n; i++)
                *p++ = dig[i];
        }
        p += sprintf(p, "e%c%0*d", exp10 < 0 ? '-' : '+', exp10 < 0 ? 1 : 2, abs(exp10));
    } else if (exp10 < 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = exp10 + 1; i < 0; i++)
            *p++ = '0';
        for (int i = 0; i < n; i++)
            *p++ = dig[i];
    } else {
        for (int i = 0; i <= exp10 || i < n; i++) {
            if (i == exp10 + 1)
                *p++ = '.';
            *p++ = i < n ? dig[i] : '0';
        }
    }
    *p = 0;
}

/* Checks tagc's text for x against the reference. Returns 1 on a mismatch (and reports it). */
static int check_fmt_ref(double x, bool f32)
{
    char out[TAGC_F64_MAX_CHARS + 1], want[64], dig[40], up[40];
    size_t len = f32 ? tagc_fmt_f32(out, (float)x) : tagc_fmt_f64(out, x);
    out[len] = 0;
    if (x == 0) {
        bool ok = strcmp(out, signbit(x) ? "-0" : "0") == 0;
        if (!ok)
            cr_log_error("%a: tagc writes %s", x, out);
        return !ok;
    }
    int n = 0; /* significant digits in tagc's text */
    bool lead = true;
    for (const char *p = out; *p && *p != 'e'; p++) {
        if (*p < '0' || *p > '9' || (lead && *p == '0'))
            continue;
        lead = false;
        n++;
    }
    if (strchr(out, '.') == NULL && strchr(out, 'e') == NULL) /* an integer: its zeros are not digits */
        for (const char *p = out + len - 1; p > out && *p == '0'; p--)
            n--;
    uint64_t mant = f32 ? (bits32((float)x) & 0x7FFFFF) : (bits64(x) & 0xFFFFFFFFFFFFFULL);
    bool boundary = mant == 0; /* the interval below is the narrower */
    int e10, eup;
    nearest_digits(x, n, dig, &e10);
    if (!round_trips(dig, e10, x, f32)) {
        strcpy(up, dig);
        eup = e10;
        next_digits(up, &eup);
        if (!boundary || !round_trips(up, eup, x, f32)) {
            cr_log_error("%a (%s): no %d-digit decimal round-trips, tagc writes %s", x, f32 ? "float32" : "float64",
                         n, out);
            return 1;
        }
        strcpy(dig, up);
        e10 = eup;
    }
    if (n > 1) {
        char shorter[40];
        int es;
        nearest_digits(x, n - 1, shorter, &es);
        bool rt = round_trips(shorter, es, x, f32);
        if (!rt && boundary) {
            next_digits(shorter, &es);
            rt = round_trips(shorter, es, x, f32);
        }
        if (rt) {
            cr_log_error("%a (%s): tagc writes %s, but %d digits round-trip", x, f32 ? "float32" : "float64",
                         out, n - 1);
            return 1;
        }
    }
    go_layout(want, signbit(x), dig, e10);
    if (strcmp(out, want) != 0) {
        cr_log_error("%a (%s): tagc writes %s, want %s", x, f32 ? "float32" : "float64", out, want);
        return 1;
    }
    return 0;
}

/* Values of the kinds the fast paths and their fallbacks must agree on. */
static double pick_f64(unsigned i)
{
    char s[64];
    double x;
    uint64_t b;
    switch (i % 6) {
    case 0: /* any bits */
        b = rnd();
        memcpy(&x, &b, sizeof x);
        return x;
    case 1: /* decimal-looking: up to 17 random digits times a power of ten */
        snprintf(s, sizeof s, "%" PRIu64 "e%d", (uint64_t)(rnd() % 100000000000000000ULL) >> rndn(57),
                 (int)rndn(60) - 40);
        return strtod(s, NULL) * (rndn(2) ? -1 : 1);
    case 2: /* canada-like coordinates, a few ulps off the decimal */
        x = ((double)(rnd() % 360000000) - 180000000) / 1e6;
        b = bits64(x) + rndn(9) - 4;
        memcpy(&x, &b, sizeof x);
        return x;
    case 3: /* subnormals */
        b = rnd() & (0x800FFFFFFFFFFFFFULL >> rndn(52));
        memcpy(&x, &b, sizeof x);
        return x;
    case 4: /* powers of two and ten, and their neighbours */
        x = rndn(2) ? ldexp(1, (int)rndn(2098) - 1074) : strtod((snprintf(s, sizeof s, "1e%d", (int)rndn(632) - 323), s), NULL);
        b = bits64(x) + rndn(5) - 2;
        memcpy(&x, &b, sizeof x);
        return x;
    default: /* near Go's switch to the 'e' form (1e-6, 1e21) */
        x = rndn(2) ? 1e-6 : 1e21;
        b = bits64(x) + (rnd() % 2001) - 1000;
        memcpy(&x, &b, sizeof x);
        return x;
    }
}

Test(fmt_float, printf_reference_f64)
{
    c_locale();
    static const double edges[] = {
        0.0, -0.0, 5e-324, -5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308, DBL_MAX, -DBL_MAX,
        DBL_MIN, 1e21, 1e-6, 9.999999999999999e20, 0.0000009999999999999999, 1e-7, 1e20, 1e22, 1e23, 0.1, 0.3,
        1, 2, 4503599627370496.0, 9007199254740992.0, 9007199254740993.0, 123456789012345680.0, 65.61361699999998,
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        bad += check_fmt_ref(edges[i], false);
    for (int e = -1074; e <= 1023; e++) /* every binade's first value and its neighbours */
        for (int d = -1; d <= 1; d++) {
            uint64_t b = bits64(ldexp(1, e)) + (uint64_t)(int64_t)d;
            double x;
            memcpy(&x, &b, sizeof x);
            if (isfinite(x))
                bad += check_fmt_ref(x, false);
        }
    for (unsigned i = 0; i < FMT_REF_VALUES && bad < 20; i++) {
        double x = pick_f64(i);
        if (isfinite(x))
            bad += check_fmt_ref(x, false);
    }
    cr_assert_eq(bad, 0, "%d values formatted unlike the reference", bad);
}

Test(fmt_float, printf_reference_f32)
{
    c_locale();
    int bad = 0;
    for (int e = -149; e <= 127; e++) /* every binade's first value and its neighbours */
        for (int d = -1; d <= 1; d++) {
            uint32_t b = bits32(ldexpf(1, e)) + (uint32_t)d;
            float x;
            memcpy(&x, &b, sizeof x);
            if (isfinite(x))
                bad += check_fmt_ref(x, true);
        }
    for (unsigned i = 0; i < FMT_REF_VALUES / 4 && bad < 20; i++) {
        uint32_t b = (uint32_t)rnd();
        if (i % 4 == 1)
            b &= 0x807FFFFFu >> rndn(23); /* subnormals */
        float x;
        memcpy(&x, &b, sizeof x);
        if (isfinite(x))
            bad += check_fmt_ref(x, true);
    }
    cr_assert_eq(bad, 0, "%d values formatted unlike the reference", bad);
}

/* MARK: - float parsing vs strtod / strtof */

static const char *const hard_cases[] = {
    "0", "-0", "0.0", "-0.0", "0e0", "0e-400", "0e400", "-0e+5", "0.000000000000000000000000000",
    "1", "-1", "1.5", "0.1", "0.2", "0.3", "1e23", "1E23", "8.98846567431158e307",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
    "2.2250738585072009e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
    "2.4703282292062328e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775364e-324",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
    "1.797693134862315807e308", "1.7976931348623158079372897140530341507993413271003782693617377898044496e308",
    "1e308", "1e309", "-1e309", "1e-324", "1e-323", "3e-324", "1e400", "-1e400", "1e-400",
    "123456789012345680", "9007199254740993", "9007199254740992", "9007199254740994",
    "9007199254740995", "9007199254740993.0000000000000000000001", "18446744073709551615",
    "18446744073709551616", "18446744073709551617", "99999999999999999999999",
    "7.038531e-26", "1.00000017881393432617187499", "1.000000178813934326171875",
    "1.00000017881393432617187501", "3.4028234664e38", "3.4028235677973366e38",
    "3.4028235677973367e38", "3.402823567797336616375393954581e38", "1.4e-45", "7e-46",
    "7.0064923216240854e-46", "7.0064923216240861e-46", "1.17549435e-38", "1.1754942e-38",
    "16777217", "16777216.5", "33554435", "0.000001", "1e-6", "1e-7", "5e-324", "1e21", "1e22",
    "1e-22", "1e-23", "4503599627370496.5", "4503599627370497.5", "1e15", "1e16", "1e-15",
    "1.000000000000000000000000000000000000000000000000000000000001",
    "0.99999999999999999999999999999999999999999999999999999999999",
    "0.000000000000000000000000000000000000000000000000000000000000000000000000001",
    "100000000000000000000000000000000000000000000000000000000000000000000000000e-75",
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587"
    "207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711"
    "531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093"
    "0428",
    "6.1e1", "1.23e-5", "12345678901234567890e-30", "0.00000000000000000001e20",
};

Test(parse_float, hard_cases)
{
    c_locale();
    int bad = 0;
    for (size_t i = 0; i < sizeof hard_cases / sizeof hard_cases[0]; i++) {
        bad += check_f64(hard_cases[i]);
        bad += check_f32(hard_cases[i]);
    }
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

/* Exact decimal expansions of the midpoints between neighbouring floats (glibc
 * prints them exactly), as is, a hair above and below, and cut short. */
/* Given "D.DDDDe+XX" (an exact expansion, printf's form), checks it exactly, a
 * hair above and a hair below. */
static int check_expansion(const char *buf, bool f32)
{
    const char *e = strchr(buf, 'e');
    const char *m_end = e;
    while (m_end[-1] == '0')
        m_end--;
    if (m_end[-1] == '.')
        m_end--;
    int mlen = (int)(m_end - buf);
    bool has_dot = memchr(buf, '.', (size_t)mlen) != NULL;
    static char s[2100];
    int bad = 0;
    /* exactly */
    snprintf(s, sizeof s, "%.*s%s", mlen, buf, e);
    bad += f32 ? check_f32(s) : check_f64(s);
    /* a hair above */
    snprintf(s, sizeof s, "%.*s%s00000000000000000000001%s", mlen, buf, has_dot ? "" : ".", e);
    bad += f32 ? check_f32(s) : check_f64(s);
    /* a hair below: last digit minus one, then nines */
    if (buf[mlen - 1] != '0') {
        snprintf(s, sizeof s, "%.*s%c%s99999999999999999999999%s", mlen - 1, buf, buf[mlen - 1] - 1,
                 has_dot ? "" : ".", e);
        bad += f32 ? check_f32(s) : check_f64(s);
    }
    /* cut short by a random amount */
    if (has_dot && mlen > 4) {
        snprintf(s, sizeof s, "%.*s%s", 3 + (int)rndn((unsigned)mlen - 3), buf, e);
        bad += f32 ? check_f32(s) : check_f64(s);
    }
    return bad;
}

/* Exact decimal expansions (glibc prints them exactly) of the midpoints between
 * neighbouring floats: 700+ digits for subnormal doubles. */
static int check_midpoints_f64(double x)
{
#if LDBL_MANT_DIG >= 64
    double up = nextafter(x, INFINITY);
    if (!isfinite(up))
        return 0;
    long double mid = ((long double)x + (long double)up) / 2; /* exact in 64 bits */
    static char buf[2000];
    snprintf(buf, sizeof buf, "%.1100Le", mid);
    return check_expansion(buf, false) + check_expansion(buf, true);
#else
    (void)x;
    return 0;
#endif
}

static int check_midpoints_f32(float x)
{
    float up = nextafterf(x, INFINITY);
    if (!isfinite(up))
        return 0;
    double mid = ((double)x + (double)up) / 2; /* exact: 25 bits */
    static char buf[400];
    snprintf(buf, sizeof buf, "%.250e", mid);
    return check_expansion(buf, true) + check_expansion(buf, false);
}

Test(parse_float, midpoints_long_mantissas)
{
    c_locale();
    int bad = 0;
    double specials[] = {5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308,
                         1.7976931348623155e308, 1.0, 9007199254740992.0, 0.1, 1e23, 1e-300};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        bad += check_midpoints_f64(specials[i]);
    for (int i = 0; i < 3000; i++) {
        uint64_t b = rnd() & 0x7FFFFFFFFFFFFFFFULL;
        if (i % 3 == 0)
            b &= 0x000FFFFFFFFFFFFFULL; /* subnormal: the longest expansions (~770 digits) */
        double x;
        memcpy(&x, &b, sizeof x);
        if (isfinite(x))
            bad += check_midpoints_f64(x);
    }
    float fspecials[] = {1.4e-45f, 1.1754942e-38f, 1.17549435e-38f, 3.4028232e38f, 1.0f, 16777216.0f, 0.1f};
    for (size_t i = 0; i < sizeof fspecials / sizeof fspecials[0]; i++)
        bad += check_midpoints_f32(fspecials[i]);
    for (int i = 0; i < 20000; i++) {
        uint32_t b = (uint32_t)rnd() & 0x7FFFFFFFu;
        if (i % 3 == 0)
            b &= 0x007FFFFFu;
        float x;
        memcpy(&x, &b, sizeof x);
        if (isfinite(x))
            bad += check_midpoints_f32(x);
    }
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

Test(parse_float, very_long)
{
    c_locale();
    int bad = 0;
    size_t cap = 12000;
    char *s = malloc(cap);
    cr_assert(s != NULL);
    for (int i = 0; i < 400; i++) {
        size_t n = 0;
        if (rndn(2))
            s[n++] = '-';
        unsigned shape = rndn(4);
        size_t digits = 700 + rndn(9000);
        if (shape == 0) { /* 0.000...ddd */
            s[n++] = '0';
            s[n++] = '.';
            for (unsigned z = rndn(400); z > 0; z--)
                s[n++] = '0';
        }
        s[n++] = (char)('1' + rndn(9));
        for (size_t k = 1; k < digits; k++) {
            if (shape != 0 && k == digits / 2 && shape != 3)
                s[n++] = '.';
            /* long runs of 0 or 9 make the sticky digits matter */
            unsigned r = rndn(10);
            s[n++] = (char)(shape == 1 ? (r < 8 ? '0' : '0' + r) : shape == 2 ? (r < 8 ? '9' : '0' + r)
                                                                             : '0' + r);
        }
        if (rndn(2))
            n += (size_t)sprintf(s + n, "e%d", (int)rndn(700) - 350 - (shape == 0 ? 0 : (int)digits / 2));
        s[n] = 0;
        bad += check_f64(s);
        bad += check_f32(s);
    }
    /* an integer with more than 800 digits, then a negative exponent (Go 1.19
     * misplaces the point here; we must not) */
    strcpy(s, "9007199254740993");
    for (int i = 0; i < 900; i++)
        strcat(s, "0");
    strcat(s, "e-900");
    bad += check_f64(s);
    strcpy(s, "16777217");
    for (int i = 0; i < 900; i++)
        strcat(s, "0");
    strcat(s, "e-900");
    bad += check_f32(s);
    free(s);
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

/* A random valid JSON number of one of several shapes. */
static size_t random_number(char *s)
{
    size_t n = 0;
    if (rndn(3) == 0)
        s[n++] = '-';
    unsigned shape = rndn(6);
    unsigned nd = 1 + rndn(shape == 5 ? 40 : 20);
    if (shape == 0 || (nd == 1 && rndn(2))) {
        s[n++] = '0';
    } else {
        s[n++] = (char)('1' + rndn(9));
        for (unsigned i = 1; i < nd; i++)
            s[n++] = (char)('0' + rndn(10));
    }
    if (shape != 1 && rndn(3) != 0) {
        s[n++] = '.';
        unsigned fd = 1 + rndn(shape == 5 ? 40 : 20);
        for (unsigned i = 0; i < fd; i++)
            s[n++] = (char)('0' + (shape == 0 && i < 5 && rndn(2) ? 0 : rndn(10)));
    }
    if (shape >= 2 && rndn(2) == 0) {
        s[n++] = rndn(2) ? 'e' : 'E';
        unsigned r = rndn(3);
        if (r == 1)
            s[n++] = '+';
        if (r == 2)
            s[n++] = '-';
        int e = (int)(shape == 4 ? rndn(360) : rndn(40));
        n += (size_t)sprintf(s + n, "%s%d", rndn(4) == 0 ? "0" : "", e);
    }
    s[n] = 0;
    return n;
}

Test(parse_float, random_strings)
{
    c_locale();
    int bad = 0;
    char s[256];
    for (int i = 0; i < iters(1000000) && bad < 20; i++) {
        size_t n = random_number(s);
        cr_assert_eq(tagc_json_number_len(s, s + n), n, "%s", s);
        bad += check_f64(s);
        bad += check_f32(s);
    }
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

Test(parse_float, near_float32_boundaries)
{
    /* decimals close to float32 values and midpoints, few digits: the float32
     * path must round directly, not through a double */
    c_locale();
    int bad = 0;
    char s[64];
    for (int i = 0; i < iters(300000) && bad < 20; i++) {
        uint32_t b = (uint32_t)rnd() & 0x7F7FFFFFu;
        float x;
        memcpy(&x, &b, sizeof x);
        double mid = ((double)x + (double)nextafterf(x, INFINITY)) / 2;
        snprintf(s, sizeof s, "%.*e", 6 + (int)rndn(12), rndn(2) ? mid : (double)x);
        bad += check_f32(s);
        bad += check_f64(s);
    }
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

Test(parse_float, syntax_errors)
{
    const char *bad[] = {"", "-", "+1", "01", "1.", ".5", "1e", "1e+", "-.5", "1.5.", "0x10", "1 ", " 1",
                         "Infinity", "NaN", "--1", "1e5.5", "1..5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = strlen(bad[i]);
        char *p = exact_copy(bad[i], n);
        double d = 7;
        float f = 7;
        cr_assert_eq(tagc_parse_f64(p, n, &d), TAGC_E_SYNTAX, "\"%s\"", bad[i]);
        cr_assert_eq(tagc_parse_f32(p, n, &f), TAGC_E_SYNTAX, "\"%s\"", bad[i]);
        cr_assert(d == 7 && f == 7, "output written on error");
        free(p);
    }
}

/* MARK: - integers */

static void check_int_text(const char *s)
{
    size_t n = strlen(s);
    char *p = exact_copy(s, n);
    bool valid = n > 0 && tagc_json_number_len(p, p + n) == n;
    bool is_int = valid && strpbrk(s, ".eE") == NULL;

    errno = 0;
    long long ref = strtoll(s, NULL, 10);
    bool ref_ovf = errno == ERANGE;
    int64_t v = 99;
    int rc = tagc_parse_i64(p, n, &v);
    if (!is_int) {
        cr_assert_eq(rc, valid ? TAGC_E_TYPE : TAGC_E_SYNTAX, "i64 \"%s\"", s);
    } else if (ref_ovf) {
        cr_assert_eq(rc, TAGC_E_RANGE, "i64 \"%s\"", s);
    } else {
        cr_assert_eq(rc, 0, "i64 \"%s\"", s);
        cr_assert_eq(v, (int64_t)ref, "i64 \"%s\"", s);
    }
    if (rc != 0)
        cr_assert_eq(v, 99, "output written on error");

    errno = 0;
    unsigned long long uref = strtoull(s, NULL, 10);
    bool uref_ovf = errno == ERANGE;
    uint64_t u = 99;
    rc = tagc_parse_u64(p, n, &u);
    if (!is_int) {
        cr_assert_eq(rc, valid ? TAGC_E_TYPE : TAGC_E_SYNTAX, "u64 \"%s\"", s);
    } else if (s[0] == '-' || uref_ovf) {
        /* Go's ParseUint rejects any sign ("-0" too): out of range for a uint */
        cr_assert_eq(rc, TAGC_E_RANGE, "u64 \"%s\"", s);
    } else {
        cr_assert_eq(rc, 0, "u64 \"%s\"", s);
        cr_assert_eq(u, (uint64_t)uref, "u64 \"%s\"", s);
    }
    free(p);
}

Test(parse_int, boundaries)
{
    const char *cases[] = {
        "0", "-0", "1", "-1", "9", "10", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "18446744073709551617", "99999999999999999999", "100000000000000000000", "-18446744073709551615",
        "123456789012345678901234567890", "1.0", "1e2", "1E2", "-0.0", "0e0", "1.5", "-3e-1",
        "18446744073709551615.0", "01", "-", "", "+1", "1.", "1e", " 1", "1 ", "0x1", "--1", "-01",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_int_text(cases[i]);
}

Test(parse_int, random)
{
    char s[64];
    for (int i = 0; i < iters(300000); i++) {
        uint64_t v = rnd() >> rndn(64);
        bool neg = rndn(2);
        snprintf(s, sizeof s, "%s%" PRIu64 "%s", neg ? "-" : "", v, rndn(10) == 0 ? "7" : "");
        check_int_text(s);
    }
}

/* MARK: - the number grammar */

Test(number_len, table)
{
    /* from RFC 8259 section 6; a dangling '.' or exponent makes the number invalid,
     * anything else after a valid number is left for the caller */
    struct {
        const char *s;
        size_t want;
    } cases[] = {
        {"0", 1}, {"-0", 2}, {"01", 1}, {"-01", 2}, {"1.5", 3}, {"1.5x", 3}, {"1.5.", 3},
        {"-", 0}, {"", 0}, {"1.", 0}, {".5", 0}, {"1e", 0}, {"1e+", 0}, {"1E-", 0}, {"1.e5", 0},
        {"+1", 0}, {"-a", 0}, {"1e5", 3}, {"1E+05", 5}, {"1e5e", 3}, {"12345678901234567890123", 23},
        {"0.0001e-10,", 10}, {"-0.5]", 4}, {"1 ", 1}, {"1.5e3.", 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = strlen(cases[i].s);
        char *p = exact_copy(cases[i].s, n);
        cr_assert_eq(tagc_json_number_len(p, p + n), cases[i].want, "\"%s\"", cases[i].s);
        free(p);
    }
}

Test(number_len, random_vs_regex)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?", REG_EXTENDED), 0);
    const char alphabet[] = "-+.eE0123456789x";
    char s[16];
    for (int i = 0; i < iters(200000); i++) {
        size_t n = rndn(12);
        for (size_t k = 0; k < n; k++)
            s[k] = alphabet[rndn(sizeof alphabet - 1)];
        s[n] = 0;
        regmatch_t m[4];
        size_t want = 0;
        if (regexec(&re, s, 4, m, 0) == 0) {
            want = (size_t)m[0].rm_eo;
            char next = s[want];
            bool has_frac = m[2].rm_so != -1, has_exp = m[3].rm_so != -1;
            /* the match stopped at a '.' or exponent that does not complete */
            if ((next == '.' && !has_frac && !has_exp) || ((next == 'e' || next == 'E') && !has_exp))
                want = 0;
        }
        char *p = exact_copy(s, n);
        cr_assert_eq(tagc_json_number_len(p, p + n), want, "\"%s\"", s);
        free(p);
    }
    regfree(&re);
}

/* MARK: - floats two at a time */

/* tagc_put_f64s against tagc_put_f64 and ',' per value: the same bytes and the
 * same error, for every count 0..5 and values of every kind (NaN and the
 * infinities among them, in either place of a pair). */
Test(fmt_float, put_f64s_matches_put_f64)
{
    static const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 5e-324, 1e21, 1e-7, 65.61361699999998};
    for (unsigned i = 0; i < FMT_REF_VALUES / 10; i++) {
        size_t n = i % 6;
        double v[5];
        for (size_t j = 0; j < n; j++)
            v[j] = rndn(20) == 0 ? specials[rndn(sizeof specials / sizeof specials[0])] : pick_f64(i + (unsigned)j);
        uint8_t got[5 * (1 + TAGC_F64_ROOM)], want[5 * (1 + TAGC_F64_ROOM)];
        tagc_buf bg, bw;
        memset(&bg, 0, sizeof bg);
        memset(&bw, 0, sizeof bw);
        uint8_t *pg = tagc_put_f64s(&bg, got, v, n);
        uint8_t *pw = want;
        for (size_t j = 0; j < n; j++) {
            if (j > 0)
                *pw++ = ',';
            pw = tagc_put_f64(&bw, pw, v[j]);
        }
        cr_assert_eq(pg - got, pw - want, "%zu values: length %td, want %td", n, pg - got, pw - want);
        cr_assert(memcmp(got, want, (size_t)(pw - want)) == 0, "%zu values: %.*s, want %.*s", n, (int)(pg - got),
                  (const char *)got, (int)(pw - want), (const char *)want);
        cr_assert_eq(bg.err, bw.err);
    }
}

#include "float_edges.h"

/* Go's text for the edges of every layout, through each writer: one value
 * (tagc_fmt_f64, tagc_put_f64) and a pair (tagc_put_f64s with the next
 * vector, the value first and second). */
Test(fmt_float, edges)
{
    size_t n = sizeof float_edges / sizeof float_edges[0];
    for (size_t i = 0; i < n; i++) {
        double v = f64_from_bits(float_edges[i].bits);
        const char *want = float_edges[i].go;
        char buf[TAGC_F64_MAX_CHARS + 1];
        size_t len = tagc_fmt_f64(buf, v);
        buf[len] = 0;
        cr_expect_str_eq(buf, want, "fmt_f64(%a)", v);
        uint8_t out[2 * TAGC_F64_ROOM + 2], *end;
        tagc_buf b;
        memset(&b, 0, sizeof b);
        end = tagc_put_f64(&b, out, v);
        *end = 0;
        cr_expect_str_eq((char *)out, want, "put_f64(%a)", v);
        const struct float_edge *next = &float_edges[(i + 1) % n];
        double pair[2] = {v, f64_from_bits(next->bits)};
        char want2[2 * TAGC_F64_MAX_CHARS + 2];
        snprintf(want2, sizeof want2, "%s,%s", want, next->go);
        end = tagc_put_f64s(&b, out, pair, 2);
        *end = 0;
        cr_expect_str_eq((char *)out, want2, "put_f64s(%a, %a)", pair[0], pair[1]);
        double swapped[2] = {pair[1], v};
        snprintf(want2, sizeof want2, "%s,%s", next->go, want);
        end = tagc_put_f64s(&b, out, swapped, 2);
        *end = 0;
        cr_expect_str_eq((char *)out, want2, "put_f64s(%a, %a)", swapped[0], swapped[1]);
        cr_assert_eq(b.err, 0);
    }
}

/* MARK: - in-place scanning (the word-at-a-time fast path) */

/* Scans s as tagc_json_scan_f64/f32 see a number inside a document: followed by
 * `tail` and enough further bytes for the whole-word reads of the fast path.
 * Length against tagc_json_number_len, value against strtod/strtof. */
static int check_scan(const char *s, const char *tail)
{
    char buf[160];
    size_t n = strlen(s);
    int bad = 0;
    cr_assert(n + 64 < sizeof buf);
    memset(buf, ' ', sizeof buf);
    memcpy(buf, s, n);
    memcpy(buf + n, tail, strlen(tail));
    const char *end = buf + sizeof buf;
    size_t want_len = tagc_json_number_len(buf, end);
    double d = 12345.0;
    float f = 12345.0f;
    int rc = -1, rc32 = -1;
    size_t got = tagc_json_scan_f64(buf, end, &d, &rc);
    size_t got32 = tagc_json_scan_f32(buf, end, &f, &rc32);
    /* and as generated code reads it: tagc_json_read_f64 with its in-line path */
    static tagc_arena arena;
    tagc_error err;
    tagc_json_dec dec;
    double dr = 12345.0;
    tagc_json_dec_init(&dec, buf, sizeof buf, &arena, &err, NULL);
    int rc_read = tagc_json_read_f64(&dec, &dr);
    if (got != want_len || got32 != want_len) {
        cr_log_error("scan(\"%s%s\"): length %zu/%zu, want %zu", s, tail, got, got32, want_len);
        return 1;
    }
    if (want_len == 0) {
        if (rc_read != TAGC_E_SYNTAX) {
            cr_log_error("read_f64(\"%s%s\"): rc %d, want TAGC_E_SYNTAX", s, tail, rc_read);
            return 1;
        }
        return 0;
    }
    if (rc_read != rc || (rc == 0 && (dec.p != buf + want_len || bits64(dr) != bits64(d)))) {
        cr_log_error("read_f64(\"%s%s\"): rc %d, %a, %td bytes; scan_f64: rc %d, %a, %zu bytes", s, tail, rc_read,
                     dr, dec.p - buf, rc, d, want_len);
        return 1;
    }
    char text[160];
    memcpy(text, buf, want_len);
    text[want_len] = 0;
    errno = 0;
    double wd = strtod(text, NULL);
    float wf = strtof(text, NULL);
    if (isinf(wd) ? rc != TAGC_E_RANGE : (rc != 0 || bits64(d) != bits64(wd))) {
        cr_log_error("scan_f64(\"%s\"): rc %d, %a, want %a", text, rc, d, wd);
        bad++;
    }
    if (isinf(wf) ? rc32 != TAGC_E_RANGE : (rc32 != 0 || bits32(f) != bits32(wf))) {
        cr_log_error("scan_f32(\"%s\"): rc %d, %a, want %a", text, rc32, (double)f, (double)wf);
        bad++;
    }
    return bad;
}

Test(scan_float, edge_cases)
{
    c_locale();
    static const char *const cases[] = {
        "0", "-0", "0.0", "-0.0", "-0.000000000000000", "0.000000000000001", "1", "-1", "9999999",
        "-9999999", "12345678", "9999999.999999999999", "9999999.9999999999999", "1.000000000000000000001",
        "123.456789012345678", "1234567.890123456789", "0.1234567890123456789", "0123", "-0123", "00.5",
        "1.", "-", "-.5", ".5", "1.e5", "1e5", "1.5e3", "1.5E+3", "-1.5e-3", "1e400", "-1e400", "1e-400",
        "4.9406564584124654e-324", "1.7976931348623157", "17976931348623157e292", "3.4028235e38",
        "3.4028236e38", "-65.613616999999977", "43.420273000000009", "2.2250738585072011e-308",
        "9007199254740993", "9007199254740993.0", "900719925474099.35", "0.30000000000000004",
        /* the in-line path's edges (num_plain.h): mantissas around 2^53 */
        "9007199.254740991", "9007199.254740992", "9007199.254740993", "9007199.254740994",
        "9007199.254740995", "-9007199.254740993", "900719.9254740993", "9.007199254740993",
        "18014398.50961985", "18014398.50961987", "18014398.509619875", "1801439.8509619873",
        /* 19 and 20 digits, 15 and 16 fraction digits, 7 and 8 integer digits */
        "1234567.890123456789", "1234567.8901234567891", "0.999999999999999", "0.9999999999999999",
        "9999999.999999999", "99999999.99999999", "1.000000000000001", "1.0000000000000001",
        "8.999999999999999999", "9.999999999999999999", "4.35", "1.5", "2.5", "0.5", "-0.5",
        /* halfway between two doubles (ties to even), with the digits that decide it */
        "9007199254740993", "9007199254740995", "1.00000000000000011102230246251565",
        "1.000000000000000111", "1.000000000000000112", "1.00000000000000033306690738754696",
        "0.1000000000000000055511151231257827", "0.10000000000000000555",
        /* trailing and leading zeros */
        "1.000000000000000", "100.000000000000000000", "1000000.000000000000", "0.000000000000100",
        "-0.000000000000000000000000001", "0.0000001", "0.00000000000000000000000000000001",
        /* exponents at Clinger's limits */
        "1e22", "1e23", "-1e22", "1e-22", "1e-23", "9007199254740991e22", "9007199254740992e22",
        "9007199254740993e22", "123456789e-22", "123456789e-23", "1.5e22", "15e-23",
        /* subnormals, overflow */
        "2.4703282292062327e-324", "2.4703282292062328e-324", "4.9406564584124654e-324",
        "2.2250738585072012e-308", "2.225073858507201e-308", "1e-324", "1e-323", "1e308", "1e309",
        "-1e309", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "179769313486231580793728971405301e276",
        /* -0 */
        "-0e5", "-0.0e-5", "-0.000",
    };
    static const char *const tails[] = {"", ",", "]", "}", " ", "e", "E", ".", "x", "5"};
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++)
            bad += check_scan(cases[i], tails[t]);
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

/* num_plain.h's SSE2 shapes: '-' or not, 1 to 8 integer digits, no '.' or 0
 * to 18 fraction digits (the '.' at every position of the first 16 bytes,
 * the number ending before, at and after byte 16 and 20), digit patterns
 * that carry and that do not, followed by digits of a next value, garbage or
 * a grammar error. */
Test(scan_float, plain_shapes)
{
    c_locale();
    static const char *const tails[] = {"", ",", ",12345678901234567890123456789", "x9", "e5", "E-2", ".5", "5", "-"};
    static const char *const digits[] = {"123456789012345678901234567", "999999999999999999999999999",
                                         "100000000000000000000000001", "720575940379279360000000000",
                                         "450359962737049700000000000"}; /* 8 + 18 digits at most */
    static const char *const odd[] = {"-", "-.5", ".5", "01.5", "-01.5", "00", "-00.5", "1.", "-1.", "1.e5", "-1.e5",
                                      "1.5.", "1..5", "--1", "+1", "-0", "0.", "0.0000000000000000001",
                                      "-0.000000000000000001", "1234567.000000000000", "-123456.000000000000"};
    int bad = 0;
    char s[64];
    for (int neg = 0; neg < 2; neg++)
        for (size_t ni = 1; ni <= 8; ni++)
            for (int nf = -1; nf <= 18; nf++) /* -1: no '.' */
                for (size_t d = 0; d < sizeof digits / sizeof digits[0]; d++) {
                    size_t n = 0, k = 0;
                    if (neg)
                        s[n++] = '-';
                    for (size_t i = 0; i < ni; i++)
                        s[n++] = digits[d][k++];
                    if (nf >= 0) {
                        s[n++] = '.';
                        for (int i = 0; i < nf; i++)
                            s[n++] = digits[d][k++];
                    }
                    s[n] = 0;
                    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++)
                        bad += check_scan(s, tails[t]);
                }
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++)
            bad += check_scan(odd[i], tails[t]);
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}

/* 1 to 25 digits with the point anywhere (or none), leading zeros sometimes,
 * an exponent sometimes: the shapes at the fast path's limits (7 integer
 * digits, 15 fraction digits, 19 in all) are all frequent. */
Test(scan_float, random_vs_strtod)
{
    c_locale();
    static const char *const tails[] = {",", "]", "}", "\n", " ", "e", "."};
    int bad = 0;
    char s[64];
    for (int i = 0; i < iters(2000000) && bad < 20; i++) {
        size_t n = 0, nd = 1 + rndn(25);
        if (rndn(2))
            s[n++] = '-';
        size_t point = rndn(4) == 0 ? nd : 1 + rndn((unsigned)nd); /* digits before the point */
        for (size_t k = 0; k < nd; k++) {
            if (k == point)
                s[n++] = '.';
            unsigned r = rndn(10);
            s[n++] = (char)('0' + (rndn(5) == 0 ? (r < 5 ? 0 : 9) : r));
        }
        if (rndn(8) == 0)
            n += (size_t)sprintf(s + n, "e%s%u", rndn(2) ? "-" : "", rndn(330));
        s[n] = 0;
        bad += check_scan(s, tails[rndn(sizeof tails / sizeof tails[0])]);
    }
    cr_assert_eq(bad, 0, "%d mismatches", bad);
}
