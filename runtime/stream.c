/*
 * stream.c - sequences of values: JSON Lines and concatenated MessagePack.
 *
 *   Prefix decoding   the exits of the generated _decode_json_prefix and
 *                     _decode_msgpack_prefix, which report the bytes used.
 *   Reader            one record at a time from an fd, a FILE * or a read
 *                     function; the buffer grows to the largest record (up to a
 *                     limit), never to the size of the input.
 *   Writer            a tagc_buf written out past a threshold.
 *   Bulk decoder      JSONL cut into chunks at line ends, decoded on worker
 *                     threads into per-chunk arenas, handed over in input order.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tagc.h"

#define STREAM_BUF_DEFAULT ((size_t)64 << 10)
#define STREAM_MAX_RECORD_DEFAULT ((size_t)64 << 20)
#define WRITER_THRESHOLD_DEFAULT ((size_t)64 << 10)
#define CHUNK_DEFAULT ((size_t)128 << 10)

/* MARK: - Prefix decoding */

int tagc_json_dec_finish_prefix(tagc_json_dec *d, int rc, size_t *used)
{
    if (rc == 0) {
        tagc_json_ws(d); /* RFC 8259: whitespace may follow a value; JSONL: its line end */
        *used = (size_t)(d->p - d->start);
        return 0;
    }
    *used = 0;
    return tagc_json_dec_finish(d, rc);
}

int tagc_mp_dec_finish_prefix(tagc_mp_dec *d, int rc, size_t *used)
{
    if (rc == 0) {
        *used = (size_t)(d->p - d->start);
        return 0;
    }
    *used = 0;
    return tagc_mp_dec_finish(d, rc);
}

/* MARK: - Sources and sinks */

static long fd_read(void *ctx, void *buf, size_t n)
{
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t got = read(fd, buf, n);
        if (got >= 0)
            return (long)got;
        if (errno != EINTR)
            return -1;
    }
}

static long file_read(void *ctx, void *buf, size_t n)
{
    FILE *f = ctx;
    size_t got = fread(buf, 1, n, f);
    if (got == 0 && ferror(f))
        return -1;
    return (long)got;
}

static long fd_write(void *ctx, const void *buf, size_t n)
{
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t put = write(fd, buf, n);
        if (put >= 0)
            return (long)put;
        if (errno != EINTR)
            return -1;
    }
}

static long file_write(void *ctx, const void *buf, size_t n)
{
    FILE *f = ctx;
    size_t put = fwrite(buf, 1, n, f);
    if (put == 0 && n > 0)
        return -1;
    return (long)put;
}

/* MARK: - Errors */

/* Prepends "record R (line L): " (or "record R: ") to err's message. */
static void name_record(tagc_error *err, uint64_t record, uint64_t line)
{
    char msg[TAGC_MESSAGE_MAX];
    int n;
    if (line)
        n = snprintf(msg, sizeof msg, "record %llu (line %llu): ", (unsigned long long)record,
                     (unsigned long long)line);
    else
        n = snprintf(msg, sizeof msg, "record %llu: ", (unsigned long long)record);
    size_t at = n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1;
    size_t have = strlen(err->message);
    if (have > sizeof msg - 1 - at)
        have = sizeof msg - 1 - at;
    memcpy(msg + at, err->message, have);
    msg[at + have] = '\0';
    memcpy(err->message, msg, sizeof msg);
}

static int reader_fail(tagc_stream_reader *r, tagc_error *err, int code, uint64_t offset,
                       uint32_t column, const char *fmt, const char *what)
{
    tagc_error_clear(err);
    err->code = code;
    err->offset = (size_t)offset;
    err->line = r->format == TAGC_STREAM_JSONL ? (uint32_t)r->line : 0;
    err->column = column;
    memcpy(err->path, "$", 2);
    snprintf(err->message, sizeof err->message, fmt, what);
    name_record(err, r->record, r->format == TAGC_STREAM_JSONL ? r->line : 0);
    return code;
}

/* The offset of the first byte of s[0..n) that is not valid UTF-8 (n if none). */
static size_t utf8_bad_at(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        size_t k;
        unsigned lo = 0x80, hi = 0xbf;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            k = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            k = 3;
            if (c == 0xe0)
                lo = 0xa0;
            else if (c == 0xed)
                hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            k = 4;
            if (c == 0xf0)
                lo = 0x90;
            else if (c == 0xf4)
                hi = 0x8f;
        } else {
            return i;
        }
        if (n - i < k || p[i + 1] < lo || p[i + 1] > hi)
            return i;
        for (size_t j = 2; j < k; j++)
            if ((p[i + j] & 0xc0) != 0x80)
                return i;
        i += k;
    }
    return n;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* MARK: - Reader */

