/*
 * time_scan.h - the fast path of the RFC 3339 reader, in line in
 * tagc_json_read_time and behind tagc_time_scan. Private to the runtime.
 *
 * It takes only the form Go writes, YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)
 * with every field in range, and returns 0 for anything else: time.c's general
 * parser then decides (it accepts a superset, with Go's leniencies, and gives the
 * same values; tests/runtime/test_strings.c compares the two).
 */
#ifndef TAGC_TIME_SCAN_H
#define TAGC_TIME_SCAN_H

#include "tagc.h"

#include <string.h>

/* Little-endian GNU C, as swar.h's TAGC_SWAR, but in -Os builds too (where
 * TAGC_SWAR is 0): tagc_time_scan is a fast path callers and tests count on.
 * In -Os there is one copy, time.c's, which json_read.c calls. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TAGC_TIME_SWAR 1
#else
#define TAGC_TIME_SWAR 0
#endif

#if TAGC_TIME_SWAR && defined(__OPTIMIZE_SIZE__) && !defined(TAGC_TIME_SCAN_HERE)
static inline size_t tagc_time_scan_inline(const char *s, size_t avail, tagc_time *out, unsigned profile)
{
    return tagc_time_scan(s, avail, out, profile);
}
#elif TAGC_TIME_SWAR
static inline uint64_t time_load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The fixed-position fields as three overlapping words: s[0..8) "YYYY-MM-",
 * s[8..16) "DDTHH:MM", s[11..19) "HH:MM:SS". XOR with the pattern turns digits
 * into 0..9 and the separators into 0; adding 0x76 to a digit byte (0x7F to a
 * separator byte) then sets its top bit exactly when it was out of range. */
#define TIME_PAT_DATE UINT64_C(0x2D30302D30303030)  /* "0000-00-" */
#define TIME_PAT_DAY UINT64_C(0x30303A3030543030)   /* "00T00:00" */
#define TIME_PAT_CLOCK UINT64_C(0x30303A30303A3030) /* "00:00:00" */
#define TIME_ADD_DATE UINT64_C(0x7F76767F76767676)
#define TIME_ADD_CLOCK UINT64_C(0x76767F76767F7676) /* separators at 2 and 5 in both */
#define TIME_HIGH UINT64_C(0x8080808080808080)

/* x ^ pattern has a byte out of range (see above) */
static inline uint64_t time_bad(uint64_t x, uint64_t add)
{
    return ((x + add) | x) & TIME_HIGH;
}

/* Byte i of the result: the two-digit number of bytes i and i+1 (each 0..9). */
static inline uint64_t time_pairs(uint64_t x)
{
    return x * 10 + (x >> 8);
}

/* The rest after "YYYY-MM-DDTHH:MM:SS" (whose seconds from year 1 are local):
 * a fraction, then Z or an offset (time.c); an offset profile's Go rejects
 * (TAGC_TIME_STRICT_PARSE: hour over 24, minute over 60) is left to the parser. */
size_t tagc_time_scan_zone(const char *s, size_t avail, int64_t local, tagc_time *out, unsigned profile);

/* "YYYY-MM-DDTHH:MM:SS" at s (20 bytes readable), every field in range: its
 * seconds from 0001-01-01 in *local. */
static inline bool tagc_time_scan_clock(const char *s, int64_t *local)
{
    /* Days before each month in a year that starts on March 1. */
    static const uint16_t before_month[12] = {306, 337, 0, 31, 61, 92, 122, 153, 184, 214, 245, 275};
    uint64_t a = time_load8(s) ^ TIME_PAT_DATE, b = time_load8(s + 8) ^ TIME_PAT_DAY, c = time_load8(s + 11) ^ TIME_PAT_CLOCK;
    if ((time_bad(a, TIME_ADD_DATE) | time_bad(b, TIME_ADD_CLOCK) | time_bad(c, TIME_ADD_CLOCK)) != 0)
        return false;
    a = time_pairs(a); /* year / 100 at byte 0, year % 100 at 2, month at 5 */
    b = time_pairs(b); /* day at byte 0 */
    c = time_pairs(c); /* hour at byte 0, minute at 3, second at 6 */
    /* The ranges, as a word too (every byte is now at most 99): adding 128 - limit
     * sets a field's top bit when it is >= limit, subtracting 1 when it is 0.
     * Month 1..12, day 1..28 (29..31 are checked against the month below),
     * hour 0..23, minute and second 0..59. */
    uint64_t out_of_range = ((a + (UINT64_C(115) << 40)) | (a - (UINT64_C(1) << 40))) & (UINT64_C(0x80) << 40);
    out_of_range |= ((b + 99) | (b - 1)) & 0x80;
    out_of_range |= (c + UINT64_C(0x0044000044000068)) & UINT64_C(0x0080000080000080);
    unsigned year = (unsigned)(a & 0xFF) * 100 + (unsigned)((a >> 16) & 0xFF);
    unsigned month = (unsigned)(a >> 40) & 0xFF, day = (unsigned)b & 0xFF;
    unsigned hour = (unsigned)c & 0xFF, min = (unsigned)(c >> 24) & 0xFF, sec = (unsigned)(c >> 48) & 0xFF;
    if (TAGC_UNLIKELY(out_of_range != 0)) {
        if (month - 1 >= 12 || hour >= 24 || min >= 60 || sec >= 60 || day == 0)
            return false;
        bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        if (day > (month == 2 ? 28u + leap : 30u + ((0xAD5u >> (month - 1)) & 1)))
            return false;
    }
    /* Days since 0001-01-01 (Hinnant's days_from_civil with the year moved
     * 400 years on, so that nothing is negative; 146403 is 0001-01-01's count). */
    unsigned y = year + 400 - (month <= 2), cent = y / 100;
    int64_t days = (int64_t)(365 * y + y / 4 - cent + cent / 4 + before_month[month - 1] + day - 1) - 146403;
    *local = days * 86400 + (int64_t)(hour * 3600 + min * 60 + sec);
    return true;
}

static inline size_t tagc_time_scan_inline(const char *s, size_t avail, tagc_time *out, unsigned profile)
{
    int64_t local;
    if (avail < 20 || !tagc_time_scan_clock(s, &local))
        return 0;
    if (TAGC_LIKELY(s[19] == 'Z')) {
        out->sec = local;
        out->nsec = 0;
        out->offset_min = 0;
        return 20;
    }
    return tagc_time_scan_zone(s, avail, local, out, profile);
}
#else
static inline size_t tagc_time_scan_inline(const char *s, size_t avail, tagc_time *out, unsigned profile)
{
    (void)s;
    (void)avail;
    (void)out;
    (void)profile;
    return 0;
}
#endif

#endif /* TAGC_TIME_SCAN_H */
