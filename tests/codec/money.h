/* money.h - the C type of codec.tagc's Money (test_codec.c has its codec). */
#ifndef MONEY_H
#define MONEY_H
#include <stdbool.h>
#include <stdint.h>

struct money {
    int64_t cents;
    char currency[4];
};

#endif
