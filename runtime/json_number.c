/*
 * json_number.c - json.Number: a number's text, kept verbatim, as Go 1.19
 * reads and writes it.
 *
 * Reading: a JSON number is kept as written (1e999 and -0 included); a JSON
 * string is taken when its (unescaped) text is a valid number, else
 * "invalid number literal". With the `string` option the value must be a
 * string whose text starts with '-' or a digit (kept verbatim, unchecked, as
 * Go keeps it: writing it back then fails), is a quoted valid number, or is
 * null. Writing: "" is 0 (Go's zero Number), an invalid text TAGC_E_INVALID.
 */
#include <string.h>

#include "tagc.h"

bool tagc_json_number_valid(const char *s, size_t n)
{
    return n > 0 && tagc_json_number_len(s, s + n) == n;
}

/* A copy of n bytes at s in the decoder's arena. */
static int keep(tagc_json_dec *d, const char *s, size_t n, tagc_number *out)
{
    char *t = (char *)tagc_arena_alloc(d->arena, n + 1);
    if (t == NULL)
        return tagc_json_fail(d, TAGC_E_NOMEM, "out of memory");
    memcpy(t, s, n);
    t[n] = '\0';
    out->ptr = t;
    out->len = n;
    return 0;
}

int tagc_json_read_number(tagc_json_dec *d, tagc_number *out)
{
    tagc_json_ws(d);
    const char *at = d->p;
    if (at < d->end && *at == '"') {
        tagc_str s;
        int rc = tagc_json_read_str(d, &s);
        if (rc != 0)
            return rc;
        if (!tagc_json_number_valid(s.ptr, s.len)) {
            d->p = at;
            return tagc_json_fail(d, TAGC_E_TYPE, "invalid number literal in a string for json.Number");
        }
        out->ptr = s.ptr;
        out->len = s.len;
        return 0;
    }
    size_t n = tagc_json_number_len(at, d->end);
    if (n == 0) {
        double ignored; /* not a number: the error a float field gives */
        return tagc_json_read_f64(d, &ignored);
    }
    d->p = at + n;
    return keep(d, at, n, out);
}

int tagc_json_read_number_quoted(tagc_json_dec *d, tagc_number *out, unsigned profile)
{
    tagc_json_ws(d);
    const char *at = d->p;
    if (at >= d->end || *at != '"') {
        if (at < d->end && (*at == '-' || (*at >= '0' && *at <= '9')))
            return tagc_json_fail(d, TAGC_E_TYPE, "the string option wants a quoted value, found number");
        double ignored;
        int rc = tagc_json_read_f64(d, &ignored);
        return rc != 0 ? rc : tagc_json_fail(d, TAGC_E_TYPE, "the string option wants a quoted value");
    }
    tagc_str s;
    int rc = tagc_json_read_str(d, &s);
    if (rc != 0)
        return rc;
    char c = s.len ? s.ptr[0] : '\0';
    /* Go 1.27 (Number.UnmarshalJSONFrom): a valid JSON number, "null" an error */
    bool v2 = profile & TAGC_QUOTED_STRCONV;
    if (!v2 && s.len == 4 && memcmp(s.ptr, "null", 4) == 0)
        return 1; /* leaves the value alone, a pointer nil */
    if (v2 ? tagc_json_number_valid(s.ptr, s.len) : c == '-' || (c >= '0' && c <= '9')) {
        out->ptr = s.ptr; /* Go 1.19 keeps it unchecked */
        out->len = s.len;
        return 0;
    }
    if (!v2 && c == '"' && s.len >= 2 && s.ptr[s.len - 1] == '"' && memchr(s.ptr + 1, '\\', s.len - 2) == NULL &&
        memchr(s.ptr + 1, '"', s.len - 2) == NULL && tagc_json_number_valid(s.ptr + 1, s.len - 2)) {
        out->ptr = s.ptr + 1;
        out->len = s.len - 2;
        return 0;
    }
    d->p = at;
    return tagc_json_fail(d, TAGC_E_TYPE, "invalid use of the string option for json.Number");
}

void tagc_json_write_number(tagc_buf *out, const tagc_number *n)
{
    if (n->len == 0) {
        tagc_buf_byte(out, '0'); /* Go writes the empty Number as 0 */
        return;
    }
    if (!tagc_json_number_valid(n->ptr, n->len)) {
        tagc_buf_fail(out, TAGC_E_INVALID);
        return;
    }
    tagc_buf_put(out, n->ptr, n->len);
}

void tagc_json_write_number_quoted(tagc_buf *out, const tagc_number *n)
{
    tagc_buf_byte(out, '"');
    tagc_json_write_number(out, n);
    tagc_buf_byte(out, '"');
}
