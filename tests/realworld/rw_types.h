/* rw_types.h - the root types of one project of the real-world corpus, as
 * driver.c calls them; run.py generates their table (rw_types.c) from the
 * header tagc wrote. */
#ifndef RW_TYPES_H
#define RW_TYPES_H
#include <stddef.h>
#include <stdint.h>

#include "tagc.h"

typedef struct rw_type {
    const char *name; /* the Go type's name */
    size_t size;
    int (*decode_json)(void *v, const char *src, size_t len, tagc_arena *a, tagc_error *e);
    int (*encode_json)(const void *v, tagc_buf *out);
    int (*decode_mp)(void *v, const uint8_t *src, size_t len, tagc_arena *a, tagc_error *e);
    int (*encode_mp)(const void *v, tagc_buf *out);
} rw_type;

extern const rw_type rw_types[];
extern const size_t rw_ntypes;

#endif
