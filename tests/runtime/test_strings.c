/*
 * test_strings.c - JSON string escaping/unescaping, UTF-8, base64 and RFC 3339
 * time, compared byte for byte with the Go meson names ($TAGC_GO), under the
 * profile that matches it ($TAGC_GO_PROFILE, test_profile.h).
 *
 * The reference is strings_ref.go, run at test time with `go run` (go from
 * $TAGC_GO, set by meson; unset or empty skips; the .go file from $TAGC_STRINGS_REF
 * or beside this source). It generates the inputs itself (deterministically) and
 * prints what Go's encoding/json, encoding/base64 and time make of each; every
 * line is checked against the C runtime here. Without Go the tests are skipped.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tagc.h"
#include "test_profile.h"

/* MARK: - Reference output */

typedef struct ref_out {
    char *text;
    size_t len;
    size_t pos;
} ref_out;

/* The go program: $TAGC_GO, which meson sets to the toolchain the test names
 * (empty or unset: no Go, the comparisons are skipped). */
static bool find_go(char *out, size_t cap)
{
    const char *env = getenv("TAGC_GO");
    if (env == NULL || *env == 0)
        return false;
    snprintf(out, cap, "%s", env);
    return true;
}

/* strings_ref.go: $TAGC_STRINGS_REF, else beside this source file (__FILE__ is
 * absolute, or relative to the build directory the test runs in, or to its
 * parents). */
static bool find_ref(char *out, size_t cap)
{
    const char *env = getenv("TAGC_STRINGS_REF");
    if (env != NULL && *env) {
        snprintf(out, cap, "%s", env);
        return true;
    }
    const char *file = __FILE__;
    const char *slash = strrchr(file, '/');
    int dir_len = slash ? (int)(slash - file + 1) : 0;
    for (int up = 0; up < 4; up++) {
        char prefix[32] = "";
        for (int k = 0; k < up && file[0] != '/'; k++)
            strcat(prefix, "../");
        snprintf(out, cap, "%s%.*sstrings_ref.go", prefix, dir_len, file);
        if (access(out, R_OK) == 0)
            return true;
        if (file[0] == '/')
            break;
    }
    return false;
}

static void run_ref(const char *mode, ref_out *r)
{
    char go[2048], ref[2048];
    if (!find_go(go, sizeof go))
        cr_skip_test("Go not found: no reference to compare with");
    cr_assert(find_ref(ref, sizeof ref), "strings_ref.go not found (set TAGC_STRINGS_REF)");
    if (getenv("GOCACHE") == NULL && getenv("HOME") == NULL && getenv("XDG_CACHE_HOME") == NULL)
        setenv("GOCACHE", "/tmp/tagc-test-gocache", 0);
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "'%s' run '%s' %s", go, ref, mode);
    cr_assert(n > 0 && (size_t)n < sizeof cmd);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f, "cannot run %s", cmd);
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    for (;;) {
        if (cap - len < 65536) {
            cap *= 2;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        if (got == 0)
            break;
        len += got;
    }
    int st = pclose(f);
    cr_assert(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s failed (status %d)", cmd, st);
    cr_assert(len > 0, "%s printed nothing", cmd);
    buf[len] = 0;
    r->text = buf;
    r->len = len;
    r->pos = 0;
}

/* Next line split into at most 8 space-separated fields (in place); 0 at the end. */
static int next_line(ref_out *r, char **fields)
{
    if (r->pos >= r->len)
        return 0;
    char *line = r->text + r->pos;
    char *nl = memchr(line, '\n', r->len - r->pos);
    cr_assert_not_null(nl, "unterminated reference line");
    *nl = 0;
    r->pos = (size_t)(nl - r->text) + 1;
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " ", &save); t != NULL && n < 8; t = strtok_r(NULL, " ", &save))
        fields[n++] = t;
    return n;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Hex field ("-" = empty) into an exact-size malloc'd block (at least 1 byte so
 * the pointer is valid); sanitizers catch any read past its end. */
static uint8_t *unhex(const char *h, size_t *n)
{
    if (strcmp(h, "-") == 0) {
        *n = 0;
        return malloc(1);
    }
    size_t l = strlen(h);
    cr_assert(l % 2 == 0, "bad hex %s", h);
    uint8_t *p = malloc(l / 2 ? l / 2 : 1);
    cr_assert_not_null(p);
    for (size_t i = 0; i < l / 2; i++) {
        int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);
        cr_assert(a >= 0 && b >= 0, "bad hex %s", h);
        p[i] = (uint8_t)(a << 4 | b);
    }
    *n = l / 2;
    return p;
}

