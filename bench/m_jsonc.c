/* m_jsonc.c - the hand-written mappings (mappings.h) compiled over dom_jsonc.h. */
#include "bench.h"
#include "dom_jsonc.h"
#define BENCH_CODECS bench_jsonc_codecs
#include "mappings.h"

const char *bench_jsonc_version(void) { return json_c_version(); }
