/*
 * msgpack_read.c - reading MessagePack: every format of the spec, into the
 * values generated decoders ask for. Each primitive reads one value and
 * returns 0, or a TAGC_E_* code with d->err set at the first byte of the
 * value at fault. A length is compared with the bytes left before it is used,
 * so a hostile header never makes the reader allocate or read past the input.
 */
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tagc.h"
#include "any_frames.h"

/* MARK: - Heads */

typedef enum mp_kind {
    MP_NIL,
    MP_BOOL,
    MP_UINT, /* a non-negative integer: u */
    MP_NEG,  /* a negative integer: i */
    MP_F32,
    MP_F64,
    MP_STR,
    MP_BIN,
    MP_ARR,
    MP_MAP,
    MP_EXT,
    MP_NEVER /* 0xc1, never used */
} mp_kind;

typedef struct mp_head {
    mp_kind kind;
    bool b;
    uint64_t u;
    int64_t i;
    double f;
    size_t len;   /* str, bin, ext: bytes; array: elements; map: pairs */
    int8_t ext;   /* the ext type */
} mp_head;

static const char *kind_name(mp_kind k)
{
    switch (k) {
    case MP_NIL: return "nil";
    case MP_BOOL: return "bool";
    case MP_UINT: case MP_NEG: return "integer";
    case MP_F32: return "float 32";
    case MP_F64: return "float 64";
    case MP_STR: return "str";
    case MP_BIN: return "bin";
    case MP_ARR: return "array";
    case MP_MAP: return "map";
    case MP_EXT: return "ext";
    default: return "0xc1";
    }
}

static inline const uint8_t *cur(const tagc_mp_dec *d)
{
    return (const uint8_t *)d->p;
}

static inline size_t left(const tagc_mp_dec *d)
{
    return (size_t)(d->end - d->p);
}

static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

static int fail_at(tagc_mp_dec *d, const char *at, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int fail_at(tagc_mp_dec *d, const char *at, int code, const char *fmt, ...)
{
    char msg[TAGC_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->p = at;
    return tagc_json_fail(d, code, "%s", msg);
}

static int eof(tagc_mp_dec *d, const char *at)
{
    return fail_at(d, at, TAGC_E_EOF, "unexpected end of input");
}

/*
 * Reads the head of the value at d->p into h and moves past it. The payload of
 * a str, bin or ext is left to the caller, but is known to be in the input.
 * An array's or map's count is known not to exceed what the input can hold
 * (one byte per element, two per pair).
 */
static int read_head(tagc_mp_dec *d, mp_head *h)
{
    const char *at = d->p;
    if (left(d) == 0)
        return eof(d, at);
    const uint8_t *p = cur(d);
    uint8_t c = p[0];
    size_t hl = 1; /* head length */
    size_t need = 0;
    if (c <= 0x7f) {
        h->kind = MP_UINT;
        h->u = c;
    } else if (c <= 0x8f) {
        h->kind = MP_MAP;
        h->len = c & 0x0f;
    } else if (c <= 0x9f) {
        h->kind = MP_ARR;
        h->len = c & 0x0f;
    } else if (c <= 0xbf) {
        h->kind = MP_STR;
        h->len = c & 0x1f;
    } else if (c >= 0xe0) {
        h->kind = MP_NEG;
        h->i = (int8_t)c;
    } else {
        /* the formats with a head longer than one byte: widths of their fields */
        static const uint8_t width[0x20] = {
            /* c0 nil */ 0, /* c1 */ 0, /* c2 c3 bool */ 0, 0,
            /* c4-c6 bin */ 1, 2, 4, /* c7-c9 ext */ 1, 2, 4,
            /* ca cb float */ 4, 8, /* cc-cf uint */ 1, 2, 4, 8,
            /* d0-d3 int */ 1, 2, 4, 8, /* d4-d8 fixext */ 0, 0, 0, 0, 0,
            /* d9-db str */ 1, 2, 4, /* dc dd array */ 2, 4, /* de df map */ 2, 4,
        };
        size_t w = width[c - 0xc0];
        if (c >= 0xd4 && c <= 0xd8)
            w = 1; /* the ext type */
        else if (c >= 0xc7 && c <= 0xc9)
            w += 1; /* length, then the ext type */
        if (left(d) < 1 + w)
            return eof(d, at);
        hl = 1 + w;
        uint64_t x = c >= 0xc7 && c <= 0xc9 ? be(p + 1, (int)w - 1) : be(p + 1, (int)w);
        switch (c) {
        case 0xc0: h->kind = MP_NIL; break;
        case 0xc1: h->kind = MP_NEVER; break;
        case 0xc2: case 0xc3: h->kind = MP_BOOL; h->b = c == 0xc3; break;
        case 0xc4: case 0xc5: case 0xc6: h->kind = MP_BIN; h->len = (size_t)x; break;
        case 0xc7: case 0xc8: case 0xc9:
            h->kind = MP_EXT;
            h->len = (size_t)x;
            h->ext = (int8_t)p[hl - 1];
            break;
        case 0xca: {
            uint32_t u = (uint32_t)x;
            float f;
            memcpy(&f, &u, 4);
            h->kind = MP_F32;
            h->f = f;
            break;
        }
        case 0xcb: {
            double f;
            memcpy(&f, &x, 8);
            h->kind = MP_F64;
            h->f = f;
            break;
        }
        case 0xcc: case 0xcd: case 0xce: case 0xcf: h->kind = MP_UINT; h->u = x; break;
        case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
            int64_t v;
            if (w == 1) v = (int8_t)(uint8_t)x;
            else if (w == 2) v = (int16_t)(uint16_t)x;
            else if (w == 4) v = (int32_t)(uint32_t)x;
            else v = (int64_t)x;
            if (v >= 0) {
                h->kind = MP_UINT;
                h->u = (uint64_t)v;
            } else {
                h->kind = MP_NEG;
                h->i = v;
            }
            break;
        }
        case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
            h->kind = MP_EXT;
            h->len = (size_t)1 << (c - 0xd4);
            h->ext = (int8_t)p[1];
            break;
        case 0xd9: case 0xda: case 0xdb: h->kind = MP_STR; h->len = (size_t)x; break;
        case 0xdc: case 0xdd: h->kind = MP_ARR; h->len = (size_t)x; break;
        default: h->kind = MP_MAP; h->len = (size_t)x; break;
        }
    }
    size_t rest = left(d) - hl;
    if (h->kind == MP_STR || h->kind == MP_BIN || h->kind == MP_EXT)
        need = h->len;
    else if (h->kind == MP_ARR)
        need = h->len;
    else if (h->kind == MP_MAP)
        need = h->len > SIZE_MAX / 2 ? SIZE_MAX : h->len * 2;
    if (need > rest) {
        if (h->kind == MP_ARR || h->kind == MP_MAP)
            return fail_at(d, at, TAGC_E_EOF, "%s of %zu elements: more than the input holds",
                           kind_name(h->kind), h->len);
        return fail_at(d, at, TAGC_E_EOF, "%s of %zu bytes: more than the input holds",
                       kind_name(h->kind), h->len);
    }
    d->p += hl;
    return 0;
}

/* The value at `at` (head h) is not of the wanted kind. */
static int wrong(tagc_mp_dec *d, const char *at, const mp_head *h, const char *want)
{
    if (h->kind == MP_NEVER)
        return fail_at(d, at, TAGC_E_SYNTAX, "invalid byte 0xc1 looking for %s", want);
    return fail_at(d, at, TAGC_E_TYPE, "expected %s, found %s", want, kind_name(h->kind));
}

/* MARK: - Entry and exit */

void tagc_mp_dec_init(tagc_mp_dec *d, const uint8_t *src, size_t len, tagc_arena *arena,
                      tagc_error *err, const tagc_json_opts *opts)
{
    tagc_json_dec_init(d, (const char *)src, len, arena, err, opts);
}

int tagc_mp_dec_finish(tagc_mp_dec *d, int rc)
{
    if (rc == 0 && d->p != d->end)
        rc = tagc_json_fail(d, TAGC_E_SYNTAX, "%zu bytes after the top-level value",
                            (size_t)(d->end - d->p));
    if (rc != 0) {
        if (d->err->code == 0)
            tagc_error_set(d->err, rc, (size_t)(d->p - d->start), "%s", tagc_strerror(rc));
        tagc_error_finish(d->err, d->start, (size_t)(d->end - d->start));
    }
    return rc;
}

/* MARK: - Scalars */

int tagc_mp_read_bool_slow(tagc_mp_dec *d, bool *out)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind != MP_BOOL)
        return wrong(d, at, &h, "bool");
    *out = h.b;
    return 0;
}