static bool same(const void *a, size_t an, const void *b, size_t bn)
{
    return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

#define MAX_REPORTS 20
#define REPORT(failures, ...)                                                                      \
    do {                                                                                           \
        if ((failures)++ < MAX_REPORTS)                                                            \
            cr_log_error(__VA_ARGS__);                                                             \
    } while (0)

/* MARK: - Escaping */

Test(strings, write_str_matches_go)
{
    ref_out r;
    run_ref("escape", &r);
    char *f[8];
    size_t cases = 0, failures = 0;
    tagc_buf b;
    tagc_buf_init(&b);
    while (next_line(&r, f)) {
        cr_assert_str_eq(f[0], "E");
        bool html = f[1][0] == '1';
        unsigned esc = test_go_profile() | (html ? TAGC_ESC_HTML : 0);
        size_t in_len, exp_len;
        uint8_t *in = unhex(f[2], &in_len);
        uint8_t *exp = unhex(f[3], &exp_len);
        bool valid = f[4][0] == '1';
        cases++;

        /* growable buffer, after some bytes already written */
        tagc_buf_reset(&b);
        tagc_buf_put(&b, "[", 1);
        tagc_json_write_str(&b, (const char *)in, in_len, esc);
        if (b.err != 0 || !same(b.data + 1, b.len - 1, exp, exp_len))
            REPORT(failures, "escape html=%d of %s: got %.*s want %s", html, f[2], (int)(b.len - 1),
                   (const char *)b.data + 1, f[3]);

        /* fixed buffer of exactly the right size, and one byte short */
        uint8_t *mem = malloc(exp_len);
        tagc_buf fb;
        tagc_buf_init_fixed(&fb, mem, exp_len);
        tagc_json_write_str(&fb, (const char *)in, in_len, esc);
        if (fb.err != 0 || !same(fb.data, fb.len, exp, exp_len))
            REPORT(failures, "escape into exact fixed buffer of %s failed (err %d)", f[2], fb.err);
        tagc_buf_init_fixed(&fb, mem, exp_len - 1);
        tagc_json_write_str(&fb, (const char *)in, in_len, esc);
        if (fb.err != TAGC_E_FULL || fb.len != 0)
            REPORT(failures, "escape into short fixed buffer of %s: err %d len %zu", f[2], fb.err,
                   fb.len);
        free(mem);

        if (tagc_utf8_valid((const char *)in, in_len) != valid)
            REPORT(failures, "utf8_valid(%s) != %d", f[2], valid);
        free(in);
        free(exp);
    }
    tagc_buf_free(&b);
    free(r.text);
    cr_log_info("escape: %zu cases", cases);
    cr_assert(cases > 10000);
    cr_assert_eq(failures, 0, "%zu of %zu escape cases differ from Go", failures, cases);
}

/* MARK: - Unescaping and scanning */

static bool plain_ascii(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] >= 0x80 || p[i] == '\\' || p[i] == '"')
            return false;
    return true;
}

Test(strings, unescape_and_scan_match_go)
{
    ref_out r;
    run_ref("unescape", &r);
    char *f[8];
    size_t cases = 0, accepted = 0, failures = 0;
    while (next_line(&r, f)) {
        cr_assert_str_eq(f[0], "U");
        size_t n, exp_len;
        uint8_t *body = unhex(f[1], &n);
        bool ok = f[2][0] == '1';
        uint8_t *exp = unhex(f[3], &exp_len);
        cases++;
        accepted += ok;

        char *dst = malloc(n ? TAGC_UNESCAPE_MAX(n) : 1);
        size_t bad_at = (size_t)-1;
        long got = tagc_json_unescape(dst, (const char *)body, n, &bad_at);
        if (ok) {
            if (got < 0 || !same(dst, (size_t)got, exp, exp_len))
                REPORT(failures, "unescape %s: got %ld, want %s", f[1], got, f[3]);
        } else {
            if (got != TAGC_E_SYNTAX || bad_at > n)
                REPORT(failures, "unescape %s: Go rejects, got %ld bad_at %zu", f[1], got, bad_at);
        }
        free(dst);

        /* the scanner: body followed by the closing quote */
        char *q = malloc(n + 1);
        memcpy(q, body, n);
        q[n] = '"';
        bool needs = false;
        const char *end = tagc_json_scan_str(q, q + n + 1, &needs);
        bool plain = plain_ascii(body, n);
        if (ok) {
            if (end != q + n || needs != !plain)
                REPORT(failures, "scan_str %s: end %td needs %d", f[1], end ? end - q : -1, needs);
            if (!needs && !same(body, n, exp, exp_len))
                REPORT(failures, "scan_str %s: plain body is not its own value", f[1]);
            /* without the quote there is no end */
            if (tagc_json_scan_str(q, q + n, &needs) != NULL)
                REPORT(failures, "scan_str %s: found an end without a quote", f[1]);
        } else if (end != NULL && end != q + n) {
            REPORT(failures, "scan_str %s: end %td", f[1], end - q);
        }
        free(q);
        free(body);
        free(exp);
    }
    free(r.text);
    cr_log_info("unescape: %zu cases, %zu accepted by Go", cases, accepted);
    cr_assert(cases > 5000 && accepted > 1000 && accepted < cases);
    cr_assert_eq(failures, 0, "%zu of %zu unescape cases differ from Go", failures, cases);
}

