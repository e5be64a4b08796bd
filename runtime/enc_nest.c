/*
 * enc_nest.c - the encoders' nesting limit and cycle check (tagc.h, "Encoder
 * nesting"). The fast paths are inline in tagc.h; here is what runs once a
 * value has gone too deep: the error, its path as the failure unwinds, and the
 * test that tells a cycle from a value that is only deep.
 *
 * A cycle is found without a set of seen pointers: the value the limit is hit
 * at (deep_at) is, in a cyclic value, on the cycle, so it is met again among
 * the values the failure unwinds through, within one turn of the cycle.
 */
#include <stdio.h>
#include <string.h>

#include "tagc.h"

bool tagc_enc_enter_slow(tagc_buf *b, int max, int margin, const void *v, const char *type)
{
    if (max <= 0)
        max = TAGC_DEFAULT_MAX_DEPTH;
    if (b->depth + margin < max && b->err == 0) {
        b->depth++;
        return true;
    }
    if (b->err != 0)
        return false; /* an earlier failure stands */
    b->err = TAGC_E_DEPTH;
    b->deep_at = v;
    b->deep_type = type;
    if (b->why)
        tagc_error_set(b->why, TAGC_E_DEPTH, 0, "nesting deeper than %d levels (max_depth)", max);
    return false;
}

/* The part of the path, and the cycle test, for one level. */
static void unwind_level(tagc_buf *b, const void *v, const char *type)
{
    if (b->deep_at == NULL || v != b->deep_at || strcmp(type, b->deep_type) != 0)
        return;
    b->deep_at = NULL; /* found: the rest of the way only adds to the path */
    b->err = TAGC_E_INVALID;
    if (b->why) {
        char path[TAGC_PATH_MAX];
        memcpy(path, b->why->path, sizeof path); /* error_set clears it */
        tagc_error_set(b->why, TAGC_E_INVALID, 0, "encountered a cycle via %s", type);
        memcpy(b->why->path, path, sizeof path);
    }
}

void tagc_enc_unwind(tagc_buf *b, const void *v, const char *type, const char *key, size_t len,
                     size_t index)
{
    if (b->why) {
        if (key)
            tagc_error_push_key(b->why, key, len);
        else
            tagc_error_push_index(b->why, index);
    }
    unwind_level(b, v, type);
}

void tagc_enc_unwind_int(tagc_buf *b, const void *v, const char *type, int64_t key)
{
    char tmp[TAGC_I64_MAX_CHARS];
    tagc_enc_unwind(b, v, type, tmp, tagc_fmt_i64(tmp, key), 0);
}

void tagc_enc_unwind_uint(tagc_buf *b, const void *v, const char *type, uint64_t key)
{
    char tmp[TAGC_I64_MAX_CHARS];
    tagc_enc_unwind(b, v, type, tmp, tagc_fmt_u64(tmp, key), 0);
}

void tagc_enc_done(tagc_buf *b)
{
    b->depth = 0;
    if (b->err != 0 && b->why && b->deep_type == NULL) /* a failure of another kind */
        tagc_error_set(b->why, b->err, 0, "%s", tagc_strerror(b->err));
    if (b->err != 0 && b->why) {
        size_t have = strlen(b->why->path);
        if (have + 1 < TAGC_PATH_MAX) {
            memmove(b->why->path + 1, b->why->path, have + 1);
            b->why->path[0] = '$';
        }
    }
    b->deep_at = NULL;
    b->deep_type = NULL;
}
