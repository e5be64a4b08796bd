/* diff_zero.c - what Amount.IsZero returns in Go: no amount, whatever its unit. */
#include "diff_zero.h"

bool diff_amount_is_zero(const diff_amount *a)
{
    return a->cents == 0;
}