Test(strings, scan_str_skips_escaped_quotes)
{
    /* derived from the JSON grammar: a backslash escapes the next byte */
    const char *s = "ab\\\"cd\\\\\"tail";
    bool needs = false;
    const char *e = tagc_json_scan_str(s, s + strlen(s), &needs);
    cr_assert_eq(e, s + 8);
    cr_assert(needs);
    const char *t = "0123456789abcdef\\";
    cr_assert_null(tagc_json_scan_str(t, t + strlen(t), &needs));
    const char *u = "0123456789abcdefghij\"";
    cr_assert_eq(tagc_json_scan_str(u, u + strlen(u), &needs), u + 20);
    cr_assert(!needs);
}

/* MARK: - Base64 */

Test(strings, base64_matches_go)
{
    ref_out r;
    run_ref("base64", &r);
    char *f[8];
    size_t enc_cases = 0, dec_cases = 0, dec_ok = 0, failures = 0;
    while (next_line(&r, f)) {
        if (strcmp(f[0], "B") == 0) {
            size_t n, exp_len;
            uint8_t *in = unhex(f[1], &n);
            uint8_t *exp = unhex(f[2], &exp_len);
            enc_cases++;
            size_t el = tagc_base64_encoded_len(n);
            char *dst = malloc(el ? el : 1);
            tagc_base64_encode(dst, in, n);
            if (!same(dst, el, exp, exp_len))
                REPORT(failures, "base64 encode %s: got %.*s want %s", f[1], (int)el, dst, f[2]);
            free(dst);
            free(in);
            free(exp);
        } else {
            cr_assert_str_eq(f[0], "D");
            size_t n, exp_len;
            uint8_t *in = unhex(f[1], &n);
            bool ok = f[2][0] == '1';
            uint8_t *exp = unhex(f[3], &exp_len);
            dec_cases++;
            dec_ok += ok;
            uint8_t *dst = malloc(n * 3 / 4 + 3); /* the documented room */
            long got = tagc_base64_decode(dst, (const char *)in, n);
            if (ok ? (got < 0 || !same(dst, (size_t)got, exp, exp_len)) : got != -1)
                REPORT(failures, "base64 decode %s: got %ld, Go %s %s", f[1], got, ok ? "gives" : "rejects",
                       f[3]);
            free(dst);
            free(in);
            free(exp);
        }
    }
    free(r.text);
    cr_log_info("base64: %zu encodes, %zu decodes (%zu valid)", enc_cases, dec_cases, dec_ok);
    cr_assert(enc_cases > 100 && dec_cases > 1000 && dec_ok > 500 && dec_ok < dec_cases);
    cr_assert_eq(failures, 0, "%zu base64 cases differ from Go", failures);
}

/* MARK: - Time */

Test(strings, time_matches_go)
{
    ref_out r;
    run_ref("time", &r);
    char *f[8];
    size_t fmt_cases = 0, parse_cases = 0, parse_ok = 0, failures = 0;
    while (next_line(&r, f)) {
        if (strcmp(f[0], "F") == 0) {
            tagc_time t;
            t.sec = strtoll(f[1], NULL, 10);
            t.nsec = (int32_t)strtol(f[2], NULL, 10);
            t.offset_min = (int16_t)strtol(f[3], NULL, 10);
            bool ok = f[4][0] == '1';
            size_t exp_len;
            uint8_t *exp = unhex(f[5], &exp_len);
            fmt_cases++;
            char buf[TAGC_TIME_MAX_CHARS];
            size_t n = tagc_time_format(buf, &t, test_go_profile());
            if (ok ? !same(buf, n, exp, exp_len) : n != 0)
                REPORT(failures, "time format %s %s %s: got %.*s, Go %s", f[1], f[2], f[3], (int)n, buf,
                       ok ? f[5] : "fails");
            /* what Go writes, tagc reads back to the same value (offsets of 100 hours
             * or more are written with 3 digits, which RFC 3339 parsing rejects) */
            if (ok && t.offset_min > -6000 && t.offset_min < 6000) {
                tagc_time back;
                if (tagc_time_parse(buf, n, &back, test_go_profile()) != 0 || !tagc_time_equal(&back, &t))
                    REPORT(failures, "time %.*s does not round-trip", (int)n, buf);
            }
            free(exp);
        } else {
            cr_assert_str_eq(f[0], "P");
            size_t n;
            uint8_t *in = unhex(f[1], &n);
            bool ok = f[2][0] == '1';
            tagc_time want;
            want.sec = strtoll(f[3], NULL, 10);
            want.nsec = (int32_t)strtol(f[4], NULL, 10);
            want.offset_min = (int16_t)strtol(f[5], NULL, 10);
            parse_cases++;
            parse_ok += ok;
            tagc_time got = {0, 0, 0};
            int rc = tagc_time_parse((const char *)in, n, &got, test_go_profile());
            if (ok ? (rc != 0 || !tagc_time_equal(&got, &want)) : rc != TAGC_E_SYNTAX)
                REPORT(failures, "time parse %.*s: rc %d got %lld %d %d, Go %s %s %s %s", (int)n, (char *)in,
                       rc, (long long)got.sec, got.nsec, got.offset_min, ok ? "gives" : "rejects", f[3], f[4],
                       f[5]);
            free(in);
        }
    }
    free(r.text);
    cr_log_info("time: %zu formats, %zu parses (%zu valid)", fmt_cases, parse_cases, parse_ok);
    cr_assert(fmt_cases > 1000 && parse_cases > 1000 && parse_ok > 500 && parse_ok < parse_cases);
    cr_assert_eq(failures, 0, "%zu time cases differ from Go", failures);
}