static int reader_init(tagc_stream_reader *r, tagc_stream_read_fn read, void *ctx,
                       tagc_stream_format f, const tagc_stream_opts *opts)
{
    memset(r, 0, sizeof *r);
    r->format = f;
    r->read = read;
    r->ctx = ctx;
    r->fd = -1;
    r->max_record = opts && opts->max_record ? opts->max_record : STREAM_MAX_RECORD_DEFAULT;
    r->max_depth = opts && opts->max_depth > 0 ? opts->max_depth : TAGC_DEFAULT_MAX_DEPTH;
    r->check_utf8 = !(opts && opts->no_utf8_check);
    r->cap = opts && opts->buf_size ? opts->buf_size : STREAM_BUF_DEFAULT;
    r->next_line = 1;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        r->cap = 0;
        return TAGC_E_NOMEM;
    }
    return 0;
}

int tagc_stream_reader_init_fn(tagc_stream_reader *r, tagc_stream_read_fn read, void *ctx,
                               tagc_stream_format f, const tagc_stream_opts *opts)
{
    return reader_init(r, read, ctx, f, opts);
}

int tagc_stream_reader_init_fd(tagc_stream_reader *r, int fd, tagc_stream_format f,
                               const tagc_stream_opts *opts)
{
    int rc = reader_init(r, fd_read, NULL, f, opts);
    r->fd = fd;
    r->ctx = &r->fd; /* the reader must not move after init */
    return rc;
}

int tagc_stream_reader_init_file(tagc_stream_reader *r, void *file, tagc_stream_format f,
                                 const tagc_stream_opts *opts)
{
    return reader_init(r, file_read, file, f, opts);
}

void tagc_stream_reader_free(tagc_stream_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = r->len = r->start = r->scan = 0;
}

/* Moves what is left to the front, grows a full buffer up to limit, and reads
 * once. 0, TAGC_E_FULL (full at the limit), TAGC_E_NOMEM or TAGC_E_IO. */
static int reader_fill(tagc_stream_reader *r, size_t limit)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->len - r->start);
        r->base += r->start;
        r->len -= r->start;
        r->scan -= r->start;
        r->start = 0;
    }
    if (r->len == r->cap) {
        if (r->cap >= limit)
            return TAGC_E_FULL;
        size_t cap = r->cap > limit / 2 ? limit : r->cap * 2;
        char *p = realloc(r->buf, cap);
        if (!p)
            return TAGC_E_NOMEM;
        r->buf = p;
        r->cap = cap;
    }
    long n = r->read(r->ctx, r->buf + r->len, r->cap - r->len);
    if (n < 0)
        return TAGC_E_IO;
    if (n == 0)
        r->eof = true;
    r->len += (size_t)n;
    return 0;
}

static int reader_fatal(tagc_stream_reader *r, tagc_error *err, int code, const char *what)
{
    if (code == TAGC_E_IO)
        reader_fail(r, err, code, r->base + r->len, 0, "read failed: %s", strerror(errno));
    else if (code == TAGC_E_NOMEM)
        reader_fail(r, err, code, r->base + r->start, 1, "%s", "out of memory");
    else
        reader_fail(r, err, code, r->base + r->start, 1, "%s", what);
    r->fatal = code;
    r->fatal_err = *err;
    return code;
}

/* The line buf[s..e) (without its LF) as record: CR dropped, UTF-8 checked. */
static int jsonl_record(tagc_stream_reader *r, size_t s, size_t e, const char **rec, size_t *len,
                        tagc_error *err)
{
    if (e > s && r->buf[e - 1] == '\r')
        e--;
    r->records++;
    r->record = r->records;
    r->offset = r->base + s;
    if (e - s > r->max_record) {
        char what[64];
        snprintf(what, sizeof what, "%zu bytes", r->max_record);
        return reader_fail(r, err, TAGC_E_FULL, r->offset, 1, "line longer than the limit of %s",
                           what);
    }
    if (r->check_utf8 && !tagc_utf8_valid(r->buf + s, e - s)) {
        size_t at = utf8_bad_at(r->buf + s, e - s);
        return reader_fail(r, err, TAGC_E_SYNTAX, r->offset + at, (uint32_t)(at + 1), "%s",
                           "invalid UTF-8");
    }
    *rec = r->buf + s;
    *len = e - s;
    return 1;
}

