/*
 * time.c - time.Time in JSON: RFC 3339 as Go 1.19 writes and reads it.
 *
 * Writing is Time.MarshalJSON: layout RFC3339Nano "2006-01-02T15:04:05.999999999Z07:00"
 * in the time's own offset; the fraction has its trailing zeros trimmed and is
 * left out when zero; "Z" for offset 0, else +hh:mm (hh may take 3 digits for an
 * absurd offset, as Go's appendInt does); an error when the (local) year is
 * outside [0, 9999].
 *
 * Reading is Time.UnmarshalJSON = time.Parse(`"`+RFC3339+`"`, raw bytes), with
 * Go 1.19's leniencies, all reproduced:
 *   - the hour takes one or two digits ("T1:02:03" is accepted);
 *   - month, day, minute, second take exactly two digits; month 1..12, hour
 *     0..23, minute and second 0..59 (no leap second), day 1..days in month;
 *   - a fraction is accepted after the seconds even though the layout has none:
 *     '.' or ',' then one or more digits, any number of them (digits past the
 *     ninth are dropped, not rounded); it may even replace the seconds
 *     ("15:04:.5Z" is 15:04:00.5, an error-overwrite in Go's parse);
 *   - 'T' and 'Z' must be upper case;
 *   - the offset is "Z" or sign, 2 chars, ':', 2 chars, where each 2-char field
 *     is read by Go's atoi: it may itself carry a sign ("+-1:00", "+01:+5") and
 *     is not range checked ("+99:99"). The offset is whole minutes, kept in
 *     offset_min.
 *
 * Dates are proleptic Gregorian with a year 0, as in Go.
 */
#include "tagc.h"

#define TAGC_TIME_SCAN_HERE /* -Os: the one copy of the fast scanner */
#include "time_scan.h"

/* MARK: - Civil dates (H. Hinnant's algorithms, valid for any int64 day count
 * that does not overflow) */