Test(strings, time_equal_means_same_instant_and_offset)
{
    tagc_time a = {100, 5, 60}, b = {100, 5, 60}, c = {100, 5, 0}, d = {100, 6, 60};
    cr_assert(tagc_time_equal(&a, &b));
    cr_assert(!tagc_time_equal(&a, &c));
    cr_assert(!tagc_time_equal(&a, &d));
    /* all-zero is Go's zero time */
    tagc_time z = {0, 0, 0};
    char buf[TAGC_TIME_MAX_CHARS];
    size_t n = tagc_time_format(buf, &z, test_go_profile());
    cr_assert(same(buf, n, "0001-01-01T00:00:00Z", 20));
}

/* MARK: - Time: the fast path against the general parser, without Go */

static uint64_t time_rng(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A timestamp of the form Go writes, fields drawn around and past their ranges
 * (day 0..32 in every month, leap years, hour 0..25, ...), with or without a
 * fraction (1..12 digits, '.' or ','), Z or an offset. */
static size_t time_form(char *buf, uint64_t *x)
{
    static const int years[] = {0, 1, 4, 100, 399, 400, 1600, 1700, 1900, 1970, 2000, 2023, 2024, 2100, 9999};
    int year = time_rng(x) % 2 ? years[time_rng(x) % (sizeof years / sizeof years[0])] : (int)(time_rng(x) % 10000);
    int month = (int)(time_rng(x) % 14), day = (int)(time_rng(x) % 33), hour = (int)(time_rng(x) % 26);
    int min = (int)(time_rng(x) % 62), sec = (int)(time_rng(x) % 62);
    if (time_rng(x) % 4 == 0) { /* mostly valid dates: the common case must be taken too */
        month = 1 + (int)(time_rng(x) % 12);
        day = 1 + (int)(time_rng(x) % 31);
        hour %= 24;
        min %= 60;
        sec %= 60;
    }
    int n = sprintf(buf, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, min, sec);
    uint64_t r = time_rng(x);
    if (r % 3 == 0) {
        buf[n++] = r % 7 == 0 ? ',' : '.';
        int digits = 1 + (int)(time_rng(x) % 12);
        for (int i = 0; i < digits; i++)
            buf[n++] = (char)('0' + time_rng(x) % 10);
    }
    r = time_rng(x);
    if (r % 3 == 0)
        buf[n++] = 'Z';
    else
        n += sprintf(buf + n, "%c%02d:%02d", r % 2 ? '+' : '-', (int)(time_rng(x) % 100), (int)(time_rng(x) % 100));
    return (size_t)n;
}

/* Every input is parsed by tagc_time_scan, tagc_time_parse and the JSON reader
 * (quoted, with and without bytes after it) and compared with
 * tagc_time_parse_full: the fast paths may decline, but what they accept they
 * must read to the same value. */
Test(strings, time_fast_paths_match_general_parser)
{
    static const char bytes[] = "0123456789-:TZ.,+ tz\"\\";
    uint64_t x = 0x2545F4914F6CDD1DULL;
    size_t scanned = 0, accepted = 0;
    char buf[64];
    for (int iter = 0; iter < 400000; iter++) {
        size_t n = time_form(buf, &x);
        uint64_t r = time_rng(&x);
        if (r % 2 == 0) { /* mutate: replace a byte, or cut the end */
            size_t at = (size_t)(time_rng(&x) % n);
            if (r % 8 == 0)
                n = at;
            else
                buf[at] = r % 6 == 0 ? (char)(time_rng(&x) & 0xFF) : bytes[time_rng(&x) % (sizeof bytes - 1)];
        }
        tagc_time want = {0, 0, 0}, got = {0, 0, 0};
        int want_rc = tagc_time_parse_full(buf, n, &want, test_go_profile());
        accepted += want_rc == 0;

        char *exact = malloc(n ? n : 1); /* exact size: ASan sees any read past the end */
        memcpy(exact, buf, n);
        size_t k = tagc_time_scan(exact, n, &got, test_go_profile());
        if (k != 0) {
            scanned += k == n;
            tagc_time prefix;
            cr_assert(k <= n);
            cr_assert_eq(tagc_time_parse_full(exact, k, &prefix, test_go_profile()), 0, "scan took %.*s", (int)k, buf);
            cr_assert(tagc_time_equal(&got, &prefix), "scan %.*s", (int)k, buf);
        }
        int rc = tagc_time_parse(exact, n, &got, test_go_profile());
        cr_assert_eq(rc, want_rc, "parse %.*s", (int)n, buf);
        cr_assert(rc != 0 || tagc_time_equal(&got, &want), "parse %.*s", (int)n, buf);
        free(exact);

        for (int pad = 0; pad <= 40; pad += 40) {
            size_t len = n + 2 + (size_t)pad;
            char *json = malloc(len);
            json[0] = '"';
            memcpy(json + 1, buf, n);
            json[n + 1] = '"';
            memset(json + n + 2, ' ', (size_t)pad);
            tagc_arena arena;
            tagc_error err;
            tagc_json_dec d;
            tagc_arena_init(&arena);
            tagc_json_dec_init(&d, json, len, &arena, &err, NULL);
            tagc_time t = {1, 2, 3};
            rc = tagc_json_read_time_as(&d, &t, test_go_profile());
            /* the reader also rejects what JSON does not allow in a string */
            bool plain = true;
            for (size_t i = 0; i < n; i++)
                plain &= buf[i] != '"' && buf[i] != '\\' && (unsigned char)buf[i] >= 0x20;
            if (plain) {
                cr_assert_eq(rc == 0, want_rc == 0, "read \"%.*s\": rc %d", (int)n, buf, rc);
                if (rc == 0) {
                    cr_assert(tagc_time_equal(&t, &want), "read \"%.*s\"", (int)n, buf);
                    cr_assert_eq(d.p, json + n + 2);
                }
            }
            if (rc != 0) {
                tagc_time untouched = {1, 2, 3};
                cr_assert(tagc_time_equal(&t, &untouched), "a failed read wrote its value: %.*s", (int)n, buf);
            }
            tagc_arena_free(&arena);
            free(json);
        }
    }
    cr_log_info("time: %zu accepted by the parser, %zu whole by the fast path", accepted, scanned);
    cr_assert(scanned > 30000 && accepted > scanned);
}

/* MARK: - UTF-8 runs in unescape, without Go */

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 if none:
 * the well-formed byte sequences of the Unicode Standard, table 3-7. */
static size_t ref_utf8_len(const uint8_t *s, size_t n)
{
    uint8_t c = s[0], lo = 0x80, hi = 0xBF;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    return len;
}

/* What Go's json.Unmarshal makes of a body without escapes or controls:
 * valid sequences are kept, every other byte becomes U+FFFD. */
static size_t ref_unescape_utf8(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        size_t k = ref_utf8_len(s + i, n - i);
        if (k == 0) {
            memcpy(d + w, "\xEF\xBF\xBD", 3);
            w += 3;
            i++;
        } else {
            memcpy(d + w, s + i, k);
            w += k;
            i += k;
        }
    }
    return w;
}

