/*
 * common.h - what the error tests share: every generated decoder under test
 * behind one signature, and a decode that checks the things every failing (or
 * succeeding) decode must get right whatever the input:
 *   - the input is read from a malloc'd buffer of exactly its length (ASan
 *     reports any read past the end) and is not written to;
 *   - the value starts from whatever garbage was there (the decoder zeroes it),
 *     nothing is written in the guard bytes around it, and afterwards it is
 *     safe to _equal with itself;
 *   - err->path starts with "$" and is NUL-terminated within TAGC_PATH_MAX,
 *     err->message too, err->line and err->column agree with err->offset,
 *     err->offset is within the input, and the code is the return value.
 * The arena is freed at the end, so LeakSanitizer sees any leak.
 */
#ifndef TAGC_TEST_ERRORS_COMMON_H
#define TAGC_TEST_ERRORS_COMMON_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tagc.h>

#include "kitchen_sink.tagc.h"
#include "order.tagc.h"
#include "tree.tagc.h"
#include "user.tagc.h"

typedef struct target {
    const char *name;
    size_t size;
    int (*decode)(void *v, const char *src, size_t len, tagc_arena *arena, tagc_error *err,
                  const tagc_json_opts *opts);
    int (*encode)(const void *v, tagc_buf *out, const tagc_json_opts *opts);
    bool (*equal)(const void *a, const void *b);
} target;

/* Typed wrappers, so that every call goes through the function's own type. */
#define TARGET(id, type)                                                                     \
    static int id##_decode(void *v, const char *src, size_t len, tagc_arena *arena,          \
                           tagc_error *err, const tagc_json_opts *opts)                      \
    {                                                                                        \
        return type##_decode_json((type *)v, src, len, arena, err, opts);                    \
    }                                                                                        \
    static int id##_encode(const void *v, tagc_buf *out, const tagc_json_opts *opts)         \
    {                                                                                        \
        return type##_encode_json((const type *)v, out, opts);                               \
    }                                                                                        \
    static bool id##_equal(const void *a, const void *b)                                     \
    {                                                                                        \
        return type##_equal((const type *)a, (const type *)b);                               \
    }                                                                                        \
    static const target id = {#type, sizeof(type), id##_decode, id##_encode, id##_equal};

TARGET(T_USER, user_user)
TARGET(T_ORDR, order_order)
TARGET(T_TREE, tree_node)
TARGET(T_SINK, sink_sink)
TARGET(T_NODE, sink_node)

#define GUARD 64
#define GUARD_BYTE 0xA5

/* Line and column (1-based, bytes) of offset in src, as tagc_error documents them. */
static inline void line_col(const char *src, size_t offset, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset; i++)
        if (src[i] == '\n') {
            l++;
            line_start = i + 1;
        }
    *line = l;
    *col = (uint32_t)(offset - line_start + 1);
}

static inline bool all_bytes(const unsigned char *p, size_t n, unsigned char c)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != c)
            return false;
    return true;
}

/* A decoded value between guard bytes, and its arena (decoded_free drops both). */
typedef struct decoded {
    unsigned char *mem; /* GUARD + value + GUARD */
    void *value;
    tagc_arena arena;
} decoded;

static inline void decoded_free(decoded *d)
{
    tagc_arena_free(&d->arena);
    free(d->mem);
    d->mem = NULL;
    d->value = NULL;
}

/*
 * Decodes doc[0..len) as t with opts, checking the invariants above (what
 * describes the case in failure messages). Returns the code and fills *err;
 * the value stays in *out. decode_checked frees it at once.
 */
static inline int decode_into(decoded *out, const target *t, const char *doc, size_t len,
                              const tagc_json_opts *opts, tagc_error *err, const char *what)
{
    char *src = malloc(len ? len : 1);
    char *copy = malloc(len ? len : 1);
    cr_assert(src && copy);
    if (len) {
        memcpy(src, doc, len);
        memcpy(copy, doc, len);
    }
    out->mem = malloc(t->size + 2 * GUARD);
    cr_assert(out->mem);
    memset(out->mem, GUARD_BYTE, t->size + 2 * GUARD);
    out->value = out->mem + GUARD;
    tagc_arena_init(&out->arena);

    memset(err, 0x5A, sizeof *err); /* garbage: the decoder must set every part it reports */
    int rc = t->decode(out->value, src, len, &out->arena, err, opts);

    cr_assert(all_bytes(out->mem, GUARD, GUARD_BYTE),
              "%s: %s wrote before the value", what, t->name);
    cr_assert(all_bytes(out->mem + GUARD + t->size, GUARD, GUARD_BYTE),
              "%s: %s wrote after the value", what, t->name);
    cr_assert(len == 0 || memcmp(src, copy, len) == 0, "%s: the input was modified", what);
    cr_assert(t->equal(out->value, out->value), "%s: value not _equal to itself", what);

    cr_assert_eq(err->code, rc, "%s: err->code %d but returned %d", what, err->code, rc);
    if (rc != 0) {
        cr_assert_lt(rc, 0, "%s: positive return %d", what, rc);
        cr_assert_leq(err->offset, len, "%s: offset %zu past the input (%zu bytes)", what,
                      err->offset, len);
        cr_assert(memchr(err->path, 0, sizeof err->path) != NULL, "%s: path not terminated", what);
        cr_assert(memchr(err->message, 0, sizeof err->message) != NULL,
                  "%s: message not terminated", what);
        cr_expect_eq(err->path[0], '$', "%s: path \"%s\" does not start with $", what, err->path);
        cr_assert_neq(err->message[0], 0, "%s: empty message", what);
        uint32_t line, col;
        line_col(src, err->offset, &line, &col);
        cr_assert(err->line == line && err->column == col,
                  "%s: offset %zu is %u:%u, but the error says %u:%u", what, err->offset, line, col,
                  err->line, err->column);
    }
    free(src);
    free(copy);
    return rc;
}

static inline int decode_checked(const target *t, const char *doc, size_t len,
                                 const tagc_json_opts *opts, tagc_error *err, const char *what)
{
    decoded d;
    int rc = decode_into(&d, t, doc, len, opts, err, what);
    decoded_free(&d);
    return rc;
}

/* The contents of a file, malloc'd; *len its size. */
static inline char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    cr_assert(fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f);
    cr_assert(n >= 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    cr_assert(buf);
    cr_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* A workload file under TAGC_DATA_DIR (data). */
static inline char *read_data(const char *rel, size_t *len)
{
    const char *dir = getenv("TAGC_DATA_DIR");
    cr_assert(dir, "TAGC_DATA_DIR is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return read_file(path, len);
}

#endif
