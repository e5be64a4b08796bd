/*
 * json_read.c - the JSON decoder cursor: the primitives generated decoders call
 * to read scalars, strings, objects and arrays. Each skips leading whitespace,
 * reads one value and returns 0, or a TAGC_E_* code with d->err set at the
 * offending byte. Errors name what was expected and what was found, as Go does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tagc.h"

#include "num_plain.h"
#include "swar.h"
#include "time_scan.h"

/* SSE2 (every x86-64): plain strings are scanned 16 bytes a step
 * (-DTAGC_NO_SIMD leaves it out: the portable path, tested on x86 too). */
#if defined(__SSE2__) && defined(__GNUC__) && !defined(TAGC_NO_SIMD)
#include <emmintrin.h>
#define JSON_READ_SSE2 1
#else
#define JSON_READ_SSE2 0
#endif

/* The general paths behind small fast ones stay out of line, so that the fast
 * ones need no stack frame. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* MARK: - Errors */

int tagc_json_fail(tagc_json_dec *d, int code, const char *fmt, ...)
{
    va_list ap;
    char msg[TAGC_MESSAGE_MAX];
    if (d->q_open) { /* inside a `string`-option value: point at its quote */
        d->p = d->q_open;
        d->q_open = NULL;
        tagc_json_set_end(d, d->q_end);
        if (code == TAGC_E_SYNTAX || code == TAGC_E_EOF)
            code = TAGC_E_TYPE; /* valid JSON, a misuse of ,string (as Go says) */
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tagc_error_set(d->err, code, (size_t)(d->p - d->start), "%s", msg);
}

int tagc_json_fail_key(tagc_json_dec *d, int rc, const char *key, size_t len)
{
    tagc_error_push_key(d->err, key, len);
    return rc;
}

int tagc_json_fail_index(tagc_json_dec *d, int rc, size_t index)
{
    tagc_error_push_index(d->err, index);
    return rc;
}

bool tagc_json_null_slow(tagc_json_dec *d)
{
    const char *p = d->p;
    /* MarshalIndent's one space after ':', before a value that is not null */
    if (d->end - p >= 2 && *p == ' ' && (unsigned char)p[1] > ' ' && p[1] != 'n') {
        d->p = p + 1;
        return false;
    }
    tagc_json_ws(d);
    if (d->p < d->end && *d->p == 'n' && d->end - d->p >= 4 && memcmp(d->p, "null", 4) == 0) {
        d->p += 4;
        return true;
    }
    return false;
}

/* How much of the literal lit (n bytes) is at d->p: n when all of it. */
static size_t literal_prefix(const tagc_json_dec *d, const char *lit, size_t n)
{
    size_t i = 0;
    while (i < n && d->p + i < d->end && d->p[i] == lit[i])
        i++;
    return i;
}

static const char *literal_at(const tagc_json_dec *d)
{
    switch (*d->p) {
    case 't': return "true";
    case 'f': return "false";
    case 'n': return "null";
    default: return NULL;
    }
}

static const char *kind_at(const tagc_json_dec *d)
{
    if (d->p >= d->end)
        return NULL;
    const char *lit = literal_at(d);
    if (lit && literal_prefix(d, lit, strlen(lit)) != strlen(lit))
        return NULL; /* a broken literal is no value */
    switch (*d->p) {
    case '"': return "string";
    case '{': return "object";
    case '[': return "array";
    case 't': case 'f': return "boolean";
    case 'n': return "null";
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': return "number";
    default: return NULL;
    }
}

/* The value at d->p is not what was wanted: a type error when it is some other
 * JSON value, else a syntax error (or the end of the input). */
static int unexpected(tagc_json_dec *d, const char *want)
{
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input, expected %s", want);
    const char *found = kind_at(d);
    if (found)
        return tagc_json_fail(d, TAGC_E_TYPE, "expected %s, found %s", want, found);
    const char *lit = literal_at(d);
    if (lit) { /* tru}, nul: point at the first wrong byte, or at the end */
        d->p += literal_prefix(d, lit, strlen(lit));
        if (d->p >= d->end)
            return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input in literal %s", lit);
        return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character in literal %s", lit);
    }
    unsigned char c = (unsigned char)*d->p;
    if (c >= 0x20 && c < 0x7f)
        return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '%c' looking for beginning of value", c);
    return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid byte 0x%02x looking for beginning of value", c);
}

/* MARK: - Scalars */

int tagc_json_read_bool_slow(tagc_json_dec *d, bool *out)
{
    tagc_json_ws(d);
    size_t left = (size_t)(d->end - d->p);
    if (left >= 4 && memcmp(d->p, "true", 4) == 0) {
        *out = true;
        d->p += 4;
        return 0;
    }
    if (left >= 5 && memcmp(d->p, "false", 5) == 0) {
        *out = false;
        d->p += 5;
        return 0;
    }
    return unexpected(d, "boolean");
}

static const char *digits(const char *p, const char *end)
{
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    return p;
}

/* The first byte where the number starting at p breaks the grammar (or end). */
static const char *bad_number_byte(const char *p, const char *end)
{
    if (p < end && *p == '-')
        p++;
    if (p >= end || *p < '0' || *p > '9')
        return p;
    p = *p == '0' ? p + 1 : digits(p, end);
    if (p < end && *p == '.') {
        const char *q = digits(p + 1, end);
        if (q == p + 1)
            return q;
        p = q;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        const char *q = digits(p, end);
        if (q == p)
            return q;
    }
    return p;
}

/* The number at d->p, measured; 0 (with the error set) when there is none. */
static size_t number_at(tagc_json_dec *d, const char *want)
{
    size_t n = tagc_json_number_len(d->p, d->end);
    if (n == 0) {
        if (d->p < d->end && (*d->p == '-' || (*d->p >= '0' && *d->p <= '9'))) {
            d->p = bad_number_byte(d->p, d->end);
            tagc_json_fail(d, d->p == d->end ? TAGC_E_EOF : TAGC_E_SYNTAX, "invalid number");
        } else {
            unexpected(d, want);
        }
    }
    return n;
}

/* Inside a `string`-option value Go parses integers with strconv.ParseInt:
 * leading zeros are allowed there. Returns the length of -?[0-9]+ at d->p. */
static size_t quoted_int_len(const tagc_json_dec *d)
{
    const char *p = d->p;
    if (p < d->end && (*p == '-' || (*p == '+' && d->q_strconv))) /* Go 1.27: ParseInt's '+' */
        p++;
    const char *digits = p;
    while (p < d->end && *p >= '0' && *p <= '9')
        p++;
    return p > digits ? (size_t)(p - d->p) : 0;
}

/* The fast path of integer reading: at most 19 digits (which always fit a
 * uint64_t) with no fraction, exponent or further digit after them. Returns the
 * byte after the number and sets *neg and *mag, or NULL for everything else
 * (errors, big numbers, `string`-option text), which the exact path handles. */
static inline const char *short_int(const tagc_json_dec *d, bool *neg, uint64_t *mag)
{
    const char *p = d->p, *end = d->end;
    if (d->q_open)
        return NULL;
    *neg = p < end && *p == '-';
    p += *neg;
    if (p >= end || !IS_DIGIT(*p))
        return NULL;
    uint64_t v = (uint64_t)(*p++ - '0');
    if (v != 0) {
        const char *stop = end - p > 18 ? p + 18 : end;
#if TAGC_SWAR
        if (stop - p >= 8 && is_8digits(load8(p))) {
            v = v * 100000000 + parse_8digits(load8(p));
            p += 8;
            if (stop - p >= 8 && is_8digits(load8(p))) {
                v = v * 100000000 + parse_8digits(load8(p));
                p += 8;
            }
        }
#endif
        while (p < stop && IS_DIGIT(*p))
            v = v * 10 + (uint64_t)(*p++ - '0');
    }
    if (p < end && (IS_DIGIT(*p) || *p == '.' || *p == 'e' || *p == 'E'))
        return NULL;
    *mag = v;
    return p;
}

int tagc_json_read_int(tagc_json_dec *d, int64_t *out, int64_t min, int64_t max)
{
    int64_t v;
    bool neg;
    uint64_t mag;
    tagc_json_ws(d);
    const char *after = short_int(d, &neg, &mag);
    if (TAGC_LIKELY(after != NULL) && mag <= (uint64_t)INT64_MAX) {
        v = neg ? -(int64_t)mag : (int64_t)mag;
        if (TAGC_LIKELY(v >= min && v <= max)) {
            *out = v;
            d->p = after;
            return 0;
        }
    }
    size_t n = d->q_open ? quoted_int_len(d) : 0;
    if (n == 0 && (n = number_at(d, "number")) == 0)
        return d->err->code;
    int rc = d->q_open ? tagc_go_parse_int(d->p, n, &v) : tagc_parse_i64(d->p, n, &v);
    if (rc == 0 && (v < min || v > max))
        rc = TAGC_E_RANGE;
    if (rc != 0)
        return tagc_json_fail(d, rc, "cannot store %.*s in an integer field of range [%lld, %lld]",
                              (int)(n > 40 ? 40 : n), d->p, (long long)min, (long long)max);
    *out = v;
    d->p += n;
    return 0;
}

int tagc_json_read_uint(tagc_json_dec *d, uint64_t *out, uint64_t max)
{
    uint64_t v;
    bool neg;
    tagc_json_ws(d);
    const char *after = short_int(d, &neg, &v);
    if (TAGC_LIKELY(after != NULL) && !neg && v <= max) {
        *out = v;
        d->p = after;
        return 0;
    }
    size_t n = d->q_open ? quoted_int_len(d) : 0;
    if (n == 0 && (n = number_at(d, "number")) == 0)
        return d->err->code;
    int rc = d->q_open ? tagc_go_parse_uint(d->p, n, &v) : tagc_parse_u64(d->p, n, &v);
    if (rc == 0 && v > max)
        rc = TAGC_E_RANGE;
    if (rc != 0)
        return tagc_json_fail(d, rc, "cannot store %.*s in an unsigned field of range [0, %llu]",
                              (int)(n > 40 ? 40 : n), d->p, (unsigned long long)max);
    *out = v;
    d->p += n;
    return 0;
}

static NOINLINE int read_f64_general(tagc_json_dec *d, double *out)
{
    int rc = 0;
    if (TAGC_UNLIKELY(d->q_open != NULL)) /* Go's strconv grammar (num_go.c) */
        return tagc_json_read_quoted_float(d, 64, out);
    tagc_json_ws(d);
    size_t n = tagc_json_scan_f64(d->p, d->end, out, &rc);
    if (TAGC_UNLIKELY(n == 0))
        return number_at(d, "number") == 0 ? d->err->code : tagc_json_fail(d, TAGC_E_SYNTAX, "invalid number");
    if (TAGC_UNLIKELY(rc != 0))
        return tagc_json_fail(d, rc, "number %.*s out of range for float64", (int)(n > 40 ? 40 : n), d->p);
    d->p += n;
    return 0;
}

/* The plain float right at the cursor (canada's) converted in line, with no
 * call and no stack frame; whitespace before it, anything else and the rare
 * float whose rounding needs more work go to the general path. */
int tagc_json_read_f64(tagc_json_dec *d, double *out)
{
#if TAGC_SWAR
    const char *after;
    if (TAGC_LIKELY(d->q_open == NULL) && TAGC_LIKELY((after = plain_f64(d->p, d->end, out)) != NULL)) {
        d->p = after;
        return 0;
    }
#endif
    return read_f64_general(d, out);
}

int tagc_json_read_f32(tagc_json_dec *d, float *out)
{
    int rc = 0;
    if (TAGC_UNLIKELY(d->q_open != NULL)) { /* Go's strconv grammar (num_go.c) */
        double v;
        if ((rc = tagc_json_read_quoted_float(d, 32, &v)) == 0)
            *out = (float)v; /* exact: v was rounded to float */
        return rc;
    }
    tagc_json_ws(d);
    size_t n = tagc_json_scan_f32(d->p, d->end, out, &rc);
    if (TAGC_UNLIKELY(n == 0))
        return number_at(d, "number") == 0 ? d->err->code : tagc_json_fail(d, TAGC_E_SYNTAX, "invalid number");
    if (TAGC_UNLIKELY(rc != 0))
        return tagc_json_fail(d, rc, "number %.*s out of range for float32", (int)(n > 40 ? 40 : n), d->p);
    d->p += n;
    return 0;
}

/* MARK: - Arrays of floats */

/* -Os: the array steps out of line (the same results: the in-line ones are
 * their common cases) */
#if defined(__OPTIMIZE_SIZE__)
#define F64_ARR_BEGIN(d) tagc_json_arr_begin(d)
#define F64_ARR_NEXT(d) tagc_json_arr_next(d, &(d)->first)
#else
#define F64_ARR_BEGIN(d) tagc_json_arr_begin_inline(d)
#define F64_ARR_NEXT(d) tagc_json_arr_next_inline(d)
#endif

/* The generated loops these functions replace, element by element; the in-line
 * paths below hand over to them where they stop, in the same state. */
static NOINLINE int f64_array_general(tagc_json_dec *d, double *v, size_t n)
{
    size_t i = 0;
    int rc;
    if (tagc_json_null(d))
        return 0;
    if ((rc = F64_ARR_BEGIN(d)) != 0)
        return rc;
    d->first = true;
    while ((rc = F64_ARR_NEXT(d)) > 0) {
        if (i < n) {
            if (!tagc_json_null(d) && (rc = tagc_json_read_f64(d, &v[i])) != 0)
                return tagc_json_fail_index(d, rc, i);
        } else if ((rc = tagc_json_skip(d)) != 0) { /* Go reads and drops the extra ones */
            return tagc_json_fail_index(d, rc, i);
        }
        i++;
    }
    if (rc < 0)
        return rc;
    for (; i < n; i++) /* and zeroes the missing ones */
        v[i] = 0;
    return 0;
}

#if TAGC_SWAR && !defined(TAGC_NO_F64_ARRAY_FAST)
#define F64_ARRAY_FAST 1
/* The bytes f64_array_fast can read: '[', n times a separator, an indent (a
 * newline and 31 bytes at most: tagc_json_indent_hit_wtl) and a plain float
 * (20 bytes at most, but plain_f64_at reads the 32 from its start), then ']'
 * after its indent: 53 bytes an element and 33 for the ']', rounded up. With
 * more than that left, every byte it reads is inside the input, and neither
 * the float nor the indent's compare tests the end. */
#define F64_ARRAY_NEED(n) ((n) * 58 + 34)

/* one element at p: a plain float right there or after an indent of w_in bytes
 * (no token test after the indent: plain_f64_at fails on whitespace, and a NULL
 * sends the whole array to the general path; no end test: F64_ARRAY_NEED
 * counts the hit's and the float's reads, and the run is not inside a `string` value) */
static TAGC_ALWAYS_INLINE const char *f64_element_fast(const tagc_json_dec *d, const char *p, double *out, unsigned w_in)
{
    if (*p == '\n' && (p = tagc_json_indent_hit_wtl(d, p, w_in, false, false)) == NULL)
        return NULL;
    return plain_f64_at(p, out, true); /* the callers test the byte after it: ',' ']' or '\n' */
}

/* the ']' at q (after the last element), right there or after an indent of
 * w_out bytes (no token test: the ']' is the test) */
static TAGC_ALWAYS_INLINE const char *f64_close_fast(const tagc_json_dec *d, const char *q, unsigned w_out)
{
    if (TAGC_LIKELY(*q == ']'))
        return q + 1;
    if (*q == '\n' && (q = tagc_json_indent_hit_wtl(d, q, w_out, false, false)) != NULL && *q == ']')
        return q + 1;
    return NULL;
}

/* [n]float64 as MarshalIndent or Marshal writes it, right at p, with more than
 * F64_ARRAY_NEED(n) bytes left and d->depth < d->max_depth: '[', n plain
 * floats each right after '[' or ',' or an indent of w_in bytes, and ']' right
 * after the last or after an indent of w_out. Returns the byte after the ']',
 * or NULL (the general path then reads the array from p). An element is stored
 * once the byte after it is known to be ',' or the ']' (what ends a plain
 * float's digits may be a broken exponent, "1e", that the general path
 * refuses): what this wrote to v[0..n) is what that writes there too. */
static NOINLINE const char *f64_array_fast(const tagc_json_dec *d, const char *p, double *v, size_t n, unsigned w_in,
                                          unsigned w_out)
{
    const char *q;
    double x;
    if (TAGC_UNLIKELY(*p != '['))
        return NULL;
    p++;
    for (size_t i = 0;; i++) {
        if (TAGC_UNLIKELY((q = f64_element_fast(d, p, &x, w_in)) == NULL))
            return NULL;
        if (i + 1 == n)
            break;
        if (TAGC_UNLIKELY(*q != ','))
            return NULL; /* ']' early, whitespace, an error: the general path's */
        v[i] = x;
        p = q + 1;
    }
    if ((q = f64_close_fast(d, q, w_out)) != NULL)
        v[n - 1] = x;
    return q;
}

/* f64_array_fast for n == 2 (GeoJSON's points), in line and without the loop */
static TAGC_ALWAYS_INLINE const char *f64_pair_fast(const tagc_json_dec *d, const char *p, double *v, unsigned w_in,
                                                    unsigned w_out)
{
    const char *q;
    double x0, x1;
    if (TAGC_UNLIKELY(*p != '[') || (q = f64_element_fast(d, p + 1, &x0, w_in)) == NULL || *q != ',' ||
        (q = f64_element_fast(d, q + 1, &x1, w_in)) == NULL || (q = f64_close_fast(d, q, w_out)) == NULL)
        return NULL;
    v[0] = x0;
    v[1] = x1;
    return q;
}
#else
#define F64_ARRAY_FAST 0
#endif

int tagc_json_read_f64_array(tagc_json_dec *d, double *v, size_t n)
{
#if F64_ARRAY_FAST
    const char *q;
    if (TAGC_LIKELY(d->q_open == NULL && d->depth < d->max_depth && (size_t)(d->end - d->p) > F64_ARRAY_NEED(n)) &&
        (q = f64_array_fast(d, d->p, v, n, (unsigned)(d->depth + 1) * (unsigned)d->ind_unit,
                            (unsigned)d->depth * (unsigned)d->ind_unit)) !=
            NULL) {
        d->p = q;
        return 0;
    }
#endif
    return f64_array_general(d, v, n);
}

/* The generated [][n]float64 loop, with the in-line run of plain points in it. */
int tagc_json_read_f64_array_slice(tagc_json_dec *d, double **io_ptr, size_t *io_len, size_t n)
{
    double *ptr = NULL, *old = *io_ptr;
    size_t len = 0, old_len = *io_len;
    int rc;
    if (tagc_json_null(d)) {
        *io_ptr = NULL;
        *io_len = 0;
        return 0;
    }
    if ((rc = F64_ARR_BEGIN(d)) != 0)
        return rc;
    d->first = true;
    while ((rc = F64_ARR_NEXT(d)) > 0) {
        if (tagc_json_slice_full(len) &&
            (ptr = (double *)tagc_json_grow_len(d, ptr, len, n * sizeof *ptr)) == NULL)
            return TAGC_E_NOMEM;
#if F64_ARRAY_FAST
        /* The in-line run, from the element's start (where the general step
         * left d->p): points while they are plain, each followed by ',' (and
         * the next one's indent, when predicted, skipped as the null test would). at_point:
         * p is a point's start (grown for), else the byte after a point, where
         * the general step goes on. */
        if (TAGC_LIKELY(d->q_open == NULL && d->depth < d->max_depth)) {
            const char *p = d->p, *end = d->end, *q, *s;
            unsigned w_in = (unsigned)(d->depth + 1) * (unsigned)d->ind_unit;
            unsigned w_out = (unsigned)d->depth * (unsigned)d->ind_unit;
            size_t need = F64_ARRAY_NEED(n), cap = 4;
            bool at_point = true;
            while (cap <= len) /* the capacity tagc_json_grow_len gave: 4, 8, 16, ... > len */
                cap *= 2;
            /* after a point the general step read, the next one's indent (else
             * every later point of an indented ring would be the general step's) */
            if ((size_t)(end - p) > need && *p == '\n' && (q = tagc_json_indent_hit_wtl(d, p, w_out, true, true)) != NULL)
                p = q;
            for (;;) {
                if (TAGC_UNLIKELY((size_t)(end - p) <= need))
                    break;
                q = n == 2 ? f64_pair_fast(d, p, ptr + len * 2, w_in, w_out)
                           : f64_array_fast(d, p, ptr + len * n, n, w_in, w_out);
                if (TAGC_UNLIKELY(q == NULL))
                    break;
                len++;
                p = q;
                at_point = false;
                /* q[0] and q[1] are inside the input: q <= p + need - n */
                if (TAGC_UNLIKELY(*q != ','))
                    break;
                /* the next point's start, as the general step and the null test
                 * would leave it (what is there is the next try's or the general
                 * point read's) */
                s = q + 1;
                if (*s == '\n' && (q = tagc_json_indent_hit_wtl(d, s, w_out, false, true)) != NULL)
                    s = q; /* no token test: the next try's '[' test is one, and the general step skips whitespace */
                if (TAGC_UNLIKELY(len == cap)) { /* tagc_json_slice_full(len) */
                    d->p = p + 1; /* where the general step leaves it, for the error's offset */
                    if ((ptr = (double *)tagc_json_grow_len(d, ptr, len, n * sizeof *ptr)) == NULL)
                        return TAGC_E_NOMEM;
                    cap *= 2;
                }
                p = s;
                at_point = true;
            }
            d->p = p;
            if (!at_point)
                continue; /* the general step from the byte after the ']' */
        }
#endif
        double *e = ptr + len * n;
        if (len < old_len) /* a repeated key: Go decodes into the elements already there */
            memcpy(e, old + len * n, n * sizeof *e);
        else
            memset(e, 0, n * sizeof *e);
        if ((rc = f64_array_general(d, e, n)) != 0)
            return tagc_json_fail_index(d, rc, len);
        len++;
    }
    if (rc < 0)
        return rc;
    *io_ptr = len > 0 ? ptr : (double *)TAGC_EMPTY; /* [] is empty, not nil */
    *io_len = len;
    return 0;
}

/* MARK: - Strings */

#if TAGC_SWAR
/* Bytes of a word that end a plain string or key: '"', '\\', controls, non-ASCII. */
static inline uint64_t key_stop_mask(uint64_t v)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t q = v ^ (ones * '"'), b = v ^ (ones * '\\');
    return (v & highs) | ((v - ones * 0x20) & ~v & highs) | ((q - ones) & ~q & highs) | ((b - ones) & ~b & highs);
}
#endif