static int jsonl_next(tagc_stream_reader *r, const char **rec, size_t *len, tagc_error *err)
{
    size_t limit = r->max_record + 2; /* a line of max_record bytes, CR, LF */
    for (;;) {
        if (r->skipping) {
            const char *nl = memchr(r->buf + r->start, '\n', r->len - r->start);
            if (nl) {
                r->start = r->scan = (size_t)(nl - r->buf) + 1;
                r->next_line++;
                r->skipping = false;
                continue;
            }
            r->start = r->scan = r->len;
            if (r->eof)
                return 0;
        } else {
            const char *nl = memchr(r->buf + r->scan, '\n', r->len - r->scan);
            if (nl) {
                size_t s = r->start, e = (size_t)(nl - r->buf);
                r->start = r->scan = e + 1;
                r->line = r->next_line++;
                if (blank(r->buf + s, e - s))
                    continue;
                return jsonl_record(r, s, e, rec, len, err);
            }
            r->scan = r->len;
            if (r->eof) {
                size_t s = r->start, e = r->len;
                r->start = r->scan = r->len;
                if (blank(r->buf + s, e - s))
                    return 0;
                r->line = r->next_line++;
                return jsonl_record(r, s, e, rec, len, err);
            }
            if (r->len - r->start > r->max_record + 1) {
                /* too long: report now, drop the rest of the line */
                r->line = r->next_line;
                r->records++;
                r->record = r->records;
                r->offset = r->base + r->start;
                r->skipping = true;
                r->start = r->scan = r->len;
                char what[64];
                snprintf(what, sizeof what, "%zu bytes", r->max_record);
                return reader_fail(r, err, TAGC_E_FULL, r->offset, 1,
                                   "line longer than the limit of %s", what);
            }
        }
        int rc = reader_fill(r, limit);
        if (rc)
            return reader_fatal(r, err, rc, "line longer than the buffer");
    }
}

static int mp_next(tagc_stream_reader *r, const char **rec, size_t *len, tagc_error *err)
{
    size_t limit = r->max_record + 1;
    for (;;) {
        size_t avail = r->len - r->start;
        if (avail == 0 && r->eof)
            return 0;
        if (avail > 0 && (avail >= r->want || r->eof)) {
            tagc_mp_dec d;
            tagc_error e;
            tagc_json_opts o = {0};
            o.max_depth = r->max_depth;
            tagc_mp_dec_init(&d, (const uint8_t *)r->buf + r->start, avail, NULL, &e, &o);
            int rc = tagc_mp_skip(&d);
            if (rc == 0) {
                size_t n = (size_t)(d.p - d.start);
                r->records++;
                r->record = r->records;
                r->offset = r->base + r->start;
                r->line = 0;
                *rec = r->buf + r->start;
                *len = n;
                r->start += n;
                r->want = 0;
                if (n > r->max_record)
                    return reader_fatal(r, err, TAGC_E_FULL, "value longer than the limit");
                return 1;
            }
            r->record = r->records + 1;
            r->offset = r->base + r->start;
            r->line = 0;
            if (rc != TAGC_E_EOF || r->eof) {
                reader_fail(r, err, rc, r->offset + e.offset, 0, "%s", e.message);
                if (rc == TAGC_E_EOF) {
                    /* a last value cut short: reported once, then the end */
                    r->records++;
                    r->start = r->len;
                    return rc;
                }
                r->fatal = rc;
                r->fatal_err = *err;
                return rc;
            }
            if (avail > r->max_record)
                return reader_fatal(r, err, TAGC_E_FULL, "value longer than the limit");
            r->want = avail > limit / 2 ? limit : avail * 2;
        }
        int rc = reader_fill(r, limit);
        if (rc == TAGC_E_FULL)
            r->want = 0; /* retry with what the buffer holds: too long, or complete */
        else if (rc)
            return reader_fatal(r, err, rc, "");
        if (rc == TAGC_E_FULL && r->len - r->start > r->max_record) {
            r->record = r->records + 1;
            return reader_fatal(r, err, TAGC_E_FULL, "value longer than the limit");
        }
    }
}

int tagc_stream_next(tagc_stream_reader *r, const char **rec, size_t *len, tagc_error *err)
{
    tagc_error local;
    if (!err)
        err = &local;
    if (r->fatal) {
        *err = r->fatal_err;
        return r->fatal;
    }
    if (r->format == TAGC_STREAM_JSONL)
        return jsonl_next(r, rec, len, err);
    return mp_next(r, rec, len, err);
}