static int range_fail(tagc_mp_dec *d, const char *at, const mp_head *h)
{
    char num[TAGC_I64_MAX_CHARS + 1];
    size_t n = h->kind == MP_UINT ? tagc_fmt_u64(num, h->u) : tagc_fmt_i64(num, h->i);
    num[n] = 0;
    return fail_at(d, at, TAGC_E_RANGE, "integer %s out of range", num);
}

/* The general path of an integer: every format, every error. */
static int read_int_general(tagc_mp_dec *d, int64_t *out, int64_t min, int64_t max)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind == MP_UINT) {
        if (h.u > (uint64_t)max)
            return range_fail(d, at, &h);
        *out = (int64_t)h.u;
        return 0;
    }
    if (h.kind == MP_NEG) {
        if (h.i < min)
            return range_fail(d, at, &h);
        *out = h.i;
        return 0;
    }
    return wrong(d, at, &h, "integer");
}

static int read_uint_general(tagc_mp_dec *d, uint64_t *out, uint64_t max)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind == MP_UINT) {
        if (h.u > max)
            return range_fail(d, at, &h);
        *out = h.u;
        return 0;
    }
    if (h.kind == MP_NEG)
        return range_fail(d, at, &h);
    return wrong(d, at, &h, "integer");
}

/*
 * The integer formats with a head of more than one byte (uint 8..64, int
 * 8..64), read directly when the input holds them and the value is in range;
 * anything else (other formats, errors) is the general path's to answer.
 * (int8_t)/(int16_t)/(int32_t)/(int64_t) of an unsigned value: two's complement,
 * as read_head does.
 */