Test(strings, unescape_utf8_runs)
{
    /* bytes around the edges of the continuation and lead ranges */
    static const uint8_t conts[] = {'a', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE3, 0xFF};
    uint64_t x = 0x2545F4914F6CDD1DULL;
    size_t failures = 0;
    uint8_t body[64], want[64 * 3], got[TAGC_UNESCAPE_MAX(64)];
    for (int iter = 0; iter < 300000 && failures < 10; iter++) {
        size_t n = 0, len;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        len = (size_t)(x % 48);
        while (n < len) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            unsigned kind = (unsigned)(x % 16);
            if (kind == 0) {
                body[n++] = (uint8_t)('a' + (x >> 8) % 26);
            } else if (kind == 1) {
                body[n++] = (uint8_t)(0x80 | (x >> 8));
            } else { /* a three-byte lead, mostly valid continuations after it */
                body[n++] = (uint8_t)(0xE0 | ((x >> 8) & 0x0F));
                for (int k = 0; k < 2 && n < len; k++) {
                    unsigned r = (unsigned)(x >> (16 + 8 * k));
                    body[n++] = (r & 0xF0) ? (uint8_t)(0x80 | (r & 0x3F)) : conts[r % sizeof conts];
                }
            }
        }
        size_t bad_at = (size_t)-1;
        size_t wn = ref_unescape_utf8(want, body, n);
        long gn = tagc_json_unescape((char *)got, (const char *)body, n, &bad_at);
        if (gn < 0 || !same(got, (size_t)gn, want, wn)) {
            char hex[200];
            for (size_t i = 0; i < n; i++)
                sprintf(hex + 2 * i, "%02x", body[i]);
            REPORT(failures, "unescape %s: got %ld bytes, want %zu", n ? hex : "-", gn, wn);
        }
    }
    cr_assert_eq(failures, 0);
}

