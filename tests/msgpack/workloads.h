/*
 * workloads.h - the schemas' root types behind one function-pointer interface,
 * for the MessagePack tests and mp_tool (wrappers, not casts of the generated
 * functions, so that every call has the callee's own type).
 */
#ifndef TAGC_TEST_MSGPACK_WORKLOADS_H
#define TAGC_TEST_MSGPACK_WORKLOADS_H

#include <stdlib.h>
#include <string.h>

#include <tagc.h>

#include "canada.tagc.h"
#include "citm.tagc.h"
#include "kitchen_sink.tagc.h"
#include "order.tagc.h"
#include "reference.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"
#include "user.tagc.h"

typedef struct codec {
    const char *name;
    size_t size;
    void (*init)(void *v);
    bool (*equal)(const void *a, const void *b);
    int (*decode_json)(void *v, const char *src, size_t len, tagc_arena *a, tagc_error *e);
    int (*encode_json)(const void *v, tagc_buf *out);
    int (*decode_mp)(void *v, const uint8_t *src, size_t len, tagc_arena *a, tagc_error *e,
                     const tagc_json_opts *o);
    int (*encode_mp)(const void *v, tagc_buf *out);
} codec;

#define CODEC_FUNCS(T)                                                                     \
    static void T##_w_init(void *v) { T##_init(v); }                                       \
    static bool T##_w_equal(const void *a, const void *b) { return T##_equal(a, b); }      \
    static int T##_w_dj(void *v, const char *s, size_t n, tagc_arena *a, tagc_error *e)    \
    {                                                                                      \
        return T##_decode_json(v, s, n, a, e, NULL);                                       \
    }                                                                                      \
    static int T##_w_ej(const void *v, tagc_buf *out) { return T##_encode_json(v, out, NULL); } \
    static int T##_w_dm(void *v, const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e, \
                        const tagc_json_opts *o)                                           \
    {                                                                                      \
        return T##_decode_msgpack_opts(v, s, n, a, e, o);                                  \
    }                                                                                      \
    static int T##_w_em(const void *v, tagc_buf *out) { return T##_encode_msgpack(v, out); }
#define CODEC(T)                                                                       \
    {                                                                                  \
        #T, sizeof(T), T##_w_init, T##_w_equal, T##_w_dj, T##_w_ej, T##_w_dm, T##_w_em \
    }

/* Every named type of every schema in schemas/. */
#define ALL_TYPES(X)                                                                         \
    X(canada_feature_collection) X(canada_feature) X(canada_geometry) X(canada_properties)   \
    X(citm_area) X(citm_catalog) X(citm_event) X(citm_performance) X(citm_price)             \
    X(citm_seat_category)                                                                    \
    X(order_address) X(order_customer) X(order_geo) X(order_item) X(order_order)            \
    X(order_status) X(reference_report_user) X(reference_tree_node) X(reference_user)       \
    X(sink_audit) X(sink_base) X(sink_color) X(sink_doc) X(sink_label) X(sink_matrix)       \
    X(sink_money) X(sink_names) X(sink_node) X(sink_perm) X(sink_points) X(sink_priority)   \
    X(sink_scalars) X(sink_sink) X(sink_tags) X(sink_unit) X(tree_node)                     \
    X(twitter_bounding_box) X(twitter_contributor) X(twitter_entities) X(twitter_hashtag)   \
    X(twitter_media) X(twitter_media_size) X(twitter_media_sizes) X(twitter_place)          \
    X(twitter_point) X(twitter_search_metadata) X(twitter_search_result) X(twitter_status)  \
    X(twitter_status_metadata) X(twitter_symbol) X(twitter_urls) X(twitter_url)            \
    X(twitter_user) X(twitter_user_entities) X(twitter_user_mention) X(user_user)

ALL_TYPES(CODEC_FUNCS)

#define CODEC_ENTRY(T) CODEC(T),
static const codec all_codecs[] = {ALL_TYPES(CODEC_ENTRY)};
#define N_CODECS (sizeof all_codecs / sizeof all_codecs[0])

static inline const codec *find_codec(const char *name)
{
    for (size_t i = 0; i < N_CODECS; i++)
        if (strcmp(all_codecs[i].name, name) == 0)
            return &all_codecs[i];
    return NULL;
}

/* A whole file, malloc'd, NUL-terminated; NULL when it cannot be read. */
static inline char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap + 1);
    size_t r;
    while (s && (r = fread(s + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *t = realloc(s, 2 * cap + 1);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    *len = n;
    return s;
}

#endif
