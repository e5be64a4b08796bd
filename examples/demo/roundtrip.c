/*
 * roundtrip.c - one document through every codec of its schema, the outputs
 * written to files so that two builds (say x86-64 and s390x under qemu) can be
 * compared byte for byte, with no test framework needed on the target.
 *
 *   roundtrip SCHEMA IN OUT
 *
 * SCHEMA is user, order, tree, twitter or canada (schemas/SCHEMA.tagc); IN a
 * JSON document of its root type. Writes OUT.json (compact, Go's
 * json.Marshal), OUT.indent.json (two-space indent) and OUT.mp (MessagePack).
 * Checks that the JSON output and the MessagePack both decode to a value equal
 * to the first decode. Exit 0 if all holds, 1 if not, 2 on usage or I/O errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canada.tagc.h"
#include "order.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"
#include "user.tagc.h"

/* One root type's codecs, through void pointers. */
typedef struct codecs {
    const char *name;
    size_t size;
    int (*decode_json)(void *v, const char *src, size_t len, tagc_arena *a, tagc_error *err);
    int (*encode_json)(const void *v, tagc_buf *out, const tagc_json_opts *opts);
    int (*decode_mp)(void *v, const uint8_t *src, size_t len, tagc_arena *a, tagc_error *err);
    int (*encode_mp)(const void *v, tagc_buf *out);
    bool (*equal)(const void *a, const void *b);
} codecs;

#define CODECS(id, type)                                                                    \
    static int id##_dj(void *v, const char *s, size_t n, tagc_arena *a, tagc_error *e)     \
    {                                                                                       \
        return type##_decode_json(v, s, n, a, e, NULL);                                     \
    }                                                                                       \
    static int id##_ej(const void *v, tagc_buf *o, const tagc_json_opts *opts)              \
    {                                                                                       \
        return type##_encode_json(v, o, opts);                                              \
    }                                                                                       \
    static int id##_dm(void *v, const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e)  \
    {                                                                                       \
        return type##_decode_msgpack(v, s, n, a, e);                                        \
    }                                                                                       \
    static int id##_em(const void *v, tagc_buf *o)                                          \
    {                                                                                       \
        return type##_encode_msgpack(v, o);                                                 \
    }                                                                                       \
    static bool id##_eq(const void *a, const void *b)                                       \
    {                                                                                       \
        return type##_equal(a, b);                                                          \
    }

CODECS(user, user_user)
CODECS(order, order_order)
CODECS(tree, tree_node)
CODECS(twitter, twitter_search_result)
CODECS(canada, canada_feature_collection)

#define ENTRY(id, type) {#id, sizeof(type), id##_dj, id##_ej, id##_dm, id##_em, id##_eq}
static const codecs all[] = {
    ENTRY(user, user_user),
    ENTRY(order, order_order),
    ENTRY(tree, tree_node),
    ENTRY(twitter, twitter_search_result),
    ENTRY(canada, canada_feature_collection),
};

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int write_file(const char *prefix, const char *suffix, const tagc_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s", prefix, suffix);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

/* Decodes src into a fresh value and compares it with first; 0 if equal. */
static int redecode(const codecs *c, const void *first, const tagc_buf *b, bool json,
                    const char *what)
{
    tagc_arena a;
    tagc_error err;
    tagc_arena_init(&a);
    void *v = calloc(1, c->size);
    int rc = !v ? TAGC_E_NOMEM
         : json ? c->decode_json(v, (const char *)b->data, b->len, &a, &err)
                : c->decode_mp(v, b->data, b->len, &a, &err);
    int bad = rc != 0 || !c->equal(first, v);
    if (rc != 0)
        fprintf(stderr, "roundtrip %s: decoding the %s: %s at %s\n", c->name, what,
                tagc_strerror(rc), err.path);
    else if (bad)
        fprintf(stderr, "roundtrip %s: the %s decodes to a different value\n", c->name, what);
    free(v);
    tagc_arena_free(&a);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: roundtrip user|order|tree|twitter|canada IN OUT\n");
        return 2;
    }
    const codecs *c = NULL;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(all[i].name, argv[1]))
            c = &all[i];
    if (!c) {
        fprintf(stderr, "roundtrip: no schema %s\n", argv[1]);
        return 2;
    }
    size_t len;
    char *src = read_file(argv[2], &len);
    if (!src) {
        perror(argv[2]);
        return 2;
    }
    tagc_arena arena;
    tagc_error err;
    tagc_arena_init(&arena);
    void *v = calloc(1, c->size);
    int rc = v ? c->decode_json(v, src, len, &arena, &err) : TAGC_E_NOMEM;
    if (rc != 0) {
        fprintf(stderr, "%s:%u:%u: %s: %s\n", argv[2], (unsigned)err.line, (unsigned)err.column,
                err.path, err.message);
        return 1;
    }
    tagc_buf json, indent, mp;
    tagc_buf_init(&json);
    tagc_buf_init(&indent);
    tagc_buf_init(&mp);
    tagc_json_opts pretty = {.indent = "  "};
    int bad = c->encode_json(v, &json, NULL) != 0 || c->encode_json(v, &indent, &pretty) != 0
           || c->encode_mp(v, &mp) != 0;
    if (bad)
        fprintf(stderr, "roundtrip %s: an encoder failed\n", c->name);
    else
        bad = redecode(c, v, &json, true, "JSON output") | redecode(c, v, &indent, true, "indented JSON")
            | redecode(c, v, &mp, false, "MessagePack");
    if (write_file(argv[3], ".json", &json) || write_file(argv[3], ".indent.json", &indent)
        || write_file(argv[3], ".mp", &mp))
        bad = 2;
    tagc_buf_free(&json);
    tagc_buf_free(&indent);
    tagc_buf_free(&mp);
    free(v);
    free(src);
    tagc_arena_free(&arena);
    return bad;
}