int tagc_mp_read_int_slow(tagc_mp_dec *d, int64_t *out, int64_t min, int64_t max)
{
    const char *p = d->p;
    size_t n = left(d);
    int64_t v;
    size_t w;
    if (n < 2)
        return read_int_general(d, out, min, max);
    switch ((uint8_t)p[0]) {
    case 0xcc: /* uint 8 */
        v = (uint8_t)p[1];
        w = 1;
        break;
    case 0xcd: /* uint 16 */
        if (n < 3)
            return read_int_general(d, out, min, max);
        v = (int64_t)((uint32_t)(uint8_t)p[1] << 8 | (uint8_t)p[2]);
        w = 2;
        break;
    case 0xce: /* uint 32 */
        if (n < 5)
            return read_int_general(d, out, min, max);
        v = (int64_t)tagc_mp_be32(p + 1);
        w = 4;
        break;
    case 0xcf: { /* uint 64 */
        uint64_t x;
        if (n < 9 || (x = tagc_mp_be64(p + 1)) > (uint64_t)INT64_MAX)
            return read_int_general(d, out, min, max);
        v = (int64_t)x;
        w = 8;
        break;
    }
    case 0xd0: /* int 8 */
        v = (int8_t)p[1];
        w = 1;
        break;
    case 0xd1: /* int 16 */
        if (n < 3)
            return read_int_general(d, out, min, max);
        v = (int16_t)(uint16_t)((uint32_t)(uint8_t)p[1] << 8 | (uint8_t)p[2]);
        w = 2;
        break;
    case 0xd2: /* int 32 */
        if (n < 5)
            return read_int_general(d, out, min, max);
        v = (int32_t)tagc_mp_be32(p + 1);
        w = 4;
        break;
    case 0xd3: /* int 64 */
        if (n < 9)
            return read_int_general(d, out, min, max);
        v = (int64_t)tagc_mp_be64(p + 1);
        w = 8;
        break;
    default:
        return read_int_general(d, out, min, max);
    }
    if (v < min || v > max) /* the general path says which error */
        return read_int_general(d, out, min, max);
    *out = v;
    d->p = p + 1 + w;
    return 0;
}

int tagc_mp_read_uint_slow(tagc_mp_dec *d, uint64_t *out, uint64_t max)
{
    const uint8_t *p = cur(d);
    uint8_t c = left(d) ? p[0] : 0xc1;
    if (c >= 0xcc && c <= 0xcf) {
        size_t w = (size_t)1 << (c - 0xcc);
        if (left(d) >= 1 + w) {
            uint64_t x = w == 8 ? tagc_mp_be64(d->p + 1) : be(p + 1, (int)w);
            if (x <= max) {
                *out = x;
                d->p += 1 + w;
                return 0;
            }
        }
    }
    return read_uint_general(d, out, max);
}

static int read_number(tagc_mp_dec *d, const char *at, double *out)
{
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    switch (h.kind) {
    case MP_F32:
    case MP_F64:
        *out = h.f;
        return 0;
    case MP_UINT:
        *out = (double)h.u;
        return 0;
    case MP_NEG:
        *out = (double)h.i;
        return 0;
    default:
        return wrong(d, at, &h, "number");
    }
}

int tagc_mp_read_f64_slow(tagc_mp_dec *d, double *out)
{
    return read_number(d, d->p, out);
}

int tagc_mp_read_f32(tagc_mp_dec *d, float *out)
{
    const char *at = d->p;
    double v = 0;
    int rc = read_number(d, at, &v);
    if (rc)
        return rc;
    if (v > FLT_MAX || v < -FLT_MAX) {
        if (v - v == 0) /* finite, but beyond float's range */
            return fail_at(d, at, TAGC_E_RANGE, "number out of float 32 range");
    }
    *out = (float)v;
    return 0;
}

int tagc_mp_read_str_ref(tagc_mp_dec *d, const char **s, size_t *len)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind != MP_STR && h.kind != MP_BIN)
        return wrong(d, at, &h, "str");
    *s = d->p;
    *len = h.len;
    d->p += h.len;
    return 0;
}

static int nomem(tagc_mp_dec *d, const char *at)
{
    return fail_at(d, at, TAGC_E_NOMEM, "out of memory");
}

int tagc_mp_read_str_slow(tagc_mp_dec *d, tagc_str *out)
{
    const char *at = d->p;
    const char *s;
    size_t n;
    int rc = tagc_mp_read_str_ref(d, &s, &n);
    if (rc)
        return rc;
    char *p = tagc_arena_alloc(d->arena, n + 1);
    if (!p)
        return nomem(d, at);
    memcpy(p, s, n);
    p[n] = 0;
    out->ptr = p;
    out->len = n;
    return 0;
}

int tagc_mp_read_bytes(tagc_mp_dec *d, tagc_bytes *out)
{
    if (tagc_mp_nil(d)) {
        out->ptr = NULL;
        out->len = 0;
        return 0;
    }
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind != MP_BIN && h.kind != MP_STR)
        return wrong(d, at, &h, "bin");
    uint8_t *p = h.len ? tagc_arena_alloc(d->arena, h.len) : TAGC_EMPTY;
    if (!p)
        return nomem(d, at);
    if (h.len)
        memcpy(p, d->p, h.len);
    d->p += h.len;
    out->ptr = p;
    out->len = h.len;
    return 0;
}

int tagc_mp_read_byte_array(tagc_mp_dec *d, uint8_t *out, size_t n)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind == MP_ARR) { /* what tagc wrote before it wrote a bin */
        d->p = at;
        size_t len = 0; /* set when rc is 0; gcc -Os cannot see it */
        if ((rc = tagc_mp_arr_begin(d, &len)) != 0)
            return rc;
        for (size_t i = 0; i < len; i++) {
            uint64_t x;
            if (i >= n) { /* extra elements are read and dropped, as for any array */
                if ((rc = tagc_mp_skip(d)) != 0)
                    return tagc_json_fail_index(d, rc, i);
            } else if (!tagc_mp_nil(d)) {
                if ((rc = tagc_mp_read_uint(d, &x, UINT8_MAX)) != 0)
                    return tagc_json_fail_index(d, rc, i);
                out[i] = (uint8_t)x;
            }
        }
        tagc_mp_end(d);
        return 0;
    }
    if (h.kind != MP_BIN && h.kind != MP_STR)
        return wrong(d, at, &h, "bin");
    if (h.len > n) /* vmihailenco/msgpack: an error too */
        return fail_at(d, at, TAGC_E_RANGE, "%zu bytes for an array of %zu", (size_t)h.len, n);
    if (h.len)
        memcpy(out, d->p, h.len);
    d->p += h.len;
    return 0;
}

