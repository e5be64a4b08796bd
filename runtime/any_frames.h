/*
 * any_frames.h - the explicit stacks of the `any` readers and writers (any.c
 * for JSON, msgpack_read.c and msgpack_write.c for MessagePack): one frame for
 * each array or object open, so a level of nesting costs a frame of this stack
 * (a few on the C stack, the rest on the heap) and no C stack frame
 * (tests/errors/test_stack.c). The readers' frames are their own types; they
 * grow with any_frames_grow as the writers' do.
 */
#ifndef TAGC_ANY_FRAMES_H
#define TAGC_ANY_FRAMES_H

#include <stdlib.h>
#include <string.h>

#include "tagc.h"

/* An array or object being written: its members before `next` are written;
 * `cur` is the member written last (JSON's objects: in sorted order), `order`
 * the sorted order of an object's keys (heap), else NULL. */
typedef struct any_frame {
    const tagc_any *a;
    size_t next;
    size_t cur;
    size_t *order;
} any_frame;

/* Frames kept on the C stack before the rest go to the heap. */
#define ANY_LOCAL_FRAMES 8

typedef struct any_frames {
    any_frame *f;
    size_t n, cap;
    any_frame local[ANY_LOCAL_FRAMES];
} any_frames;

static inline void any_frames_init(any_frames *s)
{
    s->f = s->local;
    s->n = 0;
    s->cap = ANY_LOCAL_FRAMES;
}

/* Twice the room for a stack of n frames of size bytes, *cap of them at frames
 * (local: the ones on the C stack, never freed): the frames copied to the heap
 * and *cap doubled, or NULL out of memory with the stack as it was. */
static inline void *any_frames_grow(void *frames, const void *local, size_t n, size_t *cap,
                                    size_t size)
{
    size_t c = *cap * 2;
    void *f = c <= SIZE_MAX / size ? malloc(c * size) : NULL;
    if (!f)
        return NULL;
    memcpy(f, frames, n * size);
    if (frames != local)
        free(frames);
    *cap = c;
    return f;
}

/* A new frame on top (zeroed but for a), or NULL out of memory. */
static inline any_frame *any_frames_push(any_frames *s, const tagc_any *a)
{
    if (s->n == s->cap) {
        any_frame *f = any_frames_grow(s->f, s->local, s->n, &s->cap, sizeof *f);
        if (!f)
            return NULL;
        s->f = f;
    }
    any_frame *top = &s->f[s->n++];
    *top = (any_frame){a, 0, 0, NULL};
    return top;
}

static inline void any_frames_free(any_frames *s)
{
    if (s->f != s->local)
        free(s->f);
}

#endif /* TAGC_ANY_FRAMES_H */
