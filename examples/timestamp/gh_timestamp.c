/*
 * gh_timestamp.c - the C codec of go-github's Timestamp (//tagc:codec in
 * github.tagc): what its UnmarshalJSON reads, what time.Time's MarshalJSON
 * writes, in C.
 *
 * Reading, as go-github's Timestamp.UnmarshalJSON: the JSON text is an
 * integer (strconv.ParseInt of it succeeds) -> unix seconds, or unix
 * milliseconds when seconds would be past the year 3000 (converted to
 * nanoseconds in an int64 that wraps, as Go's i*1e6 does); else an RFC 3339
 * string, parsed as time.Parse(`"`+time.RFC3339+`"`) does. null is neither:
 * an error, as in Go (a *Timestamp field takes null as nil before this runs).
 * go-github's time.Unix gives local time; here it is UTC (Go under TZ=UTC).
 * Seconds before the year 0, which Go reads and then fails to write (a year
 * outside [0, 9999]), are refused when read.
 * Writing: RFC 3339 with nanoseconds, as time.Time.MarshalJSON.
 * MessagePack: written as the timestamp extension (as vmihailenco/msgpack
 * writes a time.Time); read from that, a string or an integer, as for JSON.
 */
#include <tagc.h>

#include "gh_timestamp.h"

/* Unix time of 3001-01-01T00:00:00Z: from there on an integer is milliseconds. */
#define YEAR_3001_UNIX 32535216000LL
/* Unix time of 0000-01-01T00:00:00Z: before it, time.Time.MarshalJSON fails. */
#define YEAR_0_UNIX (-62167219200LL)

static int from_integer(tagc_json_dec *d, int64_t i, tagc_time *v)
{
    if (i < YEAR_0_UNIX) /* Go reads it, and then cannot write it back: refused here */
        return tagc_json_fail(d, TAGC_E_RANGE, "Timestamp: %lld seconds is before the year 0",
                              (long long)i);
    if (i < YEAR_3001_UNIX) {
        *v = tagc_time_from_unix(i, 0, 0);
        return 0;
    }
    /* time.Unix(0, i*1e6): the product in int64, wrapping as Go's does past the year 2262 */
    int64_t ns = (int64_t)((uint64_t)i * 1000000u); /* modulo 2^64, as gcc and clang convert */
    int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
    if (nsec < 0) {
        sec--;
        nsec += 1000000000;
    }
    *v = tagc_time_from_unix(sec, (int32_t)nsec, 0);
    return 0;
}

int gh_timestamp_json_read(tagc_json_dec *d, tagc_time *v)
{
    tagc_json_ws(d);
    if (d->p < d->end && (*d->p == '-' || (*d->p >= '0' && *d->p <= '9'))) {
        const char *at = d->p;
        int64_t i;
        int rc = tagc_json_read_int(d, &i, INT64_MIN, INT64_MAX);
        if (rc != 0) {
            d->p = at;
            tagc_error_clear(d->err);
            return tagc_json_fail(d, TAGC_E_TYPE, "Timestamp: want unix seconds (an integer) "
                                                  "or an RFC 3339 string");
        }
        return from_integer(d, i, v);
    }
    if (d->p < d->end && *d->p == '"')
        return tagc_json_read_time(d, v);
    return tagc_json_fail(d, TAGC_E_TYPE, "Timestamp: want unix seconds (an integer) or an "
                                          "RFC 3339 string");
}

void gh_timestamp_json_write(tagc_buf *out, const tagc_time *v, const tagc_json_opts *o)
{
    (void)o;
    tagc_json_write_time(out, v, TAGC_GO_DEFAULT);
}

int gh_timestamp_msgpack_read(tagc_mp_dec *d, tagc_time *v)
{
    if (d->p >= d->end)
        return tagc_json_fail(d, TAGC_E_EOF, "unexpected end of input, expected a Timestamp");
    uint8_t c = (uint8_t)*d->p;
    if (c <= 0x7f || c >= 0xe0 || (c >= 0xcc && c <= 0xd3)) { /* an integer */
        int64_t i;
        int rc = tagc_mp_read_int(d, &i, INT64_MIN, INT64_MAX);
        return rc != 0 ? rc : from_integer(d, i, v);
    }
    if ((c >= 0xa0 && c <= 0xbf) || (c >= 0xd9 && c <= 0xdb)) { /* a string */
        const char *at = d->p;
        tagc_str s;
        int rc = tagc_mp_read_str(d, &s);
        if (rc != 0)
            return rc;
        if (tagc_time_parse(s.ptr, s.len, v, TAGC_GO_DEFAULT) != 0) {
            d->p = at;
            return tagc_json_fail(d, TAGC_E_SYNTAX, "Timestamp: not an RFC 3339 time");
        }
        return 0;
    }
    return tagc_mp_read_time(d, v); /* the timestamp extension, or its error */
}

void gh_timestamp_msgpack_write(tagc_buf *out, const tagc_time *v)
{
    tagc_mp_write_time(out, v);
}

bool gh_timestamp_is_zero(const tagc_time *v)
{
    return v->sec == 0 && v->nsec == 0; /* time.Time.IsZero: the instant only */
}

/* go-github's Timestamp.Equal: time.Time.Equal, the same instant (whatever
 * the offsets; MessagePack's timestamp extension has none). Compared member by
 * member: a tagc_time has padding. */
bool gh_timestamp_equal(const tagc_time *a, const tagc_time *b)
{
    return a->sec == b->sec && a->nsec == b->nsec;
}