/* The timestamp in an ext of type -1 (payload at p, n bytes). */
static int timestamp(tagc_mp_dec *d, const char *at, const uint8_t *p, size_t n, tagc_time *out)
{
    int64_t sec;
    uint32_t nsec;
    if (n == 4) {
        sec = (int64_t)be(p, 4);
        nsec = 0;
    } else if (n == 8) {
        uint64_t v = be(p, 8);
        nsec = (uint32_t)(v >> 34);
        sec = (int64_t)(v & ((UINT64_C(1) << 34) - 1));
    } else if (n == 12) {
        nsec = (uint32_t)be(p, 4);
        sec = (int64_t)be(p + 4, 8);
    } else {
        return fail_at(d, at, TAGC_E_TYPE, "timestamp of %zu bytes (4, 8 or 12 expected)", n);
    }
    if (nsec >= 1000000000u)
        return fail_at(d, at, TAGC_E_RANGE, "timestamp nanoseconds out of range");
    if (sec > INT64_MAX + TAGC_TIME_UNIX_OF_ZERO)
        return fail_at(d, at, TAGC_E_RANGE, "timestamp seconds out of range");
    *out = tagc_time_from_unix(sec, (int32_t)nsec, 0);
    return 0;
}

int tagc_mp_read_time(tagc_mp_dec *d, tagc_time *out)
{
    const uint8_t *q = cur(d);
    /* timestamp 32 and 64 (fixext 4 and 8 of type -1) in range: directly */
    if (left(d) >= 6 && q[0] == 0xd6 && q[1] == 0xff) {
        *out = tagc_time_from_unix((int64_t)tagc_mp_be32(d->p + 2), 0, 0);
        d->p += 6;
        return 0;
    }
    if (left(d) >= 10 && q[0] == 0xd7 && q[1] == 0xff) {
        uint64_t v = tagc_mp_be64(d->p + 2);
        if ((v >> 34) < 1000000000u) {
            *out = tagc_time_from_unix((int64_t)(v & ((UINT64_C(1) << 34) - 1)), (int32_t)(v >> 34), 0);
            d->p += 10;
            return 0;
        }
    }
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind != MP_EXT)
        return wrong(d, at, &h, "timestamp");
    if (h.ext != -1 && h.ext != 13) { /* vmihailenco v5.4.1 takes 13 too (NodeJS's) */
        char t[8];
        snprintf(t, sizeof t, "%d", h.ext);
        return fail_at(d, at, TAGC_E_TYPE, "expected timestamp (ext -1 or 13), found ext %s", t);
    }
    const uint8_t *p = cur(d);
    d->p += h.len;
    return timestamp(d, at, p, h.len, out);
}

/* MARK: - Maps, arrays, keys */

static int container_begin(tagc_mp_dec *d, size_t *n, mp_kind want)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind != want)
        return wrong(d, at, &h, kind_name(want));
    if (d->depth >= d->max_depth)
        return fail_at(d, at, TAGC_E_DEPTH, "exceeded max depth");
    d->depth++;
    *n = h.len;
    return 0;
}

int tagc_mp_map_begin_slow(tagc_mp_dec *d, size_t *n)
{
    return container_begin(d, n, MP_MAP);
}

int tagc_mp_arr_begin_slow(tagc_mp_dec *d, size_t *n)
{
    return container_begin(d, n, MP_ARR);
}

int tagc_mp_read_key_slow(tagc_mp_dec *d, const char **key, size_t *len)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind == MP_NIL) { /* vmihailenco/msgpack reads a nil key as "" */
        *key = d->p;
        *len = 0;
        return 0;
    }
    if (h.kind != MP_STR && h.kind != MP_BIN)
        return fail_at(d, at, TAGC_E_TYPE, "expected a str key, found %s", kind_name(h.kind));
    *key = d->p;
    *len = h.len;
    d->p += h.len;
    return 0;
}

