/*
 * build.c - what a program building a value by hand needs: copies of strings
 * and bytes, and slices grown, in an arena (tagc.h, MARK: - Building values).
 */
#include "tagc.h"

int tagc_str_copy(tagc_arena *a, tagc_str *out, const char *p, size_t len)
{
    if (len == SIZE_MAX)
        return TAGC_E_NOMEM;
    char *s = tagc_arena_alloc(a, len + 1);
    if (!s)
        return TAGC_E_NOMEM;
    if (len)
        memcpy(s, p, len);
    s[len] = '\0';
    out->ptr = s;
    out->len = len;
    return 0;
}

int tagc_str_copy_cstr(tagc_arena *a, tagc_str *out, const char *cstr)
{
    return tagc_str_copy(a, out, cstr, cstr ? strlen(cstr) : 0);
}

int tagc_bytes_copy(tagc_arena *a, tagc_bytes *out, const void *p, size_t len)
{
    if (len == 0) {
        out->ptr = TAGC_EMPTY;
        out->len = 0;
        return 0;
    }
    uint8_t *b = tagc_arena_alloc(a, len);
    if (!b)
        return TAGC_E_NOMEM;
    memcpy(b, p, len);
    out->ptr = b;
    out->len = len;
    return 0;
}

void *tagc_slice_grow(tagc_arena *a, const void *ptr, size_t len, size_t add, size_t elem_size)
{
    size_t n = len + add;
    if (n < len || (elem_size && n > SIZE_MAX / elem_size))
        return NULL; /* no such size */
    if (n == 0 || elem_size == 0)
        return TAGC_EMPTY;
    size_t old_size = ptr && len ? len * elem_size : 0;
    /* tagc_arena_grow extends in place only its latest allocation, else copies
     * old_size bytes: ptr is only read (it may be TAGC_EMPTY or the caller's). */
    uint8_t *p = tagc_arena_grow(a, (void *)(uintptr_t)ptr, old_size, n * elem_size);
    if (!p)
        return NULL;
    memset(p + old_size, 0, n * elem_size - old_size);
    return p;
}