/* Finds the string at d->p (which is a quote): its body and whether it needs
 * unescaping. Returns 0, or an error for an unterminated string. */
static int string_body(tagc_json_dec *d, const char **body, size_t *len, bool *needs)
{
    const char *open = d->p;
    const char *close = tagc_json_scan_str(open + 1, d->end, needs);
    if (!close) {
        /* Unterminated; report a bad byte inside it first, as Go does. */
        size_t bad = 0;
        size_t n = (size_t)(d->end - open - 1);
        char *scratch = n ? tagc_arena_alloc(d->arena, TAGC_UNESCAPE_MAX(n)) : NULL;
        if (scratch && tagc_json_unescape(scratch, open + 1, n, &bad) < 0) {
            d->p = open + 1 + bad;
            /* an escape cut off by the end of the input is an early end */
            bool cut = d->p >= d->end ||
                       (*d->p == '\\' && d->end - d->p <= (d->p + 1 < d->end && d->p[1] == 'u' ? 5 : 1));
            if (!cut)
                return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character in string");
        }
        d->p = d->end;
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input in string");
    }
    *body = open + 1;
    *len = (size_t)(close - open - 1);
    return 0;
}

/* Unescapes body into the arena, NUL-terminated. */
static int unescape_into(tagc_json_dec *d, const char *body, size_t len, bool needs, tagc_str *out)
{
    if (!needs) {
        char *s = tagc_arena_alloc(d->arena, len + 1);
        if (!s)
            return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
        memcpy(s, body, len);
        s[len] = '\0';
        out->ptr = s;
        out->len = len;
        return 0;
    }
    size_t room = TAGC_UNESCAPE_MAX(len) + 1;
    char *s = tagc_arena_alloc(d->arena, room);
    if (!s)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    size_t bad = 0;
    long n = tagc_json_unescape(s, body, len, &bad);
    if (n < 0) {
        d->p = body + bad;
        return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid escape or character in string");
    }
    s = tagc_arena_grow(d->arena, s, room, (size_t)n + 1); /* give back the slack */
    s[n] = '\0';
    out->ptr = s;
    out->len = (size_t)n;
    return 0;
}

