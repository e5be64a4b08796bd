/* m_jansson.c - the hand-written mappings (mappings.h) compiled over dom_jansson.h. */
#include "bench.h"
#include "dom_jansson.h"
#define BENCH_CODECS bench_jansson_codecs
#include "mappings.h"

const char *bench_jansson_version(void) { return JANSSON_VERSION; }