/* MARK: - Unescaping at block width (16 with SSE2, 32 with AVX2) against a byte loop */

static int ref_hex(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
        return (c | 0x20) - 'a' + 10;
    return -1;
}

/* The value of "\uXXXX" at s (n bytes left), -1 if it is not one. */
static long ref_u4(const uint8_t *s, size_t n)
{
    if (n < 6 || s[0] != '\\' || s[1] != 'u')
        return -1;
    long r = 0;
    for (int k = 2; k < 6; k++) {
        int h = ref_hex(s[k]);
        if (h < 0)
            return -1;
        r = r * 16 + h;
    }
    return r;
}

static size_t ref_put_rune(uint8_t *d, uint32_t r)
{
    if (r < 0x80) {
        d[0] = (uint8_t)r;
        return 1;
    }
    if (r < 0x800) {
        d[0] = (uint8_t)(0xC0 | r >> 6), d[1] = (uint8_t)(0x80 | (r & 0x3F));
        return 2;
    }
    if (r < 0x10000) {
        d[0] = (uint8_t)(0xE0 | r >> 12), d[1] = (uint8_t)(0x80 | (r >> 6 & 0x3F)), d[2] = (uint8_t)(0x80 | (r & 0x3F));
        return 3;
    }
    d[0] = (uint8_t)(0xF0 | r >> 18), d[1] = (uint8_t)(0x80 | (r >> 12 & 0x3F));
    d[2] = (uint8_t)(0x80 | (r >> 6 & 0x3F)), d[3] = (uint8_t)(0x80 | (r & 0x3F));
    return 4;
}

/* tagc_json_unescape a byte at a time, by Go's rules (scanner.go, unquote,
 * utf8.DecodeRune): the length written, or -1 with *bad_at where the first
 * problem is (the control or quote; the letter after a bad backslash; the first
 * bad hex digit; n when the input ends inside an escape). */
static long ref_unescape(uint8_t *d, const uint8_t *s, size_t n, size_t *bad_at)
{
    size_t w = 0, i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c >= 0x80) {
            size_t k = ref_utf8_len(s + i, n - i);
            if (k == 0) {
                memcpy(d + w, "\xEF\xBF\xBD", 3);
                w += 3, i++;
            } else {
                memcpy(d + w, s + i, k);
                w += k, i += k;
            }
            continue;
        }
        if (c < 0x20 || c == '"') {
            *bad_at = i;
            return -1;
        }
        if (c != '\\') {
            d[w++] = c, i++;
            continue;
        }
        if (i + 1 >= n) {
            *bad_at = n;
            return -1;
        }
        const char *simple = strchr("\"\\/bfnrt", s[i + 1]);
        if (s[i + 1] != 0 && simple != NULL) {
            d[w++] = (uint8_t)"\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
            i += 2;
            continue;
        }
        if (s[i + 1] != 'u') {
            *bad_at = i + 1;
            return -1;
        }
        for (size_t j = 2; j < 6; j++) {
            if (i + j >= n) {
                *bad_at = n;
                return -1;
            }
            if (ref_hex(s[i + j]) < 0) {
                *bad_at = i + j;
                return -1;
            }
        }
        long r = ref_u4(s + i, n - i);
        i += 6;
        if (r >= 0xD800 && r < 0xE000) {
            long r2 = ref_u4(s + i, n - i);
            if (r < 0xDC00 && r2 >= 0xDC00 && r2 < 0xE000) {
                w += ref_put_rune(d + w, 0x10000 + (uint32_t)((r - 0xD800) << 10 | (r2 - 0xDC00)));
                i += 6;
                continue;
            }
            r = 0xFFFD;
        }
        w += ref_put_rune(d + w, (uint32_t)r);
    }
    return (long)w;
}

/* One body through tagc_json_unescape and the reference: the body in a buffer
 * of its exact size, the output in one of the room callers give (n bytes when
 * the result is no longer than the body, as any.c's valid UTF-8, else
 * TAGC_UNESCAPE_MAX), so ASan sees a read or write past either. */