#if JSON_READ_SSE2
/* The bytes of the 16 at q that end a plain string: '"', '\\', controls and non-ASCII. */
static inline unsigned str_stops16(const char *q)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
    __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))); /* controls and non-ASCII */
    return (unsigned)_mm_movemask_epi8(stop);
}
#endif

NOINLINE static int read_str_general(tagc_json_dec *d, tagc_str *out, size_t plain);

/*
 * The common string in as few steps as can be: the quote right at d->p, a plain
 * body (printable ASCII) shorter than 32 bytes, and more input after it. The
 * body is scanned with two 16-byte loads and copied with two overlapping
 * stores; the arena block (len + 1 rounded up to 8) has room for them. Anything
 * else is read_str_general's, which does not depend on this path.
 */
int tagc_json_read_str(tagc_json_dec *d, tagc_str *out)
{
#if JSON_READ_SSE2
    const char *p = d->p;
    if (TAGC_LIKELY(d->end - p > 32 && *p == '"')) {
        const char *body = p + 1;
        uint32_t m = str_stops16(body);
        if (m == 0) /* the second 16 bytes only when the first hold no stop */
            m = (uint32_t)str_stops16(body + 16) << 16;
        size_t len = (size_t)__builtin_ctz(m | UINT32_C(1) << 31); /* 31: no stop, or a long body */
        tagc_arena *a = d->arena;
        size_t size = (len + 8) & ~(size_t)7; /* len + 1 rounded up, as tagc_arena_alloc does */
        if (TAGC_LIKELY(len < 31 && body[len] == '"' && a->ptr != NULL && size <= (size_t)(a->end - a->ptr))) {
            char *s = (char *)a->ptr;
            a->ptr += size;
            if (len >= 16) {
                memcpy(s, body, 16);
                memcpy(s + len - 16, body + len - 16, 16);
            } else {
                size_t k = len & 8; /* the second word: bytes 8..16 when len >= 8, else the first again */
                memcpy(s, body, 8);
                memcpy(s + k, body + k, 8);
            }
            s[len] = '\0';
            out->ptr = s;
            out->len = len;
            d->p = body + len + 1;
            return 0;
        }
        return read_str_general(d, out, len); /* body[0..len) is plain: not scanned again */
    }
#endif
    return read_str_general(d, out, 0);
}