void tagc_stream_locate(const tagc_stream_reader *r, tagc_error *err)
{
    err->offset += (size_t)r->offset;
    if (r->format == TAGC_STREAM_JSONL) {
        err->line = (uint32_t)(r->line + (err->line ? err->line - 1 : 0));
        name_record(err, r->record, r->line);
    } else {
        err->line = 0;
        err->column = 0;
        name_record(err, r->record, 0);
    }
}

/* MARK: - Writer */

static void writer_init(tagc_stream_writer *w, tagc_stream_write_fn write, void *ctx,
                        tagc_stream_format f)
{
    memset(w, 0, sizeof *w);
    tagc_buf_init(&w->buf);
    w->format = f;
    w->write = write;
    w->ctx = ctx;
    w->fd = -1;
    w->threshold = WRITER_THRESHOLD_DEFAULT;
}

void tagc_stream_writer_init_fn(tagc_stream_writer *w, tagc_stream_write_fn write, void *ctx,
                                tagc_stream_format f)
{
    writer_init(w, write, ctx, f);
}

void tagc_stream_writer_init_fd(tagc_stream_writer *w, int fd, tagc_stream_format f)
{
    writer_init(w, fd_write, NULL, f);
    w->fd = fd;
    w->ctx = &w->fd;
}

void tagc_stream_writer_init_file(tagc_stream_writer *w, void *file, tagc_stream_format f)
{
    writer_init(w, file_write, file, f);
}

/* Writes buf[0..upto) out and moves the rest down. */
static int writer_out(tagc_stream_writer *w, size_t upto)
{
    size_t done = 0;
    while (done < upto && w->err == 0) {
        long n = w->write(w->ctx, w->buf.data + done, upto - done);
        if (n <= 0)
            w->err = TAGC_E_IO;
        else
            done += (size_t)n;
    }
    w->bytes += done;
    memmove(w->buf.data, w->buf.data + done, w->buf.len - done);
    w->buf.len -= done;
    w->rec_start -= done;
    return w->err;
}

void tagc_stream_writer_drop_record(tagc_stream_writer *w)
{
    if (w->buf.len > w->rec_start)
        w->buf.len = w->rec_start;
    w->buf.err = 0;
}

int tagc_stream_writer_end_record(tagc_stream_writer *w)
{
    if (w->buf.err) {
        int rc = w->buf.err;
        tagc_stream_writer_drop_record(w);
        if (rc == TAGC_E_NOMEM && w->err == 0)
            w->err = rc;
        return rc;
    }
    if (w->err)
        return w->err;
    if (w->format == TAGC_STREAM_JSONL)
        tagc_buf_byte(&w->buf, '\n');
    if (w->buf.err) {
        int rc = w->buf.err;
        tagc_stream_writer_drop_record(w);
        w->err = rc;
        return rc;
    }
    w->records++;
    w->rec_start = w->buf.len;
    if (w->buf.len >= w->threshold)
        return writer_out(w, w->buf.len);
    return 0;
}

int tagc_stream_writer_flush(tagc_stream_writer *w)
{
    if (w->err)
        return w->err;
    return writer_out(w, w->rec_start);
}

int tagc_stream_writer_close(tagc_stream_writer *w)
{
    int rc = tagc_stream_writer_flush(w);
    tagc_buf_free(&w->buf);
    w->rec_start = 0;
    return rc;
}

/* MARK: - Bulk decoder */

enum { SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE };

typedef struct rec_meta {
    size_t line_rel; /* lines before it in the chunk */
    size_t off_rel;  /* offset of its line in the chunk */
    int rc;
    size_t err_ix; /* into errs when rc != 0 */
} rec_meta;

typedef struct slot {
    _Alignas(64) char *buf; /* slots do not share cache lines: each is written by its own thread */
    size_t cap, len;
    uint64_t offset; /* in the stream, of buf[0] */
    size_t lines;    /* line ends in the chunk */
    int toolong;     /* the chunk is one line over the limit */
    unsigned char *values;
    rec_meta *meta;
    size_t n, rcap;
    tagc_error *errs;
    size_t nerr, ecap;
    int fail; /* TAGC_E_NOMEM while decoding the chunk */
    tagc_arena arena;
    int state;
} slot;

/*
 * The threads share P under mu. A worker takes the reader's role (reading: one
 * at a time), fills the slot of chunk seq_read (free once chunk seq_read -
 * nslots was delivered), gives the role up and decodes its chunk while another
 * worker reads the next one: the bytes a worker decodes were copied into its
 * buffer by its own read(2) call, still in its core's cache. The calling
 * thread only delivers, in sequence order, and frees slots.
 */
