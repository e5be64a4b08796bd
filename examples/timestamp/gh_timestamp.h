/*
 * gh_timestamp.h - the C codec of go-github's Timestamp (gh_timestamp.c). The
 * generated github.tagc.h declares the same functions (on github_timestamp,
 * which is tagc_time); this header lets the codec build without it.
 */
#ifndef GH_TIMESTAMP_H
#define GH_TIMESTAMP_H

#include <tagc.h>

#ifdef __cplusplus
extern "C" {
#endif

int gh_timestamp_json_read(tagc_json_dec *d, tagc_time *v);
void gh_timestamp_json_write(tagc_buf *out, const tagc_time *v, const tagc_json_opts *o);
int gh_timestamp_msgpack_read(tagc_mp_dec *d, tagc_time *v);
void gh_timestamp_msgpack_write(tagc_buf *out, const tagc_time *v);
bool gh_timestamp_is_zero(const tagc_time *v);
bool gh_timestamp_equal(const tagc_time *a, const tagc_time *b);

#ifdef __cplusplus
}
#endif
#endif /* GH_TIMESTAMP_H */