/* plain: how many bytes of the body are known to be printable ASCII without
 * quotes and backslashes (the quote is then at d->p). */
static int read_str_general(tagc_json_dec *d, tagc_str *out, size_t plain)
{
    const char *body;
    size_t len;
    bool needs;
    int rc;
    tagc_json_ws(d);
    if (d->p >= d->end || *d->p != '"')
        return unexpected(d, "string");
    /* Plain strings: scan, then copy; short ones by whole words, as their arena
     * block (rounded up to 8 bytes) has room for them. */
    body = d->p + 1;
    /* body..from is printable ASCII: plain bytes known (only the SSE2 path
     * gets more than 0), then what the loops below find */
    const char *close = NULL, *from = body + plain;
#if JSON_READ_SSE2
    /* printable ASCII up to the quote, 16 bytes a step; the rest (escapes,
     * UTF-8, the last 15 bytes of the input) goes through tagc_json_scan_str */
    for (const char *q = from; d->end - q >= 16; q += 16) {
        unsigned m = str_stops16(q);
        if (m != 0) {
            q += __builtin_ctz(m);
            if (*q == '"') {
                close = q;
                needs = false;
            }
            from = q;
            break;
        }
    }
    if (!close)
#elif TAGC_SWAR
    /* printable ASCII up to the quote, 8 bytes a step; the rest (escapes,
     * UTF-8, the last 7 bytes of the input) goes through tagc_json_scan_str */
    for (const char *q = body; d->end - q >= 8; q += 8) {
        uint64_t m = key_stop_mask(load8(q));
        if (m != 0) {
            q += (unsigned)__builtin_ctzll(m) >> 3;
            if (*q == '"') {
                close = q;
                needs = false;
            }
            from = q;
            break;
        }
    }
    if (!close)
#endif
        close = tagc_json_scan_str(from, d->end, &needs);
    if (TAGC_LIKELY(close != NULL && !needs)) {
        len = (size_t)(close - body);
        char *s = tagc_arena_alloc(d->arena, len + 1);
        if (TAGC_UNLIKELY(!s))
            return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
#if TAGC_SWAR
        if (len < 16 && d->end - body >= 16) {
            uint64_t w = load8(body);
            memcpy(s, &w, 8);
            if (len >= 8) {
                w = load8(body + 8);
                memcpy(s + 8, &w, 8);
            }
        } else
#endif
            memcpy(s, body, len);
        s[len] = '\0';
        out->ptr = s;
        out->len = len;
        d->p = close + 1;
        return 0;
    }
    if (close == NULL) /* unterminated: string_body says where it went wrong */
        return string_body(d, &body, &len, &needs);
    len = (size_t)(close - body); /* scanned once: needs is true */
    if ((rc = unescape_into(d, body, len, needs, out)) != 0)
        return rc;
    d->p = body + len + 1;
    return 0;
}