static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y)
{
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int days_in(int m, int64_t y)
{
    static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

/* MARK: - Format */

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* v in [0, 100) */
static inline char *put2(char *p, int v)
{
    memcpy(p, digits2 + 2 * v, 2);
    return p + 2;
}

/* Seconds (from year 1) far beyond year 9999 in either direction: rejected
 * before any arithmetic that could overflow. */
#define TAGC_TIME_SEC_BOUND (INT64_C(1) << 40)

/* The Unix days civil_fast covers: from 400 years before 0000-03-01 to well
 * past 9999-12-31 (2932896), so every year Go can write. */
#define FAST_DAYS_MIN (-719468 - 146097)
#define FAST_DAYS_MAX 3000000

/*
 * The date of Unix day `days` (FAST_DAYS_MIN..FAST_DAYS_MAX) by Neri and
 * Schneider, "Euclidean affine functions and their application to calendar
 * algorithms" (2022): 32-bit multiplications and shifts where civil_from_days
 * divides 64-bit numbers. Days count from 0000-03-01 moved back 400 years
 * (146097 days) so that they are never negative.
 */
#if !defined(__OPTIMIZE_SIZE__)
static void civil_fast(int64_t days, int *y, int *m, int *d)
{
    uint32_t n = (uint32_t)(days + 719468 + 146097);
    uint32_t n1 = 4 * n + 3;
    uint32_t century = n1 / 146097;
    uint32_t n2 = (n1 % 146097) | 3; /* 4 * (day of the century) + 3 */
    uint64_t p2 = (uint64_t)2939745 * n2;
    uint32_t year_of_century = (uint32_t)(p2 >> 32);
    uint32_t day_of_year = (uint32_t)p2 / 2939745 / 4; /* from March 1 */
    uint32_t n3 = 2141 * day_of_year + 197913;
    uint32_t jan_feb = day_of_year >= 306;
    *y = (int)(100 * century + year_of_century + jan_feb) - 400;
    *m = (int)((n3 >> 16) - 12 * jan_feb);
    *d = (int)((n3 & 0xFFFF) / 2141 + 1);
}
#endif

size_t tagc_time_format(char *dst, const tagc_time *t, unsigned profile)
{
    if (t->nsec < 0 || t->nsec >= 1000000000)
        return 0;
    if ((profile & TAGC_TIME_ZONE_UNDER_24H) && (unsigned)(t->offset_min + 1439) > 2 * 1439)
        return 0; /* Go 1.20 on: "timezone hour outside of range [0,23]" */
    if (t->sec < -TAGC_TIME_SEC_BOUND || t->sec > TAGC_TIME_SEC_BOUND)
        return 0;
    int64_t local = tagc_time_unix(t) + (int64_t)t->offset_min * 60;
    int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
    uint32_t sod = (uint32_t)(local - days * 86400);
    int64_t year;
    int month, day;
#if !defined(__OPTIMIZE_SIZE__) /* built for size, the general conversion alone */
    if (days >= FAST_DAYS_MIN && days <= FAST_DAYS_MAX) {
        int y;
        civil_fast(days, &y, &month, &day);
        year = y;
    } else
#endif
    {
        civil_from_days(days, &year, &month, &day);
    }
    if (year < 0 || year > 9999)
        return 0;
    char *p = dst;
    int y = (int)year;
    p = put2(p, y / 100);
    p = put2(p, y % 100);
    *p++ = '-';
    p = put2(p, month);
    *p++ = '-';
    p = put2(p, day);
    *p++ = 'T';
    p = put2(p, (int)(sod / 3600));
    *p++ = ':';
    p = put2(p, (int)(sod / 60 % 60));
    *p++ = ':';
    p = put2(p, (int)(sod % 60));
    if (t->nsec != 0) {
        char frac[9];
        uint32_t u = (uint32_t)t->nsec;
        for (int i = 8; i >= 0; i--) {
            frac[i] = (char)('0' + u % 10);
            u /= 10;
        }
        int n = 9;
        while (frac[n - 1] == '0')
            n--;
        *p++ = '.';
        memcpy(p, frac, (size_t)n);
        p += n;
    }
    if (t->offset_min == 0) {
        *p++ = 'Z';
    } else {
        int zone = t->offset_min;
        if (zone < 0) {
            *p++ = '-';
            zone = -zone;
        } else {
            *p++ = '+';
        }
        int hh = zone / 60;
        if (hh >= 100) { /* Go's appendInt(x, 2) widens as needed */
            *p++ = (char)('0' + hh / 100);
            hh %= 100;
        }
        p = put2(p, hh);
        *p++ = ':';
        p = put2(p, zone % 60);
    }
    return (size_t)(p - dst);
}

/* MARK: - Parse */

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}


/* Go 1.19's time.atoi on a 2-byte field: optional sign, then only digits;
 * strict, Go 1.20's getnum: two digits. */
static bool atoi2(const char *s, int *out, bool strict)
{
    int neg = 0, v = 0;
    size_t i = 0;
    if (!strict && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    for (; i < 2; i++) {
        if (!is_digit(s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return true;
}

size_t tagc_time_scan_zone(const char *s, size_t avail, int64_t local, tagc_time *out, unsigned profile)
{
    size_t i = 19;
    int32_t nsec = 0;
    int offset_min = 0;
    if (s[i] == '.') { /* any number of digits; those past the ninth are dropped */
        if (avail - i < 2 || !is_digit(s[i + 1]))
            return 0;
        i++;
        int nd = 0;
        while (i < avail && is_digit(s[i])) {
            if (nd < 9) {
                nsec = nsec * 10 + (s[i] - '0');
                nd++;
            }
            i++;
        }
        for (; nd < 9; nd++)
            nsec *= 10;
    }
    if (i < avail && s[i] == 'Z') {
        i++;
    } else {
        if (avail - i < 6 || (s[i] != '+' && s[i] != '-') || !is_digit(s[i + 1]) || !is_digit(s[i + 2]) ||
            s[i + 3] != ':' || !is_digit(s[i + 4]) || !is_digit(s[i + 5]))
            return 0;
        int hh = (s[i + 1] - '0') * 10 + (s[i + 2] - '0'), mm = (s[i + 4] - '0') * 10 + (s[i + 5] - '0');
        if ((profile & TAGC_TIME_STRICT_PARSE) && (hh > 24 || mm > 60))
            return 0;
        offset_min = hh * 60 + mm;
        if (s[i] == '-')
            offset_min = -offset_min;
        i += 6;
    }
    out->sec = local - (int64_t)offset_min * 60;
    out->nsec = nsec;
    out->offset_min = (int16_t)offset_min;
    return i;
}

size_t tagc_time_scan(const char *s, size_t avail, tagc_time *out, unsigned profile)
{
    return tagc_time_scan_inline(s, avail, out, profile);
}

int tagc_time_parse(const char *s, size_t len, tagc_time *out, unsigned profile)
{
#if !defined(__OPTIMIZE_SIZE__) /* built for size, the parser alone */
    tagc_time t;
    if (len != 0 && tagc_time_scan_inline(s, len, &t, profile) == len) {
        *out = t;
        return 0;
    }
#endif
    return tagc_time_parse_full(s, len, out, profile);
}

int tagc_time_parse_full(const char *s, size_t len, tagc_time *out, unsigned profile)
{
    bool strict = profile & TAGC_TIME_STRICT_PARSE;
    size_t i = 0;
#define NEED(k)                                                                                    \
    do {                                                                                           \
        if (len - i < (size_t)(k))                                                                 \
            return TAGC_E_SYNTAX;                                                                  \
    } while (0)
#define LIT(c)                                                                                     \
    do {                                                                                           \
        if (i >= len || s[i] != (c))                                                               \
            return TAGC_E_SYNTAX;                                                                  \
        i++;                                                                                       \
    } while (0)
#define TWO(v)                                                                                     \
    do {                                                                                           \
        NEED(2);                                                                                   \
        if (!is_digit(s[i]) || !is_digit(s[i + 1]))                                                \
            return TAGC_E_SYNTAX;                                                                  \
        (v) = (s[i] - '0') * 10 + (s[i + 1] - '0');                                                \
        i += 2;                                                                                    \
    } while (0)

    int year, month, day, hour, min, sec;
    int32_t nsec = 0;
    NEED(4);
    if (!is_digit(s[0]) || !is_digit(s[1]) || !is_digit(s[2]) || !is_digit(s[3]))
        return TAGC_E_SYNTAX;
    year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    i = 4;
    LIT('-');
    TWO(month);
    if (month < 1 || month > 12)
        return TAGC_E_SYNTAX;
    LIT('-');
    TWO(day);
    LIT('T');
    /* stdHour: one or two digits */
    if (i >= len || !is_digit(s[i]))
        return TAGC_E_SYNTAX;
    hour = s[i++] - '0';
    if (i < len && is_digit(s[i]))
        hour = hour * 10 + (s[i++] - '0');
    if (hour >= 24)
        return TAGC_E_SYNTAX;
    LIT(':');
    TWO(min);
    if (min >= 60)
        return TAGC_E_SYNTAX;
    LIT(':');
    /* Seconds: two digits, but Go 1.19's quirk lets a fraction stand in for
     * them: getnum fails and leaves the input alone, then the fraction case
     * below overwrites the error, so "15:04:.5Z" is 15:04:00.5 (Go 1.20 stops
     * at the error). */
    bool frac_now = !strict && len - i >= 2 && (s[i] == '.' || s[i] == ',') && is_digit(s[i + 1]);
    if (frac_now) {
        sec = 0;
    } else {
        TWO(sec);
        if (sec >= 60)
            return TAGC_E_SYNTAX;
    }
    /* A fraction the layout does not ask for: '.' or ',' and >= 1 digits. */
    if (len - i >= 2 && (s[i] == '.' || s[i] == ',') && is_digit(s[i + 1])) {
        i++;
        int nd = 0;
        while (i < len && is_digit(s[i])) {
            if (nd < 9) {
                nsec = nsec * 10 + (s[i] - '0');
                nd++;
            }
            i++;
        }
        for (; nd < 9; nd++)
            nsec *= 10;
    }
    int offset_min;
    if (i < len && s[i] == 'Z') {
        i++;
        offset_min = 0;
    } else {
        NEED(6);
        if (s[i + 3] != ':')
            return TAGC_E_SYNTAX;
        int hh, mm;
        if (!atoi2(s + i + 1, &hh, strict) || !atoi2(s + i + 4, &mm, strict))
            return TAGC_E_SYNTAX;
        if (strict && (hh > 24 || mm > 60)) /* Go 1.20's range check */
            return TAGC_E_SYNTAX;
        offset_min = hh * 60 + mm;
        if (s[i] == '-')
            offset_min = -offset_min;
        else if (s[i] != '+')
            return TAGC_E_SYNTAX;
        i += 6;
    }
    if (i != len)
        return TAGC_E_SYNTAX;
    if (day < 1 || day > days_in(month, year))
        return TAGC_E_SYNTAX;
#undef NEED
#undef LIT
#undef TWO
    int64_t days = days_from_civil(year, month, day);
    int64_t unix_sec = days * 86400 + hour * 3600 + min * 60 + sec - (int64_t)offset_min * 60;
    out->sec = unix_sec - TAGC_TIME_UNIX_OF_ZERO;
    out->nsec = nsec;
    out->offset_min = (int16_t)offset_min;
    return 0;
}

/*
 * Equal means the same instant AND the same offset: then both re-encode to the
 * same bytes (Go's == on time.Time also tells zones apart; Time.Equal would not).
 */
bool tagc_time_equal(const tagc_time *a, const tagc_time *b)
{
    return a->sec == b->sec && a->nsec == b->nsec && a->offset_min == b->offset_min;
}
