/* m_cjson.c - the hand-written mappings (mappings.h) compiled over dom_cjson.h. */
#include "bench.h"
#include "dom_cjson.h"
#define BENCH_CODECS bench_cjson_codecs
#include "mappings.h"
