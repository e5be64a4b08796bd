/* go127_codec.h - the C codecs of tests/go/schemas/go127.tagc's Label and Cents:
 * what their Go methods (AppendText/UnmarshalText, MarshalJSONTo/UnmarshalJSONFrom)
 * read and write. */
#ifndef GO127_CODEC_H
#define GO127_CODEC_H

#include "tagc.h"

int go127_label_json_read(tagc_json_dec *d, int64_t *v);
void go127_label_json_write(tagc_buf *out, const int64_t *v, const tagc_json_opts *o);
int go127_cents_json_read(tagc_json_dec *d, int64_t *v);
void go127_cents_json_write(tagc_buf *out, const int64_t *v, const tagc_json_opts *o);

#endif