static bool unescape_agrees(const uint8_t *src, size_t n, char *why, size_t why_cap)
{
    uint8_t *body = malloc(n ? n : 1);
    uint8_t *want = malloc(n ? TAGC_UNESCAPE_MAX(n) : 1);
    memcpy(body, src, n);
    size_t want_bad = (size_t)-2, got_bad = (size_t)-2;
    long wn = ref_unescape(want, body, n, &want_bad);
    size_t room = wn >= 0 && (size_t)wn <= n ? n : TAGC_UNESCAPE_MAX(n);
    uint8_t *got = malloc(room ? room : 1);
    long gn = tagc_json_unescape((char *)got, (const char *)body, n, &got_bad);
    bool ok = wn < 0 ? gn == TAGC_E_SYNTAX && got_bad == want_bad : gn == wn && memcmp(got, want, (size_t)wn) == 0;
    if (!ok) {
        size_t k = (size_t)snprintf(why, why_cap, "n %zu: got %ld bad_at %zu, want %ld bad_at %zu; body ", n, gn,
                                    got_bad, wn, want_bad);
        for (size_t i = 0; i < n && k + 3 < why_cap; i++, k += 2)
            snprintf(why + k, why_cap - k, "%02x", body[i]);
    }
    free(body);
    free(want);
    free(got);
    return ok;
}

/* What goes between the plain bytes of the test bodies: valid characters of
 * each length, escapes (a surrogate pair, lone halves), and every kind of bad
 * UTF-8 (stray continuations, C0/C1/F5+ leads, overlongs, surrogates, above
 * U+10FFFF, sequences cut short). */
static const char *const unescape_pieces[] = {
    "\xC3\xA9", "\xE3\x81\x82", "\xE4\xB8\x96", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBF",
    "\xE2\x80\xA8", "\xE2\x80\xA9", "\xED\x9F\xBF", "\xEE\x80\x80", "\xE0\xA0\x80", "\xF0\x90\x80\x80",
    "\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xC2", "\xDF", "\xE0\x80\x80", "\xE0\x9F\xBF", "\xED\xA0\x80",
    "\xED\xBF\xBF", "\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF",
    "\xFE", "\xE3\x81", "\xF0\x9F\x98", "\xF0\x9F", "\xC3\xA9\xA9", "\xE3\x81\x82\x82",
    "\\n", "\\\"", "\\\\", "\\/", "\\t", "\\u00e9", "\\u3042", "\\uD83D\\uDE00", "\\uD83D", "\\uDE00",
    "\\uD83Dx", "\\uD83D\\u0041", "\\u0000",
    /* a bad lead, then an escape: not the context of what follows */
    "\xF0\\n\x80", "\xFE\\n\\u0041", "\xE3\\t\x81\x82",
};

/* A body of n bytes: plain ASCII, runs of CJK, and pieces, from the seed x. */
static size_t unescape_random_body(uint8_t *b, size_t n, uint64_t *x)
{
    size_t k = 0;
    size_t npieces = sizeof unescape_pieces / sizeof unescape_pieces[0];
    while (k < n) {
        *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
        unsigned r = (unsigned)(*x % 100);
        const char *add;
        char one[2] = {0, 0};
        if (r < 45) {
            one[0] = (char)('a' + (*x >> 8) % 26);
            add = one;
        } else if (r < 75) {
            add = "\xE3\x81\x82"; /* a run of Japanese */
        } else if (r < 97) {
            add = unescape_pieces[(*x >> 8) % npieces];
        } else if (r < 98) { /* errors: a control, a quote, a bad escape, a lone backslash */
            static const char *const errors[] = {"\x01", "\x1F", "\"", "\\x", "\\u12", "\\"};
            add = errors[(*x >> 8) % 6];
        } else {
            add = "\xC3\xA9";
        }
        size_t len = strlen(add);
        if (k + len > n)
            len = n - k; /* cut: a sequence or an escape may end with the input */
        memcpy(b + k, add, len);
        k += len;
    }
    return k;
}

/* Random bodies of 0..299 bytes (some of 2 000), compared with the byte loop;
 * test_strings runs as the machine is (AVX2: 32-byte blocks), with TAGC_CPU=sse2
 * (16) and as test_strings_plain (no vector code), so the three paths are each
 * held to the same reference. */
Test(strings, unescape_matches_byte_loop)
{
    static uint8_t body[2000];
    char why[600];
    uint64_t x = 0xD1B54A32D192ED03ULL;
    size_t failures = 0;
    for (int iter = 0; iter < 60000 && failures < 10; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = iter % 100 == 0 ? 2000 : (size_t)(x % 300);
        n = unescape_random_body(body, n, &x);
        if (!unescape_agrees(body, n, why, sizeof why))
            REPORT(failures, "%s", why);
    }
    cr_assert_eq(failures, 0);
}

