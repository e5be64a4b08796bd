/*
 * float_vectors.c - float formatting and parsing against Go's vectors, without
 * Criterion: for the cross builds (scripts/cross.sh: s390x under qemu, where
 * Criterion is not packaged, and i386 with x87 and with SSE2 floating point).
 *
 *   float_vectors NUMBERS_REF [N]
 *
 * NUMBERS_REF is numbers_ref.go's output (Go's encoding/json text of float64
 * and float32 bit patterns): every line is formatted by tagc_fmt_f64/f32 and
 * compared, and Go's text parsed back by tagc_parse_f64/f32 must give the bits.
 * Then N (default 200000) random bit patterns of each width, and random
 * decimal strings around the hard cases (near halfway between two floats,
 * 19 and more digits, subnormals, big exponents), must round-trip through
 * format and parse. Exits 1 on mismatches (the first 20 printed).
 */
#include "tagc.h"
#include "num_plain.h" /* its tables, compared with num_tables.c */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long bad;

static void fail(const char *what, const char *detail)
{
    if (bad++ < 20)
        fprintf(stderr, "float_vectors: %s: %s\n", what, detail);
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* text[0..n) read as inside a document (tagc_json_scan_f64/f32: followed by
 * "," and padding, so num_plain.h's in-line path takes the plain ones) must
 * give what tagc_parse_f64/f32 give (rc and bits). */
/* text followed by ',', then `after` (more bytes: digits, a next number),
 * then spaces, the document ending `room` bytes after text's start (at least
 * n + 1): num_plain.h reads 32 bytes from the number's start, so room around
 * 32 decides which path reads it. */
static void check_in_doc_at(const char *text, size_t n, int bits, const char *after, size_t room)
{
    char doc[512], msg[600];
    size_t na = strlen(after);
    if (room < n + 1 + na)
        room = n + 1 + na;
    if (room > sizeof doc)
        return;
    memcpy(doc, text, n);
    memset(doc + n, ' ', room - n);
    doc[n] = ',';
    memcpy(doc + n + 1, after, na);
    const char *end = doc + room;
    int rc_doc = -1, rc;
    uint64_t want = 0, got = 0;
    size_t used;
    if (bits == 64) {
        double x = 0, y = 0;
        rc = tagc_parse_f64(text, n, &x);
        used = tagc_json_scan_f64(doc, end, &y, &rc_doc);
        memcpy(&want, &x, sizeof x);
        memcpy(&got, &y, sizeof y);
    } else {
        float x = 0, y = 0;
        uint32_t w32, g32;
        rc = tagc_parse_f32(text, n, &x);
        used = tagc_json_scan_f32(doc, end, &y, &rc_doc);
        memcpy(&w32, &x, sizeof x);
        memcpy(&g32, &y, sizeof y);
        want = w32, got = g32;
    }
    if (used != n || rc_doc != rc || (rc == 0 && got != want)) {
        snprintf(msg, sizeof msg, "%.*s: scan_f%d %zu bytes, rc %d, %llx; parse_f%d rc %d, %llx", (int)n, text, bits,
                 used, rc_doc, (unsigned long long)got, bits, rc, (unsigned long long)want);
        fail("in a document", msg);
    }
}

static void check_in_doc(const char *text, size_t n, int bits)
{
    check_in_doc_at(text, n, bits, "", n + 40);
}

static void check_f64_bits(uint64_t b)
{
    double x, y = 0;
    memcpy(&x, &b, sizeof x);
    if (((b >> 52) & 0x7FF) == 0x7FF)
        return;
    char buf[TAGC_F64_MAX_CHARS + 1], msg[160];
    size_t n = tagc_fmt_f64(buf, x);
    buf[n] = 0;
    check_in_doc(buf, n, 64);
    uint64_t got = 0;
    if (tagc_parse_f64(buf, n, &y) == 0)
        memcpy(&got, &y, sizeof got);
    if (got != b && !(b == 0x8000000000000000ULL && got == 0)) {
        snprintf(msg, sizeof msg, "%016llx writes %s, parsed back as %016llx", (unsigned long long)b, buf,
                 (unsigned long long)got);
        fail("float64 round trip", msg);
    }
}

static void check_f32_bits(uint32_t b)
{
    float x, y = 0;
    memcpy(&x, &b, sizeof x);
    if (((b >> 23) & 0xFF) == 0xFF)
        return;
    char buf[TAGC_F64_MAX_CHARS + 1], msg[160];
    size_t n = tagc_fmt_f32(buf, x);
    buf[n] = 0;
    uint32_t got = 0;
    if (tagc_parse_f32(buf, n, &y) == 0)
        memcpy(&got, &y, sizeof got);
    if (got != b && !(b == 0x80000000u && got == 0)) {
        snprintf(msg, sizeof msg, "%08lx writes %s, parsed back as %08lx", (unsigned long)b, buf,
                 (unsigned long)got);
        fail("float32 round trip", msg);
    }
}

/* The Go vectors: "d HEX16 TEXT" or "f HEX8 TEXT". */
static long check_go(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    char line[256], msg[256];
    long lines = 0;
    while (fgets(line, sizeof line, f)) {
        char kind, hex[32], text[128], out[TAGC_F64_MAX_CHARS + 1];
        if (sscanf(line, "%c %31s %127s", &kind, hex, text) != 3)
            continue;
        lines++;
        uint64_t b = strtoull(hex, NULL, 16), got = 0;
        size_t n;
        int rc;
        if (kind == 'd') {
            double x, y = 0;
            memcpy(&x, &b, sizeof x);
            n = tagc_fmt_f64(out, x);
            rc = tagc_parse_f64(text, strlen(text), &y);
            memcpy(&got, &y, sizeof got);
            check_in_doc(text, strlen(text), 64);
        } else {
            uint32_t u = (uint32_t)b, g32 = 0;
            float x, y = 0;
            memcpy(&x, &u, sizeof x);
            n = tagc_fmt_f32(out, x);
            rc = tagc_parse_f32(text, strlen(text), &y);
            memcpy(&g32, &y, sizeof g32);
            check_in_doc(text, strlen(text), 32);
            got = g32;
        }
        out[n] = 0;
        if (strcmp(out, text) != 0) {
            snprintf(msg, sizeof msg, "%c %s: Go writes %s, tagc %s", kind, hex, text, out);
            fail("format", msg);
        }
        if (rc != 0 || (got != b && !(text[0] == '-' && strcmp(text, "-0") == 0))) {
            snprintf(msg, sizeof msg, "%c %s: %s parses as %llx", kind, hex, text, (unsigned long long)got);
            fail("parse", msg);
        }
    }
    fclose(f);
    return lines;
}

/* Random decimals near the hard cases: each must parse (or be out of range),
 * and the float it gives must round-trip through its own shortest text. (The
 * correctly rounded result itself is checked against strtod by test_numbers,
 * natively.) */
static void check_random_decimals(long n)
{
    char s[400], msg[480];
    for (long i = 0; i < n; i++) {
        size_t len = 0;
        if (rnd() & 1)
            s[len++] = '-';
        unsigned digits = 1 + (unsigned)(rnd() % 40); /* 19+ digits often */
        s[len++] = (char)('1' + rnd() % 9);
        if (digits > 1)
            s[len++] = '.';
        for (unsigned d = 1; d < digits; d++)
            s[len++] = (char)('0' + rnd() % 10);
        if (rnd() % 4 == 0) { /* near halfway: ...5000...0x */
            if (digits == 1)
                s[len++] = '.';
            s[len++] = '5';
            for (unsigned z = (unsigned)(rnd() % 20); z > 0; z--)
                s[len++] = '0';
            s[len++] = (char)('0' + rnd() % 2);
        }
        int e;
        switch (rnd() % 4) {
        case 0:
            e = (int)(rnd() % 40) - 20;
            break;
        case 1:
            e = -330 + (int)(rnd() % 25); /* subnormals and underflow */
            break;
        case 2:
            e = 290 + (int)(rnd() % 25); /* big exponents and overflow */
            break;
        default:
            e = (int)(rnd() % 620) - 310;
        }
        len += (size_t)snprintf(s + len, sizeof s - len, "e%d", e);
        double y = 0;
        int rc = tagc_parse_f64(s, len, &y);
        if (rc != 0) {
            if (rc == TAGC_E_RANGE)
                continue; /* beyond the largest double: Go's range error */
            snprintf(msg, sizeof msg, "%s: error %d", s, rc);
            fail("parse", msg);
            continue;
        }
        uint64_t b;
        memcpy(&b, &y, sizeof b);
        check_f64_bits(b);
        float z = 0;
        if (tagc_parse_f32(s, len, &z) == 0) {
            uint32_t b32;
            memcpy(&b32, &z, sizeof b32);
            check_f32_bits(b32);
        }
    }
}

/* Plain decimals (canada's shape and its limits: 1 to 8 integer digits, up
 * to 18 fraction digits, runs of 0s and 9s, with and without '-', so every
 * length to 21 bytes and the '.' at every position of the first 16 bytes):
 * the in-line path against the general one, followed by spaces or by digits
 * (a next number), the document ending 31 to 40 bytes after the number's
 * start or right after it. */
static void check_plain_decimals(long n)
{
    static const char *const afters[] = {"", "12345678901234567890123456789", "0", "-1.5", "e5", "."};
    char s[64];
    for (long i = 0; i < n; i++) {
        size_t len = 0;
        if (rnd() & 1)
            s[len++] = '-';
        size_t first = len;
        unsigned ni = 1 + (unsigned)(rnd() % 8), nf = (unsigned)(rnd() % 19);
        for (unsigned d = 0; d < ni + nf; d++) {
            if (d == ni)
                s[len++] = '.';
            unsigned r = (unsigned)(rnd() % 14);
            s[len++] = (char)('0' + (r >= 10 ? (r & 1) * 9 : r));
        }
        if (ni > 1 && s[first] == '0')
            s[first] = '1'; /* no leading zero: the grammar's */
        check_in_doc(s, len, 64);
        check_in_doc(s, len, 32);
        const char *after = afters[rnd() % (sizeof afters / sizeof afters[0])];
        size_t room = rnd() % 4 == 0 ? 0 : 31 + (size_t)(rnd() % 10);
        check_in_doc_at(s, len, 64, after, room);
        check_in_doc_at(s, len, 32, after, room);
    }
}

#if TAGC_SWAR
/* num_plain.h's copy of tagc_el_pow10's rows for 10^0 .. 10^-19, and its
 * binary exponents. */
static void check_plain_tables(void)
{
    for (int nf = 0; nf < 20; nf++) {
        char msg[80];
        snprintf(msg, sizeof msg, "10^-%d", nf);
        if (tagc_plain_pow[nf].hi != tagc_el_pow10[-nf - TAGC_EL_MIN][1])
            fail("tagc_plain_pow hi", msg);
        if (tagc_plain_pow[nf].exp2 != (uint64_t)(((217706 * -nf) >> 16) + 1023 + 64 - 2))
            fail("tagc_plain_pow exp2", msg);
    }
}
#endif

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: float_vectors NUMBERS_REF [N]\n");
        return 2;
    }
    long n = argc > 2 ? atol(argv[2]) : 200000;
    long lines = check_go(argv[1]);
    for (long i = 0; i < n; i++) {
        uint64_t b = rnd();
        if (i % 4 == 1)
            b &= 0x800FFFFFFFFFFFFFULL >> (rnd() % 52); /* subnormals */
        check_f64_bits(b);
        check_f32_bits((uint32_t)rnd());
    }
    check_random_decimals(n);
    check_plain_decimals(n);
#if TAGC_SWAR
    check_plain_tables();
#endif
    printf("float_vectors: %ld Go vectors, %ld random of each width, %ld decimals, %ld plain: %lu mismatches\n",
           lines, n, n, n, bad);
    return bad != 0;
}
