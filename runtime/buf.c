/*
 * buf.c - tagc_buf: the output of every encoder. Growable (realloc, doubling)
 * or fixed over the caller's memory; errors are sticky.
 */
#include <stdlib.h>

#include "tagc.h"

void tagc_buf_init(tagc_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->err = 0;
    b->fixed = false;
    b->spill = NULL;
    b->max_depth = TAGC_DEFAULT_MAX_DEPTH;
    b->why = NULL;
    b->depth = 0;
    b->deep_at = NULL;
    b->deep_type = NULL;
}

void tagc_buf_init_fixed(tagc_buf *b, void *mem, size_t cap)
{
    b->data = mem;
    b->len = 0;
    b->cap = mem ? cap : 0;
    b->err = 0;
    b->fixed = true;
    b->spill = NULL;
    b->max_depth = TAGC_DEFAULT_MAX_DEPTH;
    b->why = NULL;
    b->depth = 0;
    b->deep_at = NULL;
    b->deep_type = NULL;
}

void tagc_buf_free(tagc_buf *b)
{
    if (!b->fixed)
        free(b->data);
    tagc_buf_init(b);
}

void tagc_buf_reset(tagc_buf *b)
{
    b->len = 0;
    b->err = 0;
    b->depth = 0;
    b->deep_at = NULL;
    b->deep_type = NULL;
}

int tagc_buf_grow(tagc_buf *b, size_t n)
{
    if (b->err)
        return b->err;
    if (b->cap - b->len >= n)
        return 0;
    if (b->fixed || n > SIZE_MAX - b->len) {
        b->err = b->fixed ? TAGC_E_FULL : TAGC_E_NOMEM;
        return b->err;
    }
    size_t need = b->len + n;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *data = realloc(b->data, cap);
    if (!data) {
        b->err = TAGC_E_NOMEM;
        return b->err;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

#if TAGC_RUNTIME_OS /* tagc.h: -Os, one copy for the whole runtime */
void tagc_buf_put_call(tagc_buf *b, const void *p, size_t n)
{
    if (tagc_buf_reserve(b, n) != 0)
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void tagc_buf_byte_call(tagc_buf *b, uint8_t c)
{
    if (tagc_buf_reserve(b, 1) != 0)
        return;
    b->data[b->len++] = c;
}
#endif