int tagc_json_read_bytes(tagc_json_dec *d, uint8_t **ptr, size_t *len)
{
    const char *body;
    size_t n;
    bool needs;
    int rc;
    tagc_json_ws(d);
    if (d->p >= d->end || *d->p != '"')
        return unexpected(d, "base64 string");
    if ((rc = string_body(d, &body, &n, &needs)) != 0)
        return rc;
    const char *text = body, *after = body + n + 1;
    if (needs) { /* Go unescapes the string, then decodes it */
        tagc_str s;
        if ((rc = unescape_into(d, body, n, needs, &s)) != 0)
            return rc;
        text = s.ptr;
        n = s.len;
    }
    uint8_t *dst = tagc_arena_alloc(d->arena, n / 4 * 3 + 4);
    if (!dst)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    long m = tagc_base64_decode(dst, text, n);
    if (m < 0)
        return tagc_json_fail(d, TAGC_E_TYPE, "invalid base64 data");
    *ptr = dst;
    *len = (size_t)m;
    d->p = after;
    return 0;
}

NOINLINE static int read_time_general(tagc_json_dec *d, tagc_time *out, unsigned profile);

/* The form Go writes, its quote right at d->p and the closing one after it: a
 * plain string, parsed as it is scanned. Anything else is read_time_general's
 * (which is all of it built for size: its parser scans the same way). */