typedef struct par {
    tagc_stream_reader *r;
    const tagc_jsonl_parallel *p;
    slot *slots;
    size_t nslots;
    size_t chunk;
    uint64_t seq_read;  /* chunks filled */
    uint64_t seq_done;  /* chunks delivered */
    bool reading;       /* a worker holds the reader's role */
    bool input_done;    /* the end of the input, or a read error (read_rc) */
    int read_rc;
    int read_errno;
    uint64_t read_pos;
    size_t batch;       /* chunks ready in order before the caller is woken */
    bool main_waiting;  /* the caller sleeps on done_cv */
    int slot_waiters;   /* workers waiting for a free slot */
    bool quit;
    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    char *carry;
    size_t carry_len, carry_cap;
    uint64_t pos; /* stream offset of the next byte after the carry */
} par;

/* inlined in its two callers at -O2 too (this file is built -O2 in a release build: runtime/meson.build) */
static TAGC_ALWAYS_INLINE int slot_room(par *P, slot *s)
{
    if (s->n < s->rcap)
        return 0;
    size_t cap = s->rcap ? s->rcap * 2 : 256;
    rec_meta *m = realloc(s->meta, cap * sizeof *m);
    if (!m)
        return TAGC_E_NOMEM;
    s->meta = m;
    unsigned char *v = realloc(s->values, cap * P->p->value_size);
    if (!v)
        return TAGC_E_NOMEM;
    s->values = v;
    s->rcap = cap;
    return 0;
}

static int slot_error(slot *s, const tagc_error *e)
{
    if (s->nerr == s->ecap) {
        size_t cap = s->ecap ? s->ecap * 2 : 4;
        tagc_error *p = realloc(s->errs, cap * sizeof *p);
        if (!p)
            return TAGC_E_NOMEM;
        s->errs = p;
        s->ecap = cap;
    }
    s->errs[s->nerr] = *e;
    return (int)s->nerr++;
}

/* Decodes every line of the chunk in s. */
static void slot_decode(par *P, slot *s)
{
    const tagc_jsonl_parallel *p = P->p;
    s->n = 0;
    s->nerr = 0;
    s->lines = 0;
    s->fail = 0;
    tagc_error e;
    if (s->toolong) {
        if (slot_room(P, s)) {
            s->fail = TAGC_E_NOMEM;
            return;
        }
        tagc_error_clear(&e);
        memcpy(e.path, "$", 2);
        e.code = TAGC_E_FULL;
        e.line = 1;
        e.column = 1;
        snprintf(e.message, sizeof e.message, "line longer than the limit of %zu bytes",
                 P->r->max_record);
        int ix = slot_error(s, &e);
        if (ix < 0) {
            s->fail = TAGC_E_NOMEM;
            return;
        }
        s->meta[0] = (rec_meta){0, 0, TAGC_E_FULL, (size_t)ix};
        s->n = 1;
        s->lines = 1;
        return;
    }
    size_t pos = 0;
    while (pos < s->len) {
        const char *line = s->buf + pos;
        const char *nl = memchr(line, '\n', s->len - pos);
        size_t e_end = nl ? (size_t)(nl - s->buf) : s->len;
        size_t next = nl ? e_end + 1 : s->len;
        size_t line_rel = s->lines;
        if (nl)
            s->lines++;
        if (e_end > pos && s->buf[e_end - 1] == '\r')
            e_end--;
        size_t n = e_end - pos;
        if (blank(line, n)) {
            pos = next;
            continue;
        }
        if (slot_room(P, s)) {
            s->fail = TAGC_E_NOMEM;
            return;
        }
        rec_meta *m = &s->meta[s->n];
        m->line_rel = line_rel;
        m->off_rel = pos;
        m->err_ix = 0;
        if (n > P->r->max_record) {
            tagc_error_clear(&e);
            memcpy(e.path, "$", 2);
            e.code = TAGC_E_FULL;
            e.line = 1;
            e.column = 1;
            snprintf(e.message, sizeof e.message, "line longer than the limit of %zu bytes",
                     P->r->max_record);
            m->rc = TAGC_E_FULL;
        } else if (P->r->check_utf8 && !tagc_utf8_valid(line, n)) {
            size_t at = utf8_bad_at(line, n);
            tagc_error_clear(&e);
            memcpy(e.path, "$", 2);
            e.code = TAGC_E_SYNTAX;
            e.offset = at;
            e.line = 1;
            e.column = (uint32_t)(at + 1);
            snprintf(e.message, sizeof e.message, "invalid UTF-8");
            m->rc = TAGC_E_SYNTAX;
        } else {
            m->rc = p->decode(s->values + s->n * p->value_size, line, n, &s->arena, &e, p->opts);
        }
        if (m->rc != 0) {
            int ix = slot_error(s, &e);
            if (ix < 0) {
                s->fail = TAGC_E_NOMEM;
                return;
            }
            m->err_ix = (size_t)ix;
        }
        s->n++;
        pos = next;
    }
}

