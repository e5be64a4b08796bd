/*
 * msgpack_write.c - writing MessagePack: the smallest format for every integer,
 * string, bin, array and map; floats at their width; time.Time as the timestamp
 * extension (type -1); json.RawMessage as the MessagePack form of its JSON; and
 * interface{} trees. Errors are sticky in the tagc_buf, as for JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "tagc.h"
#include "any_frames.h"

/* MARK: - Big-endian heads */

static void put_u8(tagc_buf *b, uint8_t tag, uint8_t v)
{
    uint8_t t[2] = {tag, v};
    tagc_buf_put(b, t, 2);
}

static void put_u16(tagc_buf *b, uint8_t tag, uint16_t v)
{
    uint8_t t[3] = {tag, (uint8_t)(v >> 8), (uint8_t)v};
    tagc_buf_put(b, t, 3);
}

static void put_u32(tagc_buf *b, uint8_t tag, uint32_t v)
{
    uint8_t t[5] = {tag, (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    tagc_buf_put(b, t, 5);
}

static void put_u64(tagc_buf *b, uint8_t tag, uint64_t v)
{
    uint8_t t[9];
    t[0] = tag;
    for (int i = 0; i < 8; i++)
        t[1 + i] = (uint8_t)(v >> (56 - 8 * i));
    tagc_buf_put(b, t, 9);
}

/* MARK: - Scalars */

void tagc_mp_write_bool(tagc_buf *b, bool v)
{
    tagc_buf_byte(b, v ? 0xc3 : 0xc2);
}

void tagc_mp_write_uint(tagc_buf *b, uint64_t v)
{
    if (v < 128)
        tagc_buf_byte(b, (uint8_t)v); /* positive fixint */
    else if (v <= UINT8_MAX)
        put_u8(b, 0xcc, (uint8_t)v);
    else if (v <= UINT16_MAX)
        put_u16(b, 0xcd, (uint16_t)v);
    else if (v <= UINT32_MAX)
        put_u32(b, 0xce, (uint32_t)v);
    else
        put_u64(b, 0xcf, v);
}

void tagc_mp_write_int(tagc_buf *b, int64_t v)
{
    if (v >= 0)
        tagc_mp_write_uint(b, (uint64_t)v); /* non-negative: the unsigned formats are as small */
    else if (v >= -32)
        tagc_buf_byte(b, (uint8_t)(0xe0 | (uint8_t)(v + 32))); /* negative fixint */
    else if (v >= INT8_MIN)
        put_u8(b, 0xd0, (uint8_t)(int8_t)v);
    else if (v >= INT16_MIN)
        put_u16(b, 0xd1, (uint16_t)(int16_t)v);
    else if (v >= INT32_MIN)
        put_u32(b, 0xd2, (uint32_t)(int32_t)v);
    else
        put_u64(b, 0xd3, (uint64_t)v);
}

void tagc_mp_write_sized(tagc_buf *b, uint8_t code, uint64_t v, int width)
{
    uint8_t t[9];
    tagc_buf_put(b, t, (size_t)(tagc_mp_put_sized(t, code, v, width) - t));
}

void tagc_mp_write_f32(tagc_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(b, 0xca, u);
}

void tagc_mp_write_f64(tagc_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u64(b, 0xcb, u);
}

/* MARK: - Strings, bin, containers, ext */

/* Whether a length fits MessagePack's 32-bit ones: always where size_t has 32
 * bits (and the comparison would be one that is always true). */
static bool fits_u32(size_t n)
{
#if SIZE_MAX > UINT32_MAX
    return n <= UINT32_MAX;
#else
    (void)n;
    return true;
#endif
}

static void str_header(tagc_buf *b, size_t n)
{
    if (n < 32)
        tagc_buf_byte(b, (uint8_t)(0xa0 | n));
    else if (n <= UINT8_MAX)
        put_u8(b, 0xd9, (uint8_t)n);
    else if (n <= UINT16_MAX)
        put_u16(b, 0xda, (uint16_t)n);
    else if (fits_u32(n))
        put_u32(b, 0xdb, (uint32_t)n);
    else
        tagc_buf_fail(b, TAGC_E_INVALID); /* longer than MessagePack can say */
}

void tagc_mp_write_str(tagc_buf *b, const char *s, size_t n)
{
    str_header(b, n);
    if (n)
        tagc_buf_put(b, s, n);
}

void tagc_mp_write_bin(tagc_buf *b, const uint8_t *p, size_t n)
{
    if (n <= UINT8_MAX)
        put_u8(b, 0xc4, (uint8_t)n);
    else if (n <= UINT16_MAX)
        put_u16(b, 0xc5, (uint16_t)n);
    else if (fits_u32(n))
        put_u32(b, 0xc6, (uint32_t)n);
    else
        tagc_buf_fail(b, TAGC_E_INVALID);
    if (n)
        tagc_buf_put(b, p, n);
}

void tagc_mp_write_bytes(tagc_buf *b, const tagc_bytes *v)
{
    if (v->ptr == NULL)
        tagc_mp_write_nil(b);
    else
        tagc_mp_write_bin(b, v->ptr, v->len);
}

void tagc_mp_write_array_slow(tagc_buf *b, size_t n)
{
    if (n < 16)
        tagc_buf_byte(b, (uint8_t)(0x90 | n));
    else if (n <= UINT16_MAX)
        put_u16(b, 0xdc, (uint16_t)n);
    else if (fits_u32(n))
        put_u32(b, 0xdd, (uint32_t)n);
    else
        tagc_buf_fail(b, TAGC_E_INVALID);
}

void tagc_mp_write_map_slow(tagc_buf *b, size_t n)
{
    if (n < 16)
        tagc_buf_byte(b, (uint8_t)(0x80 | n));
    else if (n <= UINT16_MAX)
        put_u16(b, 0xde, (uint16_t)n);
    else if (fits_u32(n))
        put_u32(b, 0xdf, (uint32_t)n);
    else
        tagc_buf_fail(b, TAGC_E_INVALID);
}

void tagc_mp_write_ext(tagc_buf *b, int8_t type, const uint8_t *data, size_t n)
{
    uint8_t t = (uint8_t)type;
    switch (n) {
    case 1: tagc_buf_byte(b, 0xd4); tagc_buf_byte(b, t); break;
    case 2: tagc_buf_byte(b, 0xd5); tagc_buf_byte(b, t); break;
    case 4: tagc_buf_byte(b, 0xd6); tagc_buf_byte(b, t); break;
    case 8: tagc_buf_byte(b, 0xd7); tagc_buf_byte(b, t); break;
    case 16: tagc_buf_byte(b, 0xd8); tagc_buf_byte(b, t); break;
    default:
        if (n <= UINT8_MAX)
            put_u8(b, 0xc7, (uint8_t)n);
        else if (n <= UINT16_MAX)
            put_u16(b, 0xc8, (uint16_t)n);
        else if (fits_u32(n))
            put_u32(b, 0xc9, (uint32_t)n);
        else
            tagc_buf_fail(b, TAGC_E_INVALID);
        tagc_buf_byte(b, t);
        break;
    }
    if (n)
        tagc_buf_put(b, data, n);
}

void tagc_mp_write_time(tagc_buf *b, const tagc_time *t)
{
    if (t->nsec < 0 || t->nsec >= 1000000000 || t->sec < INT64_MIN - TAGC_TIME_UNIX_OF_ZERO) {
        tagc_buf_fail(b, TAGC_E_INVALID);
        return;
    }
    int64_t sec = tagc_time_unix(t);
    uint32_t nsec = (uint32_t)t->nsec;
    uint8_t d[12];
    if (sec >= 0 && (sec >> 34) == 0) {
        uint64_t v = ((uint64_t)nsec << 34) | (uint64_t)sec;
        if ((v >> 32) == 0) { /* timestamp 32: nsec == 0 and sec < 2^32 */
            for (int i = 0; i < 4; i++)
                d[i] = (uint8_t)(v >> (24 - 8 * i));
            tagc_mp_write_ext(b, -1, d, 4);
        } else { /* timestamp 64 */
            for (int i = 0; i < 8; i++)
                d[i] = (uint8_t)(v >> (56 - 8 * i));
            tagc_mp_write_ext(b, -1, d, 8);
        }
        return;
    }
    /* timestamp 96: nsec as uint32, sec as int64 */
    for (int i = 0; i < 4; i++)
        d[i] = (uint8_t)(nsec >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        d[4 + i] = (uint8_t)((uint64_t)sec >> (56 - 8 * i));
    tagc_mp_write_ext(b, -1, d, 12);
}

static void write_dec_key(tagc_buf *b, const char *s, size_t n)
{
    tagc_buf_byte(b, (uint8_t)(0xa0 | n)); /* at most 20 digits: a fixstr */
    tagc_buf_put(b, s, n);
}

void tagc_mp_write_int_key(tagc_buf *b, int64_t v)
{
    char tmp[TAGC_I64_MAX_CHARS];
    write_dec_key(b, tmp, tagc_fmt_i64(tmp, v));
}

void tagc_mp_write_uint_key(tagc_buf *b, uint64_t v)
{
    char tmp[TAGC_I64_MAX_CHARS];
    write_dec_key(b, tmp, tagc_fmt_u64(tmp, v));
}

/* MARK: - interface{} */

/* The Go type of any's values, as the cycle message names it. */
static const char any_type[] = "interface {}";

/* A TAGC_ANY_MP_NUMBER in the format it was read in. */
static void write_mp_number(tagc_buf *b, uint8_t format, uint64_t bits)
{
    if (format == 0x00 || format == 0xe0) { /* a fixint is its own byte */
        uint8_t c = (uint8_t)bits;
        tagc_buf_put(b, &c, 1);
        return;
    }
    /* 0xca float 32; 0xcc..0xcf uint 8..64, 0xd0..0xd3 int 8..64 */
    int width = format == 0xca ? 4 : 1 << ((format - 0xcc) & 3);
    tagc_mp_write_sized(b, format, bits, width);
}

/* Writes a scalar, or opens an array or map: its head, and a frame on st (the
 * members follow from write_any's loop). Maps and arrays count levels against
 * b->max_depth (tagc_enc_enter); sorted: map keys by bytes (--msgpack-sort-keys). */
static void write_one(tagc_buf *b, const tagc_any *a, bool sorted, any_frames *st)
{
    if (b->err)
        return;
    if (!a) {
        tagc_mp_write_nil(b);
        return;
    }
    switch (a->kind) {
    case TAGC_ANY_NULL:
        tagc_mp_write_nil(b);
        return;
    case TAGC_ANY_BOOL:
        tagc_mp_write_bool(b, a->u.b);
        return;
    case TAGC_ANY_NUMBER:
        tagc_mp_write_f64(b, a->u.num);
        return;
    case TAGC_ANY_MP_NUMBER:
        write_mp_number(b, a->u.mp.format, a->u.mp.bits);
        return;
    case TAGC_ANY_STRING:
    case TAGC_ANY_NUMBER_TEXT: /* a json.Number: its text, as vmihailenco writes one */
        tagc_mp_write_str(b, a->u.str.ptr, a->u.str.len);
        return;
    case TAGC_ANY_ARRAY:
    case TAGC_ANY_OBJECT: {
        if (!tagc_enc_enter(b, b->max_depth, 0, a, any_type))
            return;
        any_frame *f = any_frames_push(st, a);
        if (!f) {
            tagc_buf_fail(b, TAGC_E_NOMEM); /* unwinds as a failed member would */
            return;
        }
        if (a->kind == TAGC_ANY_ARRAY) {
            tagc_mp_write_array(b, a->u.arr.len);
        } else {
            f->order = sorted ? tagc_mp_order_str(b, a->u.obj.keys, a->u.obj.len) : NULL;
            tagc_mp_write_map(b, a->u.obj.len);
        }
        return;
    }
    }
    tagc_buf_fail(b, TAGC_E_INVALID);
}

/* Iterative: nesting costs frames of st, not of the C stack. A failure
 * unwinds through every open frame (tagc_enc_failed_*: the path, a cycle). */
static void write_any(tagc_buf *b, const tagc_any *a, bool sorted)
{
    any_frames st;
    any_frames_init(&st);
    for (;;) {
        write_one(b, a, sorted, &st);
        a = NULL;
        while (st.n > 0 && !a) { /* the next member of the innermost open value */
            any_frame *f = &st.f[st.n - 1];
            const tagc_any *v = f->a;
            bool arr = v->kind == TAGC_ANY_ARRAY;
            if (f->next > 0) { /* the member written last: did it fail? */
                bool failed = arr ? tagc_enc_failed_index(b, v, any_type, f->cur)
                                  : tagc_enc_failed_key(b, v, any_type, v->u.obj.keys[f->cur].ptr,
                                                        v->u.obj.keys[f->cur].len);
                if (failed) {
                    free(f->order);
                    st.n--;
                    continue;
                }
            }
            if (f->next == (arr ? v->u.arr.len : v->u.obj.len)) {
                free(f->order);
                st.n--;
                tagc_enc_leave(b);
                continue;
            }
            size_t i = f->next++;
            if (arr) {
                f->cur = i;
                a = v->u.arr.items[i];
            } else {
                f->cur = f->order ? f->order[i] : i;
                tagc_mp_write_str(b, v->u.obj.keys[f->cur].ptr, v->u.obj.keys[f->cur].len);
                a = v->u.obj.vals[f->cur];
            }
            if (!a) /* a nil member: written here, the loop goes on */
                tagc_mp_write_nil(b);
        }
        if (!a)
            break;
    }
    any_frames_free(&st);
}

void tagc_mp_write_any(tagc_buf *b, const tagc_any *a)
{
    write_any(b, a, false);
}

void tagc_mp_write_any_sorted(tagc_buf *b, const tagc_any *a)
{
    write_any(b, a, true);
}

bool tagc_mp_any_empty(const tagc_any *a)
{
    if (!a)
        return true;
    switch (a->kind) {
    case TAGC_ANY_NULL:
        return true;
    case TAGC_ANY_BOOL:
        return !a->u.b;
    case TAGC_ANY_NUMBER:
        return a->u.num == 0;
    case TAGC_ANY_MP_NUMBER: /* 0, or a float 32 of +0 or -0 */
        return (a->u.mp.format == 0xca ? a->u.mp.bits & 0x7fffffffu : a->u.mp.bits) == 0;
    case TAGC_ANY_STRING:
    case TAGC_ANY_NUMBER_TEXT: /* a json.Number is a string to vmihailenco */
        return a->u.str.len == 0;
    case TAGC_ANY_ARRAY:
        return a->u.arr.len == 0;
    case TAGC_ANY_OBJECT:
        return a->u.obj.len == 0;
    }
    return false;
}

/* MARK: - json.RawMessage */

/*
 * The JSON text is converted value by value. A container's element count is
 * known only at its end, so its header is first written in its largest form
 * (5 bytes) and then shrunk to the smallest one, moving the contents back.
 */
typedef struct raw_conv {
    const char *p, *end;
    tagc_buf *b;
    int room; /* levels the encoder's limit leaves for the text's arrays and maps */
} raw_conv;

static inline void raw_ws(raw_conv *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
        c->p++;
}

static int raw_string(raw_conv *c, bool key)
{
    (void)key;
    bool needs;
    const char *body = c->p + 1;
    const char *q = tagc_json_scan_str(body, c->end, &needs);
    if (!q)
        return TAGC_E_INVALID;
    size_t n = (size_t)(q - body);
    c->p = q + 1;
    if (!needs) {
        tagc_mp_write_str(c->b, body, n);
        return 0;
    }
    /* unescape into the output, after a str32 head that is shrunk afterwards */
    tagc_buf *b = c->b;
    size_t room = TAGC_UNESCAPE_MAX(n);
    if (tagc_buf_reserve(b, 5 + room) != 0)
        return b->err;
    size_t head = b->len;
    size_t bad;
    long r = tagc_json_unescape((char *)b->data + head + 5, body, n, &bad);
    if (r < 0)
        return TAGC_E_INVALID;
    size_t len = (size_t)r;
    /* the smallest head, then the bytes moved to just after it */
    tagc_buf tmp;
    uint8_t h[5];
    tagc_buf_init_fixed(&tmp, h, sizeof h);
    str_header(&tmp, len);
    if (tmp.err)
        return tmp.err;
    memmove(b->data + head + tmp.len, b->data + head + 5, len);
    memcpy(b->data + head, h, tmp.len);
    b->len = head + tmp.len + len;
    return 0;
}

static int raw_number(raw_conv *c)
{
    size_t n = tagc_json_number_len(c->p, c->end);
    if (n == 0)
        return TAGC_E_INVALID;
    int64_t i;
    uint64_t u;
    double f;
    if (tagc_parse_i64(c->p, n, &i) == 0)
        tagc_mp_write_int(c->b, i);
    else if (tagc_parse_u64(c->p, n, &u) == 0)
        tagc_mp_write_uint(c->b, u);
    else if (tagc_parse_f64(c->p, n, &f) == 0)
        tagc_mp_write_f64(c->b, f);
    else
        return TAGC_E_INVALID; /* out of float64's range: Go rejects it too */
    c->p += n;
    return 0;
}

static int raw_value(raw_conv *c, int depth);

/* Replaces the 5-byte placeholder at head with the smallest header for n items. */
static int raw_close(raw_conv *c, size_t head, size_t n, bool map)
{
    tagc_buf *b = c->b;
    if (b->err)
        return b->err;
    tagc_buf tmp;
    uint8_t h[5];
    tagc_buf_init_fixed(&tmp, h, sizeof h);
    if (map)
        tagc_mp_write_map(&tmp, n);
    else
        tagc_mp_write_array(&tmp, n);
    if (tmp.err)
        return tmp.err;
    size_t body = b->len - head - 5;
    memmove(b->data + head + tmp.len, b->data + head + 5, body);
    memcpy(b->data + head, h, tmp.len);
    b->len = head + tmp.len + body;
    return 0;
}

static int raw_container(raw_conv *c, int depth, bool map)
{
    char close = map ? '}' : ']';
    tagc_buf *b = c->b;
    size_t head = b->len;
    size_t n = 0;
    int rc;
    tagc_buf_put(b, "\0\0\0\0\0", 5);
    c->p++;
    raw_ws(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        return raw_close(c, head, 0, map);
    }
    for (;;) {
        raw_ws(c);
        if (map) {
            if (c->p >= c->end || *c->p != '"')
                return TAGC_E_INVALID;
            if ((rc = raw_string(c, true)) != 0)
                return rc;
            raw_ws(c);
            if (c->p >= c->end || *c->p != ':')
                return TAGC_E_INVALID;
            c->p++;
        }
        if ((rc = raw_value(c, depth + 1)) != 0)
            return rc;
        n++;
        raw_ws(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == close) {
            c->p++;
            return raw_close(c, head, n, map);
        }
        return TAGC_E_INVALID;
    }
}

static int raw_value(raw_conv *c, int depth)
{
    if (c->b->err)
        return c->b->err;
    raw_ws(c);
    if (c->p >= c->end)
        return TAGC_E_INVALID;
    if (depth >= c->room && (*c->p == '[' || *c->p == '{'))
        return TAGC_E_DEPTH; /* the decoder would refuse it at the same limit */
    size_t left = (size_t)(c->end - c->p);
    switch (*c->p) {
    case 'n':
        if (left < 4 || memcmp(c->p, "null", 4) != 0)
            return TAGC_E_INVALID;
        c->p += 4;
        tagc_mp_write_nil(c->b);
        return 0;
    case 't':
        if (left < 4 || memcmp(c->p, "true", 4) != 0)
            return TAGC_E_INVALID;
        c->p += 4;
        tagc_mp_write_bool(c->b, true);
        return 0;
    case 'f':
        if (left < 5 || memcmp(c->p, "false", 5) != 0)
            return TAGC_E_INVALID;
        c->p += 5;
        tagc_mp_write_bool(c->b, false);
        return 0;
    case '"':
        return raw_string(c, false);
    case '[':
        return raw_container(c, depth, false);
    case '{':
        return raw_container(c, depth, true);
    default:
        return raw_number(c);
    }
}

void tagc_mp_write_raw(tagc_buf *b, const tagc_raw *r)
{
    if (r->ptr == NULL)
        tagc_mp_write_nil(b);
    else /* a []byte, as vmihailenco/msgpack writes a json.RawMessage */
        tagc_mp_write_bin(b, (const uint8_t *)r->ptr, r->len);
}

void tagc_mp_write_raw_value(tagc_buf *b, const tagc_raw *r)
{
    if (b->err)
        return;
    if (r->ptr == NULL) {
        tagc_mp_write_nil(b);
        return;
    }
    int max = b->max_depth > 0 ? b->max_depth : TAGC_DEFAULT_MAX_DEPTH;
    raw_conv c = {r->ptr, r->ptr + r->len, b, max - b->depth};
    int rc = raw_value(&c, 0);
    if (rc == 0) {
        raw_ws(&c);
        if (c.p != c.end)
            rc = TAGC_E_INVALID;
    }
    if (rc != 0)
        tagc_buf_fail(b, rc);
}

/* MARK: - Unchecked writing (the wide cases of the inline puts in tagc.h) */

uint8_t *tagc_mp_put_uint_wide(uint8_t *p, uint64_t v)
{
    if (v <= UINT8_MAX) {
        p[0] = 0xcc;
        p[1] = (uint8_t)v;
        return p + 2;
    }
    if (v <= UINT16_MAX) {
        p[0] = 0xcd;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)v;
        return p + 3;
    }
    if (v <= UINT32_MAX) {
        p[0] = 0xce;
        tagc_mp_store32(p + 1, (uint32_t)v);
        return p + 5;
    }
    p[0] = 0xcf;
    tagc_mp_store64(p + 1, v);
    return p + 9;
}

uint8_t *tagc_mp_put_int_wide(uint8_t *p, int64_t v)
{
    if (v >= 0)
        return v < 128 ? tagc_mp_put_uint(p, (uint64_t)v) : tagc_mp_put_uint_wide(p, (uint64_t)v);
    if (v >= -32) {
        *p = (uint8_t)v;
        return p + 1;
    }
    if (v >= INT8_MIN) {
        p[0] = 0xd0;
        p[1] = (uint8_t)v;
        return p + 2;
    }
    if (v >= INT16_MIN) {
        p[0] = 0xd1;
        p[1] = (uint8_t)((uint64_t)v >> 8);
        p[2] = (uint8_t)v;
        return p + 3;
    }
    if (v >= INT32_MIN) {
        p[0] = 0xd2;
        tagc_mp_store32(p + 1, (uint32_t)v);
        return p + 5;
    }
    p[0] = 0xd3;
    tagc_mp_store64(p + 1, (uint64_t)v);
    return p + 9;
}

uint8_t *tagc_mp_put_str_head_wide(uint8_t *p, size_t n)
{
    if (n < 32) {
        *p = (uint8_t)(0xa0 | n);
        return p + 1;
    }
    if (n <= UINT8_MAX) {
        p[0] = 0xd9;
        p[1] = (uint8_t)n;
        return p + 2;
    }
    if (n <= UINT16_MAX) {
        p[0] = 0xda;
        p[1] = (uint8_t)(n >> 8);
        p[2] = (uint8_t)n;
        return p + 3;
    }
    p[0] = 0xdb;
    tagc_mp_store32(p + 1, (uint32_t)n);
    return p + 5;
}

uint8_t *tagc_mp_put_time_wide(tagc_buf *b, uint8_t *p, const tagc_time *t)
{
    /* the same bytes tagc_mp_write_time writes, through a fixed buffer over p */
    tagc_buf tmp;
    tagc_buf_init_fixed(&tmp, p, 15);
    tagc_mp_write_time(&tmp, t);
    if (tmp.err != 0) {
        if (b->spill != NULL) /* the bytes before it are written first, and may not fit */
            tagc_buf_put(b, b->spill, (size_t)(p - b->spill));
        tagc_buf_fail(b, tmp.err);
        return p;
    }
    return p + tmp.len;
}

uint8_t *tagc_mp_room_slow(tagc_buf *b, size_t fixed, size_t var)
{
    if (fixed == 0)
        fixed = 1; /* room for a byte: p is never NULL without an error */
    if (b->err != 0)
        return NULL;
    if (var > UINT32_MAX) { /* some string is longer than MessagePack can say */
        tagc_buf_fail(b, TAGC_E_INVALID);
        return NULL;
    }
    if (fixed > SIZE_MAX - var) { /* more than memory holds */
        tagc_buf_fail(b, b->fixed ? TAGC_E_FULL : TAGC_E_NOMEM);
        return NULL;
    }
    if (!b->fixed)
        return tagc_buf_grow(b, fixed + var) == 0 ? b->data + b->len : NULL;
    /* A fixed buffer without room for the bound: the run may still fit (the
     * bound counts 9 bytes an integer), but not when its strings alone do not. */
    if (var > b->cap - b->len) {
        tagc_buf_fail(b, TAGC_E_FULL);
        return NULL;
    }
    b->spill = malloc(fixed + var);
    if (b->spill == NULL)
        tagc_buf_fail(b, TAGC_E_NOMEM);
    return b->spill;
}

void tagc_mp_done_spill(tagc_buf *b, uint8_t *p)
{
    tagc_buf_put(b, b->spill, (size_t)(p - b->spill));
    free(b->spill);
    b->spill = NULL;
}

/* MARK: - Exit of an encode */

int tagc_mp_enc_finish(tagc_buf *out, size_t start)
{
    tagc_enc_done(out);
    if (out->err != 0) {
        if (start <= out->len)
            out->len = start; /* never a half-written value */
        return out->err;
    }
    return 0;
}
