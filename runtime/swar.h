/*
 * swar.h - eight digits at a time (SWAR) for the number readers, on
 * little-endian machines; TAGC_SWAR is 0 elsewhere. Private to the runtime.
 */
#ifndef TAGC_SWAR_H
#define TAGC_SWAR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tagc.h" /* TAGC_INLINE_INT, tagc_digits_value */

#define IS_DIGIT(c) ((unsigned)((unsigned char)(c) - '0') < 10u)

#if TAGC_INLINE_INT /* little-endian GNU C, as tagc.h's in-line integer reader */
#define TAGC_SWAR 1
static inline uint64_t load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* All eight bytes are ASCII digits. */
static inline bool is_8digits(uint64_t v)
{
    return ((v & 0xF0F0F0F0F0F0F0F0ULL) | (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) ==
           0x3333333333333333ULL;
}

/* The value of eight ASCII digits: tagc.h's word reader, the one generated code uses. */
static inline uint64_t parse_8digits(uint64_t v)
{
    return tagc_digits_value(v, 8);
}
#else
#define TAGC_SWAR 0
#endif

#endif /* TAGC_SWAR_H */