static int fill_chunk(par *P, slot *s);

/* Whether the caller has enough to deliver (under mu): the oldest chunk is
 * decoded and so are the next batch - 1, or the input has ended, or a worker
 * waits for the slot the caller would free. Waking the caller once for several
 * chunks saves a sleep and a wake-up (system time) per chunk. */
static bool caller_has_work(const par *P)
{
    size_t ready = 0;
    while (P->seq_done + ready < P->seq_read && ready < P->batch &&
           P->slots[(P->seq_done + ready) % P->nslots].state == SLOT_DONE)
        ready++;
    if (ready == 0)
        return false;
    return ready >= P->batch || P->input_done || P->slot_waiters > 0;
}

static void *worker(void *arg)
{
    par *P = arg;
    pthread_mutex_lock(&P->mu);
    for (;;) {
        slot *s = &P->slots[P->seq_read % P->nslots];
        while (!P->quit && !P->input_done && (P->reading || s->state != SLOT_FREE)) {
            bool for_slot = !P->reading;
            if (for_slot) {
                P->slot_waiters++;
                if (P->main_waiting && caller_has_work(P))
                    pthread_cond_signal(&P->done_cv);
            }
            pthread_cond_wait(&P->work_cv, &P->mu);
            if (for_slot)
                P->slot_waiters--;
            s = &P->slots[P->seq_read % P->nslots];
        }
        if (P->quit || P->input_done)
            break;
        P->reading = true;
        s->state = SLOT_BUSY;
        pthread_mutex_unlock(&P->mu);
        int got = fill_chunk(P, s); /* the reader's state is this thread's alone */
        int e = errno;
        pthread_mutex_lock(&P->mu);
        P->reading = false;
        if (got <= 0) {
            s->state = SLOT_FREE;
            P->input_done = true;
            P->read_rc = got;
            P->read_errno = e;
            P->read_pos = P->pos;
            pthread_cond_broadcast(&P->work_cv);
            pthread_cond_broadcast(&P->done_cv);
            break;
        }
        P->seq_read++;
        pthread_cond_broadcast(&P->work_cv); /* the next chunk can be read */
        pthread_mutex_unlock(&P->mu);
        slot_decode(P, s);
        pthread_mutex_lock(&P->mu);
        s->state = SLOT_DONE;
        if (P->main_waiting && caller_has_work(P))
            pthread_cond_signal(&P->done_cv);
    }
    pthread_mutex_unlock(&P->mu);
    return NULL;
}

static int read_more(par *P, slot *s)
{
    tagc_stream_reader *r = P->r;
    long n = r->read(r->ctx, s->buf + s->len, s->cap - s->len);
    if (n < 0)
        return TAGC_E_IO;
    if (n == 0)
        r->eof = true;
    s->len += (size_t)n;
    return 0;
}

static int grow_buf(char **buf, size_t *cap, size_t need)
{
    if (*cap >= need)
        return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    char *p = realloc(*buf, c);
    if (!p)
        return TAGC_E_NOMEM;
    *buf = p;
    *cap = c;
    return 0;
}

/* Fills s with the next chunk: whole lines, or one overlong line (toolong).
 * Returns 1 when there is a chunk, 0 at the end of the input, or an error. */
