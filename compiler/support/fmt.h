/*
 * fmt.h - printf formats parsed once (strbuf.c): a cache of each format's
 * pieces and conversions, by the format's address, for the formats the
 * generators use again and again (emit's and pool_printf's string literals).
 */
#ifndef TAGC_FMT_H
#define TAGC_FMT_H

#include <stdarg.h>

#include "pipeline.h"

typedef struct fmt_cache fmt_cache;
fmt_cache *fmt_cache_new(void);
void fmt_cache_free(fmt_cache *c);
/* sb_vprintf with fmt parsed when first seen: fmt must be a string literal
 * (its text never changes while c lives). */
void sb_vprintf_cached(strbuf *sb, fmt_cache *c, const char *fmt, va_list ap);

#endif /* TAGC_FMT_H */
