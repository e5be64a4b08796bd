/*
 * swar.h - eight digits at a time (SWAR) for the number readers, on
 * little-endian machines; TAGC_SWAR is 0 elsewhere. Private to the runtime.
 */
#ifndef TAGC_SWAR_H
#define TAGC_SWAR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define IS_DIGIT(c) ((unsigned)((unsigned char)(c) - '0') < 10u)

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
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

/* The value of eight ASCII digits. */
static inline uint64_t parse_8digits(uint64_t v)
{
    v -= 0x3030303030303030ULL;
    v = (v * 10) + (v >> 8);
    v = (((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
         (((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    return v & 0xFFFFFFFFu;
}
#else
#define TAGC_SWAR 0
#endif

#endif /* TAGC_SWAR_H */