static int fill_chunk(par *P, slot *s)
{
    tagc_stream_reader *r = P->r;
    size_t limit = r->max_record + 2;
    int rc = grow_buf(&s->buf, &s->cap, P->chunk > P->carry_len ? P->chunk : P->carry_len * 2);
    if (rc)
        return rc;
    memcpy(s->buf, P->carry, P->carry_len);
    s->len = P->carry_len;
    s->offset = P->pos - P->carry_len;
    s->toolong = 0;
    P->carry_len = 0;
    size_t searched = 0; /* s->buf[0..searched) holds no line end */
    for (;;) {
        while (s->len < s->cap && !r->eof)
            if ((rc = read_more(P, s)) != 0)
                return rc;
        P->pos = s->offset + s->len;
        size_t i = s->len;
        while (i > searched && s->buf[i - 1] != '\n')
            i--;
        if (i > searched) {
            P->carry_len = s->len - i;
            if ((rc = grow_buf(&P->carry, &P->carry_cap, P->carry_len)) != 0)
                return rc;
            memcpy(P->carry, s->buf + i, P->carry_len);
            s->len = i;
            return 1;
        }
        searched = s->len;
        if (r->eof)
            return s->len > 0 ? 1 : 0;
        if (s->len >= limit) {
            /* one line over the limit: drop it up to its end */
            s->toolong = 1;
            for (;;) {
                const char *nl = memchr(s->buf, '\n', s->len);
                if (nl) {
                    size_t after = (size_t)(nl - s->buf) + 1;
                    P->carry_len = s->len - after;
                    if ((rc = grow_buf(&P->carry, &P->carry_cap, P->carry_len)) != 0)
                        return rc;
                    memcpy(P->carry, s->buf + after, P->carry_len);
                    break;
                }
                if (r->eof)
                    break;
                s->len = 0;
                if ((rc = read_more(P, s)) != 0)
                    return rc;
                P->pos += s->len;
            }
            s->len = 0;
            return 1;
        }
        size_t cap = s->cap * 2 < limit ? s->cap * 2 : limit;
        if ((rc = grow_buf(&s->buf, &s->cap, cap)) != 0)
            return rc;
    }
}

/* Hands the records of s to the consumer; returns its verdict. */
static int deliver(par *P, slot *s, uint64_t *line_base, uint64_t *rec_base)
{
    const tagc_jsonl_parallel *p = P->p;
    int stop = 0;
    for (size_t i = 0; i < s->n && !stop; i++) {
        const rec_meta *m = &s->meta[i];
        tagc_record rec;
        tagc_error e;
        rec.record = *rec_base + i + 1;
        rec.line = *line_base + m->line_rel + 1;
        rec.offset = s->offset + m->off_rel;
        rec.rc = m->rc;
        if (m->rc == 0) {
            rec.value = s->values + i * p->value_size;
            rec.err = NULL;
        } else {
            e = s->errs[m->err_ix];
            e.offset += (size_t)rec.offset;
            e.line = (uint32_t)(rec.line + (e.line ? e.line - 1 : 0));
            name_record(&e, rec.record, rec.line);
            rec.value = NULL;
            rec.err = &e;
        }
        stop = p->consume(p->ctx, &rec);
    }
    *line_base += s->lines;
    *rec_base += s->n;
    return stop;
}