int tagc_json_read_time_as(tagc_json_dec *d, tagc_time *out, unsigned profile)
{
#if !defined(__OPTIMIZE_SIZE__)
    const char *open = d->p;
    size_t avail = (size_t)(d->end - open);
    if (TAGC_LIKELY(avail > 21 && *open == '"')) {
        tagc_time t;
        size_t n = tagc_time_scan_inline(open + 1, avail - 1, &t, profile);
        if (TAGC_LIKELY(n != 0 && avail - 1 > n && open[1 + n] == '"')) {
            *out = t;
            d->p = open + n + 2;
            return 0;
        }
    }
#endif
    return read_time_general(d, out, profile);
}

static int read_time_general(tagc_json_dec *d, tagc_time *out, unsigned profile)
{
    const char *body;
    size_t len;
    bool needs;
    int rc;
    tagc_json_ws(d);
    if (d->p >= d->end || *d->p != '"')
        return unexpected(d, "RFC 3339 time string");
    const char *open = d->p;
    if ((rc = string_body(d, &body, &len, &needs)) != 0)
        return rc;
    const char *text = body;
    size_t text_len = len;
    if (needs) { /* still valid JSON? (Go's scanner checks before the time parser runs) */
        tagc_str s;
        if ((rc = unescape_into(d, body, len, needs, &s)) != 0)
            return rc;
        if (profile & TAGC_TIME_UNESCAPE) /* Go 1.27 parses the string's value */
            text = s.ptr, text_len = s.len;
    }
    /* Go up to 1.26 hands the raw bytes to time.Parse: any escape makes it fail. */
    if (tagc_time_parse(text, text_len, out, profile) != 0) {
        d->p = open;
        return tagc_json_fail(d, TAGC_E_TYPE, "invalid RFC 3339 time \"%.*s\"", (int)(text_len > 40 ? 40 : text_len),
                              text);
    }
    d->p = body + len + 1;
    return 0;
}

/* MARK: - The `string` option */

int tagc_json_string_opt_begin(tagc_json_dec *d, unsigned profile)
{
    const char *body;
    size_t len;
    bool needs;
    int rc;
    tagc_json_ws(d);
    if (d->p >= d->end || *d->p != '"') {
        if (kind_at(d))
            return tagc_json_fail(d, TAGC_E_TYPE, "invalid use of ,string option: expected a quoted value");
        return unexpected(d, "quoted value");
    }
    const char *open = d->p;
    if ((rc = string_body(d, &body, &len, &needs)) != 0)
        return rc;
    const char *text = body, *after = body + len + 1;
    if (needs) { /* Go reads the unescaped text */
        tagc_str s;
        if ((rc = unescape_into(d, body, len, needs, &s)) != 0)
            return rc;
        text = s.ptr;
        len = s.len;
    }
    if (len == 0 || text[0] == ' ' || text[0] == '\t' || text[0] == '\n' || text[0] == '\r')
        return tagc_json_fail(d, TAGC_E_TYPE, "invalid use of ,string option");
    d->q_open = open;
    d->q_strconv = profile & TAGC_QUOTED_STRCONV;
    d->q_resume = after;
    d->q_end = d->end;
    d->p = text;
    d->end = text + len;
    d->ind_lim = text; /* not the input: the indent compare's misses read it */
    return 0;
}

int tagc_json_string_opt_end(tagc_json_dec *d)
{
    if (!d->q_open)
        return 0;
    if (d->p != d->end)
        return tagc_json_fail(d, TAGC_E_TYPE, "invalid use of ,string option: extra text in the quoted value");
    d->p = d->q_resume;
    d->q_open = NULL;
    tagc_json_set_end(d, d->q_end);
    return 0;
}

/* MARK: - Objects and arrays */

static int open_bracket(tagc_json_dec *d, char c, const char *want)
{
    tagc_json_ws(d);
    if (d->p >= d->end || *d->p != c)
        return unexpected(d, want);
    if (++d->depth > d->max_depth)
        return tagc_json_fail(d, TAGC_E_DEPTH, "nesting deeper than %d", d->max_depth);
    d->p++;
    return 0;
}

int tagc_json_obj_begin(tagc_json_dec *d)
{
    return open_bracket(d, '{', "object");
}

int tagc_json_arr_begin(tagc_json_dec *d)
{
    return open_bracket(d, '[', "array");
}

/* After a member or element: ',' (returns 1), the closing bracket (0), or an error. */
static int after_item(tagc_json_dec *d, bool *first, char close, const char *what)
{
    tagc_json_ws(d);
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input in %s", what);
    if (*first) {
        *first = false;
        if (*d->p == close) {
            d->p++;
            d->depth--;
            return 0;
        }
        return 1;
    }
    if (*d->p == ',') {
        d->p++;
        return 1;
    }
    if (*d->p == close) {
        d->p++;
        d->depth--;
        return 0;
    }
    return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '%c' after %s element, expected ',' or '%c'",
                          (unsigned char)*d->p >= 0x20 ? *d->p : '?', what, close);
}

#define WS_MASK ((UINT64_C(1) << ' ') | (UINT64_C(1) << '\n') | (UINT64_C(1) << '\r') | (UINT64_C(1) << '\t'))

#if JSON_READ_SSE2
/* The whitespace bytes among 16, as a bit mask. */
static inline unsigned ws_mask16(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    __m128i tr = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(sp, tr));
}
#endif

/* Whitespace. A newline and its indentation (pretty-printed input) is
 * measured 16 bytes a step with SSE2; elsewhere runs of spaces are skipped
 * eight bytes at a time. */
