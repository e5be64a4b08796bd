/* m_simdjson_ondemand.cpp - the hand-written mappings (mappings.h) compiled as C++17
 * over dom_simdjson_ondemand.h: decode only (simdjson has no encoder). */
#include "dom_simdjson_ondemand.h"
/* twitter's user has a Go field named "protected", a C++ keyword: the struct
 * is the same, only its member is spelt differently in this file. */
#define protected protected_
#include "bench.h"
#define BENCH_CODECS bench_simdjson_od_codecs
#define BENCH_NO_ENCODE
#include "mappings.h"
#undef protected

static_assert(BENCH_PADDING >= simdjson::SIMDJSON_PADDING, "the driver pads less than simdjson reads");

#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)
const char *bench_simdjson_version(void) { return BENCH_STR(SIMDJSON_VERSION); }
const char *bench_simdjson_kernel(void)
{
    return simdjson::get_active_implementation()->name().c_str();
}
