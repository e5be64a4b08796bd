/* m_simdjson_dom.cpp - the hand-written mappings (mappings.h) compiled as C++17
 * over dom_simdjson_dom.h: decode only (simdjson has no encoder). */
#include "dom_simdjson_dom.h"
/* twitter's user has a Go field named "protected", a C++ keyword: the struct
 * is the same, only its member is spelt differently in this file. */
#define protected protected_
#include "bench.h"
#define BENCH_CODECS bench_simdjson_dom_codecs
#define BENCH_NO_ENCODE
#include "mappings.h"
#undef protected