static inline const char *skip_ws(const char *p, const char *end)
{
#if TAGC_SWAR
    /* What MarshalIndent writes between tokens: a newline, then its indent
     * byte (space or tab) repeated; eight of them a step, by comparing with
     * the first one broadcast. Whatever else follows takes the general path. */
    if (end - p >= 9 && *p == '\n' && (p[1] == ' ' || p[1] == '\t')) {
        uint64_t fill = (uint64_t)(unsigned char)p[1] * UINT64_C(0x0101010101010101);
        const char *q = p + 1;
        for (;;) {
            uint64_t x = load8(q) ^ fill;
            if (x != 0) {
                q += (unsigned)__builtin_ctzll(x) >> 3;
                if ((unsigned char)*q > ' ')
                    return q;
                break;
            }
            q += 8;
            if (end - q < 8)
                break;
        }
        p = q;
    }
#endif
#if JSON_READ_SSE2
    if (p < end && (unsigned char)*p <= ' ') {
        while (end - p >= 16) {
            unsigned m = ws_mask16(p) ^ 0xFFFFu;
            if (m != 0)
                return p + __builtin_ctz(m);
            p += 16;
        }
    }
#endif
    while (p < end && (unsigned char)*p <= ' ' && ((UINT64_C(1) << (unsigned char)*p) & WS_MASK) != 0) {
        p++;
#if TAGC_SWAR
        while (end - p >= 8 && load8(p) == UINT64_C(0x2020202020202020))
            p += 8;
#endif
    }
    return p;
}

const char *tagc_json_skip_ws(const char *p, const char *end)
{
    return skip_ws(p, end);
}

/* The common case of obj_next in one pass over local copies: [ws] ',' (or
 * nothing before the first member) [ws] "plain key" [ws] ':', or the closing
 * brace. Returns 1 or 0 as obj_next does, or -1 to let the exact path (which
 * also produces every error) start over from d->p. */
static inline int obj_next_fast(tagc_json_dec *d, bool *first, const char **key, size_t *key_len)
{
    const char *p = skip_ws(d->p, d->end), *end = d->end;
    if (p >= end)
        return -1;
    if (*p == '}') {
        d->p = p + 1;
        d->depth--;
        *first = false;
        return 0;
    }
    if (!*first) {
        if (*p != ',')
            return -1;
        p = skip_ws(p + 1, end);
    }
    if (p >= end || *p != '"')
        return -1;
    const char *open = p, *k = p + 1, *q = k;
#if TAGC_SWAR
    while (end - q >= 8) {
        uint64_t m = key_stop_mask(load8(q));
        if (m != 0) {
            q += (unsigned)__builtin_ctzll(m) >> 3;
            goto stop;
        }
        q += 8;
    }
#endif
    while (q < end && (unsigned char)*q >= 0x20 && (unsigned char)*q < 0x80 && *q != '"' && *q != '\\')
        q++;
#if TAGC_SWAR
stop:
#endif
    if (q >= end || *q != '"')
        return -1;
    p = skip_ws(q + 1, end);
    if (p >= end || *p != ':')
        return -1;
    d->key_at = open;
    d->p = p + 1;
    *first = false;
    *key = k;
    *key_len = (size_t)(q - k);
    return 1;
}

#ifdef TAGC_INDENT_PREDICTED
/* The miss of tagc_json_indent_hit: the first non-whitespace byte from p (or
 * end), as tagc_json_skip_indent. p < end. Two misses are common and cheap
 * here, by a byte loop: the indent within 32 bytes of the end of the input
 * (the in-line compare's loads would pass it), which is checked against the
 * prediction as a hit is, and the first indent of the document, which is
 * measured and teaches the unit. Anything else is tagc_json_skip_indent's. */
const char *tagc_json_skip_indent_learn(tagc_json_dec *d, const char *p, int depth)
{
    const char *end = d->end, *q;
    size_t unit = d->ind_unit, w, avail = (size_t)(end - p);
    char c;
    if (*p != '\n' || depth < 0)
        return tagc_json_skip_indent(p, end);
    if (unit != (size_t)-1) { /* learnt: the predicted indent, if it is there */
        w = (size_t)depth * unit;
        if (w <= 32 && w + 1 < avail && (unsigned char)p[w + 1] > ' ') {
            c = (char)d->ind_pat[1];
            for (q = p + 1; q <= p + w && *q == c; q++)
                ;
            if (q > p + w)
                return q;
        }
        return tagc_json_skip_indent(p, end);
    }
    if (depth == 0) /* a newline before the top-level value (the next one tells) */
        return tagc_json_skip_indent(p, end);
    /* not an indent of one byte repeated: only a bare newline is predicted */
    d->ind_unit = 0; /* (d->ind_lim is set from the start: tagc_json_dec_init) */
    d->ind_pat[0] = UINT64_C(0x202020202020200a);
    d->ind_pat[1] = d->ind_pat[2] = d->ind_pat[3] = UINT64_C(0x2020202020202020);
    c = avail > 1 ? p[1] : 0;
    if (c != ' ' && c != '\t')
        return tagc_json_skip_indent(p, end);
    for (q = p + 1; q < end && *q == c; q++)
        ;
    if (q >= end)
        return q;
    if ((unsigned char)*q <= ' ')
        return tagc_json_skip_ws(q, end);
    w = (size_t)(q - p) - 1;
    if (w % (size_t)depth == 0)
        tagc_json_set_indent(d, c, w / (size_t)depth);
    return q;
}
#elif defined(TAGC_INDENT_LEARN)
/* A libtagc built with -Os, called by code compiled for speed: nothing is
 * learnt, so each of its indents is a miss measured here (the same answers). */
const char *tagc_json_skip_indent_learn(tagc_json_dec *d, const char *p, int depth)
{
    (void)depth;
    return tagc_json_skip_ws(p, d->end); /* tagc_json_skip_indent's answer, out of line */
}
#endif

int tagc_json_obj_next(tagc_json_dec *d, bool *first, const char **key, size_t *key_len)
{
    int fast = obj_next_fast(d, first, key, key_len);
    if (TAGC_LIKELY(fast >= 0))
        return fast;
    const char *body;
    size_t len;
    bool needs;
    int rc = after_item(d, first, '}', "object");
    if (rc <= 0)
        return rc;
    tagc_json_ws(d);
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input, expected an object key");
    if (*d->p != '"')
        return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '%c' looking for beginning of object key string",
                              (unsigned char)*d->p >= 0x20 ? *d->p : '?');
    d->key_at = d->p;
    if ((rc = string_body(d, &body, &len, &needs)) != 0)
        return rc;
    if (needs) {
        tagc_str s;
        if ((rc = unescape_into(d, body, len, needs, &s)) != 0)
            return rc;
        *key = s.ptr;
        *key_len = s.len;
    } else {
        *key = body; /* plain keys are used in place */
        *key_len = len;
    }
    d->p = body + len + 1;
    tagc_json_ws(d);
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input, expected ':'");
    if (*d->p != ':')
        return tagc_json_fail(d, TAGC_E_SYNTAX, "invalid character '%c' after object key, expected ':'",
                              (unsigned char)*d->p >= 0x20 ? *d->p : '?');
    d->p++;
    return 1;
}

