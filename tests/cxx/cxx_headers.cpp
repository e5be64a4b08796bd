/*
 * cxx_headers.cpp - the C++ standard library's headers (with their C ones),
 * then every generated header: compiled by check_headers.sh as C++11, 17 and 20.
 */
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cfloat>
#include <cinttypes>
#include <ciso646>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cwchar>
#include <string>
#include <vector>
#include <assert.h>
#include <complex.h>
#include <errno.h>
#include <iso646.h>
#include <stdbool.h>
#include <stdio.h>

/* every generated header: those of generated/ and of the keyword schemas (written
 * by check_headers.sh, so that a new schema is included without an edit here) */
#include "all_generated.h"

/* The renamed names are the ones the header declares. */
int cxx_headers_use(co_await_ &a, co_yield_ &y);
int cxx_headers_use(co_await_ &a, co_yield_ &y)
{
    a.class_ = co_class_of(CO_CLASS_PUBLIC);
    a.co_await_ = 1;
    y.complex_ = 2.5;
    return y.template_.new_ + a.new_;
}
