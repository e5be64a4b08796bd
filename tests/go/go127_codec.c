/* go127_codec.c - Label is "L" and its number as text (AppendText; UnmarshalText
 * takes "L" and strconv.ParseInt's text); Cents is its number (MarshalJSONTo;
 * UnmarshalJSONFrom takes any JSON value whose text ParseInt reads, null
 * leaving it). */
#include "go127_codec.h"

int go127_label_json_read(tagc_json_dec *d, int64_t *v)
{
    if (tagc_json_null(d))
        return 0; /* Go calls no method for null */
    const char *at = d->p;
    tagc_str s;
    int rc = tagc_json_read_str(d, &s);
    if (rc != 0)
        return rc;
    int64_t n = 0;
    rc = s.len >= 1 && s.ptr[0] == 'L' ? tagc_go_parse_int(s.ptr + 1, s.len - 1, &n) : TAGC_E_SYNTAX;
    if (rc == 0 || rc == TAGC_E_RANGE)
        *v = n; /* ParseInt's value, as the method stores it before its error */
    if (rc == 0)
        return 0;
    d->p = at;
    return tagc_json_fail(d, TAGC_E_TYPE, "Label: want L and a number");
}

void go127_label_json_write(tagc_buf *out, const int64_t *v, const tagc_json_opts *o)
{
    (void)o;
    char text[1 + TAGC_I64_MAX_CHARS];
    text[0] = 'L';
    tagc_json_write_str(out, text, 1 + tagc_fmt_i64(text + 1, *v), 0);
}

int go127_cents_json_read(tagc_json_dec *d, int64_t *v)
{
    if (tagc_json_null(d))
        return 0;
    return tagc_json_read_i64(d, v);
}

void go127_cents_json_write(tagc_buf *out, const int64_t *v, const tagc_json_opts *o)
{
    (void)o;
    tagc_json_write_i64(out, *v);
}
