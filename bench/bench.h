/*
 * bench.h - what the benchmark driver (bench.c) and the hand-written mappings
 * (m_cjson.c, m_jansson.c, m_jsonc.c, all built from mappings.h) share.
 *
 * Every contender maps JSON to and from the SAME C structs: the ones tagc
 * generates from the schemas/ files. So a decode by any contender can be checked
 * against tagc's with the generated <type>_equal functions.
 */
#ifndef TAGC_BENCH_H
#define TAGC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "canada.tagc.h"
#include "citm.tagc.h"
#include "order.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"
#include "user.tagc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every input document the driver hands a decoder has at least this many
 * readable bytes after its end (zeroed): simdjson needs them
 * (SIMDJSON_PADDING) to read 64 bytes at a time without copying the input. */
#define BENCH_PADDING 64

/* The workloads, in table order. */
enum { W_USER, W_ORDER, W_TREE, W_TWITTER, W_CANADA, W_CITM, W_COUNT };

/*
 * A hand-written mapping for one workload.
 * decode: parse src[0..len) with the library, then fill *value (the generated
 *   struct; zeroed first, as Go's decoder starts from the zero value) with every
 *   string, slice and struct copied into arena, then free the library's tree.
 *   Returns 0, or -1 when the document is not JSON or does not fit the type.
 * encode: build the library's tree from *value, serialise it compactly, append
 *   the text to out, free the tree. Returns 0 or -1.
 */
typedef struct bench_codec {
    int (*decode)(const char *src, size_t len, void *value, tagc_arena *arena);
    int (*encode)(const void *value, tagc_buf *out);
} bench_codec;

extern const bench_codec bench_cjson_codecs[W_COUNT];
extern const bench_codec bench_jansson_codecs[W_COUNT];
extern const bench_codec bench_jsonc_codecs[W_COUNT];
/* simdjson (m_simdjson_ondemand.cpp, m_simdjson_dom.cpp, C++): decode only,
 * every encode entry is NULL (simdjson 3.0 has no way to build a document). */
extern const bench_codec bench_simdjson_od_codecs[W_COUNT];
extern const bench_codec bench_simdjson_dom_codecs[W_COUNT];
/* The MessagePack contender (m_msgpackc.c): the same interface, src and out
 * hold MessagePack; entries for user, order and tree only (the others NULL). */
extern const bench_codec bench_msgpackc_codecs[W_COUNT];

/* Library versions, for the machine line (jansson.h and json-c's json.h cannot
 * be included in the same file: both define json_object). */
const char *bench_jansson_version(void);
const char *bench_jsonc_version(void);
const char *bench_msgpackc_version(void);
/* simdjson's version and the kernel it chose at run time for this CPU
 * (simdjson::get_active_implementation(): "haswell", "westmere", "fallback"...) */
const char *bench_simdjson_version(void);
const char *bench_simdjson_kernel(void);

/* Allocation counting (alloc_count.c): calls of malloc, calloc and realloc
 * made by anyone in the process since it started. */
extern size_t bench_alloc_calls;

/* cJSON keeps every number as a double: an int64 above 2^53 in magnitude comes
 * out rounded. This is that rounding (saturating at the int64 range), used by
 * the cJSON mapping and by the check that knows about it. */
static inline int64_t bench_i64_via_double(int64_t v)
{
    double d = (double)v;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    if (d < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

#ifdef __cplusplus
}
#endif

#endif