int tagc_jsonl_decode_parallel(tagc_stream_reader *r, const tagc_jsonl_parallel *p,
                               tagc_error *err)
{
    tagc_error local;
    if (!err)
        err = &local;
    tagc_error_clear(err);
    par P;
    memset(&P, 0, sizeof P);
    P.r = r;
    P.p = p;
    P.chunk = p->chunk_size ? p->chunk_size : CHUNK_DEFAULT;
    int threads = p->threads > 0 ? p->threads : 0;
    P.nslots = threads ? 2 * (size_t)threads + 2 : 1;
    P.batch = threads ? (size_t)threads + 1 : 1; /* half the slots */
    P.pos = r->base + r->start;
    /* what the reader has buffered and not returned comes first */
    P.carry_len = r->len - r->start;
    P.pos += P.carry_len;
    int rc = 0;
    uint64_t line_base = r->next_line - 1, rec_base = r->records;
    if (grow_buf(&P.carry, &P.carry_cap, P.carry_len + 1) != 0)
        return tagc_error_set(err, TAGC_E_NOMEM, 0, "out of memory");
    memcpy(P.carry, r->buf + r->start, P.carry_len);
    r->start = r->scan = r->len;
    /* slots start on cache lines (slot is _Alignas(64)): no false sharing */
    /* posix_memalign, not C11's aligned_alloc: declared by the POSIX level the
     * threads need already, whatever -std a user builds with */
    void *slots_mem = NULL;
    if (posix_memalign(&slots_mem, _Alignof(slot), P.nslots * sizeof *P.slots) != 0)
        slots_mem = NULL;
    P.slots = slots_mem;
    pthread_t *tids = threads ? calloc((size_t)threads, sizeof *tids) : NULL;
    if (!P.slots || (threads && !tids)) {
        free(P.slots);
        free(tids);
        free(P.carry);
        return tagc_error_set(err, TAGC_E_NOMEM, 0, "out of memory");
    }
    memset(P.slots, 0, P.nslots * sizeof *P.slots);
    for (size_t i = 0; i < P.nslots; i++)
        tagc_arena_init(&P.slots[i].arena);
    pthread_mutex_init(&P.mu, NULL);
    pthread_cond_init(&P.work_cv, NULL);
    pthread_cond_init(&P.done_cv, NULL);
    /* The workers' stack fits the decoders' depth limit (tagc.h, TAGC_STACK_NEED)
     * when the platform's default does not (musl's is 128 KiB); never less than it. */
    int depth = p->opts && p->opts->max_depth > 0 ? p->opts->max_depth : TAGC_DEFAULT_MAX_DEPTH;
    pthread_attr_t attr;
    size_t deflt = 0;
    bool sized = threads && pthread_attr_init(&attr) == 0;
    if (sized && (pthread_attr_getstacksize(&attr, &deflt) != 0 || deflt < TAGC_STACK_NEED(depth)) &&
        pthread_attr_setstacksize(&attr, TAGC_STACK_NEED(depth)) != 0) {
        pthread_attr_destroy(&attr);
        sized = false;
    }
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tids[started], sized ? &attr : NULL, worker, &P) != 0)
            break;
    if (sized)
        pthread_attr_destroy(&attr);
    if (threads && started == 0) {
        rc = tagc_error_set(err, TAGC_E_NOMEM, 0, "cannot start threads");
        goto out;
    }

    if (!threads) {
        /* in the calling thread: read a chunk, decode it, deliver it */
        slot *s = &P.slots[0];
        for (;;) {
            int got = fill_chunk(&P, s);
            if (got <= 0) {
                P.read_rc = got;
                P.read_errno = errno;
                P.read_pos = P.pos;
                break;
            }
            slot_decode(&P, s);
            if (s->fail) {
                rc = tagc_error_set(err, s->fail, (size_t)s->offset, "out of memory");
                goto out;
            }
            int stop = deliver(&P, s, &line_base, &rec_base);
            tagc_arena_reset(&s->arena);
            if (stop) {
                rc = stop;
                goto out;
            }
        }
    } else {
        pthread_mutex_lock(&P.mu);
        for (;;) {
            slot *s = &P.slots[P.seq_done % P.nslots];
            if (s->state != SLOT_DONE) {
                /* nothing to deliver: sleep until a batch of chunks is */
                while (!caller_has_work(&P) && !(P.input_done && P.seq_done == P.seq_read)) {
                    P.main_waiting = true;
                    pthread_cond_wait(&P.done_cv, &P.mu);
                    P.main_waiting = false;
                }
                if (s->state != SLOT_DONE)
                    break; /* the end of the input (or a read error), all delivered */
            }
            pthread_mutex_unlock(&P.mu);
            int stop = 0;
            if (s->fail)
                rc = tagc_error_set(err, s->fail, (size_t)s->offset, "out of memory");
            else
                stop = deliver(&P, s, &line_base, &rec_base);
            tagc_arena_reset(&s->arena);
            pthread_mutex_lock(&P.mu);
            s->state = SLOT_FREE;
            P.seq_done++;
            pthread_cond_broadcast(&P.work_cv); /* a slot to fill */
            if (rc || stop) {
                rc = rc ? rc : stop;
                break;
            }
        }
        pthread_mutex_unlock(&P.mu);
        if (rc)
            goto out;
    }
    if (P.read_rc < 0) {
        rc = P.read_rc;
        if (rc == TAGC_E_IO)
            tagc_error_set(err, rc, (size_t)P.read_pos, "read failed: %s", strerror(P.read_errno));
        else
            tagc_error_set(err, rc, (size_t)P.read_pos, "out of memory");
    }
out:
    pthread_mutex_lock(&P.mu);
    P.quit = true;
    pthread_cond_broadcast(&P.work_cv);
    pthread_mutex_unlock(&P.mu);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    /* the reader's counters say where the stream ended up */
    r->next_line = line_base + 1;
    r->records = rec_base;
    r->eof = r->eof || rc == 0;
    for (size_t i = 0; i < P.nslots; i++) {
        slot *s = &P.slots[i];
        free(s->buf);
        free(s->values);
        free(s->meta);
        free(s->errs);
        tagc_arena_free(&s->arena);
    }
    pthread_cond_destroy(&P.work_cv);
    pthread_cond_destroy(&P.done_cv);
    pthread_mutex_destroy(&P.mu);
    free(P.slots);
    free(tids);
    free(P.carry);
    return rc;
}