int tagc_json_arr_next(tagc_json_dec *d, bool *first)
{
    const char *p = skip_ws(d->p, d->end);
    if (TAGC_LIKELY(p < d->end)) {
        if (*p == ',' && !*first) {
            d->p = p + 1;
            return 1;
        }
        if (*p == ']') {
            d->p = p + 1;
            d->depth--;
            *first = false;
            return 0;
        }
        if (*first) {
            d->p = p;
            *first = false;
            return 1;
        }
    }
    return after_item(d, first, ']', "array");
}

/* MARK: - Keys */

#define KELVIN_LEN 3    /* U+212A KELVIN SIGN, folds to k */
#define LONG_S_LEN 2    /* U+017F LATIN SMALL LETTER LONG S, folds to s */

static bool is_letter(unsigned char c)
{
    c &= (unsigned char)~0x20u;
    return c >= 'A' && c <= 'Z';
}

/* One rune of UTF-8 at s (n bytes left); invalid bytes are U+FFFD of width 1, as in Go. */
static uint32_t next_rune(const unsigned char *s, size_t n, size_t *width)
{
    uint32_t c = s[0];
    *width = 1;
    if (c < 0x80)
        return c;
    size_t w = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (w == 0 || w > n || c > 0xf4)
        return 0xfffd;
    uint32_t r = c & (0x3fu >> (w - 1));
    for (size_t i = 1; i < w; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0xfffd;
        r = (r << 6) | (s[i] & 0x3fu);
    }
    if ((w == 3 && (r < 0x800 || (r >= 0xd800 && r <= 0xdfff))) || (w == 4 && (r < 0x10000 || r > 0x10ffff)))
        return 0xfffd;
    *width = w;
    return r;
}

/* Simple case folding (as Go's unicode.SimpleFold orbits) for the Latin, Greek
 * and Cyrillic letters; other runes fold to themselves. */
static uint32_t fold_rune(uint32_t r)
{
    if (r >= 'A' && r <= 'Z')
        return r + 32;
    if (r < 0x80)
        return r;
    if ((r >= 0xc0 && r <= 0xde && r != 0xd7) || (r >= 0x391 && r <= 0x3ab && r != 0x3a2) ||
        (r >= 0x410 && r <= 0x42f))
        return r + 32;
    if (r >= 0x400 && r <= 0x40f)
        return r + 80;
    if (r >= 0x100 && r <= 0x17f) {
        if (r == 0x130 || r == 0x131 || r == 0x138 || r == 0x149)
            return r;
        if (r == 0x178)
            return 0xff;
        if (r == 0x17f)
            return 's';
        bool odd_upper = (r >= 0x139 && r <= 0x148) || (r >= 0x179 && r <= 0x17e);
        return odd_upper ? (r & 1 ? r + 1 : r) : (r & 1 ? r : r + 1);
    }
    switch (r) {
    case 0x212a: return 'k';   /* KELVIN SIGN */
    case 0x212b: return 0xe5;  /* ANGSTROM SIGN */
    case 0xb5: return 0x3bc;   /* MICRO SIGN */
    case 0x3c2: return 0x3c3;  /* final sigma */
    case 0x386: return 0x3ac;
    case 0x388: case 0x389: case 0x38a: return r + 37;
    case 0x38c: return 0x3cc;
    case 0x38e: case 0x38f: return r + 63;
    default: return r;
    }
}

/* bytes.EqualFold, for names that are not ASCII. */
static bool unicode_fold_eq(const char *a, size_t an, const char *b, size_t bn)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    size_t i = 0, j = 0;
    while (i < an && j < bn) {
        size_t wa, wb;
        uint32_t ra = next_rune(p + i, an - i, &wa), rb = next_rune(q + j, bn - j, &wb);
        if (ra != rb && fold_rune(ra) != fold_rune(rb))
            return false;
        i += wa;
        j += wb;
    }
    return i == an && j == bn;
}

/* Go 1.19 encoding/json fold.go: equalFoldRight for names with k or s (whose
 * Unicode folds include U+212A and U+017F), ASCII folding for other ASCII names,
 * bytes.EqualFold for the rest. */
bool tagc_json_key_fold_eq(const char *key, size_t key_len, const char *name, size_t name_len)
{
    bool special = false, ascii = true;
    for (size_t i = 0; i < name_len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c >= 0x80)
            ascii = false;
        unsigned char up = c & (unsigned char)~0x20u;
        if (up == 'K' || up == 'S')
            special = true;
    }
    if (!ascii)
        return unicode_fold_eq(name, name_len, key, key_len);
    if (!special) {
        if (key_len != name_len)
            return false;
        for (size_t i = 0; i < name_len; i++) {
            unsigned char a = (unsigned char)name[i], b = (unsigned char)key[i];
            if (a == b)
                continue;
            if (!is_letter(a) || (a & ~0x20u) != (b & ~0x20u))
                return false;
        }
        return true;
    }
    size_t j = 0;
    for (size_t i = 0; i < name_len; i++) {
        unsigned char sb = (unsigned char)name[i];
        if (j >= key_len)
            return false;
        unsigned char tb = (unsigned char)key[j];
        if (tb < 0x80) {
            if (sb != tb && (!is_letter(sb) || (sb & ~0x20u) != (tb & ~0x20u)))
                return false;
            j++;
            continue;
        }
        unsigned char up = sb & (unsigned char)~0x20u;
        if (up == 'K' && key_len - j >= KELVIN_LEN && memcmp(key + j, "\xe2\x84\xaa", KELVIN_LEN) == 0)
            j += KELVIN_LEN;
        else if (up == 'S' && key_len - j >= LONG_S_LEN && memcmp(key + j, "\xc5\xbf", LONG_S_LEN) == 0)
            j += LONG_S_LEN;
        else
            return false;
    }
    return j == key_len;
}
