/* diff_zero.h - Amount's IsZero (schemas/diff.tagc) in C, for //tagc:zero. */
#ifndef DIFF_ZERO_H
#define DIFF_ZERO_H

#include "diff.tagc.h"

bool diff_amount_is_zero(const diff_amount *a);

#endif