int tagc_mp_key_find(const tagc_mp_key *keys, const uint16_t *sorted, size_t n, const char *key,
                     size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const tagc_mp_key *k = &keys[sorted[mid]];
        size_t h = tagc_mp_key_head(k->enc), klen = k->len - h;
        int c = klen != len ? (klen < len ? -1 : 1) : memcmp(k->enc + h, key, len);
        if (c == 0)
            return sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* An integer key: any integer format, or a str of its decimal text. */
static int key_number(tagc_mp_dec *d, const char *at, mp_head *h)
{
    int rc = read_head(d, h);
    if (rc)
        return rc;
    if (h->kind == MP_UINT || h->kind == MP_NEG)
        return 0;
    if (h->kind != MP_STR)
        return wrong(d, at, h, "integer key");
    const char *s = d->p;
    size_t n = h->len;
    d->p += n;
    if (n > 0 && n == tagc_json_number_len(s, s + n)) {
        if (s[0] == '-') {
            if (tagc_parse_i64(s, n, &h->i) == 0) {
                if (h->i >= 0) { /* "-0" */
                    h->kind = MP_UINT;
                    h->u = 0;
                } else {
                    h->kind = MP_NEG;
                }
                return 0;
            }
            h->kind = MP_NEG;
            h->i = INT64_MIN;
            return fail_at(d, at, TAGC_E_RANGE, "integer key out of range");
        }
        int r = tagc_parse_u64(s, n, &h->u);
        if (r == 0) {
            h->kind = MP_UINT;
            return 0;
        }
        if (r == TAGC_E_RANGE)
            return fail_at(d, at, TAGC_E_RANGE, "integer key out of range");
    }
    return fail_at(d, at, TAGC_E_TYPE, "map key is not an integer");
}

int tagc_mp_key_int(tagc_mp_dec *d, int64_t *out, int64_t min, int64_t max)
{
    const char *at = d->p;
    mp_head h;
    int rc = key_number(d, at, &h);
    if (rc)
        return rc;
    if (h.kind == MP_UINT ? h.u > (uint64_t)max : h.i < min)
        return range_fail(d, at, &h);
    *out = h.kind == MP_UINT ? (int64_t)h.u : h.i;
    return 0;
}

int tagc_mp_key_uint(tagc_mp_dec *d, uint64_t *out, uint64_t max)
{
    const char *at = d->p;
    mp_head h;
    int rc = key_number(d, at, &h);
    if (rc)
        return rc;
    if (h.kind != MP_UINT || h.u > max)
        return range_fail(d, at, &h);
    *out = h.u;
    return 0;
}

/* MARK: - Skipping */

static int walk_value(tagc_mp_dec *d, tagc_buf *b);

/* Skipping is walk_value without output: a fixed C stack at every depth. */
int tagc_mp_skip(tagc_mp_dec *d)
{
    return walk_value(d, NULL);
}

/* MARK: - interface{} */

/* Out of any_value's frame, which every level of nesting repeats: the
 * buffers of the rare cases (tests/errors/test_stack.c measures the frame). */
#if defined(__GNUC__)
#define ANY_COLD __attribute__((noinline))
#else
#define ANY_COLD
#endif



static tagc_any *any_new(tagc_mp_dec *d, const char *at, tagc_any_kind k)
{
    tagc_any *a = tagc_arena_alloc(d->arena, sizeof *a);
    if (!a) {
        nomem(d, at);
        return NULL;
    }
    memset(a, 0, sizeof *a);
    a->kind = k;
    return a;
}

/* A map key for a tree or JSON text: a str or bin as is, an integer as its decimal text. */
static int text_key(tagc_mp_dec *d, tagc_str *key, char *tmp)
{
    const char *at = d->p;
    mp_head h;
    int rc = read_head(d, &h);
    if (rc)
        return rc;
    if (h.kind == MP_STR || h.kind == MP_BIN) {
        key->ptr = (char *)d->p;
        key->len = h.len;
        d->p += h.len;
        return 0;
    }
    if (h.kind == MP_UINT || h.kind == MP_NEG) {
        key->ptr = tmp;
        key->len = h.kind == MP_UINT ? tagc_fmt_u64(tmp, h.u) : tagc_fmt_i64(tmp, h.i);
        return 0;
    }
    if (h.kind == MP_NIL) { /* vmihailenco/msgpack reads a nil string key as "" */
        key->ptr = tmp;
        key->len = 0;
        return 0;
    }
    return fail_at(d, at, TAGC_E_TYPE, "expected a str or integer key, found %s", kind_name(h.kind));
}

static int any_string(tagc_mp_dec *d, const char *at, const char *s, size_t n, tagc_any **out)
{
    tagc_any *a = any_new(d, at, TAGC_ANY_STRING);
    char *p = a ? tagc_arena_alloc(d->arena, n + 1) : NULL;
    if (!p)
        return a ? nomem(d, at) : TAGC_E_NOMEM;
    memcpy(p, s, n);
    p[n] = 0;
    a->u.str.ptr = p;
    a->u.str.len = n;
    *out = a;
    return 0;
}

/* An array or map being read (any_value's explicit stack): a level of nesting
 * costs one of these, on the C stack for the first few and on the heap after,
 * and no C stack frame (tests/errors/test_stack.c). */
typedef struct mp_frame {
    tagc_any *a;
    const char *at; /* where its head is (out of memory is reported there) */
    size_t n, i;    /* members in all, read */
    tagc_any **vals; /* an array's items, a map's values */
    tagc_str *keys;
    size_t len, kcap, vcap;
    tagc_map_index ix;
    size_t slot; /* a map's member being read */
} mp_frame;

#define MP_LOCAL_FRAMES 4

typedef struct mp_frames {
    mp_frame *f;
    size_t n, cap;
    mp_frame local[MP_LOCAL_FRAMES];
} mp_frames;

static mp_frame *mp_push(mp_frames *s)
{
    if (s->n == s->cap) {
        mp_frame *f = any_frames_grow(s->f, s->local, s->n, &s->cap, sizeof *f);
        if (!f)
            return NULL;
        s->f = f;
    }
    return &s->f[s->n++];
}

/* The next member of f (a map's key, copied, and its slot); sets *dst to where
 * its value goes. */
static int any_member_head(tagc_mp_dec *d, mp_frame *f, tagc_any ***dst)
{
    if (f->a->kind == TAGC_ANY_ARRAY) {
        *dst = &f->vals[f->i];
        return 0;
    }
    char tmp[TAGC_I64_MAX_CHARS];
    tagc_str key = {0}; /* set by text_key when it returns 0 */
    const char *kat = d->p;
    int rc;
    if ((rc = text_key(d, &key, tmp)) != 0)
        return rc;
    if (key.ptr == tmp && key.len) /* vmihailenco's map[string]interface{} takes no integer key */
        return fail_at(d, kat, TAGC_E_TYPE, "expected a str key in an interface{} map, found integer");
    if (f->len == f->kcap && !(f->keys = tagc_json_grow(d, f->keys, &f->kcap, sizeof *f->keys)))
        return TAGC_E_NOMEM;
    if (f->len == f->vcap && !(f->vals = tagc_json_grow(d, f->vals, &f->vcap, sizeof *f->vals)))
        return TAGC_E_NOMEM;
    long slot = tagc_map_slot_str(d, &f->ix, f->keys, f->len, key.ptr, key.len);
    if (slot < 0)
        return (int)slot;
    if ((size_t)slot == f->len) {
        char *k = tagc_arena_alloc(d->arena, key.len + 1);
        if (!k)
            return nomem(d, f->at);
        memcpy(k, key.ptr, key.len);
        k[key.len] = 0;
        f->keys[f->len].ptr = k;
        f->keys[f->len].len = key.len;
        f->vals[f->len] = NULL;
        f->len++;
    }
    f->slot = (size_t)slot;
    *dst = &f->vals[slot];
    return 0;
}

/* Stores what f read into its value. */
static void any_close(mp_frame *f)
{
    tagc_any *a = f->a;
    if (a->kind == TAGC_ANY_ARRAY) {
        a->u.arr.items = f->vals;
        a->u.arr.len = f->n;
    } else {
        a->u.obj.keys = f->keys;
        a->u.obj.vals = f->vals;
        a->u.obj.len = f->len;
    }
}

/* A timestamp extension, as its RFC 3339 text. */
static ANY_COLD int any_ext(tagc_mp_dec *d, const char *at, const mp_head *h, tagc_any **out)
{
    const uint8_t *p = cur(d);
    tagc_time t;
    char text[TAGC_TIME_MAX_CHARS];
    size_t n;
    int rc;
    d->p += h->len;
    if (h->ext != -1)
        return fail_at(d, at, TAGC_E_TYPE, "ext type cannot be held by interface{}");
    if ((rc = timestamp(d, at, p, h->len, &t)) != 0)
        return rc;
    if ((n = tagc_time_format(text, &t, TAGC_GO_DEFAULT)) == 0)
        return fail_at(d, at, TAGC_E_RANGE, "timestamp outside years 0-9999");
    return any_string(d, at, text, n, out);
}

/* A value into *out; an array or map is opened: a frame pushed on st (its
 * members follow from any_value's loop). */
static int any_one(tagc_mp_dec *d, tagc_any **out, mp_frames *st)
{
    const char *at = d->p;
    mp_head h;
    tagc_any *a;
    int rc = read_head(d, &h);
    *out = NULL;
    if (rc)
        return rc;
    switch (h.kind) {
    case MP_NIL:
        return 0;
    case MP_BOOL:
        if (!(a = any_new(d, at, TAGC_ANY_BOOL)))
            return TAGC_E_NOMEM;
        a->u.b = h.b;
        break;
    case MP_F64:
        if (!(a = any_new(d, at, TAGC_ANY_NUMBER)))
            return TAGC_E_NOMEM;
        a->u.num = h.f;
        break;
    case MP_UINT:
    case MP_NEG:
    case MP_F32: { /* kept in its format: written back as it came */
        uint8_t c = (uint8_t)*at;
        if (!(a = any_new(d, at, TAGC_ANY_MP_NUMBER)))
            return TAGC_E_NOMEM;
        a->u.mp.format = c < 0x80 ? 0x00 : c >= 0xe0 ? 0xe0 : c;
        if (h.kind == MP_F32) {
            float f = (float)h.f; /* exact: it was a float 32 */
            uint32_t u;
            memcpy(&u, &f, 4);
            a->u.mp.bits = u;
        } else {
            a->u.mp.bits = h.kind == MP_NEG ? (uint64_t)h.i : h.u;
        }
        break;
    }
    case MP_STR:
    case MP_BIN: {
        const char *s = d->p;
        d->p += h.len;
        return any_string(d, at, s, h.len, out);
    }
    case MP_EXT:
        return any_ext(d, at, &h, out);
    case MP_ARR:
    case MP_MAP: {
        if (d->depth >= d->max_depth)
            return fail_at(d, at, TAGC_E_DEPTH, "exceeded max depth");
        if (!(a = any_new(d, at, h.kind == MP_ARR ? TAGC_ANY_ARRAY : TAGC_ANY_OBJECT)))
            return TAGC_E_NOMEM;
        tagc_any **items = NULL;
        if (h.kind == MP_ARR && h.len) { /* the count was checked against the bytes left */
            if (!(items = tagc_arena_alloc(d->arena, h.len * sizeof *items)))
                return nomem(d, at);
        }
        mp_frame *f = mp_push(st);
        if (!f)
            return nomem(d, at);
        d->depth++;
        *f = (mp_frame){a, at, h.len, 0, items, NULL, 0, 0, 0, {NULL, 0}, 0};
        break;
    }
    default:
        return wrong(d, at, &h, "a value");
    }
    *out = a;
    return 0;
}

/* Iterative: arrays and maps are frames of st. An error in a member's value
 * adds the member (index or key) of every open frame to the path; an error of
 * a frame's own (a map's key), every frame but that one (as the recursion did). */
static int any_value(tagc_mp_dec *d, tagc_any **out)
{
    mp_frames st;
    st.f = st.local;
    st.n = 0;
    st.cap = MP_LOCAL_FRAMES;
    tagc_any **dst = out;
    bool in_member; /* rc is from a member's value (else from the frame's own) */
    int rc;
    for (;;) {
        in_member = true;
        size_t open = st.n;
        if ((rc = any_one(d, dst, &st)) != 0)
            goto fail;
        if (open > 0 && st.n == open) /* a member that opened nothing: done */
            st.f[open - 1].i++;
        in_member = false;
        for (;;) { /* the next member of the innermost open value; close the ones done */
            if (st.n == 0)
                goto done;
            mp_frame *f = &st.f[st.n - 1];
            if (f->i == f->n) {
                any_close(f);
                st.n--;
                d->depth--;
                if (st.n > 0)
                    st.f[st.n - 1].i++;
                continue;
            }
            if ((rc = any_member_head(d, f, &dst)) != 0)
                goto fail;
            break;
        }
    }
fail:
    for (size_t i = st.n; i-- > 0;) {
        mp_frame *f = &st.f[i];
        if (in_member || i + 1 < st.n)
            rc = f->a->kind == TAGC_ANY_ARRAY
                     ? tagc_json_fail_index(d, rc, f->i)
                     : tagc_json_fail_key(d, rc, f->keys[f->slot].ptr, f->keys[f->slot].len);
        d->depth--;
    }
    st.n = 0;
done:
    if (st.f != st.local)
        free(st.f);
    return rc;
}

int tagc_mp_read_any(tagc_mp_dec *d, tagc_any **out)
{
    tagc_any *a = NULL;
    int rc = any_value(d, &a);
    *out = rc == 0 ? a : NULL;
    return rc;
}

/* MARK: - json.RawMessage */


static int raw_text(tagc_mp_dec *d, tagc_buf *b, const char *at, const mp_head *h)
{
    const uint8_t *p = cur(d);
    d->p += h->len;
    if (h->kind == MP_STR) {
        tagc_json_write_str(b, (const char *)p, h->len, TAGC_ESC_HTML | TAGC_GO_DEFAULT);
    } else if (h->kind == MP_BIN) {
        tagc_json_write_bytes(b, p, h->len, false);
    } else {
        tagc_time t;
        int rc;
        if (h->ext != -1)
            return fail_at(d, at, TAGC_E_TYPE, "ext type cannot be held by json.RawMessage");
        if ((rc = timestamp(d, at, p, h->len, &t)) != 0)
            return rc;
        size_t start = b->len;
        tagc_json_write_time(b, &t, TAGC_GO_DEFAULT);
        if (b->err && b->err != TAGC_E_NOMEM) {
            b->len = start;
            return fail_at(d, at, TAGC_E_RANGE, "timestamp outside years 0-9999");
        }
    }
    return 0;
}

/* One value that is not an array or map (its head h read from at): as JSON
 * text into b, or skipped (b NULL). */
static int walk_scalar(tagc_mp_dec *d, tagc_buf *b, const char *at, const mp_head *h)
{
    int rc;
    if (!b) {
        if (h->kind == MP_NEVER)
            return wrong(d, at, h, "a value");
        if (h->kind == MP_STR || h->kind == MP_BIN || h->kind == MP_EXT)
            d->p += h->len;
        return 0;
    }
    switch (h->kind) {
    case MP_NIL:
        tagc_buf_put(b, "null", 4);
        break;
    case MP_BOOL:
        tagc_json_write_bool(b, h->b);
        break;
    case MP_UINT:
        tagc_json_write_u64(b, h->u);
        break;
    case MP_NEG:
        tagc_json_write_i64(b, h->i);
        break;
    case MP_F32:
    case MP_F64:
        if (h->f - h->f != 0)
            return fail_at(d, at, TAGC_E_RANGE, "NaN or infinity has no JSON form");
        if (h->kind == MP_F32)
            tagc_json_write_f32(b, (float)h->f);
        else
            tagc_json_write_f64(b, h->f);
        break;
    case MP_STR:
    case MP_BIN:
    case MP_EXT:
        if ((rc = raw_text(d, b, at, h)) != 0)
            return rc;
        break;
    default:
        return wrong(d, at, h, "a value");
    }
    if (b->err)
        return fail_at(d, at, b->err, "%s", tagc_strerror(b->err));
    return 0;
}

/* An array or map walk_value is in: a level costs one of these (the first
 * few on the C stack, the rest on the heap) and no C stack frame. */
typedef struct walk_frame {
    const char *at;     /* its head */
    const char *key_at; /* a map's key being read (JSON text only) */
    size_t n, i;        /* members in all, read */
    bool map;
    bool half;          /* skipping a map: its member's key is skipped, its value next */
} walk_frame;

/* An item of f is read: a member, or when skipping a map its key first. */
static void walk_item_done(walk_frame *f, bool skipping)
{
    if (skipping && f->map && !f->half) {
        f->half = true;
        return;
    }
    f->half = false;
    f->i++;
}

#define WALK_LOCAL_FRAMES 8

/* A map's key at f->key_at, again: for the path of an error in its value. */
static tagc_str walk_key(tagc_mp_dec *d, const walk_frame *f, char *tmp)
{
    tagc_str key = {0};
    const char *p = d->p;
    d->p = f->key_at;
    (void)text_key(d, &key, tmp); /* it was read before: no error */
    d->p = p;
    return key;
}

/* The JSON text between f's items: the ',' and a map's key and ':'. */
static int walk_member_head(tagc_mp_dec *d, tagc_buf *b, walk_frame *f)
{
    if (f->i)
        tagc_buf_byte(b, ',');
    if (f->map) {
        char tmp[TAGC_I64_MAX_CHARS];
        tagc_str key = {0}; /* set by text_key when it returns 0 */
        int rc;
        f->key_at = d->p;
        if ((rc = text_key(d, &key, tmp)) != 0)
            return rc;
        tagc_json_write_str(b, key.ptr, key.len, TAGC_ESC_HTML | TAGC_GO_DEFAULT);
        tagc_buf_byte(b, ':');
    }
    return 0;
}

/* One value, nested arrays and maps included: into b as JSON text (a
 * RawMessage), or skipped (b NULL). Iterative, with an explicit stack of
 * frames, so the C stack it needs does not grow with the depth
 * (tests/errors/test_stack.c). An error in an item adds the item (index, or a
 * map's key when writing JSON) of every open frame to the path, as the
 * recursion did; an error of a frame's own (a key), every frame but that one. */
static int walk_value(tagc_mp_dec *d, tagc_buf *b)
{
    walk_frame local[WALK_LOCAL_FRAMES], *st = local;
    size_t n = 0, cap = WALK_LOCAL_FRAMES;
    bool in_member; /* rc is from an item (else from the innermost frame's own) */
    int rc;
    for (;;) {
        in_member = true;
        const char *at = d->p;
        mp_head h;
        if ((rc = read_head(d, &h)) != 0)
            goto fail;
        if (h.kind == MP_ARR || h.kind == MP_MAP) {
            if (d->depth >= d->max_depth) {
                rc = fail_at(d, at, TAGC_E_DEPTH, "exceeded max depth");
                goto fail;
            }
            if (n == cap) {
                walk_frame *f = any_frames_grow(st, local, n, &cap, sizeof *st);
                if (!f) {
                    rc = nomem(d, at);
                    goto fail;
                }
                st = f;
            }
            walk_frame *f = &st[n++];
            d->depth++;
            f->at = at;
            f->key_at = NULL;
            f->map = h.kind == MP_MAP;
            f->n = h.len;
            f->i = 0;
            f->half = false;
            if (b)
                tagc_buf_byte(b, f->map ? '{' : '[');
        } else if ((rc = walk_scalar(d, b, at, &h)) != 0) {
            goto fail;
        } else if (n > 0) {
            walk_item_done(&st[n - 1], !b);
        }
        for (;;) { /* the next item of the innermost frame; close the ones done */
            if (n == 0)
                goto done;
            walk_frame *f = &st[n - 1];
            if (f->i < f->n) {
                in_member = false;
                if (b && (rc = walk_member_head(d, b, f)) != 0)
                    goto fail;
                break;
            }
            n--;
            d->depth--;
            if (b) {
                tagc_buf_byte(b, f->map ? '}' : ']');
                if (b->err) {
                    rc = fail_at(d, f->at, b->err, "%s", tagc_strerror(b->err));
                    in_member = true;
                    goto fail;
                }
            }
            if (n > 0)
                walk_item_done(&st[n - 1], !b);
        }
    }
fail:
    for (size_t k = n; k-- > 0;) {
        walk_frame *f = &st[k];
        if (in_member || k + 1 < n) {
            if (!f->map) {
                rc = tagc_json_fail_index(d, rc, f->i);
            } else if (b) {
                char tmp[TAGC_I64_MAX_CHARS];
                tagc_str key = walk_key(d, f, tmp);
                rc = tagc_json_fail_key(d, rc, key.ptr, key.len);
            }
        }
        d->depth--;
    }
done:
    if (st != local)
        free(st);
    return rc;
}

/* A bin or str holding JSON text (vmihailenco/msgpack's json.RawMessage). */
static int raw_bin_text(tagc_mp_dec *d, const char *at, const mp_head *h, tagc_raw *out)
{
    const char *text = d->p;
    tagc_json_dec jd;
    tagc_error jerr;
    tagc_json_dec_init(&jd, text, h->len, d->arena, &jerr, NULL);
    if (tagc_json_dec_finish(&jd, tagc_json_skip(&jd)) != 0)
        return fail_at(d, at, TAGC_E_INVALID, "json.RawMessage: the bin is not JSON: %s", jerr.message);
    char *s = tagc_arena_alloc(d->arena, h->len + 1);
    if (!s)
        return nomem(d, at);
    if (h->len)
        memcpy(s, text, h->len);
    s[h->len] = 0;
    out->ptr = s;
    out->len = h->len;
    d->p += h->len;
    return 0;
}

int tagc_mp_read_raw(tagc_mp_dec *d, tagc_raw *out)
{
    if (tagc_mp_nil(d)) {
        out->ptr = NULL;
        out->len = 0;
        return 0;
    }
    {
        const char *at = d->p;
        mp_head h;
        int rc = read_head(d, &h);
        if (rc)
            return rc;
        if (h.kind == MP_BIN || h.kind == MP_STR)
            return raw_bin_text(d, at, &h, out);
        d->p = at; /* any other value: turned into JSON text */
    }
    tagc_buf b;
    tagc_buf_init(&b);
    const char *at = d->p;
    int rc = walk_value(d, &b);
    if (rc == 0) {
        char *s = tagc_arena_alloc(d->arena, b.len + 1);
        if (!s) {
            rc = nomem(d, at);
        } else {
            memcpy(s, b.data, b.len);
            s[b.len] = 0;
            out->ptr = s;
            out->len = b.len;
        }
    }
    tagc_buf_free(&b);
    return rc;
}
