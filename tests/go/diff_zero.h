/* diff_zero.h - Amount's IsZero (schemas/diff.tagc) in C, for //tagc:zero.
 * DIFF_TAGC_H: the generated header of the profile's copy (meson.build). */
#ifndef DIFF_ZERO_H
#define DIFF_ZERO_H

#include DIFF_TAGC_H

bool diff_amount_is_zero(const diff_amount *a);

#endif
