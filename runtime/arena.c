/*
 * arena.c - tagc_arena: a block allocator for decoded values. Blocks double in
 * size; reset keeps one block as large as everything the last use needed, so a
 * warm arena serves the next decode without calling malloc.
 */
#include <stdlib.h>

#include "tagc.h"

struct tagc_arena_block {
    tagc_arena_block *next;
    size_t size; /* bytes of data */
    /* data follows, aligned to 16 */
};

#define HEADER ((sizeof(tagc_arena_block) + 15u) & ~(size_t)15u)
#define FIRST_BLOCK 4096u
#define MAX_STEP ((size_t)64 << 20) /* growth stops doubling here */

static uint8_t *block_data(tagc_arena_block *b)
{
    return (uint8_t *)b + HEADER;
}

void tagc_arena_init(tagc_arena *a)
{
    tagc_arena_init_limit(a, 0);
}

void tagc_arena_init_limit(tagc_arena *a, size_t limit)
{
    a->head = NULL;
    a->full = NULL;
    a->ptr = NULL;
    a->end = NULL;
    a->total = 0;
    a->limit = limit;
}

static tagc_arena_block *new_block(tagc_arena *a, size_t size)
{
    if (size > SIZE_MAX - HEADER)
        return NULL;
    if (a->limit && (size + HEADER > a->limit || a->total > a->limit - size - HEADER))
        return NULL;
    tagc_arena_block *b = malloc(HEADER + size);
    if (!b)
        return NULL;
    b->next = NULL;
    b->size = size;
    a->total += HEADER + size;
    return b;
}

static void use_block(tagc_arena *a, tagc_arena_block *b)
{
    if (a->head) {
        a->head->next = a->full;
        a->full = a->head;
    }
    a->head = b;
    a->ptr = block_data(b);
    a->end = a->ptr + b->size;
}

void *tagc_arena_alloc_slow(tagc_arena *a, size_t size)
{
    size_t want = a->head ? a->head->size : FIRST_BLOCK;
    if (a->head)
        want = want < MAX_STEP ? want * 2 : want;
    if (want < size)
        want = size;
    tagc_arena_block *b = new_block(a, want);
    if (!b && want > size)
        b = new_block(a, size); /* under a limit, take just what is needed */
    if (!b)
        return NULL;
    use_block(a, b);
    void *p = a->ptr;
    a->ptr += size;
    return p;
}

static void free_list(tagc_arena_block *b)
{
    while (b) {
        tagc_arena_block *next = b->next;
        free(b);
        b = next;
    }
}

void tagc_arena_reset(tagc_arena *a)
{
    if (!a->head)
        return;
    if (a->full) {
        /* Several blocks: replace them by one that holds them all. */
        size_t sum = a->head->size;
        for (tagc_arena_block *b = a->full; b; b = b->next)
            sum += b->size;
        free_list(a->full);
        free(a->head);
        size_t limit = a->limit;
        tagc_arena_init_limit(a, limit);
        tagc_arena_block *b = new_block(a, sum);
        if (b)
            use_block(a, b);
        return;
    }
    a->ptr = block_data(a->head);
    a->end = a->ptr + a->head->size;
}

void tagc_arena_free(tagc_arena *a)
{
    free_list(a->full);
    free(a->head);
    tagc_arena_init_limit(a, a->limit);
}

void *tagc_arena_grow(tagc_arena *a, void *p, size_t old_size, size_t new_size)
{
    size_t old_al = (old_size + 7u) & ~(size_t)7u;
    size_t new_al = (new_size + 7u) & ~(size_t)7u;
    if (new_al < new_size || old_al < old_size)
        return NULL; /* no such size */
    if (new_size <= old_size) {
        if (p && (uint8_t *)p + old_al == a->ptr)
            a->ptr = (uint8_t *)p + new_al; /* the last allocation: give back the rest */
        return p;
    }
    if (p && (uint8_t *)p + old_al == a->ptr && new_al - old_al <= (size_t)(a->end - a->ptr)) {
        a->ptr = (uint8_t *)p + new_al; /* the last allocation: extend in place */
        return p;
    }
    void *q = tagc_arena_alloc(a, new_size);
    if (q && p && old_size)
        memcpy(q, p, old_size);
    return q;
}

#if TAGC_RUNTIME_OS /* tagc.h: -Os, one copy for the whole runtime */
void *tagc_arena_alloc_call(tagc_arena *a, size_t size)
{
    size_t rounded = (size + 7u) & ~(size_t)7u;
    if (rounded < size)
        return NULL; /* no such size */
    if (a->ptr != NULL && rounded <= (size_t)(a->end - a->ptr)) {
        void *p = a->ptr;
        a->ptr += rounded;
        return p;
    }
    return tagc_arena_alloc_slow(a, rounded);
}
#endif
