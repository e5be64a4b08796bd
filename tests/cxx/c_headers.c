/*
 * c_headers.c - every C11 standard header (and C23's macros, where glibc has
 * them), then every generated header: a generated name that a standard header
 * defines as a macro (complex, errno, bool, and, ...) would break here.
 */
#include <assert.h>
#include <complex.h>
#include <ctype.h>
#include <errno.h>
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <iso646.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <tgmath.h>
#include <threads.h>
#include <time.h>
#include <uchar.h>
#include <wchar.h>
#include <wctype.h>

/* every generated header: those of generated/ and of the keyword schemas (written
 * by check_headers.sh, so that a new schema is included without an edit here) */
#include "all_generated.h"

/* The renamed names are the ones the header declares. */
int c_headers_use(co_yield_ *y, int_fast8_t_ *f);
int c_headers_use(co_yield_ *y, int_fast8_t_ *f)
{
    y->complex_ = 1.5;
    y->errno_ = EDOM;
    y->bool_ = true;
    f->limit = INT_LEAST8_MAX_;
    return y->template_.new_ + (int)f->limit;
}