/* Each piece at every offset 0..70 of a body (so at each place of a 16- and a
 * 32-byte block, split across block ends, cut by the end of the input), after
 * ASCII or after a run of valid 3-byte characters (so the check sees what
 * comes before), followed by 0..40 bytes of ASCII or CJK. */
Test(strings, unescape_pieces_at_every_offset)
{
    char why[600];
    size_t failures = 0;
    uint8_t body[200];
    size_t npieces = sizeof unescape_pieces / sizeof unescape_pieces[0];
    for (size_t p = 0; p < npieces; p++) {
        const char *piece = unescape_pieces[p];
        size_t plen = strlen(piece);
        for (size_t off = 0; off <= 70; off++) {
            for (int fill = 0; fill < 2; fill++) {
                for (size_t after = 0; after <= 40; after += after < 4 ? 1 : 3) {
                    size_t n = 0;
                    for (size_t k = 0; k < off; k++)
                        body[n++] = fill == 0 ? (uint8_t)('a' + k % 26) : (uint8_t)"\xE4\xB8\x96"[k % 3];
                    memcpy(body + n, piece, plen);
                    n += plen;
                    for (size_t k = 0; k < after; k++)
                        body[n++] = fill == 0 ? (uint8_t)"\xE3\x81\x82"[k % 3] : (uint8_t)('A' + k % 26);
                    if (!unescape_agrees(body, n, why, sizeof why))
                        REPORT(failures, "piece %zu at %zu: %s", p, off, why);
                }
            }
        }
    }
    cr_assert_eq(failures, 0);
}

/* MARK: - Whitespace */

Test(strings, skip_ws_matches_byte_loop)
{
    /* the four JSON whitespace bytes, and bytes next to them that are not */
    static const char alphabet[] = "    \n\n\t\r \x0b\x0c\x1f!\"x\x80";
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    char buf[80];
    for (int iter = 0; iter < 200000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = (size_t)(x % sizeof buf), ws = (size_t)((x >> 8) % (n + 1));
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* a run of whitespace of random length, then anything */
            buf[i] = i < ws ? " \n\t\r"[x % 4] : alphabet[x % (sizeof alphabet - 1)];
        }
        char *p = malloc(n ? n : 1); /* exact size: ASan sees any read past the end */
        memcpy(p, buf, n);
        size_t want = 0;
        while (want < n && (p[want] == ' ' || p[want] == '\n' || p[want] == '\t' || p[want] == '\r'))
            want++;
        const char *got = tagc_json_skip_ws(p, p + n);
        cr_assert_eq(got, p + want, "n %zu: skipped %td, want %zu", n, got - p, want);
        free(p);
    }
}

/* MARK: - The scanner's block paths (SWAR, SSE2, AVX2) */

/* tagc_json_scan_str, a byte at a time. */
static const char *ref_scan(const char *q, const char *end, bool *needs)
{
    *needs = false;
    while (q < end) {
        unsigned char c = (unsigned char)*q;
        if (c == '"')
            return q;
        if (c == '\\') {
            *needs = true;
            if (end - q < 2)
                return NULL;
            q += 2;
            continue;
        }
        if (c < 0x20 || c >= 0x80)
            *needs = true;
        q++;
    }
    return NULL;
}

/* Bodies of 0..200 bytes, mostly plain ASCII with a few quotes, backslashes,
 * controls and bytes >= 0x80 put anywhere (so at every offset of 16- and
 * 32-byte blocks), each in a buffer of exactly its size, scanned from every
 * start. test_strings also runs with TAGC_CPU=sse2 (meson), so both the AVX2
 * and the SSE2 block paths are compared on an AVX2 machine. */
Test(strings, scan_str_matches_byte_loop)
{
    static const char special[] = {'"', '\\', 0x01, 0x1f, (char)0x80, (char)0xc3, (char)0xff, ' ', '~'};
    uint64_t seed = 0x243F6A8885A308D3u;
    for (int iter = 0; iter < 6000; iter++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        size_t n = (size_t)(seed >> 33) % 201;
        char *buf = malloc(n ? n : 1);
        cr_assert(buf != NULL);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            unsigned r = (unsigned)(seed >> 40) % 64;
            buf[i] = r < 3 ? special[(seed >> 20) % sizeof special] : (char)('a' + r % 26);
        }
        for (size_t off = 0; off <= n; off += 1 + off / 8) {
            bool want_needs, got_needs = false;
            const char *want = ref_scan(buf + off, buf + n, &want_needs);
            const char *got = tagc_json_scan_str(buf + off, buf + n, &got_needs);
            cr_assert_eq(got, want, "length %zu, from %zu: end %td, expected %td", n, off,
                         got ? got - buf : -1, want ? want - buf : -1);
            if (want != NULL)
                cr_assert_eq(got_needs, want_needs, "length %zu, from %zu: needs", n, off);
        }
        free(buf);
    }
}
