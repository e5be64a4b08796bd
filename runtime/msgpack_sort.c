/*
 * msgpack_sort.c - the order of map entries for writers generated with
 * --msgpack-sort-keys (vmihailenco/msgpack's SetSortMapKeys(true)): string keys
 * by their bytes, as Go's sort.Strings; integer keys by value. The entries
 * themselves stay where they are: the writer visits them through the order.
 */
#include <stdlib.h>
#include <string.h>

#include "tagc.h"

typedef struct keys_view {
    const tagc_str *strs; /* string keys, or NULL */
    const uint8_t *ints;  /* else integer keys of `size` bytes */
    size_t size;
    bool is_signed;
} keys_view;

static int64_t int_at(const keys_view *k, size_t i, uint64_t *u)
{
    const uint8_t *p = k->ints + i * k->size;
    switch (k->size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); *u = v; return (int8_t)v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); *u = v; return (int16_t)v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); *u = v; return (int32_t)v; }
    default: { uint64_t v; memcpy(&v, p, 8); *u = v; return (int64_t)v; }
    }
}

static int cmp_keys(const keys_view *k, size_t a, size_t b)
{
    if (k->strs) {
        const tagc_str *x = &k->strs[a], *y = &k->strs[b];
        size_t n = x->len < y->len ? x->len : y->len;
        int c = n ? memcmp(x->ptr, y->ptr, n) : 0;
        return c ? c : (x->len > y->len) - (x->len < y->len);
    }
    uint64_t ua, ub;
    int64_t sa = int_at(k, a, &ua), sb = int_at(k, b, &ub);
    if (k->is_signed)
        return (sa > sb) - (sa < sb);
    return (ua > ub) - (ua < ub);
}

/* A stable merge sort of idx[0..n) with tmp[0..n) as room. */
static void sort_idx(const keys_view *k, size_t *idx, size_t *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t mid = n / 2;
    sort_idx(k, idx, tmp, mid);
    sort_idx(k, idx + mid, tmp, n - mid);
    if (cmp_keys(k, idx[mid - 1], idx[mid]) <= 0)
        return;
    memcpy(tmp, idx, n * sizeof *idx);
    size_t a = 0, b = mid, o = 0;
    while (a < mid && b < n)
        idx[o++] = cmp_keys(k, tmp[b], tmp[a]) < 0 ? tmp[b++] : tmp[a++];
    while (a < mid)
        idx[o++] = tmp[a++];
    while (b < n)
        idx[o++] = tmp[b++];
}

static size_t *order(tagc_buf *b, const keys_view *k, size_t n)
{
    if (n < 2 || b->err)
        return NULL;
    size_t *idx = n <= SIZE_MAX / (2 * sizeof *idx) ? malloc(2 * n * sizeof *idx) : NULL;
    if (!idx) {
        tagc_buf_fail(b, TAGC_E_NOMEM);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_idx(k, idx, idx + n, n);
    return idx;
}

size_t *tagc_mp_order_str(tagc_buf *b, const tagc_str *keys, size_t n)
{
    keys_view k = {keys, NULL, 0, false};
    return order(b, &k, n);
}

size_t *tagc_mp_order_int(tagc_buf *b, const void *keys, size_t size, bool is_signed, size_t n)
{
    keys_view k = {NULL, keys, size, is_signed};
    return order(b, &k, n);
}

void tagc_mp_order_free(size_t *order)
{
    free(order);
}
